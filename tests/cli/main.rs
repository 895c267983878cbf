//! Integration tests: the real binary on temp workspaces (one test binary,
//! one module per subcommand).

mod assemble;
mod build;
mod diagnostics;
mod exit;
mod expand;
mod git;
mod golden;
mod paths;
mod support;
mod trust;
