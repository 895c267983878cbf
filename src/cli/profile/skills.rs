//! The skills listing of the profiles (SPEC §14.5, §14.6): one turn-0
//! message (provenance `skills`) after the instructions, one part per
//! entry, as the agent lists its commands and skills to the model.
//!
//! - Claude Code: the model-invocable custom commands and skills, grouped,
//!   sorted and fitted to the budget by
//!   [`crate::prompt::command::claude_catalog::skills_listing`]; the
//!   budget is `SLASH_COMMAND_TOOL_CHAR_BUDGET` when set, else 1% × 4
//!   characters of `--context-window` (default 200,000 tokens → 8,000).
//!   Claude Code's own entries are not listed; they count against the
//!   budget as Claude Code 2.1.328 sent them.
//! - Codex: every skill, `- NAME: DESCRIPTION (file: PATH)`, in Codex's
//!   order; its budget rule is not reproduced, so the listing is sent whole
//!   and a warning says when it passes
//!   [`limits::CODEX_SKILLS_LISTING_WARN_BYTES`].
//!
//! Choices the spec leaves open:
//! - A part's path is the entry's file, its content the entry's line as
//!   sent; the message's text is the lines joined with line breaks (the
//!   agents' own wording around the listing is not ours to reproduce).
//! - Entries withheld because the workspace is not trusted are listed in
//!   `not_loaded`, as withheld instruction files are.

use crate::cli::error::CliError;
use crate::cli::profile::ProfileArgs;
use crate::cli::readers::Readers;
use crate::cli::sources::{Catalog, catalog_for};
use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::command::claude_listing::{self, Kind};
use crate::prompt::command::list_in;
use crate::prompt::compare::{Offered, OfferedKind};
use crate::prompt::profile::{
    Agent, NotLoaded, NotLoadedReason, Part, PartKind, ProfileMessage, ProfileTurn0,
};
use crate::prompt::tiers::{Fate, Tier};
use crate::prompt::turn0::Provenance;
use crate::prompt::walk::Scope;

/// Adds `agent`'s skills listing message to `turn0` (after its
/// instructions), with what was said about it, read through `readers`;
/// returns every command and skill the agent's catalog offers or withholds
/// (for `compare`). The engine has no listing message: its command
/// directories are only listed, no file read, and only a listing that
/// fails is diagnosed.
pub fn add_listing(
    readers: &Readers<'_>,
    agent: Agent,
    args: &ProfileArgs,
    turn0: &mut ProfileTurn0,
) -> Result<Vec<Offered>, CliError> {
    let ctx = readers.context();
    match catalog_for(readers, agent, &[])? {
        Catalog::Engine(catalog) => {
            let listing = list_in(catalog.dirs(), false);
            // What `commands list` warns about (shadowing, names, Claude
            // Code's nested directories) is said by the rows and
            // divergences of whoever asks for the catalog; a directory
            // that cannot be listed is still said.
            turn0.diagnostics.extend(
                listing
                    .diagnostics
                    .into_iter()
                    .filter(|d| d.severity == Severity::Fatal),
            );
            Ok(listing
                .commands
                .into_iter()
                .map(|command| Offered {
                    path: command.source,
                    scope: scope_of(catalog.dirs()[command.dir_index].tier),
                    kind: OfferedKind::Command,
                    nested: false,
                    withheld: command.withheld,
                })
                .collect())
        }
        Catalog::Claude(catalog) => {
            let window = args
                .context_window
                .unwrap_or(limits::DEFAULT_CONTEXT_WINDOW_TOKENS);
            let budget = claude_listing::budget(window, ctx.env.slash_command_budget.as_deref());
            let (listing, entries) = catalog.skills_listing(budget);
            turn0.diagnostics.extend(entries.diagnostics);
            turn0.not_loaded.extend(
                entries
                    .entries
                    .iter()
                    .filter(|entry| entry.fate == Fate::Withheld)
                    .map(|entry| NotLoaded {
                        path: entry.source.clone(),
                        scope: Scope::Project,
                        reason: NotLoadedReason::Withheld,
                    }),
            );
            turn0.messages.extend(listing.message());
            Ok(entries
                .entries
                .iter()
                .filter(|entry| matches!(entry.fate, Fate::Winner | Fate::Withheld))
                .map(|entry| Offered {
                    path: entry.source.clone(),
                    scope: scope_of(entry.tier),
                    kind: match entry.kind {
                        Kind::Command => OfferedKind::Command,
                        Kind::Skill => OfferedKind::Skill,
                    },
                    nested: entry.kind == Kind::Command && entry.name.contains(':'),
                    withheld: entry.fate == Fate::Withheld,
                })
                .collect())
        }
        Catalog::Codex(skills) => {
            let found = skills
                .listing()
                .map_err(|err| CliError::Usage(err.to_string()))?;
            turn0.diagnostics.extend(found.diagnostics);
            turn0
                .not_loaded
                .extend(found.withheld.iter().map(|root| NotLoaded {
                    path: root.clone(),
                    scope: Scope::Project,
                    reason: NotLoadedReason::Withheld,
                }));
            let (parts, mut offered): (Vec<Part>, Vec<Offered>) = found
                .listing
                .skills
                .iter()
                .map(|skill| {
                    let part = Part {
                        path: skill.path.clone(),
                        scope: skill.scope,
                        kind: PartKind::Skills,
                        imported_by: None,
                        content: skill.entry(),
                        cut: None,
                    };
                    let offered = Offered {
                        path: skill.path.clone(),
                        scope: skill.scope,
                        kind: OfferedKind::Skill,
                        nested: false,
                        withheld: false,
                    };
                    (part, offered)
                })
                .unzip();
            offered.extend(found.withheld.iter().map(|root| Offered {
                path: root.clone(),
                scope: Scope::Project,
                kind: OfferedKind::Unread,
                nested: false,
                withheld: true,
            }));
            if parts.is_empty() {
                return Ok(offered);
            }
            let text = parts
                .iter()
                .map(|part| part.content.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            if text.len() > limits::CODEX_SKILLS_LISTING_WARN_BYTES {
                turn0.diagnostics.push(Diagnostic::new(
                    Severity::Warning,
                    None,
                    format!(
                        "the skills listing is {} bytes ({} skills): Codex shortens a large \
                         listing by a rule the preview does not reproduce, so what it sends may \
                         be shorter than shown",
                        text.len(),
                        parts.len()
                    ),
                ));
            }
            turn0
                .messages
                .push(ProfileMessage::with_text(Provenance::Skills, parts, text));
            Ok(offered)
        }
    }
}

/// The scope of a catalog directory's tier: the workspace's, else the
/// user's (the operator's directories are the operator's own).
fn scope_of(tier: Tier) -> Scope {
    match tier {
        Tier::Project => Scope::Project,
        Tier::User | Tier::Operator => Scope::User,
    }
}
