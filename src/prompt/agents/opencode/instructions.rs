//! The instruction files opencode loads (SPEC §18.1, §18.2): the global
//! file, the one name that wins the walk, the `instructions` entries of its
//! configs, and what reading a file adds.
//!
//! Choices the spec leaves open:
//! - One path loads once, by its absolute path as written (opencode keeps a
//!   set of resolved paths, not of real ones).
//! - Something that is not a regular file under an instruction name (a
//!   directory, a FIFO) still counts as existing for the name that wins
//!   (opencode asks whether the path exists) and is reported, never read.
//! - `instructions` entries are not matched in the walk's directories
//!   above the workspace, whichever config holds them: scanning them would
//!   read outside the workspace on a project file's word. An info line
//!   says so when the walk has such directories.
//! - A relative entry with a `..` component is never matched (listed
//!   `external` with a warning), even when it would stay inside the
//!   workspace: what it names depends on the directory it is tried in.
//! - A `.git` file is read (at most [`limits::MAX_GIT_POINTER_BYTES`],
//!   never shown, trusted or not) only to see whether its `gitdir:`
//!   exists; the target is looked up, never read.
//! - With `OPENCODE_DISABLE_PROJECT_CONFIG`, relative entries are not
//!   matched at all (opencode then tries them below `OPENCODE_CONFIG_DIR`
//!   only; not modelled), with an info line.

use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::files::{AGENTS_MD, CLAUDE_MD};
use crate::prompt::agents::opencode::INSTRUCTIONS_FROM;
use crate::prompt::agents::opencode::config::{Entry, Merged};
use crate::prompt::agents::opencode::glob;
use crate::prompt::agents::opencode::spec::CONTEXT_MD;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Part, PartKind, Scope};
use crate::prompt::walk::{WalkDir, absolute};
use crate::workspace::{EntryKind, Workspace, WsError, join, parent, slashed};

/// The readers one run reads through.
pub struct Readers<'a> {
    /// The workspace: confined, trust-gated.
    pub project: &'a dyn Workspace,
    /// The directories above it (rooted at `/`), links followed.
    pub parent: &'a dyn Workspace,
    /// opencode's config directory: a reader and the directory's path
    /// below its root; `None` without one.
    pub config: Option<(&'a dyn Workspace, String)>,
    /// The home directory; `None` without one.
    pub home: Option<&'a dyn Workspace>,
}

/// Which of opencode's switches are on, as what they leave in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switches {
    /// Claude Code's instruction files are read (`CLAUDE.md`,
    /// `~/.claude/CLAUDE.md`).
    pub claude: bool,
    /// The project's instruction files and configs are read.
    pub project: bool,
}

impl Switches {
    /// The instruction names opencode tries, in order.
    pub fn names(&self) -> Vec<&'static str> {
        if self.claude {
            vec![AGENTS_MD, CLAUDE_MD, CONTEXT_MD]
        } else {
            vec![AGENTS_MD, CONTEXT_MD]
        }
    }
}

/// One loaded file: its part and the absolute path opencode names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The part (its content is the file's text).
    pub part: Part,
    /// The absolute path in opencode's header.
    pub absolute: String,
}

impl Loaded {
    /// opencode's block for this file: `Instructions from: PATH\nCONTENT`.
    pub fn block(&self) -> String {
        format!(
            "{INSTRUCTIONS_FROM}{}\n{}",
            self.absolute, self.part.content
        )
    }
}

/// opencode's instructions region: the blocks joined by `\n`.
pub fn region(files: &[Loaded]) -> String {
    files
        .iter()
        .map(Loaded::block)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The walk opencode reads, top first: from its root (the nearest
/// directory that is a git repository's top) down to the cwd, or from `/`
/// without one; and whether a root was found.
pub fn chain<'a>(dirs: Vec<WalkDir<'a>>, parent: &dyn Workspace) -> (Vec<WalkDir<'a>>, bool) {
    let root = dirs.iter().rposition(|dir| is_git_top(dir, parent));
    match root {
        Some(i) => (dirs[i..].to_vec(), true),
        None => (dirs, false),
    }
}

/// True when `dir` holds a `.git` directory, or a `.git` file whose
/// `gitdir:` names a directory that exists (a worktree): a `.git` file
/// pointing nowhere makes no root (observed: `git-file`, opencode asks git).
fn is_git_top(dir: &WalkDir<'_>, parent: &dyn Workspace) -> bool {
    let rel = dir.rel(".git");
    match dir.reader.stat(&rel) {
        Ok(EntryKind::Dir) => true,
        Ok(EntryKind::File) => {
            let Ok(read) = dir.reader.read(&rel, limits::MAX_GIT_POINTER_BYTES) else {
                return false;
            };
            let text = String::from_utf8_lossy(&read.bytes);
            let Some(target) = text.lines().find_map(|line| line.strip_prefix("gitdir:")) else {
                return false;
            };
            let target = crate::prompt::imports::normalise(&dir.absolute("").join(target.trim()));
            rel_under(parent.root(), &target)
                .is_some_and(|rel| matches!(parent.stat(&rel), Ok(EntryKind::Dir)))
        }
        _ => false,
    }
}

/// A file to read.
struct Candidate<'a> {
    reader: &'a dyn Workspace,
    rel: String,
    scope: Scope,
}

/// What opencode loads from the instruction files of one run.
#[derive(Debug, Default)]
pub struct Instructions {
    /// The files at turn 0, in opencode's order.
    pub files: Vec<Loaded>,
    /// Files considered and not loaded.
    pub not_loaded: Vec<NotLoaded>,
    /// What was said.
    pub diagnostics: Vec<Diagnostic>,
    /// The project name that won the walk, if any.
    pub winner: Option<&'static str>,
    /// The absolute paths loaded (what is not loaded again).
    seen: Vec<PathBuf>,
}

/// Loads what opencode loads at start over `chain` (top first).
pub fn load(
    readers: &Readers<'_>,
    chain: &[WalkDir<'_>],
    switches: Switches,
    merged: &Merged,
    trusted: bool,
) -> Instructions {
    let mut out = Instructions::default();
    out.global(readers, switches, trusted);
    if switches.project {
        out.walk(chain, switches, trusted);
    }
    for entry in &merged.entries {
        out.entry(readers, chain, switches, entry, trusted);
    }
    let relative = merged.entries.iter().any(|entry| is_relative(&entry.text));
    if relative && switches.project && chain.iter().any(|dir| dir.scope == Scope::Parent) {
        out.diagnostics.push(Diagnostic::new(
            crate::diagnostic::Severity::Info,
            None,
            "opencode also tries the `instructions` globs in the walk's directories above the \
             workspace; the preview never scans them",
        ));
    }
    out
}

/// True for an entry opencode globs in the walk's directories.
pub(super) fn is_relative(text: &str) -> bool {
    !is_url(text) && !text.starts_with("~/") && !text.starts_with('/')
}

/// True for an entry opencode fetches.
pub(super) fn is_url(text: &str) -> bool {
    text.starts_with("http://") || text.starts_with("https://")
}

impl Instructions {
    /// The global file: the config directory's `AGENTS.md`, else
    /// `~/.claude/CLAUDE.md`; the first that exists, even empty.
    fn global(&mut self, readers: &Readers<'_>, switches: Switches, trusted: bool) {
        let mut candidates = Vec::new();
        if let Some((reader, dir)) = &readers.config {
            candidates.push((*reader, join(dir, AGENTS_MD)));
        }
        if switches.claude
            && let Some(home) = readers.home
        {
            candidates.push((home, join(".claude", CLAUDE_MD)));
        }
        let first = candidates
            .into_iter()
            .find(|(reader, rel)| reader.stat(rel).is_ok());
        if let Some((reader, rel)) = first {
            let scope = Scope::User;
            if let Some(loaded) = self.read(&Candidate { reader, rel, scope }, trusted) {
                self.files.push(loaded);
            }
        }
    }

    /// The project files: the first name that exists anywhere on the walk,
    /// every copy nearest first; the other names' files are shadowed.
    fn walk(&mut self, chain: &[WalkDir<'_>], switches: Switches, trusted: bool) {
        let names = switches.names();
        let exists = |dir: &WalkDir<'_>, name: &str| dir.reader.stat(&dir.rel(name)).is_ok();
        let winner = names
            .iter()
            .copied()
            .find(|name| chain.iter().any(|dir| exists(dir, name)));
        let Some(winner) = winner else {
            return;
        };
        self.winner = Some(winner);
        for dir in chain.iter().rev() {
            for name in &names {
                if !exists(dir, name) {
                    continue;
                }
                let found = Candidate {
                    reader: dir.reader,
                    rel: dir.rel(name),
                    scope: dir.scope,
                };
                if *name == winner {
                    if let Some(loaded) = self.read(&found, trusted) {
                        self.files.push(loaded);
                    }
                } else {
                    self.not_loaded.push(NotLoaded {
                        path: found.reader.display(&found.rel),
                        scope: found.scope,
                        reason: NotLoadedReason::Shadowed {
                            by: format!("{winner} on the walk"),
                        },
                    });
                }
            }
        }
    }

    /// One `instructions` entry.
    fn entry(
        &mut self,
        readers: &Readers<'_>,
        chain: &[WalkDir<'_>],
        switches: Switches,
        entry: &Entry,
        trusted: bool,
    ) {
        let text = entry.text.as_str();
        if is_url(text) {
            self.diagnostics.push(Diagnostic::info(
                entry.config.clone(),
                format!(
                    "`instructions` entry {text} is a URL: opencode fetches it (5 s timeout) and \
                     appends it last; the preview never fetches"
                ),
            ));
            self.not_loaded.push(NotLoaded {
                path: text.to_string(),
                scope: entry.scope,
                reason: NotLoadedReason::Unusable("url, not fetched".to_string()),
            });
            return;
        }
        let matched = if is_relative(text) {
            self.relative(chain, switches, entry)
        } else {
            self.absolute(readers, entry)
        };
        let Some(found) = matched else {
            return;
        };
        if found.is_empty() {
            self.diagnostics.push(Diagnostic::info(
                entry.config.clone(),
                format!("`instructions` entry {text} matches no file"),
            ));
        }
        if found.len() > limits::MAX_OPENCODE_INSTRUCTION_MATCHES {
            self.diagnostics.push(Diagnostic::warning(
                entry.config.clone(),
                format!(
                    "`instructions` entry {text} matches more than {} files: the rest are left out",
                    limits::MAX_OPENCODE_INSTRUCTION_MATCHES
                ),
            ));
        }
        for file in found
            .into_iter()
            .take(limits::MAX_OPENCODE_INSTRUCTION_MATCHES)
        {
            if let Some(loaded) = self.read(&file, trusted) {
                self.files.push(loaded);
            }
        }
    }

    /// The files a relative entry matches in the walk's directories inside
    /// the workspace, cwd first; `None` when it is not matched at all.
    fn relative<'a>(
        &mut self,
        chain: &[WalkDir<'a>],
        switches: Switches,
        entry: &Entry,
    ) -> Option<Vec<Candidate<'a>>> {
        let text = entry.text.as_str();
        if text.split('/').any(|part| part == "..") {
            self.outside(entry);
            return None;
        }
        if !switches.project {
            self.diagnostics.push(Diagnostic::info(
                entry.config.clone(),
                format!(
                    "`instructions` entry {text} is not matched: OPENCODE_DISABLE_PROJECT_CONFIG \
                     is set"
                ),
            ));
            return None;
        }
        let mut found = Vec::new();
        for dir in chain.iter().rev().filter(|dir| dir.scope != Scope::Parent) {
            found.extend(self.scan(dir.reader, &dir.dir, text, dir.scope, entry));
        }
        Some(found)
    }

    /// The files an absolute or `~/` entry matches (a glob on the base
    /// name in its directory): read from the user's config, only inside the
    /// workspace from another.
    fn absolute<'a>(&mut self, readers: &Readers<'a>, entry: &Entry) -> Option<Vec<Candidate<'a>>> {
        let text = entry.text.as_str();
        let path = match text.strip_prefix("~/") {
            Some(rest) => readers.home?.root().join(rest),
            None => PathBuf::from(text),
        };
        let path = crate::prompt::imports::normalise(&path);
        let (dir, base) = (path.parent()?, path.file_name()?.to_str()?);
        let inside = rel_under(readers.project.root(), dir);
        let home = readers
            .home
            .and_then(|home| Some((home, rel_under(home.root(), dir)?)));
        let (reader, dir_rel, scope) = match (inside, home) {
            (Some(rel), _) => (readers.project, rel, Scope::Project),
            (None, _) if entry.scope != Scope::User => {
                self.outside(entry);
                return None;
            }
            (None, Some((home, rel))) => (home, rel, Scope::User),
            (None, None) => (
                readers.parent,
                rel_under(readers.parent.root(), dir)?,
                Scope::User,
            ),
        };
        Some(self.scan(reader, &dir_rel, base, scope, entry))
    }

    /// An entry leaving the workspace from a project config.
    fn outside(&mut self, entry: &Entry) {
        self.diagnostics.push(Diagnostic::warning(
            entry.config.clone(),
            format!(
                "`instructions` entry {} leaves the workspace: opencode reads what it matches, \
                 the preview never reads outside the workspace on a project file's word",
                entry.text
            ),
        ));
        self.not_loaded.push(NotLoaded {
            path: entry.text.clone(),
            scope: entry.scope,
            reason: NotLoadedReason::External,
        });
    }

    /// `pattern` scanned in `dir` of `reader`, as candidates.
    fn scan<'a>(
        &mut self,
        reader: &'a dyn Workspace,
        dir: &str,
        pattern: &str,
        scope: Scope,
        entry: &Entry,
    ) -> Vec<Candidate<'a>> {
        match glob::scan(reader, dir, pattern) {
            Ok(matches) => {
                if matches.cut {
                    self.diagnostics.push(Diagnostic::warning(
                        reader.display(dir),
                        format!(
                            "`instructions` entry {pattern}: the scan stopped at {} levels or {} \
                             entries",
                            limits::MAX_TREE_DEPTH,
                            limits::MAX_TREE_ENTRIES
                        ),
                    ));
                }
                matches
                    .files
                    .into_iter()
                    .map(|rel| Candidate { reader, rel, scope })
                    .collect()
            }
            Err(err) => {
                self.diagnostics.push(Diagnostic::warning(
                    entry.config.clone(),
                    format!(
                        "`instructions` entry {} is not a valid glob ({}): it matches nothing",
                        err.pattern, err.reason
                    ),
                ));
                Vec::new()
            }
        }
    }

    /// What reading `path` (workspace-relative) adds: for each directory
    /// from its directory up to the cwd `at` (exclusive), nearest first,
    /// the first instruction name that exists there, unless loaded before
    /// or `path` itself. Containment is opencode's string-prefix test.
    pub fn touch(
        &mut self,
        project: &dyn Workspace,
        at: &str,
        path: &str,
        switches: Switches,
        trusted: bool,
    ) -> Vec<Loaded> {
        let cwd = absolute(project, at).to_string_lossy().into_owned();
        let names = switches.names();
        let target = absolute(project, path);
        let mut added = Vec::new();
        let mut dir = parent(path).to_string();
        loop {
            let abs = absolute(project, &dir);
            if abs.as_os_str() == cwd.as_str() || !abs.to_string_lossy().starts_with(&cwd) {
                break;
            }
            if !abs.starts_with(&cwd) {
                self.diagnostics.push(Diagnostic::info(
                    path.to_string(),
                    format!(
                        "--touch: opencode counts {} as inside the cwd {} (its test compares \
                         the paths as strings), so its instruction file is read",
                        project.display(&dir),
                        if at.is_empty() { "." } else { at }
                    ),
                ));
            }
            let first = names
                .iter()
                .map(|name| join(&dir, name))
                .find(|rel| project.stat(rel).is_ok());
            if let Some(rel) = first
                && absolute(project, &rel) != target
            {
                let found = Candidate {
                    reader: project,
                    rel,
                    scope: Scope::Project,
                };
                if let Some(loaded) = self.read(&found, trusted) {
                    added.push(loaded);
                }
            }
            if dir.is_empty() {
                break;
            }
            dir = parent(&dir).to_string();
        }
        added
    }

    /// Reads one file, unless it was loaded before; `None` when it adds
    /// nothing (listed and said why).
    fn read(&mut self, file: &Candidate<'_>, trusted: bool) -> Option<Loaded> {
        let key = absolute(file.reader, &file.rel);
        if self.seen.contains(&key) {
            return None;
        }
        let shown = file.reader.display(&file.rel);
        let skip = |out: &mut Self, reason: NotLoadedReason| {
            out.not_loaded.push(NotLoaded {
                path: shown.clone(),
                scope: file.scope,
                reason,
            });
        };
        if file.scope.is_gated() && !trusted {
            skip(self, NotLoadedReason::Withheld);
            return None;
        }
        let read = match file.reader.read(&file.rel, limits::MAX_OPENCODE_FILE_BYTES) {
            Ok(read) => read,
            Err(WsError::Refused(why)) => {
                self.diagnostics.push(Diagnostic::warning(
                    shown.clone(),
                    format!(
                        "leaves the workspace ({why}): opencode reads it, the preview does not"
                    ),
                ));
                skip(self, NotLoadedReason::External);
                return None;
            }
            Err(err) => {
                let kind = file.reader.stat(&file.rel);
                let why = match kind {
                    Ok(EntryKind::Dir) => "a directory".to_string(),
                    _ => err.to_string(),
                };
                self.diagnostics.push(Diagnostic::warning(
                    shown.clone(),
                    format!("cannot be read ({why}): opencode sends nothing for it"),
                ));
                skip(self, NotLoadedReason::Unusable(why));
                return None;
            }
        };
        if read.is_truncated() {
            self.diagnostics.push(Diagnostic::warning(
                shown.clone(),
                format!(
                    "larger than {} bytes: skipped (opencode would send it whole)",
                    limits::MAX_OPENCODE_FILE_BYTES
                ),
            ));
            skip(self, NotLoadedReason::TooLarge { bytes: read.size });
            return None;
        }
        self.seen.push(key.clone());
        if read.bytes.is_empty() {
            self.diagnostics.push(Diagnostic::info(
                shown.clone(),
                "empty: opencode sends nothing for it",
            ));
            skip(self, NotLoadedReason::Blank);
            return None;
        }
        Some(Loaded {
            part: Part {
                path: shown,
                scope: file.scope,
                kind: PartKind::Instructions,
                imported_by: None,
                content: String::from_utf8_lossy(&read.bytes).into_owned(),
                cut: None,
            },
            absolute: key.to_string_lossy().into_owned(),
        })
    }
}

/// `path` relative to `root` with `/` separators, or `None` when outside
/// it.
fn rel_under(root: &Path, path: &Path) -> Option<String> {
    path.strip_prefix(root).ok().map(slashed)
}
