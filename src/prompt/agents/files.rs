//! The file names more than one agent reads, spelled once. A name only
//! one agent reads is spelled in that agent's folder
//! ([`super::claude::names`], [`super::codex::chain`]).

/// The shared instruction file: Codex's own, Claude Code's fallback, the
/// engine's first choice (SPEC §6.2).
pub const AGENTS_MD: &str = "AGENTS.md";

/// Claude Code's instruction file, the engine's fallback (SPEC §6.2).
pub const CLAUDE_MD: &str = "CLAUDE.md";

/// The file of a skill inside its directory (Claude Code and Codex).
pub const SKILL_MD: &str = "SKILL.md";

/// Claude Code's project commands directory, which the engine also reads
/// (SPEC §5.5, §14.5).
pub const CLAUDE_COMMANDS_DIR: &str = ".claude/commands";

/// Claude Code's project skills directory (SPEC §14.5).
pub const CLAUDE_SKILLS_DIR: &str = ".claude/skills";

/// Claude Code's project rules tree, which the engine also reads (SPEC §7,
/// §14.3).
pub const CLAUDE_RULES_DIR: &str = ".claude/rules";
