//! Integration tests: the real binary on temp workspaces (one test binary,
//! one module per subcommand).

mod assemble;
mod corpus;
mod hardening;
mod support;
