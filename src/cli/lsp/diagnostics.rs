//! Diagnostics (SPEC §21.1): `lint`'s findings on the open agent files,
//! from one run of `lint --agents …` per folder over its overlay, so an
//! edit of one file updates the findings it causes in another (an
//! `AGENTS.md` edit, `CLAUDE.md`'s MP009).
//!
//! Choices the spec leaves open:
//! - A folder is linted only while one of its open documents is an agent
//!   file; a lint that fails (an unreadable `.mecatl-prompt.toml`) leaves
//!   the published diagnostics as they were, with a line on stderr.
//! - `codeDescription.href` is the README's lint-code table on the
//!   repository's page (`…#lint-codes`).
//! - A range ends at its line's end; a finding's column, when lint has one,
//!   is in its message, as in lint's text output.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::folders::{Folder, is_agent_file};
use super::{Encoding, Open, cli_json};
use crate::prompt::profile::Agent;

/// The README's lint codes, linked from each diagnostic.
const CODES_HREF: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "#lint-codes");

/// Lints the folders that hold open agent documents and returns the
/// documents (by URI) whose diagnostics are new or changed, with them.
pub(super) fn refresh(
    folders: &mut [Folder],
    agents: &[Agent],
    documents: &HashMap<String, Open>,
    encoding: Encoding,
) -> Vec<(String, Vec<Value>)> {
    let names: Vec<&str> = agents.iter().map(|a| a.as_str()).collect();
    let list = names.join(",");
    let mut updates = Vec::new();
    for (index, folder) in folders.iter().enumerate() {
        let open: Vec<(&String, &Open, &str)> = documents
            .iter()
            .filter_map(|(uri, open)| match &open.place {
                Some((f, rel)) if *f == index && is_agent_file(rel) => {
                    Some((uri, open, rel.as_str()))
                }
                _ => None,
            })
            .collect();
        if open.is_empty() {
            continue;
        }
        let report = match cli_json(&folder.ctx, &["lint", "--agents", &list]) {
            Ok(report) => report,
            Err(err) => {
                eprintln!("mecatl-prompt lsp: lint {}: {err}", folder.root.display());
                continue;
            }
        };
        let findings = report.get("findings").and_then(Value::as_array);
        for (uri, doc, rel) in open {
            let diagnostics: Vec<Value> = findings
                .into_iter()
                .flatten()
                .filter(|finding| finding.get("path").and_then(Value::as_str) == Some(rel))
                .map(|finding| diagnostic(finding, doc, encoding))
                .collect();
            if doc.published.as_ref() != Some(&diagnostics) {
                updates.push((uri.clone(), diagnostics));
            }
        }
    }
    updates
}

/// One finding of lint's JSON as a protocol diagnostic.
fn diagnostic(finding: &Value, open: &Open, encoding: Encoding) -> Value {
    let line = finding
        .get("line")
        .and_then(Value::as_u64)
        .map_or(0, |line| line.saturating_sub(1) as usize);
    let severity = match finding.get("severity").and_then(Value::as_str) {
        Some("error") => 1,
        Some("warning") => 2,
        _ => 3,
    };
    json!({
        "range": open.document.line_range(line, encoding),
        "severity": severity,
        "code": finding.get("code"),
        "codeDescription": {"href": CODES_HREF},
        "source": "mecatl-prompt",
        "message": finding.get("message"),
        "data": {"agents": finding.get("agents")},
    })
}
