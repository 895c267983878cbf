//! Lint configuration (SPEC §20.5): which of [`super::lint`]'s findings a
//! run keeps, and at which severity. A layer around the findings, so the
//! checks know nothing of it: `config` turns `.mecatl-prompt.toml`'s text
//! into a [`LintPolicy`], `suppress` reads the inline
//! `<!-- mecatl-prompt: … -->` comments of the files that have findings,
//! and `baseline` records and matches accepted findings. Pure: the files a
//! finding is in are read through the [`Workspace`] port ([`Sources`]),
//! and the configuration and baseline arrive as text.
//!
//! A finding goes through, in order: the agents filter (the caller's), the
//! codes `disable`d for its path, the inline suppressions of its file, the
//! severity changes for its path, then the baseline.
//!
//! Choices the spec leaves open:
//! - **Unknown keys** of the configuration are errors (a misspelt key would
//!   otherwise be silently ignored), as are unknown agents (like
//!   `--agents`), severities other than `error`, `warning`, `note`, `deny`
//!   words other than `warnings` and globs that do not compile. **Unknown
//!   codes** — in the configuration, a comment or a baseline — are
//!   warnings naming them, and change nothing: a configuration written for
//!   a later version with more codes still works.
//! - **Overrides** apply in file order to the findings whose path one of
//!   their globs matches (§7.5: anchored at the workspace root); a later
//!   severity wins over an earlier one and over `[lint.severity]`. A code
//!   disabled anywhere that applies stays disabled: an override cannot
//!   enable it again.
//! - **Inline comments** are read wherever they stand in the file, code
//!   blocks included; codes are separated by spaces or commas; a comment
//!   that names no code suppresses nothing and is a warning, as is an
//!   unknown directive. `disable-next-line` covers the line after the one
//!   the comment closes on. A finding without a line is suppressed only by
//!   `disable`. Comments are read only in the files that have findings, so
//!   their warnings come with those files.
//! - **Baselines** match on code, path and the SHA-256 of the finding's
//!   line, trimmed (its first 16 hex digits); a finding without a line
//!   hashes the empty line. Matching is by count: a baseline entry with
//!   `count: 2` accepts two such findings, a third is reported.

mod baseline;
mod config;
mod suppress;

use std::collections::{BTreeMap, BTreeSet};

pub use baseline::{BASELINE_SCHEMA, Baseline, BaselineEntry};
#[cfg(test)]
pub(crate) use config::ConfigFile;
pub use config::{CONFIG_FILE, Located, Parsed};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::glob::PathMatcher;
use crate::prompt::lint::{Code, Finding, Level};
use crate::prompt::profile::Agent;
use crate::prompt::text::{decode_lossy, sha256_hex};
use crate::workspace::Workspace;

use suppress::Suppressions;

/// What `.mecatl-prompt.toml` says about `lint`; the default is what a
/// workspace without the file gets: every finding as the checks found it.
#[derive(Debug, Clone, Default)]
pub struct LintPolicy {
    /// `agents`, when the file names them (the command line's `--agents`
    /// wins over it).
    pub agents: Option<Vec<Agent>>,
    /// `deny = ["warnings"]`: a warning fails the run too.
    pub deny_warnings: bool,
    /// `disable` and `[lint.severity]`, for every path.
    everywhere: Rules,
    /// `[[lint.overrides]]`, in file order.
    overrides: Vec<Override>,
}

/// Codes disabled and severities changed.
#[derive(Debug, Clone, Default)]
struct Rules {
    disable: BTreeSet<Code>,
    severity: BTreeMap<Code, Level>,
}

/// One `[[lint.overrides]]` table.
#[derive(Debug, Clone)]
struct Override {
    paths: PathMatcher,
    rules: Rules,
}

impl LintPolicy {
    /// Keeps the findings the policy and their files' comments let through,
    /// each at its severity under the policy.
    pub fn apply(&self, sources: &mut Sources<'_>, findings: Vec<Finding>) -> Vec<Finding> {
        findings
            .into_iter()
            .filter_map(|mut finding| {
                let severity = self.judge(&finding)?;
                if sources.suppressions(&finding.path).covers(&finding) {
                    return None;
                }
                finding.severity = severity;
                Some(finding)
            })
            .collect()
    }

    /// The severity `finding` has under the policy, or `None` when its code
    /// is disabled for its path.
    fn judge(&self, finding: &Finding) -> Option<Level> {
        let matching = self
            .overrides
            .iter()
            .filter(|o| o.paths.matching_pattern(&finding.path).is_some())
            .map(|o| &o.rules);
        let mut severity = finding.severity;
        for rules in std::iter::once(&self.everywhere).chain(matching) {
            if rules.disable.contains(&finding.code) {
                return None;
            }
            if let Some(level) = rules.severity.get(&finding.code) {
                severity = *level;
            }
        }
        Some(severity)
    }
}

/// The files findings are in, read once each through the workspace port:
/// their comments for [`LintPolicy::apply`], their lines for [`Baseline`].
pub struct Sources<'a> {
    reader: &'a dyn Workspace,
    files: BTreeMap<String, Source>,
    diagnostics: Vec<Diagnostic>,
}

/// One file's text and comments.
struct Source {
    text: String,
    suppressions: Suppressions,
}

impl<'a> Sources<'a> {
    /// Nothing read yet from `reader`'s workspace.
    pub fn new(reader: &'a dyn Workspace) -> Self {
        Self {
            reader,
            files: BTreeMap::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The warnings about the comments read so far (unknown codes and
    /// directives), in the order they were met.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    /// The file at `path`, read on first use; a file that cannot be read
    /// now (lint has said why) has no text and no comments.
    fn source(&mut self, path: &str) -> &Source {
        let Self {
            reader,
            files,
            diagnostics,
        } = self;
        files.entry(path.to_string()).or_insert_with(|| {
            let text = reader
                .read(path, limits::MAX_CLAUDE_FILE_BYTES)
                .map(|read| decode_lossy(&read.bytes).into_owned())
                .unwrap_or_default();
            let (suppressions, warnings) = Suppressions::scan(&text);
            let display = reader.display(path);
            diagnostics.extend(warnings.into_iter().map(|(line, reason)| {
                Diagnostic::warning(&display, format!("line {line}: {reason}"))
            }));
            Source { text, suppressions }
        })
    }

    fn suppressions(&mut self, path: &str) -> &Suppressions {
        &self.source(path).suppressions
    }

    /// The hash a baseline keeps of `finding`'s line: the first 16 hex
    /// digits of the SHA-256 of the line, trimmed (of the empty line when
    /// the finding has none, or the file no longer has it).
    fn line_hash(&mut self, finding: &Finding) -> String {
        let text = &self.source(&finding.path).text;
        let line = finding
            .line
            .and_then(|n| usize::try_from(n.checked_sub(1)?).ok())
            .and_then(|index| text.split('\n').nth(index))
            .unwrap_or("");
        let mut hash = sha256_hex(line.trim());
        hash.truncate(16);
        hash
    }
}

/// The warning's reason for a code that is not one of [`Code::ALL`].
fn unknown_code(id: &str) -> String {
    let first = Code::ALL.first().map_or("", |c| c.as_str());
    let last = Code::ALL.last().map_or("", |c| c.as_str());
    format!("unknown lint code {id:?} (the codes are {first} to {last}); it is ignored")
}

#[cfg(test)]
mod tests;
