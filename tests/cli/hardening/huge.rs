//! 2 GiB sparse files in every role (SPEC §10, §11): each run completes
//! quickly because every read is bounded, and each kind reports its limit.

use super::{BUILD, run, sparse, trusted_json};
use crate::support::TestEnv;

const TWO_GIB: u64 = 2 << 30;

#[test]
fn a_2_gib_agents_md_is_cut_visibly() {
    let env = TestEnv::new();
    sparse(&env.ws.join("AGENTS.md"), b"# Big\n", TWO_GIB);
    let out = trusted_json(&env, &["assemble", "--no-memory", "--no-user-model"]);
    out.assert_code(0);
    let text = out.message("project");
    let kept = 65_536;
    let omitted = TWO_GIB - kept;
    let expected = format!(
        "Project instructions (AGENTS.md):\n\n# Big\n{}\n\n[truncated: {omitted} bytes omitted]",
        "\0".repeat(kept as usize - "# Big\n".len())
    );
    assert!(text == expected, "instructions differ (len {})", text.len());
    assert_eq!(
        out.problems(),
        [format!(
            "warning AGENTS.md: {TWO_GIB} bytes; cut at {kept} bytes, {omitted} bytes omitted (the model is told)"
        )]
    );
}

#[test]
fn a_2_gib_rule_is_capped_with_a_warning() {
    let env = TestEnv::new();
    sparse(
        &env.ws.join(".claude/rules/big.md"),
        b"---\npaths: \"**/*.rs\"\n---\nBig rule\n",
        TWO_GIB,
    );
    let warning = format!(
        "warning .claude/rules/big.md: file is {TWO_GIB} bytes; only the first 1048576 bytes are used and the body was cut to at most 20480 bytes"
    );
    let out = trusted_json(&env, &["rules", "list"]);
    out.assert_code(0);
    let rule = &out.json()["rules"][0];
    assert_eq!(rule["name"], "big");
    assert_eq!(rule["paths"][0], "**/*.rs");
    assert_eq!(rule["bytes"], 20_480);
    assert_eq!(rule["truncated"], true);
    assert_eq!(out.problems(), std::slice::from_ref(&warning));
    let out = trusted_json(&env, &["assemble", "--no-memory", "--no-user-model"]);
    out.assert_code(0);
    let body = format!("Big rule\n{}…", "\0".repeat(20_480 - 9 - 3));
    let block = format!("<rule name=\"big\">\nApplies when: **/*.rs\n{body}\n</rule>");
    let text = out.message("rules");
    assert!(
        text.ends_with(&block),
        "rule block differs (len {})",
        text.len()
    );
    assert_eq!(out.problems(), [warning]);
}

#[test]
fn a_2_gib_command_is_listed_and_expands_from_its_first_mib() {
    let env = TestEnv::new();
    let head = b"---\ndescription: Big one\n---\nRun $1\n";
    sparse(&env.ws.join(".claude/commands/big.md"), head, TWO_GIB);
    let warning = format!(
        "mecatl-prompt: warning: .claude/commands/big.md: file is {TWO_GIB} bytes; only the first 1048576 bytes are used"
    );
    let out = run(&env, &["--trust-project", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "/big  Big one\n");
    assert_eq!(out.stderr_lines(), [warning.as_str()]);
    let out = run(&env, &["--trust-project", "expand", "/big", "X"]);
    out.assert_code(0);
    // The first MiB less the frontmatter, `$1` substituted, plus one `\n`.
    let frontmatter = "---\ndescription: Big one\n---\n".len();
    let body_len = (1 << 20) - frontmatter;
    let expected = format!("Run X\n{}\n", "\0".repeat(body_len - "Run $1\n".len()));
    assert!(
        out.stdout == expected,
        "expansion differs (len {})",
        out.stdout.len()
    );
    assert_eq!(out.stderr_lines(), [warning.as_str()]);
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_2_gib_soul_is_rejected_as_oversized() {
    let env = TestEnv::new();
    sparse(&env.config.join("mecatl/soul.md"), b"Be calm.\n", TWO_GIB);
    env.write(".mecatl/soul.md", "Project soul.");
    let out = trusted_json(&env, &["assemble", "--no-memory", "--no-user-model"]);
    out.assert_code(0);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        [format!(
            "warning [ROOT]/config/mecatl/soul.md: soul file rejected: {TWO_GIB} bytes, over the 20480-byte limit for a soul (the project soul is not used in its place)"
        )]
    );
    // The project soul alone, that large, is rejected the same way.
    std::fs::remove_file(env.config.join("mecatl/soul.md")).unwrap();
    sparse(&env.ws.join(".mecatl/soul.md"), b"Be calm.\n", TWO_GIB);
    let out = trusted_json(&env, &["assemble", "--no-memory", "--no-user-model"]);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        [format!(
            "warning .mecatl/soul.md: soul file rejected: {TWO_GIB} bytes, over the 20480-byte limit for a soul"
        )]
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_2_gib_memory_json_gives_a_warning_and_no_memory_message() {
    let env = TestEnv::new();
    sparse(
        &env.ws.join("mem/memory.json"),
        b"{\"entries\": {}}",
        TWO_GIB,
    );
    let out = trusted_json(&env, &["assemble", "--memory-dir", "mem"]);
    out.assert_code(0);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        [format!(
            "warning [ROOT]/ws/mem/memory.json: {TWO_GIB} bytes, over the 8388608-byte limit; no memory entries loaded"
        )]
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn oversized_settings_are_ignored_with_a_warning() {
    let env = TestEnv::new();
    env.write(".claude/rules/r.md", "r");
    let path = env.config.join("mecatl/settings.yaml");
    // A trusting settings file padded with a comment to `len` bytes.
    let padded = |len: usize| {
        let mut yaml = format!("trustedWorkspaces:\n  - {}\n#", env.ws.display()).into_bytes();
        yaml.resize(len - 1, b'x');
        yaml.push(b'\n');
        env.write_config("mecatl/settings.yaml", yaml);
    };
    let trust = |env: &TestEnv| {
        let out = run(env, &["--format", "json", "rules", "list"]);
        out.assert_code(0);
        (out.json()["trust"]["source"].clone(), out.problems())
    };
    let warning =
        "warning [ROOT]/config/mecatl/settings.yaml: settings ignored: larger than 1048576 bytes";
    padded(1 << 20);
    assert_eq!(trust(&env), ("settings".into(), Vec::<String>::new()));
    padded((1 << 20) + 1);
    let (source, problems) = trust(&env);
    assert_eq!(source, "default");
    assert_eq!(problems[0], warning);
    sparse(&path, b"trustedWorkspaces: []\n", TWO_GIB);
    let (source, problems) = trust(&env);
    assert_eq!(source, "default");
    assert_eq!(problems[0], warning);
}

#[test]
fn an_oversized_tools_file_exits_2() {
    let env = TestEnv::new();
    sparse(&env.ws.join("tools.json"), b"[", TWO_GIB);
    let mut args = BUILD.to_vec();
    args.extend(["--tools", "tools.json"]);
    let out = run(&env, &args);
    out.assert_code(2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "mecatl-prompt: error: --tools tools.json: larger than 16777216 bytes\n"
    );
}

#[test]
fn leading_whitespace_past_the_read_bound_reads_as_blank_with_a_warning() {
    let env = TestEnv::new();
    sparse(&env.ws.join("CLAUDE.md"), b"Fallback.", 9);
    let mut agents = vec![b' '; 300_000];
    agents.extend_from_slice(b"Hidden.");
    env.write("AGENTS.md", agents);
    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    assert_eq!(
        out.message("project"),
        "Project instructions (CLAUDE.md):\n\nFallback."
    );
    assert_eq!(
        out.problems(),
        ["warning AGENTS.md: the first 262144 bytes are all whitespace; treated as blank"]
    );
}
