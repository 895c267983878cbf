//! The git status snapshot of the env block (SPEC §4.3): branch, porcelain
//! status and the last five commits of the work tree, gathered without
//! writing anything into the repository.
//!
//! Every call runs `git` with optional locks off (so the index is never
//! refreshed on disk), the fsmonitor and untracked cache disabled (a
//! repository-configured fsmonitor is a program of the repository's
//! choosing), no pager, no colour, the C locale, no terminal prompt, stdin
//! closed, stderr discarded, and a 2 s bound. Variables that would point git
//! at another repository (`GIT_DIR`, `GIT_WORK_TREE`, …) are removed, so the
//! snapshot always describes the directory asked about.

use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;

use crate::adapters::process::{Bounds, Finished, run_bounded};
use crate::limits;

/// Options placed before every git subcommand.
const GIT_OPTIONS: [&str; 11] = [
    "--no-optional-locks",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.untrackedCache=false",
    "-c",
    "core.pager=cat",
    "-c",
    "color.ui=false",
    "-c",
    "log.showSignature=false",
];

/// Environment variables that would make git describe another repository.
const REPOSITORY_VARIABLES: [&str; 7] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
];

/// The status query: porcelain v1 with the `## branch` header line.
const STATUS_ARGS: [&str; 3] = ["status", "--porcelain=v1", "--branch"];
/// The commits query.
const LOG_ARGS: [&str; 5] = ["log", "--oneline", "-5", "--no-decorate", "--no-color"];

/// The line that ends a cut git status block.
const TRUNCATED: &str = "...(truncated)";

/// The git status block for the work tree containing `dir`, or `None` when
/// `git` is missing, `dir` is not inside a work tree (a bare repository
/// included), or the status query fails or times out.
///
/// The block reads `branch: NAME` (or `HEAD detached at SHA`), `status:`,
/// the porcelain lines or `(clean)`, `commits:`, then `git log --oneline -5`
/// — `(none)` on a branch without commits, `(unavailable)` when the log
/// query itself failed to run. It is cut at a line boundary to
/// [`limits::MAX_GIT_STATUS_BYTES`], the `...(truncated)` line included.
pub fn git_status(dir: &Path) -> Option<String> {
    let bounds = Bounds {
        timeout: limits::GIT_TIMEOUT,
        max_output: limits::MAX_GIT_STATUS_BYTES,
    };
    let (status, log) = thread::scope(|scope| {
        let log = scope.spawn(|| run_git(dir, &LOG_ARGS, bounds));
        let status = run_git(dir, &STATUS_ARGS, bounds);
        (status, log.join().unwrap_or(GitOutput::Unavailable))
    });
    let GitOutput::Success(status) = status else {
        return None;
    };
    Some(cut_at_line(
        &render_block(&status, &log),
        limits::MAX_GIT_STATUS_BYTES,
    ))
}

/// What one git query produced.
#[derive(Debug, Clone, PartialEq, Eq)]
enum GitOutput {
    /// It succeeded (possibly cut at the output cap); its stdout, lossily decoded.
    Success(String),
    /// It ran and exited unsuccessfully.
    Failed,
    /// It could not run, or ran past its timeout.
    Unavailable,
}

fn run_git(dir: &Path, args: &[&str], bounds: Bounds) -> GitOutput {
    let mut command = Command::new("git");
    command
        .args(GIT_OPTIONS)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_PAGER", "cat")
        .stderr(Stdio::null());
    for variable in REPOSITORY_VARIABLES {
        command.env_remove(variable);
    }
    match run_bounded(command, None, bounds) {
        Ok(Finished::Exited { status, stdout }) if status.success() => {
            GitOutput::Success(String::from_utf8_lossy(&stdout).into_owned())
        }
        // Output beyond the cap is cut from the block anyway.
        Ok(Finished::Oversize { stdout }) => {
            GitOutput::Success(String::from_utf8_lossy(&stdout).into_owned())
        }
        Ok(Finished::Exited { .. }) => GitOutput::Failed,
        Ok(Finished::TimedOut) | Err(_) => GitOutput::Unavailable,
    }
}

/// Assembles the block from `git status --porcelain=v1 --branch` output and
/// the log query's outcome.
fn render_block(status: &str, log: &GitOutput) -> String {
    let mut lines = status.lines();
    let header = lines.next().and_then(|line| line.strip_prefix("## "));
    let changes: Vec<&str> = lines.collect();
    let commits: Vec<&str> = match log {
        GitOutput::Success(text) => text.lines().collect(),
        _ => Vec::new(),
    };

    let branch_line = match header.map(branch_from_header) {
        Some(Branch::Named(name)) => format!("branch: {name}"),
        Some(Branch::Detached) => match commits.first().and_then(|c| c.split(' ').next()) {
            Some(sha) => format!("HEAD detached at {sha}"),
            None => "HEAD detached".to_string(),
        },
        None => "branch: (unknown)".to_string(),
    };
    let mut block = vec![branch_line, "status:".to_string()];
    if changes.is_empty() {
        block.push("(clean)".to_string());
    } else {
        block.extend(changes.iter().map(|line| line.to_string()));
    }
    block.push("commits:".to_string());
    match log {
        GitOutput::Success(_) if !commits.is_empty() => {
            block.extend(commits.iter().map(|line| line.to_string()));
        }
        GitOutput::Success(_) | GitOutput::Failed => block.push("(none)".to_string()),
        GitOutput::Unavailable => block.push("(unavailable)".to_string()),
    }
    block.join("\n")
}

/// What the porcelain `## ` header says about HEAD.
#[derive(Debug, PartialEq, Eq)]
enum Branch<'a> {
    /// On a branch (possibly without commits yet).
    Named(&'a str),
    /// HEAD is detached.
    Detached,
}

/// Reads the branch from a porcelain v1 header (after `## `): `main`,
/// `main...origin/main [ahead 1]`, `No commits yet on main` (older git:
/// `Initial commit on main`) or `HEAD (no branch)`. Branch names contain
/// neither spaces nor `...`, so both end the name.
fn branch_from_header(header: &str) -> Branch<'_> {
    if header == "HEAD (no branch)" {
        return Branch::Detached;
    }
    let name = ["No commits yet on ", "Initial commit on "]
        .iter()
        .find_map(|prefix| header.strip_prefix(prefix))
        .unwrap_or(header);
    let end = [name.find("..."), name.find(' ')]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(name.len());
    Branch::Named(&name[..end])
}

/// Cuts `text` to at most `max` bytes at a line boundary, ending it with a
/// `...(truncated)` line; text that fits is returned unchanged.
fn cut_at_line(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let room = max.saturating_sub(TRUNCATED.len());
    let kept = text.as_bytes()[..room]
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |newline| newline + 1);
    // `kept` is 0 or just past a `\n`, always a character boundary.
    format!("{}{TRUNCATED}", &text[..kept])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// Runs git for test set-up, isolated from the machine's git config.
    fn git(dir: &Path, args: &[&str]) -> String {
        let output = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .output()
            .unwrap();
        assert!(output.status.success(), "git {args:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    }

    fn new_repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q", "-b", "main"]);
        dir
    }

    fn commit(dir: &Path, file: &str, message: &str) -> String {
        fs::write(dir.join(file), message).unwrap();
        git(dir, &["add", file]);
        git(dir, &["commit", "-q", "-m", message]);
        git(dir, &["rev-parse", "--short", "HEAD"])
            .trim()
            .to_string()
    }

    #[test]
    fn a_plain_directory_has_no_git_status() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(git_status(dir.path()), None);
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
    fn a_bare_repository_has_no_git_status() {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q", "--bare"]);
        assert_eq!(git_status(dir.path()), None);
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
    fn a_clean_repository_shows_branch_and_commits() {
        let repo = new_repo();
        let first = commit(repo.path(), "a.txt", "first");
        let second = commit(repo.path(), "b.txt", "second");
        assert_eq!(
            git_status(repo.path()).unwrap(),
            format!("branch: main\nstatus:\n(clean)\ncommits:\n{second} second\n{first} first")
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
    fn changes_are_listed_as_porcelain_lines_from_a_subdirectory_too() {
        let repo = new_repo();
        let first = commit(repo.path(), "a.txt", "first");
        fs::write(repo.path().join("a.txt"), "changed").unwrap();
        fs::create_dir(repo.path().join("sub")).unwrap();
        fs::write(repo.path().join("sub/new.txt"), "new").unwrap();
        let expected = format!("branch: main\nstatus:\n M a.txt\n?? sub/\ncommits:\n{first} first");
        assert_eq!(git_status(repo.path()).unwrap(), expected);
        assert_eq!(git_status(&repo.path().join("sub")).unwrap(), expected);
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
    fn only_the_last_five_commits_are_shown() {
        let repo = new_repo();
        let shas: Vec<String> = (1..=7)
            .map(|n| commit(repo.path(), "a.txt", &format!("commit {n}")))
            .collect();
        let block = git_status(repo.path()).unwrap();
        let commits: Vec<&str> = block
            .lines()
            .skip_while(|l| *l != "commits:")
            .skip(1)
            .collect();
        let expected: Vec<String> = (3..=7)
            .rev()
            .map(|n| format!("{} commit {n}", shas[n - 1]))
            .collect();
        assert_eq!(commits, expected);
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
    fn a_branch_without_commits_says_none() {
        let repo = new_repo();
        assert_eq!(
            git_status(repo.path()).unwrap(),
            "branch: main\nstatus:\n(clean)\ncommits:\n(none)"
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
    fn a_detached_head_names_its_commit() {
        let repo = new_repo();
        let first = commit(repo.path(), "a.txt", "first");
        git(repo.path(), &["checkout", "-q", "--detach"]);
        assert_eq!(
            git_status(repo.path()).unwrap(),
            format!("HEAD detached at {first}\nstatus:\n(clean)\ncommits:\n{first} first")
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs git on PATH under Wine")]
    fn a_huge_status_is_cut_at_a_line_boundary() {
        let repo = new_repo();
        commit(repo.path(), "a.txt", "first");
        for n in 0..1000 {
            fs::write(repo.path().join(format!("untracked-file-{n:04}.txt")), "").unwrap();
        }
        let block = git_status(repo.path()).unwrap();
        assert!(
            block.len() <= limits::MAX_GIT_STATUS_BYTES,
            "{}",
            block.len()
        );
        assert!(
            block.len() > limits::MAX_GIT_STATUS_BYTES - 100,
            "{}",
            block.len()
        );
        assert!(block.ends_with("\n...(truncated)"), "{block}");
        let last_entry = block.lines().rev().nth(1).unwrap();
        assert!(
            last_entry.starts_with("?? untracked-file-") && last_entry.ends_with(".txt"),
            "{last_entry}"
        );
    }

    // Unix only: the trap is a shell script marked executable.
    #[cfg(unix)]
    /// A repository whose configured fsmonitor is a script leaving a marker,
    /// with a tracked file rewritten so its index entry is stale.
    fn repo_with_fsmonitor_trap() -> (tempfile::TempDir, std::path::PathBuf) {
        let repo = new_repo();
        commit(repo.path(), "a.txt", "first");
        let marker = repo.path().join(".git/fsmonitor-ran");
        let hook = repo.path().join(".git/fsmonitor-hook");
        fs::write(&hook, format!("#!/bin/sh\ntouch '{}'\n", marker.display())).unwrap();
        let mut permissions = fs::metadata(&hook).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        fs::set_permissions(&hook, permissions).unwrap();
        git(
            repo.path(),
            &["config", "core.fsmonitor", hook.to_str().unwrap()],
        );
        // Same content, new mtime: a status that may write would refresh the index.
        fs::write(repo.path().join("a.txt"), "first").unwrap();
        (repo, marker)
    }

    // Unix only: the trap is a shell script marked executable.
    #[cfg(unix)]
    #[test]
    fn never_runs_a_configured_fsmonitor_nor_rewrites_the_index() {
        let (repo, marker) = repo_with_fsmonitor_trap();
        let index = repo.path().join(".git/index");
        let before = (
            fs::metadata(&index).unwrap().modified().unwrap(),
            fs::read(&index).unwrap(),
        );
        assert!(git_status(repo.path()).is_some());
        assert!(!marker.exists(), "the repository's fsmonitor ran");
        let after = (
            fs::metadata(&index).unwrap().modified().unwrap(),
            fs::read(&index).unwrap(),
        );
        assert_eq!(before, after, "the index was rewritten");

        // The trap is real: a plain `git status` springs both.
        git(repo.path(), &["status", "--porcelain"]);
        assert!(
            marker.exists(),
            "control: plain git status runs the fsmonitor"
        );
        assert_ne!(
            fs::read(&index).unwrap(),
            before.1,
            "control: plain git status writes the index"
        );
    }

    #[test]
    fn branch_headers_of_every_form() {
        let cases = [
            ("main", Branch::Named("main")),
            ("main...origin/main", Branch::Named("main")),
            (
                "feature/x...origin/feature/x [ahead 1, behind 2]",
                Branch::Named("feature/x"),
            ),
            ("main [gone]", Branch::Named("main")),
            ("No commits yet on dev", Branch::Named("dev")),
            ("Initial commit on dev", Branch::Named("dev")),
            ("HEAD (no branch)", Branch::Detached),
        ];
        for (header, branch) in cases {
            assert_eq!(branch_from_header(header), branch, "{header}");
        }
    }

    #[test]
    fn an_unavailable_log_is_said_so() {
        assert_eq!(
            render_block("## main\n M a\n", &GitOutput::Unavailable),
            "branch: main\nstatus:\n M a\ncommits:\n(unavailable)"
        );
        assert_eq!(
            render_block("## HEAD (no branch)\n", &GitOutput::Unavailable),
            "HEAD detached\nstatus:\n(clean)\ncommits:\n(unavailable)"
        );
        assert_eq!(
            render_block("", &GitOutput::Failed),
            "branch: (unknown)\nstatus:\n(clean)\ncommits:\n(none)"
        );
    }

    #[test]
    fn cut_keeps_text_that_fits_exactly() {
        let text = "line one\nline two";
        assert_eq!(cut_at_line(text, text.len()), text);
        assert_eq!(cut_at_line(text, text.len() + 1), text);
    }

    #[test]
    fn cut_one_byte_over_drops_the_last_line() {
        let text = "line one\nline two, which is long";
        let kept = "line one\n...(truncated)";
        assert_eq!(cut_at_line(text, text.len() - 1), kept);
        assert_eq!(cut_at_line(text, kept.len()), kept);
        assert_eq!(cut_at_line(text, kept.len() - 1), TRUNCATED);
    }

    #[test]
    fn cut_result_never_exceeds_the_bound() {
        let text = "0123456789\n".repeat(10);
        for max in TRUNCATED.len()..text.len() {
            let cut = cut_at_line(&text, max);
            assert!(cut.len() <= max, "{max}: {cut}");
            assert!(cut.ends_with(TRUNCATED));
            let kept = cut.strip_suffix(TRUNCATED).unwrap();
            assert!(text.starts_with(kept) && (kept.is_empty() || kept.ends_with('\n')));
            // The next whole line would not have fitted.
            assert!(kept.len() + 11 + TRUNCATED.len() > max, "{max}");
        }
    }

    #[test]
    fn cut_of_a_single_long_line_leaves_only_the_marker() {
        assert_eq!(cut_at_line(&"é".repeat(100), 50), TRUNCATED);
    }
}
