//! The directory-backed expander and lister (SPEC §5.5, §5.6): the
//! default command directories, and [`DirCommandExpander`] over the one
//! resolution routine.
//!
//! The choices the spec leaves open are listed once, in [`super`].

use std::sync::Arc;

use crate::prompt::command::files::{DEFAULT_COMMAND_DIRS, command_dirs};
use crate::prompt::command::{
    Command, CommandExpander, CommandLister, Expansion, expand_in, list_in,
};
use crate::prompt::tiers::{SearchDir, Tier};
use crate::prompt::turn0::ReadFault;
use crate::workspace::Workspace;

/// The directory-backed expander and lister (SPEC §5.5): `<name>.md` files
/// under workspace-relative directories, read through the workspace on
/// every call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirCommandExpander {
    dirs: Vec<String>,
}

impl Default for DirCommandExpander {
    fn default() -> Self {
        Self::new(Vec::<String>::new())
    }
}

impl DirCommandExpander {
    /// An expander over `dirs`, highest precedence first. An empty or
    /// whitespace-only entry names no directory and is ignored (read as a
    /// directory it would be the workspace root, whose `AGENTS.md` would
    /// then expand as `/AGENTS`); no directories left means
    /// [`DEFAULT_COMMAND_DIRS`].
    pub fn new<I, S>(dirs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut dirs: Vec<String> = dirs
            .into_iter()
            .map(Into::into)
            .filter(|dir| !dir.trim().is_empty())
            .collect();
        if dirs.is_empty() {
            dirs = DEFAULT_COMMAND_DIRS.iter().map(|d| d.to_string()).collect();
        }
        Self { dirs }
    }

    /// The directories searched, highest precedence first.
    pub fn dirs(&self) -> &[String] {
        &self.dirs
    }

    /// The directories of the workspace borrowed for one call. The seed's
    /// expander reads any workspace it is handed, trusted by the caller.
    fn search_dirs<'a>(&self, ws: &'a dyn Workspace) -> Vec<SearchDir<'a>> {
        command_dirs(Arc::new(ws), &self.dirs, Tier::Project, false)
    }
}

impl CommandExpander for DirCommandExpander {
    fn expand(&self, ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault> {
        expand_in(&self.search_dirs(ws), input).map(|outcome| outcome.expansion)
    }

    fn as_lister(&self) -> Option<&dyn CommandLister> {
        Some(self)
    }
}

impl CommandLister for DirCommandExpander {
    fn list(&self, ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault> {
        list_in(&self.search_dirs(ws), true).into_commands()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::command::test_support::ws_with;
    use crate::workspace::MemWorkspace;
    use proptest::prelude::*;

    #[test]
    fn unknown_and_non_commands_pass_through() {
        let ws = ws_with(&[(".claude/commands/fix.md", "x")]);
        let expander = DirCommandExpander::default();
        for input in ["/nope a", "hello", "/etc/hosts", "", "  /", "\n/fix"] {
            assert_eq!(
                expander.expand(&ws, input).unwrap(),
                Expansion::unchanged(input),
                "{input:?}"
            );
        }
    }

    #[test]
    fn custom_directories_replace_the_defaults() {
        let ws = ws_with(&[
            ("cmds/a/fix.md", "A"),
            ("cmds/b/fix.md", "B"),
            (".claude/commands/fix.md", "C"),
        ]);
        let expander = DirCommandExpander::new(["cmds/b", "cmds/a"]);
        assert_eq!(expander.expand(&ws, "/fix").unwrap().output, "B");
        assert_eq!(DirCommandExpander::default().dirs(), DEFAULT_COMMAND_DIRS);
    }

    #[test]
    fn blank_directories_are_ignored_and_all_blank_means_the_defaults() {
        let ws = ws_with(&[
            ("AGENTS.md", "Project instructions"),
            ("cmds/fix.md", "Fix"),
            (".claude/commands/review.md", "Review"),
        ]);
        let mixed = DirCommandExpander::new(["", "cmds", " \t"]);
        assert_eq!(mixed.dirs(), ["cmds"]);
        assert_eq!(mixed.expand(&ws, "/fix").unwrap().output, "Fix");
        for blank in [vec![""], vec![" ", "\n"]] {
            let expander = DirCommandExpander::new(blank);
            assert_eq!(expander.dirs(), DEFAULT_COMMAND_DIRS);
            let agents = expander.expand(&ws, "/AGENTS x").unwrap();
            assert_eq!(agents, Expansion::unchanged("/AGENTS x"));
            assert_eq!(expander.expand(&ws, "/review").unwrap().output, "Review");
        }
    }

    #[test]
    fn files_are_read_on_every_call() {
        let expander = DirCommandExpander::default();
        let before = ws_with(&[(".claude/commands/x.md", "one")]);
        let after = ws_with(&[(".claude/commands/x.md", "two")]);
        assert_eq!(expander.expand(&before, "/x").unwrap().output, "one");
        assert_eq!(expander.expand(&after, "/x").unwrap().output, "two");
    }

    proptest! {
        #[test]
        fn nothing_panics_on_arbitrary_text(raw in ".{0,200}", input in ".{0,80}") {
            let ws = MemWorkspace::new().file(".claude/commands/t.md", &raw);
            let _ = DirCommandExpander::default().expand(&ws, &input).unwrap();
            let _ = DirCommandExpander::default().expand(&ws, &format!("/t {input}")).unwrap();
        }
    }
}
