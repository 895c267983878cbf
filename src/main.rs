//! The `mecatl-prompt` binary: parse, run, map the outcome to an exit code.

use std::ffi::OsString;
use std::mem::ManuallyDrop;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use mecatl_prompt::cli::{Cli, run};

fn main() -> ExitCode {
    clap_complete::CompleteEnv::with_factory(Cli::command).complete();
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    // What `Cli::parse` does, except that the command tree (every
    // subcommand's arguments, help and values) is not freed: the process
    // ends after one run, and freeing it cost a tenth of a small `build`.
    let mut command = ManuallyDrop::new(Cli::command());
    let mut matches = ManuallyDrop::new(command.get_matches_mut());
    let mut cli = Cli::from_arg_matches_mut(&mut matches)
        .unwrap_or_else(|err| err.format(&mut command).exit());
    cli.settle_pairs(&args);
    match run(cli) {
        Ok(status) => ExitCode::from(status.code()),
        Err(err) => {
            eprintln!("mecatl-prompt: error: {err}");
            ExitCode::from(2)
        }
    }
}
