//! Inline suppressions (SPEC §20.5): `<!-- mecatl-prompt: disable MP004 -->`
//! anywhere in a file turns those codes off for the whole file, and
//! `<!-- mecatl-prompt: disable-next-line MP004 -->` for the line after the
//! comment. Several codes are separated by spaces or commas.

use std::collections::{BTreeMap, BTreeSet};

use super::unknown_code;
use crate::prompt::lint::{Code, Finding};
use crate::prompt::text::line_column;

/// What a comment starts with, after `<!--` and spaces.
const PREFIX: &str = "mecatl-prompt:";

/// The suppressions of one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Suppressions {
    /// Codes off for the whole file.
    file: BTreeSet<Code>,
    /// Codes off for one line, by its 1-based number.
    lines: BTreeMap<u64, BTreeSet<Code>>,
}

impl Suppressions {
    /// The comments of `text`, and a warning (its line and reason) for each
    /// unknown code, unknown directive or comment without codes.
    pub(super) fn scan(text: &str) -> (Suppressions, Vec<(usize, String)>) {
        let mut found = Suppressions::default();
        let mut warnings = Vec::new();
        let mut rest = 0;
        while let Some(open) = text[rest..].find("<!--").map(|i| rest + i + 4) {
            let Some(close) = text[open..].find("-->").map(|i| open + i) else {
                break;
            };
            rest = close + 3;
            let Some(body) = text[open..close].trim().strip_prefix(PREFIX) else {
                continue;
            };
            let line = line_column(text, open).0;
            let mut words = body
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|word| !word.is_empty());
            let target = match words.next() {
                Some("disable") => None,
                Some("disable-next-line") => Some(line_column(text, close).0 as u64 + 1),
                other => {
                    warnings.push((
                        line,
                        format!(
                            "unknown directive {:?} in a mecatl-prompt comment (it takes \
                             `disable` or `disable-next-line`); it is ignored",
                            other.unwrap_or("")
                        ),
                    ));
                    continue;
                }
            };
            let mut codes = BTreeSet::new();
            let mut named = false;
            for word in words {
                named = true;
                match Code::parse(word) {
                    Some(code) => {
                        codes.insert(code);
                    }
                    None => warnings.push((line, unknown_code(word))),
                }
            }
            if !named {
                warnings.push((
                    line,
                    "a mecatl-prompt comment that names no code suppresses nothing".to_string(),
                ));
            }
            match target {
                None => found.file.extend(codes),
                Some(next) => found.lines.entry(next).or_default().extend(codes),
            }
        }
        (found, warnings)
    }

    /// True when a comment turns `finding` off.
    pub(super) fn covers(&self, finding: &Finding) -> bool {
        self.file.contains(&finding.code)
            || finding
                .line
                .and_then(|line| self.lines.get(&line))
                .is_some_and(|codes| codes.contains(&finding.code))
    }
}
