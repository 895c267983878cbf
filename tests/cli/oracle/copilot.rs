//! Replays the recorded GitHub Copilot CLI cases
//! (`tests/oracle/cases/copilot/`, SPEC §17.2–§17.5): for every case, the
//! instruction region Copilot CLI 1.0.102 sent after `</tools>\n` in its
//! system message must equal the preview's system message byte for byte
//! (`"\n\n"` when nothing loads), from the binary with the fixture's HOME
//! (`assemble --agent copilot --at … --format json`).

use mecatl_prompt::prompt::agents::copilot::region::{WRAP_CLOSE, WRAP_OPEN};
use serde_json::Value;

use super::{Fixture, cases, profile_run};

/// The preview's region for `fixture`, checking that each instruction
/// part is the inside of one of its wrappers and each other part is sent
/// as is.
fn region(fixture: &Fixture) -> String {
    let (doc, _stderr) = profile_run(fixture, "copilot", &["assemble"]);
    assert_eq!(doc["at"], fixture.at().as_str());
    let messages = doc["messages"].as_array().expect("messages");
    let Some(message) = messages.iter().find(|m| m["provenance"] == "instructions") else {
        return "\n\n".to_string();
    };
    assert_eq!(message["role"], "system", "{}", fixture.name());
    let text = message["text"].as_str().expect("text");
    for part in message["parts"].as_array().expect("parts") {
        let content = part["content"].as_str().expect("content");
        let sent = match part["kind"].as_str() {
            Some("instructions") => format!("{WRAP_OPEN}{content}{WRAP_CLOSE}"),
            _ => content.to_string(),
        };
        assert!(
            text.contains(&sent),
            "{}: the part {} is sent as is",
            fixture.name(),
            part["path"]
        );
    }
    text.to_string()
}

#[test]
fn every_recorded_copilot_case_matches() {
    let mut checked = 0;
    for case_dir in cases("copilot") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "1.0.102");
        let want = match &fixture.expected["region"] {
            Value::String(region) => region.clone(),
            other => panic!("{}: region {other}", fixture.name()),
        };
        assert_eq!(
            region(&fixture),
            want,
            "{}: the region differs from GitHub Copilot CLI's",
            fixture.name()
        );
        checked += 1;
    }
    assert!(checked >= 14, "only {checked} Copilot cases");
}
