//! `lint` (SPEC §15.3): the four formats on the fixture workspace
//! `tests/fixtures/lint` (goldens), the exit status, the agents filter,
//! SARIF validated against the official 2.1.0 schema, and that lint works
//! untrusted and never runs anything.

use std::path::Path;

use mecatl_prompt::prompt::lint::codes::Code;
use serde_json::Value;

use crate::corpus::{assert_expectations, corpus_folders};
use crate::golden::{assert_golden, assert_json_shape};
use crate::support::{TestEnv, code, compile_schema, copy_tree, fixture, json, stderr, stdout};

/// A workspace holding a copy of `tests/fixtures/lint`.
pub(crate) fn lint_env() -> TestEnv {
    let env = TestEnv::new();
    copy_tree(&fixture("lint"), &env.ws);
    env
}

const LINT_KEYS: &[&str] = &[
    "schema",
    "agents",
    "at",
    "findings",
    "summary",
    "diagnostics",
    "trust",
];

#[test]
fn lint_goldens_in_every_format() {
    let env = lint_env();
    for (golden, format) in [
        ("lint.txt", "text"),
        ("lint.json", "json"),
        ("lint-github.txt", "github"),
        ("lint-sarif.json", "sarif"),
    ] {
        let first = env.run(&["--format", format, "lint"]);
        let second = env.run(&["--format", format, "lint"]);
        assert_eq!(first.stdout, second.stdout, "{golden}: same bytes twice");
        assert_eq!(code(&first), Some(1), "{golden}: an error remains");
        assert_eq!(stderr(&first), "", "{golden}");
        let text = stdout(&first);
        if format == "json" {
            let doc = assert_json_shape(&text, LINT_KEYS);
            for finding in doc["findings"].as_array().expect("findings") {
                let keys: Vec<&str> = finding
                    .as_object()
                    .expect("a finding object")
                    .keys()
                    .map(String::as_str)
                    .collect();
                assert_eq!(
                    keys,
                    ["code", "severity", "path", "line", "message", "agents"]
                );
            }
        }
        assert_golden(&text, golden);
        if format == "text" {
            let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
                .expect("README");
            assert!(
                readme.contains(&format!("$ mecatl-prompt lint\n{text}$ echo $?\n1\n")),
                "README's lint example is not the real output"
            );
        }
    }
}

#[test]
fn every_finding_names_a_real_file_and_line() {
    let env = lint_env();
    let doc = json(&env.run(&["--format", "json", "lint"]));
    assert_findings_are_real(&env.ws, &doc);
}

/// Every finding of a `lint --format json` document points at a file of
/// `ws` and at a line that file has.
pub(crate) fn assert_findings_are_real(ws: &Path, doc: &Value) {
    for finding in doc["findings"].as_array().expect("findings") {
        let path = finding["path"].as_str().expect("path");
        let text = std::fs::read(ws.join(path))
            .unwrap_or_else(|e| panic!("{}: {path}: {e}", ws.display()));
        let lines = text.split(|b| *b == b'\n').count().max(1) as u64;
        let line = finding["line"].as_u64().expect("a line");
        assert!(
            (1..=lines).contains(&line),
            "{path}:{line} (of {lines} lines)"
        );
    }
}

#[test]
fn exit_status_follows_errors_and_deny_warnings() {
    let env = lint_env();
    // Codex's findings here are warnings only.
    let codex = env.run(&["lint", "--agents", "codex"]);
    assert_eq!(code(&codex), Some(0), "{}", stderr(&codex));
    assert_eq!(
        stdout(&codex),
        "CLAUDE.md:1: warning MP009: Claude Code loads CLAUDE.md (82 bytes) here, Codex and \
         mecatl load AGENTS.md (81 bytes): the files differ and CLAUDE.md does not import \
         AGENTS.md [mecatl, claude, codex]\n0 errors, 1 warning, 0 notes\n"
    );
    let denied = env.run(&["lint", "--agents", "codex", "--deny", "warnings"]);
    assert_eq!(code(&denied), Some(1));
    let listed = json(&env.run(&["--format", "json", "lint", "--agents", "codex,claude"]));
    assert_eq!(listed["agents"], serde_json::json!(["claude", "codex"]));

    let clean = TestEnv::new();
    clean.write("AGENTS.md", "Build with make.\n");
    let output = clean.run(&["lint", "--deny", "warnings"]);
    assert_eq!(
        (code(&output), stdout(&output)),
        (Some(0), "no findings\n".into())
    );
}

#[test]
fn usage_errors_exit_2() {
    let env = lint_env();
    let unknown = env.run(&["lint", "--agents", "claude,zed"]);
    assert_eq!(code(&unknown), Some(2));
    assert!(
        stderr(&unknown).contains("unknown agent \"zed\"; known agents: mecatl, claude, codex"),
        "{}",
        stderr(&unknown)
    );
    assert_eq!(code(&env.run(&["lint", "--deny", "notes"])), Some(2));
    for format in ["anthropic", "openai"] {
        let output = env.run(&["--format", format, "lint"]);
        assert_eq!(code(&output), Some(2));
        assert_eq!(
            stderr(&output),
            format!(
                "mecatl-prompt: error: --format {format} is only for build and assemble, not lint\n"
            )
        );
    }
    for (format, subcommand) in [
        ("github", vec!["build"]),
        ("sarif", vec!["assemble"]),
        ("github", vec!["rules", "list"]),
        ("sarif", vec!["commands", "list"]),
    ] {
        let mut args = vec!["--format", format];
        args.extend(&subcommand);
        let output = env.run(&args);
        assert_eq!(code(&output), Some(2), "{args:?}");
        assert_eq!(
            stderr(&output),
            format!(
                "mecatl-prompt: error: --format {format} is only for lint, not {}\n",
                subcommand.join(" ")
            )
        );
    }
}

#[test]
fn lint_reads_untrusted_and_never_runs_anything() {
    let env = lint_env();
    env.write(
        ".claude/commands/touch.md",
        "Proof: !`touch ran-by-lint`\n```!\ntouch ran-by-lint-too\n```\n",
    );
    let untrusted = json(&env.run(&["--format", "json", "lint"]));
    let trusted = json(&env.run(&["--format", "json", "--trust-project", "lint"]));
    assert_eq!(untrusted["trust"]["trusted"], false);
    assert_eq!(untrusted["findings"], trusted["findings"]);
    let shell: Vec<&Value> = untrusted["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["path"] == ".claude/commands/touch.md")
        .collect();
    assert_eq!(shell.len(), 2, "both commands are reported");
    assert!(!env.ws.join("ran-by-lint").exists());
    assert!(!env.ws.join("ran-by-lint-too").exists());
}

/// The official SARIF 2.1.0 schema, compiled.
fn sarif_schema() -> (boon::Schemas, boon::SchemaIndex) {
    compile_schema(
        &fixture("sarif-schema-2.1.0.json"),
        "https://docs.oasis-open.org/sarif/sarif-schema-2.1.0.json",
    )
}

#[test]
fn sarif_output_validates_against_the_official_schema() {
    let (schemas, index) = sarif_schema();
    let env = lint_env();
    let log = json(&env.run(&["--format", "sarif", "lint"]));
    if let Err(err) = schemas.validate(&log, index) {
        panic!("lint --format sarif is not valid SARIF 2.1.0:\n{err:#}");
    }
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), Code::ALL.len(), "one rule per code");
    for result in run["results"].as_array().expect("results") {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        let uri = &result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        assert!(!uri.as_str().expect("uri").starts_with('/'), "{uri}");
    }
    // The validator is not lenient: a level SARIF does not know fails.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(schemas.validate(&broken, index).is_err());
}

#[test]
fn github_commands_escape_paths_and_messages() {
    let env = lint_env();
    let text = stdout(&env.run(&["--format", "github", "lint"]));
    assert!(
        text.contains("::warning file=.claude/commands/fix%2C then ship.md,line=1,title=MP011::"),
        "{text}"
    );
    for line in text.lines().filter(|l| l.starts_with("::")) {
        let (_, message) = line
            .split_once("::")
            .and_then(|(_, r)| r.split_once("::"))
            .expect("a command");
        assert!(!message.contains('\r') && !message.contains('\n'));
    }
}

const LINT_EXPECTATIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lint-expectations.txt");

const LINT_HEADER: &str = "\
# `lint` over every folder of ../shared/corpus (tests/cli/lint.rs), compared exactly.
# Regenerate: UPDATE_EXPECTATIONS=1 cargo test --test cli lint_over_the_corpus
# Each line: FOLDER exit=STATUS errors/warnings/notes, then CODE=COUNT per code found.
";

/// `lint` over every corpus workspace: no panic, every finding on a real
/// file and line, the exit status and the codes and counts as pinned; and
/// the real files the acceptance names trip their checks.
#[test]
#[cfg_attr(
    windows,
    ignore = "the corpus is reached through /work/…/../shared, which Wine resolves on drive C:"
)]
fn lint_over_the_corpus_matches_its_expectations() {
    let Some(folders) = corpus_folders() else {
        return;
    };
    let env = TestEnv::new();
    let mut actual = String::from(LINT_HEADER);
    for folder in folders {
        let output = env
            .cmd()
            .arg("-C")
            .arg(&folder)
            .args(["--format", "json", "lint"])
            .output()
            .expect("run lint");
        let name = folder.file_name().expect("a folder name").to_string_lossy();
        assert!(
            !stderr(&output).contains("panicked"),
            "{name}: {}",
            stderr(&output)
        );
        let doc = json(&output);
        assert_findings_are_real(&folder, &doc);
        let summary = &doc["summary"];
        let mut codes = std::collections::BTreeMap::<String, usize>::new();
        for finding in doc["findings"].as_array().expect("findings") {
            *codes
                .entry(finding["code"].as_str().expect("code").to_string())
                .or_default() += 1;
        }
        let codes: Vec<String> = codes.iter().map(|(c, n)| format!("{c}={n}")).collect();
        actual.push_str(&format!(
            "{name} exit={} {}/{}/{} {}\n",
            code(&output).expect("an exit code"),
            summary["errors"],
            summary["warnings"],
            summary["notes"],
            codes.join(" ")
        ));
        let trips = |code: &str, path: &str| {
            doc["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .any(|f| f["code"] == code && f["path"] == path)
        };
        match &*name {
            "pr-pm__prpm" => assert!(trips("MP001", ".claude/commands/karen/compare.md")),
            "browser-use__browser-use" => {
                assert!(trips("MP009", "CLAUDE.md") && trips("MP008", "AGENTS.md"));
            }
            _ => {}
        }
    }
    assert_expectations(LINT_EXPECTATIONS, &actual.replace(" \n", "\n"));
}

// Unix only: symbolic links, a loop and a link to /etc/hostname.
#[cfg(unix)]
/// Hostile files: a FIFO, link loops, dangling links, a link out of the
/// workspace and a 2 GiB AGENTS.md are looked at without hanging, and only
/// what can be read is judged.
#[test]
fn lint_survives_hostile_files() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "Real\n");
    let fifo = env.ws.join("CLAUDE.md");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(made.success());
    std::fs::create_dir_all(env.ws.join(".claude/rules")).expect("rules dir");
    std::os::unix::fs::symlink(".", env.ws.join(".claude/rules/loop")).expect("loop");
    std::os::unix::fs::symlink("nowhere.md", env.ws.join(".claude/rules/dangling.md"))
        .expect("dangling");
    std::os::unix::fs::symlink("/etc/hostname", env.ws.join("docs.md")).expect("escape");
    env.write("sub/CLAUDE.md", "@../docs.md\n");
    let huge = env.write("big/AGENTS.md", "text\n");
    std::fs::File::options()
        .write(true)
        .open(&huge)
        .and_then(|f| f.set_len(2 << 30))
        .expect("a 2 GiB sparse file");
    let output = env
        .cmd()
        .args(["--format", "json", "lint"])
        .timeout(crate::hardening::HANG_GUARD)
        .output()
        .expect("run lint");
    assert_eq!(code(&output), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    let found: Vec<(String, String)> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("MP008".to_string(), "big/AGENTS.md".to_string()),
            ("MP007".to_string(), "sub/CLAUDE.md".to_string()),
        ]
    );
    let diagnosed: Vec<&str> = doc["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["path"].as_str())
        .collect();
    assert_eq!(diagnosed, ["CLAUDE.md"], "the FIFO is named once");
}
