//! Replays of `tests/oracle/cases/gemini-mcp/`: which configured MCP
//! servers Gemini CLI 0.61.0 started, whose instructions it sent and whose
//! tools it declared, checked against the Gemini profile's `mcp_servers`
//! entries on the same files. The preview never starts a server, so it
//! cannot know whether one fails: a case names those in `fails`.

use serde_json::Value;

use super::{Fixture, assemble_profile, cases};

fn text<'a>(entry: &'a Value, key: &str) -> &'a str {
    entry[key].as_str().unwrap_or_default()
}

#[test]
fn every_recorded_gemini_mcp_fact_matches() {
    for case_dir in cases("gemini-mcp") {
        let fixture = Fixture::load(&case_dir);
        let name = fixture.name();
        assert_eq!(fixture.case["agent_version"], "0.61.0");
        let (doc, stderr) = assemble_profile(&fixture, "gemini", &[]);
        let expected = &fixture.expected;
        let fails: Vec<&str> = fixture.case["fails"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let instructed: Vec<&str> = expected["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| text(i, "server"))
            .collect();
        let tools = expected["tools"].as_array().unwrap();
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
            if server["enabled"] == true {
                assert!(would_add.contains("---[start of server instructions]---"));
                assert!(would_add.contains("nothing if it fails to start"));
                assert!(stderr.contains(&format!("{server_name}: configured MCP server, not run")));
            }
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
