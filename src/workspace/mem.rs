//! [`MemWorkspace`]: the workspace port over an in-memory tree, for tests
//! (SPEC §3.1).

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::path::{Path, PathBuf};

use super::{Bounded, DirEntry, EntryKind, LinkPolicy, Workspace, WsError, components};

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

    fn real_path(&self, rel: &str) -> Result<PathBuf, WsError> {
        match self.lookup(rel)? {
            (path, Some(_)) => Ok(path
                .split('/')
                .filter(|part| !part.is_empty())
                .fold(self.root.clone(), |full, part| full.join(part))),
            (_, None) => Err(self.resolve_node(rel).err().unwrap_or(WsError::NotFound)),
        }
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
    fn mem_real_paths_follow_inner_links() {
        let ws = MemWorkspace::new()
            .with_root("/ws")
            .file("docs/a.md", "a")
            .node("sub/link.md", MemNode::Symlink("../docs/a.md".into()))
            .node("out.md", MemNode::Symlink("../secret".into()));
        assert_eq!(
            ws.real_path("sub/link.md").unwrap(),
            Path::new("/ws/docs/a.md")
        );
        assert_eq!(ws.real_path("docs").unwrap(), Path::new("/ws/docs"));
        assert!(matches!(ws.real_path("out.md"), Err(WsError::Refused(_))));
        assert!(matches!(ws.real_path("none.md"), Err(WsError::NotFound)));
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
}
