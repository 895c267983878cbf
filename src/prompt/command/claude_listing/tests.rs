//! Each expectation was observed from Claude Code 2.1.328; the fixture in
//! `tests/oracle/cases/claude-commands/` named beside it pins it in the
//! replay too.

use super::*;

fn entry(name: &str, description: &str) -> ListingEntry {
    ListingEntry {
        name: name.to_string(),
        description: description.to_string(),
    }
}

#[test]
fn the_first_line_describes_a_file_without_description() {
    // command-descriptions, skill-descriptions; empty-bodies for the last two.
    let cases = [
        (
            "Run the linters.\nSecond line.\n",
            Kind::Command,
            "Run the linters.",
        ),
        ("# Heading line\n\nBody.\n", Kind::Command, "Heading line"),
        (
            "\n\n  Indented after blanks.\n",
            Kind::Command,
            "Indented after blanks.",
        ),
        ("### Deep  heading \r\n", Kind::Skill, "Deep  heading"),
        ("#NoSpace\n", Kind::Skill, "#NoSpace"),
        ("#\n", Kind::Skill, "#"),
        ("", Kind::Skill, "Skill"),
        ("\n\n", Kind::Command, "Custom command"),
    ];
    for (body, kind, expected) in cases {
        assert_eq!(line_description(body, kind), expected, "{body:?}");
    }
}

#[test]
fn a_long_first_line_is_cut_at_100_with_three_dots() {
    // args-index-digits, args-escaped-dollar (their listing entries)
    let line = "TEN=[$10] ONEZERO=[$1]0 ONEX=[$1x] ONE_=[$1_] ONEDOT=[$1.] LEAD=[$01] BIG=[$99999999999999999999] IDX10=[$ARGUMENTS[10]]";
    assert_eq!(
        line_description(line, Kind::Command),
        "TEN=[$10] ONEZERO=[$1]0 ONEX=[$1x] ONE_=[$1_] ONEDOT=[$1.] LEAD=[$01] BIG=[$99999999999999999999]..."
    );
    let exact = "x".repeat(limits::CLAUDE_LINE_DESCRIPTION_UNITS);
    assert_eq!(line_description(&exact, Kind::Command), exact);
}

#[test]
fn when_to_use_follows_the_description() {
    // skill-descriptions
    assert_eq!(
        entry_description("Has both", Some("when the tests fail")),
        "Has both - when the tests fail"
    );
    assert_eq!(
        entry_description("Body of when-only.", Some("only a when")),
        "Body of when-only. - only a when"
    );
    assert_eq!(entry_description("Alone", Some("")), "Alone");
    assert_eq!(entry_description("Alone", None), "Alone");
}

#[test]
fn a_description_over_1536_units_is_cut_with_an_ellipsis() {
    // description-over-1536
    let exact = "e".repeat(1536);
    assert_eq!(entry_description(&exact, None), exact);
    let cut = entry_description(&"a".repeat(2000), None);
    assert_eq!(cut, format!("{}…", "a".repeat(1535)));
    let with_when = entry_description(&"b".repeat(1500), Some(&"w".repeat(100)));
    assert_eq!(
        with_when,
        format!("{} - {}…", "b".repeat(1500), "w".repeat(32))
    );
    // Claude Code counts UTF-16 units; a pair cut in half reaches the
    // model as U+FFFD.
    let emoji = format!(
        "{}{}{}",
        "c".repeat(1530),
        "\u{1F600}".repeat(4),
        "d".repeat(20)
    );
    assert_eq!(
        entry_description(&emoji, None),
        format!("{}{}\u{fffd}…", "c".repeat(1530), "\u{1F600}".repeat(2))
    );
}

#[test]
fn a_differing_name_key_is_shown_in_parentheses() {
    // skill-name-key
    assert_eq!(
        entry_name("dirname", Some("othername")),
        "dirname (othername)"
    );
    assert_eq!(entry_name("same", Some("same")), "same");
    assert_eq!(entry_name("git:commit", Some("commit")), "git:commit");
    assert_eq!(entry_name("plain", None), "plain");
    assert_eq!(entry_name("plain", Some("")), "plain");
    let e = entry("dirname (othername)", "named differently");
    assert_eq!(e.full(), "- dirname (othername): named differently");
    assert_eq!(e.name_only(), "- dirname (othername)");
}

#[test]
fn the_budget_is_one_percent_of_the_window_times_four() {
    assert_eq!(budget(limits::DEFAULT_CONTEXT_WINDOW_TOKENS, None), 8_000);
    assert_eq!(budget(750_000, None), 30_000);
    assert_eq!(budget(0, None), 1);
    // No overflow on an absurd window.
    assert_eq!(
        budget(u64::MAX, None),
        usize::try_from(u64::MAX / 100).unwrap_or(usize::MAX)
    );
    // listing-budget-300: the variable overrides when it is a positive number.
    assert_eq!(budget(200_000, Some("300")), 300);
    for ignored in ["0", "-5", "abc", ""] {
        assert_eq!(budget(200_000, Some(ignored)), 8_000, "{ignored:?}");
    }
}

#[test]
fn within_budget_every_description_stays() {
    let entries = [entry("a", "one"), entry("b", "two")];
    let fitted = fit(&entries, 100, Reserved::default());
    assert_eq!(fitted.lines, vec!["- a: one", "- b: two"]);
    assert_eq!(fitted.shrunk, 0);
    // 8 + 8 columns and one line break: exactly the budget still fits.
    assert_eq!(fitted.width, 17);
    assert_eq!(fit(&entries, 17, Reserved::default()).shrunk, 0);
    assert_eq!(fit(&entries, 16, Reserved::default()).shrunk, 1);
}

#[test]
fn over_budget_descriptions_come_back_greedily_in_order() {
    // listing-budget-greedy: Claude Code's own 13 entries took 6,196
    // columns, 6,062 once over budget; 110 columns were left for
    // descriptions after the names.
    let entries = [
        entry("aa-first", &"f".repeat(40)),
        entry("bb-too-long", &"t".repeat(200)),
        entry("cc-small", &"s".repeat(20)),
        entry("dd-cmd", &"c".repeat(30)),
    ];
    let reserved = Reserved {
        entries: 13,
        width: 6_196,
        shrinkable: 134,
    };
    let fitted = fit(&entries, 6_231, reserved);
    assert_eq!(
        fitted.lines,
        vec![
            format!("- aa-first: {}", "f".repeat(40)),
            "- bb-too-long".to_string(),
            format!("- cc-small: {}", "s".repeat(20)),
            format!("- dd-cmd: {}", "c".repeat(30)),
        ]
    );
    assert_eq!(fitted.shrunk, 1);
    // listing-budget-300: the reserved entries alone exceed it.
    let all_names = fit(&entries, 300, reserved);
    assert_eq!(all_names.shrunk, 4);
    assert!(all_names.lines.iter().all(|l| !l.contains(':')));
}

#[test]
fn width_counts_wide_characters_twice() {
    // listing-budget-wide-chars, listing-budget-boundary
    assert_eq!(width("漢字"), 4);
    assert_eq!(width("a\nb"), 2);
    assert_eq!(width("e\u{301}"), 1);
    let wide = [entry("aa-wide", &"漢".repeat(30))];
    let reserved = Reserved {
        entries: 13,
        width: 6_196,
        shrinkable: 134,
    };
    assert_eq!(fit(&wide, 6_146, reserved).shrunk, 0);
    assert_eq!(fit(&wide, 6_145, reserved).shrunk, 1);
    assert_eq!(fit(&wide, 6_126, reserved).shrunk, 1);
}

#[test]
fn names_sort_like_claude_codes_collation() {
    // listing-sort-order
    let mut skills = [
        "Zeta", "alpha", "beta", "beta-x", "beta_x", "b10", "b9", "Beta2",
    ];
    skills.sort_by(|a, b| listing_order(a, b));
    assert_eq!(
        skills,
        [
            "alpha", "b10", "b9", "beta", "beta_x", "beta-x", "Beta2", "Zeta"
        ]
    );
    let mut commands = [
        "Zed", "apple", "b-c", "b_c", "bc", "b:c", "c10", "c9", "Apple2",
    ];
    commands.sort_by(|a, b| listing_order(a, b));
    assert_eq!(
        commands,
        [
            "apple", "Apple2", "b_c", "b-c", "b:c", "bc", "c10", "c9", "Zed"
        ]
    );
    // Lower case first among names equal but for case; then a total order.
    assert_eq!(listing_order("a", "A"), Ordering::Less);
    assert_eq!(listing_order("é", "é"), Ordering::Equal);
    assert_eq!(listing_order("z", "é"), Ordering::Less);
}
