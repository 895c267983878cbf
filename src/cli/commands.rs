//! `commands list`: list discovered slash commands (SPEC §2.3), or under a
//! profile the agent's own: Claude Code's commands and skills (SPEC §14.5)
//! with their kind, scope, `argument-hint`, description and fate, or
//! Codex's skills as `$NAME` (SPEC §14.6).
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

use serde_json::{Map, Value};

use crate::adapters::claude_commands::ClaudeCatalog;
use crate::adapters::codex_skills::CodexSkills;
use crate::adapters::commandsfs::{CommandCatalog, ListedCommand};
use crate::adapters::trust::Trust;
use crate::cli::args::CommandDirsArgs;
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::sources::{Catalog, catalog};
use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::command::cap_chars;
use crate::prompt::command::claude_catalog::{ClaudeEntry, ClaudeFile};
use crate::prompt::divergence;
use crate::prompt::tiers::{Fate, Tier};
use crate::prompt::walk::Scope;

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
pub(crate) struct ListDocument<'a, R: Serialize> {
    #[serde(flatten)]
    head: DocHead<'a>,
    commands: &'a [R],
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

/// Runs `commands list` (SPEC §2.3; under a profile §14.5, §14.6).
pub fn run_list(ctx: &Context, args: &CommandsListArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("commands list")?;
    match catalog(ctx, &args.dirs.commands_dirs)? {
        Catalog::Engine(catalog) => list_engine(ctx, &catalog, args.dirs.commands_dirs.is_empty()),
        Catalog::Claude(catalog) => list_claude(ctx, &catalog),
        Catalog::Codex(skills) => list_codex(ctx, &skills),
    }
}

/// Lists the engine's commands; when they are the workspace's (no
/// `--commands-dir`), the skills Claude Code would offer beside them are
/// counted in a divergence warning (SPEC §15.2).
fn list_engine(
    ctx: &Context,
    catalog: &CommandCatalog,
    workspace_dirs: bool,
) -> Result<Status, CliError> {
    let mut listing = catalog.list();
    if workspace_dirs {
        listing
            .diagnostics
            .extend(divergence::root_skills_warning(ctx.reader.clone()));
    }
    let withheld = listing.commands.iter().any(|c| c.withheld);
    let diagnostics = with_context_diagnostics(ctx, listing.diagnostics, withheld);
    print_list(ctx, &listing.commands, &diagnostics, || {
        let lines: Vec<String> = listing.commands.iter().map(text_line).collect();
        lines.join("\n")
    })
}

/// Prints the diagnostics, then the rows: the JSON document, or `text`
/// unless there is no row.
fn print_list<R: Serialize>(
    ctx: &Context,
    rows: &[R],
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

/// One Claude Code command or skill as `commands list --agent claude`
/// shows it (SPEC §14.5). `description`, `argument_hint` and
/// `frontmatter` are `null` for a shadowed file, which is only looked at.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ClaudeRow<'a> {
    name: &'a str,
    #[cfg_attr(test, schemars(extend("enum" = ["command", "skill"])))]
    kind: &'static str,
    scope: Tier,
    source: &'a str,
    description: Option<String>,
    argument_hint: Option<String>,
    fate: &'static str,
    shadowed_by: Option<&'a str>,
    hidden_from_model: bool,
    user_invocable: bool,
    frontmatter: Option<Map<String, Value>>,
}

impl<'a> From<&'a ClaudeEntry> for ClaudeRow<'a> {
    fn from(entry: &'a ClaudeEntry) -> Self {
        let file = entry.file.as_ref();
        Self {
            name: &entry.name,
            kind: entry.kind.as_str(),
            scope: entry.tier,
            source: &entry.source,
            description: file.map(ClaudeFile::description),
            argument_hint: file.and_then(ClaudeFile::argument_hint),
            fate: entry.fate.as_str(),
            shadowed_by: match &entry.fate {
                Fate::Shadowed { by } => Some(by),
                _ => None,
            },
            hidden_from_model: entry.hidden_from_model(),
            user_invocable: entry.user_invocable(),
            frontmatter: file.map(ClaudeFile::keys),
        }
    }
}

/// A description on one line, capped like the engine's (SPEC §5.4), for
/// a table cell.
fn cell(text: &str) -> String {
    cap_chars(
        output::one_line(text).trim(),
        limits::MAX_COMMAND_DESCRIPTION_CHARS,
    )
}

/// The Claude table: `NAME KIND SCOPE ARGUMENTS DESCRIPTION`, the notes
/// in parentheses after the description.
fn claude_table(rows: &[ClaudeRow<'_>]) -> String {
    let mut lines = vec![["NAME", "KIND", "SCOPE", "ARGUMENTS", "DESCRIPTION"].map(String::from)];
    for row in rows {
        let mut notes = Vec::new();
        match row.fate {
            "shadowed" => notes.push(format!(
                "shadowed by {}",
                output::one_line(row.shadowed_by.unwrap_or_default())
            )),
            "withheld" => notes.push("withheld: untrusted".to_string()),
            _ => {}
        }
        if row.hidden_from_model {
            notes.push("hidden from the model".to_string());
        }
        if !row.user_invocable && row.fate != "shadowed" {
            notes.push("not user-invocable".to_string());
        }
        let mut description = row.description.as_deref().map(cell).unwrap_or_default();
        if !notes.is_empty() {
            if !description.is_empty() {
                description.push_str("  ");
            }
            description.push_str(&format!("({})", notes.join("; ")));
        }
        lines.push([
            format!("/{}", output::one_line(row.name)),
            row.kind.to_string(),
            row.scope.as_str().to_string(),
            row.argument_hint.as_deref().map(cell).unwrap_or_default(),
            description,
        ]);
    }
    output::aligned_columns(&lines)
}

fn list_claude(ctx: &Context, catalog: &ClaudeCatalog) -> Result<Status, CliError> {
    let listing = catalog.list();
    let withheld = listing.entries.iter().any(|e| e.fate == Fate::Withheld);
    let diagnostics = with_context_diagnostics(ctx, listing.diagnostics, withheld);
    let rows: Vec<ClaudeRow<'_>> = listing.entries.iter().map(ClaudeRow::from).collect();
    print_list(ctx, &rows, &diagnostics, || claude_table(&rows))
}

/// One Codex skill as `commands list --agent codex` shows it (SPEC §14.6).
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct CodexRow<'a> {
    name: &'a str,
    #[cfg_attr(test, schemars(extend("const" = "skill")))]
    kind: &'static str,
    scope: Scope,
    source: &'a str,
    description: &'a str,
}

fn list_codex(ctx: &Context, skills: &CodexSkills) -> Result<Status, CliError> {
    let found = skills
        .listing()
        .map_err(|err| CliError::Usage(err.to_string()))?;
    let diagnostics = with_context_diagnostics(ctx, found.diagnostics, !found.withheld.is_empty());
    let rows: Vec<CodexRow<'_>> = found
        .listing
        .skills
        .iter()
        .map(|skill| CodexRow {
            name: &skill.name,
            kind: "skill",
            scope: skill.scope,
            source: &skill.path,
            description: &skill.description,
        })
        .collect();
    print_list(ctx, &rows, &diagnostics, || codex_table(&rows))
}

/// The Codex table: `NAME SCOPE DESCRIPTION`, names as `$NAME`, a note on
/// names several skills share.
fn codex_table(rows: &[CodexRow<'_>]) -> String {
    let mut lines = vec![["NAME", "SCOPE", "DESCRIPTION"].map(String::from)];
    for row in rows {
        let same = rows.iter().filter(|r| r.name == row.name).count();
        let mut description = cell(row.description);
        if same > 1 {
            description.push_str(&format!(
                "  (one of {same} skills named so: Codex adds none of them for ${})",
                output::one_line(row.name)
            ));
        }
        lines.push([
            format!("${}", output::one_line(row.name)),
            row.scope.as_str().to_string(),
            description,
        ]);
    }
    output::aligned_columns(&lines)
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
