//! The policy layer on hand-made findings and in-memory files.

use super::*;
use crate::workspace::MemWorkspace;

fn finding(code: Code, path: &str, line: Option<u64>) -> Finding {
    Finding {
        code,
        severity: code.level(),
        path: path.to_string(),
        line,
        message: format!("{} here", code.as_str()),
        agents: vec![Agent::Claude],
    }
}

fn policy(text: &str) -> LintPolicy {
    let parsed = LintPolicy::parse(text).expect("a valid configuration");
    assert_eq!(parsed.warnings, [], "{text}");
    parsed.policy
}

fn error(text: &str) -> (usize, usize, String) {
    let err = LintPolicy::parse(text).expect_err("an invalid configuration");
    (err.line, err.column, err.message)
}

/// `(code, severity, path)` of what `policy` keeps of `findings` in `ws`.
fn kept(
    policy: &LintPolicy,
    ws: &MemWorkspace,
    findings: Vec<Finding>,
) -> Vec<(&'static str, Level, String)> {
    policy
        .apply(&mut Sources::new(ws), findings)
        .into_iter()
        .map(|f| (f.code.as_str(), f.severity, f.path))
        .collect()
}

use Code::{GeminiPlaceholder as MP011, ImportMissing as MP004, InstructionsDiverge as MP009};

#[test]
fn an_empty_file_is_the_default_policy() {
    for text in ["", "# nothing\n", "[lint]\n"] {
        let p = policy(text);
        assert_eq!(p.agents, None);
        assert!(!p.deny_warnings);
        let all = vec![
            finding(MP004, "a.md", Some(1)),
            finding(MP011, "b.md", None),
        ];
        assert_eq!(kept(&p, &MemWorkspace::new(), all).len(), 2);
    }
}

#[test]
fn every_key_is_read() {
    let p = policy(
        "[lint]\nagents = [\"claude\", \"codex\"]\ndeny = [\"warnings\"]\ndisable = [\"MP011\"]\n\
         [lint.severity]\nMP009 = \"error\"\n",
    );
    assert_eq!(p.agents, Some(vec![Agent::Claude, Agent::Codex]));
    assert!(p.deny_warnings);
    let ws = MemWorkspace::new();
    let findings = vec![
        finding(MP004, "CLAUDE.md", Some(6)),
        finding(MP009, "CLAUDE.md", Some(1)),
        finding(MP011, "c.md", Some(1)),
    ];
    assert_eq!(
        kept(&p, &ws, findings),
        [
            ("MP004", Level::Warning, "CLAUDE.md".to_string()),
            ("MP009", Level::Error, "CLAUDE.md".to_string()),
        ]
    );
}

#[test]
fn overrides_apply_in_order_to_matching_paths() {
    let p = policy(
        "[lint.severity]\nMP004 = \"note\"\n\
         [[lint.overrides]]\npaths = [\"vendor/**\"]\ndisable = [\"MP009\"]\n\
         [[lint.overrides]]\npaths = [\"docs/*.md\", \"vendor/x/**\"]\n\
         severity = { MP004 = \"error\" }\n",
    );
    let ws = MemWorkspace::new();
    let findings = vec![
        finding(MP004, "AGENTS.md", Some(1)),
        finding(MP004, "docs/a.md", Some(1)),
        finding(MP004, "docs/deep/a.md", Some(1)),
        finding(MP004, "vendor/x/a.md", Some(1)),
        finding(MP009, "vendor/CLAUDE.md", Some(1)),
        finding(MP009, "CLAUDE.md", Some(1)),
    ];
    assert_eq!(
        kept(&p, &ws, findings),
        [
            ("MP004", Level::Note, "AGENTS.md".to_string()),
            ("MP004", Level::Error, "docs/a.md".to_string()),
            // `*` does not cross `/`: the override does not reach it.
            ("MP004", Level::Note, "docs/deep/a.md".to_string()),
            ("MP004", Level::Error, "vendor/x/a.md".to_string()),
            ("MP009", Level::Warning, "CLAUDE.md".to_string()),
        ]
    );
}

#[test]
fn an_override_cannot_enable_a_disabled_code() {
    let p = policy(
        "[lint]\ndisable = [\"MP004\"]\n[[lint.overrides]]\npaths = [\"**\"]\n\
         severity = { MP004 = \"error\" }\n",
    );
    let findings = vec![finding(MP004, "a.md", Some(1))];
    assert_eq!(kept(&p, &MemWorkspace::new(), findings), []);
}

#[test]
fn errors_have_a_line_and_column() {
    let known: Vec<&str> = crate::prompt::agents::names().collect();
    assert_eq!(
        error("[lint]\nagents = [\"claude\", \"zed\"]\n"),
        (
            2,
            21,
            format!("unknown agent \"zed\"; known agents: {}", known.join(", "))
        )
    );
    assert_eq!(
        error("[lint]\ndeny = [\"notes\"]\n"),
        (2, 9, "`deny` takes \"warnings\", not \"notes\"".to_string())
    );
    let (line, column, message) = error("[lint]\nseverity = { MP004 = \"fatal\" }\n");
    assert_eq!((line, column), (2, 22));
    assert!(
        message.contains("\"error\", \"warning\" or \"note\""),
        "{message}"
    );
    let (line, column, message) = error("[lint]\ndisabel = [\"MP004\"]\n");
    assert_eq!((line, column), (2, 1));
    assert!(message.contains("unknown field `disabel`"), "{message}");
    let (line, _, message) = error("[lnt]\n");
    assert_eq!(line, 1);
    assert!(message.contains("unknown field `lnt`"), "{message}");
    let (line, column, message) = error("[[lint.overrides]]\npaths = [\"a/{b\"]\n");
    assert_eq!((line, column), (2, 10));
    assert!(message.contains("\"a/{b\" does not compile"), "{message}");
    assert_eq!(error("[[lint.overrides]]\npaths = []\n").0, 1);
    assert_eq!(error("[lint]\nagents = []\n").0, 2);
    assert_eq!(error("[lint\n").0, 1);
    assert_eq!(error("[lint]\nagents = \"claude\"\n").0, 2);
}

#[test]
fn unknown_codes_are_warnings_and_change_nothing() {
    let parsed = LintPolicy::parse(
        "[lint]\ndisable = [\"MP004\", \"MP999\"]\n\
         [[lint.overrides]]\npaths = [\"x/**\"]\nseverity = { XX1 = \"note\" }\n",
    )
    .expect("valid");
    let warnings: Vec<(usize, usize, &str)> = parsed
        .warnings
        .iter()
        .map(|w| (w.line, w.column, w.message.as_str()))
        .collect();
    assert_eq!(
        warnings,
        [
            (
                2,
                21,
                "unknown lint code \"MP999\" (the codes are MP001 to MP036); it is ignored"
            ),
            (
                5,
                14,
                "unknown lint code \"XX1\" (the codes are MP001 to MP036); it is ignored"
            ),
        ]
    );
    let findings = vec![
        finding(MP004, "a.md", Some(1)),
        finding(MP009, "x/a.md", Some(1)),
    ];
    assert_eq!(
        kept(&parsed.policy, &MemWorkspace::new(), findings).len(),
        1
    );
}

#[test]
fn comments_suppress_a_file_or_the_next_line() {
    let ws = MemWorkspace::new()
        .file(
            "CLAUDE.md",
            "<!-- mecatl-prompt: disable MP009,MP011 -->\nText.\n\
             <!-- mecatl-prompt: disable-next-line MP004 -->\n@a.md\n@b.md\n",
        )
        .file(
            "other.md",
            "<!--mecatl-prompt:disable-next-line MP004 MP007-->\n@a.md\n",
        );
    let findings = vec![
        finding(MP009, "CLAUDE.md", Some(1)),
        finding(MP011, "CLAUDE.md", None),
        finding(MP004, "CLAUDE.md", Some(4)),
        finding(MP004, "CLAUDE.md", Some(5)),
        finding(MP004, "CLAUDE.md", None),
        finding(MP004, "other.md", Some(2)),
        finding(MP009, "other.md", Some(2)),
    ];
    let mut sources = Sources::new(&ws);
    let kept: Vec<(String, Option<u64>)> = LintPolicy::default()
        .apply(&mut sources, findings)
        .iter()
        .map(|f| (f.path.clone(), f.line))
        .collect();
    // A finding without a line is not on the next line.
    assert_eq!(
        kept,
        [
            ("CLAUDE.md".to_string(), Some(5)),
            ("CLAUDE.md".to_string(), None),
            ("other.md".to_string(), Some(2))
        ]
    );
    assert_eq!(sources.into_diagnostics(), []);
}

#[test]
fn a_comment_spanning_lines_covers_the_line_after_it_closes() {
    let (found, warnings) =
        Suppressions::scan("<!-- mecatl-prompt: disable-next-line\n  MP004 -->\n@a.md\n");
    assert_eq!(warnings, []);
    assert!(found.covers(&finding(MP004, "a.md", Some(3))));
    assert!(!found.covers(&finding(MP004, "a.md", Some(2))));
}

#[test]
fn bad_comments_are_warned_about_and_other_comments_ignored() {
    let (found, warnings) = Suppressions::scan(
        "<!-- a note -->\n<!-- mecatl-prompt: enable MP004 -->\n\
         <!-- mecatl-prompt: disable -->\n<!-- mecatl-prompt: disable MP04, MP011 -->\n\
         <!-- mecatl-prompt: disable MP004",
    );
    assert_eq!(
        warnings,
        [
            (
                2,
                "unknown directive \"enable\" in a mecatl-prompt comment (it takes `disable` or \
                 `disable-next-line`); it is ignored"
                    .to_string()
            ),
            (
                3,
                "a mecatl-prompt comment that names no code suppresses nothing".to_string()
            ),
            (
                4,
                "unknown lint code \"MP04\" (the codes are MP001 to MP036); it is ignored"
                    .to_string()
            ),
        ]
    );
    // Only MP011 is off: the unclosed comment at the end is not a comment.
    assert!(found.covers(&finding(MP011, "a.md", Some(9))));
    assert!(!found.covers(&finding(MP004, "a.md", Some(9))));
}

#[test]
fn the_warnings_of_comments_name_their_file_and_line() {
    let ws = MemWorkspace::new().file("a.md", "x\n<!-- mecatl-prompt: disable MP999 -->\n");
    let mut sources = Sources::new(&ws);
    let _ = LintPolicy::default().apply(&mut sources, vec![finding(MP004, "a.md", Some(1))]);
    let diagnostics = sources.into_diagnostics();
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].path.as_deref(), Some("a.md"));
    assert!(
        diagnostics[0]
            .reason
            .starts_with("line 2: unknown lint code \"MP999\""),
        "{diagnostics:?}"
    );
}

#[test]
fn a_baseline_matches_by_line_text_and_count() {
    let before = MemWorkspace::new().file("CLAUDE.md", "# Notes\n@a.md\n@a.md\n");
    let old = vec![
        finding(MP004, "CLAUDE.md", Some(2)),
        finding(MP004, "CLAUDE.md", Some(3)),
    ];
    let baseline = Baseline::record(&mut Sources::new(&before), &old);
    assert_eq!(baseline.findings.len(), 1, "{baseline:?}");
    assert_eq!(baseline.findings[0].count, 2);
    assert_eq!(baseline.findings[0].line_hash.len(), 16);
    let text = baseline.to_json();
    assert_eq!(Baseline::parse(&text), Ok(baseline.clone()));

    // Two lines above, the same findings moved down; a third is new.
    let after = MemWorkspace::new().file("CLAUDE.md", "# Notes\n\nMore.\n  @a.md\n@a.md\n@a.md\n");
    let now = vec![
        finding(MP004, "CLAUDE.md", Some(4)),
        finding(MP004, "CLAUDE.md", Some(5)),
        finding(MP004, "CLAUDE.md", Some(6)),
        finding(MP009, "CLAUDE.md", Some(5)),
    ];
    let left = baseline.filter(&mut Sources::new(&after), now);
    let left: Vec<(&str, Option<u64>)> = left.iter().map(|f| (f.code.as_str(), f.line)).collect();
    assert_eq!(left, [("MP004", Some(6)), ("MP009", Some(5))]);
}

#[test]
fn a_baseline_of_another_shape_is_an_error_with_a_place() {
    let wrong =
        Baseline::parse("{\n  \"schema\": \"mecatl-prompt/snapshot-v1\",\n  \"findings\": []\n}")
            .expect_err("another schema");
    assert_eq!((wrong.line, wrong.column), (2, 3));
    let broken = Baseline::parse(
        "{\n  \"schema\": \"mecatl-prompt/lint-baseline-v1\",\n  \"findings\": [{}]\n}",
    )
    .expect_err("an entry without fields");
    assert_eq!(broken.line, 3);
    assert!(Baseline::parse("not json").is_err());
    let unknown = Baseline {
        schema: BASELINE_SCHEMA.to_string(),
        findings: vec![BaselineEntry {
            path: "a.md".into(),
            code: "MP999".into(),
            line_hash: "0".into(),
            count: 1,
        }],
    };
    assert_eq!(unknown.unknown_codes().len(), 1);
}
