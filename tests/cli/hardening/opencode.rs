//! opencode's commands and skills on hostile workspaces (SPEC §18.5):
//! 10,000 skill directories, a deep command tree, a FIFO named SKILL.md, a
//! `command` entry whose template is no string, a config that does not
//! parse — under `commands list`, `assemble`, `expand` and `lint`, bounded,
//! never a hang.

use crate::hardening::{Outcome, run};
use crate::support::TestEnv;

/// `commands list`, `assemble`, `expand` and `lint` under opencode, each
/// with a clean exit.
fn every_view(env: &TestEnv) -> Vec<Outcome> {
    let mut outs = Vec::new();
    for cmd in [
        &["commands", "list"][..],
        &["assemble"],
        &["expand", "/x a"],
        &["lint", "--agents", "opencode"],
    ] {
        let mut args = vec!["--trust-project", "--agent", "opencode", "--format", "json"];
        args.extend_from_slice(cmd);
        let out = run(env, &args);
        assert!(out.code == 0 || out.code == 1, "{args:?}: {out:?}");
        outs.push(out);
    }
    outs
}

#[test]
fn ten_thousand_skill_directories_are_bounded() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    for i in 0..10_000 {
        env.write(
            &format!(".opencode/skills/s{i}/SKILL.md"),
            format!("---\nname: s{i}\ndescription: d\n---\n"),
        );
    }
    let outs = every_view(&env);
    assert!(
        outs[0]
            .stderr
            .contains("SKILL.md files in all: the rest are not read"),
        "{}",
        outs[0].stderr
    );
}

#[test]
fn a_command_tree_deeper_than_the_walk_takes_is_cut_with_a_warning() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let deep = "d/".repeat(40);
    env.write(&format!(".opencode/command/{deep}x.md"), "deep\n");
    env.write(".opencode/command/x.md", "X $1\n");
    let outs = every_view(&env);
    assert_eq!(outs[2].json()["output"], "X a");
}

#[cfg(unix)]
#[test]
fn a_fifo_named_skill_md_and_broken_configs_never_hang() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    crate::hardening::mkfifo(&env.ws.join(".opencode/skills/f/SKILL.md"));
    crate::hardening::mkfifo(&env.ws.join(".opencode/command/fifo.md"));
    env.write(
        "opencode.json",
        "{\"command\": {\"x\": {\"template\": [1, 2]}, \"y\": {\"template\": \"Y\"}}}\n",
    );
    env.write(
        ".opencode/opencode.jsonc",
        "{\n  // c\n  \"command\": {,\n}\n",
    );
    let outs = every_view(&env);
    let listed = outs[0].json();
    let names: Vec<&str> = listed["commands"]
        .as_array()
        .expect("commands")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["y"]);
    assert!(outs[0].stderr.contains("`template` is not a string"));
    assert!(
        outs[1]
            .stderr
            .contains("opencode.jsonc: does not parse at line 5, column 1"),
        "{}",
        outs[1].stderr
    );
    assert!(outs[3].stdout.contains("MP046"));
}
