//! What `lint` asks of Gemini CLI (SPEC §16.7): its own checks over the
//! workspace's context files and settings ([`context`]): `context.fileName`
//! naming no file (MP019), GEMINI.md against the AGENTS.md or CLAUDE.md
//! beside it (MP020), files that load only below the start directory
//! (MP021), and the `@imports` of its context files as Gemini inlines them
//! (MP004–MP007, MP022).

mod context;
mod imports;

use crate::prompt::lint::report::{Doc, Lint, LintHooks, Out};

/// Gemini CLI's hooks.
pub(super) struct GeminiLint;

impl LintHooks for GeminiLint {
    fn check(&self, lint: &Lint<'_>, _docs: &[Doc], out: &mut Out) {
        context::check(lint, out);
    }
}

#[cfg(test)]
mod tests;
