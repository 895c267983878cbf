//! The file primitives of the workspace port on Windows (SPEC §3.1,
//! §20.1).
//!
//! - Links: symbolic links, junctions and every other reparse point (the
//!   standard library calls only the first two links) are links, whose
//!   target is never looked at without resolving it.
//! - Nothing blocks: a file is looked at before it is opened, and only a
//!   regular file is opened; a path whose last component is named like a
//!   device (`CON.md`, `aux`, `COM1.txt`), which Windows opens as that
//!   device whatever the directory, is never opened at all. Named pipes
//!   live outside every directory, so nothing listed can be one.
//! - An open that must not follow a final link opens the reparse point
//!   itself (`FILE_FLAG_OPEN_REPARSE_POINT`) and refuses it, looked at
//!   through the handle, so a file swapped for a link after the look is
//!   not read through.
//! - A refusal is the error Windows gives for a link loop
//!   (`ERROR_CANT_RESOLVE_FILENAME`), so that the callers send the path
//!   down the route that resolves and classifies it.

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::windows::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::Path;

use crate::workspace::EntryKind;

/// `FILE_ATTRIBUTE_REPARSE_POINT`: the entry is a reparse point.
const FILE_ATTRIBUTE_REPARSE_POINT: u32 = 0x400;
/// `FILE_FLAG_OPEN_REPARSE_POINT`: open a reparse point itself, not what
/// it points at.
const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
/// `ERROR_CANT_RESOLVE_FILENAME`: a link loop.
const ERROR_CANT_RESOLVE_FILENAME: i32 = 1921;

/// The names Windows opens as devices in any directory, with any
/// extension.
const DEVICE_NAMES: [&str; 24] = [
    "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "COM1", "COM2", "COM3", "COM4", "COM5",
    "COM6", "COM7", "COM8", "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8",
    "LPT9",
];

/// What an entry of type `file_type` is (a listing's type: a reparse
/// point that is not a link or a junction is told apart only by
/// [`kind_of`], which every open goes through).
pub(super) fn kind_of_type(file_type: std::fs::FileType) -> EntryKind {
    if file_type.is_symlink() {
        EntryKind::Symlink
    } else if file_type.is_file() {
        EntryKind::File
    } else if file_type.is_dir() {
        EntryKind::Dir
    } else {
        EntryKind::Other("special file")
    }
}

/// What the entry `meta` describes is: any reparse point is a link.
pub(super) fn kind_of(meta: &Metadata) -> EntryKind {
    if meta.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
        EntryKind::Symlink
    } else {
        kind_of_type(meta.file_type())
    }
}

/// Whether the last component of `path` is a name Windows opens as a
/// device: one of [`DEVICE_NAMES`], in any case, before any extension or
/// trailing spaces.
fn names_a_device(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
        return false;
    };
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    DEVICE_NAMES
        .iter()
        .any(|device| device.eq_ignore_ascii_case(stem))
}

/// The refusal of an open: the error of a link loop ([`is_loop`]).
fn refused() -> io::Error {
    io::Error::from_raw_os_error(ERROR_CANT_RESOLVE_FILENAME)
}

/// Refuses what `meta` describes unless it is a regular file, and a
/// reparse point when links are not followed.
fn regular(meta: &Metadata, nofollow: bool) -> io::Result<()> {
    let link = meta.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0;
    if (nofollow && link) || !meta.is_file() {
        return Err(refused());
    }
    Ok(())
}

/// Opens `path` for reading when it is a regular file, looked at first so
/// that nothing else (a device, a directory) is opened; when `nofollow`,
/// a final reparse point is refused, before the open and through its
/// handle after. A refusal is [`is_loop`].
pub(super) fn open_file(path: &Path, nofollow: bool) -> io::Result<File> {
    if names_a_device(path) {
        return Err(refused());
    }
    let meta = if nofollow {
        std::fs::symlink_metadata(path)?
    } else {
        std::fs::metadata(path)?
    };
    regular(&meta, nofollow)?;
    let flags = if nofollow {
        FILE_FLAG_OPEN_REPARSE_POINT
    } else {
        0
    };
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)?;
    regular(&file.metadata()?, nofollow)?;
    Ok(file)
}

/// Reads into `buffer` from `offset` of `file` (a positioned `ReadFile`).
pub(super) fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<usize> {
    file.seek_read(buffer, offset)
}

/// Whether `err` is a link loop, or an open [`open_file`] refused.
pub(super) fn is_loop(err: &io::Error) -> bool {
    err.raw_os_error() == Some(ERROR_CANT_RESOLVE_FILENAME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_names_are_told_by_their_last_component() {
        for name in ["CON.md", "aux", "x/Aux", "com1.txt", "NUL .md", "conin$"] {
            assert!(names_a_device(Path::new(name)), "{name}");
        }
        for name in ["CONSOLE.md", "aux/x.md", "com10", "a.con", "LPT"] {
            assert!(!names_a_device(Path::new(name)), "{name}");
        }
    }
}
