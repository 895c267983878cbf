//! The engine's profile (SPEC Part I, §14.1): the default, what Mecatl
//! itself sends, its pipeline handed in by the composition root.

mod lint;
mod run;

use crate::limits;
use crate::prompt::command::NameGrammar;
use crate::prompt::instructions::INSTRUCTION_FILES;
use crate::prompt::lint::report::LintHooks;
use crate::prompt::profile::Agent;
use crate::prompt::profile::seam::{Profile, ProfileRun, ProfileSpec, Setup};
use crate::prompt::tokens::Tokenizer;

/// The engine's data.
pub const SPEC: ProfileSpec = ProfileSpec {
    agent: Agent::Mecatl,
    name: "mecatl",
    title: "mecatl",
    summary: "the engine",
    // The engine names no model.
    tokenizer: Tokenizer::Estimate,
    read_cap: limits::MAX_INSTRUCTIONS_READ_BYTES,
    sigil: '/',
    names: NameGrammar::Plain,
    has_rules: true,
    homes: &[],
    instruction_names: &INSTRUCTION_FILES,
    nested_instructions: false,
    config_dirs: &[".mecatl"],
    vars: &[],
    default_when: &[],
    lazy_in_compare: false,
};

/// The engine's registration.
pub struct Mecatl;

impl Profile for Mecatl {
    fn spec(&self) -> &'static ProfileSpec {
        &SPEC
    }

    fn open<'a>(&self, setup: &'a Setup<'a>) -> Box<dyn ProfileRun + 'a> {
        Box::new(run::MecatlRun { setup })
    }

    fn lint(&self) -> Option<&'static dyn LintHooks> {
        Some(&lint::MecatlLint)
    }
}
