//! Claude Code's MCP servers (SPEC §19.4): the `mcpServers` of the
//! `.mcp.json` files of the cwd and its ancestors inside the workspace,
//! listed by name, file, transport and command or URL — **never started,
//! never contacted**. `env` and `headers` values are never read into the
//! output: only their keys.
//!
//! - `enabled`: `claude -p` starts every server of those files except the
//!   names in `disabledMcpjsonServers` of the user's settings or the cwd's
//!   `.claude/settings.json` or `.claude/settings.local.json`;
//!   interactive Claude Code asks first (one info line says so).
//! - What a server would add: the names `mcp__NAME__TOOL` of its tools in
//!   the deferred-tools list (no schemas) and its instructions as
//!   `## NAME\nINSTRUCTIONS` under `# MCP Server Instructions` (after the
//!   agents listing, before the skills listing) — or, when it fails to
//!   start, a line `NAME (ERROR): MESSAGE` in the failed-to-connect list
//!   after the deferred tools. Each enabled server is a warning saying it
//!   was not run.
//! - `.mcp.json` is a project file: trust-gated (untrusted: withheld,
//!   never read), confined, capped at [`limits::MAX_CLAUDE_SETTINGS_BYTES`]
//!   (over it: skipped with a warning); a file that is not a JSON object
//!   is a warning with the line and column.
//!
//! Observed with Claude Code 2.1.328 (`tests/oracle/cases/claude-mcp/`):
//! `claude -p` starts a `.mcp.json` stdio server before the first request;
//! its tools are listed by name only (none in the request's `tools`); a
//! server named in `disabledMcpjsonServers` is neither started nor listed
//! as failed, whichever of the user's, the project's and the local settings
//! names it; a command that does not exist is `NAME (ENOENT): …`.
//!
//! Choices the spec leaves open:
//! - `disabledMcpjsonServers` of every settings file counts (their union):
//!   a later file's list does not re-enable a name an earlier one disables.
//! - Files are listed from the workspace root down to the cwd, and servers
//!   in each file's order; a name two files configure is listed twice.
//! - The transport is the server's `type` when it is `stdio`, `http` or
//!   `sse`; else `stdio` with a `command`, `http` with a `url`. A server
//!   with neither is skipped with a warning.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::claude::settings::{ClaudeSettings, read_json_object};
use crate::prompt::profile::inventory::{
    McpServer, ServerEntry, ServerKeys, Transport, not_run_warnings, server_unusable,
};
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Scope};
use crate::prompt::walk::WalkDir;

/// The file configuring a project's MCP servers.
pub(crate) const MCP_JSON: &str = ".mcp.json";

/// The servers found, with what was withheld and the diagnostics.
#[derive(Debug, Default)]
pub(crate) struct McpServers {
    /// Every server, in order.
    pub servers: Vec<McpServer>,
    /// Files trust withheld.
    pub not_loaded: Vec<NotLoaded>,
    /// Warnings and infos.
    pub diagnostics: Vec<Diagnostic>,
}

/// The MCP servers of the project directories of `walked` (root first).
pub(crate) fn mcp_servers(
    walked: &[WalkDir<'_>],
    settings: &ClaudeSettings,
    trusted: bool,
) -> McpServers {
    let mut out = McpServers::default();
    let disabled = disabled_names(settings);
    for dir in walked.iter().filter(|dir| dir.scope == Scope::Project) {
        let rel = dir.rel(MCP_JSON);
        if !trusted {
            if dir.reader.stat(&rel).is_ok() {
                out.not_loaded.push(NotLoaded {
                    path: dir.reader.display(&rel),
                    scope: Scope::Project,
                    reason: NotLoadedReason::Withheld,
                });
            }
            continue;
        }
        let file = match read_json_object(dir.reader, &rel, limits::MAX_CLAUDE_SETTINGS_BYTES) {
            Ok(Some(file)) => file,
            Ok(None) => continue,
            Err(diagnostic) => {
                out.diagnostics.push(diagnostic);
                continue;
            }
        };
        let path = dir.reader.display(&rel);
        let Some(Value::Object(servers)) = file.get("mcpServers") else {
            continue;
        };
        for (name, server) in servers {
            match server_of(name, server, &path, &disabled) {
                Some(server) => out.servers.push(server),
                None => out.diagnostics.push(server_unusable(&path, name)),
            }
        }
    }
    let warnings: Vec<Diagnostic> = not_run_warnings(&out.servers).collect();
    out.diagnostics.extend(warnings);
    if !out.servers.is_empty() {
        out.diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            "interactive Claude Code asks before starting a project's MCP servers \
             (enableAllProjectMcpServers and enabledMcpjsonServers decide there); \
             claude -p starts them without asking",
        ));
    }
    out
}

/// The names `disabledMcpjsonServers` of any settings file (the user's,
/// the project's, the local one) turns off, with the file saying so.
fn disabled_names(settings: &ClaudeSettings) -> Vec<(String, String)> {
    settings
        .files
        .iter()
        .flat_map(|file| {
            let names = file
                .value
                .get("disabledMcpjsonServers")
                .and_then(Value::as_array);
            names
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|name| (name.to_string(), file.path.clone()))
        })
        .collect()
}

/// How `.mcp.json` names a server's parts.
pub(crate) const KEYS: ServerKeys = ServerKeys {
    urls: &[("url", Transport::Http)],
    secrets: &["env", "headers"],
};

/// One server's entry; `None` when it has neither a command nor a URL.
fn server_of(
    name: &str,
    server: &Value,
    path: &str,
    disabled: &[(String, String)],
) -> Option<McpServer> {
    let entry = ServerEntry::read(server, &KEYS)?;
    let (enabled, why) = match disabled.iter().find(|(off, _)| off == name) {
        Some((_, file)) => (false, format!("disabledMcpjsonServers in {file}")),
        None => (
            true,
            "claude -p starts every server of .mcp.json not disabled in the settings".to_string(),
        ),
    };
    let would_add = format!(
        "the names mcp__{name}__TOOL of its tools to the deferred-tools list (no schemas) \
         and its instructions as `## {name}` under `# MCP Server Instructions`, or, if it \
         fails to start, a line `{name} (ERROR): MESSAGE` in the failed-to-connect list: \
         not run"
    );
    Some(entry.server(name, (path, Scope::Project), (enabled, why), would_add))
}
