//! What a turn-0 source left out and why, and the shape every source port's
//! main method returns ([`Delivery`]): the product, with those facts and
//! the diagnostics beside it.

use std::fmt;

use crate::diagnostic::Diagnostic;
use crate::prompt::soul::SoulRejection;
use crate::prompt::tiers::Fate;
use crate::prompt::turn0::Provenance;

/// Something a turn-0 source considered and did not deliver: a file, or a
/// name inside a source that has many (a rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    /// The source it belonged to.
    pub provenance: Provenance,
    /// Its name inside the source (a rule's name); `None` for a source made
    /// of one file (the soul).
    pub name: Option<String>,
    /// The file, as its reader displays it; `None` when the source is not
    /// a file.
    pub source: Option<String>,
    /// Why it was left out.
    pub reason: LeftOutReason,
}

/// Why something was left out of the turn-0 messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeftOutReason {
    /// Trust withheld it (a file of an untrusted workspace); it was never
    /// opened.
    Withheld,
    /// A cap was reached before it (the rules message's count or byte cap,
    /// SPEC §6.3); it was never opened.
    DroppedAtCap,
    /// It was read and refused; the typed reason says why (boxed: the
    /// reasons left out most, caps and trust, carry nothing, and 10,000
    /// rules past a cap are 10,000 facts).
    Rejected(Box<Rejection>),
    /// It exists but could not be used as a file: an operating-system error,
    /// a refused or dangling link, a special file. `cause` says which.
    Unreadable {
        /// The error, as the reader reports it.
        cause: String,
    },
    /// The operator named it (`--soul-file`) and it does not exist.
    NotFound,
}

impl LeftOutReason {
    /// [`LeftOutReason::Rejected`] for `rejection`.
    pub fn rejected(rejection: Rejection) -> Self {
        Self::Rejected(Box::new(rejection))
    }
}

/// Why a file that was read was refused, typed by the source that refused
/// it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// An instructions file that is empty or whitespace only (SPEC §6.2).
    Blank,
    /// A soul file that fails SPEC §6.4's checks.
    Soul(SoulRejection),
    /// A rule none of whose files could be used (malformed, unreadable,
    /// refused, not a regular file): its first file's fate, and the reason
    /// that file's diagnostic gave, when it gave one.
    Rule {
        /// What became of the rule's first file.
        fate: Fate,
        /// The first file's diagnostic reason.
        reason: Option<String>,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Blank => f.write_str("blank"),
            Rejection::Soul(rejection) => rejection.fmt(f),
            Rejection::Rule { fate, reason } => {
                f.write_str(reason.as_deref().unwrap_or(fate.as_str()))
            }
        }
    }
}

/// What a turn-0 source port's main method returns: the product, where it
/// came from, what was left out and why, and the diagnostics for the files
/// looked at. A source's seed-shaped method (`SoulSource::load`, …) is its
/// `product`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery<T> {
    /// What the source delivers (for a fail-soft source, a `Result`).
    pub product: T,
    /// The file or directory the product came from, when there is one.
    pub source: Option<String>,
    /// What the source considered and did not deliver.
    pub left_out: Vec<LeftOut>,
    /// Diagnostics for the files looked at, in the order met.
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Delivery<T> {
    /// A delivery of `product` with nothing else to say.
    pub fn of(product: T) -> Self {
        Self {
            product,
            source: None,
            left_out: Vec::new(),
            diagnostics: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejection_reads_as_its_typed_reason() {
        for reason in [SoulRejection::Blank, SoulRejection::Injection("x")] {
            assert_eq!(
                Rejection::Soul(reason.clone()).to_string(),
                reason.to_string()
            );
        }
    }
}
