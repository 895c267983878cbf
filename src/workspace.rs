//! The workspace port (SPEC §3.1): every file the engine sees is read through
//! a [`Workspace`], never with `std::fs` directly from the domain.
//!
//! Two implementations ship: [`OsWorkspace`], rooted at a directory on disk,
//! and [`MemWorkspace`], an in-memory tree for tests. Paths handed to a
//! workspace are relative, `/`-separated, and never contain `..`.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

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
}

/// Joins workspace-relative path pieces with `/`, skipping empty ones.
pub fn join(dir: &str, name: &str) -> String {
    match (dir.is_empty(), name.is_empty()) {
        (true, _) => name.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{}/{}", dir.trim_end_matches('/'), name),
    }
}

/// Splits a relative path into its components, refusing absolute paths and
/// `..`; `.` and empty components are dropped.
fn components(rel: &str) -> Result<Vec<&str>, WsError> {
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

fn kind_of(file_type: std::fs::FileType) -> EntryKind {
    if file_type.is_symlink() {
        EntryKind::Symlink
    } else if file_type.is_file() {
        EntryKind::File
    } else if file_type.is_dir() {
        EntryKind::Dir
    } else if file_type.is_fifo() {
        EntryKind::Other("FIFO")
    } else if file_type.is_socket() {
        EntryKind::Other("socket")
    } else if file_type.is_char_device() || file_type.is_block_device() {
        EntryKind::Other("device")
    } else {
        EntryKind::Other("special file")
    }
}

fn other_name(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Dir => "directory",
        EntryKind::Other(name) => name,
        EntryKind::File => "file",
        EntryKind::Symlink => "symlink",
    }
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
#[derive(Debug)]
pub struct OsWorkspace {
    root: PathBuf,
    canonical_root: Option<PathBuf>,
    policy: LinkPolicy,
    /// Confine only: directory (normalised relative path) → its canonical
    /// path when it resolves inside the root, `None` when it does not
    /// resolve or lies outside (paths below it take the exact route).
    dirs: Mutex<HashMap<String, Option<PathBuf>>>,
}

impl OsWorkspace {
    /// A reader rooted at `root` with the given link policy. A root that does
    /// not exist yields a workspace where every path is not found.
    pub fn new(root: impl Into<PathBuf>, policy: LinkPolicy) -> Self {
        let root = root.into();
        let canonical_root = match policy {
            LinkPolicy::Confine => std::fs::canonicalize(&root).ok(),
            LinkPolicy::Follow => None,
        };
        Self {
            root,
            canonical_root,
            policy,
            dirs: Mutex::new(HashMap::new()),
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
    fn canonical_dir(&self, parts: &[&str]) -> Option<PathBuf> {
        let canonical_root = self.canonical_root.as_ref()?;
        if parts.is_empty() {
            return Some(canonical_root.clone());
        }
        let key = parts.join("/");
        // A poisoned lock only means another thread panicked mid-insert;
        // the exact route is always correct, so fall back to it.
        let mut dirs = self.dirs.lock().ok()?;
        if let Some(known) = dirs.get(&key) {
            return known.clone();
        }
        let found = std::fs::canonicalize(self.full_path(parts))
            .ok()
            .filter(|dir| dir.starts_with(canonical_root));
        dirs.insert(key, found.clone());
        found
    }

    /// Confine only: the path of the last component of `parts` below its
    /// canonical directory, when that directory is known to lie inside the
    /// root. The last component itself is not resolved.
    fn beneath_known_dir(&self, parts: &[&str]) -> Option<PathBuf> {
        let (name, dir) = parts.split_last()?;
        Some(self.canonical_dir(dir)?.join(name))
    }

    /// Confine only: what `parts` is without resolving anything, when its
    /// directory is known to lie inside the root and it is not a link.
    /// `None` sends the caller down the exact route.
    fn quick_lstat(&self, parts: &[&str]) -> Option<(PathBuf, Result<EntryKind, WsError>)> {
        let path = self.beneath_known_dir(parts)?;
        let kind = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => return None,
            Ok(meta) => Ok(kind_of(meta.file_type())),
            Err(err) => Err(lstat_failure(err)),
        };
        Some((path, kind))
    }

    /// The exact route of `read`: resolve, check the type, then open.
    fn read_resolved(&self, parts: &[&str], max_bytes: u64) -> Result<Bounded, WsError> {
        let path = self.resolve(parts)?;
        let meta = std::fs::metadata(&path).map_err(|e| io_to_ws(&path, e))?;
        let kind = kind_of(meta.file_type());
        if kind != EntryKind::File {
            return Err(WsError::NotRegular(other_name(kind)));
        }
        let file = open_nonblocking(&path, false).map_err(|e| io_to_ws(&path, e))?;
        read_regular(file, max_bytes)
    }

    /// Opens `path`, known to be a regular file below a directory inside the
    /// root, without following a final link. `None` when it was replaced by
    /// a link since it was looked at: the caller takes the exact route.
    fn read_known_file(&self, path: &Path, max_bytes: u64) -> Option<Result<Bounded, WsError>> {
        let nofollow = self.policy == LinkPolicy::Confine;
        match open_nonblocking(path, nofollow) {
            Ok(file) => Some(read_regular(file, max_bytes)),
            Err(err) if nofollow && err.raw_os_error() == Some(libc::ELOOP) => None,
            Err(err) => Some(Err(lstat_failure(err))),
        }
    }
}

/// Opens `path` for reading with `O_NONBLOCK`, so that a file swapped for a
/// FIFO after its type was checked still cannot block the open, and with
/// `O_NOFOLLOW` when asked.
fn open_nonblocking(path: &Path, nofollow: bool) -> io::Result<File> {
    let mut flags = libc::O_NONBLOCK;
    if nofollow {
        flags |= libc::O_NOFOLLOW;
    }
    OpenOptions::new().read(true).custom_flags(flags).open(path)
}

/// Reads an opened file, checking with `fstat` that it is regular.
fn read_regular(file: File, max_bytes: u64) -> Result<Bounded, WsError> {
    let meta = file.metadata()?;
    let kind = kind_of(meta.file_type());
    if kind != EntryKind::File {
        return Err(WsError::NotRegular(other_name(kind)));
    }
    read_bounded(file, meta.len(), max_bytes)
}

/// Classifies a failure to look at a path whose directory is known and
/// whose last component is not followed: a missing entry is not found.
fn lstat_failure(err: io::Error) -> WsError {
    match err.raw_os_error() {
        Some(libc::ENOENT | libc::ENOTDIR) => WsError::NotFound,
        Some(libc::ELOOP) => WsError::Unresolvable("symlink loop".to_string()),
        _ => WsError::Io(err),
    }
}

/// Classifies a failure to resolve `full`: a link loop or dangling link is
/// unresolvable, a missing path is not found, anything else is a fault.
fn unresolved(full: &Path, err: io::Error) -> WsError {
    const ELOOP: i32 = libc::ELOOP;
    const ENOTDIR: i32 = libc::ENOTDIR;
    match err.raw_os_error() {
        Some(ELOOP) => WsError::Unresolvable("symlink loop".to_string()),
        Some(ENOTDIR) => WsError::NotFound,
        _ if err.kind() == io::ErrorKind::NotFound => match std::fs::symlink_metadata(full) {
            Ok(meta) if meta.file_type().is_symlink() => {
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

    fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
        let parts = components(rel)?;
        if let Some((_, kind)) = self.quick_lstat(&parts) {
            return kind;
        }
        let path = self.resolve(&parts)?;
        let meta = std::fs::metadata(&path).map_err(|e| io_to_ws(&path, e))?;
        Ok(kind_of(meta.file_type()))
    }

    fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
        let parts = components(rel)?;
        match self.quick_lstat(&parts) {
            Some((path, Ok(EntryKind::File))) => {
                if let Some(read) = self.read_known_file(&path, max_bytes) {
                    return read;
                }
            }
            Some((_, Ok(kind))) => return Err(WsError::NotRegular(other_name(kind))),
            Some((_, Err(err))) => return Err(err),
            None => {}
        }
        self.read_resolved(&parts, max_bytes)
    }

    fn read_listed(&self, rel: &str, kind: EntryKind, max_bytes: u64) -> Result<Bounded, WsError> {
        if kind != EntryKind::File {
            return self.read(rel, max_bytes);
        }
        let parts = components(rel)?;
        let known = match self.policy {
            LinkPolicy::Confine => self.beneath_known_dir(&parts),
            LinkPolicy::Follow => Some(self.full_path(&parts)),
        };
        if let Some(read) = known.and_then(|path| self.read_known_file(&path, max_bytes)) {
            return read;
        }
        self.read_resolved(&parts, max_bytes)
    }

    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        let mut entries = self.list_unsorted(rel)?;
        // Names within one directory are unique, so an unstable sort gives
        // the one order there is.
        entries.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    fn list_unsorted(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        let parts = components(rel)?;
        let path = match self.canonical_dir(&parts) {
            Some(path) => path,
            None => self.resolve(&parts)?,
        };
        let reader = std::fs::read_dir(&path).map_err(|e| match e.raw_os_error() {
            Some(libc::ENOTDIR) => WsError::NotADirectory,
            _ => io_to_ws(&path, e),
        })?;
        let mut entries = Vec::new();
        for entry in reader {
            let entry = entry?;
            let os_name = entry.file_name();
            let (name, lossy) = match os_name.into_string() {
                Ok(name) => (name, false),
                Err(os_name) => (os_name.to_string_lossy().into_owned(), true),
            };
            let kind = match entry.file_type() {
                Ok(t) => kind_of(t),
                Err(_) => EntryKind::Other("unknown"),
            };
            entries.push(DirEntry { name, lossy, kind });
        }
        Ok(entries)
    }
}

fn read_bounded(file: File, size: u64, max_bytes: u64) -> Result<Bounded, WsError> {
    let capacity = usize::try_from(size.min(max_bytes)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(max_bytes).read_to_end(&mut bytes)?;
    // The size from fstat can lag a file that grows while we read; never
    // report fewer bytes than we actually got.
    let size = size.max(bytes.len() as u64);
    Ok(Bounded { bytes, size })
}

/// A node of the in-memory workspace.
#[derive(Debug, Clone)]
pub enum MemNode {
    /// A regular file with these bytes.
    File(Vec<u8>),
    /// A directory (directories are also implied by deeper paths).
    Dir,
    /// A symbolic link to this target, relative to the link's directory, or
    /// absolute (which always leaves the workspace).
    Symlink(String),
    /// A FIFO, socket or device, named by the string.
    Special(&'static str),
    /// A file that exists but cannot be read (permission denied).
    Unreadable,
}

/// An in-memory workspace for tests. Paths are `/`-separated and relative.
#[derive(Debug, Clone)]
pub struct MemWorkspace {
    root: PathBuf,
    nodes: BTreeMap<String, MemNode>,
    policy: LinkPolicy,
    /// Per directory, the order [`Workspace::list_unsorted`] gives its
    /// entries (names not named here follow, sorted).
    listing_order: HashMap<String, Vec<String>>,
}

impl Default for MemWorkspace {
    fn default() -> Self {
        Self::new()
    }
}

impl MemWorkspace {
    /// An empty confined workspace displayed as rooted at `/mem`.
    pub fn new() -> Self {
        Self {
            root: PathBuf::from("/mem"),
            nodes: BTreeMap::new(),
            policy: LinkPolicy::Confine,
            listing_order: HashMap::new(),
        }
    }

    /// The same tree read with a different link policy (user tier: `Follow`).
    pub fn with_policy(mut self, policy: LinkPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Makes [`Workspace::list_unsorted`] of directory `rel` give the
    /// entries named in `names` first, in that order, like a filesystem
    /// whose `readdir` order is not the sorted one.
    pub fn with_listing_order(mut self, rel: &str, names: &[&str]) -> Self {
        let names = names.iter().map(|n| (*n).to_string()).collect();
        self.listing_order.insert(normalise(rel), names);
        self
    }

    /// The same tree displayed as rooted at `root`.
    pub fn with_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = root.into();
        self
    }

    /// Adds a regular file (builder style).
    pub fn file(mut self, rel: &str, content: impl AsRef<[u8]>) -> Self {
        self.insert(rel, MemNode::File(content.as_ref().to_vec()));
        self
    }

    /// Adds any node (builder style).
    pub fn node(mut self, rel: &str, node: MemNode) -> Self {
        self.insert(rel, node);
        self
    }

    /// Adds or replaces a node at `rel`.
    pub fn insert(&mut self, rel: &str, node: MemNode) {
        self.nodes.insert(normalise(rel), node);
    }

    fn is_implied_dir(&self, path: &str) -> bool {
        if path.is_empty() {
            return true;
        }
        let prefix = format!("{path}/");
        self.nodes
            .range(prefix.clone()..)
            .next()
            .is_some_and(|(k, _)| k.starts_with(&prefix))
    }

    /// Follows links along `rel` and returns the final path and node.
    fn lookup(&self, rel: &str) -> Result<(String, Option<MemNode>), WsError> {
        let parts = components(rel)?;
        let mut resolved: Vec<String> = Vec::new();
        let mut queue: Vec<String> = parts.iter().rev().map(|s| s.to_string()).collect();
        let mut hops = 0;
        while let Some(part) = queue.pop() {
            resolved.push(part);
            let path = resolved.join("/");
            if let Some(MemNode::Symlink(target)) = self.nodes.get(&path) {
                hops += 1;
                if hops > 40 {
                    return Err(WsError::Unresolvable("symlink loop".to_string()));
                }
                resolved.pop();
                if target.starts_with('/') {
                    return Err(WsError::Refused(
                        "symlink resolves outside the workspace; not followed".to_string(),
                    ));
                }
                let mut pending: Vec<String> = Vec::new();
                for t in target.split('/') {
                    match t {
                        "" | "." => {}
                        ".." => {
                            if resolved.pop().is_none() {
                                return Err(WsError::Refused(
                                    "symlink resolves outside the workspace; not followed"
                                        .to_string(),
                                ));
                            }
                        }
                        other => pending.push(other.to_string()),
                    }
                }
                queue.extend(pending.into_iter().rev());
            }
        }
        let path = resolved.join("/");
        let node = self.nodes.get(&path).cloned();
        let node = match node {
            None if self.is_implied_dir(&path) => Some(MemNode::Dir),
            other => other,
        };
        Ok((path, node))
    }

    fn resolve_node(&self, rel: &str) -> Result<MemNode, WsError> {
        match self.lookup(rel)? {
            (_, Some(node)) => Ok(node),
            (_, None) => {
                if matches!(self.nodes.get(&normalise(rel)), Some(MemNode::Symlink(_))) {
                    Err(WsError::Unresolvable("dangling symlink".to_string()))
                } else {
                    Err(WsError::NotFound)
                }
            }
        }
    }
}

fn normalise(rel: &str) -> String {
    rel.split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect::<Vec<_>>()
        .join("/")
}

impl Workspace for MemWorkspace {
    fn root(&self) -> &Path {
        &self.root
    }

    fn display(&self, rel: &str) -> String {
        match self.policy {
            LinkPolicy::Confine => normalise(rel),
            LinkPolicy::Follow => self.root.join(normalise(rel)).display().to_string(),
        }
    }

    fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
        Ok(match self.resolve_node(rel)? {
            MemNode::File(_) | MemNode::Unreadable => EntryKind::File,
            MemNode::Dir => EntryKind::Dir,
            MemNode::Special(name) => EntryKind::Other(name),
            MemNode::Symlink(_) => EntryKind::Symlink,
        })
    }

    fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
        match self.resolve_node(rel)? {
            MemNode::File(bytes) => {
                let keep = usize::try_from(max_bytes)
                    .unwrap_or(usize::MAX)
                    .min(bytes.len());
                Ok(Bounded {
                    size: bytes.len() as u64,
                    bytes: bytes[..keep].to_vec(),
                })
            }
            MemNode::Unreadable => Err(WsError::Io(io::Error::from(
                io::ErrorKind::PermissionDenied,
            ))),
            MemNode::Dir => Err(WsError::NotRegular("directory")),
            MemNode::Special(name) => Err(WsError::NotRegular(name)),
            MemNode::Symlink(_) => Err(WsError::Unresolvable("symlink".to_string())),
        }
    }

    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        let (path, node) = self.lookup(rel)?;
        match node {
            Some(MemNode::Dir) => {}
            Some(MemNode::Unreadable) => {
                return Err(WsError::Io(io::Error::from(
                    io::ErrorKind::PermissionDenied,
                )));
            }
            Some(_) => return Err(WsError::NotADirectory),
            None => return Err(WsError::NotFound),
        }
        let prefix = if path.is_empty() {
            String::new()
        } else {
            format!("{path}/")
        };
        let mut entries: BTreeMap<String, EntryKind> = BTreeMap::new();
        for (key, node) in self.nodes.range(prefix.clone()..) {
            let Some(rest) = key.strip_prefix(&prefix) else {
                break;
            };
            let (name, deeper) = match rest.split_once('/') {
                Some((name, _)) => (name, true),
                None => (rest, false),
            };
            let kind = if deeper {
                EntryKind::Dir
            } else {
                match node {
                    MemNode::File(_) | MemNode::Unreadable => EntryKind::File,
                    MemNode::Dir => EntryKind::Dir,
                    MemNode::Symlink(_) => EntryKind::Symlink,
                    MemNode::Special(name) => EntryKind::Other(name),
                }
            };
            entries.entry(name.to_string()).or_insert(kind);
        }
        Ok(entries
            .into_iter()
            .map(|(name, kind)| DirEntry {
                name,
                lossy: false,
                kind,
            })
            .collect())
    }

    fn list_unsorted(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        let mut entries = self.list(rel)?;
        if let Some(order) = self.listing_order.get(&normalise(rel)) {
            let rank = |name: &str| order.iter().position(|n| n == name).unwrap_or(order.len());
            entries.sort_by_key(|entry| rank(&entry.name));
        }
        Ok(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_reads_are_bounded_and_report_size() {
        let ws = MemWorkspace::new().file("a/b.md", "hello world");
        let got = ws.read("a/b.md", 5).unwrap();
        assert_eq!(got.bytes, b"hello");
        assert_eq!(got.size, 11);
        assert!(got.is_truncated());
    }

    #[test]
    fn mem_refuses_escapes_and_follows_inner_links() {
        let ws = MemWorkspace::new()
            .file("AGENTS.md", "x")
            .node("CLAUDE.md", MemNode::Symlink("AGENTS.md".into()))
            .node("out.md", MemNode::Symlink("../secret".into()))
            .node("abs.md", MemNode::Symlink("/etc/passwd".into()))
            .node("loop.md", MemNode::Symlink("loop.md".into()))
            .node("dangling.md", MemNode::Symlink("nope.md".into()));
        assert_eq!(ws.read("CLAUDE.md", 10).unwrap().bytes, b"x");
        assert!(matches!(ws.read("out.md", 10), Err(WsError::Refused(_))));
        assert!(matches!(ws.read("abs.md", 10), Err(WsError::Refused(_))));
        assert!(matches!(
            ws.read("loop.md", 10),
            Err(WsError::Unresolvable(_))
        ));
        assert!(matches!(
            ws.read("dangling.md", 10),
            Err(WsError::Unresolvable(_))
        ));
        assert!(matches!(ws.read("../x", 10), Err(WsError::Refused(_))));
        assert!(matches!(ws.read("/x", 10), Err(WsError::Refused(_))));
    }

    #[test]
    fn mem_lists_sorted_with_kinds() {
        let ws = MemWorkspace::new()
            .file("r/b.md", "")
            .file("r/a.md", "")
            .file("r/sub/c.md", "")
            .node("r/f.md", MemNode::Special("FIFO"));
        let names: Vec<_> = ws
            .list("r")
            .unwrap()
            .into_iter()
            .map(|e| (e.name, e.kind))
            .collect();
        assert_eq!(
            names,
            vec![
                ("a.md".to_string(), EntryKind::File),
                ("b.md".to_string(), EntryKind::File),
                ("f.md".to_string(), EntryKind::Other("FIFO")),
                ("sub".to_string(), EntryKind::Dir),
            ]
        );
        assert!(matches!(ws.list("nope"), Err(WsError::NotFound)));
        assert!(matches!(ws.list("r/a.md"), Err(WsError::NotADirectory)));
    }

    #[test]
    fn os_workspace_confines_links_and_skips_fifos() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("AGENTS.md"), "hi").unwrap();
        std::os::unix::fs::symlink("AGENTS.md", root.join("CLAUDE.md")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), root.join("leak.md")).unwrap();
        std::os::unix::fs::symlink("nowhere", root.join("dangling.md")).unwrap();
        std::os::unix::fs::symlink("loop.md", root.join("loop.md")).unwrap();
        std::fs::create_dir(root.join("x.md")).unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(root.join("fifo.md"))
            .status()
            .unwrap();
        assert!(status.success());

        let ws = OsWorkspace::new(root, LinkPolicy::Confine);
        assert_eq!(ws.read("CLAUDE.md", 100).unwrap().bytes, b"hi");
        assert!(matches!(ws.read("leak.md", 100), Err(WsError::Refused(_))));
        assert!(matches!(
            ws.read("dangling.md", 100),
            Err(WsError::Unresolvable(_))
        ));
        assert!(matches!(
            ws.read("loop.md", 100),
            Err(WsError::Unresolvable(_))
        ));
        assert!(matches!(
            ws.read("fifo.md", 100),
            Err(WsError::NotRegular("FIFO"))
        ));
        assert!(matches!(
            ws.read("x.md", 100),
            Err(WsError::NotRegular("directory"))
        ));
        assert!(matches!(ws.read("missing.md", 100), Err(WsError::NotFound)));
        assert_eq!(ws.display("a/b.md"), "a/b.md");

        let user = OsWorkspace::new(root, LinkPolicy::Follow);
        assert_eq!(user.read("leak.md", 100).unwrap().bytes, b"s3cret");
        assert_eq!(
            user.display("a.md"),
            root.join("a.md").display().to_string()
        );
    }
    fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) {
        std::os::unix::fs::symlink(target, link).unwrap();
    }

    fn mkfifo(path: &Path) {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(status.success());
    }

    #[test]
    fn os_workspace_confines_links_in_directories_too() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("x.md"), "outside").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("shared/rules")).unwrap();
        std::fs::write(root.join("shared/rules/x.md"), "inside").unwrap();
        std::fs::create_dir(root.join(".claude")).unwrap();
        symlink("../shared/rules", root.join(".claude/rules"));
        symlink(outside.path(), root.join(".claude/out"));
        symlink("loop", root.join(".claude/loop"));
        symlink("nowhere", root.join(".claude/gone"));

        let ws = OsWorkspace::new(root, LinkPolicy::Confine);
        // Twice: the second time answers from the directory cache.
        for _ in 0..2 {
            // A linked directory inside the root is followed.
            assert_eq!(ws.read(".claude/rules/x.md", 100).unwrap().bytes, b"inside");
            assert_eq!(
                ws.read_listed(".claude/rules/x.md", EntryKind::File, 100)
                    .unwrap()
                    .bytes,
                b"inside"
            );
            assert_eq!(ws.stat(".claude/rules/x.md").unwrap(), EntryKind::File);
            assert_eq!(ws.list(".claude/rules").unwrap().len(), 1);
            // One leading outside is refused, whether the file exists or not
            // (a missing file is simply not found, as before).
            assert!(matches!(
                ws.read(".claude/out/x.md", 100),
                Err(WsError::Refused(_))
            ));
            assert!(matches!(
                ws.read_listed(".claude/out/x.md", EntryKind::File, 100),
                Err(WsError::Refused(_))
            ));
            assert!(matches!(
                ws.stat(".claude/out/x.md"),
                Err(WsError::Refused(_))
            ));
            assert!(matches!(ws.list(".claude/out"), Err(WsError::Refused(_))));
            assert!(matches!(
                ws.read(".claude/out/no.md", 100),
                Err(WsError::NotFound)
            ));
            // Loops and dangling directory links.
            assert!(matches!(
                ws.read(".claude/loop/x.md", 100),
                Err(WsError::Unresolvable(_))
            ));
            assert!(matches!(
                ws.list(".claude/loop"),
                Err(WsError::Unresolvable(_))
            ));
            assert!(matches!(
                ws.read(".claude/gone/x.md", 100),
                Err(WsError::NotFound)
            ));
            assert!(matches!(
                ws.list(".claude/gone"),
                Err(WsError::Unresolvable(_))
            ));
            // A file where a directory is expected.
            assert!(matches!(
                ws.read("shared/rules/x.md/y", 100),
                Err(WsError::NotFound)
            ));
            assert!(matches!(
                ws.list("shared/rules/x.md"),
                Err(WsError::NotADirectory)
            ));
            assert!(matches!(ws.stat("shared/nope"), Err(WsError::NotFound)));
            assert_eq!(ws.stat("shared").unwrap(), EntryKind::Dir);
            assert!(matches!(
                ws.read("shared", 100),
                Err(WsError::NotRegular("directory"))
            ));
        }
    }

    #[test]
    fn a_listed_file_swapped_afterwards_is_checked_again() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in ["leak.md", "inner.md", "fifo.md", "gone.md", "AGENTS.md"] {
            std::fs::write(root.join(name), "x").unwrap();
        }
        let ws = OsWorkspace::new(root, LinkPolicy::Confine);
        let listed = ws.list("").unwrap();
        assert!(listed.iter().all(|e| e.kind == EntryKind::File));
        // Between the listing and the read, files turn into links and a FIFO.
        for name in ["leak.md", "inner.md", "fifo.md", "gone.md"] {
            std::fs::remove_file(root.join(name)).unwrap();
        }
        symlink(outside.path().join("secret"), root.join("leak.md"));
        symlink("AGENTS.md", root.join("inner.md"));
        mkfifo(&root.join("fifo.md"));
        let read = |name: &str| ws.read_listed(name, EntryKind::File, 100);
        assert!(matches!(read("leak.md"), Err(WsError::Refused(_))));
        assert_eq!(read("inner.md").unwrap().bytes, b"x");
        assert!(matches!(read("fifo.md"), Err(WsError::NotRegular("FIFO"))));
        assert!(matches!(read("gone.md"), Err(WsError::NotFound)));
        // Kinds that are not regular files are never opened.
        assert!(matches!(
            ws.read_listed("fifo.md", EntryKind::Other("FIFO"), 100),
            Err(WsError::NotRegular("FIFO"))
        ));
    }

    #[test]
    fn user_tier_reads_listed_files_through_links() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("rule.md"), "mine").unwrap();
        let dir = tempfile::tempdir().unwrap();
        symlink(outside.path(), dir.path().join("rules"));
        let user = OsWorkspace::new(dir.path(), LinkPolicy::Follow);
        let listed = user.list("rules").unwrap();
        assert_eq!(listed[0].kind, EntryKind::File);
        assert_eq!(
            user.read_listed("rules/rule.md", EntryKind::File, 100)
                .unwrap()
                .bytes,
            b"mine"
        );
        mkfifo(&dir.path().join("fifo"));
        assert!(matches!(
            user.read_listed("fifo", EntryKind::File, 100),
            Err(WsError::NotRegular("FIFO"))
        ));
    }
}
