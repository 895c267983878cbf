//! FIFOs, devices, directories and files where something else is expected
//! (SPEC §3.1, §7.1, §9): never opened for reading, so nothing blocks; each
//! is skipped with a diagnostic and the rest still loads.

#[cfg(unix)]
use super::{BUILD, mkfifo, symlink};
use super::{run, trusted_json};
use crate::support::TestEnv;

// Unix only: a FIFO.
#[cfg(unix)]
#[test]
fn a_fifo_agents_md_is_skipped_and_claude_md_used() {
    let env = TestEnv::new();
    mkfifo(&env.ws.join("AGENTS.md"));
    env.write("CLAUDE.md", "Claude.");
    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    assert_eq!(
        out.message("project"),
        "Project instructions (CLAUDE.md):\n\nClaude."
    );
    assert_eq!(
        out.problems(),
        ["warning AGENTS.md: not a regular file (FIFO); treated as not found"]
    );
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn a_dev_null_link_as_agents_md_is_refused_and_claude_md_used() {
    let env = TestEnv::new();
    symlink("/dev/null", &env.ws.join("AGENTS.md"));
    env.write("CLAUDE.md", "Claude.");
    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    assert_eq!(
        out.message("project"),
        "Project instructions (CLAUDE.md):\n\nClaude."
    );
    assert_eq!(
        out.problems(),
        [
            "warning AGENTS.md: symlink resolves outside the workspace; not followed; treated as not found (if the file belongs to the repository, run with -C at the repository root)"
        ]
    );
}

#[test]
fn a_directory_named_agents_md_is_skipped() {
    let env = TestEnv::new();
    std::fs::create_dir(env.ws.join("AGENTS.md")).unwrap();
    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        ["warning AGENTS.md: not a regular file (directory); treated as not found"]
    );
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn fifo_and_dev_null_rules_are_skipped_and_the_link_fails_the_check() {
    let env = TestEnv::new();
    mkfifo(&env.ws.join(".claude/rules/fifo.md"));
    symlink("/dev/null", &env.ws.join(".claude/rules/null.md"));
    env.write(".claude/rules/ok.md", "Fine.");
    let out = run(&env, &["--trust-project", "rules", "list", "--check"]);
    out.assert_code(1);
    assert_eq!(
        out.stdout,
        "NAME  ORIGIN   APPLIES-WHEN  BYTES  SOURCE\nok    project  (always)      5      .claude/rules/ok.md\n"
    );
    assert_eq!(
        out.stderr_lines(),
        [
            "mecatl-prompt: warning: .claude/rules/fifo.md: not a regular file (FIFO); skipped without being opened",
            "mecatl-prompt: error: .claude/rules/null.md: refused symlink: symlink resolves outside the workspace; not followed",
        ]
    );
    // The FIFO alone is a warning: the check passes.
    std::fs::remove_file(env.ws.join(".claude/rules/null.md")).unwrap();
    run(&env, &["--trust-project", "rules", "list", "--check"]).assert_code(0);
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn a_dev_null_link_in_a_user_rules_dir_is_a_skipped_device() {
    let env = TestEnv::new();
    symlink("/dev/null", &env.config.join("mecatl/rules/null.md"));
    env.write_config("mecatl/rules/ok.md", "Fine.");
    let out = trusted_json(&env, &["rules", "list", "--check"]);
    out.assert_code(0);
    assert_eq!(out.json()["rules"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/config/mecatl/rules/null.md: not a regular file (device); skipped without being opened"
        ]
    );
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn fifo_and_dev_null_commands_are_not_used() {
    let env = TestEnv::new();
    mkfifo(&env.ws.join(".claude/commands/fifo.md"));
    symlink("/dev/null", &env.ws.join(".claude/commands/null.md"));
    std::fs::create_dir_all(env.ws.join(".claude/commands/dir.md")).unwrap();
    env.write(".claude/commands/ok.md", "Fine.");
    let warnings = [
        "mecatl-prompt: warning: .claude/commands/dir.md: not a regular file (directory); skipped without being opened",
        "mecatl-prompt: warning: .claude/commands/fifo.md: not a regular file (FIFO); skipped without being opened",
        "mecatl-prompt: warning: .claude/commands/null.md: refused symlink: symlink resolves outside the workspace; not followed",
    ];
    let out = run(&env, &["--trust-project", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "/ok  Fine.\n");
    // A listing reports a directory as a subdirectory (info), whatever its
    // name; a lookup by name finds it and says it is not a regular file.
    assert_eq!(out.stderr_lines(), warnings[1..]);
    for (name, warning) in [
        ("fifo", warnings[1]),
        ("null", warnings[2]),
        ("dir", warnings[0]),
    ] {
        let input = format!("/{name} arg");
        let out = run(&env, &["--trust-project", "expand", &input]);
        out.assert_code(0);
        assert_eq!(out.stdout, format!("{input}\n"));
        assert_eq!(out.stderr_lines(), [warning]);
        let out = run(&env, &["--trust-project", "expand", "--require", &input]);
        out.assert_code(1);
        let (path, why) = warning
            .strip_prefix("mecatl-prompt: warning: ")
            .and_then(|w| w.split_once(": "))
            .unwrap();
        let why = why
            .trim_start_matches("refused symlink: ")
            .trim_end_matches("; skipped without being opened");
        assert_eq!(
            out.stderr_lines(),
            [
                warning,
                &format!("mecatl-prompt: error: /{name} exists but cannot be used: {path}: {why}")
            ]
        );
    }
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_rules_path_that_is_a_file_is_fatal_and_other_tiers_still_load() {
    let env = TestEnv::new();
    env.write(".claude/rules", "not a directory");
    env.write(".mecatl/rules/mine.md", "Project rule.");
    env.write_config("mecatl/rules/user.md", "User rule.");
    let out = run(&env, &["--trust-project", "rules", "list", "--check"]);
    out.assert_code(1);
    assert_eq!(
        out.stdout,
        "NAME  ORIGIN   APPLIES-WHEN  BYTES  SOURCE\n\
         mine  project  (always)      13     .mecatl/rules/mine.md\n\
         user  user     (always)      10     [ROOT]/config/mecatl/rules/user.md\n"
    );
    assert_eq!(
        out.stderr,
        "mecatl-prompt: error: .claude/rules: is not a directory; no rules are read from it\n"
    );
    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    let rules = out.message("rules");
    assert!(rules.contains("<rule name=\"mine\">"), "{rules}");
    assert!(rules.contains("<rule name=\"user\">"), "{rules}");
    // A user-tier rules path that is a file is reported but never fails the check.
    std::fs::remove_file(env.ws.join(".claude/rules")).unwrap();
    std::fs::remove_dir_all(env.config.join("mecatl/rules")).unwrap();
    env.write_config("mecatl/rules", "not a directory");
    let out = run(&env, &["--trust-project", "rules", "list", "--check"]);
    out.assert_code(0);
    assert_eq!(
        out.stderr,
        "mecatl-prompt: error: [ROOT]/config/mecatl/rules: is not a directory; no rules are read from it\n"
    );
}

#[test]
fn a_commands_path_that_is_a_file_is_reported() {
    let env = TestEnv::new();
    env.write(".claude/commands", "not a directory");
    env.write(".mecatl/commands/ok.md", "Fine.");
    let out = run(&env, &["--trust-project", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "/ok  Fine.\n");
    assert_eq!(
        out.stderr,
        "mecatl-prompt: error: .claude/commands: is not a directory; no commands are read from it\n"
    );
}

#[test]
fn a_directory_named_like_a_rule_is_reported_not_read() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".claude/rules/x.md")).unwrap();
    env.write(".claude/rules/nested/y.md", "Nested.");
    let out = trusted_json(&env, &["rules", "list", "--check"]);
    out.assert_code(0);
    assert_eq!(out.json()["rules"], serde_json::json!([]));
    assert_eq!(
        out.problems(),
        [
            "warning .claude/rules/nested: nested directory not read (rules are only the files directly in the rules directory); it holds 1 .md file(s), which Claude Code would load",
            "warning .claude/rules/x.md: nested directory not read (rules are only the files directly in the rules directory); it holds 0 .md file(s), which Claude Code would load",
        ]
    );
}

// Unix only: a FIFO.
#[cfg(unix)]
#[test]
fn fifo_soul_memory_settings_and_tools_never_block() {
    let env = TestEnv::new();
    mkfifo(&env.config.join("mecatl/soul.md"));
    mkfifo(&env.ws.join("mem/memory.json"));
    mkfifo(&env.config.join("mecatl/settings.yaml"));
    mkfifo(&env.ws.join("tools.json"));
    let out = run(
        &env,
        &["--format", "json", "assemble", "--memory-dir", "mem"],
    );
    out.assert_code(0);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/config/mecatl/settings.yaml: settings ignored: not a regular file (FIFO)",
            "warning [ROOT]/config/mecatl/soul.md: not a regular file (FIFO); soul file skipped",
            "warning [ROOT]/ws/mem/memory.json: not a regular file (FIFO); no memory entries loaded",
        ]
    );
    let mut args = BUILD.to_vec();
    args.extend(["--tools", "tools.json"]);
    let out = run(&env, &args);
    out.assert_code(2);
    assert_eq!(
        out.stderr,
        "mecatl-prompt: error: --tools tools.json: not a regular file\n"
    );
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn dev_null_as_soul_file_memory_json_and_tools() {
    let env = TestEnv::new();
    symlink("/dev/null", &env.ws.join("mem/memory.json"));
    let out = trusted_json(
        &env,
        &[
            "assemble",
            "--soul-file",
            "/dev/null",
            "--memory-dir",
            "mem",
        ],
    );
    out.assert_code(0);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        [
            "warning /dev/null: not a regular file (device); soul file skipped (the project soul is not used in its place)",
            "warning [ROOT]/ws/mem/memory.json: not a regular file (device); no memory entries loaded",
        ]
    );
    let mut args = BUILD.to_vec();
    args.extend(["--tools", "/dev/null"]);
    let out = run(&env, &args);
    out.assert_code(2);
    assert_eq!(
        out.stderr,
        "mecatl-prompt: error: --tools /dev/null: not a regular file\n"
    );
}
