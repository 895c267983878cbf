//! `lsp` (SPEC §21.1): a Language Server on stdin and stdout, built on the
//! CLI's own subcommands: diagnostics are `lint`'s findings, hover is
//! `assemble --touch`, code lenses are `compare`'s cells, the lens command
//! is `explain`, each run through [`crate::cli::run_in`] with its JSON kept
//! in memory ([`output::capture`]) over an overlay of the open buffers.
//! Nothing is written: no cache, no log file; logs go to stderr.
//!
//! One reader thread turns stdin's frames into messages ([`framing`]); the
//! main thread handles them in order and waits on the channel with a
//! timeout only while a lint is due, so an idle server uses no CPU.
//!
//! Choices the spec leaves open:
//! - The server answers one message at a time; a request is answered
//!   before the next message is read, so `$/cancelRequest` is ignored.
//! - `didChange` with a version not above the document's is stale: it is
//!   dropped (with a line on stderr), so no older text replaces a newer.
//! - Diagnostics are computed and published on the main thread with the
//!   documents' versions at that moment, so a result is never older than
//!   the text it is published for; the debounce timer restarts on every
//!   change in any folder, and `didOpen`, `didSave` and `didClose` lint at
//!   once.
//! - After `shutdown`, requests get -32600 ("shut down"); a second
//!   `initialize` gets -32600 too. End of input exits with 0 after
//!   `shutdown`, else 1, as `exit` does.
//! - `initializationOptions.agents` names unknown to the registry are left
//!   out with a line on stderr; an empty or missing list means every
//!   profile of the registry.

mod definition;
mod diagnostics;
pub mod document;
mod folders;
pub mod framing;
mod hover;
mod lens;

use std::collections::HashMap;
use std::io::{self, BufReader};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use lsp_server::{Notification, Request, RequestId};
use serde_json::{Value, json};

use crate::cli::context::{Context, GlobalArgs, normalise};
use crate::cli::error::{CliError, Status};
use crate::cli::output;
use crate::cli::{parse_words, run_in};
use crate::limits;
use crate::prompt::profile::Agent;

use document::{Document, Encoding};
use framing::{Incoming, read_message, write_message};

use folders::{Folder, innermost, uri_to_path};

/// The command the code lenses run.
pub const EXPLAIN_COMMAND: &str = "mecatl-prompt.explain";

/// JSON-RPC's "method not found".
const METHOD_NOT_FOUND: i32 = -32601;
/// JSON-RPC's "invalid params".
const INVALID_PARAMS: i32 = -32602;
/// LSP's "server not initialized".
const SERVER_NOT_INITIALIZED: i32 = -32002;

/// Runs the server until `exit` or the end of input.
pub fn run(global: &GlobalArgs) -> Result<Status, CliError> {
    let (sender, receiver) = mpsc::sync_channel::<Incoming>(4);
    std::thread::Builder::new()
        .name("lsp-reader".to_string())
        .spawn(move || {
            let mut input = BufReader::new(io::stdin().lock());
            while let Ok(Some(message)) = read_message(&mut input) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        })
        .map_err(|err| CliError::Message(format!("cannot start the reader: {err}")))?;
    let mut server = Server::new(global.clone());
    loop {
        let next = match server.lint_due {
            Some(due) => receiver.recv_timeout(due.saturating_duration_since(Instant::now())),
            None => receiver.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match next {
            Ok(message) => {
                if let Some(status) = server.handle(message) {
                    return Ok(status);
                }
            }
            Err(RecvTimeoutError::Timeout) => server.lint(),
            Err(RecvTimeoutError::Disconnected) => return Ok(server.exit_status()),
        }
    }
}

/// Where the session is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before `initialize`.
    Waiting,
    /// Between `initialize` and `shutdown`.
    Running,
    /// After `shutdown`.
    ShutDown,
}

/// An error answer: code and message.
type Failure = (i32, String);

fn invalid_params(err: impl std::fmt::Display) -> Failure {
    (INVALID_PARAMS, err.to_string())
}

/// The server's state.
struct Server {
    global: GlobalArgs,
    phase: Phase,
    folders: Vec<Folder>,
    agents: Vec<Agent>,
    encoding: Encoding,
    debounce: Duration,
    /// Open documents by URI.
    documents: HashMap<String, Open>,
    /// When the debounced lint is due.
    lint_due: Option<Instant>,
}

/// An open document and where it lies.
struct Open {
    document: Document,
    /// Its folder (index into `folders`) and workspace-relative path, when
    /// it lies in one.
    place: Option<(usize, String)>,
    /// The diagnostics last published for it (`None`: none yet).
    published: Option<Vec<Value>>,
}

impl Server {
    fn new(global: GlobalArgs) -> Self {
        Self {
            global,
            phase: Phase::Waiting,
            folders: Vec::new(),
            agents: Agent::ALL.to_vec(),
            encoding: Encoding::Utf16,
            debounce: Duration::from_millis(limits::LSP_DEBOUNCE_MS),
            documents: HashMap::new(),
            lint_due: None,
        }
    }

    fn exit_status(&self) -> Status {
        if self.phase == Phase::ShutDown {
            Status::Success
        } else {
            Status::CheckFailed
        }
    }

    fn send(&self, message: &Value) {
        if let Err(err) = write_message(&mut io::stdout().lock(), message) {
            eprintln!("mecatl-prompt lsp: cannot write to stdout: {err}");
        }
    }

    fn answer(&self, id: Option<RequestId>, result: Result<Value, Failure>) {
        let id = id.map_or(Value::Null, |id| json!(id));
        self.send(&match result {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err((code, message)) => json!({
                "jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}
            }),
        });
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Handles one message; `Some` when the server is to exit with it.
    fn handle(&mut self, message: Incoming) -> Option<Status> {
        match message {
            Incoming::Request(request) => {
                let id = request.id.clone();
                let result = self.request(request);
                self.answer(Some(id), result);
            }
            Incoming::Notification(notification) if notification.method == "exit" => {
                return Some(self.exit_status());
            }
            Incoming::Notification(notification) => {
                if self.phase == Phase::Running
                    && let Err((_, why)) = self.notification(notification)
                {
                    eprintln!("mecatl-prompt lsp: {why}");
                }
            }
            Incoming::Response => {}
            Incoming::Invalid { id, code, message } => self.answer(id, Err((code, message))),
        }
        None
    }

    fn request(&mut self, request: Request) -> Result<Value, Failure> {
        match (self.phase, request.method.as_str()) {
            (Phase::Waiting, "initialize") => self.initialize(&request.params),
            (Phase::Waiting, _) => Err((
                SERVER_NOT_INITIALIZED,
                "the server is not initialized".to_string(),
            )),
            (Phase::ShutDown, _) => Err((
                framing::INVALID_REQUEST,
                "the server is shut down".to_string(),
            )),
            (Phase::Running, "initialize") => Err((
                framing::INVALID_REQUEST,
                "the server is already initialized".to_string(),
            )),
            (Phase::Running, "shutdown") => {
                self.phase = Phase::ShutDown;
                Ok(Value::Null)
            }
            (Phase::Running, "textDocument/hover") => {
                let (path, _) = self.text_position(&request.params)?;
                Ok(self.place_of(&path).map_or(Value::Null, |(folder, rel)| {
                    hover::hover(&mut self.folders[folder].ctx, &self.agents, &rel)
                }))
            }
            (Phase::Running, "textDocument/codeLens") => {
                let path = self.document_path(&request.params)?;
                Ok(self.place_of(&path).map_or(json!([]), |(folder, rel)| {
                    lens::lenses(&mut self.folders[folder].ctx, &self.agents, &rel)
                }))
            }
            (Phase::Running, "textDocument/definition") => self.definition(&request.params),
            (Phase::Running, "workspace/executeCommand") => self.execute(&request.params),
            (Phase::Running, method) => Err((METHOD_NOT_FOUND, format!("unknown method {method}"))),
        }
    }

    fn initialize(&mut self, params: &Value) -> Result<Value, Failure> {
        if !params.is_object() {
            return Err(invalid_params("initialize takes an object"));
        }
        let offered = params.pointer("/capabilities/general/positionEncodings");
        if offered
            .and_then(Value::as_array)
            .is_some_and(|list| list.iter().any(|e| e == "utf-8"))
        {
            self.encoding = Encoding::Utf8;
        }
        let options = params.get("initializationOptions").unwrap_or(&Value::Null);
        if let Some(ms) = options.get("debounceMs").and_then(Value::as_u64) {
            self.debounce = Duration::from_millis(ms.min(limits::LSP_DEBOUNCE_MAX_MS));
        }
        if let Some(names) = options.get("agents").and_then(Value::as_array) {
            let agents: Vec<Agent> = names
                .iter()
                .filter_map(|name| {
                    let parsed = name.as_str().and_then(|n| n.parse::<Agent>().ok());
                    if parsed.is_none() {
                        eprintln!(
                            "mecatl-prompt lsp: initializationOptions.agents: unknown agent {name}"
                        );
                    }
                    parsed
                })
                .collect();
            if !agents.is_empty() {
                self.agents = agents;
            }
        }
        let at = options.get("at").and_then(Value::as_str).map(PathBuf::from);
        for root in self.roots(params) {
            if let Some(folder) = Folder::resolve(&self.global, &root, at.as_deref()) {
                self.folders.push(folder);
            }
        }
        self.phase = Phase::Running;
        Ok(json!({
            "capabilities": {
                "positionEncoding": self.encoding.as_str(),
                "textDocumentSync": {"openClose": true, "change": 2, "save": {"includeText": true}},
                "hoverProvider": true,
                "definitionProvider": true,
                "codeLensProvider": {"resolveProvider": false},
                "executeCommandProvider": {"commands": [EXPLAIN_COMMAND]},
            },
            "serverInfo": {"name": "mecatl-prompt", "version": env!("CARGO_PKG_VERSION")},
        }))
    }

    /// The workspace roots: every workspace folder, else `rootUri`, else
    /// `-C` or the current directory.
    fn roots(&self, params: &Value) -> Vec<PathBuf> {
        let folders: Vec<PathBuf> = params
            .get("workspaceFolders")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|f| f.get("uri").and_then(Value::as_str).and_then(uri_to_path))
            .collect();
        if !folders.is_empty() {
            return folders;
        }
        if let Some(root) = params
            .get("rootUri")
            .and_then(Value::as_str)
            .and_then(uri_to_path)
        {
            return vec![root];
        }
        let cwd = std::env::current_dir().unwrap_or_default();
        vec![normalise(&cwd.join(
            self.global.workspace.as_deref().unwrap_or(&PathBuf::new()),
        ))]
    }

    fn place_of(&self, path: &std::path::Path) -> Option<(usize, String)> {
        innermost(&self.folders, path).map(|(i, _, rel)| (i, rel))
    }

    /// The path of `params.textDocument.uri`; `None` inside for a URI that
    /// is not a `file:` one.
    fn document_path(&self, params: &Value) -> Result<PathBuf, Failure> {
        let uri = params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid_params("textDocument.uri is missing"))?;
        Ok(uri_to_path(uri).unwrap_or_default())
    }

    /// The document's path and the byte offset of `params.position` in its
    /// open text (0 when it is not open).
    fn text_position(&self, params: &Value) -> Result<(PathBuf, usize), Failure> {
        let path = self.document_path(params)?;
        let line = params.pointer("/position/line").and_then(Value::as_u64);
        let character = params
            .pointer("/position/character")
            .and_then(Value::as_u64);
        let (Some(line), Some(character)) = (line, character) else {
            return Err(invalid_params(
                "position.line and position.character are numbers",
            ));
        };
        let uri = params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .unwrap_or("");
        let offset = self.documents.get(uri).map_or(0, |open| {
            open.document
                .offset(line as usize, character as usize, self.encoding)
        });
        Ok((path, offset))
    }

    fn definition(&self, params: &Value) -> Result<Value, Failure> {
        let (path, offset) = self.text_position(params)?;
        let uri = params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .unwrap_or("");
        let (Some((folder, rel)), Some(open)) = (self.place_of(&path), self.documents.get(uri))
        else {
            return Ok(Value::Null);
        };
        Ok(
            definition::definition(&self.folders[folder], &rel, &open.document.text, offset)
                .unwrap_or(Value::Null),
        )
    }

    fn execute(&mut self, params: &Value) -> Result<Value, Failure> {
        if params.get("command").and_then(Value::as_str) != Some(EXPLAIN_COMMAND) {
            return Err(invalid_params(format!(
                "the one command is {EXPLAIN_COMMAND}"
            )));
        }
        let argument = params.pointer("/arguments/0");
        let path = argument.and_then(|a| a.get("path")).and_then(Value::as_str);
        let agent = argument
            .and_then(|a| a.get("agent"))
            .and_then(Value::as_str);
        let (Some(path), Some(agent)) = (path, agent) else {
            return Err(invalid_params("arguments are [{path, agent}]"));
        };
        let agent: Agent = agent.parse().map_err(invalid_params)?;
        lens::explain(&mut self.folders, agent, path).map_err(invalid_params)
    }

    fn notification(&mut self, notification: Notification) -> Result<(), Failure> {
        let params = &notification.params;
        let uri = || {
            params
                .pointer("/textDocument/uri")
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| {
                    invalid_params(format!(
                        "{}: textDocument.uri is missing",
                        notification.method
                    ))
                })
        };
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                let uri = uri()?;
                let text = params.pointer("/textDocument/text").and_then(Value::as_str);
                let version = params
                    .pointer("/textDocument/version")
                    .and_then(Value::as_i64);
                let (Some(text), Some(version)) = (text, version) else {
                    return Err(invalid_params("didOpen: text and version are missing"));
                };
                let place = uri_to_path(&uri).and_then(|path| self.place_of(&path));
                let open = Open {
                    document: Document::new(text.to_string(), version as i32),
                    place,
                    published: None,
                };
                self.store(&open);
                self.documents.insert(uri, open);
                self.lint();
            }
            "textDocument/didChange" => {
                let uri = uri()?;
                let version = params
                    .pointer("/textDocument/version")
                    .and_then(Value::as_i64);
                let changes = params.get("contentChanges").and_then(Value::as_array);
                let encoding = self.encoding;
                let Some(open) = self.documents.get_mut(&uri) else {
                    return Err(invalid_params(format!("didChange: {uri} is not open")));
                };
                let (Some(version), Some(changes)) = (version, changes) else {
                    return Err(invalid_params(
                        "didChange: version and contentChanges are missing",
                    ));
                };
                if version as i32 <= open.document.version {
                    return Err(invalid_params(format!(
                        "didChange: version {version} of {uri} is stale (it is at {}); dropped",
                        open.document.version
                    )));
                }
                for change in changes {
                    let text = change.get("text").and_then(Value::as_str).unwrap_or("");
                    open.document
                        .apply(range_of(change.get("range")), text, encoding);
                }
                open.document.version = version as i32;
                let open = &self.documents[&uri];
                self.store(open);
                self.lint_due = Some(Instant::now() + self.debounce);
                if self.debounce.is_zero() {
                    self.lint();
                }
            }
            "textDocument/didSave" => {
                let uri = uri()?;
                if let (Some(text), Some(open)) = (
                    params.get("text").and_then(Value::as_str),
                    self.documents.get_mut(&uri),
                ) && text != open.document.text
                {
                    open.document = Document::new(text.to_string(), open.document.version);
                    let open = &self.documents[&uri];
                    self.store(open);
                }
                self.lint();
            }
            "textDocument/didClose" => {
                let uri = uri()?;
                if let Some(open) = self.documents.remove(&uri) {
                    if let Some((folder, rel)) = &open.place {
                        self.folders[*folder].overlay.remove(rel);
                    }
                    self.notify(
                        "textDocument/publishDiagnostics",
                        json!({"uri": uri, "diagnostics": []}),
                    );
                    self.lint();
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Puts `open`'s text in its folder's overlay.
    fn store(&self, open: &Open) {
        if let Some((folder, rel)) = &open.place {
            let text: std::sync::Arc<[u8]> = std::sync::Arc::from(open.document.text.as_bytes());
            self.folders[*folder].overlay.set(rel, text);
        }
    }

    /// Lints every folder holding an open agent document and republishes
    /// the documents whose diagnostics changed.
    fn lint(&mut self) {
        self.lint_due = None;
        let updates = diagnostics::refresh(
            &mut self.folders,
            &self.agents,
            &self.documents,
            self.encoding,
        );
        for (uri, diagnostics) in updates {
            let Some(open) = self.documents.get_mut(&uri) else {
                continue;
            };
            open.published = Some(diagnostics.clone());
            let version = open.document.version;
            self.notify(
                "textDocument/publishDiagnostics",
                json!({"uri": uri, "version": version, "diagnostics": diagnostics}),
            );
        }
    }
}

/// A change's `range` as start line, start character, end line, end
/// character; `None` for a change of the whole text (or a range that is
/// not one).
fn range_of(range: Option<&Value>) -> Option<[usize; 4]> {
    let range = range?;
    let number = |pointer: &str| Some(range.pointer(pointer)?.as_u64()? as usize);
    Some([
        number("/start/line")?,
        number("/start/character")?,
        number("/end/line")?,
        number("/end/character")?,
    ])
}

/// Runs the subcommand `words` (as typed after `mecatl-prompt`) in `ctx`
/// and returns the JSON document it printed.
fn cli_json(ctx: &Context, words: &[&str]) -> Result<Value, String> {
    let cli = parse_words(std::iter::once("mecatl-prompt").chain(words.iter().copied()))
        .map_err(|err| err.to_string())?;
    let (result, captured) = output::capture(|| run_in(ctx, cli.command));
    result.map_err(|err| err.to_string())?;
    serde_json::from_slice(&captured.stdout).map_err(|err| format!("{}: {err}", words.join(" ")))
}
