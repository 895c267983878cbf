//! Placeholder substitution and rendering (SPEC §5.2, §5.6): how a
//! command template and its arguments become the text the model sees, and
//! where that text is cut.
//!
//! The choices the spec leaves open are listed once, in [`super`].

use crate::limits;
use crate::prompt::command::strip_frontmatter;
use crate::prompt::text::floor_char_boundary;

/// The output bound when no post-expansion text is involved: the largest
/// template we read, so only argument amplification can reach it.
pub(super) const TEMPLATE_OUTPUT_BOUND: usize = limits::MAX_COMMAND_FILE_BYTES as usize;

/// A string builder that stops at a byte limit, on a UTF-8 boundary, and
/// remembers that it did (also the Claude dialect's output bound).
pub(super) struct Capped {
    text: String,
    limit: usize,
    /// True once a piece did not fit.
    pub(super) overflowed: bool,
}

impl Capped {
    pub(super) fn new(limit: usize, expected: usize) -> Self {
        Self {
            text: String::with_capacity(expected.min(limit)),
            limit,
            overflowed: false,
        }
    }

    pub(super) fn push(&mut self, piece: &str) {
        if self.overflowed {
            return;
        }
        let room = self.limit - self.text.len();
        if piece.len() <= room {
            self.text.push_str(piece);
        } else {
            self.text
                .push_str(&piece[..floor_char_boundary(piece, room)]);
            self.overflowed = true;
        }
    }

    /// The output, with the truncation marker when it was cut.
    pub(super) fn into_rendered(self) -> Rendered {
        let truncated_at = self.overflowed.then_some(self.limit);
        let mut text = self.text;
        if let Some(limit) = truncated_at {
            text.push_str(&format!("\n...[expansion truncated at {limit} bytes]"));
        }
        Rendered { text, truncated_at }
    }
}

/// Substitutes the placeholders of a command body (SPEC §5.2) in one pass
/// from left to right; substituted text is never re-scanned.
///
/// `$ARGUMENTS` becomes all arguments joined by one space (`$ARGUMENTSX` is
/// that followed by `X`). `$` followed by a run of ASCII digits is one
/// 1-based index (`$10` is the tenth argument) and becomes that argument, or
/// nothing when out of range — `$0` and runs too long for any index
/// included. Any other `$` is kept (`$HOME`; `$$1` is `$` then argument 1).
///
/// The output is not bounded; expanders use [`render`], which is.
pub fn substitute(body: &str, args: &[String]) -> String {
    let mut out = Capped::new(usize::MAX, body.len());
    substitute_into(body, args, &mut out);
    out.text
}

fn substitute_into(body: &str, args: &[String], out: &mut Capped) {
    let mut rest = body;
    while let Some(dollar) = rest.find('$') {
        out.push(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        rest = if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            push_joined(args, out);
            tail
        } else {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                out.push("$");
                after
            } else {
                if let Some(arg) = positional(args, &after[..digits]) {
                    out.push(arg);
                }
                &after[digits..]
            }
        };
        if out.overflowed {
            return;
        }
    }
    out.push(rest);
}

fn push_joined(args: &[String], out: &mut Capped) {
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push(" ");
        }
        out.push(arg);
        if out.overflowed {
            return;
        }
    }
}

/// The argument a run of ASCII digits names, if any. Stops reading digits
/// as soon as the index overflows, so a run of any length costs nothing.
fn positional<'a>(args: &'a [String], digits: &str) -> Option<&'a str> {
    let index = digits.bytes().try_fold(0usize, |n, d| {
        n.checked_mul(10)?.checked_add(usize::from(d - b'0'))
    })?;
    args.get(index.checked_sub(1)?).map(String::as_str)
}

/// A rendered expansion: the text the model sees, and where it was cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The output, including the truncation marker when cut.
    pub text: String,
    /// The byte limit the output was cut at, when it was.
    pub truncated_at: Option<usize>,
}

/// Renders a raw command template the way every expander does (SPEC §5.3,
/// §5.2, §5.6): strips the frontmatter, substitutes `args`, puts the `post`
/// text in front (never itself substituted), and bounds the result.
///
/// `post` is `Some` whenever the template comes from a source that supports
/// post-expansion text, even when that text is empty; the bound is then
/// [`limits::MAX_EXPANSION_BYTES`] (the engine's cap). With `None` it is
/// [`limits::MAX_COMMAND_FILE_BYTES`] (see the module docs). A cut output
/// ends with `\n...[expansion truncated at LIMIT bytes]`, after at most
/// LIMIT bytes cut on a UTF-8 boundary.
pub fn render(raw: &str, args: &[String], post: Option<&str>) -> Rendered {
    let limit = match post {
        Some(_) => limits::MAX_EXPANSION_BYTES,
        None => TEMPLATE_OUTPUT_BOUND,
    };
    let body = strip_frontmatter(raw);
    let mut out = Capped::new(limit, body.len() + post.map_or(0, str::len));
    if let Some(post) = post {
        out.push(post);
    }
    substitute_into(body, args, &mut out);
    out.into_rendered()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::command::test_support::{args, body_strategy};
    use proptest::prelude::*;

    #[test]
    fn substitutes_arguments_and_positionals() {
        let a = args(&["a", "b"]);
        assert_eq!(substitute("$1-$2-$3", &a), "a-b-");
        assert_eq!(substitute("[$ARGUMENTS]", &a), "[a b]");
        assert_eq!(substitute("[$ARGUMENTS]", &[]), "[]");
        assert_eq!(substitute("$ARGUMENTSX", &a), "a bX");
        assert_eq!(substitute("$ARGUMENTS1", &a), "a b1");
        assert_eq!(substitute("é$1ü", &a), "éaü");
    }

    #[test]
    fn dollar_zero_and_out_of_range_are_empty() {
        let a = args(&["a"]);
        assert_eq!(substitute("<$0>", &a), "<>");
        assert_eq!(substitute("<$2>", &a), "<>");
        assert_eq!(substitute("<$0001>", &a), "<a>");
    }

    #[test]
    fn a_digit_run_is_one_index() {
        let ten: Vec<String> = (1..=10).map(|i| format!("a{i}")).collect();
        assert_eq!(substitute("<$10>", &ten), "<a10>");
        assert_eq!(substitute("<$10>", &ten[..9]), "<>");
        assert_eq!(substitute("<$1 0>", &ten[..9]), "<a1 0>");
    }

    #[test]
    fn other_dollars_are_literal() {
        let a = args(&["a"]);
        assert_eq!(substitute("$HOME", &a), "$HOME");
        assert_eq!(substitute("$$1", &a), "$a");
        assert_eq!(substitute("$", &a), "$");
        assert_eq!(substitute("a $ b $", &a), "a $ b $");
        assert_eq!(substitute("$ARGUMENT", &a), "$ARGUMENT");
        assert_eq!(substitute("$arguments", &a), "$arguments");
        assert_eq!(substitute("$\u{661}", &a), "$\u{661}");
    }

    #[test]
    fn overflowing_digit_runs_are_empty() {
        let a = args(&["a"]);
        let forty = format!("x${}y", "1".repeat(40));
        assert_eq!(substitute(&forty, &a), "xy");
        let huge = format!("x${}y", "9".repeat(100_000));
        assert_eq!(substitute(&huge, &a), "xy");
        let max = format!("<${}>", usize::MAX);
        assert_eq!(substitute(&max, &a), "<>");
    }

    #[test]
    fn substituted_text_is_never_rescanned() {
        let a = args(&["$2", "b", "$ARGUMENTS"]);
        assert_eq!(substitute("$1", &a), "$2");
        assert_eq!(substitute("$3", &a), "$ARGUMENTS");
        assert_eq!(substitute("$ARGUMENTS", &a), "$2 b $ARGUMENTS");
    }

    #[test]
    fn render_strips_frontmatter_then_substitutes() {
        let out = render("---\ndescription: d\n---\nReview $1.", &args(&["x"]), None);
        assert_eq!(out.text, "Review x.");
        assert_eq!(out.truncated_at, None);
    }

    #[test]
    fn post_text_is_prepended_and_never_substituted() {
        let out = render("Body $1", &args(&["a"]), Some("Post $1 $ARGUMENTS\n"));
        assert_eq!(out.text, "Post $1 $ARGUMENTS\nBody a");
        assert_eq!(render("B $1", &args(&["a"]), Some("")).text, "B a");
    }

    #[test]
    fn post_expansion_cap_at_its_boundary() {
        let max = limits::MAX_EXPANSION_BYTES;
        let marker = format!("\n...[expansion truncated at {max} bytes]");
        assert_eq!(marker, "\n...[expansion truncated at 25000 bytes]");
        let post = "p".repeat(10);

        let at = "b".repeat(max - post.len());
        let out = render(&at, &[], Some(&post));
        assert_eq!(out.text.len(), max);
        assert_eq!(out.truncated_at, None);

        let under = "b".repeat(max - post.len() - 1);
        assert_eq!(render(&under, &[], Some(&post)).text.len(), max - 1);

        let over = "b".repeat(max - post.len() + 1);
        let out = render(&over, &[], Some(&post));
        assert_eq!(out.truncated_at, Some(max));
        assert_eq!(
            out.text,
            format!("{post}{}{marker}", "b".repeat(max - post.len()))
        );
    }

    #[test]
    fn post_expansion_cap_lands_on_a_char_boundary() {
        let max = limits::MAX_EXPANSION_BYTES;
        // "p" then two-byte characters: byte `max` falls inside one.
        let body = "é".repeat(max / 2 + 1);
        let out = render(&body, &[], Some("p"));
        let kept = out
            .text
            .strip_suffix("\n...[expansion truncated at 25000 bytes]")
            .unwrap();
        assert_eq!(kept.len(), max - 1);
        assert_eq!(kept, format!("p{}", "é".repeat((max - 2) / 2)));
    }

    #[test]
    fn empty_post_text_still_means_the_post_expansion_cap() {
        let max = limits::MAX_EXPANSION_BYTES;
        let body = "b".repeat(max + 1);
        let out = render(&body, &[], Some(""));
        assert_eq!(out.truncated_at, Some(max));
        assert_eq!(
            out.text,
            format!(
                "{}\n...[expansion truncated at {max} bytes]",
                "b".repeat(max)
            )
        );
        assert_eq!(render(&body, &[], None).text, body);
    }

    #[test]
    fn templates_without_post_text_are_not_cut_at_the_post_cap() {
        let body = "b".repeat(29_675);
        let out = render(&body, &[], None);
        assert_eq!(out.text, body);
        assert_eq!(out.truncated_at, None);
    }

    #[test]
    fn argument_amplification_is_bounded() {
        let big = "a".repeat(100_000);
        let body = "$ARGUMENTS ".repeat(1_000);
        let out = render(&body, &[big], None);
        let bound = limits::MAX_COMMAND_FILE_BYTES as usize;
        assert_eq!(out.truncated_at, Some(bound));
        let marker = format!("\n...[expansion truncated at {bound} bytes]");
        assert_eq!(out.text.len(), bound + marker.len());
        assert!(out.text.ends_with(&marker));
    }

    /// A straightforward reading of §5.2, character by character, to check
    /// the single-pass implementation against.
    fn reference_substitute(body: &str, args: &[String]) -> String {
        let chars: Vec<char> = body.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '$' {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            let rest: String = chars[i + 1..].iter().collect();
            if rest.starts_with("ARGUMENTS") {
                out.push_str(&args.join(" "));
                i += 10;
                continue;
            }
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if digits.is_empty() {
                out.push('$');
                i += 1;
                continue;
            }
            let trimmed = digits.trim_start_matches('0');
            if trimmed.len() <= 18 {
                let index: u64 = trimmed.parse().unwrap_or(0);
                if index >= 1 && index as usize <= args.len() {
                    out.push_str(&args[index as usize - 1]);
                }
            }
            i += 1 + digits.len();
        }
        out
    }

    proptest! {
        #[test]
        fn substitution_matches_the_reference(body in body_strategy(), args in proptest::collection::vec("[a-z$0-9]{1,4}", 0..12)) {
            prop_assert_eq!(substitute(&body, &args), reference_substitute(&body, &args));
        }

        #[test]
        fn in_range_positionals_never_survive(body in body_strategy(), args in proptest::collection::vec("[a-zé]{1,4}", 1..12)) {
            let out = substitute(&body, &args);
            let bytes = out.as_bytes();
            for i in 0..bytes.len().saturating_sub(1) {
                prop_assert!(
                    !(bytes[i] == b'$' && bytes[i + 1].is_ascii_digit()),
                    "{:?} left a $ and digit in {:?}", body, out
                );
            }
        }
    }
}
