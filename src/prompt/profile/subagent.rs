//! The subagents a profile lists to the model (SPEC §19.2, §19.7): one
//! vocabulary for every agent that reads subagent files, the `"subagents"`
//! array of `assemble`'s JSON.

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::profile::{Part, PartKind, ProfileMessage};
use crate::prompt::text::decode_lossy;
use crate::prompt::turn0::{Provenance, Role};
use crate::prompt::walk::Scope;
use crate::workspace::Workspace;

/// What became of a subagent file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum SubagentFate {
    /// Listed to the model.
    Listed,
    /// Another file of the same name won (`reason` names it).
    Shadowed,
    /// Not a subagent to the agent (`reason` says why).
    Skipped,
    /// A project file trust withheld: never read.
    Withheld,
}

/// One subagent file a profile found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Subagent {
    /// Its `name:` (`null` when it has none or was not read).
    pub name: Option<String>,
    /// Its `description:`, raw (`null` when absent or not read).
    pub description: Option<String>,
    /// Its `tools`, as written (`null` when absent).
    pub tools: Option<Vec<String>>,
    /// Its `disallowedTools`, as written (`null` when absent).
    pub disallowed_tools: Option<Vec<String>>,
    /// Its `model` (`null` when absent).
    pub model: Option<String>,
    /// The file, named like a part's path.
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// What became of it.
    pub fate: SubagentFate,
    /// Why it was shadowed, skipped or withheld (`null` when listed).
    pub reason: Option<String>,
}

/// The text of the subagent file `rel` (decoded lossily), or why it could
/// not be read: larger than [`limits::MAX_COMMAND_FILE_BYTES`], or a read
/// error. Every profile's subagent reader starts here.
pub fn read_text(reader: &dyn Workspace, rel: &str) -> Result<String, String> {
    match reader.read(rel, limits::MAX_COMMAND_FILE_BYTES) {
        Ok(read) if read.is_truncated() => Err(format!(
            "over {} bytes ({} bytes)",
            limits::MAX_COMMAND_FILE_BYTES,
            read.size
        )),
        Ok(read) => Ok(decode_lossy(&read.bytes).into_owned()),
        Err(err) => Err(format!("cannot be read: {err}")),
    }
}

impl Subagent {
    /// An entry for a file whose content was not read (withheld, or
    /// skipped before its keys were known).
    pub fn unread(path: String, scope: Scope, fate: SubagentFate, reason: Option<String>) -> Self {
        Subagent {
            name: None,
            description: None,
            tools: None,
            disallowed_tools: None,
            model: None,
            path,
            scope,
            fate,
            reason,
        }
    }

    /// A file the agent does not list, for `reason`: `warning` goes to
    /// `said` on its path, and the entry keeps the reason.
    pub fn skipped(
        path: String,
        scope: Scope,
        reason: String,
        warning: String,
        said: &mut Vec<Diagnostic>,
    ) -> Self {
        said.push(Diagnostic::warning(path.clone(), warning));
        Subagent::unread(path, scope, SubagentFate::Skipped, Some(reason))
    }
}

/// The listing of `lines` (each agent with its line as the agent sends
/// it, already in the agent's order) as one system message of provenance
/// `agents`, one part per agent, the lines joined by `separator`; `None`
/// when nothing is listed.
pub fn listing_message(lines: Vec<(&Subagent, String)>, separator: &str) -> Option<ProfileMessage> {
    if lines.is_empty() {
        return None;
    }
    let text = lines
        .iter()
        .map(|(_, line)| line.as_str())
        .collect::<Vec<_>>()
        .join(separator);
    let parts = lines
        .into_iter()
        .map(|(agent, line)| {
            Part::listing_entry(&agent.path, agent.scope, PartKind::Subagent, line)
        })
        .collect();
    let mut message = ProfileMessage::with_text(Provenance::Agents, parts, text);
    message.role = Role::System;
    Some(message)
}
