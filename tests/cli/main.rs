//! Integration tests: the real binary on temp workspaces (one test binary,
//! one module per subcommand).

mod assemble;
mod stats;
mod support;
