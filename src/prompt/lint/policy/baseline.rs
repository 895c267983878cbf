//! Lint baselines (SPEC §20.5): the findings a project has accepted, so that
//! `lint --baseline FILE` reports only new ones. An entry is a code, a path
//! and the hash of the finding's line, with a count: a finding matches while
//! the line's text is the same, wherever the line has moved to.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Sources, unknown_code};
use crate::prompt::lint::{Code, Finding};
use crate::prompt::text::line_column;

use super::Located;

/// The `schema` tag of a baseline.
pub const BASELINE_SCHEMA: &str = "mecatl-prompt/lint-baseline-v1";

/// A baseline, as `lint --write-baseline` writes it and `lint --baseline`
/// reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// Always [`BASELINE_SCHEMA`].
    #[cfg_attr(test, schemars(extend("const" = BASELINE_SCHEMA)))]
    pub schema: String,
    /// The accepted findings, by path, code and line hash.
    pub findings: Vec<BaselineEntry>,
}

/// Accepted findings of one code on one line text of one file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BaselineEntry {
    /// The file, workspace-relative with `/`.
    pub path: String,
    /// The check's code (`MP004`); an unknown code matches nothing.
    pub code: String,
    /// The first 16 hex digits of the SHA-256 of the finding's line,
    /// trimmed (of the empty line for a finding without one).
    pub line_hash: String,
    /// How many such findings are accepted.
    pub count: u64,
}

/// The key findings and entries match on.
type Key = (String, String, String);

impl Baseline {
    /// The baseline that accepts exactly `findings`.
    pub fn record(sources: &mut Sources<'_>, findings: &[Finding]) -> Baseline {
        let mut counts: BTreeMap<Key, u64> = BTreeMap::new();
        for finding in findings {
            *counts.entry(key(sources, finding)).or_default() += 1;
        }
        Baseline {
            schema: BASELINE_SCHEMA.to_string(),
            findings: counts
                .into_iter()
                .map(|((path, code, line_hash), count)| BaselineEntry {
                    path,
                    code,
                    line_hash,
                    count,
                })
                .collect(),
        }
    }

    /// Parses a baseline's JSON text; an error with its line and column when
    /// it is not JSON or not a baseline.
    pub fn parse(text: &str) -> Result<Baseline, Located> {
        let baseline: Baseline = serde_json::from_str(text).map_err(|err| Located {
            line: err.line().max(1),
            column: err.column().max(1),
            message: err.to_string(),
        })?;
        if baseline.schema != BASELINE_SCHEMA {
            let (line, column) = text
                .find("\"schema\"")
                .map_or((1, 1), |offset| line_column(text, offset));
            return Err(Located {
                line,
                column,
                message: format!(
                    "schema is {:?}, expected {BASELINE_SCHEMA:?}",
                    baseline.schema
                ),
            });
        }
        Ok(baseline)
    }

    /// The warnings' reasons for the codes of entries that are not codes.
    pub fn unknown_codes(&self) -> Vec<String> {
        let mut unknown: Vec<&str> = self
            .findings
            .iter()
            .map(|entry| entry.code.as_str())
            .filter(|code| Code::parse(code).is_none())
            .collect();
        unknown.sort_unstable();
        unknown.dedup();
        unknown.into_iter().map(unknown_code).collect()
    }

    /// The findings the baseline does not accept: each entry accepts up to
    /// `count` findings of its key, in the order given.
    pub fn filter(&self, sources: &mut Sources<'_>, findings: Vec<Finding>) -> Vec<Finding> {
        let mut left: BTreeMap<Key, u64> = BTreeMap::new();
        for entry in &self.findings {
            let key = (
                entry.path.clone(),
                entry.code.clone(),
                entry.line_hash.clone(),
            );
            *left.entry(key).or_default() += entry.count;
        }
        findings
            .into_iter()
            .filter(|finding| match left.get_mut(&key(sources, finding)) {
                Some(count) if *count > 0 => {
                    *count -= 1;
                    false
                }
                _ => true,
            })
            .collect()
    }

    /// The file text: pretty JSON and a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// `finding`'s key: its path, code and line hash.
fn key(sources: &mut Sources<'_>, finding: &Finding) -> Key {
    (
        finding.path.clone(),
        finding.code.as_str().to_string(),
        sources.line_hash(finding),
    )
}
