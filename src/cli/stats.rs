//! Accounting and budgets (SPEC §2.10): `--stats` and the
//! `--max-*-bytes` flags of `build` and `assemble`.
//!
//! Every entry has a size in bytes, a token count and a status. Tokens are
//! counted by the tokenizer of the run's profile
//! ([`crate::prompt::tokens`]): exact `o200k_base` for Codex, otherwise the
//! estimate (bytes ÷ 4, rounded up); the stats name it (`tokenizer`, and
//! for the estimate `estimator`), and the table's last line says which.
//!
//! Choices where the spec is open:
//! - A total's tokens are counted on the text as sent, never added up from
//!   the entries: the joined prefix or suffix, and turn-0's messages each on
//!   its own ([`Tokenizer::count_each`]). Exact counts of the parts need not
//!   add up to the whole (a section's last newline and the separator after
//!   it are one token), and estimates are rounded per part.
//! - Separators count as their bytes together (`\n\n` repeated).
//! - Tokens are only counted when `--stats` shows them: the budgets need
//!   bytes alone, so a run without `--stats` never loads an exact
//!   tokenizer.
//! - `build` takes the prefix and suffix budgets, `assemble` the turn-0
//!   budget: each command checks what it prints.
//! - Prefix and suffix sections are joined by a blank line; those bytes are
//!   reported as `separators`, so that entries plus separators add up to
//!   the real `prefix_bytes`. With `--builder-cmd` the sections are the
//!   external builder's business: each side is one `builder` entry.
//! - Turn-0 entries are the messages; their sum is the turn-0 total. The
//!   rules inside the rules message are listed separately (`rules`), each
//!   with the size of its rendered `<rule>` block, and are not added again.
//! - An entry that contributes nothing (a withheld rule, a rule dropped at
//!   the cap, a rejected soul) has null bytes and tokens (`-` in text):
//!   `assemble` never opens withheld or capped files, so their size is
//!   unknown, and none of them costs the model anything.
//! - Every row comes from the turn-0 report's typed facts, never from the
//!   files again: a source that delivered no message shows what it left
//!   out in its place (a refused soul: `rejected (REASON)`, `rejected
//!   (cannot be read: …)`, `rejected (not found)`); withholding is the
//!   trust notice's to report, except per rule, where every rule left out
//!   has its row.
//! - A total's status is `ok`, or `over --max-…-bytes N` when its budget
//!   is exceeded.

mod profile;

use std::io::Write;

use clap::Args;
use serde::Serialize;

use crate::cli::context::{Context, Format};
use crate::cli::error::Status;
use crate::cli::output;
use crate::cli::turn0::Turn0Args;
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::build::{Config, Layered, Section, prefix_sections, suffix_sections};
use crate::prompt::rules::render_rule_block;
use crate::prompt::tokens::{ESTIMATE_RULE, Tokenizer};
use crate::prompt::turn0::{LeftOut, LeftOutReason, Provenance, Turn0Report};

pub use profile::for_profile;

/// The bytes that join two sections of the prefix or suffix.
const SECTION_SEPARATOR: &str = "\n\n";

/// `--stats`, shared by `build` and `assemble`.
#[derive(Debug, Clone, Args)]
pub struct StatsArg {
    /// Print the size of every part after the output: bytes, tokens (exact o200k_base counts for the codex profile, otherwise estimated as bytes ÷ 4, rounded up) and status; a table on stderr, or a `stats` object in JSON
    #[arg(long)]
    pub stats: bool,
}

/// `--stats` and the budgets of `build`.
#[derive(Debug, Clone, Args)]
pub struct BuildAccountingArgs {
    /// `--stats`.
    #[command(flatten)]
    pub stats: StatsArg,
    /// Exit 1 when the stable prefix is larger than N bytes (the output is still printed)
    #[arg(long, value_name = "N")]
    pub max_prefix_bytes: Option<usize>,
    /// Exit 1 when the volatile suffix is larger than N bytes (the output is still printed)
    #[arg(long, value_name = "N")]
    pub max_suffix_bytes: Option<usize>,
}

/// `--stats` and the budget of `assemble`.
#[derive(Debug, Clone, Args)]
pub struct Turn0AccountingArgs {
    /// `--stats`.
    #[command(flatten)]
    pub stats: StatsArg,
    /// Exit 1 when the turn-0 messages together are larger than N bytes (the output is still printed)
    #[arg(long = "max-turn0-bytes", value_name = "N")]
    pub max_turn0_bytes: Option<usize>,
}

/// One accounted part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct StatEntry {
    /// The section name, message provenance or rule name.
    pub name: String,
    /// The file (or directory) it came from, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Its size; null when it contributes nothing (see the module doc).
    pub bytes: Option<usize>,
    /// Tokens, counted by the stats' tokenizer; null exactly when `bytes`
    /// is.
    pub tokens: Option<usize>,
    /// `ok`, `truncated`, `withheld`, `rejected (REASON)` or `dropped (cap)`.
    pub status: String,
}

impl StatEntry {
    fn sized(
        name: &str,
        source: Option<String>,
        text: &str,
        status: &str,
        tokenizer: Tokenizer,
    ) -> Self {
        Self {
            name: name.to_string(),
            source,
            bytes: Some(text.len()),
            tokens: Some(tokenizer.count(text)),
            status: status.to_string(),
        }
    }

    fn left_out(name: &str, source: Option<String>, status: String) -> Self {
        Self {
            name: name.to_string(),
            source,
            bytes: None,
            tokens: None,
            status,
        }
    }
}

/// A size with its tokens and status: separators and totals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Amount {
    /// Bytes.
    pub bytes: usize,
    /// Tokens, counted by the stats' tokenizer.
    pub tokens: usize,
    /// `ok`, or for a total `over --max-…-bytes N`.
    pub status: String,
}

impl Amount {
    fn ok(bytes: usize, tokens: usize) -> Self {
        Self {
            bytes,
            tokens,
            status: "ok".to_string(),
        }
    }

    fn of(text: &str, tokenizer: Tokenizer) -> Self {
        Self::ok(text.len(), tokenizer.count(text))
    }
}

/// The accounting of one part of the output: the prefix, the suffix or the
/// turn-0 messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Group {
    /// The sections or messages, in output order.
    pub entries: Vec<StatEntry>,
    /// The blank lines joining the sections (prefix and suffix only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separators: Option<Amount>,
    /// Every rule the rules message holds or left out (turn-0 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<StatEntry>>,
    /// Where the text table puts the rows of `rules` among `entries`: after
    /// the rules message, else after the project instructions, else first.
    #[serde(skip)]
    pub rules_at: usize,
    /// The whole part: entries plus separators.
    pub total: Amount,
}

impl Group {
    /// A group of `entries` with no rules, its separators and total.
    pub fn new(entries: Vec<StatEntry>, separators: Option<Amount>, total: Amount) -> Self {
        Self {
            entries,
            separators,
            rules: None,
            rules_at: 0,
            total,
        }
    }
}

/// The `stats` object of the JSON output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Stats {
    /// Which tokenizer counted the tokens: `o200k_base` or `estimate`.
    pub tokenizer: Tokenizer,
    /// How tokens were estimated; absent when they were counted exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimator: Option<&'static str>,
    /// The stable prefix (`build`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<Group>,
    /// The volatile suffix (`build`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suffix: Option<Group>,
    /// The turn-0 messages (`assemble`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn0: Option<Group>,
}

/// The accounting of one run: the stats, whether they were asked for, and
/// one fatal diagnostic per budget exceeded.
#[derive(Debug, Clone)]
pub struct Accounting {
    stats: Stats,
    shown: bool,
    over_budget: Vec<Diagnostic>,
}

impl Accounting {
    /// The stats for the JSON document, when `--stats` was given.
    pub fn json_stats(&self) -> Option<&Stats> {
        self.shown.then_some(&self.stats)
    }

    /// `earlier` followed by the budget diagnostics, for the JSON document.
    pub fn diagnostics_after(&self, earlier: &[Diagnostic]) -> Vec<Diagnostic> {
        let mut all = earlier.to_vec();
        all.extend(self.over_budget.iter().cloned());
        all
    }

    /// Prints, after the normal output, the stats table on stderr (unless
    /// the output is JSON, which carries them) and the budget diagnostics;
    /// returns the run's status.
    pub fn finish(&self, ctx: &Context) -> Status {
        if self.shown && ctx.format != Format::Json {
            let table = text_table(&self.stats);
            let _ = std::io::stderr().lock().write_all(table.as_bytes());
        }
        output::print_diagnostics(ctx, &self.over_budget);
        if self.over_budget.is_empty() {
            Status::Success
        } else {
            Status::CheckFailed
        }
    }
}

impl Stats {
    fn new(tokenizer: Tokenizer) -> Self {
        Self {
            tokenizer,
            estimator: (!tokenizer.is_exact()).then_some(ESTIMATE_RULE),
            prefix: None,
            suffix: None,
            turn0: None,
        }
    }
}

/// The tokenizer that counts: the profile's when `--stats` shows the
/// counts; otherwise nothing is shown and the budgets need bytes alone, so
/// the estimate stands in and no exact tokenizer is loaded.
fn counting(tokenizer: Tokenizer, args: &StatsArg) -> Tokenizer {
    if args.stats {
        tokenizer
    } else {
        Tokenizer::Estimate
    }
}

/// Accounts a build: the prefix and suffix sections (one `builder` entry
/// per side with `--builder-cmd`), checked against their budgets; tokens
/// are counted with `tokenizer`.
pub fn for_build(
    config: &Config,
    layered: &Layered,
    external_builder: bool,
    args: &BuildAccountingArgs,
    tokenizer: Tokenizer,
) -> Accounting {
    let tokenizer = counting(tokenizer, &args.stats);
    let (mut prefix, mut suffix) = if external_builder {
        (
            builder_group(&layered.stable_prefix, tokenizer),
            builder_group(&layered.volatile_suffix, tokenizer),
        )
    } else {
        (
            section_group(&prefix_sections(config), tokenizer),
            section_group(&suffix_sections(config), tokenizer),
        )
    };
    let over_budget = [
        check_budget(
            &mut prefix,
            "prefix",
            "--max-prefix-bytes",
            args.max_prefix_bytes,
        ),
        check_budget(
            &mut suffix,
            "suffix",
            "--max-suffix-bytes",
            args.max_suffix_bytes,
        ),
    ];
    Accounting {
        stats: Stats {
            prefix: Some(prefix),
            suffix: Some(suffix),
            ..Stats::new(tokenizer)
        },
        shown: args.stats.stats,
        over_budget: over_budget.into_iter().flatten().collect(),
    }
}

/// Accounts the turn-0 messages: one entry per message, what a source
/// that delivered no message left out (a refused soul), and every rule of
/// the rules message or left out of it; tokens are counted with
/// `tokenizer`.
pub fn for_turn0(
    report: &Turn0Report,
    content: &Turn0Args,
    args: &Turn0AccountingArgs,
    tokenizer: Tokenizer,
) -> Accounting {
    let tokenizer = counting(tokenizer, &args.stats);
    let (entries, rules_at) = turn0_entries(report, tokenizer);
    let texts = report.messages.iter().map(|m| m.message.text.as_str());
    let total = Amount::ok(
        texts.clone().map(str::len).sum(),
        tokenizer.count_each(texts),
    );
    let group = Group {
        entries,
        separators: None,
        rules: (args.stats.stats && !content.no_rules).then(|| rule_entries(report, tokenizer)),
        rules_at,
        total,
    };
    turn0_accounting(group, args, tokenizer)
}

/// The accounting of a turn-0 group whose tokens `tokenizer` counted,
/// checked against `--max-turn0-bytes`.
fn turn0_accounting(
    mut group: Group,
    args: &Turn0AccountingArgs,
    tokenizer: Tokenizer,
) -> Accounting {
    let over_budget = check_budget(
        &mut group,
        "turn-0",
        "--max-turn0-bytes",
        args.max_turn0_bytes,
    );
    Accounting {
        stats: Stats {
            turn0: Some(group),
            ..Stats::new(tokenizer)
        },
        shown: args.stats.stats,
        over_budget: over_budget.into_iter().collect(),
    }
}

/// One entry per message, in order, and in its source's place, why a
/// source that delivered no message left something out (a refused soul).
/// Withholding is the trust notice's to report, and a source that
/// delivered a message has nothing missing to show. Also where the rules'
/// rows go (see [`Group::rules_at`]).
fn turn0_entries(report: &Turn0Report, tokenizer: Tokenizer) -> (Vec<StatEntry>, usize) {
    let mut entries: Vec<(Provenance, StatEntry)> = report
        .messages
        .iter()
        .map(|message| {
            let status = if message.truncated() {
                "truncated"
            } else {
                "ok"
            };
            let name = message.provenance.as_str();
            let text = &message.message.text;
            let entry = StatEntry::sized(name, message.source.clone(), text, status, tokenizer);
            (message.provenance, entry)
        })
        .collect();
    let refused = report.left_out.iter().filter(|fact| {
        fact.name.is_none()
            && fact.reason != LeftOutReason::Withheld
            && report.message(fact.provenance).is_none()
    });
    for fact in refused {
        let at = entries
            .iter()
            .position(|(provenance, _)| *provenance > fact.provenance)
            .unwrap_or(entries.len());
        let entry = left_out_entry(fact.provenance.as_str(), fact);
        entries.insert(at, (fact.provenance, entry));
    }
    let after = |wanted: Provenance| {
        entries
            .iter()
            .position(|(provenance, _)| *provenance == wanted)
            .map(|i| i + 1)
    };
    let rules_at = after(Provenance::Rules)
        .or_else(|| after(Provenance::Project))
        .unwrap_or(0);
    let entries = entries.into_iter().map(|(_, entry)| entry).collect();
    (entries, rules_at)
}

/// The status of something left out: `withheld`, `dropped (cap)` or
/// `rejected (REASON)` (SPEC §2.10).
fn left_out_status(reason: &LeftOutReason) -> String {
    match reason {
        LeftOutReason::Withheld => "withheld".to_string(),
        LeftOutReason::DroppedAtCap => "dropped (cap)".to_string(),
        LeftOutReason::Rejected(rejection) => format!("rejected ({rejection})"),
        LeftOutReason::Unreadable { cause } => format!("rejected (cannot be read: {cause})"),
        LeftOutReason::NotFound => "rejected (not found)".to_string(),
    }
}

/// The entry of something left out, named `name`.
fn left_out_entry(name: &str, fact: &LeftOut) -> StatEntry {
    StatEntry::left_out(name, fact.source.clone(), left_out_status(&fact.reason))
}

/// The entries of sections joined by [`SECTION_SEPARATOR`], with the
/// separators counted so the total is the joined text.
fn section_group(sections: &[Section], tokenizer: Tokenizer) -> Group {
    let entries: Vec<StatEntry> = sections
        .iter()
        .map(|s| StatEntry::sized(s.name, None, &s.text, "ok", tokenizer))
        .collect();
    let separators = SECTION_SEPARATOR.repeat(sections.len().saturating_sub(1));
    let texts: Vec<&str> = sections.iter().map(|s| s.text.as_str()).collect();
    Group::new(
        entries,
        Some(Amount::of(&separators, tokenizer)),
        Amount::of(&texts.join(SECTION_SEPARATOR), tokenizer),
    )
}

/// One side of an external builder's output, as a single entry.
fn builder_group(text: &str, tokenizer: Tokenizer) -> Group {
    let entries = if text.is_empty() {
        Vec::new()
    } else {
        vec![StatEntry::sized("builder", None, text, "ok", tokenizer)]
    };
    Group::new(
        entries,
        Some(Amount::of("", tokenizer)),
        Amount::of(text, tokenizer),
    )
}

/// Checks `group` against the budget `flag` set to `max` (none when the
/// flag is absent): when exceeded, marks the total and returns the
/// diagnostic naming the three largest contributors.
fn check_budget(
    group: &mut Group,
    what: &str,
    flag: &str,
    max: Option<usize>,
) -> Option<Diagnostic> {
    let max = max?;
    let bytes = group.total.bytes;
    if bytes <= max {
        return None;
    }
    group.total.status = format!("over {flag} {max}");
    let mut sized: Vec<(&StatEntry, usize)> = group
        .entries
        .iter()
        .filter_map(|e| Some((e, e.bytes?)))
        .collect();
    sized.sort_by_key(|(_, bytes)| std::cmp::Reverse(*bytes));
    let largest: Vec<String> = sized
        .iter()
        .take(3)
        .map(|(entry, bytes)| match &entry.source {
            Some(source) => format!("{} ({source}) {bytes}", entry.name),
            None => format!("{} {bytes}", entry.name),
        })
        .collect();
    let mut reason = format!("{what} is {bytes} bytes, over {flag} {max}");
    if !largest.is_empty() {
        reason.push_str("; largest: ");
        reason.push_str(&largest.join(", "));
    }
    Some(Diagnostic::new(Severity::Fatal, None, reason))
}

/// Every rule the rules message shows, rejects or leaves out, sorted by
/// name: shown ones with the size of their block, then the ones the rules
/// source left out, with why (no file is opened or listed here).
fn rule_entries(report: &Turn0Report, tokenizer: Tokenizer) -> Vec<StatEntry> {
    let shown = report.messages.iter().flat_map(|message| &message.rules);
    let mut entries: Vec<StatEntry> = shown
        .map(|shown| {
            let status = if shown.truncated { "truncated" } else { "ok" };
            let block = render_rule_block(&shown.rule);
            StatEntry::sized(
                &shown.rule.name,
                shown.source.clone(),
                &block,
                status,
                tokenizer,
            )
        })
        .collect();
    for fact in &report.left_out {
        if let (Provenance::Rules, Some(name)) = (fact.provenance, &fact.name) {
            entries.push(left_out_entry(name, fact));
        }
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    entries
}

/// One row of the text table.
struct Row {
    label: String,
    bytes: String,
    tokens: String,
    status: String,
    source: String,
}

impl Row {
    fn entry(label: String, entry: &StatEntry) -> Self {
        let number = |n: Option<usize>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
        Self {
            label,
            bytes: number(entry.bytes),
            tokens: number(entry.tokens),
            status: entry.status.clone(),
            source: entry.source.clone().unwrap_or_default(),
        }
    }

    fn amount(label: String, amount: &Amount) -> Self {
        Self {
            label,
            bytes: amount.bytes.to_string(),
            tokens: amount.tokens.to_string(),
            status: amount.status.clone(),
            source: String::new(),
        }
    }
}

/// The rows of one group: its entries (the rules of a turn-0 group indented
/// under the rules message, or after the project instructions when there is
/// no rules message), its separators, and its total.
fn group_rows(title: &str, group: &Group, rows: &mut Vec<Row>) {
    let label = |name: &str| match title {
        "turn-0" => name.to_string(),
        _ => format!("{title}/{name}"),
    };
    let mut entry_rows: Vec<Row> = group
        .entries
        .iter()
        .map(|e| Row::entry(label(&e.name), e))
        .collect();
    if let Some(rules) = &group.rules {
        let at = group.rules_at.min(entry_rows.len());
        let rule_rows = rules
            .iter()
            .map(|rule| Row::entry(format!("  rule {}", rule.name), rule));
        entry_rows.splice(at..at, rule_rows);
    }
    rows.extend(entry_rows);
    if let Some(separators) = &group.separators {
        rows.push(Row::amount(format!("{title}/separators"), separators));
    }
    rows.push(Row::amount(format!("{title} total"), &group.total));
}

/// The stats as a table: `ENTRY  BYTES  TOKENS  STATUS  SOURCE`, numbers
/// right-aligned, two spaces between columns, no trailing spaces, then a
/// line saying how tokens were counted.
pub fn text_table(stats: &Stats) -> String {
    let mut rows = Vec::new();
    for (title, group) in [
        ("prefix", &stats.prefix),
        ("suffix", &stats.suffix),
        ("turn-0", &stats.turn0),
    ] {
        if let Some(group) = group {
            group_rows(title, group, &mut rows);
        }
    }
    let with_source = rows.iter().any(|r| !r.source.is_empty());
    let header = Row {
        label: "ENTRY".into(),
        bytes: "BYTES".into(),
        tokens: "TOKENS".into(),
        status: "STATUS".into(),
        source: if with_source {
            "SOURCE".into()
        } else {
            String::new()
        },
    };
    rows.insert(0, header);
    let width =
        |f: fn(&Row) -> &String| rows.iter().map(|r| f(r).chars().count()).max().unwrap_or(0);
    let (w_label, w_bytes, w_tokens, w_status) = (
        width(|r| &r.label),
        width(|r| &r.bytes),
        width(|r| &r.tokens),
        width(|r| &r.status),
    );
    let mut out = String::new();
    for row in &rows {
        let line = format!(
            "{:<w_label$}  {:>w_bytes$}  {:>w_tokens$}  {:<w_status$}  {}",
            row.label, row.bytes, row.tokens, row.status, row.source
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&tokens_line(stats.tokenizer));
    out
}

/// The table's last line: how tokens were counted, an estimate named as
/// one.
fn tokens_line(tokenizer: Tokenizer) -> String {
    if tokenizer.is_exact() {
        format!(
            "tokens are counted exactly with the {} encoding\n",
            tokenizer.label()
        )
    } else {
        format!("tokens are estimated as {ESTIMATE_RULE}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::build::build;
    use crate::prompt::env::Env;
    use crate::prompt::rules::{Rule, RuleOrigin, ShownRule};
    use crate::prompt::soul::SoulRejection;
    use crate::prompt::tiers::Fate;
    use crate::prompt::tools::ToolSpec;
    use crate::prompt::turn0::{AssembledMessage, Message, Rejection};

    #[test]
    fn section_totals_equal_the_built_prompt() {
        for mode in ["default", "plan"] {
            let config = Config {
                tools: vec![ToolSpec::new("Read", "Read a file.")],
                env: Env {
                    mode: mode.into(),
                    ..Env::default()
                },
                ..Config::default()
            };
            let layered = build(&config);
            let prefix = section_group(&prefix_sections(&config), Tokenizer::Estimate);
            let suffix = section_group(&suffix_sections(&config), Tokenizer::Estimate);
            assert_eq!(prefix.total.bytes, layered.stable_prefix.len());
            assert_eq!(suffix.total.bytes, layered.volatile_suffix.len());
            let sum = |g: &Group| {
                g.entries.iter().filter_map(|e| e.bytes).sum::<usize>()
                    + g.separators.as_ref().map_or(0, |s| s.bytes)
            };
            assert_eq!(sum(&prefix), prefix.total.bytes);
            assert_eq!(sum(&suffix), suffix.total.bytes);
            assert_eq!(prefix.separators.as_ref().map(|s| s.bytes), Some(8));
        }
    }

    #[test]
    fn exact_totals_count_the_text_as_sent() {
        let config = Config {
            tools: vec![ToolSpec::new("Read", "Read a file.")],
            ..Config::default()
        };
        let layered = build(&config);
        let exact = Tokenizer::O200kBase;
        let prefix = section_group(&prefix_sections(&config), exact);
        assert_eq!(prefix.total.tokens, exact.count(&layered.stable_prefix));
        assert_ne!(
            prefix.total.tokens,
            Tokenizer::Estimate.count(&layered.stable_prefix)
        );
        let first = &prefix_sections(&config)[0];
        assert_eq!(prefix.entries[0].tokens, Some(exact.count(&first.text)));
        let builder = builder_group("hello world", exact);
        assert_eq!(builder.total.tokens, 2);
        assert_eq!(builder.entries[0].tokens, Some(2));
    }

    /// An entry of `bytes` bytes, estimated.
    fn sized(name: &str, source: Option<&str>, bytes: usize) -> StatEntry {
        let text = "x".repeat(bytes);
        let source = source.map(str::to_string);
        StatEntry::sized(name, source, &text, "ok", Tokenizer::Estimate)
    }

    fn group(sizes: &[(&str, Option<&str>, usize)]) -> Group {
        let entries: Vec<StatEntry> = sizes
            .iter()
            .map(|(name, source, bytes)| sized(name, *source, *bytes))
            .collect();
        let total = sizes.iter().map(|s| s.2).sum();
        Group::new(
            entries,
            None,
            Amount::of(&"x".repeat(total), Tokenizer::Estimate),
        )
    }

    fn turn0_budget(group: &mut Group, max: usize) -> Option<Diagnostic> {
        check_budget(group, "turn-0", "--max-turn0-bytes", Some(max))
    }

    #[test]
    fn a_budget_is_exceeded_only_above_its_maximum() {
        let mut at = group(&[("project", Some("AGENTS.md"), 100)]);
        assert_eq!(
            check_budget(&mut at, "turn-0", "--max-turn0-bytes", None),
            None
        );
        assert_eq!(turn0_budget(&mut at, 100), None);
        assert_eq!(at.total.status, "ok");
        let over = turn0_budget(&mut at, 99).unwrap();
        assert_eq!(over.severity, Severity::Fatal);
        assert_eq!(
            over.reason,
            "turn-0 is 100 bytes, over --max-turn0-bytes 99; largest: project (AGENTS.md) 100"
        );
        assert_eq!(at.total.status, "over --max-turn0-bytes 99");
    }

    #[test]
    fn the_budget_message_names_the_three_largest() {
        let mut g = group(&[
            ("project", Some("AGENTS.md"), 30),
            ("rules", None, 640),
            ("soul", Some("/u/soul.md"), 5),
            ("memory", Some("/m"), 70),
        ]);
        let over = turn0_budget(&mut g, 10).unwrap();
        assert_eq!(
            over.reason,
            "turn-0 is 745 bytes, over --max-turn0-bytes 10; largest: rules 640, memory (/m) 70, \
             project (AGENTS.md) 30"
        );
    }

    #[test]
    fn the_table_aligns_columns_and_marks_unknown_sizes() {
        let mut turn0 = group(&[("project", Some("AGENTS.md"), 1234), ("rules", None, 90)]);
        turn0.rules_at = 2;
        turn0.rules = Some(vec![
            sized("api", Some(".mecatl/rules/api.md"), 80),
            StatEntry::left_out(
                "big",
                Some(".claude/rules/big.md".into()),
                "dropped (cap)".into(),
            ),
        ]);
        let stats = Stats {
            turn0: Some(turn0),
            ..Stats::new(Tokenizer::Estimate)
        };
        assert_eq!(
            text_table(&stats),
            "ENTRY         BYTES  TOKENS  STATUS         SOURCE\n\
             project        1234     309  ok             AGENTS.md\n\
             rules            90      23  ok\n\
             \x20 rule api       80      20  ok             .mecatl/rules/api.md\n\
             \x20 rule big        -       -  dropped (cap)  .claude/rules/big.md\n\
             turn-0 total   1324     331  ok\n\
             tokens are estimated as bytes / 4, rounded up\n"
        );
    }

    #[test]
    fn only_shown_stats_count_with_the_profiles_tokenizer() {
        let shown = StatsArg { stats: true };
        let hidden = StatsArg { stats: false };
        assert_eq!(counting(Tokenizer::O200kBase, &shown), Tokenizer::O200kBase);
        assert_eq!(counting(Tokenizer::O200kBase, &hidden), Tokenizer::Estimate);
    }

    #[test]
    fn the_stats_say_which_tokenizer_counted() {
        let json = |tokenizer| serde_json::to_value(Stats::new(tokenizer)).unwrap();
        assert_eq!(
            json(Tokenizer::Estimate),
            serde_json::json!({"tokenizer": "estimate", "estimator": "bytes / 4, rounded up"})
        );
        assert_eq!(
            json(Tokenizer::O200kBase),
            serde_json::json!({"tokenizer": "o200k_base"})
        );
        assert_eq!(
            text_table(&Stats::new(Tokenizer::O200kBase)),
            "ENTRY  BYTES  TOKENS  STATUS\n\
             tokens are counted exactly with the o200k_base encoding\n"
        );
    }

    fn fact(provenance: Provenance, name: Option<&str>, reason: LeftOutReason) -> LeftOut {
        LeftOut {
            provenance,
            name: name.map(str::to_string),
            source: Some(format!("{}.md", name.unwrap_or(provenance.as_str()))),
            reason,
        }
    }

    #[test]
    fn a_source_that_delivered_nothing_shows_why_in_its_place() {
        let message = |provenance| {
            AssembledMessage::new(provenance, Message::user("text"), Some("src".into()))
        };
        let rejected = LeftOutReason::rejected(Rejection::Soul(SoulRejection::Blank));
        let mut report = Turn0Report {
            messages: vec![message(Provenance::Project), message(Provenance::Memory)],
            left_out: vec![
                fact(Provenance::Soul, None, rejected),
                fact(Provenance::Soul, None, LeftOutReason::Withheld),
                fact(Provenance::Rules, Some("r"), LeftOutReason::DroppedAtCap),
            ],
            diagnostics: Vec::new(),
        };
        let rows = |report: &Turn0Report| -> Vec<(String, String)> {
            turn0_entries(report, Tokenizer::Estimate)
                .0
                .into_iter()
                .map(|e| (e.name, e.status))
                .collect()
        };
        assert_eq!(
            rows(&report),
            [
                ("project".to_string(), "ok".to_string()),
                ("soul".to_string(), "rejected (blank)".to_string()),
                ("memory".to_string(), "ok".to_string()),
            ]
        );
        // The rules' rows go after the project instructions when there is
        // no rules message.
        assert_eq!(turn0_entries(&report, Tokenizer::Estimate).1, 1);
        report.messages.insert(1, message(Provenance::Soul));
        let names: Vec<String> = rows(&report).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["project", "soul", "memory"]);
        report.messages.insert(2, message(Provenance::Rules));
        assert_eq!(turn0_entries(&report, Tokenizer::Estimate).1, 3);
    }

    #[test]
    fn every_left_out_reason_has_its_status() {
        let statuses: Vec<String> = [
            LeftOutReason::Withheld,
            LeftOutReason::DroppedAtCap,
            LeftOutReason::rejected(Rejection::Rule {
                fate: Fate::Malformed { reason: "x".into() },
                reason: Some("bad YAML; rule dropped".into()),
            }),
            LeftOutReason::Unreadable {
                cause: "denied".into(),
            },
            LeftOutReason::NotFound,
        ]
        .iter()
        .map(left_out_status)
        .collect();
        assert_eq!(
            statuses,
            [
                "withheld",
                "dropped (cap)",
                "rejected (bad YAML; rule dropped)",
                "rejected (cannot be read: denied)",
                "rejected (not found)"
            ]
        );
    }

    #[test]
    fn rule_rows_are_the_shown_rules_and_the_rules_left_out_by_name() {
        let mut rules_message = AssembledMessage::new(Provenance::Rules, Message::user("m"), None);
        rules_message.rules = vec![ShownRule {
            rule: Rule {
                name: "b".into(),
                body: "body".into(),
                paths: vec![],
                origin: RuleOrigin::Project,
            },
            source: Some("b.md".into()),
            truncated: true,
        }];
        let report = Turn0Report {
            messages: vec![rules_message],
            left_out: vec![
                fact(Provenance::Rules, Some("c"), LeftOutReason::Withheld),
                fact(Provenance::Rules, Some("a"), LeftOutReason::DroppedAtCap),
                fact(Provenance::Soul, None, LeftOutReason::NotFound),
            ],
            diagnostics: Vec::new(),
        };
        let rows: Vec<(String, Option<usize>, String)> = rule_entries(&report, Tokenizer::Estimate)
            .into_iter()
            .map(|e| (e.name, e.bytes, e.status))
            .collect();
        let block = render_rule_block(&report.messages[0].rules[0].rule).len();
        assert_eq!(
            rows,
            [
                ("a".to_string(), None, "dropped (cap)".to_string()),
                ("b".to_string(), Some(block), "truncated".to_string()),
                ("c".to_string(), None, "withheld".to_string()),
            ]
        );
    }
}
