//! mecatl-prompt: assembles what a coding agent's model sees — a layered
//! system prompt and the turn-0 messages — from the files in a repository and
//! the user's config (see SPEC.md).
//!
//! The crate is split into a pure domain ([`prompt`]), which sees the world
//! only through the [`workspace::Workspace`] port and the source traits it
//! declares, filesystem [`adapters`] that implement those ports, and the
//! command-line front end in `cli`.

pub mod adapters;
pub mod cli;
pub mod conformance;
pub mod diagnostic;
#[cfg(test)]
mod json_schema;
pub mod limits;
pub mod prompt;
#[cfg(test)]
mod test_corpus;
pub mod workspace;
