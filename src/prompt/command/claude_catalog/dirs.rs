//! Where Claude Code finds commands and skills (SPEC §14.5), as search
//! directories of the precedence engine in Claude Code's order, and how a
//! skill is named in their diagnostics.

use std::sync::Arc;

use crate::diagnostic::Severity;
use crate::prompt::agents::files::{CLAUDE_COMMANDS_DIR, CLAUDE_SKILLS_DIR};
use crate::prompt::tiers::{Layout, SearchDir, Tier, Words};
use crate::prompt::walk::{InvalidAt, Scope, WalkDir, walk};
use crate::workspace::{Workspace, join};

/// The skills directory below a project directory or the config directory.
pub const PROJECT_SKILLS_DIR: &str = CLAUDE_SKILLS_DIR;
/// The commands directory below a project directory.
pub const PROJECT_COMMANDS_DIR: &str = CLAUDE_COMMANDS_DIR;

/// How skill files are named in diagnostics; like a command, a refused
/// symlink or a name that is not UTF-8 is a warning (SPEC §5.5).
pub const SKILL_WORDS: Words = Words {
    noun: "skill",
    plural: "skills",
    dir_noun: "skills directory",
    refusal: Severity::Warning,
};

/// Claude Code's command and skill directories in precedence order, first
/// wins (observed, `tests/oracle/cases/claude-commands/`): skills before
/// commands whatever their scope; within a kind the user's
/// (`$CLAUDE_CONFIG_DIR/skills`, `/commands`, read through `user`) before
/// the project's, and in the project the start directory `at`
/// (workspace-relative) before each ancestor up to the workspace root.
/// The project directories are withheld when `withheld` (an untrusted
/// workspace).
pub fn claude_dirs<'r>(
    project: Arc<dyn Workspace + 'r>,
    at: &str,
    withheld: bool,
    user: Option<Arc<dyn Workspace + 'r>>,
) -> Result<Vec<SearchDir<'r>>, InvalidAt> {
    let walked = walk(None, project.as_ref(), at)?;
    Ok(claude_dirs_on(project.clone(), &walked, withheld, user))
}

/// [`claude_dirs`] for a start directory already walked (`walked`, top
/// first; only its workspace directories count).
pub fn claude_dirs_on<'r>(
    project: Arc<dyn Workspace + 'r>,
    walked: &[WalkDir<'_>],
    withheld: bool,
    user: Option<Arc<dyn Workspace + 'r>>,
) -> Vec<SearchDir<'r>> {
    let chain: Vec<&str> = walked
        .iter()
        .rev()
        .filter(|dir| dir.scope == Scope::Project)
        .map(|dir| dir.dir.as_str())
        .collect();
    let mut dirs = Vec::with_capacity(2 * chain.len() + 2);
    for (layout, user_dir, project_dir) in [
        (Layout::SkillDirs, "skills", PROJECT_SKILLS_DIR),
        (Layout::Nested, "commands", PROJECT_COMMANDS_DIR),
    ] {
        if let Some(user) = &user {
            dirs.push(SearchDir::flat(user.clone(), user_dir, Tier::User).with_layout(layout));
        }
        for dir in &chain {
            dirs.push(
                SearchDir::flat(project.clone(), join(dir, project_dir), Tier::Project)
                    .with_layout(layout)
                    .withheld_if(withheld),
            );
        }
    }
    dirs
}
