//! `commands list`: list discovered slash commands (SPEC §2.3).

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::adapters::commandsfs::ListedCommand;
use crate::adapters::trust::Trust;
use crate::cli::args::CommandDirsArgs;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::sources::{command_catalog, with_context_diagnostics};
use crate::diagnostic::Diagnostic;

/// Subcommands of `commands`.
#[derive(Debug, Clone, Subcommand)]
pub enum CommandsCommand {
    /// List discovered slash commands with their descriptions
    List(CommandsListArgs),
}

/// Arguments of `commands list`.
#[derive(Debug, Clone, Args)]
pub struct CommandsListArgs {
    /// The command directories to search.
    #[command(flatten)]
    pub dirs: CommandDirsArgs,
}

#[derive(Serialize)]
struct ListDocument<'a> {
    #[serde(flatten)]
    head: DocHead<'a>,
    commands: &'a [ListedCommand],
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// One text line per command: `/name`, two spaces, the description, and
/// `(withheld: untrusted)` for withheld ones; no trailing space.
fn text_line(command: &ListedCommand) -> String {
    let mut line = format!("/{}", output::one_line(&command.name));
    for part in [
        command.description.as_str(),
        if command.withheld {
            "(withheld: untrusted)"
        } else {
            ""
        },
    ] {
        if !part.is_empty() {
            line.push_str("  ");
            line.push_str(part);
        }
    }
    line
}

/// Runs `commands list`.
pub fn run_list(ctx: &Context, args: &CommandsListArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("commands list")?;
    let listing = command_catalog(ctx, &args.dirs.commands_dirs)?.list();
    let withheld = listing.commands.iter().any(|c| c.withheld);
    let diagnostics = with_context_diagnostics(ctx, listing.diagnostics, withheld);
    output::print_diagnostics(ctx, &diagnostics);
    match ctx.format {
        Format::Json => output::print_json(&ListDocument {
            head: DocHead::of(ctx),
            commands: &listing.commands,
            diagnostics: &diagnostics,
            trust: ctx.trust,
        })?,
        _ if listing.commands.is_empty() => {}
        _ => {
            let lines: Vec<String> = listing.commands.iter().map(text_line).collect();
            output::print_text(&lines.join("\n"))?;
        }
    }
    Ok(Status::Success)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::tiers::Tier;

    fn listed(name: &str, description: &str, withheld: bool) -> ListedCommand {
        ListedCommand {
            name: name.into(),
            description: description.into(),
            source: String::new(),
            tier: Tier::Project,
            withheld,
        }
    }

    #[test]
    fn text_lines_have_no_trailing_space() {
        assert_eq!(text_line(&listed("fix", "Fix it", false)), "/fix  Fix it");
        assert_eq!(text_line(&listed("fix", "", false)), "/fix");
        assert_eq!(
            text_line(&listed("fix", "", true)),
            "/fix  (withheld: untrusted)"
        );
        assert_eq!(
            text_line(&listed("fix", "Fix it", true)),
            "/fix  Fix it  (withheld: untrusted)"
        );
    }
}
