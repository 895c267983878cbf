use super::*;
use crate::cli::args::CommandDirsArgs;

fn words(line: &[&str]) -> Vec<OsString> {
    line.iter().map(OsString::from).collect()
}

#[test]
fn line_options_survive_an_unfinished_line() {
    let line = Line::parse(&words(&[
        "mecatl-prompt",
        "-C",
        "ws",
        "expand",
        "--no-trust-project",
        "--commands-dir",
        "cmds",
        "/re",
    ]))
    .unwrap();
    assert_eq!(line.path, ["expand"]);
    assert_eq!(line.global.workspace.as_deref(), Some(Path::new("ws")));
    assert!(line.global.no_trust_project);
    let dirs = line.args(CommandDirsArgs::default()).unwrap().commands_dirs;
    assert_eq!(dirs, [Path::new("cmds")]);
}

#[test]
fn an_empty_for_value_keeps_the_options_before_it() {
    // clap stops at the first bad value (an empty path), so options
    // after the word under the cursor are not seen.
    let line = Line::parse(&words(&[
        "mecatl-prompt",
        "--workspace=ws",
        "rules",
        "list",
        "--for",
        "",
        "--no-trust-project",
    ]))
    .unwrap();
    assert_eq!(line.path, ["rules", "list"]);
    assert_eq!(line.global.workspace.as_deref(), Some(Path::new("ws")));
    assert!(!line.global.no_trust_project);
}

#[test]
fn candidates_are_tagged_as_clap_complete_tags_them() {
    // clap_complete tags an untagged candidate with its argument as the
    // whole, built command renders it.
    let mut cli = Cli::command();
    cli.build();
    for (sub, id) in [("expand", "input"), ("explain", "name")] {
        let arg = cli
            .find_subcommand(sub)
            .and_then(|sub| sub.get_arguments().find(|a| a.get_id() == id))
            .unwrap();
        let expected = StyledStr::from(arg.to_string());
        let candidates = vec![
            CompletionCandidate::new("/a"),
            CompletionCandidate::new("/b").tag(Some("mine".into())),
        ];
        let tagged = match sub {
            "expand" => tagged::<crate::cli::expand::ExpandArgs>(id, candidates),
            _ => tagged::<crate::cli::explain::ExplainArgs>(id, candidates),
        };
        assert_eq!(tagged[0].get_tag(), Some(&expected), "{sub}");
        assert_eq!(tagged[1].get_tag(), Some(&"mine".into()), "{sub}");
    }
}

#[test]
fn a_line_that_asks_for_help_completes_nothing() {
    assert!(Line::parse(&words(&["mecatl-prompt", "--help", "expand", "/"])).is_none());
}
