//! UTF-8 at byte limits (SPEC §9, §11): decoding what a bounded read
//! returned, and cutting text on a character boundary.
//!
//! Choices the spec leaves open: a bounded read that stops inside a
//! character drops that character's bytes rather than decoding them to
//! U+FFFD (the rest of the character is in the file, just past the bound,
//! so it is not invalid UTF-8); invalid bytes anywhere else, the last bytes
//! of a file read whole included, become U+FFFD.

use std::borrow::Cow;

/// The reason of the warning a file decoded lossily gets (SPEC §9), the
/// same for every kind of file.
pub const INVALID_UTF8_REPLACED: &str = "not valid UTF-8; invalid bytes are replaced with U+FFFD";

/// Text decoded from bytes, and whether invalid UTF-8 in them was replaced
/// with U+FFFD on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text.
    pub text: Cow<'a, str>,
    /// True when some bytes were not valid UTF-8 and became U+FFFD.
    pub lossy: bool,
}

/// The bytes of a bounded read that hold whole characters: all of them,
/// less a character cut short at the end when the read stopped before the
/// end of the file (`truncated`). Only a genuine start of a character is
/// dropped; an invalid byte at the end stays (and decodes to U+FFFD).
pub fn whole_chars(bytes: &[u8], truncated: bool) -> &[u8] {
    if !truncated {
        return bytes;
    }
    // A cut character is a leading byte and at most two continuation bytes
    // (four-byte characters are the longest): it starts at the last byte
    // that is not a continuation byte, if that is among the last three.
    let tail = bytes.len().saturating_sub(3);
    let Some(start) = bytes[tail..]
        .iter()
        .rposition(|b| b & 0xC0 != 0x80)
        .map(|at| tail + at)
    else {
        return bytes;
    };
    match std::str::from_utf8(&bytes[start..]) {
        Err(err) if err.valid_up_to() == 0 && err.error_len().is_none() => &bytes[..start],
        _ => bytes,
    }
}

/// Decodes what a bounded read returned (SPEC §9, §11): [`whole_chars`],
/// then invalid UTF-8 replaced with U+FFFD. `bytes` is the read's buffer,
/// borrowed or owned; an owned buffer of valid UTF-8 becomes the text
/// without a copy. Validation runs the standard library's fast check
/// first: almost every file is valid UTF-8, and the lossy decoder walks it
/// one byte at a time.
pub fn decode_read<'a>(bytes: impl Into<Cow<'a, [u8]>>, truncated: bool) -> Decoded<'a> {
    let lossy = |text: String| Decoded {
        text: Cow::Owned(text),
        lossy: true,
    };
    match bytes.into() {
        Cow::Borrowed(bytes) => {
            let bytes = whole_chars(bytes, truncated);
            match std::str::from_utf8(bytes) {
                Ok(text) => Decoded {
                    text: Cow::Borrowed(text),
                    lossy: false,
                },
                Err(_) => lossy(String::from_utf8_lossy(bytes).into_owned()),
            }
        }
        Cow::Owned(mut bytes) => {
            bytes.truncate(whole_chars(&bytes, truncated).len());
            match String::from_utf8(bytes) {
                Ok(text) => Decoded {
                    text: Cow::Owned(text),
                    lossy: false,
                },
                Err(err) => lossy(String::from_utf8_lossy(err.as_bytes()).into_owned()),
            }
        }
    }
}

/// Decodes bytes read whole, replacing invalid UTF-8 with U+FFFD, like
/// `String::from_utf8_lossy` but faster on valid text (see
/// [`decode_read`]).
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    decode_read(bytes, false).text
}

/// The longest prefix of `s` that is at most `max_bytes` long and ends on a
/// UTF-8 character boundary.
pub fn truncate_utf8(s: &str, max_bytes: usize) -> &str {
    &s[..floor_char_boundary(s, max_bytes)]
}

/// The largest character boundary of `s` at or below `at` (`s.len()` when
/// `at` is past the end): the standard library's `str::floor_char_boundary`,
/// stable only from Rust 1.91, above this crate's MSRV.
pub fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut end = at.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_character_cut_by_the_bound_is_dropped() {
        assert_eq!(whole_chars(b"ab\xc3", true), b"ab");
        assert_eq!(whole_chars(b"ab\xe2\x82", true), b"ab");
        assert_eq!(whole_chars(b"ab\xf0\x9f\x98", true), b"ab");
        assert_eq!(whole_chars("ab€".as_bytes(), true), "ab€".as_bytes());
        assert_eq!(whole_chars(b"", true), b"");
        // Read whole, the same bytes are the file's last bytes: invalid.
        assert_eq!(whole_chars(b"ab\xc3", false), b"ab\xc3");
    }

    #[test]
    fn invalid_bytes_at_the_bound_are_kept() {
        for bytes in [
            &b"\x80\x80"[..],
            b"ab\xff",
            b"ab\xc3\x80\x80",
            b"ab\xe0\x80",
            b"ab\xf5\x80",
        ] {
            assert_eq!(whole_chars(bytes, true), bytes, "{bytes:x?}");
        }
        // An invalid byte, then a cut character: only the latter goes.
        assert_eq!(whole_chars(b"ab\xc3\xc3", true), b"ab\xc3");
    }

    #[test]
    fn an_invalid_byte_before_a_cut_character_does_not_keep_it() {
        // The bug three copies of this decoder had between them: only the
        // first problem in the bytes was looked at.
        let head = b"Rule text \xff here\xe3\x80\x80\xe3\x80";
        let decoded = decode_read(&head[..], true);
        assert_eq!(decoded.text, "Rule text \u{fffd} here\u{3000}");
        assert!(decoded.lossy);
        let decoded = decode_read(head.to_vec(), true);
        assert_eq!(decoded.text, "Rule text \u{fffd} here\u{3000}");
        assert!(decoded.lossy);
    }

    #[test]
    fn decoding_says_whether_anything_was_replaced() {
        let valid = decode_read(&b"caf\xc3\xa9\xc3"[..], true);
        assert_eq!((valid.text.as_ref(), valid.lossy), ("café", false));
        assert!(matches!(valid.text, Cow::Borrowed(_)));
        let read_whole = decode_read(b"caf\xc3".to_vec(), false);
        assert_eq!(
            (read_whole.text.as_ref(), read_whole.lossy),
            ("caf\u{fffd}", true)
        );
        assert_eq!(decode_lossy(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(decode_lossy(b"ab"), "ab");
    }

    proptest! {
        /// Decoding a head of the bytes gives a prefix of what decoding
        /// them all gives: the head holds no text the rest contradicts.
        #[test]
        fn a_decoded_head_is_a_prefix_of_the_whole(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                &b"a"[..], b"\xc3\xa9", b"\xe3\x80\x80", b"\xf0\x9f\x98\x80", b"\xff",
                b"\xe3\x80", b"\x80", b"\xc3",
            ]), 0..24),
            at in 0.0..1.0f64,
        ) {
            let bytes = pieces.concat();
            let cut = (bytes.len() as f64 * at) as usize;
            let whole = decode_read(&bytes[..], false);
            let head = decode_read(&bytes[..cut], true);
            let owned = decode_read(bytes[..cut].to_vec(), true);
            prop_assert!(whole.text.starts_with(head.text.as_ref()));
            prop_assert_eq!(&head, &owned);
            prop_assert!(!head.lossy || whole.lossy);
        }
    }

    #[test]
    fn truncate_utf8_stays_on_char_boundaries() {
        assert_eq!(truncate_utf8("héllo", 10), "héllo");
        assert_eq!(truncate_utf8("héllo", 2), "h");
        assert_eq!(truncate_utf8("héllo", 3), "hé");
        assert_eq!(truncate_utf8("€", 2), "");
        assert_eq!(truncate_utf8("abc", 0), "");
    }

    #[test]
    fn floor_char_boundary_steps_back_to_a_character_start() {
        assert_eq!(floor_char_boundary("h€", 0), 0);
        assert_eq!(floor_char_boundary("h€", 1), 1);
        assert_eq!(floor_char_boundary("h€", 2), 1);
        assert_eq!(floor_char_boundary("h€", 3), 1);
        assert_eq!(floor_char_boundary("h€", 4), 4);
        assert_eq!(floor_char_boundary("h€", 9), 4);
        assert_eq!(floor_char_boundary("", 3), 0);
    }
}
