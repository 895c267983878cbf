//! Listing a search directory into the files it offers for names, under
//! its layout, and the one bounded walk of a directory tree.

use std::collections::HashSet;
use std::path::PathBuf;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::tiers::dir::{Layout, SKILL_FILE, SearchDir, Words};
use crate::prompt::turn0::ReadFault;
use crate::workspace::{DirEntry, EntryKind, Workspace, WsError, join};

/// A file a directory offers for a name, before it is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The name it offers.
    pub name: String,
    /// Its path relative to the directory's reader.
    pub rel: String,
    /// What the listing said it is; `None` when it was not listed but
    /// looked up by name.
    pub kind: Option<EntryKind>,
}

/// One event of a directory listing, in listing order.
#[derive(Debug)]
pub(crate) enum DirEvent {
    /// A file to consider for its name.
    File(Listed),
    /// Something reported and skipped (a bare `.md`, a name that is not
    /// UTF-8, a skill directory without its file, a subdirectory).
    Note(Diagnostic),
}

/// Where a listing's events go, in listing order.
pub(crate) trait Sink {
    /// Told, before any event, how many entries the directory itself
    /// holds (at most that many files of a flat or skills directory), so
    /// a sink that keeps them can make room once.
    fn expect(&mut self, _entries: usize) {}

    /// Takes one event.
    fn event(&mut self, event: DirEvent);
}

/// A sink that hands each event to a function and keeps nothing.
pub(crate) struct Each<F>(pub(crate) F);

impl<F: FnMut(DirEvent)> Sink for Each<F> {
    fn event(&mut self, event: DirEvent) {
        (self.0)(event);
    }
}

/// A directory that could not be listed: its diagnostic, and the read
/// fault when the operating system refused (EACCES, EIO).
#[derive(Debug)]
pub(crate) struct DirProblem {
    pub(crate) diagnostic: Diagnostic,
    pub(crate) fault: Option<ReadFault>,
}

/// Reports a subdirectory of a [`Layout::Flat`] directory, or a link that
/// may be one (`kind` says which): `None` to stay silent. `rel` is its path
/// relative to the reader, `name` its file name.
pub(crate) type NestedReport<'a> =
    &'a dyn Fn(&SearchDir<'_>, &str, &str, EntryKind) -> Option<Diagnostic>;

/// Lists `dir` under its layout, handing each event to `sink` in listing
/// order (no vector of events: a consumer keeps only what it needs). A
/// missing directory yields nothing; `Err` when it exists but cannot be
/// listed.
pub(crate) fn list_dir(
    dir: &SearchDir<'_>,
    words: &Words,
    nested: NestedReport<'_>,
    sink: &mut dyn Sink,
) -> Result<(), Option<DirProblem>> {
    let entries = list_or_problem(dir, &dir.dir, words)?;
    sink.expect(entries.len());
    let mut emit = |event| sink.event(event);
    match dir.layout {
        Layout::Flat => {
            for entry in entries {
                let rel = dir.rel(&entry.name);
                // A directory is a subdirectory whatever its name (both
                // agents recurse into `x.md/`); a link may be one unless
                // its suffix (`.md`) makes it a candidate file.
                let maybe_dir = entry.kind == EntryKind::Dir
                    || (entry.kind == EntryKind::Symlink && !entry.name.ends_with(dir.suffix));
                if maybe_dir && !entry.lossy {
                    if let Some(note) = nested(dir, &rel, &entry.name, entry.kind) {
                        emit(DirEvent::Note(note));
                    }
                    continue;
                }
                if let Some(event) = suffixed_file(dir, words, entry, rel, |stem| stem) {
                    emit(event);
                }
            }
        }
        Layout::Nested => {
            let mut walk = NestedWalk {
                dir,
                words,
                budget: limits::MAX_TREE_ENTRIES,
                emit: &mut emit,
            };
            walk.walk(&dir.dir, "", 0, entries);
        }
        Layout::SkillDirs => {
            for entry in entries {
                if let Some(event) = skill_dir(dir, words, entry) {
                    emit(event);
                }
            }
        }
    }
    Ok(())
}

/// How many files `dir` offers for names under its layout, found by
/// listing it as [`list_dir`] does (a skills directory: one stat per
/// subdirectory), nothing read; 0 when it cannot be listed. Nested
/// directories of a flat directory are not counted.
pub fn count_offered(dir: &SearchDir<'_>, words: &Words) -> usize {
    let silent = |_: &SearchDir<'_>, _: &str, _: &str, _: EntryKind| None;
    let mut count = 0;
    // A skill directory's file is offered unlooked-at: one stat says
    // whether it is there.
    let offered = |file: &Listed| {
        dir.layout != Layout::SkillDirs
            || !matches!(dir.reader.stat(&file.rel), Err(WsError::NotFound))
    };
    let mut tally = Each(|event| {
        count += usize::from(matches!(&event, DirEvent::File(file) if offered(file)));
    });
    match list_dir(dir, words, &silent, &mut tally) {
        Ok(()) => count,
        Err(_) => 0,
    }
}

/// The listing of `rel`, or the problem that stopped it (`Err(None)` when
/// it does not exist).
fn list_or_problem(
    dir: &SearchDir<'_>,
    rel: &str,
    words: &Words,
) -> Result<Vec<DirEntry>, Option<DirProblem>> {
    dir.reader.list(rel).map_err(|err| {
        let shown = dir.display(rel);
        let dir_noun = words.dir_noun;
        let (severity, reason, fault) = match err {
            WsError::NotFound => return None,
            WsError::Unresolvable(why) => (
                Severity::Warning,
                format!("{dir_noun} is a {why}; treated as missing"),
                None,
            ),
            WsError::Refused(why) => (Severity::Fatal, format!("{dir_noun} not read: {why}"), None),
            WsError::NotADirectory | WsError::NotRegular(_) => (
                Severity::Fatal,
                format!("is not a directory; no {} are read from it", words.plural),
                None,
            ),
            WsError::Io(source) => (
                Severity::Fatal,
                format!("{dir_noun} cannot be listed: {source}"),
                Some(ReadFault {
                    path: shown.clone(),
                    source,
                }),
            ),
        };
        Some(DirProblem {
            diagnostic: Diagnostic::new(severity, Some(shown), reason),
            fault,
        })
    })
}

/// An entry with the directory's suffix (`.md`) as a file to consider, or
/// a note when it cannot name anything; `None` for entries without it.
/// `name_of` turns the stem (the entry's own name, cut before the suffix)
/// into the name.
fn suffixed_file(
    dir: &SearchDir<'_>,
    words: &Words,
    entry: DirEntry,
    rel: String,
    name_of: impl FnOnce(String) -> String,
) -> Option<DirEvent> {
    let stem_len = entry.name.strip_suffix(dir.suffix)?.len();
    if entry.lossy {
        return Some(DirEvent::Note(Diagnostic::new(
            words.refusal,
            Some(dir.display(&rel)),
            format!(
                "file name is not valid UTF-8, so the {} cannot be named; skipped",
                words.noun
            ),
        )));
    }
    if stem_len == 0 {
        return Some(DirEvent::Note(Diagnostic::warning(
            dir.display(&rel),
            format!(
                "a file named only {} has no {} name; skipped",
                dir.suffix, words.noun
            ),
        )));
    }
    let mut stem = entry.name;
    stem.truncate(stem_len);
    Some(DirEvent::File(Listed {
        name: name_of(stem),
        rel,
        kind: Some(entry.kind),
    }))
}

/// Walks a [`Layout::Nested`] directory: files with the suffix (`.md`) at
/// any depth, named by their path with `:` between the levels.
/// Subdirectories are entered where they appear in the (sorted) listing;
/// links to directories are not followed, so a link loop cannot make the
/// walk deep. Past
/// [`limits::MAX_TREE_DEPTH`] levels or [`limits::MAX_TREE_ENTRIES`]
/// entries the walk stops with a warning.
struct NestedWalk<'a, 'r> {
    dir: &'a SearchDir<'r>,
    words: &'a Words,
    /// Entries left before the walk stops.
    budget: usize,
    /// Where the events go.
    emit: &'a mut dyn FnMut(DirEvent),
}

impl NestedWalk<'_, '_> {
    /// Walks the listing `entries` of `rel`, `depth` levels below the
    /// search directory, naming files `prefix` + stem.
    fn walk(&mut self, rel: &str, prefix: &str, depth: usize, entries: Vec<DirEntry>) {
        let (dir, words) = (self.dir, self.words);
        for entry in entries {
            if self.budget == 0 {
                (self.emit)(DirEvent::Note(tree_cut(dir, rel, words)));
                return;
            }
            self.budget -= 1;
            let path = join(rel, &entry.name);
            if entry.kind == EntryKind::Dir && !entry.lossy {
                if depth + 1 >= limits::MAX_TREE_DEPTH {
                    (self.emit)(DirEvent::Note(Diagnostic::warning(
                        dir.display(&path),
                        format!(
                            "deeper than {} levels; the {} below it are not read",
                            limits::MAX_TREE_DEPTH,
                            words.plural
                        ),
                    )));
                    continue;
                }
                match list_or_problem(dir, &path, words) {
                    Ok(inner) => {
                        let prefix = format!("{prefix}{}:", entry.name);
                        self.walk(&path, &prefix, depth + 1, inner);
                    }
                    Err(problem) => {
                        if let Some(problem) = problem {
                            (self.emit)(DirEvent::Note(problem.diagnostic));
                        }
                    }
                }
                continue;
            }
            let named = |stem: String| format!("{prefix}{stem}");
            if let Some(event) = suffixed_file(dir, words, entry, path, named) {
                (self.emit)(event);
            }
        }
    }
}

fn tree_cut(dir: &SearchDir<'_>, rel: &str, words: &Words) -> Diagnostic {
    Diagnostic::warning(
        dir.display(rel),
        format!(
            "more than {} entries below the {}; the rest are not read",
            limits::MAX_TREE_ENTRIES,
            words.dir_noun
        ),
    )
}

/// A [`Layout::SkillDirs`] entry: a directory (or a link to one) whose
/// `SKILL.md` names it; files at the top are not entries. A directory the
/// listing saw is offered its `SKILL.md` unlooked-at, as a regular file:
/// reading it (or, for a consumer that only looks, one stat) finds out
/// whether it is there, and a missing one is the directory's note
/// ([`no_skill_file`], reported by the engine instead of a candidate).
/// Looking first would cost two system calls a skill (the directory's
/// guard and the file), a tenth of completing 1,000 commands and skills.
/// A link is followed first: one that cannot be (it leaves the workspace,
/// dangles or loops) is offered itself, so reading it reports why, with the
/// fate every candidate gets.
fn skill_dir(dir: &SearchDir<'_>, words: &Words, entry: DirEntry) -> Option<DirEvent> {
    let path = dir.rel(&entry.name);
    let is_dir = match entry.kind {
        EntryKind::Dir => true,
        EntryKind::Symlink => match dir.reader.stat(&path) {
            Ok(kind) => kind == EntryKind::Dir,
            Err(_) if entry.lossy => false,
            Err(_) => {
                return Some(DirEvent::File(Listed {
                    name: entry.name,
                    rel: path,
                    kind: None,
                }));
            }
        },
        _ => false,
    };
    if !is_dir {
        return None;
    }
    if entry.lossy {
        return Some(DirEvent::Note(Diagnostic::new(
            words.refusal,
            Some(dir.display(&path)),
            format!(
                "directory name is not valid UTF-8, so the {} cannot be named; skipped",
                words.noun
            ),
        )));
    }
    let file = join(&path, SKILL_FILE);
    let kind = if entry.kind == EntryKind::Dir {
        Some(EntryKind::File)
    } else {
        // Through a link: what the file is, links resolved, stands in for
        // a listing's kind (a link is still refused or followed as the
        // reader's policy says when it is read).
        match dir.reader.stat(&file) {
            Err(WsError::NotFound) => {
                return Some(DirEvent::Note(no_skill_file(dir, words, &path)));
            }
            Ok(kind) => Some(kind),
            Err(_) => None,
        }
    };
    Some(DirEvent::File(Listed {
        name: entry.name,
        rel: file,
        kind,
    }))
}

/// The note for a skill directory `skill_dir` (relative to the reader)
/// without its `SKILL.md`: nothing is offered for its name.
pub(crate) fn no_skill_file(dir: &SearchDir<'_>, words: &Words, skill_dir: &str) -> Diagnostic {
    Diagnostic::warning(
        dir.display(skill_dir),
        format!("no {SKILL_FILE} in this {} directory; skipped", words.noun),
    )
}

/// Counts the `.md` files below `rel` at any depth, without following
/// links, within the walk bounds of [`limits::MAX_TREE_DEPTH`] and
/// [`limits::MAX_TREE_ENTRIES`].
pub fn count_md_files(reader: &dyn Workspace, rel: &str) -> usize {
    walk_tree(reader, rel, false)
        .files
        .iter()
        .filter(|f| f.ends_with(".md"))
        .count()
}

/// The files below a directory, found by [`walk_tree`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    /// Every file or link to a file (not a directory), relative to the
    /// reader's root, in walk order.
    pub files: Vec<String>,
    /// Every directory entered below the start, relative to the reader's
    /// root, in walk order.
    pub dirs: Vec<String>,
    /// Every link to a directory met (listed, not entered).
    pub dir_links: Vec<String>,
    /// True when a bound stopped the walk.
    pub cut: bool,
}

/// Walks the tree below `rel` depth first, entering each subdirectory
/// where it appears in the listing: in the system's listing order when
/// `unsorted` (what Claude Code does with rule files, SPEC §14.3), else
/// sorted by name. Links to directories are not followed; links to files
/// are listed. Bounded by [`limits::MAX_TREE_DEPTH`] levels and
/// [`limits::MAX_TREE_ENTRIES`] entries; an unlistable subdirectory is
/// skipped.
pub fn walk_tree(reader: &dyn Workspace, rel: &str, unsorted: bool) -> Tree {
    Walk {
        reader,
        unsorted,
        prune: &|_| false,
        follow_links: false,
        entries: limits::MAX_TREE_ENTRIES,
    }
    .run(rel)
}

/// [`walk_tree`] in listing order that also enters links to directories,
/// each real directory once (a link back up, or a second link to one
/// directory, is not walked again), as Claude Code walks its rules
/// (observed: `rules-symlinks`). A link the reader refuses is listed as a
/// file, so reading it reports the refusal.
pub fn walk_tree_following_links(reader: &dyn Workspace, rel: &str) -> Tree {
    Walk {
        reader,
        unsorted: true,
        prune: &|_| false,
        follow_links: true,
        entries: limits::MAX_TREE_ENTRIES,
    }
    .run(rel)
}

/// [`walk_tree`] in sorted order, without entering the directories whose
/// name `prune` accepts (they are neither listed nor counted): a walk of a
/// whole workspace that skips `.git` and the like. It stops after
/// `entries` entries (at most [`limits::MAX_TREE_ENTRIES`]).
pub fn walk_tree_pruned(
    reader: &dyn Workspace,
    rel: &str,
    prune: &dyn Fn(&str) -> bool,
    entries: usize,
) -> Tree {
    Walk {
        reader,
        unsorted: false,
        prune,
        follow_links: false,
        entries: entries.min(limits::MAX_TREE_ENTRIES),
    }
    .run(rel)
}

/// One walk's settings.
struct Walk<'a> {
    reader: &'a dyn Workspace,
    unsorted: bool,
    prune: &'a dyn Fn(&str) -> bool,
    /// Enter links to directories, each real directory once.
    follow_links: bool,
    /// How many entries it takes in.
    entries: usize,
}

/// What one walk has used up: entries left, and the real directories
/// entered when links are followed.
struct Spent {
    budget: usize,
    visited: HashSet<PathBuf>,
}

impl Walk<'_> {
    fn run(&self, rel: &str) -> Tree {
        let mut tree = Tree::default();
        let mut spent = Spent {
            budget: self.entries,
            visited: HashSet::new(),
        };
        // The root is listed before it is canonicalised: a missing tree
        // (most directories have no rules) costs one look, not two.
        let Some(entries) = self.list(rel) else {
            return tree;
        };
        if self.follow_links
            && let Ok(real) = self.reader.real_path(rel)
        {
            spent.visited.insert(real);
        }
        self.take(rel, entries, 0, &mut spent, &mut tree);
        tree
    }

    /// The entries of directory `rel`, `None` when it cannot be listed.
    fn list(&self, rel: &str) -> Option<Vec<DirEntry>> {
        let listed = if self.unsorted {
            self.reader.list_unsorted(rel)
        } else {
            self.reader.list(rel)
        };
        listed.ok()
    }

    fn enter(&self, rel: &str, depth: usize, spent: &mut Spent, tree: &mut Tree) {
        if let Some(entries) = self.list(rel) {
            self.take(rel, entries, depth, spent, tree);
        }
    }

    /// Takes in the `entries` of directory `rel`, `depth` levels below the
    /// walk's root, entering its subdirectories.
    fn take(
        &self,
        rel: &str,
        entries: Vec<DirEntry>,
        depth: usize,
        spent: &mut Spent,
        tree: &mut Tree,
    ) {
        let reader = self.reader;
        for entry in entries {
            if entry.kind == EntryKind::Dir && !entry.lossy && (self.prune)(&entry.name) {
                continue;
            }
            if spent.budget == 0 {
                tree.cut = true;
                return;
            }
            spent.budget -= 1;
            if entry.lossy {
                continue;
            }
            let path = join(rel, &entry.name);
            match entry.kind {
                EntryKind::Dir if depth + 1 < limits::MAX_TREE_DEPTH => {
                    tree.dirs.push(path.clone());
                    self.enter(&path, depth + 1, spent, tree);
                }
                EntryKind::Dir => tree.cut = true,
                EntryKind::Symlink if matches!(reader.stat(&path), Ok(EntryKind::Dir)) => {
                    let enters = self.follow_links
                        && reader
                            .real_path(&path)
                            .is_ok_and(|real| spent.visited.insert(real));
                    if enters && depth + 1 < limits::MAX_TREE_DEPTH {
                        tree.dirs.push(path.clone());
                        self.enter(&path, depth + 1, spent, tree);
                    } else if enters {
                        tree.cut = true;
                    }
                    tree.dir_links.push(path);
                }
                _ => tree.files.push(path),
            }
        }
    }
}
