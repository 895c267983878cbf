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
