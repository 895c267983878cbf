//! Claude Code's profile (SPEC §14.3, §14.5).

use crate::limits;
use crate::prompt::agents::claude::names;
use crate::prompt::command::NameGrammar;
use crate::prompt::profile::seam::{HomeDefault, HomeDir, PerPlatform, ProfileSpec};
use crate::prompt::profile::{Agent, Scope};
use crate::prompt::tokens::Tokenizer;

/// `$CLAUDE_CONFIG_DIR`, else `~/.claude`: the user's commands, skills,
/// rules and `CLAUDE.md`.
pub const CONFIG_HOME: HomeDir = HomeDir {
    var: Some("CLAUDE_CONFIG_DIR"),
    default: HomeDefault::UnderHome(names::DOT_CLAUDE),
    scope: Scope::User,
};

/// Where `.claude.json` (the approval of external imports) lives:
/// `$CLAUDE_CONFIG_DIR` when that is set, else the home directory itself
/// (not `~/.claude`).
pub const CONFIG_FILE_HOME: HomeDir = HomeDir {
    var: Some("CLAUDE_CONFIG_DIR"),
    default: HomeDefault::UnderHome(""),
    scope: Scope::User,
};

/// Claude Code's managed (machine policy) directory, per platform: the
/// Linux one observed; the macOS and Windows ones are the paths Claude Code
/// 2.1.328 names for those platforms (read from its bundle, not observed
/// running there).
pub const MANAGED_HOME: HomeDir = HomeDir {
    var: None,
    default: HomeDefault::Machine(PerPlatform {
        linux: "/etc/claude-code",
        macos: "/Library/Application Support/ClaudeCode",
        windows: r"C:\Program Files\ClaudeCode",
    }),
    scope: Scope::Managed,
};

/// Claude Code's data.
pub const SPEC: ProfileSpec = ProfileSpec {
    agent: Agent::Claude,
    name: "claude",
    title: "Claude Code",
    summary: "Claude Code",
    // Claude's tokenizer is not public.
    tokenizer: Tokenizer::Estimate,
    read_cap: limits::MAX_CLAUDE_FILE_BYTES,
    sigil: '/',
    names: NameGrammar::Plain,
    has_rules: true,
    homes: &[CONFIG_HOME, CONFIG_FILE_HOME, MANAGED_HOME],
    instruction_names: &names::INSTRUCTION_NAMES,
    nested_instructions: true,
    config_dirs: &[names::DOT_CLAUDE],
    vars: &[BUDGET_VAR],
    default_when: &[],
    lazy_in_compare: false,
};

/// The variable that sets the skills listing's budget in characters
/// (SPEC §14.5).
pub(super) const BUDGET_VAR: &str = "SLASH_COMMAND_TOOL_CHAR_BUDGET";
