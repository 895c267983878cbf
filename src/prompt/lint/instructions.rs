//! AGENTS.md against CLAUDE.md (MP009), for every agent of the table
//! that loads them. Codex's budget (MP008) and the imports of Claude Code's
//! files (MP004–MP007) are those agents' own checks.

use crate::prompt::agents::PROFILES;
use crate::prompt::divergence;
use crate::prompt::lint::Code;
use crate::prompt::lint::report::{Lint, Out};

/// Runs the instruction checks.
pub(super) fn check(lint: &Lint<'_>, out: &mut Out) {
    for dir in lint.survey.dirs() {
        diverging(lint, dir, out);
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
    let found = divergence::instructions(lint.reader, dir, &PROFILES, &exists, &mut read);
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
