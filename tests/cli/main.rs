//! Integration tests: the real binary on temp workspaces (one test binary,
//! one module per subcommand).

mod assemble;
mod assets;
mod completions;
mod formats;
mod rules_for;
mod support;
