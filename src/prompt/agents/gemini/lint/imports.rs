//! The `@imports` of Gemini CLI's context files, as `lint` judges them
//! (MP004–MP007, MP022): each context file of the workspace is inlined by
//! the profile's own [`Inliner`], over the workspace, and what its tokens
//! did ([`Located`] events) is worded on the line of the token.
//!
//! Choices the spec leaves open:
//! - The import root is the nearest directory holding `.git` inside the
//!   workspace, else the workspace root (a checkout without its `.git`, as
//!   in the test corpus, judged as if the repository's root were the
//!   workspace's), so an import leaving the workspace is MP007: Gemini
//!   refuses it there, and inlines it when the repository's root lies
//!   above.
//! - Only imports that look like a file are reported
//!   ([`looks_like_a_file`]); URLs (which Gemini refuses) are not.
//! - MP022 is a context file inlined into a context file of its own
//!   directory or below (whenever the importer loads, the imported file
//!   loads too, so its text goes twice), itself included (the chain Gemini
//!   checks does not hold the context file).
//! - One finding per token, however many context files reach it.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::context::ContextFile;
use crate::limits;
use crate::prompt::agents::gemini::context::{fetch_from, rel_under};
use crate::prompt::agents::gemini::imports::{Fetch, ImportEvent, ImportFiles, Inliner, Located};
use crate::prompt::imports::looks_like_a_file;
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Lint, Out, line_at, quote};
use crate::prompt::lint::survey::is_within;
use crate::prompt::profile::Agent;
use crate::prompt::walk::absolute;
use crate::workspace::{join, parent};

/// Follows the imports of every context file in `files`.
pub(super) fn check(lint: &Lint<'_>, files: &[ContextFile], out: &mut Out) {
    let port = LintFiles {
        lint,
        root: lint.reader.root().to_path_buf(),
        git: RefCell::new(HashMap::new()),
        fetched: RefCell::new(HashMap::new()),
    };
    let mut reported: HashSet<(String, usize)> = HashSet::new();
    for start in files {
        let Some(text) = lint.read(&start.rel, out) else {
            continue;
        };
        let path = absolute(lint.reader, &start.rel);
        port.fetched
            .borrow_mut()
            .insert(path.clone(), Fetch::Text(text.clone()));
        let mut inliner = Inliner::default();
        inliner.process(&port, &text, &path, false);
        for located in inliner.events {
            let Some(from) = rel_under(&port.root, &located.from) else {
                continue;
            };
            let Some(from_text) = port.text(&located.from) else {
                continue;
            };
            if !reported.insert((from.clone(), located.offset)) {
                continue;
            }
            let written = written_at(&from_text, located.offset);
            let url = ["http:", "https:"].iter().any(|s| written.starts_with(s));
            if !looks_like_a_file(written) || url {
                continue;
            }
            let Some((code, message)) = judge(&port, files, start, &from, &located, written) else {
                continue;
            };
            let line = Some(line_at(&from_text, located.offset));
            out.add(code, &from, line, vec![Agent::Gemini], message);
        }
    }
}

/// The finding one token's event makes, if any.
fn judge(
    port: &LintFiles<'_>,
    files: &[ContextFile],
    start: &ContextFile,
    from: &str,
    located: &Located,
    written: &str,
) -> Option<(Code, String)> {
    let written = quote(written);
    let rel = |path: &Path| rel_under(&port.root, path).unwrap_or_default();
    Some(match &located.event {
        ImportEvent::Missing { .. } => (
            Code::ImportMissing,
            format!(
                "`@{written}` names no file (relative to {}): Gemini CLI writes `Import failed … \
                 ENOENT` into the context in its place",
                shown_dir(parent(from))
            ),
        ),
        ImportEvent::Directory { .. } => (
            Code::ImportMissing,
            format!(
                "`@{written}` names a directory: Gemini CLI writes `Import failed … EISDIR` into \
                 the context in its place"
            ),
        ),
        ImportEvent::Traversal { .. } => (
            Code::ImportExternal,
            format!(
                "`@{written}` leaves the repository: Gemini CLI refuses it (`Import failed … Path \
                 traversal attempt` in the context) unless the repository's root lies above the \
                 workspace, and then inlines it; the preview never reads it"
            ),
        ),
        ImportEvent::Outside { .. } => (
            Code::ImportExternal,
            format!(
                "`@{written}` is a link leaving the workspace: Gemini CLI follows it, the preview \
                 never reads it"
            ),
        ),
        ImportEvent::Cycle { path } => (
            Code::ImportCycle,
            format!(
                "`@{written}` leads back to {}, already on this chain of imports from {}: Gemini \
                 CLI writes `File already processed` in its place",
                rel(path),
                start.rel
            ),
        ),
        ImportEvent::TooDeep { .. } => (
            Code::ImportTooDeep,
            format!(
                "`@{written}` is import level {} below {}: Gemini CLI inlines {} levels, so it is \
                 sent as text",
                limits::GEMINI_MAX_IMPORT_DEPTH + 1,
                start.rel,
                limits::GEMINI_MAX_IMPORT_DEPTH
            ),
        ),
        ImportEvent::Inlined { path } => {
            let target = rel(path);
            let walked = files
                .iter()
                .any(|file| file.rel == target && is_within(&start.dir, &file.dir));
            if !walked {
                return None;
            }
            (
                Code::GeminiSentTwice,
                format!(
                    "`@{written}` inlines {target}, a context file Gemini CLI also loads on its \
                     own wherever {} loads: its text is sent twice",
                    start.rel
                ),
            )
        }
        ImportEvent::Capped { .. } | ImportEvent::Withheld { .. } | ImportEvent::Unread { .. } => {
            return None;
        }
    })
}

/// The path of the token whose `@` is at `offset` in `text`.
fn written_at(text: &str, offset: usize) -> &str {
    let rest = text.get(offset + 1..).unwrap_or_default();
    let end = rest.find([' ', '\t', '\n', '\r']).unwrap_or(rest.len());
    &rest[..end]
}

/// A workspace directory as a message names it.
fn shown_dir(dir: &str) -> &str {
    if dir.is_empty() {
        "the workspace root"
    } else {
        dir
    }
}

/// The workspace as the inliner reads it, each file once.
struct LintFiles<'a> {
    lint: &'a Lint<'a>,
    root: PathBuf,
    git: RefCell<HashMap<PathBuf, bool>>,
    fetched: RefCell<HashMap<PathBuf, Fetch>>,
}

impl LintFiles<'_> {
    /// The text of a file read already.
    fn text(&self, path: &Path) -> Option<String> {
        match self.fetched.borrow().get(path) {
            Some(Fetch::Text(text)) => Some(text.clone()),
            _ => None,
        }
    }

    fn has_git(&self, dir: &Path) -> bool {
        if let Some(known) = self.git.borrow().get(dir) {
            return *known;
        }
        let found = rel_under(&self.root, dir)
            .is_some_and(|rel| self.lint.reader.stat(&join(&rel, ".git")).is_ok());
        self.git.borrow_mut().insert(dir.to_path_buf(), found);
        found
    }
}

impl ImportFiles for LintFiles<'_> {
    fn import_root(&self, dir: &Path) -> PathBuf {
        if !dir.starts_with(&self.root) {
            return dir.to_path_buf();
        }
        dir.ancestors()
            .take_while(|ancestor| ancestor.starts_with(&self.root))
            .find(|ancestor| self.has_git(ancestor))
            .unwrap_or(&self.root)
            .to_path_buf()
    }

    fn fetch(&self, path: &Path, _user: bool) -> Fetch {
        if let Some(known) = self.fetched.borrow().get(path) {
            return known.clone();
        }
        let fetched = match rel_under(&self.root, path) {
            Some(rel) => fetch_from(self.lint.reader, &rel),
            None => Fetch::Outside,
        };
        self.fetched
            .borrow_mut()
            .insert(path.to_path_buf(), fetched.clone());
        fetched
    }
}
