//! The `mecatl-prompt` binary: parse, run, map the outcome to an exit code.

use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use mecatl_prompt::cli::{Cli, run};

fn main() -> ExitCode {
    clap_complete::CompleteEnv::with_factory(Cli::command).complete();
    match run(Cli::parse()) {
        Ok(status) => ExitCode::from(status.code()),
        Err(err) => {
            eprintln!("mecatl-prompt: error: {err}");
            ExitCode::from(2)
        }
    }
}
