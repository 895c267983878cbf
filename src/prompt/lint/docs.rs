//! The rule, command and skill files lint checks, read once through the
//! precedence engine (one directory at a time, every file read, so every
//! file is a winner of its own directory), each with the agents that load
//! it. Which directories, and who loads what in them, is every agent's
//! [`LintHooks::sources`](super::report::LintHooks::sources): today
//! - rules: `.claude/rules/**/*.md` anywhere (Claude Code); the files
//!   directly in the workspace root's `.claude/rules` and `.mecatl/rules`
//!   (mecatl, SPEC §3.2);
//! - commands: `.claude/commands/**/*.md` anywhere (Claude Code, `a/b.md` is
//!   `a:b`); the files directly in the root's `.claude/commands` and
//!   `.mecatl/commands` (mecatl);
//! - skills: `.claude/skills/<name>/SKILL.md` anywhere (Claude Code).
//!
//! Codex's skills are found by Codex's own search, in its hooks' checks.
//!
//! Choices the spec leaves open:
//! - Directories are read rules first, then commands, then skills, each
//!   kind in the order the agents name them, the agents in table order.
//! - A directory several agents load is read once, with the layout that
//!   finds the most files (nested when one of them reads it so); an agent
//!   that reads it flat loads only the files directly in it.

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::prompt::command::CommandFiles;
use crate::prompt::lint::report::{Doc, DocKind, DocSource, Lint, Out, SourceKind};
use crate::prompt::tiers::{Layout, ReadPolicy, SearchDir, Tier, resolve_all};
use crate::workspace::Workspace;

/// Reads every rule, command and skill file of the workspace that some
/// agent loads.
pub(super) fn collect(lint: &Lint<'_>, out: &mut Out) -> Vec<Doc> {
    let reader: Arc<dyn Workspace + '_> = Arc::new(lint.reader);
    let mut suffixes: Vec<(SourceKind, &str)> = Vec::new();
    for hooked in lint.hooked {
        for source in hooked.hooks.sources() {
            if !suffixes.contains(&(source.kind, source.dir)) {
                suffixes.push((source.kind, source.dir));
            }
        }
    }
    suffixes.sort_by_key(|(kind, _)| *kind);
    let mut docs = Vec::new();
    for (kind, suffix) in suffixes {
        for dir in lint.survey.dirs_ending(suffix) {
            let readers: Vec<(_, &DocSource)> = lint
                .hooked
                .iter()
                .flat_map(|hooked| {
                    let sources = hooked.hooks.sources().iter();
                    sources.map(move |source| (hooked.agent, source))
                })
                .filter(|(_, source)| source.dir == suffix && source.reaches(dir))
                .collect();
            let Some(layout) =
                readers
                    .iter()
                    .map(|(_, source)| source.layout)
                    .reduce(|widest, layout| {
                        if widest == Layout::Flat {
                            layout
                        } else {
                            widest
                        }
                    })
            else {
                continue;
            };
            let search = SearchDir::flat(reader.clone(), dir, Tier::Project).with_layout(layout);
            let resolution = resolve_all(&[search], &CommandFiles::WHOLE, ReadPolicy::ALL);
            for fault in &resolution.faults {
                out.diagnostics.push(Diagnostic::warning(
                    &fault.path,
                    format!("not linted: {}", fault.source),
                ));
            }
            for candidate in resolution.candidates {
                let Some(text) = candidate.item else {
                    continue;
                };
                let agents = readers
                    .iter()
                    .filter(|(_, source)| source.loads(dir, &candidate.rel))
                    .map(|(agent, _)| *agent)
                    .collect();
                let kind = match kind {
                    SourceKind::Rules => DocKind::Rule,
                    SourceKind::Commands => DocKind::Command(candidate.name),
                    SourceKind::Skills => DocKind::Skill(candidate.name),
                };
                docs.push(Doc {
                    rel: candidate.rel,
                    text,
                    kind,
                    agents,
                });
            }
        }
    }
    docs
}
