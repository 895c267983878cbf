//! `expand`: expand a slash-command invocation (SPEC §2.2).

use std::path::PathBuf;

use clap::Args;

use crate::cli::context::Context;
use crate::cli::{CliError, Status};

/// Arguments of `expand`.
#[derive(Debug, Clone, Args)]
pub struct ExpandArgs {
    /// Read commands from DIR instead of .mecatl/commands and .claude/commands (repeatable; never trust-gated)
    #[arg(long = "commands-dir", value_name = "DIR")]
    pub commands_dirs: Vec<PathBuf>,

    /// Exit 1 when the input is not a known command
    #[arg(long)]
    pub require: bool,

    /// The input line, e.g. `/review src/lib.rs`; words are joined with single spaces; `-` reads it from stdin
    #[arg(
        value_name = "INPUT",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub input: Vec<String>,
}

/// Runs `expand`.
pub fn run(ctx: &Context, args: &ExpandArgs) -> Result<Status, CliError> {
    let _ = (ctx, args);
    Err(CliError::Message("expand: not wired yet".into()))
}
