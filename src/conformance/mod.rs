//! Source conformance kits (SPEC §7.4): fixtures and checks that any
//! [`crate::prompt::rules::RulesSource`] or
//! [`crate::prompt::command::CommandSource`] must pass.

pub mod commands;
pub mod rules;
