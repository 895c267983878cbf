//! `commands list`: list discovered slash commands (SPEC §2.3).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::cli::context::Context;
use crate::cli::{CliError, Status};

/// Subcommands of `commands`.
#[derive(Debug, Clone, Subcommand)]
pub enum CommandsCommand {
    /// List discovered slash commands with their descriptions
    List(CommandsListArgs),
}

/// Arguments of `commands list`.
#[derive(Debug, Clone, Args)]
pub struct CommandsListArgs {
    /// Read commands from DIR instead of .mecatl/commands and .claude/commands (repeatable; never trust-gated)
    #[arg(long = "commands-dir", value_name = "DIR")]
    pub commands_dirs: Vec<PathBuf>,
}

/// Runs `commands list`.
pub fn run_list(ctx: &Context, args: &CommandsListArgs) -> Result<Status, CliError> {
    let _ = (ctx, args);
    Err(CliError::Message("commands list: not wired yet".into()))
}
