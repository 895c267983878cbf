//! `build`: print the layered system prompt (SPEC §2.1, §4).

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::adapters::builder_cmd::run_builder;
use crate::adapters::git::git_status;
use crate::adapters::memoryfs::MemoryStore;
use crate::adapters::trust::Trust;
use crate::cli::context::{Context, Format};
use crate::cli::output::{self, SCHEMA};
use crate::cli::sources::with_context_diagnostics;
use crate::cli::stats::{self, Stats};
use crate::cli::{CliError, Status};
use crate::diagnostic::{Diagnostic, Severity};
use crate::limits::{MAX_PROMPT_TEXT_FILE_BYTES, MAX_TOOLS_FILE_BYTES};
use crate::prompt::build::{Config, Layered, build};
use crate::prompt::check_stable::{compare_prefixes, config_b, set_env_field};
use crate::prompt::env::Env;
use crate::prompt::operator_profile::{
    OPERATOR_PROFILE_KEY_PREFIX, OperatorProfileConfig, OperatorProfileSource,
};
use crate::prompt::tools::{ToolSpec, merge_catalogs, parse_catalog};

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

/// The options that shape the stable prefix: role, tone, safety and the
/// tool catalog. Shared by `build`, `snapshot` and `check`.
#[derive(Debug, Clone, Args)]
pub struct PrefixArgs {
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
}

/// The options that shape only the volatile suffix: the Env fields and the
/// operator profile switch. `snapshot` and `check` accept and ignore them.
#[derive(Debug, Clone, Args)]
pub struct SuffixArgs {
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
    /// Leave out the operator profile
    #[arg(long)]
    pub no_operator_profile: bool,
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

/// Lowercase hex SHA-256 of `text`.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The platform name the engine reports (Go's `GOOS`): `linux`, `darwin`,
/// `windows`, …
pub fn go_os_name() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        other => other,
    }
}

/// Reads a whole file given on the command line (relative to `-C`), or
/// stdin for `-`, refusing more than `max` bytes. Errors name the option and
/// the file.
pub fn read_option_file(
    ctx: &Context,
    option: &str,
    path: &Path,
    max: u64,
) -> Result<Vec<u8>, CliError> {
    let fail = |what: String| CliError::Message(format!("{option} {}: {what}", path.display()));
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(max + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| fail(e.to_string()))?;
    } else {
        let resolved = ctx.resolve_path(path);
        let meta = std::fs::metadata(&resolved).map_err(|e| fail(e.to_string()))?;
        if !meta.is_file() {
            return Err(fail("not a regular file".to_string()));
        }
        std::fs::File::open(&resolved)
            .and_then(|f| f.take(max + 1).read_to_end(&mut bytes))
            .map_err(|e| fail(e.to_string()))?;
    }
    if bytes.len() as u64 > max {
        return Err(fail(format!("larger than {max} bytes")));
    }
    Ok(bytes)
}

/// A role/tone/safety value: the inline text, else the file's text, else
/// empty (the built-in default).
fn prompt_text(
    ctx: &Context,
    text: Option<&String>,
    file: Option<&PathBuf>,
    option: &str,
) -> Result<String, CliError> {
    if let Some(text) = text {
        return Ok(text.clone());
    }
    match file {
        Some(path) => {
            let bytes = read_option_file(ctx, option, path, MAX_PROMPT_TEXT_FILE_BYTES)?;
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        }
        None => Ok(String::new()),
    }
}

/// The tool catalog from every `--tools` file in order; a later duplicate
/// name is dropped with a warning naming the file.
fn tool_catalog(
    ctx: &Context,
    files: &[PathBuf],
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<ToolSpec>, CliError> {
    let mut catalogs = Vec::with_capacity(files.len());
    for path in files {
        let bytes = read_option_file(ctx, "--tools", path, MAX_TOOLS_FILE_BYTES)?;
        let tools = parse_catalog(&bytes)
            .map_err(|err| CliError::Message(format!("--tools {}: {err}", path.display())))?;
        catalogs.push(tools);
    }
    let merged = merge_catalogs(catalogs);
    for duplicate in merged.duplicates {
        let file = files
            .get(duplicate.catalog)
            .map(|p| p.display().to_string());
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            file,
            format!(
                "tool {:?} is already defined by an earlier catalog; dropped",
                duplicate.name
            ),
        ));
    }
    Ok(merged.tools)
}

/// The Env the flags describe, with the CLI defaults of SPEC §4.3 for
/// absent flags.
fn env_from_args(ctx: &Context, args: &SuffixArgs, diagnostics: &mut Vec<Diagnostic>) -> Env {
    let git = if args.no_git_status {
        String::new()
    } else if let Some(text) = &args.git_status {
        text.clone()
    } else if ctx.trust.trusted {
        git_status(&ctx.workspace).unwrap_or_default()
    } else {
        diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            "no git status: git does not run in an untrusted workspace",
        ));
        String::new()
    };
    Env {
        cwd: args
            .cwd
            .clone()
            .unwrap_or_else(|| ctx.workspace.display().to_string()),
        os: args.os.clone().unwrap_or_else(|| go_os_name().to_string()),
        model: args
            .model
            .clone()
            .or_else(|| ctx.env.model.clone())
            .unwrap_or_default(),
        date: args.date.clone().unwrap_or_else(|| ctx.today()),
        mode: args.mode.clone().unwrap_or_else(|| "default".to_string()),
        shell: args
            .shell
            .clone()
            .or_else(|| ctx.env.shell.clone().filter(|s| !s.is_empty()))
            .unwrap_or_else(|| "/bin/sh".to_string()),
        git_status: git,
    }
}

/// The Config the flags describe, with its diagnostics.
pub fn config_from_args(
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

/// The Config the prefix flags describe, with an empty Env and no operator
/// profile: everything the stable prefix depends on and nothing else.
pub fn prefix_config(
    ctx: &Context,
    args: &PrefixArgs,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Config, CliError> {
    Ok(Config {
        role: prompt_text(
            ctx,
            args.role.as_ref(),
            args.role_file.as_ref(),
            "--role-file",
        )?,
        tone: prompt_text(
            ctx,
            args.tone.as_ref(),
            args.tone_file.as_ref(),
            "--tone-file",
        )?,
        safety: prompt_text(
            ctx,
            args.safety.as_ref(),
            args.safety_file.as_ref(),
            "--safety-file",
        )?,
        tools: tool_catalog(ctx, &args.tools, diagnostics)?,
        ..Config::default()
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

#[derive(Serialize)]
struct BuildDocument<'a> {
    schema: &'static str,
    stable_prefix: &'a str,
    volatile_suffix: &'a str,
    prefix_bytes: usize,
    prefix_sha256: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Stats>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

#[derive(Serialize)]
struct CheckStableDocument<'a> {
    schema: &'static str,
    stable: bool,
    prefix_bytes: usize,
    prefix_sha256: String,
    first_difference: Option<usize>,
    diff: Option<&'a str>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

#[derive(Serialize)]
struct TextBlock<'a> {
    r#type: &'static str,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

#[derive(Serialize)]
struct CacheControl {
    r#type: &'static str,
}

#[derive(Serialize)]
struct AnthropicSystem<'a> {
    system: Vec<TextBlock<'a>>,
}

#[derive(Serialize)]
struct OpenAiMessage<'a> {
    role: &'static str,
    content: &'a str,
}

#[derive(Serialize)]
struct OpenAiMessages<'a> {
    messages: Vec<OpenAiMessage<'a>>,
}

/// The Anthropic `system` blocks: the prefix carries the cache breakpoint;
/// an empty side is left out, since the API rejects empty text blocks.
fn anthropic_system(layered: &Layered) -> AnthropicSystem<'_> {
    let mut system = Vec::new();
    if !layered.stable_prefix.is_empty() {
        system.push(TextBlock {
            r#type: "text",
            text: &layered.stable_prefix,
            cache_control: Some(CacheControl {
                r#type: "ephemeral",
            }),
        });
    }
    if !layered.volatile_suffix.is_empty() {
        system.push(TextBlock {
            r#type: "text",
            text: &layered.volatile_suffix,
            cache_control: None,
        });
    }
    AnthropicSystem { system }
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
            schema: SCHEMA,
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

/// Runs `build`.
pub fn run(ctx: &Context, args: &BuildArgs) -> Result<Status, CliError> {
    if args.part.is_some() && ctx.format != Format::Text {
        return Err(CliError::Usage(
            "--part is only for --format text".to_string(),
        ));
    }
    let mut found = Vec::new();
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
    );
    match ctx.format {
        Format::Json => output::print_json(&BuildDocument {
            schema: SCHEMA,
            stable_prefix: &layered.stable_prefix,
            volatile_suffix: &layered.volatile_suffix,
            prefix_bytes: layered.stable_prefix.len(),
            prefix_sha256: sha256_hex(&layered.stable_prefix),
            stats: accounting.json_stats(),
            diagnostics: &accounting.diagnostics_after(&diagnostics),
            trust: ctx.trust,
        })?,
        Format::Anthropic => output::print_json(&anthropic_system(&layered))?,
        Format::Openai => output::print_json(&OpenAiMessages {
            messages: vec![OpenAiMessage {
                role: "system",
                content: &layered.render(),
            }],
        })?,
        Format::Text => match args.part.unwrap_or(Part::All) {
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
