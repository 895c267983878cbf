//! What every check of `lint` reads from and writes into, an agent's own
//! checks included: the run ([`Lint`]), the rule, command and skill files
//! read once ([`Doc`]), where findings go ([`Out`]) and what a finding is
//! ([`Finding`], [`Level`]); and what an agent hands lint ([`LintHooks`]).
//! Nothing here names an agent, so an agent's folder implements its hooks
//! against this module while lint's driver walks
//! [`crate::prompt::agents::PROFILES`], with no import circle.
//!
//! Choices the spec leaves open:
//! - An agent's reading of a block is an [`Effect`]: its words and whether
//!   the file loses the block, so one MP001 finding says what each agent
//!   does, in table order.
//! - A directory of files ([`DocSource`]) is named by its path inside a
//!   project and read at any depth, or only at the workspace root.

use std::path::PathBuf;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::lint::codes::{Code, Level};
use crate::prompt::lint::survey::Survey;
use crate::prompt::profile::Agent;
use crate::prompt::text::decode_lossy;
use crate::prompt::tiers::Layout;
use crate::prompt::yaml::YamlProblem;
use crate::workspace::{Workspace, WsError, parent};

/// One problem in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Finding {
    /// The check that found it.
    pub code: Code,
    /// How serious it is.
    pub severity: Level,
    /// The file, workspace-relative with `/`.
    pub path: String,
    /// The 1-based line, when the problem has one.
    pub line: Option<u64>,
    /// What is wrong and what the agents do with it; one line.
    pub message: String,
    /// The agents whose view of the file it concerns.
    pub agents: Vec<Agent>,
}

/// What `lint` needs besides the workspace.
#[derive(Debug, Clone, Default)]
pub struct LintOptions {
    /// The user's home directory, where `@~/…` imports point (never read:
    /// such an import is outside the workspace either way).
    pub home: Option<PathBuf>,
    /// The directory Claude Code is taken to start in (`--at`),
    /// workspace-relative, `""` for the root: an import from a project file
    /// that leaves it is external.
    pub at: String,
}

/// What every check reads from.
pub struct Lint<'a> {
    /// The workspace.
    pub reader: &'a dyn Workspace,
    /// What the one walk of the workspace found.
    pub survey: &'a Survey,
    /// The run's options.
    pub options: &'a LintOptions,
    /// Every agent that has hooks, in table order.
    pub hooked: &'a [Hooked],
}

impl Lint<'_> {
    /// The text of `rel`, up to [`limits::MAX_CLAUDE_FILE_BYTES`] (the most
    /// any agent reads of these files), decoded lossily; `None` with a
    /// diagnostic when it cannot be read, and silently when it is gone.
    pub fn read(&self, rel: &str, out: &mut Out) -> Option<String> {
        match self.reader.read(rel, limits::MAX_CLAUDE_FILE_BYTES) {
            Ok(read) => Some(decode_lossy(&read.bytes).into_owned()),
            Err(WsError::NotFound) => None,
            Err(err) => {
                out.diagnostics.push(Diagnostic::warning(
                    self.reader.display(rel),
                    format!("not linted: {err}"),
                ));
                None
            }
        }
    }
}

/// One agent's hooks, with the agent.
#[derive(Clone, Copy)]
pub struct Hooked {
    /// The agent.
    pub agent: Agent,
    /// What it hands lint.
    pub hooks: &'static dyn LintHooks,
}

/// Where the checks put what they find.
#[derive(Debug, Default)]
pub struct Out {
    /// The findings, in the order found.
    pub findings: Vec<Finding>,
    /// Files that could not be read, and a cut walk.
    pub diagnostics: Vec<Diagnostic>,
}

impl Out {
    /// Adds a finding of `code` at its default severity; nothing when no
    /// agent is concerned.
    pub fn add(
        &mut self,
        code: Code,
        path: &str,
        line: Option<u64>,
        agents: Vec<Agent>,
        message: impl Into<String>,
    ) {
        self.add_at(code.level(), code, path, line, agents, message);
    }

    /// Adds a finding with its own severity; nothing when no agent is
    /// concerned.
    pub fn add_at(
        &mut self,
        severity: Level,
        code: Code,
        path: &str,
        line: Option<u64>,
        mut agents: Vec<Agent>,
        message: impl Into<String>,
    ) {
        if agents.is_empty() {
            return;
        }
        agents.sort_by_key(|agent| Agent::ALL.iter().position(|a| a == agent));
        agents.dedup();
        self.findings.push(Finding {
            code,
            severity,
            path: path.to_string(),
            line,
            message: message.into(),
            agents,
        });
    }

    /// One YAML error of the block of `path` and what it does to each
    /// agent: an MP001 (or MP002 for an alias) finding, an error when some
    /// agent loses the block; nothing when no agent is affected.
    pub fn block_error(&mut self, path: &str, at: BlockError, effects: &[Effect]) {
        if effects.is_empty() {
            return;
        }
        let code = match at.problem {
            YamlProblem::Alias => Code::UnquotedGlob,
            _ => Code::InvalidYaml,
        };
        let severity = if effects.iter().any(|effect| effect.loses) {
            Level::Error
        } else {
            Level::Warning
        };
        let what: Vec<&str> = effects.iter().map(|effect| effect.words).collect();
        let (line, column) = (at.line, at.column);
        self.add_at(
            severity,
            code,
            path,
            Some(line),
            effects.iter().map(|effect| effect.agent).collect(),
            format!(
                "line {line}, column {column}: {}; {}",
                at.problem.describe(),
                what.join("; ")
            ),
        );
    }
}

/// Where a block stops being valid YAML: 1-based line and column of the
/// file, and why.
#[derive(Debug, Clone, Copy)]
pub struct BlockError {
    /// The line of the file.
    pub line: u64,
    /// The column.
    pub column: u64,
    /// What is wrong.
    pub problem: YamlProblem,
}

/// What reading an invalid block did to one agent's view of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effect {
    /// The agent.
    pub agent: Agent,
    /// What it does, for the finding's message.
    pub words: &'static str,
    /// True when the file loses what its block says.
    pub loses: bool,
}

/// What a file is to the agents that load it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocKind {
    /// A rule.
    Rule,
    /// A command, with its name (`a:b` for Claude Code's `a/b.md`).
    Command(String),
    /// A skill's `SKILL.md`, with its directory's name.
    Skill(String),
}

/// One rule, command or skill file and who loads it.
#[derive(Debug, Clone)]
pub struct Doc {
    /// Workspace-relative path.
    pub rel: String,
    /// Its text (lossily decoded, bounded as the engine reads commands).
    pub text: String,
    /// What it is.
    pub kind: DocKind,
    /// The agents that load it, in [`Agent::ALL`] order.
    pub agents: Vec<Agent>,
}

impl Doc {
    /// True when `agent` loads the file.
    pub fn read_by(&self, agent: Agent) -> bool {
        self.agents.contains(&agent)
    }
}

/// What the files of a [`DocSource`] are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SourceKind {
    /// Rules.
    Rules,
    /// Commands.
    Commands,
    /// Skills, one directory each.
    Skills,
}

/// A directory of rule, command or skill files an agent loads from a
/// project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocSource {
    /// Its path inside a project directory (`.claude/commands`).
    pub dir: &'static str,
    /// What its files are.
    pub kind: SourceKind,
    /// How the agent maps its files to names; [`Layout::Flat`] loads only
    /// the files directly in it.
    pub layout: Layout,
    /// True when the agent reads only the workspace root's directory.
    pub root_only: bool,
}

impl DocSource {
    /// True when the agent reads the directory `dir` (one whose path ends
    /// with [`DocSource::dir`]).
    pub fn reaches(&self, dir: &str) -> bool {
        !self.root_only || dir == self.dir
    }

    /// True when the agent loads the file `rel` of the directory `dir`.
    pub fn loads(&self, dir: &str, rel: &str) -> bool {
        let flat = self.layout != Layout::Flat || parent(rel) == dir;
        self.reaches(dir) && flat
    }
}

/// What an agent hands `lint` ([`crate::prompt::profile::seam::Profile::lint`]).
pub trait LintHooks: Sync {
    /// The directories of rule, command and skill files it loads from a
    /// project, read for every agent at once.
    fn sources(&self) -> &'static [DocSource] {
        &[]
    }

    /// What its reading of `doc`'s frontmatter does to the file when the
    /// block is not valid YAML to it: where, and the effect.
    fn frontmatter(&self, _doc: &Doc) -> Option<(BlockError, Effect)> {
        None
    }

    /// Whether it loses a block that a byte-order mark precedes in a file
    /// of `kind` (a block after whitespace is lost to every agent).
    fn loses_block_after_bom(&self, _kind: &DocKind) -> bool {
        false
    }

    /// Its own checks, over the workspace and the files of every agent's
    /// sources.
    fn check(&self, _lint: &Lint<'_>, _docs: &[Doc], _out: &mut Out) {}
}

/// The 1-based line of byte `offset` in `text`.
pub fn line_at(text: &str, offset: usize) -> u64 {
    let end = offset.min(text.len());
    1 + text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count() as u64
}

/// `text` on one line and at most [`limits::LINT_QUOTE_CHARS`] characters
/// (with `…` when cut), for quoting a command or a path in a message.
pub fn quote(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let one_line = one_line.trim();
    match one_line.char_indices().nth(limits::LINT_QUOTE_CHARS) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line.to_string(),
    }
}
