//! Command-body checks where the agents reading one command file disagree
//! (MP010, MP011, MP016). Placeholders are found by each dialect's own
//! substitution (the engine's [`substitute`], Claude Code's
//! [`claude_dialect::uses_arguments`]); shell commands by Claude Code's
//! detector ([`claude_dialect::shell_commands`]).

use crate::prompt::command::claude_dialect;
use crate::prompt::divergence::{ArgumentFates, shell_fate};
use crate::prompt::lint::Code;
use crate::prompt::lint::report::{Doc, DocKind, Out, line_at, quote};
use crate::prompt::profile::Agent;

/// Gemini CLI's argument placeholder.
const GEMINI_ARGS: &str = "{{args}}";

/// Runs the template checks over the command files of `docs`.
pub(super) fn check(docs: &[Doc], out: &mut Out) {
    for doc in docs {
        if let DocKind::Command(_) = doc.kind {
            command(doc, out);
        }
    }
}

fn command(doc: &Doc, out: &mut Out) {
    let read = claude_dialect::read_frontmatter(&doc.text);
    let claude = doc.read_by(Agent::Claude);
    let mecatl = doc.read_by(Agent::Mecatl);
    // MP010: only Claude Code reads `argument-hint`.
    if claude && let Some(hint) = read.get("argument-hint") {
        let fates = ArgumentFates::of(&doc.text);
        let mut agents = Vec::new();
        if fates.claude_appends {
            agents.push(Agent::Claude);
        }
        if mecatl && fates.mecatl_drops {
            agents.push(Agent::Mecatl);
        }
        if let Some(fate) = fates.describe(mecatl) {
            out.add(
                Code::HintWithoutPlaceholder,
                &doc.rel,
                Some(hint.line),
                agents,
                format!("`argument-hint` is set but the template has no placeholder: {fate}"),
            );
        }
    }
    // MP011, MP016: in the body the agents send.
    let (_, body) = claude_dialect::split_frontmatter(&doc.text);
    let body_at = doc.text.len() - body.len();
    if claude && let Some(at) = body.find(GEMINI_ARGS) {
        out.add(
            Code::GeminiPlaceholder,
            &doc.rel,
            Some(line_at(&doc.text, body_at + at)),
            doc.agents.clone(),
            "`{{args}}` is Gemini CLI's placeholder: it is sent as written and the arguments \
             never go there; write `$ARGUMENTS`",
        );
    }
    if claude {
        for shell in claude_dialect::shell_commands(body) {
            out.add(
                Code::ShellInCommand,
                &doc.rel,
                Some(line_at(&doc.text, body_at + shell.offset)),
                doc.agents.clone(),
                shell_fate(&[quote(&shell.command)]),
            );
        }
    }
}
