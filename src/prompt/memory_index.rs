//! The memory index message (SPEC §6.5). (Placeholder; the assembler lands
//! with the turn-0 work.)

/// One stored memory entry. Index sources leave `value` empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryEntry {
    /// The memory key.
    pub key: String,
    /// The stored value (empty from index sources).
    pub value: String,
    /// The stored description, possibly empty.
    pub description: String,
    /// When the entry was last updated, as stored (RFC 3339), if known.
    pub updated_at: Option<String>,
}
