//! `expand` (SPEC §2.2): known, unknown and non-command input, `--require`,
//! hyphenated words, `--`, stdin, `--commands-dir`, trust and read faults.

use crate::support::{TestEnv, code, json, stderr, stdout};

/// A workspace with one project command, `/grep`.
fn grep_env() -> TestEnv {
    let env = TestEnv::new();
    env.write(
        ".mecatl/commands/grep.md",
        "---\ndescription: Search\n---\nSearch for $ARGUMENTS (first: $1)\n",
    );
    env
}

/// Runs `expand` with `stdin` as standard input.
fn expand_stdin(env: &TestEnv, args: &[&str], stdin: &[u8]) -> std::process::Output {
    env.cmd()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap()
}

#[test]
fn hyphenated_words_are_input_and_join_with_single_spaces() {
    let env = grep_env();
    for args in [
        &["--trust-project", "expand", "/grep", "-n", "foo"][..],
        &["--trust-project", "expand", "--", "/grep", "-n", "foo"],
        &["expand", "--trust-project", "/grep", "-n", "foo"],
    ] {
        let output = env.run(args);
        assert_eq!(code(&output), Some(0), "{args:?}: {}", stderr(&output));
        assert_eq!(
            stdout(&output),
            "Search for -n foo (first: -n)\n\n",
            "{args:?}"
        );
        assert_eq!(stderr(&output), "", "{args:?}");
    }
}

#[test]
fn global_options_count_only_before_the_first_input_word() {
    let env = grep_env();
    let output = env.run(&[
        "--trust-project",
        "expand",
        "/grep",
        "--format",
        "json",
        "-q",
    ]);
    assert_eq!(
        stdout(&output),
        "Search for --format json -q (first: --format)\n\n"
    );
    let output = env.run(&[
        "--trust-project",
        "expand",
        "--format",
        "json",
        "/grep",
        "x",
    ]);
    let doc = json(&output);
    assert_eq!(doc["expanded"], true);
    assert_eq!(doc["name"], "grep");
    assert_eq!(doc["args"], serde_json::json!(["x"]));
    assert_eq!(doc["source"], ".mecatl/commands/grep.md");
    assert_eq!(doc["output"], "Search for x (first: x)\n");
}

#[test]
fn unknown_and_non_command_input_pass_through_unchanged() {
    let env = grep_env();
    for (input, reason) in [
        (&["/nope", "a", "b"][..], "unknown command /nope"),
        (&["hello", "world"], "input is not a slash command"),
        (&["/etc/hosts"], "unknown command /etc"),
    ] {
        let line = input.join(" ");
        let mut args = vec!["--trust-project", "expand"];
        args.extend(input);
        let output = env.run(&args);
        assert_eq!(code(&output), Some(0));
        assert_eq!(stdout(&output), format!("{line}\n"));
        assert_eq!(stderr(&output), "");

        let mut args = vec!["--trust-project", "--format", "json", "expand", "--require"];
        args.extend(input);
        let output = env.run(&args);
        assert_eq!(code(&output), Some(1), "{line}");
        assert_eq!(stderr(&output), format!("mecatl-prompt: error: {reason}\n"));
        let doc = json(&output);
        assert_eq!(doc["expanded"], false);
        assert_eq!(doc["name"], serde_json::Value::Null);
        assert_eq!(doc["args"], serde_json::json!([]));
        assert_eq!(doc["source"], serde_json::Value::Null);
        assert_eq!(doc["output"], line.as_str());
        assert_eq!(doc["diagnostics"][0]["reason"], reason);
    }
}

#[test]
fn require_passes_when_the_command_expands() {
    let env = grep_env();
    let output = env.run(&["--trust-project", "expand", "--require", "/grep"]);
    assert_eq!(code(&output), Some(0));
    assert_eq!(stdout(&output), "Search for  (first: )\n\n");
}

#[test]
fn stdin_input_loses_exactly_one_trailing_line_break() {
    let env = grep_env();
    let json_expand = ["--trust-project", "--format", "json", "expand", "-"];
    let cases: [(&[u8], &str, bool); 6] = [
        (b"/grep a\r\n", "Search for a (first: a)\n", true),
        (b"/grep a b\n", "Search for a b (first: a)\n", true),
        (b"hello\n\n", "hello\n", false),
        (b"hello\r\n\r\n", "hello\r\n", false),
        (b"hello", "hello", false),
        (b"\n", "", false),
    ];
    for (input, output_field, expanded) in cases {
        let output = expand_stdin(&env, &json_expand, input);
        assert_eq!(code(&output), Some(0), "{input:?}");
        let doc = json(&output);
        assert_eq!(doc["output"], output_field, "{input:?}");
        assert_eq!(doc["expanded"], expanded, "{input:?}");
    }
    let output = expand_stdin(&env, &["--trust-project", "expand", "-"], b"hello\n\n");
    assert_eq!(stdout(&output), "hello\n\n");
}

#[test]
fn empty_stdin_is_not_a_command() {
    let env = grep_env();
    let output = expand_stdin(&env, &["--trust-project", "expand", "-"], b"");
    assert_eq!(code(&output), Some(0));
    assert_eq!(stdout(&output), "\n");
    let output = expand_stdin(&env, &["--trust-project", "expand", "--require", "-"], b"");
    assert_eq!(code(&output), Some(1));
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: input is not a slash command\n"
    );
}

#[test]
fn a_dash_among_other_words_is_a_word() {
    let env = grep_env();
    let output = env.run(&["--trust-project", "expand", "/grep", "-"]);
    assert_eq!(stdout(&output), "Search for - (first: -)\n\n");
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn an_untrusted_workspace_does_not_expand_its_commands_and_says_how_to_trust() {
    let env = grep_env();
    let warning = "mecatl-prompt: warning: .mecatl/commands/grep.md: /grep is defined here but \
         was not expanded: the workspace is not trusted, so its commands are withheld; trust it \
         with --trust-project, MECATL_TRUST_PROJECT=1 or trustedWorkspaces in \
         [ROOT]/config/mecatl/settings.yaml\n";
    let output = env.run(&["expand", "/grep", "x"]);
    assert_eq!(code(&output), Some(0));
    assert_eq!(stdout(&output), "/grep x\n");
    assert_eq!(env.redact(&stderr(&output)), warning);
    let output = env.run(&["expand", "--require", "/grep", "x"]);
    assert_eq!(code(&output), Some(1));
    assert_eq!(
        env.redact(&stderr(&output)),
        warning,
        "the warning is the reason"
    );
    let output = env.run(&["expand", "/other"]);
    assert_eq!(
        stderr(&output),
        "",
        "no warning for a name the workspace lacks"
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn commands_dirs_resolve_against_c_replace_project_dirs_and_ignore_trust() {
    let env = grep_env();
    env.write("ops/deploy.md", "Deploy $1 now.");
    env.write("ops/nested/deep.md", "not a command");
    let run_from_root = |args: &[&str]| {
        env.cmd()
            .current_dir(&env.root)
            .args(["-C", "ws"])
            .args(args)
            .output()
            .unwrap()
    };
    let output = run_from_root(&[
        "--format",
        "json",
        "expand",
        "--commands-dir",
        "ops",
        "/deploy",
        "prod",
    ]);
    assert_eq!(code(&output), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    let doc = json(&output);
    assert_eq!(doc["expanded"], true);
    assert_eq!(doc["output"], "Deploy prod now.");
    assert_eq!(
        env.redact(doc["source"].as_str().unwrap()),
        "[ROOT]/ws/ops/deploy.md"
    );
    assert_eq!(
        doc["trust"],
        serde_json::json!({"trusted": false, "source": "default"})
    );

    let output = run_from_root(&[
        "--trust-project",
        "expand",
        "--commands-dir",
        "ops",
        "--require",
        "/grep",
    ]);
    assert_eq!(
        code(&output),
        Some(1),
        "the project directories are replaced"
    );
    assert_eq!(stdout(&output), "/grep\n");
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: unknown command /grep\n"
    );
}

#[test]
fn a_blank_commands_dir_is_a_usage_error_like_an_empty_one() {
    let env = grep_env();
    env.write("AGENTS.md", "Project instructions.");
    for blank in [" ", "\t", " \n "] {
        for args in [
            &[
                "--trust-project",
                "expand",
                "--commands-dir",
                blank,
                "/AGENTS",
                "x",
            ][..],
            &["commands", "list", "--commands-dir", blank],
            &["explain", "--commands-dir", blank, "/AGENTS"],
        ] {
            let output = env.run(args);
            assert_eq!(code(&output), Some(2), "{args:?}");
            assert_eq!(stdout(&output), "", "{args:?}");
            assert_eq!(
                stderr(&output),
                format!(
                    "mecatl-prompt: error: --commands-dir {blank:?}: a commands directory \
                     cannot be blank\n"
                ),
                "{args:?}"
            );
        }
    }
    let empty = env.run(&["expand", "--commands-dir", "", "/AGENTS"]);
    assert_eq!(code(&empty), Some(2));
    assert_eq!(stdout(&empty), "");
}

#[test]
fn a_later_commands_dir_loses_to_an_earlier_one() {
    let env = TestEnv::new();
    env.write("a/x.md", "from a");
    env.write("b/x.md", "from b");
    env.write("b/y.md", "only b");
    let output = env.run(&["expand", "--commands-dir", "a", "--commands-dir", "b", "/x"]);
    assert_eq!(stdout(&output), "from a\n");
    let output = env.run(&["expand", "--commands-dir", "a", "--commands-dir", "b", "/y"]);
    assert_eq!(stdout(&output), "only b\n");
}

/// A genuine read fault as root, whom permission bits do not stop: reading
/// `/proc/self/mem` at offset 0 fails with EIO. An operator directory
/// follows symlinks (SPEC §3.1), so a link named `broken.md` reaches it.
#[cfg(target_os = "linux")]
#[test]
fn a_read_fault_exits_2_naming_the_file() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join("ops")).unwrap();
    std::os::unix::fs::symlink("/proc/self/mem", env.ws.join("ops/broken.md")).unwrap();
    for require in [&[][..], &["--require"]] {
        let mut args = vec!["expand", "--commands-dir", "ops"];
        args.extend(require);
        args.extend(["/broken", "x"]);
        let output = env.run(&args);
        assert_eq!(code(&output), Some(2));
        assert_eq!(stdout(&output), "");
        assert_eq!(
            env.redact(&stderr(&output)),
            "mecatl-prompt: error: reading [ROOT]/ws/ops/broken.md: Input/output error (os error 5)\n"
        );
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs mkfifo")]
fn a_directory_or_fifo_named_like_a_command_is_not_found() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".mecatl/commands/dir.md")).unwrap();
    let fifo = env.ws.join(".mecatl/commands/pipe.md");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for (name, kind) in [("dir", "directory"), ("pipe", "FIFO")] {
        let output = env.run(&[
            "--trust-project",
            "expand",
            "--require",
            &format!("/{name}"),
        ]);
        assert_eq!(code(&output), Some(1));
        assert_eq!(stdout(&output), format!("/{name}\n"));
        assert_eq!(
            stderr(&output),
            format!(
                "mecatl-prompt: warning: .mecatl/commands/{name}.md: not a regular \
                 file ({kind}); skipped without being opened\nmecatl-prompt: error: /{name} exists but cannot be used: \
                 .mecatl/commands/{name}.md: not a regular file ({kind})\n"
            )
        );
    }
}

#[test]
fn require_names_a_file_whose_name_cannot_be_invoked() {
    let env = TestEnv::new();
    env.write(".claude/commands/git:commit.md", "Commit.");
    env.write(".claude/commands/\u{e9}t\u{e9}.md", "Summer.");
    for (input, name) in [
        ("/git:commit -m x", "git:commit"),
        ("/\u{e9}t\u{e9}", "\u{e9}t\u{e9}"),
    ] {
        for trust in ["--trust-project", "--no-trust-project"] {
            let output = env.run(&[trust, "expand", "--require", input]);
            assert_eq!(code(&output), Some(1), "{input} {trust}");
            assert_eq!(stdout(&output), format!("{input}\n"));
            assert_eq!(
                stderr(&output),
                format!(
                    "mecatl-prompt: error: .claude/commands/{name}.md: /{name} cannot be invoked: \
                     command names use only ASCII letters, digits, -, _ and .\n"
                ),
                "{input} {trust}"
            );
        }
        let output = env.run(&["--trust-project", "expand", input]);
        assert_eq!(code(&output), Some(0), "without --require nothing changes");
        assert_eq!(stderr(&output), "");
    }
    let output = env.run(&["--trust-project", "expand", "--require", "/git"]);
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: unknown command /git\n"
    );
}
