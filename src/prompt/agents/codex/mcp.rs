//! Codex's MCP servers (SPEC §19.4): the `[mcp_servers.NAME]` tables of
//! `$CODEX_HOME/config.toml` (`user`), and of the project root's
//! `.codex/config.toml` when the workspace is trusted (§3.4) **and** Codex
//! trusts the project (`[projects."<root>"] trust_level = "trusted"` in the
//! user's file) — listed by name, file, transport and command or URL,
//! **never started, never contacted**; `env`, `http_headers` and
//! `env_http_headers` give their keys only.
//!
//! - `enabled`: Codex starts every server of those files at start, except
//!   one with `enabled = false`.
//! - What a server would add: a line `- mcp__NAME: INSTRUCTIONS` under
//!   `Deferred tool namespaces:` in Codex's instructions; its tools are
//!   deferred (no schema in the first request). Each enabled server is a
//!   warning saying it was not run.
//!
//! Observed with Codex CLI 0.169.0 (`tests/oracle/cases/codex-mcp/`):
//! the line comes in a developer message `<tools>\nDeferred tool
//! namespaces:\n…\n</tools>`, in `debug prompt-input` and `exec` alike; a
//! relative argument resolves from the cwd; a server that fails to start
//! and one with `enabled = false` add nothing (no failure line).
//!
//! Choices the spec leaves open:
//! - The project's root is Codex's (the nearest directory of its root
//!   markers, else the cwd), only inside the workspace; its key in
//!   `[projects]` is compared with the root's absolute path as written
//!   (no link resolved).
//! - A project file Codex does not trust is listed in `not_loaded` with
//!   that reason and an info line (Codex ignores it); its servers are
//!   not listed.
//! - The user's servers come first, then the project's, each in file
//!   order; a name both configure is listed twice.

use crate::diagnostic::Diagnostic;
use crate::prompt::agents::codex::config::{self, CONFIG_FILE, McpTables};
use crate::prompt::profile::inventory::{
    McpServer, ServerEntry, ServerKeys, Transport, not_run_warnings, server_unusable,
};
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Scope};
use crate::prompt::walk::WalkDir;
use crate::workspace::{Workspace, join};

/// The project's configuration directory.
pub(super) const DOT_CODEX: &str = ".codex";

/// How Codex's tables name a server's parts.
pub(super) const KEYS: ServerKeys = ServerKeys {
    urls: &[("url", Transport::Http)],
    secrets: &["env", "http_headers", "env_http_headers"],
};

/// The servers found, what was left out, and the diagnostics.
#[derive(Debug, Default)]
pub(super) struct McpServers {
    /// Every server, in order.
    pub servers: Vec<McpServer>,
    /// The project file trust withheld or Codex does not trust.
    pub not_loaded: Vec<NotLoaded>,
    /// Warnings and infos.
    pub diagnostics: Vec<Diagnostic>,
}

/// Codex's servers: `user` is what `$CODEX_HOME/config.toml` says (with
/// `codex_home` to name it), `root` the project root's directory.
pub(super) fn mcp_servers(
    user: (&McpTables, Option<&dyn Workspace>),
    root: Option<&WalkDir<'_>>,
    trusted: bool,
) -> McpServers {
    let (tables, codex_home) = user;
    let mut out = McpServers::default();
    if let Some(home) = codex_home {
        add(&mut out, tables, (&home.display(CONFIG_FILE), Scope::User));
    }
    if let Some(root) = root.filter(|root| root.scope == Scope::Project) {
        project(&mut out, tables, root, trusted);
    }
    let warnings: Vec<Diagnostic> = not_run_warnings(&out.servers).collect();
    out.diagnostics.extend(warnings);
    out
}

/// The project root's `.codex/config.toml`, when both trusts allow it.
fn project(out: &mut McpServers, user: &McpTables, root: &WalkDir<'_>, trusted: bool) {
    let rel = root.rel(&join(DOT_CODEX, CONFIG_FILE));
    if root.reader.stat(&rel).is_err() {
        return;
    }
    let shown = root.reader.display(&rel);
    if !trusted {
        out.not_loaded.push(NotLoaded {
            path: shown,
            scope: Scope::Project,
            reason: NotLoadedReason::Withheld,
        });
        return;
    }
    let key = root.absolute("").display().to_string();
    if !user.trusted_projects.contains(&key) {
        out.diagnostics.push(Diagnostic::info(
            shown.clone(),
            format!(
                "Codex reads a project's config.toml only for a project it trusts \
                 ([projects.\"{key}\"] trust_level = \"trusted\" in $CODEX_HOME/config.toml): \
                 its MCP servers are not listed"
            ),
        ));
        out.not_loaded.push(NotLoaded {
            path: shown,
            scope: Scope::Project,
            reason: NotLoadedReason::Unusable("Codex does not trust the project".to_string()),
        });
        return;
    }
    if let Some((tables, diagnostics)) = config::load_mcp(root.reader, &rel) {
        out.diagnostics.extend(diagnostics);
        add(out, &tables, (&shown, Scope::Project));
    }
}

/// The servers of one file.
fn add(out: &mut McpServers, tables: &McpTables, (path, scope): (&str, Scope)) {
    for (name, table) in &tables.servers {
        let Some(entry) = ServerEntry::read(table, &KEYS) else {
            out.diagnostics.push(server_unusable(path, name));
            continue;
        };
        let on = table.get("enabled").and_then(serde_json::Value::as_bool) != Some(false);
        let why = if on {
            "Codex starts every configured MCP server at start".to_string()
        } else {
            "enabled = false".to_string()
        };
        let would_add = format!(
            "a line `- mcp__{name}: INSTRUCTIONS` under `Deferred tool namespaces:` in Codex's \
             developer message (its tools deferred, no schema sent); nothing if it fails to \
             start: not run"
        );
        let server = entry.server(name, (path, scope), (on, why), would_add);
        out.servers.push(server);
    }
}
