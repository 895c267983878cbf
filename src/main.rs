//! The `mecatl-prompt` binary: parse, run, map the outcome to an exit code.

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use mecatl_prompt::cli::{Cli, run};

fn main() -> ExitCode {
    clap_complete::CompleteEnv::with_factory(Cli::command).complete();
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let mut cli = Cli::parse();
    cli.settle_pairs(&args);
    match run(cli) {
        Ok(status) => ExitCode::from(status.code()),
        Err(err) => {
            eprintln!("mecatl-prompt: error: {err}");
            ExitCode::from(2)
        }
    }
}
