//! `build`: print the layered system prompt (SPEC §2.1, §4).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::cli::context::Context;
use crate::cli::{CliError, Status};

/// Which part of the layered prompt to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Part {
    /// The byte-stable, cacheable prefix.
    Prefix,
    /// The per-turn suffix.
    Suffix,
    /// Both, as the model sees them.
    All,
}

/// Arguments of `build`.
#[derive(Debug, Clone, Args)]
pub struct BuildArgs {
    /// Role line [default: built in]
    #[arg(long, value_name = "TEXT", conflicts_with = "role_file")]
    pub role: Option<String>,
    /// Read the role line from FILE
    #[arg(long, value_name = "FILE")]
    pub role_file: Option<PathBuf>,
    /// Tone block [default: built in]
    #[arg(long, value_name = "TEXT", conflicts_with = "tone_file")]
    pub tone: Option<String>,
    /// Read the tone block from FILE
    #[arg(long, value_name = "FILE")]
    pub tone_file: Option<PathBuf>,
    /// Safety block [default: built in]
    #[arg(long, value_name = "TEXT", conflicts_with = "safety_file")]
    pub safety: Option<String>,
    /// Read the safety block from FILE
    #[arg(long, value_name = "FILE")]
    pub safety_file: Option<PathBuf>,
    /// Tool catalog JSON (plain, Anthropic, OpenAI, MCP); repeatable; `-` reads stdin
    #[arg(long = "tools", value_name = "FILE")]
    pub tools: Vec<PathBuf>,
    /// Env cwd [default: the workspace path]
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,
    /// Env os [default: this platform, Go-style: linux, darwin, windows]
    #[arg(long, value_name = "OS")]
    pub os: Option<String>,
    /// Env model [default: $MECATL_MODEL]
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// Env date [default: today, YYYY-MM-DD, local time]
    #[arg(long, value_name = "DATE")]
    pub date: Option<String>,
    /// Env permission mode; `plan` adds the plan-mode note [default: default]
    #[arg(long, value_name = "MODE")]
    pub mode: Option<String>,
    /// Env shell [default: $SHELL, else /bin/sh]
    #[arg(long, value_name = "SHELL")]
    pub shell: Option<String>,
    /// Env git status text [default: queried from git in a trusted work tree]
    #[arg(long, value_name = "TEXT", conflicts_with = "no_git_status")]
    pub git_status: Option<String>,
    /// No git status
    #[arg(long)]
    pub no_git_status: bool,
    /// Read the operator profile from this user-model store [default: <config home>/mecatl/usermodel]
    #[arg(long, value_name = "DIR")]
    pub user_model_dir: Option<PathBuf>,
    /// Leave out the operator profile
    #[arg(long)]
    pub no_operator_profile: bool,
    /// Print only this part (text format only)
    #[arg(long, value_enum)]
    pub part: Option<Part>,
    /// Build twice with two different Envs and fail when the prefix differs
    #[arg(long)]
    pub check_stable: bool,
    /// Override a field of the second Env of --check-stable (cwd, os, model, date, mode, shell, git_status)
    #[arg(long = "env-b", value_name = "KEY=VALUE", requires = "check_stable")]
    pub env_b: Vec<String>,
    /// Run this program as the builder: Config JSON on stdin, Layered JSON on stdout
    #[arg(long, value_name = "CMD")]
    pub builder_cmd: Option<String>,
}

/// Runs `build`.
pub fn run(ctx: &Context, args: &BuildArgs) -> Result<Status, CliError> {
    let _ = (ctx, args);
    Err(CliError::Message("build: not wired yet".into()))
}
