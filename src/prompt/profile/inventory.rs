//! What a repository configures besides instruction files (SPEC §19.3–
//! §19.5): the output style, and MCP servers and hooks, listed with what
//! they would add — never started, never run. The `"output_style"`,
//! `"mcp_servers"` and `"hooks"` keys of `assemble`'s JSON.

use serde::Serialize;

use crate::prompt::walk::Scope;

/// How an MCP server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// A program started with arguments, spoken to over stdin and stdout.
    Stdio,
    /// A URL, over streamable HTTP.
    Http,
    /// A URL, over server-sent events.
    Sse,
}

/// One configured MCP server: listed, never started or contacted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct McpServer {
    /// Its name in the configuration.
    pub name: String,
    /// The file configuring it, named like a part's path.
    pub path: String,
    /// Where that file lies.
    pub scope: Scope,
    /// How it is reached.
    pub transport: Transport,
    /// The program a stdio server starts (`null` otherwise).
    pub command: Option<String>,
    /// Its arguments.
    pub args: Vec<String>,
    /// The URL of an HTTP or SSE server (`null` otherwise).
    pub url: Option<String>,
    /// The names of its `env` variables and `headers` (their values are
    /// never printed).
    pub env_keys: Vec<String>,
    /// Whether the agent would start it.
    pub enabled: bool,
    /// Why it would, or would not.
    pub why: String,
    /// Always `false`: the preview never starts a server.
    pub run: bool,
    /// What it would add to turn 0, in one sentence.
    pub would_add: String,
}

/// The output style a profile's settings select (SPEC §19.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct OutputStyle {
    /// The style's name.
    pub name: String,
    /// The style file, named like a part's path.
    pub path: String,
    /// Where that file lies.
    pub scope: Scope,
    /// The settings file selecting it.
    pub selected_by: String,
    /// The part sent (`# Output Style: NAME` and the body).
    pub content: String,
}

/// One configured command hook: listed, never run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Hook {
    /// The event it runs on (`SessionStart`, `UserPromptSubmit`, …).
    pub event: String,
    /// Its matcher, as written (`null` when absent).
    pub matcher: Option<String>,
    /// The command it would run.
    pub command: String,
    /// The settings file configuring it, named like a part's path.
    pub path: String,
    /// Where that file lies.
    pub scope: Scope,
    /// Always `false`: the preview never runs a hook.
    pub run: bool,
    /// What it would add to turn 0, in one sentence.
    pub would_add: String,
}
