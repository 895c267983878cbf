//! What the tests of one agent's profile on the binary share: a git
//! workspace, a run of the binary under that agent in JSON, the
//! `not_loaded` entries trust withholds, and the default agents of
//! `compare` and `lint`.

use crate::hardening::{Outcome, run};
use crate::support::TestEnv;

/// An empty git workspace.
pub(crate) fn git_env() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    env
}

/// The binary under `agent` in JSON with `args`, trusting the workspace
/// when `trust`.
pub(crate) fn agent_run(env: &TestEnv, agent: &str, trust: bool, args: &[&str]) -> Outcome {
    let mut all = vec!["--agent", agent, "--format", "json"];
    if trust {
        all.insert(0, "--trust-project");
    }
    all.extend_from_slice(args);
    run(env, &all)
}

/// `assemble` under `agent` in JSON in the trusted workspace, with the
/// variable `name` set to `value` in the binary's environment.
pub(crate) fn assemble_with_var(
    env: &TestEnv,
    agent: &str,
    name: &str,
    value: impl AsRef<std::ffi::OsStr>,
) -> Outcome {
    let mut cmd = env.cmd();
    cmd.env(name, value).args([
        "--trust-project",
        "--agent",
        agent,
        "--format",
        "json",
        "assemble",
    ]);
    crate::hardening::finish(env, &mut cmd)
}

/// The paths of `doc`'s `not_loaded` entries withheld because the
/// workspace is not trusted.
pub(crate) fn withheld(doc: &serde_json::Value) -> Vec<&str> {
    doc["not_loaded"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["reason"] == "withheld: untrusted")
        .map(|n| n["path"].as_str().unwrap())
        .collect()
}

/// The agents of `compare --format json` and `lint --format json` with
/// their default selection.
fn default_agents(env: &TestEnv, at: &str) -> (serde_json::Value, serde_json::Value) {
    let args = |cmd: &'static str| vec!["--trust-project", "--at", at, "--format", "json", cmd];
    let compare = run(env, &args("compare")).assert_code(0).json();
    let lint = run(env, &args("lint")).json();
    (compare["agents"].clone(), lint["agents"].clone())
}

/// Checks that `agent` joins the default agents only where its files are:
/// not at the root of a workspace holding `shared`, at `sub` once
/// `in_sub` is written, and at the root once `at_root` is. Returns the
/// workspace.
pub(crate) fn joins_the_default_agents_only_where_its_files_are(
    agent: &str,
    shared: &[(&str, &str)],
    in_sub: (&str, &str),
    at_root: (&str, &str),
) -> TestEnv {
    let three = serde_json::json!(["mecatl", "claude", "codex"]);
    let four = serde_json::json!(["mecatl", "claude", "codex", agent]);
    let env = TestEnv::new();
    for (rel, text) in shared {
        env.write(rel, text);
    }
    env.write(in_sub.0, in_sub.1);
    assert_eq!(default_agents(&env, "."), (three.clone(), three.clone()));
    assert_eq!(default_agents(&env, "sub"), (four.clone(), four.clone()));
    env.write(at_root.0, at_root.1);
    assert_eq!(default_agents(&env, "."), (four.clone(), four));
    env
}
