//! Dynamic completion, driven the way each shell's shim drives the binary:
//! `COMPLETE=<shell> mecatl-prompt -- mecatl-prompt <words…>`, plus the
//! variables the shim sets. Command names come from the workspace at that
//! moment, with the `-C`, `--commands-dir` and trust options on the line.

use crate::support::{TestEnv, stderr, stdout};

/// A workspace with three project commands and a `src/` tree.
fn workspace() -> TestEnv {
    let env = TestEnv::new();
    for name in ["review", "refactor", "fix"] {
        env.write(
            &format!(".claude/commands/{name}.md"),
            format!("{name} $ARGUMENTS\n"),
        );
    }
    env.write("src/lib.rs", "");
    env.write("src/main.rs", "");
    env
}

/// Runs a completion request as fish's shim does: the words up to the
/// cursor, the word being completed last.
fn fish(env: &TestEnv, words: &[&str]) -> String {
    request(env, "fish", words, &[])
}

pub(crate) fn request(env: &TestEnv, shell: &str, words: &[&str], vars: &[(&str, &str)]) -> String {
    let mut cmd = env.cmd();
    cmd.env("COMPLETE", shell)
        .envs(vars.iter().copied())
        .args(["--", "mecatl-prompt"])
        .args(words);
    let output = cmd.output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    stdout(&output)
}

#[test]
fn slash_prefix_offers_matching_command_names_when_trusted_by_flag() {
    let env = workspace();
    assert_eq!(
        fish(&env, &["--trust-project", "expand", "/re"]),
        "/refactor\n/review\n"
    );
    assert_eq!(
        fish(&env, &["expand", "--trust-project", "/"]),
        "/fix\n/refactor\n/review\n"
    );
}

#[test]
fn trust_from_the_environment_and_from_settings_is_honoured() {
    let env = workspace();
    let by_env = request(
        &env,
        "fish",
        &["expand", "/re"],
        &[("MECATL_TRUST_PROJECT", "1")],
    );
    assert_eq!(by_env, "/refactor\n/review\n");

    let settings = format!("trustedWorkspaces:\n  - {}\n", env.ws.display());
    env.write_config("mecatl/settings.yaml", settings);
    assert_eq!(fish(&env, &["expand", "/f"]), "/fix\n");
}

#[test]
fn untrusted_workspace_offers_no_project_names() {
    let env = workspace();
    assert_eq!(fish(&env, &["expand", "/re"]), "");
    let refused = request(
        &env,
        "fish",
        &["--no-trust-project", "expand", "/"],
        &[("MECATL_TRUST_PROJECT", "1")],
    );
    assert_eq!(refused, "");
}

#[test]
fn workspace_option_on_the_line_is_honoured() {
    let env = workspace();
    env.write("other/.claude/commands/release.md", "Release.\n");
    env.write("other/.claude/commands/retry.md", "Retry.\n");
    assert_eq!(
        fish(&env, &["-C", "other", "--trust-project", "expand", "/re"]),
        "/release\n/retry\n"
    );
    assert_eq!(
        fish(
            &env,
            &["--trust-project", "expand", "--workspace=other", "/ret"]
        ),
        "/retry\n"
    );
}

#[test]
fn commands_dir_on_the_line_replaces_the_project_directories_without_trust() {
    let env = workspace();
    env.write("ops/report.md", "Report.\n");
    env.write("ops/rebase.md", "Rebase.\n");
    assert_eq!(
        fish(&env, &["expand", "--commands-dir", "ops", "/re"]),
        "/rebase\n/report\n"
    );
    // Relative to -C, like every path option.
    assert_eq!(
        fish(
            &env,
            &["-C", "src", "expand", "--commands-dir", "../ops", "/rep"]
        ),
        "/report\n"
    );
}

#[test]
fn names_a_slash_command_cannot_use_are_not_offered() {
    let env = workspace();
    env.write(".claude/commands/has space.md", "x\n");
    assert_eq!(
        fish(&env, &["--trust-project", "expand", "/"]),
        "/fix\n/refactor\n/review\n"
    );
}

#[test]
fn a_first_word_without_a_slash_offers_no_command_names() {
    let env = workspace();
    assert_eq!(fish(&env, &["--trust-project", "expand", "re"]), "");
}

#[test]
fn words_after_the_command_complete_to_paths_in_the_workspace() {
    let env = workspace();
    assert_eq!(
        fish(&env, &["--trust-project", "expand", "/review", "src/"]),
        "src/lib.rs\nsrc/main.rs\n"
    );
    assert_eq!(
        fish(&env, &["-C", "src", "expand", "/review", "ma"]),
        "main.rs\n"
    );
}

/// [`workspace`] plus two project rules and one user rule.
fn workspace_with_rules() -> TestEnv {
    let env = workspace();
    env.write(".mecatl/rules/style.md", "Style.\n");
    env.write(".claude/rules/security.md", "Security.\n");
    env.write(".claude/rules/style.md", "Shadowed style.\n");
    env.write_config("mecatl/rules/release.md", "Release.\n");
    env
}

#[test]
fn explain_completes_command_names_like_expand() {
    let env = workspace_with_rules();
    env.write("ops/report.md", "Report.\n");
    assert_eq!(
        fish(&env, &["--trust-project", "explain", "/re"]),
        "/refactor\n/review\n"
    );
    assert_eq!(
        fish(&env, &["explain", "--trust-project", "/"]),
        fish(&env, &["expand", "--trust-project", "/"])
    );
    assert_eq!(
        fish(&env, &["explain", "/re"]),
        "",
        "withheld when untrusted"
    );
    assert_eq!(
        fish(&env, &["explain", "--commands-dir", "ops", "/r"]),
        "/report\n"
    );
}

/// The value candidates of a completion: clap also offers the options when
/// the word is empty, which are not the point here.
fn values(completed: &str) -> Vec<&str> {
    completed.lines().filter(|l| !l.starts_with('-')).collect()
}

#[test]
fn explain_rule_completes_rule_names() {
    let env = workspace_with_rules();
    assert_eq!(
        values(&fish(&env, &["--trust-project", "explain", "--rule", ""])),
        ["release", "security", "style"]
    );
    assert_eq!(
        fish(&env, &["--trust-project", "explain", "--rule", "s"]),
        "security\nstyle\n"
    );
    assert_eq!(
        values(&fish(&env, &["explain", "--rule", ""])),
        ["release"],
        "project rules are withheld when untrusted"
    );
    assert_eq!(
        fish(&env, &["--trust-project", "explain", "--rule", "/"]),
        ""
    );
    // Without --rule a bare word is a rule name, and an empty word offers
    // the commands (with their /) and the rules.
    assert_eq!(fish(&env, &["--trust-project", "explain", "st"]), "style\n");
    assert_eq!(
        values(&fish(&env, &["--trust-project", "explain", ""])),
        [
            "/fix",
            "/refactor",
            "/review",
            "release",
            "security",
            "style"
        ]
    );
}

#[test]
fn rules_for_completes_paths_relative_to_the_workspace() {
    let env = workspace();
    assert_eq!(
        fish(&env, &["rules", "list", "--for", "src/m"]),
        "src/main.rs\n"
    );
    assert_eq!(
        fish(&env, &["-C", "src", "rules", "list", "--for", "l"]),
        "lib.rs\n"
    );
    assert_eq!(fish(&env, &["rules", "list", "--for=sr"]), "--for=src/\n");
}

#[test]
fn each_shell_gets_its_own_output_format() {
    let env = workspace();
    let words = ["--trust-project", "expand", "/re"];
    // bash and zsh pass the cursor's word index; bash joins with its IFS
    // (vertical tab), zsh with newlines, neither ends with a separator.
    let bash = request(
        &env,
        "bash",
        &words,
        &[("_CLAP_COMPLETE_INDEX", "3"), ("_CLAP_IFS", "\u{b}")],
    );
    assert_eq!(bash, "/refactor\u{b}/review");
    let zsh = request(
        &env,
        "zsh",
        &words,
        &[("_CLAP_COMPLETE_INDEX", "3"), ("_CLAP_IFS", "\n")],
    );
    assert_eq!(zsh, "/refactor\n/review");
    let elvish = request(
        &env,
        "elvish",
        &words,
        &[("_CLAP_COMPLETE_INDEX", "3"), ("_CLAP_IFS", "\n")],
    );
    assert_eq!(elvish, "/refactor\n/review");
    // fish and PowerShell complete the last word and print one candidate a
    // line, `value<TAB>help` when there is help: command names carry none.
    assert_eq!(
        request(&env, "powershell", &words, &[]),
        "/refactor\n/review\n"
    );
    assert_eq!(fish(&env, &words), "/refactor\n/review\n");
    let options = fish(&env, &["expand", "--req"]);
    assert_eq!(
        options,
        "--require\tExit 1 when the input is not a known command\n"
    );
}

#[test]
fn bash_completes_the_word_at_the_cursor_with_later_words_on_the_line() {
    let env = workspace();
    let out = request(
        &env,
        "bash",
        &["--trust-project", "expand", "/f", "src/lib.rs"],
        &[("_CLAP_COMPLETE_INDEX", "3"), ("_CLAP_IFS", "\n")],
    );
    assert_eq!(out, "/fix");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "the environment switch names the binary by its Windows path (C:/…/mecatl-prompt.exe)"
)]
fn completions_subcommand_prints_the_same_shim_as_the_environment_switch() {
    let env = TestEnv::new();
    let bin = assert_cmd::cargo::cargo_bin("mecatl-prompt");
    let bin = bin.to_str().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let shim = env.cmd().args(["completions", shell]).output().unwrap();
        assert!(shim.status.success(), "{}", stderr(&shim));
        let switched = env.cmd().env("COMPLETE", shell).output().unwrap();
        assert!(switched.status.success(), "{}", stderr(&switched));
        // The switch names the binary by the path it was started with; the
        // subcommand names it by `mecatl-prompt`, found on PATH.
        assert_eq!(
            stdout(&shim),
            stdout(&switched).replace(bin, "mecatl-prompt"),
            "{shell}"
        );
        assert!(stdout(&shim).contains("COMPLETE"), "{shell}");
    }
}
