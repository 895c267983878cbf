//! Provider formats (SPEC §8.3): `build` and `assemble` in the Anthropic
//! Messages and OpenAI Chat shapes, byte for byte, and the two halves merged
//! into one request body the way README's jq lines do.

use serde_json::{Map, Value, json};

use crate::support::{TestEnv, stderr, stdout};

/// Env flags that make `build` independent of the machine and the day.
const ENV_FLAGS: &[&str] = &[
    "--date",
    "2025-06-01",
    "--cwd",
    "/home/dev/ledger",
    "--os",
    "linux",
    "--shell",
    "/bin/bash",
    "--model",
    "demo-model",
    "--no-git-status",
];

fn run(env: &TestEnv, args: &[&str]) -> String {
    let output = env.cmd().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

fn build(env: &TestEnv, extra: &[&str]) -> String {
    let mut args = vec!["--trust-project", "build", "--tools", "tools.json"];
    args.extend_from_slice(ENV_FLAGS);
    args.extend_from_slice(extra);
    run(env, &args)
}

fn assemble(env: &TestEnv, format: &str) -> String {
    run(
        env,
        &[
            "--trust-project",
            "assemble",
            "--memory-dir",
            ".mecatl/memory",
            "--format",
            format,
        ],
    )
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn build_anthropic_matches_the_golden() {
    let env = TestEnv::demo();
    snapbox::assert_data_eq!(
        build(&env, &["--format", "anthropic"]),
        snapbox::file!["snapshots/eco/build-anthropic.json": Text].raw()
    );
}

#[test]
fn build_openai_matches_the_golden() {
    let env = TestEnv::demo();
    snapbox::assert_data_eq!(
        build(&env, &["--format", "openai"]),
        snapbox::file!["snapshots/eco/build-openai.json": Text].raw()
    );
}

#[test]
fn assemble_anthropic_matches_the_golden() {
    let env = TestEnv::demo();
    snapbox::assert_data_eq!(
        assemble(&env, "anthropic"),
        snapbox::file!["snapshots/eco/assemble-anthropic.json": Text].raw()
    );
}

#[test]
fn assemble_openai_matches_the_golden() {
    let env = TestEnv::demo();
    snapbox::assert_data_eq!(
        assemble(&env, "openai"),
        snapbox::file!["snapshots/eco/assemble-openai.json": Text].raw()
    );
}

#[test]
fn anthropic_system_is_the_cached_prefix_then_the_suffix() {
    let env = TestEnv::demo();
    let doc = parse(&build(&env, &["--format", "anthropic"]));
    let object = doc.as_object().unwrap();
    assert_eq!(object.keys().collect::<Vec<_>>(), ["system"]);
    let blocks = doc["system"].as_array().unwrap();
    assert_eq!(blocks.len(), 2);

    let prefix = build(&env, &["--part", "prefix"]);
    let prefix = prefix.strip_suffix('\n').unwrap();
    assert_eq!(
        blocks[0],
        json!({"type": "text", "text": prefix, "cache_control": {"type": "ephemeral"}})
    );
    let suffix = build(&env, &["--part", "suffix"]);
    let suffix = suffix.strip_suffix('\n').unwrap();
    assert_eq!(blocks[1], json!({"type": "text", "text": suffix}));
}

#[test]
fn openai_system_message_is_the_whole_render() {
    let env = TestEnv::demo();
    let doc = parse(&build(&env, &["--format", "openai"]));
    let text = build(&env, &["--color", "never"]);
    assert_eq!(
        doc,
        json!({"messages": [{"role": "system", "content": text.strip_suffix('\n').unwrap()}]})
    );
}

#[test]
fn assemble_provider_messages_carry_the_json_texts_in_order() {
    let env = TestEnv::demo();
    let plain = parse(&assemble(&env, "json"));
    let texts: Vec<&Value> = plain["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["text"])
        .collect();
    assert_eq!(texts.len(), 4);

    let anthropic = parse(&assemble(&env, "anthropic"));
    let expected: Vec<Value> = texts
        .iter()
        .map(|t| json!({"role": "user", "content": [{"type": "text", "text": t}]}))
        .collect();
    assert_eq!(anthropic, json!({ "messages": expected }));

    let openai = parse(&assemble(&env, "openai"));
    let expected: Vec<Value> = texts
        .iter()
        .map(|t| json!({"role": "user", "content": t}))
        .collect();
    assert_eq!(openai, json!({ "messages": expected }));
}

/// `jq -s add` on objects: a shallow merge, later keys winning.
fn jq_add(docs: &[Value]) -> Value {
    let mut merged = Map::new();
    for doc in docs {
        merged.extend(doc.as_object().unwrap().clone());
    }
    Value::Object(merged)
}

/// `jq -s '{messages: map(.messages) | add}'`: the message arrays joined.
fn jq_join_messages(docs: &[Value]) -> Value {
    let messages: Vec<Value> = docs
        .iter()
        .flat_map(|d| d["messages"].as_array().unwrap().clone())
        .collect();
    json!({ "messages": messages })
}

#[test]
fn anthropic_halves_merge_into_one_request_body() {
    let env = TestEnv::demo();
    let system = parse(&build(&env, &["--format", "anthropic"]));
    let turn0 = parse(&assemble(&env, "anthropic"));
    let merged = jq_add(&[system.clone(), turn0.clone()]);
    let keys: Vec<&String> = merged.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["system", "messages"]);
    assert_eq!(merged["system"], system["system"]);
    assert_eq!(merged["messages"], turn0["messages"]);
}

#[test]
fn openai_halves_merge_into_one_message_list() {
    let env = TestEnv::demo();
    let system = parse(&build(&env, &["--format", "openai"]));
    let turn0 = parse(&assemble(&env, "openai"));
    let merged = jq_join_messages(&[system, turn0]);
    let roles: Vec<&str> = merged["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "user", "user", "user"]);
}

#[test]
fn provider_formats_are_refused_outside_build_and_assemble() {
    let env = TestEnv::demo();
    for args in [
        &["expand", "/review"][..],
        &["commands", "list"],
        &["rules", "list"],
    ] {
        for format in ["anthropic", "openai"] {
            let output = env
                .cmd()
                .args(["--format", format])
                .args(args)
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(2), "{args:?} {format}");
            assert!(output.stdout.is_empty());
            let err = stderr(&output);
            assert!(
                err.starts_with(&format!(
                    "mecatl-prompt: error: --format {format} is only for build and assemble"
                )),
                "{err}"
            );
        }
    }
    let output = env
        .cmd()
        .args(["build", "--format", "anthropic", "--part", "prefix"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: --part is only for --format text\n"
    );
}

/// The sample catalogs of `examples/tools`, one per shape of SPEC §8.4,
/// all describing the same four tools.
const TOOL_SAMPLES: &[&str] = &[
    "plain.json",
    "anthropic.json",
    "openai-chat.json",
    "openai-responses.json",
    "mcp-tools-list.json",
    "mcp-jsonrpc.json",
];

fn tool_sample(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/tools")
        .join(name)
}

/// `build --part prefix` in a workspace holding the given `--tools` files.
fn prefix_with_tools(env: &TestEnv, files: &[&str]) -> std::process::Output {
    let mut cmd = env.cmd();
    cmd.args(["build", "--part", "prefix"]);
    for file in files {
        cmd.args(["--tools", file]);
    }
    cmd.output().unwrap()
}

#[test]
fn every_catalog_shape_gives_the_same_prefix() {
    let env = TestEnv::new();
    for sample in TOOL_SAMPLES {
        std::fs::copy(tool_sample(sample), env.ws.join(sample)).unwrap();
        let output = prefix_with_tools(&env, &[sample]);
        assert!(output.status.success(), "{sample}: {}", stderr(&output));
        assert_eq!(stderr(&output), "", "{sample}");
        snapbox::assert_data_eq!(
            stdout(&output),
            snapbox::file!["snapshots/eco/tools-prefix.txt": Text].raw()
        );
    }
}

#[test]
fn tools_from_stdin() {
    let env = TestEnv::new();
    let output = env
        .cmd()
        .args(["build", "--part", "prefix", "--tools", "-"])
        .write_stdin(std::fs::read(tool_sample("mcp-jsonrpc.json")).unwrap())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    snapbox::assert_data_eq!(
        stdout(&output),
        snapbox::file!["snapshots/eco/tools-prefix.txt": Text].raw()
    );
}

#[test]
fn a_later_duplicate_tool_is_dropped_with_a_warning_naming_its_file() {
    let env = TestEnv::new();
    std::fs::copy(tool_sample("anthropic.json"), env.ws.join("anthropic.json")).unwrap();
    env.write(
        "extra.json",
        r#"[{"name": "Grep", "description": "Another grep."},
            {"name": "Glob", "description": "Find files by glob pattern."}]"#,
    );
    let output = prefix_with_tools(&env, &["anthropic.json", "extra.json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: warning: extra.json: tool \"Grep\" is already defined by an earlier \
         catalog; dropped\n"
    );
    let text = stdout(&output);
    let inventory = &text[text.find("Available tools:").unwrap()..];
    assert_eq!(
        inventory,
        "Available tools:\n\
         - Read: Read a file from the workspace.\n\
         - Grep: Search file contents with a regular expression.\n\
         - Bash: Run a shell command in the workspace.\n\
         - Recall: Load a saved memory entry by its key.\n\
         - Glob: Find files by glob pattern.\n"
    );
}

/// The shapes every catalog error names.
const EXPECTED_SHAPES: &str = "expected a JSON array of tools (plain {name, description}, \
     Anthropic with input_schema, OpenAI {\"type\": \"function\"} in Chat or Responses form), \
     an MCP tools/list result {\"tools\": [...]}, or its JSON-RPC envelope";

fn assert_fails_with(output: &std::process::Output, line: &str) {
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(stderr(output), format!("{line}\n"));
}

#[test]
fn a_catalog_of_another_shape_exits_2_naming_the_file_and_the_shapes() {
    let env = TestEnv::new();
    env.write("counted.json", r#"{"tools": 3}"#);
    assert_fails_with(
        &prefix_with_tools(&env, &["counted.json"]),
        &format!(
            "mecatl-prompt: error: --tools counted.json: found a number at .tools; {EXPECTED_SHAPES}"
        ),
    );
    env.write("prose.json", "Read, Grep");
    assert_fails_with(
        &prefix_with_tools(&env, &["prose.json"]),
        &format!(
            "mecatl-prompt: error: --tools prose.json: not valid JSON (expected value at line 1 \
             column 1); {EXPECTED_SHAPES}"
        ),
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "error text is Linux's: Windows says \"File not found.\""
)]
fn a_missing_or_unreadable_catalog_exits_2() {
    let env = TestEnv::new();
    assert_fails_with(
        &prefix_with_tools(&env, &["missing.json"]),
        "mecatl-prompt: error: --tools missing.json: No such file or directory (os error 2)",
    );
    std::fs::create_dir(env.ws.join("dir.json")).unwrap();
    assert_fails_with(
        &prefix_with_tools(&env, &["dir.json"]),
        "mecatl-prompt: error: --tools dir.json: not a regular file",
    );
}

#[test]
fn a_tool_name_with_a_control_character_exits_2() {
    let env = TestEnv::new();
    env.write("bell.json", r#"[{"name": "Re\u0007ad"}]"#);
    assert_fails_with(
        &prefix_with_tools(&env, &["bell.json"]),
        "mecatl-prompt: error: --tools bell.json: the tool name at .[0] contains a control \
         character (U+0007)",
    );
}
