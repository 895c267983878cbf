//! The expander and lister ports and their composition (SPEC §5.6): what a
//! command is to the rest of the program, the default that expands
//! nothing, and the chain that tries several expanders in order.
//!
//! The choices the spec leaves open are listed once, in [`super`].

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::prompt::turn0::ReadFault;
use crate::workspace::Workspace;

/// A discovered command's listing metadata; it carries no body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Command {
    /// The name invoked as `/name`.
    pub name: String,
    /// A one-line summary (see [`description`](super::description)); may
    /// be empty.
    pub description: String,
}

/// What an expander made of an input line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Expansion {
    /// True when the input named a command that was found and rendered.
    pub expanded: bool,
    /// The command name, when expanded.
    pub name: Option<String>,
    /// The arguments, when expanded; empty otherwise.
    pub args: Vec<String>,
    /// The file that was expanded, as its workspace displays it; `None` when
    /// nothing expanded or the template came from a non-file source.
    pub source: Option<String>,
    /// The rendered template, or the input unchanged.
    pub output: String,
}

impl Expansion {
    /// The outcome for an input that is not a known command: the input,
    /// unchanged.
    pub fn unchanged(input: &str) -> Self {
        Self {
            expanded: false,
            name: None,
            args: Vec::new(),
            source: None,
            output: input.to_string(),
        }
    }
}

/// Rewrites a user input into what the model sees: a command invocation
/// becomes its rendered template; anything else passes through unchanged.
pub trait CommandExpander {
    /// Expands `input`. An unknown command or a non-command is not an error:
    /// it comes back unchanged with `expanded = false`. An error is only a
    /// genuine read fault on a command file.
    fn expand(&self, ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault>;

    /// This expander as a lister, when it can enumerate its commands.
    fn as_lister(&self) -> Option<&dyn CommandLister> {
        None
    }
}

/// Enumerates the commands an expander would expand, without expanding any.
pub trait CommandLister {
    /// The invokable commands, one per name, sorted by name. An error is a
    /// genuine read fault enumerating the commands; a missing directory is
    /// simply no commands.
    fn list(&self, ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault>;
}

/// The default expander: expands nothing and lists nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoopExpander;

impl CommandExpander for NoopExpander {
    fn expand(&self, _ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault> {
        Ok(Expansion::unchanged(input))
    }

    fn as_lister(&self) -> Option<&dyn CommandLister> {
        Some(self)
    }
}

impl CommandLister for NoopExpander {
    fn list(&self, _ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault> {
        Ok(Vec::new())
    }
}

/// Several expanders tried in order, highest precedence first: the first
/// that expands wins and the first error stops the chain. Its listing merges
/// the children that can list; the first occurrence of a name wins.
#[derive(Default)]
pub struct MultiExpander {
    children: Vec<Box<dyn CommandExpander>>,
}

impl MultiExpander {
    /// Composes `children`, highest precedence first.
    pub fn new(children: Vec<Box<dyn CommandExpander>>) -> Self {
        Self { children }
    }
}

impl fmt::Debug for MultiExpander {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MultiExpander")
            .field("children", &self.children.len())
            .finish()
    }
}

impl CommandExpander for MultiExpander {
    fn expand(&self, ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault> {
        for child in &self.children {
            let expansion = child.expand(ws, input)?;
            if expansion.expanded {
                return Ok(expansion);
            }
        }
        Ok(Expansion::unchanged(input))
    }

    fn as_lister(&self) -> Option<&dyn CommandLister> {
        Some(self)
    }
}

impl CommandLister for MultiExpander {
    fn list(&self, ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault> {
        let mut merged = BTreeMap::new();
        for lister in self.children.iter().filter_map(|c| c.as_lister()) {
            for command in lister.list(ws)? {
                merged.entry(command.name.clone()).or_insert(command);
            }
        }
        Ok(merged.into_values().collect())
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::prompt::command::DirCommandExpander;
    use crate::prompt::command::test_support::{mem_source, ws_with};
    use crate::workspace::MemWorkspace;

    struct Failing;

    impl CommandExpander for Failing {
        fn expand(&self, _ws: &dyn Workspace, _input: &str) -> Result<Expansion, ReadFault> {
            Err(ReadFault {
                path: "boom".into(),
                source: io::Error::other("boom"),
            })
        }
    }

    #[test]
    fn noop_expands_and_lists_nothing() {
        let ws = MemWorkspace::new();
        assert_eq!(
            NoopExpander.expand(&ws, "/fix").unwrap(),
            Expansion::unchanged("/fix")
        );
        assert!(
            NoopExpander
                .as_lister()
                .unwrap()
                .list(&ws)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn multi_expander_first_expansion_wins_and_errors_stop_the_chain() {
        let ws = ws_with(&[(".claude/commands/a.md", "dir a")]);
        let multi = MultiExpander::new(vec![
            Box::new(NoopExpander),
            Box::new(mem_source(&[("b", "source b"), ("a", "source a")])),
            Box::new(DirCommandExpander::default()),
            Box::new(Failing),
        ]);
        assert_eq!(multi.expand(&ws, "/a").unwrap().output, "source a");
        assert_eq!(multi.expand(&ws, "/b").unwrap().output, "source b");
        assert_eq!(multi.expand(&ws, "/c").unwrap_err().path, "boom");

        let ordered = MultiExpander::new(vec![
            Box::new(DirCommandExpander::default()),
            Box::new(mem_source(&[("a", "s")])),
        ]);
        assert_eq!(ordered.expand(&ws, "/a x").unwrap().output, "dir a");
        assert_eq!(
            ordered.expand(&ws, "hi").unwrap(),
            Expansion::unchanged("hi")
        );
    }

    #[test]
    fn multi_expander_merges_listings_first_occurrence_wins() {
        let ws = ws_with(&[
            (".claude/commands/a.md", "dir a"),
            (".claude/commands/c.md", "dir c"),
        ]);
        let multi = MultiExpander::new(vec![
            Box::new(Failing),
            Box::new(mem_source(&[("b", "source b"), ("a", "source a")])),
            Box::new(DirCommandExpander::default()),
        ]);
        let listed: Vec<(String, String)> = multi
            .as_lister()
            .unwrap()
            .list(&ws)
            .unwrap()
            .into_iter()
            .map(|c| (c.name, c.description))
            .collect();
        assert_eq!(
            listed,
            [
                ("a".to_string(), "source a".to_string()),
                ("b".to_string(), "source b".to_string()),
                ("c".to_string(), "dir c".to_string()),
            ]
        );
    }
}
