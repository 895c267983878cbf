//! `compare` on the binary (SPEC §15.1): the table, totals and divergences
//! in text and JSON, `--fail-on-divergence`, `--diff`, `--touch`, usage
//! errors, and that a file three profiles need is opened once.

use std::path::Path;

use crate::golden::{assert_golden, assert_json_shape, keys_of};
use crate::hardening::{Outcome, finish, run, symlink};
use crate::support::TestEnv;

/// The keys of `compare --format json`, in order.
const COMPARE_KEYS: &[&str] = &[
    "schema",
    "agents",
    "at",
    "files",
    "totals",
    "divergences",
    "diagnostics",
    "trust",
];

/// `--trust-project compare` then `args`.
fn compare(env: &TestEnv, args: &[&str]) -> Outcome {
    let mut all = vec!["--trust-project", "compare"];
    all.extend_from_slice(args);
    run(env, &all)
}

/// A git workspace whose AGENTS.md chain down to `a/b` is 45,000 bytes:
/// three files of 15,000 bytes, so Codex's 32,768-byte budget cuts the
/// third after 2,768 bytes.
fn chain_env() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    for (dir, fill) in [("", 'r'), ("a/", 'a'), ("a/b/", 'b')] {
        let line = format!("{}\n", fill.to_string().repeat(99));
        env.write(&format!("{dir}AGENTS.md"), line.repeat(150));
    }
    env
}

#[test]
fn a_45_kb_chain_is_cut_by_codex_with_kept_and_omitted_bytes() {
    let env = chain_env();
    let args = ["--agents", "mecatl,codex", "--at", "a/b"];
    let out = compare(&env, &args);
    out.assert_code(0);
    assert_eq!(
        out.stdout,
        "FILE           SCOPE    MECATL  CODEX\n\
         AGENTS.md      project  start   start\n\
         a/AGENTS.md    project  —       start\n\
         a/b/AGENTS.md  project  —       cut 2,768/15,000\n\
         total bytes             15,034  32,772\n\
         total tokens            ~3,759  6,869\n\
         tokens: Codex counted exactly with o200k_base; ~ estimated as bytes / 4, rounded up\n\
         \n\
         Divergences:\n\
         - mecatl loads AGENTS.md (14,999 B); Codex loads AGENTS.md (15,000 B), a/AGENTS.md \
         (15,000 B), a/b/AGENTS.md (15,000 B)\n\
         - Codex cuts a/b/AGENTS.md after 2,768 of 15,000 bytes\n\
         - The instruction content differs: mecatl gets 14,999 B, Codex gets 32,770 B\n"
    );
    assert!(out.stderr.contains(
        "warning: a/b/AGENTS.md: cut by Codex's 32768-byte budget (project_doc_max_bytes)"
    ));
    let mut failing = args.to_vec();
    failing.push("--fail-on-divergence");
    let out = compare(&env, &failing);
    out.assert_code(1);
    let doc = compare(&env, &[&failing[..], &["--format", "json"]].concat());
    let doc = assert_json_shape(&doc.stdout, COMPARE_KEYS);
    let cut = &doc["files"][2];
    assert_eq!(cut["path"], "a/b/AGENTS.md");
    assert_eq!(
        cut["per_agent"]["codex"],
        serde_json::json!({"state": "cut", "bytes": 2768,
            "cut": {"kept": 2768, "omitted": 12232}, "reason": null})
    );
    assert_eq!(
        doc["divergences"][1],
        serde_json::json!({"kind": "cut",
            "message": "Codex cuts a/b/AGENTS.md after 2,768 of 15,000 bytes",
            "paths": ["a/b/AGENTS.md"]})
    );
    let kinds: Vec<&str> = doc["divergences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["instruction-files", "cut", "instruction-content"]);
    assert_eq!(
        doc["totals"],
        serde_json::json!({
            "mecatl": {"bytes": 15034, "tokens": 3759, "tokenizer": "estimate"},
            "codex": {"bytes": 32772, "tokens": 6869, "tokenizer": "o200k_base"}})
    );
}

#[test]
fn the_same_instructions_exit_0_under_fail_on_divergence() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("AGENTS.md", "# Rules\n\nBe kind.\n");
    symlink("AGENTS.md", &env.ws.join("CLAUDE.md"));
    let out = compare(&env, &["--agents", "mecatl,codex", "--fail-on-divergence"]);
    out.assert_code(0);
    assert!(
        out.stdout
            .ends_with("\nNo divergence: mecatl and Codex get the same instruction content.\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn diff_shows_the_two_contents_line_by_line() {
    let env = chain_env();
    env.write("AGENTS.md", "keep\nroot only\n");
    env.write("a/AGENTS.md", "A\n");
    env.write("a/b/AGENTS.md", "B\n");
    let out = compare(
        &env,
        &[
            "--agents",
            "mecatl,codex",
            "--at",
            "a/b",
            "--diff",
            "mecatl,codex",
        ],
    );
    out.assert_code(0);
    assert_eq!(
        out.stdout,
        "--- mecatl\n+++ codex\n@@ -1,2 +1,6 @@\n keep\n root only\n+\n+A\n+\n+B\n"
    );
    let doc = compare(
        &env,
        &[
            "--agents",
            "mecatl,codex",
            "--diff",
            "codex,mecatl",
            "--format",
            "json",
        ],
    )
    .json();
    assert_eq!(
        doc["diff"],
        serde_json::json!({"a": "codex", "b": "mecatl", "unified": ""}),
        "at the root both read AGENTS.md only"
    );
    let keys = keys_of(&doc);
    assert_eq!(keys[6..], ["diff", "diagnostics", "trust"]);
    let out = compare(
        &env,
        &["-v", "--agents", "codex,mecatl", "--diff", "codex,mecatl"],
    );
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .contains("info: --diff: Codex and mecatl get the same instruction content"),
        "{}",
        out.stderr
    );
}

#[test]
fn touch_under_profiles_that_load_nothing_more_says_so_and_adds_no_row() {
    let env = chain_env();
    let out = compare(
        &env,
        &[
            "-v",
            "--agents",
            "mecatl,codex",
            "--touch",
            "a/b/x.rs",
            "--format",
            "json",
        ],
    );
    out.assert_code(0);
    let doc = out.json();
    let paths: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["AGENTS.md"]);
    for agent in ["mecatl", "Codex"] {
        assert!(
            out.stderr.contains(&format!(
                "info: a/b/x.rs: --touch: {agent} loads nothing more when a file is read"
            )),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    let env = chain_env();
    for (args, why) in [
        (
            vec!["--format", "openai", "compare"],
            "--format openai is only for build and assemble, not compare",
        ),
        (
            vec!["compare", "--agents", "codex,codex"],
            "--agents: codex is listed twice",
        ),
        (
            vec!["compare", "--agents", "codex", "--diff", "codex,mecatl"],
            "--diff codex,mecatl: mecatl is not among the agents compared (codex)",
        ),
        (
            vec!["compare", "--touch", "../x"],
            "--touch ../x: path is outside the workspace [ROOT]/ws",
        ),
    ] {
        let out = run(&env, &args);
        out.assert_code(2);
        assert_eq!(out.stderr, format!("mecatl-prompt: error: {why}\n"));
    }
    let out = run(&env, &["compare", "--agents", "gemini"]);
    out.assert_code(2);
    assert!(
        out.stderr
            .contains("[possible values: mecatl, claude, codex]")
    );
}

#[test]
fn untrusted_project_files_are_withheld_for_every_agent_and_the_notice_is_given_once() {
    let env = chain_env();
    let out = run(
        &env,
        &[
            "compare",
            "--agents",
            "mecatl,codex",
            "--at",
            "a",
            "--format",
            "json",
        ],
    );
    out.assert_code(0);
    let doc = out.json();
    assert_eq!(
        doc["files"][1]["per_agent"]["codex"]["state"], "withheld",
        "{doc}"
    );
    assert_eq!(doc["trust"]["trusted"], false);
    assert_eq!(
        out.stderr.matches("project files were withheld").count(),
        1,
        "{}",
        out.stderr
    );
}

/// How many times the run opened `file`, counted with strace; `None`
/// without strace.
fn opens(env: &TestEnv, args: &[&str], file: &Path) -> Option<usize> {
    let probe = std::process::Command::new("strace").arg("-V").output();
    if !probe.is_ok_and(|out| out.status.success()) {
        return None;
    }
    let log = env.root.join("strace.log");
    let out = env
        .program("strace")
        .args(["-f", "-qq", "-e", "trace=open,openat", "-o"])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_mecatl-prompt"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|code| code < 2), "{out:?}");
    let trace = std::fs::read_to_string(&log).unwrap();
    let needle = format!("\"{}\"", file.display());
    Some(trace.lines().filter(|line| line.contains(&needle)).count())
}

#[test]
fn a_file_every_profile_reads_is_opened_once() {
    let env = chain_env();
    let agents = env.ws.join("AGENTS.md");
    let compare_args = [
        "--trust-project",
        "compare",
        "--at",
        "a/b",
        "--agents",
        "mecatl,codex",
    ];
    let Some(compared) = opens(&env, &compare_args, &agents) else {
        eprintln!("strace is not installed; skipped");
        return;
    };
    assert_eq!(compared, 1, "compare opens AGENTS.md once for two profiles");
    let alone = [
        "--trust-project",
        "--agent",
        "codex",
        "--at",
        "a/b",
        "assemble",
    ];
    assert_eq!(opens(&env, &alone, &agents), Some(1));
    assert_eq!(
        opens(&env, &["--trust-project", "assemble"], &agents),
        Some(1)
    );
    let out = compare(&env, &["-v", "--at", "a/b", "--agents", "mecatl,codex"]);
    assert!(
        out.stderr.contains("more reads and"),
        "the shared reads are reported: {}",
        out.stderr
    );
}

/// `compare` on the demo with the engine's memory store in the workspace
/// (its default directory is named after the temp path).
fn demo_compare(env: &TestEnv, args: &[&str]) -> Outcome {
    let mut cmd = env.cmd();
    cmd.env("MECATL_MEMORY_DIR", ".mecatl/memory")
        .args(["--trust-project", "compare"])
        .args(args);
    finish(env, &mut cmd)
}

#[test]
fn golden_text_and_json_on_the_demo() {
    let env = TestEnv::demo();
    let args = ["--agents", "mecatl,codex", "--at", "web"];
    let out = demo_compare(&env, &args);
    out.assert_code(0);
    assert_golden(&out.stdout, "compare.txt");
    let out = demo_compare(&env, &[&args[..], &["--format", "json"]].concat());
    out.assert_code(0);
    assert_json_shape(&out.stdout, COMPARE_KEYS);
    assert_golden(&out.stdout, "compare.json");
}
