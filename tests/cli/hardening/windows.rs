//! The Windows hardening set (SPEC §20.1, §20.6), run under Wine here: a
//! junction and a link out of the workspace, files named like devices, a
//! path over 260 characters, and imports written with `.\` and `..\`:
//! nothing from outside printed, no hang.

use std::path::Path;

use super::{run, trusted_json};
use crate::support::{TestEnv, write_file};

/// Makes `link` a junction to `target` with `cmd /c mklink /J`; false when
/// this system cannot.
fn junction(target: &Path, link: &Path) -> bool {
    std::process::Command::new("cmd")
        .args(["/c", "mklink", "/J"])
        .arg(link)
        .arg(target)
        .output()
        .is_ok_and(|out| out.status.success())
        && std::fs::symlink_metadata(link).is_ok()
}

#[test]
fn links_devices_long_paths_and_backslash_imports_leak_nothing() {
    let env = TestEnv::new();
    let secret = "OUTSIDE-SECRET-5e1f";
    let outside = env.root.join("outside");
    write_file(&outside.join("rules/x.md"), secret);
    write_file(&outside.join("out.md"), secret);
    write_file(&env.root.join("sibling.md"), secret);
    let rules = env.ws.join(".claude/rules");
    std::fs::create_dir_all(&rules).expect("rules dir");
    let made_junction = junction(&outside.join("rules"), &rules.join("junction"));
    let made_link =
        std::os::windows::fs::symlink_file(outside.join("out.md"), rules.join("link.md")).is_ok();
    eprintln!("note: junction made: {made_junction}, link made: {made_link}");
    // Through the verbatim form, so that Windows makes the files the names
    // say rather than opening devices.
    let verbatim = env.ws.canonicalize().expect("canonical workspace");
    write_file(&verbatim.join(".claude/rules/CON.md"), "Console rule.\n");
    write_file(&verbatim.join(".claude/rules/aux/x.md"), "Aux rule.\n");
    let deep: String = (0..24).map(|i| format!("directory-{i:02}/")).collect();
    write_file(
        &verbatim.join(format!(".claude/rules/{deep}deep.md")),
        "Deep rule.\n",
    );
    env.write("docs/x.md", "Docs inside.\n");
    env.write(
        "CLAUDE.md",
        "Project.\n\n@.\\docs\\x.md\n@..\\sibling.md\n@..\\outside\\out.md\n",
    );
    for args in [
        &["rules", "list"][..],
        &["--agent", "claude", "assemble"][..],
        &["lint"][..],
    ] {
        let out = trusted_json(&env, args);
        assert!(
            !out.stdout.contains(secret) && !out.stderr.contains(secret),
            "{args:?} leaked:\n{}\n{}",
            out.stdout,
            out.stderr
        );
    }
    // The files named like devices and the deep one are read as the files
    // they are, named with `/`: the top-level rule by every profile, the
    // nested ones by Claude Code's.
    let out = run(&env, &["--trust-project", "rules", "list"]);
    assert!(
        out.stdout.contains(".claude/rules/CON.md"),
        "{}",
        out.stdout
    );
    let out = trusted_json(&env, &["--agent", "claude", "assemble"]);
    for (rule, text) in [
        ("CON.md".to_string(), "Console rule."),
        ("aux/x.md".to_string(), "Aux rule."),
        (format!("{deep}deep.md"), "Deep rule."),
    ] {
        let path = format!("\"path\": \".claude/rules/{rule}\"");
        assert!(out.stdout.contains(&path), "{rule}:\n{}", out.stdout);
        assert!(out.stdout.contains(text), "{rule}:\n{}", out.stdout);
    }
}
