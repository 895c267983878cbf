//! Instruction-file checks: Codex's budget (MP008, from the chain of
//! [`crate::prompt::agents::codex::chain`]) and AGENTS.md against CLAUDE.md
//! (MP009). The imports of Claude Code's files are [`super::import_chain`].

use crate::prompt::agents::codex::CodexConfig;
use crate::prompt::agents::codex::chain::{
    AGENTS_NAME, LeftOutReason, OVERRIDE_NAME, chain, find_root, project_docs,
};
use crate::prompt::divergence;
use crate::prompt::lint::{Code, Lint, Out, line_at};
use crate::prompt::profile::Agent;
use crate::prompt::walk::walk;
use crate::workspace::join;

/// Runs the instruction checks.
pub(super) fn check(lint: &Lint<'_>, out: &mut Out) {
    codex_budget(lint, out);
    for dir in lint.survey.dirs() {
        diverging(lint, dir, out);
    }
}

/// MP008: for Codex started in each directory that holds an AGENTS.md (or
/// an override), every file of its chain that the budget cuts or drops.
/// The same file met from several start directories gives the same
/// finding, which the report keeps once.
fn codex_budget(lint: &Lint<'_>, out: &mut Out) {
    let config = CodexConfig::default();
    for dir in lint.survey.dirs() {
        let holds_doc = [OVERRIDE_NAME, AGENTS_NAME]
            .iter()
            .any(|name| lint.survey.has_file(&join(dir, name)));
        if !holds_doc {
            continue;
        }
        let Ok(walked) = walk(None, lint.reader, dir) else {
            continue;
        };
        // No marker inside the workspace: its root stands for the project
        // root (a checkout copied without its `.git`).
        let root = find_root(&walked, &config.project_root_markers);
        // Lint reads to check, whatever the trust (never to inject).
        let docs = match root {
            Some(root) => project_docs(chain(&walked, Some(&root)), &config, true),
            None => project_docs(&walked, &config, true),
        };
        let budget = docs.budget;
        for part in &docs.parts {
            let Some(cut) = part.cut else { continue };
            let line = line_at(&part.content, part.content.len());
            out.add(
                Code::CodexBudget,
                &part.path,
                Some(line),
                vec![Agent::Codex],
                format!(
                    "Codex sends only the first {} of its {} bytes: the AGENTS.md chain may hold \
                     {budget} bytes (project_doc_max_bytes) and is cut here, on line {line}, \
                     without a word",
                    cut.kept,
                    cut.kept + cut.omitted
                ),
            );
        }
        for left in &docs.left_out {
            let message = match &left.reason {
                LeftOutReason::OverBudget { size } => format!(
                    "Codex drops this file ({size} bytes): the files above it in the AGENTS.md \
                     chain use up its {budget}-byte budget (project_doc_max_bytes), without a \
                     word"
                ),
                LeftOutReason::CutToBlank(cut) => format!(
                    "Codex drops this file: the {} bytes its {budget}-byte budget leaves are \
                     whitespace, and {} bytes are left out, without a word",
                    cut.kept, cut.omitted
                ),
                _ => continue,
            };
            out.add(
                Code::CodexBudget,
                &left.path,
                Some(1),
                vec![Agent::Codex],
                message,
            );
        }
    }
}

/// MP009: in `dir`, an AGENTS.md and a Claude Code file that diverge, as
/// [`divergence::instructions`] judges them (from the files the survey
/// found, read as lint reads).
fn diverging(lint: &Lint<'_>, dir: &str, out: &mut Out) {
    let exists = |rel: &str| lint.survey.has_file(rel);
    let mut diagnostics = Vec::new();
    let mut read = |rel: &str| {
        let mut read_out = Out::default();
        let text = lint.read(rel, &mut read_out);
        diagnostics.extend(read_out.diagnostics);
        text
    };
    let found = divergence::instructions(lint.reader, dir, &exists, &mut read);
    out.diagnostics.extend(diagnostics);
    if let Some(found) = found {
        out.add(
            Code::InstructionsDiverge,
            &found.path,
            Some(1),
            found.agents,
            found.message,
        );
    }
}
