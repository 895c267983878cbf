//! The wire of the MCP server (SPEC §21.2): newline-delimited JSON-RPC 2.0
//! on stdio. A bounded line reader, the sorting of one line into a request,
//! a notification, a response to one of our requests or an error, and the
//! shapes of what the server writes.

use std::io::{self, BufRead};

use serde_json::{Map, Value, json};

/// JSON-RPC's error codes the server answers with.
pub(super) mod code {
    /// The line is not JSON.
    pub(crate) const PARSE_ERROR: i64 = -32700;
    /// The JSON is not a request.
    pub(crate) const INVALID_REQUEST: i64 = -32600;
    /// No such method.
    pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
    /// The method's parameters are wrong.
    pub(crate) const INVALID_PARAMS: i64 = -32602;
    /// The server could not answer (too many calls waiting).
    pub(crate) const INTERNAL_ERROR: i64 = -32603;
}

/// One line read from the client.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// A whole line, without its `\n` (nor a `\r` before it).
    Text(Vec<u8>),
    /// A line longer than the cap: its bytes were dropped as they came.
    TooLong,
    /// The input ended.
    Eof,
}

/// Reads one line of at most `cap` bytes into `buf` (cleared first). A
/// longer line is read to its end without being kept and reported as
/// [`Line::TooLong`], so memory stays bounded whatever the client sends. A
/// last line without `\n` counts as a line.
pub(super) fn read_line(
    input: &mut impl BufRead,
    cap: usize,
    buf: &mut Vec<u8>,
) -> io::Result<Line> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => Line::Eof,
                (true, true) => Line::TooLong,
                (true, false) => Line::Text(std::mem::take(buf)),
            });
        }
        any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let piece = &available[..newline.unwrap_or(available.len())];
        if !too_long {
            if buf.len() + piece.len() > cap {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(piece);
            }
        }
        let used = piece.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            if too_long {
                return Ok(Line::TooLong);
            }
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(Line::Text(std::mem::take(buf)));
        }
    }
}

/// What one line from the client is.
#[derive(Debug)]
pub(super) enum Incoming {
    /// Nothing to do (a blank line).
    Blank,
    /// A request: answer it.
    Request {
        /// Its id, echoed in the answer.
        id: Value,
        /// The method.
        method: String,
        /// Its parameters (`null` when absent).
        params: Value,
    },
    /// A notification: never answered.
    Notification {
        /// The method.
        method: String,
    },
    /// The client's answer to one of the server's requests.
    Response {
        /// The id of the server's request.
        id: Value,
        /// `result`, or `Err` with the error object.
        outcome: Result<Value, Value>,
    },
    /// Not JSON-RPC: answer with this error (and `id`, `null` when unknown).
    Invalid {
        /// The id to answer with.
        id: Value,
        /// The error code.
        code: i64,
        /// What was wrong.
        message: String,
    },
}

/// Sorts one line (SPEC §21.2; JSON-RPC 2.0 §4–§5): not JSON is a parse
/// error; JSON that is neither a request, a notification nor a response is
/// an invalid request (with the request's id when it has a usable one).
pub(super) fn classify(line: &[u8]) -> Incoming {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Incoming::Blank;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(err) => {
            return Incoming::Invalid {
                id: Value::Null,
                code: code::PARSE_ERROR,
                message: format!("Parse error: {err}"),
            };
        }
    };
    let Value::Object(mut object) = value else {
        return invalid(
            Value::Null,
            "a message is one JSON object (batches are not taken)",
        );
    };
    let id = object.remove("id");
    let usable_id = id
        .as_ref()
        .filter(|id| matches!(id, Value::String(_) | Value::Number(_)))
        .cloned();
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid(usable_id.unwrap_or(Value::Null), "jsonrpc must be \"2.0\"");
    }
    match object.remove("method") {
        Some(Value::String(method)) => {
            let params = object.remove("params").unwrap_or(Value::Null);
            if !matches!(params, Value::Null | Value::Object(_) | Value::Array(_)) {
                return invalid(
                    usable_id.unwrap_or(Value::Null),
                    "params must be an object or an array",
                );
            }
            match (id, usable_id) {
                (None, _) => Incoming::Notification { method },
                (Some(_), Some(id)) => Incoming::Request { id, method, params },
                (Some(_), None) => invalid(Value::Null, "id must be a string or a number"),
            }
        }
        Some(_) => invalid(usable_id.unwrap_or(Value::Null), "method must be a string"),
        None => match (usable_id, object.remove("result"), object.remove("error")) {
            (Some(id), Some(result), None) => Incoming::Response {
                id,
                outcome: Ok(result),
            },
            (Some(id), None, Some(error)) => Incoming::Response {
                id,
                outcome: Err(error),
            },
            (id, _, _) => invalid(id.unwrap_or(Value::Null), "a request needs a method"),
        },
    }
}

fn invalid(id: Value, message: &str) -> Incoming {
    Incoming::Invalid {
        id,
        code: code::INVALID_REQUEST,
        message: format!("Invalid Request: {message}"),
    }
}

/// A successful answer to request `id`.
pub(super) fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error answer to request `id` (`null` when it had none).
pub(super) fn error(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// A request from the server to the client.
pub(super) fn request(id: Value, method: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method})
}

/// `params` as an object: `null` is an empty one, anything else is not.
pub(super) fn params_object(params: Value) -> Option<Map<String, Value>> {
    match params {
        Value::Null => Some(Map::new()),
        Value::Object(object) => Some(object),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Line> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader, cap, &mut buf).unwrap() {
                Line::Eof => return out,
                line => out.push(line),
            }
        }
    }

    #[test]
    fn lines_are_cut_at_newlines_and_an_overlong_one_is_reported_not_kept() {
        assert_eq!(
            lines(b"ab\r\n0123456789\nc", 5),
            [
                Line::Text(b"ab".to_vec()),
                Line::TooLong,
                Line::Text(b"c".to_vec())
            ]
        );
        assert_eq!(lines(b"", 5), []);
        assert_eq!(lines(b"\n123456", 5), [Line::Text(vec![]), Line::TooLong]);
    }

    #[test]
    fn lines_are_sorted_as_json_rpc_says() {
        let kind = |line: &str| match classify(line.as_bytes()) {
            Incoming::Blank => "blank".to_string(),
            Incoming::Request { id, method, .. } => format!("request {id} {method}"),
            Incoming::Notification { method } => format!("notification {method}"),
            Incoming::Response { id, outcome } => format!("response {id} {}", outcome.is_ok()),
            Incoming::Invalid { id, code, .. } => format!("invalid {id} {code}"),
        };
        assert_eq!(kind("  "), "blank");
        assert_eq!(kind("{"), "invalid null -32700");
        assert_eq!(kind("[]"), "invalid null -32600");
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            "request 1 ping"
        );
        assert_eq!(kind(r#"{"jsonrpc":"2.0","method":"x"}"#), "notification x");
        assert_eq!(
            kind(r#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#),
            "invalid \"a\" -32600"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#),
            "invalid null -32600"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":2,"method":"ping","params":3}"#),
            "invalid 2 -32600"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":"r","result":{}}"#),
            "response \"r\" true"
        );
        assert_eq!(
            kind(r#"{"jsonrpc":"2.0","id":"r","error":{}}"#),
            "response \"r\" false"
        );
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":3}"#), "invalid 3 -32600");
    }
}
