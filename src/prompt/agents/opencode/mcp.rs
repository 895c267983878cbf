//! opencode's MCP servers (SPEC §19.4): the `mcp` object of its merged
//! configs, listed by name, config, transport and command or URL — **never
//! started, never contacted**. `environment` and `headers` values are never
//! read into the output: only their keys.
//!
//! - `enabled`: opencode starts every server whose `enabled` is not
//!   `false`; each enabled one is a warning saying it was not run.
//! - What a server would add: each of its tools, with its full input
//!   schema, among the request's tools, and its instructions as
//!   `<server name="NAME">` under `<mcp_instructions>` in the system
//!   message.
//!
//! Observed with opencode 1.18.33 (`tests/oracle/cases/opencode-mcp/`):
//! `opencode run` starts a `local` server before the first request; its
//! tools are sent as `NAME_TOOL` with their input schema (opencode adds
//! `additionalProperties: false`); its instructions come in
//! `<mcp_instructions>` after the `<env>` block; a server that fails to
//! start and one with `enabled: false` add nothing (no failure line).
//!
//! Choices the spec leaves open:
//! - A server's `type` decides the transport: `local` is `stdio` (its
//!   `command` list is the program and its arguments), `remote` is `http`
//!   (opencode tries streamable HTTP, then SSE). Anything else is skipped
//!   with a warning.
//! - Servers are listed in config merge order and each config's order; a
//!   name a later config sets again replaces the earlier entry in place
//!   (opencode merges the objects).

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::prompt::agents::opencode::config::Parsed;
use crate::prompt::profile::inventory::{McpServer, ServerEntry, Transport};

/// The servers of `configs`, and what was said about them.
pub fn servers(configs: &[Parsed]) -> (Vec<McpServer>, Vec<Diagnostic>) {
    let mut servers: Vec<McpServer> = Vec::new();
    let mut said = Vec::new();
    for config in configs {
        let Some(mcp) = config.value.get("mcp") else {
            continue;
        };
        let Some(mcp) = mcp.as_object() else {
            said.push(Diagnostic::warning(
                &config.shown,
                "`mcp` is not an object: opencode's schema rejects it; ignored",
            ));
            continue;
        };
        for (name, entry) in mcp {
            let Some(server) = server(name, entry, config) else {
                said.push(Diagnostic::warning(
                    &config.shown,
                    format!(
                        "MCP server {name}: neither a `local` server with a `command` list nor a \
                         `remote` one with a `url`; not listed"
                    ),
                ));
                continue;
            };
            match servers.iter_mut().find(|s| s.name == *name) {
                Some(earlier) => *earlier = server,
                None => servers.push(server),
            }
        }
    }
    for server in servers.iter().filter(|s| s.enabled) {
        said.push(Diagnostic::warning(
            &server.path,
            format!(
                "{}: configured MCP server, not run (would add {})",
                server.name, server.would_add
            ),
        ));
    }
    (servers, said)
}

/// The keys of an object-valued `key` of `entry`, in order.
fn keys(entry: &Map<String, Value>, key: &str) -> Vec<String> {
    entry
        .get(key)
        .and_then(Value::as_object)
        .map(|map| map.keys().cloned().collect())
        .unwrap_or_default()
}

/// One server entry as opencode's `mcp` object writes it, or `None` when
/// it is neither kind.
pub fn entry(entry: &Value) -> Option<ServerEntry> {
    let entry = entry.as_object()?;
    Some(match entry.get("type")?.as_str()? {
        "local" => {
            let words: Vec<String> = entry
                .get("command")?
                .as_array()?
                .iter()
                .map(|w| w.as_str().map(str::to_string))
                .collect::<Option<_>>()?;
            let (program, args) = words.split_first()?;
            ServerEntry {
                transport: Transport::Stdio,
                command: Some(program.clone()),
                args: args.to_vec(),
                url: None,
                env_keys: keys(entry, "environment"),
            }
        }
        "remote" => ServerEntry {
            transport: Transport::Http,
            command: None,
            args: Vec::new(),
            url: Some(entry.get("url")?.as_str()?.to_string()),
            env_keys: keys(entry, "headers"),
        },
        _ => return None,
    })
}

/// Whether opencode starts the server entry `value`: its `enabled` is not
/// `false`.
pub fn enabled(value: &Value) -> bool {
    value.get("enabled").and_then(Value::as_bool) != Some(false)
}

/// One server as listed, or `None` when it is neither kind.
fn server(name: &str, value: &Value, config: &Parsed) -> Option<McpServer> {
    let listed = entry(value)?;
    let enabled = enabled(value);
    let why = if enabled {
        "opencode starts every configured server whose `enabled` is not false".to_string()
    } else {
        "`enabled: false`".to_string()
    };
    let would_add = format!(
        "each of its tools, as {name}_TOOL with its full input schema, to the request's tools, \
         and its instructions as `<server name=\"{name}\">` under `<mcp_instructions>` in the \
         system message; nothing if it fails to start; not run"
    );
    Some(listed.server(
        name,
        (&config.shown, config.scope),
        (enabled, why),
        would_add,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::walk::Scope;

    #[test]
    fn servers_are_listed_with_keys_only_and_never_run() {
        let value = serde_json::json!({"mcp": {
            "db": {"type": "local", "command": ["db-mcp", "--ro"], "environment": {"TOKEN": "s3cret"}},
            "web": {"type": "remote", "url": "https://x", "headers": {"Authorization": "Bearer s"},
                    "enabled": false},
            "odd": {"type": "other"}
        }});
        let config = Parsed {
            shown: "opencode.json".into(),
            scope: Scope::Project,
            value,
        };
        let (servers, said) = servers(&[config]);
        assert_eq!(servers.len(), 2);
        assert_eq!(servers[0].command.as_deref(), Some("db-mcp"));
        assert_eq!(servers[0].args, ["--ro"]);
        assert_eq!(servers[0].env_keys, ["TOKEN"]);
        assert!(servers[0].enabled && !servers[1].enabled);
        assert_eq!(servers[1].transport, Transport::Http);
        let text = format!("{servers:?}{said:?}");
        assert!(!text.contains("s3cret") && !text.contains("Bearer"));
        assert_eq!(
            said.iter().filter(|d| d.reason.contains("not run")).count(),
            1
        );
    }
}
