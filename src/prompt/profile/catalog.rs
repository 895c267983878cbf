//! The commands and skills of one profile's run (SPEC §2.3, §5.5, §14.5,
//! §14.6), as one interface: what `commands list`, `expand`, `explain`,
//! completion, `snapshot` and the skills listing message read. Each agent
//! implements [`Catalog`] in its own folder; the CLI speaks only to the
//! trait, so a new agent adds no arm anywhere else.
//!
//! Choices the spec leaves open:
//! - One row type for `commands list` across profiles ([`CatalogRow`]): a
//!   field only some agents have (an `argument-hint`, a frontmatter, a
//!   shadowing file) is `null` or its neutral value under the others.
//! - What an agent adds to an expansion (Claude Code's kind, shell
//!   commands and attachments; Codex's skill blocks) is a map the agent
//!   serialises and `expand`'s JSON flattens; its schema is registered
//!   beside the agents' table.
//! - `explain NAME` shows either the precedence search over the catalog's
//!   directories ([`ResolvedName`]: every place, the winner and why), or,
//!   for an agent without precedence (Codex lists every skill of a name),
//!   every entry under the name ([`ListedName`]).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::command::{Expansion, NotExpanded};
use crate::prompt::compare::{Offered, OfferedKind};
use crate::prompt::profile::ProfileError;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, ProfileTurn0};
use crate::prompt::text::{aligned_columns, one_line};
use crate::prompt::tiers::{Fate, NameResolution, SearchDir, Tier};
use crate::prompt::walk::Scope;

/// The commands and skills one agent offers over one workspace.
pub trait Catalog {
    /// Every row `commands list` shows, what was said about the files,
    /// and whether trust withheld any.
    fn list(&self) -> Result<CatalogListing, ProfileError>;

    /// The rows as the agent's text table (no trailing line break; empty
    /// for no row).
    fn table(&self, rows: &[CatalogRow]) -> String;

    /// The names completion offers, each as typed (`/name`, `$name`), with
    /// its help; equal names may repeat (the first is offered).
    fn completion_names(&self) -> Vec<(String, Option<String>)>;

    /// Adds the agent's listing message (after its instructions) and what
    /// was said about it to `turn0`; returns every entry offered or
    /// withheld, for `compare`.
    fn add_listing(&self, turn0: &mut ProfileTurn0) -> Result<Vec<Offered>, ProfileError>;

    /// Expands `input` in the agent's argument dialect (SPEC §2.2): an
    /// unknown name or a non-command comes back unchanged.
    fn expand(&self, input: &str) -> Result<CatalogExpansion, ProfileError>;

    /// What the agent's print mode (`-p LINE`) sends for `input`. By
    /// default the same as [`Catalog::expand`]: an agent whose print mode
    /// sends something else (GitHub Copilot CLI: the line as typed, SPEC
    /// §17.7) says so here.
    fn expand_print(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        self.expand(input)
    }

    /// Why `name`, the name of a file outside the invocation grammar,
    /// cannot be typed.
    fn cannot_invoke(&self, name: &str) -> String;

    /// Why `input`, which names nothing this catalog holds, did not expand.
    fn unknown(&self, input: &str) -> String;

    /// Where `name` resolves and why (SPEC §2.8).
    fn explain(&self, name: &str) -> Result<CatalogExplanation, ProfileError>;

    /// The text of every invokable entry, for `snapshot`'s digests.
    fn texts(&self) -> Result<CatalogTexts, ProfileError>;
}

/// Everything `commands list` reports of a catalog.
#[derive(Debug, Default)]
pub struct CatalogListing {
    /// The rows, in the agent's order.
    pub rows: Vec<CatalogRow>,
    /// Diagnostics about every file and directory looked at.
    pub diagnostics: Vec<Diagnostic>,
    /// True when trust withheld an entry or a directory.
    pub withheld: bool,
}

/// Where a catalog entry lies: a scope of the walk, or a directory the
/// operator named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum EntryScope {
    /// Machine policy.
    Managed,
    /// The user's own configuration.
    User,
    /// A directory above the workspace root.
    Parent,
    /// Inside the workspace.
    Project,
    /// A project file kept out of version control.
    Local,
    /// A directory named by `--commands-dir`.
    Operator,
}

impl EntryScope {
    /// The lowercase word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryScope::Managed => "managed",
            EntryScope::User => "user",
            EntryScope::Parent => "parent",
            EntryScope::Project => "project",
            EntryScope::Local => "local",
            EntryScope::Operator => "operator",
        }
    }
}

impl From<Scope> for EntryScope {
    fn from(scope: Scope) -> Self {
        match scope {
            Scope::Managed => EntryScope::Managed,
            Scope::User => EntryScope::User,
            Scope::Parent => EntryScope::Parent,
            Scope::Project => EntryScope::Project,
            Scope::Local => EntryScope::Local,
        }
    }
}

impl From<Tier> for EntryScope {
    fn from(tier: Tier) -> Self {
        match tier {
            Tier::Project => EntryScope::Project,
            Tier::User => EntryScope::User,
            Tier::Operator => EntryScope::Operator,
        }
    }
}

/// One command or skill as `commands list` shows it, whatever the agent.
/// `description`, `argument_hint` and `frontmatter` are `null` for a file
/// that is only looked at (a shadowed one) or that the agent does not
/// have.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct CatalogRow {
    /// The name, without its sigil.
    pub name: String,
    /// `command` or `skill`.
    #[cfg_attr(test, schemars(extend("enum" = ["command", "skill"])))]
    pub kind: &'static str,
    /// Where it lies.
    pub scope: EntryScope,
    /// The file, as its reader displays it.
    pub source: String,
    /// Its description.
    pub description: Option<String>,
    /// Its `argument-hint`.
    pub argument_hint: Option<String>,
    /// What became of it (`winner`, `shadowed`, `withheld`, …).
    pub fate: &'static str,
    /// The file that provides the name instead, for a shadowed one.
    pub shadowed_by: Option<String>,
    /// The model is not told of it.
    pub hidden_from_model: bool,
    /// The user may type it.
    pub user_invocable: bool,
    /// Every frontmatter key with its value.
    pub frontmatter: Option<Map<String, Value>>,
    /// The name its file gives, when the agent renamed it on a clash
    /// (Gemini CLI, SPEC §16.4); absent under the other agents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
}

impl CatalogRow {
    /// A row of an agent that knows only a name, a description and where
    /// the file lies: the winner of its name, invocable by the user and
    /// listed to the model, or withheld.
    pub fn plain(
        name: String,
        kind: &'static str,
        scope: EntryScope,
        source: String,
        description: String,
        withheld: bool,
    ) -> Self {
        Self {
            name,
            kind,
            scope,
            source,
            description: Some(description),
            argument_hint: None,
            fate: if withheld {
                Fate::Withheld.as_str()
            } else {
                Fate::Winner.as_str()
            },
            shadowed_by: None,
            hidden_from_model: false,
            user_invocable: true,
            frontmatter: None,
            renamed_from: None,
        }
    }

    /// True when trust withheld it.
    pub fn withheld(&self) -> bool {
        self.fate == Fate::Withheld.as_str()
    }
}

/// Everything `expand` reports under a profile.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogExpansion {
    /// What the input expanded to (or the input unchanged), and from where.
    pub expansion: Expansion,
    /// Diagnostics about the files looked at and the expansion.
    pub diagnostics: Vec<Diagnostic>,
    /// When nothing expanded although a file is there: why.
    pub not_expanded: Option<NotExpanded>,
    /// True when trust withheld a directory the expansion could have used
    /// and no `not_expanded` says so.
    pub withheld: bool,
    /// What only this agent reports, flattened into the JSON document.
    pub extras: Map<String, Value>,
}

/// The project's command and skill directories trust withheld (`dirs`):
/// each becomes a `compare` row that was not read and a `not_loaded`
/// entry of the turn.
pub fn withhold_dirs<'d>(
    dirs: impl IntoIterator<Item = &'d String>,
    offered: &mut Vec<Offered>,
    turn0: &mut ProfileTurn0,
) {
    for dir in dirs {
        offered.push(Offered {
            path: dir.clone(),
            scope: Scope::Project,
            kind: OfferedKind::Unread,
            nested: false,
            withheld: true,
        });
        turn0.not_loaded.push(NotLoaded {
            path: dir.clone(),
            scope: Scope::Project,
            reason: NotLoadedReason::Withheld,
        });
    }
}

/// The `NAME KIND SCOPE DESCRIPTION` table of a `commands list` whose
/// rows are commands (shown as `/NAME`) and skills, with each row's
/// description cell made by `describe`; empty when there is no row.
pub fn name_kind_scope_table(
    rows: &[CatalogRow],
    describe: impl Fn(&CatalogRow) -> String,
) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut lines = vec![["NAME", "KIND", "SCOPE", "DESCRIPTION"].map(String::from)];
    for row in rows {
        let name = match row.kind {
            "command" => format!("/{}", one_line(&row.name)),
            _ => one_line(&row.name),
        };
        lines.push([
            name,
            row.kind.to_string(),
            row.scope.as_str().to_string(),
            describe(row),
        ]);
    }
    aligned_columns(&lines)
}

/// An agent's own fields of an expansion as the map `expand`'s JSON
/// flattens ([`CatalogExpansion::extras`]): `fields` must serialise as an
/// object (anything else adds nothing).
pub fn extras(fields: impl Serialize) -> Map<String, Value> {
    match serde_json::to_value(fields) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// Why a slash command did not expand when no file holds its name: the
/// name the agent's grammar read from the input, or that it read none.
pub fn unknown_command(name: Option<&str>) -> String {
    match name {
        Some(name) => format!("unknown command /{name}"),
        None => "input is not a slash command".to_string(),
    }
}

/// The error `--require` adds for an input that did not expand, saying
/// why; `None` when a warning already does (a command withheld because
/// the workspace is untrusted: the warning also says how to trust it).
/// `title` is the agent's name, for sentences.
pub fn require_error(
    catalog: &dyn Catalog,
    title: &str,
    input: &str,
    not_expanded: Option<&NotExpanded>,
) -> Option<Diagnostic> {
    let (path, reason) = match not_expanded {
        Some(NotExpanded::Withheld { .. }) => return None,
        Some(NotExpanded::Unusable { name, candidates }) => {
            let why: Vec<String> = candidates
                .iter()
                .map(|c| {
                    let detail = c.fate.detail();
                    format!(
                        "{}: {}",
                        c.source,
                        detail.unwrap_or_else(|| c.fate.as_str().to_string())
                    )
                })
                .collect();
            let reason = format!("/{name} exists but cannot be used: {}", why.join("; "));
            (None, reason)
        }
        Some(NotExpanded::InvalidName { name, source }) => {
            (Some(source.clone()), catalog.cannot_invoke(name))
        }
        Some(NotExpanded::ModelOnly { name, source }) => (
            Some(source.clone()),
            format!(
                "/{name} has user-invocable: false: only the model may invoke it, and {title} \
                 sends nothing when it is typed"
            ),
        ),
        None => (None, catalog.unknown(input)),
    };
    Some(Diagnostic::new(Severity::Fatal, path, reason))
}

/// What `explain NAME` finds in a catalog.
#[derive(Debug, Clone)]
pub enum CatalogExplanation {
    /// The name resolved by precedence over the catalog's directories.
    Resolved(Box<ResolvedName>),
    /// Every entry the agent lists under the name (no precedence).
    Listed(ListedName),
}

/// A name resolved by precedence: every directory's place for it, and
/// the winner's details.
#[derive(Debug, Clone)]
pub struct ResolvedName {
    /// Every searched directory's place, in precedence order.
    pub places: Vec<NamePlace>,
    /// The winning file, as displayed.
    pub winner: Option<String>,
    /// The winner's description.
    pub description: Option<String>,
    /// The top-level keys of the winner's frontmatter.
    pub frontmatter_keys: Vec<String>,
    /// What only some agents show of the winner.
    pub details: Option<NameDetails>,
    /// The skill whose `name:` key gives the name, when no file is named
    /// so: its own name and file.
    pub alias: Option<(String, String)>,
    /// What was said about the files looked at.
    pub diagnostics: Vec<Diagnostic>,
}

/// One directory's place for a name: the file there (or where it would
/// be) and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamePlace {
    /// The file, as its reader displays it.
    pub source: String,
    /// The directory's tier.
    pub tier: Tier,
    /// True when the directory is withheld (untrusted).
    pub withheld: bool,
    /// What became of the file; [`Fate::NotFound`] with no reason when
    /// nothing is there.
    pub fate: Fate,
}

impl NamePlace {
    /// True when a file is there.
    pub fn found(&self) -> bool {
        !matches!(self.fate, Fate::NotFound { .. })
    }
}

/// Every directory's place for the name `found` resolved, in precedence
/// order, with what became of the file there (`not found` where there is
/// none).
pub fn places<T>(dirs: &[SearchDir<'_>], found: &NameResolution<T>) -> Vec<NamePlace> {
    dirs.iter()
        .zip(&found.places)
        .enumerate()
        .map(|(i, (dir, place))| {
            let (source, fate) = match found.candidate_in(i) {
                Some(c) => (c.source.clone(), c.fate.clone()),
                None => (
                    place.clone(),
                    Fate::NotFound {
                        reason: String::new(),
                    },
                ),
            };
            NamePlace {
                source,
                tier: dir.tier,
                withheld: dir.withheld,
                fate,
            }
        })
        .collect()
}

/// What the command section adds for an agent whose entries have kinds,
/// hints and frontmatters (SPEC §14.5): the winner's kind, its
/// `argument-hint` and every frontmatter key with its value, and the
/// skill a `name:` key made the name a second name of.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct NameDetails {
    /// `command` or `skill`, when there is a winner.
    #[cfg_attr(test, schemars(extend("enum" = ["command", "skill", null])))]
    pub kind: Option<&'static str>,
    /// The winner's `argument-hint`.
    pub argument_hint: Option<String>,
    /// The winner's frontmatter.
    pub frontmatter: Option<Map<String, Value>>,
    /// The skill the name is a second name of.
    pub alias_of: Option<String>,
}

/// Every entry an agent lists under a name.
#[derive(Debug, Clone)]
pub struct ListedName {
    /// The entries, in the agent's order.
    pub entries: Vec<ListedEntry>,
    /// What was said about the files looked at.
    pub diagnostics: Vec<Diagnostic>,
}

/// One entry of a [`ListedName`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedEntry {
    /// Its file, as displayed.
    pub source: String,
    /// Where it lies.
    pub scope: Scope,
    /// Its description.
    pub description: String,
}

/// The texts of a catalog's invokable entries.
#[derive(Debug, Default)]
pub struct CatalogTexts {
    /// One per entry, in the agent's order.
    pub texts: Vec<EntryText>,
    /// What was said about the files read.
    pub diagnostics: Vec<Diagnostic>,
    /// True when trust withheld an entry or a directory.
    pub withheld: bool,
}

/// One invokable entry's file, with its name and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryText {
    /// The name it is invoked by.
    pub name: String,
    /// The file, as displayed.
    pub source: String,
    /// The file's whole text.
    pub text: String,
}
