//! Replays the recorded Gemini CLI cases (`tests/oracle/cases/gemini/`,
//! SPEC §16.2, §16.3, §16.6): for every case, the context Gemini CLI 0.61.0
//! sent — the user context at the end of its system instruction and the
//! project context in its first user turn, each between its wrappers —
//! must equal the preview's messages byte for byte, from the binary with
//! the fixture's HOME (`assemble --agent gemini --at … --format json`).

use mecatl_prompt::prompt::agents::gemini::{
    NEWLY_DISCOVERED_CLOSE, NEWLY_DISCOVERED_OPEN, PROJECT_CONTEXT_CLOSE, PROJECT_CONTEXT_OPEN,
    USER_CONTEXT_CLOSE, USER_CONTEXT_OPEN,
};
use serde_json::{Value, json};

use super::{Fixture, cases, profile_run};

/// The body of the message of `provenance` between its wrappers, checking
/// its role and that its parts are its blocks' bodies in order.
fn context(
    doc: &Value,
    fixture: &Fixture,
    provenance: &str,
    role: &str,
    wrap: (&str, &str),
) -> Value {
    let messages = doc["messages"].as_array().expect("messages");
    let Some(message) = messages.iter().find(|m| m["provenance"] == provenance) else {
        return Value::Null;
    };
    assert_eq!(message["role"], role, "{}: {provenance}", fixture.name());
    let text = message["text"].as_str().expect("text");
    let body = text
        .strip_prefix(wrap.0)
        .and_then(|rest| rest.strip_suffix(wrap.1))
        .unwrap_or_else(|| panic!("{}: {provenance} is wrapped: {text:?}", fixture.name()));
    for part in message["parts"].as_array().expect("parts") {
        let content = part["content"].as_str().expect("content");
        assert!(
            body.contains(&format!(" ---\n{content}\n--- End of Context from: ")),
            "{}: the part {} is the body of its block",
            fixture.name(),
            part["path"]
        );
    }
    Value::String(body.to_string())
}

/// What the preview shows for `fixture`, as `{"user", "project"}` like
/// `expected.json`.
fn preview(fixture: &Fixture) -> Value {
    let (doc, _stderr) = profile_run(fixture, "gemini", &["assemble"]);
    assert_eq!(doc["at"], fixture.at().as_str());
    let user = context(
        &doc,
        fixture,
        "user_instructions",
        "system",
        (USER_CONTEXT_OPEN, USER_CONTEXT_CLOSE),
    );
    let project = context(
        &doc,
        fixture,
        "instructions",
        "user",
        (PROJECT_CONTEXT_OPEN, PROJECT_CONTEXT_CLOSE),
    );
    json!({"user": user, "project": project})
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded on Linux: Gemini's wire text holds absolute paths joined with /, which Windows writes with \\"
)]
fn every_recorded_gemini_case_matches() {
    let mut checked = 0;
    for case_dir in cases("gemini") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "0.61.0");
        let got = preview(&fixture);
        for key in ["user", "project"] {
            let (got, want) = (&got[key], &fixture.expected[key]);
            assert_eq!(
                got,
                want,
                "{}: {key} differs from Gemini CLI's",
                fixture.name()
            );
        }
        checked += 1;
    }
    assert!(checked >= 16, "only {checked} Gemini cases");
}

/// The `(absolute path, body)` of each of Gemini's context blocks in
/// `text`, checking the blocks are all of it, joined by a blank line.
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(after) = rest.strip_prefix("--- Context from: ") {
        let (path, body) = after.split_once(" ---\n").expect("a block's head");
        let end = format!("\n--- End of Context from: {path} ---");
        let (body, tail) = body.split_once(&end).expect("a block's end");
        found.push((path.to_string(), body.to_string()));
        rest = tail.strip_prefix("\n\n").unwrap_or(tail);
    }
    assert!(rest.is_empty(), "only blocks: {text:?}");
    found
}

/// The cases whose prompt reads a file below the cwd (`@path`): the context
/// files Gemini CLI then discovered, sent after the prompt between
/// [`NEWLY_DISCOVERED_OPEN`] and [`NEWLY_DISCOVERED_CLOSE`] (which the
/// recording strips), must be the parts `--touch PATH` adds, in order,
/// each the body of its block.
#[test]
#[cfg_attr(
    windows,
    ignore = "recorded on Linux: Gemini's wire text holds absolute paths joined with /, which Windows writes with \\"
)]
fn every_recorded_read_below_the_cwd_adds_what_touch_shows() {
    let mut checked = 0;
    for case_dir in cases("gemini") {
        let fixture = Fixture::load(&case_dir);
        let Some(touch) = fixture.case["touch"].as_array() else {
            continue;
        };
        let touch: Vec<&str> = touch.iter().filter_map(Value::as_str).collect();
        let args: Vec<&str> = std::iter::once("assemble")
            .chain(touch.iter().flat_map(|path| ["--touch", path]))
            .collect();
        let (doc, _stderr) = profile_run(&fixture, "gemini", &args);
        let got: Vec<(String, String)> = doc["touch"]
            .as_array()
            .expect("touch")
            .iter()
            .flat_map(|entry| entry["parts"].as_array().expect("parts"))
            .map(|part| {
                let path = part["path"].as_str().expect("path");
                (
                    format!("{}/{path}", fixture.tree.display()),
                    part["content"].as_str().expect("content").to_string(),
                )
            })
            .collect();
        let want = blocks(fixture.expected["touch"].as_str().expect("a recorded read"));
        assert_eq!(got, want, "{}: what the read adds", fixture.name());
        checked += 1;
    }
    assert!(checked >= 2, "only {checked} Gemini read cases");
    // The wrapper the recording strips is the one the profile names.
    assert!(NEWLY_DISCOVERED_OPEN.ends_with("--- Newly Discovered Project Context ---\n"));
    assert!(NEWLY_DISCOVERED_CLOSE.ends_with("--- End Project Context ---"));
}
