//! The rules message's source over rule directories (SPEC §6.3, §11):
//! [`rulesfs::assemble_rules`]'s lazy assembly, plus what trust withheld,
//! as one [`RulesSource`].
//!
//! Choices the spec leaves open:
//! - Withheld locations are listed, never read, to name the rules trust
//!   kept out: each name once, at its first withheld file, as `rules list`
//!   shows them. Files that would be skipped anyway (a FIFO, a bare `.md`,
//!   a name that is not UTF-8) are not counted as withheld.
//! - Every file opened is named by an info diagnostic, `read (ORIGIN)`.

use std::collections::BTreeMap;

use crate::adapters::rulesfs::{RuleLocation, assemble_rules};
use crate::diagnostic::Diagnostic;
use crate::prompt::rules::{RulesError, RulesMessage, RulesSource, ShownRule};
use crate::prompt::turn0::{Delivery, LeftOut, LeftOutReason, Provenance};
use crate::workspace::{EntryKind, join};

/// The rules of a list of locations, in precedence order; withheld ones
/// are only listed.
#[derive(Debug, Clone)]
pub struct RuleDirs {
    locations: Vec<RuleLocation>,
}

impl RuleDirs {
    /// A source over `locations`, highest precedence first.
    pub fn new(locations: Vec<RuleLocation>) -> Self {
        Self { locations }
    }
}

impl RulesSource for RuleDirs {
    /// The rules message read lazily (only the bodies that can still be
    /// shown are opened), each rule withheld by trust as a left-out fact,
    /// and the diagnostics for the directories listed and the files opened.
    fn deliver(
        &self,
        max_bytes: usize,
        max_count: usize,
    ) -> Delivery<Result<RulesMessage, RulesError>> {
        let assembled = assemble_rules(&self.locations, max_bytes, max_count);
        let shown = assembled
            .shown
            .into_iter()
            .map(|found| ShownRule {
                rule: found.rule,
                source: Some(found.source),
                truncated: found.truncated,
            })
            .collect();
        let mut delivery = Delivery::of(Ok(RulesMessage {
            rendered: assembled.message,
            shown,
        }));
        delivery.diagnostics = assembled.diagnostics;
        for (source, origin) in assembled.read {
            delivery
                .diagnostics
                .push(Diagnostic::read(source, origin.as_str()));
        }
        delivery.left_out = withheld(&self.locations);
        delivery
    }
}

/// One rule file a directory listing shows: the rule's name and the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRule {
    /// The file name without `.md`.
    pub name: String,
    /// The file, as the location's reader displays it.
    pub source: String,
}

/// The rule files `loc`'s directory lists (regular files and links named
/// `NAME.md`), sorted by file name, without opening any; an unlistable
/// directory lists nothing.
pub fn listed_rules(loc: &RuleLocation) -> Vec<ListedRule> {
    let Ok(listing) = loc.reader.list(&loc.dir) else {
        return Vec::new();
    };
    listing
        .into_iter()
        .filter(|entry| !entry.lossy && matches!(entry.kind, EntryKind::File | EntryKind::Symlink))
        .filter_map(|entry| {
            let name = entry.name.strip_suffix(".md")?;
            (!name.is_empty()).then(|| ListedRule {
                name: name.to_string(),
                source: loc.reader.display(&join(&loc.dir, &entry.name)),
            })
        })
        .collect()
}

/// Every rule name the withheld locations hold, at its first withheld
/// file, sorted by name.
fn withheld(locations: &[RuleLocation]) -> Vec<LeftOut> {
    let mut first: BTreeMap<String, String> = BTreeMap::new();
    for loc in locations.iter().filter(|loc| loc.withheld) {
        for listed in listed_rules(loc) {
            first.entry(listed.name).or_insert(listed.source);
        }
    }
    first
        .into_iter()
        .map(|(name, source)| LeftOut {
            provenance: Provenance::Rules,
            name: Some(name),
            source: Some(source),
            reason: LeftOutReason::Withheld,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::adapters::rulesfs::project_locations;
    use crate::workspace::{MemNode, MemWorkspace, Workspace};

    fn workspace() -> Arc<dyn Workspace> {
        Arc::new(
            MemWorkspace::new()
                .file(".mecatl/rules/b.md", "B.")
                .file(".claude/rules/a.md", "A.")
                .file(".claude/rules/b.md", "Shadowed B.")
                .file(".claude/rules/notes.txt", "x")
                .file(".claude/rules/.md", "bare")
                .node(".claude/rules/pipe.md", MemNode::Special("FIFO"))
                .file(".claude/rules/sub/c.md", "nested"),
        )
    }

    #[test]
    fn withheld_rules_are_named_once_and_never_read() {
        let dirs = RuleDirs::new(project_locations(workspace(), true));
        let delivery = dirs.deliver(0, 0);
        let message = delivery.product.unwrap();
        assert_eq!(message, RulesMessage::default());
        let facts: Vec<(Option<&str>, Option<&str>)> = delivery
            .left_out
            .iter()
            .map(|f| (f.name.as_deref(), f.source.as_deref()))
            .collect();
        assert_eq!(
            facts,
            [
                (Some("a"), Some(".claude/rules/a.md")),
                (Some("b"), Some(".mecatl/rules/b.md"))
            ]
        );
        assert!(
            delivery
                .left_out
                .iter()
                .all(|f| f.reason == LeftOutReason::Withheld && f.provenance == Provenance::Rules)
        );
        assert!(
            delivery.diagnostics.is_empty(),
            "{:?}",
            delivery.diagnostics
        );
    }

    #[test]
    fn active_rules_are_shown_with_their_files_and_named_as_read() {
        let dirs = RuleDirs::new(project_locations(workspace(), false));
        let delivery = dirs.deliver(0, 1);
        let message = delivery.product.unwrap();
        let shown: Vec<(&str, Option<&str>)> = message
            .shown
            .iter()
            .map(|s| (s.rule.name.as_str(), s.source.as_deref()))
            .collect();
        assert_eq!(shown, [("a", Some(".claude/rules/a.md"))]);
        assert!(message.rendered.unwrap().text.contains("1 more rule(s)"));
        assert!(delivery.left_out.is_empty());
        assert!(
            delivery
                .diagnostics
                .contains(&Diagnostic::info(".claude/rules/a.md", "read (project)"))
        );
        assert!(
            !delivery
                .diagnostics
                .iter()
                .any(|d| d.path.as_deref() == Some(".mecatl/rules/b.md"))
        );
        let all = dirs.list_rules().unwrap();
        assert_eq!(
            all.iter().map(|r| r.body.as_str()).collect::<Vec<_>>(),
            ["A.", "B."]
        );
    }

    #[test]
    fn a_listing_shows_rule_files_only() {
        let loc = &project_locations(workspace(), false)[1];
        let names: Vec<String> = listed_rules(loc).into_iter().map(|l| l.name).collect();
        assert_eq!(names, ["a", "b"]);
    }
}
