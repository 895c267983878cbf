//! Replays the recorded opencode cases (`tests/oracle/cases/opencode/`,
//! SPEC §18.1, §18.2): for every case, the instructions region opencode
//! 1.18.33 sent in its system message must equal the preview's
//! instructions message byte for byte, and for every `read` the case
//! scripted, the `<system-reminder>` opencode appended must equal the one
//! made of the preview's `--touch` parts — from the binary with the
//! fixture's HOME (`assemble --agent opencode --at … --format json`).

use mecatl_prompt::prompt::agents::opencode::{INSTRUCTIONS_FROM, REMINDER_CLOSE, REMINDER_OPEN};
use serde_json::{Value, json};

use super::{Fixture, cases, profile_run};

/// The absolute path opencode names for a part: a project part's path is
/// workspace-relative, the others' absolute.
fn absolute(fixture: &Fixture, part: &Value) -> String {
    let path = part["path"].as_str().expect("path");
    if part["scope"] == "project" {
        fixture.workspace.join(path).display().to_string()
    } else {
        path.to_string()
    }
}

/// opencode's block for a part.
fn block(fixture: &Fixture, part: &Value) -> String {
    let content = part["content"].as_str().expect("content");
    format!("{INSTRUCTIONS_FROM}{}\n{content}", absolute(fixture, part))
}

/// What the preview shows for `fixture`, as `{"instructions", "touch"}`
/// like `expected.json`.
fn preview(fixture: &Fixture) -> Value {
    let mut args = vec!["assemble".to_string()];
    for path in fixture.case["touch"].as_array().into_iter().flatten() {
        args.push("--touch".to_string());
        args.push(path.as_str().expect("touch path").to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (doc, _stderr) = profile_run(fixture, "opencode", &args);
    assert_eq!(doc["at"], fixture.at().as_str());
    let messages = doc["messages"].as_array().expect("messages");
    let instructions = match messages.iter().find(|m| m["provenance"] == "instructions") {
        Some(message) => {
            assert_eq!(message["role"], "system", "{}", fixture.name());
            let parts = message["parts"].as_array().expect("parts");
            let blocks: Vec<String> = parts.iter().map(|part| block(fixture, part)).collect();
            let text = message["text"].as_str().expect("text");
            assert_eq!(
                text,
                blocks.join("\n"),
                "{}: text is its parts' blocks",
                fixture.name()
            );
            Value::String(text.to_string())
        }
        None => Value::Null,
    };
    let touch: Vec<Value> = doc["touch"]
        .as_array()
        .expect("touch")
        .iter()
        .map(|section| {
            let parts = section["parts"].as_array().expect("parts");
            if parts.is_empty() {
                return Value::String(String::new());
            }
            let blocks: Vec<String> = parts.iter().map(|part| block(fixture, part)).collect();
            Value::String(format!(
                "{REMINDER_OPEN}{}{REMINDER_CLOSE}",
                blocks.join("\n\n")
            ))
        })
        .collect();
    json!({"instructions": instructions, "touch": touch})
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded on Linux: the agent's wire text holds absolute paths joined with /, which Windows writes with \\"
)]
fn every_recorded_opencode_case_matches() {
    let mut checked = 0;
    for case_dir in cases("opencode") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "1.18.33");
        let got = preview(&fixture);
        for key in ["instructions", "touch"] {
            assert_eq!(
                got[key],
                fixture.expected[key],
                "{}: {key} differs from opencode's",
                fixture.name()
            );
        }
        checked += 1;
    }
    assert!(checked >= 24, "only {checked} opencode cases");
}
