//! Reading a directory's entries (SPEC §3.1: a listing names each entry
//! and what it is, a final link not followed).
//!
//! On Linux the entries are read with `getdents64` from a descriptor,
//! straight into [`DirEntry`] values through one buffer per thread: no
//! `opendir` buffer, no C string and no `OsString` per entry. A name that
//! is not UTF-8 is decoded lossily and marked so; an entry whose type the
//! file system does not report (`DT_UNKNOWN`) is looked at with
//! `fstatat` without following a link, and one that cannot be looked at
//! is an unknown special file, as with the standard library. `.` and `..`
//! are not entries.
//!
//! Elsewhere the portable path's `read_dir` reads them.

use std::io;
use std::path::Path;

use crate::workspace::{DirEntry, EntryKind};

/// A directory opened for reading its entries.
pub(super) type OpenDir = rustix::fd::OwnedFd;
/// Opens the directory at `path` (links followed) for [`entries`].
pub(super) fn open_dir(path: &Path) -> io::Result<OpenDir> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::DIRECTORY | OFlags::CLOEXEC;
    Ok(rustix::fs::open(path, flags, Mode::empty())?)
}

/// How many bytes of entries one `getdents64` asks for: a directory of a
/// few hundred commands in one or two calls (glibc's `opendir` takes as
/// much, allocated per directory; this is allocated once per thread).
const ENTRIES_BUFFER_BYTES: usize = 32 * 1024;

thread_local! {
    /// Where `getdents64` writes on this thread.
    static ENTRIES_BUFFER: std::cell::RefCell<Vec<u8>> =
        std::cell::RefCell::new(Vec::with_capacity(ENTRIES_BUFFER_BYTES));
}

/// The entries of `dir`, in the order the system gives them.
pub(super) fn read_all(dir: OpenDir) -> io::Result<Vec<DirEntry>> {
    entries(&dir)
}

/// The entries of the directory `dir` is open on, in the order the
/// system gives them; `dir` stays open.
pub(super) fn entries(dir: &OpenDir) -> io::Result<Vec<DirEntry>> {
    use rustix::fs::RawDir;
    ENTRIES_BUFFER.with_borrow_mut(|buffer| {
        let mut raw = RawDir::new(dir, buffer.spare_capacity_mut());
        let mut entries = Vec::with_capacity(64);
        while let Some(entry) = raw.next() {
            let entry = entry?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let (name, lossy) = match std::str::from_utf8(name) {
                Ok(name) => (name.to_string(), false),
                Err(_) => (String::from_utf8_lossy(name).into_owned(), true),
            };
            let kind = match entry.file_type() {
                rustix::fs::FileType::Unknown => unknown_kind(dir, entry.file_name()),
                known => kind_of_type(known),
            };
            entries.push(DirEntry { name, lossy, kind });
        }
        Ok(entries)
    })
}

/// What the entry `name` of `dir` is when its listing did not say: looked
/// at without following a link.
fn unknown_kind(dir: &OpenDir, name: &std::ffi::CStr) -> EntryKind {
    use rustix::fs::{AtFlags, FileType};
    match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => kind_of_type(FileType::from_raw_mode(stat.st_mode)),
        Err(_) => EntryKind::Other("unknown"),
    }
}

/// The kind of an entry of type `file_type`.
pub(super) fn kind_of_type(file_type: rustix::fs::FileType) -> EntryKind {
    use rustix::fs::FileType;
    match file_type {
        FileType::RegularFile => EntryKind::File,
        FileType::Directory => EntryKind::Dir,
        FileType::Symlink => EntryKind::Symlink,
        FileType::Fifo => EntryKind::Other("FIFO"),
        FileType::Socket => EntryKind::Other("socket"),
        FileType::CharacterDevice | FileType::BlockDevice => EntryKind::Other("device"),
        FileType::Unknown => EntryKind::Other("special file"),
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStrExt;

    use super::*;
    use crate::workspace::OsWorkspace;
    use crate::workspace::os::tests::{mkfifo, symlink};
    use crate::workspace::{LinkPolicy, Workspace, WsError};

    /// A directory holding one entry of each kind, a non-UTF-8 name among
    /// them.
    fn one_of_each() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("a.md"), "a").unwrap();
        std::fs::create_dir(root.join("d")).unwrap();
        std::fs::write(root.join("d/x.md"), "x").unwrap();
        mkfifo(&root.join("fifo"));
        symlink("a.md", root.join("link"));
        let odd = std::ffi::OsStr::from_bytes(b"n\xffx.md");
        std::fs::write(root.join(odd), "odd").unwrap();
        dir
    }

    fn summary(entries: &[DirEntry]) -> Vec<(String, bool, EntryKind)> {
        entries
            .iter()
            .map(|e| (e.name.clone(), e.lossy, e.kind))
            .collect()
    }

    #[test]
    fn a_descriptor_lists_names_and_kinds_without_dot_entries() {
        let dir = one_of_each();
        let fd = open_dir(dir.path()).unwrap();
        let mut listed = entries(&fd).unwrap();
        crate::workspace::sort_by_name(&mut listed);
        let want = [
            ("a.md", false, EntryKind::File),
            ("d", false, EntryKind::Dir),
            ("fifo", false, EntryKind::Other("FIFO")),
            ("link", false, EntryKind::Symlink),
            ("n\u{FFFD}x.md", true, EntryKind::File),
        ]
        .map(|(name, lossy, kind)| (name.to_string(), lossy, kind));
        assert_eq!(summary(&listed), want);
        // The same descriptor read again finds nothing more: it is read to
        // its end, not from a stale buffer.
        assert_eq!(entries(&fd).unwrap().len(), 0);
        // Both readers list the root ("") and a directory below it alike.
        for policy in [LinkPolicy::Confine, LinkPolicy::Follow] {
            let ws = OsWorkspace::new(dir.path(), policy);
            assert_eq!(summary(&ws.list("").unwrap()), want, "{policy:?}");
            assert_eq!(summary(&ws.list_unsorted(".").unwrap()).len(), 5);
            let below = summary(&ws.list("d").unwrap());
            assert_eq!(below, [("x.md".to_string(), false, EntryKind::File)]);
        }
    }

    #[test]
    fn an_entry_of_unknown_type_is_looked_at_without_following() {
        let dir = one_of_each();
        let fd = open_dir(dir.path()).unwrap();
        let kind = |name: &std::ffi::CStr| unknown_kind(&fd, name);
        assert_eq!(kind(c"a.md"), EntryKind::File);
        assert_eq!(kind(c"d"), EntryKind::Dir);
        assert_eq!(kind(c"fifo"), EntryKind::Other("FIFO"));
        assert_eq!(kind(c"link"), EntryKind::Symlink);
        assert_eq!(kind(c"gone"), EntryKind::Other("unknown"));
    }

    #[test]
    fn what_cannot_be_listed_is_classified_as_before() {
        let outside = tempfile::tempdir().unwrap();
        let dir = one_of_each();
        let root = dir.path();
        symlink(outside.path(), root.join("out"));
        symlink("d", root.join("in"));
        symlink("nowhere", root.join("dangling"));
        let ws = OsWorkspace::new(root, LinkPolicy::Confine);
        assert!(matches!(ws.list("missing"), Err(WsError::NotFound)));
        assert!(matches!(ws.list("d/missing"), Err(WsError::NotFound)));
        assert!(matches!(ws.list("a.md"), Err(WsError::NotADirectory)));
        assert!(matches!(ws.list("fifo"), Err(WsError::NotADirectory)));
        assert!(matches!(ws.list("out"), Err(WsError::Refused(_))));
        assert!(matches!(ws.list("../x"), Err(WsError::Refused(_))));
        assert!(matches!(ws.list("dangling"), Err(WsError::Unresolvable(_))));
        // A link to a directory inside is listed through the exact route.
        assert_eq!(ws.list("in").unwrap()[0].name, "x.md");
        let user = OsWorkspace::new(root, LinkPolicy::Follow);
        assert!(matches!(user.list("missing"), Err(WsError::NotFound)));
        assert!(matches!(user.list("a.md"), Err(WsError::NotADirectory)));
        assert!(matches!(
            user.list("dangling"),
            Err(WsError::Unresolvable(_))
        ));
        assert!(user.list("out").unwrap().is_empty());
    }
}
