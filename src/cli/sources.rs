//! Builds the file sources a subcommand reads from the resolved context:
//! command directories and rule locations, with trust applied. Shared so
//! that `commands list`, `expand`, completion, `explain` and the turn-0
//! pipeline agree.

use std::path::PathBuf;

use clap::Args;

use crate::adapters::commandsfs::CommandCatalog;
use crate::adapters::rulesfs;
use crate::cli::context::Context;
use crate::diagnostic::Diagnostic;
use crate::prompt::tiers::SearchDir;

/// The command directories to search: `commands list`, `explain`.
#[derive(Debug, Clone, Args)]
pub struct CommandsListArgs {
    /// Read commands from DIR instead of .mecatl/commands and .claude/commands (repeatable; never trust-gated)
    #[arg(long = "commands-dir", value_name = "DIR")]
    pub commands_dirs: Vec<PathBuf>,
}

/// The command catalog: the operator's `--commands-dir` directories when
/// given (resolved against `-C`, never trust-gated), else the project
/// directories, withheld when the workspace is untrusted.
pub fn command_catalog(ctx: &Context, commands_dirs: &[PathBuf]) -> CommandCatalog {
    if commands_dirs.is_empty() {
        CommandCatalog::for_workspace(ctx.reader.clone(), ctx.trust.trusted)
    } else {
        CommandCatalog::for_operator_dirs(commands_dirs.iter().map(|d| ctx.resolve_path(d)))
    }
}

/// Every rule directory in precedence order: the two project directories
/// (withheld when untrusted), then the user directories.
pub fn rule_dirs(ctx: &Context) -> Vec<SearchDir> {
    rulesfs::rule_dirs(
        ctx.reader.clone(),
        !ctx.trust.trusted,
        ctx.locations.user_rule_dirs(),
    )
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
