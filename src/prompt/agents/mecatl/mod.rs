//! The engine's profile (SPEC Part I, §14.1): the default, what Mecatl
//! itself sends, its pipeline handed in by the composition root.

mod run;

use crate::limits;
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
    has_rules: true,
    homes: &[],
    config_dirs: &[".mecatl"],
    vars: &[],
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
}
