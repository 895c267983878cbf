//! The order of opencode's skills listing: JavaScript's `localeCompare`
//! (SPEC §18.4), which is ICU's root collation. The preview approximates it
//! in three levels, as ICU compares:
//! 1. Base characters: each character decomposed (NFD) and its combining
//!    marks set aside; spaces and punctuation before symbols, symbols
//!    before digits, digits before letters (ASCII punctuation and symbols
//!    in ICU's order), letters by their lowercase form.
//! 2. Accents: the marks set aside, position by position (none first).
//! 3. Case: lowercase before uppercase, position by position.
//!
//! What is approximated: letters outside Latin are ordered by code point
//! after Latin (ICU orders scripts Greek, Cyrillic, … and within them by
//! its own tables), expansions and contractions (`æ`, `ß`, `ch` in some
//! languages) are not made, non-ASCII punctuation and symbols sort after
//! ASCII ones by code point, and the last tie is broken by code point.

use std::cmp::Ordering;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// ASCII punctuation and symbols in ICU root order (whitespace first).
const ASCII_ORDER: &str = "\t\n\u{b}\u{c}\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

/// One character's place at the first level: a class, then a rank in it.
fn primary(c: char) -> (u8, u32) {
    if let Some(at) = ASCII_ORDER.find(c) {
        return (0, at as u32);
    }
    if c.is_ascii_digit() {
        return (2, c as u32);
    }
    if c.is_alphabetic() {
        let lower = c.to_lowercase().next().unwrap_or(c);
        let latin = u8::from(!lower.is_ascii_lowercase());
        return (3 + latin, lower as u32);
    }
    if c.is_numeric() {
        return (2, c as u32);
    }
    (1, c as u32)
}

/// A string's three levels.
struct Key {
    base: Vec<(u8, u32)>,
    accents: Vec<Vec<char>>,
    case: Vec<bool>,
}

fn key(text: &str) -> Key {
    let mut key = Key {
        base: Vec::new(),
        accents: Vec::new(),
        case: Vec::new(),
    };
    for c in text.nfd() {
        if is_combining_mark(c) && !key.accents.is_empty() {
            if let Some(last) = key.accents.last_mut() {
                last.push(c);
            }
            continue;
        }
        key.base.push(primary(c));
        key.accents.push(Vec::new());
        key.case.push(c.is_uppercase());
    }
    key
}

/// `a.localeCompare(b)` as the preview approximates it (module docs).
pub(super) fn locale_compare(a: &str, b: &str) -> Ordering {
    let (ka, kb) = (key(a), key(b));
    ka.base
        .cmp(&kb.base)
        .then_with(|| ka.accents.cmp(&kb.accents))
        .then_with(|| ka.case.cmp(&kb.case))
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixed_case_accents_and_punctuation() {
        let mut names = vec![
            "beta", "Alpha", "éclair", "alpha", "Zed", "eclair", "_under", "b-2", "B10", "10",
        ];
        names.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            names,
            [
                "_under", "10", "alpha", "Alpha", "b-2", "B10", "beta", "eclair", "éclair", "Zed"
            ]
        );
    }
}
