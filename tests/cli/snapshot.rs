//! `snapshot` and `check` (SPEC §2.9).

use snapbox::{assert_data_eq, file};

use crate::support::{TestEnv, copy_tree, demo_dir, stderr, stdout};

const CONTENT: [&str; 4] = ["--tools", "tools.json", "--memory-dir", ".mecatl/memory"];

fn snapshot(env: &TestEnv, extra: &[&str]) -> std::process::Output {
    env.cmd()
        .args(["--trust-project", "snapshot"])
        .args(CONTENT)
        .args(extra)
        .output()
        .unwrap()
}

fn check(env: &TestEnv, manifest: &str, extra: &[&str]) -> std::process::Output {
    env.cmd()
        .args(["--trust-project", "check", "--against", manifest])
        .args(CONTENT)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn the_demo_manifest() {
    let env = TestEnv::demo();
    let output = snapshot(&env, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_data_eq!(
        stdout(&output),
        file!["snapshots/insight/snapshot-demo.json"]
    );
}

#[test]
fn the_manifest_ignores_the_env_and_the_checkout_location() {
    let first = TestEnv::demo();
    let second = TestEnv::new();
    copy_tree(&demo_dir(), &second.ws.join("elsewhere/deeper"));
    let base = stdout(&snapshot(
        &first,
        &["--date", "2025-01-01", "--cwd", "/a", "--model", "m1"],
    ));
    let other_env = snapshot(
        &first,
        &[
            "--date",
            "2031-12-31",
            "--cwd",
            "/b",
            "--model",
            "m2",
            "--mode",
            "plan",
        ],
    );
    assert_eq!(stdout(&other_env), base);
    let moved = second
        .cmd()
        .args(["-C", "elsewhere/deeper", "--trust-project", "snapshot"])
        .args(CONTENT)
        .output()
        .unwrap();
    assert!(moved.status.success(), "{}", stderr(&moved));
    assert_eq!(stdout(&moved), base);
}

#[test]
fn the_prefix_hash_is_the_one_build_reports() {
    let env = TestEnv::demo();
    let manifest: serde_json::Value = serde_json::from_slice(&snapshot(&env, &[]).stdout).unwrap();
    let built = env
        .cmd()
        .args([
            "--trust-project",
            "--format",
            "json",
            "build",
            "--tools",
            "tools.json",
        ])
        .args(["--no-git-status", "--date", "2025-01-01"])
        .output()
        .unwrap();
    let built: serde_json::Value = serde_json::from_slice(&built.stdout).unwrap();
    assert_eq!(manifest["prefix"]["sha256"], built["prefix_sha256"]);
    assert_eq!(manifest["prefix"]["bytes"], built["prefix_bytes"]);
}

#[test]
fn user_files_are_named_relative_to_home() {
    let env = TestEnv::demo();
    crate::support::write_file(&env.home.join(".claude/rules/style.md"), "Be consistent.");
    let manifest: serde_json::Value = serde_json::from_slice(&snapshot(&env, &[]).stdout).unwrap();
    let style = manifest["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "style")
        .unwrap()
        .clone();
    assert_eq!(style["origin"], "user");
    assert_eq!(style["source"], "~/.claude/rules/style.md");
}

#[test]
fn memory_is_left_out_unless_its_directory_is_named() {
    let env = TestEnv::demo();
    let output = env
        .cmd()
        .env("MECATL_MEMORY_DIR", env.ws.join(".mecatl/memory"))
        .args(["--trust-project", "snapshot"])
        .output()
        .unwrap();
    let manifest: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let provenances: Vec<&str> = manifest["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["provenance"].as_str().unwrap())
        .collect();
    assert_eq!(provenances, ["project", "rules", "soul"]);
}

#[test]
fn check_passes_then_fails_after_a_rule_is_edited() {
    let env = TestEnv::demo();
    let saved = env.write("manifest.json", snapshot(&env, &[]).stdout);
    let manifest = saved.display().to_string();
    let pass = check(&env, &manifest, &["--date", "2030-06-01"]);
    assert_eq!(pass.status.code(), Some(0), "{}", stderr(&pass));
    assert_eq!(stdout(&pass), format!("the context matches {manifest}\n"));

    env.write(
        ".mecatl/rules/money.md",
        "Amounts are integers in minor units (cents), always.\n",
    );
    let fail = check(&env, "manifest.json", &[]);
    assert_eq!(fail.status.code(), Some(1));
    assert_eq!(
        stdout(&fail),
        "the context differs from manifest.json:\n  rule money changed: body, 277 → 103 bytes\n"
    );
}

#[test]
fn check_reports_prefix_instructions_and_commands_in_json() {
    let env = TestEnv::demo();
    env.write("manifest.json", snapshot(&env, &[]).stdout);
    env.write("AGENTS.md", "Short now.");
    std::fs::remove_file(env.ws.join(".mecatl/commands/review.md")).unwrap();
    let output = check(
        &env,
        "manifest.json",
        &["--format", "json", "--role", "You review code."],
    );
    assert_eq!(output.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(doc["matches"], false);
    let lines: Vec<String> = doc["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {} {} {}",
                d["section"].as_str().unwrap(),
                d["name"].as_str().unwrap_or("-"),
                d["change"].as_str().unwrap(),
                d["detail"].as_str().unwrap_or("-")
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "prefix - changed 2462 → 2109 bytes",
            "instructions - changed 1757 → 45 bytes",
            "command review changed source .mecatl/commands/review.md → .claude/commands/review.md",
        ]
    );
}

#[test]
fn a_malformed_manifest_is_exit_2() {
    let env = TestEnv::demo();
    for (content, reason) in [
        ("not json", "not JSON"),
        (
            "{\"schema\": \"mecatl-prompt/v1\"}",
            "schema is \"mecatl-prompt/v1\"",
        ),
        (
            "{\"schema\": \"mecatl-prompt/snapshot-v1\", \"prefix\": {}}",
            "malformed manifest",
        ),
    ] {
        env.write("bad.json", content);
        let output = check(&env, "bad.json", &[]);
        assert_eq!(output.status.code(), Some(2), "{content}");
        let err = stderr(&output);
        assert!(
            err.starts_with(&format!(
                "mecatl-prompt: error: --against bad.json: {reason}"
            )),
            "{err}"
        );
        assert!(output.stdout.is_empty());
    }
}
