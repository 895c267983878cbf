//! The workspaces of a session (SPEC §21.1, "Workspace"): one [`Context`]
//! per folder, resolved once at `initialize` (trust is fixed then), whose
//! project reader is an overlay of the open buffers; and the mapping
//! between `file:` URIs and workspace-relative paths.
//!
//! Choices the spec leaves open:
//! - A folder whose `--at` (from `initializationOptions.at` or the flag)
//!   is not a directory inside it starts at its root, with a line on
//!   stderr; a folder that cannot be resolved at all is left out.
//! - URIs are compared after percent-decoding and lexical normalisation;
//!   links are not resolved (the editor names files as it opened them).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cli::context::{Context, Format, GlobalArgs, normalise};
use crate::cli::output::file_uri_path;
use crate::workspace::{OverlayWorkspace, slashed};

/// One workspace folder.
#[derive(Debug)]
pub(super) struct Folder {
    /// Its root, absolute and normalised.
    pub(super) root: PathBuf,
    /// The run every request in it reads with (JSON output).
    pub(super) ctx: Context,
    /// The open buffers over its files.
    pub(super) overlay: Arc<OverlayWorkspace>,
}

impl Folder {
    /// The folder at `root` under the server's global options, with `at`
    /// as its start directory when given.
    pub(super) fn resolve(global: &GlobalArgs, root: &Path, at: Option<&Path>) -> Option<Folder> {
        let mut args = global.clone();
        args.workspace = Some(root.to_path_buf());
        args.format = Format::Json;
        if let Some(at) = at {
            args.at = Some(at.to_path_buf());
        }
        let mut ctx = match Context::resolve(&args) {
            Ok(ctx) => ctx,
            Err(err) if args.at.is_some() => {
                eprintln!(
                    "mecatl-prompt lsp: {}: {err}; starting at its root",
                    root.display()
                );
                args.at = None;
                Context::resolve(&args)
                    .map_err(|err| eprintln!("mecatl-prompt lsp: {}: {err}", root.display()))
                    .ok()?
            }
            Err(err) => {
                eprintln!("mecatl-prompt lsp: {}: {err}", root.display());
                return None;
            }
        };
        let overlay = Arc::new(OverlayWorkspace::new(ctx.reader.clone()));
        ctx.reader = overlay.clone();
        Some(Folder {
            root: ctx.workspace.clone(),
            ctx,
            overlay,
        })
    }

    /// `path` relative to this folder, `/`-separated, when inside it.
    pub(super) fn relative(&self, path: &Path) -> Option<String> {
        path.strip_prefix(&self.root).ok().map(slashed)
    }
}

/// The folder holding `path` that lies deepest, and `path` relative to it.
pub(super) fn innermost<'f>(
    folders: &'f [Folder],
    path: &Path,
) -> Option<(usize, &'f Folder, String)> {
    folders
        .iter()
        .enumerate()
        .filter_map(|(i, folder)| Some((i, folder, folder.relative(path)?)))
        .max_by_key(|(_, folder, _)| folder.root.as_os_str().len())
}

/// The path a `file:` URI names, normalised; `None` for another scheme
/// or a path that is not absolute.
pub(super) fn uri_to_path(uri: &str) -> Option<PathBuf> {
    file_uri_path(uri)
        .filter(|path| path.is_absolute())
        .map(|path| normalise(&path))
}

/// The `file:` URI of the absolute `path`; a Windows drive keeps its
/// colon, as editors write it (`file:///C:/x`).
pub(super) fn path_to_uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = if text.starts_with('/') {
        text
    } else {
        format!("/{text}")
    };
    let bytes = text.as_bytes();
    let drive = bytes.len() >= 3 && bytes[1].is_ascii_alphabetic() && bytes[2] == b':';
    let (head, rest) = text.split_at(if drive { 3 } else { 0 });
    format!("file://{head}{}", crate::cli::output::uri_path(rest))
}

/// Whether the workspace-relative `rel` is an agent file (SPEC §21.1):
/// an instruction file by name in any directory, or anything under
/// `.claude/`, `.mecatl/`, `.agents/skills/` or `.codex/skills/`.
pub(super) fn is_agent_file(rel: &str) -> bool {
    const NAMES: [&str; 5] = [
        "CLAUDE.md",
        "CLAUDE.local.md",
        "AGENTS.md",
        "AGENTS.override.md",
        "GEMINI.md",
    ];
    const DIRS: [&str; 4] = [".claude/", ".mecatl/", ".agents/skills/", ".codex/skills/"];
    NAMES.contains(&crate::workspace::base_name(rel))
        || DIRS
            .iter()
            .any(|dir| rel.starts_with(dir) || rel.contains(&format!("/{dir}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn uris_round_trip_with_escapes() {
        let path = Path::new("/tmp/a b/é#.md");
        let uri = path_to_uri(path);
        assert_eq!(uri, "file:///tmp/a%20b/%C3%A9%23.md");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        assert_eq!(
            uri_to_path("file://localhost/x/./y/../z"),
            Some(PathBuf::from("/x/z"))
        );
        assert_eq!(uri_to_path("untitled:Untitled-1"), None);
        assert_eq!(uri_to_path("file:///bad%zz"), None);
    }

    #[cfg(windows)]
    #[test]
    fn windows_uris_keep_the_drive_colon_and_round_trip() {
        let path = Path::new(r"C:\w s\a.md");
        let uri = path_to_uri(path);
        assert_eq!(uri, "file:///C:/w%20s/a.md");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        assert_eq!(
            uri_to_path("file:///c%3A/w/a.md"),
            Some(PathBuf::from(r"c:\w\a.md"))
        );
    }

    #[test]
    fn agent_files_are_named_or_under_agent_directories() {
        for rel in [
            "CLAUDE.md",
            "web/AGENTS.override.md",
            ".claude/rules/a.md",
            "x/.codex/skills/s/SKILL.md",
        ] {
            assert!(is_agent_file(rel), "{rel}");
        }
        for rel in [
            "README.md",
            "src/claude.md",
            ".agents/other.md",
            "x.claude/a",
        ] {
            assert!(!is_agent_file(rel), "{rel}");
        }
    }
}
