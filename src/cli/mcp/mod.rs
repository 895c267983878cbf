//! `mecatl-prompt mcp` (SPEC §21.2): a Model Context Protocol server on
//! stdio that answers with the CLI's own JSON documents. It reads
//! newline-delimited JSON-RPC 2.0 from stdin, writes only JSON-RPC to
//! stdout, logs to stderr and never writes a file. `protocol` holds the
//! wire, `tools` the four tools, `roots` the confinement.
//!
//! Choices the spec leaves open:
//! - requests are served before `initialize` too (a client that skips it
//!   gets the start directory as its root); a blank line is skipped;
//! - `initialize` without an object of params is -32602; a missing or
//!   unknown `protocolVersion` gets `2025-11-25`;
//! - a batch (a JSON array) is -32600: MCP took batches out in 2025-06-18;
//! - while the server's `roots/list` is unanswered, tool calls wait (up to
//!   [`MCP_MAX_WAITING_CALLS`]; one more is -32603) and are answered in
//!   order once the roots are known; other requests are answered at once.
//!   A `roots/list` answered with an error leaves the roots as they were;
//!   at the end of input, waiting calls are answered with the roots then in
//!   force;
//! - a `tools/call` whose `name` is missing or unknown, or whose
//!   `arguments` is not an object, is -32602; every problem with the
//!   arguments' values is a tool error (`isError`);
//! - `roots` URIs that are not `file:` URIs are left out, with a log line.

mod protocol;
mod roots;
mod tools;

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};

use clap::Args;
use serde_json::{Map, Value, json};

use crate::cli::context::{GlobalArgs, normalise};
use crate::cli::{CliError, Status};
use crate::limits::{MCP_MAX_LINE_BYTES, MCP_MAX_WAITING_CALLS};
use protocol::{Incoming, Line, code};
use roots::Roots;

/// The protocol versions the server speaks, the preferred one last.
const VERSIONS: [&str; 2] = ["2025-06-18", "2025-11-25"];

/// `mcp` takes no options of its own: `-C` is the start directory and
/// `--trust-project` the only way to trust.
#[derive(Debug, Clone, Args)]
pub struct McpArgs {}

/// Runs the server on stdin and stdout until the input ends.
pub fn run(global: &GlobalArgs, _args: &McpArgs) -> Result<Status, CliError> {
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::Message(format!("cannot read the current directory: {e}")))?;
    let start = match &global.workspace {
        Some(dir) => normalise(&cwd.join(dir)),
        None => cwd,
    };
    let start = roots::start_directory(&start).map_err(CliError::Message)?;
    let mut server = Server::new(global.clone(), start);
    let stdin = io::stdin();
    let stdout = io::stdout();
    match server.serve(&mut stdin.lock(), &mut stdout.lock()) {
        // The client went away: nothing is left to answer.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(Status::Success),
        Err(err) => Err(CliError::Message(format!("mcp: {err}"))),
        Ok(()) => Ok(Status::Success),
    }
}

/// One line on stderr, the server's only log.
fn log(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// The server's state between lines.
pub struct Server {
    global: GlobalArgs,
    trusted: bool,
    roots: Roots,
    /// Whether the client said it can list its roots.
    client_has_roots: bool,
    /// The id of the server's unanswered `roots/list`.
    asking: Option<Value>,
    asked: u64,
    /// Tool calls waiting for the roots: id and params.
    waiting: VecDeque<(Value, Value)>,
}

impl Server {
    /// A server whose tools default to `start` until the client names its
    /// roots; trust is `--trust-project` in `global`, nothing else.
    pub fn new(global: GlobalArgs, start: std::path::PathBuf) -> Self {
        let trusted = global.trust_project && !global.no_trust_project;
        Self {
            global,
            trusted,
            roots: Roots::new(start),
            client_has_roots: false,
            asking: None,
            asked: 0,
            waiting: VecDeque::new(),
        }
    }

    /// Reads lines until the input ends, writing every message the server
    /// sends as one line, flushed.
    pub fn serve(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<()> {
        let mut buf = Vec::new();
        loop {
            let sent = match protocol::read_line(input, MCP_MAX_LINE_BYTES, &mut buf)? {
                Line::Eof => {
                    self.asking = None;
                    let sent = self.answer_waiting();
                    write_all(out, &sent)?;
                    return Ok(());
                }
                Line::TooLong => vec![protocol::error(
                    Value::Null,
                    code::INVALID_REQUEST,
                    format!("Invalid Request: a line is at most {MCP_MAX_LINE_BYTES} bytes"),
                )],
                Line::Text(line) => self.handle(&line),
            };
            write_all(out, &sent)?;
        }
    }

    /// Handles one line and returns what the server sends in reply.
    pub fn handle(&mut self, line: &[u8]) -> Vec<Value> {
        match protocol::classify(line) {
            Incoming::Blank => Vec::new(),
            Incoming::Invalid { id, code, message } => vec![protocol::error(id, code, message)],
            Incoming::Notification { method } => self.notified(&method),
            Incoming::Response { id, outcome } => self.answered(&id, outcome),
            Incoming::Request { id, method, params } => self.request(id, &method, params),
        }
    }

    fn request(&mut self, id: Value, method: &str, params: Value) -> Vec<Value> {
        let reply = match method {
            "initialize" => self.initialize(params),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(tools::list()),
            "tools/call" if self.asking.is_some() => {
                if self.waiting.len() >= MCP_MAX_WAITING_CALLS {
                    Err((
                        code::INTERNAL_ERROR,
                        "too many calls wait for roots/list".into(),
                    ))
                } else {
                    self.waiting.push_back((id, params));
                    return Vec::new();
                }
            }
            "tools/call" => self.call(params),
            _ => Err((
                code::METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
            )),
        };
        vec![match reply {
            Ok(result) => protocol::result(id, result),
            Err((code, message)) => protocol::error(id, code, message),
        }]
    }

    fn initialize(&mut self, params: Value) -> Result<Value, (i64, String)> {
        let params = protocol::params_object(params)
            .filter(|params| !params.is_empty())
            .ok_or((code::INVALID_PARAMS, "initialize takes an object".into()))?;
        let asked = params.get("protocolVersion").and_then(Value::as_str);
        let version = VERSIONS
            .iter()
            .find(|v| Some(**v) == asked)
            .unwrap_or(&VERSIONS[1]);
        self.client_has_roots = params
            .get("capabilities")
            .and_then(|c| c.get("roots"))
            .is_some_and(|roots| !roots.is_null());
        Ok(json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": false}},
            "serverInfo": {
                "name": "mecatl-prompt",
                "title": "mecatl-prompt",
                "version": env!("CARGO_PKG_VERSION"),
            },
            "instructions": "Read-only previews of what coding agents load from a workspace: \
                             assemble, compare, lint and explain answer with mecatl-prompt's JSON \
                             documents.",
        }))
    }

    fn notified(&mut self, method: &str) -> Vec<Value> {
        match method {
            "notifications/initialized" | "notifications/roots/list_changed"
                if self.client_has_roots =>
            {
                self.asked += 1;
                let id = json!(format!("mecatl-prompt-roots-{}", self.asked));
                self.asking = Some(id.clone());
                vec![protocol::request(id, "roots/list")]
            }
            _ => Vec::new(),
        }
    }

    fn answered(&mut self, id: &Value, outcome: Result<Value, Value>) -> Vec<Value> {
        if self.asking.as_ref() != Some(id) {
            return Vec::new();
        }
        self.asking = None;
        match outcome {
            Ok(result) => {
                for skipped in self.roots.replace(&result) {
                    log(&format!(
                        "mecatl-prompt: mcp: root {skipped} is not a file: URI; left out"
                    ));
                }
            }
            Err(error) => log(&format!("mecatl-prompt: mcp: roots/list failed: {error}")),
        }
        self.answer_waiting()
    }

    fn answer_waiting(&mut self) -> Vec<Value> {
        let waiting: Vec<(Value, Value)> = self.waiting.drain(..).collect();
        waiting
            .into_iter()
            .map(|(id, params)| match self.call(params) {
                Ok(result) => protocol::result(id, result),
                Err((code, message)) => protocol::error(id, code, message),
            })
            .collect()
    }

    fn call(&self, params: Value) -> Result<Value, (i64, String)> {
        let bad = |message: &str| (code::INVALID_PARAMS, message.to_string());
        let mut params =
            protocol::params_object(params).ok_or_else(|| bad("tools/call takes an object"))?;
        let name = match params.remove("name") {
            Some(Value::String(name)) => name,
            _ => return Err(bad("tools/call needs the tool's name")),
        };
        if !tools::exists(&name) {
            return Err(bad(&format!("Unknown tool: {name}")));
        }
        let arguments = match params.remove("arguments") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(arguments)) => arguments,
            Some(_) => return Err(bad("tools/call's arguments is an object")),
        };
        let workspace =
            match tools::workspace_arg(&arguments).and_then(|asked| self.roots.confine(asked)) {
                Ok(workspace) => workspace,
                Err(message) => return Ok(tools::tool_error(message)),
            };
        let fixed = tools::Fixed {
            global: &self.global,
            trusted: self.trusted,
        };
        Ok(tools::call(&name, &arguments, &workspace, &fixed))
    }
}

fn write_all(out: &mut impl Write, messages: &[Value]) -> io::Result<()> {
    if messages.is_empty() {
        return Ok(());
    }
    for message in messages {
        serde_json::to_writer(&mut *out, message)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

#[cfg(test)]
mod tests;
