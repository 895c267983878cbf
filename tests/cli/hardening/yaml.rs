//! Hostile YAML in rule frontmatter (SPEC §7.2, §10): alias bombs and deep
//! nesting hit the parser's budgets and drop the one rule with a fatal
//! diagnostic that never echoes the file; the run stays quick.

use super::{run, trusted_json};
use crate::support::TestEnv;

const BUDGET: &str =
    "the YAML exceeds the frontmatter budget (nesting depth 16, 64 aliases, 10000 nodes)";

/// Nine levels of nine-fold aliases: 9^9 strings once expanded.
fn billion_laughs() -> String {
    let mut yaml = String::from(
        "---\na: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n",
    );
    let mut previous = 'a';
    for level in 'b'..='j' {
        let refs = vec![format!("*{previous}"); 9].join(", ");
        yaml.push_str(&format!("{level}: &{level} [{refs}]\n"));
        previous = level;
    }
    yaml.push_str("paths: *j\n---\nLaughs.\n");
    yaml
}

#[test]
fn yaml_bombs_and_deep_nesting_drop_only_that_rule() {
    let env = TestEnv::new();
    env.write(".claude/rules/laughs.md", billion_laughs());
    let depth = 10_000;
    env.write(
        ".claude/rules/flow.md",
        format!(
            "---\npaths: {}{}\n---\nFlow.\n",
            "[".repeat(depth),
            "]".repeat(depth)
        ),
    );
    // Block style grows quadratically; 500 levels are far past the budget.
    let block: String = (0..500).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
    env.write(
        ".claude/rules/block.md",
        format!("---\npaths:\n{block}---\nBlock.\n"),
    );
    env.write(
        ".claude/rules/wide.md",
        format!(
            "---\nx: [{}]\npaths: a\n---\nWide.\n",
            vec!["1"; 10_001].join(", ")
        ),
    );
    env.write(
        ".claude/rules/ok.md",
        "---\npaths: \"**/*.{ts,tsx}\"\n---\nFine.\n",
    );
    let out = trusted_json(&env, &["rules", "list", "--check"]);
    out.assert_code(1);
    let rules = out.json()["rules"].clone();
    assert_eq!(rules.as_array().map(Vec::len), Some(1), "{rules}");
    assert_eq!(rules[0]["paths"], serde_json::json!(["**/*.{ts,tsx}"]));
    assert_eq!(
        out.problems(),
        [
            format!(
                "fatal .claude/rules/block.md: malformed YAML frontmatter at line 19, column 17: {BUDGET}"
            ),
            format!(
                "fatal .claude/rules/flow.md: malformed YAML frontmatter at line 2, column 24: {BUDGET}"
            ),
            format!(
                "fatal .claude/rules/laughs.md: malformed YAML frontmatter at line 6, column 8: {BUDGET}"
            ),
            format!(
                "fatal .claude/rules/wide.md: malformed YAML frontmatter at line 2, column 29996: {BUDGET}"
            ),
        ]
    );
    assert!(
        !out.stdout.contains("lol"),
        "the file's text is never echoed"
    );
    // assemble keeps the good rule and reports the same drops.
    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    assert!(
        out.message("rules")
            .ends_with("<rule name=\"ok\">\nApplies when: **/*.{ts,tsx}\nFine.\n</rule>")
    );
    assert_eq!(out.problems().len(), 4);
}

#[test]
fn an_unquoted_star_glob_is_an_alias_with_a_hint() {
    let env = TestEnv::new();
    env.write(".claude/rules/star.md", "---\npaths: **/*.ts\n---\nStar.\n");
    let out = run(&env, &["--trust-project", "rules", "list", "--check"]);
    out.assert_code(1);
    assert_eq!(out.stdout, "NAME  ORIGIN  APPLIES-WHEN  BYTES  SOURCE\n");
    assert_eq!(
        out.stderr,
        "mecatl-prompt: error: .claude/rules/star.md: malformed YAML frontmatter at line 2, column 8: an unquoted value starting with `*` is a YAML alias, not a glob; quote the glob, e.g. `paths: \"**/*.ts\"`\n"
    );
}

#[test]
fn a_command_frontmatter_is_never_parsed_as_yaml() {
    let env = TestEnv::new();
    env.write(".claude/commands/laughs.md", billion_laughs());
    env.write(
        ".claude/commands/deep.md",
        format!("---\ndescription: {}\n---\nDeep $1.\n", "[".repeat(10_000)),
    );
    let out = run(&env, &["--trust-project", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(
        out.stdout,
        format!("/deep  {}…\n/laughs  Laughs.\n", "[".repeat(79))
    );
    assert_eq!(out.stderr, "");
    let out = run(&env, &["--trust-project", "expand", "/deep", "x"]);
    assert_eq!(out.stdout, "Deep x.\n\n");
}
