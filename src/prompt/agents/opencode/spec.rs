//! opencode's profile data (SPEC §18): its names, homes and switches.

use std::ffi::OsStr;

use crate::limits;
use crate::prompt::agents::files::{AGENTS_MD, CLAUDE_MD};
use crate::prompt::command::NameGrammar;
use crate::prompt::profile::seam::{HomeDefault, HomeDir, ProfileSpec};
use crate::prompt::profile::{Agent, Scope};
use crate::prompt::tokens::Tokenizer;

/// opencode's project directory (configs, commands, skills).
pub const DOT_OPENCODE: &str = ".opencode";

/// The third instruction name opencode tries (SPEC §18.1).
pub const CONTEXT_MD: &str = "CONTEXT.md";

/// opencode's configuration files, in the order it merges them within one
/// directory.
pub const CONFIG_FILES: [&str; 2] = ["opencode.json", "opencode.jsonc"];

/// `$OPENCODE_CONFIG_DIR`: when set (and absolute) it replaces the user's
/// config directory (observed: `~/.config/opencode/AGENTS.md` is then not
/// read).
pub(super) const CONFIG_DIR: HomeDir = HomeDir {
    var: Some("OPENCODE_CONFIG_DIR"),
    default: HomeDefault::UnderHome(".config/opencode"),
    scope: Scope::User,
};

/// `$XDG_CONFIG_HOME`, else `~/.config`: opencode's config directory is
/// `opencode/` below it unless `OPENCODE_CONFIG_DIR` moves it.
pub(super) const XDG_CONFIG: HomeDir = HomeDir {
    var: Some("XDG_CONFIG_HOME"),
    default: HomeDefault::UnderHome(".config"),
    scope: Scope::User,
};

/// The home directory itself (`~/.claude/CLAUDE.md`, `~/` entries).
pub(super) const USER_HOME: HomeDir = HomeDir {
    var: None,
    default: HomeDefault::UnderHome(""),
    scope: Scope::User,
};

/// Drops Claude Code's files (`CLAUDE.md`, `~/.claude/CLAUDE.md`, skills).
pub(super) const DISABLE_CLAUDE_CODE: &str = "OPENCODE_DISABLE_CLAUDE_CODE";
/// Drops Claude Code's instruction files only.
pub(super) const DISABLE_CLAUDE_CODE_PROMPT: &str = "OPENCODE_DISABLE_CLAUDE_CODE_PROMPT";
/// Drops Claude Code's skills (`.claude/skills`).
pub(super) const DISABLE_CLAUDE_CODE_SKILLS: &str = "OPENCODE_DISABLE_CLAUDE_CODE_SKILLS";
/// Drops the skills of other agents' directories (`.claude/skills`,
/// `.agents/skills`).
pub(super) const DISABLE_EXTERNAL_SKILLS: &str = "OPENCODE_DISABLE_EXTERNAL_SKILLS";
/// Drops the project's instruction files and configs.
pub(super) const DISABLE_PROJECT_CONFIG: &str = "OPENCODE_DISABLE_PROJECT_CONFIG";

/// True when an opencode switch is on: `1` or `true` (any case), as
/// opencode reads its flags.
pub(super) fn is_on(value: Option<&OsStr>) -> bool {
    value
        .and_then(OsStr::to_str)
        .is_some_and(|value| value == "1" || value.eq_ignore_ascii_case("true"))
}

/// opencode's data.
pub const SPEC: ProfileSpec = ProfileSpec {
    agent: Agent::Opencode,
    name: "opencode",
    title: "opencode",
    summary: "opencode CLI",
    // opencode talks to many providers; no one tokenizer is its.
    tokenizer: Tokenizer::Estimate,
    read_cap: limits::MAX_OPENCODE_FILE_BYTES,
    sigil: '/',
    names: NameGrammar::Nested,
    has_rules: false,
    homes: &[CONFIG_DIR, XDG_CONFIG, USER_HOME],
    instruction_names: &[AGENTS_MD, CLAUDE_MD, CONTEXT_MD],
    nested_instructions: true,
    config_dirs: &[DOT_OPENCODE],
    vars: &[
        DISABLE_CLAUDE_CODE,
        DISABLE_CLAUDE_CODE_PROMPT,
        DISABLE_CLAUDE_CODE_SKILLS,
        DISABLE_EXTERNAL_SKILLS,
        DISABLE_PROJECT_CONFIG,
    ],
    default_when: &[CONFIG_FILES[0], CONFIG_FILES[1], DOT_OPENCODE],
    lazy_in_compare: false,
};
