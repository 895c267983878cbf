//! The prompt's configuration from the command line (SPEC §2.1, §4):
//! the options that shape the stable prefix and the Env, and the option
//! files they read. Shared by `build`, `snapshot` and `check`.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::adapters::git::git_status;
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::diagnostic::{Diagnostic, Severity};
use crate::limits::{MAX_PROMPT_TEXT_FILE_BYTES, MAX_TOOLS_FILE_BYTES};
use crate::prompt::build::Config;
use crate::prompt::env::Env;
use crate::prompt::tools::{ToolSpec, merge_catalogs, parse_catalog};

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

pub use crate::prompt::text::sha256_hex;

/// The platform name the engine reports (Go's `GOOS`): `linux`, `darwin`,
/// `windows`, …
fn go_os_name() -> &'static str {
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
pub fn env_from_args(ctx: &Context, args: &SuffixArgs, diagnostics: &mut Vec<Diagnostic>) -> Env {
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
