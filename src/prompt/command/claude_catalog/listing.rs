//! The skills listing Claude Code shows the model (SPEC §14.5): which
//! entries, in which groups and order, fitted to the budget with
//! [`claude_listing::fit`].

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::command::claude_catalog::files::ClaudeFile;
use crate::prompt::command::claude_catalog::resolve::{ClaudeEntry, ClaudeListing};
use crate::prompt::command::claude_listing::{
    self, Kind, ListingEntry, Reserved, entry_description, entry_name, listing_order,
};
use crate::prompt::profile::{Part, PartKind, ProfileMessage, Scope};
use crate::prompt::tiers::{Layout, SearchDir, Tier};
use crate::prompt::turn0::Provenance;

/// Claude Code's own entries (Claude Code 2.1.328, observed in every
/// recorded case): the preview does not list them, but they share the
/// budget ([`limits::CLAUDE_BUNDLED_LISTING_ENTRIES`] entries,
/// [`limits::CLAUDE_BUNDLED_LISTING_WIDTH`] columns, of which
/// [`limits::CLAUDE_BUNDLED_LISTING_SHRINKABLE_WIDTH`] go when the listing
/// is over budget).
pub const CLAUDE_OWN_ENTRIES: Reserved = Reserved {
    entries: limits::CLAUDE_BUNDLED_LISTING_ENTRIES,
    width: limits::CLAUDE_BUNDLED_LISTING_WIDTH,
    shrinkable: limits::CLAUDE_BUNDLED_LISTING_SHRINKABLE_WIDTH,
};

/// One entry of the listing as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSkill {
    /// The invocable name.
    pub name: String,
    /// Command or skill.
    pub kind: Kind,
    /// The file, as displayed.
    pub source: String,
    /// Its directory's tier.
    pub tier: Tier,
    /// The line as sent: `- NAME: DESCRIPTION` or, shrunk, `- NAME`.
    pub line: String,
    /// True when the budget shrank it to its name.
    pub shrunk: bool,
}

/// The skills listing of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsListing {
    /// The entries, in Claude Code's order.
    pub entries: Vec<ListedSkill>,
    /// The budget, in display columns.
    pub budget: usize,
    /// The listing's width with every description, Claude Code's own
    /// entries included.
    pub width: usize,
    /// How many entries the budget shrank to their name.
    pub shrunk: usize,
    /// The names left out by `disable-model-invocation: true`.
    pub hidden: Vec<String>,
}

/// Where an entry's group comes in the listing: user skills, each project
/// skills directory (the start directory's first), then every command in
/// one group (observed, `listing-group-order`).
fn group(dirs: &[SearchDir<'_>], entry: &ClaudeEntry) -> usize {
    match dirs[entry.dir_index].layout {
        Layout::SkillDirs => entry.dir_index,
        Layout::Flat | Layout::Nested => dirs.len(),
    }
}

/// The skills listing of `listing` (read with the winners' heads), fitted
/// to `budget` columns with Claude Code's own entries reserved.
pub fn skills_listing(
    dirs: &[SearchDir<'_>],
    listing: &ClaudeListing,
    budget: usize,
) -> SkillsListing {
    let winners: Vec<(&ClaudeEntry, &ClaudeFile)> = listing
        .winners()
        .filter_map(|e| e.file.as_ref().map(|f| (e, f)))
        .collect();
    let hidden: Vec<String> = winners
        .iter()
        .filter(|(_, file)| file.hidden_from_model())
        .map(|(entry, _)| entry.name.clone())
        .collect();
    let mut shown: Vec<(&ClaudeEntry, &ClaudeFile)> = winners
        .iter()
        .copied()
        .filter(|(_, file)| !file.hidden_from_model())
        .collect();
    shown.sort_by(|(a, _), (b, _)| {
        group(dirs, a)
            .cmp(&group(dirs, b))
            .then_with(|| listing_order(&a.name, &b.name))
    });
    let entries: Vec<ListingEntry> = shown
        .iter()
        .map(|(entry, file)| ListingEntry {
            name: entry_name(&entry.name, shown_alias(listing, entry, file).as_deref()),
            description: entry_description(&file.description(), file.when_to_use().as_deref()),
        })
        .collect();
    let fitted = claude_listing::fit(&entries, budget, CLAUDE_OWN_ENTRIES);
    SkillsListing {
        entries: shown
            .iter()
            .zip(fitted.lines)
            .zip(&entries)
            .map(|(((entry, file), line), listed)| ListedSkill {
                name: entry.name.clone(),
                kind: file.kind,
                source: entry.source.clone(),
                tier: entry.tier,
                shrunk: line == listed.name_only(),
                line,
            })
            .collect(),
        budget,
        width: fitted.width,
        shrunk: fitted.shrunk,
        hidden,
    }
}

/// The `name:` an entry shows beside its name: only when that name
/// resolves to this entry (no file holds it, and no earlier skill declares
/// it), as observed (`skill-alias-vs-command`).
fn shown_alias(listing: &ClaudeListing, entry: &ClaudeEntry, file: &ClaudeFile) -> Option<String> {
    let declared = file.declared_name()?;
    let taken = listing.winners().any(|e| e.name == declared);
    let first = listing
        .winners()
        .filter(|e| {
            e.file
                .as_ref()
                .and_then(ClaudeFile::declared_name)
                .as_deref()
                == Some(&declared)
        })
        .min_by_key(|e| e.dir_index)
        .is_some_and(|first| first.source == entry.source);
    (!taken && first).then_some(declared)
}

impl SkillsListing {
    /// The listing as a turn-0 message (provenance skills): one part per
    /// entry, its line as content; `None` when there is no entry.
    pub fn message(&self) -> Option<ProfileMessage> {
        if self.entries.is_empty() {
            return None;
        }
        let text = self
            .entries
            .iter()
            .map(|entry| entry.line.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        Some(ProfileMessage::with_text(
            Provenance::Skills,
            self.entries
                .iter()
                .map(|entry| {
                    let scope = match entry.tier {
                        Tier::User => Scope::User,
                        Tier::Project | Tier::Operator => Scope::Project,
                    };
                    Part::listing_entry(&entry.source, scope, PartKind::Skills, entry.line.clone())
                })
                .collect(),
            text,
        ))
    }

    /// What is said about the listing: the entries the budget shrank, and
    /// the ones left out for the model.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut notes = Vec::new();
        if self.shrunk > 0 {
            notes.push(Diagnostic::new(
                crate::diagnostic::Severity::Warning,
                None,
                format!(
                    "the skills listing is {} columns wide with every description, over its \
                     budget of {} (Claude Code's own {} entries, {} columns, included): {} of {} \
                     entries are shrunk to their name; raise --context-window or \
                     SLASH_COMMAND_TOOL_CHAR_BUDGET, or shorten descriptions",
                    self.width,
                    self.budget,
                    CLAUDE_OWN_ENTRIES.entries,
                    CLAUDE_OWN_ENTRIES.width,
                    self.shrunk,
                    self.entries.len()
                ),
            ));
        }
        if !self.hidden.is_empty() {
            notes.push(Diagnostic::new(
                crate::diagnostic::Severity::Info,
                None,
                format!(
                    "left out of the skills listing (disable-model-invocation: true): /{}",
                    self.hidden.join(", /")
                ),
            ));
        }
        notes
    }
}
