//! JavaScript string semantics that Claude Code's behaviour depends on (SPEC §14.3,
//! §14.5): its whitespace class and `trim()`, and lengths counted in UTF-16 code units.

/// JavaScript's `\s` (ECMAScript WhiteSpace and LineTerminator): what Claude Code
/// trims, splits on and accepts before an `@import`. BOM and NBSP are in it, U+0085 is not.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `text` without leading and trailing [`is_js_space`] characters (`String.prototype.trim`).
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_space)
}

/// The length of `text` in UTF-16 code units (JavaScript's `length`).
pub fn utf16_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// The byte offset where the first `units` UTF-16 code units of `text` end, moved back so
/// that it never splits a character.
pub fn utf16_floor(text: &str, units: usize) -> usize {
    let mut seen = 0;
    for (at, c) in text.char_indices() {
        seen += c.len_utf16();
        if seen > units {
            return at;
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_javascripts() {
        assert_eq!(js_trim("\u{feff}\u{a0} x \u{3000}\n"), "x");
        assert_eq!(js_trim("\u{85}x\u{85}"), "\u{85}x\u{85}");
    }

    #[test]
    fn utf16_counts_surrogate_pairs_twice_and_never_splits_a_character() {
        assert_eq!(utf16_len("a\u{e9}\u{1f600}"), 4);
        assert_eq!(utf16_floor("a\u{1f600}b", 2), 1);
        assert_eq!(utf16_floor("a\u{1f600}b", 3), 5);
        assert_eq!(utf16_floor("ab", 9), 2);
    }
}
