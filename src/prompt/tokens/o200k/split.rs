//! The `o200k_base` pre-tokenizer: the text is cut into pieces exactly
//! where OpenAI's pattern for the encoding cuts it, and each piece is then
//! encoded on its own. The pattern is a leftmost-first alternation, tried
//! at the start of the rest of the text:
//!
//! 1. `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`
//! 2. `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`
//! 3. `\p{N}{1,3}`
//! 4. ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
//! 5. `\s*[\r\n]+`
//! 6. `\s+(?!\S)`
//! 7. `\s+`
//!
//! Each alternative is written out below as the scan a backtracking
//! matcher would settle on, without backtracking: every character is
//! looked at a bounded number of times, so splitting is linear in the
//! text (no stack, no recursion, nothing quadratic on long runs). The
//! Unicode classes come from a table `build.rs` generates from
//! `regex-syntax`, the tables of the reference implementation's regex;
//! the tests compare every split with that reference, character by
//! character over all of Unicode and on arbitrary text.

include!(concat!(env!("OUT_DIR"), "/o200k_classes.rs"));

/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: what a word may start with in capitals.
const UPPER: u8 = FLAG_UPPER;
/// `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`: what a word continues with in lower case.
const LOWER: u8 = FLAG_LOWER;

/// The pieces of `text`, in order; they join up to `text` exactly.
pub(super) fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let end = piece_end(text, start);
        let piece = text.get(start..end);
        start = end;
        piece
    })
}

/// Where the piece starting at byte `start` (a character boundary before
/// the end) ends: the first alternative of the pattern that matches there.
fn piece_end(text: &str, start: usize) -> usize {
    let Some((first, flags, width)) = char_at(text, start) else {
        return text.len();
    };
    // `[^\r\n\p{L}\p{N}]`: the one character alternatives 1 and 2 allow
    // before a word.
    let prefix = flags & (FLAG_LETTER | FLAG_NUMBER | FLAG_NEWLINE) == 0;
    if (flags & (UPPER | LOWER) != 0 || prefix)
        && let Some(end) = word(text, start, prefix.then_some(start + width))
    {
        return end;
    }
    if flags & FLAG_NUMBER != 0 {
        return digits(text, start);
    }
    if let Some(end) = punctuation(text, start, first, flags) {
        return end;
    }
    whitespace(text, start)
}

/// Alternatives 1 and 2 in the matcher's order: each tries the optional
/// leading character first (`after_prefix` is where the word starts when
/// it is taken), then the word starting at `start` itself.
fn word(text: &str, start: usize, after_prefix: Option<usize>) -> Option<usize> {
    after_prefix
        .and_then(|at| ends_in_lower(text, at))
        .or_else(|| ends_in_lower(text, start))
        .or_else(|| after_prefix.and_then(|at| starts_in_upper(text, at)))
        .or_else(|| starts_in_upper(text, start))
        .map(|end| contraction(text, end))
}

/// `[UPPER]*[LOWER]+` at `at`. The greedy `[UPPER]*` takes the whole run
/// of UPPER characters; when the character after it is LOWER, `[LOWER]+`
/// runs on from there. Otherwise the matcher backs off to the last
/// character of the run that is LOWER as well (`\p{Lm}`, `\p{Lo}` and
/// `\p{M}` are both), which alone matches `[LOWER]+`, since nothing
/// after it in the run is LOWER.
fn ends_in_lower(text: &str, at: usize) -> Option<usize> {
    let mut end = at;
    let mut last_lower = None;
    while let Some((_, flags, width)) = char_at(text, end) {
        if flags & UPPER == 0 {
            break;
        }
        end += width;
        if flags & LOWER != 0 {
            last_lower = Some(end);
        }
    }
    match char_at(text, end) {
        Some((_, flags, _)) if flags & LOWER != 0 => Some(run(text, end, LOWER)),
        _ => last_lower,
    }
}

/// `[UPPER]+[LOWER]*` at `at`: nothing to back off from, as the second
/// part may be empty.
fn starts_in_upper(text: &str, at: usize) -> Option<usize> {
    let (_, flags, _) = char_at(text, at)?;
    (flags & UPPER != 0).then(|| run(text, run(text, at, UPPER), LOWER))
}

/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` after a word ending at `end`: where the
/// word ends with it. Case-insensitive in Unicode's sense, so `'ſ` (long
/// s, whose case folding is `s`) counts as `'s`.
fn contraction(text: &str, end: usize) -> usize {
    let Some(rest) = text.get(end..).and_then(|rest| rest.strip_prefix('\'')) else {
        return end;
    };
    let mut chars = rest.chars();
    let taken = match (chars.next(), chars.next()) {
        (Some(c @ ('s' | 'S' | 'ſ' | 't' | 'T' | 'm' | 'M' | 'd' | 'D')), _) => c.len_utf8(),
        (Some('r' | 'R' | 'v' | 'V'), Some('e' | 'E')) | (Some('l' | 'L'), Some('l' | 'L')) => 2,
        _ => return end,
    };
    end + 1 + taken
}

/// Alternative 3, `\p{N}{1,3}`: up to three numeric characters.
fn digits(text: &str, start: usize) -> usize {
    let mut end = start;
    for _ in 0..3 {
        match char_at(text, end) {
            Some((_, flags, width)) if flags & FLAG_NUMBER != 0 => end += width,
            _ => break,
        }
    }
    end
}

/// Alternative 4, ` ?[^\s\p{L}\p{N}]+[\r\n/]*`: a run of punctuation (or
/// marks, symbols, controls), with one space before it and line breaks or
/// slashes after it.
fn punctuation(text: &str, start: usize, first: char, flags: u8) -> Option<usize> {
    let at = if is_punctuation(flags) {
        start
    } else if first == ' ' && char_at(text, start + 1).is_some_and(|(_, f, _)| is_punctuation(f)) {
        start + 1
    } else {
        return None;
    };
    let mut end = at;
    while let Some((_, flags, width)) = char_at(text, end) {
        if !is_punctuation(flags) {
            break;
        }
        end += width;
    }
    let trailing = text.as_bytes().get(end..).unwrap_or_default();
    Some(
        end + trailing
            .iter()
            .take_while(|&&b| matches!(b, b'\r' | b'\n' | b'/'))
            .count(),
    )
}

/// `[^\s\p{L}\p{N}]`.
fn is_punctuation(flags: u8) -> bool {
    flags & (FLAG_SPACE | FLAG_LETTER | FLAG_NUMBER) == 0
}

/// Alternatives 5 to 7 on the whitespace run at `start` (the only thing
/// left when 1 to 4 fail): up to its last line break if it has one
/// (`\s*[\r\n]+`); else all of it at the end of the text, all but its last
/// character when that leaves at least one (`\s+(?!\S)`: the last space
/// goes with the word after it), else its single character (`\s+`).
fn whitespace(text: &str, start: usize) -> usize {
    let mut end = start;
    let mut last_start = start;
    let mut after_newline = None;
    while let Some((_, flags, width)) = char_at(text, end) {
        if flags & FLAG_SPACE == 0 {
            break;
        }
        last_start = end;
        end += width;
        if flags & FLAG_NEWLINE != 0 {
            after_newline = Some(end);
        }
    }
    if let Some(after_newline) = after_newline {
        after_newline
    } else if end == text.len() || last_start == start {
        end
    } else {
        last_start
    }
}

/// The end of the run of characters with any of `mask`'s flags from `at`.
fn run(text: &str, at: usize, mask: u8) -> usize {
    let mut end = at;
    while let Some((_, flags, width)) = char_at(text, end) {
        if flags & mask == 0 {
            break;
        }
        end += width;
    }
    end
}

/// The character at byte `at` (a boundary), its class flags and its width
/// in bytes; `None` at the end of the text.
fn char_at(text: &str, at: usize) -> Option<(char, u8, usize)> {
    let byte = *text.as_bytes().get(at)?;
    if byte.is_ascii() {
        // The first block of the table is ASCII's.
        let flags = CLASS_BLOCKS.get(usize::from(byte)).copied().unwrap_or(0);
        return Some((char::from(byte), flags, 1));
    }
    let c = text.get(at..)?.chars().next()?;
    Some((c, class_flags(c), c.len_utf8()))
}

/// The class flags of `c`, from the two-level table.
fn class_flags(c: char) -> u8 {
    let code = c as usize;
    let block = CLASS_INDEX
        .get(code / CLASS_BLOCK)
        .map_or(0, |&block| usize::from(block));
    CLASS_BLOCKS
        .get(block * CLASS_BLOCK + code % CLASS_BLOCK)
        .copied()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The reference pre-tokenizer: the `bpe-openai` crate's regex.
    fn reference(text: &str) -> Vec<&str> {
        bpe_openai::o200k_base().split(text).collect()
    }

    fn assert_same_pieces(text: &str) {
        let ours: Vec<&str> = pieces(text).collect();
        let theirs = reference(text);
        if ours != theirs {
            let at = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
            panic!(
                "pieces differ from piece {at} on: ours {:?}, reference {:?}",
                &ours[at..(at + 3).min(ours.len())],
                &theirs[at..(at + 3).min(theirs.len())]
            );
        }
    }

    /// Every character of Unicode in every position of the pattern: as a
    /// word's start, middle and end after lower and upper case letters,
    /// after digits, a space and an apostrophe (each contraction letter's
    /// case variants), before a line break, doubled and before spaces.
    #[test]
    fn every_character_splits_as_the_reference_splits_it() {
        let all: Vec<char> = (0..=u32::from(char::MAX))
            .filter_map(char::from_u32)
            .collect();
        for chars in all.chunks(4096) {
            let text: String = chars
                .iter()
                .map(|c| format!("{c}a{c}A{c}1{c} {c}x'{c}e'{c}l'r{c}'l{c}\n{c}{c}  {c}."))
                .collect();
            assert_same_pieces(&text);
        }
    }

    #[test]
    fn words_numbers_punctuation_and_whitespace_split_as_the_pattern_says() {
        let text = "Hello, world! I'm here: 12345 apples\r\n\n  x  \tDON'T/path//\n/ end  ";
        let split: Vec<&str> = pieces(text).collect();
        assert_eq!(
            split,
            [
                "Hello", ",", " world", "!", " I'm", " here", ":", " ", "123", "45", " apples",
                "\r\n\n", " ", " x", "  ", "\tDON'T", "/path", "//\n/", " end", "  "
            ]
        );
        assert_same_pieces(text);
        assert_eq!(pieces("").count(), 0);
    }

    /// Text that stresses the pattern: runs of one class, mixed scripts,
    /// marks, apostrophes, line breaks among other whitespace.
    fn awkward_text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            any::<String>(),
            "[ \t\r\n\u{a0}\u{3000}\u{85}]{0,12}",
            "[a'sStTdDrReElLvVmMſ ]{0,16}",
            "[A-Za-z0-9 .,/'\\-_]{0,24}",
            "[\u{300}-\u{36f}\u{2160}-\u{2188}\u{1c5}\u{2b0}-\u{2c1}\u{4e00}-\u{4e20}aZ1 ]{0,12}",
            (any::<char>(), 0..300usize).prop_map(|(c, n)| c.to_string().repeat(n)),
        ];
        prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn arbitrary_text_splits_as_the_reference_splits_it(text in awkward_text()) {
            assert_same_pieces(&text);
        }
    }
}
