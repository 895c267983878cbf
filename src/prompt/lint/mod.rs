//! `lint` (SPEC §15.3): every file of a workspace that silently does
//! something other than its author meant, under any of the agent profiles,
//! as [`Finding`]s with a stable [`Code`], a severity, a path, a line and the
//! agents concerned. Pure: the workspace is read through the
//! [`Workspace`] port, and every rule is the domain's own (the YAML reader,
//! Claude Code's reading of frontmatter, the placeholders of both dialects,
//! the precedence engine, the import scanner and policy, the Codex chain) —
//! lint only asks them and words the answer.
//!
//! What is read: one bounded walk of the workspace (`survey`) finds the
//! instruction files and the `.claude`, `.mecatl`, `.agents` and `.codex`
//! directories at any depth (a profile's loader only reads the path to its
//! start directory, but lint checks every start directory at once);
//! `docs` reads the rule, command and skill files through the precedence
//! engine. Then:
//! - `frontmatter`: rules, commands and skills — invalid YAML (MP001),
//!   unquoted `*` globs (MP002), misplaced blocks (MP003), Cursor/Copilot
//!   keys in rules (MP012), skills' names and descriptions (MP013, MP014);
//! - `templates`: command bodies — `argument-hint` without a placeholder
//!   (MP010), `{{args}}` (MP011), `` !`cmd` `` (MP016), and commands a skill
//!   shadows (MP015);
//! - `instructions`: AGENTS.md/CLAUDE.md — Codex's budget (MP008),
//!   divergence (MP009);
//! - `import_chain`: the `@imports` of Claude Code's files — missing
//!   (MP004), cyclic (MP005), too deep (MP006), external (MP007).
//!
//! Choices the spec leaves open:
//! - **Project files only**, whatever the trust: the user's and the
//!   machine's files (`~/.claude`, `$CODEX_HOME`) are not read, so a run in
//!   CI and on a laptop agree. Codex is judged with its defaults (a
//!   32,768-byte budget, `.git` as the root marker, no fallback names), and a
//!   chain that finds no `.git` inside the workspace starts at the
//!   workspace root (a checkout without its `.git`, like the test corpus).
//! - **Start directories.** Imports are judged as if Claude Code started at
//!   `--at` (default: the workspace root), so an import is external when it
//!   leaves that directory. AGENTS.md is a Claude Code file (the fallback) only when no
//!   CLAUDE.md, `.claude/CLAUDE.md` or `CLAUDE.local.md` stands in its
//!   directory or above it.
//! - **The walk** skips `.git` and `node_modules` and is bounded like every
//!   tree walk ([`crate::limits::MAX_TREE_DEPTH`],
//!   [`crate::limits::MAX_TREE_ENTRIES`]); a cut walk is a warning.
//! - **Severity** is the code's, except: invalid YAML that Claude Code
//!   recovers by re-quoting is a warning (an error when it cannot, or when
//!   mecatl drops the rule), and a skill Codex does not list for want of a
//!   description is an error.
//! - **Imports** are reported only when they look like a file (an
//!   extension, a dotfile, or `./`, `../`, `~/`, `/`): `@Observable` in
//!   prose is not an import its author meant.
//! - **Divergence** (MP009) is per directory, as
//!   [`crate::prompt::divergence::instructions`] judges it (the default
//!   profile's warning comes from the same function).
//! - **`` !`cmd` ``** is a note: running it is what its author meant; the
//!   finding says that Claude Code sends its output and mecatl the text.
//! - **One finding per file and place**: when several agents are
//!   concerned, the finding names them all and says what each does.
//! - Lines are 1-based lines of the file; a finding about a whole file
//!   points at line 1.

mod codes;
mod docs;
mod frontmatter;
mod import_chain;
mod instructions;
pub mod policy;
mod survey;
mod templates;

use std::path::PathBuf;

use serde::Serialize;

pub use codes::Code;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::divergence::quote;
use crate::prompt::profile::Agent;
use crate::prompt::text::decode_lossy;
use crate::workspace::{Workspace, WsError};

/// How serious a finding is (SPEC §15.3; SARIF's `level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The file does not do what it says for some agent: exit 1.
    Error,
    /// Likely not what the author meant: exit 1 with `--deny warnings`.
    Warning,
    /// Worth knowing; never fails a run.
    Note,
}

impl Level {
    /// The lowercase word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

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

/// The outcome of [`lint`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LintReport {
    /// Every finding, by path, line and code.
    pub findings: Vec<Finding>,
    /// Files lint could not read, and a cut walk.
    pub diagnostics: Vec<Diagnostic>,
}

impl LintReport {
    /// Keeps the findings that concern at least one of `agents`.
    pub fn retain_agents(&mut self, agents: &[Agent]) {
        self.findings
            .retain(|finding| finding.agents.iter().any(|agent| agents.contains(agent)));
    }

    /// How many findings have `level`.
    pub fn count(&self, level: Level) -> usize {
        self.findings.iter().filter(|f| f.severity == level).count()
    }
}

/// Lints the workspace `reader` is rooted at (SPEC §15.3).
pub fn lint(reader: &dyn Workspace, options: &LintOptions) -> LintReport {
    let survey = survey::survey(reader);
    let mut out = Out::default();
    if survey.cut {
        out.diagnostics.push(Diagnostic::warning(
            reader.display(""),
            format!(
                "the workspace holds more than {} entries (or is deeper than {} levels); \
                 files past that bound are not linted",
                limits::MAX_TREE_ENTRIES,
                limits::MAX_TREE_DEPTH
            ),
        ));
    }
    let lint = Lint {
        reader,
        survey: &survey,
        options,
    };
    let docs = docs::collect(&lint, &mut out);
    frontmatter::check(&lint, &docs, &mut out);
    templates::check(&lint, &docs, &mut out);
    instructions::check(&lint, &mut out);
    import_chain::check(&lint, &docs, &mut out);
    let mut findings = out.findings;
    findings.sort_by(|a, b| (&a.path, a.line, a.code).cmp(&(&b.path, b.line, b.code)));
    findings.dedup();
    // Two checks may fail to read the same file: say so once.
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for diagnostic in out.diagnostics {
        if !diagnostics.contains(&diagnostic) {
            diagnostics.push(diagnostic);
        }
    }
    LintReport {
        findings,
        diagnostics,
    }
}

/// What every check reads from.
struct Lint<'a> {
    reader: &'a dyn Workspace,
    survey: &'a survey::Survey,
    options: &'a LintOptions,
}

impl Lint<'_> {
    /// The text of `rel`, up to [`limits::MAX_CLAUDE_FILE_BYTES`] (the most
    /// any agent reads of these files), decoded lossily; `None` with a
    /// diagnostic when it cannot be read, and silently when it is gone.
    fn read(&self, rel: &str, out: &mut Out) -> Option<String> {
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

/// Where the checks put what they find.
#[derive(Debug, Default)]
struct Out {
    findings: Vec<Finding>,
    diagnostics: Vec<Diagnostic>,
}

impl Out {
    /// Adds a finding of `code` at its default severity; nothing when no
    /// agent is concerned.
    fn add(
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
    fn add_at(
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
}

/// The 1-based line of byte `offset` in `text`.
fn line_at(text: &str, offset: usize) -> u64 {
    let end = offset.min(text.len());
    1 + text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count() as u64
}

#[cfg(test)]
mod tests;
