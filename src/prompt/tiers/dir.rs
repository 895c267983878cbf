//! The directories the engine searches: tier, trust state, layout, and the
//! words a kind of file is reported with.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::diagnostic::Severity;
use crate::prompt::walk::Scope;
use crate::workspace::{Workspace, join};

/// Which tier a search directory belongs to (SPEC §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// A directory of the workspace: trust-gated, links confined.
    Project,
    /// A directory of the user's config: never gated, links followed.
    User,
    /// A directory the operator named on the command line (`--commands-dir`):
    /// never gated.
    Operator,
}

impl Tier {
    /// The lowercase word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Project => "project",
            Tier::User => "user",
            Tier::Operator => "operator",
        }
    }

    /// The scope of a file of a directory of this tier: the workspace's,
    /// else the user's (the operator's directories are the operator's own).
    pub fn scope(self) -> Scope {
        match self {
            Tier::Project => Scope::Project,
            Tier::User | Tier::Operator => Scope::User,
        }
    }
}

/// How the files of a search directory map to names. Files are told by
/// their directory's suffix ([`SearchDir::suffix`], `.md` unless set), the
/// examples below with `.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `<dir>/<name>.md`, files directly in the directory (the engine's
    /// rules and commands). Subdirectories are not read; the kind may
    /// report them.
    Flat,
    /// `<dir>/a/b.md` is `a:b`: every file below the directory with the
    /// suffix, the path without it and with `/` replaced by `:` (Claude
    /// Code's commands: `git/commit.md` is `/git:commit`). Recursion is
    /// bounded by [`crate::limits::MAX_TREE_DEPTH`] and
    /// [`crate::limits::MAX_TREE_ENTRIES`].
    Nested,
    /// `<dir>/<name>/SKILL.md`: one directory per entry (skills), whatever
    /// the suffix.
    SkillDirs,
}

/// The file name of a skill inside its directory.
pub use crate::prompt::agents::files::SKILL_MD as SKILL_FILE;

/// The suffix of the files every directory has unless told otherwise
/// ([`SearchDir::with_suffix`]): rules, commands and instruction files
/// are Markdown.
pub const MD_SUFFIX: &str = ".md";

/// One directory searched for named files. Directories are given in
/// precedence order, highest first: the first usable file of a name wins.
/// `'r` is how long its reader lives: `'static` for readers the composition
/// root builds, shorter for a workspace borrowed for one call.
#[derive(Clone)]
pub struct SearchDir<'r> {
    /// The reader the directory is read through: the confined workspace
    /// reader for project directories, a link-following reader for user and
    /// operator ones.
    pub reader: Arc<dyn Workspace + 'r>,
    /// The directory, relative to the reader's root (`""` for the root).
    pub dir: String,
    /// The tier it belongs to.
    pub tier: Tier,
    /// True when its files are withheld (an untrusted project tier): they
    /// are listed and checked, resolve precedence among withheld
    /// directories only, and never claim a name from an active directory.
    pub withheld: bool,
    /// How its files map to names.
    pub layout: Layout,
    /// What a file's name ends with, cut off to name it (`.md`, `.toml`,
    /// `.instructions.md`): a file without it offers no name. Unused by
    /// [`Layout::SkillDirs`], whose file is always [`SKILL_FILE`].
    pub suffix: &'static str,
}

impl<'r> SearchDir<'r> {
    /// A directory `dir` of `reader` with a [`Layout::Flat`] layout of
    /// [`MD_SUFFIX`] files.
    pub fn flat(reader: Arc<dyn Workspace + 'r>, dir: impl Into<String>, tier: Tier) -> Self {
        Self {
            reader,
            dir: dir.into(),
            tier,
            withheld: false,
            layout: Layout::Flat,
            suffix: MD_SUFFIX,
        }
    }

    /// The same directory, withheld when `withheld`.
    pub fn withheld_if(mut self, withheld: bool) -> Self {
        self.withheld = withheld;
        self
    }

    /// The same directory with another layout.
    pub fn with_layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }

    /// The same directory, its files told by another suffix.
    pub fn with_suffix(mut self, suffix: &'static str) -> Self {
        self.suffix = suffix;
        self
    }

    /// `file` (relative to the directory) relative to the reader's root.
    pub fn rel(&self, file: &str) -> String {
        join(&self.dir, file)
    }

    /// How a path relative to the reader's root is named in output.
    pub fn display(&self, rel: &str) -> String {
        self.reader.display(rel)
    }

    /// [`SearchDir::display`] of a path no longer needed, without a copy
    /// when the reader shows it unchanged.
    pub fn display_owned(&self, rel: String) -> String {
        self.reader.display_owned(rel)
    }

    /// Where the file for `name` lies under this directory's layout,
    /// relative to the reader's root; `None` when no file can hold the name
    /// here (empty, a `/` or NUL in it, or an empty `:` segment).
    pub fn file_for(&self, name: &str) -> Option<String> {
        let suffix = self.suffix;
        match self.layout {
            Layout::Flat => is_file_stem(name).then(|| self.rel(&format!("{name}{suffix}"))),
            Layout::Nested => {
                let segments: Vec<&str> = name.split(':').collect();
                segments
                    .iter()
                    .all(|s| is_file_stem(s))
                    .then(|| self.rel(&format!("{}{suffix}", segments.join("/"))))
            }
            Layout::SkillDirs => is_file_stem(name).then(|| self.rel(&join(name, SKILL_FILE))),
        }
    }
}

impl SearchDir<'_> {
    /// Where the file for `name` would lie if every name could be a file:
    /// [`SearchDir::file_for`]'s path without its checks, for showing.
    pub fn naive_file_for(&self, name: &str) -> String {
        let suffix = self.suffix;
        match self.layout {
            Layout::Flat => self.rel(&format!("{name}{suffix}")),
            Layout::Nested => self.rel(&format!("{}{suffix}", name.replace(':', "/"))),
            Layout::SkillDirs => self.rel(&join(name, SKILL_FILE)),
        }
    }
}

impl fmt::Debug for SearchDir<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchDir")
            .field("dir", &self.reader.display(&self.dir))
            .field("tier", &self.tier)
            .field("withheld", &self.withheld)
            .field("layout", &self.layout)
            .field("suffix", &self.suffix)
            .finish()
    }
}

/// True for a name that can be one file name in a directory.
fn is_file_stem(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\0']) && name != "." && name != ".."
}

/// How one kind of file is named in diagnostics, and how hard a dropped
/// file hits. Every event has one wording across kinds; only these words
/// and the one severity differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// The kind, singular: `rule`, `command`, `skill`.
    pub noun: &'static str,
    /// The kind, plural: `rules`, `commands`, `skills`.
    pub plural: &'static str,
    /// What a search directory is called: `rules directory`, `command
    /// directory`.
    pub dir_noun: &'static str,
    /// The severity of a refused symlink and of a file name that is not
    /// UTF-8: fatal for rules (SPEC §3.1: they fail `rules list --check`), a
    /// warning for commands (SPEC §5.5: "not found" plus a warning). A read
    /// fault is always fatal; an unresolvable link or a non-regular file is
    /// always a warning.
    pub refusal: Severity,
}
