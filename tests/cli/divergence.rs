//! Divergence warnings under the default profile (SPEC §15.2): each names
//! the file and the profile that sees it differently, shows on stderr and
//! in the JSON diagnostics, and is silent under `--agent claude`, with
//! `-q`, and where the agents agree.

#[cfg(unix)]
use std::os::unix::fs::symlink;

use crate::corpus::corpus_root;
use crate::support::{TestEnv, code, json, stderr, stdout};

/// How every divergence warning ends.
const SEE: &str = "; run with --agent claude to see what Claude Code does";

/// Runs `args` (trusted) and returns stderr, after checking the exit code.
fn warnings(env: &TestEnv, args: &[&str]) -> String {
    let mut all = vec!["--trust-project"];
    all.extend_from_slice(args);
    let output = env.run(&all);
    assert_eq!(code(&output), Some(0), "{args:?}: {}", stderr(&output));
    stderr(&output)
}

/// The reasons of the JSON diagnostics at `path` with severity `warning`.
fn json_warnings(env: &TestEnv, args: &[&str], path: &str) -> Vec<String> {
    let mut all = vec!["--trust-project", "--format", "json"];
    all.extend_from_slice(args);
    let value = json(&env.run(&all));
    value["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["severity"] == "warning" && d["path"] == path)
        .map(|d| d["reason"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// True when `text` holds no divergence warning.
fn silent(text: &str) -> bool {
    !text.contains("--agent claude")
}

#[test]
fn diverging_claude_md_names_what_claude_code_loads_instead() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "Use tabs.\n");
    env.write("CLAUDE.md", "Use spaces.\n");
    let reason = format!(
        "Claude Code loads CLAUDE.md (12 bytes) here, Codex and mecatl load AGENTS.md (10 \
         bytes): the files differ and CLAUDE.md does not import AGENTS.md{SEE}"
    );
    let err = warnings(&env, &["assemble"]);
    assert!(
        err.contains(&format!("mecatl-prompt: warning: CLAUDE.md: {reason}\n")),
        "{err}"
    );
    assert_eq!(err.matches("--agent claude").count(), 1, "{err}");
    assert_eq!(json_warnings(&env, &["assemble"], "CLAUDE.md"), [reason]);
    // The profile shows the real thing; -q silences warnings as always;
    // without instructions there is nothing to compare.
    assert!(silent(&warnings(&env, &["--agent", "claude", "assemble"])));
    assert!(silent(&warnings(&env, &["--agent", "codex", "assemble"])));
    assert_eq!(warnings(&env, &["-q", "assemble"]), "");
    assert!(silent(&warnings(&env, &["assemble", "--no-instructions"])));
    // lint words the same fact from the same function.
    let lint = stdout(&env.run(&["lint"]));
    assert!(
        lint.contains("Claude Code loads CLAUDE.md (12 bytes) here"),
        "{lint}"
    );
}

#[test]
fn agreeing_instruction_files_give_no_warning() {
    let cases: [(&str, Option<&str>); 6] = [
        // identical bytes
        ("Use tabs.\n", Some("Use tabs.\n")),
        // only a comment: Claude Code sends nothing of it and falls back
        ("<!-- see AGENTS.md -->\n", Some("Use tabs.\n")),
        // only an import of AGENTS.md, or one with Claude-only notes
        ("@AGENTS.md\n", Some("Use tabs.\n")),
        ("@AGENTS.md\n\nAlso: run cargo fmt.\n", Some("Use tabs.\n")),
        // a blank CLAUDE.md (Claude Code falls back to AGENTS.md)
        ("\n\n", Some("Use tabs.\n")),
        // no AGENTS.md at all
        ("Use spaces.\n", None),
    ];
    for (claude, agents) in cases {
        let env = TestEnv::new();
        env.write("CLAUDE.md", claude);
        if let Some(agents) = agents {
            env.write("AGENTS.md", agents);
        }
        let err = warnings(&env, &["assemble"]);
        assert!(silent(&err), "{claude:?}: {err}");
    }
    // A blank AGENTS.md: the engine falls back to CLAUDE.md as Claude Code.
    let env = TestEnv::new();
    env.write("AGENTS.md", "  \n");
    env.write("CLAUDE.md", "Use spaces.\n");
    assert!(silent(&warnings(&env, &["assemble"])));
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn a_claude_md_linked_to_agents_md_gives_no_warning() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "Use tabs.\n");
    symlink("AGENTS.md", env.ws.join("CLAUDE.md")).unwrap();
    let err = warnings(&env, &["assemble"]);
    assert!(silent(&err), "{err}");
}

#[test]
fn nested_claude_commands_are_a_warning_naming_their_claude_names() {
    let env = TestEnv::new();
    env.write(".claude/commands/top.md", "Top.\n");
    env.write(".claude/commands/git/commit.md", "Commit.\n");
    env.write(".claude/commands/git/push.md", "Push.\n");
    let reason = format!(
        "nested directory not read under the mecatl profile: Claude Code offers its 2 .md \
         file(s) as /git:NAME (/git:commit, /git:push){SEE}"
    );
    let err = warnings(&env, &["commands", "list"]);
    assert_eq!(
        err,
        format!("mecatl-prompt: warning: .claude/commands/git: {reason}\n")
    );
    assert_eq!(
        json_warnings(&env, &["commands", "list"], ".claude/commands/git"),
        [reason]
    );
    assert!(silent(&warnings(
        &env,
        &["--agent", "claude", "commands", "list"]
    )));
    // Untrusted: the directory is listed, not read, so it is still named.
    let untrusted = stderr(&env.run(&["commands", "list"]));
    assert!(
        untrusted.contains(".claude/commands/git: nested directory"),
        "{untrusted}"
    );
}

#[test]
fn commands_without_nested_claude_directories_give_no_warning() {
    let env = TestEnv::new();
    env.write(".claude/commands/top.md", "Top.\n");
    // No agent reads .mecatl/commands: its nested directory stays an info.
    env.write(".mecatl/commands/git/commit.md", "Commit.\n");
    let err = warnings(&env, &["commands", "list"]);
    assert_eq!(err, "");
    let verbose = warnings(&env, &["-v", "commands", "list"]);
    assert!(
        verbose.contains("info: .mecatl/commands/git: nested directory not read"),
        "{verbose}"
    );
    assert!(silent(&verbose), "{verbose}");
}

#[test]
fn skills_are_counted_in_one_warning() {
    let env = TestEnv::new();
    env.write(
        ".claude/skills/deploy/SKILL.md",
        "---\ndescription: D\n---\nDeploy.\n",
    );
    env.write(
        ".claude/skills/review/SKILL.md",
        "---\ndescription: R\n---\nReview.\n",
    );
    env.write(".claude/skills/notes/README.md", "not a skill\n");
    let reason = format!(
        "2 skill(s) here are not read under the mecatl profile: Claude Code lists them to the \
         model and offers them as /NAME{SEE}"
    );
    let err = warnings(&env, &["commands", "list"]);
    assert_eq!(
        err,
        format!("mecatl-prompt: warning: .claude/skills: {reason}\n")
    );
    assert_eq!(
        json_warnings(&env, &["commands", "list"], ".claude/skills"),
        [reason]
    );
    assert!(silent(&warnings(
        &env,
        &["--agent", "claude", "commands", "list"]
    )));
    // --commands-dir replaces the workspace's directories: no skills there.
    env.write("ops/x.md", "X.\n");
    assert!(silent(&warnings(
        &env,
        &["commands", "list", "--commands-dir", "ops"]
    )));
    // No skill directory, no warning.
    let empty = TestEnv::new();
    assert_eq!(warnings(&empty, &["commands", "list"]), "");
}

#[test]
fn arguments_the_template_does_not_place_are_a_warning_on_expand() {
    let env = TestEnv::new();
    env.write(".claude/commands/fix.md", "Fix the bug.\n");
    let reason = format!(
        "the template places none of the arguments given: Claude Code appends the arguments \
         after the body as `ARGUMENTS: …`, and mecatl drops them{SEE}"
    );
    let err = warnings(&env, &["expand", "/fix", "src/lib.rs"]);
    assert_eq!(
        err,
        format!("mecatl-prompt: warning: .claude/commands/fix.md: {reason}\n")
    );
    assert_eq!(
        json_warnings(
            &env,
            &["expand", "/fix", "src/lib.rs"],
            ".claude/commands/fix.md"
        ),
        [reason]
    );
    assert!(silent(&warnings(
        &env,
        &["--agent", "claude", "expand", "/fix", "x"]
    )));
    // No arguments given: nothing is appended.
    assert_eq!(warnings(&env, &["expand", "/fix"]), "");
}

#[test]
fn templates_that_place_their_arguments_give_no_warning() {
    let env = TestEnv::new();
    env.write(".claude/commands/fix.md", "Fix $ARGUMENTS.\n");
    env.write(".claude/commands/first.md", "Fix $1 first.\n");
    // Claude Code does not read .mecatl/commands: nothing to compare.
    env.write(".mecatl/commands/plain.md", "Plain.\n");
    for input in ["/fix src/lib.rs", "/first a b", "/plain x !`ls` @README.md"] {
        let mut args = vec!["expand"];
        args.extend(input.split(' '));
        let err = warnings(&env, &args);
        assert_eq!(err, "", "{input}");
    }
}

#[test]
fn shell_commands_and_file_mentions_in_an_expansion_are_warnings() {
    let env = TestEnv::new();
    env.write(
        ".claude/commands/status.md",
        "Status: !`git status`\nRead @README.md and @docs/a.md.\n",
    );
    let shell = format!(
        "runs `git status` when invoked: Claude Code sends its output, mecatl and the preview \
         send the command as written{SEE}"
    );
    let files = format!(
        "the expansion mentions `@README.md`, `@docs/a.md`: Claude Code attaches the files \
         before the message, mecatl sends the text only{SEE}"
    );
    let err = warnings(&env, &["expand", "/status"]);
    assert_eq!(
        err,
        format!(
            "mecatl-prompt: warning: .claude/commands/status.md: {shell}\n\
             mecatl-prompt: warning: .claude/commands/status.md: {files}\n"
        )
    );
    assert_eq!(
        json_warnings(&env, &["expand", "/status"], ".claude/commands/status.md"),
        [shell, files]
    );
    // The engine sends the text as written, and expand prints it.
    let output = env.run(&["--trust-project", "expand", "/status"]);
    assert!(stdout(&output).contains("!`git status`"));
    assert!(silent(&warnings(
        &env,
        &["--agent", "claude", "expand", "/status"]
    )));
    // Untrusted: the command is withheld, so its body is never looked at.
    let untrusted = stderr(&env.run(&["expand", "/status"]));
    assert!(silent(&untrusted), "{untrusted}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "the corpus is reached through /work/…/../shared, which Wine resolves on drive C:"
)]
fn the_readme_example_is_the_real_output_on_the_corpus() {
    let Some(corpus) = corpus_root() else {
        return;
    };
    let env = TestEnv::new();
    let workspace = corpus.join("browser-use__browser-use");
    let output = env.run(&["-C", workspace.to_str().expect("UTF-8 path"), "assemble"]);
    assert_eq!(code(&output), Some(0), "{}", stderr(&output));
    let err = stderr(&output);
    assert_eq!(err.matches("--agent claude").count(), 1, "{err}");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let example = format!(
        "$ mecatl-prompt -C ../shared/corpus/browser-use__browser-use assemble > /dev/null\n{err}```"
    );
    assert!(readme.contains(&example), "README's example is not:\n{err}");
}
