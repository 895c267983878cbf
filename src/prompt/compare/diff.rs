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
//! - A content without a final newline gets `\ No newline at end of file`
//!   where it matters, as `diff -u` prints it.

use similar::TextDiff;

use crate::limits;

/// The unified diff turning `old` (named `old_name`) into `new`.
pub fn unified(old_name: &str, old: &str, new_name: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let diff = TextDiff::configure()
        .timeout(limits::COMPARE_DIFF_TIMEOUT)
        .diff_lines(old, new);
    diff.unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
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
    fn equal_contents_have_no_diff_and_a_missing_newline_is_marked() {
        assert_eq!(unified("a", "same", "b", "same"), "");
        assert_eq!(
            unified("codex", "x", "claude", "x\ny"),
            "--- codex\n+++ claude\n@@ -1 +1,2 @@\n-x\n\\ No newline at end of file\n+x\n+y\n\\ No newline at end of file\n"
        );
    }
}
