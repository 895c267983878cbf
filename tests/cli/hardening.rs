//! Bad input (SPEC §3.1, §9): the binary on hostile workspaces. Every case
//! asserts the exact outcome — exit status, the diagnostics, what is still
//! shown — and runs under a hang guard, since bounded reads and skipped
//! FIFOs are what is being proved.

mod claude;
mod encoding;
mod gemini;
mod huge;
mod inputs;
mod memory;
mod names;
mod opencode;
mod permissions;
mod profile_commands;
pub(crate) mod read_only;
mod special_files;
mod symlinks;
// Windows only: junctions, device names and Windows path separators.
#[cfg(windows)]
mod windows;
mod yaml;

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::support::TestEnv;

/// Every run here finishes in well under a second (the memory-lock case in
/// about five); this only turns a hang into a failure.
pub(crate) const HANG_GUARD: Duration = Duration::from_secs(30);

/// The fixed flags that make `build` independent of the machine.
pub(crate) const BUILD: [&str; 12] = [
    "build",
    "--no-git-status",
    "--date",
    "2024-01-01",
    "--cwd",
    "/w",
    "--os",
    "linux",
    "--shell",
    "/bin/sh",
    "--model",
    "m",
];

/// A finished run, with the temp directory replaced by `[ROOT]`.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Outcome {
    /// stdout parsed as JSON.
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }

    /// `(provenance, text)` of each message of an `assemble --format json`.
    pub(crate) fn messages(&self) -> Vec<(String, String)> {
        self.json()["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| (str_of(&m["provenance"]), str_of(&m["text"])))
            .collect()
    }

    /// The text of the one message with this provenance.
    pub(crate) fn message(&self, provenance: &str) -> String {
        let found: Vec<String> = self
            .messages()
            .into_iter()
            .filter(|(p, _)| p == provenance)
            .map(|(_, text)| text)
            .collect();
        assert_eq!(found.len(), 1, "one {provenance} message: {}", self.stdout);
        found.into_iter().next().unwrap_or_default()
    }

    /// `severity path: reason` of each JSON diagnostic that is not info.
    pub(crate) fn problems(&self) -> Vec<String> {
        self.json()["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .filter(|d| d["severity"] != "info")
            .map(|d| match d["path"].as_str() {
                Some(path) => format!(
                    "{} {path}: {}",
                    str_of(&d["severity"]),
                    str_of(&d["reason"])
                ),
                None => format!("{} {}", str_of(&d["severity"]), str_of(&d["reason"])),
            })
            .collect()
    }

    /// The stderr lines.
    pub(crate) fn stderr_lines(&self) -> Vec<&str> {
        self.stderr.lines().collect()
    }

    /// Asserts the exit status, printing both streams when it differs.
    #[track_caller]
    pub(crate) fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit status\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }
}

fn str_of(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

/// The directory holding the workspace, home, config and data dirs.
pub(crate) fn root(env: &TestEnv) -> &Path {
    env.ws.parent().expect("ws has a parent")
}

/// Runs the binary with `args` under the hang guard.
pub(crate) fn run(env: &TestEnv, args: &[&str]) -> Outcome {
    run_with_stdin(env, args, Vec::new())
}

/// Runs the binary with `args` and `stdin` under the hang guard.
pub(crate) fn run_with_stdin(env: &TestEnv, args: &[&str], stdin: Vec<u8>) -> Outcome {
    let mut cmd = env.cmd();
    cmd.args(args).write_stdin(stdin).timeout(HANG_GUARD);
    finish(env, &mut cmd)
}

/// Runs a prepared command and collects its outcome.
pub(crate) fn finish(env: &TestEnv, cmd: &mut assert_cmd::Command) -> Outcome {
    let output = cmd.output().expect("run the binary");
    let placeholder = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes).replace(&root(env).display().to_string(), "[ROOT]")
    };
    Outcome {
        code: output
            .status
            .code()
            .expect("exited, not killed by the hang guard"),
        stdout: placeholder(&output.stdout),
        stderr: placeholder(&output.stderr),
    }
}

/// `--trust-project --format json` followed by `args`.
pub(crate) fn trusted_json(env: &TestEnv, args: &[&str]) -> Outcome {
    let mut all = vec!["--trust-project", "--format", "json"];
    all.extend_from_slice(args);
    run(env, &all)
}

/// A sparse file of `len` bytes that begins with `prefix` (the rest reads
/// as NUL bytes and takes no disk space).
pub(crate) fn sparse(path: &Path, prefix: &[u8], len: u64) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    let mut file = File::create(path).expect("create sparse file");
    file.write_all(prefix).expect("write prefix");
    file.set_len(len).expect("extend sparse file");
}

// Unix only: mkfifo.
#[cfg(unix)]
/// Makes a FIFO at `path`.
pub(crate) fn mkfifo(path: &Path) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

// Unix only: std::os::unix's symbolic links.
#[cfg(unix)]
/// Makes a symbolic link at `link` (parents created) pointing at `target`.
pub(crate) fn symlink(target: impl AsRef<Path>, link: &Path) {
    if let Some(parent) = link.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    std::os::unix::fs::symlink(target, link).expect("symlink");
}
