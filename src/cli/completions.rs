//! `completions`: print the registration shim of clap_complete's dynamic
//! completion (SPEC §2.6). The shell calls the binary back at TAB time, so
//! command names are read from the workspace at that moment.

use clap::{Args, ValueEnum};
use clap_complete::env::Shells;

use crate::cli::error::{CliError, Status};
use crate::cli::output;

/// The shells we can print a shim for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    /// GNU Bash.
    Bash,
    /// Z shell.
    Zsh,
    /// fish.
    Fish,
    /// Elvish.
    Elvish,
    /// PowerShell.
    Powershell,
}

impl Shell {
    /// The shell's name as clap_complete knows it.
    pub fn name(self) -> &'static str {
        match self {
            Shell::Bash => "bash",
            Shell::Zsh => "zsh",
            Shell::Fish => "fish",
            Shell::Elvish => "elvish",
            Shell::Powershell => "powershell",
        }
    }
}

/// How to install the script in each shell; the shell runs `mecatl-prompt`
/// from PATH at every TAB, so command names are always current.
const INSTALL: &str = "\
Install (mecatl-prompt must be on PATH; it is called back at every TAB):
  bash        echo 'source <(mecatl-prompt completions bash)' >> ~/.bashrc
  zsh         echo 'source <(mecatl-prompt completions zsh)' >> ~/.zshrc   (after compinit)
  fish        mecatl-prompt completions fish > ~/.config/fish/completions/mecatl-prompt.fish
  elvish      echo 'eval (mecatl-prompt completions elvish | slurp)' >> ~/.config/elvish/rc.elv
  powershell  add to $PROFILE: mecatl-prompt completions powershell | Out-String | Invoke-Expression";

/// Arguments of `completions`.
#[derive(Debug, Clone, Args)]
#[command(after_long_help = INSTALL)]
pub struct CompletionsArgs {
    /// The shell to print the completion script for
    #[arg(value_enum)]
    pub shell: Shell,
}

/// The environment variable that switches the binary into completion mode.
pub const COMPLETE_VAR: &str = "COMPLETE";
const BIN: &str = "mecatl-prompt";

/// The registration script for `shell`.
pub fn registration(shell: Shell) -> Result<Vec<u8>, CliError> {
    let shells = Shells::builtins();
    let completer = shells
        .completer(shell.name())
        .ok_or_else(|| CliError::Usage(format!("unsupported shell {}", shell.name())))?;
    let mut script = Vec::new();
    completer.write_registration(COMPLETE_VAR, BIN, BIN, BIN, &mut script)?;
    Ok(script)
}

/// Prints the registration script.
pub fn run(args: &CompletionsArgs) -> Result<Status, CliError> {
    output::write_stdout(&registration(args.shell)?)?;
    Ok(Status::Success)
}
