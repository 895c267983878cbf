//! Positions and digests of text (SPEC §9, §20.5): where a byte offset
//! falls as a line and column, for diagnostics that point into a file, and
//! the SHA-256 of a text, for manifests and lint baselines.

use sha2::{Digest, Sha256};

/// 1-based line and column (in characters) of byte `offset` in `text`; an
/// offset past the end or inside a character counts the whole text.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// Lowercase hex SHA-256 of `text`.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_from_one_in_characters() {
        let text = "ab\ncé d\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        // `d` follows `c`, `é` (two bytes) and a space.
        assert_eq!(line_column(text, 7), (2, 4));
        assert_eq!(line_column(text, 99), (3, 1));
    }

    #[test]
    fn sha256_is_lowercase_hex() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
