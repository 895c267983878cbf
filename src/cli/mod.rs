//! The command-line front end: clap definitions (one file per subcommand),
//! context resolution and output rendering. [`run`] executes a parsed
//! [`Cli`] and reports the exit status.
//!
//! Subcommand files (`build`, `expand`, `commands`, `rules`, `assemble`,
//! `explain`, `compare`, `snapshot`, `check`, `lint`, `completions`, `man`;
//! the `lsp` server runs the others through [`run_in`])
//! import only the shared modules, never each other: `args` (shared
//! argument groups), `context` (the resolved run), `error` ([`CliError`], [`Status`]),
//! `output`, `sources` (command and rule locations), `config` (the prompt's
//! options), `provider` (the providers' request shapes), `turn0` (the
//! turn-0 pipeline), `profile` (the agent profiles' composition root),
//! `parts` (how a profile's turn 0 is printed), `stats` (accounting),
//! `manifest` (what `snapshot` prints and `check` reads) and `complete`
//! (dynamic completion of names).

use std::ffi::OsString;

use clap::{Parser, Subcommand};

pub mod args;
pub mod assemble;
pub mod build;
pub mod check;
pub mod commands;
pub mod compare;
pub mod complete;
pub mod completions;
pub mod config;
pub mod context;
pub mod error;
pub mod expand;
pub mod explain;
pub mod lint;
mod lint_config;
pub mod lsp;
pub mod man;
pub mod manifest;
pub mod mcp;
pub mod output;
pub mod parts;
pub mod profile;
pub mod provider;
pub mod readers;
pub mod rules;
pub mod run_profile;
pub mod snapshot;
pub mod sources;
pub mod stats;
pub mod turn0;

pub use error::{CliError, Status};

/// Preview, check and script what a coding agent's model sees: the layered
/// system prompt and the turn-0 messages built from a repository's
/// commands, rules, AGENTS.md/CLAUDE.md, soul and memory.
#[derive(Debug, Parser)]
#[command(
    name = "mecatl-prompt",
    version,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    /// Options that apply to every subcommand.
    #[command(flatten)]
    pub global: context::GlobalArgs,

    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Applies "the last one given wins" to the global option pairs that
    /// straddle the subcommand ([`context::GlobalArgs::settle_pairs`]).
    /// `args` is the command line this `Cli` was parsed from, without the
    /// program name.
    pub fn settle_pairs(&mut self, args: &[OsString]) {
        let input_words = match &self.command {
            Command::Expand(expand) => expand.input.len(),
            _ => 0,
        };
        let options = &args[..args.len().saturating_sub(input_words)];
        self.global.settle_pairs(options);
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the layered system prompt (stable prefix, then volatile suffix)
    Build(Box<build::BuildArgs>),
    /// Expand a slash-command invocation such as `/review src/lib.rs`
    Expand(expand::ExpandArgs),
    /// Slash commands: `commands list`
    #[command(subcommand)]
    Commands(commands::CommandsCommand),
    /// Rules: `rules list`
    #[command(subcommand)]
    Rules(rules::RulesCommand),
    /// Print the turn-0 messages (instructions, rules, soul, memory, user model); under --agent, the files that agent loads
    ///
    /// Under --agent claude the subagents of .claude/agents are listed as Claude Code lists
    /// them, without its built-in agents (such as general-purpose, Explore and Plan), which are its
    /// own and not shown. Under --agent opencode the skills listing and the subagents are the
    /// repository's and the user's only: opencode's built-in skill, the two lines it puts before
    /// its skills and its built-in agents (explore, general) are not reproduced.
    Assemble(assemble::AssembleArgs),
    /// Explain why a command or rule resolved as it did: every candidate file and its fate
    Explain(explain::ExplainArgs),
    /// Compare what mecatl, Claude Code and Codex load from this workspace: per file, in total, and where they diverge
    ///
    /// One row per file any of the agents loads or considers, one column per agent; a cell
    /// says start, touch, cut K/N, shadowed, withheld, not read (why), or a dash when the
    /// agent does not look at the file. Then each agent's total bytes and tokens (Codex's
    /// counted exactly with o200k_base, the others' estimated), and the divergences in plain
    /// words. The instruction content the agents are compared on is their instruction
    /// files, imports and rules on the walk (not the user's own files), with lines that only
    /// import dropped and rules in any order; --fail-on-divergence exits 1 when it differs
    /// and --diff A,B shows how. Claude Code reads rules in the filesystem's listing order.
    Compare(compare::CompareArgs),
    /// Print a JSON manifest (hashes and sizes) of the Env-independent context
    ///
    /// The manifest covers the stable prefix, the turn-0 messages, the rules of the rules
    /// message and the invokable commands. It leaves out everything the Env changes, names
    /// project files relative to the workspace and user files relative to ~, and is the same
    /// on every machine, day and checkout for the same files. The memory index and the user
    /// model are included only when --memory-dir / --user-model-dir name their directory.
    /// Trust applies as for assemble: snapshot and check with the same trust.
    Snapshot(Box<manifest::ContextArgs>),
    /// Compare the context with a manifest from `snapshot`; exit 1 and report what changed
    Check(Box<check::CheckArgs>),
    /// Check the agent files (rules, commands, skills, AGENTS.md/CLAUDE.md) for what silently
    /// does something other than meant under mecatl, Claude Code or Codex
    ///
    /// Every finding has a stable code (MPnnn, listed in README), a severity (error, warning,
    /// note), a file and line, and the agents it concerns. Exit 1 when an error remains, or a
    /// warning with --deny warnings. Reads the project's files only to check them (it works
    /// untrusted) and never runs anything. --format github prints workflow commands for GitHub
    /// Actions; --format sarif prints SARIF 2.1.0 for code scanning. .mecatl-prompt.toml at the
    /// workspace root sets agents, deny, disabled codes and severities (by path too); a
    /// `<!-- mecatl-prompt: disable MPnnn -->` or `disable-next-line` comment turns a code off
    /// in its file; --baseline reports only findings not recorded by --write-baseline.
    Lint(lint::LintArgs),
    /// Serve the Model Context Protocol on stdio: assemble, compare, lint and explain as read-only tools
    ///
    /// Newline-delimited JSON-RPC 2.0 on stdin and stdout (versions 2025-06-18 and 2025-11-25).
    /// Each tool answers with the JSON document of the subcommand of its name. A tool's
    /// workspace must lie inside one of the client's roots, else inside the start directory
    /// (-C). Trust comes only from --trust-project on this command line: MECATL_TRUST_PROJECT,
    /// settings and the tools' arguments are ignored, since the caller is a model reading the
    /// repository it previews. Logs go to stderr; no file is written.
    Mcp(mcp::McpArgs),
    /// Print a shell completion script
    Completions(completions::CompletionsArgs),
    /// Print the man page
    #[command(hide = true)]
    Man,
    /// Serve the Language Server Protocol on stdin and stdout, for editors
    ///
    /// Live lint diagnostics on agent files (debounced, over unsaved buffers), hover on any
    /// file with what each agent adds when it is read, code lenses with each agent's compare
    /// cell and an explain command, and go-to-definition on @imports. Trust is this command
    /// line's, fixed at start; the server never writes a file and logs to stderr.
    Lsp,
}

/// Executes a parsed command line.
pub fn run(cli: Cli) -> Result<Status, CliError> {
    match cli.command {
        Command::Completions(args) => return completions::run(&args),
        Command::Man => return man::run(),
        Command::Mcp(args) => return mcp::run(&cli.global, &args),
        Command::Lsp => return lsp::run(&cli.global),
        _ => {}
    }
    let ctx = context::Context::resolve(&cli.global)?;
    run_in(&ctx, cli.command)
}

/// Parses a command line the way `main` does, for a server that runs the
/// CLI's subcommands per request: the parser is built once per thread and
/// reused, because building it costs about as much as a small assembly.
pub fn parse_words<I, T>(argv: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    thread_local! {
        static PARSER: std::cell::RefCell<clap::Command> = std::cell::RefCell::new(Cli::command());
    }
    PARSER.with(|parser| {
        let mut matches = parser.borrow_mut().try_get_matches_from_mut(argv)?;
        Cli::from_arg_matches_mut(&mut matches)
    })
}

/// Executes `command` in the resolved run `ctx` (a server runs the
/// subcommands its requests name this way, in its own context).
pub fn run_in(ctx: &context::Context, command: Command) -> Result<Status, CliError> {
    match command {
        Command::Build(args) => build::run(ctx, &args),
        Command::Expand(args) => expand::run(ctx, &args),
        Command::Commands(commands::CommandsCommand::List(args)) => commands::run_list(ctx, &args),
        Command::Rules(rules::RulesCommand::List(args)) => rules::run_list(ctx, &args),
        Command::Assemble(args) => assemble::run(ctx, &args),
        Command::Explain(args) => explain::run(ctx, &args),
        Command::Compare(args) => compare::run(ctx, &args),
        Command::Snapshot(args) => snapshot::run(ctx, &args),
        Command::Check(args) => check::run(ctx, &args),
        Command::Lint(args) => lint::run(ctx, &args),
        Command::Completions(_) | Command::Man | Command::Mcp(_) | Command::Lsp => {
            Ok(Status::Success)
        }
    }
}
