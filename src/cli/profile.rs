//! The composition root of the agent profiles (SPEC §14): the readers a
//! profile reads through, and the one registration, [`profile_turn0`],
//! that maps each agent to the wiring of domain pieces reproducing how it
//! loads a workspace. `assemble`, `--stats`, `snapshot`/`check`, `explain`
//! and `rules list` all read the [`ProfileTurn0`] it returns; none of them
//! lists a directory or reads a file of a profile on its own.
//!
//! Readers (SPEC §14.1, §3.1):
//! - project: the context's confined reader (links leaving the workspace
//!   refused; trust gates what is read through it);
//! - parent: rooted at `/`, links followed, for the directories of the walk
//!   above the workspace root;
//! - user: `$CODEX_HOME` (default `~/.codex`), `$CLAUDE_CONFIG_DIR` (default
//!   `~/.claude`) and `~`, links followed (the user owns both ends);
//! - managed: `/etc/claude-code`, links followed.
//!
//! Adding an agent: a module beside [`codex`] that wires the domain pieces
//! into a [`ProfileTurn0`], and one arm in [`profile_turn0`].
//!
//! Choices the spec leaves open:
//! - The directories above the workspace are the lexical ancestors of `-C`
//!   as given (not resolved through links), like every path of the run.
//! - Options of `assemble` that only the engine has (`--no-rules`,
//!   `--soul-file`, …) are ignored under a profile, with an info line.

pub mod claude;
pub mod codex;
pub mod fate;
pub mod mecatl;
pub mod skills;

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use crate::adapters::codex_config;
use crate::adapters::locations::var_or_home_dir;
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::cli::sources::with_context_diagnostics;
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::compare::Offered;
use crate::prompt::profile::{Agent, ProfileTurn0, Touched};
use crate::workspace::{LinkPolicy, OsWorkspace, ReadMemo, Workspace};

/// Claude Code's managed (machine policy) directory on Linux (SPEC §14.3).
pub const CLAUDE_MANAGED_DIR: &str = "/etc/claude-code";

/// `--touch` (SPEC §14.3): what reading a file adds under a profile.
#[derive(Debug, Clone, Default, Args)]
pub struct TouchArgs {
    /// Also show what the agent loads when it reads PATH (relative to -C; repeatable); the mecatl and codex profiles load nothing more, and say so
    #[arg(
        long = "touch",
        value_name = "PATH",
        add = clap_complete::ArgValueCompleter::new(crate::cli::complete::for_path)
    )]
    pub touch: Vec<PathBuf>,
}

/// What a profile's turn 0 is asked for, resolved against the context.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileArgs {
    /// The `--touch` paths, workspace-relative.
    pub touch: Vec<String>,
    /// `--context-window`: what sizes Claude Code's skills listing.
    pub context_window: Option<u64>,
}

impl ProfileArgs {
    /// Resolves `--touch` like `--for` (SPEC §3.5): against `-C`,
    /// normalised, inside the workspace (else a usage error).
    pub fn resolve(
        ctx: &Context,
        touch: &TouchArgs,
        listing: &skills::ListingArgs,
    ) -> Result<Self, CliError> {
        let touch = touch
            .touch
            .iter()
            .map(|path| ctx.workspace_relative("--touch", path))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            touch,
            context_window: listing.context_window,
        })
    }
}

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
            parent: Arc::new(OsWorkspace::new("/", LinkPolicy::Follow)),
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

    /// The reader of the directories above the workspace: `/`, links
    /// followed.
    pub fn parent(&self) -> &dyn Workspace {
        &*self.parent
    }

    /// The reader of the directories above the workspace, for sources that
    /// keep it.
    pub fn parent_shared(&self) -> Arc<dyn Workspace> {
        self.parent.clone()
    }

    /// `$CODEX_HOME` (used when set, non-empty and absolute), else
    /// `~/.codex`; `None` without either.
    pub fn codex_home(&self) -> Option<Arc<dyn Workspace>> {
        codex_config::codex_home(
            self.ctx.env.codex_home.as_deref(),
            self.ctx.locations.home.as_deref(),
        )
        .map(|dir| self.user_dir(dir))
    }

    /// `$CLAUDE_CONFIG_DIR` (used when set, non-empty and absolute), else
    /// `~/.claude`; `None` without either.
    pub fn claude_config(&self) -> Option<Arc<dyn Workspace>> {
        var_or_home_dir(
            self.ctx.env.claude_config_dir.as_deref(),
            self.ctx.locations.home.as_deref(),
            ".claude",
        )
        .map(|dir| self.user_dir(dir))
    }

    /// The home directory, links followed.
    pub fn home(&self) -> Option<Arc<dyn Workspace>> {
        self.ctx
            .locations
            .home
            .clone()
            .map(|dir| self.user_dir(dir))
    }

    /// Claude Code's managed directory, links followed.
    pub fn managed(&self) -> Arc<dyn Workspace> {
        self.user_dir(PathBuf::from(CLAUDE_MANAGED_DIR))
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

/// The one registration of the profiles (SPEC §14.2): `agent`'s turn 0 for
/// this run. The diagnostics open with the context's own and end with the
/// trust notice when anything was withheld.
pub fn profile_turn0(
    ctx: &Context,
    agent: Agent,
    args: &ProfileArgs,
) -> Result<ProfileTurn0, CliError> {
    let mut turn0 = agent_turn0(&Readers::new(ctx), agent, args)?;
    let withheld = turn0.withheld_any();
    turn0.diagnostics =
        with_context_diagnostics(ctx, std::mem::take(&mut turn0.diagnostics), withheld);
    Ok(turn0)
}

/// `agent`'s turn 0 read through `readers`, with the diagnostics about its
/// own files only: neither the context's diagnostics nor the trust notice,
/// which a caller running several profiles states once.
pub fn agent_turn0(
    readers: &Readers<'_>,
    agent: Agent,
    args: &ProfileArgs,
) -> Result<ProfileTurn0, CliError> {
    Ok(agent_run(readers, agent, args)?.turn0)
}

/// What one agent loads at start and the commands and skills it offers.
pub struct AgentRun {
    /// Its turn 0, as [`agent_turn0`] gives it.
    pub turn0: ProfileTurn0,
    /// Every command and skill its catalog offers or withholds.
    pub offered: Vec<Offered>,
}

/// [`agent_turn0`] with the agent's catalog, both read through `readers`:
/// the skills listing message is made from the catalog it lists.
pub fn agent_run(
    readers: &Readers<'_>,
    agent: Agent,
    args: &ProfileArgs,
) -> Result<AgentRun, CliError> {
    let ctx = readers.context();
    let mut turn0 = match agent {
        Agent::Codex => codex::turn0(ctx, readers, args)?,
        Agent::Claude => claude::turn0(ctx, readers, args)?,
        Agent::Mecatl => mecatl::turn0(readers, args)?,
    };
    let offered = skills::add_listing(readers, agent, args, &mut turn0)?;
    if turn0.messages.is_empty() && !turn0.withheld_any() {
        turn0.diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            format!(
                "{} loads nothing from this workspace at start",
                agent.title()
            ),
        ));
    }
    Ok(AgentRun { turn0, offered })
}

/// Adds what `--touch` adds under a profile that loads nothing lazily
/// (SPEC §14.3: mecatl and codex): an empty section per path, and an info
/// line saying so.
pub fn touch_adds_nothing_for(agent: Agent, args: &ProfileArgs, turn0: &mut ProfileTurn0) {
    for path in &args.touch {
        turn0.diagnostics.push(touch_adds_nothing(agent, path));
        turn0.touch.push(Touched {
            path: path.clone(),
            parts: Vec::new(),
        });
    }
}

/// The info line for `--touch` under a profile that loads nothing lazily
/// (SPEC §14.3: mecatl and codex).
pub fn touch_adds_nothing(agent: Agent, path: &str) -> Diagnostic {
    Diagnostic::new(
        Severity::Info,
        Some(path.to_string()),
        format!(
            "--touch: {} loads nothing more when a file is read, so reading this path adds nothing",
            agent.title()
        ),
    )
}
