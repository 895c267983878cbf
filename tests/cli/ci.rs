//! The CI integration of SPEC §15.5 and §20.4: `action.yml` and
//! `.pre-commit-hooks.yaml` parse (with the crate's own YAML reader), and
//! the commands they run work — the action's lint step and the hooks' entry
//! run against `tests/fixtures/lint` with the built binary where the
//! action's install step and pre-commit would put it. The install step
//! itself needs a release archive: `scripts/action-test.sh` runs it in CI.

#[cfg(unix)]
use std::path::Path;
#[cfg(unix)]
use std::process::Output;

#[cfg(unix)]
use mecatl_prompt::prompt::yaml::parse_yaml;
#[cfg(unix)]
use serde_json::Value;

#[cfg(unix)]
use crate::lint::lint_env;
#[cfg(unix)]
use crate::support::{TestEnv, code, repo_file, stderr, stdout};

#[cfg(unix)]
fn parse(name: &str) -> Value {
    let text = std::fs::read_to_string(repo_file(name)).expect("read the file");
    parse_yaml::<Value>(&text)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .unwrap_or_else(|| panic!("{name} is empty"))
}

#[cfg(unix)]
const BIN: &str = env!("CARGO_BIN_EXE_mecatl-prompt");

#[cfg(unix)]
/// The action's steps, by name.
fn step<'a>(action: &'a Value, name: &str) -> &'a Value {
    action["runs"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no step {name:?}"))
}

#[cfg(unix)]
/// Runs the action's lint step as GitHub runs a `shell: bash` step, in the
/// workspace of `env`, with the binary installed under `runner_temp` and
/// this repository as the action's checkout.
fn run_lint_step(env: &TestEnv, runner_temp: &Path, agents: &str, args: &str) -> Output {
    let action = parse("action.yml");
    let script = step(&action, "Lint")["run"].as_str().expect("a run script");
    let file = runner_temp.join("lint-step.sh");
    std::fs::write(&file, script).expect("write the step");
    env.program("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail"])
        .arg(&file)
        .env("RUNNER_TEMP", runner_temp)
        .env("GITHUB_ACTION_PATH", env!("CARGO_MANIFEST_DIR"))
        .env("MECATL_LINT_AGENTS", agents)
        .env("MECATL_LINT_ARGS", args)
        .output()
        .expect("run bash")
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn the_action_installs_at_its_ref_and_its_lint_step_runs() {
    let action = parse("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    for input in ["agents", "args", "working-directory", "version"] {
        assert!(
            action["inputs"][input]["description"].is_string(),
            "{input}"
        );
    }
    let install = step(&action, "Install mecatl-prompt");
    assert_eq!(
        install["run"],
        "bash \"$GITHUB_ACTION_PATH/scripts/action-install.sh\""
    );
    assert_eq!(
        install["env"]["MECATL_PROMPT_VERSION"],
        "${{ inputs.version }}"
    );
    assert!(repo_file("scripts/action-install.sh").is_file());
    // Without a release archive the step runs `cargo install --locked
    // --path`: `--locked` holds (the lock file needs no change), and the
    // package installs the binary the lint step runs. Only this platform's
    // packages are asked for: other platforms' may not be downloaded, and
    // the test must not need the network.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let host = host_triple();
    let metadata = std::process::Command::new(cargo)
        .args(["metadata", "--locked", "--offline", "--format-version", "1"])
        .args(["--filter-platform", &host])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        metadata.status.success(),
        "{}",
        String::from_utf8_lossy(&metadata.stderr)
    );
    let metadata: Value = serde_json::from_slice(&metadata.stdout).expect("metadata JSON");
    let bins: Vec<&Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| p["name"] == "mecatl-prompt")
        .flat_map(|p| p["targets"].as_array().expect("targets"))
        .filter(|t| t["kind"] == serde_json::json!(["bin"]))
        .map(|t| &t["name"])
        .collect();
    assert_eq!(bins, [&Value::from("mecatl-prompt")]);

    let env = lint_env();
    let runner_temp = tempfile::tempdir().expect("RUNNER_TEMP");
    let bin_dir = runner_temp.path().join("mecatl-prompt/bin");
    std::fs::create_dir_all(&bin_dir).expect("bin dir");
    std::os::unix::fs::symlink(BIN, bin_dir.join("mecatl-prompt")).expect("install");

    let direct = env.run(&["--format", "github", "lint"]);
    let all = run_lint_step(&env, runner_temp.path(), "", "");
    assert_eq!(code(&all), Some(1), "{}", stderr(&all));
    assert_eq!(stdout(&all), stdout(&direct));
    assert!(stdout(&all).starts_with("::warning file="));

    let codex = run_lint_step(&env, runner_temp.path(), "codex", "");
    assert_eq!(code(&codex), Some(0), "{}", stderr(&codex));
    let denied = run_lint_step(&env, runner_temp.path(), "codex", "--deny warnings");
    assert_eq!(code(&denied), Some(1), "{}", stderr(&denied));

    // Inputs are data: a command substitution in them is never run.
    let hostile = run_lint_step(&env, runner_temp.path(), "", "$(touch pwned) `touch pwned`");
    assert_eq!(code(&hostile), Some(2), "{}", stderr(&hostile));
    assert!(!env.ws.join("pwned").exists());
}

// Unix only: a symbolic link.
#[cfg(unix)]
#[test]
fn the_pre_commit_hook_runs_lint_over_the_workspace() {
    let hooks = parse(".pre-commit-hooks.yaml");
    let hooks = hooks.as_array().expect("a list of hooks");
    // Built from source, or the binary already on PATH; the same check.
    let ids: Vec<(&Value, &Value)> = hooks.iter().map(|h| (&h["id"], &h["language"])).collect();
    assert_eq!(
        ids,
        [
            (&"mecatl-prompt-lint".into(), &"rust".into()),
            (&"mecatl-prompt-lint-system".into(), &"system".into())
        ]
    );
    for hook in hooks {
        assert_eq!(hook["entry"], hooks[0]["entry"]);
        assert_eq!(hook["pass_filenames"], false);
        assert_eq!(hook["files"], "\\.md$");
    }
    let entry = shell_words::split(hooks[0]["entry"].as_str().expect("entry")).expect("words");
    assert_eq!(entry[0], "mecatl-prompt", "the binary pre-commit installs");

    let env = lint_env();
    // pre-commit puts the binary it built first on PATH; the system hook
    // finds the one the user installed there.
    let bin_dir = tempfile::tempdir().expect("bin dir");
    std::os::unix::fs::symlink(BIN, bin_dir.path().join("mecatl-prompt")).expect("install");
    let path = format!(
        "{}:{}",
        bin_dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = env
        .program(&entry[0])
        .args(&entry[1..])
        .env("PATH", path)
        .output()
        .expect("run the hook");
    assert_eq!(code(&output), Some(1), "{}", stderr(&output));
    assert_eq!(stdout(&output), stdout(&env.run(&["lint"])));
    // Every file lint reports on is one the hook's `files` pattern matches.
    let report = stdout(&output);
    let lines: Vec<&str> = report.lines().collect();
    for line in &lines[..lines.len() - 1] {
        let path = line.split(':').next().expect("a path");
        assert!(path.ends_with(".md"), "{line}");
    }
}

#[cfg(unix)]
/// The host's target triple, as the compiler that built these tests names it.
fn host_triple() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = std::process::Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("run rustc -vV");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_owned()
}
