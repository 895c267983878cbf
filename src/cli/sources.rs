//! Builds the engine's file sources from the resolved context: its command
//! directories and rule locations, with trust applied. Shared so that
//! `commands list`, `expand`, completion, `explain`, `snapshot` and the
//! turn-0 pipeline agree; another profile's catalog is its run's
//! ([`crate::cli::profile::with_catalog`]).

use std::path::PathBuf;

use crate::adapters::commandsfs::CommandCatalog;
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::cli::readers::Readers;
use crate::prompt::profile::Agent;
use crate::prompt::rules::files::{project_rule_dirs, user_rule_dir};
use crate::prompt::tiers::SearchDir;

/// The command catalog: the operator's `--commands-dir` directories when
/// given (resolved against `-C`, never trust-gated), else the project
/// directories, withheld when the workspace is untrusted.
pub fn command_catalog(
    ctx: &Context,
    commands_dirs: &[PathBuf],
) -> Result<CommandCatalog, CliError> {
    check_commands_dirs(ctx.agent, commands_dirs)?;
    Ok(engine_commands(&Readers::new(ctx), commands_dirs))
}

/// Refuses `--commands-dir` where it cannot apply. It is the engine's: a
/// usage error under another profile, which reads its own directories. A
/// whitespace-only one is a usage error, as an empty one is (clap refuses
/// that): resolved against `-C` it would name the workspace itself.
pub fn check_commands_dirs(agent: Agent, commands_dirs: &[PathBuf]) -> Result<(), CliError> {
    if agent != Agent::Mecatl && !commands_dirs.is_empty() {
        return Err(CliError::Usage(format!(
            "--commands-dir replaces the mecatl profile's command directories; {} reads its \
             own (run without --agent {} to use it)",
            agent.title(),
            agent.as_str()
        )));
    }
    match commands_dirs
        .iter()
        .find(|d| d.to_string_lossy().trim().is_empty())
    {
        Some(blank) => Err(CliError::Usage(format!(
            "--commands-dir {blank:?}: a commands directory cannot be blank"
        ))),
        None => Ok(()),
    }
}

/// The engine's command directories: the operator's `commands_dirs`
/// (checked by [`check_commands_dirs`]) when given, else the workspace's.
pub fn engine_commands(readers: &Readers<'_>, commands_dirs: &[PathBuf]) -> CommandCatalog {
    let ctx = readers.context();
    if commands_dirs.is_empty() {
        CommandCatalog::for_workspace(readers.project_shared(), ctx.trust.trusted)
    } else {
        CommandCatalog::for_operator_dirs(commands_dirs.iter().map(|d| ctx.resolve_path(d)))
    }
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
