//! The Claude Code profile's run (SPEC §14.3): the run's readers handed to
//! the loader ([`crate::prompt::agents::claude::load_walked`]) over one
//! walk, the approval of external imports from Claude Code's global
//! configuration ([`crate::prompt::agents::claude::approval`]), and the
//! loader's facts as the profile vocabulary: one instructions message whose parts are every file
//! in Claude Code's order, what each `--touch` path adds, what was left out
//! and why, the rules found, and where the profile looked (for `explain`).
//!
//! Choices the spec leaves open:
//! - The message's text is the parts' contents joined by a blank line:
//!   Claude Code frames each file with a line of its own prose, which the
//!   preview does not reproduce (SPEC Part II); the parts carry the files.
//! - Without a home directory, `@~/` imports lead nowhere a project file
//!   may reach, and there are no user files, auto-memory or approval.

use std::cell::OnceCell;
use std::ffi::OsStr;
use std::path::Path;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::claude::catalog::ClaudeCatalog;
use crate::prompt::agents::claude::hooks::hooks;
use crate::prompt::agents::claude::mcp::mcp_servers;
use crate::prompt::agents::claude::output_style::{StyleDirs, output_style};
use crate::prompt::agents::claude::settings::{ClaudeSettings, read_settings};
use crate::prompt::agents::claude::spec::BUDGET_VAR;
use crate::prompt::agents::claude::subagents::{SubagentSources, subagents};
use crate::prompt::command::claude_listing;
use crate::prompt::profile::catalog::Catalog;

use crate::prompt::agents::claude::{
    self as claude, CONFIG_FILE_HOME, CONFIG_HOME, ClaudeJson, ExternalApproval, MANAGED_HOME,
    NoApproval, names,
};
use crate::prompt::profile::seam::{ProfileError, ProfileRun, Setup};
use crate::prompt::profile::{ProfileMessage, ProfileTurn0, Searched, SearchedDir};
use crate::prompt::turn0::Provenance;
use crate::prompt::walk::{Scope, WalkDir, walk};
use crate::workspace::Workspace;

/// Claude Code over one workspace.
pub(super) struct ClaudeRun<'a> {
    setup: &'a Setup<'a>,
    walked: OnceCell<Vec<WalkDir<'a>>>,
    settings: OnceCell<ClaudeSettings>,
}

impl<'a> ClaudeRun<'a> {
    pub(super) fn new(setup: &'a Setup<'a>) -> Self {
        Self {
            setup,
            walked: OnceCell::new(),
            settings: OnceCell::new(),
        }
    }

    /// The settings files, read on first use (turn 0 and the catalog
    /// share them).
    fn settings(&self) -> &ClaudeSettings {
        self.settings.get_or_init(|| {
            let setup = self.setup;
            let user = (setup.homes)(&CONFIG_HOME);
            read_settings(&*setup.project, setup.at, user.as_deref(), setup.trusted)
        })
    }

    /// The walk from `/` to `--at`, made on first use: the instruction
    /// files and the command directories are looked for along the same one.
    fn walked(&self) -> Result<&[WalkDir<'a>], ProfileError> {
        if let Some(walked) = self.walked.get() {
            return Ok(walked);
        }
        let setup = self.setup;
        let walked = walk(Some(&*setup.parent), &*setup.project, setup.at)?;
        Ok(self.walked.get_or_init(|| walked))
    }
}

impl ProfileRun for ClaudeRun<'_> {
    /// Claude Code's turn 0 for this run (SPEC §14.3), from one walk.
    fn turn0(&self) -> Result<ProfileTurn0, ProfileError> {
        let setup = self.setup;
        let walked = self.walked()?;
        let mut turn0 = turn0(setup, walked)?;
        let user = (setup.homes)(&CONFIG_HOME);
        let styles = StyleDirs {
            project: &*setup.project,
            at: setup.at,
            user: user.as_deref(),
            trusted: setup.trusted,
        };
        add_configured(&mut turn0, self.settings(), &styles, walked);
        Ok(turn0)
    }

    /// Its commands and skills (SPEC §14.5), the skills listing fitted to
    /// `SLASH_COMMAND_TOOL_CHAR_BUDGET` when set (the process's, else the
    /// `env` of the settings, SPEC §19.6), else to 1% × 4 characters of the
    /// context window.
    fn catalog(&self) -> Result<Box<dyn Catalog + '_>, ProfileError> {
        let setup = self.setup;
        let window = setup
            .context_window
            .unwrap_or(limits::DEFAULT_CONTEXT_WINDOW_TOKENS);
        let from_settings = || {
            let (_, env) = self.settings().get("env")?;
            env.get(BUDGET_VAR)?.as_str()
        };
        let var = (setup.var)(BUDGET_VAR)
            .and_then(OsStr::to_str)
            .or_else(from_settings);
        Ok(Box::new(ClaudeCatalog::new(
            setup.project.clone(),
            (setup.at, self.walked()?),
            setup.trusted,
            (setup.homes)(&CONFIG_HOME),
            claude_listing::budget(window, var),
        )))
    }
}

fn turn0(run: &Setup<'_>, walked: &[WalkDir<'_>]) -> Result<ProfileTurn0, ProfileError> {
    let user = (run.homes)(&CONFIG_HOME);
    let managed = (run.homes)(&MANAGED_HOME);
    let home = run.home.map(Path::to_path_buf).unwrap_or_default();
    // `.claude.json` lives in `$CLAUDE_CONFIG_DIR` when that is set, else
    // in the home directory (not in `~/.claude`).
    let config_file_dir = (run.homes)(&CONFIG_FILE_HOME);
    let config_file = config_file_dir.as_deref().map(ClaudeJson::new);
    let approval: &dyn ExternalApproval = match &config_file {
        Some(file) => file,
        None => &NoApproval,
    };
    let setup = claude::LoadSetup {
        readers: claude::LoadReaders {
            project: &*run.project,
            root: Some(&*run.parent),
            user: user.as_deref(),
            managed: managed.as_deref(),
        },
        at: run.at,
        home: &home,
        trusted: run.trusted,
        approval,
    };
    let loaded = claude::load_walked(&setup, walked, run.touch);
    let mut turn0 = ProfileTurn0 {
        touch: loaded.touch,
        not_loaded: loaded.not_loaded,
        diagnostics: loaded.diagnostics,
        rules: loaded.rules,
        searched: searched(run, walked, user.as_deref(), managed.as_deref()),
        ..ProfileTurn0::default()
    };
    if !loaded.parts.is_empty() {
        turn0.messages.push(ProfileMessage::joined(
            Provenance::Instructions,
            loaded.parts,
        ));
    }
    let subagents = subagents(&SubagentSources {
        walked,
        user: user.as_deref(),
        trusted: run.trusted,
    });
    turn0.messages.extend(subagents.message);
    turn0.not_loaded.extend(subagents.not_loaded);
    turn0.diagnostics.extend(subagents.diagnostics);
    turn0.subagents = subagents.found;
    Ok(turn0)
}

/// What the settings and `.mcp.json` add to `turn0`: the MCP servers and
/// hooks (listed, never run), what trust withheld, and the settings that
/// change what Claude Code sends (SPEC §19.4–§19.6).
fn add_configured(
    turn0: &mut ProfileTurn0,
    settings: &ClaudeSettings,
    styles: &StyleDirs<'_>,
    walked: &[WalkDir<'_>],
) {
    let trusted = styles.trusted;
    turn0.not_loaded.extend(settings.not_loaded.iter().cloned());
    turn0
        .diagnostics
        .extend(settings.diagnostics.iter().cloned());
    if let Some((file, serde_json::Value::Bool(false))) = settings.get("includeCoAuthoredBy") {
        turn0.diagnostics.push(Diagnostic::new(
            Severity::Info,
            Some(file.path.clone()),
            "includeCoAuthoredBy is false: Claude Code drops its attribution reminder",
        ));
    }
    let styled = output_style(settings, styles);
    // After the instructions, before the subagents listing.
    let at = turn0
        .messages
        .iter()
        .position(|m| m.provenance != Provenance::Instructions)
        .unwrap_or(turn0.messages.len());
    if let Some(message) = styled.message {
        turn0.messages.insert(at, message);
    }
    turn0.not_loaded.extend(styled.not_loaded);
    turn0.diagnostics.extend(styled.diagnostics);
    turn0.output_style = styled.style;
    let servers = mcp_servers(walked, settings, trusted);
    turn0.not_loaded.extend(servers.not_loaded);
    turn0.diagnostics.extend(servers.diagnostics);
    turn0.mcp_servers = servers.servers;
    let (hooks, diagnostics) = hooks(settings);
    turn0.diagnostics.extend(diagnostics);
    turn0.hooks = hooks;
}

/// Where Claude Code looks at start, and the rule in one sentence.
fn searched(
    run: &Setup<'_>,
    walked: &[WalkDir<'_>],
    user: Option<&dyn Workspace>,
    managed: Option<&dyn Workspace>,
) -> Searched {
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
    for dir in walked {
        let shown = dir.reader.display(&dir.dir);
        let dot_claude = dir.reader.display(&dir.rel(names::DOT_CLAUDE));
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
    Searched {
        rule: format!(
            "Claude Code reads the managed CLAUDE.md, the user's CLAUDE.md and rules, then in \
             each directory from / down to the cwd {}: CLAUDE.md, .claude/CLAUDE.md, the rules \
             below .claude/rules and CLAUDE.local.md (AGENTS.md and .claude/AGENTS.md after the \
             rules only when no CLAUDE.md of any kind has content), then the auto-memory; a \
             rule with paths: loads when a matching file is read, and so does a directory below \
             the cwd (--touch)",
            run.at_label()
        ),
        dirs,
    }
}
