//! Permission denied (SPEC §2.5, §3.1, §5.5, §9): only AGENTS.md/CLAUDE.md
//! and an expanded command turn a read fault into exit 2; every other file
//! is dropped or skipped with a diagnostic.
//!
//! Root reads through `chmod 000`, so when these tests run as root (as in
//! CI containers) the binary is run as `nobody` through `setpriv`; when
//! that is not possible either, the cases are skipped with a printed note.

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
#[cfg(unix)]
use std::path::Path;

#[cfg(unix)]
use super::{BUILD, HANG_GUARD, Outcome, finish};
#[cfg(unix)]
use crate::support::TestEnv;

#[cfg(unix)]
const DENIED: &str = "Permission denied (os error 13)";

/// Runs the binary so that file permissions apply to it.
#[cfg(unix)]
struct Unprivileged<'a> {
    env: &'a TestEnv,
}

#[cfg(unix)]
impl Unprivileged<'_> {
    fn run(&self, args: &[&str]) -> Outcome {
        let mut cmd = self
            .env
            .cmd_bound_by_permissions()
            .expect("checked by unprivileged()");
        cmd.args(args).timeout(HANG_GUARD);
        finish(self.env, &mut cmd)
    }
}

#[cfg(unix)]
fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

#[cfg(unix)]
/// The runner for `env` after its files are written, or `None` (with a
/// note on stderr) when permissions cannot be made to bind.
fn unprivileged(env: &TestEnv) -> Option<Unprivileged<'_>> {
    if env.cmd_bound_by_permissions().is_some() {
        Some(Unprivileged { env })
    } else {
        eprintln!(
            "note: permission-denied cases skipped: running as root and `setpriv` cannot run \
             the binary as nobody here"
        );
        None
    }
}

#[cfg(unix)]
/// Workspace files of every kind, each then made unreadable by `deny`.
fn denied_env() -> TestEnv {
    let env = TestEnv::new();
    env.write("AGENTS.md", "Instructions.");
    env.write(".claude/rules/r.md", "Denied rule.");
    env.write(".claude/rules/ok.md", "Readable rule.");
    env.write(".claude/commands/c.md", "Denied $1.");
    env.write(".claude/commands/ok.md", "Fine $1.");
    env.write_config("mecatl/soul.md", "Denied soul.");
    env.write("mem/memory.json", "{\"entries\": {}}");
    env.write("tools.json", "[]");
    env
}

// Unix only: permission bits.
#[cfg(unix)]
#[test]
fn an_unreadable_agents_md_exits_2_with_no_output() {
    let env = denied_env();
    let Some(runner) = unprivileged(&env) else {
        return;
    };
    chmod(&env.ws.join("AGENTS.md"), 0o000);
    for format in ["text", "json"] {
        let out = runner.run(&["--trust-project", "--format", format, "assemble"]);
        out.assert_code(2);
        assert_eq!(out.stdout, "");
        assert_eq!(
            out.stderr,
            format!("mecatl-prompt: error: reading AGENTS.md: {DENIED}\n")
        );
    }
    // Without the instructions, everything else still assembles.
    let out = runner.run(&[
        "--trust-project",
        "--format",
        "json",
        "assemble",
        "--no-instructions",
    ]);
    out.assert_code(0);
    assert_eq!(
        out.messages()
            .iter()
            .map(|(p, _)| p.as_str())
            .collect::<Vec<_>>(),
        ["rules", "soul"]
    );
}

// Unix only: permission bits.
#[cfg(unix)]
#[test]
fn unreadable_rules_commands_soul_memory_and_tools() {
    let env = denied_env();
    let Some(runner) = unprivileged(&env) else {
        return;
    };
    for file in [
        env.ws.join(".claude/rules/r.md"),
        env.ws.join(".claude/commands/c.md"),
        env.config.join("mecatl/soul.md"),
        env.ws.join("mem/memory.json"),
        env.ws.join("tools.json"),
    ] {
        chmod(&file, 0o000);
    }
    let out = runner.run(&[
        "--trust-project",
        "--format",
        "json",
        "assemble",
        "--no-instructions",
        "--memory-dir",
        "mem",
    ]);
    out.assert_code(0);
    assert_eq!(
        out.problems(),
        [
            format!("fatal .claude/rules/r.md: cannot be read: {DENIED}"),
            format!(
                "warning [ROOT]/config/mecatl/soul.md: soul file cannot be read: {DENIED} (the project soul is not used in its place)"
            ),
            format!(
                "warning [ROOT]/ws/mem/memory.json: cannot be read: {DENIED}; no memory entries loaded"
            ),
        ]
    );
    assert!(out.message("rules").contains("Readable rule."));
    runner
        .run(&["--trust-project", "rules", "list", "--check"])
        .assert_code(1);
    let out = runner.run(&["--trust-project", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "/ok  Fine $1.\n");
    assert_eq!(
        out.stderr,
        format!("mecatl-prompt: error: .claude/commands/c.md: cannot be read: {DENIED}\n")
    );
    let out = runner.run(&["--trust-project", "expand", "/c", "x"]);
    out.assert_code(2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!("mecatl-prompt: error: reading .claude/commands/c.md: {DENIED}\n")
    );
    runner
        .run(&["--trust-project", "expand", "/ok", "x"])
        .assert_code(0);
    let mut args = BUILD.to_vec();
    args.extend(["--tools", "tools.json"]);
    let out = runner.run(&args);
    out.assert_code(2);
    assert_eq!(
        out.stderr,
        format!("mecatl-prompt: error: --tools tools.json: {DENIED}\n")
    );
}

// Unix only: permission bits.
#[cfg(unix)]
#[test]
fn unlistable_directories_are_fatal_for_their_tier_only() {
    let env = denied_env();
    env.write(".mecatl/rules/m.md", "Hidden.");
    env.write(".mecatl/commands/m.md", "Hidden.");
    env.write_config(
        "mecatl/settings.yaml",
        format!("trustedWorkspaces:\n  - {}\n", env.ws.display()),
    );
    let Some(runner) = unprivileged(&env) else {
        return;
    };
    for dir in [
        env.ws.join(".mecatl/rules"),
        env.ws.join(".mecatl/commands"),
        env.ws.join("mem"),
    ] {
        chmod(&dir, 0o000);
    }
    chmod(&env.config.join("mecatl/settings.yaml"), 0o000);
    let out = runner.run(&[
        "--format",
        "json",
        "assemble",
        "--no-instructions",
        "--memory-dir",
        "mem",
    ]);
    out.assert_code(0);
    assert_eq!(out.json()["trust"]["source"], "default");
    assert_eq!(
        out.problems(),
        [
            format!("warning [ROOT]/config/mecatl/settings.yaml: settings ignored: {DENIED}"),
            // One warning about the closed directory, none about the files
            // it hides.
            format!(
                "warning [ROOT]/ws/mem: memory directory cannot be searched: {DENIED}; no memory entries loaded"
            ),
            "warning project files were withheld because the workspace is not trusted; trust it \
             with --trust-project, MECATL_TRUST_PROJECT=1 or trustedWorkspaces in \
             [ROOT]/config/mecatl/settings.yaml"
                .to_string(),
        ]
    );
    let out = runner.run(&[
        "--trust-project",
        "--format",
        "json",
        "rules",
        "list",
        "--check",
    ]);
    out.assert_code(1);
    assert_eq!(out.json()["rules"].as_array().map(Vec::len), Some(2));
    // With trust from the flag, settings.yaml is still consulted for
    // `agent:` (SPEC §14.1), so its fault is still reported.
    assert_eq!(
        out.problems(),
        [
            format!("warning [ROOT]/config/mecatl/settings.yaml: settings ignored: {DENIED}"),
            format!("fatal .mecatl/rules: rules directory cannot be listed: {DENIED}"),
        ]
    );
    let out = runner.run(&["--trust-project", "--agent", "mecatl", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(
        out.stderr_lines()[0],
        format!(
            "mecatl-prompt: error: .mecatl/commands: command directory cannot be listed: {DENIED}"
        )
    );
    // The engine cannot tell whether an unsearchable directory holds the
    // name, so expansion reports the fault rather than guess.
    let out = runner.run(&["--trust-project", "--agent", "mecatl", "expand", "/ok"]);
    out.assert_code(2);
    assert_eq!(
        out.stderr,
        format!("mecatl-prompt: error: reading .mecatl/commands/ok.md: {DENIED}\n")
    );
}
