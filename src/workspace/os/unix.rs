//! The file primitives of the workspace port on every Unix (SPEC §3.1,
//! §20.1): what an entry is, opening with `O_NONBLOCK` (a FIFO or a device
//! swapped in after a look still cannot block the open) and `O_NOFOLLOW`,
//! positioned reads (`pread`, which a FIFO, a socket or a directory
//! refuses), and the `ELOOP` a refused final link gives.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::unix::fs::{FileExt, FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::workspace::EntryKind;

/// `path` as the user would type it: a canonical path on Unix already is.
pub(super) fn plain_path(path: PathBuf) -> PathBuf {
    path
}

/// What an entry of type `file_type` is.
pub(super) fn kind_of_type(file_type: std::fs::FileType) -> EntryKind {
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

/// What the entry `meta` describes is.
pub(super) fn kind_of(meta: &Metadata) -> EntryKind {
    kind_of_type(meta.file_type())
}

/// Opens `path` for reading with `O_NONBLOCK`, so that a file swapped for a
/// FIFO after its type was checked still cannot block the open, and with
/// `O_NOFOLLOW` when asked (a final link is then refused with `ELOOP`,
/// [`is_loop`]).
pub(super) fn open_file(path: &Path, nofollow: bool) -> io::Result<File> {
    let mut flags = libc::O_NONBLOCK;
    if nofollow {
        flags |= libc::O_NOFOLLOW;
    }
    OpenOptions::new().read(true).custom_flags(flags).open(path)
}

/// Reads into `buffer` from `offset` of `file` (`pread`).
pub(super) fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<usize> {
    file.read_at(buffer, offset)
}

/// Whether `err` is a link loop, or a final link an open refused.
pub(super) fn is_loop(err: &io::Error) -> bool {
    err.raw_os_error() == Some(libc::ELOOP)
}
