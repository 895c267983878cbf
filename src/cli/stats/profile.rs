//! `--stats` and `--max-turn0-bytes` under an agent profile (SPEC §2.10,
//! §14.7): one row per part, in output order, then one per file the
//! profile considered and left out, then the bytes that join the parts,
//! then the total — the bytes the agent sends at start.
//!
//! Choices the spec leaves open:
//! - A part's row is named `part N (SCOPE)` with its file as the source;
//!   its status is `ok`, or `cut (kept K, omitted O)` when a budget cut it.
//! - A file left out has a row named `left out (SCOPE)` with null bytes
//!   (it costs nothing) and the status `withheld` or `not loaded: REASON`,
//!   so Codex's budget drops show in `--stats` as they do in JSON.
//! - What joins the parts of a message (Codex's `\n\n` and its marker line
//!   before the project chain) is the `separators` amount, so entries plus
//!   separators add up to the total. Its tokens are likewise the total's
//!   less the parts' (never below zero): with an exact tokenizer, what
//!   joining really adds, since a part's last newline and the joiner can
//!   merge into one token.
//! - Tokens are counted with the profile's tokenizer
//!   ([`crate::prompt::profile::seam::ProfileSpec::tokenizer`]); the total counts each
//!   message's text as sent.
//! - What `--touch` adds is not counted: it is not sent at start.

use super::{Accounting, Amount, Group, StatEntry, Turn0AccountingArgs, counting};
use crate::prompt::profile::{NotLoadedReason, ProfileTurn0};
use crate::prompt::tokens::Tokenizer;

/// Accounts a profile's turn 0, its tokens counted with `tokenizer`, and
/// checks it against `--max-turn0-bytes`.
pub fn for_profile(
    turn0: &ProfileTurn0,
    args: &Turn0AccountingArgs,
    tokenizer: Tokenizer,
) -> Accounting {
    let tokenizer = counting(tokenizer, &args.stats);
    let parts = turn0.messages.iter().flat_map(|message| &message.parts);
    let mut entries: Vec<StatEntry> = parts
        .enumerate()
        .map(|(i, part)| {
            let status = match part.cut {
                Some(cut) => format!("cut (kept {}, omitted {})", cut.kept, cut.omitted),
                None => "ok".to_string(),
            };
            let name = format!("part {} ({})", i + 1, part.scope.as_str());
            let source = Some(part.path.clone());
            StatEntry::sized(&name, source, &part.content, &status, tokenizer)
        })
        .collect();
    let sent: usize = entries.iter().filter_map(|entry| entry.bytes).sum();
    let sent_tokens: usize = entries.iter().filter_map(|entry| entry.tokens).sum();
    entries.extend(turn0.not_loaded.iter().map(|entry| {
        let status = match &entry.reason {
            NotLoadedReason::Withheld => "withheld".to_string(),
            reason => format!("not loaded: {}", reason.phrase()),
        };
        let name = format!("left out ({})", entry.scope.as_str());
        StatEntry::left_out(&name, Some(entry.path.clone()), status)
    }));
    let texts = turn0.messages.iter().map(|message| message.text.as_str());
    let total = Amount::ok(
        texts.clone().map(str::len).sum(),
        tokenizer.count_each(texts),
    );
    let separators = Amount::ok(
        total.bytes.saturating_sub(sent),
        total.tokens.saturating_sub(sent_tokens),
    );
    let group = Group::new(entries, Some(separators), total);
    super::turn0_accounting(group, args, tokenizer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::stats::{StatsArg, text_table};
    use crate::prompt::profile::{Cut, NotLoaded, Part, PartKind, ProfileMessage, Scope};
    use crate::prompt::turn0::Provenance;

    fn part(path: &str, scope: Scope, content: &str, cut: Option<Cut>) -> Part {
        Part {
            path: path.into(),
            scope,
            kind: PartKind::Instructions,
            imported_by: None,
            content: content.into(),
            cut,
        }
    }

    fn turn0() -> ProfileTurn0 {
        let parts = vec![
            part("/h/.codex/AGENTS.md", Scope::User, "GLOBAL", None),
            part("AGENTS.md", Scope::Project, "ROOT", None),
            part(
                "a/AGENTS.md",
                Scope::Project,
                "AAAA",
                Some(Cut {
                    kept: 4,
                    omitted: 6,
                }),
            ),
        ];
        ProfileTurn0 {
            messages: vec![ProfileMessage::with_text(
                Provenance::Instructions,
                parts,
                "GLOBAL\n\n--- project-doc ---\n\nROOT\n\nAAAA".into(),
            )],
            not_loaded: vec![NotLoaded {
                path: "a/b/AGENTS.md".into(),
                scope: Scope::Project,
                reason: NotLoadedReason::OverBudget { bytes: 50 },
            }],
            ..ProfileTurn0::default()
        }
    }

    fn args(stats: bool, max: Option<usize>) -> Turn0AccountingArgs {
        Turn0AccountingArgs {
            stats: StatsArg { stats },
            max_turn0_bytes: max,
        }
    }

    #[test]
    fn parts_then_what_was_left_out_then_separators_add_up_to_the_text() {
        let accounting = for_profile(&turn0(), &args(true, None), Tokenizer::Estimate);
        let stats = accounting.json_stats().unwrap();
        assert_eq!(
            text_table(stats),
            "ENTRY               BYTES  TOKENS  STATUS                              SOURCE\n\
             part 1 (user)           6       2  ok                                  /h/.codex/AGENTS.md\n\
             part 2 (project)        4       1  ok                                  AGENTS.md\n\
             part 3 (project)        4       1  cut (kept 4, omitted 6)             a/AGENTS.md\n\
             left out (project)      -       -  not loaded: over budget (50 bytes)  a/b/AGENTS.md\n\
             turn-0/separators      25       6  ok\n\
             turn-0 total           39      10  ok\n\
             tokens are estimated as bytes / 4, rounded up\n"
        );
    }

    #[test]
    fn exact_counts_add_up_to_the_messages_as_sent() {
        let turn0 = turn0();
        let exact = Tokenizer::O200kBase;
        let accounting = for_profile(&turn0, &args(true, None), exact);
        let stats = accounting.json_stats().unwrap();
        assert_eq!(stats.tokenizer, exact);
        let group = stats.turn0.as_ref().unwrap();
        let tokens: Vec<Option<usize>> = group.entries.iter().map(|e| e.tokens).collect();
        assert_eq!(tokens, [Some(1), Some(1), Some(1), None]);
        assert_eq!(group.total.tokens, exact.count(&turn0.messages[0].text));
        let separators = group.separators.as_ref().unwrap();
        assert_eq!(separators.tokens + 3, group.total.tokens);
    }

    #[test]
    fn the_turn0_budget_names_the_largest_parts() {
        let accounting = for_profile(&turn0(), &args(false, Some(38)), Tokenizer::O200kBase);
        assert!(accounting.json_stats().is_none());
        let diagnostics = accounting.diagnostics_after(&[]);
        assert_eq!(
            diagnostics[0].reason,
            "turn-0 is 39 bytes, over --max-turn0-bytes 38; largest: part 1 (user) \
             (/h/.codex/AGENTS.md) 6, part 2 (project) (AGENTS.md) 4, part 3 (project) \
             (a/AGENTS.md) 4"
        );
    }
}
