//! (placeholder: replaced on merge with the frontmatter module)

/// Parses a YAML document (temporary).
pub fn parse_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<Option<T>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    serde_saphyr::from_str(text)
        .map(Some)
        .map_err(|e| e.to_string())
}
