//! The readers of one run (SPEC §14.1, §3.1), shared by the profiles and
//! the engine's pipeline:
//! - project: the context's confined reader (links leaving the workspace
//!   refused; trust gates what is read through it);
//! - parent: rooted at the top of the workspace's filesystem (`/`; on
//!   Windows its drive, such as `C:\`), links followed, for the directories
//!   of the walk above the workspace root;
//! - the agents' homes (each profile's [`HomeDir`]s: `$CODEX_HOME`, default
//!   `~/.codex`; `$CLAUDE_CONFIG_DIR`, default `~/.claude`; Claude Code's
//!   managed directory, `/etc/claude-code` on Linux) and `~`, links followed (the user owns
//!   both ends).
//!
//! Choices the spec leaves open:
//! - Under `compare` every reader goes through one [`ReadMemo`], so a file
//!   several profiles read is read once; a single profile's turn 0 goes
//!   through one too, so its readers share what they asked (a missing
//!   `.claude` is asked about once per directory, not once per reader).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cli::context::Context;
use crate::prompt::profile::seam::HomeDir;
use crate::workspace::{LinkPolicy, OsWorkspace, ReadMemo, Workspace};

/// The readers of one run: the profiles' and the engine's. Plain readers
/// ask the disk; memoised ones ([`Readers::memoised`], `compare`) share
/// one [`ReadMemo`], so a file several profiles read is read once.
pub struct Readers<'c> {
    ctx: &'c Context,
    project: Arc<dyn Workspace>,
    parent: Arc<dyn Workspace>,
    memo: Option<Arc<ReadMemo>>,
}

impl<'c> Readers<'c> {
    /// The plain readers of `ctx`'s run.
    pub fn new(ctx: &'c Context) -> Self {
        Self {
            ctx,
            project: ctx.reader.clone(),
            parent: Arc::new(OsWorkspace::new(
                filesystem_top(&ctx.workspace),
                LinkPolicy::Follow,
            )),
            memo: None,
        }
    }

    /// The readers of `ctx`'s run, every one of them through `memo`.
    pub fn memoised(ctx: &'c Context, memo: Arc<ReadMemo>) -> Self {
        let plain = Self::new(ctx);
        Self {
            ctx,
            project: Arc::new(memo.reader(plain.project, LinkPolicy::Confine)),
            parent: Arc::new(memo.reader(plain.parent, LinkPolicy::Follow)),
            memo: Some(memo),
        }
    }

    /// The run these readers read for.
    pub fn context(&self) -> &'c Context {
        self.ctx
    }

    /// The project reader: the workspace, confined.
    pub fn project(&self) -> &dyn Workspace {
        &*self.project
    }

    /// The project reader, for sources that keep it (search directories).
    pub fn project_shared(&self) -> Arc<dyn Workspace> {
        self.project.clone()
    }

    /// The reader of the directories above the workspace: the top of its
    /// filesystem, links followed.
    pub fn parent(&self) -> &dyn Workspace {
        &*self.parent
    }

    /// The reader of the directories above the workspace, for sources that
    /// keep it.
    pub fn parent_shared(&self) -> Arc<dyn Workspace> {
        self.parent.clone()
    }

    /// An agent's home directory ([`HomeDir`]: its variable when set,
    /// non-empty and absolute, else its default), links followed; `None`
    /// when its default is below a home directory there is none of.
    pub fn home_of(&self, home: &HomeDir) -> Option<Arc<dyn Workspace>> {
        let var = home.var.and_then(|var| self.ctx.env.var(var));
        home.resolve(var, self.ctx.locations.home.as_deref())
            .map(|dir| self.user_dir(dir))
    }

    /// A user-tier reader rooted at `dir`: links followed (SPEC §3.1).
    pub fn user_dir(&self, dir: PathBuf) -> Arc<dyn Workspace> {
        let plain: Arc<dyn Workspace> = Arc::new(OsWorkspace::new(dir, LinkPolicy::Follow));
        match &self.memo {
            Some(memo) => Arc::new(memo.reader(plain, LinkPolicy::Follow)),
            None => plain,
        }
    }
}

/// The top of the filesystem `path` is on: `/` on Unix, the drive (`C:\`,
/// or `\\?\C:\` for a verbatim path) on Windows. The parent reader is
/// rooted there so the walk reaches every directory above the workspace.
fn filesystem_top(path: &Path) -> &Path {
    path.ancestors().last().unwrap_or(path)
}
