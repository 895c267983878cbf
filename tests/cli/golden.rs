//! Golden outputs: every subcommand on `examples/demo`, in text and JSON,
//! trusted and untrusted where trust changes the result. Each case is run
//! twice (the bytes must not change), its stdout compared byte for byte with
//! `snapshots/NAME` (regenerate with `SNAPSHOTS=overwrite`), and its stderr
//! and exit code asserted exactly. JSON documents are also checked for the
//! shape SPEC §8.2 fixes: schema first, keys in the listed order, two-space
//! pretty printing and one trailing newline.

use std::path::PathBuf;

use snapbox::data::DataFormat;

use crate::support::{FIXED_ENV, TestEnv, code, stderr};

/// The notice printed once when an untrusted workspace had project files
/// withheld, with the temp root redacted.
pub(crate) const WITHHELD_NOTICE: &str = "mecatl-prompt: warning: project files were withheld \
     because the workspace is not trusted; trust it with --trust-project, MECATL_TRUST_PROJECT=1 \
     or trustedWorkspaces in [ROOT]/config/mecatl/settings.yaml\n";

/// The shadowing warning of the demo's two `review.md` files.
const REVIEW_SHADOWED: &str = "mecatl-prompt: warning: .claude/commands/review.md: shadowed by \
     .mecatl/commands/review.md\n";

/// One golden case.
struct Case<'a> {
    /// The snapshot file under `tests/cli/snapshots/`.
    golden: &'a str,
    /// The command line after the binary name.
    args: Vec<&'a str>,
    /// The exact stderr, temp root redacted.
    stderr: &'a str,
    /// The exit code.
    code: i32,
    /// For a JSON case, the top-level keys in order (`schema` first for
    /// our documents); `None` for text.
    keys: Option<&'a [&'a str]>,
}

fn snapshot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cli/snapshots")
        .join(name)
}

/// Compares `actual` with the golden file byte for byte (snapbox gives the
/// diff and the overwrite mode; the second comparison makes sure none of its
/// wildcards or filters let a difference through).
pub(crate) fn assert_golden(actual: &str, name: &str) {
    let path = snapshot_path(name);
    snapbox::assert_data_eq!(
        actual,
        snapbox::Data::read_from(&path, Some(DataFormat::Text)).raw()
    );
    let expected = std::fs::read_to_string(&path).expect("golden file");
    assert_eq!(actual, expected, "golden {name} differs byte-wise");
}

/// The keys of a JSON object, in document order.
pub(crate) fn keys_of(value: &serde_json::Value) -> Vec<&str> {
    value
        .as_object()
        .expect("a JSON object")
        .keys()
        .map(String::as_str)
        .collect()
}

/// Asserts the JSON conventions of SPEC §8.2 on `text` and returns the value.
pub(crate) fn assert_json_shape(text: &str, keys: &[&str]) -> serde_json::Value {
    let value: serde_json::Value = serde_json::from_str(text).expect("one JSON document");
    assert_eq!(keys_of(&value), keys, "top-level keys in spec order");
    let mut pretty = serde_json::to_string_pretty(&value).expect("re-serialise");
    pretty.push('\n');
    assert_eq!(
        text, pretty,
        "two-space pretty JSON with one trailing newline"
    );
    if keys.first() == Some(&"schema") {
        assert!(text.starts_with("{\n  \"schema\": \"mecatl-prompt/v1\",\n"));
        // `agent` follows the schema (SPEC §14.1); a document about several
        // agents at once names them instead, as `compare` does (§15.1).
        assert!(
            matches!(keys.get(1), Some(&"agent" | &"agents")),
            "agent or agents right after schema: {keys:?}"
        );
        assert_eq!(keys_of(&value["trust"]), ["trusted", "source"]);
        for diagnostic in value["diagnostics"].as_array().expect("diagnostics array") {
            assert_eq!(keys_of(diagnostic), ["severity", "path", "reason"]);
        }
    }
    value
}

fn check(env: &TestEnv, case: &Case<'_>) {
    let first = env.run(&case.args);
    let second = env.run(&case.args);
    assert_eq!(
        first.stdout, second.stdout,
        "{}: stdout differs between two runs",
        case.golden
    );
    assert_eq!(
        code(&first),
        Some(case.code),
        "{}: {}",
        case.golden,
        stderr(&first)
    );
    assert_eq!(
        env.redact(&stderr(&first)),
        case.stderr,
        "{}: stderr",
        case.golden
    );
    let text = String::from_utf8(first.stdout).expect("UTF-8 stdout");
    let text = env.redact(&text);
    if let Some(keys) = case.keys {
        assert_json_shape(&text, keys);
    }
    assert_golden(&text, case.golden);
}

fn with_fixed_env<'a>(head: &[&'a str]) -> Vec<&'a str> {
    let mut args = head.to_vec();
    args.extend(FIXED_ENV);
    args
}

const BUILD_KEYS: &[&str] = &[
    "schema",
    "agent",
    "stable_prefix",
    "volatile_suffix",
    "prefix_bytes",
    "prefix_sha256",
    "diagnostics",
    "trust",
];
const CHECK_STABLE_KEYS: &[&str] = &[
    "schema",
    "agent",
    "stable",
    "prefix_bytes",
    "prefix_sha256",
    "first_difference",
    "diff",
    "diagnostics",
    "trust",
];
const EXPAND_KEYS: &[&str] = &[
    "schema",
    "agent",
    "expanded",
    "name",
    "args",
    "source",
    "output",
    "diagnostics",
    "trust",
];
const COMMANDS_KEYS: &[&str] = &["schema", "agent", "commands", "diagnostics", "trust"];
const RULES_KEYS: &[&str] = &["schema", "agent", "rules", "diagnostics", "trust"];
const ASSEMBLE_KEYS: &[&str] = &["schema", "agent", "messages", "diagnostics", "trust"];
/// The keys of `assemble --format json` under an agent profile, in order.
pub(crate) const PROFILE_ASSEMBLE_KEYS: &[&str] = &[
    "schema",
    "agent",
    "at",
    "messages",
    "subagents",
    "output_style",
    "mcp_servers",
    "hooks",
    "touch",
    "not_loaded",
    "diagnostics",
    "trust",
];

#[test]
fn build_goldens() {
    let env = TestEnv::demo();
    let cases = [
        Case {
            golden: "build.txt",
            args: with_fixed_env(&["build", "--tools", "tools.json"]),
            stderr: "",
            code: 0,
            keys: None,
        },
        Case {
            golden: "build.json",
            args: with_fixed_env(&["--format", "json", "build", "--tools", "tools.json"]),
            stderr: "",
            code: 0,
            keys: Some(BUILD_KEYS),
        },
        Case {
            golden: "build-plan.txt",
            args: with_fixed_env(&["build", "--mode", "plan", "--model", "m-1"]),
            stderr: "",
            code: 0,
            keys: None,
        },
        Case {
            golden: "build-anthropic.json",
            args: with_fixed_env(&["--format", "anthropic", "build", "--tools", "tools.json"]),
            stderr: "",
            code: 0,
            keys: Some(&["system"]),
        },
        Case {
            golden: "build-openai.json",
            args: with_fixed_env(&["--format", "openai", "build", "--tools", "tools.json"]),
            stderr: "",
            code: 0,
            keys: Some(&["messages"]),
        },
        Case {
            golden: "check-stable.txt",
            args: with_fixed_env(&["build", "--tools", "tools.json", "--check-stable"]),
            stderr: "",
            code: 0,
            keys: None,
        },
        Case {
            golden: "check-stable.json",
            args: with_fixed_env(&[
                "--format",
                "json",
                "build",
                "--tools",
                "tools.json",
                "--check-stable",
            ]),
            stderr: "",
            code: 0,
            keys: Some(CHECK_STABLE_KEYS),
        },
    ];
    for case in &cases {
        check(&env, case);
    }
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn expand_goldens() {
    let env = TestEnv::demo();
    // Withheld directories resolve precedence among themselves: the second
    // withheld review.md is shadowed by the first, as it would be trusted.
    let untrusted_warning = &format!(
        "{REVIEW_SHADOWED}mecatl-prompt: warning: .mecatl/commands/review.md: /review is \
         defined here but was not expanded: the workspace is not trusted, so its commands are \
         withheld; trust it with --trust-project, MECATL_TRUST_PROJECT=1 or trustedWorkspaces \
         in [ROOT]/config/mecatl/settings.yaml\n"
    );
    let cases = [
        Case {
            golden: "expand-review.txt",
            args: vec!["--trust-project", "expand", "/review", "src/lib.rs"],
            stderr: REVIEW_SHADOWED,
            code: 0,
            keys: None,
        },
        Case {
            golden: "expand-review.json",
            args: vec![
                "--trust-project",
                "--format",
                "json",
                "expand",
                "/review",
                "src/lib.rs",
            ],
            stderr: REVIEW_SHADOWED,
            code: 0,
            keys: Some(EXPAND_KEYS),
        },
        Case {
            golden: "expand-review-untrusted.txt",
            args: vec!["expand", "/review", "src/lib.rs"],
            stderr: untrusted_warning,
            code: 0,
            keys: None,
        },
        Case {
            golden: "expand-review-untrusted.json",
            args: vec!["--format", "json", "expand", "/review", "src/lib.rs"],
            stderr: untrusted_warning,
            code: 0,
            keys: Some(EXPAND_KEYS),
        },
    ];
    for case in &cases {
        check(&env, case);
    }
}

/// The nested `.claude/commands/git` of the demo workspace, as the default
/// profile warns about it.
const NESTED_GIT: &str = "mecatl-prompt: warning: .claude/commands/git: nested directory not read \
    under the mecatl profile: Claude Code offers its 1 .md file(s) as /git:NAME (/git:commit); \
    run with --agent claude to see what Claude Code does\n";

/// The demo workspace's one skill, as the default profile counts it.
const ONE_SKILL: &str = "mecatl-prompt: warning: .claude/skills: 1 skill(s) here are not read \
    under the mecatl profile: Claude Code lists them to the model and offers them as /NAME; run \
    with --agent claude to see what Claude Code does\n";

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn commands_list_goldens() {
    let env = TestEnv::demo();
    // The divergence warnings of the default profile (SPEC §15.2): the
    // nested git/ and the skill Claude Code would offer, in listing order
    // around the shadowed review.md. The second withheld review.md is
    // shadowed by the first, as trusted.
    let listed = format!("{NESTED_GIT}{REVIEW_SHADOWED}{ONE_SKILL}");
    let listed_then_notice = format!("{listed}{WITHHELD_NOTICE}");
    let cases = [
        Case {
            golden: "commands-list.txt",
            args: vec!["--trust-project", "commands", "list"],
            stderr: &listed,
            code: 0,
            keys: None,
        },
        Case {
            golden: "commands-list.json",
            args: vec!["--trust-project", "--format", "json", "commands", "list"],
            stderr: &listed,
            code: 0,
            keys: Some(COMMANDS_KEYS),
        },
        Case {
            golden: "commands-list-untrusted.txt",
            args: vec!["commands", "list"],
            stderr: &listed_then_notice,
            code: 0,
            keys: None,
        },
        Case {
            golden: "commands-list-untrusted.json",
            args: vec!["--format", "json", "commands", "list"],
            stderr: &listed_then_notice,
            code: 0,
            keys: Some(COMMANDS_KEYS),
        },
    ];
    for case in &cases {
        check(&env, case);
    }
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn rules_list_goldens() {
    let env = TestEnv::demo();
    let for_args = [
        "--for",
        "web/src/app.tsx",
        "--for",
        "./internal//book/book_test.go",
        "--for",
        "README.md",
    ];
    let cases = [
        Case {
            golden: "rules-list.txt",
            args: vec!["--trust-project", "rules", "list"],
            stderr: "",
            code: 0,
            keys: None,
        },
        Case {
            golden: "rules-list.json",
            args: vec!["--trust-project", "--format", "json", "rules", "list"],
            stderr: "",
            code: 0,
            keys: Some(RULES_KEYS),
        },
        Case {
            golden: "rules-list-untrusted.txt",
            args: vec!["rules", "list"],
            stderr: WITHHELD_NOTICE,
            code: 0,
            keys: None,
        },
        Case {
            golden: "rules-list-untrusted.json",
            args: vec!["--format", "json", "rules", "list"],
            stderr: WITHHELD_NOTICE,
            code: 0,
            keys: Some(RULES_KEYS),
        },
        Case {
            golden: "rules-list-for.txt",
            args: [&["--trust-project", "rules", "list"][..], &for_args].concat(),
            stderr: "",
            code: 0,
            keys: None,
        },
        Case {
            golden: "rules-list-for.json",
            args: [
                &["--trust-project", "--format", "json", "rules", "list"][..],
                &for_args,
            ]
            .concat(),
            stderr: "",
            code: 0,
            keys: Some(RULES_KEYS),
        },
    ];
    for case in &cases {
        check(&env, case);
    }
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn assemble_goldens() {
    let env = TestEnv::demo();
    let memory = ["--memory-dir", ".mecatl/memory"];
    let trusted = |format: &'static str| {
        [
            &["--trust-project", "--format", format, "assemble"][..],
            &memory,
        ]
        .concat()
    };
    let untrusted =
        |format: &'static str| [&["--format", format, "assemble"][..], &memory].concat();
    let cases = [
        Case {
            golden: "assemble.txt",
            args: trusted("text"),
            stderr: "",
            code: 0,
            keys: None,
        },
        Case {
            golden: "assemble.json",
            args: trusted("json"),
            stderr: "",
            code: 0,
            keys: Some(ASSEMBLE_KEYS),
        },
        Case {
            golden: "assemble-anthropic.json",
            args: trusted("anthropic"),
            stderr: "",
            code: 0,
            keys: Some(&["messages"]),
        },
        Case {
            golden: "assemble-openai.json",
            args: trusted("openai"),
            stderr: "",
            code: 0,
            keys: Some(&["messages"]),
        },
        Case {
            golden: "assemble-untrusted.txt",
            args: untrusted("text"),
            stderr: WITHHELD_NOTICE,
            code: 0,
            keys: None,
        },
        Case {
            golden: "assemble-untrusted.json",
            args: untrusted("json"),
            stderr: WITHHELD_NOTICE,
            code: 0,
            keys: Some(ASSEMBLE_KEYS),
        },
    ];
    for case in &cases {
        check(&env, case);
    }
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn codex_profile_goldens() {
    let env = TestEnv::demo();
    // A clone of the demo is a git repository: Codex's chain starts there.
    std::fs::create_dir_all(env.ws.join(".git")).expect("create .git");
    let codex = |format: &'static str| {
        vec![
            "--trust-project",
            "--agent",
            "codex",
            "--at",
            "web",
            "--format",
            format,
            "assemble",
        ]
    };
    let cases = [
        Case {
            golden: "assemble-codex.txt",
            args: codex("text"),
            stderr: "",
            code: 0,
            keys: None,
        },
        Case {
            golden: "assemble-codex.json",
            args: codex("json"),
            stderr: "",
            code: 0,
            keys: Some(PROFILE_ASSEMBLE_KEYS),
        },
        Case {
            golden: "assemble-codex-untrusted.json",
            args: codex("json")[1..].to_vec(),
            stderr: WITHHELD_NOTICE,
            code: 0,
            keys: Some(PROFILE_ASSEMBLE_KEYS),
        },
    ];
    for case in &cases {
        check(&env, case);
    }
}

/// What `assemble --agent claude` says on stderr about the demo's MCP
/// server and SessionStart hook: listed, never run.
const DEMO_INVENTORY_WARNINGS: &str = "mecatl-prompt: warning: .mcp.json: ledger-db: configured \
MCP server, not run (would add the names mcp__ledger-db__TOOL of its tools to the deferred-tools \
list (no schemas) and its instructions as `## ledger-db` under `# MCP Server Instructions`, or, if \
it fails to start, a line `ledger-db (ERROR): MESSAGE` in the failed-to-connect list: not \
run)\nmecatl-prompt: warning: .claude/settings.json: SessionStart hook `touch \
.session-start-hook-ran && git log --oneline -5`: not run (would add its output, trailing newlines \
trimmed, as a paragraph `SessionStart:startup hook success: OUTPUT` (output that is JSON: only its \
additionalContext, as `SessionStart hook additional context: TEXT`) at the start of Claude Code's \
system message; nothing if it fails or prints nothing (not run))\n";

/// The demo under Claude Code: the root CLAUDE.md and its import, then what
/// reading a component adds (web/CLAUDE.md, its import, the nested rule and
/// the root's matching rule). Claude Code takes rule files in the order the
/// filesystem lists them, which differs between machines, so the Go rule is
/// removed here: every rules directory then holds one rule and the goldens
/// are the same everywhere (the order itself is checked in
/// `profiles_claude` against a raw listing).
#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn claude_profile_goldens() {
    let env = TestEnv::demo();
    std::fs::remove_file(env.ws.join(".claude/rules/go-testing.md")).expect("remove a rule");
    let claude = |format: &'static str| {
        vec![
            "--trust-project",
            "--agent",
            "claude",
            "--format",
            format,
            "assemble",
            "--touch",
            "web/src/App.tsx",
        ]
    };
    let cases = [
        Case {
            golden: "assemble-claude.txt",
            args: claude("text"),
            stderr: DEMO_INVENTORY_WARNINGS,
            code: 0,
            keys: None,
        },
        Case {
            golden: "assemble-claude.json",
            args: claude("json"),
            stderr: DEMO_INVENTORY_WARNINGS,
            code: 0,
            keys: Some(PROFILE_ASSEMBLE_KEYS),
        },
        Case {
            golden: "assemble-claude-untrusted.json",
            args: claude("json")[1..].to_vec(),
            stderr: WITHHELD_NOTICE,
            code: 0,
            keys: Some(PROFILE_ASSEMBLE_KEYS),
        },
    ];
    for case in &cases {
        check(&env, case);
    }
}
