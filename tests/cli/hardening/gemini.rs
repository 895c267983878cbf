//! Gemini CLI's profile on hostile workspaces (SPEC §16.8): deep and wide
//! imports, imports and `context.fileName` entries leaving the workspace,
//! a link out and a FIFO named GEMINI.md — under `assemble`, `compare` and
//! `lint`, bounded, never a hang, nothing from outside printed.

use crate::hardening::{Outcome, run};
use crate::support::TestEnv;

/// What the outside file holds; never printed.
const SECRET: &str = "SECRET-OUTSIDE";

/// `assemble`, `compare` and `lint` under Gemini, text and JSON, each
/// checked for the secret and for a clean exit.
fn every_view(env: &TestEnv, at: &str) -> Vec<Outcome> {
    let mut outs = Vec::new();
    for format in ["text", "json"] {
        for cmd in [
            &["--agent", "gemini", "assemble"][..],
            &["compare", "--agents", "mecatl,claude,codex,gemini"],
            &["lint", "--agents", "gemini"],
        ] {
            let mut args = vec!["--trust-project", "--at", at, "--format", format];
            args.extend_from_slice(cmd);
            let out = run(env, &args);
            assert!(out.code == 0 || out.code == 1, "{args:?}: {out:?}");
            assert!(!out.stdout.contains(SECRET), "{args:?}: {}", out.stdout);
            assert!(!out.stderr.contains(SECRET), "{args:?}: {}", out.stderr);
            outs.push(out);
        }
    }
    outs
}

#[test]
fn a_six_deep_chain_inlines_five_levels_and_lint_names_the_sixth() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("GEMINI.md", "@d1.md\n");
    for level in 1..=6 {
        env.write(
            &format!("d{level}.md"),
            format!("D{level} @d{}.md\n", level + 1),
        );
    }
    let outs = every_view(&env, ".");
    let assembled = &outs[3];
    let text = assembled.json()["messages"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("D5 @d6.md"), "{text}");
    assert!(!text.contains("D6"), "{text}");
    let lint = outs[5].json();
    let found = lint["findings"].to_string();
    assert!(
        found.contains("MP006") && found.contains("d5.md"),
        "{found}"
    );
}

#[test]
fn a_hundred_imports_five_deep_are_bounded() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let mut root = String::new();
    for branch in 0..100 {
        root.push_str(&format!("@b{branch}/l1.md\n"));
        for level in 1..5 {
            env.write(
                &format!("b{branch}/l{level}.md"),
                format!("L{level} @l{}.md\n", level + 1),
            );
        }
        env.write(&format!("b{branch}/l5.md"), "LEAF\n");
    }
    env.write("GEMINI.md", &root);
    let outs = every_view(&env, ".");
    let text = outs[3].json()["messages"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(text.matches("<!-- Imported from: ").count(), 500);
    assert_eq!(text.matches("LEAF").count(), 100);
}

#[test]
fn imports_and_file_names_leaving_the_workspace_are_never_read() {
    let env = TestEnv::new();
    // The repository's root lies above the workspace: Gemini would
    // inline `../home/secret.md` and read the fileName `../home/secret.md`.
    std::fs::create_dir_all(env.root.join(".git")).unwrap();
    crate::support::write_file(&env.home.join("secret.md"), format!("{SECRET}\n"));
    let secret = env.home.join("secret.md");
    env.write(
        "GEMINI.md",
        format!(
            "ROOT @../home/secret.md @{} @/etc/passwd\n",
            secret.display()
        ),
    );
    env.write(
        ".gemini/settings.json",
        r#"{"context": {"fileName": ["../home/secret.md", "GEMINI.md"]}}"#,
    );
    let outs = every_view(&env, ".");
    let doc = outs[3].json();
    let not_loaded = doc["not_loaded"].to_string();
    assert!(not_loaded.contains("external"), "{not_loaded}");
    let lint = outs[5].json()["findings"].to_string();
    assert!(lint.contains("MP019") && lint.contains("MP007"), "{lint}");
}

// Unix only: a FIFO and a symbolic link.
#[cfg(unix)]
#[test]
fn a_fifo_and_a_link_out_named_gemini_md_never_hang_compare_or_lint() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let outside = env.home.join("secret.md");
    crate::support::write_file(&outside, format!("{SECRET}\n"));
    crate::hardening::symlink(&outside, &env.ws.join("GEMINI.md"));
    let fifo = env.ws.join("sub/GEMINI.md");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    env.write("sub/AGENTS.md", "A\n");
    every_view(&env, "sub");
    every_view(&env, ".");
}

#[test]
fn a_ten_wide_fan_out_five_deep_is_bounded_under_compare_and_lint_too() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let fan = |next: &str| format!("@{next} ").repeat(10);
    env.write("GEMINI.md", fan("l1.md"));
    for level in 1..5 {
        env.write(&format!("l{level}.md"), fan(&format!("l{}.md", level + 1)));
    }
    env.write("l5.md", "LEAF\n");
    // Bounded: the hang guard of every run turns a runaway into a failure.
    let outs = every_view(&env, ".");
    let text = outs[3].json()["messages"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(text.matches("<!-- Imported from: ").count(), 1_000);
}
