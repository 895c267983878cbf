//! File names with spaces, Unicode, leading dots, line breaks, escape
//! sequences, no stem, or bytes that are not UTF-8 (SPEC §5.5, §7.1, §9).

#[cfg(unix)]
use std::ffi::OsStr;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;

use super::{run, trusted_json};
use crate::support::TestEnv;

const NAMES: [&str; 5] = [
    "with space",
    "ünï-cødé",
    ".hidden",
    "two\nlines",
    "esc\u{1b}[31m",
];

fn write_named(env: &TestEnv) {
    for name in NAMES {
        env.write(&format!(".claude/rules/{name}.md"), format!("Rule {name}."));
        env.write(&format!(".claude/commands/{name}.md"), "Run $1.");
    }
    env.write(".claude/rules/.md", "No stem.");
    env.write(".claude/commands/.md", "No stem.");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "names with a line break or an escape are invalid Windows file names"
)]
fn rules_with_odd_names_are_listed_and_rendered_by_name() {
    let env = TestEnv::new();
    write_named(&env);
    let out = trusted_json(&env, &["rules", "list", "--check"]);
    out.assert_code(0);
    let names: Vec<String> = out.json()["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            ".hidden",
            "esc\u{1b}[31m",
            "two\nlines",
            "with space",
            "ünï-cødé"
        ]
    );
    assert_eq!(
        out.problems(),
        ["warning .claude/rules/.md: a file named only .md has no rule name; skipped"]
    );
    // Text rows stay one line each and carry no escape sequence.
    let out = run(&env, &["--trust-project", "rules", "list"]);
    assert_eq!(
        out.stdout,
        "NAME        ORIGIN   APPLIES-WHEN  BYTES  SOURCE\n\
         .hidden     project  (always)      13     .claude/rules/.hidden.md\n\
         esc [31m    project  (always)      14     .claude/rules/esc [31m.md\n\
         two lines   project  (always)      15     .claude/rules/two lines.md\n\
         with space  project  (always)      16     .claude/rules/with space.md\n\
         ünï-cødé    project  (always)      18     .claude/rules/ünï-cødé.md\n"
    );
    // In the message the name is sanitised: line breaks become spaces.
    let out = trusted_json(&env, &["assemble"]);
    let text = out.message("rules");
    assert!(text.contains("<rule name=\"two lines\">\n"), "{text}");
    assert!(text.contains("<rule name=\".hidden\">\n"), "{text}");
    assert!(text.contains("<rule name=\"ünï-cødé\">\n"), "{text}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "names with a line break or an escape are invalid Windows file names"
)]
fn commands_outside_the_grammar_are_listed_but_cannot_be_invoked() {
    let env = TestEnv::new();
    write_named(&env);
    let out = run(&env, &["--trust-project", "commands", "list"]);
    out.assert_code(0);
    assert_eq!(
        out.stdout,
        "/.hidden  Run $1.\n/esc [31m  Run $1.\n/two lines  Run $1.\n/with space  Run $1.\n/ünï-cødé  Run $1.\n"
    );
    let grammar = "cannot be invoked: command names use only ASCII letters, digits, -, _ and .";
    assert_eq!(
        out.stderr_lines(),
        [
            "mecatl-prompt: warning: .claude/commands/.md: a file named only .md has no command name; skipped".to_string(),
            format!("mecatl-prompt: warning: .claude/commands/esc [31m.md: /esc [31m {grammar}"),
            format!("mecatl-prompt: warning: .claude/commands/two lines.md: /two lines {grammar}"),
            format!("mecatl-prompt: warning: .claude/commands/with space.md: /with space {grammar}"),
            format!("mecatl-prompt: warning: .claude/commands/ünï-cødé.md: /ünï-cødé {grammar}"),
        ]
    );
    let out = run(&env, &["--trust-project", "expand", "/.hidden", "now"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "Run now.\n");
    // `/with space` is the command `with` plus an argument: unknown.
    let out = run(&env, &["--trust-project", "expand", "/with space"]);
    out.assert_code(0);
    assert_eq!(out.stdout, "/with space\n");
}

// Unix only: a file name that is not UTF-8 (Windows names are UTF-16).
#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_are_reported_not_read() {
    let env = TestEnv::new();
    for dir in [".claude/rules", ".claude/commands"] {
        let name = OsStr::from_bytes(b"bad\xff.md");
        crate::support::write_file(&env.ws.join(dir).join(name), "Hidden.");
    }
    env.write(".claude/rules/ok.md", "Fine.");
    let out = trusted_json(&env, &["rules", "list", "--check"]);
    out.assert_code(1);
    assert_eq!(out.json()["rules"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        out.problems(),
        [
            "fatal .claude/rules/bad\u{fffd}.md: file name is not valid UTF-8, so the rule cannot be named; skipped"
        ]
    );
    let out = trusted_json(&env, &["commands", "list"]);
    out.assert_code(0);
    assert_eq!(out.json()["commands"], serde_json::json!([]));
    assert_eq!(
        out.problems(),
        [
            "warning .claude/commands/bad\u{fffd}.md: file name is not valid UTF-8, so the command cannot be named; skipped"
        ]
    );
}
