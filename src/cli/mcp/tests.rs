//! The line reader and dispatcher on random lines: they never panic, every
//! request line is answered exactly once by the end of input (a tool call
//! waiting for the roots included), and no notification is answered.

use proptest::prelude::*;
use serde_json::Value;

use super::Server;
use crate::cli::Cli;
use clap::Parser;

fn server() -> Server {
    let cli = Cli::try_parse_from(["mecatl-prompt", "mcp"]).expect("parses");
    // A start directory that does not exist: a tool call that gets past the
    // protocol is refused, so no test reads the machine.
    Server::new(cli.global, "/nonexistent/mecatl-prompt-mcp".into())
}

/// Lines shaped like JSON-RPC with random parts, and random bytes.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let id = prop_oneof![
        Just("1".to_string()),
        Just("\"a\"".to_string()),
        Just("null".to_string()),
        Just("{}".to_string()),
        Just(String::new()),
    ];
    let method = prop_oneof![
        Just("\"initialize\""),
        Just("\"ping\""),
        Just("\"tools/list\""),
        Just("\"tools/call\""),
        Just("\"server/discover\""),
        Just("\"notifications/initialized\""),
        Just("3"),
    ];
    let params = prop_oneof![
        Just(""),
        Just(",\"params\":null"),
        Just(",\"params\":{}"),
        Just(",\"params\":[]"),
        Just(",\"params\":7"),
        Just(",\"params\":{\"name\":\"lint\",\"arguments\":{\"agents\":[1]}}"),
        Just(",\"params\":{\"name\":\"nope\"}"),
        Just(",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"roots\":{}}}"),
    ];
    let shaped = (id, method, params).prop_map(|(id, method, params)| {
        let id = if id.is_empty() {
            String::new()
        } else {
            format!(",\"id\":{id}")
        };
        format!("{{\"jsonrpc\":\"2.0\"{id},\"method\":{method}{params}}}").into_bytes()
    });
    prop_oneof![shaped, proptest::collection::vec(any::<u8>(), 0..64)]
}

/// Whether `line` must be answered: anything but a blank line, a valid
/// notification and a response to the server.
fn expects_one_answer(line: &[u8]) -> bool {
    let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(line) else {
        return !line.iter().all(u8::is_ascii_whitespace);
    };
    let valid_notification = object.get("jsonrpc") == Some(&Value::from("2.0"))
        && object.get("method").is_some_and(Value::is_string)
        && !object.contains_key("id")
        && object
            .get("params")
            .is_none_or(|p| p.is_object() || p.is_array() || p.is_null());
    let response = object.get("jsonrpc") == Some(&Value::from("2.0"))
        && !object.contains_key("method")
        && object
            .get("id")
            .is_some_and(|id| id.is_string() || id.is_number())
        && (object.contains_key("result") != object.contains_key("error"));
    !valid_notification && !response
}

proptest! {
    #[test]
    fn every_request_line_gets_one_answer(lines in proptest::collection::vec(line(), 1..12)) {
        let lines: Vec<Vec<u8>> = lines.into_iter().filter(|l| !l.contains(&b'\n')).collect();
        let expected: usize = lines
            .iter()
            .map(|line| usize::from(expects_one_answer(line)))
            .sum();
        let input = lines.join(&b'\n');
        let mut out = Vec::new();
        server().serve(&mut input.as_slice(), &mut out).expect("in memory");
        let sent: Vec<Value> = out
            .split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .map(|line| serde_json::from_slice(line).expect("one JSON message a line"))
            .collect();
        let answers = sent.iter().filter(|m| m.get("method").is_none()).count();
        prop_assert_eq!(answers, expected, "{:?}", lines.iter().map(|l| String::from_utf8_lossy(l)).collect::<Vec<_>>());
    }
}

#[test]
fn the_handshake_takes_the_clients_version_or_the_newest() {
    let mut server = server();
    let answer = |server: &mut Server, version: &str| {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"0"}}}}}}"#
        );
        server.handle(line.as_bytes())[0]["result"]["protocolVersion"].clone()
    };
    assert_eq!(answer(&mut server, "2025-06-18"), "2025-06-18");
    assert_eq!(answer(&mut server, "2025-11-25"), "2025-11-25");
    assert_eq!(answer(&mut server, "2024-11-05"), "2025-11-25");
}
