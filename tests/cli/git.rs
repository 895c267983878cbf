//! Git status in the env block (SPEC §4.3): only in a trusted work tree,
//! and never writing into the repository or running a program the
//! repository's config names.

use std::path::Path;
use std::process::Command;

use crate::support::{TestEnv, code, stderr, stdout};

/// Runs git in `dir` with a clean, fixed environment; panics on failure.
fn git(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &env.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_AUTHOR_DATE", "2025-01-01T00:00:00Z")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_DATE", "2025-01-01T00:00:00Z")
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git {args:?}: {}", stderr(&output));
    stdout(&output)
}

/// A work tree on branch `main` with two commits, one modified tracked
/// file whose index entry is stale, and one untracked file. Returns the
/// `git log --oneline` lines, newest first.
fn repository(env: &TestEnv) -> Vec<String> {
    git(env, &env.ws, &["init", "-q", "-b", "main"]);
    env.write("a.txt", "one\n");
    git(env, &env.ws, &["add", "a.txt"]);
    git(env, &env.ws, &["commit", "-q", "-m", "first commit"]);
    env.write("b.txt", "two\n");
    git(env, &env.ws, &["add", "b.txt"]);
    git(env, &env.ws, &["commit", "-q", "-m", "second commit"]);
    let log = git(env, &env.ws, &["log", "--oneline", "--no-decorate"]);
    env.write("a.txt", "one changed\n");
    env.write("new.txt", "untracked\n");
    // Same content, new mtime: a status that may refresh the index would
    // rewrite it for this entry.
    env.write("b.txt", "two\n");
    log.lines().map(str::to_string).collect()
}

fn suffix_args() -> Vec<&'static str> {
    vec![
        "build",
        "--part",
        "suffix",
        "--date",
        "2025-01-01",
        "--cwd",
        "/w",
        "--os",
        "linux",
        "--shell",
        "/bin/sh",
    ]
}

const ENV_LINES: &str = "<env>\ncwd: /w\ndate: 2025-01-01\nmodel: \nos: linux\npermission-mode: default\nshell: /bin/sh\n";

// Unix only: an fsmonitor hook script made executable with mode bits.
#[cfg(unix)]
#[test]
fn a_trusted_repository_gets_its_status_without_being_written_or_running_fsmonitor() {
    let env = TestEnv::new();
    let commits = repository(&env);
    let marker = env.root.join("fsmonitor-ran");
    let hook = env.root.join("fsmonitor.sh");
    std::fs::write(
        &hook,
        format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&hook).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&hook, permissions).unwrap();
    git(
        &env,
        &env.ws,
        &["config", "core.fsmonitor", &hook.display().to_string()],
    );

    let index = env.ws.join(".git/index");
    let bytes_before = std::fs::read(&index).unwrap();
    let mtime_before = std::fs::metadata(&index).unwrap().modified().unwrap();

    let mut args = vec!["--trust-project"];
    args.extend(suffix_args());
    let output = env.run(&args);
    assert_eq!(code(&output), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    assert_eq!(
        stdout(&output),
        format!(
            "{ENV_LINES}<git-status>\nbranch: main\nstatus:\n M a.txt\n?? new.txt\n\
             commits:\n{}\n</git-status>\n</env>\n",
            commits.join("\n")
        )
    );
    assert!(!marker.exists(), "the repository's fsmonitor must not run");
    assert_eq!(std::fs::read(&index).unwrap(), bytes_before, "index bytes");
    assert_eq!(
        std::fs::metadata(&index).unwrap().modified().unwrap(),
        mtime_before,
        "index mtime"
    );

    // The trap is real: a plain `git status` runs the hook.
    let _ = Command::new("git")
        .arg("status")
        .current_dir(&env.ws)
        .env("HOME", &env.home)
        .output();
    assert!(marker.exists(), "the fsmonitor hook was not a working trap");
}

#[test]
#[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
fn a_detached_head_and_a_clean_tree_are_described() {
    let env = TestEnv::new();
    git(&env, &env.ws, &["init", "-q", "-b", "main"]);
    env.write("a.txt", "one\n");
    git(&env, &env.ws, &["add", "a.txt"]);
    git(&env, &env.ws, &["commit", "-q", "-m", "only commit"]);
    git(&env, &env.ws, &["checkout", "-q", "--detach"]);
    let commit = git(&env, &env.ws, &["log", "--oneline", "--no-decorate"]);
    let sha = commit.split(' ').next().unwrap();
    let mut args = vec!["--trust-project"];
    args.extend(suffix_args());
    let output = env.run(&args);
    assert_eq!(
        stdout(&output),
        format!(
            "{ENV_LINES}<git-status>\nHEAD detached at {sha}\nstatus:\n(clean)\ncommits:\n\
             {commit}</git-status>\n</env>\n"
        )
    );
}

#[test]
#[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
fn an_untrusted_repository_gets_no_git_status_and_verbose_says_why() {
    let env = TestEnv::new();
    repository(&env);
    let output = env.run(&suffix_args());
    assert_eq!(stdout(&output), format!("{ENV_LINES}</env>\n"));
    assert_eq!(stderr(&output), "");
    let mut args = vec!["-v"];
    args.extend(suffix_args());
    let output = env.run(&args);
    assert_eq!(stdout(&output), format!("{ENV_LINES}</env>\n"));
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: info: no git status: git does not run in an untrusted workspace\n"
    );
}

#[test]
#[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
fn git_status_flags_replace_the_query() {
    let env = TestEnv::new();
    repository(&env);
    let run = |extra: &[&str]| {
        let mut args = vec!["--trust-project", "-v"];
        args.extend(suffix_args());
        args.extend(extra);
        env.run(&args)
    };
    let output = run(&["--no-git-status"]);
    assert_eq!(stdout(&output), format!("{ENV_LINES}</env>\n"));
    assert_eq!(stderr(&output), "");
    let output = run(&["--git-status", ""]);
    assert_eq!(stdout(&output), format!("{ENV_LINES}</env>\n"));
    let output = run(&["--git-status", "branch: given"]);
    assert_eq!(
        stdout(&output),
        format!("{ENV_LINES}<git-status>\nbranch: given\n</git-status>\n</env>\n")
    );
}

#[test]
fn a_trusted_directory_outside_any_repository_gets_no_git_status() {
    let env = TestEnv::new();
    let mut args = vec!["--trust-project", "-v"];
    args.extend(suffix_args());
    let output = env.run(&args);
    assert_eq!(code(&output), Some(0));
    assert_eq!(stdout(&output), format!("{ENV_LINES}</env>\n"));
}

#[test]
#[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
fn a_long_status_is_cut_at_a_line_boundary_to_8_kib() {
    let env = TestEnv::new();
    git(&env, &env.ws, &["init", "-q", "-b", "main"]);
    for i in 0..600 {
        env.write(&format!("untracked-file-with-a-long-name-{i:03}.txt"), "");
    }
    let mut args = vec!["--trust-project"];
    args.extend(suffix_args());
    let text = stdout(&env.run(&args));
    let block = text
        .split_once("<git-status>\n")
        .and_then(|(_, rest)| rest.split_once("\n</git-status>\n"))
        .map(|(block, _)| block)
        .unwrap_or_else(|| panic!("no git status block: {text}"));
    assert!(
        block.starts_with("branch: main\nstatus:\n?? untracked-file-with-a-long-name-000.txt\n")
    );
    assert!(block.ends_with(".txt\n...(truncated)"), "{block}");
    assert!(block.len() <= 8 * 1024, "{} bytes", block.len());
    assert!(
        block.len() > 8 * 1024 - 60,
        "cut at the last whole line: {}",
        block.len()
    );
}
