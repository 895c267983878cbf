//! What an assembly returns (SPEC §6.1): the messages with where each came
//! from, what the sources left out and why, and the diagnostics for every
//! file looked at. `--stats`, `snapshot`, `check` and the JSON output read
//! this report; none of them looks at the files again.

use crate::diagnostic::Diagnostic;
use crate::prompt::rules::ShownRule;
use crate::prompt::turn0::{Delivery, LeftOut, Message, Provenance};

/// One turn-0 message with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssembledMessage {
    /// The source it came from.
    pub provenance: Provenance,
    /// The message.
    pub message: Message,
    /// The file or directory it was read from; `None` when it has many
    /// (the rules message) or none.
    pub source: Option<String>,
    /// The span of `message.text` that is its file's own content, when the
    /// message frames one file (the project instructions, without the
    /// engine's header line and cut marker).
    pub content: Option<std::ops::Range<usize>>,
    /// Bytes of its file a cap left out (project instructions), when cut.
    pub omitted: Option<u64>,
    /// The rules rendered into it, in order (the rules message only).
    pub rules: Vec<ShownRule>,
}

impl AssembledMessage {
    /// `message` from `provenance`, read from `source`, not cut, holding no
    /// rules.
    pub fn new(provenance: Provenance, message: Message, source: Option<String>) -> Self {
        Self {
            provenance,
            message,
            source,
            content: None,
            omitted: None,
            rules: Vec::new(),
        }
    }

    /// True when its content was cut at a cap.
    pub fn truncated(&self) -> bool {
        self.omitted.is_some()
    }
}

/// Everything an assembly produced, in the order the assemblers ran.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Turn0Report {
    /// The messages, in order.
    pub messages: Vec<AssembledMessage>,
    /// What the sources considered and did not deliver.
    pub left_out: Vec<LeftOut>,
    /// Diagnostics for every file looked at, in the order met.
    pub diagnostics: Vec<Diagnostic>,
}

impl Turn0Report {
    /// Takes in what a source delivered beside its product (what it left
    /// out, its diagnostics) and returns the product and its source.
    pub fn absorb<T>(&mut self, delivery: Delivery<T>) -> (T, Option<String>) {
        append(&mut self.left_out, delivery.left_out);
        append(&mut self.diagnostics, delivery.diagnostics);
        (delivery.product, delivery.source)
    }

    /// The message from `provenance`, if one was assembled.
    pub fn message(&self, provenance: Provenance) -> Option<&AssembledMessage> {
        self.messages.iter().find(|m| m.provenance == provenance)
    }
}

/// Appends `more` to `all`; into nothing, `more` is taken as it is, not
/// copied (ten thousand left-out rules are a megabyte).
fn append<T>(all: &mut Vec<T>, more: Vec<T>) {
    if all.is_empty() {
        *all = more;
    } else {
        all.extend(more);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::turn0::LeftOutReason;

    #[test]
    fn absorbing_a_delivery_keeps_its_facts_in_order() {
        let mut report = Turn0Report::default();
        report.diagnostics.push(Diagnostic::info("a", "first"));
        let fact = LeftOut {
            provenance: Provenance::Soul,
            name: None,
            source: Some("s".into()),
            reason: LeftOutReason::Withheld,
        };
        let delivery = Delivery {
            product: "body",
            source: Some("soul.md".to_string()),
            left_out: vec![fact.clone()],
            diagnostics: vec![Diagnostic::warning("b", "second")],
        };
        assert_eq!(report.absorb(delivery), ("body", Some("soul.md".into())));
        assert_eq!(report.left_out, [fact]);
        let reasons: Vec<&str> = report
            .diagnostics
            .iter()
            .map(|d| d.reason.as_str())
            .collect();
        assert_eq!(reasons, ["first", "second"]);
        assert_eq!(report.message(Provenance::Soul), None);
        report.messages.push(AssembledMessage::new(
            Provenance::Soul,
            Message::user("x"),
            None,
        ));
        assert_eq!(report.message(Provenance::Soul).unwrap().message.text, "x");
    }
}
