//! The Claude Code profile wired (SPEC §14.3): the readers of
//! [`Readers`] handed to the domain loader ([`crate::prompt::agents::claude`]), the
//! approval of external imports from Claude Code's global configuration
//! ([`crate::adapters::claude_json`]), and the loader's facts as the
//! profile vocabulary: one instructions message whose parts are every file
//! in Claude Code's order, what each `--touch` path adds, what was left out
//! and why, the rules found, and where the profile looked (for `explain`).
//!
//! Choices the spec leaves open:
//! - The message's text is the parts' contents joined by a blank line:
//!   Claude Code frames each file with a line of its own prose, which the
//!   preview does not reproduce (SPEC Part II); the parts carry the files.
//! - Without a home directory, `@~/` imports lead nowhere a project file
//!   may reach, and there are no user files, auto-memory or approval.

use crate::adapters::claude_json::ClaudeJson;
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::cli::profile::ProfileArgs;
use crate::cli::readers::Readers;
use crate::prompt::agents;
use crate::prompt::agents::claude::{self, ExternalApproval, NoApproval, names};
use crate::prompt::profile::{ProfileMessage, ProfileTurn0, Searched, SearchedDir};
use crate::prompt::turn0::Provenance;
use crate::prompt::walk::{Scope, walk};
use crate::workspace::Workspace;

/// Claude Code's turn 0 for this run (SPEC §14.3).
pub fn turn0(
    ctx: &Context,
    readers: &Readers<'_>,
    args: &ProfileArgs,
) -> Result<ProfileTurn0, CliError> {
    let user = readers.home_of(&agents::claude::CONFIG_HOME);
    let managed = readers.home_of(&agents::claude::MANAGED_HOME);
    let home = ctx.locations.home.clone().unwrap_or_default();
    // `.claude.json` lives in `$CLAUDE_CONFIG_DIR` when that is set, else
    // in the home directory (not in `~/.claude`).
    let config_file_dir = readers.home_of(&agents::claude::CONFIG_FILE_HOME);
    let config_file = config_file_dir.as_deref().map(ClaudeJson::new);
    let approval: &dyn ExternalApproval = match &config_file {
        Some(file) => file,
        None => &NoApproval,
    };
    let setup = claude::Setup {
        readers: claude::Readers {
            project: readers.project(),
            root: Some(readers.parent()),
            user: user.as_deref(),
            managed: managed.as_deref(),
        },
        at: &ctx.at,
        home: &home,
        trusted: ctx.trust.trusted,
        approval,
    };
    let loaded =
        claude::load(&setup, &args.touch).map_err(|err| CliError::Usage(err.to_string()))?;
    let mut turn0 = ProfileTurn0 {
        touch: loaded.touch,
        not_loaded: loaded.not_loaded,
        diagnostics: loaded.diagnostics,
        rules: loaded.rules,
        searched: searched(ctx, readers, user.as_deref(), managed.as_deref())?,
        ..ProfileTurn0::default()
    };
    if !loaded.parts.is_empty() {
        turn0.messages.push(ProfileMessage::joined(
            Provenance::Instructions,
            loaded.parts,
        ));
    }
    Ok(turn0)
}

/// Where Claude Code looks at start, and the rule in one sentence.
fn searched(
    ctx: &Context,
    readers: &Readers<'_>,
    user: Option<&dyn Workspace>,
    managed: Option<&dyn Workspace>,
) -> Result<Searched, CliError> {
    let named = |dir: String, scope, names: &[&str]| SearchedDir {
        dir,
        scope,
        names: names.iter().map(|n| (*n).to_string()).collect(),
    };
    let mut dirs = Vec::new();
    if let Some(managed) = managed {
        dirs.push(named(
            managed.display(""),
            Scope::Managed,
            &[names::CLAUDE_MD],
        ));
    }
    if let Some(user) = user {
        dirs.push(named(user.display(""), Scope::User, &[names::CLAUDE_MD]));
    }
    let walked = walk(Some(readers.parent()), readers.project(), &ctx.at)
        .map_err(|err| CliError::Usage(err.to_string()))?;
    for dir in &walked {
        let shown = dir.reader.display(&dir.dir);
        let dot_claude = dir.reader.display(&dir.rel(".claude"));
        dirs.push(named(
            shown,
            dir.scope,
            &[names::CLAUDE_MD, names::AGENTS_MD, names::LOCAL_MD],
        ));
        dirs.push(named(
            dot_claude,
            dir.scope,
            &[names::CLAUDE_MD, names::AGENTS_MD],
        ));
    }
    Ok(Searched {
        rule: format!(
            "Claude Code reads the managed CLAUDE.md, the user's CLAUDE.md and rules, then in \
             each directory from / down to the cwd {}: CLAUDE.md, .claude/CLAUDE.md, the rules \
             below .claude/rules and CLAUDE.local.md (AGENTS.md and .claude/AGENTS.md after the \
             rules only when no CLAUDE.md of any kind has content), then the auto-memory; a \
             rule with paths: loads when a matching file is read, and so does a directory below \
             the cwd (--touch)",
            ctx.at_label()
        ),
        dirs,
    })
}
