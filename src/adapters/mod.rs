//! Adapters at the edge: they implement the domain's ports over the
//! filesystem, the process environment and subprocesses.

pub mod builder_cmd;
pub mod command_line;
pub mod commandsfs;
pub mod git;
pub mod locations;
pub mod memoryfs;
pub mod process;
pub mod rulesfs;
pub mod settings;
pub mod soulfs;
pub mod trust;
