//! Integration tests: the real binary on temp workspaces (one test binary,
//! one module per area).

mod assemble;
mod assets;
mod build;
mod ci;
mod compare;
mod completions;
mod corpus;
mod diagnostics;
mod divergence;
mod exit;
mod expand;
mod explain;
mod formats;
mod gemini_commands;
mod git;
mod golden;
mod hardening;
mod lint;
mod lint_config;
mod oracle;
mod paths;
mod profile_commands;
mod profiles;
mod profiles_claude;
mod profiles_copilot;
mod profiles_gemini;
mod profiles_opencode;
mod release;
mod rules_for;
mod schemas;
mod snapshot;
mod stats;
mod support;
mod trust;
mod turn0_inventory;
