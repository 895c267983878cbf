//! GitHub Copilot CLI's catalog (SPEC §17.7): the skills and commands
//! [`super::skills`] finds, as `commands list` rows, the listing Copilot
//! sends to the model, `explain /name` and `snapshot`'s texts.
//!
//! Choices the spec leaves open:
//! - The listing is a `system` message (provenance `skills`), one part per
//!   listed entry whose content is its `<skill>` block; its text is those
//!   blocks joined by `\n`. Copilot's own built-in skills sit between the
//!   user's skills and the commands in its `<available_skills>`; they are
//!   not reproduced, and an info line says so.
//! - `expand` shows the interactive session's message ([`expand`]) with an
//!   info line saying `copilot -p` sends the line as typed; a withheld or
//!   unknown name passes through unchanged.

use serde_json::Map;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::copilot::expand;
use crate::prompt::agents::copilot::instructions::Dirs;
use crate::prompt::agents::copilot::skills::{self, Entry, Found, Kind};
use crate::prompt::command::{Expansion, cannot_invoke, parse_invocation};
use crate::prompt::compare::{Offered, OfferedKind};
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    EntryText, ListedEntry, ListedName,
};
use crate::prompt::profile::seam::ProfileError;
use crate::prompt::profile::{Part, PartKind, ProfileMessage, ProfileTurn0};
use crate::prompt::text::{aligned_columns, cell, one_line};
use crate::prompt::tiers::Fate;
use crate::prompt::turn0::{Provenance, Role};
use crate::workspace::Workspace;

/// The line an expansion carries.
pub const INTERACTIVE: &str = "this is what GitHub Copilot CLI's interactive session sends; \
     `copilot -p` sends the line as typed";

/// The line a print-mode expansion of `/NAME` carries.
fn print_mode(name: &str) -> String {
    format!(
        "`copilot -p` sends the line as typed: /{name} is not expanded; its interactive \
         session would send the skill's context (expand without --print)"
    )
}

/// The line the listing carries.
pub const NO_BUILTINS: &str = "GitHub Copilot CLI also lists its own built-in skills between \
     the user's skills and the commands; they are not reproduced";

/// Copilot's catalog over one run.
#[derive(Debug, Default)]
pub struct CopilotCatalog {
    found: Found,
}

impl CopilotCatalog {
    /// The catalog of `dirs` and the user's homes.
    pub fn new(
        dirs: &Dirs<'_>,
        copilot_home: Option<&dyn Workspace>,
        agents_home: Option<&dyn Workspace>,
        trusted: bool,
    ) -> Self {
        Self {
            found: skills::find(dirs, copilot_home, agents_home, trusted),
        }
    }

    /// The entries that provide their name, not withheld.
    fn winners(&self) -> impl Iterator<Item = &Entry> {
        self.found
            .entries
            .iter()
            .filter(|entry| entry.shadowed_by.is_none() && !entry.withheld)
    }

    fn withheld(&self) -> bool {
        self.found.entries.iter().any(|entry| entry.withheld)
    }
}

/// `input` passed through unchanged.
fn passed_through(input: &str) -> CatalogExpansion {
    CatalogExpansion {
        expansion: Expansion::unchanged(input),
        diagnostics: Vec::new(),
        not_expanded: None,
        withheld: false,
        extras: Map::new(),
    }
}

/// `command` or `skill`.
fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Skill => "skill",
        Kind::Command => "command",
    }
}

impl Catalog for CopilotCatalog {
    fn list(&self) -> Result<CatalogListing, ProfileError> {
        let rows = self
            .found
            .entries
            .iter()
            .map(|entry| {
                let fate = match (&entry.shadowed_by, entry.withheld) {
                    (Some(_), _) => "shadowed",
                    (None, true) => Fate::Withheld.as_str(),
                    (None, false) => Fate::Winner.as_str(),
                };
                CatalogRow {
                    name: entry.name.clone(),
                    kind: kind_word(entry.kind),
                    scope: entry.scope.into(),
                    source: entry.source.clone(),
                    description: (!entry.withheld).then(|| entry.description.clone()),
                    argument_hint: None,
                    fate,
                    shadowed_by: entry.shadowed_by.clone(),
                    hidden_from_model: !entry.listed,
                    user_invocable: true,
                    frontmatter: None,
                    renamed_from: None,
                }
            })
            .collect();
        Ok(CatalogListing {
            rows,
            diagnostics: self.found.diagnostics.clone(),
            withheld: self.withheld(),
        })
    }

    fn table(&self, rows: &[CatalogRow]) -> String {
        let mut lines = vec![["NAME", "KIND", "SCOPE", "FATE", "DESCRIPTION"].map(String::from)];
        for row in rows {
            lines.push([
                format!("/{}", one_line(&row.name)),
                row.kind.to_string(),
                row.scope.as_str().to_string(),
                if row.hidden_from_model {
                    format!("{} (not listed)", row.fate)
                } else {
                    row.fate.to_string()
                },
                cell(row.description.as_deref().unwrap_or_default()),
            ]);
        }
        aligned_columns(&lines)
    }

    fn completion_names(&self) -> Vec<(String, Option<String>)> {
        self.winners()
            .map(|entry| (format!("/{}", entry.name), Some(entry.description.clone())))
            .collect()
    }

    fn add_listing(&self, turn0: &mut ProfileTurn0) -> Result<Vec<Offered>, ProfileError> {
        let offered = self
            .found
            .entries
            .iter()
            .filter(|entry| entry.shadowed_by.is_none())
            .map(|entry| Offered {
                path: entry.source.clone(),
                scope: entry.scope,
                kind: match entry.kind {
                    Kind::Skill => OfferedKind::Skill,
                    Kind::Command => OfferedKind::Command,
                },
                nested: false,
                withheld: entry.withheld,
            })
            .collect();
        let parts: Vec<Part> = self
            .winners()
            .filter(|entry| entry.listed)
            .map(|entry| {
                Part::listing_entry(&entry.source, entry.scope, PartKind::Skills, entry.block())
            })
            .collect();
        turn0
            .diagnostics
            .push(Diagnostic::new(Severity::Info, None, NO_BUILTINS));
        if !parts.is_empty() {
            let text = parts
                .iter()
                .map(|part| part.content.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            let mut message = ProfileMessage::with_text(Provenance::Skills, parts, text);
            message.role = Role::System;
            turn0.messages.push(message);
        }
        Ok(offered)
    }

    fn expand(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        let Some(invocation) = parse_invocation(input) else {
            return Ok(passed_through(input));
        };
        let name = invocation.name;
        let found = self.found.entries.iter().find(|entry| entry.name == name);
        let entry = match found {
            Some(entry) if entry.shadowed_by.is_none() && !entry.withheld => entry,
            Some(entry) => {
                let withheld = entry.withheld;
                let mut out = passed_through(input);
                out.withheld = withheld;
                return Ok(out);
            }
            None => return Ok(passed_through(input)),
        };
        let typed = input.trim_start_matches([' ', '\t']);
        let args = typed[1 + name.len()..].trim_start();
        Ok(CatalogExpansion {
            expansion: Expansion {
                expanded: true,
                name: Some(name.clone()),
                args: invocation.args,
                source: Some(entry.source.clone()),
                output: expand::message(entry, args),
            },
            diagnostics: vec![Diagnostic::new(Severity::Info, None, INTERACTIVE)],
            not_expanded: None,
            withheld: false,
            extras: Map::new(),
        })
    }

    /// `copilot -p LINE` sends the line as typed: nothing expands, and an
    /// info says what the interactive session would send instead.
    fn expand_print(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        let interactive = self.expand(input)?;
        let mut out = passed_through(input);
        out.withheld = interactive.withheld;
        if let Some(name) = interactive.expansion.name {
            out.diagnostics
                .push(Diagnostic::new(Severity::Info, None, print_mode(&name)));
        }
        Ok(out)
    }

    fn cannot_invoke(&self, name: &str) -> String {
        cannot_invoke(name)
    }

    fn unknown(&self, input: &str) -> String {
        format!(
            "nothing expanded: no skill or command GitHub Copilot CLI offers is invoked by {input:?}"
        )
    }

    fn explain(&self, name: &str) -> Result<CatalogExplanation, ProfileError> {
        let entries = self
            .winners()
            .filter(|entry| entry.name == name)
            .map(|entry| ListedEntry {
                source: entry.source.clone(),
                scope: entry.scope,
                description: entry.description.clone(),
            })
            .collect();
        Ok(CatalogExplanation::Listed(ListedName {
            entries,
            diagnostics: self.found.diagnostics.clone(),
        }))
    }

    fn texts(&self) -> Result<CatalogTexts, ProfileError> {
        Ok(CatalogTexts {
            texts: self
                .winners()
                .map(|entry| EntryText {
                    name: entry.name.clone(),
                    source: entry.source.clone(),
                    text: entry.text.clone(),
                })
                .collect(),
            diagnostics: self.found.diagnostics.clone(),
            withheld: self.withheld(),
        })
    }
}
