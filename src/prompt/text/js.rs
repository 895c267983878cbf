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

/// `haystack.replaceAll(needle, replacement)` with a string
/// `replacement`, whose `$$`, `$&`, `` $` `` and `$'` JavaScript expands
/// (ECMAScript GetSubstitution; there are no capture groups, so `$1` stays
/// as written).
pub fn js_replace_all(haystack: &str, needle: &str, replacement: &str) -> String {
    if needle.is_empty() {
        return haystack.to_string();
    }
    let mut out = String::with_capacity(haystack.len());
    let mut copied = 0;
    for (at, _) in haystack.match_indices(needle) {
        out.push_str(&haystack[copied..at]);
        let mut chars = replacement.chars().peekable();
        while let Some(c) = chars.next() {
            let expanded = match (c, chars.peek()) {
                ('$', Some('$')) => Some("$"),
                ('$', Some('&')) => Some(needle),
                ('$', Some('`')) => Some(&haystack[..at]),
                ('$', Some('\'')) => Some(&haystack[at + needle.len()..]),
                _ => None,
            };
            match expanded {
                Some(text) => {
                    out.push_str(text);
                    chars.next();
                }
                None => out.push(c),
            }
        }
        copied = at + needle.len();
    }
    out.push_str(&haystack[copied..]);
    out
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
    fn replace_all_expands_replacement_patterns() {
        assert_eq!(js_replace_all("a X b X", "X", "1$$2"), "a 1$2 b 1$2");
        assert_eq!(js_replace_all("aXb", "X", "[$&|$`|$'|$1]"), "a[X|a|b|$1]b");
        assert_eq!(js_replace_all("ab", "", "z"), "ab");
    }

    #[test]
    fn utf16_counts_surrogate_pairs_twice_and_never_splits_a_character() {
        assert_eq!(utf16_len("a\u{e9}\u{1f600}"), 4);
        assert_eq!(utf16_floor("a\u{1f600}b", 2), 1);
        assert_eq!(utf16_floor("a\u{1f600}b", 3), 5);
        assert_eq!(utf16_floor("ab", 9), 2);
    }
}
