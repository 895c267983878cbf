//! The checked-in completion shims and man page are exactly what the binary
//! prints now (regenerate with `scripts/gen-assets.sh`), and the man page
//! renders without groff warnings.

use std::process::Command;

use crate::support::{TestEnv, repo_file, stderr};

/// Each checked-in asset and the arguments that print it.
const ASSETS: &[(&str, &[&str])] = &[
    ("completions/mecatl-prompt.bash", &["completions", "bash"]),
    ("completions/_mecatl-prompt", &["completions", "zsh"]),
    ("completions/mecatl-prompt.fish", &["completions", "fish"]),
    ("completions/mecatl-prompt.elv", &["completions", "elvish"]),
    (
        "completions/_mecatl-prompt.ps1",
        &["completions", "powershell"],
    ),
    ("man/mecatl-prompt.1", &["man"]),
];

#[test]
fn checked_in_assets_match_the_binary() {
    let env = TestEnv::new();
    let mut stale = Vec::new();
    for (rel, args) in ASSETS {
        let output = env.cmd().args(*args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let checked_in = std::fs::read(repo_file(rel)).unwrap_or_default();
        if checked_in != output.stdout {
            stale.push(*rel);
        }
    }
    assert!(
        stale.is_empty(),
        "stale: {}; run scripts/gen-assets.sh",
        stale.join(", ")
    );
}

#[test]
fn man_page_documents_every_subcommand_and_option() {
    let page = std::fs::read_to_string(repo_file("man/mecatl-prompt.1")).unwrap();
    for heading in [
        "build",
        "expand",
        "commands list",
        "rules list",
        "assemble",
        "completions",
        "help",
    ] {
        let line = format!(".SS \"mecatl\\-prompt {heading}\"");
        assert!(page.contains(&line), "no subsection {line}");
    }
    use clap::CommandFactory;
    let mut cli = mecatl_prompt::cli::Cli::command();
    cli.build();
    let mut missing = Vec::new();
    let mut stack = vec![&cli];
    while let Some(command) = stack.pop() {
        if command.is_hide_set() {
            continue;
        }
        for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = arg.get_long() {
                let roff = format!("\\fB\\-\\-{}\\fR", long.replace('-', "\\-"));
                if !page.contains(&roff) {
                    missing.push(format!("{} --{long}", command.get_name()));
                }
            }
        }
        stack.extend(command.get_subcommands());
    }
    assert!(missing.is_empty(), "undocumented: {missing:?}");
}

#[test]
fn man_page_renders_without_warnings_when_groff_is_present() {
    let Ok(output) = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .arg(repo_file("man/mecatl-prompt.1"))
        .output()
    else {
        eprintln!("groff not found; rendering not checked");
        return;
    };
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
}
