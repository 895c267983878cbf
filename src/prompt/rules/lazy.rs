//! The rules message read as little as possible (SPEC §6.3, §11): names
//! resolved in order from the directory listings, bodies read only while
//! the message can still take a rule, and a typed account of every rule it
//! leaves out.

use crate::diagnostic::Diagnostic;
use crate::prompt::rules::discovery::DiscoveredRule;
use crate::prompt::rules::files::RuleFiles;
use crate::prompt::rules::{
    RenderedRules, RulesError, RulesMessage, RulesMessageBuilder, RulesSource, ShownRule,
};
use crate::prompt::tiers::{Fate, InOrder, Listed, Losers, ReadPolicy, SearchDir, Tier};
use crate::prompt::turn0::{Delivery, LeftOut, LeftOutReason, Provenance, Rejection};

/// What [`assemble_rules`] produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AssembledRules {
    /// The rules message, `None` when no rule exists.
    pub message: Option<RenderedRules>,
    /// The rules shown in the message, in order.
    pub shown: Vec<DiscoveredRule>,
    /// Every rule the message does not hold, sorted by name: the names of
    /// withheld directories ([`LeftOutReason::Withheld`]), names every file
    /// of which was dropped ([`Rejection::Rule`], the first file's fate),
    /// names past the caps ([`LeftOutReason::DroppedAtCap`]).
    pub left_out: Vec<LeftOut>,
    /// Diagnostics for the directories listed and the files opened.
    pub diagnostics: Vec<Diagnostic>,
    /// Every file opened, with its tier, in the order read.
    pub read: Vec<(String, Tier)>,
}

/// Builds the rules message reading as little as possible (SPEC §11): the
/// active directories are listed, names resolved by precedence from the
/// listings, and bodies read in name order only while the message can
/// still take a rule. Files never opened count as discovered in the
/// footer. Caps of 0 select the defaults. Withheld directories are only
/// listed, for [`AssembledRules::left_out`].
///
/// For the same files this renders exactly what
/// [`crate::prompt::rules::discovery::discover`] and the
/// [`crate::prompt::rules::RulesAssembler`] render, except that when the
/// caps are hit, unopened files that would have been dropped still count
/// in the footer's N.
pub fn assemble_rules(
    dirs: &[SearchDir<'_>],
    max_bytes: usize,
    max_count: usize,
) -> AssembledRules {
    let (active, withheld): (Vec<SearchDir<'_>>, Vec<SearchDir<'_>>) =
        dirs.iter().cloned().partition(|dir| !dir.withheld);
    let policy = ReadPolicy {
        contender: true,
        losers: Losers::Skip,
        withheld: false,
    };
    let mut order = InOrder::new(&active, &RuleFiles, policy);
    let discovered = order.remaining();
    let mut builder = RulesMessageBuilder::new(max_bytes, max_count);
    let mut out = AssembledRules::default();
    let mut unavailable = 0;
    while builder.accepts_more() {
        let Some(range) = order.next_name() else {
            break;
        };
        let candidates = &order.resolution.candidates[range.clone()];
        out.read.extend(
            candidates
                .iter()
                .map(|c| (c.source.clone(), active[c.dir_index].tier)),
        );
        let Some(at) = range
            .clone()
            .find(|&i| order.resolution.candidates[i].fate == Fate::Winner)
        else {
            unavailable += 1;
            let first = &order.resolution.candidates[range.start];
            let reason = order
                .resolution
                .diagnostics_of(first)
                .next()
                .map(|d| d.reason.clone());
            let rejection = Rejection::Rule {
                fate: first.fate.clone(),
                reason,
            };
            let reason = LeftOutReason::rejected(rejection);
            out.left_out
                .push(left_out(first.name.clone(), first.source.clone(), reason));
            continue;
        };
        let winner = &order.resolution.candidates[at];
        let Some(loaded) = winner.item.clone() else {
            continue;
        };
        if !builder.try_push(&loaded.rule) {
            out.left_out.push(left_out(
                winner.name.clone(),
                winner.source.clone(),
                LeftOutReason::DroppedAtCap,
            ));
            order.unreport(at);
            break;
        }
        out.shown
            .push(DiscoveredRule::new(loaded, winner.source.clone(), false));
    }
    let rest = order.take_rest();
    // The facts of the names past the caps take the listing's own memory
    // (a fact is no larger than a listed file, so the collect happens in
    // place): 10,000 of them cost no second 800 KB of fresh pages. The
    // facts found while reading come first, so the whole stays in name
    // order.
    let early = out.left_out.len();
    let mut facts: Vec<LeftOut> = rest
        .into_iter()
        .map(|(dir_index, file)| {
            let source = active[dir_index].display_owned(file.rel);
            left_out(file.name, source, LeftOutReason::DroppedAtCap)
        })
        .collect();
    facts.append(&mut out.left_out);
    facts.rotate_right(early);
    let withheld_rest = InOrder::new(&withheld, &RuleFiles, ReadPolicy::LOOK).take_rest();
    facts.extend(withheld_rest.into_iter().map(|(dir_index, file)| {
        let source = withheld[dir_index].display_owned(file.rel);
        left_out(file.name, source, LeftOutReason::Withheld)
    }));
    out.left_out = facts;
    // Already in name order unless withheld names interleave: then the
    // stable sort (and its scratch copy of every fact) is not needed.
    if !out.left_out.is_sorted_by(|a, b| a.name <= b.name) {
        out.left_out.sort_by(|a, b| a.name.cmp(&b.name));
    }
    out.message = builder.finish(discovered - unavailable);
    out.diagnostics = order.resolution.diagnostics;
    out
}

// The collect of the facts past the caps is in place only while a fact is
// no larger than what `InOrder::take_rest` hands out.
const _: () = assert!(size_of::<LeftOut>() <= size_of::<(usize, Listed)>());

/// The fact that the rule `name` (its first file `source`) was left out.
fn left_out(name: String, source: String, reason: LeftOutReason) -> LeftOut {
    LeftOut {
        provenance: Provenance::Rules,
        name: Some(name),
        source: Some(source),
        reason,
    }
}

/// The rules of search directories as a [`RulesSource`], read as little as
/// possible: [`assemble_rules`], each file it opened named by an info
/// diagnostic (`read (TIER)`).
#[derive(Clone)]
pub struct LazyRulesSource {
    dirs: Vec<SearchDir<'static>>,
}

impl LazyRulesSource {
    /// The rules of `dirs`, highest precedence first.
    pub fn new(dirs: Vec<SearchDir<'static>>) -> Self {
        Self { dirs }
    }
}

impl RulesSource for LazyRulesSource {
    fn deliver(
        &self,
        max_bytes: usize,
        max_count: usize,
    ) -> Delivery<Result<RulesMessage, RulesError>> {
        let assembled = assemble_rules(&self.dirs, max_bytes, max_count);
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
        for (source, tier) in assembled.read {
            delivery
                .diagnostics
                .push(Diagnostic::read(source, tier.as_str()));
        }
        delivery.left_out = assembled.left_out;
        delivery
    }
}
