//! The Windows hardening set (SPEC §20.1, §20.6), run under Wine here:
//! links out of the workspace (the workspace port's own tests add a
//! junction), files named like devices, a path over 260 characters, and
//! imports written with `.\` and `..\`: nothing from outside printed, no
//! hang.

use super::{run, trusted_json};
use crate::support::{TestEnv, write_file};

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
    // Wine 8 reports success for links it does not make: only links that
    // exist were tested.
    let dir_link = rules.join("linked");
    let file_link = rules.join("link.md");
    let _ = std::os::windows::fs::symlink_dir(outside.join("rules"), &dir_link);
    let _ = std::os::windows::fs::symlink_file(outside.join("out.md"), &file_link);
    let made = [&dir_link, &file_link].map(|link| std::fs::symlink_metadata(link).is_ok());
    eprintln!("note: directory link and file link made: {made:?}");
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
