//! The rule, command and skill files lint checks, read once through the
//! precedence engine (one directory at a time, every file read, so every
//! file is a winner of its own directory), each with the agents that load
//! it:
//! - rules: `.claude/rules/**/*.md` anywhere (Claude Code); the files
//!   directly in the workspace root's `.claude/rules` and `.mecatl/rules`
//!   (mecatl, SPEC §3.2);
//! - commands: `.claude/commands/**/*.md` anywhere (Claude Code, `a/b.md` is
//!   `a:b`); the files directly in the root's `.claude/commands` and
//!   `.mecatl/commands` (mecatl);
//! - skills: `.claude/skills/<name>/SKILL.md` anywhere (Claude Code).
//!
//! Codex's skills are found by Codex's own search, in [`super::frontmatter`].

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::prompt::command::CommandFiles;
use crate::prompt::lint::{Lint, Out};
use crate::prompt::profile::Agent;
use crate::prompt::tiers::{Layout, ReadPolicy, SearchDir, Tier, resolve_all};
use crate::workspace::{Workspace, parent};

/// What a file is to the agents that load it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum DocKind {
    /// A rule.
    Rule,
    /// A command, with its name (`a:b` for Claude Code's `a/b.md`).
    Command(String),
    /// A skill's `SKILL.md`, with its directory's name.
    Skill(String),
}

/// One file and who loads it.
#[derive(Debug, Clone)]
pub(super) struct Doc {
    /// Workspace-relative path.
    pub(super) rel: String,
    /// Its text (lossily decoded, bounded as the engine reads commands).
    pub(super) text: String,
    /// What it is.
    pub(super) kind: DocKind,
    /// The agents that load it, in [`Agent::ALL`] order.
    pub(super) agents: Vec<Agent>,
}

impl Doc {
    /// True when `agent` loads the file.
    pub(super) fn read_by(&self, agent: Agent) -> bool {
        self.agents.contains(&agent)
    }
}

/// The directories read, each with its layout, what its files are and who
/// loads its files: `(suffix, layout, kind of file)`.
const SOURCES: [(&str, Layout, Source); 5] = [
    (".claude/rules", Layout::Nested, Source::Rules),
    (".mecatl/rules", Layout::Flat, Source::Rules),
    (".claude/commands", Layout::Nested, Source::Commands),
    (".mecatl/commands", Layout::Flat, Source::Commands),
    (".claude/skills", Layout::SkillDirs, Source::Skills),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Rules,
    Commands,
    Skills,
}

/// Reads every rule, command and skill file of the workspace.
pub(super) fn collect(lint: &Lint<'_>, out: &mut Out) -> Vec<Doc> {
    let reader: Arc<dyn Workspace + '_> = Arc::new(lint.reader);
    let mut docs = Vec::new();
    for (suffix, layout, source) in SOURCES {
        let claude_dir = suffix.starts_with(".claude/");
        for dir in lint.survey.dirs_ending(suffix) {
            let at_root = dir == suffix;
            if !claude_dir && !at_root {
                continue;
            }
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
                let mut agents = Vec::new();
                if at_root && parent(&candidate.rel) == dir {
                    agents.push(Agent::Mecatl);
                }
                if claude_dir {
                    agents.push(Agent::Claude);
                }
                let kind = match source {
                    Source::Rules => DocKind::Rule,
                    Source::Commands => DocKind::Command(candidate.name),
                    Source::Skills => DocKind::Skill(candidate.name),
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
