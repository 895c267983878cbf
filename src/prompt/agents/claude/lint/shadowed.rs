//! MP015: commands a skill of the same name shadows, for Claude Code
//! started in each directory that holds skills or commands.

use std::collections::HashSet;
use std::sync::Arc;

use crate::prompt::agents::files::{CLAUDE_COMMANDS_DIR, CLAUDE_SKILLS_DIR};
use crate::prompt::command::{claude_catalog, claude_listing};
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Lint, Out};
use crate::prompt::profile::Agent;
use crate::prompt::tiers::{Fate, ReadPolicy};
use crate::workspace::{Workspace, parent};

/// MP015: for Claude Code started in each directory that holds skills or
/// commands, its command and skill directories resolve as the Claude
/// profile resolves them ([`claude_catalog::claude_dirs`]) — skills first,
/// since a skill wins over a command of its name whatever their
/// directories (observed) — and every command that loses to a skill is
/// reported once.
pub(super) fn shadowed_by_skills(lint: &Lint<'_>, out: &mut Out) {
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
