//! Why a soul body is refused (SPEC §6.4): the vocabulary the soul's
//! checks and the turn-0 left-out facts share, kept apart from the soul
//! message so that the turn-0 vocabulary does not depend on the assembler.

use std::fmt;

/// The fence that closes the soul body; a body containing it is refused.
pub const SOUL_CLOSE_TAG: &str = "</soul>";

/// Why a soul file is refused (SPEC §6.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SoulRejection {
    /// Larger than the cap, in raw bytes.
    TooLarge {
        /// The file's size.
        size: u64,
        /// The cap it exceeds.
        max: usize,
    },
    /// Empty or whitespace only.
    Blank,
    /// Contains `</soul>`, which would close the fence early.
    ClosesFence,
    /// Trips the injection scan; names the pattern.
    Injection(&'static str),
}

impl fmt::Display for SoulRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoulRejection::TooLarge { size, max } => {
                write!(f, "{size} bytes, over the {max}-byte limit for a soul")
            }
            SoulRejection::Blank => f.write_str("blank"),
            SoulRejection::ClosesFence => {
                write!(
                    f,
                    "contains {SOUL_CLOSE_TAG}, which would break out of its fence"
                )
            }
            SoulRejection::Injection(pattern) => {
                write!(
                    f,
                    "looks like a prompt-injection attempt (matches: {pattern})"
                )
            }
        }
    }
}
