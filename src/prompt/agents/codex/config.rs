//! Codex's configuration as the Codex profile needs it (SPEC §14.4): where
//! `$CODEX_HOME` is, and the three keys of `$CODEX_HOME/config.toml` that
//! shape the instructions — `project_doc_max_bytes`,
//! `project_doc_fallback_filenames`, `project_root_markers` — and what it
//! says about MCP servers (`[mcp_servers.*]`, the trusted `[projects.*]`;
//! SPEC §19.4). Nothing else of Codex's configuration is read.
//!
//! The file is read through a [`Workspace`] rooted at `$CODEX_HOME` (the
//! composition root builds it, links followed: it is the user's own) and
//! parsed with the `toml` crate.
//!
//! Choices the spec leaves open:
//! - Codex refuses to start on a malformed file (observed: exit 1, no
//!   prompt); the preview warns, naming the line and column, and uses the
//!   defaults. A key of the wrong type is treated the same way, key by key.
//! - A file larger than [`limits::MAX_CODEX_CONFIG_BYTES`] is ignored with
//!   a warning; a budget above [`limits::MAX_CODEX_DOC_BUDGET_BYTES`] is
//!   lowered to it with a warning; a configured file name or marker that is
//!   not a plain relative path (`..`, absolute, empty) is dropped with a
//!   warning, as the chain never looks such a name up.
//! - Warnings never quote the file: TOML errors are reported by position.

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::codex::{CodexConfig, is_plain_relative};
use crate::prompt::text::line_column;
use crate::workspace::{Workspace, WsError};

/// The configuration file's name inside `$CODEX_HOME`.
pub const CONFIG_FILE: &str = "config.toml";

/// The configuration read, with what was wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigRead {
    /// The keys the profile honours, defaults where the file says nothing
    /// usable.
    pub config: CodexConfig,
    /// Its `[mcp_servers.NAME]` tables and the projects it trusts (SPEC
    /// §19.4).
    pub mcp: McpTables,
    /// One per problem; never quotes the file.
    pub diagnostics: Vec<Diagnostic>,
}

/// What a `config.toml` says about MCP servers: its `[mcp_servers.NAME]`
/// tables (as JSON values, in file order) and the directories its
/// `[projects."PATH"]` tables mark `trust_level = "trusted"`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpTables {
    /// Each server's name and table.
    pub servers: Vec<(String, serde_json::Value)>,
    /// The absolute paths of the projects Codex trusts.
    pub trusted_projects: Vec<String>,
}

impl McpTables {
    /// The MCP keys of a parsed file.
    fn of(table: &toml::Table) -> Self {
        let servers = table
            .get("mcp_servers")
            .and_then(toml::Value::as_table)
            .into_iter()
            .flatten()
            .filter_map(|(name, server)| {
                let value = serde_json::to_value(server).ok()?;
                Some((name.clone(), value))
            })
            .collect();
        let trusted_projects = table
            .get("projects")
            .and_then(toml::Value::as_table)
            .into_iter()
            .flatten()
            .filter(|(_, project)| {
                project.get("trust_level").and_then(toml::Value::as_str) == Some("trusted")
            })
            .map(|(path, _)| path.clone())
            .collect();
        Self {
            servers,
            trusted_projects,
        }
    }
}

/// Reads `config.toml` from `codex_home` (a reader rooted at `$CODEX_HOME`).
/// No file means the defaults, silently.
pub fn load(codex_home: &dyn Workspace) -> ConfigRead {
    let path = codex_home.display(CONFIG_FILE);
    let mut reasons = Vec::new();
    let table = read_table(codex_home, CONFIG_FILE, &mut |reason| reasons.push(reason));
    let config = table
        .as_ref()
        .map(|table| config_of(table, &mut |reason| reasons.push(reason)))
        .unwrap_or_default();
    ConfigRead {
        config,
        mcp: table.as_ref().map(McpTables::of).unwrap_or_default(),
        diagnostics: reasons
            .into_iter()
            .map(|reason| Diagnostic::warning(&path, reason))
            .collect(),
    }
}

/// The MCP keys of the `config.toml` at `rel` below `reader` (a project's
/// `.codex/config.toml`), with a warning per problem; `None` when there is
/// no such file.
pub fn load_mcp(reader: &dyn Workspace, rel: &str) -> Option<(McpTables, Vec<Diagnostic>)> {
    if reader.stat(rel).is_err() {
        return None;
    }
    let path = reader.display(rel);
    let mut reasons = Vec::new();
    let table = read_table(reader, rel, &mut |reason| reasons.push(reason));
    let diagnostics = reasons
        .into_iter()
        .map(|reason| Diagnostic::warning(&path, reason))
        .collect();
    Some((
        table.as_ref().map(McpTables::of).unwrap_or_default(),
        diagnostics,
    ))
}

/// The parsed file `rel` of `reader`, with a reason in `warn` for each
/// problem; `None` when it is missing or unusable.
fn read_table(
    reader: &dyn Workspace,
    rel: &str,
    warn: &mut dyn FnMut(String),
) -> Option<toml::Table> {
    let bytes = match reader.read(rel, limits::MAX_CODEX_CONFIG_BYTES) {
        Err(WsError::NotFound) => return None,
        Err(err) => {
            warn(format!("{err}; Codex's defaults apply"));
            return None;
        }
        Ok(bounded) if bounded.is_truncated() => {
            warn(format!(
                "larger than {} bytes: ignored, Codex's defaults apply",
                limits::MAX_CODEX_CONFIG_BYTES
            ));
            return None;
        }
        Ok(bounded) => bounded.bytes,
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        warn(
            "not valid UTF-8: Codex refuses to start with this file; the preview uses the defaults"
                .to_string(),
        );
        return None;
    };
    match toml::from_str(text) {
        Ok(table) => Some(table),
        Err(err) => {
            let (line, column) = err
                .span()
                .map_or((1, 1), |span| line_column(text, span.start));
            warn(format!(
                "malformed TOML at line {line}, column {column}: Codex refuses to start with \
                 this file; the preview uses the defaults"
            ));
            None
        }
    }
}

/// The keys the profile honours of a parsed file, with a reason in `warn`
/// for each problem.
fn config_of(table: &toml::Table, warn: &mut dyn FnMut(String)) -> CodexConfig {
    let mut config = CodexConfig::default();
    if let Some(value) = table.get("project_doc_max_bytes") {
        match value.as_integer().and_then(|n| u64::try_from(n).ok()) {
            Some(n) if n > limits::MAX_CODEX_DOC_BUDGET_BYTES => {
                warn(format!(
                    "project_doc_max_bytes = {n} is more than the preview reads; it uses {}",
                    limits::MAX_CODEX_DOC_BUDGET_BYTES
                ));
                config.project_doc_max_bytes = limits::MAX_CODEX_DOC_BUDGET_BYTES;
            }
            Some(n) => config.project_doc_max_bytes = n,
            None => warn(format!(
                "project_doc_max_bytes must be a whole number of bytes, 0 or more; the default {} applies",
                limits::CODEX_PROJECT_DOC_MAX_BYTES
            )),
        }
    }
    for (key, target) in [
        (
            "project_doc_fallback_filenames",
            &mut config.project_doc_fallback_filenames,
        ),
        ("project_root_markers", &mut config.project_root_markers),
    ] {
        let Some(value) = table.get(key) else {
            continue;
        };
        let names: Option<Vec<&str>> = value
            .as_array()
            .and_then(|items| items.iter().map(toml::Value::as_str).collect());
        let Some(names) = names else {
            warn(format!(
                "{key} must be a list of names; the default applies"
            ));
            continue;
        };
        target.clear();
        for (index, name) in names.into_iter().enumerate() {
            if is_plain_relative(name) {
                target.push(name.to_string());
            } else {
                warn(format!(
                    "{key}: entry {} is empty, absolute or uses `..`, so it is never looked up",
                    index + 1
                ));
            }
        }
    }
    config
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{LinkPolicy, MemNode, MemWorkspace};

    fn home(config: &str) -> MemWorkspace {
        MemWorkspace::new()
            .with_root("/h/.codex")
            .with_policy(LinkPolicy::Follow)
            .file(CONFIG_FILE, config)
    }

    fn load_str(config: &str) -> ConfigRead {
        load(&home(config))
    }

    #[test]
    fn the_three_keys_are_read_and_everything_else_ignored() {
        let read = load_str(
            "model = \"o9\"\nproject_doc_max_bytes = 100\n\
             project_doc_fallback_filenames = [\"CLAUDE.md\", \"README.md\"]\n\
             project_root_markers = [\".hg\", \".git\"]\n[profiles.x]\nproject_doc_max_bytes = 5\n",
        );
        assert_eq!(
            read.config,
            CodexConfig {
                project_doc_max_bytes: 100,
                project_doc_fallback_filenames: vec!["CLAUDE.md".into(), "README.md".into()],
                project_root_markers: vec![".hg".into(), ".git".into()],
            }
        );
        assert!(read.diagnostics.is_empty());
    }

    #[test]
    fn no_file_gives_the_defaults_silently() {
        let empty = MemWorkspace::new().with_policy(LinkPolicy::Follow);
        let read = load(&empty);
        assert_eq!(read.config, CodexConfig::default());
        assert_eq!(read.config.project_doc_max_bytes, 32_768);
        assert_eq!(read.config.project_root_markers, vec![".git"]);
        assert!(read.diagnostics.is_empty());
        assert_eq!(load_str("").config, CodexConfig::default());
    }

    #[test]
    #[cfg_attr(windows, ignore = "fixture homes are Unix paths /h/…")]
    fn a_malformed_file_is_a_warning_by_position_and_the_defaults() {
        let read = load_str("# c\nproject_doc_max_bytes = [unclosed\n");
        assert_eq!(read.config, CodexConfig::default());
        let reason = &read.diagnostics[0].reason;
        assert!(
            reason.starts_with("malformed TOML at line 2, column"),
            "{reason}"
        );
        assert!(
            !reason.contains("unclosed"),
            "never quotes the file: {reason}"
        );
        assert_eq!(
            read.diagnostics[0].path.as_deref(),
            Some("/h/.codex/config.toml")
        );
    }

    #[test]
    fn a_key_of_the_wrong_type_keeps_its_default() {
        let read = load_str(
            "project_doc_max_bytes = -1\nproject_root_markers = \".git\"\n\
             project_doc_fallback_filenames = [\"A.md\", 3]\n",
        );
        assert_eq!(read.config, CodexConfig::default());
        assert_eq!(read.diagnostics.len(), 3);
    }

    #[test]
    fn names_that_leave_a_directory_are_dropped_and_budgets_capped() {
        let read = load_str(
            "project_doc_fallback_filenames = [\"../up.md\", \"\", \"ok.md\"]\n\
             project_root_markers = []\nproject_doc_max_bytes = 99999999999\n",
        );
        assert_eq!(read.config.project_doc_fallback_filenames, vec!["ok.md"]);
        assert!(read.config.project_root_markers.is_empty());
        assert_eq!(
            read.config.project_doc_max_bytes,
            limits::MAX_CODEX_DOC_BUDGET_BYTES
        );
        assert_eq!(read.diagnostics.len(), 3);
    }

    #[test]
    fn oversized_unreadable_or_non_utf8_files_are_ignored_with_a_warning() {
        let big = "#".repeat(limits::MAX_CODEX_CONFIG_BYTES as usize + 1);
        let unreadable = MemWorkspace::new()
            .with_policy(LinkPolicy::Follow)
            .node(CONFIG_FILE, MemNode::Unreadable);
        let binary = MemWorkspace::new()
            .with_policy(LinkPolicy::Follow)
            .file(CONFIG_FILE, b"project_doc_max_bytes = 1 \xff\n");
        for read in [load_str(&big), load(&unreadable), load(&binary)] {
            assert_eq!(read.config, CodexConfig::default());
            assert_eq!(read.diagnostics.len(), 1);
        }
    }
}
