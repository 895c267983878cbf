//! Argument groups that several subcommands share (SPEC §2), defined once
//! here so that no subcommand imports another's definitions.

use std::path::PathBuf;

use clap::Args;

/// Where slash commands are read from (SPEC §2.2, §5.5): `expand`,
/// `commands list` and `explain` take it, and completion reads it back from
/// the line being completed.
#[derive(Debug, Clone, Default, Args)]
pub struct CommandDirsArgs {
    /// Read commands from DIR instead of .mecatl/commands and .claude/commands (repeatable; never trust-gated)
    #[arg(long = "commands-dir", value_name = "DIR")]
    pub commands_dirs: Vec<PathBuf>,
}
