//! The Claude Code profile's instructions (SPEC §14.3): which files Claude
//! Code 2.1.328 loads at start, in which order and with which content, and
//! what reading a file later adds (`--touch`). Every rule below is pinned
//! by a recorded case in `tests/oracle/cases/claude-instructions/` (the
//! module's contract; its README lists them). Nothing here touches the
//! disk: the readers come in through [`LoadReaders`].
//!
//! **At start**, in this order, every file once:
//! 1. the managed file (`CLAUDE.md` of the managed reader), scope
//!    `managed`;
//! 2. the user's `CLAUDE.md`, then the rules below the user's `rules/` in
//!    listing order, scope `user`;
//! 3. every directory of the walk from `/` down to the cwd (`--at`; scope
//!    `parent` above the workspace, `project` inside): `CLAUDE.md`,
//!    `.claude/CLAUDE.md`, the rules of `.claude/rules/**` in listing order
//!    (unconditional ones; a conditional one only contributes its imports,
//!    at its position), then — only when the AGENTS.md fallback applies —
//!    `AGENTS.md` and `.claude/AGENTS.md`, and last `CLAUDE.local.md`
//!    (scope `local`);
//! 4. the auto-memory `MEMORY.md` (scope `user`, kind `auto-memory`).
//!
//! Each file's imports follow it depth-first ([`crate::prompt::imports`]);
//! its content is [`crate::prompt::markdown::claude_content`]; a file with
//! nothing left is skipped and its imports with it.
//!
//! **Observed, where SPEC §14.3 says otherwise** (the recordings win):
//! - The fallback files come *after* their directory's rules (observed:
//!   `agents-order-with-rules`); SPEC says "exactly where CLAUDE.md would
//!   be", which only holds for a directory without rules. Rules and a
//!   CLAUDE.md over 4 MiB never switch the fallback off.
//! - Imports are found in the Markdown text, not in raw lines
//!   (`imports-markdown`, `imports-escapes`); SPEC says "at the start of a
//!   line or after whitespace".
//! - `paths:` are gitignore-style patterns relative to the directory that
//!   holds the rule's `.claude` (user rules: relative to the cwd), not
//!   globset globs with a literal separator ([`paths`], `lazy-globs`,
//!   `lazy-cwd-subdir`); SPEC says "globset, `literal_separator(true)`".
//! - The auto-memory directory is keyed by the canonical git root (a
//!   worktree's main repository; without git: the cwd) with every
//!   character other than an ASCII letter or digit replaced by `-`, and
//!   `MEMORY.md` is cut at 200 lines, then at 25,000 UTF-16 units
//!   (`auto-memory-*`); SPEC says the cwd with `/` replaced.
//! - Reading a file adds, per directory from below the cwd down to the
//!   file's: `CLAUDE.md` with its imports, `.claude/CLAUDE.md`,
//!   `CLAUDE.local.md`, then the directory's rules — local *before* rules,
//!   unlike the start order — and never an `AGENTS.md`, even when the
//!   fallback applied at start (`lazy-nested`, `lazy-dot-claude`,
//!   `lazy-no-fallback`). Then the conditional rules whose patterns match,
//!   the user's first, then from the nearest directory up. A file outside
//!   the cwd adds nothing at all (`lazy-outside-cwd`).
//!
//! - Links (SPEC is silent): a file is loaded once however it is reached
//!   (`CLAUDE.md -> AGENTS.md`), rules are found through links to
//!   directories too and named by their real path, and an import is judged
//!   where its link leads (`walk-symlink-once`, `rules-symlinks`,
//!   `imports-link-outside-cwd`).
//!
//! **Deliberate differences** (SPEC §14.3):
//! - An import from a project, local or parent file that resolves outside
//!   the workspace is never read, approved or not (listed `external: not
//!   read`, with a warning).
//! - Inside the workspace every file is read through the confined project
//!   reader, so a link out of it is refused (an import through one counts
//!   as external; Claude Code would follow a project file's link out).
//! - Untrusted: project and local files are listed as withheld and never
//!   opened; a user or managed import that lands in the workspace is
//!   withheld too.
//!
//! Choices the spec leaves open:
//! - Under an untrusted workspace the AGENTS.md fallback cannot know
//!   whether a withheld `CLAUDE.md` has content; one that exists counts as
//!   having some (what trusting the workspace would most likely show).
//! - The managed file counts for the fallback like project files do; the
//!   user's `CLAUDE.md` does not (observed: `user-and-agents`).
//! - A conditional rule's frontmatter that is not valid YAML is read a
//!   second time the way Claude Code reads such blocks; when that fails
//!   too the block is ignored and the rule loads at start, with a warning.
//! - A `CLAUDE.local.md` above the workspace has scope `parent`, like every
//!   file up there.
//! - The approval of external imports is looked up only when an import
//!   needs it, under the same key as the auto-memory (observed for both,
//!   a worktree included: [`key`]).

pub mod approval;
mod assembly;
pub mod catalog;
mod hooks;
mod key;
mod lint;
mod mcp;
mod memory;
mod output_style;
pub mod paths;
mod read;
mod rules;
mod run;
mod settings;
mod spec;
mod start;
mod subagents;
mod touch;

use crate::prompt::lint::report::LintHooks;
use crate::prompt::profile::seam::{self, Profile, ProfileRun, ProfileSpec};
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::prompt::markdown::claude_content;
use crate::prompt::profile::{NotLoaded, Part, ProfileRule, Scope, Touched};
use crate::prompt::walk::WalkDir;
use crate::workspace::Workspace;

pub use approval::ClaudeJson;
pub use paths::{Activation, RulePaths};
pub use spec::{CONFIG_FILE_HOME, CONFIG_HOME, MANAGED_HOME, SPEC};

/// The names Claude Code reads in each walk directory.
pub mod names {
    pub use crate::prompt::agents::files::{AGENTS_MD, CLAUDE_MD};

    /// The project's configuration directory in a walk directory.
    pub const DOT_CLAUDE: &str = ".claude";
    /// The instruction file inside `.claude/`.
    pub const DOT_CLAUDE_MD: &str = ".claude/CLAUDE.md";
    /// The personal, git-ignored instruction file.
    pub const LOCAL_MD: &str = "CLAUDE.local.md";
    /// The fallback instruction file inside `.claude/`.
    pub const DOT_AGENTS_MD: &str = ".claude/AGENTS.md";
    /// The rules tree of a walk directory.
    pub const RULES_DIR: &str = crate::prompt::agents::files::CLAUDE_RULES_DIR;
    /// The rules tree of the user's configuration directory.
    pub const USER_RULES_DIR: &str = "rules";
    /// Every instruction file of a walk directory, in the order Claude
    /// Code tries them at start (the `AGENTS.md` pair only as the
    /// fallback, `CLAUDE.local.md` last).
    pub const INSTRUCTION_NAMES: [&str; 5] =
        [CLAUDE_MD, DOT_CLAUDE_MD, AGENTS_MD, DOT_AGENTS_MD, LOCAL_MD];
    /// The git marker that keys the auto-memory and the approval.
    pub const GIT: &str = ".git";
}

/// Whether the user approved imports outside the cwd for a project
/// (`projects["<key>"].hasClaudeMdExternalIncludesApproved` in Claude
/// Code's global configuration). An adapter reads it; the profile asks only
/// when an import needs the answer.
pub trait ExternalApproval {
    /// The approval for the project keyed `project` (the git root, else the
    /// cwd); `Err` with a one-line reason when the configuration cannot be
    /// read (then nothing is approved).
    fn approved(&self, project: &Path) -> Result<bool, String>;
}

/// No approval recorded anywhere.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoApproval;

impl ExternalApproval for NoApproval {
    fn approved(&self, _: &Path) -> Result<bool, String> {
        Ok(false)
    }
}

/// The readers the profile reads through, built by the composition root.
#[derive(Clone, Copy)]
pub struct LoadReaders<'a> {
    /// The workspace, confined (SPEC §3.1): every file inside the
    /// workspace is read through it.
    pub project: &'a dyn Workspace,
    /// The filesystem root with links followed: the directories above the
    /// workspace, and imports of user and managed files outside it.
    pub root: Option<&'a dyn Workspace>,
    /// The user's configuration directory (`$CLAUDE_CONFIG_DIR`, default
    /// `~/.claude`), links followed.
    pub user: Option<&'a dyn Workspace>,
    /// The managed policy directory (`/etc/claude-code` on Linux; per
    /// platform in the profile's spec).
    pub managed: Option<&'a dyn Workspace>,
}

/// One run of the profile: the readers, where the agent starts, and what
/// decides the gates.
#[derive(Clone, Copy)]
pub struct LoadSetup<'a> {
    /// Where files are read from.
    pub readers: LoadReaders<'a>,
    /// The agent's start directory, workspace-relative (`.` or `""` for the
    /// root).
    pub at: &'a str,
    /// The home directory `@~/` imports resolve against.
    pub home: &'a Path,
    /// Whether the workspace is trusted: untrusted withholds project and
    /// local files (SPEC §14.1).
    pub trusted: bool,
    /// Where the approval of external imports comes from.
    pub approval: &'a dyn ExternalApproval,
}

/// What Claude Code loads, as the profile reproduces it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClaudeInstructions {
    /// The parts of the start-up instructions, in the order sent.
    pub parts: Vec<Part>,
    /// Per touched path, in the order given, what reading it adds.
    pub touch: Vec<Touched>,
    /// Files considered and not loaded, in the order met.
    pub not_loaded: Vec<NotLoaded>,
    /// Every rule file found, with how it loads (for `rules list`).
    pub rules: Vec<ProfileRule>,
    /// What happened to the files looked at.
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads what Claude Code loads at start from `setup` over the walk `dirs`
/// (from the top down to `setup.at`, laid out once by the run), then what
/// reading each of `touch` (workspace-relative paths, in order) adds.
pub fn load_walked<'a>(
    setup: &LoadSetup<'a>,
    dirs: &[WalkDir<'a>],
    touch: &[String],
) -> ClaudeInstructions {
    let readers = setup.readers;
    let mut assembly = assembly::Assembly::new(setup, dirs);
    let mut parts = Vec::new();
    if let Some(managed) = readers.managed {
        assembly.load_top_file(managed, Scope::Managed, &mut parts);
    }
    if let Some(user) = readers.user {
        assembly.load_top_file(user, Scope::User, &mut parts);
        let cwd = assembly.cwd().to_path_buf();
        assembly.load_rules(
            &rules::RulesTree::user(user, names::USER_RULES_DIR, cwd),
            &mut parts,
        );
    }
    assembly.load_walk(dirs, &mut parts);
    if let Some(user) = readers.user {
        memory::load_memory(&mut assembly, user, &mut parts);
    }
    let touched = touch
        .iter()
        .map(|path| touch::touch(&mut assembly, dirs, path))
        .collect();
    assembly.finish(parts, touched)
}

/// The absolute path `rel` names below `reader`'s root.
fn absolute(reader: &dyn Workspace, rel: &str) -> PathBuf {
    crate::prompt::walk::absolute(reader, rel)
}

/// Claude Code's registration.
pub struct Claude;

impl Profile for Claude {
    fn spec(&self) -> &'static ProfileSpec {
        &SPEC
    }

    fn open<'a>(&self, setup: &'a seam::Setup<'a>) -> Box<dyn ProfileRun + 'a> {
        Box::new(run::ClaudeRun::new(setup))
    }

    fn lint(&self) -> Option<&'static dyn LintHooks> {
        Some(&lint::ClaudeLint)
    }
}

#[cfg(test)]
mod tests;

/// Whether an instruction file whose decoded text is `text` switches the
/// AGENTS.md fallback off: it does when Claude Code would send something of
/// it (a blank `CLAUDE.md`, or one holding only frontmatter and comments,
/// leaves the fallback on; recorded as `blank-claude-keeps-fallback`).
pub fn switches_fallback_off(text: &str) -> bool {
    claude_content(text).is_some()
}
