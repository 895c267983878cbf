//! Claude Code's content transform for instruction files (SPEC §14.3, "Content"): what
//! becomes of a `CLAUDE.md`, rule, import or `MEMORY.md` between the disk and the model.
//! Pure: the caller reads and decodes the file.
//!
//! Observed with the oracle (`tests/oracle/cases/claude-instructions/transform-*`):
//! 1. A YAML frontmatter block is removed, found exactly as in command files
//!    ([`split_frontmatter`]: it closes at the first `---` anywhere after the opening line,
//!    whitespace after it included); its YAML need not parse.
//! 2. Only when the rest contains `<!--` anywhere (even inside a code fence): CRLF and lone
//!    CR become LF, every *top-level* HTML block that opens with a comment and closes it is
//!    removed together with the empty lines after it (whatever is left of its lines after
//!    cutting the comments out stays), and top-level link reference definitions vanish too
//!    (Claude Code rebuilds the text from Markdown tokens and writes definitions back
//!    nowhere). A comment inside a paragraph, a list item, a quote or indented code stays.
//! 3. The result is trimmed with JavaScript's whitespace set ([`js_trim`]: BOM and NBSP
//!    are whitespace, U+0085 is not); nothing left means the file contributes nothing.
//!
//! Choices the spec leaves open:
//! - The block structure (which comment is top-level) is CommonMark's, from pulldown-cmark;
//!   Claude Code's Markdown lexer agreed with it on every observed case.

use std::borrow::Cow;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::limits;
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::text::{is_js_space, js_trim, utf16_floor, utf16_len};

const COMMENT_OPEN: &str = "<!--";
const COMMENT_CLOSE: &str = "-->";

/// The content Claude Code sends for a file whose decoded text is `text`, or `None` when
/// nothing but whitespace is left (the file is skipped, and its imports with it).
pub fn claude_content(text: &str) -> Option<Cow<'_, str>> {
    let (_, body) = split_frontmatter(text);
    let content: Cow<'_, str> = if body.contains(COMMENT_OPEN) {
        let normalised = normalise_line_breaks(body);
        let stripped = strip_block_comments(&normalised);
        Cow::Owned(js_trim(&stripped).to_string())
    } else {
        Cow::Borrowed(js_trim(body))
    };
    (!content.is_empty()).then_some(content)
}

/// What Claude Code sends of its auto-memory `MEMORY.md`: the [`claude_content`] of the
/// text, cut to its first [`limits::MAX_CLAUDE_MEMORY_LINES`] lines, then, if still longer
/// than [`limits::MAX_CLAUDE_MEMORY_UNITS`] UTF-16 units, at the last line break within
/// that many units (mid-line when the first line is that long). The flag says whether
/// anything was cut (Claude Code then appends a warning of its own, not reproduced here).
pub fn claude_memory(text: &str) -> Option<(Cow<'_, str>, bool)> {
    let content = claude_content(text)?;
    let lines_over = content.split('\n').count() > limits::MAX_CLAUDE_MEMORY_LINES;
    let units_over = utf16_len(&content) > limits::MAX_CLAUDE_MEMORY_UNITS;
    if !lines_over && !units_over {
        return Some((content, false));
    }
    let mut kept: &str = &content;
    if lines_over {
        let cut = kept
            .match_indices('\n')
            .nth(limits::MAX_CLAUDE_MEMORY_LINES - 1)
            .map_or(kept.len(), |(at, _)| at);
        kept = &kept[..cut];
    }
    if utf16_len(kept) > limits::MAX_CLAUDE_MEMORY_UNITS {
        let limit = utf16_floor(kept, limits::MAX_CLAUDE_MEMORY_UNITS);
        // The last line break at or before the limit (JavaScript's lastIndexOf from it).
        let search_end = (limit + 1).min(kept.len());
        kept = match kept.as_bytes()[..search_end]
            .iter()
            .rposition(|&b| b == b'\n')
        {
            Some(at) if at > 0 => &kept[..at],
            _ => &kept[..limit],
        };
    }
    Some((Cow::Owned(kept.to_string()), true))
}

/// CRLF and lone CR as LF.
fn normalise_line_breaks(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// One top-level Markdown block: its byte range and whether it is an HTML block opening
/// with a closed comment.
struct Block {
    start: usize,
    end: usize,
    comment: bool,
}

/// The top-level blocks of `text`, in order.
fn top_level_blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut depth = 0usize;
    let structure = structure(text);
    for (event, range) in Parser::new_ext(&structure, markdown_options()).into_offset_iter() {
        match event {
            Event::Start(tag) => {
                if depth == 0 {
                    let comment =
                        matches!(tag, Tag::HtmlBlock) && is_comment_html(&text[range.clone()]);
                    blocks.push(Block {
                        start: with_indentation(text, range.start),
                        end: range.end,
                        comment,
                    });
                }
                depth += 1;
            }
            // A list's range runs over link reference definitions that follow it;
            // its last item ends the block, so they fall between blocks.
            Event::End(TagEnd::Item) if depth == 2 => {
                if let Some(list) = blocks.last_mut() {
                    list.end = range.end;
                }
                depth -= 1;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            _ if depth == 0 => blocks.push(Block {
                start: with_indentation(text, range.start),
                end: range.end,
                comment: false,
            }),
            _ => {}
        }
    }
    blocks
}

/// `at` moved back to its line's start when only spaces and tabs come before it there:
/// a block owns its indentation.
fn with_indentation(text: &str, at: usize) -> usize {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    if text[line_start..at]
        .bytes()
        .all(|b| b == b' ' || b == b'\t')
    {
        line_start
    } else {
        at
    }
}

/// The Markdown dialect both the transform and the import scanner parse: CommonMark with
/// GitHub's tables, strikethrough and task lists, as Claude Code's lexer reads it.
pub(crate) fn markdown_options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// The text whose Markdown structure the transform and the import scanner parse: `text`
/// with every `_` in an HTML tag name turned into `-`. Claude Code's lexer accepts `_` in
/// tag names, so a line `</available_skills>` opens an HTML block there (and a comment on
/// the next line belongs to it), where CommonMark reads a paragraph (observed on a real
/// repository's generated AGENTS.md). The swap keeps every byte offset; content is always
/// taken from `text` itself.
pub(crate) fn structure(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    while let Some(open) = bytes[at..].iter().position(|&b| b == b'<').map(|i| at + i) {
        let mut name = open + 1;
        if bytes.get(name) == Some(&b'/') {
            name += 1;
        }
        let end = name
            + bytes[name..]
                .iter()
                .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                .count();
        let is_tag = bytes.get(name).is_some_and(u8::is_ascii_alphabetic)
            && bytes
                .get(end)
                .is_none_or(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>');
        if is_tag && bytes[name..end].contains(&b'_') {
            let swapped = out.get_or_insert_with(|| bytes.to_vec());
            for b in &mut swapped[name..end] {
                if *b == b'_' {
                    *b = b'-';
                }
            }
        }
        at = end.max(open + 1);
    }
    match out {
        // Only ASCII `_` became ASCII `-`, so the bytes are still UTF-8.
        Some(swapped) => {
            Cow::Owned(String::from_utf8(swapped).unwrap_or_else(|_| text.to_string()))
        }
        None => Cow::Borrowed(text),
    }
}

/// Whether raw HTML opens (after leading whitespace) with `<!--` and closes a comment.
pub(crate) fn is_comment_html(raw: &str) -> bool {
    raw.trim_start_matches(is_js_space)
        .starts_with(COMMENT_OPEN)
        && raw.contains(COMMENT_CLOSE)
}

/// `raw` with every `<!-- … -->` cut out (shortest match; an unclosed one stays).
pub(crate) fn remove_comments(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(open) = rest.find(COMMENT_OPEN) {
        let after_open = &rest[open + COMMENT_OPEN.len()..];
        let Some(close) = after_open.find(COMMENT_CLOSE) else {
            break;
        };
        out.push_str(&rest[..open]);
        rest = &after_open[close + COMMENT_CLOSE.len()..];
    }
    out.push_str(rest);
    out
}

/// The text rebuilt from its top-level blocks: comment blocks and link reference
/// definitions dropped with the empty lines after them, everything else verbatim.
fn strip_block_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for block in top_level_blocks(text) {
        if block.start < at {
            continue;
        }
        push_gap(&mut out, text, at, block.start);
        if block.comment {
            let end = skip_empty_lines(text, line_end(text, block.end));
            let kept = remove_comments(&text[block.start..end]);
            if !js_trim(&kept).is_empty() {
                out.push_str(&kept);
            }
            at = end;
        } else {
            out.push_str(&text[block.start..block.end]);
            at = block.end;
        }
    }
    push_gap(&mut out, text, at, text.len());
    out
}

/// Appends the text between two blocks: blank lines stay; a line with content that starts
/// a line there is a link reference definition (nothing else yields no block) and goes,
/// with the empty lines after it.
fn push_gap(out: &mut String, text: &str, from: usize, to: usize) {
    let mut at = from;
    while at < to {
        let end = after_line_break(text, at).min(to);
        let line = &text[at..end];
        let starts_line = at == 0 || text.as_bytes()[at - 1] == b'\n';
        if starts_line && !line.trim().is_empty() {
            at = skip_empty_lines(text, end).min(to);
        } else {
            out.push_str(line);
            at = end;
        }
    }
}

/// The offset after the line break ending the line that holds `at` (or the text's end);
/// `at` itself when it already starts a line.
fn line_end(text: &str, at: usize) -> usize {
    if at == 0 || at >= text.len() || text.as_bytes()[at - 1] == b'\n' {
        return at.min(text.len());
    }
    after_line_break(text, at)
}

/// The offset after the first line break at or after `at`, or the text's end.
fn after_line_break(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// The offset after the run of `\n` starting at `at`.
fn skip_empty_lines(text: &str, at: usize) -> usize {
    at + text[at..].bytes().take_while(|&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_definitions_after_a_list_vanish_with_a_comment_present() {
        let text = "<!-- c -->\n\n- a\n- b\n\n[x]: http://y\n[z]: http://w\n\nend\n";
        assert_eq!(claude_content(text).as_deref(), Some("- a\n- b\n\nend"));
    }

    #[test]
    fn underscores_in_tag_names_keep_offsets_and_open_html_blocks() {
        assert_eq!(
            structure("</available_skills>\n<a_b x=1>"),
            "</available-skills>\n<a-b x=1>"
        );
        for unchanged in [
            "<http://a_b>",
            "<a_b@example.com>",
            "a_b < c_d",
            "<_x>",
            "plain",
        ] {
            assert!(
                matches!(structure(unchanged), Cow::Borrowed(_)),
                "{unchanged}"
            );
        }
        let text = "intro\n\n</available_skills>\n<!-- KEPT -->\n\n<!-- GONE -->\n\nend\n";
        assert_eq!(
            claude_content(text).as_deref(),
            Some("intro\n\n</available_skills>\n<!-- KEPT -->\n\nend")
        );
    }

    fn content(text: &str) -> Option<String> {
        claude_content(text).map(Cow::into_owned)
    }

    #[test]
    fn frontmatter_is_removed_even_when_its_yaml_is_invalid() {
        assert_eq!(
            content("---\ndescription: d\n---\n\nBODY\n").as_deref(),
            Some("BODY")
        );
        assert_eq!(
            content("---\n: : bad [\n---\nbody\n").as_deref(),
            Some("body")
        );
        assert_eq!(content("---\n---\nbody\n").as_deref(), Some("body"));
    }

    #[test]
    fn frontmatter_fences_may_be_crlf_spaced_or_after_a_bom() {
        assert_eq!(
            content("---\r\ndescription: x\r\n---\r\nCRLF-BODY\r\nmore\r\n").as_deref(),
            Some("CRLF-BODY\r\nmore")
        );
        assert_eq!(
            content("---  \nx: y\n---\nSPACED\n").as_deref(),
            Some("SPACED")
        );
        assert_eq!(
            content("\u{feff}---\nx: y\n---\nBOM\n").as_deref(),
            Some("BOM")
        );
    }

    #[test]
    fn frontmatter_closes_at_the_first_three_dashes_anywhere() {
        assert_eq!(
            content("---\ndescription: a---b\n---\nBODY1\n").as_deref(),
            Some("b\n---\nBODY1")
        );
        assert_eq!(
            content("---\nx: y\n--- trailing\nBODY2\n").as_deref(),
            Some("trailing\nBODY2")
        );
        assert_eq!(
            content("---\nx: y\n----\nBODY3\n").as_deref(),
            Some("-\nBODY3")
        );
        assert_eq!(
            content("---\n\n\nx: y\n---BODY4\n").as_deref(),
            Some("BODY4")
        );
    }

    #[test]
    fn an_unclosed_or_late_block_is_no_frontmatter() {
        assert_eq!(
            content("---\nfoo: bar\nUNCLOSED\n").as_deref(),
            Some("---\nfoo: bar\nUNCLOSED")
        );
        assert_eq!(
            content("\n---\nx: y\n---\nLATE\n").as_deref(),
            Some("---\nx: y\n---\nLATE")
        );
        assert_eq!(content("---x\n---\nNOT").as_deref(), Some("---x\n---\nNOT"));
    }

    #[test]
    fn a_block_comment_goes_with_the_empty_lines_after_it_and_crlf_becomes_lf() {
        assert_eq!(
            content("Intro\r\n<!-- block -->\r\n\r\n\r\nAfter\r\n").as_deref(),
            Some("Intro\nAfter")
        );
        assert_eq!(
            content("a\n<!-- c -->\n\n\n\n\nb\n\n\n<!-- d -->\n\n").as_deref(),
            Some("a\nb")
        );
        assert_eq!(
            content("p\n\n<!-- c -->\n<!-- d -->\nafter\n").as_deref(),
            Some("p\n\nafter")
        );
        assert_eq!(
            content("a\n\n<!--\nmulti\nline\n-->\n\nb\n").as_deref(),
            Some("a\n\nb")
        );
    }

    #[test]
    fn a_line_with_spaces_ends_the_empty_lines_a_comment_takes() {
        assert_eq!(
            content("x  \n<!-- c -->   \n\n   y\n").as_deref(),
            Some("x  \n   y")
        );
    }

    #[test]
    fn text_after_a_comment_on_its_lines_stays() {
        assert_eq!(
            content("<!-- c --> after\nnext\n").as_deref(),
            Some("after\nnext")
        );
        assert_eq!(
            content("<!-- a --> mid <!-- b -->\nx\n").as_deref(),
            Some("mid \nx")
        );
        assert_eq!(
            content("a\n<!-- c\n--> tail\nb\n").as_deref(),
            Some("a\n tail\nb")
        );
    }

    #[test]
    fn inline_nested_indented_and_unclosed_comments_stay() {
        assert_eq!(
            content("only <!-- inline --> here\n").as_deref(),
            Some("only <!-- inline --> here")
        );
        assert_eq!(
            content("- item\n\n  <!-- in list -->\n- two\n").as_deref(),
            Some("- item\n\n  <!-- in list -->\n- two")
        );
        assert_eq!(
            content("> <!-- q -->\n> quoted\n").as_deref(),
            Some("> <!-- q -->\n> quoted")
        );
        assert_eq!(
            content("w\n\n   <!-- three -->\n    <!-- four -->\nz\n").as_deref(),
            Some("w\n\n    <!-- four -->\nz")
        );
        assert_eq!(
            content("x\n\n<!-- never closed\nmore\n").as_deref(),
            Some("x\n\n<!-- never closed\nmore")
        );
        assert_eq!(
            content("<div>\n<!-- in div -->\n</div>\n").as_deref(),
            Some("<div>\n<!-- in div -->\n</div>")
        );
    }

    #[test]
    fn any_comment_opener_turns_line_breaks_into_lf_even_in_a_fence() {
        assert_eq!(
            content("Top\r\n\r\n```html\r\n<!-- kept -->\r\n```\r\nlone\rcr\r\n").as_deref(),
            Some("Top\n\n```html\n<!-- kept -->\n```\nlone\ncr")
        );
        assert_eq!(content("a\rb\n<!-- c -->\n").as_deref(), Some("a\nb"));
    }

    #[test]
    fn without_a_comment_opener_crlf_and_cr_stay() {
        assert_eq!(
            content("\r\nLine one\r\n\r\nLine two\rthree\r\n\r\n").as_deref(),
            Some("Line one\r\n\r\nLine two\rthree")
        );
    }

    #[test]
    fn link_definitions_vanish_only_when_comments_are_processed() {
        assert_eq!(
            content("See [docs][d].\n\n[d]: https://example.com/docs\n[e]: <y> \"t\"\n\n<!-- c -->\nText\n")
                .as_deref(),
            Some("See [docs][d].\n\nText")
        );
        assert_eq!(
            content("See [d].\n\n[d]: https://example.com\n").as_deref(),
            Some("See [d].\n\n[d]: https://example.com")
        );
        assert_eq!(
            content("para\n[a]: http://x\n\n<!-- c -->\n").as_deref(),
            Some("para\n[a]: http://x")
        );
        assert_eq!(
            content("# [a]: x\n\n   [c]: http://z\n\n<!-- c -->\nq\n").as_deref(),
            Some("# [a]: x\n\nq")
        );
    }

    #[test]
    fn tabs_and_tables_come_back_verbatim() {
        assert_eq!(
            content("x\n\n\tcode\n\n- a\n\t- b\nend\t\n<!-- c -->\n").as_deref(),
            Some("x\n\n\tcode\n\n- a\n\t- b\nend")
        );
        assert_eq!(
            content("| a | b |\n|---|---|\n| 1 | 2 |\n\n<!-- c -->\nT\n").as_deref(),
            Some("| a | b |\n|---|---|\n| 1 | 2 |\n\nT")
        );
    }

    #[test]
    fn trimming_uses_javascript_whitespace() {
        assert_eq!(
            content("\n\n   \u{a0}Indented start\n\n\n  inner  \n\tend\t \u{feff}\n\n").as_deref(),
            Some("Indented start\n\n\n  inner  \n\tend")
        );
        assert_eq!(
            content("\u{85}NEL\u{85}\n").as_deref(),
            Some("\u{85}NEL\u{85}")
        );
        assert_eq!(content("\u{85}\n").as_deref(), Some("\u{85}"));
    }

    #[test]
    fn blank_results_are_nothing() {
        for text in [
            " \n\t\n",
            "<!-- only a comment -->\n",
            "\u{3000}\n",
            "---\nx: y\n---\n",
            "",
        ] {
            assert_eq!(content(text), None, "{text:?}");
        }
    }

    #[test]
    fn memory_is_cut_to_200_lines() {
        let text: String = (1..=250).map(|i| format!("line {i}\n")).collect();
        let (kept, cut) = claude_memory(&text).expect("content");
        assert!(cut);
        assert_eq!(kept.lines().count(), 200);
        assert!(kept.ends_with("\nline 200"));
        let text: String = (1..=200).map(|i| format!("line {i}\n")).collect();
        assert_eq!(claude_memory(&text).map(|(_, cut)| cut), Some(false));
    }

    #[test]
    fn memory_is_cut_at_the_last_line_break_within_25000_units() {
        let text: String = (1..=100)
            .map(|i| format!("L{i:03} {}\n", "x".repeat(295)))
            .collect();
        let (kept, cut) = claude_memory(&text).expect("content");
        assert!(cut);
        assert_eq!(kept.len(), 83 * 301 - 1);
        assert!(kept.ends_with(&format!("L083 {}", "x".repeat(295))));
    }

    #[test]
    fn memory_length_counts_utf16_units_and_cuts_one_long_line_mid_line() {
        let whole = "\u{e9}".repeat(13_000);
        assert_eq!(
            claude_memory(&whole),
            Some((Cow::Borrowed(whole.as_str()), false))
        );
        let long = "\u{e9}".repeat(26_000);
        let (kept, cut) = claude_memory(&long).expect("content");
        assert!(cut);
        assert_eq!(kept.chars().count(), 25_000);
        let astral = "\u{1f600}".repeat(13_000);
        let (kept, _) = claude_memory(&astral).expect("content");
        assert_eq!(
            kept.chars().count(),
            12_500,
            "a surrogate pair is two units"
        );
    }

    #[test]
    fn untouched_content_is_borrowed() {
        assert!(matches!(
            claude_content("  plain\n"),
            Some(Cow::Borrowed("plain"))
        ));
    }

    mod props {
        use proptest::prelude::*;

        use super::super::*;

        proptest! {
            #[test]
            fn never_panics_and_is_trimmed(text in "(?s)[-<!> a-z\\[\\]:#`~*\r\n\t\u{a0}\u{85}]{0,200}") {
                if let Some(out) = claude_content(&text) {
                    prop_assert_eq!(js_trim(&out), &*out);
                    prop_assert!(!out.is_empty());
                }
            }

            #[test]
            fn text_without_comment_openers_only_loses_frontmatter_and_ends(text in "(?s)[a-z \r\n#*`-]{0,200}") {
                let (_, body) = split_frontmatter(&text);
                let expected = js_trim(body);
                let got = claude_content(&text);
                prop_assert_eq!(got.as_deref().unwrap_or(""), expected);
            }
        }
    }
}
