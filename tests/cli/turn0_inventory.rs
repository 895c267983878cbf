//! The rest of turn 0 under `--agent claude` (SPEC §19.4–§19.6), and
//! Codex's and Gemini CLI's MCP servers: MCP servers and hooks are listed
//! with what they would add, never started or run, under any command and
//! any profile; `env` values are never printed;
//! the project's settings and `.mcp.json` are trust-gated.

use mecatl_prompt::prompt::profile::Agent;

use crate::hardening::{Outcome, run};
use crate::support::TestEnv;

/// A workspace whose settings and `.mcp.json` would each create a marker
/// file if anything ran them. Returns the markers.
fn armed(env: &TestEnv) -> Vec<std::path::PathBuf> {
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let markers: Vec<_> = [
        "hook-ran",
        "local-hook-ran",
        "server-ran",
        "codex-server-ran",
        "codex-project-server-ran",
        "gemini-server-ran",
        "gemini-user-server-ran",
    ]
    .iter()
    .map(|name| env.root.join(name))
    .collect();
    let quoted = |path: &std::path::Path| path.display().to_string().replace('\\', "\\\\");
    env.write(
        ".claude/settings.json",
        format!(
            r#"{{"hooks": {{
                "SessionStart": [{{"hooks": [{{"type": "command", "command": "touch {}"}}]}}],
                "PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "echo pre"}}]}}]
              }},
              "includeCoAuthoredBy": false,
              "env": {{"SLASH_COMMAND_TOOL_CHAR_BUDGET": "5000"}}}}"#,
            quoted(&markers[0])
        ),
    );
    env.write(
        ".claude/settings.local.json",
        format!(
            r#"{{"hooks": {{"UserPromptSubmit": [{{"hooks": [{{"type": "command", "command": "touch {}"}}]}}]}},
              "disabledMcpjsonServers": ["off"]}}"#,
            quoted(&markers[1])
        ),
    );
    env.write(
        ".mcp.json",
        format!(
            r#"{{"mcpServers": {{
                "db": {{"command": "touch", "args": ["{}"], "env": {{"DB_PASSWORD": "hunter2-secret"}}}},
                "web": {{"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {{"Authorization": "Bearer token-secret"}}}},
                "off": {{"command": "touch", "args": ["{}"]}}
              }}}}"#,
            quoted(&markers[2]),
            quoted(&markers[2])
        ),
    );
    env.write("CLAUDE.md", "PROJECT\n");
    arm_codex_and_gemini(env, &markers[3..]);
    markers
}

/// Codex's and Gemini CLI's configuration files, user and project, each
/// with a server that would create one of `markers` (and a secret).
fn arm_codex_and_gemini(env: &TestEnv, markers: &[std::path::PathBuf]) {
    let literal = |path: &std::path::Path| path.display().to_string();
    let quoted = |path: &std::path::Path| path.display().to_string().replace('\\', "\\\\");
    std::fs::create_dir_all(env.home.join(".codex")).unwrap();
    std::fs::write(
        env.home.join(".codex/config.toml"),
        format!(
            "[mcp_servers.codex_db]\ncommand = \"touch\"\nargs = ['{}']\n\
             env = {{ TOKEN = \"codex-secret\" }}\n\n\
             [projects.'{}']\ntrust_level = \"trusted\"\n",
            literal(&markers[0]),
            literal(&env.ws)
        ),
    )
    .unwrap();
    env.write(
        ".codex/config.toml",
        format!(
            "[mcp_servers.codex_project]\ncommand = \"touch\"\nargs = ['{}']\n",
            literal(&markers[1])
        ),
    );
    env.write(
        ".gemini/settings.json",
        format!(
            r#"{{"mcpServers": {{
                "gemini_db": {{"command": "touch", "args": ["{}"], "env": {{"KEY": "gemini-secret"}}}},
                "gemini_web": {{"httpUrl": "http://127.0.0.1:9/mcp", "headers": {{"Authorization": "Bearer gemini-secret"}}}}
              }}, "mcp": {{"excluded": ["gemini_web"]}}}}"#,
            quoted(&markers[2])
        ),
    );
    std::fs::create_dir_all(env.home.join(".gemini")).unwrap();
    std::fs::write(
        env.home.join(".gemini/settings.json"),
        format!(
            r#"{{"mcpServers": {{"gemini_user": {{"command": "touch", "args": ["{}"]}}}}}}"#,
            quoted(&markers[3])
        ),
    )
    .unwrap();
}

/// The `(name, scope, transport, enabled)` of every server `agent` lists.
fn servers_of(env: &TestEnv, agent: &str, trust: bool) -> Vec<(String, String, String, bool)> {
    let mut args = vec!["--agent", agent, "--format", "json", "assemble"];
    if trust {
        args.insert(0, "--trust-project");
    }
    let doc = run(env, &args).assert_code(0).json();
    let servers = doc["mcp_servers"].as_array().unwrap();
    assert!(servers.iter().all(|s| s["run"] == false));
    servers
        .iter()
        .map(|s| {
            let text = |key: &str| s[key].as_str().unwrap().to_string();
            (
                text("name"),
                text("scope"),
                text("transport"),
                s["enabled"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn codex_lists_its_users_servers_and_a_trusted_projects() {
    let env = TestEnv::new();
    armed(&env);
    let stdio = |name: &str, scope: &str| {
        (
            name.to_string(),
            scope.to_string(),
            "stdio".to_string(),
            true,
        )
    };
    assert_eq!(
        servers_of(&env, "codex", true),
        [stdio("codex_db", "user"), stdio("codex_project", "project")]
    );
    // Untrusted, the project's file is withheld; the user's still counts.
    assert_eq!(
        servers_of(&env, "codex", false),
        [stdio("codex_db", "user")]
    );
    // Codex does not trust a project its user file does not name.
    std::fs::write(
        env.home.join(".codex/config.toml"),
        "[mcp_servers.codex_db]\nurl = \"http://127.0.0.1:9/mcp\"\nenabled = false\n",
    )
    .unwrap();
    let out = run(
        &env,
        &[
            "--trust-project",
            "--agent",
            "codex",
            "--format",
            "json",
            "assemble",
        ],
    );
    let doc = out.assert_code(0).json();
    let servers = doc["mcp_servers"].as_array().unwrap();
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0]["transport"], "http");
    assert_eq!(servers[0]["enabled"], false);
    assert_eq!(servers[0]["why"], "enabled = false");
    assert!(
        doc["diagnostics"]
            .to_string()
            .contains("only for a project it trusts")
    );
}

#[test]
fn gemini_lists_the_servers_of_both_settings_files() {
    let env = TestEnv::new();
    armed(&env);
    let server = |name: &str, scope: &str, transport: &str, on: bool| {
        (
            name.to_string(),
            scope.to_string(),
            transport.to_string(),
            on,
        )
    };
    assert_eq!(
        servers_of(&env, "gemini", true),
        [
            server("gemini_user", "user", "stdio", true),
            server("gemini_db", "project", "stdio", true),
            server("gemini_web", "project", "http", false),
        ]
    );
    assert_eq!(
        servers_of(&env, "gemini", false),
        [server("gemini_user", "user", "stdio", true)]
    );
    let out = run(&env, &["--trust-project", "--agent", "gemini", "assemble"]);
    let warnings = out.stderr.lines().filter(|l| l.contains("not run")).count();
    assert_eq!(warnings, 2, "{}", out.stderr);
}

fn trusted(env: &TestEnv, args: &[&str]) -> Outcome {
    let mut all = vec!["--trust-project", "--agent", "claude", "--format", "json"];
    all.extend_from_slice(args);
    run(env, &all)
}

#[test]
fn servers_and_hooks_are_listed_with_what_they_would_add() {
    let env = TestEnv::new();
    armed(&env);
    let out = trusted(&env, &["assemble"]);
    let doc = out.assert_code(0).json();
    let servers = doc["mcp_servers"].as_array().unwrap();
    let summary: Vec<(&str, &str, bool)> = servers
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap(),
                s["transport"].as_str().unwrap(),
                s["enabled"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("db", "stdio", true),
            ("web", "http", true),
            ("off", "stdio", false)
        ]
    );
    assert!(servers.iter().all(|s| s["run"] == false));
    assert_eq!(servers[0]["command"], "touch");
    assert_eq!(servers[0]["env_keys"], serde_json::json!(["DB_PASSWORD"]));
    assert_eq!(servers[1]["env_keys"], serde_json::json!(["Authorization"]));
    assert_eq!(servers[1]["url"], "http://127.0.0.1:9/mcp");
    assert!(
        servers[2]["why"]
            .as_str()
            .unwrap()
            .contains("disabledMcpjsonServers in .claude/settings.local.json")
    );
    assert!(
        servers[0]["would_add"]
            .as_str()
            .unwrap()
            .contains("mcp__db__TOOL")
    );
    let hooks: Vec<(&str, &str)> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["event"].as_str().unwrap(), h["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        hooks,
        [
            ("SessionStart", ".claude/settings.json"),
            ("PreToolUse", ".claude/settings.json"),
            ("UserPromptSubmit", ".claude/settings.local.json"),
        ]
    );
    let warnings = out.stderr.lines().filter(|l| l.contains("not run")).count();
    // Two enabled servers and two turn-0 hooks; the PreToolUse hook is
    // not at turn 0 and the disabled server would not start.
    assert_eq!(warnings, 4, "{}", out.stderr);
    let infos = doc["diagnostics"].to_string();
    assert!(infos.contains("includeCoAuthoredBy is false"), "{infos}");
}

#[test]
fn no_hook_or_server_runs_and_no_secret_is_printed_under_any_command_or_profile() {
    let env = TestEnv::new();
    let markers = armed(&env);
    let agents: Vec<&str> = Agent::ALL.iter().map(|agent| agent.as_str()).collect();
    let commands: [&[&str]; 8] = [
        &["assemble"],
        &["snapshot"],
        &["commands", "list"],
        &["explain", ".mcp.json"],
        &["explain", ".codex/config.toml"],
        &["explain", ".gemini/settings.json"],
        &["expand", "/x"],
        &["rules", "list"],
    ];
    for agent in &agents {
        for command in commands {
            let mut args = vec!["--trust-project", "--agent", agent, "--format", "json"];
            args.extend_from_slice(command);
            let out = run(&env, &args);
            for text in [&out.stdout, &out.stderr] {
                assert!(!text.contains("secret"), "{agent} {command:?}: {text}");
            }
        }
    }
    for extra in [&["compare"][..], &["lint"][..]] {
        let mut args = vec!["--trust-project", "--format", "json"];
        args.extend_from_slice(extra);
        let out = run(&env, &args);
        assert!(!out.stdout.contains("secret") && !out.stderr.contains("secret"));
    }
    for marker in markers {
        assert!(
            !marker.exists(),
            "{} was created: something ran",
            marker.display()
        );
    }
}

#[test]
fn untrusted_the_settings_and_mcp_json_are_withheld_and_never_read() {
    let env = TestEnv::new();
    armed(&env);
    let out = run(&env, &["--agent", "claude", "--format", "json", "assemble"]);
    let doc = out.assert_code(0).json();
    assert_eq!(doc["mcp_servers"], serde_json::json!([]));
    assert_eq!(doc["hooks"], serde_json::json!([]));
    let withheld: Vec<&str> = doc["not_loaded"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["reason"] == "withheld: untrusted")
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    for path in [
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".mcp.json",
    ] {
        assert!(
            withheld.contains(&path),
            "{path} not withheld: {withheld:?}"
        );
    }
    assert!(
        !doc["diagnostics"]
            .to_string()
            .contains("includeCoAuthoredBy")
    );
}

#[test]
fn a_broken_settings_file_is_named_with_its_line_and_column_and_ignored() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write(".claude/settings.json", "{\n  \"hooks\": {,\n}\n");
    env.write(".mcp.json", "[1, 2]");
    let out = trusted(&env, &["assemble"]);
    let doc = out.assert_code(0).json();
    assert_eq!(doc["hooks"], serde_json::json!([]));
    assert!(
        out.stderr
            .contains(".claude/settings.json: not valid JSON (line 2, column 13): ignored"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(".mcp.json: not a JSON object: ignored"),
        "{}",
        out.stderr
    );
}

#[test]
fn disable_all_hooks_turns_every_hook_off() {
    let env = TestEnv::new();
    armed(&env);
    env.write(
        ".claude/settings.local.json",
        r#"{"disableAllHooks": true}"#,
    );
    let out = trusted(&env, &["assemble"]);
    let doc = out.assert_code(0).json();
    let hooks = doc["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 2);
    assert!(hooks.iter().all(|h| {
        h["would_add"]
            .as_str()
            .unwrap()
            .starts_with("nothing: hooks are off")
    }));
    let infos = doc["diagnostics"].to_string();
    assert!(infos.contains("disableAllHooks is true"), "{infos}");
    assert!(!out.stderr.contains("hook `"), "{}", out.stderr);
}

#[test]
fn an_output_style_is_named_warned_or_withheld_as_claude_code_would_treat_it() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write(".claude/output-styles/mine.md", "SECRET STYLE\n");
    for (style, expect) in [
        ("Learning", "is Claude Code's own"),
        ("nowhere", "names no output style"),
    ] {
        env.write(
            ".claude/settings.json",
            format!(r#"{{"outputStyle": "{style}"}}"#),
        );
        let doc = trusted(&env, &["assemble"]).assert_code(0).json();
        assert_eq!(doc["output_style"], serde_json::Value::Null, "{style}");
        assert!(doc["diagnostics"].to_string().contains(expect), "{style}");
    }
    env.write(".claude/settings.json", r#"{"outputStyle": "mine"}"#);
    let doc = trusted(&env, &["assemble"]).assert_code(0).json();
    assert_eq!(
        doc["output_style"]["content"],
        "# Output Style: mine\nSECRET STYLE"
    );
    // Untrusted, neither the settings nor the style is read.
    let out = run(&env, &["--agent", "claude", "--format", "json", "assemble"]);
    assert!(!out.stdout.contains("SECRET"), "{}", out.stdout);
    assert_eq!(out.json()["output_style"], serde_json::Value::Null);
}

#[test]
fn the_settings_env_sizes_the_skills_listing_unless_the_process_sets_it() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    for name in ["alpha", "beta", "gamma"] {
        env.write(
            &format!(".claude/skills/{name}/SKILL.md"),
            format!("---\ndescription: {}\n---\nbody\n", "word ".repeat(40)),
        );
    }
    let listing = |out: &Outcome| -> usize {
        out.json()["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["provenance"] == "skills")
            .map(|m| m["text"].as_str().unwrap().len())
            .sum()
    };
    let roomy = listing(&trusted(&env, &["assemble"]));
    env.write(
        ".claude/settings.json",
        r#"{"env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "60"}}"#,
    );
    let tight = listing(&trusted(&env, &["assemble"]));
    assert!(tight < roomy, "{tight} < {roomy}");
    let mut cmd = env.cmd();
    cmd.env("SLASH_COMMAND_TOOL_CHAR_BUDGET", "100000").args([
        "--trust-project",
        "--agent",
        "claude",
        "--format",
        "json",
        "assemble",
    ]);
    let process = crate::hardening::finish(&env, &mut cmd);
    assert_eq!(listing(&process), roomy, "the process's variable wins");
}

#[test]
fn text_shows_one_section_for_the_servers_and_one_for_the_hooks() {
    let env = TestEnv::new();
    armed(&env);
    let out = run(&env, &["--trust-project", "--agent", "claude", "assemble"]);
    let text = &out.assert_code(0).stdout;
    assert!(
        text.contains("── MCP servers · 3 configured · none started ──\ndb (.mcp.json, stdio: touch) would start: not run;"),
        "{text}"
    );
    assert!(
        text.contains("off (.mcp.json, stdio: touch) would not start: not run;"),
        "{text}"
    );
    assert!(
        text.contains(
            "── hooks · 3 configured · none run ──\nSessionStart (.claude/settings.json): `touch "
        ),
        "{text}"
    );
    assert!(!text.contains("secret"), "{text}");
}

#[test]
fn subagents_above_the_git_root_are_not_read() {
    let env = TestEnv::new();
    env.write(
        ".claude/agents/a.md",
        "---\nname: above\ndescription: above the repository\n---\n",
    );
    env.write(
        "sub/.claude/agents/b.md",
        "---\nname: inside\ndescription: in the repository\n---\n",
    );
    std::fs::create_dir_all(env.ws.join("sub/.git")).unwrap();
    let doc = trusted(&env, &["--at", "sub", "assemble"])
        .assert_code(0)
        .json();
    let names: Vec<&str> = doc["subagents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["inside"]);
}

#[test]
fn lint_notes_servers_and_turn_zero_hooks_and_warns_on_skipped_agents_and_unknown_styles() {
    let env = TestEnv::new();
    let markers = armed(&env);
    env.write(
        ".claude/agents/ok.md",
        "---\nname: ok\ndescription: Fine.\n---\nBody.\n",
    );
    env.write(
        ".claude/agents/nameless.md",
        "---\ndescription: No name.\n---\n",
    );
    env.write(
        ".claude/agents/lenient.md",
        "---\nname: lenient\ndescription: Use it: when asked\n---\n",
    );
    env.write("sub/.claude/settings.json", r#"{"outputStyle": "Nowhere"}"#);
    // Untrusted: lint needs no trust (SPEC §15.3) and still runs nothing.
    let out = run(&env, &["lint"]);
    let lines: Vec<&str> = out
        .stdout
        .lines()
        .filter(|line| {
            ["MP025", "MP026", "MP027", "MP028"]
                .iter()
                .any(|c| line.contains(c))
        })
        .collect();
    let has = |code: &str, path: &str, words: &str| {
        lines
            .iter()
            .any(|line| line.starts_with(path) && line.contains(code) && line.contains(words))
    };
    assert!(
        has("MP025", ".claude/agents/nameless.md:1", "no `name` string"),
        "{lines:#?}"
    );
    assert!(
        has("MP025", ".claude/agents/lenient.md:1", "reads it leniently"),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|line| line.contains("agents/ok.md")));
    assert!(has(
        "MP026",
        "sub/.claude/settings.json:1",
        "`outputStyle: Nowhere`"
    ));
    assert!(has(
        "MP027",
        ".mcp.json",
        "MCP server \"db\": claude -p runs `touch"
    ));
    assert!(has("MP027", ".mcp.json", "contacts http://127.0.0.1:9/mcp"));
    assert!(has(
        "MP028",
        ".claude/settings.json:2",
        "SessionStart hook `touch"
    ));
    assert!(has(
        "MP028",
        ".claude/settings.local.json:1",
        "UserPromptSubmit hook"
    ));
    assert!(!has("MP028", ".claude/settings.json", "echo pre"));
    assert!(!out.stdout.contains("secret") && !out.stderr.contains("secret"));
    for marker in markers {
        assert!(!marker.exists(), "{} was created", marker.display());
    }
}

#[test]
fn explain_lists_the_servers_of_each_configuration_file() {
    let env = TestEnv::new();
    armed(&env);
    for (agent, file, names) in [
        ("claude", ".mcp.json", &["db", "web", "off"][..]),
        ("codex", ".codex/config.toml", &["codex_project"][..]),
        (
            "gemini",
            ".gemini/settings.json",
            &["gemini_db", "gemini_web"][..],
        ),
    ] {
        let args = [
            "--trust-project",
            "--agent",
            agent,
            "--format",
            "json",
            "explain",
            file,
        ];
        let doc = run(&env, &args).assert_code(0).json();
        let listed: Vec<&str> = doc["mcp_servers"]
            .as_array()
            .unwrap_or_else(|| panic!("{agent} {file}: {doc}"))
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(listed, names, "{agent} {file}");
        let args = ["--trust-project", "--agent", agent, "explain", file];
        let out = run(&env, &args);
        let text = &out.assert_code(0).stdout;
        assert!(text.contains("none started"), "{text}");
        assert!(text.contains("would add"), "{text}");
        assert!(!text.contains("secret"), "{text}");
    }
}

#[test]
fn lint_notes_every_project_mcp_server_with_its_command() {
    let env = TestEnv::new();
    armed(&env);
    let args = [
        "--trust-project",
        "--format",
        "json",
        "lint",
        "--agents",
        "claude,codex,gemini",
    ];
    let doc = run(&env, &args).json();
    let notes: Vec<(&str, &str)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "MP027")
        .map(|f| (f["path"].as_str().unwrap(), f["severity"].as_str().unwrap()))
        .collect();
    assert_eq!(
        notes,
        [
            (".codex/config.toml", "note"),
            (".gemini/settings.json", "note"),
            (".gemini/settings.json", "note"),
            (".mcp.json", "note"),
            (".mcp.json", "note"),
            (".mcp.json", "note"),
        ]
    );
    let text = doc["findings"].to_string();
    assert!(text.contains("runs `touch "), "{text}");
    assert!(!text.contains("secret"), "{text}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "README shows Linux's listing order of .claude/commands and Unix paths"
)]
fn the_readme_shows_the_demos_real_turn_zero_extras_and_nothing_ran() {
    let env = TestEnv::demo();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let readme = std::fs::read_to_string(crate::support::repo_file("README.md")).unwrap();
    let out = run(&env, &["--trust-project", "--agent", "claude", "assemble"]);
    let stdout = &out.assert_code(0).stdout;
    let from = stdout
        .find("── 3 · project · .claude/output-styles")
        .expect("the output style's part");
    assert!(
        readme.contains(&format!(
            "$ mecatl-prompt -C examples/demo --trust-project --agent claude assemble\n…\n{}```",
            &stdout[from..]
        )),
        "README's turn-0 extras are not the real output:\n{}",
        &stdout[from..]
    );
    let args = [
        "--trust-project",
        "--agent",
        "claude",
        "--quiet",
        "explain",
        ".mcp.json",
    ];
    let out = run(&env, &args);
    assert!(
        readme.contains(&format!(
            "$ mecatl-prompt -C examples/demo {}\n{}```",
            args.join(" "),
            out.assert_code(0).stdout
        )),
        "README's explain .mcp.json is not the real output"
    );
    assert!(!out.stdout.contains("not-a-real-password"));
    for marker in [".mcp-server-ran", ".session-start-hook-ran"] {
        assert!(!env.ws.join(marker).exists(), "{marker} exists");
    }
}
