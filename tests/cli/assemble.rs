//! `assemble`: turn-0 messages on temp workspaces.

use crate::support::{TestEnv, stderr, stdout};

#[test]
fn demo_assembles_all_four_kinds_in_order_when_trusted() {
    let env = TestEnv::demo();
    let output = env
        .cmd()
        .args([
            "--trust-project",
            "assemble",
            "--memory-dir",
            ".mecatl/memory",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let headers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("── message"))
        .collect();
    assert_eq!(
        headers,
        [
            "── message 1 · user · project ──",
            "── message 2 · user · rules ──",
            "── message 3 · user · soul ──",
            "── message 4 · user · memory ──",
        ]
    );
}

#[test]
fn untrusted_workspace_withholds_project_rules_and_soul_and_says_so() {
    let env = TestEnv::demo();
    let output = env.cmd().arg("assemble").output().unwrap();
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("· project ──"));
    assert!(!text.contains("<rule"), "{text}");
    assert!(!text.contains("<soul>"), "{text}");
    let err = stderr(&output);
    assert_eq!(err.matches("withheld").count(), 1, "{err}");
    assert!(err.contains("--trust-project"), "{err}");
}

#[test]
fn empty_workspace_prints_nothing_and_succeeds() {
    let env = TestEnv::new();
    let output = env.cmd().arg("assemble").output().unwrap();
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
}

#[test]
fn claude_md_is_used_when_agents_md_is_blank_and_user_soul_wins() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "  \n\n");
    env.write("CLAUDE.md", "Use tabs.\n");
    env.write(".mecatl/soul.md", "Project soul.");
    env.write_config("mecatl/soul.md", "User soul.");
    let output = env
        .cmd()
        .args(["--trust-project", "--format", "json", "assemble"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let messages = doc["messages"].as_array().unwrap();
    assert_eq!(
        messages[0]["text"],
        "Project instructions (CLAUDE.md):\n\nUse tabs."
    );
    assert_eq!(messages[1]["provenance"], "soul");
    let soul = messages[1]["text"].as_str().unwrap();
    assert!(soul.contains("<soul>\nUser soul.\n</soul>"), "{soul}");
}
