//! Gemini CLI's context files (SPEC §16.2): which files of the walk and of
//! `~/.gemini` load, in Gemini's order, with their imports inlined
//! ([`super::imports`]) and Gemini's transforms, as parts and as the exact
//! blocks Gemini sends.
//!
//! Choices the spec leaves open:
//! - Gemini keeps the first file seen per (device, inode); the workspace
//!   port has no inode, so the preview keeps the first per real path (links
//!   resolved), which tells the same files apart on every system without
//!   hard links.
//! - The walk's absolute paths are the workspace root's as given (the
//!   composition root hands a canonical root, which is what Gemini's
//!   `process.cwd()` gives).
//! - A context file name that leaves its directory's reader, or the
//!   workspace from a project directory (`../x.md`), is never read:
//!   `not_loaded` `external` and a warning (a deliberate difference).
//! - Something that is not a regular file under a context name (a
//!   directory, a FIFO) is not read and is reported; a file over
//!   [`limits::MAX_GEMINI_FILE_BYTES`] is skipped with a warning.
//! - In an untrusted workspace, the files of the walk are looked up (so
//!   they can be listed as withheld) and never opened; the user's load,
//!   but an import from them into the workspace is withheld too.
//! - A context file name leaving the workspace is warned about only when
//!   something is there (a lookup, never a read), so a `fileName` of
//!   `../x.md` does not warn once per directory for nothing.
//! - An external import warns once per importing file and is listed once
//!   in `not_loaded`; its warning says `external import of FILE, not read`
//!   (the typed reason of `not_loaded` has no room for the importer).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::gemini::imports::{Fetch, ImportEvent, ImportFiles, Inliner, Located};
use crate::prompt::agents::gemini::settings::Effective;
use crate::prompt::agents::gemini::spec::DOT_GEMINI;
use crate::prompt::imports::normalise;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Part, PartKind};
use crate::prompt::text::js_trim;
use crate::prompt::walk::{Scope, WalkDir, walk};
use crate::workspace::{Workspace, WsError, join, slashed};

/// The readers one run reads context files through.
pub struct Readers<'a> {
    /// The workspace: confined.
    pub project: &'a dyn Workspace,
    /// The directories above it (rooted at `/`), links followed.
    pub parent: &'a dyn Workspace,
    /// Gemini's home (`$GEMINI_CLI_HOME` or the home directory, holding
    /// `.gemini`), links followed; `None` without one.
    pub home: Option<&'a dyn Workspace>,
}

/// One context file found (not yet read).
#[derive(Clone)]
struct Found<'a> {
    reader: &'a dyn Workspace,
    rel: String,
    absolute: PathBuf,
    scope: Scope,
}

/// What Gemini loads from the context files of one run.
#[derive(Debug, Default)]
pub struct Context {
    /// The user's files (`~/.gemini`), in Gemini's order.
    pub user: Vec<Loaded>,
    /// The walk's files, in Gemini's order.
    pub project: Vec<Loaded>,
    /// Files considered and not loaded.
    pub not_loaded: Vec<NotLoaded>,
    /// What was said.
    pub diagnostics: Vec<Diagnostic>,
    /// The real paths already loaded (what `--touch` does not add again).
    seen: Vec<PathBuf>,
}

/// One loaded context file: its part and its absolute path for Gemini's
/// block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The part (its content is the block's body).
    pub part: Part,
    /// The absolute path Gemini names in its markers.
    pub absolute: String,
}

impl Loaded {
    /// Gemini's block for this file.
    pub fn block(&self) -> String {
        format!(
            "--- Context from: {abs} ---\n{}\n--- End of Context from: {abs} ---",
            self.part.content,
            abs = self.absolute
        )
    }
}

/// Gemini's blocks for `files`, joined by a blank line.
pub fn blocks(files: &[Loaded]) -> String {
    files
        .iter()
        .map(Loaded::block)
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The chain of `start` (workspace-relative): from the nearest directory
/// holding a marker (cwd included) down to it; the start alone without
/// one. Also returns the root's marker.
pub fn chain<'a>(
    readers: &Readers<'a>,
    start: &str,
    markers: &[String],
) -> Result<(Vec<WalkDir<'a>>, Option<String>), crate::prompt::walk::InvalidAt> {
    let mut dirs = walk(Some(readers.parent), readers.project, start)?;
    let found = dirs.iter().enumerate().rev().find_map(|(i, dir)| {
        markers
            .iter()
            .find(|marker| is_plain(marker) && dir.reader.stat(&dir.rel(marker)).is_ok())
            .map(|marker| (i, marker.clone()))
    });
    match found {
        Some((i, marker)) => Ok((dirs.split_off(i), Some(marker))),
        None => Ok((dirs.split_off(dirs.len() - 1), None)),
    }
}

/// True for a name without `..` that is not absolute.
pub(super) fn is_plain(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('/') && name.split('/').all(|part| part != "..")
}

/// The reader-relative path of `name` joined to `dir` the way Node's
/// `path.join` does, or `None` when it leaves the reader's root.
fn joined(dir: &str, name: &str) -> Option<String> {
    let path = normalise(Path::new(&join(dir, name.trim_start_matches('/'))));
    path.to_str()?;
    let text = slashed(&path);
    (!text.starts_with("..") && !text.is_empty()).then_some(text)
}

/// The absolute path `rel` names below `reader`'s root.
fn absolute(reader: &dyn Workspace, rel: &str) -> PathBuf {
    crate::prompt::walk::absolute(reader, rel)
}

/// `path` relative to `root` with `/` between names on every platform, or
/// `None` when outside it (or not UTF-8).
pub(super) fn rel_under(root: &Path, path: &Path) -> Option<String> {
    let rest = path.strip_prefix(root).ok()?;
    rest.to_str().map(|_| slashed(rest))
}

/// The files Gemini loads from `starts` and the user's `.gemini`, read
/// (unless `trusted` is false: then the walk's files are withheld).
pub fn load(
    readers: &Readers<'_>,
    settings: &Effective,
    starts: &[Vec<WalkDir<'_>>],
    trusted: bool,
) -> Context {
    let mut context = Context::default();
    let files = Files::new(readers, trusted);
    let mut inliner = Inliner::default();

    // The user's files, in list order.
    if let Some(home) = readers.home {
        for name in &settings.names {
            let Some(rel) = joined(DOT_GEMINI, name) else {
                continue;
            };
            let found = Found {
                reader: home,
                absolute: absolute(home, &rel),
                rel,
                scope: Scope::User,
            };
            if let Some(loaded) = context.read_one(&files, &mut inliner, &found) {
                context.user.push(loaded);
            }
        }
    }

    // The walk's files: cwd upward, names in list order, first seen kept,
    // then sorted by absolute path in UTF-16 code units.
    let mut found: Vec<Found<'_>> = Vec::new();
    let mut keys: Vec<PathBuf> = Vec::new();
    for chain in starts {
        for dir in chain.iter().rev() {
            for name in &settings.names {
                if let Some(file) = context.candidate(readers, dir, name)
                    && let Some(key) = context.real(&file)
                    && !keys.contains(&key)
                {
                    keys.push(key);
                    found.push(file);
                }
            }
        }
    }
    found.sort_by(|a, b| {
        let (a, b) = (a.absolute.to_string_lossy(), b.absolute.to_string_lossy());
        a.encode_utf16().cmp(b.encode_utf16())
    });
    for file in found {
        if !trusted && (file.scope.is_gated() || file.scope == Scope::Parent) {
            context.not_loaded.push(NotLoaded {
                path: file.reader.display(&file.rel),
                scope: file.scope,
                reason: NotLoadedReason::Withheld,
            });
            continue;
        }
        if let Some(loaded) = context.read_one(&files, &mut inliner, &file) {
            context.project.push(loaded);
        }
    }
    context.report_imports(readers.project.root(), inliner.events);
    context
}

impl Context {
    /// The context file `name` of `dir`, when its name stays where the
    /// preview reads (else reported as external).
    fn candidate<'a>(
        &mut self,
        readers: &Readers<'a>,
        dir: &WalkDir<'a>,
        name: &str,
    ) -> Option<Found<'a>> {
        let leaves = |rel: &Option<String>| match rel {
            None => true,
            // A parent directory's name must not wander into other places.
            Some(_) if dir.scope == Scope::Parent => !is_plain(name),
            Some(_) => false,
        };
        let rel = joined(&dir.dir, name);
        if leaves(&rel) {
            let shown = normalise(&dir.absolute("").join(name.trim_start_matches('/')));
            let shown = shown.display().to_string();
            if !self.not_loaded.iter().any(|n| n.path == shown)
                && readers.parent.stat(shown.trim_start_matches('/')).is_ok()
            {
                self.diagnostics.push(Diagnostic::warning(
                    shown.clone(),
                    format!(
                        "context.fileName {name:?} leaves the workspace: Gemini CLI reads it, \
                         the preview never reads outside the workspace"
                    ),
                ));
                self.not_loaded.push(NotLoaded {
                    path: shown,
                    scope: dir.scope,
                    reason: NotLoadedReason::External,
                });
            }
            return None;
        }
        let rel = rel?;
        Some(Found {
            reader: dir.reader,
            absolute: absolute(dir.reader, &rel),
            rel,
            scope: dir.scope,
        })
    }

    /// The real path of `file` when it exists; a link leaving the
    /// workspace or a file that cannot be resolved is reported and gives
    /// `None`.
    fn real(&mut self, file: &Found<'_>) -> Option<PathBuf> {
        match file.reader.real_path(&file.rel) {
            Ok(path) => match file.reader.stat(&file.rel) {
                Ok(_) => Some(path),
                Err(_) => None,
            },
            Err(WsError::NotFound) => None,
            Err(WsError::Refused(why)) => {
                let shown = file.reader.display(&file.rel);
                self.diagnostics.push(Diagnostic::warning(
                    shown.clone(),
                    format!(
                        "a link leaving the workspace ({why}): Gemini CLI follows it, the preview \
                         never reads outside the workspace"
                    ),
                ));
                self.not_loaded.push(NotLoaded {
                    path: shown,
                    scope: file.scope,
                    reason: NotLoadedReason::External,
                });
                None
            }
            Err(err) => {
                self.unusable(file, err.to_string());
                None
            }
        }
    }

    /// Reports `file` as unusable for `why`.
    fn unusable(&mut self, file: &Found<'_>, why: String) {
        let shown = file.reader.display(&file.rel);
        self.diagnostics.push(Diagnostic::warning(
            shown.clone(),
            format!("cannot be used: {why}"),
        ));
        self.not_loaded.push(NotLoaded {
            path: shown,
            scope: file.scope,
            reason: NotLoadedReason::Unusable(why),
        });
    }

    /// Reads one context file, inlines its imports and applies Gemini's
    /// transforms; `None` (reported) when it adds nothing.
    fn read_one(
        &mut self,
        files: &Files<'_>,
        inliner: &mut Inliner,
        file: &Found<'_>,
    ) -> Option<Loaded> {
        let key = match file.reader.real_path(&file.rel) {
            Ok(key) => key,
            Err(WsError::NotFound) => return None,
            Err(_) => {
                self.real(file);
                return None;
            }
        };
        if self.seen.contains(&key) {
            return None;
        }
        let read = match file
            .reader
            .read(&file.rel, limits::MAX_GEMINI_FILE_BYTES + 1)
        {
            Ok(read) => read,
            Err(WsError::NotFound) => return None,
            Err(err) => {
                self.unusable(file, err.to_string());
                return None;
            }
        };
        let shown = file.reader.display(&file.rel);
        if read.is_truncated() {
            self.diagnostics.push(Diagnostic::warning(
                shown.clone(),
                format!(
                    "larger than {} bytes: skipped (Gemini CLI would send it whole)",
                    limits::MAX_GEMINI_FILE_BYTES
                ),
            ));
            self.not_loaded.push(NotLoaded {
                path: shown,
                scope: file.scope,
                reason: NotLoadedReason::TooLarge { bytes: read.size },
            });
            return None;
        }
        self.seen.push(key);
        let text = String::from_utf8_lossy(&read.bytes);
        let user = file.scope == Scope::User;
        let inlined = inliner.process(files, &text, &file.absolute, user);
        let trimmed = js_trim(&inlined);
        let content = if user {
            squeeze_newlines(trimmed)
        } else {
            trimmed.to_string()
        };
        if content.is_empty() {
            self.diagnostics.push(Diagnostic::info(
                shown.clone(),
                "empty or whitespace only: Gemini CLI sends nothing for it",
            ));
            self.not_loaded.push(NotLoaded {
                path: shown,
                scope: file.scope,
                reason: NotLoadedReason::Blank,
            });
            return None;
        }
        Some(Loaded {
            part: Part {
                path: shown,
                scope: file.scope,
                kind: PartKind::Instructions,
                imported_by: None,
                content,
                cut: None,
            },
            absolute: file.absolute.display().to_string(),
        })
    }

    /// What the imports did, as diagnostics and `not_loaded` entries (each
    /// once; paths inside the workspace `root` relative to it). A cycle, a
    /// token too deep and an inlined file are in the text already, Gemini's
    /// way; `lint` words them.
    fn report_imports(&mut self, root: &Path, events: Vec<Located>) {
        let mut capped = 0_usize;
        let mut first_capped = None;
        let mut seen = std::collections::HashSet::new();
        let unique: Vec<ImportEvent> = events
            .into_iter()
            .map(|located| located.event)
            .filter(|event| seen.insert(event.clone()))
            .collect();
        let shown = |path: &Path| match rel_under(root, path) {
            Some(rel) => rel,
            None => path.display().to_string(),
        };
        for event in unique {
            match event {
                ImportEvent::Missing { path } => self.diagnostics.push(Diagnostic::info(
                    shown(&path),
                    "import not found: Gemini CLI writes its failure into the text",
                )),
                ImportEvent::Directory { path } => self.diagnostics.push(Diagnostic::info(
                    shown(&path),
                    "import of a directory: Gemini CLI writes its failure into the text",
                )),
                ImportEvent::Traversal { written } => self.diagnostics.push(Diagnostic::new(
                    crate::diagnostic::Severity::Info,
                    None,
                    format!(
                        "import {written} leaves its import root: Gemini CLI refuses it and \
                         writes its failure into the text"
                    ),
                )),
                ImportEvent::Outside { path, from } => {
                    let shown_path = shown(&path);
                    self.diagnostics.push(Diagnostic::warning(
                        shown_path.clone(),
                        format!(
                            "external import of {}, not read: Gemini CLI inlines it, the preview \
                             never reads outside the workspace",
                            shown(&from)
                        ),
                    ));
                    let listed = self.not_loaded.iter().any(|entry| {
                        entry.path == shown_path && entry.reason == NotLoadedReason::External
                    });
                    if !listed {
                        self.not_loaded.push(NotLoaded {
                            path: shown_path,
                            scope: Scope::Project,
                            reason: NotLoadedReason::External,
                        });
                    }
                }
                ImportEvent::Unread { path, why } => {
                    let shown = shown(&path);
                    self.diagnostics.push(Diagnostic::warning(
                        shown.clone(),
                        format!("import not read: {why}"),
                    ));
                    self.not_loaded.push(NotLoaded {
                        path: shown,
                        scope: Scope::Project,
                        reason: NotLoadedReason::Unusable(why),
                    });
                }
                ImportEvent::Withheld { path } => self.not_loaded.push(NotLoaded {
                    path: shown(&path),
                    scope: Scope::Project,
                    reason: NotLoadedReason::Withheld,
                }),
                ImportEvent::Cycle { .. }
                | ImportEvent::TooDeep { .. }
                | ImportEvent::Inlined { .. } => {}
                ImportEvent::Capped { path } => {
                    capped += 1;
                    if capped == 1 {
                        self.not_loaded.push(NotLoaded {
                            path: shown(&path),
                            scope: Scope::Project,
                            reason: NotLoadedReason::Capped,
                        });
                        first_capped = Some(shown(&path));
                    }
                }
            }
        }
        if let Some(first) = first_capped {
            self.diagnostics.push(Diagnostic::warning(
                first,
                format!(
                    "more than {} imports or {} imported bytes: {capped} more imports are not \
                     read, this one first (ours: a fan-out guard)",
                    limits::MAX_IMPORTS,
                    limits::MAX_IMPORTED_BYTES
                ),
            ));
        }
    }

    /// What reading `path` (workspace-relative) adds (SPEC §16.2, lazy):
    /// the context files not yet loaded from its directory up to the start
    /// directory holding it, top-down, each directory's names in list
    /// order. Files it adds count as loaded for later paths.
    pub fn touch(
        &mut self,
        readers: &Readers<'_>,
        settings: &Effective,
        starts: &[String],
        path: &str,
    ) -> Vec<Part> {
        let path = path.trim_matches('/');
        let dir = match readers.project.stat(path) {
            Ok(crate::workspace::EntryKind::Dir) => path,
            _ => crate::workspace::parent(path),
        };
        let under =
            |start: &str| start.is_empty() || dir == start || dir.starts_with(&format!("{start}/"));
        let Some(start) = starts.iter().filter(|s| under(s)).max_by_key(|s| s.len()) else {
            return Vec::new();
        };
        let mut dirs = vec![dir.to_string()];
        let mut at = dir;
        while at != start.as_str() && !at.is_empty() {
            at = crate::workspace::parent(at);
            dirs.push(at.to_string());
        }
        let files = Files::new(readers, true);
        let mut inliner = Inliner::default();
        let mut parts = Vec::new();
        for dir in dirs.iter().rev() {
            let walk_dir = WalkDir {
                reader: readers.project,
                dir: dir.clone(),
                scope: Scope::Project,
            };
            for name in &settings.names {
                let Some(file) = self.candidate(readers, &walk_dir, name) else {
                    continue;
                };
                if let Some(loaded) = self.read_one(&files, &mut inliner, &file) {
                    parts.push(loaded);
                }
            }
        }
        self.report_imports(readers.project.root(), inliner.events);
        parts.into_iter().map(|loaded| loaded.part).collect()
    }
}

/// Every run of three or more `\n` made `\n\n` (Gemini's pass over its
/// system prompt, which holds the user's files).
pub fn squeeze_newlines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = 0;
    for c in text.chars() {
        if c == '\n' {
            run += 1;
            if run <= 2 {
                out.push(c);
            }
        } else {
            run = 0;
            out.push(c);
        }
    }
    out
}

/// The files imports read, through the run's readers, each target read
/// once per run.
struct Files<'a> {
    readers: &'a Readers<'a>,
    workspace: PathBuf,
    home: Option<PathBuf>,
    trusted: bool,
    git: RefCell<HashMap<PathBuf, bool>>,
    fetched: RefCell<HashMap<(PathBuf, bool), Fetch>>,
}

impl<'a> Files<'a> {
    fn new(readers: &'a Readers<'a>, trusted: bool) -> Self {
        Self {
            readers,
            trusted,
            workspace: readers.project.root().to_path_buf(),
            home: readers.home.map(|home| home.root().to_path_buf()),
            git: RefCell::new(HashMap::new()),
            fetched: RefCell::new(HashMap::new()),
        }
    }

    /// The reader and relative path for `path` (absolute): the workspace's
    /// inside it, else the parent's.
    fn locate(&self, path: &Path) -> (&'a dyn Workspace, Option<String>) {
        match rel_under(&self.workspace, path) {
            Some(rel) => (self.readers.project, Some(rel)),
            None => (
                self.readers.parent,
                rel_under(self.readers.parent.root(), path),
            ),
        }
    }

    fn has_git(&self, dir: &Path) -> bool {
        if let Some(known) = self.git.borrow().get(dir) {
            return *known;
        }
        let (reader, rel) = self.locate(dir);
        let found = rel.is_some_and(|rel| reader.stat(&join(&rel, ".git")).is_ok());
        self.git.borrow_mut().insert(dir.to_path_buf(), found);
        found
    }

    fn read(&self, path: &Path, user: bool) -> Fetch {
        let home_rel = self.home.as_deref().and_then(|home| rel_under(home, path));
        let (reader, rel) = match (rel_under(&self.workspace, path), home_rel) {
            (Some(_), _) if !self.trusted => return Fetch::Withheld,
            (Some(rel), _) => (self.readers.project, rel),
            (None, Some(rel)) if user => match self.readers.home {
                Some(home) => (home, rel),
                None => return Fetch::Outside,
            },
            (None, _) if user => match rel_under(self.readers.parent.root(), path) {
                Some(rel) => (self.readers.parent, rel),
                None => return Fetch::Outside,
            },
            (None, _) => return Fetch::Outside,
        };
        fetch_from(reader, &rel)
    }
}

/// The import target `rel` of `reader`, read as Gemini reads it (up to
/// [`limits::MAX_GEMINI_FILE_BYTES`]), or what stands in its place.
pub(super) fn fetch_from(reader: &dyn Workspace, rel: &str) -> Fetch {
    match reader.read(rel, limits::MAX_GEMINI_FILE_BYTES + 1) {
        Ok(read) if read.is_truncated() => Fetch::Unread(format!(
            "larger than {} bytes",
            limits::MAX_GEMINI_FILE_BYTES
        )),
        Ok(read) => Fetch::Text(String::from_utf8_lossy(&read.bytes).into_owned()),
        Err(WsError::NotFound) => Fetch::Missing,
        Err(WsError::NotRegular("directory") | WsError::NotADirectory) => match reader.stat(rel) {
            Ok(crate::workspace::EntryKind::Dir) => Fetch::Directory,
            _ => Fetch::Missing,
        },
        Err(WsError::Refused(_)) => Fetch::Outside,
        Err(err) => Fetch::Unread(err.to_string()),
    }
}

impl ImportFiles for Files<'_> {
    fn import_root(&self, dir: &Path) -> PathBuf {
        dir.ancestors()
            .find(|ancestor| self.has_git(ancestor))
            .unwrap_or(dir)
            .to_path_buf()
    }

    fn fetch(&self, path: &Path, user: bool) -> Fetch {
        let key = (path.to_path_buf(), user);
        if let Some(known) = self.fetched.borrow().get(&key) {
            return known.clone();
        }
        let fetched = self.read(path, user);
        self.fetched.borrow_mut().insert(key, fetched.clone());
        fetched
    }
}
