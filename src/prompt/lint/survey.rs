//! One bounded walk of the workspace ([`walk_tree_pruned`]): the
//! directories and files lint looks at, found once.
//!
//! An agent's configuration directory (`.claude`, `.mecatl`, `.agents`,
//! `.codex`, `.gemini`: every profile's
//! [`config_dirs`](crate::prompt::profile::seam::ProfileSpec::config_dirs),
//! handed in by lint's driver) that is a link to a directory is looked
//! into one level (the agents follow such links), so a shared
//! `.claude -> ../shared/.claude` is linted like a real one.

use std::collections::BTreeSet;

use crate::prompt::tiers::walk_tree_pruned;
use crate::workspace::{EntryKind, Workspace, base_name, join};

/// Directories the walk never enters: version control and installed
/// packages hold nothing an agent loads for this repository.
pub const PRUNED: [&str; 2] = [".git", "node_modules"];

/// What the walk found.
#[derive(Debug, Default)]
pub struct Survey {
    /// Every file or link to a file, workspace-relative.
    files: BTreeSet<String>,
    /// Every directory (entered, or a link to one), the root `""` first.
    dirs: Vec<String>,
    /// True when a bound stopped the walk.
    pub cut: bool,
}

/// Walks the workspace of `reader`, looking into links named like one of
/// `config_dirs`.
pub fn survey(reader: &dyn Workspace, config_dirs: &[&str]) -> Survey {
    let tree = walk_tree_pruned(
        reader,
        "",
        &|name| PRUNED.contains(&name),
        crate::limits::MAX_TREE_ENTRIES,
    );
    let mut survey = Survey {
        files: tree.files.into_iter().collect(),
        dirs: std::iter::once(String::new()).chain(tree.dirs).collect(),
        cut: tree.cut,
    };
    for link in tree.dir_links {
        if config_dirs.contains(&base_name(&link))
            && let Ok(entries) = reader.list(&link)
        {
            for entry in entries.into_iter().filter(|e| !e.lossy) {
                let rel = join(&link, &entry.name);
                match entry.kind {
                    EntryKind::Dir => survey.dirs.push(rel),
                    EntryKind::Symlink if matches!(reader.stat(&rel), Ok(EntryKind::Dir)) => {
                        survey.dirs.push(rel);
                    }
                    _ => {
                        survey.files.insert(rel);
                    }
                }
            }
        }
        survey.dirs.push(link);
    }
    survey
}

impl Survey {
    /// True when the walk found a file (or a link to one) at `rel`.
    pub fn has_file(&self, rel: &str) -> bool {
        self.files.contains(rel)
    }

    /// The directories the walk found, the root `""` first.
    pub fn dirs(&self) -> &[String] {
        &self.dirs
    }

    /// The directories whose path ends with the components of `suffix`
    /// (`.claude/commands` matches `.claude/commands` and
    /// `pkg/.claude/commands`), in walk order.
    pub fn dirs_ending<'s>(&'s self, suffix: &'s str) -> impl Iterator<Item = &'s str> {
        self.dirs.iter().map(String::as_str).filter(move |dir| {
            *dir == suffix
                || dir
                    .strip_suffix(suffix)
                    .is_some_and(|parent| parent.ends_with('/'))
        })
    }
}

/// True when `dir` is `ancestor` or lies below it (`""` is every
/// directory's ancestor).
pub fn is_within(dir: &str, ancestor: &str) -> bool {
    ancestor.is_empty()
        || dir == ancestor
        || dir
            .strip_prefix(ancestor)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{MemNode, MemWorkspace};

    #[test]
    fn the_walk_finds_config_dirs_at_any_depth_and_looks_into_linked_ones() {
        let ws = MemWorkspace::new()
            .file("AGENTS.md", "a")
            .file("pkg/.claude/commands/x.md", "x")
            .file("shared/dotclaude/CLAUDE.md", "c")
            .file("shared/dotclaude/rules/r.md", "r")
            .file("node_modules/p/.claude/commands/y.md", "y")
            .node(
                "app/.claude",
                MemNode::Symlink("../shared/dotclaude".into()),
            );
        let found = survey(&ws, &[".claude"]);
        assert!(found.has_file("AGENTS.md"));
        assert!(found.has_file("app/.claude/CLAUDE.md"));
        assert!(!found.has_file("node_modules/p/.claude/commands/y.md"));
        assert_eq!(
            found.dirs_ending(".claude/commands").collect::<Vec<_>>(),
            ["pkg/.claude/commands"]
        );
        assert_eq!(
            found.dirs_ending(".claude/rules").collect::<Vec<_>>(),
            ["app/.claude/rules"]
        );
        assert_eq!(found.dirs()[0], "");
        assert!(!found.cut);
    }

    #[test]
    fn paths_split_into_directory_and_name() {
        use crate::workspace::parent;
        assert_eq!((parent("a/b/c.md"), base_name("a/b/c.md")), ("a/b", "c.md"));
        assert_eq!((parent("c.md"), base_name("c.md")), ("", "c.md"));
        assert!(is_within("a/b", "a") && is_within("a", "") && is_within("a", "a"));
        assert!(!is_within("ab", "a") && !is_within("a", "a/b"));
    }
}
