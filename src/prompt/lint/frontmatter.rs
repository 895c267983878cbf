//! Frontmatter checks of the rule, command and skill files every agent's
//! sources hold: invalid YAML (MP001, MP002), each agent's reading of the
//! block coming from its hooks
//! ([`LintHooks::frontmatter`](super::report::LintHooks::frontmatter));
//! misplaced blocks (MP003); and Cursor/Copilot keys in rules (MP012),
//! read as Claude Code reads a block
//! ([`claude_dialect::read_frontmatter`]) when it loads the rule, else as
//! the engine does ([`crate::prompt::rules::frontmatter`]). Skills' names
//! and descriptions (MP013, MP014) are the agents' own checks.

use crate::prompt::command::claude_dialect;
use crate::prompt::command::{Misplaced, misplaced_frontmatter};
use crate::prompt::lint::Code;
use crate::prompt::lint::report::{Doc, DocKind, Hooked, Lint, Out};
use crate::prompt::profile::Agent;
use crate::prompt::rules::frontmatter::split;
use crate::prompt::yaml::parse_mapping;

/// Keys other tools scope rules with, which mean nothing to Claude Code
/// or mecatl (Cursor's `globs` and `alwaysApply`, Copilot's `applyTo`).
const FOREIGN_RULE_KEYS: [&str; 3] = ["globs", "alwaysApply", "applyTo"];

/// Runs the frontmatter checks over `docs`.
pub(super) fn check(lint: &Lint<'_>, docs: &[Doc], out: &mut Out) {
    for doc in docs {
        check_doc(lint, doc, out);
    }
}

fn check_doc(lint: &Lint<'_>, doc: &Doc, out: &mut Out) {
    let readers = || {
        lint.hooked
            .iter()
            .filter(|hooked| doc.read_by(hooked.agent))
    };
    // MP001, MP002: every agent's reading, in table order; the first
    // error found is the one pointed at.
    let mut effects = Vec::new();
    let mut at = None;
    for (error, effect) in readers().filter_map(|hooked| hooked.hooks.frontmatter(doc)) {
        at = at.or(Some(error));
        effects.push(effect);
    }
    if let Some(at) = at {
        out.block_error(&doc.rel, at, &effects);
    }
    // MP003.
    if let Some(misplaced) = misplaced_frontmatter(doc.text.as_bytes()) {
        let agents: Vec<Agent> = readers()
            .filter(|hooked| misplaces(hooked, &doc.kind, misplaced))
            .map(|hooked| hooked.agent)
            .collect();
        out.add(
            Code::MisplacedFrontmatter,
            &doc.rel,
            Some(misplaced.line()),
            agents,
            misplaced.describe(),
        );
    }
    if doc.kind == DocKind::Rule {
        foreign_keys(doc, out);
    }
}

/// Whether a block misplaced so is lost on an agent: everyone loses one
/// after whitespace; after a BOM only those whose hooks say so.
fn misplaces(hooked: &Hooked, kind: &DocKind, misplaced: Misplaced) -> bool {
    match misplaced {
        Misplaced::Whitespace { .. } => true,
        Misplaced::Bom { .. } => hooked.hooks.loses_block_after_bom(kind),
    }
}

/// MP012: a rule scoped with another tool's keys and no `paths`.
fn foreign_keys(doc: &Doc, out: &mut Out) {
    let entries = if doc.read_by(Agent::Claude) {
        claude_dialect::read_frontmatter(&doc.text).entries
    } else {
        let front = split(doc.text.as_bytes()).front.unwrap_or_default();
        // Lines of the engine's block start after the opening fence.
        parse_mapping(&front)
            .map(|mut entries| {
                entries.iter_mut().for_each(|e| e.line += 1);
                entries
            })
            .unwrap_or_default()
    };
    if entries.iter().any(|entry| entry.key == "paths") {
        return;
    }
    let Some(foreign) = entries
        .iter()
        .find(|entry| FOREIGN_RULE_KEYS.contains(&entry.key.as_str()))
    else {
        return;
    };
    out.add(
        Code::ForeignRuleKeys,
        &doc.rel,
        Some(foreign.line),
        doc.agents.clone(),
        format!(
            "`{}` is not a key of Claude Code's or mecatl's rules, and the rule has no `paths`: \
             it loads at start for every file",
            foreign.key
        ),
    );
}
