//! opencode's configs (SPEC §18.1): the `instructions` arrays of every
//! `opencode.json(c)` opencode merges, in its order, concatenated with the
//! first occurrence of each entry kept.
//!
//! Choices the spec leaves open:
//! - The files are read as JSON with comments and trailing commas (the
//!   shared reader, [`crate::prompt::jsonc`]); one that does not parse is a
//!   warning naming its line and column, and is ignored (opencode refuses
//!   to start with it, observed: the preview still shows the rest).
//! - `instructions` that is not a list of strings is a warning and ignored;
//!   nothing else of the file is read here.
//! - A config larger than [`limits::MAX_OPENCODE_CONFIG_BYTES`] is ignored
//!   with a warning; past [`limits::MAX_OPENCODE_INSTRUCTION_ENTRIES`]
//!   merged entries the rest are ignored with a warning.
//! - `OPENCODE_CONFIG` and `OPENCODE_CONFIG_CONTENT` (a config named by the
//!   environment) are not read.

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::jsonc::{self, TrailingCommas};
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Scope};
use crate::workspace::{Workspace, WsError};

/// One config file to read: its reader, its path there, its scope.
pub struct ConfigFile<'a> {
    /// The reader it is read through.
    pub reader: &'a dyn Workspace,
    /// Its path below the reader's root.
    pub rel: String,
    /// Where it lies.
    pub scope: Scope,
}

/// One `instructions` entry and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The entry as written.
    pub text: String,
    /// The scope of the config that holds it.
    pub scope: Scope,
    /// That config, as displayed.
    pub config: String,
}

/// One config that was read and parsed.
#[derive(Debug)]
pub struct Parsed {
    /// The file, as displayed.
    pub shown: String,
    /// Where it lies.
    pub scope: Scope,
    /// Its value (the `command`, `skills` and `mcp` keys are read from it
    /// by the catalog and the inventory).
    pub value: Value,
}

/// The merged `instructions` and what was said about the configs.
#[derive(Debug, Default)]
pub struct Merged {
    /// The configs read and parsed, in opencode's merge order.
    pub configs: Vec<Parsed>,
    /// The entries, first occurrence kept, in opencode's order.
    pub entries: Vec<Entry>,
    /// The configs that were read and parsed, as displayed.
    pub read: Vec<String>,
    /// Configs not read (withheld).
    pub not_loaded: Vec<NotLoaded>,
    /// Warnings about the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads `files` in order (a gated one only when `trusted`) and merges
/// their `instructions`.
pub fn merge(files: &[ConfigFile<'_>], trusted: bool) -> Merged {
    let mut merged = Merged::default();
    for file in files {
        let shown = file.reader.display(&file.rel);
        if file.scope.is_gated() && !trusted {
            if file.reader.stat(&file.rel).is_ok() {
                merged.not_loaded.push(NotLoaded {
                    path: shown,
                    scope: file.scope,
                    reason: NotLoadedReason::Withheld,
                });
            }
            continue;
        }
        let Some(value) = read(file, &shown, &mut merged.diagnostics) else {
            continue;
        };
        let entries = instructions(&value, &shown, &mut merged.diagnostics);
        merged.configs.push(Parsed {
            shown: shown.clone(),
            scope: file.scope,
            value,
        });
        merged.read.push(shown.clone());
        for text in entries {
            if merged.entries.iter().any(|entry| entry.text == text) {
                continue;
            }
            if merged.entries.len() == limits::MAX_OPENCODE_INSTRUCTION_ENTRIES {
                merged.diagnostics.push(Diagnostic::warning(
                    shown.clone(),
                    format!(
                        "more than {} `instructions` entries in all: the rest are ignored",
                        limits::MAX_OPENCODE_INSTRUCTION_ENTRIES
                    ),
                ));
                break;
            }
            merged.entries.push(Entry {
                text,
                scope: file.scope,
                config: shown.clone(),
            });
        }
    }
    merged
}

/// One file's value; `None` when there is no such file or it is not used.
fn read(file: &ConfigFile<'_>, shown: &str, said: &mut Vec<Diagnostic>) -> Option<Value> {
    let bytes = match file
        .reader
        .read(&file.rel, limits::MAX_OPENCODE_CONFIG_BYTES + 1)
    {
        Ok(read) if read.is_truncated() => {
            said.push(Diagnostic::warning(
                shown,
                format!(
                    "larger than {} bytes: not read, its settings are not applied",
                    limits::MAX_OPENCODE_CONFIG_BYTES
                ),
            ));
            return None;
        }
        Ok(read) => read.bytes,
        Err(WsError::NotFound) => return None,
        Err(err) => {
            said.push(Diagnostic::warning(
                shown,
                format!("cannot be read ({err}): its settings are not applied"),
            ));
            return None;
        }
    };
    parse_value(&String::from_utf8_lossy(&bytes), shown, said)
}

/// The `instructions` of a config's text; `shown` names it in
/// diagnostics. `None` when it does not parse.
pub fn parse(text: &str, shown: &str, said: &mut Vec<Diagnostic>) -> Option<Vec<String>> {
    parse_value(text, shown, said).map(|value| instructions(&value, shown, said))
}

/// A config's text as a value; `None` (and a warning naming the line and
/// column) when it does not parse.
pub fn parse_value(text: &str, shown: &str, said: &mut Vec<Diagnostic>) -> Option<Value> {
    match jsonc::parse(text, TrailingCommas::Accepted) {
        Ok(value) => Some(value),
        Err(err) => {
            said.push(Diagnostic::warning(
                shown,
                format!(
                    "does not parse at line {}, column {} ({}): opencode refuses to start with it; \
                     the preview ignores the file",
                    err.line, err.column, err.reason
                ),
            ));
            None
        }
    }
}

/// The `instructions` of a config's value: a list of strings, else a
/// warning and none.
fn instructions(value: &Value, shown: &str, said: &mut Vec<Diagnostic>) -> Vec<String> {
    let strings = match value.get("instructions") {
        None | Some(Value::Null) => Some(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(str::to_string))
            .collect(),
        Some(_) => None,
    };
    if strings.is_none() {
        said.push(Diagnostic::warning(
            shown,
            "`instructions` is not a list of strings: ignored",
        ));
    }
    strings.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_accepted() {
        let mut said = Vec::new();
        let text = "{\n // c\n \"instructions\": [\"a.md\", \"b/*.md\",],\n}\n";
        let entries = parse(text, "opencode.json", &mut said);
        assert_eq!(
            entries,
            Some(vec!["a.md".to_string(), "b/*.md".to_string()])
        );
        assert!(said.is_empty());
    }

    #[test]
    fn a_file_that_does_not_parse_is_a_warning_with_line_and_column() {
        let mut said = Vec::new();
        assert_eq!(
            parse("{\n  \"instructions\": [\n", "o.json", &mut said),
            None
        );
        assert!(
            said[0]
                .reason
                .starts_with("does not parse at line 3, column 1")
        );
        assert_eq!(said[0].path.as_deref(), Some("o.json"));
        let mut said = Vec::new();
        let wrong = parse("{\"instructions\": [1]}", "o.json", &mut said);
        assert_eq!(wrong, Some(Vec::new()));
        assert_eq!(said.len(), 1);
    }
}
