//! The rule value (SPEC §6.3, §7): a rule, the tier it came through and how
//! the rules message shows it. The turn-0 report carries these, so they sit
//! below the rules assembler.

use serde::Serialize;

/// One rule: guidance text, optionally scoped to path globs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// The rule's name (its file name without `.md` for file sources).
    pub name: String,
    /// The body, trimmed and at most [`crate::limits::MAX_RULE_BYTES`] long.
    pub body: String,
    /// Globs the rule applies to; empty means it always applies.
    pub paths: Vec<String>,
    /// The admission tier the rule came through.
    pub origin: RuleOrigin,
}

/// A rule as the rules message shows it, with where it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownRule {
    /// The rule; its block is [`crate::prompt::rules::render_rule_block`] of it.
    pub rule: Rule,
    /// The file it was read from, as its reader displays it; `None` for a
    /// source that does not read files.
    pub source: Option<String>,
    /// True when the body was cut to the cap (or the file to the read bound).
    pub truncated: bool,
}

/// The tier a rule was admitted through: a label, never a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum RuleOrigin {
    /// The workspace's rules directories (trust-gated).
    Project,
    /// The user's rules directories (never gated).
    User,
    /// An operator-configured remote driver.
    Driver,
}

impl RuleOrigin {
    /// The lowercase label used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleOrigin::Project => "project",
            RuleOrigin::User => "user",
            RuleOrigin::Driver => "driver",
        }
    }
}
