//! The subagents a profile lists to the model (SPEC §19.2, §19.7): one
//! vocabulary for every agent that reads subagent files, the `"subagents"`
//! array of `assemble`'s JSON.

use serde::Serialize;

use crate::prompt::walk::Scope;

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
