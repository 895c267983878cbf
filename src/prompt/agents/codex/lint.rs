//! What `lint` asks of Codex (SPEC §15.3): no directories of the shared
//! kinds, and its own checks: its skills, found by its own search in
//! `.agents/skills` and `.codex/skills` anywhere (MP001, MP002, MP003,
//! MP013, MP014, from [`super::skill_meta`]), and its byte budget over the
//! AGENTS.md chain (MP008, from [`super::chain`]), and the servers of
//! every `.codex/config.toml` (MP027).

use crate::prompt::agents::codex::CodexConfig;
use crate::prompt::agents::codex::chain::{
    self, AGENTS_NAME, DropReason, OVERRIDE_NAME, find_root, project_docs,
};
use crate::prompt::agents::codex::skill_meta::{Unlisted, front_block};
use crate::prompt::agents::codex::skills::{
    PROJECT_SKILL_DIRS, SkillGroup, SkillRoot, list_skills,
};
use crate::prompt::command::misplaced_frontmatter;
use crate::prompt::lint::codes::{Code, Level};
use crate::prompt::lint::report::{BlockError, Doc, Effect, Lint, LintHooks, Out, line_at, quote};
use crate::prompt::lint::servers;
use crate::prompt::profile::Agent;
use crate::prompt::walk::{Scope, walk};
use crate::prompt::yaml::parse_mapping;
use crate::workspace::{base_name, join, parent};

/// A block that is not valid YAML, read again key by key.
const RECOVERED: Effect = Effect {
    agent: Agent::Codex,
    words: "Codex recovers `name` and `description` key by key",
    loses: false,
};

/// A block whose name or description cannot be read.
const UNLISTED: Effect = Effect {
    agent: Agent::Codex,
    words: "Codex does not list the skill",
    loses: true,
};

/// Codex's hooks.
pub(super) struct CodexLint;

impl LintHooks for CodexLint {
    fn check(&self, lint: &Lint<'_>, _docs: &[Doc], out: &mut Out) {
        skills(lint, out);
        budget(lint, out);
        mcp_servers(lint, out);
    }
}

/// MP027 for the servers of every `.codex/config.toml` of the workspace.
fn mcp_servers(lint: &Lint<'_>, out: &mut Out) {
    for dir in lint.survey.dirs_ending(super::mcp::DOT_CODEX) {
        let rel = join(dir, super::config::CONFIG_FILE);
        if !lint.survey.has_file(&rel) {
            continue;
        }
        // A malformed file is `assemble`'s warning, not a finding.
        if let Some((tables, _)) = super::config::load_mcp(lint.reader, &rel) {
            let servers = tables.servers.iter().map(|(name, table)| (name, table));
            let agent = (Agent::Codex, "Codex");
            servers::project_servers(out, &rel, servers, &super::mcp::KEYS, agent);
        }
    }
}

/// MP001, MP002, MP003, MP013, MP014 for the skills Codex finds in
/// `.agents/skills` and `.codex/skills` anywhere.
fn skills(lint: &Lint<'_>, out: &mut Out) {
    let roots: Vec<SkillRoot<'_>> = PROJECT_SKILL_DIRS
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
        skill(path, &text, name.map(String::as_str), reason, out);
    }
}

fn skill(path: &str, text: &str, name: Option<&str>, reason: Option<&Unlisted>, out: &mut Out) {
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
                Some(Unlisted::InvalidName | Unlisted::InvalidDescription) => UNLISTED,
                _ => RECOVERED,
            };
            let at = BlockError {
                line: err.line + 1,
                column: err.column,
                problem: err.problem,
            };
            out.block_error(path, at, &[effect]);
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
                    quote(name),
                    quote(name),
                    quote(name)
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

/// MP008: for Codex started in each directory that holds an AGENTS.md (or
/// an override), every file of its chain that the budget cuts or drops.
/// The same file met from several start directories gives the same
/// finding, which the report keeps once.
fn budget(lint: &Lint<'_>, out: &mut Out) {
    let config = CodexConfig::default();
    for dir in lint.survey.dirs() {
        let holds_doc = [OVERRIDE_NAME, AGENTS_NAME]
            .iter()
            .any(|name| lint.survey.has_file(&join(dir, name)));
        if !holds_doc {
            continue;
        }
        let Ok(walked) = walk(None, lint.reader, dir) else {
            continue;
        };
        // No marker inside the workspace: its root stands for the project
        // root (a checkout copied without its `.git`).
        let root = find_root(&walked, &config.project_root_markers);
        // Lint reads to check, whatever the trust (never to inject).
        let docs = match root {
            Some(root) => project_docs(chain::chain(&walked, Some(&root)), &config, true),
            None => project_docs(&walked, &config, true),
        };
        let budget = docs.budget;
        for part in &docs.parts {
            let Some(cut) = part.cut else { continue };
            let line = line_at(&part.content, part.content.len());
            out.add(
                Code::CodexBudget,
                &part.path,
                Some(line),
                vec![Agent::Codex],
                format!(
                    "Codex sends only the first {} of its {} bytes: the AGENTS.md chain may hold \
                     {budget} bytes (project_doc_max_bytes) and is cut here, on line {line}, \
                     without a word",
                    cut.kept,
                    cut.kept + cut.omitted
                ),
            );
        }
        for left in &docs.left_out {
            let message = match &left.reason {
                DropReason::OverBudget { size } => format!(
                    "Codex drops this file ({size} bytes): the files above it in the AGENTS.md \
                     chain use up its {budget}-byte budget (project_doc_max_bytes), without a \
                     word"
                ),
                DropReason::CutToBlank(cut) => format!(
                    "Codex drops this file: the {} bytes its {budget}-byte budget leaves are \
                     whitespace, and {} bytes are left out, without a word",
                    cut.kept, cut.omitted
                ),
                _ => continue,
            };
            out.add(
                Code::CodexBudget,
                &left.path,
                Some(1),
                vec![Agent::Codex],
                message,
            );
        }
    }
}
