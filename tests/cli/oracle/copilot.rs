//! Replays the recorded GitHub Copilot CLI cases
//! (`tests/oracle/cases/copilot/`, SPEC §17.2–§17.5): for every case, the
//! instruction region Copilot CLI 1.0.102 sent after `</tools>\n` in its
//! system message must equal the preview's system message byte for byte
//! (`"\n\n"` when nothing loads), and for a case with `touch` the user
//! message of reminders viewing that file added must equal `"\n"` and the
//! touch section's parts joined by `"\n"`, from the binary with the
//! fixture's HOME (`assemble --agent copilot --at … [--touch …] --format
//! json`); for a case recorded with trust, the listing's `<skill>` blocks
//! (Copilot's built-in ones left out) must equal the skills message's
//! parts; for a case typed into the interactive session, `expand PROMPT`'s
//! output must equal the message Copilot sent, and for a case typed on
//! `copilot -p` (`print`), `expand --print PROMPT`'s output must; for a
//! case with `agents`, the custom agents listed in Copilot's `task` tool
//! must equal the text of the preview's message of provenance `agents`.

use mecatl_prompt::prompt::agents::copilot::region::{WRAP_CLOSE, WRAP_OPEN};
use serde_json::Value;

use super::{Fixture, cases, profile_run};

/// The preview's document for `fixture`.
fn assemble(fixture: &Fixture) -> Value {
    let touch = fixture.case["touch"].as_str();
    let mut args = vec!["assemble"];
    args.extend(touch.iter().flat_map(|path| ["--touch", *path]));
    let (doc, _stderr) = profile_run(fixture, "copilot", &args);
    assert_eq!(doc["at"], fixture.at().as_str());
    doc
}

/// The user message the preview's touch section stands for.
fn touch(doc: &Value) -> String {
    let parts = doc["touch"][0]["parts"].as_array().expect("touch parts");
    let blocks: Vec<&str> = parts
        .iter()
        .map(|part| part["content"].as_str().expect("content"))
        .collect();
    format!("\n{}", blocks.join("\n"))
}

/// The `<skill>` blocks of the preview's listing in `doc`, in order.
fn skills(doc: &Value) -> Value {
    let messages = doc["messages"].as_array().expect("messages");
    let listing = messages.iter().find(|m| m["provenance"] == "skills");
    let blocks = listing.map_or_else(Vec::new, |message| {
        let parts = message["parts"].as_array().expect("parts");
        parts.iter().map(|part| part["content"].clone()).collect()
    });
    Value::Array(blocks)
}

/// The custom agents of the preview's listing in `doc`, as Copilot's
/// `task` tool lists them (empty without one).
fn agents(doc: &Value) -> String {
    let messages = doc["messages"].as_array().expect("messages");
    let listing = messages.iter().find(|m| m["provenance"] == "agents");
    listing.map_or_else(String::new, |message| {
        message["text"].as_str().expect("text").to_string()
    })
}

/// The preview's region in `doc`, checking that each instruction part is
/// the inside of one of its wrappers and each other part is sent as is.
fn region(fixture: &Fixture, doc: &Value) -> String {
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
#[cfg_attr(
    windows,
    ignore = "recorded on Linux: the agent's wire text holds absolute paths joined with /, which Windows writes with \\"
)]
fn every_recorded_copilot_case_matches() {
    let (mut checked, mut touched, mut listed) = (0, 0, 0);
    let (mut expanded, mut printed, mut agented) = (0, 0, 0);
    for case_dir in cases("copilot") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "1.0.102");
        let want = match &fixture.expected["region"] {
            Value::String(region) => region.clone(),
            other => panic!("{}: region {other}", fixture.name()),
        };
        let doc = assemble(&fixture);
        assert_eq!(
            region(&fixture, &doc),
            want,
            "{}: the region differs from GitHub Copilot CLI's",
            fixture.name()
        );
        if let Some(want) = fixture.expected["expansion"].as_str() {
            let prompt = fixture.case["prompt"].as_str().expect("prompt");
            let print = fixture.case["print"] == true;
            let mut args = vec!["expand"];
            args.extend(print.then_some("--print"));
            args.push(prompt);
            let (doc, _stderr) = profile_run(&fixture, "copilot", &args);
            assert_eq!(
                doc["output"].as_str(),
                Some(want),
                "{}: the expansion differs from GitHub Copilot CLI's",
                fixture.name()
            );
            assert_eq!(doc["expanded"], !print, "{}", fixture.name());
            if print {
                printed += 1;
            } else {
                expanded += 1;
            }
        }
        if let Some(want) = fixture.expected["agents"].as_str() {
            assert_eq!(
                agents(&doc),
                want,
                "{}: the custom agents differ from GitHub Copilot CLI's",
                fixture.name()
            );
            agented += 1;
        }
        if let Some(want) = fixture.expected.get("skills") {
            assert_eq!(
                &skills(&doc),
                want,
                "{}: the listing differs from GitHub Copilot CLI's",
                fixture.name()
            );
            listed += 1;
        }
        if let Some(want) = fixture.expected["touch"].as_str() {
            assert_eq!(
                touch(&doc),
                want,
                "{}: the view's reminders differ from GitHub Copilot CLI's",
                fixture.name()
            );
            touched += 1;
        }
        checked += 1;
    }
    assert!(checked >= 17, "only {checked} Copilot cases");
    assert!(touched >= 2, "only {touched} Copilot views");
    assert!(listed >= 2, "only {listed} Copilot listings");
    assert!(expanded >= 3, "only {expanded} Copilot expansions");
    assert!(printed >= 1, "only {printed} Copilot print-mode lines");
    assert!(agented >= 2, "only {agented} Copilot custom-agent listings");
}
