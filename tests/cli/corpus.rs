//! The corpus test (SPEC §13, §14): every real third-party workspace under
//! `../shared/corpus` is listed and assembled without a panic, every
//! command and rule file in it is accounted for (listed, or named by a
//! diagnostic), `assemble --agent codex` runs at the workspace root and at
//! the deepest directory holding an AGENTS.md or CLAUDE.md, every
//! `.claude/commands/**/*.md` and `.claude/skills/*/SKILL.md` is listed by
//! `commands list --agent claude` (started in every directory that holds
//! them) or named in a diagnostic, Gemini CLI's profile runs `assemble` at
//! both places, `compare` over the four profiles and `lint` with only its
//! findings, each part from inside the workspace, and the per-folder counts
//! match the checked-in `tests/corpus-expectations.txt` exactly.
//!
//! The corpus sits beside the repository (`shared/` next to the clone, as
//! in CI); `MECATL_CORPUS_DIR` points elsewhere. Without it the corpus
//! tests are skipped and the binary says so once; `MECATL_REQUIRE_CORPUS=1`
//! (`.ci/run`) makes a missing corpus fail instead (`src/test_corpus.rs`).
//! `UPDATE_EXPECTATIONS=1` rewrites the expectations file from the current
//! results.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::support::TestEnv;

const EXPECTATIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus-expectations.txt");

const HEADER: &str = "\
# Per-folder results of tests/cli/corpus.rs over ../shared/corpus, compared exactly.
# Regenerate: UPDATE_EXPECTATIONS=1 cargo test --test cli corpus
# Each run is `--trust-project --format json -C FOLDER`; diagnostics are fatal/warning/info.
# codex.* is `--agent codex assemble` at the root, codex.at.* at the deepest directory
# holding an AGENTS.md or CLAUDE.md; claude.* likewise with `--agent claude`, and
# claude.rules the rule files `rules list --agent claude` finds; gemini.* likewise with
# `--agent gemini` (the user's settings name AGENTS.md and CLAUDE.md as context files),
# gemini.compare the divergences of `compare` over the four profiles,
# gemini.lint the findings of `lint --agents gemini`.
";

/// The user's Gemini settings for the corpus runs: no corpus folder has a
/// GEMINI.md, so Gemini is made to read the other agents' files as its
/// context files (imports inlined the Gemini way).
const GEMINI_SETTINGS: &str = r#"{"context": {"fileName": ["AGENTS.md", "CLAUDE.md"]}}"#;

#[path = "../../src/test_corpus.rs"]
mod locate;
pub(crate) use locate::{corpus_folders, corpus_root};

/// One subcommand's JSON result on one folder.
struct Run {
    doc: Value,
}

impl Run {
    fn new(env: &TestEnv, folder: &Path, args: &[&str]) -> Self {
        let output = env
            .cmd()
            .arg("-C")
            .arg(folder)
            .args(["--trust-project", "--format", "json"])
            .args(args)
            .timeout(super::hardening::HANG_GUARD)
            .output()
            .expect("run the binary");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !stderr.contains("panicked"),
            "{} {args:?} panicked: {stderr}",
            folder.display()
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{} {args:?}: {stderr}",
            folder.display()
        );
        let doc = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{} {args:?}: not JSON: {e}", folder.display()));
        Self { doc }
    }

    fn array(&self, key: &str) -> &[Value] {
        self.doc[key].as_array().map_or(&[], Vec::as_slice)
    }

    /// How many parts the messages of a profile's `assemble` hold.
    fn parts(&self) -> usize {
        self.array("messages")
            .iter()
            .map(|m| m["parts"].as_array().map_or(0, Vec::len))
            .sum()
    }

    /// `fatal/warning/info` counts.
    fn severities(&self) -> String {
        let count = |severity: &str| {
            self.array("diagnostics")
                .iter()
                .filter(|d| d["severity"] == severity)
                .count()
        };
        format!("{}/{}/{}", count("fatal"), count("warning"), count("info"))
    }

    /// The `source` of every item of `list` and every diagnostic's `path`.
    fn named_paths(&self, list: &str) -> BTreeSet<String> {
        let listed = self
            .array(list)
            .iter()
            .filter_map(|item| item["source"].as_str());
        let diagnosed = self
            .array("diagnostics")
            .iter()
            .filter_map(|d| d["path"].as_str());
        listed.chain(diagnosed).map(str::to_string).collect()
    }
}

/// The workspace-relative `*.md` files directly in `dir`, if it is a directory.
fn md_files(folder: &Path, dir: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(folder.join(dir)) else {
        return Vec::new();
    };
    let mut found: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("{dir}/{name}"))
        .collect();
    found.sort();
    found
}

/// The workspace-relative `*.md` files at any depth below `dir`, links not
/// followed.
fn md_files_below(folder: &Path, dir: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(folder.join(dir)) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let rel = format!("{dir}/{name}");
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => found.extend(md_files_below(folder, &rel)),
            Ok(_) if name.ends_with(".md") => found.push(rel),
            _ => {}
        }
    }
    found
}

/// The deepest directory below `folder` (workspace-relative, `.` for the
/// folder itself) that holds an AGENTS.md or CLAUDE.md; the first in path
/// order among the deepest. Links are not followed.
fn deepest_instructions_dir(folder: &Path) -> String {
    fn visit(dir: &Path, rel: &str, depth: usize, best: &mut Option<(usize, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        let holds = entries.iter().any(|e| {
            let name = e.file_name();
            (name == "AGENTS.md" || name == "CLAUDE.md") && e.file_type().is_ok_and(|t| t.is_file())
        });
        if holds && best.as_ref().is_none_or(|(d, _)| depth > *d) {
            *best = Some((depth, rel.to_string()));
        }
        for entry in entries {
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if entry.file_type().is_ok_and(|t| t.is_dir()) && name != ".git" {
                let child = if rel == "." {
                    name
                } else {
                    format!("{rel}/{name}")
                };
                visit(&entry.path(), &child, depth + 1, best);
            }
        }
    }
    let mut best = None;
    visit(folder, ".", 0, &mut best);
    best.map_or_else(|| ".".to_string(), |(_, rel)| rel)
}

/// Every directory of `folder` (itself included) that holds a `.claude`
/// directory with commands or skills, workspace-relative (`.` for the
/// root), sorted; `.git` is not entered.
fn claude_start_dirs(folder: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let claude = dir.join(".claude");
        if claude.join("commands").is_dir() || claude.join("skills").is_dir() {
            let rel = dir
                .strip_prefix(folder)
                .unwrap_or(&dir)
                .display()
                .to_string();
            found.push(if rel.is_empty() { ".".to_string() } else { rel });
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && entry.file_name() != ".git" {
                pending.push(entry.path());
            }
        }
    }
    found.sort();
    found
}

/// The workspace-relative command and skill files Claude Code would load
/// when started in `at`: every `.md` below `.claude/commands` and every
/// `.claude/skills/*/SKILL.md` of `at` and its ancestors in the folder.
fn claude_files(folder: &Path, at: &str) -> Vec<String> {
    let mut dirs = vec![String::new()];
    if at != "." {
        let mut prefix = String::new();
        for part in at.split('/') {
            prefix = if prefix.is_empty() {
                part.to_string()
            } else {
                format!("{prefix}/{part}")
            };
            dirs.push(prefix.clone());
        }
    }
    let mut files = Vec::new();
    for dir in dirs {
        let base = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let commands = format!("{base}.claude/commands");
        let mut pending = vec![commands];
        while let Some(rel) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(folder.join(&rel)) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                    continue;
                };
                let path = format!("{rel}/{name}");
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    pending.push(path);
                } else if name.ends_with(".md") {
                    files.push(path);
                }
            }
        }
        let skills = format!("{base}.claude/skills");
        if let Ok(entries) = std::fs::read_dir(folder.join(&skills)) {
            for entry in entries.filter_map(Result::ok) {
                if let Some(name) = entry.file_name().to_str() {
                    let skill = format!("{skills}/{name}/SKILL.md");
                    if folder.join(&skill).exists() {
                        files.push(skill);
                    }
                }
            }
        }
    }
    files.sort();
    files
}

/// Under `--agent claude`, started in every directory that holds Claude
/// Code commands or skills: every such file is listed or named in a
/// diagnostic. Returns the root run's count of listed entries and its
/// diagnostics, and the other start directories checked.
fn check_claude(env: &TestEnv, folder: &Path) -> String {
    let mut root = None;
    let starts = claude_start_dirs(folder);
    for at in &starts {
        let run = Run::new(
            env,
            folder,
            &["--agent", "claude", "--at", at, "commands", "list"],
        );
        let named = run.named_paths("commands");
        for file in claude_files(folder, at) {
            assert!(
                named.contains(&file),
                "{} --at {at}: {file} is neither listed nor diagnosed under --agent claude",
                folder.display()
            );
        }
        if at == "." {
            root = Some(format!(
                "claude.commands={} claude.commands.diag={}",
                run.array("commands").len(),
                run.severities()
            ));
        }
    }
    let root = root.unwrap_or_else(|| {
        let run = Run::new(env, folder, &["--agent", "claude", "commands", "list"]);
        format!(
            "claude.commands={} claude.commands.diag={}",
            run.array("commands").len(),
            run.severities()
        )
    });
    let others = starts.iter().filter(|at| *at != ".").count();
    format!("{root} claude.commands.at={others}")
}

/// Under `--agent gemini`: `assemble` at the root and at `deep`, `compare`
/// over the four profiles and `lint --agents gemini`, every part a file of
/// the workspace (no corpus folder lies in a git repository, and the test's
/// home holds only [`GEMINI_SETTINGS`]).
fn check_gemini(env: &TestEnv, folder: &Path, deep: &str) -> String {
    let root = Run::new(env, folder, &["--agent", "gemini", "assemble"]);
    let at = Run::new(
        env,
        folder,
        &["--agent", "gemini", "--at", deep, "assemble"],
    );
    for run in [&root, &at] {
        for message in run.array("messages") {
            for part in message["parts"].as_array().map_or(&[][..], Vec::as_slice) {
                let path = part["path"].as_str().unwrap_or_default();
                assert!(
                    !path.starts_with('/') && !path.starts_with("[ROOT]") && !path.contains(".."),
                    "{}: a Gemini part from outside the workspace: {path}",
                    folder.display()
                );
            }
        }
    }
    let compare = Run::new(
        env,
        folder,
        &["compare", "--agents", "mecatl,claude,codex,gemini"],
    );
    let lint = Run::new(env, folder, &["lint", "--agents", "gemini"]);
    format!(
        "gemini.parts={} gemini.diag={} gemini.at.parts={} gemini.at.diag={} gemini.compare={} \
         gemini.lint={}",
        root.parts(),
        root.severities(),
        at.parts(),
        at.severities(),
        compare.array("divergences").len(),
        lint.array("findings").len()
    )
}

/// The expectations line for one folder, after checking it.
fn check_folder(env: &TestEnv, folder: &Path) -> String {
    let commands = Run::new(env, folder, &["commands", "list"]);
    let rules = Run::new(env, folder, &["rules", "list"]);
    let assemble = Run::new(env, folder, &["assemble"]);
    let codex_root = Run::new(env, folder, &["--agent", "codex", "assemble"]);
    let deep = deepest_instructions_dir(folder);
    let codex_deep = Run::new(
        env,
        folder,
        &["--agent", "codex", "--at", &deep, "assemble"],
    );
    let claude_root = Run::new(env, folder, &["--agent", "claude", "assemble"]);
    let claude_deep = Run::new(
        env,
        folder,
        &["--agent", "claude", "--at", &deep, "assemble"],
    );
    let claude_rules = Run::new(env, folder, &["--agent", "claude", "rules", "list"]);

    let command_paths = commands.named_paths("commands");
    for file in [".mecatl/commands", ".claude/commands"]
        .iter()
        .flat_map(|dir| md_files(folder, dir))
    {
        assert!(
            command_paths.contains(&file),
            "{}: {file} is neither listed nor diagnosed",
            folder.display()
        );
    }
    let rule_paths = rules.named_paths("rules");
    for file in [".mecatl/rules", ".claude/rules"]
        .iter()
        .flat_map(|dir| md_files(folder, dir))
    {
        assert!(
            rule_paths.contains(&file),
            "{}: {file} is neither listed nor diagnosed",
            folder.display()
        );
    }

    // Claude Code reads its rules recursively: every `.md` file below
    // `.claude/rules` is listed by the profile (start, lazy or skipped).
    let claude_rule_paths: BTreeSet<String> = claude_rules
        .array("rules")
        .iter()
        .filter_map(|rule| rule["path"].as_str().map(str::to_string))
        .collect();
    for file in md_files_below(folder, ".claude/rules") {
        assert!(
            claude_rule_paths.contains(&file),
            "{}: {file} is not listed by rules list --agent claude",
            folder.display()
        );
    }

    let name = folder
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    format!(
        "{name} commands={} rules={} messages={} commands.diag={} rules.diag={} assemble.diag={} \
         codex.parts={} codex.diag={} codex.at={deep} codex.at.parts={} codex.at.diag={} \
         claude.parts={} claude.diag={} claude.at.parts={} claude.at.diag={} claude.rules={} {} {}",
        commands.array("commands").len(),
        rules.array("rules").len(),
        assemble.array("messages").len(),
        commands.severities(),
        rules.severities(),
        assemble.severities(),
        codex_root.parts(),
        codex_root.severities(),
        codex_deep.parts(),
        codex_deep.severities(),
        claude_root.parts(),
        claude_root.severities(),
        claude_deep.parts(),
        claude_deep.severities(),
        claude_rule_paths.len(),
        check_claude(env, folder),
        check_gemini(env, folder, &deep),
    )
}

#[test]
#[cfg_attr(
    windows,
    ignore = "the corpus is reached through /work/…/../shared, which Wine resolves on drive C:"
)]
fn every_corpus_folder_is_read_without_panics_and_matches_its_expectations() {
    let Some(folders) = corpus_folders() else {
        return;
    };
    let env = TestEnv::new();
    crate::support::write_file(&env.home.join(".gemini/settings.json"), GEMINI_SETTINGS);
    let mut actual = String::from(HEADER);
    for folder in &folders {
        actual.push_str(&check_folder(&env, folder));
        actual.push('\n');
    }

    assert_expectations(EXPECTATIONS, &actual);
}

/// Compares `actual` with the checked-in expectations file `path`, or
/// rewrites the file under `UPDATE_EXPECTATIONS=1`.
pub(crate) fn assert_expectations(path: &str, actual: &str) {
    if std::env::var_os("UPDATE_EXPECTATIONS").is_some() {
        std::fs::write(path, actual).expect("write the expectations");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "results differ from {path} (UPDATE_EXPECTATIONS=1 rewrites it):\n{}",
        diff(&expected, actual)
    );
}

/// The lines only in `expected` (`-`) or only in `actual` (`+`).
fn diff(expected: &str, actual: &str) -> String {
    let old: BTreeSet<&str> = expected.lines().collect();
    let new: BTreeSet<&str> = actual.lines().collect();
    let mut out = String::new();
    for line in old.difference(&new) {
        out.push_str(&format!("- {line}\n"));
    }
    for line in new.difference(&old) {
        out.push_str(&format!("+ {line}\n"));
    }
    out
}
