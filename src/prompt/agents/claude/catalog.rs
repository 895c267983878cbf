//! Claude Code's commands and skills on disk (SPEC §14.5): the search
//! directories of one run, read through the confined workspace reader and
//! the `$CLAUDE_CONFIG_DIR` reader, and every question the CLI asks of
//! them. Every answer resolves through the domain's one precedence engine
//! ([`crate::prompt::command::claude_catalog`]), so the listing, expansion,
//! completion, explanation, manifest and skills listing agree on the
//! winner.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::prompt::command::claude_catalog::{
    Attachment, ClaudeEntry, ClaudeExpansion, ClaudeFile, ClaudeFiles, ClaudeListing,
    ClaudeResolution, ExpandEnv, Placeholder, SkillsListing, cannot_invoke_claude, claude_dirs_on,
    expand_claude, list_claude, parse_claude_invocation, resolve_claude, skills_listing,
};
use crate::prompt::command::claude_listing::Kind;
use crate::prompt::compare::{Offered, OfferedKind};
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    EntryText, NameDetails, ResolvedName, extras, places, unknown_command,
};
use crate::prompt::profile::seam::ProfileError;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, ProfileTurn0};
use crate::prompt::text::{aligned_columns, cell, one_line};
use crate::prompt::tiers::{Fate, Losers, ReadPolicy, SearchDir};
use crate::prompt::turn0::ReadFault;
use crate::prompt::walk::{Scope, WalkDir};
use crate::workspace::Workspace;

/// The Claude Code command and skill directories of one run.
#[derive(Clone)]
pub struct ClaudeCatalog {
    dirs: Vec<SearchDir<'static>>,
    env: ExpandEnv<'static>,
    budget: usize,
}

impl std::fmt::Debug for ClaudeCatalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClaudeCatalog")
            .field("dirs", &self.dirs)
            .field("at", &self.env.at)
            .finish()
    }
}

impl ClaudeCatalog {
    /// The directories of a run started in `at` (workspace-relative, the
    /// walk to it `walked`) in the workspace read by `project` (withheld
    /// unless `trusted`), with the user's `config_dir`
    /// (`$CLAUDE_CONFIG_DIR`) when there is one; its skills listing fills
    /// at most `budget` characters.
    pub fn new(
        project: Arc<dyn Workspace>,
        (at, walked): (&str, &[WalkDir<'_>]),
        trusted: bool,
        config_dir: Option<Arc<dyn Workspace>>,
        budget: usize,
    ) -> Self {
        Self {
            dirs: claude_dirs_on(project.clone(), walked, !trusted, config_dir),
            env: ExpandEnv {
                project,
                at: at.to_string(),
                trusted,
            },
            budget,
        }
    }

    /// Every entry (`commands list`): the heads of the files that win or
    /// are withheld are read, the shadowed ones only looked at.
    pub fn list(&self) -> ClaudeListing {
        list_claude(
            &self.dirs,
            ReadPolicy {
                contender: true,
                losers: Losers::Look,
                withheld: true,
            },
            &ClaudeFiles::HEAD,
        )
    }

    /// The names shell completion offers, with their `argument-hint`: the
    /// winners the user may type (not withheld, not `user-invocable:
    /// false`, names of the grammar), sorted. Reads only the winners'
    /// heads and keeps only their frontmatter blocks, parsed only when they
    /// name one of the keys shown.
    pub fn completion_names(&self) -> Vec<(String, Option<String>)> {
        let listing = list_claude(
            &self.dirs,
            ReadPolicy {
                contender: true,
                losers: Losers::Skip,
                withheld: false,
            },
            &ClaudeFiles::KEYS,
        );
        // Each entry is consumed as it is answered, so the memory of one
        // file's parsed frontmatter is reused by the next.
        listing
            .entries
            .into_iter()
            .filter(|entry| entry.fate == Fate::Winner && entry.user_invocable())
            .map(|entry| {
                let hint = entry.file.and_then(|f| f.argument_hint());
                (entry.name, hint)
            })
            .collect()
    }

    /// Expands `input` (SPEC §14.5, §2.2).
    pub fn expand(&self, input: &str) -> Result<ClaudeExpansion, ReadFault> {
        expand_claude(&self.dirs, input, &self.env)
    }

    /// Why `name` resolves as it does: every directory's place for it.
    pub fn explain(&self, name: &str) -> ClaudeResolution {
        resolve_claude(&self.dirs, name)
    }

    /// The skills listing fitted to `budget` columns, and the entries it
    /// was made from (only the winners' heads read), whose diagnostics end
    /// with what is said about the listing.
    pub fn skills_listing(&self, budget: usize) -> (SkillsListing, ClaudeListing) {
        let mut listing = list_claude(
            &self.dirs,
            ReadPolicy {
                contender: true,
                losers: Losers::Skip,
                withheld: false,
            },
            &ClaudeFiles::HEAD,
        );
        let skills = skills_listing(&self.dirs, &listing, budget);
        listing.diagnostics.extend(skills.diagnostics());
        (skills, listing)
    }

    /// The invocable entries with their whole text, sorted by name (for
    /// `snapshot`), the diagnostics met, and whether anything was withheld.
    /// The diagnostics are the listing's, as `commands list` reports them.
    pub fn texts(&self) -> Result<CatalogTexts, ReadFault> {
        let listing = self.list();
        if let Some(fault) = listing.faults.into_iter().next() {
            return Err(fault);
        }
        let withheld = listing.entries.iter().any(|e| e.fate == Fate::Withheld);
        let mut texts = Vec::new();
        for entry in listing.entries.iter().filter(|e| e.fate == Fate::Winner) {
            let mut found = resolve_claude(&self.dirs, &entry.name).found.resolution;
            if let Some(fault) = found.faults.drain(..).next() {
                return Err(fault);
            }
            let winner = found
                .candidates
                .into_iter()
                .find(|c| c.fate == Fate::Winner);
            if let Some(file) = winner.as_ref().and_then(|c| c.item.as_ref()) {
                texts.push(EntryText {
                    name: entry.name.clone(),
                    source: entry.source.clone(),
                    text: file.text.clone(),
                });
            }
        }
        Ok(CatalogTexts {
            texts,
            diagnostics: listing.diagnostics,
            withheld,
        })
    }
}

impl Catalog for ClaudeCatalog {
    /// Every file is a row: the winner of each name, the files it shadows
    /// (only looked at: no description, hint or frontmatter), and
    /// withheld files.
    fn list(&self) -> Result<CatalogListing, ProfileError> {
        let listing = ClaudeCatalog::list(self);
        Ok(CatalogListing {
            withheld: listing.entries.iter().any(|e| e.fate == Fate::Withheld),
            rows: listing.entries.iter().map(row).collect(),
            diagnostics: listing.diagnostics,
        })
    }

    /// `NAME KIND SCOPE ARGUMENTS DESCRIPTION`, the notes in parentheses
    /// after the description (`shadowed by …`, `withheld: untrusted`,
    /// `hidden from the model`, `not user-invocable`).
    fn table(&self, rows: &[CatalogRow]) -> String {
        let mut lines =
            vec![["NAME", "KIND", "SCOPE", "ARGUMENTS", "DESCRIPTION"].map(String::from)];
        for row in rows {
            let shadowed = row.fate == Fate::Shadowed { by: String::new() }.as_str();
            let mut notes = Vec::new();
            if shadowed {
                let by = row.shadowed_by.as_deref().unwrap_or_default();
                notes.push(format!("shadowed by {}", one_line(by)));
            } else if row.withheld() {
                notes.push("withheld: untrusted".to_string());
            }
            if row.hidden_from_model {
                notes.push("hidden from the model".to_string());
            }
            if !row.user_invocable && !shadowed {
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
                format!("/{}", one_line(&row.name)),
                row.kind.to_string(),
                row.scope.as_str().to_string(),
                row.argument_hint.as_deref().map(cell).unwrap_or_default(),
                description,
            ]);
        }
        aligned_columns(&lines)
    }

    fn completion_names(&self) -> Vec<(String, Option<String>)> {
        ClaudeCatalog::completion_names(self)
            .into_iter()
            .map(|(name, hint)| (format!("/{name}"), hint))
            .collect()
    }

    /// The skills listing message, fitted to the run's budget; withheld
    /// entries are not loaded.
    fn add_listing(&self, turn0: &mut ProfileTurn0) -> Result<Vec<Offered>, ProfileError> {
        let (listing, entries) = self.skills_listing(self.budget);
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
                scope: entry.tier.scope(),
                kind: match entry.kind {
                    Kind::Command => OfferedKind::Command,
                    Kind::Skill => OfferedKind::Skill,
                },
                nested: entry.kind == Kind::Command && entry.name.contains(':'),
                withheld: entry.fate == Fate::Withheld,
            })
            .collect())
    }

    /// Adds the kind, every frontmatter key, the shell commands never run
    /// and the attachments never read.
    fn expand(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        let outcome = ClaudeCatalog::expand(self, input)?;
        let fields = ExpandFields {
            kind: outcome.kind.map(Kind::as_str),
            frontmatter: &outcome.frontmatter,
            shell: &outcome.shell,
            attachments: &outcome.attachments,
        };
        Ok(CatalogExpansion {
            expansion: outcome.expansion,
            diagnostics: outcome.diagnostics,
            not_expanded: outcome.not_expanded,
            withheld: false,
            extras: extras(fields),
        })
    }

    fn cannot_invoke(&self, name: &str) -> String {
        cannot_invoke_claude(name)
    }

    fn unknown(&self, input: &str) -> String {
        unknown_command(parse_claude_invocation(input).map(|i| i.name))
    }

    /// Every directory's place for the name (for a skill's `name:`, for the
    /// skill's own name), the winner's description and frontmatter.
    fn explain(&self, name: &str) -> Result<CatalogExplanation, ProfileError> {
        let resolved = ClaudeCatalog::explain(self, name);
        let found = resolved.found;
        let file = found.winner().and_then(|c| c.item.as_ref());
        Ok(CatalogExplanation::Resolved(Box::new(ResolvedName {
            places: places(&self.dirs, &found),
            winner: found.winner().map(|c| c.source.clone()),
            description: file.map(ClaudeFile::description),
            frontmatter_keys: file.map_or_else(Vec::new, |f| f.keys().keys().cloned().collect()),
            details: Some(NameDetails {
                kind: file.map(|f| f.kind.as_str()),
                argument_hint: file.and_then(ClaudeFile::argument_hint),
                frontmatter: file.map(ClaudeFile::keys),
                alias_of: resolved.alias.as_ref().map(|alias| alias.skill.clone()),
            }),
            alias: resolved.alias.map(|alias| (alias.skill, alias.source)),
            diagnostics: found.resolution.diagnostics,
        })))
    }

    fn texts(&self) -> Result<CatalogTexts, ProfileError> {
        Ok(ClaudeCatalog::texts(self)?)
    }
}

/// One entry as a `commands list` row.
fn row(entry: &ClaudeEntry) -> CatalogRow {
    let file = entry.file.as_ref();
    CatalogRow {
        name: entry.name.clone(),
        kind: entry.kind.as_str(),
        scope: entry.tier.into(),
        source: entry.source.clone(),
        description: file.map(ClaudeFile::description),
        argument_hint: file.and_then(ClaudeFile::argument_hint),
        fate: entry.fate.as_str(),
        shadowed_by: match &entry.fate {
            Fate::Shadowed { by } => Some(by.clone()),
            _ => None,
        },
        hidden_from_model: entry.hidden_from_model(),
        user_invocable: entry.user_invocable(),
        frontmatter: file.map(ClaudeFile::keys),
        renamed_from: None,
    }
}

/// What an expansion under Claude Code adds to `expand`'s JSON (SPEC
/// §14.5): the kind, every frontmatter key, the shell commands never run,
/// the attachments never read.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ExpandFields<'a> {
    #[cfg_attr(test, schemars(extend("enum" = ["command", "skill", null])))]
    kind: Option<&'static str>,
    frontmatter: &'a Map<String, Value>,
    shell: &'a [Placeholder],
    attachments: &'a [Attachment],
}
