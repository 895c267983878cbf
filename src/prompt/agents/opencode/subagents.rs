//! opencode's subagents (SPEC §19.7), as observed with opencode 1.18.33
//! (recorded case `tests/oracle/cases/opencode-commands/subagents`):
//! - Files: every `.md` below `agent/` and `agents/` of opencode's
//!   directories, read in the commands' order (its config directory, the
//!   walk's `.opencode` from the cwd up, `~/.opencode`), the later winning
//!   a name (the root's beats the cwd's). The name is the path below that
//!   directory without `.md` (`agent/sub/deep.md` is `sub/deep`).
//! - A `mode: primary` agent is not a subagent (`skipped`); `hidden: true`
//!   does not keep one out of the listing.
//! - The listing, in the description of opencode's `task` tool:
//!   `- NAME: DESCRIPTION` per subagent, sorted like `localeCompare`, the
//!   description raw; without one, opencode's sentence
//!   [`NO_DESCRIPTION`].
//!
//! Choices the spec leaves open:
//! - The preview's message (role `system`, provenance `agents`) holds the
//!   repository's lines only, joined by `\n`: opencode's built-in agents
//!   (`explore`, `general`) and the rest of the tool's description are not
//!   reproduced.
//! - A frontmatter that does not parse is a warning and the file is
//!   `skipped`; past [`limits::MAX_OPENCODE_SUBAGENTS`] files the rest are
//!   not read (a warning).

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::opencode::collate::locale_compare;
use crate::prompt::agents::opencode::commands::{Place, front};
use crate::prompt::profile::{
    NotLoaded, NotLoadedReason, Part, PartKind, ProfileMessage, Subagent, SubagentFate,
};
use crate::prompt::tiers::walk_tree;
use crate::prompt::turn0::{Provenance, Role};
use crate::workspace::EntryKind;

/// The subagent directories below a `.opencode` or config directory.
pub const AGENT_DIRS: [&str; 2] = ["agent", "agents"];

/// What opencode lists for a subagent without a description.
pub const NO_DESCRIPTION: &str = "This subagent should only be called manually by the user.";

/// The subagents of `places`, what trust withheld, and what was said.
pub fn load(
    places: &[Place<'_>],
    trusted: bool,
) -> (Vec<Subagent>, Vec<NotLoaded>, Vec<Diagnostic>) {
    let mut found: Vec<Subagent> = Vec::new();
    let mut withheld = Vec::new();
    let mut said = Vec::new();
    'places: for place in places {
        if !matches!(place.reader.stat(&place.rel), Ok(EntryKind::Dir)) {
            continue;
        }
        if place.scope.is_gated() && !trusted {
            withheld.push(NotLoaded {
                path: place.reader.display(&place.rel),
                scope: place.scope,
                reason: NotLoadedReason::Withheld,
            });
            continue;
        }
        let prefix = format!("{}/", place.rel.trim_end_matches('/'));
        let tree = walk_tree(place.reader, &place.rel, false);
        for rel in tree.files.iter().filter(|f| f.ends_with(".md")) {
            if found.len() == limits::MAX_OPENCODE_SUBAGENTS {
                said.push(Diagnostic::warning(
                    place.reader.display(&place.rel),
                    format!(
                        "more than {} subagent files in all: the rest are not read",
                        limits::MAX_OPENCODE_SUBAGENTS
                    ),
                ));
                break 'places;
            }
            let under = rel.strip_prefix(&prefix).unwrap_or(rel);
            let name = under[..under.len() - ".md".len()].to_string();
            let path = place.reader.display(rel);
            let mut agent = Subagent {
                name: Some(name),
                description: None,
                tools: None,
                disallowed_tools: None,
                model: None,
                path,
                scope: place.scope,
                fate: SubagentFate::Listed,
                reason: None,
            };
            let text = match place.reader.read(rel, limits::MAX_COMMAND_FILE_BYTES) {
                Ok(read) if !read.is_truncated() => {
                    String::from_utf8_lossy(&read.bytes).into_owned()
                }
                Ok(_) => {
                    skip(&mut agent, &mut said, "too large to read");
                    found.push(agent);
                    continue;
                }
                Err(err) => {
                    skip(&mut agent, &mut said, &format!("not read: {err}"));
                    found.push(agent);
                    continue;
                }
            };
            let Some((keys, _)) = front(&text, &agent.path, &mut said) else {
                agent.fate = SubagentFate::Skipped;
                agent.reason = Some("its frontmatter does not parse".to_string());
                found.push(agent);
                continue;
            };
            let keys = keys.unwrap_or_default();
            let text_of = |key: &str| keys.get(key).and_then(Value::as_str).map(str::to_string);
            agent.description = text_of("description");
            agent.model = text_of("model");
            if text_of("mode").as_deref() == Some("primary") {
                agent.fate = SubagentFate::Skipped;
                agent.reason = Some("mode: primary (not a subagent)".to_string());
            }
            found.push(agent);
        }
    }
    settle(&mut found);
    (found, withheld, said)
}

/// Marks a file skipped with a warning.
fn skip(agent: &mut Subagent, said: &mut Vec<Diagnostic>, why: &str) {
    said.push(Diagnostic::warning(&agent.path, why));
    agent.fate = SubagentFate::Skipped;
    agent.reason = Some(why.to_string());
}

/// The later file of a name wins; the listed ones come first, sorted.
fn settle(found: &mut [Subagent]) {
    for i in 0..found.len() {
        if found[i].fate != SubagentFate::Listed {
            continue;
        }
        let later = found[i + 1..]
            .iter()
            .rev()
            .find(|a| a.name == found[i].name && a.fate == SubagentFate::Listed)
            .map(|a| a.path.clone());
        if let Some(by) = later {
            found[i].fate = SubagentFate::Shadowed;
            found[i].reason = Some(format!("{by} has the same name and is read later"));
        }
    }
    found.sort_by(|a, b| {
        (a.fate != SubagentFate::Listed)
            .cmp(&(b.fate != SubagentFate::Listed))
            .then_with(|| {
                locale_compare(
                    a.name.as_deref().unwrap_or_default(),
                    b.name.as_deref().unwrap_or_default(),
                )
            })
    });
}

/// The listing message of the listed subagents, or `None`.
pub fn message(agents: &[Subagent]) -> Option<ProfileMessage> {
    let parts: Vec<Part> = agents
        .iter()
        .filter(|a| a.fate == SubagentFate::Listed)
        .map(|a| {
            let line = format!(
                "- {}: {}",
                a.name.as_deref().unwrap_or_default(),
                a.description.as_deref().unwrap_or(NO_DESCRIPTION)
            );
            Part::listing_entry(&a.path, a.scope, PartKind::Subagent, line)
        })
        .collect();
    if parts.is_empty() {
        return None;
    }
    let lines: Vec<&str> = parts.iter().map(|p| p.content.as_str()).collect();
    let text = lines.join("\n");
    let mut message = ProfileMessage::with_text(Provenance::Agents, parts, text);
    message.role = Role::System;
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::walk::Scope;
    use crate::workspace::{MemWorkspace, Workspace};

    #[test]
    fn names_are_paths_and_the_later_wins() {
        let ws = MemWorkspace::new()
            .file("a/.opencode/agents/dup.md", "---\ndescription: near\n---\n")
            .file(".opencode/agent/dup.md", "---\ndescription: root\n---\n")
            .file(".opencode/agent/sub/deep.md", "---\ndescription: d\n---\n")
            .file(".opencode/agent/bare.md", "no frontmatter\n")
            .file(".opencode/agent/prim.md", "---\nmode: primary\n---\n");
        let reader: &dyn Workspace = &ws;
        let place = |rel: &str| Place {
            reader,
            rel: rel.to_string(),
            scope: Scope::Project,
        };
        let places = [place("a/.opencode/agents"), place(".opencode/agent")];
        let (agents, _, _) = load(&places, true);
        let text = message(&agents).map(|m| m.text).unwrap_or_default();
        assert_eq!(
            text,
            format!("- bare: {NO_DESCRIPTION}\n- dup: root\n- sub/deep: d")
        );
        assert!(agents.iter().any(|a| a.fate == SubagentFate::Shadowed));
        assert!(agents.iter().any(|a| a.fate == SubagentFate::Skipped));
    }
}
