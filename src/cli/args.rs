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

/// `--touch` (SPEC §14.3): what reading a file adds under a profile.
#[derive(Debug, Clone, Default, Args)]
pub struct TouchArgs {
    /// Also show what the agent loads when it reads PATH (relative to -C; repeatable); the mecatl and codex profiles load nothing more, and say so
    #[arg(
        long = "touch",
        value_name = "PATH",
        add = clap_complete::ArgValueCompleter::new(crate::cli::complete::for_path)
    )]
    pub touch: Vec<PathBuf>,
}

/// What sizes Claude Code's skills listing (SPEC §14.5).
#[derive(Debug, Clone, Default, Args)]
pub struct ListingArgs {
    /// The model's context window in tokens: Claude Code's skills listing may fill 1% of it at 4 characters per token (SLASH_COMMAND_TOOL_CHAR_BUDGET overrides, as in Claude Code); Claude Code's own bundled entries are not shown but take their share, as Claude Code 2.1.328 sent them [default: 200000]
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u64).range(1..))]
    pub context_window: Option<u64>,
}
