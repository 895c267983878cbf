//! `.mecatl-prompt.toml` (SPEC §20.5): its text, parsed with the spans of
//! every value, into a [`LintPolicy`] and the warnings about unknown codes;
//! anything else that is wrong is one error with its line and column.
//!
//! The serde types below are the file's grammar and, through `schemars`
//! in tests, its JSON Schema (`schemas/mecatl-prompt-toml.json`), so the
//! two cannot drift.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::{LintPolicy, Override, Rules, unknown_code};
use crate::prompt::glob::PathMatcher;
use crate::prompt::lint::{Code, Level};
use crate::prompt::profile::Agent;
use crate::prompt::text::line_column;

/// The configuration's file name, at the workspace root.
pub const CONFIG_FILE: &str = ".mecatl-prompt.toml";

/// Something said about a place in a file: a 1-based line and column (in
/// characters) and a one-line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The line, from 1.
    pub line: usize,
    /// The column, in characters, from 1.
    pub column: usize,
    /// What is wrong there.
    pub message: String,
}

impl std::fmt::Display for Located {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// The mecatl-prompt configuration, `.mecatl-prompt.toml` at the workspace
/// root: read by `lint` even when the workspace is not trusted.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(crate) struct ConfigFile {
    /// How `lint` judges the workspace.
    #[serde(default)]
    lint: LintTable,
}

/// The `[lint]` table.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct LintTable {
    /// Report only the findings that concern these agents; `--agents` on
    /// the command line wins. Default: every agent.
    #[cfg_attr(test, schemars(with = "Option<Vec<Agent>>", length(min = 1)))]
    agents: Option<Spanned<Vec<Spanned<String>>>>,
    /// `["warnings"]`: a warning fails the run too, like `--deny
    /// warnings`; `--deny errors` on the command line wins. Default: `[]`.
    #[serde(default)]
    #[cfg_attr(test, schemars(schema_with = "deny_schema"))]
    deny: Vec<Spanned<String>>,
    /// Codes whose findings are never reported.
    #[serde(default)]
    #[cfg_attr(test, schemars(with = "Vec<Code>"))]
    disable: Vec<Spanned<String>>,
    /// A severity for every finding of a code, e.g. `MP009 = "error"`.
    #[serde(default)]
    #[cfg_attr(test, schemars(schema_with = "severity_schema"))]
    severity: BTreeMap<Spanned<String>, Spanned<String>>,
    /// Codes disabled and severities changed for the files some globs
    /// match; applied in order, after the settings above.
    #[serde(default)]
    #[cfg_attr(test, schemars(with = "Vec<OverrideTable>"))]
    overrides: Vec<Spanned<OverrideTable>>,
}

/// One `[[lint.overrides]]` table. Its `disable` and `severity` repeat
/// `[lint]`'s: serde cannot flatten a shared struct into a table that
/// refuses unknown keys, and an unknown key must be an error.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
struct OverrideTable {
    /// Globs of workspace-relative paths, anchored at the root
    /// (`vendor/**`, `**/*.md`): the findings in matching files get this
    /// table's settings.
    #[cfg_attr(test, schemars(with = "Vec<String>", length(min = 1)))]
    paths: Vec<Spanned<String>>,
    /// Codes whose findings in these files are never reported.
    #[serde(default)]
    #[cfg_attr(test, schemars(with = "Vec<Code>"))]
    disable: Vec<Spanned<String>>,
    /// A severity for the findings of a code in these files.
    #[serde(default)]
    #[cfg_attr(test, schemars(schema_with = "severity_schema"))]
    severity: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// `deny`'s schema: a list of the one word it takes.
#[cfg(test)]
fn deny_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "array", "items": {"enum": ["warnings"]}})
}

/// A severity table's schema: codes to levels.
#[cfg(test)]
fn severity_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let code = generator.subschema_for::<Code>();
    let level = generator.subschema_for::<Level>();
    schemars::json_schema!({
        "type": "object",
        "propertyNames": code,
        "additionalProperties": level,
    })
}

/// What [`parse`] makes of a configuration: the policy, and the warnings
/// about the codes it does not know.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// The policy the file describes.
    pub policy: LintPolicy,
    /// Unknown codes, each where it stands.
    pub warnings: Vec<Located>,
}

impl LintPolicy {
    /// Parses the text of `.mecatl-prompt.toml`; the first error, with its
    /// line and column, when the file is not a valid configuration.
    pub fn parse(text: &str) -> Result<Parsed, Located> {
        let at = |span: Range<usize>, message: String| {
            let (line, column) = line_column(text, span.start);
            Located {
                line,
                column,
                message,
            }
        };
        let file: ConfigFile = toml::from_str(text)
            .map_err(|err| at(err.span().unwrap_or(0..0), err.message().to_string()))?;
        let lint = file.lint;
        let mut warnings = Vec::new();
        let agents = match lint.agents {
            None => None,
            Some(list) if list.get_ref().is_empty() => {
                return Err(at(list.span(), "`agents` names no agent".to_string()));
            }
            Some(list) => Some(
                list.into_inner()
                    .into_iter()
                    .map(|name| {
                        name.get_ref()
                            .parse::<Agent>()
                            .map_err(|err| at(name.span(), err.to_string()))
                    })
                    .collect::<Result<Vec<Agent>, Located>>()?,
            ),
        };
        let mut deny_warnings = false;
        for word in &lint.deny {
            if word.get_ref() != "warnings" {
                return Err(at(
                    word.span(),
                    format!("`deny` takes \"warnings\", not {:?}", word.get_ref()),
                ));
            }
            deny_warnings = true;
        }
        let everywhere = rules(&lint.disable, &lint.severity, &at, &mut warnings)?;
        let mut overrides = Vec::new();
        for table in &lint.overrides {
            let paths = &table.get_ref().paths;
            if paths.is_empty() {
                return Err(at(
                    table.span(),
                    "an override's `paths` names no glob".to_string(),
                ));
            }
            for path in paths {
                if let Some(err) = PathMatcher::errors(&[path.get_ref()]).pop() {
                    return Err(at(
                        path.span(),
                        format!(
                            "the glob {:?} does not compile: {}",
                            err.pattern, err.reason
                        ),
                    ));
                }
            }
            let patterns: Vec<&str> = paths.iter().map(|p| p.get_ref().as_str()).collect();
            overrides.push(Override {
                paths: PathMatcher::new(&patterns).0,
                rules: rules(
                    &table.get_ref().disable,
                    &table.get_ref().severity,
                    &at,
                    &mut warnings,
                )?,
            });
        }
        Ok(Parsed {
            policy: LintPolicy {
                agents,
                deny_warnings,
                everywhere,
                overrides,
            },
            warnings,
        })
    }
}

/// The codes of a `disable` list and a severity table; unknown codes are
/// warnings, a severity that is not a level an error.
fn rules(
    disable: &[Spanned<String>],
    severity: &BTreeMap<Spanned<String>, Spanned<String>>,
    at: &dyn Fn(Range<usize>, String) -> Located,
    warnings: &mut Vec<Located>,
) -> Result<Rules, Located> {
    let mut rules = Rules::default();
    let mut code = |id: &Spanned<String>| {
        let found = Code::parse(id.get_ref());
        if found.is_none() {
            warnings.push(at(id.span(), unknown_code(id.get_ref())));
        }
        found
    };
    for id in disable {
        rules.disable.extend(code(id));
    }
    for (id, level) in severity {
        let parsed = [Level::Error, Level::Warning, Level::Note]
            .into_iter()
            .find(|l| l.as_str() == level.get_ref())
            .ok_or_else(|| {
                at(
                    level.span(),
                    format!(
                        "a severity is \"error\", \"warning\" or \"note\", not {:?}",
                        level.get_ref()
                    ),
                )
            })?;
        if let Some(code) = code(id) {
            rules.severity.insert(code, parsed);
        }
    }
    Ok(rules)
}
