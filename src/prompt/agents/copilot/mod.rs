//! The GitHub Copilot CLI profile (SPEC §17), first slice: the instruction
//! files Copilot CLI 1.0.102 loads at turn 0 (§17.2), their `@` imports
//! inlined (§17.4), its path-specific instructions (§17.5), the one
//! region it sends them in (§17.3) and what viewing a file adds (§17.6). The recorded oracle cases in
//! `tests/oracle/cases/copilot/` are this module's contract.
//!
//! How the pieces fit: [`instructions::Dirs`] finds the root (the nearest
//! directory holding `.git`) on the walk to the cwd;
//! [`instructions::load`] finds and reads the repository-level and user
//! files in Copilot's order, inlining imports with [`imports::Inliner`];
//! [`paths::load`] reads the path-specific sets; the run ([`run`]) lays
//! them out with [`region`].
//!
//! What a view adds (`--touch`, §17.6) is [`touch::Session`].
//!
//! Its skills and commands (§17.7) are found by [`skills`] and offered by
//! [`catalog`]: `commands list`, the listing, `explain`.
//!
//! [`expand`] renders `/NAME args` as Copilot's interactive session sends
//! it; `expand --print` shows what `copilot -p` sends: the line as typed.
//!
//! Its lint codes, MP030–MP036, are `lint`'s.
//!
//! Its custom agents (`.github/agents`, §19.7) are [`subagents`]: listed
//! in Copilot's `task` tool, shown as a message of provenance `agents`.
//!
//! Choices the spec leaves open: listed in each module's documentation.

pub mod catalog;
pub mod expand;
pub mod imports;
pub mod instructions;
mod lint;
pub mod paths;
pub mod region;
mod run;
pub mod skills;
mod spec;
pub mod subagents;
pub mod touch;

pub use spec::{
    AGENTS_HOME, COPILOT_HOME, COPILOT_INSTRUCTIONS_MD, CUSTOM_INSTRUCTIONS_DIRS_VAR,
    INSTRUCTIONS_DIR, SPEC,
};

use crate::prompt::lint::report::LintHooks;
use crate::prompt::profile::seam::{Profile, ProfileRun, ProfileSpec, Setup};

/// GitHub Copilot CLI's registration.
pub struct Copilot;

impl Profile for Copilot {
    fn spec(&self) -> &'static ProfileSpec {
        &SPEC
    }

    fn open<'a>(&self, setup: &'a Setup<'a>) -> Box<dyn ProfileRun + 'a> {
        Box::new(run::CopilotRun::new(setup))
    }

    fn lint(&self) -> Option<&'static dyn LintHooks> {
        Some(&lint::CopilotLint)
    }
}

#[cfg(test)]
mod tests;
