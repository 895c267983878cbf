//! The GitHub Copilot CLI profile on the binary (SPEC §17.8): its region
//! as one system message in JSON with the parts' `imports` and the table's
//! `rows`, its states in `compare`, trust, its skills and their expansion,
//! and the default columns of `compare` and `lint`, which
//! gain `copilot` only where its own files are.

use crate::hardening::{Outcome, run};
use crate::profile_support::{
    agent_run, git_env, joins_the_default_agents_only_where_its_files_are,
};
use crate::support::TestEnv;

/// A git workspace with Copilot's own file, two identical shared files,
/// an import and a conditional path-specific file.
fn copilot_env() -> TestEnv {
    let env = git_env();
    // Relative to `.github/`, as Copilot reads it.
    env.write(".github/copilot-instructions.md", "COPILOT @../docs/a.md\n");
    env.write("docs/a.md", "A\n");
    env.write("AGENTS.md", "SAME\n");
    env.write("CLAUDE.md", "SAME\n");
    env.write(
        ".github/instructions/rs.instructions.md",
        "---\napplyTo: \"src/**/*.rs\"\ndescription: rust\n---\nRS\n",
    );
    env
}

fn copilot(env: &TestEnv, trust: bool, args: &[&str]) -> Outcome {
    agent_run(env, "copilot", trust, args)
}

#[test]
fn assemble_sends_one_system_region_with_imports_and_rows() {
    let env = copilot_env();
    let doc = copilot(&env, true, &["assemble"]).assert_code(0).json();
    let messages = doc["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "system");
    let parts = messages[0]["parts"].as_array().unwrap();
    let kinds: Vec<&str> = parts.iter().map(|p| p["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["instructions", "instructions", "applyto-table"]);
    assert_eq!(
        parts[0]["imports"],
        serde_json::json!([{"path": "docs/a.md", "depth": 1, "status": "inlined"}])
    );
    assert!(parts[1].get("imports").is_none());
    assert_eq!(parts[2]["rows"][0]["pattern"], "src/**/*.rs");
    let reasons: Vec<(&str, &str)> = doc["not_loaded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["path"].as_str().unwrap(), n["reason"].as_str().unwrap()))
        .collect();
    assert!(reasons.contains(&("CLAUDE.md", "duplicate of AGENTS.md")));
    let text = messages[0]["text"].as_str().unwrap();
    assert!(text.starts_with("\n<custom_instruction>\nCOPILOT @../docs/a.md\n\n"));
    assert!(
        text.ends_with("| src/**/*.rs | '.github/instructions/rs.instructions.md' | rust |\n\n")
    );
}

#[test]
fn untrusted_withholds_every_project_file() {
    let env = copilot_env();
    let doc = copilot(&env, false, &["assemble"]).json();
    assert_eq!(doc["messages"], serde_json::json!([]));
    assert!(
        doc["not_loaded"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["reason"] == "withheld: untrusted")
    );
}

#[test]
fn compare_shows_copilots_rows_duplicates_and_touches() {
    let env = copilot_env();
    env.write("src/deep/a.rs", "fn main() {}\n");
    let out = run(
        &env,
        &["--trust-project", "compare", "--agents", "claude,copilot"],
    );
    out.assert_code(0);
    let table = &out.stdout;
    let line = |file: &str| {
        table
            .lines()
            .find(|line| line.starts_with(&format!("{file} ")))
            .unwrap_or_else(|| panic!("{file}: {table}"))
            .to_string()
    };
    assert!(line("CLAUDE.md").ends_with("duplicate"), "{table}");
    assert!(
        line(".github/instructions/rs.instructions.md").ends_with("row"),
        "{table}"
    );
    let touched = run(
        &env,
        &[
            "--trust-project",
            "compare",
            "--agents",
            "copilot",
            "--touch",
            "src/deep/a.rs",
        ],
    );
    touched.assert_code(0);
    assert!(
        touched.stdout.lines().any(
            |l| l.starts_with(".github/instructions/rs.instructions.md ") && l.ends_with("touch")
        ),
        "{}",
        touched.stdout
    );
}

#[test]
fn skills_are_listed_and_expand_shows_the_interactive_message() {
    let env = copilot_env();
    env.write(
        ".github/skills/deploy/SKILL.md",
        "---\ndescription: Ship it\n---\nDeploy.\n",
    );
    let list = copilot(&env, true, &["commands", "list"]);
    let doc = list.assert_code(0).json();
    assert_eq!(doc["commands"][0]["name"], "deploy");
    assert_eq!(doc["commands"][0]["kind"], "skill");
    let expanded = copilot(&env, true, &["expand", "/deploy prod"]);
    let doc = expanded.assert_code(0).json();
    let output = doc["output"].as_str().unwrap();
    assert!(
        output.starts_with("The user explicitly invoked the \"/deploy\" skill."),
        "{output}"
    );
    assert!(
        output.ends_with("Deploy.\n\n\nARGUMENTS: prod\n</skill-context>"),
        "{output}"
    );
    let said = doc["diagnostics"][0]["reason"].as_str().unwrap();
    assert!(said.contains("copilot -p"), "{said}");
}

#[test]
fn copilot_joins_the_default_agents_only_where_its_own_files_are() {
    joins_the_default_agents_only_where_its_files_are(
        "copilot",
        &[("AGENTS.md", "A\n"), ("CLAUDE.md", "C\n")],
        ("sub/.github/instructions/x.instructions.md", "X\n"),
        (".github/copilot-instructions.md", "C\n"),
    );
}

#[test]
fn custom_agents_are_listed_skipped_with_a_warning_or_withheld() {
    let env = git_env();
    env.write(
        ".github/agents/review.agent.md",
        "---\ndescription: Reviews\n---\nBody\n",
    );
    env.write(".github/agents/bare.agent.md", "no frontmatter\n");
    let out = copilot(&env, true, &["assemble"]);
    let doc = out.assert_code(0).json();
    let agents = doc["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["provenance"] == "agents")
        .expect("the agents listing");
    assert_eq!(agents["text"], "- **review**: Reviews");
    let fates: Vec<(&str, &str)> = doc["subagents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["path"].as_str().unwrap(), s["fate"].as_str().unwrap()))
        .collect();
    assert_eq!(
        fates,
        [
            (".github/agents/bare.agent.md", "skipped"),
            (".github/agents/review.agent.md", "listed")
        ]
    );
    assert!(
        out.problems()
            .iter()
            .any(|p| p.contains("custom agent skipped: no frontmatter"))
    );
    let doc = copilot(&env, false, &["assemble"]).json();
    let fates: Vec<&str> = doc["subagents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["fate"].as_str().unwrap())
        .collect();
    assert_eq!(fates, ["withheld", "withheld"]);
    assert!(doc["messages"].as_array().unwrap().is_empty());
}
