//! The test environment: a temp workspace plus a temp HOME and XDG dirs,
//! with the process environment cleared so no test depends on the machine.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use tempfile::TempDir;

/// The bundled example workspace.
pub(crate) fn demo_dir() -> PathBuf {
    repo_file("examples/demo")
}

/// A file of this repository, by its path from the root.
pub(crate) fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A temp directory holding `ws/` (the workspace), `home/`, `config/` and
/// `data/`.
pub(crate) struct TestEnv {
    _dir: TempDir,
    /// The canonical temp root holding the four directories.
    pub(crate) root: PathBuf,
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
        let root = plain_path(dir.path().canonicalize().expect("canonical tempdir"));
        let env = Self {
            ws: root.join("ws"),
            home: root.join("home"),
            config: root.join("config"),
            data: root.join("data"),
            root,
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

    /// Runs the binary in the workspace with `args` and returns its output.
    ///
    /// Under Wine, creating a process now and then fails with Windows error
    /// 1359 ("Internal error") when the machine is busy; such a start is
    /// tried again, up to three times. No other error is retried.
    pub(crate) fn run(&self, args: &[&str]) -> Output {
        const WINE_TRANSIENT_START_FAILURE: i32 = 1359;
        let mut tries = 0;
        loop {
            match self.cmd().args(args).output() {
                Err(e)
                    if cfg!(windows)
                        && e.raw_os_error() == Some(WINE_TRANSIENT_START_FAILURE)
                        && tries < 3 =>
                {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
                result => return result.expect("run the binary"),
            }
        }
    }

    /// `text` with the temp root replaced by `[ROOT]`, so goldens hold no
    /// machine-specific path.
    pub(crate) fn redact(&self, text: &str) -> String {
        text.replace(&self.root.display().to_string(), "[ROOT]")
    }

    /// The binary as a plain `std` command, run in the workspace with a
    /// cleared environment (for tests that stream its output).
    pub(crate) fn std_cmd(&self) -> std::process::Command {
        self.std_program(env!("CARGO_BIN_EXE_mecatl-prompt"))
    }

    /// Any program, run like [`Self::cmd`] runs the binary (for wrappers
    /// such as `setpriv`), with a hang guard.
    pub(crate) fn program(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::from_std(self.std_program(program));
        cmd.timeout(std::time::Duration::from_secs(60));
        cmd
    }

    /// Any program as a plain `std` command in the workspace, with the
    /// environment cleared down to the temp HOME, XDG dirs, PATH, SHELL and TZ.
    fn std_program(&self, program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.env_clear()
            .env("HOME", &self.home)
            // Windows finds the home directory here, not in HOME.
            .env("USERPROFILE", &self.home)
            .env("XDG_CONFIG_HOME", &self.config)
            .env("XDG_DATA_HOME", &self.data)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SHELL", "/bin/bash")
            .env("TZ", "UTC")
            .current_dir(&self.ws);
        cmd
    }

    /// The binary run so that permission bits stop it: directly for an
    /// ordinary user, and as `nobody` under `setpriv` for root, whom mode
    /// 000 does not stop. The temp tree is opened up (0755) so that `nobody`
    /// can reach the workspace. `None` when the bits cannot be made to apply
    /// (root without `setpriv`); the caller skips with a note.
    #[cfg(unix)]
    pub(crate) fn cmd_bound_by_permissions(&self) -> Option<Command> {
        use std::os::unix::fs::PermissionsExt;
        let open = std::fs::Permissions::from_mode(0o755);
        for dir in [&self.root, &self.ws, &self.home, &self.config, &self.data] {
            std::fs::set_permissions(dir, open.clone()).expect("chmod 755");
        }
        let probe = self.root.join("permission-probe");
        std::fs::write(&probe, "x").expect("write probe");
        std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o000))
            .expect("chmod 000");
        if std::fs::read(&probe).is_err() {
            return Some(self.cmd());
        }
        let setpriv_works = std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
            .status()
            .is_ok_and(|s| s.success());
        if !setpriv_works {
            return None;
        }
        let plain = self.std_cmd();
        let mut cmd = std::process::Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(plain.get_program())
            .env_clear()
            .envs(plain.get_envs().filter_map(|(k, v)| Some((k, v?))))
            .current_dir(&self.ws);
        let mut cmd = Command::from_std(cmd);
        cmd.timeout(std::time::Duration::from_secs(60));
        Some(cmd)
    }

    /// The binary, run in the workspace with a cleared environment.
    pub(crate) fn cmd(&self) -> Command {
        self.program(env!("CARGO_BIN_EXE_mecatl-prompt"))
    }
}

/// `path` as a user would type it: on Windows without the `\\?\` prefix
/// that `canonicalize` adds, which no one passes on a command line and
/// which would keep `[ROOT]` from matching the tool's own paths.
fn plain_path(path: PathBuf) -> PathBuf {
    if cfg!(windows)
        && let Some(rest) = path.to_str().and_then(|p| p.strip_prefix(r"\\?\"))
        && rest.as_bytes().get(1) == Some(&b':')
    {
        return PathBuf::from(rest);
    }
    path
}

/// Writes a file, creating its parent directories.
pub(crate) fn write_file(path: &Path, content: impl AsRef<[u8]>) -> PathBuf {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    std::fs::write(path, content).expect("write file");
    path.to_path_buf()
}

/// Makes `target` a symbolic link to `link`.
#[cfg(unix)]
fn copy_link(link: &Path, target: &Path) {
    std::os::unix::fs::symlink(link, target).expect("copy link");
}

/// Makes `target` a symbolic link to `link` (a file link: the recorded
/// cases link files only).
#[cfg(windows)]
fn copy_link(link: &Path, target: &Path) {
    std::os::windows::fs::symlink_file(link, target).expect("copy link");
}

/// Copies a directory tree: directories, regular files, and symbolic links
/// as links (recorded oracle cases hold some).
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        let kind = entry.file_type().expect("file type");
        if kind.is_symlink() {
            let link = std::fs::read_link(entry.path()).expect("read link");
            copy_link(&link, &target);
        } else if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// stdout of a finished command as a string.
pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// stderr of a finished command as a string.
pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The exit code of a finished command (`None` when a signal ended it).
pub(crate) fn code(output: &Output) -> Option<i32> {
    output.status.code()
}

/// stdout parsed as one JSON document, keys in document order.
pub(crate) fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

/// Env flags that make `build` output the same on every machine and day.
pub(crate) const FIXED_ENV: [&str; 9] = [
    "--date",
    "2025-01-01",
    "--cwd",
    "/work/ledger",
    "--os",
    "linux",
    "--shell",
    "/bin/bash",
    "--no-git-status",
];

/// A file under `tests/fixtures/`.
pub(crate) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The JSON Schema in the file at `path`, compiled under `url` (format
/// assertions on), for validating outputs with `schemas.validate(doc, index)`.
pub(crate) fn compile_schema(path: &Path, url: &str) -> (boon::Schemas, boon::SchemaIndex) {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|err| panic!("read {}: {err}", path.display()));
    let schema: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|err| panic!("{} is not JSON: {err}", path.display()));
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    compiler.add_resource(url, schema).expect("add the schema");
    let index = compiler
        .compile(url, &mut schemas)
        .unwrap_or_else(|err| panic!("compile {}: {err:#}", path.display()));
    (schemas, index)
}

// Unix only: permission bits.
#[cfg(unix)]
/// Makes `path` unreadable (mode 000).
pub(crate) fn make_unreadable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o000)).expect("chmod 000");
}

/// The system calls that open a file, traced together: files opened
/// beneath a directory descriptor (`openat2`) name their path relative to
/// it, so traces are taken with `strace -y` and read with [`opened_path`].
pub(crate) const STRACE_OPENS: &str = "trace=open,openat,openat2";

/// The path a line of an `strace -y -e` [`STRACE_OPENS`] log opens, and
/// whether the call failed (`= -1`): a relative path joined to its
/// directory descriptor's path (`openat2(3</ws>, "a.md", …)` opens
/// `/ws/a.md`, `openat(4</ws/d>, "b.md", …)` opens `/ws/d/b.md`, and
/// `openat2(3</ws>, ".", …)` the directory `/ws` itself); `None` for any
/// other line, and for an `O_PATH` open, which only looks at the path (a
/// stat through a descriptor) and can read nothing.
pub(crate) fn opened_path(line: &str) -> Option<(String, bool)> {
    if line.contains("O_PATH") {
        return None;
    }
    let call = line.find("open")?;
    let args = &line[call + line[call..].find('(')? + 1..];
    let quote = args.find('"')?;
    let path = &args[quote + 1..];
    let path = &path[..path.find('"')?];
    // What precedes the path: nothing (`open`), `AT_FDCWD, `, or
    // `N</dir>, ` under -y.
    let dir = args[..quote]
        .split_once('<')
        .and_then(|(_, dir)| dir.rsplit_once('>'))
        .map(|(dir, _)| dir);
    let full = match dir {
        Some(dir) if path == "." => dir.to_string(),
        Some(dir) if !path.starts_with('/') => format!("{dir}/{path}"),
        _ => path.to_string(),
    };
    Some((full, line.contains(" = -1 ")))
}

#[test]
fn strace_lines_name_the_paths_they_open() {
    let lines = [
        r#"77 openat(AT_FDCWD, "/ws/AGENTS.md", O_RDONLY|O_CLOEXEC) = 3</ws/AGENTS.md>"#,
        r#"77 openat2(3</ws>, ".claude/rules/r.md", {flags=O_RDONLY, resolve=RESOLVE_BENEATH}, 24) = 4</ws/.claude/rules/r.md>"#,
        r#"openat2(3</ws>, "gone.md", {flags=O_RDONLY, resolve=RESOLVE_BENEATH}, 24) = -1 ENOENT (No such file or directory)"#,
        r#"open("/etc/x", O_RDONLY) = 3"#,
        r#"77 read(3</ws/a.md>, "x", 1) = 1"#,
        r#"openat2(3</ws>, ".", {flags=O_RDONLY|O_DIRECTORY, resolve=RESOLVE_BENEATH}, 24) = 4</ws>"#,
        r#"openat(5</ws/.claude/commands>, "c.md", O_RDONLY|O_NOFOLLOW) = 6</ws/.claude/commands/c.md>"#,
        r#"openat2(5</ws/.claude/skills>, "s/SKILL.md", {flags=O_RDONLY, resolve=RESOLVE_BENEATH}, 24) = 6</ws/.claude/skills/s/SKILL.md>"#,
        r#"openat2(3</ws>, "a/CLAUDE.md", {flags=O_NOFOLLOW|O_CLOEXEC|O_PATH, resolve=RESOLVE_BENEATH}, 24) = 4</ws/a/CLAUDE.md>"#,
    ];
    let parsed: Vec<Option<(String, bool)>> = lines.iter().map(|l| opened_path(l)).collect();
    assert_eq!(
        parsed,
        [
            Some(("/ws/AGENTS.md".into(), false)),
            Some(("/ws/.claude/rules/r.md".into(), false)),
            Some(("/ws/gone.md".into(), true)),
            Some(("/etc/x".into(), false)),
            None,
            Some(("/ws".into(), false)),
            Some(("/ws/.claude/commands/c.md".into(), false)),
            Some(("/ws/.claude/skills/s/SKILL.md".into(), false)),
            None,
        ]
    );
}

/// The block README shows under `$ COMMAND`, up to its closing fence.
pub(crate) fn readme_block(command: &str) -> String {
    let readme = std::fs::read_to_string(repo_file("README.md")).unwrap();
    let head = format!("$ {command}\n");
    let at = readme
        .find(&head)
        .unwrap_or_else(|| panic!("README shows `{command}`"))
        + head.len();
    let end = readme[at..].find("```").expect("a closing fence") + at;
    readme[at..end].to_string()
}
