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
//! instruction files and every profile's configuration directories
//! (`.claude`, `.mecatl`, `.agents`, `.codex`, `.gemini`) at any depth (a profile's
//! loader only reads the path to its start directory, but lint checks
//! every start directory at once); `docs` reads the rule, command and
//! skill files of every profile's sources through the precedence engine.
//! The profiles come from [`crate::prompt::agents::PROFILES`], each with
//! its [`report::LintHooks`]. Then:
//! - `frontmatter`: rules, commands and skills — invalid YAML (MP001),
//!   unquoted `*` globs (MP002), each agent reading the block its own way;
//!   misplaced blocks (MP003), Cursor/Copilot keys in rules (MP012);
//! - `templates`: command bodies — `argument-hint` without a placeholder
//!   (MP010), `{{args}}` (MP011), `` !`cmd` `` (MP016), and commands a skill
//!   shadows (MP015);
//! - `instructions`: AGENTS.md against CLAUDE.md (MP009);
//! - each agent's own checks, in table order: Claude Code's skills' names
//!   and descriptions (MP013, MP014) and the `@imports` of its files —
//!   missing (MP004), cyclic (MP005), too deep (MP006), external (MP007);
//!   Codex's skills (MP001–MP003, MP013, MP014) and its budget (MP008);
//!   Gemini CLI's context files — `context.fileName` naming nothing
//!   (MP019), GEMINI.md against AGENTS.md/CLAUDE.md (MP020), files below
//!   the start directory (MP021), files sent twice (MP022) — and their
//!   imports as Gemini inlines them (MP004–MP007).
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

pub mod codes;
mod docs;
mod frontmatter;
mod instructions;
pub mod policy;
pub mod report;
pub mod servers;
pub mod survey;
mod templates;

pub use codes::{Code, Level};
pub use report::{Finding, LintOptions};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::{self, PROFILES};
use crate::prompt::lint::report::{Hooked, Lint, Out};
use crate::prompt::profile::Agent;
use crate::workspace::Workspace;

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
    let survey = survey_workspace(reader);
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
    let hooked: Vec<Hooked> = PROFILES
        .iter()
        .filter_map(|profile| {
            let hooks = profile.lint()?;
            Some(Hooked {
                agent: profile.spec().agent,
                hooks,
            })
        })
        .collect();
    let lint = Lint {
        reader,
        survey: &survey,
        options,
        hooked: &hooked,
    };
    let docs = docs::collect(&lint, &mut out);
    frontmatter::check(&lint, &docs, &mut out);
    templates::check(&docs, &mut out);
    instructions::check(&lint, &mut out);
    for hooked in &hooked {
        hooked.hooks.check(&lint, &docs, &mut out);
    }
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

/// The one walk of the workspace, looking through links into every
/// profile's configuration directories.
pub fn survey_workspace(reader: &dyn Workspace) -> survey::Survey {
    let config_dirs: Vec<&str> = agents::config_dirs().collect();
    survey::survey(reader, &config_dirs)
}

#[cfg(test)]
mod tests;
