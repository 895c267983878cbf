//! Frontmatter checks (MP001, MP002, MP003, MP012, MP013, MP014): each
//! agent's reading of a rule's, command's or skill's block, from the
//! domain's own readers — the engine's rule frontmatter
//! ([`crate::prompt::rules::frontmatter`]), Claude Code's
//! ([`claude_dialect::read_frontmatter`]) and Codex's skill metadata
//! ([`crate::prompt::agents::codex::skill_meta`], found by Codex's own search).

use crate::prompt::agents::codex::skill_meta::{Unlisted, front_block};
use crate::prompt::agents::codex::skills::{SkillGroup, SkillRoot, list_skills};
use crate::prompt::command::claude_dialect::{self, Reading};
use crate::prompt::command::{Misplaced, misplaced_frontmatter};
use crate::prompt::lint::docs::{Doc, DocKind};
use crate::prompt::lint::{Code, Level, Lint, Out};
use crate::prompt::profile::Agent;
use crate::prompt::rules::frontmatter::{FrontmatterProblem, parse_paths, split};
use crate::prompt::walk::Scope;
use crate::prompt::yaml::{YamlProblem, parse_mapping};
use crate::workspace::{base_name, parent};

/// Keys other tools scope rules with, which mean nothing to Claude Code
/// or mecatl (Cursor's `globs` and `alwaysApply`, Copilot's `applyTo`).
const FOREIGN_RULE_KEYS: [&str; 3] = ["globs", "alwaysApply", "applyTo"];

/// Runs the frontmatter checks over `docs` and Codex's skills.
pub(super) fn check(lint: &Lint<'_>, docs: &[Doc], out: &mut Out) {
    for doc in docs {
        check_doc(doc, out);
    }
    codex_skills(lint, out);
}

/// What reading a block did to one agent's view of the file.
enum Effect {
    /// mecatl drops the rule.
    Dropped,
    /// Claude Code read it again with values quoted.
    Requoted,
    /// Claude Code ignores every key.
    Ignored,
    /// Codex read `name` and `description` key by key and lists the skill.
    Recovered,
    /// Codex does not list the skill.
    Unlisted,
}

impl Effect {
    fn agent(&self) -> Agent {
        match self {
            Effect::Dropped => Agent::Mecatl,
            Effect::Requoted | Effect::Ignored => Agent::Claude,
            Effect::Recovered | Effect::Unlisted => Agent::Codex,
        }
    }

    fn words(&self) -> &'static str {
        match self {
            Effect::Dropped => "mecatl drops the rule",
            Effect::Requoted => "Claude Code reads it a second time with the values quoted",
            Effect::Ignored => "Claude Code ignores every key of the block",
            Effect::Recovered => "Codex recovers `name` and `description` key by key",
            Effect::Unlisted => "Codex does not list the skill",
        }
    }

    /// True when the file loses what its block says.
    fn loses(&self) -> bool {
        !matches!(self, Effect::Requoted | Effect::Recovered)
    }
}

/// One YAML error and what it does to each agent: an MP001 (or MP002 for
/// an alias) finding, an error when some agent loses the block.
fn yaml_finding(out: &mut Out, path: &str, at: (u64, u64, YamlProblem), effects: &[Effect]) {
    let (line, column, problem) = at;
    if effects.is_empty() {
        return;
    }
    let code = match problem {
        YamlProblem::Alias => Code::UnquotedGlob,
        _ => Code::InvalidYaml,
    };
    let severity = if effects.iter().any(Effect::loses) {
        Level::Error
    } else {
        Level::Warning
    };
    let what: Vec<&str> = effects.iter().map(Effect::words).collect();
    out.add_at(
        severity,
        code,
        path,
        Some(line),
        effects.iter().map(Effect::agent).collect(),
        format!(
            "line {line}, column {column}: {}; {}",
            problem.describe(),
            what.join("; ")
        ),
    );
}

fn check_doc(doc: &Doc, out: &mut Out) {
    let claude = doc.read_by(Agent::Claude);
    let read = claude_dialect::read_frontmatter(&doc.text);
    // MP001, MP002: the engine's rule reading first, then Claude Code's.
    let mut effects = Vec::new();
    let mut at = None;
    if doc.kind == DocKind::Rule && doc.read_by(Agent::Mecatl) {
        let parts = split(doc.text.as_bytes());
        if let Some(Err(err)) = parts.front.as_deref().map(parse_paths)
            && let FrontmatterProblem::Yaml(problem) = err.problem
        {
            at = Some((err.line, err.column, problem));
            effects.push(Effect::Dropped);
        }
    }
    if claude {
        let (effect, err) = match &read.reading {
            Reading::Requoted(err) => (Some(Effect::Requoted), Some(err)),
            Reading::Ignored(err) => (Some(Effect::Ignored), Some(err)),
            Reading::NoBlock | Reading::Yaml => (None, None),
        };
        if let (Some(effect), Some(err)) = (effect, err) {
            at = at.or(Some((err.line, err.column, err.problem)));
            effects.push(effect);
        }
    }
    if let Some(at) = at {
        yaml_finding(out, &doc.rel, at, &effects);
    }
    // MP003.
    let misplaced = misplaced_frontmatter(doc.text.as_bytes());
    if let Some(misplaced) = misplaced {
        let agents: Vec<Agent> = doc
            .agents
            .iter()
            .copied()
            .filter(|agent| misplaces(*agent, &doc.kind, misplaced))
            .collect();
        out.add(
            Code::MisplacedFrontmatter,
            &doc.rel,
            Some(misplaced.line()),
            agents,
            misplaced.describe(),
        );
    }
    let keys_lost = misplaced.is_some() || matches!(read.reading, Reading::Ignored(_));
    match &doc.kind {
        DocKind::Rule => foreign_keys(doc, &read, out),
        DocKind::Skill(dir) if claude && !keys_lost => claude_skill(doc, dir, &read, out),
        DocKind::Skill(_) | DocKind::Command(_) => {}
    }
}

/// Whether a block misplaced so is lost on `agent`: everyone loses one
/// after whitespace; after a BOM only mecatl's commands (SPEC §5.3) do —
/// the engine's rules and Claude Code skip the BOM.
fn misplaces(agent: Agent, kind: &DocKind, misplaced: Misplaced) -> bool {
    match misplaced {
        Misplaced::Whitespace { .. } => true,
        Misplaced::Bom { .. } => agent == Agent::Mecatl && matches!(kind, DocKind::Command(_)),
    }
}

/// MP012: a rule scoped with another tool's keys and no `paths`.
fn foreign_keys(doc: &Doc, read: &claude_dialect::Frontmatter, out: &mut Out) {
    let entries = if doc.read_by(Agent::Claude) {
        read.entries.clone()
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

/// MP013 and MP014 for a skill of `.claude/skills/DIR`.
fn claude_skill(doc: &Doc, dir: &str, read: &claude_dialect::Frontmatter, out: &mut Out) {
    if let Some(entry) = read.get("name")
        && let Some(name) = entry.value.as_str().map(str::trim)
        && !name.is_empty()
        && name != dir
    {
        out.add(
            Code::SkillNameMismatch,
            &doc.rel,
            Some(entry.line),
            vec![Agent::Claude],
            format!(
                "`name: {}` differs from the directory `{dir}`: Claude Code names the skill \
                 `{dir}` and lists it as `{dir} ({})`",
                super::quote(name),
                super::quote(name)
            ),
        );
    }
    let described = read
        .get("description")
        .and_then(|entry| entry.value.as_str())
        .is_some_and(|text| !text.trim().is_empty());
    if !described {
        out.add(
            Code::SkillWithoutDescription,
            &doc.rel,
            Some(read.first_line.saturating_sub(1).max(1)),
            vec![Agent::Claude],
            "no `description:`: Claude Code lists the skill with its first body line, which \
             rarely says when to use it",
        );
    }
}

/// MP001, MP002, MP003, MP013, MP014 for the skills Codex finds in
/// `.agents/skills` and `.codex/skills` anywhere.
fn codex_skills(lint: &Lint<'_>, out: &mut Out) {
    let roots: Vec<SkillRoot<'_>> = [".agents/skills", ".codex/skills"]
        .into_iter()
        .flat_map(|suffix| lint.survey.dirs_ending(suffix))
        .map(|dir| SkillRoot {
            reader: lint.reader,
            dir: dir.to_string(),
            scope: Scope::Project,
            group: SkillGroup::Repo,
        })
        .collect();
    if roots.is_empty() {
        return;
    }
    let listing = list_skills(&roots);
    let listed = listing
        .skills
        .iter()
        .map(|s| (&s.path, Some(&s.name), None));
    let unlisted = listing
        .unlisted
        .iter()
        .map(|u| (&u.path, None, Some(&u.reason)));
    for (path, name, reason) in listed.chain(unlisted) {
        let Some(text) = lint.read(path, out) else {
            continue;
        };
        codex_skill(path, &text, name.map(String::as_str), reason, out);
    }
}

fn codex_skill(
    path: &str,
    text: &str,
    name: Option<&str>,
    reason: Option<&Unlisted>,
    out: &mut Out,
) {
    let codex = || vec![Agent::Codex];
    let Some(block) = front_block(text) else {
        match misplaced_frontmatter(text.as_bytes()) {
            Some(misplaced) => out.add_at(
                Level::Error,
                Code::MisplacedFrontmatter,
                path,
                Some(misplaced.line()),
                codex(),
                "the first line is not `---`, so Codex finds no frontmatter and does not list \
                 the skill",
            ),
            None => out.add_at(
                Level::Error,
                Code::SkillWithoutDescription,
                path,
                Some(1),
                codex(),
                "no frontmatter, so no description: Codex does not list the skill",
            ),
        }
        return;
    };
    // The block's first line is the file's second.
    let entries = match parse_mapping(&block) {
        Ok(entries) => entries,
        Err(err) => {
            let effect = match reason {
                Some(Unlisted::InvalidName | Unlisted::InvalidDescription) => Effect::Unlisted,
                _ => Effect::Recovered,
            };
            yaml_finding(
                out,
                path,
                (err.line + 1, err.column, err.problem),
                &[effect],
            );
            Vec::new()
        }
    };
    let line_of = |key: &str| {
        entries
            .iter()
            .find(|entry| entry.key == key)
            .map_or(1, |entry| entry.line + 1)
    };
    if let Some(name) = name {
        let dir = base_name(parent(path));
        if name != dir {
            out.add(
                Code::SkillNameMismatch,
                path,
                Some(line_of("name")),
                codex(),
                format!(
                    "`name: {}` differs from the directory `{dir}`: Codex names the skill `{}` \
                     (`${}`), not `{dir}`",
                    super::quote(name),
                    super::quote(name),
                    super::quote(name)
                ),
            );
        }
    }
    if reason == Some(&Unlisted::NoDescription) {
        out.add_at(
            Level::Error,
            Code::SkillWithoutDescription,
            path,
            Some(line_of("description")),
            codex(),
            "no description (or an empty one): Codex does not list the skill",
        );
    }
}
