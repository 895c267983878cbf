//! `snapshot`: print the manifest of the assembled context (SPEC §2.9),
//! the file `check` compares against; [`crate::cli::manifest`] builds it.

use crate::cli::context::Context;
use crate::cli::error::{CliError, Status};
use crate::cli::manifest::{ContextArgs, build_manifest};
use crate::cli::output;

/// Runs `snapshot`: the manifest on stdout, diagnostics on stderr.
pub fn run(ctx: &Context, args: &ContextArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("snapshot")?;
    let (manifest, diagnostics) = build_manifest(ctx, args)?;
    output::print_diagnostics(ctx, &diagnostics);
    output::print_json(&manifest)?;
    Ok(Status::Success)
}
