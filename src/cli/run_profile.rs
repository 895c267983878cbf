//! Opening an agent profile's run for one command: the composition root
//! hands the registered profile ([`crate::prompt::agents::PROFILES`]) the
//! run's readers, homes, options and the engine's pipeline; every
//! subcommand that asks a profile something goes through here.

use std::path::PathBuf;

use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::cli::readers::Readers;
use crate::cli::sources::{check_commands_dirs, engine_commands};
use crate::cli::turn0::{Turn0Args, engine_report};
use crate::prompt::profile::Agent;
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::seam::{HomeDir, ProfileRun, Setup};

/// The catalog of the run's profile (`ctx.agent`), read through the run's
/// plain readers, handed to `f`. `--commands-dir` replaces the engine's
/// directories and is a usage error under another profile.
pub fn with_catalog<R>(
    ctx: &Context,
    commands_dirs: &[PathBuf],
    f: impl FnOnce(&dyn Catalog) -> Result<R, CliError>,
) -> Result<R, CliError> {
    with_run(
        &Readers::new(ctx),
        ctx.agent,
        (&[], None),
        commands_dirs,
        |run| f(&*run.catalog()?),
    )
}

/// Opens `agent`'s run over `readers` (the run's readers, homes, options
/// — the `--touch` paths and the context window — and the engine's
/// pipeline, with `commands_dirs` as the engine's command directories when
/// given) and hands it to `f`.
pub fn with_run<R>(
    readers: &Readers<'_>,
    agent: Agent,
    (touch, context_window): (&[String], Option<u64>),
    commands_dirs: &[PathBuf],
    f: impl FnOnce(&dyn ProfileRun) -> Result<R, CliError>,
) -> Result<R, CliError> {
    let ctx = readers.context();
    check_commands_dirs(agent, commands_dirs)?;
    let homes = |home: &HomeDir| readers.home_of(home);
    let var = |name: &str| ctx.env.var(name);
    let engine = || engine_report(readers, &Turn0Args::default());
    let engine_catalog =
        || -> Box<dyn Catalog> { Box::new(engine_commands(readers, commands_dirs)) };
    let setup = Setup {
        project: readers.project_shared(),
        parent: readers.parent_shared(),
        homes: &homes,
        var: &var,
        home: ctx.locations.home.as_deref(),
        at: &ctx.at,
        trusted: ctx.trust.trusted,
        touch,
        context_window,
        engine: &engine,
        engine_catalog: &engine_catalog,
    };
    f(&*agent.profile().open(&setup))
}
