//! Replays of `tests/oracle/cases/gemini-mcp/`, `opencode-mcp/` and
//! `codex-mcp/`: which configured MCP servers Gemini CLI 0.61.0, opencode
//! 1.18.33 and Codex CLI 0.169.0 started,
//! whose instructions they sent and whose tools they declared, checked
//! against the profile's `mcp_servers` entries on the same files. The
//! preview never starts a server, so it cannot know whether one fails: a
//! case names those in `fails`.

use serde_json::Value;

use super::{Fixture, assemble_profile, cases};

fn text<'a>(entry: &'a Value, key: &str) -> &'a str {
    entry[key].as_str().unwrap_or_default()
}

/// The servers named in the case's `fails`.
fn fails(fixture: &Fixture) -> Vec<&str> {
    fixture.case["fails"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// Checks what every agent shares: the enabled servers not known to fail
/// are exactly those whose instructions were sent, in order; none is run;
/// each enabled one is a warning and its `would_add` names `marker` (where
/// its instructions go) and says a failing server adds nothing.
fn check_started(fixture: &Fixture, doc: &Value, stderr: &str, marker: &str) {
    let instructed: Vec<&str> = fixture.expected["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| text(i, "server"))
        .collect();
    check_servers(fixture, doc, stderr, &instructed, marker);
}

/// [`check_started`] with the started servers given: `instructed`.
fn check_servers(fixture: &Fixture, doc: &Value, stderr: &str, instructed: &[&str], marker: &str) {
    let name = fixture.name();
    let fails = fails(fixture);
    let servers = doc["mcp_servers"].as_array().unwrap();
    let enabled: Vec<&str> = servers
        .iter()
        .filter(|s| s["enabled"] == true)
        .map(|s| text(s, "name"))
        .filter(|n| !fails.contains(n))
        .collect();
    assert_eq!(enabled, instructed, "{name}: started servers, in order");
    for server in servers {
        let server_name = text(server, "name");
        let would_add = text(server, "would_add");
        assert_eq!(server["run"], false, "{name}");
        let warned = stderr.contains(&format!("{server_name}: configured MCP server, not run"));
        assert_eq!(warned, server["enabled"] == true, "{name}: {server_name}");
        let marker = marker.replace("NAME", server_name);
        assert!(would_add.contains(&marker), "{name}: {would_add}");
        assert!(
            would_add.contains("nothing if it fails to start"),
            "{would_add}"
        );
    }
}

#[test]
fn every_recorded_gemini_mcp_fact_matches() {
    for case_dir in cases("gemini-mcp") {
        let fixture = Fixture::load(&case_dir);
        let name = fixture.name();
        assert_eq!(fixture.case["agent_version"], "0.61.0");
        let (doc, stderr) = assemble_profile(&fixture, "gemini", &[]);
        check_started(
            &fixture,
            &doc,
            &stderr,
            "---[start of server instructions]---",
        );
        let fails = fails(&fixture);
        let tools = fixture.expected["tools"].as_array().unwrap();
        for server in doc["mcp_servers"].as_array().unwrap() {
            let server_name = text(server, "name");
            let would_add = text(server, "would_add");
            let prefix = format!("mcp_{server_name}_");
            let declared: Vec<&Value> = tools
                .iter()
                .filter(|t| text(t, "name").starts_with(&prefix))
                .collect();
            if fails.contains(&server_name) || server["enabled"] == false {
                assert!(declared.is_empty(), "{name}: {server_name} was not started");
            } else if declared.is_empty() {
                assert!(
                    !would_add.contains(&format!("{prefix}TOOL")),
                    "{name}: {server_name}: {would_add}"
                );
            } else {
                assert!(declared.iter().all(|t| t["schema"] == true), "{name}");
                assert!(
                    would_add.contains(&format!("declared as {prefix}TOOL with their schemas")),
                    "{name}: {server_name}: {would_add}"
                );
            }
        }
    }
}

#[test]
fn every_recorded_opencode_mcp_fact_matches() {
    for case_dir in cases("opencode-mcp") {
        let fixture = Fixture::load(&case_dir);
        let name = fixture.name();
        assert_eq!(fixture.case["agent_version"], "1.18.33");
        let (doc, stderr) = assemble_profile(&fixture, "opencode", &[]);
        check_started(
            &fixture,
            &doc,
            &stderr,
            "`<server name=\"NAME\">` under `<mcp_instructions>`",
        );
        let tools = fixture.expected["tools"].as_array().unwrap();
        let servers = doc["mcp_servers"].as_array().unwrap();
        for tool in tools {
            assert!(tool["parameters"].is_object(), "{name}: a schema is sent");
            let tool_name = text(tool, "name");
            let server = servers
                .iter()
                .find(|s| tool_name.starts_with(&format!("{}_", text(s, "name"))))
                .unwrap_or_else(|| panic!("{name}: {tool_name} belongs to no listed server"));
            assert_eq!(server["enabled"], true, "{name}: {tool_name}");
            let would_add = text(server, "would_add");
            let form = format!(
                "as {}_TOOL with its full input schema",
                text(server, "name")
            );
            assert!(would_add.contains(&form), "{name}: {would_add}");
        }
    }
}

#[test]
fn every_recorded_codex_mcp_fact_matches() {
    for case_dir in cases("codex-mcp") {
        let fixture = Fixture::load(&case_dir);
        assert_eq!(fixture.case["agent_version"], "0.169.0");
        let (doc, stderr) = assemble_profile(&fixture, "codex", &[]);
        assert_eq!(fixture.expected["tools"], serde_json::json!([]));
        let started: Vec<&str> = fixture.expected["namespaces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                let namespace = text(n, "namespace");
                namespace.strip_prefix("mcp__").expect("an mcp__ namespace")
            })
            .collect();
        let marker = "a line `- mcp__NAME: INSTRUCTIONS` under `Deferred tool namespaces:`";
        check_servers(&fixture, &doc, &stderr, &started, marker);
    }
}
