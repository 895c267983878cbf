//! `assemble`: turn-0 messages on temp workspaces.

#[cfg(unix)]
use crate::support::make_unreadable;
use crate::support::{TestEnv, code, json, stderr, stdout};

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

// Unix only: permission bits (mode 000) stop the read.
#[cfg(unix)]
#[test]
fn an_agents_md_read_fault_exits_2_without_output_and_skips_claude_md() {
    let env = TestEnv::new();
    let agents = env.write("AGENTS.md", "Secret instructions.");
    env.write("CLAUDE.md", "Fallback.");
    make_unreadable(&agents);
    let Some(mut cmd) = env.cmd_bound_by_permissions() else {
        eprintln!("skipped: running as root without setpriv, so mode 000 cannot fail a read");
        return;
    };
    let output = cmd.arg("assemble").output().unwrap();
    assert_eq!(code(&output), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: reading AGENTS.md: Permission denied (os error 13)\n"
    );
}

#[test]
fn no_messages_print_nothing_and_say_so_with_verbose() {
    let env = TestEnv::new();
    let output = env.run(&["-v", "--format", "json", "assemble"]);
    assert_eq!(code(&output), Some(0));
    let doc = json(&output);
    assert_eq!(doc["messages"], serde_json::json!([]));
    let output = env.run(&["-v", "assemble"]);
    assert!(output.stdout.is_empty());
    // The engine's slug: on Windows the drive's `:` and `\` become `-` too.
    let separators: &[char] = if cfg!(windows) {
        &['/', '\\', ':']
    } else {
        &['/']
    };
    let slug = env.ws.display().to_string().replace(separators, "-");
    let memory = env.data.join("mecatui").join("memory").join(slug);
    assert_eq!(
        stderr(&output),
        format!(
            "mecatl-prompt: info: {}: memory directory\n\
             mecatl-prompt: info: no turn-0 messages: nothing to assemble\n",
            memory.display()
        )
    );
}

#[test]
fn hand_edited_stores_are_listed_by_key_inside_their_fences() {
    let env = TestEnv::new();
    let store = r#"{"entries": {"zeta": {"value": "z"}, "alpha": {"value": "a"}}}"#;
    env.write("mem/memory.json", store);
    env.write("model/memory.json", store);
    let output = env.run(&[
        "--format",
        "json",
        "assemble",
        "--memory-dir",
        "mem",
        "--user-model-dir",
        "model",
    ]);
    assert_eq!(code(&output), Some(0));
    let doc = json(&output);
    for message in doc["messages"].as_array().unwrap() {
        let text = message["text"].as_str().unwrap();
        let alpha = text.find(r#"{"key":"alpha""#).unwrap();
        assert!(alpha < text.find(r#"{"key":"zeta""#).unwrap(), "{text}");
    }
    assert_eq!(doc["messages"].as_array().unwrap().len(), 2);
    let user_model = doc["messages"][1]["text"].as_str().unwrap();
    assert!(user_model.contains("\n<user-model>\n{"), "{user_model}");
    assert!(user_model.ends_with("\n</user-model>"), "{user_model}");
}
