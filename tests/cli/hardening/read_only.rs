//! The tool never writes (SPEC §1, §4.3, §6.5): after a run of every
//! subcommand the workspace — its git repository included — the home, the
//! config and the data directories hold the same files with the same sizes
//! and modification times.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

use super::{BUILD, HANG_GUARD, root, run, run_with_stdin};
use crate::support::TestEnv;

/// Kind, size and modification time of every entry under `dir`, links not
/// followed.
pub(crate) fn snapshot(dir: &Path) -> BTreeMap<String, (String, u64, SystemTime)> {
    let mut seen = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).expect("read dir") {
            let path = entry.expect("entry").path();
            let meta = std::fs::symlink_metadata(&path).expect("lstat");
            if meta.is_dir() {
                pending.push(path.clone());
            }
            let rel = path.strip_prefix(dir).expect("under dir");
            seen.insert(
                rel.display().to_string(),
                (
                    format!("{:?}", meta.file_type()),
                    meta.len(),
                    meta.modified().expect("mtime"),
                ),
            );
        }
    }
    seen
}

fn git(ws: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(ws)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", ws)
        .status()
        .expect("git is installed (.ci/run installs it)");
    assert!(status.success(), "git {args:?}");
}

/// A workspace with every kind of file, a git repository with a dirty
/// tree, a memory store with its lock file, a user model and settings.
fn full_env() -> TestEnv {
    let env = TestEnv::demo();
    env.write("AGENTS.md", "Instructions.");
    env.write(".claude/rules/r.md", "---\npaths: \"**/*.rs\"\n---\nRule.");
    env.write(".claude/commands/c.md", "---\ndescription: C\n---\nRun $1.");
    env.write(".mecatl/soul.md", "Be calm.");
    env.write(
        ".mecatl/memory/memory.json",
        "{\"entries\": {\"k\": {\"value\": \"v\"}}}",
    );
    env.write(".mecatl/memory/memory.lock", "");
    env.write_config(
        "mecatl/usermodel/memory.json",
        "{\"entries\": {\"user/name\": {\"value\": \"Ada\"}}}",
    );
    env.write_config(
        "mecatl/settings.yaml",
        format!("trustedWorkspaces:\n  - {}\n", env.ws.display()),
    );
    env.write_config("mecatl/rules/u.md", "User rule.");
    env.write("src/lib.rs", "fn main() {}\n");
    git(&env.ws, &["init", "-q"]);
    git(&env.ws, &["add", "-A"]);
    git(&env.ws, &["commit", "-q", "-m", "init"]);
    env.write("src/lib.rs", "fn main() { dirty() }\n");
    env.write("untracked.txt", "new");
    env
}

#[test]
#[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
fn no_subcommand_writes_anything() {
    let env = full_env();
    let before = snapshot(root(&env));
    let memory = ["--memory-dir", ".mecatl/memory"];
    let mut runs: Vec<Vec<&str>> = vec![
        BUILD.to_vec(),
        vec!["build", "--date", "2024-01-01"],
        vec!["build", "--check-stable", "--date", "2024-01-01"],
        vec!["build", "--tools", "tools.json", "--format", "anthropic"],
        vec!["expand", "/c", "x"],
        vec!["expand", "--require", "/missing"],
        vec!["commands", "list"],
        vec!["--format", "json", "commands", "list"],
        vec!["rules", "list", "--check"],
        vec!["rules", "list", "--for", "src/lib.rs"],
        vec!["-v", "assemble"],
        vec!["completions", "bash"],
        vec!["man"],
    ];
    for format in ["text", "json", "anthropic", "openai"] {
        let mut args = vec!["--format", format, "assemble"];
        args.extend(memory);
        runs.push(args);
    }
    for trust in ["--trust-project", "--no-trust-project"] {
        for args in &runs {
            let mut all = vec![trust];
            all.extend(args);
            let out = run(&env, &all);
            assert!(out.code == 0 || out.code == 1, "{all:?}: {out:?}");
        }
    }
    run_with_stdin(&env, &["expand", "-"], b"/c stdin\n".to_vec()).assert_code(0);
    // Dynamic completion reads the workspace at TAB time.
    let output = env
        .cmd()
        .env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", "3")
        .env("_CLAP_IFS", "\n")
        .args(["--", "mecatl-prompt", "--trust-project", "expand", "/"])
        .timeout(HANG_GUARD)
        .output()
        .expect("run completion");
    assert!(output.status.success());
    assert_eq!(
        snapshot(root(&env)),
        before,
        "files under the temp root changed"
    );
}
