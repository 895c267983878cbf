//! `compare` on the binary (SPEC §15.1): the table, totals and divergences
//! in text and JSON, `--fail-on-divergence`, `--diff`, `--touch`, usage
//! errors, and that a file three profiles need is opened once.

use crate::corpus::corpus_root;
use crate::golden::{assert_golden, assert_json_shape, keys_of};
#[cfg(unix)]
use crate::hardening::symlink;
use crate::hardening::{Outcome, finish, run};
use crate::support::{STRACE_OPENS, TestEnv, opened_path};

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
    let out = compare(&env, &["--at", "a/b"]);
    out.assert_code(0);
    assert_eq!(
        out.stdout,
        "FILE           SCOPE    MECATL  CLAUDE   CODEX\n\
         AGENTS.md      project  start   start    start\n\
         a/AGENTS.md    project  —       start    start\n\
         a/b/AGENTS.md  project  —       start    cut 2,768/15,000\n\
         total bytes             15,034  45,001   32,772\n\
         total tokens            ~3,759  ~11,251  6,869\n\
         tokens: Codex counted exactly with o200k_base; ~ estimated as bytes / 4, rounded up\n\
         \n\
         Divergences:\n\
         - mecatl loads AGENTS.md (15,000 B); Claude Code and Codex load AGENTS.md (15,000 B), \
         a/AGENTS.md (15,000 B), a/b/AGENTS.md (15,000 B)\n\
         - Codex cuts a/b/AGENTS.md after 2,768 of 15,000 bytes\n\
         - The instruction content differs: mecatl gets 14,999 B, Claude Code gets 45,001 B, \
         Codex gets 32,770 B\n"
    );
    assert!(out.stderr.contains(
        "warning: a/b/AGENTS.md: cut by Codex's 32768-byte budget (project_doc_max_bytes)"
    ));
    let failing = ["--at", "a/b", "--fail-on-divergence"];
    compare(&env, &failing).assert_code(1);
    let out = compare(&env, &[&failing[..], &["--format", "json"]].concat());
    out.assert_code(1);
    let doc = assert_json_shape(&out.stdout, COMPARE_KEYS);
    assert_eq!(
        doc["agents"],
        serde_json::json!(["mecatl", "claude", "codex"])
    );
    assert_eq!(doc["at"], "a/b");
    let cut = &doc["files"][2];
    assert_eq!(cut["path"], "a/b/AGENTS.md");
    assert_eq!(
        cut["per_agent"],
        serde_json::json!({
            "mecatl": {"state": "none", "bytes": null, "cut": null, "reason": null, "entries": null},
            "claude": {"state": "start", "bytes": 14999, "cut": null, "reason": null, "entries": null},
            "codex": {"state": "cut", "bytes": 2768,
                "cut": {"kept": 2768, "omitted": 12232}, "reason": null, "entries": null}})
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
            "claude": {"bytes": 45001, "tokens": 11251, "tokenizer": "estimate"},
            "codex": {"bytes": 32772, "tokens": 6869, "tokenizer": "o200k_base"}})
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "the corpus is reached through /work/…/../shared, which Wine resolves on drive C:"
)]
fn browser_use_names_the_agents_md_and_claude_md_divergence_with_both_sizes() {
    let Some(corpus) = corpus_root() else {
        return;
    };
    let corpus = corpus.join("browser-use__browser-use");
    let env = TestEnv::new();
    let workspace = corpus.display().to_string();
    let out = run(&env, &["-C", &workspace, "--trust-project", "compare"]);
    out.assert_code(0);
    assert!(
        out.stdout.contains(
            "\n- mecatl and Codex load AGENTS.md (38,463 B); Claude Code loads CLAUDE.md \
             (11,149 B)\n"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("\nCLAUDE.md     project  shadowed  start     —\n")
    );
    let failing = [
        "-C",
        &workspace,
        "--trust-project",
        "compare",
        "--fail-on-divergence",
    ];
    run(&env, &failing).assert_code(1);
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn a_claude_md_linked_to_agents_md_or_importing_it_does_not_diverge() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("AGENTS.md", "# Rules\n\nBe kind.\n");
    symlink("AGENTS.md", &env.ws.join("CLAUDE.md"));
    let out = compare(&env, &["--fail-on-divergence"]);
    out.assert_code(0);
    assert_eq!(
        out.stdout,
        "FILE          SCOPE    MECATL    CLAUDE  CODEX\n\
         AGENTS.md     project  start     —       start\n\
         CLAUDE.md     project  shadowed  start   —\n\
         total bytes            52        17      18\n\
         total tokens           ~13       ~5      6\n\
         tokens: Codex counted exactly with o200k_base; ~ estimated as bytes / 4, rounded up\n\
         \n\
         Divergences:\n\
         - mecatl and Codex load AGENTS.md (18 B); Claude Code loads CLAUDE.md (18 B)\n"
    );
    // CLAUDE.md that only imports AGENTS.md: Claude Code sends both, the
    // import line carries nothing.
    std::fs::remove_file(env.ws.join("CLAUDE.md")).unwrap();
    env.write("CLAUDE.md", "@AGENTS.md\n");
    compare(&env, &["--fail-on-divergence"]).assert_code(0);
    // Anything else in CLAUDE.md is a divergence.
    env.write("CLAUDE.md", "@AGENTS.md\nAlso: be brief.\n");
    let out = compare(&env, &["--fail-on-divergence", "--diff", "codex,claude"]);
    out.assert_code(1);
    assert_eq!(
        out.stdout,
        "--- codex\n+++ claude\n@@ -1,3 +1,5 @@\n+Also: be brief.\n+\n # Rules\n \n Be kind.\n"
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
fn touch_shows_what_reading_a_path_adds_for_each_agent() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "Root.\n");
    env.write("web/CLAUDE.md", "Web rules.\n");
    let out = compare(&env, &["-v", "--touch", "web/app.ts"]);
    out.assert_code(0);
    assert!(
        out.stdout
            .contains("\nweb/CLAUDE.md  project  —       touch   —\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "\n- Reading web/app.ts adds web/CLAUDE.md (11 B) for Claude Code; nothing for \
             mecatl and Codex\n"
        ),
        "{}",
        out.stdout
    );
    for agent in ["mecatl", "Codex"] {
        assert!(
            out.stderr.contains(&format!(
                "info: web/app.ts: --touch: {agent} loads nothing more when a file is read"
            )),
            "{}",
            out.stderr
        );
    }
    let doc = compare(&env, &["--touch", "web/app.ts", "--format", "json"]).json();
    let touched = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "web/CLAUDE.md")
        .expect("a row for the touched file");
    assert_eq!(
        touched["per_agent"]["claude"],
        serde_json::json!({"state": "touch", "bytes": 10, "cut": null, "reason": null, "entries": null})
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
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
    let out = run(&env, &["compare", "--agents", "zed"]);
    out.assert_code(2);
    assert!(
        out.stderr
            .contains("[possible values: mecatl, claude, codex")
    );
}

/// A skill only Claude Code offers (`deploy`) and one only Codex offers
/// (`lint`).
fn write_skills(env: &TestEnv) {
    for (dir, name) in [(".claude/skills", "deploy"), (".agents/skills", "lint")] {
        env.write(
            &format!("{dir}/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: {name} it\n---\n{name}.\n"),
        );
    }
}

// Unix only: a symbolic link.
#[cfg(unix)]
/// A workspace whose CLAUDE.md links to AGENTS.md, with three nested
/// commands and a skill only Claude Code offers, a command the engine
/// offers too and a skill only Codex offers.
fn catalog_env() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("AGENTS.md", "Run the tests.\n");
    symlink("AGENTS.md", &env.ws.join("CLAUDE.md"));
    env.write(".claude/commands/review.md", "Review $ARGUMENTS\n");
    for nested in ["git/commit", "git/push", "db/up"] {
        env.write(&format!(".claude/commands/{nested}.md"), "Do it.\n");
    }
    write_skills(&env);
    env
}

// Unix only: its workspace (catalog_env) holds a symbolic link.
#[cfg(unix)]
#[test]
fn commands_and_skills_only_some_agents_offer_are_rows_and_divergences_but_never_fail() {
    let env = catalog_env();
    let out = compare(&env, &["--fail-on-divergence"]);
    out.assert_code(0);
    assert!(
        !out.stderr.contains("nested directory"),
        "the divergence says it; the engine's listing warning is not repeated: {}",
        out.stderr
    );
    let row = |dir: &str| {
        out.stdout
            .lines()
            .find(|line| line.starts_with(&format!("{dir} ")))
            .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|| panic!("no row for {dir}: {}", out.stdout))
    };
    assert_eq!(
        row(".claude/commands/"),
        ".claude/commands/ project 1 command 1 command —"
    );
    assert_eq!(
        row(".claude/commands/git/"),
        ".claude/commands/git/ project — 2 nested commands —"
    );
    assert_eq!(
        row(".claude/skills/"),
        ".claude/skills/ project — 1 skill —"
    );
    assert_eq!(
        row(".agents/skills/"),
        ".agents/skills/ project — — 1 skill"
    );
    for line in [
        "- 1 command exists only for mecatl and Claude Code: .claude/commands/ (1)",
        "- 3 nested commands and 1 skill exist only for Claude Code: .claude/skills/ (1), \
         .claude/commands/db/ (1), .claude/commands/git/ (2)",
        "- 1 skill exists only for Codex: .agents/skills/ (1)",
    ] {
        assert!(out.stdout.contains(line), "{line}\n{}", out.stdout);
    }
    assert!(
        !out.stdout.contains("SKILL.md"),
        "skills are summarised per directory, not rows: {}",
        out.stdout
    );
    let json = compare(&env, &["--format", "json"]).json();
    let commands: Vec<&serde_json::Value> = json["divergences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "commands")
        .collect();
    assert_eq!(commands.len(), 3, "{json}");
    assert_eq!(
        commands[2]["paths"],
        serde_json::json!([
            ".claude/skills/",
            ".claude/commands/db/",
            ".claude/commands/git/"
        ])
    );

    // Untrusted: every project catalog is withheld, counted where its
    // entries are known by their paths; Codex's root is not searched.
    let out = run(&env, &["compare", "--format", "json"]);
    out.assert_code(0);
    let doc = out.json();
    let cell = |dir: &str, agent: &str| {
        let row = doc["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["path"] == dir)
            .unwrap_or_else(|| panic!("no row {dir}: {doc}"));
        (
            row["per_agent"][agent]["state"].clone(),
            row["per_agent"][agent]["entries"].clone(),
        )
    };
    let withheld = |n: Option<u64>| (serde_json::json!("withheld"), serde_json::json!(n));
    assert_eq!(cell(".claude/commands/", "mecatl"), withheld(Some(1)));
    assert_eq!(cell(".claude/commands/git/", "claude"), withheld(Some(2)));
    assert_eq!(cell(".claude/skills/", "claude"), withheld(Some(1)));
    assert_eq!(cell(".agents/skills/", "codex"), withheld(None));
    let commands = doc["divergences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "commands")
        .count();
    assert_eq!(
        commands, 0,
        "nothing is offered, so nothing diverges: {doc}"
    );
}

#[test]
fn paths_claude_code_takes_for_imports_and_finds_nothing_at_are_counted_not_rows() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write(
        "CLAUDE.md",
        "Tag it @MX:NOTE or @MX:TODO; see @docs/real.md\n",
    );
    env.write("docs/real.md", "Real.\n");
    let out = compare(&env, &[]);
    out.assert_code(0);
    assert!(!out.stdout.contains("MX:"), "{}", out.stdout);
    assert!(out.stdout.contains("docs/real.md "), "{}", out.stdout);
    assert!(
        out.stdout.contains(
            "not shown: 2 paths Claude Code took for imports, where no file exists (--format \
             json lists them)"
        ),
        "{}",
        out.stdout
    );
    let doc = compare(&env, &["--format", "json"]).json();
    let missing = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["per_agent"]["claude"]["reason"] == "not found")
        .count();
    assert_eq!(missing, 2, "{doc}");
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

#[test]
fn a_warning_several_profiles_give_is_printed_once() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("AGENTS.md", b"ok \xff\xfe bad\n");
    let warning = "mecatl-prompt: warning: AGENTS.md: not valid UTF-8; invalid bytes are \
                   replaced with U+FFFD\n";
    for agent in ["mecatl", "codex"] {
        let alone = run(&env, &["--trust-project", "--agent", agent, "assemble"]);
        assert_eq!(alone.stderr, warning, "{agent} alone warns");
    }
    let out = compare(&env, &["--agents", "mecatl,codex"]);
    out.assert_code(0);
    assert_eq!(out.stderr, warning);
}

/// Every path inside the workspace the run opened (files and directories
/// it listed), once per opening, traced with strace; `None` without
/// strace.
fn opened(env: &TestEnv, args: &[&str]) -> Option<Vec<String>> {
    let probe = std::process::Command::new("strace").arg("-V").output();
    if !probe.is_ok_and(|out| out.status.success()) {
        return None;
    }
    let log = env.root.join("strace.log");
    let out = env
        .program("strace")
        .args(["-f", "-qq", "-y", "-e", STRACE_OPENS, "-o"])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_mecatl-prompt"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|code| code < 2), "{out:?}");
    let trace = std::fs::read_to_string(&log).unwrap();
    let inside = format!("{}/", env.ws.display());
    Some(
        trace
            .lines()
            .filter_map(opened_path)
            .map(|(path, _)| path)
            .filter(|path| path.starts_with(&inside))
            .collect(),
    )
}

#[test]
fn every_file_and_directory_the_profiles_share_is_opened_once() {
    let env = chain_env();
    env.write(".claude/rules/style.md", "Be brief.\n");
    env.write("a/b/CLAUDE.local.md", "Mine.\n");
    env.write(".claude/commands/review.md", "Review.\n");
    env.write(".claude/commands/git/commit.md", "Commit.\n");
    write_skills(&env);
    let compare_args = ["--trust-project", "compare", "--at", "a/b"];
    let Some(compared) = opened(&env, &compare_args) else {
        eprintln!("strace is not installed; skipped");
        return;
    };
    let agents = env.ws.join("AGENTS.md").display().to_string();
    let rules = env.ws.join(".claude/rules").display().to_string();
    let commands = env.ws.join(".claude/commands").display().to_string();
    for shared in [&agents, &rules, &commands] {
        assert_eq!(
            compared.iter().filter(|p| *p == shared).count(),
            1,
            "{shared} opened once for three profiles: {compared:?}"
        );
    }
    let mut twice: Vec<&String> = compared
        .iter()
        .filter(|p| compared.iter().filter(|q| q == p).count() > 1)
        .collect();
    twice.dedup();
    assert!(twice.is_empty(), "opened more than once: {twice:?}");
    // Alone, two profiles each open AGENTS.md and two list .claude/rules:
    // without the shared cache compare would open each twice.
    for (agent, shared) in [
        ("mecatl", &agents),
        ("codex", &agents),
        ("mecatl", &rules),
        ("claude", &rules),
    ] {
        let alone = [
            "--trust-project",
            "--agent",
            agent,
            "--at",
            "a/b",
            "assemble",
        ];
        let opens = opened(&env, &alone).unwrap();
        let count = opens.iter().filter(|p| *p == shared).count();
        assert_eq!(count, 1, "{agent} alone opens {shared}");
    }
    let out = compare(&env, &["-v", "--at", "a/b"]);
    assert!(
        out.stderr.contains("more reads and"),
        "the shared reads are reported: {}",
        out.stderr
    );
}

/// `compare` on the demo without the engine's memory index (its default
/// directory is named after the temp path, and a path of the temp root
/// would not keep the table's columns once redacted).
fn demo_compare(env: &TestEnv, args: &[&str]) -> Outcome {
    let mut cmd = env.cmd();
    cmd.env("MECATL_MEMORY_DIR", "no-memory-here")
        .args(["--trust-project", "compare"])
        .args(args);
    finish(env, &mut cmd)
}

#[test]
#[cfg_attr(
    windows,
    ignore = "golden has Unix paths, Linux's listing order of .claude/rules (Claude Code keeps the system's order; NTFS lists by name) and the temp directory's depth in its read counts"
)]
fn golden_text_and_json_on_the_demo_and_the_readme_shows_the_real_output() {
    let env = TestEnv::demo();
    // As in this repository's checkout, where the demo sits inside git.
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let args = ["--at", "web"];
    let out = demo_compare(&env, &args);
    out.assert_code(0);
    assert_golden(&out.stdout, "compare.txt");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&format!(
            "$ mecatl-prompt -C examples/demo --trust-project compare --at web\n{}```",
            out.stdout
        )),
        "README's compare example is not the real output"
    );
    let out = demo_compare(&env, &[&args[..], &["--format", "json"]].concat());
    out.assert_code(0);
    assert_json_shape(&out.stdout, COMPARE_KEYS);
    assert_golden(&out.stdout, "compare.json");
}
