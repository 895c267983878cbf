//! `rules list`: list discovered rules of every tier (SPEC §2.4).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::cli::context::Context;
use crate::cli::{CliError, Status};

/// Subcommands of `rules`.
#[derive(Debug, Clone, Subcommand)]
pub enum RulesCommand {
    /// List discovered rules, withheld project rules included
    List(RulesListArgs),
}

/// Arguments of `rules list`.
#[derive(Debug, Clone, Args)]
pub struct RulesListArgs {
    /// Keep only rules that apply to PATH (workspace-relative; repeatable)
    #[arg(long = "for", value_name = "PATH")]
    pub for_paths: Vec<PathBuf>,

    /// Exit 1 when a project-tier rule file has a fatal problem
    #[arg(long)]
    pub check: bool,
}

/// Runs `rules list`.
pub fn run_list(ctx: &Context, args: &RulesListArgs) -> Result<Status, CliError> {
    let _ = (ctx, args);
    Err(CliError::Message("rules list: not wired yet".into()))
}
