//! The test environment: a temp workspace plus a temp HOME and XDG dirs,
//! with the process environment cleared so no test depends on the machine.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

/// The bundled example workspace.
pub(crate) fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo")
}

/// A temp directory holding `ws/` (the workspace), `home/`, `config/` and
/// `data/`.
pub(crate) struct TestEnv {
    _dir: TempDir,
    /// The workspace root.
    pub(crate) ws: PathBuf,
    /// `$HOME`.
    pub(crate) home: PathBuf,
    /// `$XDG_CONFIG_HOME`.
    pub(crate) config: PathBuf,
    /// `$XDG_DATA_HOME`.
    pub(crate) data: PathBuf,
}

impl TestEnv {
    /// An empty workspace and empty home.
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canonical tempdir");
        let env = Self {
            ws: root.join("ws"),
            home: root.join("home"),
            config: root.join("config"),
            data: root.join("data"),
            _dir: dir,
        };
        for d in [&env.ws, &env.home, &env.config, &env.data] {
            std::fs::create_dir_all(d).expect("create dir");
        }
        env
    }

    /// A workspace holding a copy of `examples/demo`.
    pub(crate) fn demo() -> Self {
        let env = Self::new();
        copy_tree(&demo_dir(), &env.ws);
        env
    }

    /// Writes `content` to `rel` under the workspace, creating parents.
    pub(crate) fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        write_file(&self.ws.join(rel), content)
    }

    /// Writes `content` to `rel` under the config home, creating parents.
    pub(crate) fn write_config(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        write_file(&self.config.join(rel), content)
    }

    /// The binary, run in the workspace with a cleared environment.
    pub(crate) fn cmd(&self) -> Command {
        self.program(assert_cmd::cargo::cargo_bin("mecatl-prompt"))
    }

    /// Any program, run like [`Self::cmd`] runs the binary (for wrappers
    /// such as `setpriv`).
    pub(crate) fn program(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.config)
            .env("XDG_DATA_HOME", &self.data)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SHELL", "/bin/bash")
            .env("TZ", "UTC")
            .current_dir(&self.ws)
            .timeout(std::time::Duration::from_secs(60));
        cmd
    }
}

/// Writes a file, creating its parent directories.
pub(crate) fn write_file(path: &Path, content: impl AsRef<[u8]>) -> PathBuf {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    std::fs::write(path, content).expect("write file");
    path.to_path_buf()
}

/// Copies a directory tree (regular files and directories only).
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// stdout of a finished command as a string.
pub(crate) fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// stderr of a finished command as a string.
pub(crate) fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
