//! Replays of `tests/oracle/cases/claude-hooks/` and `claude-mcp/`: the
//! hook paragraphs and MCP facts Claude Code 2.1.328 sent, checked against
//! the Claude profile's `hooks` and `mcp_servers` entries on the same
//! files. The preview never runs a hook or a server, so it cannot know
//! their output or tool names: the replay checks which entries would add
//! something at turn 0, where (the wire prefix and the place their
//! `would_add` names), and the `mcp__NAME__` form — not the output.
//!
//! Each fixture hook prints a token its command contains, which ties a
//! recorded paragraph to its configured hook. Several `SessionStart`
//! paragraphs come in completion order, so they are matched as a set.

use serde_json::Value;

use super::{Fixture, assemble_profile, cases};

/// The words of `would_add` that name a recorded place.
fn place_words(place: &str) -> &'static str {
    match place {
        "start" => "at the start of Claude Code's system message",
        "after-skills" => "after the skills listing",
        other => panic!("unexpected place {other}"),
    }
}

/// The `hooks` or `mcp_servers` entries of `doc`.
fn entries<'a>(doc: &'a Value, key: &str) -> &'a Vec<Value> {
    doc[key].as_array().expect("an array")
}

fn text<'a>(entry: &'a Value, key: &str) -> &'a str {
    entry[key].as_str().unwrap_or_default()
}

#[test]
fn every_recorded_hook_paragraph_matches_a_turn_0_hook() {
    for case_dir in cases("claude-hooks") {
        let fixture = Fixture::load(&case_dir);
        let name = fixture.name();
        assert_eq!(fixture.case["agent_version"], "2.1.328");
        let (doc, stderr) = assemble_profile(&fixture, "claude", &[]);
        let hooks = entries(&doc, "hooks");
        assert!(!hooks.is_empty(), "{name}: no hook listed");
        let mut fired = Vec::new();
        for paragraph in fixture.expected["paragraphs"].as_array().unwrap() {
            let output = text(paragraph, "output");
            let token = output.lines().next().unwrap_or_default();
            let hook = hooks
                .iter()
                .find(|h| text(h, "command").contains(token))
                .unwrap_or_else(|| panic!("{name}: no hook prints {token:?}"));
            assert_eq!(hook["event"], paragraph["event"], "{name}: {token}");
            assert_eq!(hook["run"], false, "{name}");
            let would_add = text(hook, "would_add");
            let prefix = text(paragraph, "prefix").trim_end();
            assert!(
                would_add.contains(prefix),
                "{name}: {token}: {would_add:?} lacks {prefix:?}"
            );
            let place = place_words(text(paragraph, "place"));
            assert!(
                would_add.contains(place),
                "{name}: {token}: {would_add:?} lacks {place:?}"
            );
            assert!(
                stderr.contains(&format!("hook `{}`: not run", text(hook, "command"))),
                "{name}: no warning for {token}"
            );
            fired.push(text(hook, "command"));
        }
        let fails: Vec<&str> = fixture.case["fails"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for hook in hooks {
            let command = text(hook, "command");
            if fired.contains(&command) {
                continue;
            }
            let would_add = text(hook, "would_add");
            if fails.contains(&command) {
                assert!(
                    would_add.contains("nothing if it fails"),
                    "{name}: {command}: {would_add:?}"
                );
            } else {
                assert!(
                    would_add.starts_with("nothing"),
                    "{name}: {command} added nothing, yet {would_add:?}"
                );
            }
        }
    }
}

#[test]
fn disable_all_hooks_turns_every_listed_hook_off() {
    for case in ["disabled", "disabled-local"] {
        let fixture = Fixture::load(&super::cases_dir().join("claude-hooks").join(case));
        let (doc, stderr) = assemble_profile(&fixture, "claude", &[]);
        assert_eq!(fixture.expected["paragraphs"], serde_json::json!([]));
        for hook in entries(&doc, "hooks") {
            assert!(
                text(hook, "would_add").starts_with("nothing: hooks are off (disableAllHooks"),
                "{case}: {hook}"
            );
        }
        let said = entries(&doc, "diagnostics")
            .iter()
            .any(|d| d["severity"] == "info" && text(d, "reason").starts_with("disableAllHooks"));
        assert!(said, "{case}: no info line");
        assert!(!stderr.contains("not run"), "{case}: {stderr}");
    }
}

/// `tests/oracle/cases/claude-mcp/`: which servers Claude Code started,
/// the names it listed, where their instructions and failures went.
#[test]
fn every_recorded_mcp_server_fact_matches() {
    for case_dir in cases("claude-mcp") {
        let fixture = Fixture::load(&case_dir);
        let name = fixture.name();
        assert_eq!(fixture.case["agent_version"], "2.1.328");
        let (doc, stderr) = assemble_profile(&fixture, "claude", &[]);
        let expected = &fixture.expected;
        assert_eq!(expected["schemas_sent"], serde_json::json!([]), "{name}");
        let tools: Vec<&str> = expected["deferred_tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let failed: Vec<&str> = expected["failed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| text(f, "name"))
            .collect();
        let instructions = expected["instructions"].as_object().unwrap();
        // Recorded only when some server sent instructions.
        let heading = expected["instructions_heading"].as_str();
        for server in entries(&doc, "mcp_servers") {
            let server_name = text(server, "name");
            let prefix = format!("mcp__{server_name}__");
            let listed = tools.iter().any(|t| t.starts_with(&prefix));
            let started = listed || instructions.contains_key(server_name);
            let failing = failed.contains(&server_name);
            assert_eq!(
                server["enabled"],
                started || failing,
                "{name}: {server_name}: {}",
                text(server, "why")
            );
            assert_eq!(server["run"], false, "{name}");
            let would_add = text(server, "would_add");
            assert!(would_add.contains(&format!("{prefix}TOOL")), "{would_add}");
            assert!(would_add.contains("(no schemas)"), "{would_add}");
            if let Some(heading) = heading {
                assert!(would_add.contains(&format!("`## {server_name}` under `{heading}`")));
            }
            assert!(would_add.contains(&format!("`{server_name} (ERROR): MESSAGE`")));
            let warned = stderr.contains(&format!("{server_name}: configured MCP server, not run"));
            assert_eq!(warned, server["enabled"] == true, "{name}: {server_name}");
        }
        let names: Vec<&str> = entries(&doc, "mcp_servers")
            .iter()
            .map(|s| text(s, "name"))
            .collect();
        for tool in &tools {
            assert!(
                names
                    .iter()
                    .any(|n| tool.starts_with(&format!("mcp__{n}__"))),
                "{name}: {tool} belongs to no listed server"
            );
        }
        if heading.is_some() {
            assert_eq!(expected["instructions_before_skills"], true, "{name}");
        }
    }
}
