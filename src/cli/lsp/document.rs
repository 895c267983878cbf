//! An open document: its text, version and line index, edited in place by
//! incremental changes, and the conversion between LSP positions (UTF-16
//! or UTF-8 code units) and byte offsets (SPEC §21.1, "Overlay").
//!
//! Choices the spec leaves open:
//! - The text is one `String` with the byte offset of each line's start;
//!   an edit moves the bytes after it once and shifts the starts after it,
//!   so a change costs the document's size, never its size times its lines.
//! - A position past the end of its line is the line's end, a line past the
//!   last is the end of the text, and a position inside a character is the
//!   character's start (the protocol leaves these to the server).
//! - Lines end at `\n` (a `\r` before it is part of the line's text).

use serde_json::{Value, json};

/// The unit positions count columns in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units (the protocol's default).
    Utf16,
    /// Bytes (when the client offers `utf-8`).
    Utf8,
}

impl Encoding {
    /// The name in `positionEncoding`.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Utf16 => "utf-16",
            Encoding::Utf8 => "utf-8",
        }
    }
}

/// An open document.
#[derive(Debug)]
pub struct Document {
    /// Its text now.
    pub text: String,
    /// The version the client gave with its latest text.
    pub version: i32,
    /// Byte offset of each line's start; the first is 0.
    starts: Vec<usize>,
}

impl Document {
    /// A document opened with `text` at `version`.
    pub fn new(text: String, version: i32) -> Self {
        let starts = line_starts(&text, 0);
        Self {
            text,
            version,
            starts,
        }
    }

    /// The byte offset of `line`, `character` (in `encoding`'s units).
    pub fn offset(&self, line: usize, character: usize, encoding: Encoding) -> usize {
        let Some(&start) = self.starts.get(line) else {
            return self.text.len();
        };
        let end = self.line_end(line);
        let text = &self.text[start..end];
        match encoding {
            Encoding::Utf8 => {
                let mut at = character.min(text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                start + at
            }
            Encoding::Utf16 => {
                let mut units = 0;
                for (at, c) in text.char_indices() {
                    if units + c.len_utf16() > character {
                        return start + at;
                    }
                    units += c.len_utf16();
                }
                end
            }
        }
    }

    /// The line and character of byte `offset` (clamped to the text).
    pub fn position(&self, offset: usize, encoding: Encoding) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let mut at = offset;
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &self.text[self.starts[line]..at];
        let character = match encoding {
            Encoding::Utf8 => before.len(),
            Encoding::Utf16 => before.encode_utf16().count(),
        };
        (line, character)
    }

    /// The end of `line`'s text (before its `\n`).
    fn line_end(&self, line: usize) -> usize {
        self.starts
            .get(line + 1)
            .map_or(self.text.len(), |next| next - 1)
    }

    /// The range of line `line` (clamped to the last line), from its start
    /// to its end, as the protocol's JSON.
    pub fn line_range(&self, line: usize, encoding: Encoding) -> Value {
        let line = line.min(self.starts.len() - 1);
        let (_, end) = self.position(self.line_end(line), encoding);
        json!({
            "start": {"line": line, "character": 0},
            "end": {"line": line, "character": end},
        })
    }

    /// Applies one `contentChanges` entry: `range` (start line, start
    /// character, end line, end character) or the whole text.
    pub fn apply(&mut self, range: Option<[usize; 4]>, new_text: &str, encoding: Encoding) {
        let Some([l1, c1, l2, c2]) = range else {
            self.text = new_text.to_string();
            self.starts = line_starts(&self.text, 0);
            return;
        };
        let a = self.offset(l1, c1, encoding);
        let b = self.offset(l2, c2, encoding);
        let (start, end) = (a.min(b), a.max(b));
        self.text.replace_range(start..end, new_text);
        // Starts up to `start` stay; those in (start, end] go; those after
        // `end` move by the change in length; the new text's own follow
        // `start`.
        let keep = self.starts.partition_point(|&s| s <= start);
        let gone = self.starts.partition_point(|&s| s <= end);
        let inserted = line_starts(new_text, start).into_iter().skip(1);
        let moved: Vec<usize> = self.starts[gone..]
            .iter()
            .map(|s| s - (end - start) + new_text.len())
            .collect();
        self.starts.truncate(keep);
        self.starts.extend(inserted);
        self.starts.extend(moved);
    }
}

/// The start of each line of `text`, offset by `base`; the first is `base`.
fn line_starts(text: &str, base: usize) -> Vec<usize> {
    std::iter::once(base)
        .chain(text.match_indices('\n').map(|(at, _)| base + at + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes() {
        let doc = Document::new("a😀b\néx\n".to_string(), 1);
        assert_eq!(doc.offset(0, 3, Encoding::Utf16), 5);
        assert_eq!(doc.offset(0, 5, Encoding::Utf8), 5);
        assert_eq!(doc.offset(0, 2, Encoding::Utf16), 1, "inside the pair");
        assert_eq!(doc.offset(0, 99, Encoding::Utf16), 6, "past the end");
        assert_eq!(doc.offset(9, 0, Encoding::Utf16), doc.text.len());
        assert_eq!(doc.position(5, Encoding::Utf16), (0, 3));
        assert_eq!(doc.position(10, Encoding::Utf8), (1, 3));
        assert_eq!(doc.position(10, Encoding::Utf16), (1, 2));
        assert_eq!(
            doc.line_range(1, Encoding::Utf16),
            json!({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 2}})
        );
    }

    #[test]
    fn incremental_changes_edit_text_and_lines() {
        let mut doc = Document::new("one\ntwo\nthree".to_string(), 1);
        doc.apply(Some([0, 3, 1, 1]), "!\nT\nX", Encoding::Utf16);
        assert_eq!(doc.text, "one!\nT\nXwo\nthree");
        assert_eq!(doc.starts, line_starts(&doc.text, 0));
        doc.apply(None, "new", Encoding::Utf8);
        assert_eq!(
            (doc.text.as_str(), doc.starts.as_slice()),
            ("new", &[0][..])
        );
    }

    proptest! {
        #[test]
        fn the_line_index_matches_a_fresh_one(
            text in "[a\né😀]{0,40}",
            edits in proptest::collection::vec((0usize..6, 0usize..12, 0usize..6, 0usize..12, "[b\n😀]{0,6}"), 0..8),
        ) {
            let mut doc = Document::new(text, 0);
            for (l1, c1, l2, c2, new_text) in edits {
                doc.apply(Some([l1, c1, l2, c2]), &new_text, Encoding::Utf16);
                prop_assert_eq!(&doc.starts, &line_starts(&doc.text, 0));
            }
        }
    }
}
