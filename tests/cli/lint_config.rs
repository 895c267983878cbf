//! Lint configuration (SPEC §20.5) on the fixture `tests/fixtures/lint`:
//! every key of `.mecatl-prompt.toml`, precedence (command line, file,
//! defaults), overrides, inline suppressions, baselines that survive an
//! edit above a finding and fail on a new one, errors with file, line and
//! column, warnings for unknown codes, and that only `--write-baseline`
//! writes, and only its file.

use std::collections::BTreeSet;

use crate::hardening::read_only::snapshot;
use crate::hardening::root;
use crate::lint::lint_env;
use crate::support::{TestEnv, code, json, stderr, stdout};

/// The configuration README's "Lint in CI" shows: every key once.
pub(crate) const README_CONFIG: &str = r#"[lint]
agents = ["claude", "codex"]   # --agents wins over it
deny = ["warnings"]            # --deny errors|warnings wins over it
disable = ["MP016"]            # never report `!cmd` in commands

[lint.severity]
MP009 = "error"                # AGENTS.md and CLAUDE.md must agree

[[lint.overrides]]
paths = [".claude/commands/**"]
disable = ["MP010"]
severity = { MP001 = "note" }
"#;

const CONFIG: &str = ".mecatl-prompt.toml";

/// The fixture's one finding for Codex.
const MP009: &str = "CLAUDE.md:1: warning MP009: Claude Code loads CLAUDE.md (82 bytes) here, \
                     Codex and mecatl load AGENTS.md (81 bytes): the files differ and CLAUDE.md \
                     does not import AGENTS.md [mecatl, claude, codex]\n";

/// Exit code, stdout and stderr of `lint ARGS`.
fn lint(env: &TestEnv, args: &[&str]) -> (Option<i32>, String, String) {
    let output = env.run(&[&["lint"], args].concat());
    (code(&output), stdout(&output), stderr(&output))
}

/// Exit code and the findings of `--format json lint ARGS`, each as
/// `PATH:LINE SEVERITY CODE`.
fn findings(env: &TestEnv, args: &[&str]) -> (Option<i32>, Vec<String>) {
    let output = env.run(&[&["--format", "json", "lint"], args].concat());
    let doc = json(&output);
    let rows = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            format!(
                "{}:{} {} {}",
                f["path"].as_str().expect("path"),
                f["line"],
                f["severity"].as_str().expect("severity"),
                f["code"].as_str().expect("code")
            )
        })
        .collect();
    (code(&output), rows)
}

/// The fixture's findings without configuration.
const ALL: [&str; 9] = [
    ".claude/commands/compare.md:3 warning MP001",
    ".claude/commands/compare.md:3 warning MP010",
    ".claude/commands/fix, then ship.md:1 warning MP011",
    ".claude/commands/status.md:4 note MP016",
    ".claude/rules/cursor.md:3 warning MP012",
    ".claude/rules/typescript.md:3 error MP002",
    ".claude/skills/ship/SKILL.md:2 warning MP013",
    "CLAUDE.md:1 warning MP009",
    "CLAUDE.md:6 warning MP004",
];

#[test]
fn each_key_of_the_file_changes_the_run() {
    let env = lint_env();
    assert_eq!(
        findings(&env, &[]),
        (Some(1), ALL.map(String::from).to_vec())
    );

    env.write(CONFIG, "[lint]\nagents = [\"codex\"]\n");
    let summary = "0 errors, 1 warning, 0 notes\n";
    assert_eq!(
        lint(&env, &[]),
        (Some(0), format!("{MP009}{summary}"), String::new())
    );

    env.write(
        CONFIG,
        "[lint]\nagents = [\"codex\"]\ndeny = [\"warnings\"]\n",
    );
    assert_eq!(
        lint(&env, &[]),
        (Some(1), format!("{MP009}{summary}"), String::new())
    );

    env.write(
        CONFIG,
        "[lint]\nagents = [\"codex\"]\ndisable = [\"MP009\"]\n",
    );
    assert_eq!(
        lint(&env, &[]),
        (Some(0), "no findings\n".to_string(), String::new())
    );

    env.write(
        CONFIG,
        "[lint]\nagents = [\"codex\"]\n\n[lint.severity]\nMP009 = \"error\"\n",
    );
    assert_eq!(
        lint(&env, &[]),
        (
            Some(1),
            format!(
                "{}1 error, 0 warnings, 0 notes\n",
                MP009.replace("warning MP009", "error MP009")
            ),
            String::new()
        )
    );
}

#[test]
fn the_command_line_wins_over_the_file_which_wins_over_the_defaults() {
    let env = lint_env();
    env.write(
        CONFIG,
        "[lint]\nagents = [\"codex\"]\ndeny = [\"warnings\"]\n",
    );
    let doc = json(&env.run(&["--format", "json", "lint"]));
    assert_eq!(doc["agents"], serde_json::json!(["codex"]));

    // --agents replaces the file's agents.
    let output = env.run(&["--format", "json", "lint", "--agents", "mecatl"]);
    let doc = json(&output);
    assert_eq!(doc["agents"], serde_json::json!(["mecatl"]));
    let rows = doc["findings"].as_array().expect("findings");
    assert_eq!(rows.len(), 6, "{rows:?}");
    assert!(rows.iter().all(|f| {
        f["agents"]
            .as_array()
            .is_some_and(|agents| agents.contains(&"mecatl".into()))
    }));

    // --deny errors replaces the file's deny; --deny warnings one without.
    assert_eq!(lint(&env, &[]).0, Some(1));
    assert_eq!(lint(&env, &["--deny", "errors"]).0, Some(0));
    env.write(CONFIG, "[lint]\nagents = [\"codex\"]\n");
    assert_eq!(lint(&env, &[]).0, Some(0));
    assert_eq!(lint(&env, &["--deny", "warnings"]).0, Some(1));
}

#[test]
fn overrides_apply_to_the_paths_their_globs_match() {
    let env = lint_env();
    env.write(
        CONFIG,
        "[[lint.overrides]]\npaths = [\".claude/commands/**\"]\n\
         disable = [\"MP010\", \"MP011\"]\nseverity = { MP016 = \"warning\" }\n\n\
         [[lint.overrides]]\npaths = [\"*.md\"]\nseverity = { MP004 = \"error\", MP002 = \"note\" }\n",
    );
    assert_eq!(
        findings(&env, &[]),
        (
            Some(1),
            vec![
                ".claude/commands/compare.md:3 warning MP001".to_string(),
                ".claude/commands/status.md:4 warning MP016".to_string(),
                ".claude/rules/cursor.md:3 warning MP012".to_string(),
                // `*.md` is anchored at the root: the rule keeps its error.
                ".claude/rules/typescript.md:3 error MP002".to_string(),
                ".claude/skills/ship/SKILL.md:2 warning MP013".to_string(),
                "CLAUDE.md:1 warning MP009".to_string(),
                "CLAUDE.md:6 error MP004".to_string(),
            ]
        )
    );
}

#[test]
fn comments_suppress_a_code_in_a_file_or_on_the_next_line() {
    let env = lint_env();
    env.write(
        ".claude/commands/status.md",
        "---\ndescription: Summarise the working tree\n---\n\
         <!-- mecatl-prompt: disable-next-line MP016 -->\nStatus: !`git status --short`\n\
         Diff: !`git diff --stat`\n",
    );
    env.write(
        ".claude/rules/cursor.md",
        "---\ndescription: Python style\nglobs: \"**/*.py\"\nalwaysApply: false\n---\n\
         Prefer dataclasses.\n<!-- mecatl-prompt: disable MP012, MP999 -->\n",
    );
    let (status, rows) = findings(&env, &[]);
    assert_eq!(status, Some(1));
    let expected: Vec<String> = ALL
        .iter()
        .filter(|row| !row.contains("MP012") && !row.contains("MP016"))
        .map(|row| row.to_string())
        // The second command on line 6 has no comment above it.
        .chain([".claude/commands/status.md:6 note MP016".to_string()])
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect();
    let rows: Vec<String> = rows
        .into_iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(rows, expected);
    let (_, _, err) = lint(&env, &[]);
    assert_eq!(
        err,
        "mecatl-prompt: warning: .claude/rules/cursor.md: line 7: unknown lint code \"MP999\" \
         (the codes are MP001 to MP036); it is ignored\n"
    );
}

#[test]
fn a_baseline_survives_an_edit_above_a_finding_and_fails_on_a_new_one() {
    let env = TestEnv::new();
    env.write("CLAUDE.md", "# Project\n\n@docs/setup.md\n");
    let (status, out, err) = lint(&env, &["--deny", "warnings"]);
    assert_eq!(status, Some(1), "{out}{err}");

    let (status, out, err) = lint(&env, &["--write-baseline", "lint-baseline.json"]);
    assert_eq!(
        (status, out.as_str(), err.as_str()),
        (Some(0), "no findings\n", "")
    );
    let written = std::fs::read_to_string(env.ws.join("lint-baseline.json")).expect("written");
    let baseline: serde_json::Value = serde_json::from_str(&written).expect("JSON");
    assert_eq!(baseline["schema"], "mecatl-prompt/lint-baseline-v1");
    assert_eq!(baseline["findings"][0]["path"], "CLAUDE.md");
    assert_eq!(baseline["findings"][0]["code"], "MP004");
    assert_eq!(baseline["findings"][0]["count"], 1);

    let accepted = ["--deny", "warnings", "--baseline", "lint-baseline.json"];
    // Lines added above the finding move it; it stays accepted.
    env.write(
        "CLAUDE.md",
        "# Project\n\nRead the setup notes first.\n\n  @docs/setup.md\n",
    );
    assert_eq!(
        lint(&env, &accepted),
        (Some(0), "no findings\n".to_string(), String::new())
    );
    // A new finding is reported; the accepted one is not.
    env.write(
        "CLAUDE.md",
        "# Project\n\nRead the setup notes first.\n\n@docs/setup.md\n@docs/deploy.md\n",
    );
    let (status, out, _) = lint(&env, &accepted);
    assert_eq!(status, Some(1));
    assert!(
        out.starts_with("CLAUDE.md:6: warning MP004: `@docs/deploy.md`"),
        "{out}"
    );
    assert!(out.ends_with("0 errors, 1 warning, 0 notes\n"), "{out}");
    // Without the baseline both are reported.
    assert_eq!(findings(&env, &[]).1.len(), 2);
    // Read from stdin too.
    let output = env
        .cmd()
        .args(["lint", "--baseline", "-"])
        .write_stdin(written)
        .output()
        .expect("run");
    assert!(stdout(&output).ends_with("0 errors, 1 warning, 0 notes\n"));
}

#[test]
fn configuration_errors_exit_2_with_file_line_and_column() {
    let env = lint_env();
    env.write(CONFIG, "[lint]\nagents = [\"claude\", \"zed\"]\n");
    let (code, out, err) = lint(&env, &[]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    // Every known agent is named, the table's first three first.
    assert!(
        err.starts_with(
            "mecatl-prompt: error: .mecatl-prompt.toml: line 2, column 21: unknown agent \"zed\"; \
             known agents: mecatl, claude, codex"
        ),
        "{err}"
    );
    for (config, expected) in [
        (
            "[lint]\ndeny = [\"notes\"]\n",
            "line 2, column 9: `deny` takes \"warnings\", not \"notes\"",
        ),
        (
            "[lint]\n\n[lint.severity]\nMP004 = \"fatal\"\n",
            "line 4, column 9: a severity is \"error\", \"warning\" or \"note\", not \"fatal\"",
        ),
        (
            "[[lint.overrides]]\npaths = [\"docs/{a\"]\n",
            "line 2, column 10: the glob \"docs/{a\" does not compile: unclosed alternate group; \
             missing '}' (maybe escape '{' with '[{]'?)",
        ),
    ] {
        env.write(CONFIG, config);
        assert_eq!(
            lint(&env, &[]),
            (
                Some(2),
                String::new(),
                format!("mecatl-prompt: error: .mecatl-prompt.toml: {expected}\n")
            ),
            "{config}"
        );
    }
    for (config, place) in [
        (
            "[lint]\ndisabel = [\"MP004\"]\n",
            "line 2, column 1: unknown field `disabel`",
        ),
        (
            "[lint]\ndisable = \"MP004\"\n",
            "line 2, column 11: invalid type",
        ),
        ("[lint\n", "line 1, column 6: "),
    ] {
        env.write(CONFIG, config);
        let (status, out, err) = lint(&env, &[]);
        assert_eq!((status, out.as_str()), (Some(2), ""), "{config}");
        assert!(
            err.starts_with(&format!(
                "mecatl-prompt: error: .mecatl-prompt.toml: {place}"
            )),
            "{config}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    env.write(CONFIG, b"[lint]\ndisable = [\"MP\xff\"]\n");
    assert_eq!(
        lint(&env, &[]).2,
        "mecatl-prompt: error: .mecatl-prompt.toml: line 2, column 15: not valid UTF-8\n"
    );
}

#[test]
fn baseline_errors_exit_2() {
    let env = lint_env();
    env.write(
        "other.json",
        "{\n  \"schema\": \"mecatl-prompt/snapshot-v1\"\n}\n",
    );
    for (args, expected) in [
        (
            vec!["--baseline", "missing.json"],
            "mecatl-prompt: error: --baseline missing.json: ",
        ),
        (
            vec!["--baseline", "other.json"],
            "mecatl-prompt: error: --baseline other.json: line 3, column 1: missing field",
        ),
        (
            vec!["--write-baseline", "-"],
            "mecatl-prompt: error: --write-baseline takes a file name",
        ),
        (
            vec!["--write-baseline", "no/such/dir/b.json"],
            "mecatl-prompt: error: --write-baseline no/such/dir/b.json: ",
        ),
        (
            vec!["--baseline", "a.json", "--write-baseline", "b.json"],
            "error: the argument '--baseline <FILE>' cannot be used with '--write-baseline <FILE>'",
        ),
    ] {
        let (status, out, err) = lint(&env, &args);
        assert_eq!((status, out.as_str()), (Some(2), ""), "{args:?}");
        assert!(err.starts_with(expected), "{args:?}: {err}");
    }
    env.write(
        "bad.json",
        "{\"schema\": \"mecatl-prompt/snapshot-v1\", \"findings\": []}",
    );
    let (status, _, err) = lint(&env, &["--baseline", "bad.json"]);
    assert_eq!(status, Some(2));
    assert_eq!(
        err,
        "mecatl-prompt: error: --baseline bad.json: line 1, column 2: schema is \
         \"mecatl-prompt/snapshot-v1\", expected \"mecatl-prompt/lint-baseline-v1\"\n"
    );
}

#[test]
fn unknown_codes_are_warnings_naming_them() {
    let env = lint_env();
    env.write(
        CONFIG,
        "[lint]\nagents = [\"codex\"]\ndisable = [\"MP099\"]\n",
    );
    env.write(
        "accepted.json",
        "{\"schema\": \"mecatl-prompt/lint-baseline-v1\", \"findings\": \
         [{\"path\": \"a.md\", \"code\": \"XX7\", \"line_hash\": \"0\", \"count\": 1}]}",
    );
    let (status, out, err) = lint(&env, &["--baseline", "accepted.json"]);
    assert_eq!(
        (status, out),
        (Some(0), format!("{MP009}0 errors, 1 warning, 0 notes\n"))
    );
    assert_eq!(
        err,
        "mecatl-prompt: warning: .mecatl-prompt.toml: line 3, column 12: unknown lint code \
         \"MP099\" (the codes are MP001 to MP036); it is ignored\n\
         mecatl-prompt: warning: accepted.json: unknown lint code \"XX7\" (the codes are MP001 \
         to MP036); it is ignored\n"
    );
    let doc = json(&env.run(&["--format", "json", "lint", "--baseline", "accepted.json"]));
    assert_eq!(doc["diagnostics"].as_array().map(Vec::len), Some(2));
    assert_eq!(doc["diagnostics"][0]["severity"], "warning");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "lists the files written with native separators (ws\\accepted.json)"
)]
fn only_write_baseline_writes_and_only_the_file_it_names() {
    let env = lint_env();
    env.write(CONFIG, README_CONFIG);
    env.write("sub/CLAUDE.md", "@missing.md\n");
    let before = snapshot(root(&env));

    let (status, _, err) = lint(&env, &["--write-baseline", "accepted.json"]);
    assert_eq!(status, Some(0), "{err}");
    let after = snapshot(root(&env));
    let added: Vec<&String> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    assert_eq!(added, ["ws/accepted.json"]);
    // Only the workspace directory, which gained an entry, is touched.
    let changed: Vec<&String> = before
        .iter()
        .filter(|(k, v)| after.get(*k) != Some(v))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(changed, ["ws"]);

    // Reading runs, in every format, write nothing.
    let before = snapshot(root(&env));
    for format in ["text", "json", "github", "sarif"] {
        for args in [
            vec!["--format", format, "lint"],
            vec!["--format", format, "lint", "--deny", "warnings"],
            vec!["--format", format, "lint", "--baseline", "accepted.json"],
            vec!["--format", format, "lint", "--agents", "codex"],
        ] {
            let output = env.run(&args);
            assert!(matches!(code(&output), Some(0 | 1)), "{args:?}");
        }
    }
    assert_eq!(
        snapshot(root(&env)),
        before,
        "a lint run without --write-baseline wrote"
    );

    // A file name resolves against -C; writing again replaces the file and
    // leaves no temporary file behind.
    for _ in 0..2 {
        let output = env.run(&["-C", "sub", "lint", "--write-baseline", "b.json"]);
        assert_eq!(code(&output), Some(0), "{}", stderr(&output));
    }
    let after = snapshot(root(&env));
    let added: Vec<&String> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    assert_eq!(added, ["ws/sub/b.json"]);
    let written = std::fs::read_to_string(env.ws.join("sub/b.json")).expect("written");
    assert!(written.contains("\"path\": \"CLAUDE.md\""), "{written}");
}

#[test]
fn readme_shows_the_configuration_and_a_baseline_session_as_they_run() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    assert!(
        readme.contains(&format!(
            "```toml\n# .mecatl-prompt.toml\n{README_CONFIG}```\n"
        )),
        "README's configuration differs from the tested one"
    );
    let env = lint_env();
    env.write(CONFIG, README_CONFIG);
    let (status, out, err) = lint(&env, &[]);
    assert_eq!((status, err.as_str()), (Some(1), ""));
    assert!(
        readme.contains(&format!("$ mecatl-prompt lint\n{out}$ echo $?\n1\n")),
        "README's configured run is not the real output:\n{out}"
    );

    let mut session = String::from("$ mecatl-prompt lint --write-baseline lint-baseline.json\n");
    let (status, out, err) = lint(&env, &["--write-baseline", "lint-baseline.json"]);
    assert_eq!((status, err.as_str()), (Some(0), ""));
    session.push_str(&out);
    session.push_str("$ echo '@docs/setup.md' >> CLAUDE.md\n");
    let claude = std::fs::read_to_string(env.ws.join("CLAUDE.md")).expect("CLAUDE.md");
    env.write("CLAUDE.md", format!("{claude}@docs/setup.md\n"));
    session.push_str("$ mecatl-prompt lint --baseline lint-baseline.json\n");
    let (status, out, err) = lint(&env, &["--baseline", "lint-baseline.json"]);
    assert_eq!(err, "");
    session.push_str(&format!(
        "{out}$ echo $?\n{}\n",
        status.expect("an exit code")
    ));
    assert!(
        readme.contains(&session),
        "README's baseline session is not the real output:\n{session}"
    );
}
