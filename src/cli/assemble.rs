//! `assemble`: print the turn-0 messages (SPEC §2.5), or under an agent
//! profile the parts that agent loads at start (SPEC §14.7, rendered by
//! [`crate::cli::parts`]).

use std::mem::ManuallyDrop;

use clap::Args;
use serde::Serialize;

use crate::adapters::trust::Trust;
use crate::cli::args::ListingArgs;
use crate::cli::args::TouchArgs;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::parts::{self, ProfileDocument};
use crate::cli::profile::{ProfileArgs, profile_turn0};
use crate::cli::provider;
use crate::cli::stats::{self, Stats, Turn0AccountingArgs};
use crate::cli::turn0::{Turn0Args, collect_turn0};
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::PROFILES;
use crate::prompt::divergence;
use crate::prompt::instructions::{AGENTS_FILE, sent_from};
use crate::prompt::profile::Agent;
use crate::prompt::profile::seam::touch_adds_nothing;
use crate::prompt::turn0::{AssembledMessage, MessageKind, Provenance, Role};

/// Arguments of `assemble`.
#[derive(Debug, Clone, Args)]
pub struct AssembleArgs {
    /// What the turn-0 messages contain.
    #[command(flatten)]
    pub turn0: Turn0Args,
    /// `--stats` and the turn-0 budget.
    #[command(flatten)]
    pub accounting: Turn0AccountingArgs,
    /// What reading a file adds.
    #[command(flatten)]
    pub touch: TouchArgs,
    /// What sizes Claude Code's skills listing.
    #[command(flatten)]
    pub listing: ListingArgs,
}

/// One turn-0 message as the JSON output shows it.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct MessageView<'a> {
    role: Role,
    text: &'a str,
    kind: MessageKind,
    provenance: Provenance,
}

impl<'a> From<&'a AssembledMessage> for MessageView<'a> {
    fn from(assembled: &'a AssembledMessage) -> Self {
        Self {
            role: assembled.message.role,
            text: &assembled.message.text,
            kind: assembled.provenance.kind(),
            provenance: assembled.provenance,
        }
    }
}

/// The JSON document of `assemble` under the engine (SPEC §2.5): the turn-0
/// messages, `--stats`, the diagnostics and trust.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct AssembleDocument<'a> {
    #[serde(flatten)]
    head: DocHead<'a>,
    messages: Vec<MessageView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Stats>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// The text rendering: each message under a header line
/// `── message N · ROLE · PROVENANCE ──`, its body ending in a newline, and
/// one blank line between messages. Written in parts, so that messages of
/// tens of KiB are not copied into one more buffer on their way out.
fn write_text(messages: &[AssembledMessage]) -> std::io::Result<()> {
    let headers: Vec<String> = messages
        .iter()
        .enumerate()
        .map(|(i, message)| {
            format!(
                "{}── message {} · {} · {} ──\n",
                if i > 0 { "\n" } else { "" },
                i + 1,
                message.message.role.as_str(),
                message.provenance
            )
        })
        .collect();
    let mut parts: Vec<&[u8]> = Vec::with_capacity(3 * messages.len());
    for (header, assembled) in headers.iter().zip(messages) {
        let text = &assembled.message.text;
        parts.push(header.as_bytes());
        parts.push(text.as_bytes());
        if !text.ends_with('\n') {
            parts.push(b"\n");
        }
    }
    output::write_stdout_parts(&parts)
}

/// Runs `assemble`.
pub fn run(ctx: &Context, args: &AssembleArgs) -> Result<Status, CliError> {
    ctx.require_format("assemble", &[Format::Anthropic, Format::Openai])?;
    let profile = ProfileArgs::resolve(ctx, &args.touch, &args.listing)?;
    if ctx.agent != Agent::Mecatl {
        return run_profile(ctx, args, &profile);
    }
    // The process ends once the report is printed, so it is not freed
    // piece by piece: over 10,000 rules it holds 10,000 left-out facts,
    // and freeing them cost a tenth of the run.
    let mut turn0 = ManuallyDrop::new(collect_turn0(ctx, &args.turn0)?);
    // Only when the engine sent AGENTS.md does Claude Code load another file.
    let sent = turn0
        .message(Provenance::Project)
        .and_then(|m| m.source.as_deref());
    if sent.is_some_and(|source| sent_from(source, AGENTS_FILE)) {
        turn0
            .diagnostics
            .extend(divergence::root_instructions_warning(
                &*ctx.reader,
                &PROFILES,
            ));
    }
    turn0.diagnostics.extend(
        profile
            .touch
            .iter()
            .map(|path| touch_adds_nothing(Agent::Mecatl.spec(), path)),
    );
    output::print_diagnostics(ctx, &turn0.diagnostics);
    let accounting = stats::for_turn0(&turn0, &args.turn0, &args.accounting, ctx.agent.tokenizer());
    let messages = &turn0.messages;
    let texts = || messages.iter().map(|m| m.message.text.as_str());
    match ctx.format {
        Format::Json => output::print_json(&AssembleDocument {
            head: DocHead::of(ctx),
            messages: messages.iter().map(MessageView::from).collect(),
            stats: accounting.json_stats(),
            diagnostics: &accounting.diagnostics_after(&turn0.diagnostics),
            trust: ctx.trust,
        })?,
        Format::Anthropic => output::print_json(&provider::anthropic_user_messages(texts()))?,
        Format::Openai => output::print_json(&provider::openai_messages("user", texts()))?,
        // Text (the other formats were refused above).
        _ => {
            if !messages.is_empty() {
                write_text(messages)?;
            }
        }
    }
    Ok(accounting.finish(ctx))
}

/// Runs `assemble` under an agent profile: its parts, what it left out,
/// and `--touch`.
fn run_profile(
    ctx: &Context,
    args: &AssembleArgs,
    profile: &ProfileArgs,
) -> Result<Status, CliError> {
    let mut turn0 = profile_turn0(ctx, ctx.agent, profile)?;
    let ignored = args.turn0.engine_options();
    if !ignored.is_empty() {
        turn0.diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            format!(
                "{} only shape the mecatl profile's messages; ignored under {}",
                ignored.join(", "),
                ctx.agent.as_str()
            ),
        ));
    }
    output::print_diagnostics(ctx, &turn0.diagnostics);
    let accounting = stats::for_profile(&turn0, &args.accounting, ctx.agent.tokenizer());
    match ctx.format {
        Format::Json => output::print_json(&ProfileDocument {
            head: DocHead::of(ctx),
            messages: &turn0.messages,
            subagents: &turn0.subagents,
            output_style: turn0.output_style.as_ref(),
            mcp_servers: &turn0.mcp_servers,
            hooks: &turn0.hooks,
            touch: &turn0.touch,
            not_loaded: &turn0.not_loaded,
            stats: accounting.json_stats(),
            diagnostics: &accounting.diagnostics_after(&turn0.diagnostics),
            trust: ctx.trust,
        })?,
        Format::Anthropic => output::print_json(&parts::anthropic(&turn0))?,
        Format::Openai => output::print_json(&parts::openai(&turn0))?,
        // Text (the other formats were refused in `run`).
        _ => parts::write_text(&turn0)?,
    }
    Ok(accounting.finish(ctx))
}
