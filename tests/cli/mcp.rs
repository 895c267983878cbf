//! `mcp` (SPEC §21.2): the server driven over its stdio with
//! newline-delimited JSON-RPC — the handshake, malformed lines, the tools'
//! documents against the CLI's, confinement to the roots, trust from the
//! server's flag only, and no file written.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use mecatl_prompt::prompt::profile::Agent;
use serde_json::{Value, json};

use crate::hardening::read_only::snapshot;
use crate::support::{TestEnv, json as stdout_json};

/// How long a test waits for one line from the server.
const WAIT: Duration = Duration::from_secs(60);

/// A running server: lines go to its stdin, lines come back from stdout.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Session {
    /// `mecatl-prompt ARGS mcp` in `env`'s workspace, with `vars` set.
    fn start(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> Self {
        let mut cmd = env.std_cmd();
        cmd.args(args)
            .arg("mcp")
            .envs(vars.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().expect("start the server");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 100,
        }
    }

    fn send_raw(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, message: Value) {
        self.send_raw(message.to_string().as_bytes());
    }

    /// The next line the server writes, as JSON (every line must be JSON).
    fn recv(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(WAIT)
            .expect("a line from the server");
        serde_json::from_str(&line).unwrap_or_else(|err| panic!("not JSON: {line}: {err}"))
    }

    /// Whether the server stays silent for a moment.
    fn silent(&mut self) -> bool {
        matches!(
            self.lines.recv_timeout(Duration::from_millis(300)),
            Err(RecvTimeoutError::Timeout)
        )
    }

    /// Sends request `method` and returns its answer.
    fn ask(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let answer = self.recv();
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// `initialize` (with `roots` when `roots` is true) and `initialized`.
    fn initialize(&mut self, roots: bool) -> Value {
        let capabilities = if roots {
            json!({"roots": {"listChanged": true}})
        } else {
            json!({})
        };
        let answer = self.ask(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": capabilities,
                   "clientInfo": {"name": "test", "version": "0"}}),
        );
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        answer
    }

    /// `tools/call` of `name` and its result.
    fn call(&mut self, name: &str, arguments: Value) -> Value {
        let answer = self.ask("tools/call", json!({"name": name, "arguments": arguments}));
        answer["result"].clone()
    }

    /// Reads the server's `roots/list` request and answers it with `paths`.
    fn answer_roots(&mut self, paths: &[&std::path::Path]) {
        let asked = self.recv();
        assert_eq!(asked["method"], "roots/list", "{asked}");
        let roots: Vec<Value> = paths.iter().map(|p| json!({"uri": file_uri(p)})).collect();
        self.send(json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"roots": roots}}));
    }

    /// Closes stdin and waits for the exit status.
    fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        self.child.wait().expect("wait").code()
    }
}

/// A workspace where every agent loads something.
fn workspace() -> TestEnv {
    let env = TestEnv::demo();
    env.write("CLAUDE.md", "Claude.\n@docs/more.md\n");
    env.write("docs/more.md", "More.\n");
    env.write("web/CLAUDE.md", "Web.\n");
    env.write(
        ".claude/rules/web.md",
        "---\npaths: \"web/**\"\n---\nWeb rule.\n",
    );
    env
}

/// `path` as a `file:` URI (`file:///C:/x` on Windows).
fn file_uri(path: &std::path::Path) -> String {
    let slashed = path.display().to_string().replace('\\', "/");
    if slashed.starts_with('/') {
        format!("file://{slashed}")
    } else {
        format!("file:///{slashed}")
    }
}

fn error_code(answer: &Value) -> Value {
    answer["error"]["code"].clone()
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_handshake_and_json_rpc_errors_follow_the_protocol() {
    let env = TestEnv::new();
    let mut s = Session::start(&env, &[], &[]);
    let init = s.initialize(false);
    assert_eq!(
        init["result"]["protocolVersion"], "2025-06-18",
        "the client's version when supported"
    );
    assert_eq!(
        init["result"]["capabilities"],
        json!({"tools": {"listChanged": false}})
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "mecatl-prompt");
    for (asked, given) in [("2025-11-25", "2025-11-25"), ("2024-11-05", "2025-11-25")] {
        let again = s.ask(
            "initialize",
            json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        );
        assert_eq!(again["result"]["protocolVersion"], given);
    }
    assert_eq!(s.ask("ping", json!({}))["result"], json!({}));
    assert_eq!(error_code(&s.ask("server/discover", json!({}))), -32601);
    assert_eq!(error_code(&s.ask("no/such", json!({}))), -32601);
    assert_eq!(error_code(&s.ask("initialize", json!([1]))), -32602);
    assert_eq!(
        error_code(&s.ask("tools/call", json!({"name": "rm", "arguments": {}}))),
        -32602,
        "an unknown tool"
    );
    assert_eq!(
        error_code(&s.ask("tools/call", json!({"arguments": {}}))),
        -32602
    );

    // Lines that are not requests: each answered with id null, the server goes on.
    s.send_raw(b"this is not JSON");
    let parse = s.recv();
    assert_eq!(
        (error_code(&parse), &parse["id"]),
        (json!(-32700), &Value::Null)
    );
    s.send_raw(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
    assert_eq!(error_code(&s.recv()), -32600);
    s.send_raw(br#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#);
    let old = s.recv();
    assert_eq!((error_code(&old), &old["id"]), (json!(-32600), &json!(7)));
    s.send_raw(br#"{"jsonrpc":"2.0","id":8}"#);
    assert_eq!(error_code(&s.recv()), -32600);
    // A line over the cap: an error, not a line held in memory.
    let mut long = br#"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":""#.to_vec();
    long.resize(long.len() + (1 << 20) + 10, b'a');
    long.extend_from_slice(br#""}}"#);
    s.send_raw(&long);
    assert_eq!(error_code(&s.recv()), -32600);
    // Notifications, known or not, and stray responses are never answered.
    s.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
    );
    s.send(json!({"jsonrpc": "2.0", "method": "no/such/notification"}));
    s.send(json!({"jsonrpc": "2.0", "id": "nobody-asked", "result": {}}));
    assert!(s.silent());
    assert_eq!(s.ask("ping", json!(null))["result"], json!({}));
    assert_eq!(s.finish(), Some(0), "the end of input ends the server");
}

#[test]
fn the_tools_list_every_profile_their_schemas_and_read_only_annotations() {
    let env = TestEnv::new();
    let mut s = Session::start(&env, &[], &[]);
    s.initialize(false);
    let listed = s.ask("tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().expect("tools").clone();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["assemble", "compare", "lint", "explain"]);
    let every: Vec<Value> = Agent::ALL.iter().map(|a| json!(a.as_str())).collect();
    for tool in &tools {
        assert_eq!(
            tool["annotations"]["readOnlyHint"], true,
            "{}",
            tool["name"]
        );
        assert_eq!(tool["annotations"]["destructiveHint"], false);
        assert_eq!(tool["annotations"]["idempotentHint"], true);
        assert_eq!(tool["annotations"]["openWorldHint"], false);
        let properties = &tool["inputSchema"]["properties"];
        let agents = if properties["agent"].is_null() {
            &properties["agents"]["items"]["enum"]
        } else {
            &properties["agent"]["enum"]
        };
        assert_eq!(agents.as_array().expect("enum"), &every, "{}", tool["name"]);
    }
    for (tool, file) in [(2, "lint"), (1, "compare"), (3, "explain")] {
        let schema: Value = serde_json::from_str(
            &std::fs::read_to_string(crate::support::repo_file(&format!("schemas/{file}.json")))
                .expect("schema"),
        )
        .expect("JSON");
        assert_eq!(tools[tool]["outputSchema"], schema, "{file}");
    }
    assert_eq!(tools[3]["inputSchema"]["required"], json!(["name"]));
    s.finish();
}

/// The CLI's `--format json` document for `args` (global options first).
fn cli_document(env: &TestEnv, args: &[&str]) -> (Value, String) {
    let mut line = vec!["--format", "json"];
    line.extend_from_slice(args);
    let output = env.run(&line);
    (
        stdout_json(&output),
        String::from_utf8(output.stdout).expect("UTF-8"),
    )
}

#[test]
fn every_tool_answers_with_the_clis_own_document() {
    let env = workspace();
    let ws = env.ws.display().to_string();
    for trust in [false, true] {
        let flags: &[&str] = if trust { &["--trust-project"] } else { &[] };
        let mut s = Session::start(&env, flags, &[]);
        s.initialize(false);
        let cases: [(&str, Value, Vec<&str>); 7] = [
            ("assemble", json!({}), vec!["assemble"]),
            (
                "assemble",
                json!({"agent": "claude", "touch": ["web/app.ts"]}),
                vec!["--agent", "claude", "assemble", "--touch", "web/app.ts"],
            ),
            (
                "assemble",
                json!({"agent": "codex", "at": "web", "workspace": ws}),
                vec!["--agent", "codex", "--at", "web", "assemble"],
            ),
            (
                "compare",
                json!({"agents": ["claude", "gemini"], "touch": ["web/x.ts"]}),
                vec![
                    "compare",
                    "--agents",
                    "claude,gemini",
                    "--touch",
                    "web/x.ts",
                ],
            ),
            ("lint", json!({}), vec!["lint"]),
            (
                "lint",
                json!({"agents": ["claude"], "at": "web"}),
                vec!["--at", "web", "lint", "--agents", "claude"],
            ),
            (
                "explain",
                json!({"name": "CLAUDE.md", "agent": "claude"}),
                vec!["--agent", "claude", "explain", "CLAUDE.md"],
            ),
        ];
        for (tool, arguments, cli) in cases {
            let result = s.call(tool, arguments.clone());
            let mut cli = cli;
            if trust {
                cli.insert(0, "--trust-project");
            }
            let (document, text_form) = cli_document(&env, &cli);
            assert_eq!(result["isError"], false, "{tool} {arguments}: {result}");
            assert_eq!(result["structuredContent"], document, "{tool} {arguments}");
            assert_eq!(text(&result), text_form, "{tool} {arguments}");
        }
        s.finish();
    }
}

#[test]
fn bad_argument_values_are_tool_errors_with_the_clis_message() {
    let env = workspace();
    let mut s = Session::start(&env, &[], &[]);
    s.initialize(false);
    let cli_error = |args: &[&str]| {
        let output = env.run(args);
        // Clap names the program as it was started: `mecatl-prompt.exe` on Windows.
        String::from_utf8_lossy(&output.stderr)
            .trim_end()
            .replace("mecatl-prompt.exe ", "mecatl-prompt ")
    };
    let bad_agent = s.call("assemble", json!({"agent": "nobody"}));
    assert_eq!(bad_agent["isError"], true);
    assert_eq!(
        text(&bad_agent),
        cli_error(&["--agent", "nobody", "assemble"])
    );
    let bad_agents = s.call("lint", json!({"agents": ["claude", "nobody"]}));
    assert_eq!(
        text(&bad_agents),
        cli_error(&["lint", "--agents", "claude,nobody"])
    );
    let missing_name = s.call("explain", json!({}));
    assert_eq!(text(&missing_name), cli_error(&["explain"]));
    let bad_at = s.call("assemble", json!({"agent": "claude", "at": "nowhere"}));
    assert_eq!(
        text(&bad_at),
        cli_error(&["--agent", "claude", "--at", "nowhere", "assemble"])
    );
    let outside_touch = s.call("compare", json!({"touch": ["../x"]}));
    assert_eq!(
        text(&outside_touch),
        cli_error(&["compare", "--touch", "../x"])
    );
    for (arguments, why) in [
        (json!({"trust": true}), "takes no argument trust"),
        (json!({"agent": 3}), "argument agent: expected a string"),
        (
            json!({"touch": "a"}),
            "argument touch: expected an array of strings",
        ),
    ] {
        let result = s.call("assemble", arguments);
        assert_eq!(result["isError"], true);
        assert!(text(&result).contains(why), "{result}");
    }
    // A value shaped like an option stays a value: a name explained, not a flag.
    let option_like = s.call("explain", json!({"name": "--trust-project"}));
    assert_eq!(
        option_like["structuredContent"],
        cli_document(&env, &["explain", "--", "--trust-project"]).0
    );
    s.finish();
}

#[test]
fn a_workspace_outside_the_start_directory_is_refused() {
    let env = workspace();
    std::fs::create_dir_all(env.root.join("elsewhere")).expect("mkdir");
    let mut s = Session::start(&env, &["-C", "web"], &[]);
    s.initialize(false);
    let inside = s.call("lint", json!({}));
    assert_eq!(inside["isError"], false, "{inside}");
    assert_eq!(
        inside["structuredContent"],
        cli_document(&env, &["-C", "web", "lint"]).0
    );
    for asked in ["..", "../../elsewhere", &env.ws.display().to_string()] {
        let refused = s.call("lint", json!({"workspace": asked}));
        assert_eq!(refused["isError"], true, "{asked}");
        assert!(
            text(&refused).contains(&format!("the roots are {}", env.ws.join("web").display())),
            "{}",
            text(&refused)
        );
    }
    s.finish();
}

#[test]
fn client_roots_replace_the_start_directory_and_confine_through_links_and_dots() {
    let env = workspace();
    let outside = env.root.join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::write(outside.join("CLAUDE.md"), "Secret.\n").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, env.ws.join("web/escape")).expect("symlink");
    let web = env.ws.join("web");
    let mut s = Session::start(&env, &[], &[]);
    s.initialize(true);
    // A call sent before the roots are known waits for them.
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "lint", "arguments": {"workspace": env.ws.display().to_string()}}}));
    s.answer_roots(&[&web]);
    let waited = s.recv();
    assert_eq!(waited["id"], 1);
    assert_eq!(
        waited["result"]["isError"], true,
        "the start directory no longer counts"
    );
    assert!(text(&waited["result"]).contains(&format!("the roots are {}", web.display())));
    // Relative to the first root; `..` and a link out of it are refused.
    let relative = s.call("lint", json!({"workspace": "."}));
    assert_eq!(relative["isError"], false, "{relative}");
    assert_eq!(
        relative["structuredContent"],
        cli_document(&env, &["-C", "web", "lint"]).0
    );
    for asked in ["..", "../web/../..", "escape"] {
        if asked == "escape" && cfg!(not(unix)) {
            continue;
        }
        let refused = s.call("lint", json!({"workspace": asked}));
        assert_eq!(refused["isError"], true, "{asked}: {refused}");
        assert!(text(&refused).contains("outside the roots"), "{asked}");
    }
    // The roots change: the server asks again.
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}));
    s.answer_roots(&[&outside, &env.ws]);
    let now = s.call("lint", json!({"workspace": env.ws.display().to_string()}));
    assert_eq!(now["isError"], false, "{now}");
    let first = s.call("lint", json!({}));
    let outside_arg = outside.display().to_string();
    assert_eq!(
        first["structuredContent"],
        cli_document(&env, &["-C", &outside_arg, "lint"]).0,
        "no workspace: the first root"
    );
    s.finish();
}

#[test]
fn only_the_servers_flag_trusts_the_workspace() {
    let env = workspace();
    env.write_config(
        "mecatl/settings.yaml",
        format!("trustedWorkspaces:\n  - {}\n", env.ws.display()),
    );
    let trust_of = |flags: &[&str], vars: &[(&str, &str)]| {
        let mut s = Session::start(&env, flags, vars);
        s.initialize(false);
        let result = s.call("assemble", json!({"agent": "claude"}));
        s.finish();
        result["structuredContent"]["trust"].clone()
    };
    let untrusted = json!({"trusted": false, "source": "default"});
    assert_eq!(
        trust_of(&[], &[("MECATL_TRUST_PROJECT", "1")]),
        untrusted,
        "neither the variable nor the settings file trusts"
    );
    assert_eq!(
        trust_of(&["--trust-project"], &[("MECATL_TRUST_PROJECT", "0")]),
        json!({"trusted": true, "source": "flag"})
    );
    // The CLI, run the same way, is trusted by the same settings.
    assert_eq!(
        cli_document(&env, &["--agent", "claude", "assemble"]).0["trust"],
        json!({"trusted": true, "source": "settings"})
    );
}

#[test]
fn a_session_of_every_tool_writes_nothing() {
    let env = workspace();
    let before = [&env.ws, &env.home, &env.config, &env.data].map(|d| snapshot(d));
    let mut s = Session::start(&env, &["--trust-project"], &[]);
    s.initialize(true);
    s.answer_roots(&[&env.ws]);
    for agent in Agent::ALL {
        let agent = agent.as_str();
        for (tool, arguments) in [
            ("assemble", json!({"agent": agent, "touch": ["web/a.ts"]})),
            ("compare", json!({"agents": [agent]})),
            ("lint", json!({"agents": [agent]})),
            ("explain", json!({"name": "CLAUDE.md", "agent": agent})),
        ] {
            let result = s.call(tool, arguments);
            assert!(result.is_object(), "{tool} {agent}");
        }
    }
    assert_eq!(s.finish(), Some(0));
    let after = [&env.ws, &env.home, &env.config, &env.data].map(|d| snapshot(d));
    assert_eq!(before, after);
}
