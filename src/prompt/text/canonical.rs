//! Canonical stored text and fence-safe JSON strings (SPEC §6.5).

/// Unicode general category Cf (format characters): soft hyphen, zero-width
/// space and joiners, bidi embeddings and isolates, word joiner, BOM, tag
/// characters and the rest. Inclusive ranges, sorted (Unicode 15).
const FORMAT_CHAR_RANGES: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// True for a Unicode format character (general category Cf).
pub fn is_format_char(c: char) -> bool {
    let code = u32::from(c);
    FORMAT_CHAR_RANGES
        .binary_search_by(|&(lo, hi)| {
            if hi < code {
                std::cmp::Ordering::Less
            } else if lo > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The canonical form of stored text (SPEC §6.5): every control character
/// except `\n` and `\t`, and every format character, removed. Callers decode
/// invalid UTF-8 lossily (to U+FFFD) before calling this.
pub fn canonicalise(text: &str) -> String {
    text.chars()
        .filter(|&c| c == '\n' || c == '\t' || !(c.is_control() || is_format_char(c)))
        .collect()
}

/// True for the characters that end a line anywhere the spec speaks of lines
/// in stored text: LF, CR, U+2028 and U+2029 (CRLF is a CR then an LF).
pub fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Encodes `s` as a JSON string that is safe inside a fence (SPEC §6.5): a
/// plain JSON string in which `<`, `>`, `&`, U+2028 and U+2029 are also
/// escaped as `\u003c`-style lowercase escapes, so the result never contains
/// `</` or a raw line break. NEL (U+0085) is escaped as well, for renderers
/// that break lines on it.
pub fn fence_json_string(s: &str) -> String {
    // Serialising a string cannot fail; the fallback is never taken.
    let plain = serde_json::to_string(s).unwrap_or_default();
    let mut out = String::with_capacity(plain.len());
    for c in plain.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            '\u{85}' => out.push_str("\\u0085"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn canonicalise_removes_controls_and_format_chars_but_keeps_newline_and_tab() {
        let raw = "a\u{0}b\r\nc\td\u{7f}e\u{85}f\u{200b}g\u{200d}h\u{202e}i\u{2066}j\u{feff}k\u{ad}l\u{e0041}m\u{2028}n";
        assert_eq!(canonicalise(raw), "ab\nc\tdefghijklm\u{2028}n");
        assert_eq!(canonicalise("plain é 中"), "plain é 中");
    }

    #[test]
    fn format_char_table_matches_the_known_members_and_neighbours() {
        for c in [
            '\u{ad}',
            '\u{600}',
            '\u{605}',
            '\u{61c}',
            '\u{200b}',
            '\u{200f}',
            '\u{202a}',
            '\u{202e}',
            '\u{2060}',
            '\u{2064}',
            '\u{2066}',
            '\u{206f}',
            '\u{feff}',
            '\u{fff9}',
            '\u{fffb}',
            '\u{1343f}',
            '\u{e0001}',
            '\u{e0020}',
            '\u{e007f}',
        ] {
            assert!(is_format_char(c), "{:x}", u32::from(c));
        }
        for c in [
            'a',
            '\u{ac}',
            '\u{ae}',
            '\u{200a}',
            '\u{2010}',
            '\u{2065}',
            '\u{2070}',
            '\u{fefe}',
            '\u{fffc}',
            '\u{e0000}',
            '\u{e0080}',
            '\u{2028}',
        ] {
            assert!(!is_format_char(c), "{:x}", u32::from(c));
        }
    }

    #[test]
    fn fence_json_string_escapes_markup_and_line_separators() {
        assert_eq!(
            fence_json_string("</x> & \u{2028}\u{2029}\n\"q\""),
            r#""\u003c/x\u003e \u0026 \u2028\u2029\n\"q\"""#
        );
        assert_eq!(fence_json_string(""), r#""""#);
    }

    proptest! {
        #[test]
        fn fence_json_string_never_closes_a_fence_or_breaks_a_line(s in any::<String>()) {
            let out = fence_json_string(&s);
            prop_assert!(!out.contains("</"));
            prop_assert!(!out.contains(['<', '>', '&']));
            prop_assert!(!out.contains(is_line_break));
            prop_assert!(!out.contains(char::from(0x85u8)));
            let back: String = serde_json::from_str(&out).unwrap();
            prop_assert_eq!(back, s);
        }
    }
}
