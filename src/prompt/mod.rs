//! The prompt engine: the pure domain. Nothing here touches `std::fs`, the
//! clock or the process environment; files arrive through
//! [`crate::workspace::Workspace`] and the source traits declared beside
//! their consumers.

pub mod agents;
pub mod build;
pub mod check_stable;
pub mod command;
pub mod compare;
pub mod defaults;
pub mod divergence;
pub mod env;
pub mod glob;
pub mod imports;
pub mod instructions;
pub mod jsonc;
pub mod lint;
pub mod markdown;
pub mod memory_index;
pub mod operator_profile;
pub mod profile;
pub mod rules;
pub mod soul;
pub mod text;
pub mod tiers;
pub mod tokens;
pub mod tools;
pub mod turn0;
pub mod user_model;
pub mod walk;
pub mod yaml;
