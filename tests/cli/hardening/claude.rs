//! The Claude Code profile on hostile workspaces (SPEC §14.3, §15.8): import
//! cycles and chains, a fan-out the guard stops, imports reaching outside
//! the workspace (never read, trusted or not, approved or not), a file over
//! 4 MiB, a rules tree too deep and one with a link loop, and an untrusted
//! workspace whose project files are never opened.

use serde_json::Value;

use super::{Outcome, run};
#[cfg(unix)]
use super::{mkfifo, symlink};
use crate::support::TestEnv;
#[cfg(unix)]
use crate::support::{STRACE_OPENS, opened_path, write_file};

/// `assemble --agent claude --format json` with trust as given.
fn assemble(env: &TestEnv, trusted: bool, extra: &[&str]) -> Outcome {
    let trust = if trusted {
        "--trust-project"
    } else {
        "--no-trust-project"
    };
    let mut args = vec![trust, "--agent", "claude", "--format", "json", "assemble"];
    args.extend_from_slice(extra);
    run(env, &args)
}

/// The `(path, content)` of every instruction part.
fn parts(out: &Outcome) -> Vec<(String, String)> {
    let doc = out.json();
    doc["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["provenance"] == "instructions")
        .flat_map(|m| m["parts"].as_array().cloned().unwrap_or_default())
        .map(|p| (text(&p["path"]), text(&p["content"])))
        .collect()
}

fn paths(out: &Outcome) -> Vec<String> {
    parts(out).into_iter().map(|(path, _)| path).collect()
}

/// `path: reason` of every file not loaded.
fn not_loaded(out: &Outcome) -> Vec<String> {
    out.json()["not_loaded"]
        .as_array()
        .expect("not_loaded")
        .iter()
        .map(|n| format!("{}: {}", text(&n["path"]), text(&n["reason"])))
        .collect()
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

#[test]
fn an_import_cycle_loads_each_file_once() {
    let env = TestEnv::new();
    env.write("CLAUDE.md", "Root @a.md");
    env.write("a.md", "A @b.md");
    env.write("b.md", "B @a.md @CLAUDE.md");
    let out = assemble(&env, true, &[]);
    out.assert_code(0);
    assert_eq!(paths(&out), ["CLAUDE.md", "a.md", "b.md"]);
    assert_eq!(
        not_loaded(&out),
        ["a.md: already loaded", "CLAUDE.md: already loaded"]
    );
}

#[test]
fn a_nine_deep_chain_stops_after_depth_four() {
    let env = TestEnv::new();
    env.write("CLAUDE.md", "@d1.md");
    for depth in 1..=9 {
        env.write(
            &format!("d{depth}.md"),
            format!("D{depth} @d{}.md", depth + 1),
        );
    }
    let out = assemble(&env, true, &[]);
    out.assert_code(0);
    assert_eq!(
        paths(&out),
        ["CLAUDE.md", "d1.md", "d2.md", "d3.md", "d4.md"]
    );
    assert_eq!(not_loaded(&out), ["d5.md: import too deep"]);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "its time bound is Linux's: under Wine the fan-out takes about 14 s"
)]
fn a_fan_out_of_a_hundred_imports_four_deep_is_bounded_with_one_warning() {
    let env = TestEnv::new();
    let level = |prefix: &str, count: usize| -> String {
        (0..count).map(|i| format!("@{prefix}{i}.md\n\n")).collect()
    };
    env.write("CLAUDE.md", level("a", 100));
    for a in 0..100 {
        env.write(&format!("a{a}.md"), level(&format!("b{a}_"), 100));
        for b in 0..100 {
            // Level c and d are named but left missing: trying them is work too.
            env.write(&format!("b{a}_{b}.md"), level(&format!("c{a}_{b}_"), 100));
        }
    }
    let started = std::time::Instant::now();
    let out = assemble(&env, true, &[]);
    out.assert_code(0);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let capped = not_loaded(&out)
        .iter()
        .filter(|n| n.ends_with("past the import guard"))
        .count();
    assert!(capped > 0, "the guard stopped the fan-out");
    assert!(paths(&out).len() <= 1 + 1_000, "{}", paths(&out).len());
    let guard: Vec<String> = out
        .problems()
        .into_iter()
        .filter(|p| p.contains("import guard"))
        .collect();
    assert_eq!(guard.len(), 1, "{guard:?}");
}

#[cfg(unix)]
/// A project CLAUDE.md importing `~/secret`, `/etc/hostname`,
/// `../outside.md` and a link out of the workspace.
fn leaky() -> (TestEnv, Vec<String>) {
    let env = TestEnv::new();
    write_file(&env.home.join("secret"), "HOME-SECRET-71c2");
    write_file(&env.root.join("outside.md"), "OUTSIDE-SECRET-4d9e");
    write_file(&env.root.join("linked.md"), "LINKED-SECRET-a03b");
    symlink(env.root.join("linked.md"), &env.ws.join("link.md"));
    env.write(
        "CLAUDE.md",
        "Project.\n\n@~/secret\n@/etc/hostname\n@../outside.md\n@link.md\n",
    );
    let mut secrets: Vec<String> = [
        "HOME-SECRET-71c2",
        "OUTSIDE-SECRET-4d9e",
        "LINKED-SECRET-a03b",
    ]
    .map(String::from)
    .to_vec();
    if let Ok(hostname) = std::fs::read_to_string("/etc/hostname") {
        let hostname = hostname.trim();
        // Too short a name could appear in the output by chance.
        if hostname.len() >= 8 {
            secrets.push(hostname.to_string());
        }
    }
    (env, secrets)
}

// Unix only: symbolic links.
#[cfg(unix)]
#[test]
fn imports_out_of_the_workspace_are_never_read_trusted_or_not_approved_or_not() {
    let (env, secrets) = leaky();
    for approved in [false, true] {
        if approved {
            let key = env.ws.display().to_string();
            write_file(
                &env.home.join(".claude.json"),
                serde_json::json!({"projects": {key: {"hasClaudeMdExternalIncludesApproved": true}}})
                    .to_string(),
            );
        }
        for trusted in [true, false] {
            let out = assemble(&env, trusted, &[]);
            out.assert_code(0);
            for secret in &secrets {
                assert!(
                    !out.stdout.contains(secret) && !out.stderr.contains(secret),
                    "{secret} leaked (trusted {trusted}, approved {approved})"
                );
            }
            let trust = if trusted {
                "--trust-project"
            } else {
                "--no-trust-project"
            };
            let text = run(&env, &[trust, "--agent", "claude", "-v", "assemble"]);
            text.assert_code(0);
            for secret in &secrets {
                assert!(
                    !text.stdout.contains(secret) && !text.stderr.contains(secret),
                    "{secret} leaked in text mode"
                );
            }
            if trusted {
                assert_eq!(
                    not_loaded(&out),
                    [
                        "[ROOT]/home/secret: external: not read",
                        "/etc/hostname: external: not read",
                        "[ROOT]/outside.md: external: not read",
                        "link.md: external: not read",
                    ]
                );
                assert_eq!(
                    out.problems()
                        .iter()
                        .filter(|p| p.starts_with("warning") && p.contains("external"))
                        .count(),
                    4
                );
            }
        }
    }
}

#[test]
fn a_five_mib_claude_md_is_skipped_with_a_warning() {
    let env = TestEnv::new();
    super::sparse(&env.ws.join("CLAUDE.md"), b"Big.", 5 << 20);
    env.write("AGENTS.md", "Fallback.");
    let out = assemble(&env, true, &[]);
    out.assert_code(0);
    assert_eq!(paths(&out), ["AGENTS.md"]);
    assert_eq!(
        out.problems(),
        [format!(
            "warning CLAUDE.md: not loaded (too large ({} bytes)): larger than 4194304 bytes; \
             Claude Code skips it too",
            5 << 20
        )]
    );
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn a_rules_tree_forty_deep_and_a_link_loop_stay_bounded() {
    let env = TestEnv::new();
    let deep: String = (0..40).map(|i| format!("d{i}/")).collect();
    env.write(&format!(".claude/rules/{deep}deep.md"), "Deep.");
    env.write(".claude/rules/top.md", "Top.");
    symlink(".", &env.ws.join(".claude/rules/loop"));
    symlink("..", &env.ws.join(".claude/rules/a/up"));
    let out = assemble(&env, true, &[]);
    out.assert_code(0);
    assert_eq!(paths(&out), [".claude/rules/top.md"]);
    assert!(
        out.problems()
            .iter()
            .any(|p| p.starts_with("warning .claude/rules:") && p.contains("not read")),
        "{:?}",
        out.problems()
    );
}

// Unix only: a FIFO.
#[cfg(unix)]
#[test]
fn untrusted_project_and_local_files_are_never_opened() {
    let env = TestEnv::new();
    env.write("CLAUDE.md", "Project.");
    env.write(".claude/CLAUDE.md", "Dot.");
    env.write(".claude/rules/r.md", "Rule.");
    env.write("sub/CLAUDE.md", "Sub.");
    // A FIFO would block an open that does not check first.
    mkfifo(&env.ws.join("CLAUDE.local.md"));
    mkfifo(&env.ws.join("sub/CLAUDE.local.md"));
    write_file(&env.home.join(".claude/CLAUDE.md"), "User.");
    let out = assemble(&env, false, &["--at", "sub", "--touch", "sub/x.rs"]);
    out.assert_code(0);
    assert_eq!(paths(&out), ["[ROOT]/home/.claude/CLAUDE.md"]);
    assert_eq!(
        not_loaded(&out),
        [
            "CLAUDE.md: withheld: untrusted",
            ".claude/CLAUDE.md: withheld: untrusted",
            ".claude/rules/r.md: withheld: untrusted",
            "CLAUDE.local.md: withheld: untrusted",
            "sub/CLAUDE.md: withheld: untrusted",
            "sub/CLAUDE.local.md: withheld: untrusted",
        ]
    );
    let strace = std::process::Command::new("strace").arg("-V").output();
    if !strace.is_ok_and(|o| o.status.success()) {
        eprintln!("note: strace is not installed; the open check is skipped");
        return;
    }
    let log = env.root.join("strace.log");
    let mut cmd = env.program("strace");
    cmd.args(["-f", "-y", "-e", STRACE_OPENS, "-o"])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_mecatl-prompt"))
        .args([
            "--no-trust-project",
            "--agent",
            "claude",
            "assemble",
            "--at",
            "sub",
        ]);
    let output = cmd.output().expect("strace");
    assert!(output.status.success(), "{output:?}");
    let opened = std::fs::read_to_string(&log).expect("strace log");
    let ws = env.ws.display().to_string();
    let project_opens: Vec<String> = opened
        .lines()
        .filter_map(opened_path)
        .filter(|(path, failed)| path.starts_with(&ws) && path.ends_with(".md") && !failed)
        .map(|(path, _)| path)
        .collect();
    assert_eq!(project_opens, Vec::<String>::new());
    // The trace was read: the run opened files (its libraries, at least).
    assert!(opened.lines().filter_map(opened_path).count() > 0);
}
