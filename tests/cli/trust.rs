//! Trust (SPEC §3.4): the flags (last one wins), `MECATL_TRUST_PROJECT`,
//! `trustedWorkspaces` in settings.yaml, and what an untrusted workspace
//! withholds.

use crate::golden::WITHHELD_NOTICE;
use crate::support::{TestEnv, code, json, stderr, stdout};

/// `trust` of a JSON `rules list` run with `args` before the subcommand
/// and `var` set, plus the redacted stderr.
fn trust_of(env: &TestEnv, args: &[&str], var: Option<&str>) -> (serde_json::Value, String) {
    let mut cmd = env.cmd();
    if let Some(value) = var {
        cmd.env("MECATL_TRUST_PROJECT", value);
    }
    let output = cmd
        .args(args)
        .args(["--format", "json", "-v", "rules", "list"])
        .output()
        .unwrap();
    assert_eq!(code(&output), Some(0), "{}", stderr(&output));
    (json(&output)["trust"].clone(), env.redact(&stderr(&output)))
}

fn trust(trusted: bool, source: &str) -> serde_json::Value {
    serde_json::json!({"trusted": trusted, "source": source})
}

#[test]
fn the_last_trust_flag_wins_and_beats_the_environment() {
    let env = TestEnv::new();
    let cases: [(&[&str], Option<&str>, serde_json::Value); 5] = [
        (&["--trust-project"], None, trust(true, "flag")),
        (&["--no-trust-project"], Some("1"), trust(false, "flag")),
        (
            &["--trust-project", "--no-trust-project"],
            None,
            trust(false, "flag"),
        ),
        (
            &["--no-trust-project", "--trust-project"],
            Some("0"),
            trust(true, "flag"),
        ),
        (&[], None, trust(false, "default")),
    ];
    for (args, var, expected) in cases {
        assert_eq!(trust_of(&env, args, var).0, expected, "{args:?} {var:?}");
    }
}

#[test]
fn a_trust_flag_after_the_subcommand_still_counts_and_the_last_one_wins() {
    let env = TestEnv::new();
    let output = env.run(&[
        "--trust-project",
        "rules",
        "list",
        "--format",
        "json",
        "--no-trust-project",
    ]);
    assert_eq!(json(&output)["trust"], trust(false, "flag"));
}

#[test]
fn the_environment_variable_trusts_with_1_distrusts_with_0_and_ignores_others() {
    let env = TestEnv::new();
    let (t, err) = trust_of(&env, &[], Some("1"));
    assert_eq!(t, trust(true, "env"));
    assert_eq!(
        err,
        "mecatl-prompt: info: workspace is trusted because MECATL_TRUST_PROJECT=1\n"
    );
    let (t, err) = trust_of(&env, &[], Some("0"));
    assert_eq!(t, trust(false, "env"));
    assert_eq!(
        err,
        "mecatl-prompt: info: workspace is untrusted because MECATL_TRUST_PROJECT=0\n"
    );
    for other in ["yes", "true", "", " 1"] {
        let (t, err) = trust_of(&env, &[], Some(other));
        assert_eq!(t, trust(false, "default"), "{other:?}");
        assert_eq!(
            err, "mecatl-prompt: warning: MECATL_TRUST_PROJECT is neither 1 nor 0; ignored\n",
            "{other:?}"
        );
    }
}

#[test]
fn the_info_line_about_env_trust_needs_verbose() {
    let env = TestEnv::new();
    let output = env
        .cmd()
        .env("MECATL_TRUST_PROJECT", "1")
        .args(["rules", "list"])
        .output()
        .unwrap();
    assert_eq!(stderr(&output), "");
}

// Unix only: a symbolic link to the workspace.
#[cfg(unix)]
#[test]
fn settings_trust_an_exact_canonical_match_only() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.ws.join("sub")).unwrap();
    std::os::unix::fs::symlink(&env.ws, env.root.join("link")).unwrap();
    env.write_config(
        "mecatl/settings.yaml",
        format!(
            "trustedWorkspaces:\n  - {}\n",
            env.root.join("link").display()
        ),
    );
    assert_eq!(trust_of(&env, &[], None).0, trust(true, "settings"));
    assert_eq!(
        trust_of(&env, &["-C", "sub"], None).0,
        trust(false, "default"),
        "a subdirectory of a trusted workspace is not trusted"
    );
    assert_eq!(
        trust_of(&env, &[], Some("0")).0,
        trust(false, "env"),
        "the environment beats settings"
    );
    assert_eq!(
        trust_of(&env, &["--no-trust-project"], None).0,
        trust(false, "flag"),
        "a flag beats settings"
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn settings_expand_tilde_and_skip_relative_and_missing_entries_with_warnings() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.home.join("proj")).unwrap();
    env.write_config(
        "mecatl/settings.yaml",
        "trustedWorkspaces:\n  - proj\n  - ~/gone\n  - ~/proj\n",
    );
    let (t, err) = trust_of(&env, &["-C", "../home/proj"], None);
    assert_eq!(t, trust(true, "settings"));
    assert_eq!(
        err,
        "mecatl-prompt: warning: [ROOT]/config/mecatl/settings.yaml: trustedWorkspaces entry \
         \"proj\" is not an absolute path; skipped\n\
         mecatl-prompt: warning: [ROOT]/config/mecatl/settings.yaml: trustedWorkspaces entry \
         \"~/gone\" cannot be resolved (No such file or directory (os error 2)); skipped\n"
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn malformed_settings_are_ignored_with_a_warning() {
    let env = TestEnv::new();
    env.write_config("mecatl/settings.yaml", "trustedWorkspaces: [unclosed\n");
    let (t, err) = trust_of(&env, &[], None);
    assert_eq!(t, trust(false, "default"));
    assert!(
        err.starts_with(
            "mecatl-prompt: warning: [ROOT]/config/mecatl/settings.yaml: settings ignored: \
             malformed YAML at line 1"
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn untrusted_workspaces_withhold_project_rules_from_assemble_but_list_them() {
    let env = TestEnv::demo();
    let output = env.run(&["assemble"]);
    assert_eq!(code(&output), Some(0));
    assert!(!stdout(&output).contains("<rule"));
    assert_eq!(env.redact(&stderr(&output)), WITHHELD_NOTICE);
    let output = env.run(&["rules", "list"]);
    let withheld = stdout(&output)
        .lines()
        .filter(|line| line.ends_with("  (withheld)"))
        .count();
    assert_eq!(withheld, 3, "{}", stdout(&output));
    assert_eq!(env.redact(&stderr(&output)), WITHHELD_NOTICE);
}

#[test]
fn trust_from_the_environment_injects_project_rules() {
    let env = TestEnv::demo();
    let output = env
        .cmd()
        .env("MECATL_TRUST_PROJECT", "1")
        .args(["--format", "json", "assemble"])
        .output()
        .unwrap();
    let doc = json(&output);
    assert_eq!(doc["trust"], trust(true, "env"));
    assert_eq!(doc["messages"][1]["provenance"], "rules");
    assert_eq!(stderr(&output), "");
}
