//! The seam between the house and one agent profile (SPEC §14.1): the data
//! every profile declares about its agent ([`ProfileSpec`]) and the
//! registered, stateless side of a profile ([`Profile`]). The one table of
//! profiles is [`crate::prompt::agents::PROFILES`]; everything that must
//! name every agent (the `--agent` values and help, the man page, `compare`,
//! lint's survey, the token counts) reads it instead of keeping a list.
//!
//! Choices the spec leaves open:
//! - The record is `const` data, no behaviour: what an agent is called,
//!   how its tokens are counted, how far it reads a file, how its commands
//!   are invoked, where its home directories are and which variables move
//!   them, which configuration directories are its.
//! - A home directory moved by a variable takes the variable only when it
//!   is set, non-empty and absolute, as the agents do; otherwise its default.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::command::NameGrammar;
use crate::prompt::lint::report::LintHooks;
pub use crate::prompt::profile::ProfileError;
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::{Agent, ProfileTurn0, Scope, Touched};
use crate::prompt::tokens::Tokenizer;
use crate::prompt::turn0::{ReadFault, Turn0Report};
use crate::workspace::Workspace;

/// What the house knows about an agent, as data.
#[derive(Debug)]
pub struct ProfileSpec {
    /// The key of the profile.
    pub agent: Agent,
    /// The name used on the command line and in JSON.
    pub name: &'static str,
    /// The agent's own name, for sentences.
    pub title: &'static str,
    /// What the name stands for, in `--agent`'s help.
    pub summary: &'static str,
    /// How its tokens are counted (SPEC §15.4).
    pub tokenizer: Tokenizer,
    /// The most bytes it reads of an instruction file: `compare` runs the
    /// profiles from the largest reader down, so that a memoised read is
    /// answered only from one that read at least as much.
    pub read_cap: u64,
    /// What invokes one of its commands or skills (`/name`, `$name`).
    pub sigil: char,
    /// Which command names its grammar accepts (`/` inside a name or not).
    pub names: NameGrammar,
    /// Whether the agent has rules at all (SPEC §14.2).
    pub has_rules: bool,
    /// Its directories outside the workspace.
    pub homes: &'static [HomeDir],
    /// The names of its instruction files in a directory, as it tries
    /// them (workspace-relative to that directory).
    pub instruction_names: &'static [&'static str],
    /// Whether it reads instruction files in every directory of its walk
    /// (`false`: at the workspace root only).
    pub nested_instructions: bool,
    /// Its configuration directories inside a project (lint looks into
    /// them even when they are links).
    pub config_dirs: &'static [&'static str],
    /// The environment variables it reads besides those that move its
    /// homes.
    pub vars: &'static [&'static str],
    /// Entries whose presence at the workspace root or at `--at` makes the
    /// agent one of the default agents of `compare` and `lint` (SPEC Part
    /// III: so existing CI output does not change on a repository without
    /// its files); empty: always one of them.
    pub default_when: &'static [&'static str],
    /// Whether `compare` names the instruction files below the start
    /// directory that load only when a tool reads under them (a bounded
    /// look below `--at`; Gemini CLI). `false`: such files are compared
    /// under `--touch` only, and nothing below `--at` is looked at.
    pub lazy_in_compare: bool,
}

impl ProfileSpec {
    /// True when the agent is one of the default agents of `compare` and
    /// `lint` over `project` started at `at` (see
    /// [`ProfileSpec::default_when`]): one `stat` per entry and directory.
    pub fn is_default(&self, project: &dyn Workspace, at: &str) -> bool {
        if self.default_when.is_empty() {
            return true;
        }
        let at = at.trim_matches('/');
        let dirs: &[&str] = if at.is_empty() || at == "." {
            &[""]
        } else {
            &["", at]
        };
        dirs.iter().any(|dir| {
            self.default_when
                .iter()
                .any(|entry| project.stat(&crate::workspace::join(dir, entry)).is_ok())
        })
    }
}

/// A directory of an agent outside the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HomeDir {
    /// The environment variable that moves it, if any.
    pub var: Option<&'static str>,
    /// Where it is when no variable moves it.
    pub default: HomeDefault,
    /// The scope of the files read from it.
    pub scope: Scope,
}

/// Where a home directory is by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HomeDefault {
    /// Below the user's home directory (`""` is the home itself).
    UnderHome(&'static str),
    /// A fixed absolute path per platform (machine policy).
    Machine(PerPlatform),
}

/// A path that differs per platform, the platform the binary was built
/// for choosing (SPEC §20.1: each profile names its locations per platform
/// in one table, its spec).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerPlatform {
    /// On Linux and every other Unix but macOS.
    pub linux: &'static str,
    /// On macOS.
    pub macos: &'static str,
    /// On Windows.
    pub windows: &'static str,
}

impl PerPlatform {
    /// The path on the platform this binary runs on.
    pub fn here(&self) -> &'static str {
        if cfg!(windows) {
            self.windows
        } else if cfg!(target_os = "macos") {
            self.macos
        } else {
            self.linux
        }
    }
}

impl HomeDir {
    /// The directory, from the value of its variable (`var`) and the home
    /// directory: the variable's value when set, non-empty and absolute,
    /// else the default; `None` when the default is below a home directory
    /// there is none of.
    pub fn resolve(&self, var: Option<&OsStr>, home: Option<&Path>) -> Option<PathBuf> {
        let moved = self
            .var
            .and(var)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute());
        moved.or_else(|| match self.default {
            HomeDefault::UnderHome("") => home.map(Path::to_path_buf),
            HomeDefault::UnderHome(below) => home.map(|home| home.join(below)),
            HomeDefault::Machine(paths) => Some(PathBuf::from(paths.here())),
        })
    }
}

/// What the composition root hands every profile for one run: the
/// readers, the agent's homes, the run's options, and the engine's own
/// pipeline (which only the engine's profile runs).
pub struct Setup<'a> {
    /// The workspace: confined, trust-gated.
    pub project: Arc<dyn Workspace>,
    /// The directories above the workspace: `/`, links followed.
    pub parent: Arc<dyn Workspace>,
    /// A reader of one of the agent's [`HomeDir`]s, links followed; `None`
    /// when it has no place (no home directory).
    pub homes: &'a dyn Fn(&HomeDir) -> Option<Arc<dyn Workspace>>,
    /// The user's home directory, if any.
    pub home: Option<&'a Path>,
    /// The agent's start directory (`--at`), workspace-relative.
    pub at: &'a str,
    /// Whether the workspace is trusted (SPEC §3.2).
    pub trusted: bool,
    /// The `--touch` paths, workspace-relative.
    pub touch: &'a [String],
    /// The value of one of the variables of the agent's [`ProfileSpec`]
    /// (its homes' or its `vars`), when set.
    pub var: &'a dyn Fn(&str) -> Option<&'a OsStr>,
    /// The model's context window in tokens, when given (what sizes a
    /// listing that fills a share of it).
    pub context_window: Option<u64>,
    /// The engine's turn 0, assembled by its one registration list.
    pub engine: &'a dyn Fn() -> Result<Turn0Report, ReadFault>,
    /// The engine's command catalog: the operator's directories, else the
    /// workspace's.
    pub engine_catalog: &'a dyn Fn() -> Box<dyn Catalog + 'a>,
}

impl Setup<'_> {
    /// `--at` for sentences: `.` for the workspace root.
    pub fn at_label(&self) -> &str {
        if self.at.is_empty() { "." } else { self.at }
    }
}

/// A registered profile: stateless, one per agent, listed once in
/// [`crate::prompt::agents::PROFILES`].
pub trait Profile: Sync {
    /// The agent's data.
    fn spec(&self) -> &'static ProfileSpec;

    /// The agent over one workspace, for one run.
    fn open<'a>(&self, setup: &'a Setup<'a>) -> Box<dyn ProfileRun + 'a>;

    /// What `lint` asks of the agent: where it keeps its files, how it
    /// reads their frontmatter, and its own checks; `None` when it has
    /// nothing of its own.
    fn lint(&self) -> Option<&'static dyn LintHooks> {
        None
    }
}

/// One agent over one workspace: its walk and configuration are read
/// once, whichever of its questions are asked.
pub trait ProfileRun {
    /// What the agent loads at start, and what `--touch` adds.
    fn turn0(&self) -> Result<ProfileTurn0, ProfileError>;

    /// The commands and skills it offers.
    fn catalog(&self) -> Result<Box<dyn Catalog + '_>, ProfileError>;
}

/// Adds what `--touch` adds under a profile that loads nothing lazily
/// (SPEC §14.3: mecatl and codex): an empty section per path, and an info
/// line saying so.
pub fn touch_adds_nothing_for(spec: &ProfileSpec, touch: &[String], turn0: &mut ProfileTurn0) {
    for path in touch {
        turn0.diagnostics.push(touch_adds_nothing(spec, path));
        turn0.touch.push(Touched {
            path: path.clone(),
            parts: Vec::new(),
        });
    }
}

/// The info line for `--touch` under a profile that loads nothing lazily
/// (SPEC §14.3: mecatl and codex).
pub fn touch_adds_nothing(spec: &ProfileSpec, path: &str) -> Diagnostic {
    Diagnostic::new(
        Severity::Info,
        Some(path.to_string()),
        format!(
            "--touch: {} loads nothing more when a file is read, so reading this path adds nothing",
            spec.title
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOVED: HomeDir = HomeDir {
        var: Some("X_HOME"),
        default: HomeDefault::UnderHome(".x"),
        scope: Scope::User,
    };

    #[test]
    #[cfg_attr(
        windows,
        ignore = "fixture homes are Unix paths /srv/…, not absolute on Windows"
    )]
    fn a_variable_moves_a_home_only_when_absolute() {
        let home = Path::new("/h");
        let moved = MOVED.resolve(Some(OsStr::new("/srv/x")), Some(home));
        assert_eq!(moved, Some(PathBuf::from("/srv/x")));
        for unusable in [None, Some(OsStr::new("")), Some(OsStr::new("rel/x"))] {
            let default = MOVED.resolve(unusable, Some(home));
            assert_eq!(default, Some(PathBuf::from("/h/.x")));
        }
        assert_eq!(MOVED.resolve(None, None), None);
    }

    #[test]
    fn a_fixed_home_needs_no_home_and_ignores_variables() {
        let paths = PerPlatform {
            linux: "/etc/x",
            macos: "/Library/X",
            windows: r"C:\Program Files\X",
        };
        let managed = HomeDir {
            var: None,
            default: HomeDefault::Machine(paths),
            scope: Scope::Managed,
        };
        let path = managed.resolve(Some(OsStr::new("/elsewhere")), None);
        assert_eq!(path, Some(PathBuf::from(paths.here())));
        #[cfg(target_os = "linux")]
        assert_eq!(paths.here(), "/etc/x");
        #[cfg(windows)]
        assert_eq!(paths.here(), r"C:\Program Files\X");
    }
}
