//! Each expectation was observed from Claude Code 2.1.328; the fixture in
//! `tests/oracle/cases/claude-commands/` named beside it pins it in the
//! replay too.

use proptest::prelude::*;

use super::*;

fn r(raw: &str, args: &str) -> String {
    render(raw, args, &Context::default()).text
}

fn with_names(raw: &str, args: &str, names: &[&str]) -> String {
    let names = argument_names(names.iter().copied());
    let context = Context {
        argument_names: &names,
        ..Context::default()
    };
    render(raw, args, &context).text
}

#[test]
fn positional_arguments_count_from_zero() {
    // args-positional
    assert_eq!(
        r(
            "ARGS=[$ARGUMENTS] ZERO=[$0] ONE=[$1] TWO=[$2] THREE=[$3] IDX0=[$ARGUMENTS[0]] IDX2=[$ARGUMENTS[2]] IDX3=[$ARGUMENTS[3]]\n",
            "foo.go security extra"
        ),
        "ARGS=[foo.go security extra] ZERO=[foo.go] ONE=[security] TWO=[extra] THREE=[$3] IDX0=[foo.go] IDX2=[extra] IDX3=[$ARGUMENTS[3]]\n"
    );
}

#[test]
fn arguments_is_the_trimmed_raw_string() {
    // args-quotes, args-raw-spacing
    assert_eq!(
        r("[$ARGUMENTS] [$0]", "\"foo bar.go\" 'x y' z"),
        "[\"foo bar.go\" 'x y' z] [foo bar.go]"
    );
    assert_eq!(r("[$ARGUMENTS] [$1]", "   a   b   "), "[a   b] [b]");
}

#[test]
fn no_arguments_leave_indexes_literal() {
    // args-none
    assert_eq!(
        r(
            "ARGS=[$ARGUMENTS] ZERO=[$0] ONE=[$1] IDX0=[$ARGUMENTS[0]]\n",
            ""
        ),
        "ARGS=[] ZERO=[$0] ONE=[$1] IDX0=[$ARGUMENTS[0]]\n"
    );
}

#[test]
fn a_backslash_escapes_a_placeholder() {
    // args-escaped-dollar
    assert_eq!(
        r(
            "LIT=[\\$ARGUMENTS] LIT1=[\\$1] LIT0=[\\$0] IDXLIT=[\\$ARGUMENTS[0]] DOUBLE=[\\\\$0] OTHER=[\\$HOME] REAL=[$0]\n",
            "a b"
        ),
        "LIT=[$ARGUMENTS] LIT1=[$1] LIT0=[$0] IDXLIT=[$ARGUMENTS[0]] DOUBLE=[\\\\a] OTHER=[\\$HOME] REAL=[a]\n"
    );
    assert_eq!(r("\\$1x \\ \\ $0", "a"), "$1x \\ \\ a");
}

#[test]
fn a_digit_run_is_one_index_and_ends_at_a_non_word_character() {
    // args-index-digits
    assert_eq!(
        r(
            "TEN=[$10] ONEZERO=[$1]0 ONEX=[$1x] ONE_=[$1_] ONEDOT=[$1.] LEAD=[$01] BIG=[$99999999999999999999] IDX10=[$ARGUMENTS[10]] ARGSX=[$ARGUMENTSx]\n",
            "a b c d e f g h i j k"
        ),
        "TEN=[k] ONEZERO=[b]0 ONEX=[$1x] ONE_=[$1_] ONEDOT=[b.] LEAD=[b] BIG=[$99999999999999999999] IDX10=[k] ARGSX=[a b c d e f g h i j kx]\n"
    );
    assert_eq!(r("$1é $ $$0 $ARGUMENTS[x]", "a b"), "bé $ $a a b[x]");
}

#[test]
fn named_arguments() {
    // args-named
    assert_eq!(
        with_names(
            "FILE=[$file] FOCUS=[$focus] FILENAME=[$filename] FILEIDX=[$file[0]] POS=[$0] ESC=[\\$file]\n",
            "main.rs perf",
            &["file", "focus"]
        ),
        "FILE=[main.rs] FOCUS=[perf] FILENAME=[$filename] FILEIDX=[$file[0]] POS=[main.rs] ESC=[$file]\n"
    );
    // args-named-past-end: a name past the end gives nothing.
    assert_eq!(
        with_names(
            "FIRST=[$first] SECOND=[$second] THIRD=[$third]\n",
            "only",
            &["first", "second", "third"]
        ),
        "FIRST=[only] SECOND=[] THIRD=[]\n"
    );
    // args-named-string: the caller splits a string on whitespace.
    assert_eq!(
        with_names(
            "A=[$alpha] B=[$beta]\n",
            "one two",
            &"alpha beta".split_whitespace().collect::<Vec<_>>()
        ),
        "A=[one] B=[two]\n"
    );
    // The longer of two names that could both match wins.
    assert_eq!(with_names("[$a-b] [$a]", "x y", &["a", "a-b"]), "[y] [x]");
}

#[test]
fn argument_names_drop_blank_and_numeric_ones() {
    assert_eq!(
        argument_names(["file", "", " ", "12", "x1"]),
        vec!["file", "x1"]
    );
    let long = "n".repeat(limits::CLAUDE_MAX_ARGUMENT_NAME_UNITS + 1);
    // A name too long to use keeps its position.
    assert_eq!(
        with_names(&format!("[${long}] [$b]"), "x y", &[&long, "b"]),
        format!("[${long}] [y]")
    );
    let many: Vec<String> = (0..=limits::CLAUDE_MAX_ARGUMENT_NAMES)
        .map(|i| format!("n{i}"))
        .collect();
    let last = format!("$n{}", limits::CLAUDE_MAX_ARGUMENT_NAMES);
    let names: Vec<&str> = many.iter().map(String::as_str).collect();
    assert_eq!(
        with_names(&format!("[$n0] [{last}]"), "a", &names),
        format!("[a] [{last}]")
    );
}

#[test]
fn a_template_without_placeholder_gets_the_arguments_appended() {
    // no-placeholder-with-args, no-placeholder-no-args
    let plain = "Plain template without placeholders.\n";
    assert_eq!(
        r(plain, "a b c"),
        "Plain template without placeholders.\n\n\nARGUMENTS: a b c"
    );
    assert_eq!(r(plain, ""), plain);
    assert_eq!(r(plain, "   "), plain);
    // out-of-range-only: a placeholder left as written is no substitution.
    assert_eq!(
        r("Only [$3] here.\n", "a"),
        "Only [$3] here.\n\n\nARGUMENTS: a"
    );
    assert_eq!(r("[\\$0]", "a"), "[$0]\n\nARGUMENTS: a");
    // A named argument past the end still counts as a substitution.
    assert_eq!(with_names("[$x]", "", &["x"]), "[]");
    assert_eq!(with_names("[$y]", "a", &["x", "y"]), "[]");
}

#[test]
fn a_leading_bang_in_a_value_is_escaped() {
    // args-bang-escaped, no-placeholder-bang-args
    assert_eq!(
        r("[$ARGUMENTS] [$0] [$1]", "!x a!b"),
        "[\\!x a!b] [\\!x] [a!b]"
    );
    assert_eq!(r("Plain.\n", "!x y"), "Plain.\n\n\nARGUMENTS: \\!x y");
    assert_eq!(r("[$ARGUMENTS]", "\"`!x`\""), "[\"` \\!x`\"]");
    assert_eq!(r("[$ARGUMENTS]", "\"!`x` \t!y\""), "[\"! `x` \t\\!y\"]");
}

#[test]
fn frontmatter_and_the_whitespace_after_it_are_removed() {
    // frontmatter-removed-newline-kept
    assert_eq!(
        r(
            "---\ndescription: strip me\nargument-hint: [x]\nmodel: sonnet\n---\n\nLine one.\n\nLine two.\n\n",
            ""
        ),
        "Line one.\n\nLine two.\n\n"
    );
    // frontmatter-leading-whitespace
    assert_eq!(
        r(
            "---\ndescription: ws\n---\n\n\n  Indented first.\nSecond.\n",
            ""
        ),
        "Indented first.\nSecond.\n"
    );
    // frontmatter-crlf
    assert_eq!(
        r(
            "---\r\ndescription: crlf file\r\n---\r\nBody [$0]\r\nSecond line\r\n",
            "x"
        ),
        "Body [x]\r\nSecond line\r\n"
    );
    // frontmatter-bom
    assert_eq!(
        r(
            "\u{feff}---\ndescription: bom file\n---\nBOM body [$0]\n",
            "x"
        ),
        "BOM body [x]\n"
    );
    // invalid-yaml-unrecoverable: the block goes even when its YAML is ignored.
    assert_eq!(
        r(
            "---\ndescription: Broken\narguments: [who]\nnote2: a: b\n---\nHello [$who] and [$0].\n",
            "one"
        ),
        "Hello [$who] and [one].\n"
    );
}

#[test]
fn frontmatter_edges() {
    // The block ends at the first `---`, even inside a line.
    assert_eq!(
        strip_frontmatter("---\ndescription: a---b\n---\nbody"),
        "b\n---\nbody"
    );
    assert_eq!(strip_frontmatter("---  \n\nx: 1\n---body"), "body");
    // Not a block: no line break after the opening, no closing, a BOM only
    // without a block.
    for raw in [
        "--- x\n---\nbody",
        "---\nx: 1\nbody",
        "----\n---\nbody",
        "\u{feff}body",
        "body\n---\n",
    ] {
        assert_eq!(strip_frontmatter(raw), raw);
    }
    assert_eq!(strip_frontmatter("---\n---"), "");
}

#[test]
fn skills_start_with_their_base_directory() {
    // skill-expansion
    let context = Context {
        skill_dir: Some("/w/.claude/skills/deploy"),
        ..Context::default()
    };
    assert_eq!(
        render(
            "---\ndescription: Deploy the app\n---\nDeploy to $ARGUMENTS now. First=$0 Second=$1\n",
            "prod eu",
            &context
        )
        .text,
        "Base directory for this skill: /w/.claude/skills/deploy\n\nDeploy to prod eu now. First=prod Second=eu\n"
    );
    assert_eq!(skill_prefix("/d"), "Base directory for this skill: /d\n\n");
    // The prefix is no placeholder: a skill without one still gets the
    // arguments appended (user-beats-project-skill's home skill did).
    assert_eq!(
        render("Body.\n", "y", &context).text,
        "Base directory for this skill: /w/.claude/skills/deploy\n\nBody.\n\n\nARGUMENTS: y"
    );
}

#[test]
fn directory_variables() {
    // skill-dir-variables
    let skill = Context {
        skill_dir: Some("/w/.claude/skills/vars"),
        project_dir: Some("/w"),
        ..Context::default()
    };
    let template = "SKILL=[${CLAUDE_SKILL_DIR}] PROJECT=[${CLAUDE_PROJECT_DIR}] ARG=[$0]\n";
    assert_eq!(
        render(template, "a", &skill).text,
        "Base directory for this skill: /w/.claude/skills/vars\n\nSKILL=[/w/.claude/skills/vars] PROJECT=[/w] ARG=[a]\n"
    );
    // command-dir-variables: a command has no skill directory. A variable
    // is no substitution, and its value is never scanned; a backslash
    // before a variable stays; values get variables filled in.
    let cases = [
        (
            template,
            "a",
            "/w/sub",
            "SKILL=[${CLAUDE_SKILL_DIR}] PROJECT=[/w/sub] ARG=[a]\n",
        ),
        (
            "[${CLAUDE_PROJECT_DIR}]",
            "a",
            "/w/$0",
            "[/w/$0]\n\nARGUMENTS: a",
        ),
        ("\\${CLAUDE_PROJECT_DIR}", "", "/w/sub", "\\/w/sub"),
        ("[$0]", "${CLAUDE_PROJECT_DIR}", "/w/sub", "[/w/sub]"),
        (
            "[${CLAUDE_SESSION_ID}] [${CLAUDE_EFFORT}]",
            "",
            "/w",
            "[${CLAUDE_SESSION_ID}] [${CLAUDE_EFFORT}]",
        ),
    ];
    for (template, args, project, expected) in cases {
        let command = Context {
            project_dir: Some(project),
            ..Context::default()
        };
        assert_eq!(
            render(template, args, &command).text,
            expected,
            "{template:?}"
        );
    }
}

#[test]
fn noncharacters_become_replacement_characters() {
    assert_eq!(
        r("a\u{fffe}b\u{ffff}[$0]", "x\u{ffff}"),
        "a\u{fffd}b\u{fffd}[x\u{fffd}]"
    );
}

#[test]
fn the_output_is_bounded_like_the_engine() {
    let limit = TEMPLATE_OUTPUT_BOUND;
    let args = "x".repeat(100_000);
    let out = render(&"$ARGUMENTS".repeat(20), &args, &Context::default());
    assert_eq!(out.truncated_at, Some(limit));
    let marker = format!("\n...[expansion truncated at {limit} bytes]");
    assert!(out.text.ends_with(&marker));
    assert_eq!(out.text.len(), limit + marker.len());
    // The engine's render cuts the same way.
    let engine = super::super::render(&"$ARGUMENTS".repeat(20), &[args], None);
    assert_eq!(engine.text, out.text);
}

/// A template piece: literal text (starting with a non-word character, so
/// it never extends a placeholder) or a placeholder.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ .,;-][a-z ]{0,3}",
        (0usize..5).prop_map(|n| format!("${n}")),
        (0usize..5).prop_map(|n| format!("$ARGUMENTS[{n}]")),
        Just("$ARGUMENTS".to_string()),
    ]
}

proptest! {
    /// Substituted text is never scanned again: arguments made of
    /// placeholders come out as typed, and the output equals a render that
    /// substitutes each template piece on its own.
    #[test]
    fn substitution_never_rescans(
        pieces in proptest::collection::vec(piece(), 0..10),
        words in proptest::collection::vec("[a-z]{1,3}|\\$[0-9]|x\\$ARGUMENTS|\\\\\\$1|\\$ARGUMENTS\\[0\\]", 0..6),
    ) {
        let args = words.join(" ");
        let positional = split_arguments(&args);
        let mut expected = String::new();
        let mut substituted = false;
        for piece in &pieces {
            let index = piece
                .strip_prefix("$ARGUMENTS[")
                .map(|rest| rest.trim_end_matches(']'))
                .or_else(|| piece.strip_prefix('$').filter(|p| p.bytes().all(|b| b.is_ascii_digit())))
                .and_then(|digits| digits.parse::<usize>().ok());
            match (piece.as_str(), index) {
                ("$ARGUMENTS", _) => {
                    substituted = true;
                    expected.push_str(&args);
                }
                (_, Some(i)) if i < positional.len() => {
                    substituted = true;
                    expected.push_str(&positional[i]);
                }
                _ => expected.push_str(piece),
            }
        }
        if !substituted && !args.is_empty() {
            expected.push_str(&format!("\n\nARGUMENTS: {args}"));
        }
        prop_assert_eq!(r(&pieces.concat(), &args), expected);
    }
}

#[test]
fn split_frontmatter_gives_the_block_and_the_body() {
    assert_eq!(
        split_frontmatter("---\ndescription: x\n---\n\nbody\n"),
        (Some("description: x\n"), "body\n")
    );
    assert_eq!(split_frontmatter("body\n"), (None, "body\n"));
    assert_eq!(split_frontmatter("\u{feff}---\n---\nb"), (Some(""), "b"));
}

#[test]
fn invalid_yaml_values_are_quoted_for_a_second_reading() {
    // invalid-yaml-frontmatter: the shapes real repositories write.
    let never = |_: &str| false;
    assert_eq!(
        requote_frontmatter(
            "argument-hint: [project1-path] [project2-path]\nallowed-tools: Glob, Grep",
            never
        ),
        "argument-hint: \"[project1-path] [project2-path]\"\nallowed-tools: Glob, Grep"
    );
    assert_eq!(
        requote_frontmatter("argument-hint: <strictness: 1-10>", never),
        "argument-hint: \"<strictness: 1-10>\""
    );
    // Quoted values, valid flow lists, other keys and plain values stay;
    // `\` and `"` are escaped; leading tabs become two spaces.
    let lists = |v: &str| v == "[a, b]";
    assert_eq!(
        requote_frontmatter(
            "a: \"x: y\"\nb: [a, b]\nnote2: a: b\nc: plain\n\td: 1",
            lists
        ),
        "a: \"x: y\"\nb: [a, b]\nnote2: a: b\nc: plain\n  d: 1"
    );
    assert_eq!(
        requote_frontmatter("k: a\\b \"#\"", never),
        "k: \"a\\\\b \\\"#\\\"\""
    );
    assert_eq!(requote_frontmatter("k:#x\nk: #y\r", never), "k:#x\nk: #y\r");
}

#[test]
fn frontmatter_is_read_as_claude_code_reads_it() {
    // invalid-yaml-frontmatter: the second reading keeps the keys.
    let raw = "---\ndescription: Compare\nargument-hint: [a] [b]\n---\nbody\n";
    let read = read_frontmatter(raw);
    let Reading::Requoted(err) = &read.reading else {
        panic!("{read:?}");
    };
    assert_eq!(err.line, 3, "the error's line is the file's");
    assert_eq!(read.first_line, 2);
    assert!(read.argument_names().is_empty());
    let named = read_frontmatter("---\narguments: [file, \"\", \"12\", focus]\n---\n$file");
    assert_eq!(named.argument_names(), ["file", "focus"]);
    let words = read_frontmatter("---\narguments: one two\n---\n");
    assert_eq!(words.argument_names(), ["one", "two"]);
    let hint = read.get("argument-hint").unwrap();
    assert_eq!((hint.line, &hint.value), (3, &serde_json::json!("[a] [b]")));
    // invalid-yaml-unrecoverable: no keys at all.
    // A key with a digit is not re-quoted; a BOM and a blank line before the
    // YAML move its lines.
    let broken =
        read_frontmatter("\u{feff}---\n\ndescription: x\narguments: [who]\nnote2: a: b\n---\nbody");
    assert!(
        matches!(broken.reading, Reading::Ignored(ref e) if e.line == 5),
        "{broken:?}"
    );
    assert_eq!(broken.first_line, 3);
    assert!(broken.entries.is_empty());
    // Valid YAML, and a file without a block.
    let valid = read_frontmatter("---\nname: x\ndescription: y\n---\n");
    assert_eq!(valid.reading, Reading::Yaml);
    assert_eq!(valid.get("description").map(|e| e.line), Some(3));
    assert_eq!(read_frontmatter("body\n---\n").reading, Reading::NoBlock);
}

#[test]
fn a_template_uses_arguments_when_a_placeholder_would_take_one() {
    let names = ["file".to_string()];
    for (raw, uses) in [
        ("Review $ARGUMENTS", true),
        ("Compare $0 with $7", true),
        ("Item $ARGUMENTS[2]", true),
        ("Open $file now", true),
        ("---\nargument-hint: [x]\n---\nNo placeholder here", false),
        ("Price is \\$5 and $HOME", false),
        ("$1x stays", false),
        ("---\ndescription: $ARGUMENTS\n---\nbody", false),
    ] {
        assert_eq!(uses_arguments(raw, &names), uses, "{raw:?}");
        // The probe agrees with a rendering given enough arguments.
        let context = Context {
            argument_names: &names,
            ..Context::default()
        };
        let args = "a b c d e f g h";
        let appended = render(raw, args, &context)
            .text
            .ends_with(&format!("\n\nARGUMENTS: {args}"));
        assert_eq!(appended, !uses, "{raw:?}");
    }
    assert!(!uses_arguments("Open $file now", &[]));
}

#[test]
fn shell_commands_are_inline_bangs_and_bang_fences() {
    // bang-command: both forms.
    let body = "Inline: !`echo hi-from-bang`\n\nFenced:\n```!\necho fenced-bang\n```\nDone.\n";
    let found = shell_commands(body);
    assert_eq!(
        found,
        [
            ShellCommand {
                offset: 8,
                len: 20,
                command: "echo hi-from-bang".into()
            },
            ShellCommand {
                offset: 38,
                len: 25,
                command: "echo fenced-bang".into()
            },
        ]
    );
    assert_eq!(
        &body[found[1].offset..found[1].offset + found[1].len],
        "```!\necho fenced-bang\n```"
    );
    // bang-word-start: a bang inside a word and an empty command are text;
    // so are an unclosed command and a fence without the bang.
    for none in [
        "a!`x`",
        "!``",
        "!`open",
        "```\necho\n```",
        "plain `code`",
        "```! unclosed",
    ] {
        assert!(shell_commands(none).is_empty(), "{none:?}");
    }
    assert_eq!(shell_commands("!`a` and !`b`").len(), 2);
    // Claude Code's inline pattern crosses line breaks, and its fence needs
    // no line of its own; an inline command inside a fence is the fence's.
    let odd = shell_commands("!`open\nclose` ```!  \n!`b`\r\n``` x");
    let commands: Vec<&str> = odd.iter().map(|c| c.command.as_str()).collect();
    assert_eq!(commands, ["open\nclose", "!`b`"]);
}

proptest! {
    #[test]
    fn the_closing_dashes_are_found_where_find_finds_them(text in "[-a\n é]{0,40}") {
        prop_assert_eq!(first_dashes(&text), text.find("---"));
    }
}
