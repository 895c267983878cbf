//! Opening a listed file beneath the root in one system call (Linux):
//! `openat2` relative to the root directory, with `RESOLVE_BENEATH` and
//! `RESOLVE_NO_SYMLINKS`, so the kernel itself refuses any symbolic link
//! on the way, final component included, and any step out of the root.
//! A path it opens therefore lies inside the root with no link to resolve,
//! which is what the exact route (a `realpath` compared with the canonical
//! root) would have concluded, without looking up each directory first
//! and without a window between that look-up and the open.
//!
//! Anything it does not open (a link met, a missing file, a kernel or
//! sandbox without `openat2`) is left to the exact route, so links keep
//! working as before and every error is classified as before.

//!
//! Elsewhere than on Linux there is no such call: [`Beneath::open`]
//! yields nothing and every open takes the exact route.

use std::fs::File;
use std::io;
use std::path::Path;
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(target_os = "linux")]
use rustix::fd::OwnedFd;
#[cfg(target_os = "linux")]
use rustix::fs::{Mode, OFlags, ResolveFlags};
#[cfg(target_os = "linux")]
use rustix::io::Errno;

/// The root directory of a confined reader, held open.
#[cfg(target_os = "linux")]
#[derive(Debug)]
pub(super) struct Beneath {
    root: OwnedFd,
    /// Cleared the first time the system refuses `openat2` itself (an old
    /// kernel, a seccomp filter): every later open takes the exact route
    /// without trying again.
    supported: AtomicBool,
}

#[cfg(target_os = "linux")]
impl Beneath {
    /// Opens `root` (links in its own path followed, as the canonical root
    /// is); `None` when it cannot be opened.
    pub(super) fn open(root: &Path) -> Option<Self> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let root = rustix::fs::open(root, flags, Mode::empty()).ok()?;
        Some(Self {
            root,
            supported: AtomicBool::new(true),
        })
    }

    /// Opens the file at `rel` for reading, non-blocking, when it lies
    /// beneath the root with no symbolic link anywhere on its path: `None`
    /// when it was not tried (a path that is not plain relative components
    /// such as `a/b.md`, a system without `openat2`), the error when the
    /// kernel refused (a link met, a step out, a missing file), for the
    /// exact route to classify.
    pub(super) fn open_file(&self, rel: &str) -> Option<io::Result<File>> {
        let plain = rel.split('/').all(|part| !matches!(part, "" | "." | ".."));
        if !plain || !self.supported.load(Ordering::Relaxed) {
            return None;
        }
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let resolve =
            ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(&self.root, rel, flags, Mode::empty(), resolve) {
            Ok(fd) => Some(Ok(File::from(fd))),
            Err(Errno::NOSYS | Errno::PERM | Errno::INVAL) => {
                self.supported.store(false, Ordering::Relaxed);
                None
            }
            Err(err) => Some(Err(err.into())),
        }
    }
}

/// No `openat2` here: nothing is opened beneath the root.
#[cfg(not(target_os = "linux"))]
#[derive(Debug)]
pub(super) enum Beneath {}

#[cfg(not(target_os = "linux"))]
impl Beneath {
    /// Nothing to open with.
    pub(super) fn open(_root: &Path) -> Option<Self> {
        None
    }

    /// Unreachable: no value of this type exists.
    pub(super) fn open_file(&self, _rel: &str) -> Option<io::Result<File>> {
        match *self {}
    }
}
