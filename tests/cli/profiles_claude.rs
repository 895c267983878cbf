//! The Claude Code profile on the binary (SPEC §14.3, §14.7): what
//! `rules list`, `explain`, `--touch`, `--stats` and `snapshot`/`check` show
//! under `--agent claude`, the user's files under `$CLAUDE_CONFIG_DIR`, and
//! the approval of external imports read from Claude Code's configuration.
//! What the profile loads is pinned file by file by the oracle replay
//! (`oracle::claude_instructions`); the hostile cases are in
//! `hardening::claude`.

use std::path::Path;

use crate::golden::assert_json_shape;
use crate::hardening::{Outcome, run};
use crate::support::{TestEnv, write_file};

/// `--trust-project --agent claude` then `args`.
fn claude(env: &TestEnv, args: &[&str]) -> Outcome {
    let mut all = vec!["--trust-project", "--agent", "claude"];
    all.extend_from_slice(args);
    run(env, &all)
}

/// A workspace with a root CLAUDE.md importing a note, rules in two
/// directories of `.claude/rules` (one conditional), a fallback AGENTS.md
/// that is not used, and a nested CLAUDE.md below the root.
fn claude_env() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("CLAUDE.md", "ROOT @docs/note.md\n");
    env.write("docs/note.md", "NOTE\n");
    env.write("AGENTS.md", "AGENTS\n");
    env.write(".claude/rules/style.md", "STYLE\n");
    env.write(
        ".claude/rules/deep/go.md",
        "---\npaths: \"*.go\"\n---\nGO\n",
    );
    env.write("svc/CLAUDE.md", "SVC\n");
    env
}

/// The `.md` files below `dir` in raw `read_dir` order, depth first, as
/// workspace-relative paths.
fn listing(ws: &Path, dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(ws.join(dir)).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = format!("{dir}/{name}");
        if entry.file_type().unwrap().is_dir() {
            out.extend(listing(ws, &rel));
        } else if name.ends_with(".md") {
            out.push(rel);
        }
    }
    out
}

#[test]
fn rules_list_shows_every_rule_in_listing_order_with_its_paths() {
    let env = claude_env();
    let out = claude(&env, &["--format", "json", "rules", "list"]);
    out.assert_code(0);
    let doc = assert_json_shape(
        &out.stdout,
        &["schema", "agent", "at", "rules", "diagnostics", "trust"],
    );
    let rules = doc["rules"].as_array().unwrap();
    let paths: Vec<&str> = rules.iter().map(|r| r["path"].as_str().unwrap()).collect();
    assert_eq!(paths, listing(&env.ws, ".claude/rules"), "listing order");
    for rule in rules {
        let expected = match rule["path"].as_str().unwrap() {
            ".claude/rules/style.md" => {
                serde_json::json!({"path": ".claude/rules/style.md", "scope": "project",
                    "loads": "start", "paths": [], "bytes": 5, "reason": null})
            }
            _ => serde_json::json!({"path": ".claude/rules/deep/go.md", "scope": "project",
                "loads": "lazy", "paths": ["*.go"], "bytes": null, "reason": null}),
        };
        assert_eq!(rule, &expected);
    }

    let text = claude(&env, &["rules", "list"]);
    text.assert_code(0);
    assert!(text.stdout.starts_with("PATH "), "{}", text.stdout);
    assert!(
        text.stdout
            .contains(".claude/rules/deep/go.md  project  lazy   *.go")
    );
    assert!(
        text.stdout
            .contains(".claude/rules/style.md    project  start  (always)")
    );

    let untrusted = run(&env, &["--agent", "claude", "rules", "list"]);
    untrusted.assert_code(0);
    assert_eq!(
        untrusted
            .stdout
            .matches("skipped  (withheld: untrusted)")
            .count(),
        2
    );
    let refused = claude(&env, &["rules", "list", "--for", "a.go"]);
    refused.assert_code(2);
}

#[test]
fn explain_says_which_rule_loaded_a_file_or_left_it_out() {
    let env = claude_env();
    let rule = "rule: Claude Code reads the managed CLAUDE.md, the user's CLAUDE.md and rules, \
                then in each directory from / down to the cwd .: CLAUDE.md, .claude/CLAUDE.md, \
                the rules below .claude/rules and CLAUDE.local.md (AGENTS.md and \
                .claude/AGENTS.md after the rules only when no CLAUDE.md of any kind has \
                content), then the auto-memory; a rule with paths: loads when a matching file \
                is read, and so does a directory below the cwd (--touch)";
    for (name, code, fate) in [
        (
            "CLAUDE.md",
            0,
            "loaded at start: part 1, 18 bytes\nscope: project",
        ),
        (
            "docs/note.md",
            0,
            "loaded at start: part 2, 4 bytes\nscope: project",
        ),
        (
            "AGENTS.md",
            0,
            "not loaded: not read: a CLAUDE.md-type file exists on the walk\nscope: project",
        ),
        (
            ".claude/rules/deep/go.md",
            0,
            "not loaded: conditional: loaded when a matching file is read\nscope: project",
        ),
        (
            "svc/CLAUDE.md",
            0,
            "not read: svc is not a directory read at start",
        ),
        ("gone/CLAUDE.md", 1, "not found"),
    ] {
        let out = claude(&env, &["explain", name]);
        out.assert_code(code);
        let head = format!("instruction file {name} (claude profile, at .)\n{fate}\n{rule}\n");
        assert!(out.stdout.starts_with(&head), "{name}:\n{}", out.stdout);
    }
}

#[test]
fn touch_adds_nested_files_and_matching_rules_once() {
    let env = claude_env();
    env.write("svc/api/handler.go", "package api\n");
    let touching = [
        "--format",
        "json",
        "assemble",
        "--touch",
        "svc/api/handler.go",
        "--touch",
        "svc/other.go",
    ];
    let outside = [&touching[..], &["--touch", "../outside.go"]].concat();
    claude(&env, &outside).assert_code(2);
    let out = claude(&env, &touching);
    out.assert_code(0);
    let doc = out.json();
    let touched: Vec<(String, Vec<String>)> = doc["touch"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let parts = t["parts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["path"].as_str().unwrap().to_string())
                .collect();
            (t["path"].as_str().unwrap().to_string(), parts)
        })
        .collect();
    assert_eq!(
        touched,
        [
            (
                "svc/api/handler.go".to_string(),
                vec![
                    "svc/CLAUDE.md".to_string(),
                    ".claude/rules/deep/go.md".to_string()
                ]
            ),
            ("svc/other.go".to_string(), vec![]),
        ]
    );

    // Started in svc/, a file outside the cwd adds nothing, and says so.
    let out = claude(
        &env,
        &["--at", "svc", "-v", "assemble", "--touch", "docs/x.go"],
    );
    out.assert_code(0);
    assert!(
        out.stdout
            .ends_with("── touch docs/x.go · adds nothing ──\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr.contains(
            "info: docs/x.go: not below the cwd: Claude Code adds nothing when it reads it"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn stats_and_snapshot_count_every_part() {
    let env = claude_env();
    let out = claude(&env, &["assemble", "--stats"]);
    out.assert_code(0);
    for part in ["part 1 (project)", "part 2 (project)", "part 3 (project)"] {
        assert!(out.stderr.contains(part), "{part}: {}", out.stderr);
    }
    assert!(
        out.stderr
            .contains("left out (project)      -       -  not loaded: conditional"),
        "{}",
        out.stderr
    );
    let out = claude(&env, &["snapshot"]);
    out.assert_code(0);
    let manifest = env.root.join("manifest.json");
    std::fs::write(&manifest, &out.stdout).unwrap();
    let manifest = manifest.display().to_string();
    claude(&env, &["check", "--against", &manifest]).assert_code(0);
    env.write("docs/note.md", "NOTE, edited\n");
    let changed = claude(&env, &["check", "--against", &manifest]);
    changed.assert_code(1);
    assert!(
        changed.stdout.contains("docs/note.md"),
        "{}",
        changed.stdout
    );
}

#[test]
fn the_config_dir_moves_the_user_files_and_the_approval() {
    let env = claude_env();
    env.write("svc/CLAUDE.md", "SVC @../docs/note.md\n");
    let config = env.root.join("claude-config");
    write_file(&config.join("CLAUDE.md"), "USER FROM THE CONFIG DIR\n");
    // The home directory's files are not read when the variable is set.
    write_file(&env.home.join(".claude/CLAUDE.md"), "USER FROM HOME\n");
    let assemble = |approve_in: &Path| {
        let key = env.ws.display().to_string();
        write_file(
            &approve_in.join(".claude.json"),
            serde_json::json!({"projects": {key: {"hasClaudeMdExternalIncludesApproved": true}}})
                .to_string(),
        );
        let output = env
            .cmd()
            .env("CLAUDE_CONFIG_DIR", &config)
            .args(["--trust-project", "--agent", "claude", "--at", "svc"])
            .args(["--format", "json", "assemble"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        std::fs::remove_file(approve_in.join(".claude.json")).unwrap();
        doc["messages"][0]["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["content"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // Approved in ~/.claude.json: not Claude Code's file once the variable is set.
    assert_eq!(
        assemble(&env.home),
        [
            "USER FROM THE CONFIG DIR",
            "ROOT @docs/note.md",
            "STYLE",
            "SVC @../docs/note.md"
        ]
    );
    assert_eq!(
        assemble(&config),
        [
            "USER FROM THE CONFIG DIR",
            "ROOT @docs/note.md",
            "NOTE",
            "STYLE",
            "SVC @../docs/note.md"
        ]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "NTFS lists .claude/rules by name, Linux in creation order, which README shows"
)]
fn readmes_stats_started_in_web_are_the_real_output() {
    let env = TestEnv::demo();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let out = crate::hardening::run(
        &env,
        &[
            "--trust-project",
            "--agent",
            "claude",
            "--at",
            "web",
            "assemble",
            "--stats",
        ],
    );
    out.assert_code(0);
    assert_eq!(
        crate::support::readme_block(
            "mecatl-prompt -C examples/demo --trust-project --agent claude --at web assemble \
             --stats > /dev/null"
        ),
        out.stderr
    );
}
