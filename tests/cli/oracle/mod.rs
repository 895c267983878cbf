//! Replays of the recorded oracle fixtures (`tests/oracle/`, SPEC §15.8):
//! what the real Claude Code and Codex loaded from a workspace, captured
//! once by `tests/oracle/record.py`, compared with what the preview loads
//! from the same files. No agent runs here.
//!
//! [`Fixture`] is the one way to load a case: it copies `tree/` into a temp
//! directory, creates the `.git` markers the case asks for (a `.git` cannot
//! be committed inside this repository), points HOME at a copy of `home/`,
//! lays out what `record.py` generates at record time (`generate`,
//! `substitute`, `auto_memory`, `shared`), and turns the masked paths of
//! `expected.json` (`<TREE>`, `<HOME>`, `<TREE-SLUG>`) into the temp paths of
//! this run.

use std::path::{Path, PathBuf};

use mecatl_prompt::prompt::imports::normalise;
use serde_json::Value;
use tempfile::TempDir;

use crate::support::copy_tree;

mod claude_commands;
mod claude_hooks;
mod claude_instructions;
mod claude_subagents;
mod codex;
mod copilot;
mod gemini;
mod gemini_commands;
mod mcp_servers;
mod opencode;
mod opencode_commands;

/// The folder holding every case group.
pub(crate) fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/cases")
}

/// The files several cases' trees share (`shared` in `case.json`), kept
/// once.
fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/shared")
}

/// Every case folder of `group`, sorted; panics when there is none, so a
/// moved folder fails the replay instead of passing it vacuously.
pub(crate) fn cases(group: &str) -> Vec<PathBuf> {
    let dir = cases_dir().join(group);
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.join("case.json").is_file())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no oracle cases in {}", dir.display());
    found
}

/// One recorded case, materialised in a temp directory.
pub(crate) struct Fixture {
    _dir: TempDir,
    /// The case folder (`tests/oracle/cases/<group>/<case>`).
    pub(crate) case_dir: PathBuf,
    /// `case.json`.
    pub(crate) case: Value,
    /// `expected.json`, with `<TREE>` and `<HOME>` replaced by this run's paths.
    pub(crate) expected: Value,
    /// The copied tree's root (what `<TREE>` stands for).
    pub(crate) tree: PathBuf,
    /// The workspace root (`-C`).
    pub(crate) workspace: PathBuf,
    /// The agent's start directory (`--at`).
    pub(crate) cwd: PathBuf,
    /// The temp HOME, holding a copy of `home/` when the case has one.
    pub(crate) home: PathBuf,
}

impl Fixture {
    /// Loads and materialises the case in `case_dir`.
    pub(crate) fn load(case_dir: &Path) -> Self {
        let read = |name: &str| -> Value {
            let path = case_dir.join(name);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        };
        let case = read("case.json");
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical tempdir");
        let tree = root.join("tree");
        let home = root.join("home");
        std::fs::create_dir_all(&tree).expect("create tree");
        std::fs::create_dir_all(&home).expect("create home");
        if case_dir.join("tree").is_dir() {
            copy_tree(&case_dir.join("tree"), &tree);
        }
        if case["home"].as_bool() == Some(true) {
            copy_tree(&case_dir.join("home"), &home);
        }
        let dirs = |key: &str| -> Vec<String> {
            case[key]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        for d in dirs("git_dirs") {
            std::fs::create_dir_all(tree.join(&d).join(".git")).expect("create .git");
        }
        for d in dirs("git_files") {
            std::fs::write(
                tree.join(&d).join(".git"),
                "gitdir: /nonexistent/worktree\n",
            )
            .expect("write .git file");
        }
        for spec in case["generate"].as_array().into_iter().flatten() {
            generate(&tree, spec);
        }
        for (rel, name) in case["shared"].as_object().into_iter().flatten() {
            let name = name.as_str().expect("shared: a file name");
            let path = tree.join(rel);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("shared: mkdir");
            std::fs::copy(shared_dir().join(name), path).expect("shared: copy");
        }
        let tree_text = tree.display().to_string();
        for rel in dirs("substitute") {
            let path = tree.join(&rel);
            let text = std::fs::read_to_string(&path).expect("substitute: read");
            std::fs::write(&path, text.replace("<TREE>", &tree_text)).expect("substitute: write");
        }
        for (key, folder) in case["auto_memory"].as_object().into_iter().flatten() {
            let folder = folder.as_str().expect("auto_memory: a folder name");
            let key = normalise(&tree.join(key)).display().to_string();
            let memory = home
                .join(".claude/projects")
                .join(project_slug(&key))
                .join("memory");
            copy_tree(&case_dir.join(folder), &memory);
        }
        let workspace_rel = case["workspace"].as_str().unwrap_or(".");
        let workspace = normalise(&tree.join(workspace_rel));
        let cwd = normalise(&tree.join(case["cwd"].as_str().unwrap_or(workspace_rel)));
        let home_text = home.display().to_string();
        let expected = unmask(&read("expected.json"), &tree_text, &home_text);
        Self {
            _dir: dir,
            case_dir: case_dir.to_path_buf(),
            case,
            expected,
            tree,
            workspace,
            cwd,
            home,
        }
    }

    /// The case's name, `<group>/<case>`, for assertion messages.
    pub(crate) fn name(&self) -> String {
        self.case_dir
            .strip_prefix(cases_dir())
            .unwrap_or(&self.case_dir)
            .display()
            .to_string()
    }

    /// The `--at` argument: the start directory relative to the workspace.
    pub(crate) fn at(&self) -> String {
        match self.cwd.strip_prefix(&self.workspace) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => panic!("{}: cwd outside the workspace", self.name()),
        }
    }
}

/// The binary's `assemble --agent AGENT --format json` on `fixture`: its
/// workspace, `--at`, HOME, `extra` arguments after `assemble`, and nothing
/// else of the environment. Returns the document and stderr; the run must
/// succeed.
pub(crate) fn assemble_profile(fixture: &Fixture, agent: &str, extra: &[&str]) -> (Value, String) {
    let mut args = vec!["assemble"];
    args.extend_from_slice(extra);
    profile_run(fixture, agent, &args)
}

/// The binary's `--agent AGENT --format json ARGS…` on `fixture`: its
/// workspace, `--at`, HOME, the case's `env`, and nothing else of the
/// environment. Returns the document and stderr; the run must succeed.
pub(crate) fn profile_run(fixture: &Fixture, agent: &str, args: &[&str]) -> (Value, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_mecatl-prompt"));
    cmd.env_clear()
        .env("HOME", &fixture.home)
        // Windows finds the home directory here, not in HOME.
        .env("USERPROFILE", &fixture.home)
        .env("XDG_CONFIG_HOME", fixture.home.join(".config"))
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    if let Some(vars) = fixture.case["env"].as_object() {
        for (key, value) in vars {
            cmd.env(key, value.as_str().unwrap_or_default());
        }
    }
    let output = cmd
        .arg("-C")
        .arg(&fixture.workspace)
        .args(["--trust-project", "--agent", agent, "--at", &fixture.at()])
        .args(["--format", "json"])
        .args(args)
        .output()
        .expect("run the binary");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}: {stderr}",
        fixture.name()
    );
    let doc: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert_eq!(doc["agent"], agent, "{}", fixture.name());
    (doc, stderr)
}

/// Writes a `generate` entry of `case.json`: `bytes` bytes in all, `fill`
/// repeated, then `tail` (as `record.py` does).
fn generate(tree: &Path, spec: &Value) {
    let text = |key: &str, default: &str| spec[key].as_str().unwrap_or(default).as_bytes().to_vec();
    let (fill, tail) = (text("fill", " "), text("tail", ""));
    let bytes = usize::try_from(spec["bytes"].as_u64().expect("generate: bytes")).expect("size");
    let mut body: Vec<u8> = fill
        .iter()
        .copied()
        .cycle()
        .take(bytes - tail.len())
        .collect();
    body.extend_from_slice(&tail);
    let path = tree.join(spec["path"].as_str().expect("generate: path"));
    std::fs::create_dir_all(path.parent().expect("parent")).expect("create dir");
    std::fs::write(path, body).expect("generate: write");
}

/// Claude Code's per-project directory name: every character other than an
/// ASCII letter or digit becomes `-`.
fn project_slug(path: &str) -> String {
    path.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// `value` with every `<TREE>`, `<TREE-SLUG>` and `<HOME>` in its strings
/// replaced.
fn unmask(value: &Value, tree: &str, home: &str) -> Value {
    match value {
        Value::String(s) => Value::String(
            s.replace("<TREE-SLUG>", &project_slug(tree))
                .replace("<TREE>", tree)
                .replace("<HOME>", home),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| unmask(v, tree, home)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), unmask(v, tree, home)))
                .collect(),
        ),
        other => other.clone(),
    }
}
