//! Integration tests: the real binary on temp workspaces (one test binary,
//! one module per area).

mod assemble;
mod assets;
mod build;
// Unix only: drives the CI scripts (bash) with the binary linked into a PATH directory.
#[cfg(unix)]
mod ci;
mod compare;
mod completions;
mod corpus;
mod diagnostics;
// Unix only: every case links one instruction file to another with a symbolic link.
#[cfg(unix)]
mod divergence;
mod exit;
mod expand;
mod explain;
mod formats;
// Unix only: runs git and a shell-script hook marked executable.
#[cfg(unix)]
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
mod profiles_gemini;
mod release;
mod rules_for;
mod schemas;
mod snapshot;
mod stats;
mod support;
mod trust;
