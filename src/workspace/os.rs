//! [`OsWorkspace`]: the workspace port over a directory on disk (SPEC §3.1,
//! §20.1).
//!
//! The routes below (resolve, check, open, read to the bound) are the same
//! on every system; what differs per platform sits behind one small
//! interface, [`sys`], picked here and nowhere else:
//!
//! - the file primitives: what an entry is, opening a file for reading
//!   without blocking and without following a final link, positioned
//!   reads, telling a link loop from other errors — [`unix`] for every Unix,
//!   [`windows`] for Windows;
//! - the fast path: on Linux ([`linux`]) files and directories opened
//!   beneath the root held open (`openat2` with `RESOLVE_BENEATH |
//!   RESOLVE_NO_SYMLINKS`), listings read with `getdents64`, a few listed
//!   directories held open; elsewhere ([`portable`]) no such path, listings
//!   from the standard library, and every file takes the routes of
//!   [`OsWorkspace`] that resolve links by path.
//!
//! Both keep the same promises: never follow a link out of the workspace
//! (on Windows symbolic links, junctions and every other reparse point are
//! links), never block on a FIFO or a device, never read past the caller's
//! bound. What the portable path cannot promise:
//!
//! - Between resolving a path (a `realpath`, or `GetFinalPathNameByHandle`
//!   on Windows) and opening it, another process can swap a directory of
//!   that path for a link. The open itself refuses a final link (Unix
//!   `O_NOFOLLOW`; Windows opens the reparse point itself and refuses it),
//!   but not one on a directory above, so a process racing the tool on a
//!   directory it can write can make one read go out of the workspace. On
//!   Linux the kernel closes that window for every path with no link on it.
//! - On Windows, a file named like a device (`CON.md`, `aux/x.md`) is
//!   refused as a device rather than read; the look before the open is
//!   what keeps a device from being opened at all.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::{Bounded, DirEntry, EntryKind, LinkPolicy, Workspace, WsError, components};

#[cfg(target_os = "linux")]
mod linux;
#[cfg(not(target_os = "linux"))]
mod portable;
#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

/// The platform's side of the workspace port: the one place that picks a
/// platform module.
mod sys {
    #[cfg(target_os = "linux")]
    pub(super) use super::linux::{Beneath, list_dir};
    #[cfg(not(target_os = "linux"))]
    pub(super) use super::portable::{Beneath, list_dir};
    #[cfg(all(unix, not(target_os = "linux")))]
    pub(super) use super::unix::kind_of_type;
    #[cfg(unix)]
    pub(super) use super::unix::{is_loop, kind_of, open_file, plain_path, read_at};
    #[cfg(windows)]
    pub(super) use super::windows::{
        is_loop, kind_of, kind_of_type, open_file, plain_path, read_at,
    };
}

use sys::Beneath;

/// Where [`OsWorkspace::quick_lstat`] found a path that has no link to
/// resolve, which makes its real path known without a look-up.
enum Found {
    /// Beneath the root with no link on its path: its real path is the
    /// canonical root joined with its components.
    BelowRoot,
    /// At this path: confined, its real path (its directory's canonical
    /// path and its name); following links, its path below the root.
    At(PathBuf),
}

/// What a look at a path without following a link found. Only the Linux
/// path looks beneath the root ([`Beneath::stat`]); elsewhere no value of
/// `Beneath` exists, so the variants are never built there.
#[derive(Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
enum Looked {
    /// Not looked at (a path that is not plain components, no `openat2`,
    /// a directory not known to lie inside the root): another route must
    /// look.
    Untried,
    /// A link on the path: the exact route resolves it.
    Link,
    /// What the entry is, or why it cannot be looked at (a missing one).
    Kind(io::Result<EntryKind>),
}

fn other_name(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Dir => "directory",
        EntryKind::Other(name) => name,
        EntryKind::File => "file",
        EntryKind::Symlink => "symlink",
    }
}

/// Opens the file at `path` for reading without blocking on it (a FIFO or
/// a device is never waited on), following links: for readers outside the
/// workspace port (the memory store's lock file).
pub(crate) fn open_nonblocking(path: &Path) -> io::Result<File> {
    sys::open_file(path, false)
}

/// A workspace rooted at a directory on disk.
///
/// A confined reader decides confinement by resolving paths (`..`-free,
/// links followed) and checking that they stay under the canonical root.
/// Resolving every path component of every file would cost several system
/// calls per file, so the canonical path of each directory is resolved
/// once and remembered: below a directory known to lie inside the root, a
/// final component that is not a symbolic link needs no resolution, and a
/// file a listing reported as regular is opened with `O_NOFOLLOW` straight
/// away. Links, and everything under a directory that does not resolve
/// inside the root, take the exact (resolving) route.
///
/// On Linux a listed regular file is first opened beneath the root held
/// open ([`beneath`]): the kernel refuses any link on its path, so no
/// directory of it needs looking up; what that open refuses takes the
/// routes above. Directories are listed the same way, and a few of them
/// held open so that a file listed in one is opened relative to it: see
/// [`beneath`] for the one case where that differs from opening the file
/// from the root (a listed directory renamed out of the workspace during
/// the run).
#[derive(Debug)]
pub struct OsWorkspace {
    root: PathBuf,
    canonical_root: Option<PathBuf>,
    policy: LinkPolicy,
    /// Confine only: directory (normalised relative path) → its canonical
    /// path when it resolves inside the root, `None` when it does not
    /// resolve or lies outside (paths below it take the exact route).
    dirs: Mutex<HashMap<String, Option<PathBuf>>>,
    /// Confine only: the root held open, when it could be opened.
    beneath: Option<Beneath>,
}

impl OsWorkspace {
    /// A reader rooted at `root` with the given link policy. A root that does
    /// not exist yields a workspace where every path is not found.
    pub fn new(root: impl Into<PathBuf>, policy: LinkPolicy) -> Self {
        let root = root.into();
        let (canonical_root, beneath) = match policy {
            LinkPolicy::Confine => (std::fs::canonicalize(&root).ok(), Beneath::open(&root)),
            LinkPolicy::Follow => (None, None),
        };
        Self {
            root,
            canonical_root,
            policy,
            dirs: Mutex::new(HashMap::new()),
            beneath,
        }
    }

    /// The link policy this reader applies.
    pub fn policy(&self) -> LinkPolicy {
        self.policy
    }

    fn full_path(&self, parts: &[&str]) -> PathBuf {
        parts.iter().fold(self.root.clone(), |p, c| p.join(c))
    }

    /// Resolves `rel` to the path to open, applying the link policy: the
    /// exact route, which resolves every component in confined mode.
    fn resolve(&self, parts: &[&str]) -> Result<PathBuf, WsError> {
        let full = self.full_path(parts);
        match self.policy {
            LinkPolicy::Follow => Ok(full),
            LinkPolicy::Confine => {
                let Some(canonical_root) = &self.canonical_root else {
                    return Err(WsError::NotFound);
                };
                match std::fs::canonicalize(&full) {
                    Ok(resolved) if resolved.starts_with(canonical_root) => Ok(resolved),
                    Ok(_) => Err(WsError::Refused(
                        "symlink resolves outside the workspace; not followed".to_string(),
                    )),
                    Err(err) => Err(unresolved(&full, err)),
                }
            }
        }
    }

    /// Confine only: the canonical path of the directory `parts` when it is
    /// known to resolve inside the root; `None` sends the caller down the
    /// exact route.
    ///
    /// A directory whose parent is known is its parent's canonical path
    /// joined with its name when it is not a link (one `lstat`, not a
    /// `realpath` of every component: a tree of skill directories looks at
    /// each once); otherwise, and for a link, the path is canonicalised.
    fn canonical_dir(&self, parts: &[&str]) -> Option<PathBuf> {
        let canonical_root = self.canonical_root.as_ref()?;
        let Some((name, parent)) = parts.split_last() else {
            return Some(canonical_root.clone());
        };
        let key = parts.join("/");
        // A poisoned lock only means another thread panicked mid-insert;
        // the exact route is always correct, so fall back to it. The lock is
        // not held while the parent is looked up.
        if let Some(known) = self.dirs.lock().ok()?.get(&key) {
            return known.clone();
        }
        let below_parent = self.canonical_dir(parent).and_then(|dir| {
            let path = dir.join(name);
            let meta = std::fs::symlink_metadata(&path).ok()?;
            (sys::kind_of(&meta) == EntryKind::Dir).then_some(path)
        });
        let found = below_parent.or_else(|| {
            std::fs::canonicalize(self.full_path(parts))
                .ok()
                .filter(|dir| dir.starts_with(canonical_root))
        });
        self.dirs.lock().ok()?.insert(key, found.clone());
        found
    }

    /// Confine only: the path of the last component of `parts` below its
    /// canonical directory, when that directory is known to lie inside the
    /// root. The last component itself is not resolved.
    fn beneath_known_dir(&self, parts: &[&str]) -> Option<PathBuf> {
        let (name, dir) = parts.split_last()?;
        Some(self.canonical_dir(dir)?.join(name))
    }

    /// Where `parts` can be looked at by path without resolving it again:
    /// confined, below its directory's remembered canonical path (when
    /// that is known); following links, its path below the root.
    fn known_path(&self, parts: &[&str]) -> Option<PathBuf> {
        match self.policy {
            LinkPolicy::Confine => self.beneath_known_dir(parts),
            LinkPolicy::Follow => Some(self.full_path(parts)),
        }
    }

    /// What `parts` is when its last component is not a link, found
    /// without following that, and where. Confined: beneath the root
    /// ([`Beneath::stat`]); where that is not tried (no `openat2`), by its
    /// name below its directory's remembered canonical path, when that is
    /// known. Following links: by its path, links on the way followed, so
    /// a missing file costs one look (the exact route would look again to
    /// tell a dangling link). `None` sends the caller down the exact route.
    fn quick_lstat(&self, parts: &[&str]) -> Option<Result<(EntryKind, Found), WsError>> {
        if let Some(beneath) = &self.beneath {
            match beneath.stat(&parts.join("/")) {
                Looked::Kind(kind) => {
                    return Some(
                        kind.map(|kind| (kind, Found::BelowRoot))
                            .map_err(lstat_failure),
                    );
                }
                Looked::Link => return None,
                Looked::Untried => {}
            }
        }
        let path = self.known_path(parts)?;
        match std::fs::symlink_metadata(&path) {
            Ok(meta) => match sys::kind_of(&meta) {
                EntryKind::Symlink => None,
                kind => Some(Ok((kind, Found::At(path)))),
            },
            Err(err) => Some(Err(lstat_failure(err))),
        }
    }

    /// The exact route of `read`: resolve, check the type, then open.
    fn read_resolved(&self, parts: &[&str], max_bytes: u64) -> Result<Bounded, WsError> {
        let path = self.resolve(parts)?;
        let meta = std::fs::metadata(&path).map_err(|e| io_to_ws(&path, e))?;
        let kind = sys::kind_of(&meta);
        if kind != EntryKind::File {
            return Err(WsError::NotRegular(other_name(kind)));
        }
        let file = sys::open_file(&path, false).map_err(|e| io_to_ws(&path, e))?;
        read_regular(file, max_bytes)
    }

    /// Reads `rel`, known or taken to be a regular file, opened beneath the
    /// root ([`beneath`]); what that open refuses takes the exact route.
    /// `None` when it was not tried.
    fn read_beneath(&self, rel: &str, max_bytes: u64) -> Option<Result<Bounded, WsError>> {
        let beneath = self.beneath.as_ref()?;
        let opened = match beneath.open_listed(rel).or_else(|| beneath.open_file(rel)) {
            Some(opened) => opened,
            // Not plain (`./a.md`, `a//b.md`): its components, joined.
            None => match components(rel) {
                Ok(parts) => beneath.open_file(&parts.join("/"))?,
                Err(err) => return Some(Err(err)),
            },
        };
        Some(match opened {
            Ok(file) => read_regular(file, max_bytes),
            Err(_) => components(rel).and_then(|parts| self.read_resolved(&parts, max_bytes)),
        })
    }

    /// Lists the directory `parts` opened beneath the root ([`beneath`]),
    /// and remembers that it lies inside the root; `None` when it was not
    /// opened so, for the exact route to list or classify. A directory
    /// the kernel found missing is not found.
    fn list_beneath(&self, parts: &[&str]) -> Option<Result<Vec<DirEntry>, WsError>> {
        let dir = parts.join("/");
        let listed = match self.beneath.as_ref()?.list(&dir)? {
            Ok(listed) => listed,
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                return Some(Err(WsError::NotFound));
            }
            Err(err) => return Some(Err(WsError::Io(err))),
        };
        // No link on its path: its canonical path is the root's joined
        // with its components, with no look-up (a poisoned lock only
        // loses that).
        if let Ok(mut dirs) = self.dirs.lock() {
            dirs.entry(dir)
                .or_insert_with(|| self.below_canonical_root(parts));
        }
        Some(Ok(listed))
    }

    /// Confine only: the canonical root joined with `parts`, the real path
    /// of a path the kernel found beneath the root with no link on it.
    fn below_canonical_root(&self, parts: &[&str]) -> Option<PathBuf> {
        let root = self.canonical_root.as_ref()?;
        Some(
            parts
                .iter()
                .fold(root.clone(), |path, part| path.join(part)),
        )
    }

    /// Opens `path`, known to be a regular file below a directory inside the
    /// root, without following a final link. `None` when it was replaced by
    /// a link since it was looked at: the caller takes the exact route.
    fn read_known_file(&self, path: &Path, max_bytes: u64) -> Option<Result<Bounded, WsError>> {
        let nofollow = self.policy == LinkPolicy::Confine;
        match sys::open_file(path, nofollow) {
            Ok(file) => Some(read_regular(file, max_bytes)),
            // A final link refused (or, on Windows, anything that is not
            // a regular file): the exact route resolves and classifies it.
            Err(err) if sys::is_loop(&err) => None,
            Err(err) => Some(Err(lstat_failure(err))),
        }
    }
}

/// How much of a file the first read asks for: all of a command, a rule or
/// a skill as people write them, so such a file takes one read.
const FIRST_READ_BYTES: usize = 16 * 1024;

/// Reads at most `max_bytes` of an opened file that was found regular
/// (by its listing or a look-up before the open).
///
/// Reads are positioned (`pread`), which every file that is not seekable
/// refuses (a FIFO or socket swapped in since the look-up: `ESPIPE`), as a
/// directory does (`EISDIR`); such a file is classified with `fstat` and
/// reported as not regular, never read. A first read shorter than asked
/// is the end of the file, which then needs no `fstat` at all: a file
/// that fills it is measured with `fstat` (checked regular again) and read
/// on to the bound.
fn read_regular(file: File, max_bytes: u64) -> Result<Bounded, WsError> {
    let asked = usize::try_from(max_bytes).map_or(FIRST_READ_BYTES, |m| m.min(FIRST_READ_BYTES));
    let first = match first_read(&file, asked) {
        Ok(first) => first,
        Err(err) => match err.kind() {
            io::ErrorKind::NotSeekable
            | io::ErrorKind::IsADirectory
            | io::ErrorKind::InvalidInput => {
                let kind = sys::kind_of(&file.metadata()?);
                if kind == EntryKind::File {
                    return Err(WsError::Io(err));
                }
                return Err(WsError::NotRegular(other_name(kind)));
            }
            _ => return Err(WsError::Io(err)),
        },
    };
    if first.len() < asked {
        let size = first.len() as u64;
        return Ok(Bounded { bytes: first, size });
    }
    let meta = file.metadata()?;
    let kind = sys::kind_of(&meta);
    if kind != EntryKind::File {
        return Err(WsError::NotRegular(other_name(kind)));
    }
    read_bounded(&file, first, meta.len(), max_bytes)
}

thread_local! {
    /// Where each first read on this thread lands before it is copied out
    /// at its length: zeroed once, not once a file.
    static FIRST_READ: RefCell<Vec<u8>> = RefCell::new(vec![0; FIRST_READ_BYTES]);
}

/// The first bytes of `file`, at most `asked` (at most
/// [`FIRST_READ_BYTES`]), from one positioned read.
fn first_read(file: &File, asked: usize) -> io::Result<Vec<u8>> {
    FIRST_READ.with_borrow_mut(|buffer| {
        let buffer = &mut buffer[..asked.min(FIRST_READ_BYTES)];
        loop {
            match sys::read_at(file, buffer, 0) {
                Ok(got) => return Ok(buffer[..got].to_vec()),
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
    })
}

/// Classifies a failure to look at a path whose directory is known and
/// whose last component is not followed: a missing entry is not found.
fn lstat_failure(err: io::Error) -> WsError {
    match err.kind() {
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => WsError::NotFound,
        _ if sys::is_loop(&err) => WsError::Unresolvable("symlink loop".to_string()),
        _ => WsError::Io(err),
    }
}

/// Classifies a failure to resolve `full`: a link loop or dangling link is
/// unresolvable, a missing path is not found, anything else is a fault.
fn unresolved(full: &Path, err: io::Error) -> WsError {
    match err.kind() {
        _ if sys::is_loop(&err) => WsError::Unresolvable("symlink loop".to_string()),
        io::ErrorKind::NotADirectory => WsError::NotFound,
        io::ErrorKind::NotFound => match std::fs::symlink_metadata(full) {
            Ok(meta) if sys::kind_of(&meta) == EntryKind::Symlink => {
                WsError::Unresolvable("dangling symlink".to_string())
            }
            _ => WsError::NotFound,
        },
        _ => WsError::Io(err),
    }
}

fn io_to_ws(full: &Path, err: io::Error) -> WsError {
    unresolved(full, err)
}

impl Workspace for OsWorkspace {
    fn root(&self) -> &Path {
        &self.root
    }

    fn display(&self, rel: &str) -> String {
        match self.policy {
            LinkPolicy::Confine => rel.trim_start_matches("./").to_string(),
            LinkPolicy::Follow => {
                let parts = components(rel).unwrap_or_default();
                self.full_path(&parts).display().to_string()
            }
        }
    }

    fn display_owned(&self, rel: String) -> String {
        match self.policy {
            LinkPolicy::Confine if !rel.starts_with("./") => rel,
            _ => self.display(&rel),
        }
    }

    fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
        let parts = components(rel)?;
        if let Some(looked) = self.quick_lstat(&parts) {
            return looked.map(|(kind, _)| kind);
        }
        let path = self.resolve(&parts)?;
        let meta = std::fs::metadata(&path).map_err(|e| io_to_ws(&path, e))?;
        Ok(sys::kind_of(&meta))
    }

    fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
        let parts = components(rel)?;
        match self.quick_lstat(&parts) {
            Some(Ok((EntryKind::File, found))) => {
                if let Some(read) = self.read_beneath(rel, max_bytes) {
                    return read;
                }
                if let Found::At(path) = found
                    && let Some(read) = self.read_known_file(&path, max_bytes)
                {
                    return read;
                }
            }
            Some(Ok((kind, _))) => return Err(WsError::NotRegular(other_name(kind))),
            Some(Err(err)) => return Err(err),
            None => {}
        }
        self.read_resolved(&parts, max_bytes)
    }

    fn read_listed(&self, rel: &str, kind: EntryKind, max_bytes: u64) -> Result<Bounded, WsError> {
        if kind != EntryKind::File {
            return self.read(rel, max_bytes);
        }
        if let Some(read) = self.read_beneath(rel, max_bytes) {
            return read;
        }
        let parts = components(rel)?;
        if let Some(read) = self
            .known_path(&parts)
            .and_then(|path| self.read_known_file(&path, max_bytes))
        {
            return read;
        }
        self.read_resolved(&parts, max_bytes)
    }

    /// Confined, a path with no link on it is its canonical directory's
    /// path joined with its name, found as [`Workspace::stat`] looks
    /// (one system call, none per component); a path with a link takes
    /// the exact route (a `realpath`). The answer is in its plain form ([`sys::plain_path`]: on Windows
    /// `C:\…` rather than the canonical `\\?\C:\…`), as paths are shown.
    fn real_path(&self, rel: &str) -> Result<PathBuf, WsError> {
        let parts = components(rel)?;
        let real = match self.policy {
            LinkPolicy::Confine => match self.quick_lstat(&parts) {
                Some(Ok((_, Found::BelowRoot))) => {
                    self.below_canonical_root(&parts).ok_or(WsError::NotFound)
                }
                Some(Ok((_, Found::At(path)))) => Ok(path),
                Some(Err(err)) => Err(err),
                None => self.resolve(&parts),
            },
            LinkPolicy::Follow => {
                let full = self.full_path(&parts);
                std::fs::canonicalize(&full).map_err(|err| unresolved(&full, err))
            }
        };
        real.map(sys::plain_path)
    }

    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        let mut entries = self.list_unsorted(rel)?;
        crate::workspace::sort_by_name(&mut entries);
        Ok(entries)
    }

    fn list_unsorted(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        let parts = components(rel)?;
        if let Some(listed) = self.list_beneath(&parts) {
            return listed;
        }
        let path = match self.canonical_dir(&parts) {
            Some(path) => path,
            None => self.resolve(&parts)?,
        };
        sys::list_dir(&path).map_err(|e| match e.kind() {
            io::ErrorKind::NotADirectory => WsError::NotADirectory,
            _ => io_to_ws(&path, e),
        })
    }
}

/// Reads `file` on from the end of `bytes` (its first bytes) up to the
/// bound, given the `size` fstat reported.
fn read_bounded(
    file: &File,
    mut bytes: Vec<u8>,
    size: u64,
    max_bytes: u64,
) -> Result<Bounded, WsError> {
    // A file is read as large as fstat said it was (no read that only
    // finds the end). A size of 0 may be a file that does not know its
    // size (procfs), so it is read to the bound.
    let want = if size == 0 {
        max_bytes
    } else {
        size.min(max_bytes)
    };
    let want = usize::try_from(want).unwrap_or(usize::MAX);
    // Straight into the buffer, as large as fstat said; a file of unknown
    // size a chunk at a time.
    while bytes.len() < want {
        let start = bytes.len();
        let end = if size == 0 {
            want.min(start + FIRST_READ_BYTES)
        } else {
            want
        };
        bytes.resize(end, 0);
        match sys::read_at(file, &mut bytes[start..], start as u64) {
            Ok(0) => {
                bytes.truncate(start);
                break;
            }
            Ok(got) => bytes.truncate(start + got),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => bytes.truncate(start),
            Err(err) => return Err(WsError::Io(err)),
        }
    }
    // The size from fstat can lag a file that grows while we read; never
    // report fewer bytes than we actually got.
    let size = size.max(bytes.len() as u64);
    Ok(Bounded { bytes, size })
}

#[cfg(test)]
mod tests;
