//! Agent profiles (SPEC §14): which agent's way of loading a workspace the
//! preview reproduces, and the shapes every profile's turn 0 shares — the
//! parts each message is made of (one per file, with its scope and kind),
//! what was considered and not loaded, and what reading a path adds
//! (`--touch`).
//!
//! A profile is a wiring of the domain's pieces (the walk of
//! [`crate::prompt::walk`], the precedence engine of
//! [`crate::prompt::tiers`], the import scanner, the content transforms)
//! at the composition root; this module holds only what all of them
//! produce, so the CLI renders every profile the same way.
//!
//! Choices the spec leaves open:
//! - A part's `bytes` is its content's length in UTF-8 bytes, as sent.
//! - What was not loaded carries a typed reason ([`NotLoadedReason`]); its
//!   JSON `reason` is the reason's phrase, so tools can match on it. It is
//!   the one vocabulary of why a file was not loaded: the finer reasons a
//!   loader keeps for its own diagnostics (Codex's budget cases, an
//!   import's refusal, the engine's sources' rejections) become it in one
//!   translation beside that loader's type, in the agent's folder; a
//!   candidate's fate in a name search ([`crate::prompt::tiers::Fate`]) is
//!   another question (which file provides a name) and keeps its own.
//! - A message also carries its whole text exactly as the agent sends it
//!   ([`ProfileMessage::text`]): the parts joined the agent's way, which
//!   is not always a plain `\n\n` (Codex puts a marker line between its
//!   global file and the project chain), so JSON readers get the exact
//!   bytes without knowing each agent's joints.
//! - Where a profile looked ([`Searched`]) rides along for `explain`, so
//!   that it can say why a file was never considered without a second
//!   walk of its own.

pub mod catalog;
pub mod extras;
pub mod inventory;
pub mod seam;
pub mod subagent;

use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::prompt::turn0::Provenance;
pub use crate::prompt::walk::Scope;
pub use inventory::{Hook, McpServer, OutputStyle, Transport};
pub use subagent::{Subagent, SubagentFate};

/// An agent whose loading a preview reproduces (SPEC §14.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Agent {
    /// The Mecatl engine of SPEC Part I (the default).
    Mecatl,
    /// Claude Code.
    Claude,
    /// Codex CLI.
    Codex,
    /// Gemini CLI.
    Gemini,
    /// opencode.
    Opencode,
    /// GitHub Copilot CLI (SPEC §17).
    Copilot,
}

impl Agent {
    /// Every agent, in the order `compare` shows them (the order of
    /// [`crate::prompt::agents::PROFILES`], which gives each its data).
    pub const ALL: [Agent; 6] = [
        Agent::Mecatl,
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Opencode,
        Agent::Copilot,
    ];
}

/// What a part is (SPEC §14.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum PartKind {
    /// An instruction file of the walk (`CLAUDE.md`, `AGENTS.md`, …).
    Instructions,
    /// A rule file (`.claude/rules/**/*.md`).
    Rule,
    /// A file an `@import` brought in.
    Import,
    /// Claude Code's auto-memory `MEMORY.md`.
    AutoMemory,
    /// The skills listing.
    Skills,
    /// The engine's soul (the mecatl profile, SPEC §6.4).
    Soul,
    /// The engine's memory index (the mecatl profile, SPEC §6.5).
    MemoryIndex,
    /// The engine's user model (the mecatl profile, SPEC §6.5).
    UserModel,
    /// A subagent's line of the subagents listing (SPEC §19.2).
    Subagent,
    /// The output style's part (SPEC §19.3).
    OutputStyle,
    /// A repository's file that replaces the agent's whole system prompt
    /// (Gemini CLI's `.gemini/system.md`, SPEC §16.5).
    SystemPrompt,
    /// A path-specific instruction file sent whole, frontmatter included
    /// (GitHub Copilot CLI, SPEC §17.3).
    PathInstructions,
    /// The table of conditional path-specific instruction files (GitHub
    /// Copilot CLI, SPEC §17.3).
    ApplytoTable,
}

impl PartKind {
    /// The kebab-case name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            PartKind::Instructions => "instructions",
            PartKind::Rule => "rule",
            PartKind::Import => "import",
            PartKind::AutoMemory => "auto-memory",
            PartKind::Skills => "skills",
            PartKind::Soul => "soul",
            PartKind::MemoryIndex => "memory-index",
            PartKind::UserModel => "user-model",
            PartKind::Subagent => "subagent",
            PartKind::OutputStyle => "output-style",
            PartKind::SystemPrompt => "system-prompt",
            PartKind::PathInstructions => "path-instructions",
            PartKind::ApplytoTable => "applyto-table",
        }
    }
}

/// Bytes of a file a budget cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Cut {
    /// Bytes sent.
    pub kept: u64,
    /// Bytes left out.
    pub omitted: u64,
}

/// One file's contribution to a profile's message, exactly as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The file: workspace-relative for project and local files, absolute
    /// for user, managed and parent ones (SPEC §14.7).
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// What it is.
    pub kind: PartKind,
    /// For an import, the file whose `@path` brought it in.
    pub imported_by: Option<String>,
    /// Exactly what the agent sends for it.
    pub content: String,
    /// Set when a budget cut it.
    pub cut: Option<Cut>,
}

impl Part {
    /// One entry of a listing (a skill's or a subagent's line, of `kind`
    /// [`PartKind::Skills`] or [`PartKind::Subagent`]): the file it stands
    /// for and the entry as sent, never an import, never cut.
    pub fn listing_entry(path: &str, scope: Scope, kind: PartKind, content: String) -> Self {
        Part {
            path: path.to_string(),
            scope,
            kind,
            imported_by: None,
            content,
            cut: None,
        }
    }
}

/// The JSON shape of SPEC §14.7: `{path, scope, kind, imported_by, bytes,
/// content, cut}`.
impl Serialize for Part {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_part(self, None, serializer)
    }
}

/// A part's JSON, with its extra keys when it has any.
fn serialize_part<S: serde::Serializer>(
    part: &Part,
    extras: Option<&extras::PartExtras>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let extras = extras.filter(|extras| !extras.is_empty());
    let (imports, rows) = match extras {
        Some(extras) => (!extras.imports.is_empty(), !extras.rows.is_empty()),
        None => (false, false),
    };
    let len = 7 + usize::from(imports) + usize::from(rows);
    let mut out = serializer.serialize_struct("Part", len)?;
    out.serialize_field("path", &part.path)?;
    out.serialize_field("scope", &part.scope)?;
    out.serialize_field("kind", &part.kind)?;
    out.serialize_field("imported_by", &part.imported_by)?;
    out.serialize_field("bytes", &part.content.len())?;
    out.serialize_field("content", &part.content)?;
    out.serialize_field("cut", &part.cut)?;
    if let Some(extras) = extras {
        if imports {
            out.serialize_field("imports", &extras.imports)?;
        }
        if rows {
            out.serialize_field("rows", &extras.rows)?;
        }
    }
    out.end()
}

#[cfg(test)]
impl schemars::JsonSchema for Part {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Part".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let text = |description: &str| schemars::json_schema!({"type": "string", "description": description});
        let mut schema = crate::json_schema::closed::closed_object(
            "One part of a profile's message: one file, as the agent sends it.",
            vec![
                (
                    "path",
                    text("Workspace-relative for project and local files, absolute otherwise."),
                ),
                ("scope", generator.subschema_for::<Scope>()),
                ("kind", generator.subschema_for::<PartKind>()),
                ("imported_by", generator.subschema_for::<Option<String>>()),
                ("bytes", generator.subschema_for::<usize>()),
                ("content", text("Exactly what the agent sends for it.")),
                ("cut", generator.subschema_for::<Option<Cut>>()),
                (
                    "imports",
                    generator.subschema_for::<Vec<extras::PartImport>>(),
                ),
                ("rows", generator.subschema_for::<Vec<extras::TableRow>>()),
            ],
        );
        // The extra keys appear only when the profile says more.
        if let Some(serde_json::Value::Array(required)) = schema.get_mut("required") {
            required.retain(|name| name != "imports" && name != "rows");
        }
        schema
    }
}

/// The parts of a message with their extra keys, for its JSON.
struct PartsOut<'a>(
    &'a [Part],
    &'a std::collections::BTreeMap<usize, extras::PartExtras>,
);

impl Serialize for PartsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        struct One<'a>(&'a Part, Option<&'a extras::PartExtras>);
        impl Serialize for One<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serialize_part(self.0, self.1, serializer)
            }
        }
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for (at, part) in self.0.iter().enumerate() {
            seq.serialize_element(&One(part, self.1.get(&at)))?;
        }
        seq.end()
    }
}

/// One turn-0 message of a profile: its provenance and its parts, in
/// order, and its whole text as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct ProfileMessage {
    /// Always `user`.
    pub role: crate::prompt::turn0::Role,
    /// Where it comes from (`instructions` or `skills` under a profile).
    pub provenance: Provenance,
    /// Its parts, in the order the agent sends them.
    pub parts: Vec<Part>,
    /// The message's text exactly as the agent sends it: the parts'
    /// contents joined the agent's way.
    pub text: String,
    /// What some parts say beyond their content, by their index in
    /// `parts` (see [`extras`]); in JSON, keys of those parts.
    #[cfg_attr(test, schemars(skip))]
    pub extras: std::collections::BTreeMap<usize, extras::PartExtras>,
}

impl Serialize for ProfileMessage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("ProfileMessage", 4)?;
        out.serialize_field("role", &self.role)?;
        out.serialize_field("provenance", &self.provenance)?;
        out.serialize_field("parts", &PartsOut(&self.parts, &self.extras))?;
        out.serialize_field("text", &self.text)?;
        out.end()
    }
}

impl ProfileMessage {
    /// A user message whose text is its parts' contents joined by a blank
    /// line (`\n\n`), the way most agents join files.
    pub fn joined(provenance: Provenance, parts: Vec<Part>) -> Self {
        let text = parts
            .iter()
            .map(|part| part.content.as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        Self::with_text(provenance, parts, text)
    }

    /// A user message whose `text` the caller joined itself.
    pub fn with_text(provenance: Provenance, parts: Vec<Part>, text: String) -> Self {
        Self {
            role: crate::prompt::turn0::Role::User,
            provenance,
            parts,
            text,
            extras: std::collections::BTreeMap::new(),
        }
    }
}

/// Why a file a profile considered was not loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotLoadedReason {
    /// A project or local file of an untrusted workspace.
    Withheld,
    /// `AGENTS.md` where a non-blank Claude instruction file exists on the
    /// walk (Claude Code reads AGENTS.md only as a fallback).
    FallbackUnused,
    /// A rule with `paths:`, loaded only when a matching file is read.
    Conditional,
    /// An import outside what the agent (or the preview) reads: outside the
    /// cwd without approval, or outside the workspace from a project file.
    External,
    /// An import deeper than the agent follows.
    TooDeep,
    /// A file or import already loaded.
    Duplicate,
    /// An import that names nothing, or a directory.
    Missing,
    /// An import the agent does not read as text (its extension).
    NotText,
    /// Empty or whitespace only.
    Blank,
    /// Larger than the agent reads (`bytes` is the file's size).
    TooLarge {
        /// The file's size.
        bytes: u64,
    },
    /// Past a budget (`bytes` is the file's size).
    OverBudget {
        /// The file's size.
        bytes: u64,
    },
    /// A fan-out guard of ours stopped reading (imports per assembly,
    /// imported bytes).
    Capped,
    /// The engine's rules message was full (its count or byte cap, SPEC
    /// §6.3); the file was never opened.
    PastCap,
    /// Cannot be used: a link leaving the workspace, a dangling link, a
    /// read fault; the text says which.
    Unusable(String),
    /// Another file takes its place (the path of that file): Codex reads one
    /// file per directory, the first of its names present.
    Shadowed {
        /// The file that shadows it.
        by: String,
    },
    /// Its bytes equal a file already sent, which the agent sends once.
    DuplicateOf {
        /// The file already sent.
        of: String,
    },
    /// Its name differs from a file's beside it only in case, and the
    /// agent reads the exactly named one.
    CaseVariant {
        /// The file read instead.
        of: String,
    },
    /// A name the agent never reads, though other agents do.
    NotReadBy {
        /// The agent, for sentences.
        agent: &'static str,
    },
    /// Its `excludeAgent` frontmatter leaves this agent out.
    ExcludedAgent,
    /// Named at start by a row of the agent's table of conditional files;
    /// its text is sent when a matching file is read (GitHub Copilot CLI).
    TableRow,
}

impl NotLoadedReason {
    /// The reason in a word or two, for table cells (`compare`).
    pub fn label(&self) -> &'static str {
        match self {
            NotLoadedReason::Withheld => "withheld",
            NotLoadedReason::FallbackUnused => "fallback unused",
            NotLoadedReason::Conditional => "conditional",
            NotLoadedReason::External => "external",
            NotLoadedReason::TooDeep => "too deep",
            NotLoadedReason::Duplicate => "duplicate",
            NotLoadedReason::Missing => "missing",
            NotLoadedReason::NotText => "not text",
            NotLoadedReason::Blank => "blank",
            NotLoadedReason::TooLarge { .. } => "too large",
            NotLoadedReason::OverBudget { .. } => "over budget",
            NotLoadedReason::Capped => "import guard",
            NotLoadedReason::PastCap => "rules cap",
            NotLoadedReason::Unusable(_) => "unusable",
            NotLoadedReason::Shadowed { .. } => "shadowed",
            NotLoadedReason::DuplicateOf { .. } => "duplicate",
            NotLoadedReason::CaseVariant { .. } => "name case",
            NotLoadedReason::NotReadBy { .. } => "not its file",
            NotLoadedReason::ExcludedAgent => "excludeAgent",
            NotLoadedReason::TableRow => "row",
        }
    }

    /// The reason as one short phrase, used in text and JSON.
    pub fn phrase(&self) -> String {
        match self {
            NotLoadedReason::Withheld => "withheld: untrusted".to_string(),
            NotLoadedReason::FallbackUnused => {
                "not read: a CLAUDE.md-type file exists on the walk".to_string()
            }
            NotLoadedReason::Conditional => {
                "conditional: loaded when a matching file is read".to_string()
            }
            NotLoadedReason::External => "external: not read".to_string(),
            NotLoadedReason::TooDeep => "import too deep".to_string(),
            NotLoadedReason::Duplicate => "already loaded".to_string(),
            NotLoadedReason::Missing => "not found".to_string(),
            NotLoadedReason::NotText => "not a text file".to_string(),
            NotLoadedReason::Blank => "blank".to_string(),
            NotLoadedReason::TooLarge { bytes } => format!("too large ({bytes} bytes)"),
            NotLoadedReason::OverBudget { bytes } => format!("over budget ({bytes} bytes)"),
            NotLoadedReason::Capped => "past the import guard".to_string(),
            NotLoadedReason::PastCap => "dropped at the rules message's cap".to_string(),
            NotLoadedReason::Unusable(why) => format!("cannot be used: {why}"),
            NotLoadedReason::Shadowed { by } => format!("shadowed by {by}"),
            NotLoadedReason::DuplicateOf { of } => format!("duplicate of {of}"),
            NotLoadedReason::CaseVariant { of } => format!("name-case variant of {of}"),
            NotLoadedReason::NotReadBy { agent } => format!("not read by {agent}"),
            NotLoadedReason::ExcludedAgent => "excludeAgent: not for this agent".to_string(),
            NotLoadedReason::TableRow => {
                "row: named at start, sent when a matching file is read".to_string()
            }
        }
    }
}

/// A file a profile considered and did not load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotLoaded {
    /// The file, as a [`Part`]'s path.
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// Why.
    pub reason: NotLoadedReason,
}

/// The JSON shape of SPEC §14.7: `{path, scope, reason}`.
impl Serialize for NotLoaded {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut entry = serializer.serialize_struct("NotLoaded", 3)?;
        entry.serialize_field("path", &self.path)?;
        entry.serialize_field("scope", &self.scope)?;
        entry.serialize_field("reason", &self.reason.phrase())?;
        entry.end()
    }
}

#[cfg(test)]
crate::json_schema::closed::closed_schema!(NotLoaded, "A file a profile considered and did not load.", {
    "path" = "The file, named like a part's path.",
    "scope": Scope,
    "reason" = "Why, in words (`withheld: untrusted`, `over budget (N bytes)`, …).",
});

/// What reading one path adds (SPEC §14.3 `--touch`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Touched {
    /// The path read, workspace-relative.
    pub path: String,
    /// The parts it adds, in the order the agent sends them.
    pub parts: Vec<Part>,
}

/// One directory a profile looks in at start, and the names it tries
/// there, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchedDir {
    /// The directory, named like a [`Part`]'s path: workspace-relative
    /// (`""` for the workspace root) or absolute.
    pub dir: String,
    /// Where it lies.
    pub scope: Scope,
    /// The file names tried there, relative to the directory.
    pub names: Vec<String>,
}

/// Where a profile looked at start, and the rule that chose those places
/// in one sentence of ours (for `explain`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Searched {
    /// Which directories the profile reads and why (e.g. where the project
    /// root was found).
    pub rule: String,
    /// The directories, in the order the agent reads them.
    pub dirs: Vec<SearchedDir>,
}

/// How a rule file of a profile loads (SPEC §14.7, `rules list`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleLoad {
    /// At start: it is a part of the instructions.
    Start,
    /// When a file matching its `paths` is read (`--touch`).
    Lazy,
    /// Not at all; the reason is the file's `not_loaded` entry's.
    Skipped(NotLoadedReason),
}

impl RuleLoad {
    /// The word `rules list` shows: `start`, `lazy` or `skipped`.
    pub fn as_str(&self) -> &'static str {
        match self {
            RuleLoad::Start => "start",
            RuleLoad::Lazy => "lazy",
            RuleLoad::Skipped(_) => "skipped",
        }
    }
}

/// A rule file a profile found, in the order the agent reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileRule {
    /// The file, named like a [`Part`]'s path.
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// Its `paths` patterns as the agent reduces them; empty for a rule
    /// that loads at start or was not read.
    pub paths: Vec<String>,
    /// How it loads.
    pub loads: RuleLoad,
    /// For a rule loaded at start, its content's size as sent.
    pub bytes: Option<usize>,
}

/// The JSON shape of `rules list` under a profile: `{path, scope, loads,
/// paths, bytes, reason}` (`reason` for a skipped rule, else null).
impl Serialize for ProfileRule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut rule = serializer.serialize_struct("ProfileRule", 6)?;
        rule.serialize_field("path", &self.path)?;
        rule.serialize_field("scope", &self.scope)?;
        rule.serialize_field("loads", self.loads.as_str())?;
        rule.serialize_field("paths", &self.paths)?;
        rule.serialize_field("bytes", &self.bytes)?;
        let reason = match &self.loads {
            RuleLoad::Skipped(reason) => Some(reason.phrase()),
            _ => None,
        };
        rule.serialize_field("reason", &reason)?;
        rule.end()
    }
}

#[cfg(test)]
crate::json_schema::closed::closed_schema!(ProfileRule, "A rule file a profile found, in the order the agent reads them.", {
    "path" = "The file, named like a part's path.",
    "scope": Scope,
    "loads" => ["start", "lazy", "skipped"],
    "paths": Vec<String>,
    "bytes": Option<usize>,
    "reason": Option<String>,
});

/// A profile's turn 0 (SPEC §14.2, §14.7): its messages, what touching
/// paths adds, what was considered and not loaded, and the diagnostics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileTurn0 {
    /// The messages, in order.
    pub messages: Vec<ProfileMessage>,
    /// Per `--touch` path, what reading it adds.
    pub touch: Vec<Touched>,
    /// Files considered and not loaded, in the order met.
    pub not_loaded: Vec<NotLoaded>,
    /// Diagnostics about every file looked at.
    pub diagnostics: Vec<Diagnostic>,
    /// Where the profile looked at start.
    pub searched: Searched,
    /// Every rule file found, in the order the agent reads them (empty for
    /// an agent without rules).
    pub rules: Vec<ProfileRule>,
    /// Every subagent file found (SPEC §19.2; empty for an agent that
    /// reads none).
    pub subagents: Vec<Subagent>,
    /// The output style the settings select (SPEC §19.3).
    pub output_style: Option<OutputStyle>,
    /// Every configured MCP server, never started (SPEC §19.4).
    pub mcp_servers: Vec<McpServer>,
    /// Every configured command hook, never run (SPEC §19.5).
    pub hooks: Vec<Hook>,
}

impl ProfileTurn0 {
    /// True when trust withheld any file.
    pub fn withheld_any(&self) -> bool {
        self.not_loaded
            .iter()
            .any(|entry| entry.reason == NotLoadedReason::Withheld)
    }
}

/// Why a profile could not run.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// `--at` names no directory of the workspace (a usage error).
    #[error(transparent)]
    InvalidAt(#[from] crate::prompt::walk::InvalidAt),
    /// A file that must be read could not be.
    #[error(transparent)]
    ReadFault(#[from] crate::prompt::turn0::ReadFault),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_serialize_in_the_spec_shape() {
        let part = Part {
            path: "sub/CLAUDE.md".into(),
            scope: Scope::Project,
            kind: PartKind::Import,
            imported_by: Some("CLAUDE.md".into()),
            content: "héllo".into(),
            cut: Some(Cut {
                kept: 6,
                omitted: 1,
            }),
        };
        assert_eq!(
            serde_json::to_string(&part).unwrap(),
            r#"{"path":"sub/CLAUDE.md","scope":"project","kind":"import","imported_by":"CLAUDE.md","bytes":6,"content":"héllo","cut":{"kept":6,"omitted":1}}"#
        );
        let not_loaded = NotLoaded {
            path: "/etc/hostname".into(),
            scope: Scope::Project,
            reason: NotLoadedReason::External,
        };
        assert_eq!(
            serde_json::to_string(&not_loaded).unwrap(),
            r#"{"path":"/etc/hostname","scope":"project","reason":"external: not read"}"#
        );
    }
}
