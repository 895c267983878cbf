//! GitHub Copilot CLI's repository-level instruction files (SPEC §17.2):
//! which directories and names it reads, in its order, each read raw with
//! its imports inlined ([`super::imports`]), and the same bytes sent once.
//!
//! Rules (each pinned by a recorded case in `tests/oracle/cases/copilot/`):
//! - The root is the nearest directory from the cwd up holding `.git`; no
//!   root: the cwd alone.
//! - Order: `~/.copilot/copilot-instructions.md`; the root's, then the
//!   cwd's `.github/copilot-instructions.md`; the root's, then the cwd's
//!   `AGENTS.md`, `CLAUDE.md`, `GEMINI.md`; then each directory strictly
//!   between them from the cwd's parent upward, all four names each.
//! - Names match case-insensitively; the exact name beats a variant.
//! - A file whose bytes equal one already sent is dropped.
//! - `GEMINI.md` is sent as written: its `@` tokens are not imports.
//!
//! Choices the spec leaves open:
//! - Among several case variants and no exact name, the first by name
//!   (bytewise) is read; the others are listed as its variants.
//! - The `.github` directory itself is matched by its exact name.
//! - In an untrusted workspace the project's and the parent directories'
//!   files are looked up (to be listed `withheld`) and never opened; the
//!   user's file loads.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::copilot::imports::{Fetch, ImportFiles, ImportRecord, Inliner};
use crate::prompt::agents::copilot::spec::COPILOT_INSTRUCTIONS_MD;
use crate::prompt::agents::files::{AGENTS_MD, CLAUDE_MD};
use crate::prompt::agents::gemini::GEMINI_MD;
use crate::prompt::imports::normalise;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Part, PartKind};
use crate::prompt::walk::{Scope, WalkDir};
use crate::workspace::{EntryKind, Workspace, WsError, base_name, join, parent, slashed};

/// The file names Copilot reads beside its own, in its order.
pub const SHARED_NAMES: [&str; 3] = [AGENTS_MD, CLAUDE_MD, GEMINI_MD];

/// Names other agents read that Copilot never does (listed when present).
pub const NOT_READ: [&str; 4] = [
    "CLAUDE.local.md",
    ".claude/CLAUDE.md",
    ".github/AGENTS.md",
    "AGENTS.override.md",
];

/// The name of the user's instruction file in `~/.copilot`.
pub const USER_INSTRUCTIONS_MD: &str = "copilot-instructions.md";

/// The readers one run reads through.
#[derive(Clone, Copy)]
pub struct Readers<'a> {
    /// The workspace: confined, trust-gated.
    pub project: &'a dyn Workspace,
    /// The directories above it (rooted at `/`), links followed.
    pub parent: &'a dyn Workspace,
    /// `~/.copilot`, links followed; `None` without a home.
    pub home: Option<&'a dyn Workspace>,
}

/// The directories Copilot reads: the walk's cwd and root.
pub struct Dirs<'a> {
    /// The walk from the top down to the cwd.
    pub walk: Vec<WalkDir<'a>>,
    /// The index of the root in `walk`, when a directory holds `.git`.
    pub root: Option<usize>,
}

impl<'a> Dirs<'a> {
    /// Finds the root of `walk` (the nearest directory holding `.git`).
    pub fn new(walk: Vec<WalkDir<'a>>) -> Self {
        let root = walk
            .iter()
            .rposition(|dir| dir.reader.stat(&dir.rel(".git")).is_ok());
        Self { walk, root }
    }

    /// The cwd.
    pub fn cwd(&self) -> &WalkDir<'a> {
        // The walk always holds the cwd: it ends there.
        self.walk.last().expect("the walk ends at the cwd")
    }

    /// The root, or the cwd without one.
    pub fn root(&self) -> &WalkDir<'a> {
        &self.walk[self.root.unwrap_or(self.walk.len() - 1)]
    }

    /// The root then the cwd (once when they are one), for the files read
    /// at both.
    pub fn root_and_cwd(&self) -> Vec<&WalkDir<'a>> {
        let last = self.walk.len() - 1;
        match self.root {
            Some(root) if root != last => vec![&self.walk[root], &self.walk[last]],
            _ => vec![&self.walk[last]],
        }
    }

    /// The directories strictly between the cwd and the root, from the
    /// cwd's parent upward.
    pub fn between(&self) -> impl Iterator<Item = &WalkDir<'a>> {
        let last = self.walk.len() - 1;
        let root = self.root.unwrap_or(last);
        self.walk[(root + 1).min(last)..last].iter().rev()
    }
}

/// One repository-level or user file sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// Its part (content: inside the wrapper, imports inlined).
    pub part: Part,
    /// Where it lies, absolute (links not resolved).
    pub absolute: PathBuf,
    /// What its imports did.
    pub imports: Vec<ImportRecord>,
}

/// What reading the instruction files gave.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The files sent, in Copilot's order.
    pub sent: Vec<Sent>,
    /// Files considered and not sent.
    pub not_loaded: Vec<NotLoaded>,
    /// What was said.
    pub diagnostics: Vec<Diagnostic>,
}

/// A file found (not yet read).
struct Found<'a> {
    reader: &'a dyn Workspace,
    rel: String,
    scope: Scope,
    imports: bool,
}

/// Finds and reads every repository-level file of `dirs` and the user's
/// file, in Copilot's order.
pub fn load(readers: Readers<'_>, dirs: &Dirs<'_>, files: &Files<'_>, trusted: bool) -> Loaded {
    let mut loaded = Loaded::default();
    let mut found: Vec<Found<'_>> = Vec::new();
    if let Some(home) = readers.home
        && home.stat(USER_INSTRUCTIONS_MD).is_ok()
    {
        found.push(Found {
            reader: home,
            rel: USER_INSTRUCTIONS_MD.to_string(),
            scope: Scope::User,
            imports: true,
        });
    }
    for dir in dirs.root_and_cwd() {
        found.extend(loaded.named(dir, COPILOT_INSTRUCTIONS_MD));
    }
    for dir in dirs.root_and_cwd() {
        for name in SHARED_NAMES {
            found.extend(loaded.named(dir, name));
        }
    }
    let between: Vec<&WalkDir<'_>> = dirs.between().collect();
    found.extend(loaded.all_names(&between));
    let mut looked: Vec<&WalkDir<'_>> = dirs.root_and_cwd();
    looked.extend(between);
    for dir in looked {
        for name in NOT_READ {
            if dir.reader.stat(&dir.rel(name)).is_ok() {
                loaded.not_loaded.push(NotLoaded {
                    path: dir.reader.display(&dir.rel(name)),
                    scope: dir.scope,
                    reason: NotLoadedReason::NotReadBy {
                        agent: "GitHub Copilot CLI",
                    },
                });
            }
        }
    }
    loaded.send(found, files, trusted, true);
    loaded
}

/// Reads the four names of each of `dirs` in order, as Copilot does for a
/// viewed file's directories (SPEC §17.6): no file dropped for its bytes.
pub fn load_dirs(dirs: &[&WalkDir<'_>], files: &Files<'_>) -> Loaded {
    let mut loaded = Loaded::default();
    let found = loaded.all_names(dirs);
    loaded.send(found, files, true, false);
    loaded
}

impl Loaded {
    /// The files of the four names in each of `dirs`, in order.
    fn all_names<'a>(&mut self, dirs: &[&WalkDir<'a>]) -> Vec<Found<'a>> {
        let mut found = Vec::new();
        for dir in dirs {
            for name in std::iter::once(COPILOT_INSTRUCTIONS_MD).chain(SHARED_NAMES) {
                found.extend(self.named(dir, name));
            }
        }
        found
    }

    /// Reads `found` in order (withheld when not `trusted`, except the
    /// user's), each file's imports inlined; with `dedupe`, a file whose
    /// bytes were sent already is dropped.
    fn send(&mut self, found: Vec<Found<'_>>, files: &Files<'_>, trusted: bool, dedupe: bool) {
        let mut inliner = Inliner::new(files);
        let mut sent_bytes: Vec<(Vec<u8>, String)> = Vec::new();
        for file in found {
            let shown = file.reader.display(&file.rel);
            if !trusted && file.scope != Scope::User {
                self.not_loaded.push(NotLoaded {
                    path: shown,
                    scope: file.scope,
                    reason: NotLoadedReason::Withheld,
                });
                continue;
            }
            let Some(bytes) = self.read(&file, &shown) else {
                continue;
            };
            let duplicate = sent_bytes.iter().find(|(sent, _)| dedupe && *sent == bytes);
            if let Some((_, of)) = duplicate {
                self.not_loaded.push(NotLoaded {
                    path: shown,
                    scope: file.scope,
                    reason: NotLoadedReason::DuplicateOf { of: of.clone() },
                });
                continue;
            }
            let text = String::from_utf8_lossy(&bytes).into_owned();
            sent_bytes.push((bytes, shown.clone()));
            let real = file
                .reader
                .real_path(&file.rel)
                .unwrap_or_else(|_| crate::prompt::walk::absolute(file.reader, &file.rel));
            let (content, imports) = if file.imports {
                let inlined = inliner.inline(&text, &real);
                (inlined.text, inlined.imports)
            } else {
                (text, Vec::new())
            };
            self.sent.push(Sent {
                part: Part {
                    path: shown,
                    scope: file.scope,
                    kind: PartKind::Instructions,
                    imported_by: None,
                    content,
                    cut: None,
                },
                absolute: crate::prompt::walk::absolute(file.reader, &file.rel),
                imports,
            });
        }
    }

    /// The file `name` of `dir`, matched case-insensitively (the exact
    /// name first); variants not read are listed.
    fn named<'a>(&mut self, dir: &WalkDir<'a>, name: &str) -> Option<Found<'a>> {
        let rel = dir.rel(name);
        let (folder, wanted) = (parent(&rel), base_name(&rel));
        let entries = match dir.reader.list(folder) {
            Ok(entries) => entries,
            Err(_) => return None,
        };
        let is_file = |entry: &crate::workspace::DirEntry| {
            matches!(entry.kind, EntryKind::File | EntryKind::Symlink)
        };
        let matching: Vec<&str> = entries
            .iter()
            .filter(|entry| is_file(entry) && entry.name.eq_ignore_ascii_case(wanted))
            .map(|entry| entry.name.as_str())
            .collect();
        let chosen = matching
            .iter()
            .find(|found| **found == wanted)
            .or_else(|| matching.first())?;
        let chosen_rel = join(folder, chosen);
        for other in matching.iter().filter(|other| *other != chosen) {
            self.not_loaded.push(NotLoaded {
                path: dir.reader.display(&join(folder, other)),
                scope: dir.scope,
                reason: NotLoadedReason::CaseVariant {
                    of: dir.reader.display(&chosen_rel),
                },
            });
        }
        Some(Found {
            reader: dir.reader,
            rel: chosen_rel,
            scope: dir.scope,
            imports: !name.eq_ignore_ascii_case(GEMINI_MD),
        })
    }

    /// The bytes of `file`, or `None` (reported) when it cannot be sent.
    fn read(&mut self, file: &Found<'_>, shown: &str) -> Option<Vec<u8>> {
        let cap = limits::MAX_COPILOT_FILE_BYTES;
        let reason = match file.reader.read(&file.rel, cap + 1) {
            Ok(read) if read.is_truncated() => {
                self.diagnostics.push(Diagnostic::warning(
                    shown.to_string(),
                    format!("larger than {cap} bytes: skipped (GitHub Copilot CLI sends it whole)"),
                ));
                NotLoadedReason::TooLarge { bytes: read.size }
            }
            Ok(read) => return Some(read.bytes),
            Err(WsError::NotFound) => return None,
            Err(WsError::Refused(why)) => {
                self.diagnostics.push(Diagnostic::warning(
                    shown.to_string(),
                    format!(
                        "a link leaving the workspace ({why}): GitHub Copilot CLI may follow it, \
                         the preview never reads outside the workspace"
                    ),
                ));
                NotLoadedReason::External
            }
            Err(err) => {
                let why = err.to_string();
                self.diagnostics.push(Diagnostic::warning(
                    shown.to_string(),
                    format!("cannot be used: {why}"),
                ));
                NotLoadedReason::Unusable(why)
            }
        };
        self.not_loaded.push(NotLoaded {
            path: shown.to_string(),
            scope: file.scope,
            reason,
        });
        None
    }
}

/// The files imports read, through the run's readers, each target fetched
/// once per run: inside the workspace through its reader, the user's
/// through `~/.copilot`'s; a target Copilot would read elsewhere inside
/// its root is never read ([`Fetch::External`]).
pub struct Files<'a> {
    readers: Readers<'a>,
    workspace: PathBuf,
    /// Copilot's root (or the cwd without one), absolute.
    root: PathBuf,
    trusted: bool,
    fetched: RefCell<HashMap<PathBuf, Fetch>>,
}

impl<'a> Files<'a> {
    /// The files of one run whose root (or cwd) is `root`.
    pub fn new(readers: Readers<'a>, root: PathBuf, trusted: bool) -> Self {
        Self {
            workspace: readers.project.root().to_path_buf(),
            readers,
            root,
            trusted,
            fetched: RefCell::new(HashMap::new()),
        }
    }

    fn read(&self, path: &Path) -> Fetch {
        let under = |base: &Path| {
            // Workspace-relative, with `/` on every platform.
            path.strip_prefix(base)
                .ok()
                .filter(|rest| rest.to_str().is_some())
                .map(slashed)
        };
        if let Some(home) = self.readers.home
            && let Some(rel) = under(home.root())
        {
            return read_through(home, &rel);
        }
        if !path.starts_with(&self.root) {
            return Fetch::Absent;
        }
        let Some(rel) = under(&self.workspace) else {
            // Inside Copilot's root, above the workspace: looked up only.
            return self.outside(path);
        };
        if !self.trusted {
            return match self.readers.project.stat(&rel) {
                Ok(EntryKind::File) => Fetch::Withheld,
                _ => Fetch::Absent,
            };
        }
        match read_through(self.readers.project, &rel) {
            // A link out of the workspace.
            Fetch::External => self.outside(path),
            Fetch::Text { real, .. } if !real.starts_with(&self.root) => Fetch::Absent,
            other => other,
        }
    }
}

impl Files<'_> {
    /// A target outside the workspace, looked up and never read:
    /// [`Fetch::External`] when it is a file whose real path stays inside
    /// Copilot's root (Copilot reads it), else [`Fetch::Absent`].
    fn outside(&self, path: &Path) -> Fetch {
        let Some(rel) = path.to_str().map(|p| p.trim_start_matches('/')) else {
            return Fetch::Absent;
        };
        let parent = self.readers.parent;
        match (parent.real_path(rel), parent.stat(rel)) {
            (Ok(real), Ok(EntryKind::File)) if real.starts_with(&self.root) => Fetch::External,
            _ => Fetch::Absent,
        }
    }
}

/// Reads `rel` through `reader` for an import.
fn read_through(reader: &dyn Workspace, rel: &str) -> Fetch {
    let cap = limits::MAX_COPILOT_FILE_BYTES;
    match reader.read(rel, cap + 1) {
        Ok(read) if read.is_truncated() => Fetch::Unread(format!("larger than {cap} bytes")),
        Ok(read) => Fetch::Text {
            real: reader
                .real_path(rel)
                .unwrap_or_else(|_| crate::prompt::walk::absolute(reader, rel)),
            binary: read.bytes.contains(&0) || std::str::from_utf8(&read.bytes).is_err(),
            text: String::from_utf8_lossy(&read.bytes).into_owned(),
        },
        Err(WsError::Refused(_)) => Fetch::External,
        Err(WsError::NotFound | WsError::NotRegular(_) | WsError::NotADirectory) => Fetch::Absent,
        Err(WsError::Unresolvable(_)) => Fetch::Absent,
        Err(err) => Fetch::Unread(err.to_string()),
    }
}

impl ImportFiles for Files<'_> {
    fn fetch(&self, path: &Path) -> Fetch {
        let path = normalise(path);
        if let Some(known) = self.fetched.borrow().get(&path) {
            return known.clone();
        }
        let fetched = self.read(&path);
        self.fetched.borrow_mut().insert(path, fetched.clone());
        fetched
    }
}
