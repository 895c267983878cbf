//! Command files (SPEC §5.5) as a kind of the precedence engine
//! ([`crate::prompt::tiers`]): how one is read, what is reported about it,
//! and where command directories are searched.

use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::files::CLAUDE_COMMANDS_DIR;
use crate::prompt::command::command_frontmatter::misplaced_frontmatter;
use crate::prompt::divergence;
use crate::prompt::text::{INVALID_UTF8_REPLACED, decode_read};
use crate::prompt::tiers::{
    Kind, Listed, Loaded, Loss, SearchDir, Tier, Words, read_listed, walk_tree,
};
use crate::workspace::{EntryKind, Workspace};

/// The default project command directories, highest precedence first.
pub const DEFAULT_COMMAND_DIRS: [&str; 2] = [".mecatl/commands", CLAUDE_COMMANDS_DIR];

/// How command files are named in diagnostics; a refused symlink or a
/// file name that is not UTF-8 is a warning (SPEC §5.5: "not found" plus a
/// warning).
pub const COMMAND_WORDS: Words = Words {
    noun: "command",
    plural: "commands",
    dir_noun: "command directory",
    refusal: Severity::Warning,
};

/// The command directories `dirs` of `reader` (relative to its root), in
/// the order given, with `tier`, withheld when `withheld`.
pub fn command_dirs<'r>(
    reader: Arc<dyn Workspace + 'r>,
    dirs: &[impl AsRef<str>],
    tier: Tier,
    withheld: bool,
) -> Vec<SearchDir<'r>> {
    dirs.iter()
        .map(|dir| SearchDir::flat(reader.clone(), dir.as_ref(), tier).withheld_if(withheld))
        .collect()
}

/// Reads a command or skill file, at most `read_bytes`, decoded lossily,
/// with what every such file is told: that it is larger than
/// [`limits::MAX_COMMAND_FILE_BYTES`] (only that much is ever used), and
/// that invalid UTF-8 was replaced.
pub(crate) fn read_text(
    words: &Words,
    dir: &SearchDir<'_>,
    file: &Listed,
    read_bytes: u64,
) -> Result<(String, Vec<Diagnostic>), Loss> {
    let content = read_listed(words, dir, file, read_bytes)?;
    // Named only when something is said about it.
    let source = || dir.display(&file.rel);
    let mut notes = Vec::new();
    if content.size > limits::MAX_COMMAND_FILE_BYTES {
        notes.push(Diagnostic::warning(
            source(),
            format!(
                "file is {} bytes; only the first {} bytes are used",
                content.size,
                limits::MAX_COMMAND_FILE_BYTES
            ),
        ));
    }
    let truncated = content.is_truncated();
    let decoded = decode_read(content.bytes, truncated);
    if decoded.lossy {
        notes.push(Diagnostic::warning(source(), INVALID_UTF8_REPLACED));
    }
    Ok((decoded.text.into_owned(), notes))
}

/// The command-file kind of the precedence engine: a usable file yields
/// its content, decoded lossily, read up to `read_bytes` (the description
/// head for listings, the whole read bound for expansion).
#[derive(Debug, Clone, Copy)]
pub struct CommandFiles {
    /// How much of a file is read.
    pub read_bytes: u64,
}

impl CommandFiles {
    /// Reads whole files (up to [`limits::MAX_COMMAND_FILE_BYTES`]), for
    /// expansion.
    pub const WHOLE: Self = Self {
        read_bytes: limits::MAX_COMMAND_FILE_BYTES,
    };
    /// Reads the first [`limits::COMMAND_DESCRIPTION_HEAD_BYTES`], all a
    /// description can come from, for listings.
    pub const HEAD: Self = Self {
        read_bytes: limits::COMMAND_DESCRIPTION_HEAD_BYTES,
    };
}

impl Kind for CommandFiles {
    type Item = String;

    fn words(&self, _dir: &SearchDir<'_>) -> &Words {
        &COMMAND_WORDS
    }

    fn load(&self, dir: &SearchDir<'_>, file: &Listed) -> Result<Loaded<String>, Loss> {
        let (text, mut notes) = read_text(&COMMAND_WORDS, dir, file, self.read_bytes)?;
        if let Some(misplaced) = misplaced_frontmatter(text.as_bytes()) {
            notes.push(Diagnostic::warning(
                dir.display(&file.rel),
                misplaced.describe(),
            ));
        }
        Ok(Loaded { item: text, notes })
    }

    /// The engine does not read nested directories. In the project's
    /// `.claude/commands`, Claude Code offers their files as `/dir:name`:
    /// a divergence warning says so ([`divergence::nested_commands_warning`],
    /// counting the `.md` files at any depth); elsewhere, and for a
    /// directory without `.md` files, an info.
    fn nested_dir(
        &self,
        dir: &SearchDir<'_>,
        rel: &str,
        name: &str,
        kind: EntryKind,
    ) -> Option<Diagnostic> {
        let is_dir = match kind {
            EntryKind::Dir => true,
            EntryKind::Symlink => matches!(dir.reader.stat(rel), Ok(EntryKind::Dir)),
            _ => false,
        };
        if !is_dir {
            return None;
        }
        // Claude Code's names for the files below, at any depth
        // (`a/b.md` is `a:b`), from one bounded walk that reads nothing.
        let mut stems: Vec<String> = walk_tree(dir.reader.as_ref(), rel, false)
            .files
            .iter()
            .filter_map(|file| {
                file.strip_prefix(rel)?
                    .strip_prefix('/')?
                    .strip_suffix(".md")
            })
            .filter(|stem| !stem.is_empty() && !stem.ends_with('/'))
            .map(|stem| stem.replace('/', ":"))
            .collect();
        stems.sort_unstable();
        let claude_reads = dir.tier == Tier::Project && dir.dir == divergence::CLAUDE_COMMANDS_DIR;
        if claude_reads && !stems.is_empty() {
            return Some(divergence::nested_commands_warning(
                &dir.display(rel),
                name,
                &stems,
            ));
        }
        Some(Diagnostic::info(
            dir.display(rel),
            "nested directory not read: commands are only taken from .md files directly in \
             the commands directory",
        ))
    }
}
