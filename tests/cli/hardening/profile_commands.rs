//! Commands and skills under the agent profiles (SPEC §14.5, §14.6,
//! §15.6, §15.8) on hostile workspaces: a `` !`cmd` `` is never run, by any
//! subcommand with any flag; an `@path` or a skill link leading out of the
//! workspace is never read; deep, wide and looping trees stay bounded; a
//! skill directory without its file, a FIFO and a 2 GiB SKILL.md are
//! diagnosed without a hang.

use std::path::Path;

#[cfg(unix)]
use super::{mkfifo, sparse, symlink};
use super::{run, trusted_json};
use crate::support::TestEnv;

#[cfg(unix)]
const SECRET: &str = "S3CRET-DO-NOT-SHOW";

#[cfg(unix)]
/// The names `commands list --format json` lists, in order.
fn command_names(out: &super::Outcome) -> Vec<String> {
    out.json()["commands"]
        .as_array()
        .expect("commands")
        .iter()
        .map(|c| c["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A command body that would create `marker` in every way Claude Code runs
/// a shell command.
fn bang_body(marker: &Path) -> String {
    let m = marker.display();
    format!(
        "---\ndescription: runs !`touch {m}.d`\nargument-hint: \"!`touch {m}.h`\"\n---\n\
         Inline: !`touch {m}` and $ARGUMENTS\n```!\ntouch {m}.fenced\n```\n!`sh -c 'touch {m}.sh'`\n"
    )
}

/// Every marker file a run could have created.
fn markers(marker: &Path) -> Vec<std::path::PathBuf> {
    ["", ".d", ".h", ".fenced", ".sh", ".arg"]
        .iter()
        .map(|suffix| marker.with_file_name(format!("marker{suffix}")))
        .collect()
}

#[test]
fn shell_commands_never_run_in_any_subcommand_with_any_flag() {
    let env = TestEnv::new();
    let marker = env.root.join("marker");
    let body = bang_body(&marker);
    env.write(".claude/commands/x.md", &body);
    env.write(".claude/commands/git/commit.md", &body);
    env.write(".claude/skills/s/SKILL.md", &body);
    env.write(
        ".agents/skills/c/SKILL.md",
        format!("---\nname: c\ndescription: d\n---\n{body}"),
    );
    env.write(".mecatl/commands/m.md", &body);
    std::fs::create_dir_all(env.home.join(".claude/commands")).unwrap();
    std::fs::write(env.home.join(".claude/commands/u.md"), &body).unwrap();
    let arg = format!("!`touch {}.arg`", marker.display());
    let mut runs: Vec<Vec<String>> = Vec::new();
    for agent in ["mecatl", "claude", "codex"] {
        for trust in ["--trust-project", "--no-trust-project"] {
            for format in ["text", "json"] {
                let base = vec![
                    format!("--agent={agent}"),
                    trust.to_string(),
                    format!("--format={format}"),
                    "-v".to_string(),
                ];
                let with = |rest: &[&str]| {
                    let mut all = base.clone();
                    all.extend(rest.iter().map(|s| s.to_string()));
                    all
                };
                runs.push(with(&["commands", "list"]));
                for input in ["/x", "/git:commit", "/s", "/u", "/m", "$c go"] {
                    runs.push(with(&["expand", input, &arg]));
                    runs.push(with(&["expand", "--require", input]));
                }
                for name in ["/x", "/s", "/git:commit", "x"] {
                    runs.push(with(&["explain", name]));
                }
                runs.push(with(&["assemble", "--stats"]));
                runs.push(with(&["snapshot"]));
            }
        }
    }
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&env, &args);
        assert!(!out.stderr.contains("panicked"), "{args:?}: {}", out.stderr);
        for marker in markers(&marker) {
            assert!(!marker.exists(), "{args:?} created {}", marker.display());
        }
    }
    // Completion reads the same files.
    for words in [
        ["--agent", "claude", "expand", "/"],
        ["--agent", "codex", "expand", "$"],
    ] {
        crate::profile_commands::complete(&env, &words);
    }
    for marker in markers(&marker) {
        assert!(!marker.exists(), "completion created {}", marker.display());
    }
    // The placeholder is what is shown instead.
    let out = trusted_json(&env, &["--agent", "claude", "expand", "/x"]);
    out.assert_code(0);
    let doc = out.json();
    let shell: Vec<&str> = doc["shell"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["command"].as_str().unwrap())
        .collect();
    assert_eq!(shell.len(), 3, "{shell:?}");
    assert!(
        doc["output"]
            .as_str()
            .unwrap()
            .contains("[mecatl-prompt did not run: touch ")
    );
}

#[cfg(unix)]
/// A workspace whose command mentions files outside it, directly and
/// through a link, and whose skill links out of it.
fn hostile() -> TestEnv {
    let env = TestEnv::new();
    std::fs::write(env.root.join("secret.txt"), SECRET).unwrap();
    let outside_skill = env.root.join("outside-skill");
    std::fs::create_dir_all(&outside_skill).unwrap();
    std::fs::write(
        outside_skill.join("SKILL.md"),
        format!("---\ndescription: {SECRET}\n---\n{SECRET}\n"),
    )
    .unwrap();
    symlink(&outside_skill, &env.ws.join(".claude/skills/evil"));
    symlink(env.root.join("secret.txt"), &env.ws.join("link.txt"));
    symlink(
        env.root.join("secret.txt"),
        &env.ws.join(".claude/commands/leak.md"),
    );
    let abs = env.root.join("secret.txt");
    env.write(
        ".claude/commands/read.md",
        format!(
            "Read @../secret.txt and @{} and @link.txt and @~/secret.txt and @\"../secret.txt\".\n",
            abs.display()
        ),
    );
    std::fs::write(env.home.join("secret.txt"), SECRET).unwrap();
    env
}

// Unix only: symbolic links and FIFOs.
#[cfg(unix)]
#[test]
fn mentions_and_skill_links_out_of_the_workspace_are_never_read() {
    let env = hostile();
    for args in [
        vec!["--agent", "claude", "expand", "/read"],
        vec!["--agent", "claude", "expand", "/evil", "x"],
        vec!["--agent", "claude", "expand", "/leak"],
        vec!["--agent", "claude", "commands", "list"],
        vec!["--agent", "claude", "explain", "/evil"],
        vec!["--agent", "claude", "assemble"],
        vec!["--agent", "claude", "snapshot"],
    ] {
        for format in ["text", "json"] {
            let mut all = vec!["--trust-project", "-v", "--format", format];
            all.extend(&args);
            let out = run(&env, &all);
            assert!(
                !out.stdout.contains(SECRET) && !out.stderr.contains(SECRET),
                "{all:?} showed the secret:\n{}\n{}",
                out.stdout,
                out.stderr
            );
        }
    }
    let out = trusted_json(&env, &["--agent", "claude", "expand", "/read"]);
    out.assert_code(0);
    let attachments: Vec<(String, serde_json::Value, String)> = out.json()["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["path"].as_str().unwrap().to_string(),
                a["bytes"].clone(),
                a["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(attachments.len(), 4, "{attachments:?}");
    for (path, bytes, status) in &attachments {
        assert!(bytes.is_null(), "{path}: size of a file never read");
        assert!(
            status.starts_with("outside") || status.starts_with("not read: refused symlink"),
            "{path}: {status}"
        );
    }
    let list = trusted_json(&env, &["--agent", "claude", "commands", "list"]);
    let names = command_names(&list);
    assert_eq!(names, ["read"]);
    let problems = list.problems().join("\n");
    assert!(
        problems.contains(".claude/skills/evil: refused symlink"),
        "{problems}"
    );
    assert!(
        problems.contains(".claude/commands/leak.md: refused symlink"),
        "{problems}"
    );
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn wide_deep_and_looping_command_trees_stay_bounded() {
    let env = TestEnv::new();
    let commands = env.ws.join(".claude/commands");
    for i in 0..100 {
        for j in 0..100 {
            std::fs::create_dir_all(commands.join(format!("d{i:02}/e{j:02}"))).unwrap();
        }
        std::fs::write(commands.join(format!("d{i:02}/e00/c.md")), "C\n").unwrap();
    }
    let deep: String = (0..40).map(|i| format!("l{i}/")).collect();
    env.write(&format!(".claude/commands/{deep}deep.md"), "Deep\n");
    symlink(".", &commands.join("loop"));
    symlink("..", &env.ws.join(".claude/skills/loop"));
    symlink("loop2", &env.ws.join(".claude/skills/loop1"));
    symlink("loop1", &env.ws.join(".claude/skills/loop2"));
    let out = trusted_json(&env, &["--agent", "claude", "commands", "list"]);
    out.assert_code(0);
    let listed = out.json()["commands"].as_array().unwrap().len();
    assert_eq!(listed, 100, "one command per d*/e00, the deep one cut");
    let problems = out.problems().join("\n");
    assert!(problems.contains("deeper than 32 levels"), "{problems}");
    assert!(problems.contains(".claude/skills/loop1"), "{problems}");
    let expand = trusted_json(&env, &["--agent", "claude", "expand", "/d07:e00:c"]);
    expand.assert_code(0);
    assert_eq!(expand.json()["output"], "C\n");
}

// Unix only: a FIFO.
#[cfg(unix)]
#[test]
fn broken_skills_are_diagnosed_without_a_hang() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".claude/skills/empty")).unwrap();
    env.write(".claude/skills/empty/notes.md", "not a skill");
    mkfifo(&env.ws.join(".claude/skills/fifo/SKILL.md"));
    sparse(
        &env.ws.join(".claude/skills/huge/SKILL.md"),
        b"---\ndescription: Huge skill\n---\nHuge $ARGUMENTS\n",
        2 << 30,
    );
    env.write(
        ".claude/skills/fine/SKILL.md",
        "---\ndescription: Fine\n---\nFine\n",
    );
    for args in [
        vec!["--agent", "claude", "commands", "list"],
        vec!["--agent", "claude", "assemble"],
        vec!["--agent", "claude", "expand", "/fifo"],
        vec!["--agent", "claude", "explain", "/huge"],
    ] {
        trusted_json(&env, &args).assert_code(0);
    }
    let out = trusted_json(&env, &["--agent", "claude", "commands", "list"]);
    let names = command_names(&out);
    assert_eq!(names, ["fine", "huge"]);
    let problems = out.problems();
    assert_eq!(
        problems,
        [
            "warning .claude/skills/empty: no SKILL.md in this skill directory; skipped",
            "warning .claude/skills/fifo/SKILL.md: not a regular file (FIFO); skipped without being opened",
            "warning .claude/skills/huge/SKILL.md: file is 2147483648 bytes; only the first 1048576 bytes are used",
        ]
    );
    let huge = trusted_json(&env, &["--agent", "claude", "expand", "/huge", "go"]);
    huge.assert_code(0);
    let output = huge.json()["output"].as_str().unwrap().to_string();
    assert!(output.starts_with("Base directory for this skill: "));
    assert!(output.len() < 2 << 20, "bounded: {} bytes", output.len());
}
