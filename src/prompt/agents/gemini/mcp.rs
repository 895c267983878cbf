//! Gemini CLI's MCP servers (SPEC §19.4): the `mcpServers` of the user's
//! `~/.gemini/settings.json` and of the cwd's `.gemini/settings.json` —
//! listed by name, file, transport and command or URL, **never started,
//! never contacted**; `env` and `headers` give their keys only.
//!
//! - `enabled`: Gemini CLI connects to every configured server at start,
//!   except names in `mcp.excluded` and, when `mcp.allowed` is set, names
//!   not in it.
//! - What a server would add: its instructions in the first user message,
//!   between `---[start of server instructions]---` and
//!   `---[end of server instructions]---`, and, only when its `trust` is
//!   `true`, its tools declared as `mcp_NAME_TOOL` with their schemas.
//!   Each enabled server is a warning saying it was not run.
//!
//! Observed with Gemini CLI 0.61.0 (`tests/oracle/cases/gemini-mcp/`):
//! `gemini -p` starts the servers before the first request; the
//! instructions of every started server come in configuration order; a
//! server without `trust: true` gives its instructions but no tool
//! declaration; a server that fails to start and a name in `mcp.excluded`
//! add nothing (no failure line).
//!
//! Choices the spec leaves open:
//! - A name both files configure is the project's (Gemini merges the
//!   files, the project's entry replacing the user's); the user's entry
//!   is listed, not enabled, saying so.
//! - `mcp.excluded` of both files counts; `mcp.allowed` is the project's
//!   when it sets one, else the user's.
//! - The transport is `type` when given, else `stdio` with a `command`,
//!   `http` with `httpUrl`, `sse` with `url`.

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::prompt::agents::gemini::settings::McpSettings;
use crate::prompt::profile::Scope;
use crate::prompt::profile::inventory::{
    McpServer, ServerEntry, ServerKeys, Transport, not_run_warnings, server_unusable,
};

/// How Gemini's settings name a server's parts.
pub(super) const KEYS: ServerKeys = ServerKeys {
    urls: &[("httpUrl", Transport::Http), ("url", Transport::Sse)],
    secrets: &["env", "headers"],
};

/// One settings file's MCP keys, named as displayed, with its scope.
pub(super) struct McpFile<'a> {
    /// What it says.
    pub mcp: &'a McpSettings,
    /// The file, as displayed.
    pub path: String,
    /// `user` or `project`.
    pub scope: Scope,
}

/// Gemini's servers of `files` (the user's, then the project's) and the
/// diagnostics.
pub(super) fn mcp_servers(files: &[McpFile<'_>]) -> (Vec<McpServer>, Vec<Diagnostic>) {
    let mut servers = Vec::new();
    let mut diagnostics = Vec::new();
    let excluded: Vec<(&str, &str)> = files
        .iter()
        .flat_map(|file| {
            file.mcp
                .excluded
                .iter()
                .map(|name| (name.as_str(), file.path.as_str()))
        })
        .collect();
    let allowed = files.iter().rev().find_map(|file| {
        file.mcp
            .allowed
            .as_ref()
            .map(|names| (names, file.path.as_str()))
    });
    for (index, file) in files.iter().enumerate() {
        for (name, server) in &file.mcp.servers {
            let Some(entry) = ServerEntry::read(server, &KEYS) else {
                diagnostics.push(server_unusable(&file.path, name));
                continue;
            };
            let replaced = files[index + 1..]
                .iter()
                .find(|later| later.mcp.servers.iter().any(|(other, _)| other == name));
            let state = if let Some(later) = replaced {
                (
                    false,
                    format!("{} configures the same name and wins", later.path),
                )
            } else if let Some((_, by)) = excluded.iter().find(|(off, _)| off == name) {
                (false, format!("mcp.excluded in {by}"))
            } else if let Some((_, by)) = allowed.filter(|(names, _)| !names.contains(name)) {
                (false, format!("not in mcp.allowed of {by}"))
            } else {
                (
                    true,
                    "Gemini CLI connects to every configured MCP server at start".to_string(),
                )
            };
            let tools = if server.get("trust").and_then(Value::as_bool) == Some(true) {
                format!("its tools declared as mcp_{name}_TOOL with their schemas")
            } else {
                "no tool declaration (gemini -p declares a server's tools only with \
                 `trust: true`)"
                    .to_string()
            };
            let would_add = format!(
                "its instructions in the first user message, between \
                 `---[start of server instructions]---` and `---[end of server instructions]---`, \
                 and {tools}; nothing if it fails to start: not run"
            );
            servers.push(entry.server(name, (&file.path, file.scope), state, would_add));
        }
    }
    diagnostics.extend(not_run_warnings(&servers));
    (servers, diagnostics)
}
