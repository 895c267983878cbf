//! Replays of `tests/oracle/cases/claude-subagents/` and `claude-output-style/`: the
//! subagents listing Claude Code 2.1.328 sent (its built-in agents left out), checked entry
//! by entry against the Claude profile's listing message (provenance `agents`) on the same
//! files, and the output style's part.

use serde_json::Value;

use super::{Fixture, assemble_profile, cases};

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

#[test]
fn every_recorded_subagents_listing_matches() {
    for case_dir in cases("claude-subagents") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "2.1.328");
        let (doc, _) = assemble_profile(&fixture, "claude", &[]);
        let want = strings(&fixture.expected["listing"]);
        let message = doc["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["provenance"] == "agents")
            .unwrap_or_else(|| panic!("{}: no subagents listing", fixture.name()));
        assert_eq!(message["role"], "system", "{}", fixture.name());
        let got: Vec<String> = message["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["content"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(got, want, "{}: the listing differs", fixture.name());
        assert_eq!(message["text"], want.join("\n"), "{}", fixture.name());
        let listed = doc["subagents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["fate"] == "listed")
            .count();
        assert_eq!(listed, want.len(), "{}", fixture.name());
    }
}

#[test]
fn files_claude_code_does_not_list_are_skipped_with_a_reason() {
    let fixture = Fixture::load(&super::cases_dir().join("claude-subagents/fields"));
    let (doc, stderr) = assemble_profile(&fixture, "claude", &[]);
    let skipped: Vec<(String, String)> = doc["subagents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["fate"] == "skipped")
        .map(|a| {
            (
                a["path"].as_str().unwrap().to_string(),
                a["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        skipped,
        [
            (
                ".claude/agents/nodesc.md".to_string(),
                "no non-empty `description` string in its frontmatter".to_string()
            ),
            (
                ".claude/agents/noname.md".to_string(),
                "no `name` string in its frontmatter".to_string()
            ),
        ]
    );
    assert!(stderr.contains(".claude/agents/bad.md: the frontmatter is not valid YAML"));
    assert!(!stderr.contains("notes.txt"));
}

/// `tests/oracle/cases/claude-output-style/`: the output style's part as
/// Claude Code 2.1.328 sent it.
#[test]
fn every_recorded_output_style_matches() {
    for case_dir in cases("claude-output-style") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "2.1.328");
        let (doc, _) = assemble_profile(&fixture, "claude", &[]);
        let message = doc["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["provenance"] == "output-style")
            .unwrap_or_else(|| panic!("{}: no output style", fixture.name()));
        assert_eq!(message["role"], "system", "{}", fixture.name());
        assert_eq!(
            message["text"],
            fixture.expected["output_style"],
            "{}",
            fixture.name()
        );
        assert_eq!(
            doc["output_style"]["content"],
            fixture.expected["output_style"]
        );
    }
}
