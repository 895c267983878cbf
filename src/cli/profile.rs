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
pub mod skills;

use std::path::PathBuf;

use clap::Args;

use crate::adapters::codex_config;
use crate::adapters::locations::var_or_home_dir;
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::cli::sources::with_context_diagnostics;
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::profile::{Agent, NotLoadedReason, ProfileTurn0};
use crate::workspace::{LinkPolicy, OsWorkspace, Workspace};

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

/// The readers of one run's profiles.
pub struct Readers<'c> {
    ctx: &'c Context,
    parent: OsWorkspace,
}

impl<'c> Readers<'c> {
    /// The readers of `ctx`'s run.
    pub fn new(ctx: &'c Context) -> Self {
        Self {
            ctx,
            parent: OsWorkspace::new("/", LinkPolicy::Follow),
        }
    }

    /// The project reader: the workspace, confined.
    pub fn project(&self) -> &dyn Workspace {
        &*self.ctx.reader
    }

    /// The reader of the directories above the workspace: `/`, links
    /// followed.
    pub fn parent(&self) -> &dyn Workspace {
        &self.parent
    }

    /// `$CODEX_HOME` (used when set, non-empty and absolute), else
    /// `~/.codex`; `None` without either.
    pub fn codex_home(&self) -> Option<OsWorkspace> {
        self.codex_home_dir().map(user_reader)
    }

    /// The `$CODEX_HOME` directory [`Readers::codex_home`] reads.
    pub fn codex_home_dir(&self) -> Option<PathBuf> {
        codex_config::codex_home(
            self.ctx.env.codex_home.as_deref(),
            self.ctx.locations.home.as_deref(),
        )
    }

    /// `$CLAUDE_CONFIG_DIR` (used when set, non-empty and absolute), else
    /// `~/.claude`; `None` without either.
    pub fn claude_config(&self) -> Option<OsWorkspace> {
        var_or_home_dir(
            self.ctx.env.claude_config_dir.as_deref(),
            self.ctx.locations.home.as_deref(),
            ".claude",
        )
        .map(user_reader)
    }

    /// The home directory, links followed.
    pub fn home(&self) -> Option<OsWorkspace> {
        self.ctx.locations.home.clone().map(user_reader)
    }

    /// Claude Code's managed directory, links followed.
    pub fn managed(&self) -> OsWorkspace {
        user_reader(PathBuf::from(CLAUDE_MANAGED_DIR))
    }
}

/// A user-tier reader: links followed (SPEC §3.1).
fn user_reader(dir: PathBuf) -> OsWorkspace {
    OsWorkspace::new(dir, LinkPolicy::Follow)
}

/// The one registration of the profiles (SPEC §14.2): `agent`'s turn 0 for
/// this run. The diagnostics open with the context's own and end with the
/// trust notice when anything was withheld.
pub fn profile_turn0(
    ctx: &Context,
    agent: Agent,
    args: &ProfileArgs,
) -> Result<ProfileTurn0, CliError> {
    let readers = Readers::new(ctx);
    let mut turn0 = match agent {
        Agent::Codex => codex::turn0(ctx, &readers, args)?,
        Agent::Claude => claude::turn0(ctx, &readers, args)?,
        Agent::Mecatl => {
            return Err(CliError::Usage(
                "the mecatl profile is the engine's turn 0, assembled without a profile".into(),
            ));
        }
    };
    skills::add_listing(ctx, args, &mut turn0)?;
    let withheld = turn0
        .not_loaded
        .iter()
        .any(|entry| entry.reason == NotLoadedReason::Withheld);
    turn0.diagnostics =
        with_context_diagnostics(ctx, std::mem::take(&mut turn0.diagnostics), withheld);
    if turn0.messages.is_empty() && !withheld {
        turn0.diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            format!(
                "{} loads nothing from this workspace at start",
                agent.title()
            ),
        ));
    }
    Ok(turn0)
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
