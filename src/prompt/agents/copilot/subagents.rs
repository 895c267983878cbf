//! GitHub Copilot CLI's custom agents (SPEC §19.7), as observed with CLI
//! 1.0.102 (`tests/oracle/cases/copilot/subagents*`):
//!
//! - Files: every `.md` below `.github/agents` (`*.agent.md` and plain
//!   `*.md`, in subdirectories too) of the cwd and each ancestor up to the
//!   root, then below `~/.copilot/agents` (`user`).
//! - The name is `name:`, else the file name without `.agent.md` (or
//!   `.md`). A file needs a frontmatter block that is valid YAML and a
//!   non-empty `description`; else Copilot leaves it out silently (the
//!   preview says so in a warning).
//! - Every file is listed, even two of one name (no clash rule).
//! - The listing: `- **NAME**: DESCRIPTION` per agent, sorted by name
//!   byte-wise (upper case first), the project's before the user's for
//!   one name, entries separated by a blank line; the description trimmed,
//!   not escaped.
//!
//! Where it is sent: not in a message but in the description of Copilot's
//! `task` tool, after its own agent types and a fixed heading. The
//! preview shows the entries as a system message of provenance `agents`
//! (its `text` is the entries exactly as they follow that heading), so
//! that the text view, `--stats` and `compare` count them like Claude
//! Code's listing; an info line says where Copilot puts them.
//!
//! Choices the spec leaves open:
//! - Of one name, the cwd's file comes before an ancestor's (Copilot lists
//!   both; their order was not observed).
//! - Untrusted, the project's files are withheld (listed, never read),
//!   although Copilot lists them without `--trust-folder`: the preview
//!   never reads an untrusted project file (§14.1).
//! - A file over [`crate::limits::MAX_COMMAND_FILE_BYTES`] is skipped with a
//!   warning; `tools` and `model` are reported in JSON only.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::copilot::instructions::Dirs;
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::profile::subagent::{self, listing_message};
use crate::prompt::profile::{
    NotLoaded, NotLoadedReason, ProfileMessage, Scope, Subagent, SubagentFate,
};
use crate::prompt::tiers::walk_tree;
use crate::prompt::yaml::parse_mapping;
use crate::workspace::Workspace;

/// The project's directory of agent files.
pub const AGENTS_DIR: &str = ".github/agents";

/// The user's directory of agent files, below `~/.copilot`.
const USER_AGENTS_DIR: &str = "agents";

/// The info line the listing carries.
pub const IN_TASK_TOOL: &str = "GitHub Copilot CLI lists these agents in the description of its \
     `task` tool, after its own agent types, not in a message";

/// Copilot's agents: every file found, the listing (`None` when nothing
/// is listed), what trust withheld, and the diagnostics.
#[derive(Debug, Default)]
pub struct Subagents {
    /// Every file, cwd first, then its ancestors', then the user's.
    pub found: Vec<Subagent>,
    /// The listing, when an agent is listed.
    pub message: Option<ProfileMessage>,
    /// The project files trust withheld.
    pub not_loaded: Vec<NotLoaded>,
    /// Warnings and infos about the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads Copilot's agent files of `dirs` (cwd up to the root) and of the
/// user's `~/.copilot` directory `home`.
pub fn subagents(dirs: &Dirs<'_>, home: Option<&dyn Workspace>, trusted: bool) -> Subagents {
    let mut out = Subagents::default();
    let top = dirs.root.unwrap_or(dirs.walk.len() - 1);
    let project = dirs.walk[top..].iter().rev().map(|dir| {
        let scope = dir.scope;
        (dir.reader, dir.rel(AGENTS_DIR), scope)
    });
    let user = home.map(|home| (home, USER_AGENTS_DIR.to_string(), Scope::User));
    for (reader, tree, scope) in project.chain(user) {
        let withheld = scope.is_gated() && !trusted;
        let files = walk_tree(reader, &tree, false).files;
        for path in files.into_iter().filter(|path| path.ends_with(".md")) {
            let shown = reader.display(&path);
            if withheld {
                out.not_loaded.push(NotLoaded {
                    path: shown.clone(),
                    scope,
                    reason: NotLoadedReason::Withheld,
                });
                let agent = Subagent::unread(shown, scope, SubagentFate::Withheld, None);
                out.found.push(agent);
                continue;
            }
            let agent = read_one(reader, &path, shown, scope, &mut out.diagnostics);
            out.found.push(agent);
        }
    }
    out.message = listing(&out.found);
    if out.message.is_some() {
        out.diagnostics
            .push(Diagnostic::new(Severity::Info, None, IN_TASK_TOOL));
    }
    out
}

/// The name a file without `name:` gets: its file name less `.agent.md`
/// (or `.md`).
fn stem(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.strip_suffix(".agent.md")
        .or_else(|| file.strip_suffix(".md"))
        .unwrap_or(file)
}

/// Reads one file: listed, or skipped with the reason.
fn read_one(
    reader: &dyn Workspace,
    rel: &str,
    shown: String,
    scope: Scope,
    diagnostics: &mut Vec<Diagnostic>,
) -> Subagent {
    let skipped = |shown: String, reason: String, diagnostics: &mut Vec<Diagnostic>| {
        let warning =
            format!("custom agent skipped: {reason} (GitHub Copilot CLI leaves it out silently)");
        Subagent::skipped(shown, scope, reason, warning, diagnostics)
    };
    let text = match subagent::read_text(reader, rel) {
        Ok(text) => text,
        Err(reason) => return skipped(shown, reason, diagnostics),
    };
    let keys = match split_frontmatter(&text).0.map(parse_mapping) {
        Some(Ok(keys)) => keys,
        Some(Err(err)) => {
            let reason = format!(
                "the frontmatter is not valid YAML (line {}, column {}): {}",
                err.line,
                err.column,
                err.problem.describe()
            );
            return skipped(shown, reason, diagnostics);
        }
        None => return skipped(shown, "no frontmatter".into(), diagnostics),
    };
    let value = |key: &str| keys.iter().find(|entry| entry.key == key).map(|e| &e.value);
    let string = |key: &str| value(key).and_then(Value::as_str).map(str::to_string);
    let name = string("name").unwrap_or_else(|| stem(rel).to_string());
    let description = string("description")
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty());
    let Some(description) = description else {
        let reason = "no non-empty `description` string in its frontmatter".to_string();
        let mut agent = skipped(shown, reason, diagnostics);
        agent.name = Some(name);
        return agent;
    };
    let tools = value("tools").map(|tools| match tools {
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Value::String(text) => vec![text.clone()],
        _ => Vec::new(),
    });
    Subagent {
        name: Some(name),
        description: Some(description),
        tools,
        disallowed_tools: None,
        model: string("model"),
        path: shown,
        scope,
        fate: SubagentFate::Listed,
        reason: None,
    }
}

/// The listing of the listed agents, sorted by name byte-wise (stable:
/// the order found for one name).
fn listing(found: &[Subagent]) -> Option<ProfileMessage> {
    let mut listed: Vec<(&Subagent, String)> = found
        .iter()
        .filter(|agent| agent.fate == SubagentFate::Listed)
        .filter_map(|agent| {
            let name = agent.name.as_deref()?;
            let description = agent.description.as_deref()?;
            Some((agent, format!("- **{name}**: {description}")))
        })
        .collect();
    listed.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    listing_message(listed, "\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_a_name_is_named_by_its_stem() {
        assert_eq!(stem(".github/agents/review.agent.md"), "review");
        assert_eq!(stem(".github/agents/sub/plain.md"), "plain");
        assert_eq!(stem("x.agent.md"), "x");
    }
}
