use super::*;
use proptest::prelude::*;

fn paths(front: &str) -> Vec<String> {
    parse_paths(front).unwrap()
}

fn problem(front: &str) -> FrontmatterError {
    parse_paths(front).unwrap_err()
}

#[test]
fn fields_are_read_as_text_null_or_collection() {
    let front = "name: n
description: 42
empty:
tilde: ~
list: [a]
map: {a: 1}
flag: true
";
    let got = parse_fields(
        front,
        &[
            "name",
            "description",
            "empty",
            "tilde",
            "list",
            "map",
            "flag",
            "absent",
        ],
    )
    .unwrap();
    assert_eq!(
        got,
        vec![
            Some(FieldValue::Text("n".into())),
            Some(FieldValue::Text("42".into())),
            Some(FieldValue::Null),
            Some(FieldValue::Null),
            Some(FieldValue::Collection),
            Some(FieldValue::Collection),
            Some(FieldValue::Text("true".into())),
            None,
        ]
    );
    assert_eq!(parse_fields("", &["name"]).unwrap(), vec![None]);
    assert_eq!(
        parse_fields(
            "a: 1
a: 2
",
            &["a"]
        )
        .unwrap_err()
        .problem,
        FrontmatterProblem::DuplicateKey
    );
    assert_eq!(
        parse_fields(
            "- a
",
            &["a"]
        )
        .unwrap_err()
        .problem,
        FrontmatterProblem::NotMapping
    );
}

#[test]
fn values_of_other_keys_do_not_matter_to_paths() {
    assert_eq!(
        paths(
            "x: !custom value
y: {deep: [1, {z: 2}]}
n: null
paths: a
"
        ),
        vec!["a"]
    );
    assert_eq!(
        paths(
            "paths: null
"
        ),
        vec!["null"]
    );
    assert_eq!(
        paths(
            "paths:
"
        ),
        Vec::<String>::new()
    );
}

#[test]
fn split_finds_block_and_removes_one_newline() {
    let got = split(b"---\npaths: a\n---\n\nbody\n");
    assert_eq!(got.front.as_deref(), Some("paths: a\n"));
    assert_eq!(got.body, "\nbody\n");
}

#[test]
fn split_accepts_empty_block_and_closing_fence_at_eof() {
    assert_eq!(
        split(b"---\n---\nbody"),
        Split {
            front: Some(String::new()),
            body: "body".into()
        }
    );
    assert_eq!(
        split(b"---\nx: 1\n---"),
        Split {
            front: Some("x: 1\n".into()),
            body: String::new()
        }
    );
}

#[test]
fn split_strips_one_bom_and_normalises_crlf_in_a_block() {
    let got = split("\u{feff}---\r\npaths: a\r\n---\r\nline1\r\nline2".as_bytes());
    assert_eq!(got.front.as_deref(), Some("paths: a\n"));
    assert_eq!(got.body, "line1\nline2");
    let two_boms = "\u{feff}\u{feff}---\nx: 1\n---\nb";
    assert_eq!(split(two_boms.as_bytes()).front, None);
}

#[test]
fn split_without_block_keeps_raw_file_with_bom_and_crlf() {
    let raw = "\u{feff}# Title\r\nbody\r\n";
    assert_eq!(
        split(raw.as_bytes()),
        Split {
            front: None,
            body: raw.into()
        }
    );
}

#[test]
fn split_unterminated_block_is_all_body() {
    let raw = "\u{feff}---\r\npaths: a\r\nbody\r\n";
    assert_eq!(split(raw.as_bytes()).front, None);
    assert_eq!(split(raw.as_bytes()).body, raw);
    assert_eq!(split(b"---").front, None);
    assert_eq!(split(b"---\n").front, None);
}

#[test]
fn split_fences_must_be_exact_lines() {
    assert_eq!(split(b"--- \nx: 1\n---\nb").front, None);
    assert_eq!(split(b"----\nx: 1\n---\nb").front, None);
    let got = split(b"---\nx: 1\n ---\n---- \n---\nbody");
    assert_eq!(got.front.as_deref(), Some("x: 1\n ---\n---- \n"));
    assert_eq!(got.body, "body");
    // A lone CR is not a line break: `---\r` does not close.
    assert_eq!(split(b"---\nx: 1\n---\rmore").front, None);
}

#[test]
fn split_decodes_invalid_utf8_lossily() {
    let got = split(b"---\npaths: a\n---\nok \xff end");
    assert_eq!(got.body, "ok \u{fffd} end");
    assert_eq!(split(b"\xfe\xff").body, "\u{fffd}\u{fffd}");
}

#[test]
fn paths_as_sequence() {
    assert_eq!(
        paths("paths:\n  - '**/*.go'\n  - go.mod\n"),
        vec!["**/*.go", "go.mod"]
    );
    assert_eq!(paths("paths: [a, \"b c\"]\n"), vec!["a", "b", "c"]);
}

#[test]
fn paths_as_single_scalar() {
    assert_eq!(paths("paths: src/**/*.rs\n"), vec!["src/**/*.rs"]);
    assert_eq!(paths("paths: \"**/*.ts\"\n"), vec!["**/*.ts"]);
    assert_eq!(paths("paths: '**/*.ts'\n"), vec!["**/*.ts"]);
}

#[test]
fn paths_comma_and_whitespace_lists() {
    assert_eq!(paths("paths: a, b ,c,,\n"), vec!["a", "b", "c"]);
    assert_eq!(paths("paths: a b\tc\n"), vec!["a", "b", "c"]);
    assert_eq!(
        paths("paths:\n  - a, b\n  - c d\n"),
        vec!["a", "b", "c", "d"]
    );
}

#[test]
fn braces_keep_their_commas() {
    assert_eq!(paths("paths: '**/*.{ts,tsx}'\n"), vec!["**/*.{ts,tsx}"]);
    assert_eq!(
        paths("paths: '{a,b}/*.{c,{d,e}},x'\n"),
        vec!["{a,b}/*.{c,{d,e}}", "x"]
    );
    // An unbalanced brace does not protect its commas.
    assert_eq!(split_globs("a{b,c"), vec!["a{b", "c"]);
    assert_eq!(split_globs("a}b,c"), vec!["a}b", "c"]);
    // An escaped brace is literal.
    assert_eq!(split_globs("a\\{b,c}"), vec!["a\\{b", "c}"]);
    // Whitespace splits even inside braces.
    assert_eq!(split_globs("*.{ts, tsx}"), vec!["*.{ts", "tsx}"]);
}

#[test]
fn non_string_scalars_keep_their_literal_text() {
    assert_eq!(paths("paths: true\n"), vec!["true"]);
    assert_eq!(paths("paths: 42\n"), vec!["42"]);
    assert_eq!(paths("paths: null\n"), vec!["null"]);
    assert_eq!(paths("paths: ~\n"), vec!["~"]);
    assert_eq!(paths("paths: 0x1F\n"), vec!["0x1F"]);
    assert_eq!(paths("paths: 1.50\n"), vec!["1.50"]);
    assert_eq!(paths("paths: .nan\n"), vec![".nan"]);
    assert_eq!(
        paths("paths:\n  - true\n  - 42\n  - null\n  - 3.0\n"),
        vec!["true", "42", "null", "3.0"]
    );
    assert_eq!(paths("x: &q 42\npaths: *q\n"), vec!["42"]);
}

#[test]
fn empty_or_absent_paths_is_unconditional() {
    let empty: Vec<String> = Vec::new();
    assert_eq!(paths("paths:\n"), empty);
    assert_eq!(paths("paths: ''\n"), empty);
    assert_eq!(paths("paths: []\n"), empty);
    assert_eq!(paths("paths:\n  -\n"), empty);
    assert_eq!(paths("paths: ' , '\n"), empty);
    assert_eq!(paths("description: hi\n"), empty);
    assert_eq!(paths(""), empty);
    assert_eq!(paths("  \n# only a comment\n"), empty);
    assert_eq!(paths("~\n"), empty);
}

#[test]
fn other_keys_never_make_a_valid_block_malformed() {
    let front = "name: other\ndescription: >\n  folded\n  text\nx: .nan\ny: !custom [1, {a: b}]\n\
                 z: 2001-12-14\n<<: {q: 1}\n42: answer\nnested: {a: [1, 2, {b: c}]}\npaths: a\n";
    assert_eq!(paths(front), vec!["a"]);
}

#[test]
fn mapping_paths_is_malformed() {
    let err = problem("paths:\n  a: 1\n");
    assert_eq!(err.problem, FrontmatterProblem::PathsMapping);
    assert_eq!((err.line, err.column), (3, 3));
    assert_eq!(
        problem("paths: {a: 1}\n").problem,
        FrontmatterProblem::PathsMapping
    );
}

#[test]
fn nested_paths_item_is_malformed() {
    let err = problem("paths:\n  - a\n  - [b, c]\n");
    assert_eq!(err.problem, FrontmatterProblem::NestedPathsItem);
    assert_eq!((err.line, err.column), (4, 5));
    assert_eq!(
        problem("paths: [a, {b: c}]\n").problem,
        FrontmatterProblem::NestedPathsItem
    );
}

#[test]
fn unquoted_star_glob_is_malformed_with_hint() {
    let err = problem("paths: **/*.ts\n");
    assert_eq!(err.problem, FrontmatterProblem::Alias);
    assert_eq!((err.line, err.column), (2, 8));
    assert_eq!(
        err.to_string(),
        "malformed YAML frontmatter at line 2, column 8: an unquoted value starting with `*` \
         is a YAML alias, not a glob; quote the glob, e.g. `paths: \"**/*.ts\"`"
    );
    let err = problem("description: x\npaths:\n  - src/a\n  - *.md\n");
    assert_eq!(err.problem, FrontmatterProblem::Alias);
    assert_eq!((err.line, err.column), (5, 5));
    assert_eq!(problem("paths: *\n").problem, FrontmatterProblem::Alias);
}

#[test]
fn syntax_errors_are_located_and_never_echo_content() {
    let secret = "SECRET_TOKEN_value";
    let cases = [
        format!("a: 1\n  {secret}: 2\n"),
        format!("paths: \"{secret}\n"),
        format!("paths: [{secret}\n"),
        format!("{secret}: 1\n{secret}: 2\n"),
        format!("paths: @{secret}\n"),
        format!("{secret}\n"),
        format!("paths: a\n...\n{secret}\n"),
    ];
    for front in &cases {
        let err = problem(front);
        let text = err.to_string();
        assert!(!text.contains(secret), "{text}");
        assert!(
            text.starts_with("malformed YAML frontmatter at line "),
            "{text}"
        );
    }
    let err = problem(&cases[0]);
    assert_eq!((err.line, err.column), (3, 21));
    assert_eq!(problem(&cases[3]).problem, FrontmatterProblem::DuplicateKey);
    assert_eq!(problem(&cases[5]).problem, FrontmatterProblem::NotMapping);
    assert_eq!((problem(&cases[5]).line, problem(&cases[5]).column), (2, 1));
    assert_eq!(
        problem(&cases[1]).problem,
        FrontmatterProblem::Syntax("a quoted value is not closed")
    );
    assert_eq!(problem("- a\n").problem, FrontmatterProblem::NotMapping);
}

#[test]
fn billion_laughs_fails_fast_on_the_budget() {
    let mut front = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..10u8 {
        let name = char::from(b'a' + level);
        let prev = char::from(b'a' + level - 1);
        let refs = vec![format!("*{prev}"); 9].join(", ");
        front.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    front.push_str("paths: *j\n");
    let err = problem(&front);
    assert_eq!(err.problem, FrontmatterProblem::Budget);
}

#[test]
fn too_many_aliases_fail_on_the_budget() {
    let refs = vec!["*a"; limits::YAML_MAX_ALIASES + 1].join(", ");
    let front = format!("a: &a x\nb: [{refs}]\npaths: y\n");
    assert_eq!(problem(&front).problem, FrontmatterProblem::Budget);
    let refs = vec!["*a"; limits::YAML_MAX_ALIASES - 1].join(", ");
    let front = format!("a: &a x\nb: [{refs}]\npaths: y\n");
    assert_eq!(paths(&front), vec!["y"]);
}

#[test]
fn deep_nesting_fails_on_the_budget_without_blowing_the_stack() {
    let flow = format!("paths: {}\n", "[".repeat(10_000));
    assert_eq!(problem(&flow).problem, FrontmatterProblem::Budget);
    let mut block = String::from("x:\n");
    for depth in 1..10_000 {
        block.push_str(&" ".repeat(depth));
        block.push_str("-\n");
    }
    assert_eq!(problem(&block).problem, FrontmatterProblem::Budget);
    let maps: String = (0..10_000)
        .map(|depth| format!("{}k:\n", " ".repeat(depth)))
        .collect();
    assert_eq!(problem(&maps).problem, FrontmatterProblem::Budget);
}

#[test]
fn nesting_within_budget_is_accepted() {
    let within = limits::YAML_MAX_DEPTH - 1;
    let front = format!(
        "x: {}{}\npaths: a\n",
        "[".repeat(within),
        "]".repeat(within)
    );
    assert_eq!(paths(&front), vec!["a"]);
}

#[test]
fn too_many_nodes_fail_on_the_budget() {
    let items = vec!["x"; limits::YAML_MAX_NODES + 1].join(", ");
    let front = format!("big: [{items}]\npaths: a\n");
    assert_eq!(problem(&front).problem, FrontmatterProblem::Budget);
}

fn yaml_line() -> impl Strategy<Value = String> {
    "[a-z]{1,8}: [a-z0-9 ]{0,12}"
}

proptest! {
    #[test]
    fn split_round_trips_front_and_body(
        lines in proptest::collection::vec(yaml_line(), 0..5),
        body in "(?s).{0,200}",
        crlf in any::<bool>(),
        bom in any::<bool>(),
    ) {
        let front: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut raw = String::new();
        if bom {
            raw.push(BOM);
        }
        raw.push_str(&format!("---{eol}"));
        for line in &lines {
            raw.push_str(&format!("{line}{eol}"));
        }
        raw.push_str(&format!("---{eol}"));
        raw.push_str(&body);
        let got = split(raw.as_bytes());
        prop_assert_eq!(got.front, Some(front));
        prop_assert_eq!(got.body, body.replace("\r\n", "\n"));
    }

    #[test]
    fn split_without_opening_fence_returns_input(raw in "(?s).{0,200}") {
        prop_assume!(!raw.trim_start_matches(BOM).starts_with("---"));
        let got = split(raw.as_bytes());
        prop_assert_eq!(got.front, None);
        prop_assert_eq!(got.body, raw);
    }

    #[test]
    fn parse_paths_never_panics(front in "(?s).{0,300}") {
        let _ = parse_paths(&front);
    }

    #[test]
    fn split_globs_pieces_are_trimmed_and_non_empty(value in "[a-z{},* \t]{0,40}") {
        for glob in split_globs(&value) {
            prop_assert!(!glob.is_empty());
            prop_assert!(!glob.contains(char::is_whitespace));
        }
    }
}
