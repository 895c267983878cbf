//! Replays the recorded Codex cases (`tests/oracle/cases/codex/`, SPEC
//! §14.4, §14.6): for every case, what the preview shows must equal what
//! Codex 0.169.0 sent — the global text and the project chain byte for
//! byte, the custom skill entries in order, and the `<skill>` blocks of an
//! exec run.
//!
//! [`preview`] is the one place that produces the preview's side, in the
//! shape of `expected.json`. The instructions come from the binary:
//! `assemble --agent codex --at … --format json` with the fixture's HOME
//! and CODEX_HOME, so the replay covers the whole path (context, readers,
//! composition root, rendering); the global text is the `user` part, the
//! project chain the other parts joined by a blank line, and the message's
//! `text` must be the two joined as Codex sends them. The skills still run
//! the domain pieces over the materialised fixture with the readers the
//! composition root builds, until the skills listing reaches the binary.

use std::path::Path;

use mecatl_prompt::adapters::codex_config;
use mecatl_prompt::prompt::codex::chain::{chain, find_root};
use mecatl_prompt::prompt::codex::instructions_text;
use mecatl_prompt::prompt::codex::skills::{list_skills, skill_blocks, skill_roots};
use mecatl_prompt::prompt::walk::walk;
use mecatl_prompt::workspace::{LinkPolicy, OsWorkspace};
use serde_json::{Value, json};

use super::{Fixture, assemble_profile, cases};

/// What the binary shows for `fixture`: `assemble --agent codex` as JSON
/// (`$CODEX_HOME` is `~/.codex`, its default).
fn assemble(fixture: &Fixture) -> Value {
    let (doc, stderr) = assemble_profile(fixture, "codex", &[]);
    assert!(
        !stderr.contains("config.toml"),
        "{}: the fixture's config.toml is read without a problem: {stderr}",
        fixture.name()
    );
    doc
}

/// The global text and the project chain of the binary's instructions
/// message, checking that its text joins them as Codex does.
fn instructions(fixture: &Fixture) -> (Option<String>, Option<String>) {
    let doc = assemble(fixture);
    assert_eq!(doc["agent"], "codex");
    assert_eq!(doc["at"], fixture.at().as_str());
    let messages = doc["messages"].as_array().expect("messages");
    let Some(message) = messages.first() else {
        return (None, None);
    };
    assert_eq!(
        messages.len(),
        1,
        "{}: one instructions message",
        fixture.name()
    );
    assert_eq!(message["provenance"], "instructions");
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

/// What the preview shows for `fixture`, as `{"global", "project",
/// "skills", "skill_blocks"}` like `expected.json`.
fn preview(fixture: &Fixture) -> Value {
    apply_codex_args(fixture);
    let (global_text, project_text) = instructions(fixture);
    let codex_home_dir =
        codex_config::codex_home(None, Some(&fixture.home)).expect("a HOME is always set");
    let codex_home = OsWorkspace::new(&codex_home_dir, LinkPolicy::Follow);
    let home = OsWorkspace::new(&fixture.home, LinkPolicy::Follow);
    let parent = OsWorkspace::new("/", LinkPolicy::Follow);
    let project = OsWorkspace::new(&fixture.workspace, LinkPolicy::Confine);
    let config = codex_config::load(&codex_home).config;
    let walk = walk(Some(&parent), &project, &fixture.at()).expect("--at inside the workspace");
    let root = find_root(&walk, &config.project_root_markers);
    let chain = chain(&walk, root.as_ref());
    let listing = list_skills(&skill_roots(chain, &codex_home, Some(&home)));
    let skills: Vec<Value> = listing
        .skills
        .iter()
        .map(|skill| {
            json!({
                "name": skill.name,
                "description": skill.description,
                "path": skill.absolute.display().to_string(),
            })
        })
        .collect();
    let blocks = (fixture.case["codex_mode"] == "exec").then(|| {
        let prompt = fixture.case["prompt"].as_str().unwrap_or("hi");
        skill_blocks(&listing, prompt)
            .blocks
            .iter()
            .map(|block| block.text())
            .collect::<Vec<_>>()
    });
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
