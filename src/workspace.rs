//! The workspace port (SPEC §3.1): every file the engine sees is read through
//! a [`Workspace`], never with `std::fs` directly from the domain.
//!
//! Two implementations ship: [`OsWorkspace`], rooted at a directory on disk,
//! and [`MemWorkspace`], an in-memory tree for tests; [`MemoWorkspace`]
//! wraps either so that one run's readers share what they read
//! ([`ReadMemo`]); [`OverlayWorkspace`] serves an editor's open buffers
//! over either. Paths handed to a workspace are relative,
//! `/`-separated, and never contain `..`.

use std::io;
use std::path::{Path, PathBuf};

mod mem;
mod memo;
mod os;
mod overlay;

pub use mem::{MemNode, MemWorkspace};
pub use memo::{MemoCounts, MemoWorkspace, ReadMemo};
pub use os::OsWorkspace;
pub(crate) use os::open_nonblocking;
pub use overlay::OverlayWorkspace;

/// What a path is, after symbolic links have been resolved (for `stat`) or
/// as listed (for `list`, where links are reported as [`EntryKind::Symlink`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (only in listings; `stat` resolves it).
    Symlink,
    /// Anything else: a FIFO, socket or device, named by the string.
    Other(&'static str),
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's file name (lossily decoded when it is not UTF-8).
    pub name: String,
    /// True when `name` had to be decoded lossily: such a file cannot be
    /// opened by that name and should be reported, not read.
    pub lossy: bool,
    /// What the entry is, without following a final symbolic link.
    pub kind: EntryKind,
}

/// Sorts a listing by name, byte-wise (names within one directory are
/// unique, so the one order there is), as [`sort_by_name_then`] does.
pub fn sort_by_name(entries: &mut [DirEntry]) {
    sort_by_name_then(entries, |entry| (&entry.name, 0));
}

/// Sorts `items` by their `key`, a name (byte-wise) then a number, keeping
/// items of equal keys in their order. The sort works on each name's first
/// eight bytes as one big-endian integer (zero-padded: the order of the
/// padded prefixes is the order of the names whenever they differ) paired
/// with the item's index, comparing whole keys only between equal
/// prefixes, then moves the items into place along the permutation's
/// cycles: sorting 10,000 short names (`r1.md`) costs a fifth of comparing
/// names with a `memcmp` call per comparison, and large items are never
/// copied into a scratch buffer as a stable sort of them would.
pub fn sort_by_name_then<T>(items: &mut [T], key: impl Fn(&T) -> (&str, usize)) {
    let mut order: Vec<(u64, usize)> = items
        .iter()
        .enumerate()
        .map(|(at, item)| (name_prefix(key(item).0), at))
        .collect();
    order.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| key(&items[a.1]).cmp(&key(&items[b.1])))
            .then(a.1.cmp(&b.1))
    });
    // Position `k` takes the item at `order[k].1`; a placed position
    // points at itself.
    for start in 0..order.len() {
        let mut at = start;
        while order[at].1 != start {
            let from = order[at].1;
            items.swap(at, from);
            order[at].1 = at;
            at = from;
        }
        order[at].1 = at;
    }
}

/// The first eight bytes of `name`, zero-padded, as a big-endian integer.
fn name_prefix(name: &str) -> u64 {
    match name.as_bytes().first_chunk::<8>() {
        Some(head) => u64::from_be_bytes(*head),
        // Shorter names: byte by byte (a copy of a variable length would
        // be a `memcpy` call per comparison).
        None => name
            .bytes()
            .chain(std::iter::repeat(0))
            .take(8)
            .fold(0, |prefix, byte| prefix << 8 | u64::from(byte)),
    }
}

/// The result of a bounded read: at most the requested number of bytes, and
/// the file's full size so callers can tell whether it was cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounded {
    /// The bytes read, never more than the bound.
    pub bytes: Vec<u8>,
    /// The size of the whole file, in bytes.
    pub size: u64,
}

impl Bounded {
    /// True when the file holds more bytes than were read.
    pub fn is_truncated(&self) -> bool {
        self.size > self.bytes.len() as u64
    }
}

/// Why a workspace could not serve a path.
#[derive(Debug, thiserror::Error)]
pub enum WsError {
    /// Nothing exists at the path.
    #[error("not found")]
    NotFound,
    /// The path leaves the workspace root (a `..` component, an absolute
    /// path, or a symbolic link resolving outside); it is never followed.
    #[error("{0}")]
    Refused(String),
    /// A symbolic link that cannot be resolved (dangling, or a loop).
    #[error("{0}")]
    Unresolvable(String),
    /// The path exists but is not a regular file (for reads) or not a
    /// directory (for listings); the string names what it is.
    #[error("not a regular file ({0})")]
    NotRegular(&'static str),
    /// The path exists but is not a directory.
    #[error("not a directory")]
    NotADirectory,
    /// An operating-system error such as permission denied: a read fault.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// How a workspace treats symbolic links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPolicy {
    /// Project tier: links are followed only while they stay inside the root.
    Confine,
    /// User tier: links are followed wherever they lead.
    Follow,
}

/// Read-only access to a tree of files (SPEC §3.1).
pub trait Workspace: Send + Sync {
    /// The directory this workspace is rooted at.
    fn root(&self) -> &Path;

    /// How `rel` is named in diagnostics and listings: workspace-relative for
    /// a confined (project) reader, absolute for a user-tier reader.
    fn display(&self, rel: &str) -> String;

    /// [`Workspace::display`] of a path the caller no longer needs: a
    /// reader that displays it unchanged returns it without copying.
    fn display_owned(&self, rel: String) -> String {
        self.display(&rel)
    }

    /// What `rel` is once symbolic links are resolved.
    fn stat(&self, rel: &str) -> Result<EntryKind, WsError>;

    /// Reads at most `max_bytes` of the regular file at `rel`. Files that are
    /// not regular are never opened for reading.
    fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError>;

    /// Reads `rel` like [`Workspace::read`], given that a listing of its
    /// directory just reported it as `kind`. An implementation may trust a
    /// [`EntryKind::File`] to skip looking the path up before opening it,
    /// but must still never open anything but a regular file for reading,
    /// nor follow a link its policy refuses.
    fn read_listed(&self, rel: &str, kind: EntryKind, max_bytes: u64) -> Result<Bounded, WsError> {
        let _ = kind;
        self.read(rel, max_bytes)
    }

    /// Lists the directory at `rel` (`""` for the root), sorted by name.
    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError>;

    /// Lists the directory at `rel` in the order the system gives its
    /// entries (`readdir` order for a directory on disk), for the one
    /// consumer whose output depends on it: Claude Code reads rule files in
    /// that order (SPEC §14.3). By default, the sorted [`Workspace::list`].
    fn list_unsorted(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        self.list(rel)
    }

    /// The absolute path `rel` names once every symbolic link along it is
    /// resolved, for callers that judge where a file really lies (Claude
    /// Code's imports, SPEC §14.3). A confined reader refuses a path that
    /// resolves outside its root, as it refuses to read it. By default,
    /// for readers that hold no links, the lexical path below the root.
    fn real_path(&self, rel: &str) -> Result<PathBuf, WsError> {
        Ok(components(rel)?
            .iter()
            .fold(self.root().to_path_buf(), |path, part| path.join(part)))
    }
}

/// A reader shared as a trait object shows where it is rooted.
impl std::fmt::Debug for dyn Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("root", &self.root())
            .finish_non_exhaustive()
    }
}

/// A borrowed workspace is a workspace: a caller that holds one per call
/// (the seed's ports take `&dyn Workspace`) can hand it to code that keeps
/// readers, such as [`crate::prompt::tiers::SearchDir`].
impl<T: Workspace + ?Sized> Workspace for &T {
    fn root(&self) -> &Path {
        (**self).root()
    }

    fn display(&self, rel: &str) -> String {
        (**self).display(rel)
    }

    fn display_owned(&self, rel: String) -> String {
        (**self).display_owned(rel)
    }

    fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
        (**self).stat(rel)
    }

    fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
        (**self).read(rel, max_bytes)
    }

    fn read_listed(&self, rel: &str, kind: EntryKind, max_bytes: u64) -> Result<Bounded, WsError> {
        (**self).read_listed(rel, kind, max_bytes)
    }

    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        (**self).list(rel)
    }

    fn list_unsorted(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        (**self).list_unsorted(rel)
    }

    fn real_path(&self, rel: &str) -> Result<PathBuf, WsError> {
        (**self).real_path(rel)
    }
}

/// The components of the relative path `rel` joined with `/`, on every
/// platform (SPEC §20.1: workspace-relative paths in output use `/`, so a
/// snapshot taken on Windows checks on Linux). A component that is not
/// valid Unicode is decoded lossily.
pub fn slashed(rel: &Path) -> String {
    let parts: Vec<_> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}

/// Joins workspace-relative path pieces with `/`, skipping empty ones.
pub fn join(dir: &str, name: &str) -> String {
    match (dir.is_empty(), name.is_empty()) {
        (true, _) => name.to_string(),
        (_, true) => dir.to_string(),
        _ => {
            let dir = dir.trim_end_matches('/');
            let mut path = String::with_capacity(dir.len() + 1 + name.len());
            path.push_str(dir);
            path.push('/');
            path.push_str(name);
            path
        }
    }
}

/// The last component of a workspace-relative path.
pub fn base_name(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// The directory of a workspace-relative path (`""` for the root).
pub fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Splits a relative path into its components, refusing absolute paths and
/// `..`; `.` and empty components are dropped.
pub(crate) fn components(rel: &str) -> Result<Vec<&str>, WsError> {
    if rel.starts_with('/') {
        return Err(WsError::Refused(format!(
            "absolute path {rel} is outside the workspace"
        )));
    }
    let mut parts = Vec::new();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                return Err(WsError::Refused(format!("path {rel} leaves the workspace")));
            }
            other => parts.push(other),
        }
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entry(name: &str) -> DirEntry {
        DirEntry {
            name: name.to_string(),
            lossy: false,
            kind: EntryKind::File,
        }
    }

    #[test]
    fn names_sharing_their_first_eight_bytes_sort_by_the_rest() {
        let mut entries: Vec<DirEntry> = [
            "rule-0010.md",
            "rule-0002.md",
            "r1.md",
            "r10.md",
            "r",
            "a\0",
        ]
        .into_iter()
        .map(entry)
        .collect();
        sort_by_name(&mut entries);
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "a\0",
                "r",
                "r1.md",
                "r10.md",
                "rule-0002.md",
                "rule-0010.md"
            ]
        );
    }

    proptest! {
        /// The prefix comparison orders names exactly as comparing whole
        /// names does, whatever bytes they share (NUL, multi-byte, one a
        /// prefix of the other).
        #[test]
        fn sorting_by_name_is_byte_order(
            names in proptest::collection::hash_set(
                proptest::collection::vec(
                    proptest::sample::select(vec!['\0', 'a', 'b', '.', 'é', '世']),
                    0..12,
                ),
                0..40,
            ),
        ) {
            let names: Vec<String> = names.into_iter().map(String::from_iter).collect();
            let mut entries: Vec<DirEntry> = names.iter().map(|n| entry(n)).collect();
            sort_by_name(&mut entries);
            let mut expected = names.clone();
            expected.sort();
            let got: Vec<String> = entries.into_iter().map(|e| e.name).collect();
            prop_assert_eq!(got, expected);
        }

        /// Keys that repeat keep their items' order, as a stable sort by
        /// the whole key does.
        #[test]
        fn sorting_by_name_then_a_number_is_a_stable_sort(
            keys in proptest::collection::vec(
                (proptest::sample::select(vec!["", "a", "a\0", "ab", "abcdefgh", "abcdefghi", "é"]), 0..3usize),
                0..60,
            ),
        ) {
            let mut items: Vec<(&str, usize, usize)> =
                keys.iter().enumerate().map(|(at, &(name, n))| (name, n, at)).collect();
            let mut expected = items.clone();
            expected.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
            sort_by_name_then(&mut items, |item| (item.0, item.1));
            prop_assert_eq!(items, expected);
        }
    }
}
