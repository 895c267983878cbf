//! `assemble`: print the turn-0 messages (SPEC §2.5).

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::adapters::memoryfs::MemoryStore;
use crate::adapters::soulfs::SoulFile;
use crate::adapters::trust::Trust;
use crate::cli::context::{Context, Format};
use crate::cli::output::{self, SCHEMA};
use crate::cli::sources::{project_tier_withheld, rule_dirs, with_context_diagnostics};
use crate::cli::stats::{self, Stats, Turn0AccountingArgs};
use crate::cli::{CliError, Status};
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::instructions::{Role, load_instructions};
use crate::prompt::memory_index::render_memory_index;
use crate::prompt::rules::discovery::DiscoveredRule;
use crate::prompt::rules::lazy::{LeftOutRule, assemble_rules};
use crate::prompt::soul::render_soul;
use crate::prompt::user_model::render_user_model;

/// Arguments of `assemble`.
#[derive(Debug, Clone, Args)]
pub struct AssembleArgs {
    /// What the turn-0 messages contain.
    #[command(flatten)]
    pub turn0: Turn0Args,
    /// `--stats` and the turn-0 budget.
    #[command(flatten)]
    pub accounting: Turn0AccountingArgs,
}

/// The options that choose what the turn-0 messages contain. Shared by
/// `assemble`, `snapshot` and `check`.
#[derive(Debug, Clone, Args)]
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

/// One assembled turn-0 message with where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Turn0Message {
    /// Always `user`.
    pub role: Role,
    /// The message text.
    pub text: String,
    /// `instruction` for every built-in message.
    pub kind: &'static str,
    /// `project`, `rules`, `soul`, `memory` or `user_model`.
    pub provenance: &'static str,
    /// The file or directory it came from; `None` for the rules message,
    /// which has many (for `--stats` and budget messages).
    #[serde(skip)]
    pub source: Option<String>,
    /// True when its content was cut to a cap (project instructions).
    #[serde(skip)]
    pub truncated: bool,
}

/// Everything `assemble` produced: the messages, the rules shown in the
/// rules message, and the diagnostics for the files opened.
#[derive(Debug, Clone, Default)]
pub struct Turn0 {
    /// The messages, in order.
    pub messages: Vec<Turn0Message>,
    /// The rules rendered into the rules message, in order.
    pub rules_shown: Vec<DiscoveredRule>,
    /// The rules the rules message does not hold, and why, sorted by name.
    pub rules_left_out: Vec<LeftOutRule>,
    /// Diagnostics, context ones first.
    pub diagnostics: Vec<Diagnostic>,
    /// Why a soul file that exists gave no message (rejected, unreadable,
    /// or named by `--soul-file` and missing), for `--stats`.
    pub soul_refused: Option<Diagnostic>,
}

impl Turn0 {
    fn push(
        &mut self,
        provenance: &'static str,
        text: String,
        source: Option<String>,
    ) -> &mut Turn0Message {
        self.messages.push(Turn0Message {
            role: Role::User,
            text,
            kind: "instruction",
            provenance,
            source,
            truncated: false,
        });
        let last = self.messages.len() - 1;
        &mut self.messages[last]
    }
}

/// The memory store directory: `--memory-dir` (relative to `-C`), else
/// `$MECATL_MEMORY_DIR`, else the engine's default for this workspace.
fn memory_dir(ctx: &Context, args: &Turn0Args) -> Option<PathBuf> {
    if let Some(dir) = &args.memory_dir {
        return Some(ctx.resolve_path(dir));
    }
    if let Some(dir) = ctx.env.memory_dir.as_ref().filter(|d| !d.is_empty()) {
        return Some(ctx.resolve_path(std::path::Path::new(dir)));
    }
    ctx.locations.default_memory_dir(&ctx.workspace)
}

/// Builds the turn-0 messages in order (SPEC §6.1): project instructions,
/// rules, soul, memory index, user model. Only a read fault on
/// AGENTS.md/CLAUDE.md is an error; every other source fails soft into a
/// diagnostic.
pub fn collect_turn0(ctx: &Context, args: &Turn0Args) -> Result<Turn0, CliError> {
    let mut turn0 = Turn0::default();
    let mut found = Vec::new();
    let verbose = |found: &mut Vec<Diagnostic>, path: String, what: &str| {
        found.push(Diagnostic::info(path, format!("read ({what})")));
    };

    if !args.no_instructions {
        let instructions = load_instructions(&*ctx.reader)?;
        found.extend(instructions.diagnostics);
        if let Some(source) = &instructions.source {
            verbose(&mut found, source.clone(), "project");
        }
        if let Some(message) = instructions.message {
            turn0
                .push("project", message.text, instructions.source)
                .truncated = instructions.truncated;
        }
    }

    if !args.no_rules {
        let assembled = assemble_rules(&rule_dirs(ctx), args.rules_max_bytes, args.rules_max_count);
        found.extend(assembled.diagnostics);
        for (source, origin) in assembled.read {
            verbose(&mut found, source, origin.as_str());
        }
        if let Some(rendered) = assembled.message {
            turn0.push("rules", rendered.text, None);
        }
        turn0.rules_shown = assembled.shown;
        turn0.rules_left_out = assembled.left_out;
    }

    if !args.no_soul {
        let user = match &args.soul_file {
            Some(file) => Some(SoulFile::user_file(&ctx.resolve_path(file))),
            None => ctx.locations.user_soul().map(|p| SoulFile::user_file(&p)),
        };
        let project = ctx
            .trust
            .trusted
            .then(|| SoulFile::project_file(ctx.reader.clone()));
        let mut soul = SoulFile::new(user, project);
        if args.soul_file.is_some() {
            soul = soul.operator_named();
        }
        let (body, notes, source) = soul.load_with_diagnostics();
        if body.is_empty() {
            turn0.soul_refused = notes.last().cloned();
        }
        found.extend(notes);
        if let Some(source) = &source {
            verbose(&mut found, source.clone(), "soul");
        }
        if let Some(text) = render_soul(&body) {
            turn0.push("soul", text, source);
        }
    }

    if !args.no_memory
        && let Some(dir) = memory_dir(ctx, args)
    {
        let shown = dir.display().to_string();
        found.push(Diagnostic::info(shown.clone(), "memory directory"));
        let (entries, notes) = MemoryStore::new(dir).index();
        found.extend(notes);
        if let Some(text) = render_memory_index(entries, 0, 0) {
            turn0.push("memory", text, Some(shown));
        }
    }

    if !args.no_user_model {
        let dir = match &args.user_model_dir {
            Some(dir) => Some(ctx.resolve_path(dir)),
            None => ctx.locations.user_model_dir(),
        };
        if let Some(dir) = dir {
            let shown = dir.display().to_string();
            let (entries, notes) = MemoryStore::new(dir).index();
            found.extend(notes);
            if let Some(text) = render_user_model(entries, 0, 0) {
                turn0.push("user_model", text, Some(shown));
            }
        }
    }

    let withheld = !ctx.trust.trusted && project_tier_withheld(ctx, !args.no_rules, !args.no_soul);
    turn0.diagnostics = with_context_diagnostics(ctx, found, withheld);
    if turn0.messages.is_empty() {
        turn0.diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            "no turn-0 messages: nothing to assemble",
        ));
    }
    Ok(turn0)
}

#[derive(Serialize)]
struct AssembleDocument<'a> {
    schema: &'static str,
    messages: &'a [Turn0Message],
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Stats>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

#[derive(Serialize)]
struct AnthropicText<'a> {
    r#type: &'static str,
    text: &'a str,
}

#[derive(Serialize)]
struct AnthropicMessage<'a> {
    role: &'static str,
    content: [AnthropicText<'a>; 1],
}

#[derive(Serialize)]
struct OpenAiMessage<'a> {
    role: &'static str,
    content: &'a str,
}

#[derive(Serialize)]
struct MessagesDocument<T> {
    messages: Vec<T>,
}

/// The text rendering: each message under a header line
/// `── message N · ROLE · PROVENANCE ──`, its body ending in a newline, and
/// one blank line between messages. Written in parts, so that messages of
/// tens of KiB are not copied into one more buffer on their way out.
fn write_text(messages: &[Turn0Message]) -> std::io::Result<()> {
    let headers: Vec<String> = messages
        .iter()
        .enumerate()
        .map(|(i, message)| {
            format!(
                "{}── message {} · {} · {} ──\n",
                if i > 0 { "\n" } else { "" },
                i + 1,
                message.role.as_str(),
                message.provenance
            )
        })
        .collect();
    let mut parts: Vec<&[u8]> = Vec::with_capacity(3 * messages.len());
    for (header, message) in headers.iter().zip(messages) {
        parts.push(header.as_bytes());
        parts.push(message.text.as_bytes());
        if !message.text.ends_with('\n') {
            parts.push(b"\n");
        }
    }
    output::write_stdout_parts(&parts)
}

/// Runs `assemble`.
pub fn run(ctx: &Context, args: &AssembleArgs) -> Result<Status, CliError> {
    let turn0 = collect_turn0(ctx, &args.turn0)?;
    output::print_diagnostics(ctx, &turn0.diagnostics);
    let accounting = stats::for_turn0(&turn0, &args.turn0, &args.accounting);
    let messages = &turn0.messages;
    match ctx.format {
        Format::Json => output::print_json(&AssembleDocument {
            schema: SCHEMA,
            messages,
            stats: accounting.json_stats(),
            diagnostics: &accounting.diagnostics_after(&turn0.diagnostics),
            trust: ctx.trust,
        })?,
        Format::Anthropic => output::print_json(&MessagesDocument {
            messages: messages
                .iter()
                .map(|m| AnthropicMessage {
                    role: "user",
                    content: [AnthropicText {
                        r#type: "text",
                        text: &m.text,
                    }],
                })
                .collect(),
        })?,
        Format::Openai => output::print_json(&MessagesDocument {
            messages: messages
                .iter()
                .map(|m| OpenAiMessage {
                    role: "user",
                    content: &m.text,
                })
                .collect(),
        })?,
        Format::Text => {
            if !messages.is_empty() {
                write_text(messages)?;
            }
        }
    }
    Ok(accounting.finish(ctx))
}
