//! JSON with comments, as the agents read their settings: `//` and `/* */`
//! comments outside strings, and — for the agents that take them — trailing
//! commas before `}` or `]`. One reader for every profile: Gemini CLI's
//! `settings.json` (comments, no trailing commas: Gemini refuses them,
//! observed) and opencode's `opencode.json(c)` (both, observed).
//!
//! Choices the spec leaves open:
//! - What is left out is blanked in place, not removed: each byte of a
//!   comment (or of a dropped comma) becomes a space, line breaks stay, so
//!   an error names the line and column of the file as written.
//! - An unterminated `/*` runs to the end of the text (the JSON that is
//!   left decides whether that is an error), and an unterminated string
//!   likewise.
//! - No JSONC crate: the two rules above are the whole dialect both agents
//!   accept, `serde_json` (already a dependency) parses what is left, and a
//!   crate would have to keep positions the same way for the errors.

use serde_json::Value;

use crate::prompt::text::line_column;

/// Whether a comma before `}` or `]` is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrailingCommas {
    /// Accepted and ignored (opencode).
    Accepted,
    /// A syntax error (Gemini CLI).
    Refused,
}

/// Where a JSONC text stops parsing, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsoncError {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
    /// What `serde_json` says went wrong, without its position.
    pub reason: String,
}

/// Parses `text` as JSON with comments (and trailing commas when
/// `commas` accepts them).
pub fn parse(text: &str, commas: TrailingCommas) -> Result<Value, JsoncError> {
    let mut plain = strip_comments(text);
    if commas == TrailingCommas::Accepted {
        plain = strip_trailing_commas(&plain);
    }
    serde_json::from_str(&plain).map_err(|err| {
        let (line, column) = if err.line() == 0 {
            line_column(text, text.len())
        } else {
            // At the end of a line serde_json counts the break as column 0.
            (err.line(), err.column().max(1))
        };
        let reason = err.to_string();
        let reason = match reason.rfind(" at line ") {
            Some(at) => reason[..at].to_string(),
            None => reason,
        };
        JsoncError {
            line,
            column,
            reason,
        }
    })
}

/// `text` with its `//` and `/* */` comments (outside strings) turned into
/// spaces, line breaks kept, so that positions stay where they were.
pub fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => {
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                out.push(' ');
                while let Some(&next) = chars.peek() {
                    if next == '\n' {
                        break;
                    }
                    blank(&mut out, next);
                    chars.next();
                }
            }
            ('/', Some('*')) => {
                out.push(' ');
                blank(&mut out, '*');
                chars.next();
                let mut last = '\0';
                for next in chars.by_ref() {
                    blank(&mut out, next);
                    if last == '*' && next == '/' {
                        break;
                    }
                    last = next;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// `text` (without comments) with every comma that is followed, after
/// whitespace only, by `}` or `]` (outside strings) turned into a space.
fn strip_trailing_commas(text: &str) -> String {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let mut in_string = false;
    let mut escaped = false;
    let mut comma: Option<usize> = None;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b' ' | b'\t' | b'\r' | b'\n' => {}
            b'}' | b']' => {
                if let Some(at) = comma.take() {
                    out[at] = b' ';
                }
            }
            b',' => comma = Some(i),
            b'"' => {
                in_string = true;
                comma = None;
            }
            _ => comma = None,
        }
    }
    // Only ASCII commas were replaced by ASCII spaces.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// Pushes what stands in for `c` inside a comment: itself for a line
/// break, else as many spaces as its UTF-8 bytes.
fn blank(out: &mut String, c: char) {
    if c == '\n' || c == '\r' {
        out.push(c);
    } else {
        out.extend(std::iter::repeat_n(' ', c.len_utf8()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_blanked_in_place_and_strings_kept() {
        let text = "{ // c\n \"a\": \"//x\", /* é\n */ \"b\": 1 }";
        let stripped = strip_comments(text);
        assert_eq!(stripped.len(), text.len());
        assert_eq!(stripped.lines().count(), text.lines().count());
        let value: Value = serde_json::from_str(&stripped).unwrap();
        assert_eq!(value["a"], "//x");
    }

    #[test]
    fn trailing_commas_are_accepted_or_refused_with_a_position() {
        let text = "{\n  \"a\": [1, 2, /* c */ ],\n  \"s\": \",]\\\",}\",\n}\n";
        let value = parse(text, TrailingCommas::Accepted).unwrap();
        assert_eq!(value["a"], serde_json::json!([1, 2]));
        assert_eq!(value["s"], ",]\",}");
        let err = parse(text, TrailingCommas::Refused).unwrap_err();
        assert_eq!((err.line, err.column), (2, 23));
        assert!(!err.reason.contains("line"), "{}", err.reason);
    }

    #[test]
    fn an_error_names_the_line_and_column_as_written() {
        let err = parse("{ /* two\nlines */ \"a\": }", TrailingCommas::Accepted).unwrap_err();
        assert_eq!((err.line, err.column), (2, 15));
        let eof = parse("{\n\"a\": [", TrailingCommas::Accepted).unwrap_err();
        assert_eq!(eof.line, 2);
        for bad in ["", "[", "\u{feff}", "/*", "\"", "{\"a\":\"\\", ",", "[,]"] {
            let _ = parse(bad, TrailingCommas::Accepted);
            let _ = parse(bad, TrailingCommas::Refused);
        }
    }
}
