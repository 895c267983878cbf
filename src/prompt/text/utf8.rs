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
    if s.len() <= max_bytes {
        return s;
    }
    let mut end = max_bytes;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
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
}
