//! Codex CLI's profile (SPEC §14.4, §14.6).

use crate::limits;
use crate::prompt::agents::codex::chain::{AGENTS_NAME, DOT_AGENTS, DOT_CODEX, OVERRIDE_NAME};
use crate::prompt::command::NameGrammar;
use crate::prompt::profile::seam::{HomeDefault, HomeDir, ProfileSpec};
use crate::prompt::profile::{Agent, Scope};
use crate::prompt::tokens::Tokenizer;

/// `$CODEX_HOME`, else `~/.codex`: the global instructions, `config.toml`
/// and the user's skills.
pub const CODEX_HOME: HomeDir = HomeDir {
    var: Some("CODEX_HOME"),
    default: HomeDefault::UnderHome(DOT_CODEX),
    scope: Scope::User,
};

/// The home directory itself: the user's skills in `~/.agents/skills`.
pub const USER_HOME: HomeDir = HomeDir {
    var: None,
    default: HomeDefault::UnderHome(""),
    scope: Scope::User,
};

/// Codex CLI's data.
pub const SPEC: ProfileSpec = ProfileSpec {
    agent: Agent::Codex,
    name: "codex",
    title: "Codex",
    summary: "Codex CLI",
    // Codex's models use the public `o200k_base` encoding.
    tokenizer: Tokenizer::O200kBase,
    // It reads no more of the project's files than its budget.
    read_cap: limits::CODEX_PROJECT_DOC_MAX_BYTES,
    sigil: '$',
    names: NameGrammar::Plain,
    has_rules: false,
    homes: &[CODEX_HOME, USER_HOME],
    instruction_names: &[OVERRIDE_NAME, AGENTS_NAME],
    nested_instructions: true,
    config_dirs: &[DOT_CODEX, DOT_AGENTS],
    vars: &[],
    default_when: &[],
    lazy_in_compare: false,
};
