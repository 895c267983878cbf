//! Gemini CLI's profile data (SPEC §16.1).

use crate::limits;
use crate::prompt::command::NameGrammar;
use crate::prompt::profile::seam::{HomeDefault, HomeDir, ProfileSpec};
use crate::prompt::profile::{Agent, Scope};
use crate::prompt::tokens::Tokenizer;

/// Gemini's configuration directory, in a project and in the home.
pub const DOT_GEMINI: &str = ".gemini";

/// The context file name Gemini always reads (SPEC §16.2).
pub const GEMINI_MD: &str = "GEMINI.md";

/// `$GEMINI_CLI_HOME`, else the home directory: the directory Gemini keeps
/// its `.gemini` in (the user's context files and `settings.json` are
/// below `.gemini/` there; the variable moves the home, not `.gemini`).
pub const GEMINI_HOME: HomeDir = HomeDir {
    var: Some("GEMINI_CLI_HOME"),
    default: HomeDefault::UnderHome(""),
    scope: Scope::User,
};

/// Gemini CLI's data.
pub const SPEC: ProfileSpec = ProfileSpec {
    agent: Agent::Gemini,
    name: "gemini",
    title: "Gemini CLI",
    summary: "Gemini CLI",
    // Gemini's tokenizer is not public.
    tokenizer: Tokenizer::Estimate,
    read_cap: limits::MAX_GEMINI_FILE_BYTES,
    sigil: '/',
    names: NameGrammar::Plain,
    has_rules: false,
    homes: &[GEMINI_HOME],
    instruction_names: &[GEMINI_MD],
    nested_instructions: true,
    config_dirs: &[DOT_GEMINI],
    vars: &[super::system::VAR],
    default_when: &[GEMINI_MD, DOT_GEMINI],
    lazy_in_compare: true,
};
