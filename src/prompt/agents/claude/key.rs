//! The key Claude Code files a project under (SPEC §14.3): the directory
//! of its auto-memory and the entry of `.claude.json` that holds the
//! approval of external imports.
//!
//! Observed (`tests/oracle/cases/claude-instructions/auto-memory-key*`,
//! `auto-memory-worktree`): the canonical git root of the cwd — the nearest
//! directory from the cwd up holding a `.git`, and for a git worktree (its
//! `.git` is a file naming `<common>/.git/worktrees/<name>`) the main
//! repository holding the common `.git`, so every worktree of a repository
//! shares one memory and one approval; without git, the cwd.
//!
//! Choices the spec leaves open:
//! - A worktree's `.git` file is read only when its directory is trusted
//!   (or above the workspace); under an untrusted workspace the worktree
//!   itself is the key.
//! - The `.git` file and `commondir` are read up to
//!   [`limits::MAX_GIT_POINTER_BYTES`]; anything unexpected (no `gitdir:`
//!   line, no `commondir`, a common directory not named `.git`) leaves the
//!   worktree itself as the key.

use std::path::{Path, PathBuf};

use crate::limits;
use crate::prompt::agents::claude::names;
use crate::prompt::imports::normalise;
use crate::prompt::text::decode_lossy;
use crate::prompt::walk::WalkDir;
use crate::workspace::{EntryKind, Workspace};

/// The project key of the walk `dirs` (top first; the last is the cwd).
/// `root` reads the common directory a worktree points at; `gated` says
/// whether a walk directory's files may not be read (untrusted project).
pub(crate) fn project_key(
    dirs: &[WalkDir<'_>],
    root: Option<&dyn Workspace>,
    gated: impl Fn(&WalkDir<'_>) -> bool,
) -> Option<PathBuf> {
    let dir = dirs
        .iter()
        .rev()
        .find(|dir| dir.reader.stat(&dir.rel(names::GIT)).is_ok())?;
    let here = dir.absolute("");
    let is_file = matches!(dir.reader.stat(&dir.rel(names::GIT)), Ok(EntryKind::File));
    if !is_file || gated(dir) {
        return Some(here);
    }
    Some(worktree_main(dir, &here, root).unwrap_or(here))
}

/// For a worktree at `here` (its `.git` a file), the main repository: the
/// directory holding the common `.git` its `gitdir` names.
fn worktree_main(dir: &WalkDir<'_>, here: &Path, root: Option<&dyn Workspace>) -> Option<PathBuf> {
    let pointer = small_text(dir.reader, &dir.rel(names::GIT))?;
    let gitdir = pointer
        .lines()
        .find_map(|line| line.strip_prefix("gitdir:"))?
        .trim();
    let gitdir = normalise(&here.join(gitdir));
    let root = root?;
    let commondir = gitdir.join("commondir");
    let inside = commondir.strip_prefix(root.root()).ok()?;
    let common = small_text(root, &crate::workspace::slashed(inside))?;
    let common = normalise(&gitdir.join(common.trim()));
    (common.file_name()? == names::GIT)
        .then(|| common.parent().map(Path::to_path_buf))
        .flatten()
}

/// The text of a small file, when it can be read whole.
fn small_text(reader: &dyn Workspace, rel: &str) -> Option<String> {
    let read = reader.read(rel, limits::MAX_GIT_POINTER_BYTES).ok()?;
    (!read.is_truncated()).then(|| decode_lossy(&read.bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::walk::walk;
    use crate::workspace::{LinkPolicy, MemWorkspace};

    fn key(project: &MemWorkspace, root: &MemWorkspace, at: &str, gated: bool) -> PathBuf {
        let dirs = walk(Some(root), project, at).unwrap();
        project_key(&dirs, Some(root), |_| gated).unwrap_or_else(|| PathBuf::from("(cwd)"))
    }

    fn root() -> MemWorkspace {
        MemWorkspace::new()
            .with_root("/")
            .with_policy(LinkPolicy::Follow)
            .file("srv/main/.git/worktrees/wt/commondir", "../..\n")
    }

    #[test]
    fn a_worktree_is_filed_under_its_main_repository() {
        let project = MemWorkspace::new()
            .with_root("/srv/wt")
            .file(".git", "gitdir: /srv/main/.git/worktrees/wt\n")
            .file("a/b/.keep", "");
        assert_eq!(key(&project, &root(), "a/b", false), Path::new("/srv/main"));
        assert_eq!(
            key(&project, &root(), "a/b", true),
            Path::new("/srv/wt"),
            "an untrusted worktree's .git is not read"
        );
        let relative = MemWorkspace::new()
            .with_root("/srv/wt")
            .file(".git", "gitdir: ../main/.git/worktrees/wt\n");
        assert_eq!(key(&relative, &root(), ".", false), Path::new("/srv/main"));
    }

    #[test]
    fn a_git_directory_or_an_odd_pointer_is_its_own_key() {
        let repo = MemWorkspace::new()
            .with_root("/srv/repo")
            .file(".git/HEAD", "ref: x\n")
            .file("sub/.keep", "");
        assert_eq!(key(&repo, &root(), "sub", false), Path::new("/srv/repo"));
        let submodule = MemWorkspace::new()
            .with_root("/srv/sub")
            .file(".git", "gitdir: ../main/.git/modules/sub\n");
        assert_eq!(key(&submodule, &root(), ".", false), Path::new("/srv/sub"));
        let nothing = MemWorkspace::new().with_root("/srv/none");
        assert_eq!(key(&nothing, &root(), ".", false), Path::new("(cwd)"));
    }
}
