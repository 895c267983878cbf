//! GitHub Copilot CLI's profile data (SPEC §17.1).

use crate::limits;
use crate::prompt::command::NameGrammar;
use crate::prompt::profile::seam::{HomeDefault, HomeDir, ProfileSpec};
use crate::prompt::profile::{Agent, Scope};
use crate::prompt::tokens::Tokenizer;

/// The repository's Copilot instruction file, in each directory Copilot
/// reads (SPEC §17.2).
pub const COPILOT_INSTRUCTIONS_MD: &str = ".github/copilot-instructions.md";

/// The directory of path-specific instruction files, at the root and the
/// cwd (SPEC §17.2).
pub const INSTRUCTIONS_DIR: &str = ".github/instructions";

/// `~/.copilot`: the user's instruction file and path-specific
/// instructions (the preview knows no variable that moves it).
pub const COPILOT_HOME: HomeDir = HomeDir {
    var: None,
    default: HomeDefault::UnderHome(".copilot"),
    scope: Scope::User,
};

/// `~/.agents`: the user's shared skills, which Copilot also lists.
pub const AGENTS_HOME: HomeDir = HomeDir {
    var: None,
    default: HomeDefault::UnderHome(".agents"),
    scope: Scope::User,
};

/// The variable naming more instruction directories, which the preview
/// does not honour (a warning when set).
pub const CUSTOM_INSTRUCTIONS_DIRS_VAR: &str = "COPILOT_CUSTOM_INSTRUCTIONS_DIRS";

/// GitHub Copilot CLI's data.
pub const SPEC: ProfileSpec = ProfileSpec {
    agent: Agent::Copilot,
    name: "copilot",
    title: "GitHub Copilot CLI",
    summary: "GitHub Copilot CLI",
    // Copilot's instruction region is the same for every model: no one
    // tokenizer applies.
    tokenizer: Tokenizer::Estimate,
    read_cap: limits::MAX_COPILOT_FILE_BYTES,
    sigil: '/',
    names: NameGrammar::Plain,
    has_rules: true,
    homes: &[COPILOT_HOME, AGENTS_HOME],
    instruction_names: &[
        COPILOT_INSTRUCTIONS_MD,
        crate::prompt::agents::files::AGENTS_MD,
        crate::prompt::agents::files::CLAUDE_MD,
        crate::prompt::agents::gemini::GEMINI_MD,
    ],
    nested_instructions: true,
    config_dirs: &[".github"],
    vars: &[CUSTOM_INSTRUCTIONS_DIRS_VAR],
    default_when: &[COPILOT_INSTRUCTIONS_MD, INSTRUCTIONS_DIR, ".github/agents"],
    lazy_in_compare: false,
};
