//! What became of a file offered for a name (SPEC §2.8, §3.3).

use serde::Serialize;

/// What became of one candidate file for a name. Every consumer (listings,
/// expansion, `explain`, `--stats`) reads this one vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "fate")]
pub enum Fate {
    /// The file that provides the name.
    #[serde(rename = "winner")]
    Winner,
    /// A usable file that loses to an earlier directory's file.
    #[serde(rename = "shadowed")]
    Shadowed {
        /// The file that provides the name instead, as displayed.
        by: String,
    },
    /// A file of a withheld (untrusted) directory that nothing before it
    /// holds: what trust would use.
    #[serde(rename = "withheld")]
    Withheld,
    /// A file whose content cannot be used (malformed frontmatter).
    #[serde(rename = "malformed")]
    Malformed {
        /// Why, without echoing the content.
        reason: String,
    },
    /// A file the operating system would not let us read, or whose name is
    /// not valid UTF-8.
    #[serde(rename = "unreadable")]
    Unreadable {
        /// The cause.
        cause: String,
    },
    /// A symbolic link that leaves the workspace, never followed.
    #[serde(rename = "refused symlink")]
    RefusedSymlink {
        /// Why it was refused.
        reason: String,
    },
    /// Nothing usable is there: not a regular file (a directory, a FIFO),
    /// a link that cannot be resolved, or a file that vanished.
    #[serde(rename = "not found")]
    NotFound {
        /// What is there instead; empty when nothing is.
        reason: String,
    },
    /// A usable file that was never opened because a cap was reached
    /// before its name's turn (the rules message, SPEC §6.3, §11).
    #[serde(rename = "dropped (cap)")]
    DroppedAtCap,
}

impl Fate {
    /// The fate's name as `explain` prints it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Fate::Winner => "winner",
            Fate::Shadowed { .. } => "shadowed",
            Fate::Withheld => "withheld",
            Fate::Malformed { .. } => "malformed",
            Fate::Unreadable { .. } => "unreadable",
            Fate::RefusedSymlink { .. } => "refused symlink",
            Fate::NotFound { .. } => "not found",
            Fate::DroppedAtCap => "dropped (cap)",
        }
    }

    /// The detail `explain` prints after the fate: what shadows the file,
    /// or why it could not be used.
    pub fn detail(&self) -> Option<String> {
        match self {
            Fate::Shadowed { by } => Some(format!("by {by}")),
            Fate::Malformed { reason }
            | Fate::RefusedSymlink { reason }
            | Fate::NotFound { reason } => (!reason.is_empty()).then(|| reason.clone()),
            Fate::Unreadable { cause } => Some(cause.clone()),
            Fate::Winner | Fate::Withheld | Fate::DroppedAtCap => None,
        }
    }

    /// True when the file was usable: it won, lost only to precedence or a
    /// cap, or would be used once trusted.
    pub fn is_usable(&self) -> bool {
        matches!(
            self,
            Fate::Winner | Fate::Shadowed { .. } | Fate::Withheld | Fate::DroppedAtCap
        )
    }
}

/// One file offered for a name, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate<T> {
    /// The name the file offers.
    pub name: String,
    /// Which of the searched directories holds it.
    pub dir_index: usize,
    /// Its path relative to that directory's reader.
    pub rel: String,
    /// Its path as displayed in output.
    pub source: String,
    /// What became of it.
    pub fate: Fate,
    /// What the kind loaded from it, when it was read and usable.
    pub item: Option<T>,
    /// The indices of its diagnostics in the resolution's list.
    pub diagnostics: Vec<usize>,
}
