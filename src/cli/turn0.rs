//! The turn-0 pipeline of the binary (SPEC §6.1): the options that choose
//! what the turn-0 messages contain, and the one registration list that
//! wires each source's domain assembler to its file adapter. `assemble`,
//! `snapshot` and `check` run it; `--stats` reads its report.
//!
//! Adding a turn-0 source: its domain assembler, its adapter, its
//! `--no-…` flag below and one entry in [`assemblers`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use crate::adapters::memoryfs::MemoryStore;
use crate::adapters::soulfs::SoulFile;
use crate::cli::context::Context;
use crate::cli::context::with_context_diagnostics;
use crate::cli::error::CliError;
use crate::cli::readers::Readers;
use crate::cli::sources::rule_dirs_through;
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::instructions::RootAssembler;
use crate::prompt::memory_index::MemoryIndexAssembler;
use crate::prompt::rules::RulesAssembler;
use crate::prompt::rules::lazy::LazyRulesSource;
use crate::prompt::soul::SoulAssembler;
use crate::prompt::turn0::{
    InstructionAssembler, LeftOutReason, MultiAssembler, ReadFault, Turn0Report,
};
use crate::prompt::user_model::UserModelAssembler;

/// The options that choose what the turn-0 messages contain. Shared by
/// `assemble`, `snapshot` and `check`.
#[derive(Debug, Clone, Default, Args)]
pub struct Turn0Args {
    /// Leave out the project instructions (AGENTS.md / CLAUDE.md)
    #[arg(long)]
    pub no_instructions: bool,

    /// Leave out the rules message
    #[arg(long)]
    pub no_rules: bool,

    /// Use this soul file instead of the config home's mecatl/soul.md
    #[arg(long, value_name = "FILE", conflicts_with = "no_soul")]
    pub soul_file: Option<PathBuf>,

    /// Leave out the soul
    #[arg(long)]
    pub no_soul: bool,

    /// Read the memory store from DIR [default: $MECATL_MEMORY_DIR, else the engine's directory]
    #[arg(long, value_name = "DIR", conflicts_with = "no_memory")]
    pub memory_dir: Option<PathBuf>,

    /// Leave out the memory index
    #[arg(long)]
    pub no_memory: bool,

    /// Read the user model from DIR [default: mecatl/usermodel in the config home]
    #[arg(long, value_name = "DIR", conflicts_with = "no_user_model")]
    pub user_model_dir: Option<PathBuf>,

    /// Leave out the user model
    #[arg(long)]
    pub no_user_model: bool,

    /// Largest rules message in bytes, header included (0 = 40960)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub rules_max_bytes: usize,

    /// Most rules in the rules message (0 = 32)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub rules_max_count: usize,
}

impl Turn0Args {
    /// The options given that only the engine's (mecatl) messages have:
    /// every one of them, as agent profiles load their own files.
    pub fn engine_options(&self) -> Vec<&'static str> {
        [
            (self.no_instructions, "--no-instructions"),
            (self.no_rules, "--no-rules"),
            (self.soul_file.is_some(), "--soul-file"),
            (self.no_soul, "--no-soul"),
            (self.memory_dir.is_some(), "--memory-dir"),
            (self.no_memory, "--no-memory"),
            (self.user_model_dir.is_some(), "--user-model-dir"),
            (self.no_user_model, "--no-user-model"),
            (self.rules_max_bytes != 0, "--rules-max-bytes"),
            (self.rules_max_count != 0, "--rules-max-count"),
        ]
        .into_iter()
        .filter_map(|(given, flag)| given.then_some(flag))
        .collect()
    }
}

/// The turn-0 assemblers the options select, in SPEC §6.1's order, each
/// over its file adapter, reading through `readers`. The one registration
/// list: a new source is one entry here.
fn assemblers(readers: &Readers<'_>, args: &Turn0Args) -> Vec<Box<dyn InstructionAssembler>> {
    let ctx = readers.context();
    let mut selected: Vec<Box<dyn InstructionAssembler>> = Vec::new();
    if !args.no_instructions {
        selected.push(Box::new(RootAssembler));
    }
    if !args.no_rules {
        selected.push(Box::new(RulesAssembler {
            src: Some(Arc::new(LazyRulesSource::new(rule_dirs_through(readers)))),
            max_bytes: args.rules_max_bytes,
            max_count: args.rules_max_count,
        }));
    }
    if !args.no_soul {
        selected.push(Box::new(SoulAssembler::new(soul_file(readers, args))));
    }
    if !args.no_memory
        && let Some(dir) = memory_dir(ctx, args)
    {
        selected.push(Box::new(MemoryIndexAssembler::new(MemoryStore::new(dir))));
    }
    if !args.no_user_model
        && let Some(dir) = user_model_dir(ctx, args)
    {
        selected.push(Box::new(UserModelAssembler::new(MemoryStore::new(dir))));
    }
    selected
}

/// The soul files: `--soul-file` (named by the operator, so its absence is
/// reported), else the config home's; then the project soul, withheld in
/// an untrusted workspace.
fn soul_file(readers: &Readers<'_>, args: &Turn0Args) -> SoulFile {
    let ctx = readers.context();
    let user = match &args.soul_file {
        Some(file) => Some(SoulFile::user_file(&ctx.resolve_path(file))),
        None => ctx.locations.user_soul().map(|p| SoulFile::user_file(&p)),
    };
    let mut soul = SoulFile::new(user, Some(SoulFile::project_file(readers.project_shared())));
    if args.soul_file.is_some() {
        soul = soul.operator_named();
    }
    if !ctx.trust.trusted {
        soul = soul.project_withheld();
    }
    soul
}

/// The memory store directory: `--memory-dir` (relative to `-C`), else
/// `$MECATL_MEMORY_DIR`, else the engine's default for this workspace.
fn memory_dir(ctx: &Context, args: &Turn0Args) -> Option<PathBuf> {
    if let Some(dir) = &args.memory_dir {
        return Some(ctx.resolve_path(dir));
    }
    if let Some(dir) = ctx.env.memory_dir.as_ref().filter(|d| !d.is_empty()) {
        return Some(ctx.resolve_path(Path::new(dir)));
    }
    ctx.locations.default_memory_dir(&ctx.workspace)
}

/// The user-model store directory: `--user-model-dir` (relative to `-C`),
/// else the config home's.
fn user_model_dir(ctx: &Context, args: &Turn0Args) -> Option<PathBuf> {
    match &args.user_model_dir {
        Some(dir) => Some(ctx.resolve_path(dir)),
        None => ctx.locations.user_model_dir(),
    }
}

/// Assembles the turn-0 messages the options select (SPEC §6.1). Only a
/// read fault on AGENTS.md/CLAUDE.md is an error; every other source fails
/// soft into diagnostics. The report's diagnostics open with the context's
/// own and end with the trust notice when trust withheld anything.
pub fn collect_turn0(ctx: &Context, args: &Turn0Args) -> Result<Turn0Report, CliError> {
    let mut report = engine_report(&Readers::new(ctx), args)?;
    let withheld = report
        .left_out
        .iter()
        .any(|fact| fact.reason == LeftOutReason::Withheld);
    report.diagnostics =
        with_context_diagnostics(ctx, std::mem::take(&mut report.diagnostics), withheld);
    if report.messages.is_empty() {
        report.diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            "no turn-0 messages: nothing to assemble",
        ));
    }
    Ok(report)
}

/// The turn-0 report of the sources the options select, read through
/// `readers`, with the diagnostics about the files looked at only (the
/// mecatl profile's turn 0, which `compare` runs beside the others).
pub fn engine_report(readers: &Readers<'_>, args: &Turn0Args) -> Result<Turn0Report, ReadFault> {
    let selected = assemblers(readers, args);
    let multi = MultiAssembler::new(selected.iter().map(Box::as_ref).collect());
    multi.report(readers.project())
}
