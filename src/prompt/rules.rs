//! Rules (SPEC §6.3, §7): the [`Rule`] value, the [`RulesSource`] port, the
//! body cap, and the turn-0 rules message with its [`RulesAssembler`].
//!
//! The message is rendered by a [`RulesMessageBuilder`] that takes rules one
//! at a time and refuses the first one that would pass a cap, so a caller
//! that reads rule files lazily can stop reading as soon as nothing more can
//! be shown (SPEC §11).

use std::sync::Arc;

pub mod discovery;
pub mod files;
pub mod frontmatter;
pub mod lazy;

mod rule;

#[cfg(test)]
mod dir_tests;

pub use rule::{Rule, RuleOrigin, ShownRule};

use crate::limits;
use crate::prompt::text::floor_char_boundary;
use crate::prompt::turn0::{
    AssembledMessage, Delivery, InstructionAssembler, InstructionManifest, Message, Provenance,
    ReadFault, Turn0Report,
};
use crate::workspace::Workspace;

/// Why a rules source could not list its rules (a genuine fault, not "no
/// rules").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rules unavailable: {message}")]
pub struct RulesError {
    /// What went wrong.
    pub message: String,
}

impl RulesError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

/// What a rules source delivers (SPEC §6.3): the rules message under the
/// caps and the rules it shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RulesMessage {
    /// The message; `None` when no rule exists.
    pub rendered: Option<RenderedRules>,
    /// The rules it shows, in order.
    pub shown: Vec<ShownRule>,
}

impl RulesMessage {
    /// The message for `rules`, in their order, under the caps (0 =
    /// default): for sources that hold their rules in memory.
    pub fn render(rules: &[Rule], max_bytes: usize, max_count: usize) -> Self {
        let rendered = render_rules_message(rules, rules.len(), max_bytes, max_count);
        let shown = rules
            .iter()
            .take(rendered.as_ref().map_or(0, |r| r.shown))
            .map(|rule| ShownRule {
                rule: rule.clone(),
                source: None,
                truncated: false,
            })
            .collect();
        Self { rendered, shown }
    }
}

/// Supplies rules (SPEC §6.3, §7.4).
///
/// The rules a source serves form a snapshot that is stable for the
/// source's life: sorted by name, without duplicate names, each body within
/// [`limits::MAX_RULE_BYTES`], origin set.
pub trait RulesSource {
    /// The rules message under the caps (0 = default), with the rules it
    /// shows, what was left out and why, and the diagnostics; an error for
    /// a genuine fault. A source that reads files opens only those that
    /// can still be shown (SPEC §11).
    fn deliver(
        &self,
        max_bytes: usize,
        max_count: usize,
    ) -> Delivery<Result<RulesMessage, RulesError>>;

    /// Every rule (the seed's method): the rules an uncapped message shows.
    fn list_rules(&self) -> Result<Vec<Rule>, RulesError> {
        let uncapped = self.deliver(usize::MAX, usize::MAX).product?;
        Ok(uncapped.shown.into_iter().map(|shown| shown.rule).collect())
    }
}

/// An in-memory [`RulesSource`] for tests and hosts that build rules
/// themselves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemRulesSource {
    rules: Vec<Rule>,
}

impl MemRulesSource {
    /// A source serving `rules` under the source contract: sorted by name,
    /// the first rule of a name kept, bodies passed through [`cap_body`].
    pub fn new(rules: impl IntoIterator<Item = Rule>) -> Self {
        let mut rules: Vec<Rule> = rules
            .into_iter()
            .map(|rule| Rule {
                body: cap_body(&rule.body).0,
                ..rule
            })
            .collect();
        rules.sort_by(|a, b| a.name.cmp(&b.name));
        rules.dedup_by(|later, earlier| later.name == earlier.name);
        Self { rules }
    }
}

impl RulesSource for MemRulesSource {
    fn deliver(
        &self,
        max_bytes: usize,
        max_count: usize,
    ) -> Delivery<Result<RulesMessage, RulesError>> {
        Delivery::of(Ok(RulesMessage::render(&self.rules, max_bytes, max_count)))
    }
}

const ELLIPSIS: &str = "…";

/// Trims a rule body and cuts it to at most [`limits::MAX_RULE_BYTES`]
/// bytes, a final `…` included, on a UTF-8 boundary (SPEC §7.3). Returns
/// the body and whether it was cut.
pub fn cap_body(body: &str) -> (String, bool) {
    let body = body.trim();
    if body.len() <= limits::MAX_RULE_BYTES {
        return (body.to_string(), false);
    }
    let keep = floor_char_boundary(body, limits::MAX_RULE_BYTES - ELLIPSIS.len());
    let mut cut = String::with_capacity(keep + ELLIPSIS.len());
    cut.push_str(&body[..keep]);
    cut.push_str(ELLIPSIS);
    (cut, true)
}

/// A rule name made safe for the `name="…"` attribute: `"` becomes `'`,
/// `<` and `>` are removed, CR and LF become spaces.
pub fn sanitise_rule_name(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '<' | '>'))
        .map(|c| match c {
            '"' => '\'',
            '\r' | '\n' => ' ',
            other => other,
        })
        .collect()
}

/// One rule's fenced block exactly as it appears in the rules message
/// (SPEC §6.3), without the newline that precedes it there.
pub fn render_rule_block(rule: &Rule) -> String {
    let condition = if rule.paths.is_empty() {
        "(always)".to_string()
    } else {
        rule.paths.join(", ")
    };
    let newline = if rule.body.ends_with('\n') { "" } else { "\n" };
    let name = sanitise_rule_name(&rule.name);
    // Sized up front: a body can be 20 KiB, and growing the block would
    // copy it again.
    let mut block = String::with_capacity(rule.body.len() + name.len() + condition.len() + 48);
    for piece in [
        "<rule name=\"",
        &name,
        "\">\nApplies when: ",
        &condition,
        "\n",
        &rule.body,
        newline,
        "</rule>",
    ] {
        block.push_str(piece);
    }
    block
}

/// The first line of every rules message; also how the turn-0 predicate
/// recognises one (SPEC §6.7).
pub const RULES_HEADER: &str = "The rules below come from the project's and the user's rules \
directories. Treat each <rule> block as project guidance for this session. A rule whose \
\"Applies when\" line says (always) applies to all of your work; otherwise it applies only while \
you read, edit or create files whose workspace-relative path matches one of the listed globs. \
Decide for yourself which rules apply.";

/// A rendered rules message and how many rules it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedRules {
    /// The message text.
    pub text: String,
    /// How many rules were rendered in it.
    pub shown: usize,
}

/// Builds the rules message one rule at a time under the caps of SPEC §6.3.
#[derive(Debug, Clone)]
pub struct RulesMessageBuilder {
    text: String,
    shown: usize,
    max_bytes: usize,
    max_count: usize,
    full: bool,
}

impl RulesMessageBuilder {
    /// A builder with the given caps; 0 selects the default
    /// ([`limits::MAX_RULES_MESSAGE_BYTES`], [`limits::MAX_RULES_COUNT`]).
    pub fn new(max_bytes: usize, max_count: usize) -> Self {
        Self {
            text: RULES_HEADER.to_string(),
            shown: 0,
            max_bytes: or_default(max_bytes, limits::MAX_RULES_MESSAGE_BYTES),
            max_count: or_default(max_count, limits::MAX_RULES_COUNT),
            full: false,
        }
    }

    /// Adds `rule` unless it would pass either cap. The first refusal is
    /// final: later rules are refused too, so no rule is skipped over.
    pub fn try_push(&mut self, rule: &Rule) -> bool {
        if self.full || self.shown >= self.max_count {
            self.full = true;
            return false;
        }
        let block = render_rule_block(rule);
        if self.text.len() + 1 + block.len() > self.max_bytes {
            self.full = true;
            return false;
        }
        self.text.push('\n');
        self.text.push_str(&block);
        self.shown += 1;
        true
    }

    /// True once a rule has been refused: nothing more will be added.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// False when no further rule can be added whatever its size (a rule
    /// was refused, or the count cap is reached): a lazy caller can stop
    /// reading.
    pub fn accepts_more(&self) -> bool {
        !self.full && self.shown < self.max_count
    }

    /// How many rules have been added.
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// The message, given how many rules were discovered in all (rules not
    /// yet read count as discovered); `None` when there were none. When
    /// fewer were shown, a footer names how many were dropped.
    pub fn finish(self, discovered: usize) -> Option<RenderedRules> {
        let discovered = discovered.max(self.shown);
        if discovered == 0 {
            return None;
        }
        let mut text = self.text;
        let dropped = discovered - self.shown;
        if dropped > 0 {
            text.push_str(&format!(
                "\n...({dropped} more rule(s) not shown; rules beyond the cap were dropped)\n"
            ));
        }
        Some(RenderedRules {
            text,
            shown: self.shown,
        })
    }
}

fn or_default(value: usize, default: usize) -> usize {
    if value == 0 { default } else { value }
}

/// Renders `rules` in order into one message under the caps (0 = default);
/// `discovered` is at least `rules.len()`. `None` when there is no rule.
pub fn render_rules_message(
    rules: &[Rule],
    discovered: usize,
    max_bytes: usize,
    max_count: usize,
) -> Option<RenderedRules> {
    let mut builder = RulesMessageBuilder::new(max_bytes, max_count);
    for rule in rules {
        if !builder.try_push(rule) {
            break;
        }
    }
    builder.finish(discovered.max(rules.len()))
}

/// The turn-0 assembler for rules (SPEC §6.3): one message holding every
/// rule its source delivers, within the caps, with the rules it shows.
/// Fails soft: no source, a source error or no rules yield no message and
/// no error.
#[derive(Clone, Default)]
pub struct RulesAssembler {
    /// The rules source; `None` disables rules.
    pub src: Option<Arc<dyn RulesSource + Send + Sync>>,
    /// Byte cap of the message, header included; 0 = default.
    pub max_bytes: usize,
    /// Most rules shown; 0 = default.
    pub max_count: usize,
}

impl InstructionAssembler for RulesAssembler {
    fn collect(&self, _ws: &dyn Workspace, report: &mut Turn0Report) -> Result<(), ReadFault> {
        let Some(src) = &self.src else {
            return Ok(());
        };
        let (delivered, _) = report.absorb(src.deliver(self.max_bytes, self.max_count));
        if let Ok(RulesMessage {
            rendered: Some(rendered),
            shown,
        }) = delivered
        {
            let message = Message::user(rendered.text);
            let mut assembled = AssembledMessage::new(Provenance::Rules, message, None);
            assembled.rules = shown;
            report.messages.push(assembled);
        }
        Ok(())
    }

    fn manifest(&self) -> InstructionManifest {
        Provenance::Rules.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::MemWorkspace;
    use proptest::prelude::*;

    fn rule(name: &str, paths: &[&str], body: &str) -> Rule {
        Rule {
            name: name.to_string(),
            body: body.to_string(),
            paths: paths.iter().map(|p| p.to_string()).collect(),
            origin: RuleOrigin::Project,
        }
    }

    fn footer(n: usize) -> String {
        format!("\n...({n} more rule(s) not shown; rules beyond the cap were dropped)\n")
    }

    #[test]
    fn origin_labels() {
        assert_eq!(RuleOrigin::Project.as_str(), "project");
        assert_eq!(RuleOrigin::User.as_str(), "user");
        assert_eq!(RuleOrigin::Driver.as_str(), "driver");
        assert_eq!(
            serde_json::to_string(&[RuleOrigin::Project, RuleOrigin::User, RuleOrigin::Driver])
                .unwrap(),
            r#"["project","user","driver"]"#
        );
    }

    #[test]
    fn cap_body_trims_and_keeps_bodies_up_to_the_cap() {
        assert_eq!(cap_body("  \n hi \n\n"), ("hi".to_string(), false));
        for len in [limits::MAX_RULE_BYTES - 1, limits::MAX_RULE_BYTES] {
            let body = "a".repeat(len);
            assert_eq!(cap_body(&format!("\n{body}\n")), (body, false));
        }
    }

    #[test]
    fn cap_body_cuts_one_over_with_ellipsis() {
        let (capped, cut) = cap_body(&"a".repeat(limits::MAX_RULE_BYTES + 1));
        assert!(cut);
        assert_eq!(capped.len(), limits::MAX_RULE_BYTES);
        assert_eq!(
            capped,
            format!("{}…", "a".repeat(limits::MAX_RULE_BYTES - 3))
        );
    }

    #[test]
    fn cap_body_cuts_on_a_char_boundary() {
        // "é" (2 bytes) straddles the cut point at MAX - 3.
        let body = format!(
            "{}é{}",
            "a".repeat(limits::MAX_RULE_BYTES - 4),
            "b".repeat(10)
        );
        let (capped, cut) = cap_body(&body);
        assert!(cut);
        assert_eq!(
            capped,
            format!("{}…", "a".repeat(limits::MAX_RULE_BYTES - 4))
        );
        assert_eq!(capped.len(), limits::MAX_RULE_BYTES - 1);
        // Ending exactly at the cut point keeps the whole character.
        let body = format!(
            "{}é{}",
            "a".repeat(limits::MAX_RULE_BYTES - 5),
            "b".repeat(10)
        );
        let (capped, _) = cap_body(&body);
        assert_eq!(
            capped,
            format!("{}é…", "a".repeat(limits::MAX_RULE_BYTES - 5))
        );
        assert_eq!(capped.len(), limits::MAX_RULE_BYTES);
    }

    #[test]
    fn hostile_names_are_sanitised() {
        assert_eq!(sanitise_rule_name("a\"b<c>"), "a'bc");
        assert_eq!(sanitise_rule_name("x\r\ny\nz\r"), "x  y z ");
        let block = render_rule_block(&rule("a\"b<c>\r\nd", &[], "body"));
        assert_eq!(
            block,
            "<rule name=\"a'bc  d\">\nApplies when: (always)\nbody\n</rule>"
        );
    }

    #[test]
    fn block_format() {
        assert_eq!(
            render_rule_block(&rule("go-style", &["**/*.go", "go.mod"], "Run gofmt.")),
            "<rule name=\"go-style\">\nApplies when: **/*.go, go.mod\nRun gofmt.\n</rule>"
        );
        assert_eq!(
            render_rule_block(&rule("n", &[], "ends\n")),
            "<rule name=\"n\">\nApplies when: (always)\nends\n</rule>"
        );
        assert_eq!(
            render_rule_block(&rule("e", &[], "")),
            "<rule name=\"e\">\nApplies when: (always)\n\n</rule>"
        );
    }

    #[test]
    fn message_layout() {
        let rules = [rule("a", &[], "A."), rule("b", &["*.md"], "B.")];
        let got = render_rules_message(&rules, 2, 0, 0).unwrap();
        assert_eq!(got.shown, 2);
        assert_eq!(
            got.text,
            format!(
                "{RULES_HEADER}\n<rule name=\"a\">\nApplies when: (always)\nA.\n</rule>\n\
                 <rule name=\"b\">\nApplies when: *.md\nB.\n</rule>"
            )
        );
        assert!(!got.text.ends_with('\n'));
    }

    #[test]
    fn no_rules_no_message() {
        assert_eq!(render_rules_message(&[], 0, 0, 0), None);
    }

    fn numbered(n: usize) -> Vec<Rule> {
        (0..n)
            .map(|i| rule(&format!("r{i:02}"), &[], "x"))
            .collect()
    }

    #[test]
    fn count_cap_at_31_32_33() {
        let cap = limits::MAX_RULES_COUNT;
        for n in [cap - 1, cap] {
            let got = render_rules_message(&numbered(n), n, 0, 0).unwrap();
            assert_eq!(got.shown, n);
            assert!(got.text.ends_with("</rule>"));
            assert_eq!(got.text.matches("</rule>").count(), n);
        }
        let got = render_rules_message(&numbered(cap + 1), cap + 1, 0, 0).unwrap();
        assert_eq!(got.shown, cap);
        assert!(got.text.ends_with(&footer(1)));
        // An explicit count cap overrides the default.
        let got = render_rules_message(&numbered(5), 5, 0, 2).unwrap();
        assert_eq!(got.shown, 2);
        assert!(got.text.ends_with(&footer(3)));
    }

    #[test]
    fn byte_cap_at_under_and_over() {
        let rules = numbered(3);
        let one = 1 + render_rule_block(&rules[0]).len();
        let two_rules = RULES_HEADER.len() + 2 * one;
        let exact = render_rules_message(&rules, 3, two_rules, 0).unwrap();
        assert_eq!(exact.shown, 2);
        assert_eq!(exact.text.len(), two_rules + footer(1).len());
        assert!(exact.text.ends_with(&footer(1)));
        let under = render_rules_message(&rules, 3, two_rules - 1, 0).unwrap();
        assert_eq!(under.shown, 1);
        assert!(under.text.ends_with(&footer(2)));
        let over = render_rules_message(&rules, 3, two_rules + 1, 0).unwrap();
        assert_eq!(over.shown, 2);
        let all = render_rules_message(&rules, 3, RULES_HEADER.len() + 3 * one, 0).unwrap();
        assert_eq!(all.shown, 3);
        assert!(all.text.ends_with("</rule>"));
    }

    #[test]
    fn default_byte_cap_counts_the_header() {
        let body = "b".repeat(limits::MAX_RULE_BYTES);
        let rules = vec![rule("a", &[], &body), rule("b", &[], &body)];
        // Two full-size rules plus the header exceed 40,960 bytes.
        let got = render_rules_message(&rules, 2, 0, 0).unwrap();
        assert_eq!(got.shown, 1);
        assert!(got.text.len() - footer(1).len() <= limits::MAX_RULES_MESSAGE_BYTES);
    }

    #[test]
    fn stops_at_first_rule_that_does_not_fit() {
        let rules = vec![
            rule("a", &[], "x"),
            rule("b", &[], &"y".repeat(500)),
            rule("c", &[], "z"),
        ];
        let max = RULES_HEADER.len() + 200;
        let got = render_rules_message(&rules, 3, max, 0).unwrap();
        assert_eq!(got.shown, 1);
        assert!(!got.text.contains("name=\"c\""));
        assert!(got.text.ends_with(&footer(2)));
    }

    #[test]
    fn message_even_when_nothing_fits() {
        let got = render_rules_message(&numbered(2), 2, 1, 0).unwrap();
        assert_eq!(got.shown, 0);
        assert_eq!(got.text, format!("{RULES_HEADER}{}", footer(2)));
    }

    #[test]
    fn unread_rules_count_as_discovered() {
        let mut builder = RulesMessageBuilder::new(0, 1);
        assert!(builder.accepts_more());
        assert!(builder.try_push(&rule("a", &[], "x")));
        assert!(!builder.accepts_more());
        assert!(!builder.try_push(&rule("b", &[], "x")));
        assert!(builder.is_full());
        assert!(!builder.try_push(&rule("c", &[], "x")));
        let got = builder.finish(10).unwrap();
        assert!(got.text.ends_with(&footer(9)));
    }

    struct Failing;
    impl RulesSource for Failing {
        fn deliver(&self, _: usize, _: usize) -> Delivery<Result<RulesMessage, RulesError>> {
            Delivery::of(Err(RulesError::new("backend down")))
        }
    }

    #[test]
    fn assembler_fails_soft_and_declares_provenance() {
        let ws = MemWorkspace::new();
        let none = RulesAssembler::default();
        assert!(none.assemble(&ws).unwrap().is_empty());
        let failing = RulesAssembler {
            src: Some(Arc::new(Failing)),
            ..RulesAssembler::default()
        };
        assert!(failing.assemble(&ws).unwrap().is_empty());
        let empty = RulesAssembler {
            src: Some(Arc::new(MemRulesSource::default())),
            ..RulesAssembler::default()
        };
        assert!(empty.assemble(&ws).unwrap().is_empty());
        assert_eq!(empty.manifest(), Provenance::Rules.into());
        assert!(Failing.list_rules().is_err());
    }

    #[test]
    fn assembler_renders_source_order_with_caps() {
        let src = MemRulesSource::new(numbered(4));
        let assembler = RulesAssembler {
            src: Some(Arc::new(src)),
            max_bytes: 0,
            max_count: 3,
        };
        let report = assembler.report(&MemWorkspace::new()).unwrap();
        assert_eq!(report.messages.len(), 1);
        let text = &report.messages[0].message.text;
        assert!(text.starts_with(RULES_HEADER));
        assert!(text.find("r00").unwrap() < text.find("r02").unwrap());
        assert!(text.ends_with(&footer(1)));
        let shown: Vec<&str> = report.messages[0]
            .rules
            .iter()
            .map(|shown| shown.rule.name.as_str())
            .collect();
        assert_eq!(shown, ["r00", "r01", "r02"]);
    }

    #[test]
    fn mem_source_sorts_dedups_and_caps() {
        let src = MemRulesSource::new(vec![
            rule("b", &[], "first b"),
            rule("a", &[], &"a".repeat(limits::MAX_RULE_BYTES + 10)),
            rule("b", &[], "second b"),
        ]);
        let rules = src.list_rules().unwrap();
        assert_eq!(
            rules.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
            vec!["a", "b"]
        );
        assert_eq!(rules[1].body, "first b");
        assert_eq!(rules[0].body.len(), limits::MAX_RULE_BYTES);
    }

    fn arb_rule() -> impl Strategy<Value = Rule> {
        (
            "[a-z<>\"\r\n]{1,8}",
            proptest::collection::vec("[a-z*/.]{1,10}", 0..3),
            "(?s).{0,300}",
        )
            .prop_map(|(name, paths, body)| Rule {
                name,
                body,
                paths,
                origin: RuleOrigin::User,
            })
    }

    proptest! {
        #[test]
        fn renderer_respects_caps(
            rules in proptest::collection::vec(arb_rule(), 0..20),
            max_bytes in 0usize..3000,
            max_count in 0usize..10,
        ) {
            let Some(got) = render_rules_message(&rules, rules.len(), max_bytes, max_count) else {
                prop_assert!(rules.is_empty());
                return Ok(());
            };
            let bytes_cap = or_default(max_bytes, limits::MAX_RULES_MESSAGE_BYTES);
            let count_cap = or_default(max_count, limits::MAX_RULES_COUNT);
            prop_assert!(got.shown <= count_cap);
            prop_assert!(got.shown <= rules.len());
            let dropped = rules.len() - got.shown;
            let body_len = if dropped > 0 {
                let f = footer(dropped);
                prop_assert!(got.text.ends_with(&f));
                got.text.len() - f.len()
            } else {
                got.text.len()
            };
            prop_assert!(got.shown == 0 || body_len <= bytes_cap);
            let shown: usize = rules[..got.shown]
                .iter()
                .map(|r| r.body.matches("</rule>").count() + 1)
                .sum();
            prop_assert!(got.text.matches("</rule>").count() <= shown);
            let opening = got.text.matches("\n<rule name=").count();
            let in_bodies: usize = rules[..got.shown]
                .iter()
                .map(|r| r.body.matches("\n<rule name=").count())
                .sum();
            prop_assert_eq!(opening, got.shown + in_bodies);
        }
    }
}
