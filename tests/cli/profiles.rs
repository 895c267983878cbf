//! Agent profiles on the binary (SPEC §14.1, §14.4, §14.7): choosing the
//! profile and `--at`, `build`'s refusal, and the Codex profile through
//! every output — text sections, JSON, provider formats, `--stats`,
//! `snapshot`/`check`, `explain`, `rules list`, `--touch` — trusted and not.

use std::path::Path;

use crate::golden::{PROFILE_ASSEMBLE_KEYS, assert_json_shape, keys_of};
#[cfg(unix)]
use crate::hardening::symlink;
use crate::hardening::{Outcome, run};
use crate::support::TestEnv;
#[cfg(unix)]
use crate::support::make_unreadable;

/// A git workspace with a Codex chain: the root file, an override beside a
/// shadowed AGENTS.md in `sub`, a file without a final newline in
/// `sub/deep`, and a global file in `~/.codex`.
fn codex_env() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("AGENTS.md", "ROOT\n");
    env.write("sub/AGENTS.override.md", "OVERRIDE\n");
    env.write("sub/AGENTS.md", "SHADOWED\n");
    env.write("sub/deep/AGENTS.md", "DEEP");
    write_home(&env, ".codex/AGENTS.md", "  GLOBAL\n\n");
    env
}

fn write_home(env: &TestEnv, rel: &str, content: &str) {
    crate::support::write_file(&env.home.join(rel), content);
}

/// `--trust-project --agent codex --at AT` then `args`.
fn codex(env: &TestEnv, at: &str, args: &[&str]) -> Outcome {
    let mut all = vec!["--trust-project", "--agent", "codex", "--at", at];
    all.extend_from_slice(args);
    run(env, &all)
}

/// The `(path, scope)` of every part of the JSON document's messages.
fn parts(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .flat_map(|m| m["parts"].as_array().expect("parts").clone())
        .map(|p| {
            let field = |key: &str| p[key].as_str().unwrap_or_default().to_string();
            (field("path"), field("scope"))
        })
        .collect()
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn the_flag_beats_the_variable_beats_settings_beats_the_default() {
    let env = TestEnv::new();
    let agent = |args: &[&str], var: Option<&str>| {
        let mut cmd = env.cmd();
        if let Some(value) = var {
            cmd.env("MECATL_PROMPT_AGENT", value);
        }
        let output = cmd
            .args(["--format", "json", "-v"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let stderr = env.redact(&String::from_utf8_lossy(&output.stderr));
        (
            doc["agent"].as_str().unwrap_or_default().to_string(),
            stderr,
        )
    };
    let list = ["commands", "list"];
    assert_eq!(agent(&list, None).0, "mecatl");
    assert_eq!(
        agent(&list, Some("")).0,
        "mecatl",
        "an empty variable is unset"
    );
    env.write_config("mecatl/settings.yaml", "agent: codex\n");
    let (name, stderr) = agent(&list, None);
    assert_eq!(name, "codex");
    assert!(
        stderr.contains(
            "info: agent profile codex from agent: in [ROOT]/config/mecatl/settings.yaml"
        ),
        "{stderr}"
    );
    let (name, stderr) = agent(&list, Some("mecatl"));
    assert_eq!(name, "mecatl");
    assert!(stderr.contains("agent profile mecatl from MECATL_PROMPT_AGENT"));
    let after = ["commands", "list", "--agent", "claude"];
    assert_eq!(
        agent(&after, Some("mecatl")).0,
        "claude",
        "global after the subcommand"
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn an_unknown_agent_is_a_usage_error_listing_the_known_ones() {
    let env = TestEnv::new();
    let out = run(&env, &["--agent", "zed", "rules", "list"]);
    out.assert_code(2);
    // Every known agent, the table's first three first.
    assert!(
        out.stderr
            .contains("[possible values: mecatl, claude, codex"),
        "{}",
        out.stderr
    );
    let out = env
        .cmd()
        .env("MECATL_PROMPT_AGENT", "zed")
        .args(["rules", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with(
        "mecatl-prompt: error: MECATL_PROMPT_AGENT: unknown agent \"zed\"; known agents: \
             mecatl, claude, codex"
    ));
    for (settings, shown) in [("agent: zed\n", "\"zed\""), ("agent: [1]\n", "\"[1]\"")] {
        env.write_config("mecatl/settings.yaml", settings);
        let out = run(&env, &["rules", "list"]);
        out.assert_code(2);
        let said = format!(
            "mecatl-prompt: error: [ROOT]/config/mecatl/settings.yaml: agent: unknown agent \
             {shown}; known agents: mecatl, claude, codex"
        );
        assert!(out.stderr.starts_with(&said), "{}", out.stderr);
    }
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn at_must_be_a_directory_inside_the_workspace() {
    let env = codex_env();
    std::fs::create_dir_all(env.root.join("outside")).unwrap();
    symlink(env.root.join("outside"), &env.ws.join("link"));
    for (at, why) in [
        ("nope", "--at nope: No such file or directory (os error 2)"),
        ("AGENTS.md", "--at AGENTS.md: not a directory"),
        ("..", "--at ..: outside the workspace [ROOT]/ws"),
        (
            "sub/../../home",
            "--at sub/../../home: outside the workspace [ROOT]/ws",
        ),
        (
            "link",
            "--at link: leads out of the workspace [ROOT]/ws through a symbolic link",
        ),
    ] {
        let out = codex(&env, at, &["assemble"]);
        out.assert_code(2);
        assert_eq!(out.stderr, format!("mecatl-prompt: error: {why}\n"));
    }
    // Relative to -C, not to the process's directory; absolute inside is fine.
    let out = env
        .cmd()
        .current_dir(&env.root)
        .args([
            "-C", "ws", "--agent", "codex", "--at", "sub/", "--format", "json",
        ])
        .args(["--trust-project", "assemble"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["at"], "sub");
    let absolute = env.ws.join("sub/deep").display().to_string();
    let doc = codex(&env, &absolute, &["--format", "json", "assemble"]).json();
    assert_eq!(doc["at"], "sub/deep");
    let doc = codex(&env, ".", &["--format", "json", "assemble"]).json();
    assert_eq!(doc["at"], ".");
    // Under mecatl, --at is checked and not shown.
    let doc = run(&env, &["--at", "sub", "--format", "json", "rules", "list"]).json();
    assert!(doc.get("at").is_none(), "{doc}");
}

#[test]
fn build_refuses_a_profile_flag_and_ignores_one_from_elsewhere() {
    let env = TestEnv::new();
    let out = run(&env, &["--agent", "codex", "build", "--no-git-status"]);
    out.assert_code(2);
    assert_eq!(
        out.stderr,
        "mecatl-prompt: error: build prints the engine's layered prompt, never an agent's own; \
         for what Codex loads from this workspace, run `assemble --agent codex`\n"
    );
    assert_eq!(out.stdout, "");
    let baseline = run(&env, &["build", "--no-git-status", "--date", "2025-01-01"]);
    let out = env
        .cmd()
        .env("MECATL_PROMPT_AGENT", "claude")
        .args(["-v", "build", "--no-git-status", "--date", "2025-01-01"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        env.redact(&String::from_utf8_lossy(&out.stdout)),
        baseline.stdout
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "info: the agent profile claude (from MECATL_PROMPT_AGENT) does not apply to build"
    ));
    env.write_config("mecatl/settings.yaml", "agent: codex\n");
    let doc = run(&env, &["--format", "json", "build", "--no-git-status"]).json();
    assert_eq!(
        doc["agent"], "mecatl",
        "build describes the engine's prompt"
    );
    assert!(doc.get("at").is_none());
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn text_shows_one_section_per_part_with_its_exact_content() {
    let env = codex_env();
    let out = codex(&env, "sub/deep", &["assemble"]);
    out.assert_code(0);
    assert_eq!(out.stderr, "");
    assert_eq!(
        out.stdout,
        "── 1 · user · [ROOT]/home/.codex/AGENTS.md ──\nGLOBAL\n\n\
         ── 2 · project · AGENTS.md ──\nROOT\n\n\
         ── 3 · project · sub/AGENTS.override.md ──\nOVERRIDE\n\n\
         ── 4 · project · sub/deep/AGENTS.md ──\nDEEP\n"
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn json_has_the_spec_shape_and_the_exact_text() {
    let env = codex_env();
    let out = codex(&env, "sub/deep", &["--format", "json", "assemble"]);
    out.assert_code(0);
    let doc = assert_json_shape(&out.stdout, PROFILE_ASSEMBLE_KEYS);
    assert_eq!(
        (doc["agent"].as_str(), doc["at"].as_str()),
        (Some("codex"), Some("sub/deep"))
    );
    let message = &doc["messages"][0];
    let keys = keys_of(message);
    assert_eq!(keys, ["role", "provenance", "parts", "text"]);
    assert_eq!(
        keys_of(&message["parts"][0]),
        [
            "path",
            "scope",
            "kind",
            "imported_by",
            "bytes",
            "content",
            "cut"
        ]
    );
    assert_eq!(
        message["text"],
        "GLOBAL\n\n--- project-doc ---\n\nROOT\n\n\nOVERRIDE\n\n\nDEEP"
    );
    assert_eq!(
        parts(&doc),
        [
            ("[ROOT]/home/.codex/AGENTS.md", "user"),
            ("AGENTS.md", "project"),
            ("sub/AGENTS.override.md", "project"),
            ("sub/deep/AGENTS.md", "project"),
        ]
        .map(|(p, s)| (p.to_string(), s.to_string()))
    );
    assert_eq!(
        doc["not_loaded"],
        serde_json::json!([{"path": "sub/AGENTS.md", "scope": "project",
            "reason": "shadowed by sub/AGENTS.override.md"}])
    );
    assert_eq!(doc["touch"], serde_json::json!([]));
}

#[test]
fn provider_formats_carry_the_parts() {
    let env = codex_env();
    let doc = codex(&env, "sub", &["--format", "anthropic", "assemble"]).json();
    let blocks: Vec<&str> = doc["messages"][0]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["text"].as_str().unwrap())
        .collect();
    assert_eq!(blocks, ["GLOBAL", "ROOT\n", "OVERRIDE\n"]);
    assert_eq!(doc["messages"].as_array().unwrap().len(), 1);
    let doc = codex(&env, "sub", &["--format", "openai", "assemble"]).json();
    assert_eq!(
        doc,
        serde_json::json!({"messages": [{"role": "user",
            "content": "GLOBAL\n\n--- project-doc ---\n\nROOT\n\n\nOVERRIDE\n"}]})
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn the_budget_cut_is_warned_counted_and_budgeted() {
    let env = codex_env();
    write_home(&env, ".codex/config.toml", "project_doc_max_bytes = 12\n");
    let out = codex(
        &env,
        "sub/deep",
        &["assemble", "--stats", "--max-turn0-bytes", "20"],
    );
    out.assert_code(1);
    assert_eq!(
        out.stdout,
        "── 1 · user · [ROOT]/home/.codex/AGENTS.md ──\nGLOBAL\n\n\
         ── 2 · project · AGENTS.md ──\nROOT\n\n\
         ── 3 · project · sub/AGENTS.override.md (cut: 7 of 9 bytes) ──\nOVERRID\n"
    );
    let lines = out.stderr_lines();
    assert_eq!(
        lines[..2],
        [
            "mecatl-prompt: warning: sub/AGENTS.override.md: cut by Codex's 12-byte budget \
             (project_doc_max_bytes): 7 bytes sent, 2 left out; Codex does this without a word",
            "mecatl-prompt: warning: sub/deep/AGENTS.md: not sent: earlier files used up Codex's \
             12-byte budget (project_doc_max_bytes); 4 bytes left out without a word from Codex",
        ]
    );
    let table = lines[2..].join("\n");
    for row in [
        // Codex counts exactly (o200k_base): `OVERRID` is 3 tokens where
        // the estimate said 2, the total 12 where it said 11.
        "part 3 (project)        7       3  cut (kept 7, omitted 2)",
        "left out (project)      -       -  not loaded: shadowed by sub/AGENTS.override.md",
        "left out (project)      -       -  not loaded: over budget (4 bytes)",
        "turn-0 total           43      12  over --max-turn0-bytes 20",
        "tokens are counted exactly with the o200k_base encoding",
    ] {
        assert!(table.contains(row), "{row}\n{table}");
    }
    assert!(out.stderr.ends_with(
        "error: turn-0 is 43 bytes, over --max-turn0-bytes 20; largest: part 3 (project) \
         (sub/AGENTS.override.md) 7, part 1 (user) ([ROOT]/home/.codex/AGENTS.md) 6, \
         part 2 (project) (AGENTS.md) 5\n"
    ));
    let doc = codex(
        &env,
        "sub/deep",
        &["--format", "json", "assemble", "--stats"],
    )
    .json();
    assert_eq!(
        doc["messages"][0]["parts"][2]["cut"],
        serde_json::json!({"kept": 7, "omitted": 2})
    );
    assert_eq!(doc["stats"]["tokenizer"], "o200k_base");
    assert!(doc["stats"].get("estimator").is_none());
    assert_eq!(doc["stats"]["turn0"]["total"]["bytes"], 43);
    let keys = keys_of(&doc);
    assert_eq!(keys[10..], ["stats", "diagnostics", "trust"]);
}

// Unix only: permission bits (mode 000) stop the read.
#[cfg(unix)]
#[test]
fn untrusted_project_files_are_withheld_and_never_read() {
    let env = TestEnv::new();
    // The git root is above the workspace: its file is a parent, not gated.
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("AGENTS.md", "ABOVE\n");
    env.write("pkg/AGENTS.md", "SECRET-PROJECT\n");
    env.write("pkg/sub/AGENTS.md", "SECRET-SUB\n");
    let Some(mut cmd) = env.cmd_bound_by_permissions() else {
        eprintln!("cannot drop privileges; skipped");
        return;
    };
    make_unreadable(&env.ws.join("pkg/AGENTS.md"));
    let output = cmd
        .args([
            "-C", "pkg", "--agent", "codex", "--at", "sub", "--format", "json",
        ])
        .args(["assemble"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(!text.contains("SECRET"), "{text}");
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let above = env.ws.join("AGENTS.md").display().to_string();
    assert_eq!(parts(&doc), [(above, "parent".to_string())]);
    assert_eq!(
        doc["not_loaded"],
        serde_json::json!([
            {"path": "AGENTS.md", "scope": "project", "reason": "withheld: untrusted"},
            {"path": "sub/AGENTS.md", "scope": "project", "reason": "withheld: untrusted"},
        ]),
        "the unreadable file is withheld, not reported unreadable: it was never opened"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr
            .contains("warning: project files were withheld because the workspace is not trusted")
    );
}

// Unix only: permission bits (mode 000) stop the read.
#[cfg(unix)]
#[test]
fn untrusted_subagent_files_are_withheld_and_never_read() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write(
        ".claude/agents/a.md",
        "---\nname: secret-agent\ndescription: SECRET\n---\n",
    );
    let Some(mut cmd) = env.cmd_bound_by_permissions() else {
        eprintln!("cannot drop privileges; skipped");
        return;
    };
    make_unreadable(&env.ws.join(".claude/agents/a.md"));
    let output = cmd
        .args(["--agent", "claude", "--format", "json", "assemble"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        !text.contains("SECRET") && !text.contains("secret"),
        "{text}"
    );
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["subagents"][0]["fate"], "withheld");
    assert_eq!(doc["subagents"][0]["path"], ".claude/agents/a.md");
    assert!(
        doc["not_loaded"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["path"] == ".claude/agents/a.md" && e["reason"] == "withheld: untrusted")
    );
    assert!(
        !doc["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["provenance"] == "agents")
    );
}

#[test]
fn touch_adds_nothing_under_codex_and_mecatl_and_says_so() {
    let env = codex_env();
    let out = codex(
        &env,
        ".",
        &[
            "--format",
            "json",
            "-v",
            "assemble",
            "--touch",
            "./sub//x.rs",
        ],
    );
    out.assert_code(0);
    let doc = out.json();
    assert_eq!(
        doc["touch"],
        serde_json::json!([{"path": "sub/x.rs", "parts": []}])
    );
    assert!(out.stderr.contains(
        "info: sub/x.rs: --touch: Codex loads nothing more when a file is read, so reading this \
         path adds nothing"
    ));
    let text = codex(&env, ".", &["assemble", "--touch", "sub/x.rs"]);
    assert!(
        text.stdout
            .ends_with("ROOT\n\n── touch sub/x.rs · adds nothing ──\n"),
        "{}",
        text.stdout
    );
    let out = run(
        &env,
        &["-v", "--trust-project", "assemble", "--touch", "sub/x.rs"],
    );
    out.assert_code(0);
    assert!(
        out.stderr
            .contains("info: sub/x.rs: --touch: mecatl loads nothing more")
    );
    let out = codex(&env, ".", &["assemble", "--touch", "../elsewhere"]);
    out.assert_code(2);
    assert!(
        out.stderr
            .contains("--touch ../elsewhere: path is outside the workspace")
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn snapshot_records_the_parts_and_check_reports_them() {
    let env = codex_env();
    let out = codex(&env, "sub/deep", &["snapshot"]);
    out.assert_code(0);
    let manifest = out.json();
    let keys = keys_of(&manifest);
    assert_eq!(
        keys,
        ["schema", "agent", "at", "messages", "parts", "commands"]
    );
    assert_eq!(manifest["schema"], "mecatl-prompt/snapshot-v1");
    let part = &manifest["parts"][0];
    assert_eq!(
        part["path"], "~/.codex/AGENTS.md",
        "user files are ~-relative"
    );
    let keys = keys_of(part);
    assert_eq!(keys, ["path", "scope", "kind", "sha256", "bytes"]);
    let saved = env.root.join("codex.json");
    std::fs::write(&saved, &out.stdout).unwrap();
    let saved = saved.display().to_string();
    codex(&env, "sub/deep", &["check", "--against", &saved]).assert_code(0);
    env.write("sub/deep/AGENTS.md", "DEEPER");
    std::fs::remove_file(env.ws.join("sub/AGENTS.override.md")).unwrap();
    let out = codex(&env, "sub/deep", &["check", "--against", &saved]);
    out.assert_code(1);
    assert_eq!(
        out.stdout,
        "the context differs from [ROOT]/codex.json:\n  \
         part sub/AGENTS.override.md removed: 9 bytes\n  \
         part sub/deep/AGENTS.md changed: 4 → 6 bytes\n  \
         part sub/AGENTS.md added: 9 bytes\n"
    );
    let out = run(&env, &["--trust-project", "check", "--against", &saved]);
    out.assert_code(1);
    assert!(
        out.stdout
            .contains("\n  agent changed: codex → mecatl\n  at changed: sub/deep → (none)\n")
    );
}

#[test]
fn a_parent_part_is_named_relative_to_the_workspace_in_the_manifest() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("AGENTS.md", "MONOREPO\n");
    env.write("a/b/pkg/AGENTS.md", "PKG\n");
    let out = run(
        &env,
        &[
            "-C",
            "a/b/pkg",
            "--trust-project",
            "--agent",
            "codex",
            "snapshot",
        ],
    );
    out.assert_code(0);
    let paths: Vec<(String, String)> = out.json()["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["path"].as_str().unwrap().into(),
                p["scope"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        paths,
        [("../../../AGENTS.md", "parent"), ("AGENTS.md", "project")]
            .map(|(p, s)| (p.to_string(), s.to_string()))
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn explain_says_why_a_file_was_or_was_not_loaded() {
    let env = codex_env();
    env.write("other/AGENTS.md", "SIDE\n");
    env.write("sub/README.md", "README\n");
    let rule = "rule: Codex reads the first of AGENTS.override.md, AGENTS.md present in each \
                directory from the project root . (it holds .git) down to the cwd sub/deep, \
                after its global file in [ROOT]/home/.codex";
    let shadowed_note = "notes:\n  info: not sent: sub/AGENTS.override.md is this directory's \
                         one file (Codex reads one per directory)\n";
    for (name, code, fate, notes) in [
        (
            "AGENTS.md",
            0,
            "loaded at start: part 2, 5 bytes\nscope: project",
            "",
        ),
        (
            "sub/AGENTS.md",
            0,
            "not loaded: shadowed by sub/AGENTS.override.md\nscope: project",
            shadowed_note,
        ),
        (
            "other/AGENTS.md",
            0,
            "not read: other is not a directory read at start",
            "",
        ),
        (
            "sub/README.md",
            0,
            "not read: README.md is not one of the names read in sub: AGENTS.override.md, \
             AGENTS.md\nscope: project",
            "",
        ),
        ("missing/AGENTS.md", 1, "not found", ""),
    ] {
        let out = codex(&env, "sub/deep", &["explain", name]);
        out.assert_code(code);
        assert_eq!(
            out.stdout,
            format!(
                "instruction file {name} (codex profile, at sub/deep)\n{fate}\n{rule}\n{notes}"
            ),
            "{name}"
        );
    }
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn explain_names_the_notes_and_the_global_file() {
    let env = codex_env();
    env.write("sub/AGENTS.override.md", " \n");
    let out = codex(&env, "sub/deep", &["explain", "sub/AGENTS.override.md"]);
    out.assert_code(0);
    assert!(out.stdout.contains("not loaded: blank\nscope: project\n"));
    assert!(out.stdout.ends_with(
        "notes:\n  info: empty or whitespace only: nothing from this directory is sent, its \
         AGENTS.md included\n"
    ));
    let out = codex(
        &env,
        "sub/deep",
        &["--format", "json", "explain", "~/.codex/AGENTS.md"],
    );
    out.assert_code(0);
    let doc = assert_json_shape(
        &out.stdout,
        &[
            "schema",
            "agent",
            "at",
            "name",
            "found",
            "command",
            "rule",
            "file",
            "diagnostics",
            "trust",
        ],
    );
    assert_eq!(doc["file"]["path"], "[ROOT]/home/.codex/AGENTS.md");
    assert_eq!(doc["file"]["state"], "loaded");
    assert_eq!(
        doc["file"]["part"],
        serde_json::json!({"number": 1, "bytes": 6, "cut": null})
    );
}

#[test]
fn codex_has_no_rules_and_says_so() {
    let env = codex_env();
    env.write(".claude/rules/r.md", "a rule\n");
    let out = codex(&env, ".", &["--format", "json", "-v", "rules", "list"]);
    out.assert_code(0);
    let doc = assert_json_shape(
        &out.stdout,
        &["schema", "agent", "at", "rules", "diagnostics", "trust"],
    );
    assert_eq!(doc["rules"], serde_json::json!([]));
    assert!(
        out.stderr
            .contains("info: Codex has no rules: it loads instruction files only")
    );
    let out = codex(&env, ".", &["rules", "list"]);
    out.assert_code(0);
    assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("", ""));
}

#[test]
fn without_a_git_root_only_the_cwd_is_read_and_nothing_is_no_output() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "ROOT\n");
    env.write("sub/AGENTS.md", "SUB\n");
    let doc = codex(&env, "sub", &["--format", "json", "assemble"]).json();
    assert_eq!(
        parts(&doc),
        [("sub/AGENTS.md".to_string(), "project".to_string())]
    );
    let empty = TestEnv::new();
    let out = codex(&empty, ".", &["-v", "assemble"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .contains("info: Codex loads nothing from this workspace at start")
    );
    assert!(Path::new(&empty.ws).is_dir());
}
