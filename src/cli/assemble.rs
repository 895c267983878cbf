//! `assemble`: print the turn-0 messages (SPEC §2.5).

use std::path::PathBuf;

use clap::Args;

use crate::cli::context::Context;
use crate::cli::{CliError, Status};

/// Arguments of `assemble`.
#[derive(Debug, Clone, Args)]
pub struct AssembleArgs {
    /// Leave out the project instructions (AGENTS.md / CLAUDE.md)
    #[arg(long)]
    pub no_instructions: bool,

    /// Leave out the rules message
    #[arg(long)]
    pub no_rules: bool,

    /// Use this soul file instead of <config home>/mecatl/soul.md
    #[arg(long, value_name = "FILE", conflicts_with = "no_soul")]
    pub soul_file: Option<PathBuf>,

    /// Leave out the soul
    #[arg(long)]
    pub no_soul: bool,

    /// Read the memory store from DIR [default: $MECATL_MEMORY_DIR, else the engine's directory]
    #[arg(long, value_name = "DIR", conflicts_with = "no_memory")]
    pub memory_dir: Option<PathBuf>,

    /// Leave out the memory index
    #[arg(long)]
    pub no_memory: bool,

    /// Read the user model from DIR [default: <config home>/mecatl/usermodel]
    #[arg(long, value_name = "DIR", conflicts_with = "no_user_model")]
    pub user_model_dir: Option<PathBuf>,

    /// Leave out the user model
    #[arg(long)]
    pub no_user_model: bool,

    /// Largest rules message in bytes, header included (0 = 40960)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub rules_max_bytes: usize,

    /// Most rules in the rules message (0 = 32)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub rules_max_count: usize,
}

/// Runs `assemble`.
pub fn run(ctx: &Context, args: &AssembleArgs) -> Result<Status, CliError> {
    let _ = (ctx, args);
    Err(CliError::Message("assemble: not wired yet".into()))
}
