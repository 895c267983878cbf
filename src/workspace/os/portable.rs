//! The portable path of the workspace port (SPEC §20.1), for every system
//! but Linux: the standard library only. There is no call that opens a
//! path beneath a directory refusing every link, so there is no
//! [`Beneath`]: every file takes the routes of [`super::OsWorkspace`] that
//! resolve links by path (its module docs say what that cannot promise),
//! and a listing comes from `read_dir`, whose entry types need no look-up
//! of their own on macOS, the BSDs or Windows.

use std::fs::File;
use std::io;
use std::path::Path;

use super::Looked;
use super::sys::kind_of_type;
use crate::workspace::{DirEntry, EntryKind};

/// No `openat2` here: nothing is opened beneath the root, and no value of
/// this type exists.
#[derive(Debug)]
pub(super) enum Beneath {}

impl Beneath {
    /// Nothing to open with.
    pub(super) fn open(_root: &Path) -> Option<Self> {
        None
    }

    /// Unreachable: no value of this type exists.
    pub(super) fn open_file(&self, _rel: &str) -> Option<io::Result<File>> {
        match *self {}
    }

    /// Unreachable: no value of this type exists.
    pub(super) fn list(&self, _dir: &str) -> Option<io::Result<Vec<DirEntry>>> {
        match *self {}
    }

    /// Unreachable: no value of this type exists.
    pub(super) fn open_listed(&self, _rel: &str) -> Option<io::Result<File>> {
        match *self {}
    }

    /// Unreachable: no value of this type exists.
    pub(super) fn stat(&self, _rel: &str) -> Looked {
        match *self {}
    }
}

/// The entries of the directory at `path` (links followed), in the order
/// the system gives them. A name that is not valid Unicode is decoded
/// lossily and marked so.
pub(super) fn list_dir(path: &Path) -> io::Result<Vec<DirEntry>> {
    let mut entries = Vec::with_capacity(64);
    // Listing a file fails as ERROR_DIRECTORY on Windows and as
    // ERROR_INVALID_NAME under Wine, not as ENOTDIR: a look at the path
    // tells a file from a directory that cannot be read.
    let dir = std::fs::read_dir(path).map_err(|err| match std::fs::metadata(path) {
        Ok(meta) if !meta.is_dir() => io::Error::from(io::ErrorKind::NotADirectory),
        _ => err,
    })?;
    for entry in dir {
        let entry = entry?;
        let (name, lossy) = match entry.file_name().into_string() {
            Ok(name) => (name, false),
            Err(os_name) => (os_name.to_string_lossy().into_owned(), true),
        };
        let kind = match entry.file_type() {
            Ok(t) => kind_of_type(t),
            Err(_) => EntryKind::Other("unknown"),
        };
        entries.push(DirEntry { name, lossy, kind });
    }
    Ok(entries)
}
