//! Go to definition on an `@import` (SPEC §21.1, §14.3): the import
//! scanner Claude Code's profile uses decides what is an import, and the
//! target opens only when it is a file inside the workspace that the
//! confined reader serves (a link leading out is refused, as the preview
//! refuses to read it).
//!
//! Choices the spec leaves open:
//! - The token runs from its `@` to the next whitespace not escaped by a
//!   backslash; the cursor anywhere on it, `@` included, selects it.
//! - `@~/…` resolves against the home directory, so it opens only for a
//!   home inside the workspace; the document's own text (the open buffer)
//!   is what is scanned, and a buffer not on disk is a valid target.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::folders::{Folder, path_to_uri};
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::imports::scan;
use crate::workspace::{EntryKind, Workspace, parent, slashed};

/// The location the import under byte `offset` of `text` (the document
/// `rel` of `folder`) names; `None` when there is none to open.
pub(super) fn definition(folder: &Folder, rel: &str, text: &str, offset: usize) -> Option<Value> {
    let body = split_frontmatter(text).1;
    let base = body.as_ptr() as usize - text.as_ptr() as usize;
    let import = scan(body).into_iter().find(|import| {
        let start = base + import.offset;
        start <= offset && offset < token_end(text, start)
    })?;
    let home = folder
        .ctx
        .locations
        .home
        .clone()
        .unwrap_or_else(|| PathBuf::from("/"));
    let target = import.resolve(&folder.root.join(parent(rel)), &home);
    let target_rel = slashed(target.strip_prefix(&folder.root).ok()?);
    let reader: &dyn Workspace = &*folder.ctx.reader;
    reader.real_path(&target_rel).ok()?;
    if reader.stat(&target_rel).ok()? != EntryKind::File {
        return None;
    }
    Some(json!({
        "uri": path_to_uri(&target),
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
    }))
}

/// The end of the `@path` token starting at byte `start` of `text`.
fn token_end(text: &str, start: usize) -> usize {
    let mut chars = text[start..].char_indices().skip(1).peekable();
    while let Some((at, c)) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|(_, next)| *next == ' ') {
            chars.next();
        } else if c.is_whitespace() {
            return start + at;
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_ends_at_unescaped_whitespace() {
        let text = "see @a\\ b.md now";
        assert_eq!(&text[4..token_end(text, 4)], "@a\\ b.md");
        assert_eq!(token_end("@x", 0), 2);
    }
}
