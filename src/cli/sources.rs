//! Builds the file sources a subcommand reads from the resolved context:
//! command directories (the run's profile's: the engine's, Claude Code's
//! commands and skills, or Codex's skills) and rule locations, with trust
//! applied. Shared so that `commands list`, `expand`, completion,
//! `explain`, `snapshot` and the turn-0 pipeline agree.

use std::path::PathBuf;

use crate::adapters::claude_commands::ClaudeCatalog;
use crate::adapters::codex_skills::CodexSkills;
use crate::adapters::commandsfs::CommandCatalog;
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::cli::readers::Readers;
use crate::prompt::agents::{claude, codex};
use crate::prompt::profile::Agent;
use crate::prompt::rules::files::{project_rule_dirs, user_rule_dir};
use crate::prompt::tiers::SearchDir;

/// The command catalog: the operator's `--commands-dir` directories when
/// given (resolved against `-C`, never trust-gated), else the project
/// directories, withheld when the workspace is untrusted.
///
/// A whitespace-only `--commands-dir` is a usage error, as an empty one is
/// (clap refuses that): resolved against `-C` it would name the workspace
/// itself.
pub fn command_catalog(
    ctx: &Context,
    commands_dirs: &[PathBuf],
) -> Result<CommandCatalog, CliError> {
    engine_catalog(&Readers::new(ctx), commands_dirs)
}

/// [`command_catalog`] with the project directories read through
/// `readers`.
fn engine_catalog(
    readers: &Readers<'_>,
    commands_dirs: &[PathBuf],
) -> Result<CommandCatalog, CliError> {
    let ctx = readers.context();
    if let Some(blank) = commands_dirs
        .iter()
        .find(|d| d.to_string_lossy().trim().is_empty())
    {
        return Err(CliError::Usage(format!(
            "--commands-dir {blank:?}: a commands directory cannot be blank"
        )));
    }
    Ok(if commands_dirs.is_empty() {
        CommandCatalog::for_workspace(readers.project_shared(), ctx.trust.trusted)
    } else {
        CommandCatalog::for_operator_dirs(commands_dirs.iter().map(|d| ctx.resolve_path(d)))
    })
}

/// The commands and skills of the run's profile (SPEC §5.5, §14.5,
/// §14.6): what `commands list`, `expand`, `explain`, completion and
/// `snapshot` read.
#[derive(Debug)]
pub enum Catalog {
    /// The engine's command directories (`mecatl`).
    Engine(CommandCatalog),
    /// Claude Code's command and skill directories (`claude`).
    Claude(ClaudeCatalog),
    /// Codex's skill roots (`codex`).
    Codex(Box<CodexSkills>),
}

/// The catalog of the run's profile ([`catalog_for`] its agent, through
/// the run's plain readers).
pub fn catalog(ctx: &Context, commands_dirs: &[PathBuf]) -> Result<Catalog, CliError> {
    catalog_for(&Readers::new(ctx), ctx.agent, commands_dirs)
}

/// `agent`'s catalog read through `readers`: [`command_catalog`] under
/// `mecatl`; under `claude` and `codex` the agent's own directories, read
/// from `--at` with the user directories of [`Readers`]. `--commands-dir`
/// is the engine's and a usage error under another profile.
pub fn catalog_for(
    readers: &Readers<'_>,
    agent: Agent,
    commands_dirs: &[PathBuf],
) -> Result<Catalog, CliError> {
    let ctx = readers.context();
    if agent != Agent::Mecatl && !commands_dirs.is_empty() {
        return Err(CliError::Usage(format!(
            "--commands-dir replaces the mecatl profile's command directories; {} reads its \
             own (run without --agent {} to use it)",
            agent.title(),
            agent.as_str()
        )));
    }
    let trusted = ctx.trust.trusted;
    Ok(match agent {
        Agent::Mecatl => Catalog::Engine(engine_catalog(readers, commands_dirs)?),
        Agent::Claude => Catalog::Claude(
            ClaudeCatalog::new(
                readers.project_shared(),
                &ctx.at,
                trusted,
                readers.home_of(&claude::CONFIG_HOME),
            )
            .map_err(|err| CliError::Usage(err.to_string()))?,
        ),
        Agent::Codex => Catalog::Codex(Box::new(CodexSkills::new(
            readers.project_shared(),
            &ctx.at,
            trusted,
            readers.parent_shared(),
            readers.home_of(&codex::CODEX_HOME),
            readers.home(),
        ))),
    })
}

/// Every rule directory in precedence order, read through the run's plain
/// readers ([`rule_dirs_through`]).
pub fn rule_dirs(ctx: &Context) -> Vec<SearchDir<'static>> {
    rule_dirs_through(&Readers::new(ctx))
}

/// Every rule directory in precedence order, read through `readers`: the
/// two project directories (withheld when untrusted), then the user
/// directories.
pub fn rule_dirs_through(readers: &Readers<'_>) -> Vec<SearchDir<'static>> {
    let ctx = readers.context();
    let mut dirs = project_rule_dirs(readers.project_shared(), !ctx.trust.trusted);
    dirs.extend(
        ctx.locations
            .user_rule_dirs()
            .into_iter()
            .map(|dir| user_rule_dir(readers.user_dir(dir))),
    );
    dirs
}
