//! What a repository configures besides instruction files (SPEC §19.3–
//! §19.5): the output style, and MCP servers and hooks, listed with what
//! they would add — never started, never run. The `"output_style"`,
//! `"mcp_servers"` and `"hooks"` keys of `assemble`'s JSON.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
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

/// How an agent's configuration names a server's parts: the keys holding
/// a URL (with the transport each means) and the keys whose entries are
/// secrets (only their names are kept).
#[derive(Debug, Clone, Copy)]
pub struct ServerKeys {
    /// URL keys, in the order they are tried.
    pub urls: &'static [(&'static str, Transport)],
    /// Keys of objects whose values are never printed (`env`, `headers`).
    pub secrets: &'static [&'static str],
}

/// A server as one configuration entry describes it, before the agent's
/// rules say whether it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerEntry {
    /// How it is reached.
    pub transport: Transport,
    /// The program of a stdio server.
    pub command: Option<String>,
    /// Its arguments.
    pub args: Vec<String>,
    /// The URL of an HTTP or SSE server.
    pub url: Option<String>,
    /// The names of its secret entries, in `keys.secrets` order.
    pub env_keys: Vec<String>,
}

impl ServerEntry {
    /// Reads `server` (a JSON object; TOML converted): the transport is its
    /// `type` when that is `stdio`, `http` or `sse` and the matching key is
    /// there; else `stdio` with a `command`, else the first URL key
    /// present. `None` when it has neither a command nor a URL.
    pub fn read(server: &Value, keys: &ServerKeys) -> Option<Self> {
        let text = |key: &str| server.get(key).and_then(Value::as_str).map(str::to_string);
        let command = text("command");
        let url = keys
            .urls
            .iter()
            .find_map(|(key, transport)| text(key).map(|url| (url, *transport)));
        let transport = match (text("type").as_deref(), &command, &url) {
            (Some("stdio"), Some(_), _) => Transport::Stdio,
            (Some("http"), _, Some(_)) => Transport::Http,
            (Some("sse"), _, Some(_)) => Transport::Sse,
            (_, Some(_), _) => Transport::Stdio,
            (_, None, Some((_, transport))) => *transport,
            (_, None, None) => return None,
        };
        let args = server
            .get("args")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        let env_keys = keys
            .secrets
            .iter()
            .filter_map(|key| server.get(*key).and_then(Value::as_object))
            .flat_map(Map::keys)
            .cloned()
            .collect();
        let (command, url) = match transport {
            Transport::Stdio => (command, None),
            Transport::Http | Transport::Sse => (None, url.map(|(url, _)| url)),
        };
        Some(Self {
            transport,
            command,
            args,
            url,
            env_keys,
        })
    }

    /// The listed server: `name` configured in `path` (`scope`), whether
    /// the agent would start it and why, and what it would add.
    pub fn server(
        self,
        name: &str,
        (path, scope): (&str, Scope),
        (enabled, why): (bool, String),
        would_add: String,
    ) -> McpServer {
        McpServer {
            name: name.to_string(),
            path: path.to_string(),
            scope,
            transport: self.transport,
            command: self.command,
            args: self.args,
            url: self.url,
            env_keys: self.env_keys,
            enabled,
            why,
            run: false,
            would_add,
        }
    }
}

/// The warning a server without a command or URL gets.
pub fn server_unusable(path: &str, name: &str) -> Diagnostic {
    Diagnostic::warning(
        path,
        format!("MCP server {name:?} has neither a command nor a url: skipped"),
    )
}

/// One warning per enabled server of `servers`, saying it was not run and
/// what it would add (SPEC §19.4).
pub fn not_run_warnings(servers: &[McpServer]) -> impl Iterator<Item = Diagnostic> + '_ {
    servers
        .iter()
        .filter(|server| server.enabled)
        .map(|server| {
            Diagnostic::warning(
                server.path.clone(),
                format!(
                    "{}: configured MCP server, not run (would add {})",
                    server.name, server.would_add
                ),
            )
        })
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
