//! The composition root of the agent profiles (SPEC §14): the run's
//! readers, homes, options and the engine's pipeline handed to the agent's
//! registered profile ([`crate::prompt::agents::PROFILES`]), whose run
//! wires the domain pieces reproducing how it loads a workspace. `assemble`, `--stats`, `snapshot`/`check`, `explain`
//! and `rules list` all read the [`ProfileTurn0`] it returns; none of them
//! lists a directory or reads a file of a profile on its own.
//!
//! The profiles read through the run's [`Readers`].
//!
//! Adding an agent: a folder beside [`crate::prompt::agents::codex`] that
//! implements [`crate::prompt::profile::seam::Profile`], and one entry in
//! the table; nothing here names an agent.
//!
//! Choices the spec leaves open:
//! - The directories above the workspace are the lexical ancestors of `-C`
//!   as given (not resolved through links), like every path of the run.
//! - Options of `assemble` that only the engine has (`--no-rules`,
//!   `--soul-file`, …) are ignored under a profile, with an info line.

pub mod verdict;

use crate::cli::args::{ListingArgs, TouchArgs};
use crate::cli::context::{Context, with_context_diagnostics};
use crate::cli::error::CliError;
use crate::cli::readers::Readers;
use crate::cli::run_profile::with_run;
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::compare::Offered;
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::{Agent, ProfileTurn0};
use crate::workspace::ReadMemo;

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
        listing: &ListingArgs,
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

/// The one registration of the profiles (SPEC §14.2): `agent`'s turn 0 for
/// this run. The diagnostics open with the context's own and end with the
/// trust notice when anything was withheld.
pub fn profile_turn0(
    ctx: &Context,
    agent: Agent,
    args: &ProfileArgs,
) -> Result<ProfileTurn0, CliError> {
    Ok(profile_turn0_and(ctx, agent, args, |_| Ok(()))?.0)
}

/// [`profile_turn0`] and what `also` makes of the agent's catalog, from
/// the same run (`snapshot` hashes the catalog's files beside the turn 0).
pub fn profile_turn0_and<R>(
    ctx: &Context,
    agent: Agent,
    args: &ProfileArgs,
    also: impl FnOnce(&dyn Catalog) -> Result<R, CliError>,
) -> Result<(ProfileTurn0, R), CliError> {
    let readers = Readers::memoised(ctx, ReadMemo::new());
    let (run, also) = agent_run_and(&readers, agent, args, also)?;
    let mut turn0 = run.turn0;
    let withheld = turn0.withheld_any();
    turn0.diagnostics =
        with_context_diagnostics(ctx, std::mem::take(&mut turn0.diagnostics), withheld);
    Ok((turn0, also))
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

/// [`agent_turn0`] with the agent's catalog, both read through `readers`
/// from one run: the listing message is made from the catalog it lists.
pub fn agent_run(
    readers: &Readers<'_>,
    agent: Agent,
    args: &ProfileArgs,
) -> Result<AgentRun, CliError> {
    Ok(agent_run_and(readers, agent, args, |_| Ok(()))?.0)
}

/// [`agent_run`] and what `also` makes of the same run's catalog.
fn agent_run_and<R>(
    readers: &Readers<'_>,
    agent: Agent,
    args: &ProfileArgs,
    also: impl FnOnce(&dyn Catalog) -> Result<R, CliError>,
) -> Result<(AgentRun, R), CliError> {
    let touch = (&args.touch[..], args.context_window);
    with_run(readers, agent, touch, &[], |run| {
        let mut turn0 = run.turn0()?;
        let catalog = run.catalog()?;
        let offered = catalog.add_listing(&mut turn0)?;
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
        let also = also(&*catalog)?;
        Ok((AgentRun { turn0, offered }, also))
    })
}
