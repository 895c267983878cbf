//! The base protocol's framing (`Content-Length: N\r\n\r\n` and N bytes of
//! JSON) and the sorting of a body into a request, a notification, a
//! response or an error to answer (SPEC §21.1, "Robustness").
//!
//! `lsp-server`'s own stdio transport ends the connection on the first
//! malformed message; the spec wants an error answer and the server still
//! up, so frames are read here and only the message types come from the
//! crate.
//!
//! Choices the spec leaves open:
//! - A header without `Content-Length`, with a value that is not a number,
//!   or with a line over [`limits::LSP_MAX_HEADER_LINE`] bytes is answered
//!   with -32700 once its blank line is reached; a body over
//!   [`limits::LSP_MAX_BODY_BYTES`] is read past and answered with -32700.
//! - A body that is JSON but not a JSON-RPC 2.0 message (not an object, no
//!   `"jsonrpc": "2.0"`, a `method` that is not a string, an `id` that is
//!   neither a number nor a string) is -32600 with its `id` when that can
//!   be read, else `null`. A response from the client is taken and ignored.
//! - End of input inside a header or a body ends the stream.

use std::io::{self, BufRead, Read, Write};

use lsp_server::{Notification, Request, RequestId};
use serde_json::Value;

use crate::limits;

/// One message read from the client, sorted.
#[derive(Debug)]
pub enum Incoming {
    /// A request: it gets an answer.
    Request(Request),
    /// A notification: it gets none.
    Notification(Notification),
    /// A response to a request of ours (the server sends none that wait).
    Response,
    /// Something to answer with an error: `id` when it could be read.
    Invalid {
        /// The id to answer to (`null` when unknown).
        id: Option<RequestId>,
        /// The JSON-RPC error code: -32700 or -32600.
        code: i32,
        /// What was wrong.
        message: String,
    },
}

/// JSON-RPC's "parse error".
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's "invalid request".
pub const INVALID_REQUEST: i32 = -32600;

fn parse_error(message: impl Into<String>) -> Incoming {
    Incoming::Invalid {
        id: None,
        code: PARSE_ERROR,
        message: message.into(),
    }
}

/// Reads the next message; `Ok(None)` at the end of input (also inside a
/// message). Never reads more than the limits keep, whatever the input.
pub fn read_message(input: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut malformed: Option<String> = None;
    let mut lines = 0usize;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = input
            .by_ref()
            .take(limits::LSP_MAX_HEADER_LINE as u64 + 2)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(None);
        }
        if line.last() != Some(&b'\n') {
            // A line longer than the limit: skip to its end.
            if !skip_line(input)? {
                return Ok(None);
            }
            malformed.get_or_insert_with(|| "a header line is too long".to_string());
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if lines == 0 {
                // Blank lines between messages are let through.
                continue;
            }
            break;
        }
        lines += 1;
        if lines > limits::LSP_MAX_HEADER_LINES {
            malformed.get_or_insert_with(|| "too many header lines".to_string());
            continue;
        }
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                length = Some(
                    value
                        .trim()
                        .parse::<usize>()
                        .map_err(|_| format!("Content-Length {:?} is not a number", value.trim())),
                );
            }
            Some(_) => {}
            None => {
                malformed.get_or_insert_with(|| format!("malformed header line {text:?}"));
            }
        }
    }
    if let Some(why) = malformed {
        return Ok(Some(parse_error(why)));
    }
    let length = match length {
        None => return Ok(Some(parse_error("no Content-Length header"))),
        Some(Err(why)) => return Ok(Some(parse_error(why))),
        Some(Ok(length)) => length,
    };
    if length > limits::LSP_MAX_BODY_BYTES {
        let skipped = io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        if skipped < length as u64 {
            return Ok(None);
        }
        return Ok(Some(parse_error(format!(
            "message of {length} bytes is over the limit of {} bytes",
            limits::LSP_MAX_BODY_BYTES
        ))));
    }
    let mut body = Vec::with_capacity(length);
    input.by_ref().take(length as u64).read_to_end(&mut body)?;
    if body.len() < length {
        return Ok(None);
    }
    Ok(Some(sort(&body)))
}

/// Reads past the rest of a line; false at the end of input.
fn skip_line(input: &mut impl BufRead) -> io::Result<bool> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(false);
        }
        match buffer.iter().position(|b| *b == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(true);
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

/// A body sorted into what it is.
fn sort(body: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(err) => return parse_error(format!("the body is not JSON: {err}")),
    };
    let invalid = |id: Option<RequestId>, why: &str| Incoming::Invalid {
        id,
        code: INVALID_REQUEST,
        message: why.to_string(),
    };
    let Value::Object(object) = &value else {
        return invalid(None, "a message is a JSON object");
    };
    let id = object.get("id");
    let read_id = id.and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(read_id, "\"jsonrpc\" must be \"2.0\"");
    }
    if id.is_some_and(|id| !id.is_null()) && read_id.is_none() {
        return invalid(None, "\"id\" must be a number or a string");
    }
    match (object.get("method"), id) {
        (Some(Value::String(_)), Some(_)) => match serde_json::from_value::<Request>(value) {
            Ok(request) => Incoming::Request(request),
            Err(err) => invalid(read_id, &format!("malformed request: {err}")),
        },
        (Some(Value::String(_)), None) => match serde_json::from_value::<Notification>(value) {
            Ok(notification) => Incoming::Notification(notification),
            Err(err) => invalid(None, &format!("malformed notification: {err}")),
        },
        (Some(_), _) => invalid(read_id, "\"method\" must be a string"),
        (None, Some(_)) if object.contains_key("result") || object.contains_key("error") => {
            Incoming::Response
        }
        (None, _) => invalid(read_id, "a message has a \"method\""),
    }
}

/// Writes `message` as one frame and flushes it.
pub fn write_message(output: &mut impl Write, message: &Value) -> io::Result<()> {
    let body = serde_json::to_vec(message).map_err(io::Error::other)?;
    write!(output, "Content-Length: {}\r\n\r\n", body.len())?;
    output.write_all(&body)?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn read_all(mut input: &[u8]) -> Vec<Incoming> {
        let mut all = Vec::new();
        while let Some(message) = read_message(&mut input).unwrap() {
            all.push(message);
        }
        all
    }

    fn code(message: &Incoming) -> Option<i32> {
        match message {
            Incoming::Invalid { code, .. } => Some(*code),
            _ => None,
        }
    }

    #[test]
    fn messages_are_sorted_and_errors_keep_the_stream_going() {
        let mut input = frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
        input.extend(frame("{not json"));
        input.extend(b"Content-Length: x\r\n\r\n");
        input.extend(b"Content-Type: y\r\n\r\n");
        input.extend(frame(r#"[1]"#));
        input.extend(frame(r#"{"jsonrpc":"2.0","id":{},"method":"m"}"#));
        input.extend(frame(r#"{"jsonrpc":"1.0","id":7,"method":"m"}"#));
        input.extend(frame(r#"{"jsonrpc":"2.0","method":"initialized"}"#));
        input.extend(frame(r#"{"jsonrpc":"2.0","id":3,"result":null}"#));
        let all = read_all(&input);
        assert!(matches!(&all[0], Incoming::Request(r) if r.method == "initialize"));
        let codes: Vec<_> = all[1..7].iter().map(code).collect();
        assert_eq!(
            codes,
            [
                Some(PARSE_ERROR),
                Some(PARSE_ERROR),
                Some(PARSE_ERROR),
                Some(INVALID_REQUEST),
                Some(INVALID_REQUEST),
                Some(INVALID_REQUEST)
            ]
        );
        assert!(matches!(&all[6], Incoming::Invalid { id: Some(id), .. } if *id == 7.into()));
        assert!(matches!(&all[7], Incoming::Notification(n) if n.method == "initialized"));
        assert!(matches!(&all[8], Incoming::Response));
        assert_eq!(all.len(), 9);
    }

    #[test]
    fn a_cut_stream_ends_and_an_oversized_body_is_skipped() {
        assert!(read_all(b"Content-Length: 10\r\n\r\n{\"a\"").is_empty());
        assert!(read_all(b"Content-Len").is_empty());
        let long = format!("X-{}: 1\r\nContent-Length: 2\r\n\r\n{{}}", "a".repeat(5000));
        assert_eq!(
            read_all(long.as_bytes())
                .iter()
                .map(code)
                .collect::<Vec<_>>(),
            [Some(PARSE_ERROR)]
        );
        let huge = format!("Content-Length: {}\r\n\r\n", limits::LSP_MAX_BODY_BYTES + 1);
        let mut input = huge.into_bytes();
        input.resize(input.len() + limits::LSP_MAX_BODY_BYTES + 1, b' ');
        input.extend(frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        let all = read_all(&input);
        assert_eq!(code(&all[0]), Some(PARSE_ERROR));
        assert!(matches!(&all[1], Incoming::Notification(n) if n.method == "exit"));
    }

    #[test]
    fn a_written_frame_reads_back() {
        let mut out = Vec::new();
        let message = serde_json::json!({"jsonrpc": "2.0", "method": "x", "params": {"é": 1}});
        write_message(&mut out, &message).unwrap();
        let all = read_all(&out);
        assert!(matches!(&all[0], Incoming::Notification(n) if n.params["é"] == 1));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        #[test]
        fn random_bytes_never_panic_nor_hang(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2048)) {
            let _ = read_all(&bytes);
        }

        #[test]
        fn random_frames_never_panic_nor_hang(
            bodies in proptest::collection::vec("[\\[\\]{}\":,0-9a-z \\\\]{0,64}", 0..8),
            lengths in proptest::collection::vec(0usize..80, 0..8),
        ) {
            let mut input = Vec::new();
            for (body, length) in bodies.iter().zip(lengths.iter().chain(std::iter::repeat(&usize::MAX))) {
                let length = if *length == usize::MAX { body.len() } else { *length };
                input.extend(format!("Content-Length: {length}\r\n\r\n{body}").as_bytes());
            }
            let _ = read_all(&input);
        }
    }
}
