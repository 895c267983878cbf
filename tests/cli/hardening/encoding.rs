//! Encodings in every file kind: invalid UTF-8, a BOM, CRLF and lone CR,
//! NUL bytes, empty and whitespace-only files (SPEC §9).

use serde_json::{Value, json};

use super::{BUILD, Outcome, run, trusted_json};
use crate::support::TestEnv;

const RULES_HEADER_END: &str = "Decide for yourself which rules apply.\n";

/// The rules message minus its fixed header sentence.
fn rule_blocks(out: &Outcome) -> String {
    let text = out.message("rules");
    let (_, blocks) = text
        .split_once(RULES_HEADER_END)
        .unwrap_or_else(|| panic!("rules header in {text}"));
    blocks.to_string()
}

/// The soul message minus its fixed header sentence.
fn soul_block(out: &Outcome) -> String {
    let text = out.message("soul");
    let at = text
        .find("<soul>")
        .unwrap_or_else(|| panic!("soul fence in {text}"));
    text[at..].to_string()
}

/// The JSONL lines of the memory index.
fn memory_lines(out: &Outcome) -> Vec<String> {
    let text = out.message("memory");
    text.lines()
        .skip_while(|l| !l.starts_with("<memory-index"))
        .map(str::to_string)
        .collect()
}

fn assemble(env: &TestEnv) -> Outcome {
    trusted_json(
        env,
        &["assemble", "--memory-dir", "../mem", "--no-user-model"],
    )
}

fn expand(env: &TestEnv, input: &[&str]) -> Outcome {
    let mut args = vec!["--trust-project", "expand"];
    args.extend_from_slice(input);
    run(env, &args)
}

fn tools(env: &TestEnv, file: &str) -> Outcome {
    let mut args = BUILD.to_vec();
    args.extend(["--tools", file]);
    run(env, &args)
}

fn settings_trusting(env: &TestEnv, before: &[u8], after: &[u8]) {
    let mut yaml = before.to_vec();
    yaml.extend_from_slice(format!("trustedWorkspaces:\n  - {}\n", env.ws.display()).as_bytes());
    yaml.extend_from_slice(after);
    env.write_config("mecatl/settings.yaml", yaml);
}

/// `rules list --format json` without a trust flag: the trust object and
/// the problems.
fn trust_of(env: &TestEnv) -> (Value, Vec<String>) {
    let out = run(env, &["--format", "json", "rules", "list"]);
    out.assert_code(0);
    (out.json()["trust"].clone(), out.problems())
}

const TOOLS_SHAPES: &str = "expected a JSON array of tools (plain {name, description}, \
Anthropic with input_schema, OpenAI {\"type\": \"function\"} in Chat or Responses form), \
an MCP tools/list result {\"tools\": [...]}, or its JSON-RPC envelope";

// ---------------------------------------------------------------------------
// Invalid UTF-8, one kind at a time

#[test]
fn invalid_utf8_in_agents_md_is_decoded_lossily_with_a_warning() {
    let env = TestEnv::new();
    env.write("AGENTS.md", b"Use \xff tabs.\n");
    let out = assemble(&env);
    out.assert_code(0);
    assert_eq!(
        out.messages(),
        [(
            "project".to_string(),
            "Project instructions (AGENTS.md):\n\nUse \u{fffd} tabs.".to_string()
        )]
    );
    assert_eq!(
        out.problems(),
        ["warning AGENTS.md: not valid UTF-8; invalid bytes are replaced with U+FFFD"]
    );
    assert_eq!(
        out.stderr_lines(),
        [
            "mecatl-prompt: warning: AGENTS.md: not valid UTF-8; invalid bytes are replaced with U+FFFD"
        ]
    );
}

#[test]
fn invalid_utf8_in_a_rule_is_decoded_lossily_in_paths_and_body_with_a_warning() {
    let env = TestEnv::new();
    env.write(
        ".claude/rules/r.md",
        b"---\npaths: \"src/\xff.rs\"\n---\nBody \xfe.\n",
    );
    let out = trusted_json(&env, &["rules", "list"]);
    out.assert_code(0);
    let rule = &out.json()["rules"][0];
    assert_eq!(rule["paths"], json!(["src/\u{fffd}.rs"]));
    assert_eq!(rule["bytes"], 9);
    assert_eq!(
        out.problems(),
        ["warning .claude/rules/r.md: not valid UTF-8; invalid bytes are replaced with U+FFFD"]
    );
    let out = assemble(&env);
    assert_eq!(
        rule_blocks(&out),
        "<rule name=\"r\">\nApplies when: src/\u{fffd}.rs\nBody \u{fffd}.\n</rule>"
    );
}

#[test]
fn invalid_utf8_in_a_command_is_decoded_lossily_with_a_warning() {
    let env = TestEnv::new();
    env.write(
        ".claude/commands/c.md",
        b"---\ndescription: D\xff\n---\nRun \xfe $1\n",
    );
    let warning =
        "warning .claude/commands/c.md: not valid UTF-8; invalid bytes are replaced with U+FFFD";
    let out = trusted_json(&env, &["commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.json()["commands"][0]["description"], "D\u{fffd}");
    assert_eq!(out.problems(), [warning]);
    let out = expand(&env, &["/c", "x"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "Run \u{fffd} x\n\n");
    assert_eq!(
        out.stderr_lines(),
        [
            "mecatl-prompt: warning: .claude/commands/c.md: not valid UTF-8; invalid bytes are replaced with U+FFFD"
        ]
    );
}

/// `head` then ideographic spaces (U+3000, whitespace) until the file is
/// over the 1 MiB read bound.
fn wide_file(head: &[u8]) -> Vec<u8> {
    let mut content = head.to_vec();
    while content.len() <= 1 << 20 {
        content.extend_from_slice("\u{3000}".as_bytes());
    }
    content
}

#[test]
fn an_invalid_byte_does_not_turn_a_character_cut_by_a_bound_into_text() {
    let env = TestEnv::new();
    // The rule's 24 KiB head cuts a space in two; the body is the text.
    env.write(".claude/rules/wide.md", wide_file(b"Rule text \xff here"));
    let out = trusted_json(&env, &["rules", "list"]);
    out.assert_code(0);
    let rule = &out.json()["rules"][0];
    assert_eq!(
        (&rule["bytes"], &rule["truncated"]),
        (&json!(18), &json!(true))
    );
    let out = assemble(&env);
    assert_eq!(
        rule_blocks(&out),
        "<rule name=\"wide\">\nApplies when: (always)\nRule text \u{fffd} here\n</rule>"
    );
    // The command's 1 MiB bound cuts a space in two; it is dropped, not
    // replaced with U+FFFD.
    let head = b"Run \xff $ARGUMENTS.";
    env.write(".claude/commands/wide.md", wide_file(head));
    let out = expand(&env, &["/wide", "x"]);
    out.assert_code(0);
    let spaces = ((1 << 20) - head.len()) / 3;
    let expected = format!("Run \u{fffd} x.{}\n", "\u{3000}".repeat(spaces));
    assert!(
        out.stdout == expected,
        "expansion differs (len {}, ends {:?})",
        out.stdout.len(),
        out.stdout.chars().rev().take(2).collect::<String>()
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn invalid_utf8_in_the_soul_is_decoded_lossily_with_a_warning() {
    let env = TestEnv::new();
    env.write_config("mecatl/soul.md", b"Be \xff calm.\n");
    let out = assemble(&env);
    out.assert_code(0);
    assert_eq!(soul_block(&out), "<soul>\nBe \u{fffd} calm.\n</soul>");
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/config/mecatl/soul.md: not valid UTF-8; invalid bytes are replaced with U+FFFD"
        ]
    );
}

#[test]
fn invalid_utf8_in_memory_json_strings_is_decoded_lossily() {
    let env = TestEnv::new();
    env.write(
        "../mem/memory.json",
        b"{\"entries\": {\"k\xfe\": {\"value\": \"v\", \"description\": \"d\xff\"}}}",
    );
    let out = assemble(&env);
    out.assert_code(0);
    assert_eq!(
        memory_lines(&out),
        [
            "<memory-index encoding=\"jsonl\">",
            "{\"key\":\"k\u{fffd}\",\"description\":\"d\u{fffd}\"}",
            "</memory-index>"
        ]
    );
    assert_eq!(out.problems(), Vec::<String>::new());
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn invalid_utf8_outside_memory_json_strings_is_malformed() {
    let env = TestEnv::new();
    env.write("../mem/memory.json", b"{\"entries\": \xff}");
    let out = assemble(&env);
    out.assert_code(0);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/mem/memory.json: malformed: invalid JSON at line 1, column 13; no memory entries loaded"
        ]
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn invalid_utf8_in_settings_skips_only_that_entry() {
    let env = TestEnv::new();
    settings_trusting(&env, b"", b"  - \xff\n");
    let (trust, problems) = trust_of(&env);
    assert_eq!(trust, json!({"trusted": true, "source": "settings"}));
    assert_eq!(
        problems,
        [
            "warning [ROOT]/config/mecatl/settings.yaml: trustedWorkspaces entry \"\u{fffd}\" is not an absolute path; skipped"
        ]
    );
}

#[test]
fn invalid_utf8_in_a_tools_file_is_an_error() {
    let env = TestEnv::new();
    env.write(
        "t.json",
        b"[{\"name\": \"Re\xffad\", \"description\": \"d\"}]",
    );
    let out = tools(&env, "t.json");
    out.assert_code(2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!(
            "mecatl-prompt: error: --tools t.json: not valid JSON (invalid unicode code point at line 1 column 14); {TOOLS_SHAPES}\n"
        )
    );
}

// ---------------------------------------------------------------------------
// One encoding, every kind

/// Writes each kind with `bom` in front and `eol` between lines: AGENTS.md,
/// a rule and a command with frontmatter, a user soul, memory.json,
/// settings.yaml trusting the workspace, and a tools file.
fn write_every_kind(env: &TestEnv, bom: &str, eol: &str) {
    let lines = |parts: &[&str]| format!("{bom}{}{eol}", parts.join(eol));
    env.write("AGENTS.md", lines(&["# Title", "line two"]));
    env.write(
        ".claude/rules/r.md",
        lines(&["---", "paths: \"**/*.rs\"", "---", "rule body", "more"]),
    );
    env.write(
        ".claude/commands/c.md",
        lines(&["---", "description: the desc", "---", "do $1", "now"]),
    );
    env.write_config("mecatl/soul.md", lines(&["Be calm.", "Be kind."]));
    env.write(
        "../mem/memory.json",
        lines(&["{\"entries\": {", "\"k\": {\"value\": \"v\"}", "}}"]),
    );
    env.write_config(
        "mecatl/settings.yaml",
        lines(&["trustedWorkspaces:", &format!("  - {}", env.ws.display())]),
    );
    env.write(
        "t.json",
        lines(&["[{\"name\": \"Read\",", "\"description\": \"Reads.\"}]"]),
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_bom_is_stripped_from_rules_and_settings_only() {
    let env = TestEnv::new();
    write_every_kind(&env, "\u{feff}", "\n");
    let out = assemble(&env);
    out.assert_code(0);
    // AGENTS.md and the soul keep it, as the engine's whitespace trim does.
    assert_eq!(
        out.message("project"),
        "Project instructions (AGENTS.md):\n\n\u{feff}# Title\nline two"
    );
    assert_eq!(
        rule_blocks(&out),
        "<rule name=\"r\">\nApplies when: **/*.rs\nrule body\nmore\n</rule>"
    );
    assert_eq!(
        soul_block(&out),
        "<soul>\n\u{feff}Be calm.\nBe kind.\n</soul>"
    );
    // memory.json with a BOM is not JSON, for the engine either.
    assert_eq!(
        out.problems(),
        ["warning [ROOT]/mem/memory.json: malformed: not a JSON object; no memory entries loaded"]
    );
    // A command's BOM hides its frontmatter (as the engine), with advice.
    let bom_warning = "mecatl-prompt: warning: .claude/commands/c.md: a byte order mark precedes the \
opening ---, so the frontmatter is not recognised and reaches the model as text; save the file \
without a BOM";
    let out = expand(&env, &["/c", "X"]);
    out.assert_code(0);
    assert_eq!(
        out.stdout,
        "\u{feff}---\ndescription: the desc\n---\ndo X\nnow\n\n"
    );
    assert_eq!(out.stderr_lines(), [bom_warning]);
    let out = trusted_json(&env, &["commands", "list"]);
    assert_eq!(out.json()["commands"][0]["description"], "---");
    let (trust, problems) = trust_of(&env);
    assert_eq!(trust, json!({"trusted": true, "source": "settings"}));
    assert_eq!(problems, Vec::<String>::new());
    let out = tools(&env, "t.json");
    out.assert_code(2);
    assert_eq!(
        out.stderr,
        format!(
            "mecatl-prompt: error: --tools t.json: not valid JSON (expected value at line 1 column 1); {TOOLS_SHAPES}\n"
        )
    );
}

#[test]
fn crlf_is_normalised_where_parsed_and_kept_in_content() {
    let env = TestEnv::new();
    write_every_kind(&env, "", "\r\n");
    let out = assemble(&env);
    out.assert_code(0);
    assert_eq!(
        out.message("project"),
        "Project instructions (AGENTS.md):\n\n# Title\r\nline two"
    );
    assert_eq!(
        rule_blocks(&out),
        "<rule name=\"r\">\nApplies when: **/*.rs\nrule body\nmore\n</rule>"
    );
    assert_eq!(soul_block(&out), "<soul>\nBe calm.\r\nBe kind.\n</soul>");
    assert_eq!(
        memory_lines(&out)[1],
        "{\"key\":\"k\",\"description\":\"v\"}"
    );
    assert_eq!(out.problems(), Vec::<String>::new());
    let out = expand(&env, &["/c", "X"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "do X\r\nnow\r\n\n");
    assert_eq!(out.stderr, "");
    let out = trusted_json(&env, &["commands", "list"]);
    assert_eq!(out.json()["commands"][0]["description"], "the desc");
    let (trust, problems) = trust_of(&env);
    assert_eq!(trust, json!({"trusted": true, "source": "settings"}));
    assert_eq!(problems, Vec::<String>::new());
    let out = tools(&env, "t.json");
    out.assert_code(0);
    assert!(out.stdout.contains("\n- Read: Reads.\n"), "{}", out.stdout);
}

#[test]
fn a_lone_cr_is_not_a_line_break_for_frontmatter() {
    let env = TestEnv::new();
    write_every_kind(&env, "", "\r");
    let out = assemble(&env);
    out.assert_code(0);
    assert_eq!(
        out.message("project"),
        "Project instructions (AGENTS.md):\n\n# Title\rline two"
    );
    // No `---\n` fence: the whole file is an unconditional rule's body.
    assert_eq!(
        rule_blocks(&out),
        "<rule name=\"r\">\nApplies when: (always)\n---\rpaths: \"**/*.rs\"\r---\rrule body\rmore\n</rule>"
    );
    assert_eq!(soul_block(&out), "<soul>\nBe calm.\rBe kind.\n</soul>");
    assert_eq!(
        memory_lines(&out)[1],
        "{\"key\":\"k\",\"description\":\"v\"}"
    );
    assert_eq!(out.problems(), Vec::<String>::new());
    let out = expand(&env, &["/c", "X"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "---\rdescription: the desc\r---\rdo X\rnow\r\n");
    let out = trusted_json(&env, &["commands", "list"]);
    assert_eq!(out.json()["commands"][0]["description"], "---");
    let (trust, problems) = trust_of(&env);
    assert_eq!(trust, json!({"trusted": true, "source": "settings"}));
    assert_eq!(problems, Vec::<String>::new());
    let out = tools(&env, "t.json");
    out.assert_code(0);
    assert!(out.stdout.contains("\n- Read: Reads.\n"), "{}", out.stdout);
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn nul_bytes_pass_through_content_and_break_only_json_and_yaml() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "a\0b\n");
    env.write(".claude/rules/r.md", "---\npaths: a\n---\nx\0y\n");
    env.write(".claude/commands/c.md", "\0first\0\nrun\0$1\n");
    env.write_config("mecatl/soul.md", "Be\0calm.\n");
    env.write(
        "../mem/memory.json",
        "{\"entries\": {\"k\": {\"value\": \"a\0b\"}}}",
    );
    let out = assemble(&env);
    out.assert_code(0);
    assert_eq!(
        out.message("project"),
        "Project instructions (AGENTS.md):\n\na\0b"
    );
    assert_eq!(
        rule_blocks(&out),
        "<rule name=\"r\">\nApplies when: a\nx\0y\n</rule>"
    );
    assert_eq!(soul_block(&out), "<soul>\nBe\0calm.\n</soul>");
    // A raw control character inside a JSON string is invalid JSON.
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/mem/memory.json: malformed: invalid JSON at line 1, column 31; no memory entries loaded"
        ]
    );
    let out = expand(&env, &["/c", "X"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "\0first\0\nrun\0X\n\n");
    // The description is one printable line: NULs become spaces, trimmed.
    let out = trusted_json(&env, &["commands", "list"]);
    assert_eq!(out.json()["commands"][0]["description"], "first");
    let out = run(&env, &["--trust-project", "commands", "list"]);
    assert_eq!(out.stdout, "/c  first\n");
    // An escaped NUL in memory.json is canonicalised away.
    env.write(
        "../mem/memory.json",
        "{\"entries\": {\"k\": {\"value\": \"a\\u0000b\"}}}",
    );
    assert_eq!(
        memory_lines(&assemble(&env))[1],
        "{\"key\":\"k\",\"description\":\"ab\"}"
    );
    settings_trusting(&env, b"", b"x: \"\0\"\n");
    let (trust, problems) = trust_of(&env);
    assert_eq!(trust, json!({"trusted": false, "source": "default"}));
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].starts_with(
            "warning [ROOT]/config/mecatl/settings.yaml: settings ignored: malformed YAML at line 3, column 5: "
        ),
        "{problems:?}"
    );
    env.write("t.json", "[{\"name\": \"A\", \"description\": \"x\0\"}]");
    let out = tools(&env, "t.json");
    out.assert_code(2);
    assert_eq!(
        out.stderr,
        format!(
            "mecatl-prompt: error: --tools t.json: not valid JSON (control character (\\u0000-\\u001F) found while parsing a string at line 1 column 33); {TOOLS_SHAPES}\n"
        )
    );
}

/// Empty and whitespace-only files of every kind.
fn blank_files(content: &str) {
    let env = TestEnv::new();
    env.write("AGENTS.md", content);
    env.write("CLAUDE.md", "Fallback.");
    env.write(".claude/rules/r.md", content);
    env.write(".claude/commands/c.md", content);
    env.write_config("mecatl/soul.md", content);
    env.write("../mem/memory.json", content);
    env.write_config("mecatl/settings.yaml", content);
    env.write("t.json", content);
    let out = assemble(&env);
    out.assert_code(0);
    // A blank AGENTS.md falls back to CLAUDE.md; a blank rule is still a
    // rule (an empty body); a blank soul is rejected; memory is not JSON.
    assert_eq!(
        out.message("project"),
        "Project instructions (CLAUDE.md):\n\nFallback."
    );
    assert_eq!(
        rule_blocks(&out),
        "<rule name=\"r\">\nApplies when: (always)\n\n</rule>"
    );
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/config/mecatl/soul.md: soul file rejected: blank (the project soul is not used in its place)",
            "warning [ROOT]/mem/memory.json: malformed: not a JSON object; no memory entries loaded",
        ]
    );
    let diagnostics = out.json()["diagnostics"].clone();
    assert!(
        diagnostics.as_array().is_some_and(|d| d.contains(
            &json!({"severity": "info", "path": "AGENTS.md", "reason": "blank; ignored"})
        )),
        "{diagnostics}"
    );
    let out = expand(&env, &["/c", "X"]);
    out.assert_code(0);
    assert_eq!(out.stdout, format!("{content}\n"));
    let out = run(&env, &["--trust-project", "commands", "list"]);
    assert_eq!(out.stdout, "/c\n");
    // A blank settings file trusts nothing and says nothing.
    let (trust, problems) = trust_of(&env);
    assert_eq!(trust, json!({"trusted": false, "source": "default"}));
    assert_eq!(problems.len(), 1, "only the withheld notice: {problems:?}");
    let out = tools(&env, "t.json");
    out.assert_code(2);
    assert!(
        out.stderr
            .starts_with("mecatl-prompt: error: --tools t.json: not valid JSON (EOF while parsing a value at line "),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr_lines().len(), 1);
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn empty_files_of_every_kind() {
    blank_files("");
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn whitespace_only_files_of_every_kind() {
    blank_files(" \n\t \r\n ");
}
