//! Integration tests: the real binary on temp workspaces (one test binary,
//! one module per subcommand).

mod assemble;
mod assets;
mod completions;
mod explain;
mod formats;
mod rules_for;
mod snapshot;
mod stats;
mod support;
