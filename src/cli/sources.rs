//! Builds the file sources a subcommand reads from the resolved context:
//! command directories and rule locations, with trust applied. Shared so
//! that `commands list`, `expand`, completion, `explain` and the turn-0
//! pipeline agree.

use std::path::PathBuf;

use crate::adapters::commandsfs::CommandCatalog;
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::cli::profile::Readers;
use crate::diagnostic::Diagnostic;
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
    if let Some(blank) = commands_dirs
        .iter()
        .find(|d| d.to_string_lossy().trim().is_empty())
    {
        return Err(CliError::Usage(format!(
            "--commands-dir {blank:?}: a commands directory cannot be blank"
        )));
    }
    Ok(if commands_dirs.is_empty() {
        CommandCatalog::for_workspace(ctx.reader.clone(), ctx.trust.trusted)
    } else {
        CommandCatalog::for_operator_dirs(commands_dirs.iter().map(|d| ctx.resolve_path(d)))
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

/// The context's own diagnostics, then `found`, then the withheld notice
/// when anything was withheld.
pub fn with_context_diagnostics(
    ctx: &Context,
    found: Vec<Diagnostic>,
    withheld: bool,
) -> Vec<Diagnostic> {
    let mut all = ctx.diagnostics.clone();
    all.extend(found);
    if withheld {
        all.push(ctx.withheld_notice());
    }
    all
}
