//! [`ReadMemo`]: a reading cache for one run, at the edge of the workspace
//! port. `compare` (SPEC §15.1) runs three profiles over the same files;
//! each profile's readers are wrapped by one memo, so a file that two or
//! three profiles read is opened once and a directory listed once.
//!
//! A memoised reader answers exactly what its inner reader would have
//! answered during the run, on the premise that the files do not change
//! while the run lasts (the same premise every single profile already
//! makes when it looks at a file twice):
//! - a bounded read is answered from an earlier read of the same file when
//!   that read got the whole file or at least as many bytes; otherwise it
//!   goes to the inner reader and its answer replaces the earlier one;
//! - `stat`, `list`, `list_unsorted` and `real_path` are answered once per
//!   path, and a sorted listing also from a listing in the system's order
//!   (it is the same entries sorted by name);
//! - a refusal or "not found" is remembered like a success (probing for
//!   `CLAUDE.md` in every directory of the walk is most of what profiles
//!   ask), but an operating-system error is not: it is asked again, so a
//!   passing fault is reported by each reader that meets it.
//!
//! Choices of ours:
//! - Answers are keyed by absolute path. For a reader that follows links,
//!   the answer depends on nothing else, so readers rooted in different
//!   places share it (the engine's `~/.claude/rules` and Claude Code's
//!   `~/.claude` meet at `~/.claude/rules/x.md`). A confined reader's
//!   answer also depends on its root (a link may lead out of one root and
//!   not out of another), so its answers are kept apart per root.
//! - Nothing is evicted: a run reads a bounded set of bounded files, and
//!   the memo lives as long as the run.
//! - A question about a path below a hidden directory (an agent's
//!   `.claude`, `.gemini`, `.github`, …: the first component starting with
//!   `.` that is not the last) first asks whether that directory exists,
//!   once; when it is "not found", so is everything below it, answered
//!   from memory. The agents probe half a dozen paths under `.claude` in
//!   every directory of a walk where almost no directory has one: one
//!   question per directory instead of six, for one more where it exists.
//!   A hidden directory that is a dangling or leaving link is not "not
//!   found", so what lies below it is asked as before.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::{Bounded, DirEntry, EntryKind, LinkPolicy, Workspace, WsError, components};

/// Which answers a path's answer may be shared with: every reader that
/// follows links, or only readers confined to the same root.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Space {
    Followed,
    Confined(PathBuf),
}

/// One path as the memo keys it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    space: Space,
    path: PathBuf,
}

/// What the memo remembers of one path.
#[derive(Default)]
struct Answers {
    read: Option<Result<Bounded, WsError>>,
    stat: Option<Result<EntryKind, WsError>>,
    list: Option<Result<Vec<DirEntry>, WsError>>,
    list_unsorted: Option<Result<Vec<DirEntry>, WsError>>,
    real_path: Option<Result<PathBuf, WsError>>,
}

/// How many questions went to the readers underneath and how many the memo
/// answered, for a run's report and for tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemoCounts {
    /// Reads passed to an inner reader.
    pub reads: usize,
    /// Reads answered from memory.
    pub reads_remembered: usize,
    /// Stats, listings and real paths passed to an inner reader.
    pub lookups: usize,
    /// Stats, listings and real paths answered from memory.
    pub lookups_remembered: usize,
}

/// The answers of one run's memoised readers (see the module doc).
#[derive(Default)]
pub struct ReadMemo {
    answers: Mutex<HashMap<Key, Answers>>,
    sizes: Mutex<HashMap<PathBuf, u64>>,
    reads: AtomicUsize,
    reads_remembered: AtomicUsize,
    lookups: AtomicUsize,
    lookups_remembered: AtomicUsize,
}

impl std::fmt::Debug for ReadMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadMemo")
            .field("counts", &self.counts())
            .finish_non_exhaustive()
    }
}

impl ReadMemo {
    /// An empty memo, to share between the readers of one run.
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// `inner` read through this memo. `policy` is `inner`'s link policy,
    /// which decides which other readers its answers are shared with.
    pub fn reader(
        self: &Arc<Self>,
        inner: Arc<dyn Workspace>,
        policy: LinkPolicy,
    ) -> MemoWorkspace {
        let space = match policy {
            LinkPolicy::Follow => Space::Followed,
            LinkPolicy::Confine => Space::Confined(inner.root().to_path_buf()),
        };
        MemoWorkspace {
            inner,
            space,
            memo: Arc::clone(self),
        }
    }

    /// The size of the file at the absolute `path` when a reader of this
    /// memo read it, whatever the reader and however much of it was read.
    pub fn size(&self, path: &Path) -> Option<u64> {
        self.sizes.lock().ok()?.get(path).copied()
    }

    /// How many questions went through and how many were remembered.
    pub fn counts(&self) -> MemoCounts {
        MemoCounts {
            reads: self.reads.load(Ordering::Relaxed),
            reads_remembered: self.reads_remembered.load(Ordering::Relaxed),
            lookups: self.lookups.load(Ordering::Relaxed),
            lookups_remembered: self.lookups_remembered.load(Ordering::Relaxed),
        }
    }

    /// Runs `f` on the answers remembered for `key`. A poisoned lock (a
    /// reader panicked mid-question) yields `None`: the caller then asks
    /// the inner reader, which is always correct.
    fn with<T>(&self, key: &Key, f: impl FnOnce(&mut Answers) -> T) -> Option<T> {
        let mut answers = self.answers.lock().ok()?;
        Some(f(answers.entry(key.clone()).or_default()))
    }
}

/// A reader whose answers go through a [`ReadMemo`].
pub struct MemoWorkspace {
    inner: Arc<dyn Workspace>,
    space: Space,
    memo: Arc<ReadMemo>,
}

impl MemoWorkspace {
    /// The key of `rel`; `None` for a path the inner reader refuses before
    /// looking (absolute, `..`), which is passed through unremembered.
    fn key(&self, rel: &str) -> Option<Key> {
        let parts = components(rel).ok()?;
        let path = parts
            .iter()
            .fold(self.inner.root().to_path_buf(), |path, part| {
                path.join(part)
            });
        Some(Key {
            space: self.space.clone(),
            path,
        })
    }

    /// Whether `rel` lies below a hidden directory that does not exist
    /// (see the module doc); asks for that directory when it is not known.
    fn below_missing_hidden_dir(&self, rel: &str) -> bool {
        let Ok(parts) = components(rel) else {
            return false;
        };
        let above = &parts[..parts.len().saturating_sub(1)];
        let Some(hidden) = above.iter().position(|part| part.starts_with('.')) else {
            return false;
        };
        matches!(
            self.stat(&above[..=hidden].join("/")),
            Err(WsError::NotFound)
        )
    }

    /// A remembered stat or listing, else the inner reader's answer,
    /// remembered unless it is an operating-system error.
    fn lookup<T: Clone>(
        &self,
        rel: &str,
        slot: fn(&mut Answers) -> &mut Option<Result<T, WsError>>,
        ask: impl FnOnce() -> Result<T, WsError>,
    ) -> Result<T, WsError> {
        let Some(key) = self.key(rel) else {
            return ask();
        };
        if self.below_missing_hidden_dir(rel) {
            self.memo.lookups_remembered.fetch_add(1, Ordering::Relaxed);
            return Err(WsError::NotFound);
        }
        if let Some(Some(known)) = self
            .memo
            .with(&key, |answers| slot(answers).as_ref().and_then(replay))
        {
            self.memo.lookups_remembered.fetch_add(1, Ordering::Relaxed);
            return known;
        }
        self.memo.lookups.fetch_add(1, Ordering::Relaxed);
        let answer = ask();
        if let Some(kept) = replay(&answer) {
            self.memo.with(&key, |answers| *slot(answers) = Some(kept));
        }
        answer
    }

    /// A remembered read that holds at least `max_bytes` of the file (or
    /// all of it), else the inner reader's read, remembered as with
    /// [`Self::lookup`].
    fn bounded(
        &self,
        rel: &str,
        max_bytes: u64,
        ask: impl FnOnce() -> Result<Bounded, WsError>,
    ) -> Result<Bounded, WsError> {
        let Some(key) = self.key(rel) else {
            return ask();
        };
        if self.below_missing_hidden_dir(rel) {
            self.memo.reads_remembered.fetch_add(1, Ordering::Relaxed);
            return Err(WsError::NotFound);
        }
        let known = self.memo.with(&key, |answers| match &answers.read {
            Some(Ok(read)) if !read.is_truncated() || read.bytes.len() as u64 >= max_bytes => {
                Some(Ok(head(read, max_bytes)))
            }
            Some(Ok(_)) | None => None,
            Some(Err(err)) => clone_error(err).map(Err),
        });
        if let Some(Some(known)) = known {
            self.memo.reads_remembered.fetch_add(1, Ordering::Relaxed);
            return known;
        }
        self.memo.reads.fetch_add(1, Ordering::Relaxed);
        let answer = ask();
        if let Ok(read) = &answer
            && let Ok(mut sizes) = self.memo.sizes.lock()
        {
            sizes.insert(key.path.clone(), read.size);
        }
        if let Some(kept) = replay(&answer) {
            self.memo.with(&key, |answers| answers.read = Some(kept));
        }
        answer
    }
}

/// The remembered sorted listing, made from a remembered listing in the
/// system's order when there is one: the port's sorted listing is the
/// same entries sorted by name.
fn sorted_listing(answers: &mut Answers) -> &mut Option<Result<Vec<DirEntry>, WsError>> {
    if answers.list.is_none() {
        answers.list = answers
            .list_unsorted
            .as_ref()
            .and_then(replay)
            .map(|listed| {
                listed.map(|mut entries| {
                    crate::workspace::sort_by_name(&mut entries);
                    entries
                })
            });
    }
    &mut answers.list
}

/// The first `max_bytes` of a remembered read, as the inner reader would
/// have returned them.
fn head(read: &Bounded, max_bytes: u64) -> Bounded {
    let len = usize::try_from(max_bytes).map_or(read.bytes.len(), |max| max.min(read.bytes.len()));
    Bounded {
        bytes: read.bytes[..len].to_vec(),
        size: read.size,
    }
}

/// A copy of an answer worth remembering: anything but an
/// operating-system error.
fn replay<T: Clone>(answer: &Result<T, WsError>) -> Option<Result<T, WsError>> {
    match answer {
        Ok(value) => Some(Ok(value.clone())),
        Err(err) => clone_error(err).map(Err),
    }
}

/// A copy of `err`, unless it is an operating-system error (not
/// remembered; see the module doc).
fn clone_error(err: &WsError) -> Option<WsError> {
    Some(match err {
        WsError::NotFound => WsError::NotFound,
        WsError::Refused(why) => WsError::Refused(why.clone()),
        WsError::Unresolvable(why) => WsError::Unresolvable(why.clone()),
        WsError::NotRegular(what) => WsError::NotRegular(what),
        WsError::NotADirectory => WsError::NotADirectory,
        WsError::Io(_) => return None,
    })
}

impl Workspace for MemoWorkspace {
    fn root(&self) -> &Path {
        self.inner.root()
    }

    fn display(&self, rel: &str) -> String {
        self.inner.display(rel)
    }

    fn display_owned(&self, rel: String) -> String {
        self.inner.display_owned(rel)
    }

    fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
        self.lookup(rel, |a| &mut a.stat, || self.inner.stat(rel))
    }

    fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
        self.bounded(rel, max_bytes, || self.inner.read(rel, max_bytes))
    }

    fn read_listed(&self, rel: &str, kind: EntryKind, max_bytes: u64) -> Result<Bounded, WsError> {
        self.bounded(rel, max_bytes, || {
            self.inner.read_listed(rel, kind, max_bytes)
        })
    }

    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        self.lookup(rel, sorted_listing, || self.inner.list(rel))
    }

    fn list_unsorted(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        self.lookup(
            rel,
            |a| &mut a.list_unsorted,
            || self.inner.list_unsorted(rel),
        )
    }

    fn real_path(&self, rel: &str) -> Result<PathBuf, WsError> {
        self.lookup(rel, |a| &mut a.real_path, || self.inner.real_path(rel))
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::workspace::{MemNode, MemWorkspace};

    /// A reader that counts every question it is asked, per path.
    struct Counting {
        inner: MemWorkspace,
        asked: Mutex<Vec<String>>,
    }

    impl Counting {
        fn new(inner: MemWorkspace) -> Arc<Self> {
            Arc::new(Self {
                inner,
                asked: Mutex::new(Vec::new()),
            })
        }

        fn note(&self, what: &str, rel: &str) {
            self.asked.lock().unwrap().push(format!("{what} {rel}"));
        }

        fn asked(&self) -> Vec<String> {
            self.asked.lock().unwrap().clone()
        }
    }

    impl Workspace for Counting {
        fn root(&self) -> &Path {
            self.inner.root()
        }
        fn display(&self, rel: &str) -> String {
            self.inner.display(rel)
        }
        fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
            self.note("stat", rel);
            self.inner.stat(rel)
        }
        fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
            self.note(&format!("read{max_bytes}"), rel);
            self.inner.read(rel, max_bytes)
        }
        fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
            self.note("list", rel);
            self.inner.list(rel)
        }
        fn list_unsorted(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
            self.note("list_unsorted", rel);
            self.inner.list_unsorted(rel)
        }
        fn real_path(&self, rel: &str) -> Result<PathBuf, WsError> {
            self.note("real_path", rel);
            self.inner.real_path(rel)
        }
    }

    fn tree() -> MemWorkspace {
        MemWorkspace::new()
            .file("AGENTS.md", "0123456789")
            .file("sub/CLAUDE.md", "claude")
            .node("locked.md", MemNode::Unreadable)
    }

    #[test]
    fn a_file_three_readers_need_is_read_once() {
        let disk = Counting::new(tree());
        let memo = ReadMemo::new();
        let readers: Vec<MemoWorkspace> = (0..3)
            .map(|_| memo.reader(disk.clone(), LinkPolicy::Confine))
            .collect();
        for reader in &readers {
            let read = reader.read("AGENTS.md", 100).unwrap();
            assert_eq!(read.bytes, b"0123456789");
            assert!(matches!(
                reader.read("CLAUDE.md", 100),
                Err(WsError::NotFound)
            ));
            assert_eq!(reader.stat("sub").unwrap(), EntryKind::Dir);
            assert_eq!(reader.list("sub").unwrap().len(), 1);
            assert_eq!(reader.list_unsorted("sub").unwrap().len(), 1);
            let real = reader.real_path("sub/CLAUDE.md").unwrap();
            assert_eq!(real, disk.real_path("sub/CLAUDE.md").unwrap());
        }
        assert_eq!(
            disk.asked(),
            [
                "read100 AGENTS.md",
                "read100 CLAUDE.md",
                "stat sub",
                "list sub",
                "list_unsorted sub",
                "real_path sub/CLAUDE.md",
                // The three checks above ask the counting reader itself.
                "real_path sub/CLAUDE.md",
                "real_path sub/CLAUDE.md",
                "real_path sub/CLAUDE.md",
            ]
        );
        assert_eq!(
            memo.counts(),
            MemoCounts {
                reads: 2,
                reads_remembered: 4,
                lookups: 4,
                lookups_remembered: 8,
            }
        );
    }

    #[test]
    fn below_a_missing_hidden_directory_nothing_is_asked_twice() {
        let disk = Counting::new(
            MemWorkspace::new()
                .file("a/.claude/rules/r.md", "rule")
                .node("b/.gemini", MemNode::Unreadable),
        );
        let memo = ReadMemo::new();
        let reader = memo.reader(disk.clone(), LinkPolicy::Confine);
        for dir in ["a", "c"] {
            for below in ["rules", "skills", "agents"] {
                let _ = reader.list(&format!("{dir}/.claude/{below}"));
            }
            let _ = reader.read(&format!("{dir}/.claude/CLAUDE.md"), 10);
        }
        assert!(matches!(
            reader.read("c/.claude/settings.json", 10),
            Err(WsError::NotFound)
        ));
        // Not "not found": what lies below is asked as before.
        let _ = reader.stat("b/.gemini/settings.json");
        assert_eq!(
            disk.asked(),
            [
                "stat a/.claude",
                "list a/.claude/rules",
                "list a/.claude/skills",
                "list a/.claude/agents",
                "read10 a/.claude/CLAUDE.md",
                "stat c/.claude",
                "stat b/.gemini",
                "stat b/.gemini/settings.json",
            ]
        );
    }

    #[test]
    fn a_sorted_listing_is_made_from_a_listing_in_the_systems_order() {
        let tree = tree()
            .file("rules/b.md", "b")
            .file("rules/a.md", "a")
            .with_listing_order("rules", &["b.md", "a.md"]);
        let disk = Counting::new(tree);
        let memo = ReadMemo::new();
        let reader = memo.reader(disk.clone(), LinkPolicy::Confine);
        let names = |entries: Vec<DirEntry>| -> Vec<String> {
            entries.into_iter().map(|e| e.name).collect()
        };
        assert_eq!(
            names(reader.list_unsorted("rules").unwrap()),
            ["b.md", "a.md"]
        );
        assert_eq!(names(reader.list("rules").unwrap()), ["a.md", "b.md"]);
        assert_eq!(
            names(reader.list_unsorted("rules").unwrap()),
            ["b.md", "a.md"]
        );
        assert!(matches!(
            reader.list_unsorted("none"),
            Err(WsError::NotFound)
        ));
        assert!(matches!(reader.list("none"), Err(WsError::NotFound)));
        assert_eq!(
            disk.asked(),
            ["list_unsorted rules", "list_unsorted none"],
            "the sorted listings were made from the raw ones"
        );
    }

    #[test]
    fn a_shorter_read_is_cut_from_a_longer_one_and_a_longer_one_reads_again() {
        let disk = Counting::new(tree());
        let memo = ReadMemo::new();
        let reader = memo.reader(disk.clone(), LinkPolicy::Confine);
        assert_eq!(memo.size(Path::new("/mem/AGENTS.md")), None);
        let head = reader.read("AGENTS.md", 4).unwrap();
        assert_eq!((head.bytes.as_slice(), head.size), (&b"0123"[..], 10));
        assert_eq!(
            memo.size(Path::new("/mem/AGENTS.md")),
            Some(10),
            "a head knows the size"
        );
        let again = reader.read("AGENTS.md", 3).unwrap();
        assert_eq!((again.bytes.as_slice(), again.size), (&b"012"[..], 10));
        let whole = reader.read("AGENTS.md", 50).unwrap();
        assert_eq!(whole.bytes, b"0123456789");
        // The whole file answers any bound, and a bound past it too.
        let cut = reader.read("AGENTS.md", 5).unwrap();
        assert_eq!(
            (cut.bytes.as_slice(), cut.is_truncated()),
            (&b"01234"[..], true)
        );
        assert_eq!(reader.read("AGENTS.md", 1 << 40).unwrap().bytes.len(), 10);
        assert_eq!(disk.asked(), ["read4 AGENTS.md", "read50 AGENTS.md"]);
        assert_eq!(
            reader
                .read_listed("AGENTS.md", EntryKind::File, 2)
                .unwrap()
                .bytes,
            b"01"
        );
        assert_eq!(disk.asked().len(), 2, "read_listed shares the reads");
    }

    #[test]
    fn operating_system_errors_are_asked_again_refusals_are_not() {
        let disk = Counting::new(tree());
        let memo = ReadMemo::new();
        let reader = memo.reader(disk.clone(), LinkPolicy::Confine);
        for _ in 0..2 {
            assert!(matches!(reader.read("locked.md", 10), Err(WsError::Io(_))));
            assert!(matches!(reader.read("../x", 10), Err(WsError::Refused(_))));
        }
        assert_eq!(
            disk.asked(),
            [
                "read10 locked.md",
                "read10 ../x",
                "read10 locked.md",
                "read10 ../x",
            ],
            "a path refused before looking is not keyed; a fault is retried"
        );
        let err = WsError::Io(io::Error::from(io::ErrorKind::PermissionDenied));
        assert!(clone_error(&err).is_none());
    }

    #[test]
    fn followed_readers_share_by_absolute_path_confined_ones_by_root_too() {
        let home = MemWorkspace::new()
            .with_root("/h")
            .file(".claude/rules/x.md", "rule");
        let rules = MemWorkspace::new()
            .with_root("/h/.claude/rules")
            .file("x.md", "rule");
        let (home, rules) = (Counting::new(home), Counting::new(rules));
        let memo = ReadMemo::new();
        let claude = memo.reader(home.clone(), LinkPolicy::Follow);
        let engine = memo.reader(rules.clone(), LinkPolicy::Follow);
        assert_eq!(claude.read(".claude/rules/x.md", 9).unwrap().bytes, b"rule");
        assert_eq!(engine.read("x.md", 9).unwrap().bytes, b"rule");
        assert_eq!(engine.read("./x.md", 9).unwrap().bytes, b"rule");
        assert!(
            rules.asked().is_empty(),
            "answered from the other reader's read"
        );
        // Confined to different roots, the same file is read by each.
        let confined = memo.reader(rules.clone(), LinkPolicy::Confine);
        let other_root = memo.reader(home.clone(), LinkPolicy::Confine);
        confined.read("x.md", 9).unwrap();
        other_root.read(".claude/rules/x.md", 9).unwrap();
        assert_eq!(rules.asked(), ["read9 x.md"]);
        assert_eq!(
            home.asked(),
            [
                "stat .claude",
                "read9 .claude/rules/x.md",
                "stat .claude",
                "read9 .claude/rules/x.md"
            ]
        );
        assert_eq!(confined.display("x.md"), rules.display("x.md"));
        assert_eq!(confined.root(), Path::new("/h/.claude/rules"));
    }
}
