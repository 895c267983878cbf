//! The invocation grammar of slash commands (SPEC §5.1): which names can
//! be invoked, and how an input line splits into a name and arguments.
//!
//! The choices the spec leaves open are listed once, in [`super`].

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// Which names a profile's invocation grammar accepts (SPEC §5.1; §18.3
/// for opencode, whose commands are named by their path below the
/// commands directory).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameGrammar {
    /// ASCII letters, digits, `-`, `_` and `.` (SPEC §5.1).
    Plain,
    /// The same, and `/` after the first character: `/git/commit` is the
    /// command `git/commit`.
    Nested,
}

impl NameGrammar {
    fn accepts(self, c: char, first: bool) -> bool {
        is_name_char(c) || (self == NameGrammar::Nested && !first && c == '/')
    }

    /// `input` as a name (without its `/`) and the text after it, or
    /// `None` when it is no invocation: leading spaces and tabs (only
    /// those) are skipped, then `/` and a non-empty name must follow.
    pub fn split(self, input: &str) -> Option<(&str, &str)> {
        let rest = input.trim_start_matches([' ', '\t']).strip_prefix('/')?;
        let name_len = rest
            .char_indices()
            .find(|&(i, c)| !self.accepts(c, i == 0))
            .map_or(rest.len(), |(i, _)| i);
        (name_len > 0).then(|| rest.split_at(name_len))
    }

    /// True when `text` (sigil included) is one name of this grammar
    /// with nothing after it.
    pub fn is_invocation(self, text: &str) -> bool {
        self.split(text).is_some_and(|(_, rest)| rest.is_empty())
    }
}

/// True when `name` can be invoked as `/name`: non-empty, and only ASCII
/// letters, digits, `-`, `_` and `.` (SPEC §5.1).
pub fn valid_command_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(is_name_char)
}

/// Why `/name` cannot be invoked, for a file whose name lies outside the
/// grammar (the listing's warning, `expand --require`'s error).
pub fn cannot_invoke(name: &str) -> String {
    format!("/{name} cannot be invoked: command names use only ASCII letters, digits, -, _ and .")
}

/// A parsed slash-command invocation: the name without its `/`, and the
/// positional arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The command name, always [`valid_command_name`].
    pub name: String,
    /// The arguments, split on Unicode whitespace, never empty strings.
    pub args: Vec<String>,
}

/// Parses `input` as a slash-command invocation (SPEC §5.1), or `None` when
/// it is not one.
///
/// Leading spaces and tabs (only those) are skipped; then `/` and a
/// non-empty name must follow. The name ends at the first character outside
/// the name alphabet, and everything from there on is split on any Unicode
/// whitespace into arguments, with no quoting: `/etc/hosts` is the command
/// `etc` with the argument `/hosts`.
pub fn parse_invocation(input: &str) -> Option<Invocation> {
    let (name, tail) = NameGrammar::Plain.split(input)?;
    Some(Invocation {
        name: name.to_string(),
        args: tail.split_whitespace().map(str::to_string).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::command::test_support::args;
    use proptest::prelude::*;

    fn inv(input: &str) -> Option<(String, Vec<String>)> {
        parse_invocation(input).map(|i| (i.name, i.args))
    }

    fn some(name: &str, list: &[&str]) -> Option<(String, Vec<String>)> {
        Some((name.to_string(), args(list)))
    }

    #[test]
    fn grammar_names_and_arguments() {
        assert_eq!(inv("/fix a b"), some("fix", &["a", "b"]));
        assert_eq!(inv("/fix"), some("fix", &[]));
        assert_eq!(inv("/fix\n"), some("fix", &[]));
        assert_eq!(inv("/pr.merge-2_x:y z"), some("pr.merge-2_x", &[":y", "z"]));
        assert_eq!(inv("/fixé"), some("fix", &["é"]));
        assert_eq!(inv("/..  x"), some("..", &["x"]));
    }

    #[test]
    fn grammar_strips_only_leading_spaces_and_tabs() {
        assert_eq!(inv("\t /fix x"), some("fix", &["x"]));
        assert_eq!(inv("   /fix"), some("fix", &[]));
        assert_eq!(inv("\n/fix"), None);
        assert_eq!(inv("\u{a0}/fix"), None);
        assert_eq!(inv("x /fix"), None);
    }

    #[test]
    fn grammar_rejects_empty_names() {
        assert_eq!(inv(""), None);
        assert_eq!(inv("/"), None);
        assert_eq!(inv("/ fix"), None);
        assert_eq!(inv("//fix"), None);
        assert_eq!(inv("/:x"), None);
    }

    #[test]
    fn nested_names_keep_their_slashes() {
        let nested = NameGrammar::Nested;
        assert_eq!(
            nested.split("/git/commit a b"),
            Some(("git/commit", " a b"))
        );
        assert_eq!(nested.split("/git/"), Some(("git/", "")));
        assert_eq!(nested.split("//git"), None);
        assert_eq!(
            NameGrammar::Plain.split("/git/commit"),
            Some(("git", "/commit"))
        );
        assert!(nested.is_invocation("/git/commit"));
        assert!(!NameGrammar::Plain.is_invocation("/git/commit"));
    }

    #[test]
    fn etc_hosts_is_command_etc_with_argument() {
        assert_eq!(inv("/etc/hosts"), some("etc", &["/hosts"]));
    }

    #[test]
    fn arguments_split_on_unicode_whitespace_without_quoting() {
        assert_eq!(
            inv("/fix a\u{a0}b\u{2003}c\u{3000}d\u{85}e\r\nf\u{2028}g"),
            some("fix", &["a", "b", "c", "d", "e", "f", "g"])
        );
        // U+200B is not whitespace.
        assert_eq!(inv("/fix a\u{200b}b"), some("fix", &["a\u{200b}b"]));
        assert_eq!(inv("/fix \"a b\""), some("fix", &["\"a", "b\""]));
    }

    #[test]
    fn valid_names() {
        for name in ["fix", "pr.merge-2", ".x", "..", "A_b-9"] {
            assert!(valid_command_name(name), "{name}");
        }
        for name in ["", "my cmd", "a/b", "a:b", "é", "x\n"] {
            assert!(!valid_command_name(name), "{name:?}");
        }
    }

    proptest! {
        #[test]
        fn parsed_invocations_obey_the_grammar(
            input in "[ \t]{0,2}/?[a-z0-9._/$é \t\u{a0}\u{3000}-]{0,40}",
        ) {
            if let Some(invocation) = parse_invocation(&input) {
                prop_assert!(valid_command_name(&invocation.name));
                let rest = input.trim_start_matches([' ', '\t']);
                let head = format!("/{}", invocation.name);
                prop_assert!(rest.starts_with(&head), "{:?} does not start with {:?}", rest, head);
                for arg in &invocation.args {
                    prop_assert!(!arg.is_empty() && !arg.contains(char::is_whitespace));
                }
                let rebuilt = format!("/{} {}", invocation.name, invocation.args.join(" "));
                prop_assert_eq!(parse_invocation(&rebuilt), Some(invocation));
            } else {
                let rest = input.trim_start_matches([' ', '\t']);
                let name = rest.strip_prefix('/').unwrap_or_default();
                prop_assert!(!rest.starts_with('/') || !name.starts_with(is_name_char));
            }
        }
    }
}
