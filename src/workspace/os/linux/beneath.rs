//! Opening a listed file beneath the root in one system call (Linux):
//! `openat2` relative to the root directory, with `RESOLVE_BENEATH` and
//! `RESOLVE_NO_SYMLINKS`, so the kernel itself refuses any symbolic link
//! on the way, final component included, and any step out of the root.
//! A path it opens therefore lies inside the root with no link to resolve,
//! which is what the exact route (a `realpath` compared with the canonical
//! root) would have concluded, without looking up each directory first
//! and without a window between that look-up and the open.
//!
//! Anything it does not open (a link met, a missing file, a kernel or
//! sandbox without `openat2`) is left to the exact route, so links keep
//! working as before and every error is classified as before.
//!
//! A directory is listed the same way: opened with `openat2` beneath the
//! root, no link allowed on its path, and read from that descriptor
//! ([`super::dirent`]). What the kernel refuses there too (a link on the
//! path, a missing directory, a file) takes the exact route, which
//! classifies it. Up to [`HELD_DIRECTORY_FDS`] listed directories are
//! kept open, and a file below one is opened relative to the deepest such
//! directory: a single name with `openat` and `O_NOFOLLOW`, so the kernel
//! walks one component and refuses a final link; more with `openat2`
//! beneath that directory, no link allowed. That open is as confined as
//! the one from the root because the directory was opened beneath the
//! root with no link on its path; what it does not open takes the exact
//! route, so a directory or file swapped for a link since it was listed
//! is looked at again.
//!
//! One case differs from opening from the root: a directory listed inside
//! the workspace and then renamed out of it by another process during the
//! run is still read through the descriptor held on it. Its content was
//! inside the workspace when it was listed; a hard link to a file outside
//! the workspace already gives the same.
//!
//! Elsewhere than on Linux there is no such call: the portable path has
//! no [`Beneath`] and every open takes the exact route.

use std::collections::HashMap;
use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fd::OwnedFd;
use rustix::fs::{AtFlags, FileType, Mode, OFlags, ResolveFlags};
use rustix::io::Errno;

use super::dirent;
use crate::limits::HELD_DIRECTORY_FDS;
use crate::workspace::DirEntry;
use crate::workspace::os::Looked;

/// How a file is opened for reading, from the root or from a held
/// directory: non-blocking (a FIFO swapped in cannot block the open),
/// never through a final link.
const READ_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// The root directory of a confined reader, held open.
#[derive(Debug)]
pub(in crate::workspace::os) struct Beneath {
    root: OwnedFd,
    /// Cleared the first time the system refuses `openat2` itself (an old
    /// kernel, a seccomp filter): every later open takes the exact route
    /// without trying again.
    supported: AtomicBool,
    /// Directories listed beneath the root, held open: normalised relative
    /// path (`""` for the root) → descriptor.
    listed: Mutex<HashMap<String, OwnedFd>>,
}

impl Beneath {
    /// Opens `root` (links in its own path followed, as the canonical root
    /// is); `None` when it cannot be opened.
    pub(in crate::workspace::os) fn open(root: &Path) -> Option<Self> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let root = rustix::fs::open(root, flags, Mode::empty()).ok()?;
        Some(Self {
            root,
            supported: AtomicBool::new(true),
            listed: Mutex::new(HashMap::new()),
        })
    }

    /// Opens the file at `rel` for reading, non-blocking, when it lies
    /// beneath the root with no symbolic link anywhere on its path: `None`
    /// when it was not tried (a path that is not plain relative components
    /// such as `a/b.md`, a system without `openat2`), the error when the
    /// kernel refused (a link met, a step out, a missing file), for the
    /// exact route to classify.
    pub(in crate::workspace::os) fn open_file(&self, rel: &str) -> Option<io::Result<File>> {
        if !is_plain(rel) || !self.supported.load(Ordering::Relaxed) {
            return None;
        }
        Some(
            self.open_beneath(&self.root, rel, READ_FLAGS)?
                .map(File::from),
        )
    }

    /// `openat2` of `rel` beneath the directory `dir` with `flags`, no
    /// link allowed: `None` when the system refuses the call itself (or
    /// refused it before).
    fn open_beneath(&self, dir: &OwnedFd, rel: &str, flags: OFlags) -> Option<io::Result<OwnedFd>> {
        if !self.supported.load(Ordering::Relaxed) {
            return None;
        }
        let resolve =
            ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(dir, rel, flags, Mode::empty(), resolve) {
            Ok(fd) => Some(Ok(fd)),
            Err(Errno::NOSYS | Errno::PERM | Errno::INVAL) => {
                self.supported.store(false, Ordering::Relaxed);
                None
            }
            Err(err) => Some(Err(err.into())),
        }
    }

    /// Lists the directory at `dir` (plain relative components joined by
    /// `/`, `""` for the root) when it lies beneath the root with no link
    /// on its path, and keeps it open while fewer than
    /// [`HELD_DIRECTORY_FDS`] are: `None` when it was not opened (a link
    /// on the path, a file, no `openat2`), for the exact route to list or
    /// classify.
    ///
    /// A missing directory is the `NotFound` error: the kernel walked the
    /// path up to the missing name refusing every link, so no link on it
    /// could lead elsewhere, and the exact route (a `realpath` of every
    /// component) would only find the same. The walk of an agent asks for
    /// `.claude/rules`, `.claude/skills` and `.claude/commands` at every
    /// level, mostly missing: answered in one system call each.
    pub(in crate::workspace::os) fn list(&self, dir: &str) -> Option<io::Result<Vec<DirEntry>>> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let path = if dir.is_empty() { "." } else { dir };
        let fd = match self.open_beneath(&self.root, path, flags)? {
            Ok(fd) => fd,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Some(Err(err)),
            Err(_) => return None,
        };
        let entries = dirent::entries(&fd);
        if entries.is_ok() {
            // A poisoned lock only loses the shortcut.
            if let Ok(mut listed) = self.listed.lock()
                && (listed.len() < HELD_DIRECTORY_FDS || listed.contains_key(dir))
            {
                listed.insert(dir.to_string(), fd);
            }
        }
        Some(entries)
    }

    /// Opens `rel` (plain relative components) for reading, non-blocking,
    /// relative to the deepest directory above it that a listing holds
    /// open: a single name with `openat` and `O_NOFOLLOW`, more with
    /// `openat2` beneath that directory, no link allowed. `None` when no
    /// directory above it is held or `rel` is not plain, for the route
    /// from the root to try; the error when the open fails, for the exact
    /// route to classify (opening from the root would find what the held
    /// directory does, or a link the kernel refuses as well).
    pub(in crate::workspace::os) fn open_listed(&self, rel: &str) -> Option<io::Result<File>> {
        self.below_held(rel, |dir, below| {
            let opened = if below.contains('/') {
                self.open_beneath(dir, below, READ_FLAGS)?
            } else {
                rustix::fs::openat(dir, below, READ_FLAGS, Mode::empty()).map_err(io::Error::from)
            };
            Some(opened.map(File::from))
        })?
    }

    /// What `rel` (plain relative components) is, without following any
    /// link: looked at in its directory when a listing holds that open
    /// (one `statat`), else opened as a path only (`O_PATH`) beneath the
    /// deepest held directory above it, or the root, with no link allowed,
    /// and looked at through that descriptor; what the held directory does
    /// not have is looked for again from the root. Either way a directory
    /// swapped for a link since it was listed or looked up is never looked
    /// through.
    pub(in crate::workspace::os) fn stat(&self, rel: &str) -> Looked {
        let in_held = self.below_held(rel, |dir, below| {
            if below.contains('/') {
                self.look_beneath(dir, below)
            } else {
                Some(
                    rustix::fs::statat(dir, below, AtFlags::SYMLINK_NOFOLLOW)
                        .map(|stat| FileType::from_raw_mode(stat.st_mode))
                        .map_err(io::Error::from),
                )
            }
        });
        let looked = match in_held {
            Some(Some(Ok(kind))) => Some(Ok(kind)),
            // Not below the held directory (or none is held): it may have
            // been swapped for a link since, so the path is looked at again
            // from the root.
            Some(Some(Err(_))) | None if is_plain(rel) => self.look_beneath(&self.root, rel),
            _ => None,
        };
        match looked {
            None => Looked::Untried,
            Some(Ok(FileType::Symlink)) => Looked::Link,
            Some(Err(err)) if matches!(err.raw_os_error(), Some(libc::ELOOP | libc::EXDEV)) => {
                Looked::Link
            }
            Some(looked) => Looked::Kind(looked.map(dirent::kind_of_type)),
        }
    }

    /// What `rel` is below the directory `dir`: opened as a path only
    /// (`O_PATH`) beneath it with no link allowed, and looked at through
    /// that descriptor; `None` when the system refuses `openat2` itself.
    fn look_beneath(&self, dir: &OwnedFd, rel: &str) -> Option<io::Result<FileType>> {
        let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let opened = self.open_beneath(dir, rel, flags)?;
        Some(opened.and_then(|fd| {
            rustix::fs::fstat(&fd)
                .map(|stat| FileType::from_raw_mode(stat.st_mode))
                .map_err(io::Error::from)
        }))
    }

    /// Hands `at` the deepest directory above `rel` (plain relative
    /// components, no NUL) that a listing holds open, and the rest of the
    /// path below it; `None` when `rel` is not plain or no directory above
    /// it is held.
    fn below_held<T>(&self, rel: &str, at: impl FnOnce(&OwnedFd, &str) -> T) -> Option<T> {
        if !is_plain(rel) {
            return None;
        }
        let listed = self.listed.lock().ok()?;
        let mut end = rel.len();
        loop {
            let cut = rel[..end].rfind('/');
            let dir = cut.map_or("", |cut| &rel[..cut]);
            if let Some(fd) = listed.get(dir) {
                return Some(at(fd, &rel[cut.map_or(0, |cut| cut + 1)..]));
            }
            end = cut?;
        }
    }
}

/// Whether `rel` is relative components joined by `/`, none of them empty,
/// `.` or `..`, and holds no NUL (which no path can). One pass over the
/// bytes: it runs for every file read, where splitting the path into
/// strings cost more than the look-up it guards.
fn is_plain(rel: &str) -> bool {
    // A part is `.` or `..` when it is one or two bytes, all dots.
    let bad_part = |len: usize, dots: usize| len == 0 || (dots == len && len <= 2);
    let (mut len, mut dots) = (0, 0);
    for &byte in rel.as_bytes() {
        match byte {
            b'/' if bad_part(len, dots) => return false,
            b'/' => (len, dots) = (0, 0),
            0 => return false,
            b'.' => (len, dots) = (len + 1, dots + 1),
            _ => len += 1,
        }
    }
    !bad_part(len, dots)
}

#[cfg(test)]
mod tests {
    use crate::limits::HELD_DIRECTORY_FDS;
    use crate::workspace::OsWorkspace;
    use crate::workspace::os::tests::symlink;
    use crate::workspace::{EntryKind, LinkPolicy, Workspace, WsError};

    #[test]
    fn plain_paths_are_components_without_empty_dot_or_nul_parts() {
        let by_parts = |rel: &str| {
            !rel.contains('\0') && rel.split('/').all(|part| !matches!(part, "" | "." | ".."))
        };
        for rel in [
            "",
            ".",
            "..",
            "...",
            "a",
            "a/b.md",
            ".a",
            "a.",
            "..a",
            "a..",
            "./a",
            "a/.",
            "a/..",
            "a/../b",
            "a//b",
            "/a",
            "a/",
            "a/.../b",
            ".claude/skills/s/SKILL.md",
            "a\0b",
            "\0",
            "é/ü.md",
            "a/.b/..c/d..",
        ] {
            assert_eq!(super::is_plain(rel), by_parts(rel), "{rel:?}");
        }
    }

    fn read(ws: &OsWorkspace, rel: &str) -> Result<Vec<u8>, WsError> {
        ws.read_listed(rel, EntryKind::File, 100)
            .map(|read| read.bytes)
    }

    #[test]
    fn files_below_a_listed_directory_are_opened_from_its_descriptor() {
        let (outside, dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let root = dir.path();
        std::fs::create_dir_all(root.join("cmds/sub")).unwrap();
        std::fs::create_dir_all(root.join("skills/k")).unwrap();
        std::fs::write(root.join("cmds/a.md"), "a").unwrap();
        std::fs::write(root.join("cmds/sub/b.md"), "b").unwrap();
        std::fs::write(root.join("skills/k/SKILL.md"), "k").unwrap();
        let ws = OsWorkspace::new(root, LinkPolicy::Confine);
        assert_eq!(ws.list("cmds").unwrap().len(), 2);
        assert_eq!(ws.list("skills").unwrap().len(), 1);
        assert_eq!(read(&ws, "cmds/a.md").unwrap(), b"a");
        assert_eq!(read(&ws, "cmds/sub/b.md").unwrap(), b"b");
        assert_eq!(read(&ws, "skills/k/SKILL.md").unwrap(), b"k");
        assert_eq!(ws.read("cmds/a.md", 100).unwrap().bytes, b"a");
        // The held descriptors are what these reads go through: the
        // directories, moved out of the workspace by someone else, are
        // still read (the one case the module documents).
        let moved = outside.path().join("moved");
        std::fs::rename(root.join("cmds"), &moved).unwrap();
        assert_eq!(read(&ws, "cmds/a.md").unwrap(), b"a");
        assert_eq!(read(&ws, "cmds/sub/b.md").unwrap(), b"b");
        // A path that is not plain never goes through them.
        assert!(matches!(read(&ws, "cmds/./a.md"), Err(WsError::NotFound)));
        // Links met below a held directory are refused or followed as from
        // the root: a file swapped for a link, a directory swapped for one.
        std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
        std::fs::write(root.join("inner.md"), "inner").unwrap();
        std::fs::remove_file(moved.join("a.md")).unwrap();
        symlink(outside.path().join("secret"), moved.join("a.md"));
        std::fs::rename(&moved, root.join("cmds")).unwrap();
        assert!(matches!(read(&ws, "cmds/a.md"), Err(WsError::Refused(_))));
        std::fs::remove_file(root.join("cmds/a.md")).unwrap();
        symlink("../inner.md", root.join("cmds/a.md"));
        assert_eq!(read(&ws, "cmds/a.md").unwrap(), b"inner");
        std::fs::remove_dir_all(root.join("skills/k")).unwrap();
        symlink(outside.path(), root.join("skills/k"));
        std::fs::write(outside.path().join("SKILL.md"), "out").unwrap();
        assert!(matches!(
            read(&ws, "skills/k/SKILL.md"),
            Err(WsError::Refused(_))
        ));
    }

    #[test]
    fn past_the_bound_listed_directories_are_not_held() {
        let (outside, dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let root = dir.path();
        let count = HELD_DIRECTORY_FDS + 3;
        for at in 0..count {
            std::fs::create_dir(root.join(format!("d{at}"))).unwrap();
            std::fs::write(root.join(format!("d{at}/x.md")), format!("{at}")).unwrap();
        }
        let ws = OsWorkspace::new(root, LinkPolicy::Confine);
        for at in 0..count {
            assert_eq!(ws.list(&format!("d{at}")).unwrap().len(), 1);
            let rel = format!("d{at}/x.md");
            assert_eq!(read(&ws, &rel).unwrap(), format!("{at}").as_bytes());
        }
        // Moved out of the workspace, the held ones are still read through
        // their descriptors, the others are not found: exactly the bound
        // is held.
        for at in 0..count {
            let to = outside.path().join(format!("d{at}"));
            std::fs::rename(root.join(format!("d{at}")), to).unwrap();
        }
        let still_read = (0..count)
            .filter(|at| read(&ws, &format!("d{at}/x.md")).is_ok())
            .count();
        assert_eq!(still_read, HELD_DIRECTORY_FDS);
    }
}
