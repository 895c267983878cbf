//! `explain`: every candidate of a command or rule and its fate (SPEC §2.8).

use snapbox::{assert_data_eq, file};

use crate::golden::assert_json_shape;
use crate::support::{TestEnv, stderr, stdout};

/// A home that does not exist, so the user rule rows of a golden have the
/// same paths and widths on every machine.
const NO_HOME: &str = "/nonexistent/home";

/// The binary with [`NO_HOME`] as the home and config home.
fn homeless(env: &TestEnv) -> assert_cmd::Command {
    let mut cmd = env.cmd();
    cmd.env("HOME", NO_HOME).env_remove("XDG_CONFIG_HOME");
    cmd
}

fn json(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_shadowed_command_names_its_winner() {
    let env = TestEnv::demo();
    let output = env
        .cmd()
        .args(["--trust-project", "explain", "/review"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_data_eq!(
        stdout(&output),
        file!["snapshots/insight/explain-command.txt"]
    );
}

#[test]
fn a_shadowed_command_in_json() {
    let env = TestEnv::demo();
    let output = env
        .cmd()
        .args(["--trust-project", "--format", "json", "explain", "/review"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_json_shape(
        &stdout(&output),
        &[
            "schema",
            "agent",
            "name",
            "found",
            "command",
            "rule",
            "diagnostics",
            "trust",
        ],
    );
    assert_data_eq!(
        stdout(&output),
        file!["snapshots/insight/explain-command.json"]
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_withheld_project_rule_shows_what_trust_would_inject() {
    let env = TestEnv::demo();
    let output = homeless(&env)
        .args(["explain", "--rule", "money"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_data_eq!(
        stdout(&output),
        file!["snapshots/insight/explain-withheld-rule.txt"]
    );
    assert!(stderr(&output).contains("--trust-project"));
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_malformed_rule_loses_to_the_next_location() {
    let env = TestEnv::demo();
    env.write(
        ".mecatl/rules/web-client.md",
        "---\npaths: [web/**\n---\nA broken rule.\n",
    );
    let output = homeless(&env)
        .args(["--trust-project", "explain", "web-client"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_data_eq!(
        stdout(&output),
        file!["snapshots/insight/explain-malformed-rule.txt"]
    );
    assert!(
        stderr(&output).starts_with("mecatl-prompt: error: .mecatl/rules/web-client.md: "),
        "{}",
        stderr(&output)
    );
}

#[test]
#[cfg_attr(windows, ignore = "expects a user path joined with /")]
fn a_user_rule_wins_over_a_withheld_project_rule() {
    let env = TestEnv::demo();
    env.write_config("mecatl/rules/money.md", "User money rule.");
    let output = env
        .cmd()
        .args(["--format", "json", "explain", "money"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let doc = json(&output);
    assert!(doc["command"].is_null(), "a bare name held only by a rule");
    let rule = &doc["rule"];
    let fates: Vec<&str> = rule["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["fate"].as_str().unwrap())
        .collect();
    assert_eq!(fates, ["withheld", "not found", "winner", "not found"]);
    assert_eq!(
        rule["why"].as_str().unwrap(),
        format!(
            "{}/mecatl/rules/money.md wins because the higher-precedence \
             .mecatl/rules/money.md (withheld) could not be used.",
            env.config.display()
        )
    );
    assert_eq!(rule["injected"], true);
    assert_eq!(
        rule["block"],
        "<rule name=\"money\">\nApplies when: (always)\nUser money rule.\n</rule>"
    );
}

#[test]
fn nothing_matched_shows_both_searches_and_exits_1() {
    let env = TestEnv::demo();
    let output = env
        .cmd()
        .args(["--trust-project", "explain", "deploy"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.starts_with("command /deploy\n"), "{text}");
    assert!(text.contains("\n\nrule deploy\n"), "{text}");
    assert!(text.contains("why: No location holds /deploy."), "{text}");
    assert!(
        text.contains("why: No location holds rule deploy."),
        "{text}"
    );
    let slash = env
        .cmd()
        .args(["--format", "json", "explain", "/deploy"])
        .output()
        .unwrap();
    assert_eq!(slash.status.code(), Some(1));
    let doc = json(&slash);
    assert_eq!(doc["found"], false);
    assert!(doc["rule"].is_null(), "/NAME searches commands only");
}

#[test]
fn operator_directories_are_not_gated() {
    let env = TestEnv::demo();
    env.write(
        "ops/deploy.md",
        "---\ndescription: Ship it\nmodel: x\n---\nDeploy $1.",
    );
    let output = env
        .cmd()
        .args([
            "--format",
            "json",
            "explain",
            "--commands-dir",
            "ops",
            "/deploy",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let command = &json(&output)["command"];
    let candidate = &command["candidates"][0];
    assert_eq!(candidate["tier"], "operator");
    assert_eq!(candidate["trust"], "not gated");
    assert_eq!(candidate["fate"], "winner");
    assert_eq!(command["description"], "Ship it");
    assert_eq!(
        command["frontmatter_keys"],
        serde_json::json!(["description", "model"])
    );
}

#[test]
fn a_rule_name_with_a_slash_is_a_usage_error() {
    let env = TestEnv::demo();
    let output = env
        .cmd()
        .args(["explain", "--rule", "/money"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: --rule /money: a rule name has no leading /\n"
    );
}
