//! Symbolic links in the project tier (SPEC §3.1): links that stay inside
//! the workspace are followed; links that leave it are refused and never
//! read; loops and dangling links count as not found, with a warning.

#[cfg(unix)]
use super::symlink;
#[cfg(unix)]
use super::trusted_json;
#[cfg(unix)]
use super::{BUILD, Outcome, run};
#[cfg(unix)]
use crate::support::TestEnv;

#[cfg(unix)]
const SECRET: &str = "AKIA-SECRET-OUTSIDE-THE-WORKSPACE";

#[cfg(unix)]
/// Every subcommand that reads project files, text and JSON.
fn every_output(env: &TestEnv) -> Vec<Outcome> {
    let mut runs = Vec::new();
    for format in ["text", "json"] {
        let with = |args: &[&str]| {
            let mut all = vec!["--trust-project", "--format", format];
            all.extend_from_slice(args);
            run(env, &all)
        };
        runs.push(with(&["assemble"]));
        runs.push(with(&["rules", "list"]));
        runs.push(with(&["rules", "list", "--for", "src/a.rs"]));
        runs.push(with(&["commands", "list"]));
        runs.push(with(&["expand", "/leak", "x"]));
        runs.push(with(&["-v", "assemble"]));
        let mut build = BUILD.to_vec();
        build.splice(0..0, ["--trust-project", "--format", format]);
        runs.push(run(env, &build));
    }
    runs
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn links_out_of_the_workspace_are_refused_and_never_read() {
    let env = TestEnv::new();
    let outside = env.ws.parent().unwrap().join("outside");
    crate::support::write_file(&outside.join("secret.md"), SECRET);
    crate::support::write_file(&outside.join("rules/stolen.md"), SECRET);
    crate::support::write_file(&outside.join("commands/stolen.md"), SECRET);
    let secret = outside.join("secret.md");
    symlink(&secret, &env.ws.join("AGENTS.md"));
    symlink("../outside/secret.md", &env.ws.join("CLAUDE.md"));
    symlink(&secret, &env.ws.join(".mecatl/rules/leak.md"));
    symlink(&secret, &env.ws.join(".mecatl/commands/leak.md"));
    symlink(&secret, &env.ws.join(".mecatl/soul.md"));
    symlink(outside.join("rules"), &env.ws.join(".claude/rules"));
    symlink(outside.join("commands"), &env.ws.join(".claude/commands"));

    for out in every_output(&env) {
        assert!(
            !out.stdout.contains(SECRET) && !out.stderr.contains(SECRET),
            "the secret leaked: {out:?}"
        );
    }

    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    assert_eq!(out.messages(), []);
    let hint = "(if the file belongs to the repository, run with -C at the repository root)";
    assert_eq!(
        out.problems(),
        [
            format!("warning AGENTS.md: symlink resolves outside the workspace; not followed; treated as not found {hint}"),
            format!("warning CLAUDE.md: symlink resolves outside the workspace; not followed; treated as not found {hint}"),
            "fatal .claude/rules: rules directory not read: symlink resolves outside the workspace; not followed".to_string(),
            "fatal .mecatl/rules/leak.md: refused symlink: symlink resolves outside the workspace; not followed".to_string(),
            "warning .mecatl/soul.md: symlink resolves outside the workspace; not followed; soul file skipped".to_string(),
        ]
    );
    let out = run(&env, &["--trust-project", "rules", "list", "--check"]);
    out.assert_code(1);
    let out = run(&env, &["--trust-project", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr_lines(),
        [
            "mecatl-prompt: warning: .mecatl/commands/leak.md: refused symlink: symlink resolves outside the workspace; not followed",
            "mecatl-prompt: error: .claude/commands: command directory not read: symlink resolves outside the workspace; not followed",
        ]
    );
    let out = run(&env, &["--trust-project", "expand", "/leak", "x"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "/leak x\n");
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn links_inside_the_workspace_are_followed() {
    let env = TestEnv::new();
    env.write("docs/agents.md", "Shared instructions.");
    symlink("docs/agents.md", &env.ws.join("CLAUDE.md"));
    env.write("shared/style.md", "---\npaths: \"**/*.rs\"\n---\nStyle.");
    symlink(
        "../../shared/style.md",
        &env.ws.join(".claude/rules/style.md"),
    );
    env.write("shared/cmds/go.md", "Go $1.");
    symlink("../shared/cmds", &env.ws.join(".claude/commands"));
    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    assert_eq!(
        out.message("project"),
        "Project instructions (CLAUDE.md):\n\nShared instructions."
    );
    assert!(
        out.message("rules")
            .ends_with("<rule name=\"style\">\nApplies when: **/*.rs\nStyle.\n</rule>")
    );
    assert_eq!(out.problems(), Vec::<String>::new());
    let out = run(&env, &["--trust-project", "expand", "/go", "home"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "Go home.\n");
    // CLAUDE.md -> AGENTS.md: AGENTS.md wins, read once.
    env.write("AGENTS.md", "The one file.");
    std::fs::remove_file(env.ws.join("CLAUDE.md")).unwrap();
    symlink("AGENTS.md", &env.ws.join("CLAUDE.md"));
    let out = trusted_json(&env, &["assemble", "--no-rules"]);
    assert_eq!(
        out.messages(),
        [(
            "project".to_string(),
            "Project instructions (AGENTS.md):\n\nThe one file.".to_string()
        )]
    );
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn loops_and_dangling_links_count_as_not_found_with_a_warning() {
    let env = TestEnv::new();
    symlink("AGENTS.md", &env.ws.join("AGENTS.md"));
    symlink("missing.md", &env.ws.join("CLAUDE.md"));
    symlink("loop.md", &env.ws.join(".claude/rules/loop.md"));
    symlink("b.md", &env.ws.join(".claude/rules/a.md"));
    symlink("a.md", &env.ws.join(".claude/rules/b.md"));
    symlink("nowhere.md", &env.ws.join(".claude/rules/dangling.md"));
    symlink("loop.md", &env.ws.join(".claude/commands/loop.md"));
    symlink("nowhere.md", &env.ws.join(".claude/commands/dangling.md"));
    symlink("rules", &env.ws.join(".mecatl/rules"));
    symlink("nowhere", &env.ws.join(".mecatl/commands"));
    env.write(".claude/rules/ok.md", "Fine.");
    let out = trusted_json(&env, &["assemble"]);
    out.assert_code(0);
    assert_eq!(out.messages().len(), 1, "only the rules message");
    assert_eq!(
        out.problems(),
        [
            "warning AGENTS.md: symlink loop; treated as not found",
            "warning CLAUDE.md: dangling symlink; treated as not found",
            "warning .mecatl/rules: rules directory is a symlink loop; treated as missing",
            "warning .claude/rules/a.md: symlink loop; treated as not found",
            "warning .claude/rules/b.md: symlink loop; treated as not found",
            "warning .claude/rules/dangling.md: dangling symlink; treated as not found",
            "warning .claude/rules/loop.md: symlink loop; treated as not found",
        ]
    );
    run(&env, &["--trust-project", "rules", "list", "--check"]).assert_code(0);
    let out = run(&env, &["--trust-project", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr_lines(),
        [
            "mecatl-prompt: warning: .mecatl/commands: command directory is a dangling symlink; treated as missing",
            "mecatl-prompt: warning: .claude/commands/dangling.md: dangling symlink; treated as not found",
            "mecatl-prompt: warning: .claude/commands/loop.md: symlink loop; treated as not found",
        ]
    );
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn links_to_enclosing_directories_are_not_walked() {
    let env = TestEnv::new();
    symlink(".", &env.ws.join(".claude/commands/self"));
    symlink("..", &env.ws.join(".claude/rules/up"));
    env.write(".claude/commands/c.md", "C.");
    env.write(".claude/rules/r.md", "R.");
    let out = run(&env, &["--trust-project", "-v", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "/c  C.\n");
    assert_eq!(
        out.stderr,
        "mecatl-prompt: warning: .claude/commands/self: nested directory not read under the mecatl profile: Claude Code offers its 1 .md file(s) as /self:NAME (/self:c); run with --agent claude to see what Claude Code does\n"
    );
    // A linked directory among the rules is not even counted: counting
    // through `..` would walk the whole repository.
    let out = trusted_json(&env, &["rules", "list", "--check"]);
    out.assert_code(0);
    assert_eq!(out.json()["rules"].as_array().map(Vec::len), Some(1));
    assert_eq!(out.problems(), Vec::<String>::new());
}
