//! The Linux fast path of the workspace port (SPEC §3.1, §20.1): files and
//! directories opened beneath the root held open, with no link allowed on
//! the way ([`beneath`]), and listings read with `getdents64`
//! ([`dirent`]). What it does not open takes the routes of
//! [`super::OsWorkspace`] that resolve links by path, as on every system.

use std::io;
use std::path::Path;

use crate::workspace::DirEntry;

mod beneath;
mod dirent;

pub(super) use beneath::Beneath;

/// The entries of the directory at `path` (links followed), in the order
/// the system gives them.
pub(super) fn list_dir(path: &Path) -> io::Result<Vec<DirEntry>> {
    dirent::read_all(dirent::open_dir(path)?)
}
