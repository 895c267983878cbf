//! Replays the recorded Gemini CLI command cases
//! (`tests/oracle/cases/gemini-commands/`, SPEC §16.4–§16.6): what Gemini
//! CLI 0.61.0 sent for a typed `/name args` line — the parts of its first
//! user turn after its session context — must be the preview's `expand`
//! (its output the parts joined, as many parts), a line Gemini sent as
//! typed must not expand, its `<available_skills>` entries (its own bundled
//! skills left out) must be the preview's skills message, and a
//! repository's `system.md` must be the preview's `system-prompt` part.

use mecatl_prompt::prompt::agents::gemini::skills::listing_text;
use serde_json::Value;

use super::{Fixture, cases, profile_run};

/// The message of `provenance` in an `assemble` document.
fn message<'d>(doc: &'d Value, provenance: &str) -> Option<&'d Value> {
    doc["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .find(|m| m["provenance"] == provenance)
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The typed line's expansion against what Gemini sent.
fn check_expansion(fixture: &Fixture, prompt: &str) {
    let name = fixture.name();
    let (doc, stderr) = profile_run(fixture, "gemini", &["expand", prompt]);
    let expected = &fixture.expected;
    if expected["sent"] == false {
        // Gemini's policy refused the command: the preview shows where the
        // command would run, says so, and runs nothing.
        assert_eq!(doc["expanded"], true, "{name}");
        let shell = doc["shell"].as_array().expect("shell");
        assert!(!shell.is_empty(), "{name}: the command is listed");
        assert!(
            stderr.contains("`gemini -p` refuses the command"),
            "{name}: {stderr}"
        );
        let marker = fixture.case["marker"].as_str().expect("marker");
        assert_eq!(expected["marker_exists"], false, "{name}");
        assert!(
            !fixture.cwd.join(marker).exists(),
            "{name}: {marker} was created"
        );
        return;
    }
    let parts = strings(&expected["parts"]);
    if parts == [prompt] {
        assert_eq!(
            doc["expanded"], false,
            "{name}: Gemini sent the line as typed"
        );
        assert_eq!(doc["output"], prompt, "{name}");
        return;
    }
    assert_eq!(doc["expanded"], true, "{name}: {stderr}");
    assert_eq!(
        doc["output"],
        parts.concat(),
        "{name}: differs from Gemini CLI's"
    );
    assert_eq!(
        doc["parts"],
        parts.len(),
        "{name}: as many parts as Gemini sends"
    );
}

/// The skills message and the system prompt against Gemini's system
/// instruction.
fn check_turn0(fixture: &Fixture) {
    let name = fixture.name();
    let (doc, _) = profile_run(fixture, "gemini", &["assemble"]);
    let expected = &fixture.expected;
    let skills = strings(&expected["skills"]);
    match message(&doc, "skills") {
        Some(listing) => {
            assert_eq!(listing["role"], "system", "{name}");
            assert_eq!(
                listing["text"],
                listing_text(skills.iter().copied()),
                "{name}: the skills listing differs from Gemini CLI's"
            );
            assert_eq!(
                doc["messages"][0]["provenance"], "skills",
                "{name}: sent first"
            );
        }
        None => assert!(skills.is_empty(), "{name}: no skills message"),
    }
    let system_parts = doc["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .flat_map(|m| m["parts"].as_array().expect("parts"))
        .filter(|p| p["kind"] == "system-prompt")
        .count();
    if expected["skills"].is_array() {
        // Gemini's own prompt, with its skills listing, was sent.
        assert_eq!(system_parts, 0, "{name}: the system prompt is Gemini's own");
    }
    if let Some(system) = expected["system"].as_str() {
        let user = message(&doc, "user_instructions").expect("the system instruction");
        let part = &user["parts"][0];
        assert_eq!(part["kind"], "system-prompt", "{name}");
        assert_eq!(part["content"], system, "{name}: differs from Gemini CLI's");
        let shown = serde_json::to_string(&doc).expect("json");
        assert!(
            !shown.contains("abc123"),
            "{name}: another .env value shown"
        );
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded on Linux: the agent's wire text holds absolute paths joined with /, which Windows writes with \\"
)]
fn every_recorded_gemini_command_case_matches() {
    let mut checked = 0;
    for case_dir in cases("gemini-commands") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "0.61.0");
        let prompt = fixture.case["prompt"].as_str().expect("prompt");
        if prompt.starts_with('/') {
            check_expansion(&fixture, prompt);
        } else {
            check_turn0(&fixture);
        }
        checked += 1;
    }
    assert!(checked >= 19, "only {checked} Gemini command cases");
}
