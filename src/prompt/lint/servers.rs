//! The turn-0 inventory's lint note (SPEC §19.7): a project file that
//! configures an MCP server is a note (MP027) naming the command or URL
//! the agent would start or contact, so a reviewer sees it before anyone
//! opens the repository with that agent. The agents' lint hooks find the
//! files (`.mcp.json`, `.codex/config.toml`, `.gemini/settings.json`,
//! `opencode.json`) and hand each server here; nothing is started.

use serde_json::Value;

use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Out, quote};
use crate::prompt::profile::Agent;
use crate::prompt::profile::inventory::{ServerEntry, ServerKeys};

/// MP027 for each server of `servers` (name and configuration) that the
/// project file `path` configures for `agent` (its title for sentences).
pub fn project_servers<'a>(
    out: &mut Out,
    path: &str,
    servers: impl IntoIterator<Item = (&'a String, &'a Value)>,
    keys: &ServerKeys,
    (agent, title): (Agent, &str),
) {
    for (name, server) in servers {
        if let Some(entry) = ServerEntry::read(server, keys) {
            project_server(out, path, name, &entry, (agent, title));
        }
    }
}

/// MP027 for the server `name` the project file `path` configures for
/// `agent` (its title for sentences), as `entry` describes it.
pub fn project_server(
    out: &mut Out,
    path: &str,
    name: &str,
    entry: &ServerEntry,
    (agent, title): (Agent, &str),
) {
    let target = match (&entry.command, &entry.url) {
        (Some(command), _) => {
            let line = std::iter::once(command).chain(&entry.args);
            format!(
                "runs `{}`",
                quote(&line.cloned().collect::<Vec<_>>().join(" "))
            )
        }
        (None, Some(url)) => format!("contacts {}", quote(url)),
        (None, None) => return,
    };
    out.add(
        Code::ProjectMcpServer,
        path,
        None,
        vec![agent],
        format!(
            "MCP server {name:?}: {title} {target} when it starts in this repository \
             (the preview never does)"
        ),
    );
}
