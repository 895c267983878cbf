//! The frontmatter rule of command files (SPEC §5.3, §5.4): where a
//! command's frontmatter block ends, what its keys and description are, and
//! when a block that looks like frontmatter is not one. This is the
//! commands' own, simpler rule; rule files' frontmatter (SPEC §7.2) is
//! parsed in [`crate::prompt::frontmatter`].
//!
//! The choices the spec leaves open are listed once, in [`super`].

use crate::limits;
use crate::prompt::text::cap_chars;

fn opens_frontmatter(raw: &str) -> bool {
    raw.starts_with("---\n") || raw.starts_with("---\r\n")
}

/// The byte offset where the body begins when `raw` opens with a terminated
/// frontmatter block.
fn body_start(raw: &str) -> Option<usize> {
    if !opens_frontmatter(raw) {
        return None;
    }
    let mut pos = raw.find('\n')? + 1;
    loop {
        let (line, next) = match raw[pos..].find('\n') {
            Some(i) => (&raw[pos..pos + i], Some(pos + i + 1)),
            None => (&raw[pos..], None),
        };
        if line.trim_end_matches('\r') == "---" {
            let start = next.unwrap_or(raw.len());
            return Some(if raw[start..].starts_with('\n') {
                start + 1
            } else {
                start
            });
        }
        pos = next?;
    }
}

/// The body of a raw command file without its frontmatter (SPEC §5.3),
/// byte for byte as the engine computes it.
///
/// Only a file that begins with `---\n` or `---\r\n` has frontmatter (a BOM
/// in front means it has none). The block ends at the first later line that
/// is `---` once trailing `\r`s are removed; the body is everything after
/// that line less one leading `\n`, so in a CRLF file a blank line after the
/// block leaves a `\r\n`. Unterminated frontmatter leaves the file unchanged.
pub fn strip_frontmatter(raw: &str) -> &str {
    body_start(raw).map_or(raw, |start| &raw[start..])
}

/// The top-level keys of a file's frontmatter block, in order (for
/// explanations); empty when the file has no terminated block.
pub fn frontmatter_keys(raw: &str) -> Vec<String> {
    let Some(end) = body_start(raw) else {
        return Vec::new();
    };
    raw[..end]
        .split('\n')
        .skip(1)
        .take_while(|line| line.trim_end_matches('\r') != "---")
        .filter(|line| !line.starts_with([' ', '\t', '#', '-']))
        .filter_map(|line| line.split_once(':'))
        .map(|(key, _)| key.trim().to_string())
        .filter(|key| !key.is_empty())
        .collect()
}

/// The one-line description of a raw command file (SPEC §5.4).
///
/// The `description:` value of a leading frontmatter block — a top-level
/// key, trimmed, one pair of surrounding `"` or `'` removed; a `>` or `|`
/// block scalar is folded from its indented lines into one line — else the
/// first non-blank line of the body, else empty. The scan of the block ends
/// at a line whose trimmed text is `---` (or at the end of an unterminated
/// block). An empty value falls back to the body line. A leading BOM is not
/// part of any line, and control characters become spaces so the result is
/// one line that is safe to print. Longer than
/// [`limits::MAX_COMMAND_DESCRIPTION_CHARS`] characters, it is cut to fit
/// with a final `…`.
pub fn description(raw: &str) -> String {
    let text = frontmatter_description(raw)
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| first_non_blank_line(strip_frontmatter(raw)).to_string());
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    // Trimmed again: a control character at either end became a space.
    cap_chars(one_line.trim(), limits::MAX_COMMAND_DESCRIPTION_CHARS)
}

fn frontmatter_description(raw: &str) -> Option<String> {
    if !opens_frontmatter(raw) {
        return None;
    }
    let mut lines = raw.split('\n').skip(1);
    while let Some(line) = lines.next() {
        if line.trim() == "---" {
            return None;
        }
        let Some(value) = line.strip_prefix("description:") else {
            continue;
        };
        let value = value.trim();
        return Some(if is_block_scalar_header(value) {
            fold_block_scalar(lines)
        } else {
            unquote(value).to_string()
        });
    }
    None
}

/// True for a YAML block scalar header: `>` or `|`, optional chomping and
/// indentation indicators, optional comment.
fn is_block_scalar_header(value: &str) -> bool {
    let Some(indicators) = value.strip_prefix(['>', '|']) else {
        return false;
    };
    let indicators = indicators.split('#').next().unwrap_or_default().trim();
    indicators
        .chars()
        .all(|c| c == '+' || c == '-' || c.is_ascii_digit())
}

/// Joins the indented continuation lines of a block scalar into one line.
fn fold_block_scalar<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut parts = Vec::new();
    for line in lines {
        let trimmed = line.trim();
        if trimmed == "---" || (!trimmed.is_empty() && !line.starts_with([' ', '\t'])) {
            break;
        }
        if !trimmed.is_empty() {
            parts.push(trimmed);
        }
    }
    parts.join(" ")
}

fn unquote(value: &str) -> &str {
    ['"', '\'']
        .into_iter()
        .find_map(|q| value.strip_prefix(q)?.strip_suffix(q))
        .unwrap_or(value)
}

fn first_non_blank_line(body: &str) -> &str {
    body.strip_prefix('\u{feff}')
        .unwrap_or(body)
        .split(['\n', '\r'])
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default()
}

/// What stands before a frontmatter block that is therefore not one (SPEC
/// §5.3: only a `---` at the very first byte opens a block).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misplaced {
    /// A byte order mark precedes the opening `---` (and maybe whitespace).
    Bom {
        /// The 1-based line of the opening `---`.
        line: u64,
    },
    /// Blank lines or spaces (and no BOM) precede the opening `---`.
    Whitespace {
        /// The 1-based line of the opening `---`.
        line: u64,
    },
}

impl Misplaced {
    /// Why the block reaches the model as text, and what to do.
    pub fn describe(self) -> &'static str {
        match self {
            Misplaced::Bom { .. } => {
                "a byte order mark precedes the opening ---, so the frontmatter is not \
                 recognised and reaches the model as text; save the file without a BOM"
            }
            Misplaced::Whitespace { .. } => {
                "the opening --- is not at the start of the file, so the frontmatter is not \
                 recognised and reaches the model as text; remove what precedes it"
            }
        }
    }

    /// The 1-based line of the opening `---`.
    pub fn line(self) -> u64 {
        match self {
            Misplaced::Bom { line } | Misplaced::Whitespace { line } => line,
        }
    }
}

/// Why a file that looks like it has frontmatter does not: a BOM or
/// whitespace before an opening `---` line; `None` when the file opens with
/// one or has none after leading whitespace.
pub fn misplaced_frontmatter(bytes: &[u8]) -> Option<Misplaced> {
    let opens = |b: &[u8]| b.starts_with(b"---\n") || b.starts_with(b"---\r\n");
    if opens(bytes) {
        return None;
    }
    let (bom, rest) = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let start = rest
        .iter()
        .position(|b| !b" \t\r\n".contains(b))
        .unwrap_or(rest.len());
    if !opens(&rest[start..]) {
        return None;
    }
    let line = 1 + rest[..start].iter().filter(|b| **b == b'\n').count() as u64;
    Some(if bom {
        Misplaced::Bom { line }
    } else {
        Misplaced::Whitespace { line }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn frontmatter_is_stripped_byte_exactly() {
        let cases = [
            ("---\ndescription: x\n---\nBody\n", "Body\n"),
            ("---\ndescription: x\n---\n\nBody", "Body"),
            ("---\ndescription: x\n---\n\n\nBody", "\nBody"),
            ("---\na\n---", ""),
            ("---\n---\n", ""),
            ("---\n---\nB", "B"),
            ("---\na\n---\r\r\nB", "B"),
            ("---\n  ---\n---\nB", "B"),
        ];
        for (raw, body) in cases {
            assert_eq!(strip_frontmatter(raw), body, "{raw:?}");
        }
    }

    #[test]
    fn crlf_frontmatter_keeps_the_engines_quirks() {
        assert_eq!(
            strip_frontmatter("---\r\ndescription: x\r\n---\r\nBody\r\n"),
            "Body\r\n"
        );
        // Only a leading \n is removed; this body starts with the \r of
        // the blank line, so that line's \r\n stays.
        assert_eq!(
            strip_frontmatter("---\r\na: b\r\n---\r\n\r\nBody"),
            "\r\nBody"
        );
        assert_eq!(strip_frontmatter("---\r\na: b\r\n---\nBody"), "Body");
    }

    #[test]
    fn no_frontmatter_leaves_the_file_unchanged() {
        for raw in [
            "\u{feff}---\na: b\n---\nBody",
            "---\na: b\nBody",
            "---",
            "---\n",
            "--- \na\n---\nB",
            "----\na\n---\nB",
            "\n---\na\n---\nB",
            "---\na\n --- \nB",
            "",
        ] {
            assert_eq!(strip_frontmatter(raw), raw, "{raw:?}");
        }
    }

    #[test]
    fn frontmatter_keys_are_top_level_keys() {
        let raw = "---\ndescription: x\nallowed-tools: Bash\nmeta:\n  nested: 1\n# c\n---\nBody";
        assert_eq!(
            frontmatter_keys(raw),
            ["description", "allowed-tools", "meta"]
        );
        assert!(frontmatter_keys("---\na: b\nBody").is_empty());
    }

    // §5.4 -----------------------------------------------------------------

    #[test]
    fn description_from_frontmatter() {
        assert_eq!(
            description("---\ndescription: Run it.\n---\nBody"),
            "Run it."
        );
        assert_eq!(
            description("---\ndescription:   spaced  \n---\nB"),
            "spaced"
        );
        assert_eq!(
            description("---\nname: a\ndescription: second\n---\nB"),
            "second"
        );
        assert_eq!(
            description("---\r\ndescription: \"Quoted\"\r\n---\r\nB"),
            "Quoted"
        );
        assert_eq!(description("---\ndescription: 'single'\n---\nB"), "single");
        assert_eq!(
            description("---\ndescription: \"mixed'\n---\nB"),
            "\"mixed'"
        );
        assert_eq!(description("---\ndescription: \"\"\n---\nBody"), "Body");
        assert_eq!(description("---\ndescription:\n---\nBody"), "Body");
    }

    #[test]
    fn description_folds_block_scalars() {
        let folded = "---\ndescription: >\n  Line one\n  line two\n\n  three\nname: x\n---\nBody";
        assert_eq!(description(folded), "Line one line two three");
        let literal = "---\r\ndescription: |-\r\n    Keep\r\n    this\r\n---\r\nBody";
        assert_eq!(description(literal), "Keep this");
        let empty = "---\ndescription: >\nname: x\n---\nBody";
        assert_eq!(description(empty), "Body");
        let commented = "---\ndescription: > # note\n  Folded\n---\nB";
        assert_eq!(description(commented), "Folded");
        assert_eq!(description("---\ndescription: >x\n---\nB"), ">x");
    }

    #[test]
    fn description_scan_stops_at_a_trimmed_fence() {
        let raw = "---\nname: a\n  ---  \ndescription: late\n---\nBody";
        assert_eq!(description(raw), "Body");
        let nested = "---\nmeta:\n  description: nested\n---\nBody";
        assert_eq!(description(nested), "Body");
        let unterminated = "---\ndescription: D\nBody";
        assert_eq!(description(unterminated), "D");
    }

    #[test]
    fn description_falls_back_to_first_non_blank_line() {
        assert_eq!(description("\n  \n  # Title  \nmore"), "# Title");
        assert_eq!(description("---\nname: x\n---\n\n\tFirst\n"), "First");
        assert_eq!(description(""), "");
        assert_eq!(description("   \n\n"), "");
        assert_eq!(description("Title\rrest"), "Title");
        assert_eq!(description("a\tb\u{1b}[31m"), "a b [31m");
        // Control characters at either end leave no padding behind.
        assert_eq!(description("\0title\0\n"), "title");
        assert_eq!(description("---\ndescription: d\u{7}\n---\n"), "d");
        // A BOM before the fence: not frontmatter, and not part of the line.
        assert_eq!(description("\u{feff}---\ndescription: x\n---\nBody"), "---");
        assert_eq!(description("---\na: b\nBody"), "---");
    }

    #[test]
    fn description_cap_counts_the_ellipsis() {
        let max = limits::MAX_COMMAND_DESCRIPTION_CHARS;
        let at = "x".repeat(max);
        assert_eq!(description(&at), at);
        let under = "x".repeat(max - 1);
        assert_eq!(description(&under), under);
        let over = "é".repeat(max + 1);
        let cut = description(&over);
        assert_eq!(cut, format!("{}…", "é".repeat(max - 1)));
        assert_eq!(cut.chars().count(), max);
        let way_over = format!("---\ndescription: {}\n---\n", "y".repeat(500));
        assert_eq!(description(&way_over), format!("{}…", "y".repeat(max - 1)));
    }

    #[test]
    fn a_bom_or_leading_whitespace_misplaces_the_block() {
        assert_eq!(
            misplaced_frontmatter("\u{feff}---\na: b\n---\n".as_bytes()),
            Some(Misplaced::Bom { line: 1 })
        );
        let indented = misplaced_frontmatter(b"\n\n  ---\r\na: b\n---\n");
        assert_eq!(indented, Some(Misplaced::Whitespace { line: 3 }));
        let after_blank = misplaced_frontmatter(b"\r\n\n---\na: b\n---\n").unwrap();
        assert_eq!(after_blank, Misplaced::Whitespace { line: 3 });
        assert_eq!(after_blank.line(), 3);
        assert_eq!(
            misplaced_frontmatter("\u{feff}\n---\na\n".as_bytes()),
            Some(Misplaced::Bom { line: 2 })
        );
    }

    #[test]
    fn frontmatter_at_the_first_byte_or_absent_is_not_misplaced() {
        for raw in ["Body\n---\na\n---\n", "---\na: b\n---\nB", "--- x\n", ""] {
            assert_eq!(misplaced_frontmatter(raw.as_bytes()), None, "{raw:?}");
        }
    }

    proptest! {
        #[test]
        fn nothing_panics_on_arbitrary_text(raw in ".{0,200}") {
            let _ = description(&raw);
            let _ = strip_frontmatter(&raw);
            let _ = frontmatter_keys(&raw);
            let _ = misplaced_frontmatter(raw.as_bytes());
        }
    }
}
