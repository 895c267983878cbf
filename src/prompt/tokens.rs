//! Token counts (SPEC §2.10, §15.4): how many tokens a text costs the
//! model, exactly for the agents whose encoding is public, estimated for the
//! others, and always labelled with which of the two it is.
//!
//! - [`Tokenizer::O200kBase`] counts exactly with OpenAI's `o200k_base`
//!   encoding, by code of our own over static tables that `build.rs`
//!   generates from the `bpe-openai` crate (a build and test dependency
//!   only): the encoding's pre-tokenizer, then byte-pair merging of each
//!   piece (README's Dependencies section has the measurements behind the
//!   choice). Nothing is loaded or built at run time.
//! - [`Tokenizer::Estimate`] is bytes ÷ 4, rounded up: a tokenizer-free rule
//!   of thumb for English prose and code, good for comparing parts and
//!   spotting the large ones, not for billing.
//!
//! [`crate::prompt::profile::seam::ProfileSpec::tokenizer`] says which one
//! an agent's profile uses.
//!
//! Choices the spec leaves open:
//! - A text is counted as ordinary text: a control-token spelling such as
//!   `<|endoftext|>` inside a file counts as its characters (7 tokens), since
//!   file content never becomes a control token.
//! - Only the text is counted: the framing a provider adds around each
//!   message (role markers, message separators) is not, as it depends on
//!   the provider and the model rather than on the workspace.
//! - Several texts sent as separate messages ([`Tokenizer::count_each`]) are
//!   counted one by one and added up when counting exactly; the estimate,
//!   defined on bytes, takes their bytes together, so an estimated total is
//!   the estimate of the total size, as it always was.
//! - The estimate divides UTF-8 bytes, not characters: a CJK character is
//!   three bytes, so the estimate stays an upper-side guess for such text.
//! - The exact encoding's tables are part of the binary (about 6 MiB,
//!   paged in as a count touches them), so counting costs no start-up
//!   load; callers that show no token count still need not count.

mod o200k;

use serde::Serialize;

/// How the estimate is computed, as stated in output.
pub const ESTIMATE_RULE: &str = "bytes / 4, rounded up";

/// The divisor of the estimate: bytes per estimated token.
const ESTIMATE_BYTES_PER_TOKEN: usize = 4;

/// A way of counting tokens; serialized as its label (`"tokenizer":
/// "o200k_base" | "estimate"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub enum Tokenizer {
    /// Exact counts with OpenAI's `o200k_base` encoding.
    #[serde(rename = "o200k_base")]
    O200kBase,
    /// Bytes ÷ 4, rounded up ([`ESTIMATE_RULE`]).
    #[serde(rename = "estimate")]
    Estimate,
}

impl Tokenizer {
    /// The tokens `text` costs: exact, or estimated from its size.
    pub fn count(self, text: &str) -> usize {
        match self {
            Tokenizer::O200kBase => o200k::count(text),
            Tokenizer::Estimate => estimate(text.len()),
        }
    }

    /// The tokens of texts each sent on its own (turn-0's messages): the
    /// sum of their exact counts, or the estimate of their total size.
    pub fn count_each<'a>(self, texts: impl IntoIterator<Item = &'a str>) -> usize {
        match self {
            Tokenizer::O200kBase => texts.into_iter().map(|text| self.count(text)).sum(),
            Tokenizer::Estimate => estimate(texts.into_iter().map(str::len).sum()),
        }
    }

    /// The label used in output: `o200k_base` or `estimate`.
    pub fn label(self) -> &'static str {
        match self {
            Tokenizer::O200kBase => "o200k_base",
            Tokenizer::Estimate => "estimate",
        }
    }

    /// Whether counts are exact (false for the estimate).
    pub fn is_exact(self) -> bool {
        self == Tokenizer::O200kBase
    }
}

/// The estimate for `bytes` bytes: bytes ÷ 4, rounded up.
pub fn estimate(bytes: usize) -> usize {
    bytes.div_ceil(ESTIMATE_BYTES_PER_TOKEN)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_estimate_is_bytes_over_four_rounded_up() {
        let counts = ["", "a", "abc", "abcd", "abcde", "abcdefgh", "abcdefghi"]
            .map(|text| Tokenizer::Estimate.count(text));
        assert_eq!(counts, [0, 1, 1, 1, 2, 2, 3]);
        // Bytes, not characters: three CJK characters are nine bytes.
        assert_eq!(Tokenizer::Estimate.count("日本語"), 3);
    }

    /// Counts checked against tiktoken-rs 0.12.1 (OpenAI's tiktoken code,
    /// `encode_ordinary`) when the crate was chosen. The estimate differs
    /// on five of them, so a tokenizer that fell back to it fails here.
    #[test]
    fn o200k_base_counts_match_the_reference() {
        let cases: [(&str, usize, usize); 7] = [
            // (text, exact o200k_base count, estimate)
            ("hello world", 2, 3),
            ("Hello, world!", 4, 4),
            ("tiktoken is great!", 6, 5),
            (&"a".repeat(64), 8, 16),
            ("日本語のテキスト", 6, 6),
            ("fn main() {\n    println!(\"hi\");\n}\n", 10, 9),
            ("<|endoftext|>", 7, 4),
        ];
        for (text, exact, estimated) in cases {
            assert_eq!(Tokenizer::O200kBase.count(text), exact, "{text:?}");
            assert_eq!(Tokenizer::Estimate.count(text), estimated, "{text:?}");
        }
        assert_eq!(Tokenizer::O200kBase.count(""), 0);
    }

    #[test]
    fn separate_texts_add_up_exactly_and_are_estimated_together() {
        let texts = ["hello world", "a"];
        assert_eq!(Tokenizer::O200kBase.count_each(texts), 2 + 1);
        // 11 + 1 bytes estimated together is 3, where 3 + 1 would be 4.
        assert_eq!(Tokenizer::Estimate.count_each(texts), 3);
        assert_eq!(Tokenizer::Estimate.count_each([]), 0);
    }

    #[test]
    fn the_label_is_the_json_value() {
        for tokenizer in [Tokenizer::O200kBase, Tokenizer::Estimate] {
            let json = serde_json::to_value(tokenizer).unwrap();
            assert_eq!(json, tokenizer.label());
        }
    }

    /// Text that stresses the pre-tokenizer: long runs of one character,
    /// whitespace before and after newlines, apostrophes, digits, marks.
    fn awkward_text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            any::<String>(),
            "[ \t\r\n]{0,40}",
            "[a'sA0-9 ]{0,40}",
            (any::<char>(), 0..2_000usize).prop_map(|(c, n)| c.to_string().repeat(n)),
        ];
        prop::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn counting_never_panics_and_stays_within_the_bytes(text in awkward_text()) {
            let exact = Tokenizer::O200kBase.count(&text);
            // Every token stands for at least one byte, and a non-empty
            // text has at least one token.
            prop_assert!(exact <= text.len());
            prop_assert_eq!(exact == 0, text.is_empty());
        }
    }
}
