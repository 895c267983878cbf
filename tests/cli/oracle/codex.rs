//! Replays the recorded Codex cases (`tests/oracle/cases/codex/`, SPEC
//! §14.4, §14.6): for every case, what the preview shows must equal what
//! Codex 0.169.0 sent — the global text and the project chain byte for
//! byte, the custom skill entries in order, and the `<skill>` blocks of an
//! exec run.
//!
//! [`preview`] is the one place that produces the preview's side, in the
//! shape of `expected.json`, all of it from the binary with the fixture's
//! HOME and CODEX_HOME, so the replay covers the whole path (context,
//! readers, composition root, rendering): the instructions from
//! `assemble --agent codex --at … --format json` (the global text is the
//! `user` part, the project chain the other parts joined by a blank line,
//! and the message's `text` must be the two joined as Codex sends them);
//! the skills from `commands list --agent codex`, checked against
//! `assemble`'s skills listing message; the blocks from
//! `expand --agent codex PROMPT`.

use std::path::Path;

use mecatl_prompt::prompt::agents::codex::config as codex_config;
use mecatl_prompt::prompt::agents::codex::instructions_text;
use serde_json::{Value, json};

use super::{Fixture, cases, profile_run};

/// What the binary prints for `args` under `--agent codex --at … --format
/// json`, with the fixture's HOME (`$CODEX_HOME` is `~/.codex`, its
/// default).
fn binary(fixture: &Fixture, args: &[&str]) -> Value {
    let (doc, stderr) = profile_run(fixture, "codex", args);
    assert!(
        !stderr.contains("config.toml"),
        "{}: the fixture's config.toml is read without a problem: {stderr}",
        fixture.name()
    );
    doc
}

/// The global text and the project chain of the binary's instructions
/// message, checking that its text joins them as Codex does.
fn instructions(doc: &Value, fixture: &Fixture) -> (Option<String>, Option<String>) {
    assert_eq!(doc["agent"], "codex");
    assert_eq!(doc["at"], fixture.at().as_str());
    let messages = doc["messages"].as_array().expect("messages");
    let Some(message) = messages.iter().find(|m| m["provenance"] == "instructions") else {
        return (None, None);
    };
    assert_eq!(
        messages[0]["provenance"],
        "instructions",
        "{}: the instructions come first",
        fixture.name()
    );
    let parts = message["parts"].as_array().expect("parts");
    let content = |part: &Value| part["content"].as_str().expect("content").to_string();
    let global = parts.iter().find(|p| p["scope"] == "user").map(content);
    let project: Vec<String> = parts
        .iter()
        .filter(|p| p["scope"] != "user")
        .map(content)
        .collect();
    let project = (!project.is_empty()).then(|| project.join("\n\n"));
    assert_eq!(
        message["text"].as_str(),
        instructions_text(global.as_deref(), project.as_deref()).as_deref(),
        "{}: the message's text",
        fixture.name()
    );
    (global, project)
}

/// The skills as the binary lists them (`commands list --agent codex`),
/// each `{name, description, path}` with the path absolute, after checking
/// that `assemble`'s skills listing message holds the same skills as Codex
/// renders its entries, in the same order.
fn skills(doc: &Value, fixture: &Fixture) -> Vec<Value> {
    let rows = binary(fixture, &["commands", "list"]);
    let rows = rows["commands"].as_array().expect("commands").clone();
    let lines: Vec<String> = rows
        .iter()
        .map(|row| {
            format!(
                "- {}: {} (file: {})",
                row["name"].as_str().expect("name"),
                row["description"].as_str().expect("description"),
                row["source"].as_str().expect("source")
            )
        })
        .collect();
    let listing = doc["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .find(|m| m["provenance"] == "skills");
    match listing {
        Some(listing) => assert_eq!(
            listing["text"].as_str(),
            Some(lines.join("\n").as_str()),
            "{}: the skills listing message",
            fixture.name()
        ),
        None => assert!(rows.is_empty(), "{}: no skills listing", fixture.name()),
    }
    rows.iter()
        .map(|row| {
            let source = row["source"].as_str().expect("source");
            let path = match row["scope"].as_str() {
                Some("project") => fixture.workspace.join(source),
                _ => Path::new(source).to_path_buf(),
            };
            json!({
                "name": row["name"],
                "description": row["description"],
                "path": path.display().to_string(),
            })
        })
        .collect()
}

/// The `<skill>` blocks `expand --agent codex PROMPT` adds after the
/// prompt, cut out of its output by their sizes.
fn skill_blocks(fixture: &Fixture, prompt: &str) -> Vec<String> {
    let doc = binary(fixture, &["expand", prompt]);
    let output = doc["output"].as_str().expect("output");
    let mut rest = output.strip_prefix(prompt).expect("the prompt comes first");
    let mut blocks = Vec::new();
    for skill in doc["skills"].as_array().expect("skills") {
        let bytes = usize::try_from(skill["bytes"].as_u64().expect("bytes")).expect("bytes");
        let after = rest
            .strip_prefix("\n\n")
            .expect("a blank line before a block");
        blocks.push(after[..bytes].to_string());
        rest = &after[bytes..];
    }
    assert!(
        rest.is_empty(),
        "{}: nothing after the blocks",
        fixture.name()
    );
    blocks
}

/// What the preview shows for `fixture`, as `{"global", "project",
/// "skills", "skill_blocks"}` like `expected.json`.
fn preview(fixture: &Fixture) -> Value {
    apply_codex_args(fixture);
    let doc = binary(fixture, &["assemble"]);
    let (global_text, project_text) = instructions(&doc, fixture);
    let skills = skills(&doc, fixture);
    let blocks = (fixture.case["codex_mode"] == "exec")
        .then(|| skill_blocks(fixture, fixture.case["prompt"].as_str().unwrap_or("hi")));
    json!({
        "global": global_text,
        "project": project_text,
        "skills": skills,
        "skill_blocks": blocks,
    })
}

/// Codex's `-c key=value` words, for the keys the profile honours, act like
/// the same lines in `config.toml` (recorded case `max-bytes-arg`): they are
/// written there, in a case that has no `config.toml` of its own.
fn apply_codex_args(fixture: &Fixture) {
    let Some(args) = fixture.case["codex_args"].as_str() else {
        return;
    };
    let mut words = args.split_whitespace();
    let mut lines = String::new();
    while let Some(word) = words.next() {
        assert_eq!(word, "-c", "{}: only -c is replayed", fixture.name());
        let setting = words.next().expect("-c takes key=value");
        let (key, value) = setting.split_once('=').expect("-c takes key=value");
        lines.push_str(&format!("{key} = {value}\n"));
    }
    let config = fixture.home.join(".codex").join(codex_config::CONFIG_FILE);
    assert!(
        !config.exists(),
        "{}: -c together with config.toml is not replayed",
        fixture.name()
    );
    std::fs::create_dir_all(config.parent().expect("a parent")).expect("create .codex");
    std::fs::write(config, lines).expect("write config.toml");
}

/// Panics when a directory above the temp tree is a git repository: the
/// recorded walks end at `/` and must find nothing there.
fn assert_no_git_above(tree: &Path) {
    for dir in tree.ancestors().skip(1) {
        assert!(
            !dir.join(".git").exists(),
            "{} holds .git: the Codex replay needs a temp directory outside any repository \
             (set TMPDIR)",
            dir.display()
        );
    }
}

/// Where two texts first differ, with a little context, for long texts.
fn first_difference(got: &str, want: &str) -> String {
    let at = got
        .bytes()
        .zip(want.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let around = |s: &str| {
        let start = at.saturating_sub(40);
        String::from_utf8_lossy(&s.as_bytes()[start..s.len().min(at + 40)]).into_owned()
    };
    format!(
        "lengths {} vs {}; first difference at byte {at}: got {:?}, want {:?}",
        got.len(),
        want.len(),
        around(got),
        around(want)
    )
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded cases hold symbolic links to directories, copied as file links"
)]
fn every_recorded_codex_case_matches() {
    let mut checked = 0;
    for case_dir in cases("codex") {
        let fixture = Fixture::load(&case_dir);
        assert_no_git_above(&fixture.tree);
        let got = preview(&fixture);
        for key in ["global", "project", "skills", "skill_blocks"] {
            let (got, want) = (&got[key], &fixture.expected[key]);
            if got == want {
                continue;
            }
            let detail = match (got.as_str(), want.as_str()) {
                (Some(got), Some(want)) => first_difference(got, want),
                _ => format!(
                    "got {}\nwant {}",
                    serde_json::to_string_pretty(got).unwrap_or_default(),
                    serde_json::to_string_pretty(want).unwrap_or_default()
                ),
            };
            panic!("{}: {key} differs from Codex's: {detail}", fixture.name());
        }
        checked += 1;
    }
    assert!(checked >= 18, "only {checked} Codex cases");
}
