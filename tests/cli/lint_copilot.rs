//! GitHub Copilot CLI's lint codes on the binary (SPEC §17.8): one test
//! per code, each on a workspace holding just what it is about.

use crate::hardening::run;
use crate::profile_support::git_env;
use crate::support::TestEnv;

/// The `(code, path, line)` of every finding `lint --agents copilot`
/// reports on `env`.
fn findings(env: &TestEnv) -> Vec<(String, String, Option<u64>)> {
    let args = [
        "--trust-project",
        "--format",
        "json",
        "lint",
        "--agents",
        "copilot",
    ];
    let doc = run(env, &args).json();
    doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
                f["line"].as_u64(),
            )
        })
        .collect()
}

fn finding(code: &str, path: &str, line: Option<u64>) -> (String, String, Option<u64>) {
    (code.to_string(), path.to_string(), line)
}

#[test]
fn mp030_a_file_under_github_instructions_not_named_instructions_md() {
    let env = git_env();
    env.write(".github/instructions/notes.md", "never loaded\n");
    env.write(".github/instructions/ok.instructions.md", "loaded\n");
    assert_eq!(
        findings(&env),
        [finding("MP030", ".github/instructions/notes.md", None)]
    );
}

#[test]
fn mp031_different_agents_claude_and_gemini_files_of_one_directory() {
    let env = git_env();
    env.write("AGENTS.md", "ONE\n");
    env.write("CLAUDE.md", "ONE\n");
    env.write("sub/AGENTS.md", "ONE\n");
    env.write("sub/GEMINI.md", "TWO\n");
    assert_eq!(findings(&env), [finding("MP031", "sub/AGENTS.md", None)]);
}

#[test]
fn mp032_an_import_past_the_eighth_level_is_reported_on_its_holder() {
    let env = git_env();
    env.write("AGENTS.md", "@d/1.md\n");
    for level in 1..=9 {
        env.write(&format!("d/{level}.md"), format!("@{}.md\n", level + 1));
    }
    env.write("d/10.md", "END\n");
    assert_eq!(findings(&env), [finding("MP032", "d/8.md", None)]);
}

#[test]
fn mp033_a_skill_without_frontmatter() {
    let env = git_env();
    env.write(".github/skills/bare/SKILL.md", "no block\n");
    env.write(
        ".agents/skills/ok/SKILL.md",
        "---\nname: ok\ndescription: d\n---\n",
    );
    assert_eq!(
        findings(&env),
        [finding("MP033", ".github/skills/bare/SKILL.md", Some(1))]
    );
}

#[test]
fn mp034_exclude_agent_drops_the_file_or_is_misspelt() {
    let env = git_env();
    let file = |value: &str| format!("---\napplyTo: \"**\"\nexcludeAgent: {value}\n---\nX\n");
    env.write(
        ".github/instructions/a.instructions.md",
        file("coding-agent"),
    );
    env.write(
        ".github/instructions/b.instructions.md",
        file("code-review"),
    );
    env.write(
        ".github/instructions/c.instructions.md",
        file("codingagent"),
    );
    assert_eq!(
        findings(&env),
        [
            finding("MP034", ".github/instructions/a.instructions.md", Some(3)),
            finding("MP034", ".github/instructions/c.instructions.md", Some(3)),
        ]
    );
}

#[test]
fn mp035_import_forms_copilot_leaves_as_text() {
    let env = git_env();
    env.write(
        "CLAUDE.md",
        "@/etc/hosts\n`@/in/code`\n@~/notes.md\n@../outside.md\n@docs/in.md\n",
    );
    env.write("docs/in.md", "IN\n");
    assert_eq!(
        findings(&env),
        [
            finding("MP035", "CLAUDE.md", Some(1)),
            finding("MP035", "CLAUDE.md", Some(3)),
            finding("MP035", "CLAUDE.md", Some(4)),
        ]
    );
}

#[test]
fn mp036_a_path_set_neither_at_the_root_nor_at_the_start_directory() {
    let env = git_env();
    env.write("pkg/.github/instructions/a.instructions.md", "A\n");
    env.write(".claude/rules/r.md", "R\n");
    assert_eq!(
        findings(&env),
        [finding("MP036", "pkg/.github/instructions", None)]
    );
    let args = [
        "--trust-project",
        "--at",
        "pkg",
        "--format",
        "json",
        "lint",
        "--agents",
        "copilot",
    ];
    let doc = run(&env, &args).json();
    assert_eq!(doc["findings"], serde_json::json!([]));
}
