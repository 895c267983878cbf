//! Diagnostics on stderr (SPEC §9): `mecatl-prompt: SEVERITY: PATH:
//! REASON`, fatal and warning by default, info with `-v`, nothing with `-q`;
//! of `-q` and `-v` the last one given wins.

#[cfg(unix)]
use crate::support::make_unreadable;
use crate::support::{TestEnv, code, json, stderr, stdout};

const FATAL: &str = "mecatl-prompt: error: .mecatl/rules/bad.md: malformed YAML frontmatter at \
     line 2, column 8: invalid YAML (a `[…]` or `{…}` collection is not closed properly)\n";
const INFO: &str = "mecatl-prompt: info: .mecatl/rules/top.md: pattern `*.ts` matches only files \
     at the workspace root; write `**/*.ts` to match at any depth\n";
const WARNING: &str =
    "mecatl-prompt: warning: .claude/rules/top.md: shadowed by .mecatl/rules/top.md\n";

/// A workspace whose rules yield one diagnostic of each severity.
fn noisy() -> TestEnv {
    let env = TestEnv::new();
    env.write(
        ".mecatl/rules/top.md",
        "---\npaths: \"*.ts\"\n---\nTop rule.\n",
    );
    env.write(".claude/rules/top.md", "Shadowed.\n");
    env.write(".mecatl/rules/bad.md", "---\npaths: [a\n---\nbody\n");
    env
}

const TABLE: &str = "NAME  ORIGIN   APPLIES-WHEN  BYTES  SOURCE\n\
                     top   project  *.ts          9      .mecatl/rules/top.md\n";

#[test]
fn default_verbosity_prints_fatal_and_warning_in_the_documented_form() {
    let env = noisy();
    let output = env.run(&["--trust-project", "rules", "list"]);
    assert_eq!(code(&output), Some(0));
    assert_eq!(stdout(&output), TABLE);
    assert_eq!(stderr(&output), format!("{FATAL}{WARNING}"));
}

#[test]
fn verbose_adds_info_and_quiet_prints_nothing() {
    let env = noisy();
    let verbose = env.run(&["--trust-project", "-v", "rules", "list"]);
    assert_eq!(stderr(&verbose), format!("{FATAL}{INFO}{WARNING}"));
    let quiet = env.run(&["--trust-project", "-q", "rules", "list"]);
    assert_eq!(stderr(&quiet), "");
    assert_eq!(stdout(&quiet), TABLE, "-q silences stderr only");
}

#[test]
fn the_last_of_quiet_and_verbose_wins_on_either_side_of_the_subcommand() {
    let env = noisy();
    let loud = format!("{FATAL}{INFO}{WARNING}");
    let cases: [(&[&str], &str); 6] = [
        (&["-q", "-v", "rules", "list"], &loud),
        (&["-v", "-q", "rules", "list"], ""),
        (&["--quiet", "--verbose", "rules", "list"], &loud),
        (&["-q", "rules", "list", "-v"], &loud),
        (&["-v", "rules", "list", "-q"], ""),
        (&["-qv", "rules", "list"], &loud),
    ];
    for (args, expected) in cases {
        let output = env
            .cmd()
            .arg("--trust-project")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(stderr(&output), expected, "{args:?}");
    }
}

#[test]
fn json_carries_every_diagnostic_whatever_the_verbosity() {
    let env = noisy();
    let output = env.run(&["--trust-project", "-q", "--format", "json", "rules", "list"]);
    assert_eq!(stderr(&output), "");
    let doc = json(&output);
    let severities: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["severity"].as_str().unwrap())
        .collect();
    assert_eq!(severities, ["fatal", "info", "warning"]);
    assert_eq!(doc["diagnostics"][2]["path"], ".claude/rules/top.md");
    assert_eq!(
        doc["diagnostics"][2]["reason"],
        "shadowed by .mecatl/rules/top.md"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "error text is Linux's: Windows says \"File not found.\""
)]
fn quiet_still_prints_the_error_line_of_an_exit_2() {
    let env = TestEnv::new();
    let output = env.run(&["-q", "-C", "missing", "rules", "list"]);
    assert_eq!(code(&output), Some(2));
    assert_eq!(
        env.redact(&stderr(&output)),
        "mecatl-prompt: error: workspace [ROOT]/ws/missing: No such file or directory (os error \
         2)\n"
    );
}

#[test]
fn check_fails_on_a_project_fatal_even_when_quiet_or_untrusted() {
    let env = noisy();
    for args in [
        &["--trust-project", "rules", "list", "--check"][..],
        &["-q", "rules", "list", "--check"],
    ] {
        let output = env.run(args);
        assert_eq!(code(&output), Some(1), "{args:?}");
    }
}

// Unix only: permission bits (mode 000) stop the read.
#[cfg(unix)]
#[test]
fn unreadable_project_files_are_fatal_and_fail_the_rules_check() {
    let env = TestEnv::new();
    env.write(".mecatl/rules/fine.md", "Fine.\n");
    make_unreadable(&env.write(".mecatl/rules/locked.md", "Locked.\n"));
    make_unreadable(&env.write(".mecatl/commands/locked.md", "Locked.\n"));
    let Some(_) = env.cmd_bound_by_permissions() else {
        eprintln!("skipped: running as root without setpriv, so mode 000 cannot fail a read");
        return;
    };
    let run = |args: &[&str]| {
        let mut cmd = env.cmd_bound_by_permissions().expect("checked above");
        cmd.args(args).output().unwrap()
    };
    let output = run(&["--trust-project", "rules", "list", "--check"]);
    assert_eq!(code(&output), Some(1));
    assert_eq!(
        stdout(&output),
        "NAME  ORIGIN   APPLIES-WHEN  BYTES  SOURCE\n\
         fine  project  (always)      5      .mecatl/rules/fine.md\n"
    );
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: .mecatl/rules/locked.md: cannot be read: Permission denied (os \
         error 13)\n"
    );
    let output = run(&["rules", "list", "--check"]);
    assert_eq!(code(&output), Some(1), "untrusted too");

    let output = run(&["--trust-project", "commands", "list"]);
    assert_eq!(code(&output), Some(0));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: .mecatl/commands/locked.md: cannot be read: Permission denied (os \
         error 13)\n"
    );
    let output = run(&["--trust-project", "expand", "/locked"]);
    assert_eq!(code(&output), Some(2));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: reading .mecatl/commands/locked.md: Permission denied (os error \
         13)\n"
    );
}
