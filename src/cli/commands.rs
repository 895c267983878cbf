//! `commands list`: list discovered slash commands (SPEC §2.3), or under a
//! profile the agent's own: Claude Code's commands and skills (SPEC §14.5)
//! with their kind, scope, `argument-hint`, description and fate, or
//! Codex's skills as `$NAME` (SPEC §14.6). The rows and the text table
//! are the profile's catalog's ([`crate::prompt::profile::catalog`]); one
//! row type serves every profile.
//!
//! Choices the spec leaves open:
//! - Under `claude`, every usable file is a row: the winner of each name,
//!   then the files it shadows, and withheld files; text is a table
//!   (`NAME KIND SCOPE ARGUMENTS DESCRIPTION`) whose description ends with
//!   the fate in parentheses (`shadowed by …`, `withheld: untrusted`,
//!   `hidden from the model`, `not user-invocable`), and descriptions are
//!   cut to one line of 80 characters there (JSON has them whole).
//! - Under `codex`, names are listed as Codex lists them, equal names
//!   included; the text says when a name is ambiguous.

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::adapters::trust::Trust;
use crate::cli::args::CommandDirsArgs;
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::run_profile::with_catalog;
use crate::diagnostic::Diagnostic;
use crate::prompt::profile::catalog::CatalogRow;

/// Subcommands of `commands`.
#[derive(Debug, Clone, Subcommand)]
pub enum CommandsCommand {
    /// List discovered slash commands with their descriptions
    ///
    /// Under --agent claude: Claude Code's commands and skills (the start directory's and its
    /// ancestors' .claude/commands and .claude/skills, then $CLAUDE_CONFIG_DIR's), one row per
    /// file with its kind, scope, argument-hint, description and fate; Claude Code's own bundled
    /// skills are not listed. Under --agent codex: the skills Codex lists, as $NAME.
    List(CommandsListArgs),
}

/// Arguments of `commands list`.
#[derive(Debug, Clone, Args)]
pub struct CommandsListArgs {
    /// The command directories to search.
    #[command(flatten)]
    pub dirs: CommandDirsArgs,
}

/// The JSON document of `commands list`, whatever the profile's rows.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ListDocument<'a> {
    #[serde(flatten)]
    head: DocHead<'a>,
    commands: &'a [CatalogRow],
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// Runs `commands list` (SPEC §2.3; under a profile §14.5, §14.6).
pub fn run_list(ctx: &Context, args: &CommandsListArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("commands list")?;
    with_catalog(ctx, &args.dirs.commands_dirs, |catalog| {
        let listing = catalog.list()?;
        let diagnostics = with_context_diagnostics(ctx, listing.diagnostics, listing.withheld);
        print_list(ctx, &listing.rows, &diagnostics, || {
            catalog.table(&listing.rows)
        })
    })
}

/// Prints the diagnostics, then the rows: the JSON document, or `text`
/// unless there is no row.
fn print_list(
    ctx: &Context,
    rows: &[CatalogRow],
    diagnostics: &[Diagnostic],
    text: impl FnOnce() -> String,
) -> Result<Status, CliError> {
    output::print_diagnostics(ctx, diagnostics);
    match ctx.format {
        Format::Json => output::print_json(&ListDocument {
            head: DocHead::of(ctx),
            commands: rows,
            diagnostics,
            trust: ctx.trust,
        })?,
        _ if rows.is_empty() => {}
        _ => output::print_text(&text())?,
    }
    Ok(Status::Success)
}
