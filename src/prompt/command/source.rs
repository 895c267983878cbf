//! Command sources that are not directories (SPEC §5.6): the
//! [`CommandSource`] port and [`SourceExpander`], which adapts a source to
//! the expander and lister ports with the same rendering as the directory
//! expander.
//!
//! The choices the spec leaves open are listed once, in [`super`].

use std::collections::BTreeMap;
use std::io;

use crate::prompt::command::{
    Command, CommandExpander, CommandLister, Expansion, parse_invocation, render,
};
use crate::prompt::turn0::ReadFault;
use crate::workspace::Workspace;

/// A raw template and the post-expansion text a source puts in front of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyWithPost {
    /// The raw template, frontmatter included.
    pub body: String,
    /// Text placed before the rendered template, never substituted.
    pub post: String,
}

/// A non-filesystem command backend (SPEC §5.6). Live: consulted on every
/// call. Where templates live is the source's own business.
pub trait CommandSource {
    /// A genuine backend fault.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The commands' metadata (no bodies), one per valid name, sorted.
    fn list_commands(&self) -> Result<Vec<Command>, Self::Error>;

    /// The raw template for `name`, frontmatter included, byte for byte;
    /// `Ok(None)` for an unknown name, which is never an error.
    fn command_body(&self, name: &str) -> Result<Option<String>, Self::Error>;

    /// `None` when the source offers no post-expansion text (the default);
    /// else what [`CommandSource::command_body`] would give, with that text.
    fn body_with_post(&self, name: &str) -> Option<Result<Option<BodyWithPost>, Self::Error>> {
        let _ = name;
        None
    }
}

/// Adapts a [`CommandSource`] to the expander and lister ports, rendering a
/// template byte-identically to
/// [`DirCommandExpander`](super::DirCommandExpander) (the same grammar,
/// frontmatter stripping, substitution and [`render`]). The workspace
/// argument is ignored.
#[derive(Debug, Clone)]
pub struct SourceExpander<S> {
    source: S,
}

impl<S: CommandSource> SourceExpander<S> {
    /// An expander over `source`.
    pub fn new(source: S) -> Self {
        Self { source }
    }

    /// The wrapped source.
    pub fn source(&self) -> &S {
        &self.source
    }
}

/// A source error as a read fault naming what was being read.
fn source_fault(what: String, err: impl std::error::Error + Send + Sync + 'static) -> ReadFault {
    ReadFault {
        path: what,
        source: io::Error::other(err),
    }
}

impl<S: CommandSource> CommandExpander for SourceExpander<S> {
    fn expand(&self, _ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault> {
        let Some(invocation) = parse_invocation(input) else {
            return Ok(Expansion::unchanged(input));
        };
        let fault = |err| source_fault(format!("/{} (command source)", invocation.name), err);
        let found = match self.source.body_with_post(&invocation.name) {
            Some(result) => result.map_err(fault)?.map(|b| (b.body, Some(b.post))),
            None => self
                .source
                .command_body(&invocation.name)
                .map_err(fault)?
                .map(|body| (body, None)),
        };
        let Some((body, post)) = found else {
            return Ok(Expansion::unchanged(input));
        };
        let rendered = render(&body, &invocation.args, post.as_deref());
        Ok(Expansion {
            expanded: true,
            name: Some(invocation.name),
            args: invocation.args,
            source: None,
            output: rendered.text,
        })
    }

    fn as_lister(&self) -> Option<&dyn CommandLister> {
        Some(self)
    }
}

impl<S: CommandSource> CommandLister for SourceExpander<S> {
    fn list(&self, _ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault> {
        let commands = self
            .source
            .list_commands()
            .map_err(|err| source_fault("command source listing".to_string(), err))?;
        let mut unique = BTreeMap::new();
        for command in commands {
            unique.entry(command.name.clone()).or_insert(command);
        }
        Ok(unique.into_values().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::MAX_EXPANSION_BYTES;
    use crate::prompt::command::DirCommandExpander;
    use crate::prompt::command::test_support::{body_strategy, mem_source};
    use crate::workspace::MemWorkspace;
    use proptest::prelude::*;

    struct WithPost;

    impl CommandSource for WithPost {
        type Error = io::Error;

        fn list_commands(&self) -> Result<Vec<Command>, io::Error> {
            Ok(Vec::new())
        }

        fn command_body(&self, _name: &str) -> Result<Option<String>, io::Error> {
            Err(io::Error::other("command_body must not be called"))
        }

        fn body_with_post(&self, name: &str) -> Option<Result<Option<BodyWithPost>, io::Error>> {
            Some(match name {
                "skill" => Ok(Some(BodyWithPost {
                    body: "---\ndescription: s\n---\nUse $1.".into(),
                    post: "Base directory: /x/$1\n\n".into(),
                })),
                "long" => Ok(Some(BodyWithPost {
                    body: "$1".repeat(MAX_EXPANSION_BYTES),
                    post: String::new(),
                })),
                "broken" => Err(io::Error::other("backend down")),
                _ => Ok(None),
            })
        }
    }

    #[test]
    fn source_expander_uses_post_text_when_offered() {
        let ws = MemWorkspace::new();
        let expander = SourceExpander::new(WithPost);
        let out = expander.expand(&ws, "/skill go").unwrap();
        assert_eq!(out.output, "Base directory: /x/$1\n\nUse go.");
        assert_eq!(out.source, None);
        assert_eq!(
            expander.expand(&ws, "/other").unwrap(),
            Expansion::unchanged("/other")
        );
        let err = expander.expand(&ws, "/broken").unwrap_err();
        assert_eq!(
            err.to_string(),
            "reading /broken (command source): backend down"
        );
    }

    #[test]
    fn the_post_expansion_cap_holds_when_the_post_text_is_empty() {
        let ws = MemWorkspace::new();
        let out = SourceExpander::new(WithPost)
            .expand(&ws, "/long ab")
            .unwrap();
        let marker = format!("\n...[expansion truncated at {MAX_EXPANSION_BYTES} bytes]");
        assert_eq!(
            out.output,
            format!("{}{marker}", "ab".repeat(MAX_EXPANSION_BYTES / 2))
        );
        // A source without post-expansion text keeps the template bound.
        let body = "$1".repeat(MAX_EXPANSION_BYTES);
        let plain = mem_source(&[("long", body.as_str())])
            .expand(&ws, "/long ab")
            .unwrap();
        assert_eq!(plain.output, "ab".repeat(MAX_EXPANSION_BYTES));
    }

    proptest! {
        #[test]
        fn source_and_directory_expanders_render_identically(
            body in body_strategy(),
            args in proptest::collection::vec("[a-z$0-9é]{1,4}", 0..6),
        ) {
            let ws = MemWorkspace::new().file(".claude/commands/t.md", &body);
            let input = format!("/t {}", args.join(" "));
            let from_dir = DirCommandExpander::default().expand(&ws, &input).unwrap();
            let from_source = mem_source(&[("t", body.as_str())]).expand(&ws, &input).unwrap();
            prop_assert_eq!(&from_dir.output, &from_source.output);
            prop_assert_eq!(from_dir.args, from_source.args);
            prop_assert!(from_dir.expanded && from_source.expanded);
        }
    }
}
