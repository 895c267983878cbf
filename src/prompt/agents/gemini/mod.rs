//! The Gemini CLI profile (SPEC §16): the context files Gemini
//! CLI 0.61.0 loads at turn 0 (§16.2), their imports inlined (§16.3), its
//! two messages (§16.6) and what `--touch` adds. The recorded oracle cases
//! in `tests/oracle/cases/gemini/` are this module's contract.
//!
//! How the pieces fit: [`settings`] reads the three `context` keys of the
//! user's and the cwd's `settings.json`; [`context::chain`] finds each start
//! directory's root by its boundary markers; [`context::load`] finds the
//! context files of the walk and of `~/.gemini`, reads them through the
//! workspace readers, inlines their imports with [`imports::Inliner`] and
//! orders them as Gemini does; the run ([`run`]) wraps them in Gemini's
//! blocks and messages.
//!
//! Commands, skills and `system.md` (SPEC §16.4, §16.5): [`commands`]
//! finds the `.toml` files ([`toml_command`] reads one) and names them as
//! Gemini's clash rule does; [`expand`] expands a typed line; [`skills`]
//! makes the `<available_skills>` listing; [`system`] finds
//! `GEMINI_SYSTEM_MD` and the file it switches on; [`catalog`] answers
//! the CLI's questions over them. The recorded cases of
//! `tests/oracle/cases/gemini-commands/` are their contract.
//!
//! Lint ([`lint`]): the commands' and `system.md`'s checks
//! (`command_lint`, `system::lint`) and those of context files, settings
//! and imports (`lint::context`, `lint::imports`).
//!
//! Choices the spec leaves open:
//! - The user context is a `system`-role message (provenance
//!   `user_instructions`), since Gemini sends it at the end of its system
//!   instruction; the project context a `user`-role one (provenance
//!   `instructions`). Each message's `text` is the exact wire text,
//!   `<loaded_context>` wrappers included; each part's `content` is the
//!   body of one file's block.
//! - Files read lazily (`--touch`) are parts of the touch section; the
//!   `--- Newly Discovered Project Context ---` wrapper Gemini puts around
//!   them is named here ([`NEWLY_DISCOVERED_OPEN`]) for the tests, since a
//!   touch section carries parts only. Recorded by prompting `@PATH`, which
//!   makes Gemini read the file (`tests/oracle/cases/gemini/touch-*`).

pub mod catalog;
mod command_lint;
pub mod commands;
pub mod context;
pub mod expand;
pub mod imports;
mod lint;
mod mcp;
mod run;
pub mod settings;
pub mod skills;
mod spec;
pub mod system;
pub mod toml_command;

pub use spec::{DOT_GEMINI, GEMINI_HOME, GEMINI_MD, SPEC};

use crate::prompt::lint::report::LintHooks;
use crate::prompt::profile::seam::{Profile, ProfileRun, ProfileSpec, Setup};

/// What opens the user context at the end of Gemini's system instruction.
pub const USER_CONTEXT_OPEN: &str = "<loaded_context>\n";
/// What closes it.
pub const USER_CONTEXT_CLOSE: &str = "\n</loaded_context>";
/// What opens the project context in Gemini's first user turn.
pub const PROJECT_CONTEXT_OPEN: &str = "<loaded_context>\n<project_context>\n";
/// What closes it.
pub const PROJECT_CONTEXT_CLOSE: &str = "\n</project_context>\n</loaded_context>";
/// What opens the context files a tool's read discovers.
pub const NEWLY_DISCOVERED_OPEN: &str = "\n\n--- Newly Discovered Project Context ---\n";
/// What closes them.
pub const NEWLY_DISCOVERED_CLOSE: &str = "\n--- End Project Context ---";

/// Gemini CLI's registration.
pub struct Gemini;

impl Profile for Gemini {
    fn spec(&self) -> &'static ProfileSpec {
        &SPEC
    }

    fn open<'a>(&self, setup: &'a Setup<'a>) -> Box<dyn ProfileRun + 'a> {
        Box::new(run::GeminiRun::new(setup))
    }

    fn lint(&self) -> Option<&'static dyn LintHooks> {
        Some(&lint::GeminiLint)
    }
}

#[cfg(test)]
mod tests;
