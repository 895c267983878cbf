//! Commands and skills under the agent profiles on the binary (SPEC §14.5,
//! §14.6, §2.2, §2.6): `commands list`, `expand`, `explain`, completion and
//! `snapshot`/`check` all read the profile's own directories, with goldens
//! of the demo under `--agent claude`.

use crate::golden::assert_golden;
use crate::hardening::{Outcome, run};
use crate::support::{TestEnv, stdout};

/// `--trust-project --agent AGENT` then `args`.
fn agent(env: &TestEnv, agent: &str, args: &[&str]) -> Outcome {
    let mut all = vec!["--trust-project", "--agent", agent];
    all.extend_from_slice(args);
    run(env, &all)
}

/// The demo with a user command that shadows nothing and one that a
/// project skill shadows, and a skill the model may not invoke.
fn demo() -> TestEnv {
    let env = TestEnv::demo();
    crate::support::write_file(
        &env.home.join(".claude/commands/standup.md"),
        "---\ndescription: Summarise yesterday's commits for the stand-up\n---\nSummarise.\n",
    );
    crate::support::write_file(
        &env.home.join(".claude/commands/release-notes.md"),
        "Old release notes command\n",
    );
    env.write(
        ".claude/skills/migrate-db/SKILL.md",
        "---\ndescription: Apply pending migrations\ndisable-model-invocation: true\n---\nRun make migrate.\n",
    );
    env
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn commands_list_under_claude_shows_kinds_scopes_hints_and_fates() {
    let env = demo();
    let text = agent(&env, "claude", &["commands", "list"]);
    text.assert_code(0);
    assert_golden(&text.stdout, "commands-list-claude.txt");
    let json = agent(&env, "claude", &["--format", "json", "commands", "list"]);
    json.assert_code(0);
    assert_golden(&json.stdout, "commands-list-claude.json");
    let untrusted = run(&env, &["--agent", "claude", "commands", "list"]);
    untrusted.assert_code(0);
    assert_golden(&untrusted.stdout, "commands-list-claude-untrusted.txt");
    assert!(untrusted.stderr.contains("project files were withheld"));
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn expand_under_claude_renders_the_dialect_and_never_runs_the_shell() {
    let env = demo();
    let out = agent(
        &env,
        "claude",
        &["expand", "/git:commit", "api", "fix rounding"],
    );
    out.assert_code(0);
    assert_eq!(
        out.stdout,
        "Write a conventional commit message for the staged changes, scope api, and\n\
         commit them. Current status: [mecatl-prompt did not run: git status --short]\n\n"
    );
    assert!(
        out.stderr.contains(
            "warning: .claude/commands/git/commit.md: Claude Code runs 1 shell command(s)"
        )
    );
    let json = agent(
        &env,
        "claude",
        &["--format", "json", "expand", "/release-notes", "2.0"],
    );
    json.assert_code(0);
    assert_golden(&json.stdout, "expand-claude-skill.json");
    // The engine's dialect is unchanged under the default profile.
    let engine = run(&env, &["--trust-project", "expand", "/fix", "42"]);
    engine.assert_code(0);
    assert!(
        engine
            .stdout
            .starts_with("Fix the bug described in issue 42.")
    );
}

#[test]
fn unknown_names_pass_through_and_require_fails() {
    let env = demo();
    for (profile, input) in [
        ("claude", "/nope x"),
        ("codex", "$nope x"),
        ("claude", "plain"),
    ] {
        let out = agent(&env, profile, &["expand", input]);
        out.assert_code(0);
        assert_eq!(out.stdout, format!("{input}\n"));
        let out = agent(&env, profile, &["expand", "--require", input]);
        out.assert_code(1);
        assert_eq!(out.stdout, format!("{input}\n"));
    }
    let out = agent(&env, "claude", &["expand", "--require", "/nope"]);
    assert!(
        out.stderr.contains("error: unknown command /nope"),
        "{}",
        out.stderr
    );
    let out = agent(&env, "claude", &["expand", "--require", "/migrate-db"]);
    out.assert_code(0);
    let out = agent(
        &env,
        "claude",
        &["expand", "--commands-dir", ".claude/commands", "/fix"],
    );
    out.assert_code(2);
    assert!(
        out.stderr
            .contains("--commands-dir replaces the mecatl profile's")
    );
}

#[test]
fn a_model_only_skill_is_listed_and_not_expanded() {
    let env = TestEnv::new();
    env.write(
        ".claude/skills/auto/SKILL.md",
        "---\ndescription: Only for the model\nuser-invocable: false\n---\nAuto.\n",
    );
    let out = agent(&env, "claude", &["expand", "--require", "/auto"]);
    out.assert_code(1);
    assert_eq!(out.stdout, "/auto\n");
    assert!(
        out.stderr.contains("/auto has user-invocable: false"),
        "{}",
        out.stderr
    );
    let list = agent(&env, "claude", &["commands", "list"]);
    assert!(
        list.stdout
            .contains("Only for the model  (not user-invocable)")
    );
}

/// The fish completion of `words`, trusted through the environment.
pub(crate) fn complete(env: &TestEnv, words: &[&str]) -> String {
    let output = env
        .cmd()
        .env("COMPLETE", "fish")
        .env("MECATL_TRUST_PROJECT", "1")
        .args(["--", "mecatl-prompt"])
        .args(words)
        .output()
        .unwrap();
    assert!(output.status.success());
    stdout(&output)
}

#[test]
fn completion_offers_the_profiles_names_with_their_hints() {
    let env = demo();
    assert_eq!(
        complete(&env, &["--agent", "claude", "expand", "/git:"]),
        "/git:commit\t[scope] [summary]\n"
    );
    assert_eq!(
        complete(&env, &["--agent", "claude", "explain", "/"]),
        "/fix\n/git:commit\t[scope] [summary]\n/migrate-db\n/migration\n/release-notes\t[version]\n\
         /review\n/standup\n"
    );
    env.write(
        ".agents/skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploy the service\n---\nDeploy.\n",
    );
    assert_eq!(
        complete(&env, &["--agent", "codex", "expand", "$"]),
        "$deploy\tDeploy the service\n"
    );
    assert_eq!(
        complete(&env, &["expand", "/git"]),
        "",
        "not a command of the engine"
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn explain_under_claude_walks_claude_codes_directories() {
    let env = demo();
    let out = agent(&env, "claude", &["explain", "/release-notes"]);
    out.assert_code(0);
    // Columns are aligned on the real paths: compare with runs of spaces
    // squashed.
    let squash = |text: &str| {
        text.split(' ')
            .filter(|word| !word.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        squash(&env.redact(&out.stdout)),
        squash(
            "command /release-notes\n\
         SOURCE                                            TIER     TRUST      FATE\n\
         [ROOT]/home/.claude/skills/release-notes/SKILL.md  user     not gated  not found\n\
         .claude/skills/release-notes/SKILL.md             project  trusted    winner\n\
         [ROOT]/home/.claude/commands/release-notes.md      user     not gated  shadowed (by .claude/skills/release-notes/SKILL.md)\n\
         .claude/commands/release-notes.md                 project  trusted    not found\n\
         why: .claude/skills/release-notes/SKILL.md wins because it is the first location in \
         precedence order that holds /release-notes; it shadows \
         [ROOT]/home/.claude/commands/release-notes.md.\n\
         kind: skill\n\
         argument-hint: [version]\n\
         description: Draft release notes from the merged pull requests since the last tag\n\
         frontmatter keys: name, description, when_to_use, argument-hint\n"
        )
    );
    let json = agent(
        &env,
        "claude",
        &["--format", "json", "explain", "/git:commit"],
    );
    let doc = json.json();
    assert_eq!(doc["command"]["kind"], "command");
    assert_eq!(
        doc["command"]["frontmatter"]["argument-hint"],
        "[scope] [summary]"
    );
    assert_eq!(doc["command"]["winner"], ".claude/commands/git/commit.md");
}

#[test]
fn snapshot_and_check_follow_the_profiles_skills() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write(
        ".agents/skills/a/SKILL.md",
        "---\nname: a\ndescription: A\n---\nA\n",
    );
    let out = agent(&env, "codex", &["snapshot"]);
    out.assert_code(0);
    let manifest = out.json();
    assert_eq!(manifest["commands"][0]["name"], "a");
    assert_eq!(
        manifest["commands"][0]["source"],
        ".agents/skills/a/SKILL.md"
    );
    let saved = env.root.join("codex.json");
    std::fs::write(&saved, &out.stdout).unwrap();
    let saved = saved.display().to_string();
    agent(&env, "codex", &["check", "--against", &saved]).assert_code(0);
    env.write(
        ".agents/skills/a/SKILL.md",
        "---\nname: a\ndescription: A2\n---\nA\n",
    );
    env.write(
        ".agents/skills/b/SKILL.md",
        "---\nname: b\ndescription: B\n---\nB\n",
    );
    let out = agent(&env, "codex", &["check", "--against", &saved]);
    out.assert_code(1);
    assert!(
        out.stdout
            .contains("command a changed: .agents/skills/a/SKILL.md"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("command b added: .agents/skills/b/SKILL.md"),
        "{}",
        out.stdout
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn assemble_under_codex_adds_the_skills_listing_after_the_instructions() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write("AGENTS.md", "ROOT\n");
    env.write(
        ".agents/skills/b/SKILL.md",
        "---\nname: b\ndescription: B skill\n---\nB\n",
    );
    crate::support::write_file(
        &env.home.join(".agents/skills/u/SKILL.md"),
        "---\nname: u\ndescription: Mine\n---\nU\n",
    );
    let out = agent(&env, "codex", &["assemble"]);
    out.assert_code(0);
    assert_eq!(
        env.redact(&out.stdout),
        "── 1 · project · AGENTS.md ──\nROOT\n\n\
         ── 2 · skills listing · 2 entries ──\n\
         - b: B skill (file: .agents/skills/b/SKILL.md)\n\
         - u: Mine (file: [ROOT]/home/.agents/skills/u/SKILL.md)\n"
    );
    let json = agent(&env, "codex", &["--format", "json", "assemble", "--stats"]);
    let doc = json.json();
    let listing = &doc["messages"][1];
    assert_eq!(listing["provenance"], "skills");
    assert_eq!(listing["parts"][1]["scope"], "user");
    assert_eq!(listing["parts"][0]["kind"], "skills");
    let big = "x".repeat(1_000);
    for i in 0..20 {
        env.write(
            &format!(".agents/skills/s{i}/SKILL.md"),
            format!("---\nname: s{i}\ndescription: {big}\n---\nS\n"),
        );
    }
    let out = agent(&env, "codex", &["assemble"]);
    assert!(
        out.stderr.contains("warning: the skills listing is "),
        "{}",
        out.stderr
    );
}

#[test]
fn assemble_under_claude_lists_skills_for_the_model_within_the_budget() {
    let env = demo();
    let out = agent(&env, "claude", &["--format", "json", "assemble"]);
    out.assert_code(0);
    let doc = out.json();
    let messages = doc["messages"].as_array().unwrap();
    let listing = messages.last().unwrap();
    assert_eq!(listing["provenance"], "skills");
    let lines: Vec<&str> = listing["text"].as_str().unwrap().lines().collect();
    // User skills, project skills, then every command sorted together; the
    // hidden skill is left out, the shadowed user command too.
    assert_eq!(
        lines
            .iter()
            .map(|l| l.split(':').next().unwrap())
            .collect::<Vec<_>>(),
        [
            "- release-notes",
            "- fix",
            "- git",
            "- migration",
            "- review",
            "- standup"
        ]
    );
    // The demo's MCP server and SessionStart hook are the only warnings.
    assert!(
        out.stderr
            .lines()
            .all(|line| line.contains(": not run (would add")
                || line.contains("configured MCP server, not run")),
        "{}",
        out.stderr
    );
    // A budget that Claude Code's own entries nearly fill shrinks entries
    // to their names, with a warning; the variable beats --context-window.
    let tight = env
        .cmd()
        .env("SLASH_COMMAND_TOOL_CHAR_BUDGET", "6300")
        .args(["--trust-project", "--agent", "claude", "assemble"])
        .args(["--context-window", "1000000"])
        .output()
        .unwrap();
    let stdout = stdout(&tight);
    let stderr = crate::support::stderr(&tight);
    assert!(stdout.contains("\n- fix\n"), "{stdout}");
    assert!(
        stderr.contains("over its budget of 6300") && stderr.contains("entries are shrunk"),
        "{stderr}"
    );
    let wide = agent(&env, "claude", &["assemble", "--context-window", "1000000"]);
    assert!(!wide.stderr.contains("shrunk"), "{}", wide.stderr);
    let verbose = agent(&env, "claude", &["-v", "assemble"]);
    assert!(
        verbose.stderr.contains(
            "left out of the skills listing (disable-model-invocation: true): /migrate-db"
        ),
        "{}",
        verbose.stderr
    );
    let snapshot = agent(&env, "claude", &["snapshot"]);
    snapshot.assert_code(0);
    let names: Vec<String> = snapshot.json()["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "fix",
            "git:commit",
            "migrate-db",
            "migration",
            "release-notes",
            "review",
            "standup"
        ]
    );
}
