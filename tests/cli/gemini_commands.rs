//! Gemini CLI's custom commands, skills and `system.md` on the binary
//! (SPEC §16.4, §16.5): `commands list` (renames, refused files, skills),
//! completion and `explain /name` agreeing with it, `expand` never running
//! a `!{cmd}`, a repository's `system.md` shown with a warning while no
//! other value of its `.env` is ever printed, trust, and bounded reading
//! of hostile command trees.

use std::time::{Duration, Instant};

use crate::completions::request;
use crate::hardening::{Outcome, run};
use crate::support::{TestEnv, write_file};

/// A git workspace with a user and a project command that clash, a
/// built-in clash, a nested command, an invalid file and a skill.
fn commands_env() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write(".gemini/commands/dup.toml", "prompt = \"PROJ {{args}}\"\n");
    env.write(".gemini/commands/help.toml", "prompt = \"HELP\"\n");
    env.write(
        ".gemini/commands/git/commit.toml",
        "description = \"Commit staged work\"\nprompt = \"Commit: {{args}}\"\n",
    );
    env.write(
        ".gemini/commands/run.toml",
        "prompt = \"Before !{touch MARKER} after {{args}}\"\n",
    );
    env.write(".gemini/commands/bad.toml", "prompt = \"open\n");
    env.write(
        ".gemini/skills/foo/SKILL.md",
        "---\nname: foo\ndescription: Foo things\n---\nbody\n",
    );
    write_file(
        &env.home.join(".gemini/commands/dup.toml"),
        "prompt = \"USER\"\n",
    );
    env
}

fn gemini(env: &TestEnv, args: &[&str]) -> Outcome {
    let mut all = vec!["--trust-project", "--agent", "gemini"];
    all.extend_from_slice(args);
    run(env, &all)
}

#[test]
fn commands_list_shows_gemini_names_renames_refusals_and_skills() {
    let env = commands_env();
    let listed = gemini(&env, &["--format", "json", "commands", "list"])
        .assert_code(0)
        .json();
    let rows: Vec<String> = listed["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {}",
                r["name"].as_str().unwrap(),
                r["kind"].as_str().unwrap(),
                r["scope"].as_str().unwrap(),
                r["fate"].as_str().unwrap(),
                r["renamed_from"].as_str().unwrap_or("-")
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "git:commit command project winner -",
            "run command project winner -",
            "user.dup command user winner dup",
            "workspace.dup command project winner dup",
            "workspace.help command project winner help",
            "bad command project malformed -",
            "foo skill project winner -",
        ]
    );
    let bad = listed["diagnostics"].to_string();
    assert!(bad.contains("invalid TOML at line 1, column"), "{bad}");
    let listed_text = gemini(&env, &["commands", "list"]);
    let table = &listed_text.assert_code(0).stdout;
    assert!(table.contains("/workspace.help  command  project  Custom command from help.toml  (renamed from /help on a name clash)"), "{table}");
    assert!(
        table.contains("/git:commit      command  project  Commit staged work"),
        "{table}"
    );
}

#[test]
fn completion_and_explain_agree_with_the_listing() {
    let env = commands_env();
    let words = ["--trust-project", "--agent", "gemini", "expand", "/"];
    let offered = request(&env, "fish", &words, &[]);
    let names: Vec<&str> = offered
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "/git:commit",
            "/run",
            "/user.dup",
            "/workspace.dup",
            "/workspace.help"
        ]
    );
    // Nothing holds /dup any more: both files are listed, renamed.
    let explained = gemini(&env, &["explain", "/dup"]);
    assert_eq!(explained.code, 1, "{}", explained.stderr);
    let all = format!("{}{}", explained.stdout, explained.stderr);
    assert!(all.contains("renamed /user.dup"), "{all}");
    assert!(all.contains("renamed /workspace.dup"), "{all}");
    let nested = gemini(&env, &["explain", "/git:commit"]);
    nested.assert_code(0);
    assert!(nested.stdout.contains(".gemini/commands/git/commit.toml"));
}

#[test]
fn expand_never_runs_a_shell_command() {
    let env = commands_env();
    let out = gemini(&env, &["--format", "json", "expand", "/run now"])
        .assert_code(0)
        .json();
    assert_eq!(
        out["output"],
        "Before [mecatl-prompt did not run: touch MARKER] after now"
    );
    assert_eq!(out["shell"][0]["command"], "touch MARKER");
    assert_eq!(out["shell"][0]["offset"], 7);
    assert!(out["diagnostics"].to_string().contains("never runs them"));
    assert!(!env.ws.join("MARKER").exists(), "nothing ran");
    let nobody = gemini(&env, &["expand", "/dup x"]);
    nobody.assert_code(0);
    assert_eq!(nobody.stdout, "/dup x\n");
    assert!(nobody.stderr.contains("nobody's"), "{}", nobody.stderr);
}

#[test]
fn system_md_is_shown_with_a_warning_and_no_other_env_value_is_ever_printed() {
    let env = commands_env();
    env.write(
        ".gemini/.env",
        "API_SECRET=s3cr3t-value-xyz\nGEMINI_SYSTEM_MD=true\nOTHER=also-s3cr3t\n",
    );
    env.write(".gemini/system.md", "You are a pirate.\n\n\n\nArr.\n");
    let doc = gemini(&env, &["--format", "json", "assemble"])
        .assert_code(0)
        .json();
    let system = &doc["messages"][0];
    assert_eq!(system["provenance"], "user_instructions");
    assert_eq!(system["parts"][0]["kind"], "system-prompt");
    assert_eq!(system["parts"][0]["path"], ".gemini/system.md");
    assert_eq!(system["parts"][0]["content"], "You are a pirate.\n\nArr.");
    assert!(
        doc["diagnostics"]
            .to_string()
            .contains("replace its whole system prompt")
    );
    let mut outputs = Vec::new();
    for args in [
        &["assemble"][..],
        &["--format", "json", "assemble"],
        &["assemble", "--stats"],
        &["commands", "list"],
        &["explain", ".gemini/.env"],
        &["lint"],
        &["--format", "json", "lint"],
        &["compare"],
        &["snapshot"],
    ] {
        let out = gemini(&env, args);
        outputs.push(format!("{}{}", out.stdout, out.stderr));
    }
    let everything = outputs.concat();
    assert!(!everything.contains("s3cr3t"), "an .env value was printed");
    assert!(everything.contains("MP024"), "the lint finding is there");
}

#[test]
fn an_untrusted_workspace_withholds_its_commands_and_skills() {
    let env = commands_env();
    let listed = run(
        &env,
        &["--agent", "gemini", "--format", "json", "commands", "list"],
    )
    .assert_code(0)
    .json();
    let names: Vec<&str> = listed["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["dup"],
        "only the user's command, under its own name"
    );
    assert!(listed["diagnostics"].to_string().contains("withheld"));
}

#[test]
fn hostile_command_trees_are_bounded() {
    let env = TestEnv::new();
    let commands = env.ws.join(".gemini/commands");
    let huge = format!("prompt = \"{}\"\n", "x".repeat(10 << 20));
    env.write(".gemini/commands/huge.toml", huge);
    let deep = format!(
        "prompt = \"p\"\na = {}{}\n",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    env.write(".gemini/commands/deep.toml", deep);
    let mut dir = commands.clone();
    for _ in 0..40 {
        dir = dir.join("d");
    }
    write_file(&dir.join("x.toml"), "prompt = \"DEEP\"\n");
    for i in 0..100 {
        for j in 0..100 {
            std::fs::create_dir_all(commands.join(format!("w{i:02}/e{j:02}"))).unwrap();
        }
        write_file(
            &commands.join(format!("w{i:02}/e00/c.toml")),
            "prompt = \"W\"\n",
        );
    }
    #[cfg(unix)]
    {
        crate::hardening::symlink(".", &commands.join("loop"));
        crate::hardening::mkfifo(&commands.join("fifo.toml"));
    }
    let started = Instant::now();
    let out = gemini(&env, &["--format", "json", "commands", "list"]);
    out.assert_code(0);
    assert!(started.elapsed() < Duration::from_secs(20));
    let doc = out.json();
    let rows = doc["commands"].as_array().unwrap();
    let winners = rows.iter().filter(|r| r["fate"] == "winner").count();
    assert_eq!(winners, 101, "huge and one per w*/e00; the deep one cut");
    assert!(
        rows.iter()
            .any(|r| r["name"] == "deep" && r["fate"] == "malformed")
    );
    assert!(doc["diagnostics"].to_string().contains("deeper than"));
    let expanded = gemini(&env, &["expand", "/huge"]);
    expanded.assert_code(0);
    assert_eq!(expanded.stdout.len(), (10 << 20) + 1);
    let nested = gemini(&env, &["expand", "/w07:e00:c"]);
    assert_eq!(nested.assert_code(0).stdout, "W\n");
}

#[test]
fn lint_reports_gemini_command_problems_by_gemini_rules() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env.write(
        ".gemini/commands/claudey.toml",
        "description = \"d\"\nprompt = \"Fix $ARGUMENTS, $1, !`git status` and @src/main.rs\"\n",
    );
    env.write(".gemini/commands/help.toml", "prompt = \"HELP\"\n");
    env.write(
        ".gemini/commands/bad.toml",
        "description = \"x\"\nprompt = \"open\n",
    );
    env.write(".gemini/commands/notes.md", "not a command");
    env.write(
        ".gemini/commands/fine.toml",
        "prompt = \"Fine {{args}} !{ls} @{x}\"\n",
    );
    let doc = run(&env, &["--format", "json", "lint"]).json();
    let findings: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {}",
                f["path"].as_str().unwrap(),
                f["code"].as_str().unwrap(),
                f["line"]
            )
        })
        .collect();
    assert_eq!(
        findings,
        [
            ".gemini/commands/bad.toml MP018 2",
            ".gemini/commands/claudey.toml MP017 2",
            ".gemini/commands/claudey.toml MP017 2",
            ".gemini/commands/claudey.toml MP017 2",
            ".gemini/commands/claudey.toml MP017 2",
            // A note: `!{ls}` is Gemini's own syntax, run when invoked.
            ".gemini/commands/fine.toml MP016 1",
            ".gemini/commands/help.toml MP023 null",
            ".gemini/commands/notes.md MP018 null",
        ]
    );
    assert_eq!(
        doc["agents"],
        serde_json::json!(["mecatl", "claude", "codex", "gemini"])
    );
}
