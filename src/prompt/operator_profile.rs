//! The operator profile (SPEC §6.6): durable `user/…` facts rendered into
//! the volatile suffix. (Placeholder signatures; the full renderer lands with
//! the turn-0 work.)

use crate::prompt::memory_index::MemoryEntry;

/// The operator profile handed to the builder: full entries plus caps
/// (0 = the default of `limits.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperatorProfileConfig {
    /// The stored entries, values included.
    pub entries: Vec<MemoryEntry>,
    /// Most entries rendered; 0 = default.
    pub max_entries: usize,
    /// Most bytes rendered; 0 = default.
    pub max_bytes: usize,
    /// Most characters rendered; 0 = default.
    pub max_chars: usize,
}

/// Renders the operator profile block, or `""` when no entry qualifies.
/// `tool_names` is the catalog, which decides the omitted-entries hint.
pub fn render_operator_profile(cfg: &OperatorProfileConfig, tool_names: &[&str]) -> String {
    let _ = (cfg, tool_names);
    String::new()
}
