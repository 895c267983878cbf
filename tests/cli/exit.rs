//! Exit status and streams (SPEC §2.7): usage and runtime errors exit 2
//! with one line, and a reader that closes the pipe early (`| head -1`)
//! leaves the status as determined, with no panic message.

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

use crate::support::{TestEnv, code, stderr};

#[test]
#[cfg_attr(
    windows,
    ignore = "error text is Linux's: Windows says \"File not found.\""
)]
fn a_missing_or_non_directory_workspace_exits_2() {
    let env = TestEnv::new();
    env.write("file.txt", "x");
    let output = env.run(&["-C", "/nonexistent-workspace", "commands", "list"]);
    assert_eq!(code(&output), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr(&output),
        "mecatl-prompt: error: workspace /nonexistent-workspace: No such file or directory (os \
         error 2)\n"
    );
    let output = env.run(&["-C", "file.txt", "build"]);
    assert_eq!(code(&output), Some(2));
    assert_eq!(
        env.redact(&stderr(&output)),
        "mecatl-prompt: error: workspace [ROOT]/ws/file.txt: not a directory\n"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "clap names the binary mecatl-prompt.exe in the usage line on Windows"
)]
fn bad_flags_and_missing_subcommands_exit_2() {
    let env = TestEnv::new();
    for args in [
        &["--bogus", "build"][..],
        &["build", "--bogus"],
        &["rules", "list", "--for"],
        &["--color", "sometimes", "build"],
        &["--format", "yaml", "build"],
        &["build", "--role", "a", "--role-file", "b"],
    ] {
        let output = env.run(args);
        assert_eq!(code(&output), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(
            stderr(&output).starts_with("error: "),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    for args in [&[][..], &["rules"], &["commands"]] {
        let output = env.run(args);
        assert_eq!(code(&output), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(
            stderr(&output).contains("\nUsage: mecatl-prompt "),
            "{args:?}"
        );
    }
}

#[test]
fn provider_formats_are_only_for_build_and_assemble() {
    let env = TestEnv::new();
    for (format, args, name) in [
        ("anthropic", &["rules", "list"][..], "rules list"),
        ("openai", &["rules", "list"], "rules list"),
        ("anthropic", &["commands", "list"], "commands list"),
        ("openai", &["expand", "/x"], "expand"),
    ] {
        let output = env
            .cmd()
            .args(["--format", format])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(code(&output), Some(2));
        assert!(output.stdout.is_empty());
        assert_eq!(
            stderr(&output),
            format!(
                "mecatl-prompt: error: --format {format} is only for build and assemble, not \
                 {name}\n"
            )
        );
    }
}

#[test]
fn two_beats_one() {
    let env = TestEnv::new();
    env.write(".mecatl/rules/bad.md", "---\npaths: [a\n---\nbody\n");
    let output = env.run(&["rules", "list", "--check", "--for", "../elsewhere"]);
    assert_eq!(code(&output), Some(2));
    let output = env.run(&["rules", "list", "--check"]);
    assert_eq!(code(&output), Some(1));
}

/// Runs the binary with stdout into a pipe whose reader takes one line and
/// then closes it, as `| head -1` does. Returns the first line, the exit
/// code and stderr.
fn head_1(env: &TestEnv, args: &[&str]) -> (String, Option<i32>, String) {
    let mut child = env
        .std_cmd()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    {
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        reader.read_line(&mut first).unwrap();
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    (first, status.code(), err)
}

/// Writes `count` files `dir/item-NNNNN{suffix}.md` with `content`. The
/// tests list enough of them to print far more than a pipe buffer holds, so
/// the writer must meet the closed pipe.
fn many(env: &TestEnv, dir: &str, count: usize, suffix: &str, content: &str) {
    let dir = env.ws.join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..count {
        std::fs::write(dir.join(format!("item-{i:05}{suffix}.md")), content).unwrap();
    }
}

#[test]
fn a_closed_pipe_ends_a_long_listing_quietly_with_status_0() {
    let env = TestEnv::new();
    many(
        &env,
        ".mecatl/commands",
        5_000,
        "",
        "Describe this command with a line long enough to fill the pipe quickly.\n",
    );
    let (first, status, err) = head_1(&env, &["--trust-project", "commands", "list"]);
    assert_eq!(
        first,
        "/item-00000  Describe this command with a line long enough to fill the pipe quickly.\n"
    );
    assert_eq!(status, Some(0));
    assert_eq!(err, "", "no panic, no broken-pipe message");
}

#[test]
fn a_closed_pipe_keeps_a_failed_check_at_status_1() {
    let env = TestEnv::new();
    many(
        &env,
        ".mecatl/rules",
        2_000,
        "-with-a-long-name-to-widen-each-row",
        "A rule body that is not very interesting.\n",
    );
    env.write(".mecatl/rules/zz-bad.md", "---\npaths: [a\n---\nbody\n");
    let (first, status, err) = head_1(&env, &["-q", "rules", "list", "--check"]);
    assert!(first.starts_with("NAME  "), "{first}");
    assert_eq!(status, Some(1));
    assert_eq!(err, "");
}
