//! A workspace whose files can be replaced by in-memory text: an editor's
//! open buffers over the files on disk (SPEC §21.1, "Overlay").
//!
//! Choices the spec leaves open:
//! - A buffer counts as a regular file wherever it is, even where the disk
//!   holds nothing (the preview of a file not yet saved) or a directory; the
//!   directories above a buffer that exist only through it are listed and
//!   stat as directories.
//! - A buffer is served from memory as it is; links, confinement and the
//!   reading bounds of the wrapped reader apply to every other path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use super::{Bounded, DirEntry, EntryKind, Workspace, WsError, parent};

/// A reader that answers for the paths of its buffers from memory and
/// passes every other path to the reader it wraps.
pub struct OverlayWorkspace {
    inner: Arc<dyn Workspace>,
    buffers: RwLock<BTreeMap<String, Arc<[u8]>>>,
}

impl std::fmt::Debug for OverlayWorkspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OverlayWorkspace")
            .field("root", &self.inner.root())
            .finish_non_exhaustive()
    }
}

impl OverlayWorkspace {
    /// An overlay over `inner` with no buffer yet.
    pub fn new(inner: Arc<dyn Workspace>) -> Self {
        Self {
            inner,
            buffers: RwLock::new(BTreeMap::new()),
        }
    }

    /// Makes `text` the content of `rel` until [`OverlayWorkspace::remove`].
    pub fn set(&self, rel: &str, text: Arc<[u8]>) {
        self.write().insert(rel.to_string(), text);
    }

    /// Gives `rel` back to the wrapped reader.
    pub fn remove(&self, rel: &str) {
        self.write().remove(rel);
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<String, Arc<[u8]>>> {
        self.buffers.write().unwrap_or_else(|e| e.into_inner())
    }

    fn buffers(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Arc<[u8]>>> {
        self.buffers.read().unwrap_or_else(|e| e.into_inner())
    }

    fn buffer(&self, rel: &str) -> Option<Arc<[u8]>> {
        self.buffers().get(rel).cloned()
    }

    /// The entries of directory `rel` that exist only through buffers: a
    /// buffer directly in it (a file), or below it (a directory).
    fn added_entries(&self, rel: &str) -> Vec<DirEntry> {
        let prefix = if rel.is_empty() {
            String::new()
        } else {
            format!("{rel}/")
        };
        let buffers = self.buffers();
        let mut added: Vec<DirEntry> = Vec::new();
        for path in buffers.keys().filter(|p| p.starts_with(&prefix)) {
            let rest = &path[prefix.len()..];
            let (name, kind) = match rest.split_once('/') {
                Some((dir, _)) => (dir, EntryKind::Dir),
                None => (rest, EntryKind::File),
            };
            if !added.iter().any(|e| e.name == name) {
                added.push(DirEntry {
                    name: name.to_string(),
                    lossy: false,
                    kind,
                });
            }
        }
        added
    }

    /// True when a buffer lies below directory `rel`.
    fn holds_below(&self, rel: &str) -> bool {
        let prefix = format!("{rel}/");
        self.buffers()
            .range(prefix.clone()..)
            .next()
            .is_some_and(|(path, _)| path.starts_with(&prefix))
    }

    /// `listed` with the buffers' entries: a buffer's kind replaces the
    /// listed one; names only buffers hold come after the listed ones.
    fn merged(&self, rel: &str, mut listed: Vec<DirEntry>) -> Vec<DirEntry> {
        for added in self.added_entries(rel) {
            match listed.iter_mut().find(|e| e.name == added.name) {
                Some(entry) if added.kind == EntryKind::File => entry.kind = EntryKind::File,
                Some(_) => {}
                None => listed.push(added),
            }
        }
        listed
    }
}

fn bounded(text: &[u8], max_bytes: u64) -> Bounded {
    let keep = usize::try_from(max_bytes)
        .unwrap_or(usize::MAX)
        .min(text.len());
    Bounded {
        bytes: text[..keep].to_vec(),
        size: text.len() as u64,
    }
}

impl Workspace for OverlayWorkspace {
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
        if self.buffers().contains_key(rel) {
            return Ok(EntryKind::File);
        }
        match self.inner.stat(rel) {
            Err(WsError::NotFound) if self.holds_below(rel) => Ok(EntryKind::Dir),
            other => other,
        }
    }

    fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
        match self.buffer(rel) {
            Some(text) => Ok(bounded(&text, max_bytes)),
            None => self.inner.read(rel, max_bytes),
        }
    }

    fn read_listed(&self, rel: &str, kind: EntryKind, max_bytes: u64) -> Result<Bounded, WsError> {
        match self.buffer(rel) {
            Some(text) => Ok(bounded(&text, max_bytes)),
            None => self.inner.read_listed(rel, kind, max_bytes),
        }
    }

    fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        let mut entries = self.list_unsorted(rel)?;
        super::sort_by_name(&mut entries);
        Ok(entries)
    }

    fn list_unsorted(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
        match self.inner.list_unsorted(rel) {
            Ok(listed) => Ok(self.merged(rel, listed)),
            Err(WsError::NotFound) if self.holds_below(rel) => Ok(self.merged(rel, Vec::new())),
            Err(err) => Err(err),
        }
    }

    fn real_path(&self, rel: &str) -> Result<PathBuf, WsError> {
        match self.inner.real_path(rel) {
            Err(WsError::NotFound) if self.buffers().contains_key(rel) || self.holds_below(rel) => {
                // Only in memory: where it would be, below the real
                // directory holding it.
                let dir = self.real_path(parent(rel))?;
                Ok(dir.join(super::base_name(rel)))
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::MemWorkspace;

    fn overlay() -> OverlayWorkspace {
        let disk = MemWorkspace::new()
            .file("CLAUDE.md", "disk")
            .file("docs/a.md", "a");
        OverlayWorkspace::new(Arc::new(disk))
    }

    #[test]
    fn a_buffer_replaces_the_disk_and_goes_back_when_removed() {
        let ws = overlay();
        ws.set("CLAUDE.md", Arc::from(&b"buffer text"[..]));
        let read = ws.read("CLAUDE.md", 6).unwrap();
        assert_eq!((read.bytes.as_slice(), read.size), (&b"buffer"[..], 11));
        ws.remove("CLAUDE.md");
        assert_eq!(ws.read("CLAUDE.md", 100).unwrap().bytes, b"disk");
    }

    #[test]
    fn a_buffer_not_on_disk_exists_with_its_directories() {
        let ws = overlay();
        ws.set("new/deep/AGENTS.md", Arc::from(&b"x"[..]));
        assert_eq!(ws.stat("new").unwrap(), EntryKind::Dir);
        assert_eq!(ws.stat("new/deep/AGENTS.md").unwrap(), EntryKind::File);
        let names: Vec<_> = ws.list("").unwrap().into_iter().map(|e| e.name).collect();
        assert_eq!(names, ["CLAUDE.md", "docs", "new"]);
        let deep: Vec<_> = ws.list("new/deep").unwrap();
        assert_eq!(deep[0].kind, EntryKind::File);
        assert!(matches!(ws.stat("newer"), Err(WsError::NotFound)));
    }
}
