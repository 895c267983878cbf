//! `build`: print the layered system prompt (SPEC §2.1, §4).

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::adapters::builder_cmd::run_builder;
use crate::adapters::memoryfs::MemoryStore;
use crate::adapters::trust::Trust;
use crate::cli::config::{PrefixArgs, SuffixArgs, env_from_args, prefix_config, sha256_hex};
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{AGENT_VAR, AgentSource, Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::provider;
use crate::cli::stats::{self, Stats};
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::build::{Config, Layered, build};
use crate::prompt::check_stable::{compare_prefixes, config_b, set_env_field};
use crate::prompt::operator_profile::{
    OPERATOR_PROFILE_KEY_PREFIX, OperatorProfileConfig, OperatorProfileSource,
};
use crate::prompt::profile::Agent;

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
    /// Role, tone, safety and tools.
    #[command(flatten)]
    pub prefix: PrefixArgs,
    /// Env fields and the operator profile switch.
    #[command(flatten)]
    pub suffix: SuffixArgs,
    /// Read the operator profile from this user-model store [default: mecatl/usermodel in the config home]
    #[arg(long, value_name = "DIR")]
    pub user_model_dir: Option<PathBuf>,
    /// Print only this part (text format only)
    #[arg(long, value_enum)]
    pub part: Option<Part>,
    /// Build twice with two different Envs and fail when the prefix differs
    #[arg(long, conflicts_with_all = ["stats", "max_prefix_bytes", "max_suffix_bytes"])]
    pub check_stable: bool,
    /// Override a field of the second Env of --check-stable (cwd, os, model, date, mode, shell, git_status)
    #[arg(long = "env-b", value_name = "KEY=VALUE", requires = "check_stable")]
    pub env_b: Vec<String>,
    /// Run this program as the builder: Config JSON on stdin, Layered JSON on stdout
    #[arg(long, value_name = "CMD")]
    pub builder_cmd: Option<String>,
    /// `--stats` and the prefix and suffix budgets.
    #[command(flatten)]
    pub accounting: stats::BuildAccountingArgs,
}

/// The Config the flags describe, with its diagnostics.
fn config_from_args(
    ctx: &Context,
    args: &BuildArgs,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Config, CliError> {
    let prefix = prefix_config(ctx, &args.prefix, diagnostics)?;
    Ok(Config {
        env: env_from_args(ctx, &args.suffix, diagnostics),
        operator_profile: operator_profile(ctx, args, diagnostics),
        ..prefix
    })
}

/// The operator profile: the `user/` entries of the user-model store
/// (`--user-model-dir`, else the default), when that store exists and
/// `--no-operator-profile` was not given (SPEC §2.1, §6.6).
fn operator_profile(
    ctx: &Context,
    args: &BuildArgs,
    diagnostics: &mut Vec<Diagnostic>,
) -> OperatorProfileConfig {
    if args.suffix.no_operator_profile {
        return OperatorProfileConfig::default();
    }
    let dir = match &args.user_model_dir {
        Some(dir) => Some(ctx.resolve_path(dir)),
        None => ctx.locations.user_model_dir(),
    };
    let Some(store) = dir.map(MemoryStore::new).filter(MemoryStore::exists) else {
        return OperatorProfileConfig::default();
    };
    let delivery = store.deliver(OPERATOR_PROFILE_KEY_PREFIX);
    diagnostics.extend(delivery.diagnostics);
    OperatorProfileConfig {
        entries: delivery.product.unwrap_or_default(),
        ..OperatorProfileConfig::default()
    }
}

/// Builds with the built-in builder or the `--builder-cmd` program.
fn run_chosen_builder(
    ctx: &Context,
    args: &BuildArgs,
    config: &Config,
) -> Result<Layered, CliError> {
    match &args.builder_cmd {
        Some(cmd) => run_builder(cmd, config, &ctx.process_cwd)
            .map_err(|err| CliError::Message(format!("--builder-cmd: {err}"))),
        None => Ok(build(config)),
    }
}

/// The JSON document of `build` (SPEC §8.2): the layered system prompt,
/// its prefix's size and hash, `--stats`, the diagnostics and trust.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct BuildDocument<'a> {
    #[serde(flatten)]
    head: DocHead<'a>,
    stable_prefix: &'a str,
    volatile_suffix: &'a str,
    prefix_bytes: usize,
    prefix_sha256: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Stats>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// The JSON document of `build --check-stable` (SPEC §4.5): whether the
/// prefix is byte-identical under two environments, and where it differs.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct CheckStableDocument<'a> {
    #[serde(flatten)]
    head: DocHead<'a>,
    stable: bool,
    prefix_bytes: usize,
    prefix_sha256: String,
    first_difference: Option<usize>,
    diff: Option<&'a str>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// `--check-stable` (SPEC §4.5): builds with Env A and Env B and compares
/// the prefixes byte for byte.
fn check_stable(
    ctx: &Context,
    args: &BuildArgs,
    config_a: &Config,
    diagnostics: &[Diagnostic],
) -> Result<Status, CliError> {
    let mut config_b = config_b(config_a);
    for pair in &args.env_b {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| CliError::Usage(format!("--env-b {pair:?}: expected KEY=VALUE")))?;
        set_env_field(&mut config_b.env, key, value).map_err(|_| {
            CliError::Usage(format!(
                "--env-b {key}: unknown key; expected one of {}",
                crate::prompt::check_stable::ENV_KEYS.join(", ")
            ))
        })?;
    }
    let a = run_chosen_builder(ctx, args, config_a)?;
    let b = run_chosen_builder(ctx, args, &config_b)?;
    let difference = compare_prefixes(&a.stable_prefix, &b.stable_prefix);
    let prefix_bytes = a.stable_prefix.len();
    let prefix_sha256 = sha256_hex(&a.stable_prefix);
    match ctx.format {
        Format::Json => output::print_json(&CheckStableDocument {
            head: DocHead::engine(),
            stable: difference.is_none(),
            prefix_bytes,
            prefix_sha256,
            first_difference: difference.as_ref().map(|d| d.first_difference),
            diff: difference.as_ref().map(|d| d.diff.as_str()),
            diagnostics,
            trust: ctx.trust,
        })?,
        _ => match &difference {
            None => output::print_text(&format!(
                "stable prefix: OK ({prefix_bytes} bytes, sha256 {prefix_sha256})"
            ))?,
            Some(diff) => output::print_text(&format!(
                "stable prefix: DIFFERS at byte {} when only the Env changes\n{}",
                diff.first_difference,
                diff.diff.trim_end_matches('\n')
            ))?,
        },
    }
    Ok(if difference.is_none() {
        Status::Success
    } else {
        Status::CheckFailed
    })
}

/// `build` renders the engine's layered prompt whatever the profile (SPEC
/// §14.1): an agent profile named by `--agent` is a usage error pointing to
/// `assemble`; one from the variable or the settings is ignored, with the
/// info line this returns.
fn engine_only(ctx: &Context) -> Result<Option<Diagnostic>, CliError> {
    let agent = ctx.agent;
    if agent == Agent::Mecatl {
        return Ok(None);
    }
    let pointer = format!(
        "for what {} loads from this workspace, run `assemble --agent {}`",
        agent.title(),
        agent.as_str()
    );
    let source = match ctx.agent_source {
        AgentSource::Flag => {
            return Err(CliError::Usage(format!(
                "build prints the engine's layered prompt, never an agent's own; {pointer}"
            )));
        }
        AgentSource::Env => AGENT_VAR,
        AgentSource::Settings => "settings.yaml",
        AgentSource::Default => "the default",
    };
    Ok(Some(Diagnostic::new(
        Severity::Info,
        None,
        format!(
            "the agent profile {} (from {source}) does not apply to build, which prints the \
             engine's layered prompt; {pointer}",
            agent.as_str()
        ),
    )))
}

/// Runs `build`.
pub fn run(ctx: &Context, args: &BuildArgs) -> Result<Status, CliError> {
    ctx.require_format("build", &[Format::Anthropic, Format::Openai])?;
    if args.part.is_some() && ctx.format != Format::Text {
        return Err(CliError::Usage(
            "--part is only for --format text".to_string(),
        ));
    }
    let mut found = Vec::new();
    if let Some(note) = engine_only(ctx)? {
        found.push(note);
    }
    let config = config_from_args(ctx, args, &mut found)?;
    let diagnostics = with_context_diagnostics(ctx, found, false);
    output::print_diagnostics(ctx, &diagnostics);
    if args.check_stable {
        return check_stable(ctx, args, &config, &diagnostics);
    }
    let layered = run_chosen_builder(ctx, args, &config)?;
    let accounting = stats::for_build(
        &config,
        &layered,
        args.builder_cmd.is_some(),
        &args.accounting,
        // `build` prints the engine's prompt under every profile.
        Agent::Mecatl.tokenizer(),
    );
    match ctx.format {
        Format::Json => output::print_json(&BuildDocument {
            head: DocHead::engine(),
            stable_prefix: &layered.stable_prefix,
            volatile_suffix: &layered.volatile_suffix,
            prefix_bytes: layered.stable_prefix.len(),
            prefix_sha256: sha256_hex(&layered.stable_prefix),
            stats: accounting.json_stats(),
            diagnostics: &accounting.diagnostics_after(&diagnostics),
            trust: ctx.trust,
        })?,
        Format::Anthropic => output::print_json(&provider::anthropic_system(&layered))?,
        Format::Openai => output::print_json(&provider::openai_messages(
            "system",
            [layered.render().as_str()],
        ))?,
        // Text (the other formats were refused above).
        _ => match args.part.unwrap_or(Part::All) {
            Part::Prefix => output::print_text(&layered.stable_prefix)?,
            Part::Suffix => output::print_text(&layered.volatile_suffix)?,
            Part::All
                if ctx.color
                    && !layered.stable_prefix.is_empty()
                    && !layered.volatile_suffix.is_empty() =>
            {
                let dim = anstyle::Style::new().dimmed();
                output::write_styled_stdout(
                    ctx,
                    &format!(
                        "{}\n{dim}──── cache boundary ────{dim:#}\n{}\n",
                        layered.stable_prefix, layered.volatile_suffix
                    ),
                )?;
            }
            Part::All => output::print_text(&layered.render())?,
        },
    }
    Ok(accounting.finish(ctx))
}
