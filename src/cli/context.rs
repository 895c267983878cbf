//! The resolved context of one run: every subcommand takes a `&Context`
//! built once from the global options and the environment, so no subcommand
//! reads the environment or the clock on its own.
//!
//! The agent profile (SPEC §14.1) is chosen here: `--agent`, else
//! `MECATL_PROMPT_AGENT`, else `agent:` in settings.yaml, else `mecatl`;
//! `--at` is resolved against `-C` and checked here too.
//!
//! Choices the spec leaves open:
//! - An empty `MECATL_PROMPT_AGENT` counts as unset; an unknown name from
//!   the variable or the settings file is exit 2, like one from the flag,
//!   naming where it came from. A profile chosen by the variable or the
//!   settings file is stated in an info line, as trust from the variable is.
//! - `--at` must be a directory inside the workspace both as written
//!   (lexically) and once links are resolved, so a link leading out of the
//!   workspace is refused rather than walked. A path component that is not
//!   valid UTF-8 is refused too: the walk names directories through the
//!   workspace port, which takes UTF-8 paths.

use std::ffi::{OsStr, OsString};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, ValueEnum};

use crate::adapters::locations::Locations;
use crate::adapters::settings::SettingsFile;
use crate::adapters::trust::{Trust, TrustInputs, TrustSource, resolve_trust, withheld_notice};
use crate::cli::error::CliError;
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::{self, UnknownAgent};
use crate::prompt::profile::Agent;
use crate::workspace::{LinkPolicy, OsWorkspace, Workspace};

/// The variable that chooses the agent profile when `--agent` is not given.
pub const AGENT_VAR: &str = "MECATL_PROMPT_AGENT";

/// Output format (SPEC §2, §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text for people.
    Text,
    /// One JSON document (schema `mecatl-prompt/v1`).
    Json,
    /// Anthropic Messages API shapes (build and assemble only).
    Anthropic,
    /// OpenAI Chat Completions shapes (build and assemble only).
    Openai,
    /// GitHub Actions workflow commands (lint only).
    Github,
    /// SARIF 2.1.0 (lint only).
    Sarif,
}

impl Format {
    /// The value as written on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Anthropic => "anthropic",
            Format::Openai => "openai",
            Format::Github => "github",
            Format::Sarif => "sarif",
        }
    }

    /// The subcommands a format is only for; `None` for text and JSON,
    /// which every subcommand takes.
    fn only_for(self) -> Option<&'static str> {
        match self {
            Format::Text | Format::Json => None,
            Format::Anthropic | Format::Openai => Some("build and assemble"),
            Format::Github | Format::Sarif => Some("lint"),
        }
    }
}

/// When to color text output (SPEC §8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Color when stdout is a terminal and neither NO_COLOR nor CLICOLOR=0
    /// says otherwise (CLICOLOR_FORCE=1 forces it).
    Auto,
    /// Always color text output.
    Always,
    /// Never color.
    Never,
}

/// How many diagnostics to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// None (`-q`).
    Quiet,
    /// Fatal and warning.
    Normal,
    /// Everything, info included (`-v`).
    Verbose,
}

/// Options accepted before the subcommand and after it.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Workspace root; relative path options resolve against it [default: the current directory]
    #[arg(short = 'C', long = "workspace", value_name = "DIR", global = true)]
    pub workspace: Option<PathBuf>,

    /// Output format; anthropic and openai only for build and assemble, github and sarif only
    /// for lint
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text, global = true)]
    pub format: Format,

    /// When to use color in text output
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto, global = true)]
    pub color: ColorWhen,

    // The help names every profile of the table ([`agent_help`]).
    #[arg(long, value_name = "NAME", global = true, value_parser = agent_parser(), help = agent_help())]
    pub agent: Option<Agent>,

    /// The directory the agent is started in, inside the workspace (relative to -C); it decides which directories claude and codex read [default: the workspace root]
    #[arg(long, value_name = "DIR", global = true, value_hint = clap::ValueHint::DirPath)]
    pub at: Option<PathBuf>,

    /// Treat the workspace as trusted (use its commands, rules, soul and git status)
    #[arg(long, global = true, overrides_with = "no_trust_project")]
    pub trust_project: bool,

    /// Treat the workspace as untrusted even if settings trust it
    #[arg(long, global = true, overrides_with = "trust_project")]
    pub no_trust_project: bool,

    /// Print no diagnostics (a fatal error still prints its one line)
    #[arg(short, long, global = true, overrides_with = "verbose")]
    pub quiet: bool,

    /// Also print info diagnostics and every file read
    #[arg(short, long, global = true, overrides_with = "quiet")]
    pub verbose: bool,
}

impl GlobalArgs {
    /// Makes the last one given win for the pairs `--trust-project` /
    /// `--no-trust-project` and `-q` / `-v` when they straddle the
    /// subcommand: clap applies `overrides_with` within one level only, so
    /// `-q build -v` leaves both set. `options` is the command line without
    /// the program name and without any INPUT words; clap has already
    /// accepted it, so a token shaped like a flag is a flag (option values
    /// cannot look like one), and `--` ends the options.
    pub fn settle_pairs(&mut self, options: &[OsString]) {
        let mut trusted = None;
        let mut verbose = None;
        for token in options {
            let token = token.to_string_lossy();
            if token == "--" {
                break;
            }
            if let Some(long) = token.strip_prefix("--") {
                match long {
                    "trust-project" => trusted = Some(true),
                    "no-trust-project" => trusted = Some(false),
                    "quiet" => verbose = Some(false),
                    "verbose" => verbose = Some(true),
                    _ => {}
                }
            } else if let Some(shorts) = token.strip_prefix('-') {
                for short in shorts.chars() {
                    match short {
                        'q' => verbose = Some(false),
                        'v' => verbose = Some(true),
                        // The rest of the cluster is the workspace path.
                        'C' => break,
                        _ => {}
                    }
                }
            }
        }
        if let (true, true, Some(trusted)) = (self.trust_project, self.no_trust_project, trusted) {
            self.trust_project = trusted;
            self.no_trust_project = !trusted;
        }
        if let (true, true, Some(verbose)) = (self.quiet, self.verbose, verbose) {
            self.verbose = verbose;
            self.quiet = !verbose;
        }
    }
}

/// The parser of an agent's name on the command line: one of the known
/// names, listed in `--help` and in the error for any other.
pub fn agent_parser() -> impl clap::builder::TypedValueParser<Value = Agent> {
    clap::builder::TypedValueParser::try_map(
        clap::builder::PossibleValuesParser::new(Agent::ALL.map(Agent::as_str)),
        |name: String| name.parse::<Agent>(),
    )
}

/// `--agent`'s help, naming every profile of the table and what it stands
/// for.
fn agent_help() -> String {
    let named = agents::spoken(|spec| format!("{} ({})", spec.name, spec.summary));
    format!(
        "Which agent's way of loading the workspace to show: {named}; under claude, rule files \
         come in the order the filesystem lists them, as Claude Code takes them, and under \
         opencode the files one `instructions` glob matches come in the reverse of that order, \
         as opencode returns them (the only outputs that depend on it) [default: \
         $MECATL_PROMPT_AGENT, else agent: in settings.yaml, else mecatl]"
    )
}

/// The environment variables the tool reads, captured once.
#[derive(Debug, Clone, Default)]
pub struct EnvSnapshot {
    /// `$SHELL`.
    pub shell: Option<String>,
    /// `$MECATL_MODEL`.
    pub model: Option<String>,
    /// `$MECATL_MEMORY_DIR`.
    pub memory_dir: Option<OsString>,
    /// The variables the profiles read (`$CODEX_HOME`,
    /// `$CLAUDE_CONFIG_DIR`, `$SLASH_COMMAND_TOOL_CHAR_BUDGET`, …: every
    /// home's `var` and every spec's `vars` in the table), those that are
    /// set.
    pub agent_vars: Vec<(&'static str, OsString)>,
}

impl EnvSnapshot {
    /// The value of `var`, one of the variables the profiles read, when it
    /// is set.
    pub fn var(&self, var: &str) -> Option<&OsStr> {
        self.agent_vars
            .iter()
            .find(|(name, _)| *name == var)
            .map(|(_, value)| value.as_os_str())
    }
}

/// Where the agent profile came from (SPEC §14.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentSource {
    /// `--agent`.
    Flag,
    /// `MECATL_PROMPT_AGENT`.
    Env,
    /// `agent:` in settings.yaml.
    Settings,
    /// Nothing chose one: `mecatl`.
    Default,
}

/// Everything a subcommand needs to know about this run.
#[derive(Debug)]
pub struct Context {
    /// The process's working directory.
    pub process_cwd: PathBuf,
    /// The workspace root: absolute, lexically normalised, not resolved
    /// through symlinks.
    pub workspace: PathBuf,
    /// The project-tier reader, confined to the workspace root.
    pub reader: Arc<dyn Workspace>,
    /// User-tier locations.
    pub locations: Locations,
    /// The trust decision.
    pub trust: Trust,
    /// The agent profile (SPEC §14.1).
    pub agent: Agent,
    /// Where the profile came from (`build` refuses only a flag).
    pub agent_source: AgentSource,
    /// The agent's working directory (`--at`): workspace-relative,
    /// `/`-separated, `""` for the workspace root.
    pub at: String,
    /// Output format.
    pub format: Format,
    /// Whether text output is colored.
    pub color: bool,
    /// How many diagnostics to print.
    pub verbosity: Verbosity,
    /// Environment values for Env defaults and memory.
    pub env: EnvSnapshot,
    /// Diagnostics from resolving the context (trust inputs).
    pub diagnostics: Vec<Diagnostic>,
}

fn var(name: &str) -> Option<String> {
    std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
}

impl Context {
    /// Resolves the global options against the process environment.
    pub fn resolve(global: &GlobalArgs) -> Result<Self, CliError> {
        let process_cwd = std::env::current_dir()
            .map_err(|e| CliError::Message(format!("cannot read the current directory: {e}")))?;
        let workspace = match &global.workspace {
            Some(dir) => normalise(&process_cwd.join(dir)),
            None => process_cwd.clone(),
        };
        match std::fs::metadata(&workspace) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(CliError::Message(format!(
                    "workspace {}: not a directory",
                    workspace.display()
                )));
            }
            Err(err) => {
                return Err(CliError::Message(format!(
                    "workspace {}: {err}",
                    workspace.display()
                )));
            }
        }
        let reader: Arc<dyn Workspace> =
            Arc::new(OsWorkspace::new(&workspace, LinkPolicy::Confine));
        let at = resolve_at(&workspace, &*reader, global.at.as_deref())?;
        let locations = Locations::from_env();
        let flag = match (global.trust_project, global.no_trust_project) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        let env_trust = var("MECATL_TRUST_PROJECT");
        let settings = SettingsFile::new(locations.settings_file());
        let (trust, mut diagnostics) = resolve_trust(
            &workspace,
            &TrustInputs {
                flag,
                env_value: env_trust.as_deref(),
                settings: Some(&settings),
                home: locations.home.as_deref(),
            },
        );
        let (agent, agent_source) = resolve_agent(
            global.agent,
            var(AGENT_VAR).as_deref(),
            &settings,
            &mut diagnostics,
        )?;
        let verbosity = if global.quiet {
            Verbosity::Quiet
        } else if global.verbose {
            Verbosity::Verbose
        } else {
            Verbosity::Normal
        };
        let color = match global.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => auto_color(std::io::stdout().is_terminal()),
        } && global.format == Format::Text;
        Ok(Self {
            reader,
            process_cwd,
            workspace,
            locations,
            trust,
            agent,
            agent_source,
            at,
            format: global.format,
            color,
            verbosity,
            env: EnvSnapshot {
                shell: var("SHELL"),
                model: var("MECATL_MODEL"),
                memory_dir: std::env::var_os("MECATL_MEMORY_DIR"),
                agent_vars: agents::vars()
                    .filter_map(|name| Some((name, std::env::var_os(name)?)))
                    .collect(),
            },
            diagnostics,
        })
    }

    /// Resolves the global options as [`Context::resolve`] does, but with
    /// the trust decision fixed by the caller (the `mcp` server, SPEC
    /// §21.2): `trusted` comes from `--trust-project` on the server's own
    /// command line, and `MECATL_TRUST_PROJECT` and settings are never read
    /// for it. `trust.source` is `flag` when trusted, `default` otherwise.
    pub fn resolve_with_fixed_trust(global: &GlobalArgs, trusted: bool) -> Result<Self, CliError> {
        // A flag decides before the variable and the settings are looked at.
        let mut decided = global.clone();
        decided.trust_project = trusted;
        decided.no_trust_project = !trusted;
        let mut ctx = Self::resolve(&decided)?;
        ctx.trust = Trust {
            trusted,
            source: if trusted {
                TrustSource::Flag
            } else {
                TrustSource::Default
            },
        };
        Ok(ctx)
    }

    /// Resolves a path option against the workspace (SPEC §3.5: `-C` acts
    /// like `git -C`).
    pub fn resolve_path(&self, path: &Path) -> PathBuf {
        normalise(&self.workspace.join(path))
    }

    /// A path option that names a place inside the workspace (`--for`,
    /// `--touch`): resolved against `-C`, normalised (`./`, `//`), as a
    /// workspace-relative `/`-separated path; it need not exist. One
    /// outside the workspace is a usage error naming `flag`.
    pub fn workspace_relative(&self, flag: &str, path: &Path) -> Result<String, CliError> {
        let absolute = self.resolve_path(path);
        let relative = absolute.strip_prefix(&self.workspace).map_err(|_| {
            CliError::Usage(format!(
                "{flag} {}: path is outside the workspace {}",
                path.display(),
                self.workspace.display()
            ))
        })?;
        Ok(crate::workspace::slashed(relative))
    }

    /// `--at` as JSON and headers show it: `.` for the workspace root.
    pub fn at_label(&self) -> &str {
        if self.at.is_empty() { "." } else { &self.at }
    }

    /// Fails with a usage error unless the chosen format is text or JSON.
    pub fn require_text_or_json(&self, subcommand: &str) -> Result<(), CliError> {
        self.require_format(subcommand, &[])
    }

    /// Fails with a usage error unless the chosen format is text, JSON or
    /// one of `also`, the formats `subcommand` takes besides.
    pub fn require_format(&self, subcommand: &str, also: &[Format]) -> Result<(), CliError> {
        match self.format.only_for() {
            Some(only) if !also.contains(&self.format) => Err(CliError::Usage(format!(
                "--format {} is only for {only}, not {subcommand}",
                self.format.as_str()
            ))),
            _ => Ok(()),
        }
    }

    /// The notice that project files were withheld, naming the ways to trust.
    pub fn withheld_notice(&self) -> Diagnostic {
        withheld_notice(self.locations.settings_file().as_deref())
    }

    /// Today's date in local time, `YYYY-MM-DD`.
    pub fn today(&self) -> String {
        jiff::Timestamp::now()
            .to_zoned_datetime(local_time_zone())
            .date()
            .to_string()
    }
}

/// The agent profile and where it came from: the flag, else the variable,
/// else the settings file (read only when needed), else `mecatl`.
fn resolve_agent(
    flag: Option<Agent>,
    env_value: Option<&str>,
    settings: &SettingsFile,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(Agent, AgentSource), CliError> {
    let info = |source: String, agent: Agent| {
        Diagnostic::new(
            Severity::Info,
            None,
            format!("agent profile {} from {source}", agent.as_str()),
        )
    };
    if let Some(agent) = flag {
        return Ok((agent, AgentSource::Flag));
    }
    if let Some(name) = env_value.filter(|name| !name.is_empty()) {
        let agent = name
            .parse::<Agent>()
            .map_err(|err| CliError::Usage(format!("{AGENT_VAR}: {err}")))?;
        diagnostics.push(info(AGENT_VAR.to_string(), agent));
        return Ok((agent, AgentSource::Env));
    }
    let named = match &settings.get(diagnostics).agent {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(name)) => Some(name.parse::<Agent>()),
        Some(other) => Some(Err(UnknownAgent(other.to_string()))),
    };
    let path = settings
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    match named {
        None => Ok((Agent::Mecatl, AgentSource::Default)),
        Some(Ok(agent)) => {
            diagnostics.push(info(format!("agent: in {path}"), agent));
            Ok((agent, AgentSource::Settings))
        }
        Some(Err(err)) => Err(CliError::Usage(format!("{path}: agent: {err}"))),
    }
}

/// `--at` (SPEC §14.1) as a workspace-relative path (`""` for the root):
/// resolved against the workspace, and an existing directory inside it,
/// also once links are resolved (asked of the confined `reader`, which
/// resolves a path without links in one look, not one per component).
fn resolve_at(
    workspace: &Path,
    reader: &dyn Workspace,
    at: Option<&Path>,
) -> Result<String, CliError> {
    let Some(at) = at else {
        return Ok(String::new());
    };
    let fail = |why: String| CliError::Usage(format!("--at {}: {why}", at.display()));
    let absolute = normalise(&workspace.join(at));
    let relative = absolute
        .strip_prefix(workspace)
        .map_err(|_| fail(format!("outside the workspace {}", workspace.display())))?;
    match std::fs::metadata(&absolute) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(fail("not a directory".to_string())),
        Err(err) => return Err(fail(err.to_string())),
    }
    let parts: Option<Vec<&str>> = relative
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect();
    let rel = parts
        .map(|parts| parts.join("/"))
        .ok_or_else(|| fail("not valid UTF-8".to_string()))?;
    if reader.real_path(&rel).is_err() {
        return Err(fail(format!(
            "leads out of the workspace {} through a symbolic link",
            workspace.display()
        )));
    }
    Ok(rel)
}

/// The local time zone. Without `TZ`, `/etc/localtime` is read as TZif data
/// directly: asking jiff for the system zone also indexes the whole zoneinfo
/// directory to learn the zone's name, which a date does not need and which
/// took half of `build`'s own time (SPEC §11).
fn local_time_zone() -> jiff::tz::TimeZone {
    if std::env::var_os("TZ").is_none()
        && let Ok(data) = std::fs::read("/etc/localtime")
        && let Ok(zone) = jiff::tz::TimeZone::tzif("localtime", &data)
    {
        return zone;
    }
    jiff::tz::TimeZone::system()
}

/// SPEC §8.1 under `--color auto`: CLICOLOR_FORCE=1 forces color; otherwise
/// color needs a terminal, no NO_COLOR and no CLICOLOR=0.
fn auto_color(is_terminal: bool) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| v == "1") {
        return true;
    }
    is_terminal && !set("NO_COLOR") && std::env::var_os("CLICOLOR").is_none_or(|v| v != "0")
}

/// Removes `.` components and resolves `..` lexically, like `cd -L` (the one
/// lexical normaliser, shared with the import resolver).
pub use crate::prompt::imports::normalise;

/// The context's own diagnostics, then `found`, then the withheld notice
/// when anything was withheld.
pub fn with_context_diagnostics(
    ctx: &Context,
    found: Vec<Diagnostic>,
    withheld: bool,
) -> Vec<Diagnostic> {
    let mut all = ctx.diagnostics.clone();
    all.extend(found);
    if withheld {
        all.push(ctx.withheld_notice());
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settled(both_set: bool, line: &[&str]) -> GlobalArgs {
        let mut args = GlobalArgs {
            workspace: None,
            agent: None,
            at: None,
            format: Format::Text,
            color: ColorWhen::Auto,
            trust_project: both_set,
            no_trust_project: both_set,
            quiet: both_set,
            verbose: both_set,
        };
        let line: Vec<OsString> = line.iter().map(OsString::from).collect();
        args.settle_pairs(&line);
        args
    }

    #[test]
    fn the_last_of_a_straddling_pair_wins() {
        let a = settled(
            true,
            &["--trust-project", "-q", "build", "--no-trust-project", "-v"],
        );
        assert_eq!(
            (a.trust_project, a.no_trust_project, a.quiet, a.verbose),
            (false, true, false, true)
        );
        let a = settled(true, &["-q", "rules", "list", "-vCq"]);
        assert_eq!(
            (a.quiet, a.verbose),
            (false, true),
            "the q of -vCq is -C's value"
        );
        let a = settled(
            true,
            &["-v", "--quiet", "expand", "--", "-v", "--trust-project"],
        );
        assert_eq!((a.quiet, a.verbose), (true, false), "-- ends the options");
        assert_eq!((a.trust_project, a.no_trust_project), (true, true));
    }

    #[test]
    fn a_pair_clap_already_settled_is_left_alone() {
        let a = settled(false, &["--trust-project", "build", "--no-trust-project"]);
        assert_eq!((a.trust_project, a.no_trust_project), (false, false));
    }

    #[test]
    fn normalise_is_lexical() {
        assert_eq!(normalise(Path::new("/a/./b/../c/")), PathBuf::from("/a/c"));
        assert_eq!(normalise(Path::new("/a//b")), PathBuf::from("/a/b"));
    }
}
