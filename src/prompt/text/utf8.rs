//! UTF-8 at byte limits: lossy decoding and cutting text on a character
//! boundary.

use std::borrow::Cow;

/// Decodes `bytes` as UTF-8, replacing invalid sequences with U+FFFD, like
/// `String::from_utf8_lossy`, but validating with the standard library's
/// fast check first: almost every file is valid UTF-8, and the lossy
/// decoder walks it one byte at a time.
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
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
