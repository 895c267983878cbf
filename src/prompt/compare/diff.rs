//! A unified diff of two agents' instruction content (SPEC §15.1 `--diff
//! A,B`), line by line, with three lines of context, through the `similar`
//! crate (README's Dependencies section says why).
//!
//! Choices the spec leaves open:
//! - The header names the agents (`--- mecatl`, `+++ claude`): the content
//!   is made of several files, so no one file name fits.
//! - Equal contents give an empty diff, as `diff` prints nothing.
//! - A diff that takes longer than [`limits::COMPARE_DIFF_TIMEOUT`] (two
//!   files of megabytes that share little) stops looking for the smallest
//!   one and prints a correct, larger one.
//! - Each side is compared as whole lines: a non-empty side gets a final
//!   newline when it has none (instruction content is trimmed), so its
//!   last line compares like the others.

use std::borrow::Cow;

use similar::TextDiff;

use crate::limits;

/// The unified diff turning `old` (named `old_name`) into `new`.
pub fn unified(old_name: &str, old: &str, new_name: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let (old, new) = (whole_lines(old), whole_lines(new));
    let diff = TextDiff::configure()
        .timeout(limits::COMPARE_DIFF_TIMEOUT)
        .diff_lines(old.as_ref(), new.as_ref());
    diff.unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
}

/// `text` ending with a newline, unless it is empty.
fn whole_lines(text: &str) -> Cow<'_, str> {
    if text.is_empty() || text.ends_with('\n') {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("{text}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_a_hunk_with_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nd\nE\nf\ng\nh\n";
        assert_eq!(
            unified("mecatl", old, "claude", new),
            "--- mecatl\n+++ claude\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
    }

    #[test]
    fn equal_contents_have_no_diff_and_last_lines_compare_whole() {
        assert_eq!(unified("a", "same", "b", "same"), "");
        assert_eq!(
            unified("codex", "x", "claude", "x\ny"),
            "--- codex\n+++ claude\n@@ -1 +1,2 @@\n x\n+y\n"
        );
        assert_eq!(
            unified("codex", "", "claude", "y"),
            "--- codex\n+++ claude\n@@ -0,0 +1 @@\n+y\n"
        );
    }
}
