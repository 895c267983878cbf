//! Command-body checks (MP010, MP011, MP016) and commands a skill shadows
//! (MP015). Placeholders are found by each dialect's own substitution
//! (the engine's [`substitute`], Claude Code's
//! [`claude_dialect::uses_arguments`]); shell commands by Claude Code's
//! detector ([`claude_dialect::shell_commands`]); shadowing by the Claude
//! profile's resolution ([`claude_catalog`]).

use std::collections::HashSet;
use std::sync::Arc;

use crate::prompt::agents::files::{CLAUDE_COMMANDS_DIR, CLAUDE_SKILLS_DIR};
use crate::prompt::command::{claude_catalog, claude_dialect, claude_listing};
use crate::prompt::divergence::{ArgumentFates, shell_fate};
use crate::prompt::lint::Code;
use crate::prompt::lint::report::{Doc, DocKind, Lint, Out, line_at, quote};
use crate::prompt::profile::Agent;
use crate::prompt::tiers::{Fate, ReadPolicy};
use crate::workspace::{Workspace, parent};

/// Gemini CLI's argument placeholder.
const GEMINI_ARGS: &str = "{{args}}";

/// Runs the template checks over the command files of `docs`, and the
/// shadowing check over the workspace's skill and command directories.
pub(super) fn check(lint: &Lint<'_>, docs: &[Doc], out: &mut Out) {
    for doc in docs {
        if let DocKind::Command(_) = doc.kind {
            command(doc, out);
        }
    }
    shadowed_by_skills(lint, out);
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

/// MP015: for Claude Code started in each directory that holds skills or
/// commands, its command and skill directories resolve as the Claude
/// profile resolves them ([`claude_catalog::claude_dirs`]) — skills first,
/// since a skill wins over a command of its name whatever their
/// directories (observed) — and every command that loses to a skill is
/// reported once.
fn shadowed_by_skills(lint: &Lint<'_>, out: &mut Out) {
    let skills: Vec<&str> = lint.survey.dirs_ending(CLAUDE_SKILLS_DIR).collect();
    let commands: Vec<&str> = lint.survey.dirs_ending(CLAUDE_COMMANDS_DIR).collect();
    if skills.is_empty() || commands.is_empty() {
        return;
    }
    let reader: Arc<dyn Workspace + '_> = Arc::new(lint.reader);
    let mut starts: Vec<&str> = skills
        .iter()
        .chain(&commands)
        .map(|dir| parent(parent(dir)))
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let mut reported: HashSet<String> = HashSet::new();
    for start in starts {
        let Ok(dirs) = claude_catalog::claude_dirs(reader.clone(), start, false, None) else {
            continue;
        };
        let listing = claude_catalog::list_claude(
            &dirs,
            ReadPolicy::LOOK,
            &claude_catalog::ClaudeFiles::KEYS,
        );
        for entry in &listing.entries {
            let Fate::Shadowed { by } = &entry.fate else {
                continue;
            };
            let by_skill = listing.winners().any(|winner| {
                winner.name == entry.name && winner.kind == claude_listing::Kind::Skill
            });
            if entry.kind != claude_listing::Kind::Command
                || !by_skill
                || !reported.insert(entry.source.clone())
            {
                continue;
            }
            out.add(
                Code::ShadowedBySkill,
                &entry.source,
                Some(1),
                vec![Agent::Claude],
                format!(
                    "the skill {by} has the same name, `{}`: Claude Code invokes and lists the \
                     skill, never this command",
                    entry.name
                ),
            );
        }
    }
}
