//! What GitHub Copilot CLI adds when a file is viewed (SPEC §17.6,
//! `--touch PATH`): one new user message, `"\n"` and its blocks joined by
//! `"\n"`, each block a `<system_reminder>` holding Copilot's one-line lead
//! naming the file, a blank line and the file's text XML-escaped. First
//! the conditional path-specific files whose patterns match PATH (table
//! order), then the instruction files of PATH's directory and each parent
//! up to the first directory read at start (four names each, imports
//! inlined). Each file once per session.
//!
//! The block's wrapper and lead are Copilot's wire strings, recorded from
//! CLI 1.0.102 (`tests/oracle/cases/copilot/touch`).
//!
//! Choices the spec leaves open:
//! - A part's `content` is its whole block as sent, so the message is
//!   `"\n"` and the parts' contents joined by `"\n"`.
//! - Every conditional file's patterns are matched against PATH relative
//!   to the root, the cwd's too (observed: a cwd file's `app/**` matches
//!   `app/src/x.rs`, its `src/**` does not), and the lead names it as the
//!   table does; a PATH outside the root matches none. An instruction
//!   file is named relative to the root, absolute outside it.
//! - The walk up from PATH stops at the workspace root when the root is
//!   above it (the directories between are read at start anyway).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::prompt::agents::copilot::instructions::{self, Files};
use crate::prompt::agents::copilot::paths::PathFile;
use crate::prompt::glob::PathMatcher;
use crate::prompt::profile::{Part, PartKind};
use crate::prompt::text::xml_escape;
use crate::prompt::walk::{Scope, WalkDir};
use crate::workspace::{Workspace, parent};

/// What opens a block.
pub const REMINDER_OPEN: &str = "<system_reminder>\n";
/// What closes it.
pub const REMINDER_CLOSE: &str = "\n</system_reminder>";

/// Copilot's lead line for the file named `path`.
pub fn lead(path: &str) -> String {
    format!("Custom instructions from {path}. Apply these to any code you write here:")
}

/// One block: the lead naming `named`, a blank line, `text` escaped.
fn block(named: &str, text: &str) -> String {
    format!(
        "{REMINDER_OPEN}{}\n\n{}{REMINDER_CLOSE}",
        lead(named),
        xml_escape(text)
    )
}

/// The message Copilot sends for `parts` (the blocks of one view).
pub fn message(parts: &[Part]) -> String {
    let blocks: Vec<&str> = parts.iter().map(|part| part.content.as_str()).collect();
    format!("\n{}", blocks.join("\n"))
}

/// What one session's views add, file by file.
pub struct Session<'a> {
    project: &'a dyn Workspace,
    /// Copilot's root (or the cwd), absolute.
    root: PathBuf,
    /// The workspace directories read at start.
    loaded_dirs: HashSet<String>,
    /// The files already sent, as displayed.
    sent: HashSet<String>,
}

impl<'a> Session<'a> {
    /// A session whose start read `loaded_dirs` (workspace-relative) and
    /// sent `sent`.
    pub fn new(
        project: &'a dyn Workspace,
        root: PathBuf,
        loaded_dirs: HashSet<String>,
        sent: HashSet<String>,
    ) -> Self {
        Self {
            project,
            root,
            loaded_dirs,
            sent,
        }
    }

    /// How the lead names `absolute`.
    fn named(&self, absolute: &Path) -> String {
        match absolute.strip_prefix(&self.root) {
            Ok(rel) => rel.display().to_string(),
            Err(_) => absolute.display().to_string(),
        }
    }

    /// What viewing `path` (workspace-relative) adds, given the
    /// conditional files in table order.
    /// Diagnostics of the files read go to `said`.
    pub fn view(
        &mut self,
        path: &str,
        conditional: &[&PathFile],
        files: &Files<'_>,
        said: &mut Vec<Diagnostic>,
    ) -> Vec<Part> {
        let path = path.trim_matches('/');
        let absolute = crate::prompt::walk::absolute(self.project, path);
        let mut parts = Vec::new();
        let from_root = absolute
            .strip_prefix(&self.root)
            .ok()
            .and_then(Path::to_str);
        for file in conditional {
            let Some(rel) = from_root else {
                break;
            };
            let (matcher, _) = PathMatcher::new(&file.patterns());
            if matcher.matching_pattern(rel).is_none() || !self.sent.insert(file.part.path.clone())
            {
                continue;
            }
            parts.push(Part {
                content: block(&file.table_path, &file.part.content),
                ..file.part.clone()
            });
        }
        let mut dirs = Vec::new();
        let mut dir = parent(path);
        while !self.loaded_dirs.contains(dir) {
            dirs.push(WalkDir {
                reader: self.project,
                dir: dir.to_string(),
                scope: Scope::Project,
            });
            if dir.is_empty() {
                break;
            }
            dir = parent(dir);
        }
        for dir in &dirs {
            self.loaded_dirs.insert(dir.dir.clone());
        }
        let dirs: Vec<&WalkDir<'_>> = dirs.iter().collect();
        let loaded = instructions::load_dirs(&dirs, files);
        said.extend(loaded.diagnostics);
        for sent in loaded.sent {
            if !self.sent.insert(sent.part.path.clone()) {
                continue;
            }
            parts.push(Part {
                content: block(&self.named(&sent.absolute), &sent.part.content),
                kind: PartKind::Instructions,
                ..sent.part
            });
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reminders_escape_the_five_characters() {
        assert_eq!(
            xml_escape("<a> & \"q\" 'x'"),
            "&lt;a&gt; &amp; &quot;q&quot; &apos;x&apos;"
        );
        assert_eq!(
            block("a.md", "A\n"),
            "<system_reminder>\nCustom instructions from a.md. Apply these to any code you \
             write here:\n\nA\n\n</system_reminder>"
        );
    }
}
