//! Claude Code's subagents (SPEC §19.2), as observed with Claude Code
//! 2.1.328 (`tests/oracle/cases/claude-subagents/`):
//!
//! - Files: every `.md` below `.claude/agents` of the cwd and each ancestor
//!   up to the git root (the nearest directory holding `.git`; the
//!   workspace root when there is none inside the workspace), then below
//!   the user's `$CLAUDE_CONFIG_DIR/agents` (default `~/.claude/agents`).
//! - The frontmatter is read as Claude Code reads a command's
//!   ([`read_frontmatter`]: YAML, else the requoted second reading, with a
//!   warning). A file needs a string `name` and a non-empty string
//!   `description`; else it is skipped, with a warning (Claude Code is
//!   silent). The name comes from `name:`, never the file name.
//! - Clash: the cwd's files beat an ancestor's, the project's beat the
//!   user's; the loser is `shadowed`. A name a built-in agent has
//!   (`general-purpose`, `Explore`, `Plan`, `statusline-setup`, …) replaces
//!   that built-in (info).
//! - The listing: `- NAME: DESCRIPTION (Tools: T)` per listed agent,
//!   sorted by name without regard to case, lines joined by `\n`, in a
//!   system message of provenance `agents`. T: the `tools` (a list, or a
//!   comma-separated string) joined by `, `; `All tools` when `tools` is
//!   absent, empty or `*`; `All tools except D` for `disallowedTools`
//!   alone; the tools less the disallowed ones when both are given. The
//!   description is sent raw (not cut, escaped or trimmed).
//! - Claude Code lists its built-in agents among them; the preview lists
//!   only the files it read.
//!
//! Choices the spec leaves open:
//! - Within one `.claude/agents` tree the files are taken in name order
//!   (depth first), so of two files of one name in one tree the first in
//!   that order wins.
//! - `tools` holding `*` among other names counts as all tools; when the
//!   disallowed tools remove every listed tool, `T` is empty.
//! - Names sort by their lowercase form, then as written (Claude Code
//!   compares with JavaScript's `localeCompare`; the two agree on ASCII
//!   names).
//! - A file over [`crate::limits::MAX_COMMAND_FILE_BYTES`] is skipped with a
//!   warning; untrusted, the project's files are withheld (listed, never
//!   read).

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::claude::names;
use crate::prompt::command::claude_dialect::{Reading, read_frontmatter};
use crate::prompt::profile::subagent::{self, listing_message};
use crate::prompt::profile::{
    NotLoaded, NotLoadedReason, ProfileMessage, Scope, Subagent, SubagentFate,
};
use crate::prompt::tiers::walk_tree;
use crate::prompt::walk::WalkDir;
use crate::workspace::{Workspace, join};

/// The directory of subagent files below a `.claude` directory or the
/// user's configuration directory.
pub(crate) const AGENTS_DIR: &str = "agents";

/// The names of Claude Code 2.1.328's built-in agents (observed in its
/// listing of an empty workspace).
const BUILT_IN: [&str; 5] = [
    "claude",
    "Explore",
    "general-purpose",
    "Plan",
    "statusline-setup",
];

/// Where the files are read from.
pub(crate) struct SubagentSources<'a> {
    /// The walk, root first (the project's directories are used).
    pub walked: &'a [WalkDir<'a>],
    /// The user's configuration directory, when there is one.
    pub user: Option<&'a dyn Workspace>,
    /// Whether the project's files may be read.
    pub trusted: bool,
}

/// Claude Code's subagents: every file found, the listing message (`None`
/// when nothing is listed), and what was withheld, with the diagnostics.
#[derive(Debug, Default)]
pub(crate) struct Subagents {
    /// Every file, in the order of precedence.
    pub found: Vec<Subagent>,
    /// The listing, when an agent is listed.
    pub message: Option<ProfileMessage>,
    /// The project files trust withheld.
    pub not_loaded: Vec<NotLoaded>,
    /// Warnings and infos about the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// One listed `agents` tree: its reader, scope and files.
struct Tree<'a> {
    reader: &'a dyn Workspace,
    scope: Scope,
}

/// Reads Claude Code's subagents from `sources`.
pub(crate) fn subagents(sources: &SubagentSources<'_>) -> Subagents {
    let mut out = Subagents::default();
    for (tree, files) in trees(sources) {
        let withheld = tree.scope.is_gated() && !sources.trusted;
        for path in files.into_iter().filter(|path| path.ends_with(".md")) {
            let shown = tree.reader.display(&path);
            if withheld {
                out.not_loaded.push(NotLoaded {
                    path: shown.clone(),
                    scope: tree.scope,
                    reason: NotLoadedReason::Withheld,
                });
                out.found.push(Subagent::unread(
                    shown,
                    tree.scope,
                    SubagentFate::Withheld,
                    None,
                ));
                continue;
            }
            let agent = read_one(tree.reader, &path, shown, tree.scope, &mut out.diagnostics);
            out.found.push(agent);
        }
    }
    settle_clashes(&mut out);
    out.message = listing(&out.found);
    out
}

/// The `.claude/agents` trees of the cwd up to the git root, nearest
/// first, then the user's, each with its files. Every tree is listed
/// first; `.git` is looked for only below the farthest tree holding files
/// (in a repository without subagent files, not at all).
fn trees<'a>(sources: &SubagentSources<'a>) -> Vec<(Tree<'a>, Vec<String>)> {
    let dirs: Vec<&WalkDir<'a>> = sources
        .walked
        .iter()
        .rev()
        .filter(|dir| dir.scope == Scope::Project)
        .collect();
    let mut listed: Vec<(Tree<'a>, Vec<String>)> = dirs
        .iter()
        .map(|dir| {
            let rel = join(&dir.rel(names::DOT_CLAUDE), AGENTS_DIR);
            let files = walk_tree(dir.reader, &rel, false).files;
            let tree = Tree {
                reader: dir.reader,
                scope: Scope::Project,
            };
            (tree, files)
        })
        .collect();
    let farthest = listed.iter().rposition(|(_, files)| !files.is_empty());
    if let Some(farthest) = farthest {
        // The nearest directory holding `.git` below the farthest tree
        // ends the walk there.
        let root = (0..farthest).find(|&i| dirs[i].reader.stat(&dirs[i].rel(names::GIT)).is_ok());
        if let Some(root) = root {
            listed.truncate(root + 1);
        }
    }
    if let Some(user) = sources.user {
        let tree = Tree {
            reader: user,
            scope: Scope::User,
        };
        let files = walk_tree(user, AGENTS_DIR, false).files;
        listed.push((tree, files));
    }
    listed
}

/// Reads one file: listed, or skipped with the reason.
pub(crate) fn read_one(
    reader: &dyn Workspace,
    rel: &str,
    shown: String,
    scope: Scope,
    diagnostics: &mut Vec<Diagnostic>,
) -> Subagent {
    let skipped = |shown: String, reason: String, diagnostics: &mut Vec<Diagnostic>| {
        let warning = format!("subagent skipped: {reason}");
        Subagent::skipped(shown, scope, reason, warning, diagnostics)
    };
    let text = match subagent::read_text(reader, rel) {
        Ok(text) => text,
        Err(reason) => return skipped(shown, reason, diagnostics),
    };
    let front = read_frontmatter(&text);
    match &front.reading {
        Reading::Requoted(err) => diagnostics.push(Diagnostic::warning(
            shown.clone(),
            format!(
                "the frontmatter is not valid YAML (line {}, column {}): Claude Code reads it \
                 leniently, each `key: value` line as written",
                err.line, err.column
            ),
        )),
        Reading::Ignored(err) => {
            let reason = format!(
                "the frontmatter is not YAML even when read leniently (line {}, column {})",
                err.line, err.column
            );
            return skipped(shown, reason, diagnostics);
        }
        Reading::NoBlock | Reading::Yaml => {}
    }
    let string = |key: &str| match front.get(key).map(|entry| &entry.value) {
        Some(Value::String(text)) => Some(text.clone()),
        _ => None,
    };
    let Some(name) = string("name") else {
        return skipped(
            shown,
            "no `name` string in its frontmatter".into(),
            diagnostics,
        );
    };
    let description = string("description").filter(|text| !text.is_empty());
    let Some(description) = description else {
        let mut agent = skipped(
            shown,
            "no non-empty `description` string in its frontmatter".into(),
            diagnostics,
        );
        agent.name = Some(name);
        return agent;
    };
    let list = |key: &str| front.get(key).map(|entry| tool_list(&entry.value));
    Subagent {
        name: Some(name),
        description: Some(description),
        tools: list("tools"),
        disallowed_tools: list("disallowedTools"),
        model: string("model"),
        path: shown,
        scope,
        fate: SubagentFate::Listed,
        reason: None,
    }
}

/// A `tools` value as names: a list's strings, or a string's
/// comma-separated names, trimmed, empty ones dropped.
fn tool_list(value: &Value) -> Vec<String> {
    let names: Vec<&str> = match value {
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        Value::String(text) => text.split(',').collect(),
        _ => Vec::new(),
    };
    names
        .into_iter()
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect()
}

/// Marks every listed agent whose name an earlier one took as shadowed,
/// and says which listed agents replace a built-in.
fn settle_clashes(out: &mut Subagents) {
    let mut winners: Vec<(String, String)> = Vec::new();
    for agent in &mut out.found {
        let (SubagentFate::Listed, Some(name)) = (agent.fate, &agent.name) else {
            continue;
        };
        if let Some((_, path)) = winners.iter().find(|(taken, _)| taken == name) {
            agent.fate = SubagentFate::Shadowed;
            agent.reason = Some(format!("{path} of the same name wins"));
            continue;
        }
        if BUILT_IN.contains(&name.as_str()) {
            out.diagnostics.push(Diagnostic::new(
                Severity::Info,
                Some(agent.path.clone()),
                format!("subagent {name:?} replaces Claude Code's built-in agent of that name"),
            ));
        }
        winners.push((name.clone(), agent.path.clone()));
    }
}

/// `(Tools: T)`'s `T` for an agent (see the module docs).
fn tools_phrase(agent: &Subagent) -> String {
    let all = |tools: &[String]| tools.is_empty() || tools.iter().any(|tool| tool == "*");
    match (&agent.tools, &agent.disallowed_tools) {
        (Some(tools), Some(denied)) if !all(tools) => tools
            .iter()
            .filter(|tool| !denied.contains(tool))
            .cloned()
            .collect::<Vec<_>>()
            .join(", "),
        (Some(tools), None) if !all(tools) => tools.join(", "),
        (_, Some(denied)) if !denied.is_empty() => {
            format!("All tools except {}", denied.join(", "))
        }
        _ => "All tools".to_string(),
    }
}

/// The listing message of the listed agents, sorted by name.
fn listing(found: &[Subagent]) -> Option<ProfileMessage> {
    let mut listed: Vec<(&Subagent, String)> = found
        .iter()
        .filter(|agent| agent.fate == SubagentFate::Listed)
        .filter_map(|agent| {
            let name = agent.name.as_deref()?;
            let description = agent.description.as_deref()?;
            let line = format!("- {name}: {description} (Tools: {})", tools_phrase(agent));
            Some((agent, line))
        })
        .collect();
    let key = |agent: &Subagent| {
        let name = agent.name.clone().unwrap_or_default();
        (name.to_lowercase(), name)
    };
    listed.sort_by_key(|(agent, _)| key(agent));
    listing_message(listed, "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(tools: Option<&[&str]>, denied: Option<&[&str]>) -> Subagent {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        Subagent {
            tools: tools.map(names),
            disallowed_tools: denied.map(names),
            ..Subagent::unread(String::new(), Scope::Project, SubagentFate::Listed, None)
        }
    }

    #[test]
    fn the_tools_phrase_follows_the_observed_cases() {
        assert_eq!(tools_phrase(&agent(None, None)), "All tools");
        assert_eq!(tools_phrase(&agent(Some(&[]), None)), "All tools");
        assert_eq!(tools_phrase(&agent(Some(&["*"]), None)), "All tools");
        assert_eq!(
            tools_phrase(&agent(Some(&["Read", "Grep"]), None)),
            "Read, Grep"
        );
        assert_eq!(
            tools_phrase(&agent(None, Some(&["Bash"]))),
            "All tools except Bash"
        );
        assert_eq!(
            tools_phrase(&agent(Some(&["Read", "Grep", "Bash"]), Some(&["Bash"]))),
            "Read, Grep"
        );
    }

    #[test]
    fn a_comma_string_is_a_list_of_tools() {
        assert_eq!(
            tool_list(&Value::String("Read,  Grep ,".into())),
            ["Read", "Grep"]
        );
    }
}
