//! Hostile command-line input (SPEC §2.2, §5.2, §3.4, §8.4): absurd `$`
//! digit runs, megabytes on stdin, arguments near the kernel's limit, and
//! bad settings and `--tools` files.

use super::{BUILD, run, run_with_stdin};
use crate::support::TestEnv;

/// The kernel's per-argument limit (MAX_ARG_STRLEN) is 128 KiB including
/// the terminating NUL.
const NEAR_ARG_MAX: usize = 128 * 1024 - 1;

#[test]
fn a_dollar_with_100000_digits_is_one_out_of_range_index() {
    let env = TestEnv::new();
    let nines = "9".repeat(100_000);
    let one = format!("{}1", "0".repeat(99_999));
    env.write(
        ".claude/commands/d.md",
        format!("A ${nines} B $1 C ${one} D $ARGUMENTS\n"),
    );
    let out = run(&env, &["--trust-project", "expand", "/d", "x", "y"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "A  B x C x D x y\n\n");
    assert_eq!(out.stderr, "");
}

#[test]
fn one_mib_on_stdin_is_expanded_or_passed_through() {
    let env = TestEnv::new();
    env.write(".claude/commands/d.md", "[$1] [$3] [$ARGUMENTS]");
    let mut line = String::from("/d");
    let mut words = Vec::new();
    while line.len() < 1 << 20 {
        let word = format!("w{}", words.len());
        line.push(' ');
        line.push_str(&word);
        words.push(word);
    }
    let input = format!("{line}\r\n").into_bytes();
    let out = run_with_stdin(&env, &["--trust-project", "expand", "-"], input);
    out.assert_code(0);
    // Expansion is bounded by the largest template read (1 MiB), visibly.
    let mut expected = format!("[w0] [w2] [{}]", words.join(" "));
    expected.truncate(1 << 20);
    expected.push_str("\n...[expansion truncated at 1048576 bytes]\n");
    assert!(out.stdout == expected, "len {}", out.stdout.len());
    // A MiB that is not a command comes back unchanged, less one line break.
    let plain = "x".repeat(1 << 20);
    let out = run_with_stdin(
        &env,
        &["--trust-project", "expand", "-"],
        format!("{plain}\n").into_bytes(),
    );
    out.assert_code(0);
    assert!(
        out.stdout == format!("{plain}\n"),
        "len {}",
        out.stdout.len()
    );
    // Empty stdin is not a command.
    let out = run_with_stdin(
        &env,
        &["--trust-project", "expand", "--require", "-"],
        Vec::new(),
    );
    out.assert_code(1);
    assert_eq!(out.stdout, "\n");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Windows caps a whole command line at 32767 characters"
)]
fn arguments_near_the_per_argument_limit_are_substituted_whole() {
    let env = TestEnv::new();
    env.write(".claude/commands/d.md", "<$2|$1>");
    let long = "z".repeat(NEAR_ARG_MAX);
    let other = "é".repeat(NEAR_ARG_MAX / 2);
    let out = run(&env, &["--trust-project", "expand", "/d", &long, &other]);
    out.assert_code(0);
    assert!(
        out.stdout == format!("<{other}|{long}>\n"),
        "len {}",
        out.stdout.len()
    );
    // The command name itself at the limit: not a known command, echoed.
    let name = format!("/{}", "n".repeat(NEAR_ARG_MAX - 1));
    let out = run(&env, &["--trust-project", "expand", &name]);
    out.assert_code(0);
    assert!(out.stdout == format!("{name}\n"));
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn malformed_settings_are_ignored_with_a_warning() {
    let env = TestEnv::new();
    env.write(".claude/rules/r.md", "r");
    let cases = [
        (
            "trustedWorkspaces: [\n",
            "malformed YAML at line 1, column 20: invalid YAML (a `[…]` or `{…}` collection is not closed properly)",
        ),
        (
            "trustedWorkspaces: yes\n",
            "malformed YAML at line 1, column 20: invalid YAML (a value of an unexpected kind)",
        ),
        (
            "- a\n- b\n",
            "malformed YAML at line 1, column 1: invalid YAML (a value of an unexpected kind)",
        ),
    ];
    for (yaml, reason) in cases {
        env.write_config("mecatl/settings.yaml", yaml);
        let out = run(&env, &["--format", "json", "rules", "list"]);
        out.assert_code(0);
        assert_eq!(out.json()["trust"]["source"], "default", "{yaml}");
        assert_eq!(
            out.problems()[0],
            format!("warning [ROOT]/config/mecatl/settings.yaml: settings ignored: {reason}"),
            "{yaml}"
        );
    }
    // A relative entry is skipped; the absolute one still trusts.
    env.write_config(
        "mecatl/settings.yaml",
        format!(
            "trustedWorkspaces:\n  - rel/path\n  - {}\n",
            env.ws.display()
        ),
    );
    let out = run(&env, &["--format", "json", "rules", "list"]);
    assert_eq!(out.json()["trust"]["source"], "settings");
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/config/mecatl/settings.yaml: trustedWorkspaces entry \"rel/path\" is not an absolute path; skipped"
        ]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "error text is Linux's: Windows says \"File not found.\""
)]
fn unreadable_and_malformed_tools_files_exit_2_with_one_line() {
    let env = TestEnv::new();
    std::fs::create_dir(env.ws.join("dir")).unwrap();
    env.write("bad.json", "[{\"name\": \"a\"");
    env.write("shape.json", "{\"x\": 1}");
    env.write("ctl.json", "[{\"name\": \"a\\u0007b\"}]");
    let shapes = "expected a JSON array of tools (plain {name, description}, Anthropic with \
input_schema, OpenAI {\"type\": \"function\"} in Chat or Responses form), an MCP tools/list \
result {\"tools\": [...]}, or its JSON-RPC envelope";
    let cases = [
        (
            "missing.json",
            "--tools missing.json: No such file or directory (os error 2)".to_string(),
        ),
        ("dir", "--tools dir: not a regular file".to_string()),
        (
            "bad.json",
            format!(
                "--tools bad.json: not valid JSON (EOF while parsing an object at line 1 column 13); {shapes}"
            ),
        ),
        (
            "shape.json",
            format!("--tools shape.json: found an object without `tools`; {shapes}"),
        ),
        (
            "ctl.json",
            "--tools ctl.json: the tool name at .[0] contains a control character (U+0007)"
                .to_string(),
        ),
    ];
    for (file, message) in cases {
        let mut args = BUILD.to_vec();
        args.extend(["--tools", file]);
        let out = run(&env, &args);
        out.assert_code(2);
        assert_eq!(out.stdout, "", "{file}");
        assert_eq!(out.stderr, format!("mecatl-prompt: error: {message}\n"));
    }
    // stdin as a tools file, malformed.
    let mut args = BUILD.to_vec();
    args.extend(["--tools", "-"]);
    let out = super::run_with_stdin(&env, &args, b"nope".to_vec());
    out.assert_code(2);
    assert_eq!(out.stderr_lines().len(), 1, "{}", out.stderr);
}
