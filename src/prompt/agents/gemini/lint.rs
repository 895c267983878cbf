//! What `lint` asks of Gemini CLI (SPEC §16.7): its own checks, one call
//! per concern — its `.toml` commands ([`super::command_lint`]: MP017,
//! MP018, MP023) and a repository's `system.md` ([`super::system::lint`]:
//! MP024).

use crate::prompt::lint::report::{Doc, Lint, LintHooks, Out};

/// Gemini CLI's hooks.
pub(super) struct GeminiLint;

impl LintHooks for GeminiLint {
    fn check(&self, lint: &Lint<'_>, _docs: &[Doc], out: &mut Out) {
        super::command_lint::check(lint, out);
        super::system::lint(lint, out);
    }
}
