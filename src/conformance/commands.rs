//! The command-source conformance kit (SPEC §7.4): a fixture any
//! [`CommandSource`] can be loaded with, and [`run_command_source`], which
//! panics with a clear message when the source breaks the contract.
//! [`MemCommandSource`] is the in-memory reference source.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt::Debug;

use crate::prompt::command::{
    Command, CommandExpander, CommandSource, SourceExpander, description, valid_command_name,
};
use crate::workspace::MemWorkspace;

/// The command fixture: `(name, raw file content)`, sorted by name.
pub const COMMAND_FIXTURE: &[(&str, &str)] = &[
    ("fix", "Fix the bug in $1 and add a regression test."),
    ("pr.merge-2", "Merge PR $1 once checks pass."),
    (
        "review",
        "---\ndescription: Run a structured review.\n---\nReview $ARGUMENTS for correctness first, style second.",
    ),
];

/// Names a source loaded with the fixture must not find, without error:
/// near misses, a file name, and names outside the grammar.
const UNKNOWN_NAMES: &[&str] = &[
    "missing", "Fix", "fix.md", "fix ", "", "../fix", "sub/fix", "review:x",
];

/// What each fixture command must expand to through [`SourceExpander`]:
/// `(input, output)`.
const EXPANSIONS: &[(&str, &str)] = &[
    (
        "/fix src/lib.rs",
        "Fix the bug in src/lib.rs and add a regression test.",
    ),
    ("/pr.merge-2 42 extra", "Merge PR 42 once checks pass."),
    (
        "  /review a.rs\tb.rs",
        "Review a.rs b.rs for correctness first, style second.",
    ),
];

/// Checks that the sources made by `factory`, each loaded with
/// [`COMMAND_FIXTURE`], honour the [`CommandSource`] contract: exactly the
/// fixture's names, unique, strictly sorted and valid, with the description
/// the file gives; raw bodies returned verbatim, frontmatter included;
/// unknown names not found and not an error; repeated calls equal; a fresh
/// source per factory call; and expansion through [`SourceExpander`].
///
/// # Panics
/// On the first violation, with a message naming it.
pub fn run_command_source<S, F>(factory: F)
where
    S: CommandSource,
    S::Error: Debug,
    F: Fn() -> S,
{
    let source = factory();
    let listed = list(&source, "first list_commands");
    let expected: Vec<Command> = COMMAND_FIXTURE
        .iter()
        .map(|(name, raw)| Command {
            name: name.to_string(),
            description: description(raw),
        })
        .collect();
    for pair in listed.windows(2) {
        assert!(
            pair[0].name < pair[1].name,
            "list_commands must be strictly sorted by name without duplicates; got {:?} before {:?}",
            pair[0].name,
            pair[1].name
        );
    }
    for command in &listed {
        assert!(
            valid_command_name(&command.name),
            "list_commands returned {:?}, which is not a valid command name",
            command.name
        );
    }
    assert_eq!(
        listed, expected,
        "list_commands must return exactly the fixture's commands with their descriptions"
    );
    assert_eq!(
        list(&source, "second list_commands"),
        listed,
        "two list_commands calls on an unchanged source must be equal"
    );

    for (name, raw) in COMMAND_FIXTURE {
        for attempt in ["first", "second"] {
            match source.command_body(name) {
                Ok(Some(body)) => assert_eq!(
                    body, *raw,
                    "{attempt} command_body({name:?}) must return the raw file verbatim"
                ),
                Ok(None) => {
                    panic!("{attempt} command_body({name:?}) did not find a fixture command")
                }
                Err(err) => panic!("{attempt} command_body({name:?}) failed: {err:?}"),
            }
        }
    }
    for name in UNKNOWN_NAMES {
        match source.command_body(name) {
            Ok(None) => {}
            Ok(Some(body)) => {
                panic!("command_body({name:?}) must not be found, but returned {body:?}")
            }
            Err(err) => panic!("command_body({name:?}) must be not found, not an error: {err:?}"),
        }
    }

    let fresh = factory();
    assert_eq!(
        list(&fresh, "list_commands on a fresh source"),
        listed,
        "every factory call must give an equivalent, independent source"
    );

    let expander = SourceExpander::new(factory());
    let ws = MemWorkspace::new();
    for (input, output) in EXPANSIONS {
        match expander.expand(&ws, input) {
            Ok(expansion) => {
                assert!(expansion.expanded, "{input:?} must expand");
                assert_eq!(expansion.output, *output, "expansion of {input:?}");
            }
            Err(err) => panic!("expanding {input:?} failed: {err}"),
        }
    }
    for input in ["/missing x", "plain text", "/", "/../fix"] {
        match expander.expand(&ws, input) {
            Ok(expansion) => {
                assert!(!expansion.expanded, "{input:?} must not expand");
                assert_eq!(
                    expansion.output, *input,
                    "{input:?} must pass through unchanged"
                );
            }
            Err(err) => panic!("{input:?} must pass through, not fail: {err}"),
        }
    }
}

fn list<S>(source: &S, what: &str) -> Vec<Command>
where
    S: CommandSource,
    S::Error: Debug,
{
    match source.list_commands() {
        Ok(commands) => commands,
        Err(err) => panic!("{what} failed: {err:?}"),
    }
}

/// An in-memory [`CommandSource`]: raw templates by name. Names outside the
/// grammar are kept but neither listed nor found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemCommandSource {
    commands: BTreeMap<String, String>,
}

impl MemCommandSource {
    /// A source holding `(name, raw)` pairs; a later duplicate name replaces
    /// an earlier one.
    pub fn new<I, N, R>(commands: I) -> Self
    where
        I: IntoIterator<Item = (N, R)>,
        N: Into<String>,
        R: Into<String>,
    {
        Self {
            commands: commands
                .into_iter()
                .map(|(name, raw)| (name.into(), raw.into()))
                .collect(),
        }
    }

    /// A source loaded with [`COMMAND_FIXTURE`].
    pub fn fixture() -> Self {
        Self::new(COMMAND_FIXTURE.iter().copied())
    }
}

impl CommandSource for MemCommandSource {
    type Error = Infallible;

    fn list_commands(&self) -> Result<Vec<Command>, Infallible> {
        Ok(self
            .commands
            .iter()
            .filter(|(name, _)| valid_command_name(name))
            .map(|(name, raw)| Command {
                name: name.clone(),
                description: description(raw),
            })
            .collect())
    }

    fn command_body(&self, name: &str) -> Result<Option<String>, Infallible> {
        Ok(self
            .commands
            .get(name)
            .filter(|_| valid_command_name(name))
            .cloned())
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::prompt::command::strip_frontmatter;

    #[test]
    fn the_memory_source_passes() {
        run_command_source(MemCommandSource::fixture);
    }

    #[test]
    fn the_memory_source_skips_invalid_names() {
        let source = MemCommandSource::new([("ok", "Ok"), ("my cmd", "No"), ("a/b", "No")]);
        let names: Vec<String> = source
            .list_commands()
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(names, ["ok"]);
        assert_eq!(source.command_body("my cmd").unwrap(), None);
    }

    /// The fixture source with one contract violation.
    enum Broken {
        Unsorted,
        StripsFrontmatter,
        FailsOnUnknown,
        ExtraCommand,
    }

    impl CommandSource for Broken {
        type Error = io::Error;

        fn list_commands(&self) -> Result<Vec<Command>, io::Error> {
            let mut commands = MemCommandSource::fixture()
                .list_commands()
                .unwrap_or_default();
            match self {
                Broken::Unsorted => commands.reverse(),
                Broken::ExtraCommand => commands.push(Command {
                    name: "zz".into(),
                    description: String::new(),
                }),
                _ => {}
            }
            Ok(commands)
        }

        fn command_body(&self, name: &str) -> Result<Option<String>, io::Error> {
            let body = MemCommandSource::fixture()
                .command_body(name)
                .unwrap_or_default();
            match (self, body) {
                (Broken::FailsOnUnknown, None) => Err(io::Error::other("unknown")),
                (Broken::StripsFrontmatter, Some(raw)) => {
                    Ok(Some(strip_frontmatter(&raw).to_string()))
                }
                (_, body) => Ok(body),
            }
        }
    }

    #[test]
    #[should_panic(expected = "strictly sorted")]
    fn an_unsorted_listing_fails() {
        run_command_source(|| Broken::Unsorted);
    }

    #[test]
    #[should_panic(expected = "must return the raw file verbatim")]
    fn stripping_frontmatter_in_the_source_fails() {
        run_command_source(|| Broken::StripsFrontmatter);
    }

    #[test]
    #[should_panic(expected = "must be not found, not an error")]
    fn an_error_for_an_unknown_name_fails() {
        run_command_source(|| Broken::FailsOnUnknown);
    }

    #[test]
    #[should_panic(expected = "exactly the fixture's commands")]
    fn an_extra_command_fails() {
        run_command_source(|| Broken::ExtraCommand);
    }

    #[test]
    fn the_fixture_is_as_specified() {
        let names: Vec<&str> = COMMAND_FIXTURE.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["fix", "pr.merge-2", "review"]);
        assert_eq!(
            description(COMMAND_FIXTURE[2].1),
            "Run a structured review."
        );
        assert_eq!(
            strip_frontmatter(COMMAND_FIXTURE[2].1),
            "Review $ARGUMENTS for correctness first, style second."
        );
    }
}
