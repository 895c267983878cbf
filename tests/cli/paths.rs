//! `-C` (SPEC §3.5): it resolves against the process cwd, and every other
//! relative path option resolves against it, like `git -C`.

use crate::support::{TestEnv, code, json, stderr, stdout};

/// Runs the binary from the temp root (the parent of the workspace) with
/// `-C ws` and `args`.
fn from_root(env: &TestEnv, args: &[&str]) -> std::process::Output {
    env.cmd()
        .current_dir(&env.root)
        .args(["-C", "ws"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn memory_and_user_model_dirs_resolve_against_c() {
    let env = TestEnv::new();
    env.write(
        "mem/memory.json",
        r#"{"entries": {"project/port": {"value": "5432", "description": "DB port"}}}"#,
    );
    env.write(
        "um/memory.json",
        r#"{"entries": {"user/name": {"value": "Ada", "updated_at": "2025-01-01T00:00:00Z"}}}"#,
    );
    let output = from_root(&env, &["assemble", "--memory-dir", "mem"]);
    assert_eq!(code(&output), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("\n{\"key\":\"project/port\",\"description\":\"DB port\"}\n"),
        "{}",
        stdout(&output)
    );
    let output = from_root(
        &env,
        &[
            "build",
            "--part",
            "suffix",
            "--user-model-dir",
            "um",
            "--no-git-status",
        ],
    );
    assert!(
        stdout(&output).contains(
            "\n<operator-profile-data encoding=\"jsonl\">\n\
             {\"key\":\"user/name\",\"value\":\"Ada\",\"updated_at\":\"2025-01-01T00:00:00Z\"}\n\
             </operator-profile-data>\n"
        ),
        "{}",
        stdout(&output)
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn commands_dirs_resolve_against_c_for_listing() {
    let env = TestEnv::new();
    env.write("ops/deploy.md", "Deploy $1.");
    let output = from_root(
        &env,
        &[
            "--format",
            "json",
            "commands",
            "list",
            "--commands-dir",
            "ops",
        ],
    );
    assert_eq!(code(&output), Some(0), "{}", stderr(&output));
    let doc = json(&output);
    assert_eq!(doc["commands"][0]["name"], "deploy");
    assert_eq!(doc["commands"][0]["scope"], "operator");
    assert_eq!(doc["commands"][0]["fate"], "winner");
    assert_eq!(
        env.redact(doc["commands"][0]["source"].as_str().unwrap()),
        "[ROOT]/ws/ops/deploy.md"
    );
    assert_eq!(
        stderr(&output),
        "",
        "operator directories are never withheld"
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn for_paths_are_normalised_relative_to_c_and_must_stay_inside() {
    let env = TestEnv::new();
    env.write(
        ".mecatl/rules/ts.md",
        "---\npaths: \"src/**/*.ts\"\n---\nTyped.\n",
    );
    let ws = env.ws.display().to_string();
    let inside = format!("{ws}/src/abs.ts");
    for path in ["src/a.ts", "./src//a.ts", "../ws/src/a.ts", inside.as_str()] {
        let output = from_root(
            &env,
            &[
                "--trust-project",
                "--format",
                "json",
                "rules",
                "list",
                "--for",
                path,
            ],
        );
        assert_eq!(code(&output), Some(0), "{path}: {}", stderr(&output));
        let matches = &json(&output)["rules"][0]["matches"];
        let expected = if path == inside {
            "src/abs.ts"
        } else {
            "src/a.ts"
        };
        assert_eq!(
            matches,
            &serde_json::json!([{"path": expected, "pattern": "src/**/*.ts"}]),
            "{path}"
        );
    }
    for path in ["../outside.ts", "/etc/passwd", ".."] {
        let output = from_root(&env, &["rules", "list", "--for", path]);
        assert_eq!(code(&output), Some(2), "{path}");
        assert!(output.stdout.is_empty());
        assert_eq!(
            env.redact(&stderr(&output)),
            format!(
                "mecatl-prompt: error: --for {path}: path is outside the workspace [ROOT]/ws\n"
            )
        );
    }
}

#[test]
fn for_keeps_only_the_rules_that_apply() {
    let env = TestEnv::new();
    env.write(
        ".mecatl/rules/ts.md",
        "---\npaths: src/**/*.ts\n---\nTyped.\n",
    );
    env.write(".mecatl/rules/always.md", "Always.\n");
    let output = env.run(&["--trust-project", "rules", "list", "--for", "docs/a.md"]);
    assert_eq!(
        stdout(&output),
        "NAME    ORIGIN   APPLIES-WHEN  BYTES  SOURCE\n\
         always  project  (always)      7      .mecatl/rules/always.md\n\
         note: the engine injects every rule and lets the model apply its condition; --for \
         previews what path-scoped activation would load\n"
    );
}

#[test]
fn the_workspace_itself_resolves_against_the_process_cwd() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "Hello.");
    let output = env
        .cmd()
        .current_dir(env.home.as_path())
        .args(["-C", "../ws/.", "assemble"])
        .output()
        .unwrap();
    assert_eq!(
        stdout(&output),
        "── message 1 · user · project ──\nProject instructions (AGENTS.md):\n\nHello.\n"
    );
}
