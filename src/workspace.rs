//! The workspace port (SPEC §3.1): every file the engine sees is read through
//! a [`Workspace`], never with `std::fs` directly from the domain.
//!
//! Two implementations ship: [`OsWorkspace`], rooted at a directory on disk,
//! and [`MemWorkspace`], an in-memory tree for tests. Paths handed to a
//! workspace are relative, `/`-separated, and never contain `..`.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

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

impl WsError {
    /// True for outcomes that mean "there is no usable file here" rather than
    /// a fault: not found, refused or unresolvable links, non-regular files.
    pub fn is_absent(&self) -> bool {
        !matches!(self, WsError::Io(_))
    }
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

    /// Lists the directory at `rel` (`""` for the root), sorted by name.
    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError>;
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
#[derive(Debug)]
pub struct OsWorkspace {
    root: PathBuf,
    canonical_root: Option<PathBuf>,
    policy: LinkPolicy,
}

impl OsWorkspace {
    /// A reader rooted at `root` with the given link policy. A root that does
    /// not exist yields a workspace where every path is not found.
    pub fn new(root: impl Into<PathBuf>, policy: LinkPolicy) -> Self {
        let root = root.into();
        let canonical_root = std::fs::canonicalize(&root).ok();
        Self {
            root,
            canonical_root,
            policy,
        }
    }

    /// The link policy this reader applies.
    pub fn policy(&self) -> LinkPolicy {
        self.policy
    }

    /// Resolves `rel` to the path to open, applying the link policy.
    fn resolve(&self, rel: &str) -> Result<PathBuf, WsError> {
        let parts = components(rel)?;
        let full = parts.iter().fold(self.root.clone(), |p, c| p.join(c));
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
                parts
                    .iter()
                    .fold(self.root.clone(), |p, c| p.join(c))
                    .display()
                    .to_string()
            }
        }
    }

    fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
        let path = self.resolve(rel)?;
        let meta = std::fs::metadata(&path).map_err(|e| io_to_ws(&path, e))?;
        Ok(kind_of(meta.file_type()))
    }

    fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
        let path = self.resolve(rel)?;
        let meta = std::fs::metadata(&path).map_err(|e| io_to_ws(&path, e))?;
        let kind = kind_of(meta.file_type());
        if kind != EntryKind::File {
            return Err(WsError::NotRegular(other_name(kind)));
        }
        // O_NONBLOCK: should the file be swapped for a FIFO between the check
        // above and the open, the open still cannot block.
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&path)
            .map_err(|e| io_to_ws(&path, e))?;
        let meta = file.metadata()?;
        let kind = kind_of(meta.file_type());
        if kind != EntryKind::File {
            return Err(WsError::NotRegular(other_name(kind)));
        }
        read_bounded(file, meta.len(), max_bytes)
    }

    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        let path = self.resolve(rel)?;
        let reader = std::fs::read_dir(&path).map_err(|e| match e.raw_os_error() {
            Some(libc::ENOTDIR) => WsError::NotADirectory,
            _ => io_to_ws(&path, e),
        })?;
        let mut entries = Vec::new();
        for entry in reader {
            let entry = entry?;
            let os_name = entry.file_name();
            let (name, lossy) = match os_name.to_str() {
                Some(s) => (s.to_string(), false),
                None => (os_name.to_string_lossy().into_owned(), true),
            };
            let kind = match entry.file_type() {
                Ok(t) => kind_of(t),
                Err(_) => EntryKind::Other("unknown"),
            };
            entries.push(DirEntry { name, lossy, kind });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
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
        }
    }

    /// The same tree read with a different link policy (user tier: `Follow`).
    pub fn with_policy(mut self, policy: LinkPolicy) -> Self {
        self.policy = policy;
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
}
