//! Replays `tests/oracle/cases/claude-commands/`: what Claude Code 2.1.328
//! sent for a slash command or skill, and the custom entries of its skills
//! listing, against the Claude profile applied to the same files.
//!
//! The expansion comes from the binary (`expand --agent claude --at …
//! --format json PROMPT` with the case's HOME and environment) and must
//! equal Claude Code's byte for byte, except where Claude Code ran a shell
//! command: there the preview shows its placeholder, and the text around
//! each placeholder must match. A prompt Claude Code sent as typed must
//! come back unchanged. The attachments must be the files Claude Code
//! attached (the preview reports a file outside the workspace without
//! reading it; a directory Claude Code attaches as a listing, which the
//! capture does not record). The listing must equal the captured custom
//! entries, in order, and Claude Code's own entries must take the room the
//! profile reserves for them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use mecatl_prompt::limits;
use mecatl_prompt::prompt::command::claude_catalog::{self, CLAUDE_OWN_ENTRIES};
use mecatl_prompt::prompt::command::claude_listing;
use mecatl_prompt::prompt::tiers::{ReadPolicy, SearchDir};
use mecatl_prompt::workspace::{LinkPolicy, OsWorkspace, Workspace};
use serde_json::Value;

use super::{Fixture, assemble_profile, cases, profile_run};

/// The listing budget of the model the fixtures were captured with (Claude
/// Opus 5.5 as Claude Code 2.1.328 counts it), when a case sets none:
/// `listing-many-entries` places it between 29,963 and 30,153.
const CAPTURED_MODEL_BUDGET: usize = 30_000;

/// The project reader, confined to the case's workspace.
fn project(fixture: &Fixture) -> Arc<dyn Workspace> {
    Arc::new(OsWorkspace::new(&fixture.workspace, LinkPolicy::Confine))
}

/// The case's search directories, as the Claude profile builds them.
fn dirs(fixture: &Fixture) -> Vec<SearchDir<'static>> {
    let user: Arc<dyn Workspace> = Arc::new(OsWorkspace::new(
        fixture.home.join(".claude"),
        LinkPolicy::Follow,
    ));
    claude_catalog::claude_dirs(project(fixture), &fixture.at(), false, Some(user))
        .expect("the case's start directory")
}

/// What the binary prints for `expand --agent claude --at … --format json
/// PROMPT`, with the fixture's HOME (its `.claude` is the user's) and the
/// case's environment.
fn expand(fixture: &Fixture, prompt: &str) -> Value {
    profile_run(fixture, "claude", &["expand", "--", prompt]).0
}

/// The lines of the binary's skills listing message under `assemble
/// --agent claude` (none when it sends no listing), with the budget of the
/// model the case was captured with unless the case sets
/// `SLASH_COMMAND_TOOL_CHAR_BUDGET`.
fn listing_lines(fixture: &Fixture) -> Vec<String> {
    let window = CAPTURED_MODEL_BUDGET as u64 * 100
        / (limits::CLAUDE_LISTING_BUDGET_PERCENT * limits::CLAUDE_LISTING_CHARS_PER_TOKEN);
    let window = window.to_string();
    let (doc, _) = assemble_profile(fixture, "claude", &["--context-window", &window]);
    let listing = doc["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .find(|m| m["provenance"] == "skills")
        .map(|m| m["text"].as_str().expect("text").to_string());
    listing.map_or_else(Vec::new, |text| {
        text.split('\n').map(str::to_string).collect()
    })
}

/// Checks that the expansion `ours` is `captured` with each shell
/// command's output replaced by our placeholder: the text between
/// placeholders matches, in order.
fn check_around_placeholders(fixture: &Fixture, ours: &Value, captured: &str) {
    let output = ours["output"].as_str().expect("output");
    let mut segments = Vec::new();
    let mut from = 0;
    for shell in ours["shell"].as_array().expect("shell") {
        let offset = usize::try_from(shell["offset"].as_u64().expect("offset")).expect("offset");
        let command = shell["command"].as_str().expect("command");
        segments.push(&output[from..offset]);
        from = offset + claude_catalog::placeholder(command).len();
    }
    segments.push(&output[from..]);
    let mut rest = captured;
    for (i, segment) in segments.iter().enumerate() {
        let at = match i {
            0 => rest.starts_with(segment).then_some(0),
            _ if i + 1 == segments.len() => {
                rest.ends_with(segment).then(|| rest.len() - segment.len())
            }
            _ => rest.find(segment),
        };
        let at = at.unwrap_or_else(|| panic!("{}: {segment:?} not in {rest:?}", fixture.name()));
        rest = &rest[at + segment.len()..];
    }
}

/// The files Claude Code attached, as the preview names them: workspace
/// files, and files outside the workspace it never reads.
fn check_attachments(fixture: &Fixture, ours: &Value) {
    let attached: Vec<PathBuf> = ours["attachments"]
        .as_array()
        .expect("attachments")
        .iter()
        .filter_map(|a| {
            let path = a["path"].as_str().expect("path");
            match a["status"].as_str().expect("status") {
                "attached" => {
                    assert!(a["bytes"].is_u64(), "{}: {a}", fixture.name());
                    Some(fixture.workspace.join(path))
                }
                "outside the workspace: not read" => {
                    assert!(a["bytes"].is_null(), "{}: {a}", fixture.name());
                    Some(normalise(&fixture.cwd.join(path)))
                }
                _ => None,
            }
        })
        .collect();
    let captured: Vec<PathBuf> = fixture.expected["attachments"]
        .as_array()
        .expect("attachments")
        .iter()
        .map(|a| PathBuf::from(a.as_str().expect("attachment path")))
        .collect();
    assert_eq!(attached, captured, "{}", fixture.name());
}

fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
#[cfg_attr(windows, ignore = "expects a path joined with /")]
fn expansions_match_claude_code() {
    let (mut replayed, mut placeholders) = (0, 0);
    for case_dir in cases("claude-commands") {
        let fixture = Fixture::load(&case_dir);
        let prompt = fixture.case["prompt"].as_str().unwrap_or("hi");
        let ours = expand(&fixture, prompt);
        let Some(command) = fixture.expected["command"].as_object() else {
            assert_eq!(
                ours["expanded"],
                false,
                "{}: Claude Code ran no command",
                fixture.name()
            );
            assert_eq!(ours["output"], prompt, "{}: sent as typed", fixture.name());
            continue;
        };
        assert_eq!(ours["name"], command["name"], "{}", fixture.name());
        let captured = fixture.expected["expansion"].as_str().expect("expansion");
        if ours["shell"].as_array().is_some_and(Vec::is_empty) {
            assert_eq!(ours["output"], captured, "{}", fixture.name());
        } else {
            check_around_placeholders(&fixture, &ours, captured);
            placeholders += 1;
        }
        check_attachments(&fixture, &ours);
        replayed += 1;
    }
    assert!(replayed >= 40, "only {replayed} expansions replayed");
    assert!(
        placeholders >= 2,
        "only {placeholders} cases with shell commands"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded homes are given as HOME, which Windows does not read (it reads USERPROFILE)"
)]
fn listings_match_claude_code() {
    let mut shrunk_cases = 0;
    for case_dir in cases("claude-commands") {
        let fixture = Fixture::load(&case_dir);
        let captured: Vec<String> = fixture.expected["listing"]
            .as_array()
            .expect("listing")
            .iter()
            .map(|e| e.as_str().expect("entry").to_string())
            .collect();
        let budget = match fixture.case["env"]["SLASH_COMMAND_TOOL_CHAR_BUDGET"].as_str() {
            Some(value) => {
                claude_listing::budget(limits::DEFAULT_CONTEXT_WINDOW_TOKENS, Some(value))
            }
            None => CAPTURED_MODEL_BUDGET,
        };
        let dirs = dirs(&fixture);
        let policy = ReadPolicy {
            contender: true,
            losers: mecatl_prompt::prompt::tiers::Losers::Skip,
            withheld: false,
        };
        let listing =
            claude_catalog::list_claude(&dirs, policy, &claude_catalog::ClaudeFiles::HEAD);
        let ours = claude_catalog::skills_listing(&dirs, &listing, budget);
        let lines: Vec<&str> = ours.entries.iter().map(|e| e.line.as_str()).collect();
        assert_eq!(lines, captured, "{}", fixture.name());
        assert_eq!(
            listing_lines(&fixture),
            captured,
            "{}: the binary's",
            fixture.name()
        );
        let others = &fixture.expected["listing_others"];
        let count = |key: &str| usize::try_from(others[key].as_u64().expect(key)).expect(key);
        let own_width = match ours.width > budget {
            true => CLAUDE_OWN_ENTRIES.width - CLAUDE_OWN_ENTRIES.shrinkable,
            false => CLAUDE_OWN_ENTRIES.width,
        };
        assert_eq!(
            (count("entries"), count("width")),
            (CLAUDE_OWN_ENTRIES.entries, own_width),
            "{}: Claude Code's own entries",
            fixture.name()
        );
        if ours.shrunk > 0 {
            shrunk_cases += 1;
        }
    }
    assert!(
        shrunk_cases >= 4,
        "only {shrunk_cases} cases shrink entries"
    );
}
