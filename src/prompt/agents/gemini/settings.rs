//! Gemini CLI's `settings.json` (SPEC §16.2): the three `context` keys the
//! profile honours — `fileName`, `memoryBoundaryMarkers` and
//! `includeDirectories` — read from the user's `~/.gemini/settings.json` and
//! the cwd's `.gemini/settings.json`, a project value replacing the user's
//! key by key (no merge).
//!
//! Choices the spec leaves open:
//! - Gemini 0.61.0 reads the file as JSON with comments (`//` and `/* */`
//!   are accepted, observed) but refuses a trailing comma and refuses to
//!   start on any malformed file. The preview reads it with the shared
//!   JSONC reader ([`crate::prompt::jsonc`], trailing commas refused), warns naming the file, line and column and
//!   that Gemini would refuse to start, and uses the other file's values or
//!   the defaults.
//! - A key of the wrong type (a number for `fileName`, a list holding a
//!   number) is a warning and the key is ignored, as if absent.
//! - `fileName` names are trimmed, empty ones dropped and repeats removed
//!   (case-sensitive); `GEMINI.md` is appended when not listed, so it always
//!   stays. Markers and directories are kept as written.
//! - Besides, `mcpServers` and `mcp.excluded`/`mcp.allowed` are read for
//!   the MCP servers listed, never started (SPEC §19.4; [`McpSettings`]).
//!   Nothing else of the file is read or shown.

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::gemini::spec::GEMINI_MD;
use crate::prompt::jsonc::{self, JsoncError, TrailingCommas};
use crate::workspace::{Workspace, WsError};

/// The file, below a `.gemini` directory.
pub const SETTINGS_FILE: &str = "settings.json";

/// The `context` keys one settings file sets (`None`: not set there).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContextSettings {
    /// `context.fileName`, as normalised names (without the added
    /// `GEMINI.md`).
    pub file_names: Option<Vec<String>>,
    /// `context.memoryBoundaryMarkers`.
    pub boundary_markers: Option<Vec<String>>,
    /// `context.includeDirectories`.
    pub include_directories: Option<Vec<String>>,
}

/// What reading one settings file gave: its values and what was said.
#[derive(Debug, Clone, Default)]
pub struct SettingsRead {
    /// The values it sets.
    pub settings: ContextSettings,
    /// Its `mcpServers` entries, in file order, and the names of
    /// `mcp.excluded` and `mcp.allowed` (SPEC §19.4).
    pub mcp: McpSettings,
    /// Warnings about the file.
    pub diagnostics: Vec<Diagnostic>,
}

/// What one settings file says about MCP servers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpSettings {
    /// Each `mcpServers` entry's name and value.
    pub servers: Vec<(String, Value)>,
    /// `mcp.excluded`: names never started.
    pub excluded: Vec<String>,
    /// `mcp.allowed`: when set, the only names started.
    pub allowed: Option<Vec<String>>,
}

impl McpSettings {
    /// The MCP keys of a parsed file (entries of the wrong type ignored).
    fn of(value: &Value) -> Self {
        let servers = value
            .get("mcpServers")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, server)| (name.clone(), server.clone()))
            .collect();
        let names = |key: &str| {
            value
                .get("mcp")
                .and_then(|mcp| mcp.get(key))
                .and_then(|names| strings(names, false))
        };
        Self {
            servers,
            excluded: names("excluded").unwrap_or_default(),
            allowed: names("allowed"),
        }
    }
}

/// The values in effect for a run: the project's where it sets a key, else
/// the user's, else Gemini's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effective {
    /// The context file names tried in every directory, in order,
    /// `GEMINI.md` included.
    pub names: Vec<String>,
    /// The entries that mark the root of the walk.
    pub boundary_markers: Vec<String>,
    /// More start directories, as written.
    pub include_directories: Vec<String>,
}

impl Effective {
    /// The values of `project` over those of `user`, key by key.
    pub fn combine(user: &ContextSettings, project: &ContextSettings) -> Self {
        let pick =
            |p: &Option<Vec<String>>, u: &Option<Vec<String>>| p.clone().or_else(|| u.clone());
        let mut names = pick(&project.file_names, &user.file_names).unwrap_or_default();
        if !names.iter().any(|name| name == GEMINI_MD) {
            names.push(GEMINI_MD.to_string());
        }
        Self {
            names,
            boundary_markers: pick(&project.boundary_markers, &user.boundary_markers)
                .unwrap_or_else(|| vec![".git".to_string()]),
            include_directories: pick(&project.include_directories, &user.include_directories)
                .unwrap_or_default(),
        }
    }
}

impl Default for Effective {
    fn default() -> Self {
        Self::combine(&ContextSettings::default(), &ContextSettings::default())
    }
}

/// Reads `rel` through `reader` (displayed as the reader names it); `None`
/// when there is no such file.
pub fn read(reader: &dyn Workspace, rel: &str) -> Option<SettingsRead> {
    let shown = reader.display(rel);
    match reader.read(rel, limits::MAX_GEMINI_SETTINGS_BYTES + 1) {
        Ok(read) if read.is_truncated() => Some(SettingsRead {
            settings: ContextSettings::default(),
            mcp: McpSettings::default(),
            diagnostics: vec![Diagnostic::warning(
                shown,
                format!(
                    "larger than {} bytes: not read, Gemini's defaults apply",
                    limits::MAX_GEMINI_SETTINGS_BYTES
                ),
            )],
        }),
        Ok(read) => Some(parse(&String::from_utf8_lossy(&read.bytes), &shown)),
        Err(WsError::NotFound) => None,
        Err(err) => Some(SettingsRead {
            settings: ContextSettings::default(),
            mcp: McpSettings::default(),
            diagnostics: vec![Diagnostic::warning(
                shown,
                format!("cannot be read ({err}): Gemini's defaults apply"),
            )],
        }),
    }
}

/// The `context` keys of a settings file's text; `shown` names it in
/// diagnostics.
pub fn parse(text: &str, shown: &str) -> SettingsRead {
    let mut out = SettingsRead::default();
    let value: Value = match jsonc::parse(text, TrailingCommas::Refused) {
        Ok(value) => value,
        Err(JsoncError { line, column, .. }) => {
            out.diagnostics.push(Diagnostic::warning(
                shown,
                format!(
                    "malformed JSON at line {line}, column {column}: Gemini CLI refuses to start \
                     with it; the preview ignores the file"
                ),
            ));
            return out;
        }
    };
    out.mcp = McpSettings::of(&value);
    let Some(context) = value.get("context") else {
        return out;
    };
    if !context.is_object() {
        out.diagnostics.push(Diagnostic::warning(
            shown,
            "`context` is not an object: ignored",
        ));
        return out;
    }
    let mut warn = |key: &str, what: &str| {
        out.diagnostics.push(Diagnostic::warning(
            shown,
            format!("`context.{key}` {what}: ignored"),
        ));
    };
    if let Some(names) = context.get("fileName") {
        match strings(names, true) {
            Some(list) => out.settings.file_names = Some(normalise_names(list, &mut warn)),
            None => warn("fileName", "is neither a string nor a list of strings"),
        }
    }
    if let Some(markers) = context.get("memoryBoundaryMarkers") {
        match strings(markers, false) {
            Some(list) => {
                out.settings.boundary_markers =
                    Some(capped(list, "memoryBoundaryMarkers", &mut warn))
            }
            None => warn("memoryBoundaryMarkers", "is not a list of strings"),
        }
    }
    if let Some(dirs) = context.get("includeDirectories") {
        match strings(dirs, false) {
            Some(list) => {
                out.settings.include_directories =
                    Some(capped(list, "includeDirectories", &mut warn))
            }
            None => warn("includeDirectories", "is not a list of strings"),
        }
    }
    out
}

/// A list of strings (or one string, when `single` allows it).
fn strings(value: &Value, single: bool) -> Option<Vec<String>> {
    match value {
        Value::String(one) if single => Some(vec![one.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().map(str::to_string))
            .collect(),
        _ => None,
    }
}

/// `fileName`'s names trimmed, without empties and repeats, at most
/// [`limits::MAX_GEMINI_SETTING_ENTRIES`].
fn normalise_names(list: Vec<String>, warn: &mut impl FnMut(&str, &str)) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in list {
        let name = name.trim();
        if !name.is_empty() && !names.iter().any(|seen| seen == name) {
            names.push(name.to_string());
        }
    }
    capped(names, "fileName", warn)
}

/// `list` cut to [`limits::MAX_GEMINI_SETTING_ENTRIES`], with a warning
/// when it was longer.
fn capped(mut list: Vec<String>, key: &str, warn: &mut impl FnMut(&str, &str)) -> Vec<String> {
    if list.len() > limits::MAX_GEMINI_SETTING_ENTRIES {
        list.truncate(limits::MAX_GEMINI_SETTING_ENTRIES);
        warn(
            key,
            &format!(
                "has more than {} entries: the rest are",
                limits::MAX_GEMINI_SETTING_ENTRIES
            ),
        );
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_trimmed_deduplicated_and_keep_gemini_md() {
        let read = parse(
            r#"{"context": {"fileName": ["CONTEXT.md", " AGENTS.md ", "", "CONTEXT.md"]}}"#,
            "s",
        );
        assert!(read.diagnostics.is_empty());
        let effective = Effective::combine(&ContextSettings::default(), &read.settings);
        assert_eq!(effective.names, ["CONTEXT.md", "AGENTS.md", "GEMINI.md"]);
        assert_eq!(effective.boundary_markers, [".git"]);
        let one = parse(r#"{"context": {"fileName": "A.md"}}"#, "s");
        assert_eq!(one.settings.file_names, Some(vec!["A.md".to_string()]));
    }

    #[test]
    fn the_project_replaces_the_users_value_key_by_key() {
        let user = parse(
            r#"{"context": {"fileName": "U.md", "memoryBoundaryMarkers": ["M"]}}"#,
            "u",
        );
        let project = parse(r#"{"context": {"fileName": ["P.md"]}}"#, "p");
        let effective = Effective::combine(&user.settings, &project.settings);
        assert_eq!(effective.names, ["P.md", "GEMINI.md"]);
        assert_eq!(effective.boundary_markers, ["M"]);
    }

    #[test]
    fn a_trailing_comma_is_a_warning_with_line_and_column() {
        let read = parse("{\n  \"context\": {},\n}\n", ".gemini/settings.json");
        assert_eq!(read.settings, ContextSettings::default());
        let reason = &read.diagnostics[0].reason;
        assert!(
            reason.starts_with("malformed JSON at line 3, column 1"),
            "{reason}"
        );
        assert_eq!(
            read.diagnostics[0].path.as_deref(),
            Some(".gemini/settings.json")
        );
    }

    #[test]
    fn wrong_types_are_ignored_with_a_warning() {
        let read = parse(
            r#"{"context": {"fileName": 3, "memoryBoundaryMarkers": "x", "includeDirectories": [1]}}"#,
            "s",
        );
        assert_eq!(read.settings, ContextSettings::default());
        assert_eq!(read.diagnostics.len(), 3);
        for bad in [
            "[",
            "{\"context\": [",
            "\u{feff}",
            "/*",
            "\"",
            "{\"a\":\"\\",
        ] {
            let _ = parse(bad, "s");
        }
    }
}
