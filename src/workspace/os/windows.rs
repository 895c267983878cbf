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
use std::path::{Component, Path, PathBuf, Prefix};

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
/// trailing spaces. A verbatim path (`\\?\C:\…`, as canonical paths are)
/// names the file itself, never a device.
fn names_a_device(path: &Path) -> bool {
    if let Some(Component::Prefix(prefix)) = path.components().next()
        && prefix.kind().is_verbatim()
    {
        return false;
    }
    let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
        return false;
    };
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    DEVICE_NAMES
        .iter()
        .any(|device| device.eq_ignore_ascii_case(stem))
}

/// `path` (canonical, so verbatim: `\\?\C:\…`) in the drive form the
/// user types and the agents print (`C:\…`), so that every real path of a
/// run, and the roots they are compared with, take one form. Only paths
/// are shown and compared in that form; files are opened through the
/// workspace's own routes, which handle long paths and device names.
/// Other verbatim paths (`\\?\UNC\…`) and plain ones are returned as they
/// are.
pub(super) fn plain_path(path: PathBuf) -> PathBuf {
    let mut components = path.components();
    match components.next() {
        Some(Component::Prefix(prefix)) => match prefix.kind() {
            Prefix::VerbatimDisk(drive) => {
                let mut plain = PathBuf::from(format!("{}:", char::from(drive)));
                plain.extend(components);
                plain
            }
            _ => path,
        },
        _ => path,
    }
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
    use std::path::PathBuf;

    use super::*;
    use crate::workspace::{LinkPolicy, OsWorkspace, Workspace, WsError};

    #[test]
    fn device_names_are_told_by_their_last_component() {
        for name in ["CON.md", "aux", "x/Aux", "com1.txt", "NUL .md", "conin$"] {
            assert!(names_a_device(Path::new(name)), "{name}");
        }
        for name in [
            "CONSOLE.md",
            "aux/x.md",
            "com10",
            "a.con",
            "LPT",
            r"\\?\C:\w\CON.md",
        ] {
            assert!(!names_a_device(Path::new(name)), "{name}");
        }
    }

    #[test]
    fn a_verbatim_drive_path_takes_the_drive_form() {
        let plain = |path: &str| plain_path(PathBuf::from(path));
        assert_eq!(
            plain(r"\\?\C:\w\docs\a.md"),
            PathBuf::from(r"C:\w\docs\a.md")
        );
        assert_eq!(plain(r"\\?\C:\w\CON.md"), PathBuf::from(r"C:\w\CON.md"));
        assert_eq!(plain(r"\\?\d:\"), PathBuf::from(r"d:\"));
        for kept in [r"\\?\UNC\server\share\a.md", r"C:\w\a.md"] {
            assert_eq!(plain(kept), PathBuf::from(kept), "{kept}");
        }
    }

    /// Makes `link` a junction to `target` with `cmd /c mklink /J`; false
    /// when this system cannot.
    fn junction(target: &Path, link: &Path) -> bool {
        std::process::Command::new("cmd")
            .args(["/c", "mklink", "/J"])
            .arg(link)
            .arg(target)
            .output()
            .is_ok_and(|out| out.status.success())
            && std::fs::symlink_metadata(link).is_ok()
    }

    /// A workspace with a junction and a directory link out of it (when
    /// this system can make them: the names of those it made), files named
    /// like devices, and a file at a path over 260 characters (the
    /// workspace-relative path of it), all made through verbatim paths.
    fn hostile() -> (
        tempfile::TempDir,
        tempfile::TempDir,
        Vec<&'static str>,
        String,
    ) {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "s3cret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let mut links = Vec::new();
        if junction(outside.path(), &root.join("junction")) {
            links.push("junction");
        }
        // Wine 8 reports success without making the link: only one that
        // exists counts.
        if std::os::windows::fs::symlink_dir(outside.path(), root.join("link")).is_ok()
            && std::fs::symlink_metadata(root.join("link")).is_ok()
        {
            links.push("link");
        }
        std::fs::write(root.join("CON.md"), "con").unwrap();
        std::fs::create_dir(root.join("aux")).unwrap();
        std::fs::write(root.join("aux").join("x.md"), "aux").unwrap();
        let parts: Vec<String> = (0..24).map(|i| format!("directory-{i:02}")).collect();
        let deep: PathBuf = parts.iter().fold(root.clone(), |p, part| p.join(part));
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("deep.md"), "deep").unwrap();
        let rel = format!("{}/deep.md", parts.join("/"));
        assert!(dir.path().join(&rel).as_os_str().len() > 260);
        (outside, dir, links, rel)
    }

    #[test]
    fn junctions_links_devices_and_long_paths_neither_leak_nor_hang() {
        let (_outside, dir, links, deep) = hostile();
        if links.len() < 2 {
            eprintln!("note: only {links:?} of a junction and a link could be made here");
        }
        let ws = OsWorkspace::new(dir.path(), LinkPolicy::Confine);
        for link in &links {
            let rel = format!("{link}/secret.md");
            let read = ws.read(&rel, 100);
            let looked = std::fs::symlink_metadata(dir.path().join(link))
                .map(|meta| (meta.file_attributes(), meta.file_type()));
            let resolved = dir.path().join(link).canonicalize();
            assert!(
                matches!(read, Err(WsError::Refused(_))),
                "{rel}: {read:?}; {looked:?}; {resolved:?}"
            );
            let listed = ws.read_listed(&rel, EntryKind::File, 100);
            assert!(matches!(listed, Err(WsError::Refused(_))), "{rel}");
            assert!(matches!(ws.stat(&rel), Err(WsError::Refused(_))), "{rel}");
            assert!(matches!(ws.list(link), Err(WsError::Refused(_))), "{link}");
        }
        // Files named like devices are the files they are, read through
        // the canonical (verbatim) path: never a device opened.
        for (rel, text) in [("CON.md", "con"), ("aux/x.md", "aux")] {
            assert_eq!(ws.read(rel, 100).unwrap().bytes, text.as_bytes(), "{rel}");
            let listed = ws.read_listed(rel, EntryKind::File, 100).unwrap();
            assert_eq!(listed.bytes, text.as_bytes(), "{rel}");
        }
        assert!(ws.list("").unwrap().iter().any(|e| e.name == "CON.md"));
        assert_eq!(ws.read(&deep, 100).unwrap().bytes, b"deep");
        // The user tier opens by the path as given: a device name there is
        // refused or read as the file, never waited on as the device.
        let user = OsWorkspace::new(dir.path(), LinkPolicy::Follow);
        if let Ok(read) = user.read("CON.md", 100) {
            assert_eq!(read.bytes, b"con");
        }
    }
}
