//! Replays the recorded opencode command, skill and subagent cases
//! (`tests/oracle/cases/opencode-commands/`, SPEC §18.3, §18.4, §19.7):
//! what opencode 1.18.33 sent for a typed `/name args` line must be the
//! preview's `expand` (an attached file listed where opencode added parts
//! after the text), its `<available_skills>` entries (its built-in skill
//! left out) the preview's skills message, and the repository's lines of
//! its `task` tool's agent list the preview's subagents message.

use mecatl_prompt::prompt::agents::opencode::skills::listing_text;
use serde_json::Value;

use super::{Fixture, cases, profile_run};

/// The text of the message of `provenance` in an `assemble` document.
fn message_text<'d>(doc: &'d Value, provenance: &str) -> Option<&'d str> {
    doc["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .find(|m| m["provenance"] == provenance)
        .and_then(|m| m["text"].as_str())
}

fn check(fixture: &Fixture) {
    let name = fixture.name();
    let expected = &fixture.expected;
    let prompt = fixture.case["prompt"].as_str().expect("prompt");
    if prompt.starts_with('/') {
        let (doc, stderr) = profile_run(fixture, "opencode", &["expand", prompt]);
        assert_eq!(doc["expanded"], true, "{name}: {stderr}");
        assert_eq!(
            doc["output"], expected["expansion"],
            "{name}: differs from opencode's"
        );
        let attached = doc["attachments"].as_array().map_or(0, Vec::len);
        assert_eq!(
            attached > 0,
            expected["extra_parts"].as_u64() > Some(0),
            "{name}: an attachment where opencode adds parts"
        );
    }
    let (doc, _) = profile_run(fixture, "opencode", &["assemble"]);
    let skills: Vec<&str> = expected["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let listing = (!skills.is_empty()).then(|| listing_text(skills.into_iter()));
    assert_eq!(
        message_text(&doc, "skills"),
        listing.as_deref(),
        "{name}: the skills listing differs from opencode's"
    );
    let agents = expected["subagents"].as_str().filter(|s| !s.is_empty());
    assert_eq!(
        message_text(&doc, "agents"),
        agents,
        "{name}: the subagents listing differs from opencode's"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded on Linux: the agent's wire text holds absolute paths joined with /, which Windows writes with \\"
)]
fn every_recorded_opencode_command_case_matches() {
    let mut checked = 0;
    for case_dir in cases("opencode-commands") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "1.18.33");
        check(&fixture);
        checked += 1;
    }
    assert!(checked >= 11, "only {checked} opencode command cases");
}
