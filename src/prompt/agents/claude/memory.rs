//! Claude Code's auto-memory (SPEC §14.3): `projects/<key>/memory/MEMORY.md`
//! below the user's configuration directory, sent after the whole walk.
//!
//! Observed (`tests/oracle/cases/claude-instructions/auto-memory*`): the
//! key is the git root (without git: the cwd) with every character other
//! than an ASCII letter or digit replaced by `-`; the content is the file's
//! [`claude_memory`] (the usual transform, then at most 200 lines and
//! 25,000 UTF-16 units); its `@imports` are not followed.

use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::claude::assembly::Assembly;
use crate::prompt::agents::claude::read::{Read, Source};
use crate::prompt::markdown::{claude_content, claude_memory};
use crate::prompt::profile::{Cut, NotLoadedReason, Part, PartKind, Scope};
use crate::workspace::Workspace;

/// Claude Code's name for a project's directory below `projects/`: one
/// `-` per UTF-16 unit of every character other than an ASCII letter or
/// digit (JavaScript replaces code units).
fn project_slug(key: &Path) -> String {
    let mut slug = String::new();
    for c in key.to_string_lossy().chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else {
            slug.extend(std::iter::repeat_n('-', c.len_utf16()));
        }
    }
    slug
}

/// Loads the auto-memory of the assembly's project from `user` (the
/// user's configuration directory), if there is one.
pub(crate) fn load_memory<'a>(
    assembly: &mut Assembly<'_, 'a>,
    user: &'a dyn Workspace,
    out: &mut Vec<Part>,
) {
    let rel = format!("projects/{}/memory/MEMORY.md", project_slug(assembly.key()));
    let source = Source {
        reader: user,
        abs: super::absolute(user, &rel),
        rel,
        scope: Scope::User,
        depth: 0,
    };
    let path = assembly.shown(Scope::User, &source.abs);
    let read = Read::of(user, &source.rel);
    let Some(text) = assembly.text_of(&source, &path, read, None) else {
        return;
    };
    let Some((content, cut)) = claude_memory(&text) else {
        assembly.skip(
            Scope::User,
            path,
            NotLoadedReason::Blank,
            "nothing is left once frontmatter, comments and whitespace are removed",
        );
        return;
    };
    let cut = cut.then(|| {
        let whole = claude_content(&text).map_or(0, |c| c.len());
        Cut {
            kept: content.len() as u64,
            omitted: whole.saturating_sub(content.len()) as u64,
        }
    });
    if cut.is_some() {
        assembly.diagnose(Diagnostic::info(
            &path,
            format!(
                "cut to its first {} lines and {} UTF-16 units, as Claude Code cuts it",
                limits::MAX_CLAUDE_MEMORY_LINES,
                limits::MAX_CLAUDE_MEMORY_UNITS
            ),
        ));
    }
    out.push(Part {
        path,
        scope: Scope::User,
        kind: PartKind::AutoMemory,
        imported_by: None,
        content: content.into_owned(),
        cut,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slug_replaces_every_character_but_ascii_letters_and_digits() {
        assert_eq!(
            project_slug(Path::new("/tmp/a.b_c/wé s")),
            "-tmp-a-b-c-w--s"
        );
        assert_eq!(project_slug(Path::new("/x/😀")), "-x---");
    }
}
