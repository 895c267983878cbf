//! opencode's commands and skills of one run (SPEC §18.3, §18.4), as the
//! one interface the CLI asks: `commands list`, completion, `expand`,
//! `explain /name`, `snapshot`'s texts, and the skills listing message.
//!
//! Choices the spec leaves open:
//! - `commands list` shows the commands by name, the winner of a name
//!   first and its losers `shadowed` after it, then the skills (kind
//!   `skill`: opencode has no `/skill` form, so they are not user-invocable
//!   and not completed; one without a description is hidden from the
//!   model).
//! - The skills listing is a `system` message after the instructions (the
//!   end of opencode's system prompt).
//! - `expand` of a skill's name expands nothing, with a line saying that
//!   opencode has no `/skill` form.

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::opencode::commands::{Commands, OpencodeCommand};
use crate::prompt::agents::opencode::expand;
use crate::prompt::agents::opencode::skills::{Skills, listing_text};
use crate::prompt::command::claude_catalog::{Attachment, ExpandEnv, Placeholder, attachment};
use crate::prompt::command::{Expansion, NameGrammar, cannot_invoke};
use crate::prompt::compare::{Offered, OfferedKind};
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    EntryText, NamePlace, ResolvedName, extras, name_kind_scope_table, unknown_command,
    withhold_dirs,
};
use crate::prompt::profile::seam::ProfileError;
use crate::prompt::profile::{Part, PartKind, ProfileMessage, ProfileTurn0};
use crate::prompt::text::{cell, is_js_space, one_line};
use crate::prompt::tiers::{Fate, Tier};
use crate::prompt::turn0::{Provenance, Role};
use crate::prompt::walk::Scope;

/// opencode's commands and skills over one run.
#[derive(Default)]
pub struct OpencodeCatalog {
    /// The commands.
    pub commands: Commands,
    /// The skills.
    pub skills: Skills,
    /// Where `@path` attachments are looked at (`None`: not looked at).
    pub env: Option<ExpandEnv<'static>>,
}

/// A command's row.
fn command_row(c: &OpencodeCommand) -> CatalogRow {
    let mut row = CatalogRow::plain(
        c.name.clone(),
        "command",
        c.scope.into(),
        c.source.clone(),
        c.description.clone().unwrap_or_default(),
        false,
    );
    row.description.clone_from(&c.description);
    row.frontmatter.clone_from(&c.frontmatter);
    if let Some(by) = &c.shadowed_by {
        row.fate = "shadowed";
        row.shadowed_by = Some(by.clone());
        row.user_invocable = false;
        row.hidden_from_model = true;
    }
    row
}

impl OpencodeCatalog {
    fn withheld(&self) -> bool {
        !self.commands.withheld.is_empty() || !self.skills.withheld.is_empty()
    }

    /// The input's name and raw arguments (see [`expand`]'s docs).
    fn invocation(input: &str) -> Option<(&str, &str)> {
        let (name, rest) = NameGrammar::Nested.split(input)?;
        if !rest.is_empty() && !rest.starts_with(is_js_space) {
            return None;
        }
        let raw = rest
            .trim_start_matches(is_js_space)
            .trim_end_matches(['\r', '\n']);
        Some((name, raw))
    }
}

impl Catalog for OpencodeCatalog {
    fn list(&self) -> Result<CatalogListing, ProfileError> {
        let mut rows: Vec<CatalogRow> = self.commands.commands.iter().map(command_row).collect();
        for skill in &self.skills.skills {
            let mut row = CatalogRow::plain(
                skill.name.clone(),
                "skill",
                skill.scope.into(),
                skill.source.clone(),
                skill.description.clone().unwrap_or_default(),
                false,
            );
            row.description.clone_from(&skill.description);
            row.user_invocable = false;
            row.hidden_from_model = skill.description.is_none();
            if let Some(by) = &skill.shadowed_by {
                row.fate = "shadowed";
                row.shadowed_by = Some(by.clone());
                row.hidden_from_model = true;
            }
            rows.push(row);
        }
        let mut diagnostics = self.commands.diagnostics.clone();
        diagnostics.extend(self.skills.diagnostics.iter().cloned());
        Ok(CatalogListing {
            rows,
            diagnostics,
            withheld: self.withheld(),
        })
    }

    /// `NAME KIND SCOPE DESCRIPTION`, commands as `/NAME`, a loser saying
    /// what it lost to.
    fn table(&self, rows: &[CatalogRow]) -> String {
        name_kind_scope_table(rows, |row| match &row.shadowed_by {
            Some(by) => format!("(shadowed by {})", one_line(by)),
            None => cell(row.description.as_deref().unwrap_or_default()),
        })
    }

    fn completion_names(&self) -> Vec<(String, Option<String>)> {
        self.commands
            .winners()
            .map(|c| (format!("/{}", c.name), c.description.clone()))
            .collect()
    }

    /// The skills listing, last; the commands and skills for `compare`.
    fn add_listing(&self, turn0: &mut ProfileTurn0) -> Result<Vec<Offered>, ProfileError> {
        let mut offered: Vec<Offered> = self
            .commands
            .winners()
            .filter(|c| c.source.ends_with(".md"))
            .map(|c| Offered {
                path: c.source.clone(),
                scope: c.scope,
                kind: OfferedKind::Command,
                nested: c.name.contains('/'),
                withheld: false,
            })
            .collect();
        offered.extend(self.skills.listed().map(|s| Offered {
            path: s.source.clone(),
            scope: s.scope,
            kind: OfferedKind::Skill,
            nested: false,
            withheld: false,
        }));
        let withheld = self.commands.withheld.iter().chain(&self.skills.withheld);
        withhold_dirs(withheld, &mut offered, turn0);
        turn0
            .diagnostics
            .extend(self.skills.diagnostics.iter().cloned());
        let parts: Vec<Part> = self
            .skills
            .listed()
            .map(|skill| {
                Part::listing_entry(&skill.source, skill.scope, PartKind::Skills, skill.entry())
            })
            .collect();
        if parts.is_empty() {
            return Ok(offered);
        }
        let text = listing_text(parts.iter().map(|p| p.content.as_str()));
        let mut message = ProfileMessage::with_text(Provenance::Skills, parts, text);
        message.role = Role::System;
        turn0.messages.push(message);
        Ok(offered)
    }

    fn expand(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        let mut diagnostics = self.commands.diagnostics.clone();
        let unchanged = |diagnostics| CatalogExpansion {
            expansion: Expansion::unchanged(input),
            diagnostics,
            not_expanded: None,
            withheld: self.withheld(),
            extras: serde_json::Map::new(),
        };
        let Some((name, raw)) = Self::invocation(input) else {
            return Ok(unchanged(diagnostics));
        };
        let Some(command) = self.commands.find(name) else {
            if self.skills.skills.iter().any(|s| s.name == name) {
                diagnostics.push(Diagnostic::new(
                    Severity::Info,
                    None,
                    format!(
                        "{name} is a skill: opencode lists it to the model and has no /{name} \
                         form to expand"
                    ),
                ));
            }
            return Ok(unchanged(diagnostics));
        };
        let expanded = expand::expand(&command.template, raw);
        for shell in &expanded.shell {
            diagnostics.push(Diagnostic::warning(
                &command.source,
                format!(
                    "opencode runs `{}` and sends its output here; the preview does not run it",
                    shell.command
                ),
            ));
        }
        let attachments: Vec<Attachment> = match &self.env {
            Some(env) => expanded
                .attachments
                .iter()
                .map(|mention| attachment(env, mention))
                .collect(),
            None => Vec::new(),
        };
        if !attachments.is_empty() {
            let listed: Vec<String> = attachments
                .iter()
                .map(|a| format!("{} ({})", a.path, a.status.phrase()))
                .collect();
            diagnostics.push(Diagnostic::info(
                &command.source,
                format!(
                    "opencode attaches the files this text mentions (their read output as extra \
                     parts): {}",
                    listed.join(", ")
                ),
            ));
        }
        let fields = ExpandFields {
            kind: Some("command"),
            shell: &expanded.shell,
            attachments: &attachments,
        };
        Ok(CatalogExpansion {
            expansion: Expansion {
                expanded: true,
                name: Some(command.name.clone()),
                args: expand::split_args(raw),
                source: Some(command.source.clone()),
                output: expanded.text,
            },
            diagnostics,
            not_expanded: None,
            withheld: false,
            extras: extras(fields),
        })
    }

    fn cannot_invoke(&self, name: &str) -> String {
        cannot_invoke(name)
    }

    fn unknown(&self, input: &str) -> String {
        unknown_command(Self::invocation(input).map(|(name, _)| name))
    }

    /// Every source of the name, the winner first, then the ones it
    /// shadows (later sources first); a skill of the name is an info line.
    fn explain(&self, name: &str) -> Result<CatalogExplanation, ProfileError> {
        let name = name.strip_prefix('/').unwrap_or(name);
        let mut places = Vec::new();
        let mut winner = None;
        let mut description = None;
        let mut frontmatter_keys = Vec::new();
        for c in self.commands.commands.iter().filter(|c| c.name == name) {
            let fate = match &c.shadowed_by {
                Some(by) => Fate::Shadowed { by: by.clone() },
                None => {
                    winner = Some(c.source.clone());
                    description.clone_from(&c.description);
                    frontmatter_keys = c
                        .frontmatter
                        .iter()
                        .flat_map(|keys| keys.keys().cloned())
                        .collect();
                    Fate::Winner
                }
            };
            places.push(NamePlace {
                source: c.source.clone(),
                tier: if c.scope == Scope::User {
                    Tier::User
                } else {
                    Tier::Project
                },
                withheld: false,
                fate,
            });
        }
        let diagnostics = self
            .skills
            .skills
            .iter()
            .filter(|s| s.name == name)
            .map(|s| {
                Diagnostic::info(
                    &s.source,
                    format!(
                        "a skill named {name}: opencode lists it to the model, which loads it; \
                         it is no slash command"
                    ),
                )
            })
            .collect();
        Ok(CatalogExplanation::Resolved(Box::new(ResolvedName {
            places,
            winner,
            description,
            frontmatter_keys,
            details: None,
            alias: None,
            diagnostics,
        })))
    }

    fn texts(&self) -> Result<CatalogTexts, ProfileError> {
        Ok(CatalogTexts {
            texts: self
                .commands
                .winners()
                .map(|c| EntryText {
                    name: c.name.clone(),
                    source: c.source.clone(),
                    text: c.text.clone(),
                })
                .collect(),
            diagnostics: self.commands.diagnostics.clone(),
            withheld: self.withheld(),
        })
    }
}

/// What an expansion under opencode adds to `expand`'s JSON (SPEC
/// §18.3): the kind, the shell commands never run, and the files the `@`s
/// attach (the command's `agent` and `model` are in `commands list`).
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ExpandFields<'a> {
    #[cfg_attr(test, schemars(extend("enum" = ["command", "skill", null])))]
    kind: Option<&'static str>,
    shell: &'a [Placeholder],
    attachments: &'a [Attachment],
}
