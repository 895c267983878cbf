//! `lsp` (SPEC §21.1) driven over stdio with framed messages, as an editor
//! drives it: the lifecycle and the protocol's errors, diagnostics that
//! follow edits of other files and never go stale, hover, code lenses and
//! their command, definitions, a 10 MB document, and no file written.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use mecatl_prompt::prompt::profile::Agent;
use serde_json::{Value, json};

use crate::hardening::HANG_GUARD;
use crate::hardening::read_only::snapshot;
use crate::support::{TestEnv, json as json_of};

/// A running server and what it sent that no request waited for.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    received: Receiver<Value>,
    notifications: Vec<Value>,
    next_id: i64,
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// The `file:` URI of the absolute `path`, as an editor sends it
/// (`file:///C:/…` for a Windows path).
fn uri(path: &Path) -> String {
    let text = path.display().to_string().replace('\\', "/");
    let slash = if text.starts_with('/') { "" } else { "/" };
    format!("file://{slash}{text}").replace(' ', "%20")
}

impl Session {
    fn start(env: &TestEnv, args: &[&str]) -> Session {
        let mut child = env
            .std_cmd()
            .args(args)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, received) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(value) = line.strip_prefix("Content-Length: ") {
                        length = value.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("Content-Length")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let message = serde_json::from_slice(&body).expect("the server sends JSON");
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            received,
            notifications: Vec::new(),
            next_id: 100,
        }
    }

    /// A session over `env`'s workspace, initialized with `options`.
    fn initialized(env: &TestEnv, args: &[&str], options: Value) -> Session {
        let mut session = Session::start(env, args);
        let reply = session.request(
            "initialize",
            json!({"rootUri": uri(&env.ws), "capabilities": {}, "initializationOptions": options}),
        );
        assert!(reply.get("result").is_some(), "{reply}");
        session.notify("initialized", json!({}));
        session
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, message: Value) {
        self.send_raw(&frame(message.to_string().as_bytes()));
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self) -> Value {
        self.received
            .recv_timeout(HANG_GUARD)
            .expect("the server answers within the hang guard")
    }

    /// The reply to the message with `id`, keeping notifications met.
    fn reply_to(&mut self, id: &Value) -> Value {
        loop {
            let message = self.next();
            if message.get("method").is_some() {
                self.notifications.push(message);
            } else if &message["id"] == id {
                return message;
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.reply_to(&id)
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let reply = self.request(method, params);
        reply
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{method}: {reply}"))
    }

    /// The next diagnostics published for `uri` (met before or now).
    fn diagnostics_for(&mut self, uri: &str) -> Value {
        loop {
            if let Some(at) = self.notifications.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri
            }) {
                return self.notifications.remove(at)["params"].clone();
            }
            let message = self.next();
            self.notifications.push(message);
        }
    }

    fn open(&mut self, path: &Path, text: &str, version: i32) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "markdown", "version": version, "text": text}}),
        );
    }

    fn change(&mut self, path: &Path, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(path), "version": version}, "contentChanges": changes}),
        );
    }

    /// Sends `shutdown` and `exit` and returns the exit code.
    fn stop(mut self) -> i32 {
        assert_eq!(self.request("shutdown", Value::Null)["result"], Value::Null);
        self.notify("exit", Value::Null);
        self.wait()
    }

    fn wait(mut self) -> i32 {
        drop(self.stdin.take());
        let started = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().expect("exited");
            }
            assert!(started.elapsed() < HANG_GUARD, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn error_code(reply: &Value) -> i64 {
    reply["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("an error: {reply}"))
}

/// CLAUDE.md and AGENTS.md that differ (MP009), an import, a nested
/// CLAUDE.md and a conditional rule for `web/`.
fn workspace() -> TestEnv {
    let env = TestEnv::new();
    env.write("CLAUDE.md", "# Project\n\nSee @docs/guide.md and `@not/this.md`, mail a@b.md.\n@../outside.md\n@docs/missing.md\n");
    env.write("AGENTS.md", "# Agents\n");
    env.write("docs/guide.md", "Guide.\n");
    env.write("web/CLAUDE.md", "Web rules for the app.\n");
    env.write(
        ".claude/rules/web.md",
        "---\npaths: web/**\n---\nUse strict TypeScript.\n",
    );
    env.write("web/src/app.ts", "export {};\n");
    env
}

#[test]
fn the_lifecycle_and_the_protocol_errors_keep_the_server_up() {
    let env = workspace();
    let mut session = Session::start(&env, &[]);
    let early = session.request("textDocument/hover", json!({}));
    assert_eq!(error_code(&early), -32002);
    let reply = session.request(
        "initialize",
        json!({"rootUri": uri(&env.ws), "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}}}),
    );
    let result = &reply["result"];
    assert_eq!(
        result["capabilities"],
        json!({
            "positionEncoding": "utf-8",
            "textDocumentSync": {"openClose": true, "change": 2, "save": {"includeText": true}},
            "hoverProvider": true,
            "definitionProvider": true,
            "codeLensProvider": {"resolveProvider": false},
            "executeCommandProvider": {"commands": ["mecatl-prompt.explain"]},
        })
    );
    assert_eq!(result["serverInfo"]["name"], "mecatl-prompt");
    assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));

    session.send_raw(&frame(b"{this is not json"));
    let parse = session.reply_to(&Value::Null);
    assert_eq!(error_code(&parse), -32700);
    session.send(json!({"jsonrpc": "2.0", "id": 7, "method": 3}));
    assert_eq!(error_code(&session.reply_to(&json!(7))), -32600);
    session.send_raw(b"Content-Length: nope\r\n\r\n");
    assert_eq!(error_code(&session.reply_to(&Value::Null)), -32700);
    assert_eq!(
        error_code(&session.request("no/such/method", json!({}))),
        -32601
    );
    assert_eq!(
        error_code(&session.request("textDocument/hover", json!({"textDocument": {}}))),
        -32602
    );
    assert_eq!(
        error_code(&session.request("initialize", json!({}))),
        -32600
    );
    session.notify("no/such/notification", json!({}));
    let outside = session.result(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///elsewhere/x.md"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(outside, Value::Null, "outside every workspace");
    let untitled = session.result(
        "textDocument/hover",
        json!({"textDocument": {"uri": "untitled:1"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(untitled, Value::Null, "not a file: URI");
    assert_eq!(session.stop(), 0);

    let mut alone = Session::initialized(&env, &[], json!({}));
    alone.notify("exit", Value::Null);
    assert_eq!(alone.wait(), 1, "exit without shutdown");
    let eof = Session::initialized(&env, &[], json!({}));
    assert_eq!(eof.wait(), 1, "the end of input ends the server");
}

#[test]
fn diagnostics_follow_edits_of_other_files_and_never_go_stale() {
    let env = workspace();
    let claude = env.ws.join("CLAUDE.md");
    let agents = env.ws.join("AGENTS.md");
    let claude_text = std::fs::read_to_string(&claude).unwrap();
    let mut session = Session::initialized(&env, &[], json!({"debounceMs": 0}));
    session.open(&claude, &claude_text, 1);
    let published = session.diagnostics_for(&uri(&claude));
    assert_eq!(published["version"], 1);
    let lint = json_of(
        &env.cmd()
            .args(["lint", "--format", "json", "--agents"])
            .arg(Agent::ALL.map(Agent::as_str).join(","))
            .output()
            .unwrap(),
    );
    let mp009 = lint["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "MP009")
        .expect("lint finds MP009");
    let diagnostic = published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "MP009")
        .expect("published MP009")
        .clone();
    assert_eq!(
        diagnostic["message"], mp009["message"],
        "lint's exact message"
    );
    assert_eq!(diagnostic["severity"], 2);
    assert_eq!(diagnostic["source"], "mecatl-prompt");
    assert_eq!(diagnostic["data"]["agents"], mp009["agents"]);
    assert!(
        diagnostic["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("#lint-codes")
    );
    assert_eq!(
        diagnostic["range"],
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 9}})
    );

    // Making AGENTS.md say what CLAUDE.md says, unsaved, clears CLAUDE.md's MP009.
    session.open(&agents, "# Agents\n", 1);
    session.change(
        &agents,
        2,
        json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "text": claude_text}]),
    );
    let cleared = loop {
        let next = session.diagnostics_for(&uri(&claude));
        if !next["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "MP009")
        {
            break next;
        }
    };
    assert_eq!(cleared["version"], 1);

    // A stale change is dropped: the versions published only grow.
    session.change(&claude, 3, json!([{"text": "# Changed\n"}]));
    session.change(&claude, 2, json!([{"text": "# Stale\n"}]));
    let hover = session.result(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&claude)}, "position": {"line": 0, "character": 0}}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("**Reading `CLAUDE.md`**")
    );
    let versions: Vec<i64> = session
        .notifications
        .iter()
        .filter(|n| n["params"]["uri"] == uri(&claude))
        .filter_map(|n| n["params"]["version"].as_i64())
        .collect();
    assert!(versions.iter().all(|v| *v == 3), "{versions:?}");

    session.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&claude)}}),
    );
    loop {
        let closed = session.diagnostics_for(&uri(&claude));
        if closed["diagnostics"] == json!([]) && closed.get("version").is_none() {
            break;
        }
    }
    assert_eq!(session.stop(), 0);
}

#[test]
fn hover_lenses_explain_and_definitions_use_the_clis_documents() {
    let env = workspace();
    let before = (snapshot(&env.ws), snapshot(&env.home));
    let claude = env.ws.join("CLAUDE.md");
    let text = std::fs::read_to_string(&claude).unwrap();
    let mut session = Session::initialized(&env, &["--trust-project"], json!({}));
    session.open(&claude, &text, 1);

    let hover = session.result(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&env.ws.join("web/src/app.ts"))}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(hover["contents"]["kind"], "markdown");
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.starts_with("**Reading `web/src/app.ts`**\n\n**mecatl** adds nothing (mecatl loads everything at start)\n\n**Claude Code** adds 2 files · 44 B · ~12 tokens\n- `web/CLAUDE.md` · instructions · 22 B · ~6 tokens\n- `.claude/rules/web.md` · rule · 22 B · ~6 tokens\n\n**Codex** adds nothing (Codex loads everything at start)"), "{value}");
    for agent in Agent::ALL {
        assert!(value.contains(&format!("**{}**", agent.title())), "{value}");
    }
    assert!(!value.contains("strict TypeScript"), "never any content");

    let lenses = session.result(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri(&claude)}}),
    );
    let titles: Vec<&str> = lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.contains(&"Claude Code: loads at start · 94 B · 24 tokens"),
        "{titles:?}"
    );
    assert!(
        titles.contains(&"mecatl: shadowed by AGENTS.md"),
        "{titles:?}"
    );
    let lens = lenses
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["command"]["arguments"][0]["agent"] == "claude")
        .unwrap();
    assert_eq!(lens["command"]["command"], "mecatl-prompt.explain");
    let explained = session.result(
        "workspace/executeCommand",
        json!({"command": "mecatl-prompt.explain", "arguments": lens["command"]["arguments"]}),
    );
    let cli = json_of(
        &env.cmd()
            .args([
                "--trust-project",
                "--format",
                "json",
                "explain",
                "--agent",
                "claude",
                "CLAUDE.md",
            ])
            .output()
            .unwrap(),
    );
    assert_eq!(explained, cli, "explain's own document");
    let none = session.result(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri(&env.ws.join("web/src/app.ts"))}}),
    );
    assert_eq!(none, json!([]));

    let definition = |session: &mut Session, line: u32, character: u32| {
        session.result(
            "textDocument/definition",
            json!({"textDocument": {"uri": uri(&claude)}, "position": {"line": line, "character": character}}),
        )
    };
    assert_eq!(
        definition(&mut session, 2, 8),
        json!({"uri": uri(&env.ws.join("docs/guide.md")), "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}})
    );
    assert_eq!(
        definition(&mut session, 2, 30),
        Value::Null,
        "in a code span"
    );
    assert_eq!(
        definition(&mut session, 2, 45),
        Value::Null,
        "a@b is no import"
    );
    assert_eq!(
        definition(&mut session, 3, 3),
        Value::Null,
        "outside the workspace"
    );
    assert_eq!(definition(&mut session, 4, 3), Value::Null, "missing");
    assert_eq!(
        definition(&mut session, 0, 2),
        Value::Null,
        "no import there"
    );
    assert_eq!(session.stop(), 0);
    assert_eq!(
        (snapshot(&env.ws), snapshot(&env.home)),
        before,
        "nothing written"
    );
}

#[test]
fn untrusted_hover_says_what_is_withheld_and_every_profile_is_shown() {
    let env = workspace();
    let mut session = Session::initialized(
        &env,
        &["--no-trust-project"],
        json!({"agents": ["claude", "codex"]}),
    );
    let hover = session.result(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&env.ws.join("web/src/app.ts"))}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(
        hover["contents"]["value"],
        "**Reading `web/src/app.ts`**\n\n**Claude Code** adds nothing: project files are withheld (start the server with --trust-project)\n\n**Codex** adds nothing (Codex loads everything at start)"
    );
    let lenses = session.result(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri(&env.ws.join("CLAUDE.md"))}}),
    );
    assert_eq!(
        lenses[0]["command"]["title"],
        "Claude Code: withheld (untrusted)"
    );
    assert_eq!(session.stop(), 0);
}

#[test]
fn a_ten_megabyte_document_is_linted_and_hovered() {
    let env = workspace();
    let claude = env.ws.join("CLAUDE.md");
    let line = "Some instructions about the project that go on and on.\n";
    let text = line.repeat(10_000_000 / line.len());
    let mut session = Session::initialized(&env, &[], json!({"debounceMs": 0}));
    session.open(&claude, &text, 1);
    assert_eq!(session.diagnostics_for(&uri(&claude))["version"], 1);
    session.change(
        &claude,
        2,
        json!([{"range": {"start": {"line": 90000, "character": 4}, "end": {"line": 90000, "character": 4}}, "text": "é"}]),
    );
    let hover = session.result(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&claude)}, "position": {"line": 170000, "character": 3}}),
    );
    assert!(hover["contents"]["value"].is_string());
    let stale = session
        .notifications
        .iter()
        .filter(|n| n["params"]["uri"] == uri(&claude))
        .any(|n| n["params"]["version"] != 2);
    assert!(!stale, "a republication carries the latest version");
    assert_eq!(session.stop(), 0);
}

#[test]
fn the_start_directory_and_the_innermost_folder_decide_what_a_hover_shows() {
    let env = workspace();
    let app = uri(&env.ws.join("web/src/app.ts"));
    let hover = |session: &mut Session| {
        let result = session.result(
            "textDocument/hover",
            json!({"textDocument": {"uri": app}, "position": {"line": 0, "character": 0}}),
        );
        result["contents"]["value"].as_str().unwrap().to_string()
    };
    let mut session = Session::initialized(
        &env,
        &["--trust-project"],
        json!({"at": "web", "agents": ["claude"]}),
    );
    assert_eq!(
        hover(&mut session),
        "**Reading `web/src/app.ts`**\n\n**Claude Code** adds 1 file · 22 B · ~6 tokens\n- `.claude/rules/web.md` · rule · 22 B · ~6 tokens",
        "web/CLAUDE.md loads at start from web"
    );
    assert_eq!(session.stop(), 0);

    let mut session = Session::start(&env, &["--trust-project"]);
    let folders = json!([{"uri": uri(&env.ws), "name": "ws"}, {"uri": uri(&env.ws.join("web")), "name": "web"}]);
    session.result(
        "initialize",
        json!({"rootUri": null, "workspaceFolders": folders, "capabilities": {}, "initializationOptions": {"agents": ["claude"]}}),
    );
    let inner = hover(&mut session);
    let parent_rule = format!(
        "- `{}` · rule · 22 B",
        env.ws
            .join(".claude")
            .join("rules")
            .join("web.md")
            .display()
    );
    assert!(
        inner.starts_with("**Reading `src/app.ts`**\n\n**Claude Code** adds 1 file")
            && inner.contains(&parent_rule),
        "the innermost folder, web, holds the file; the rule lies above it: {inner}"
    );
    assert_eq!(session.stop(), 0);
}
