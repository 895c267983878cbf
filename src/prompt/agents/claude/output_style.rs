//! Claude Code's output style (SPEC §19.3), as observed with Claude Code
//! 2.1.328: `outputStyle` of the settings (the local file over the
//! project's over the user's) names a style; a file of
//! `<cwd>/.claude/output-styles/*.md` or `$CLAUDE_CONFIG_DIR/output-styles/*.md`
//! whose `name:` (else its file stem) is that name supplies it. Claude Code
//! then sends `# Output Style: NAME\nBODY` (the body without its
//! frontmatter, trimmed) in its system message after the model line, and
//! swaps the first sentence of its own system prompt (not ours to show:
//! an info line says so).
//!
//! - `default` selects no style. `Explanatory`, `Concise`, `Proactive` and
//!   `Learning` are Claude Code's own styles: named in an info line, their
//!   text not shown.
//! - A name no file has is a warning (Claude Code adds nothing, silently).
//! - The project's styles are project files: untrusted, withheld and never
//!   read.
//!
//! Choices the spec leaves open:
//! - The project's styles are searched before the user's, each directory
//!   in name order; the first file of the name wins.
//! - The preview puts the part in a system message of its own (provenance
//!   `output-style`) after the instructions.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::claude::names;
use crate::prompt::agents::claude::settings::ClaudeSettings;
use crate::prompt::command::claude_dialect::{read_frontmatter, strip_frontmatter};
use crate::prompt::profile::inventory::OutputStyle;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Part, PartKind, ProfileMessage, Scope};
use crate::prompt::text::{decode_lossy, js_trim};
use crate::prompt::turn0::{Provenance, Role};
use crate::workspace::{EntryKind, Workspace, join};

/// The directory of style files below `.claude` or the user's directory.
const STYLES_DIR: &str = "output-styles";
/// The name that selects no style.
const DEFAULT_STYLE: &str = "default";
/// Claude Code 2.1.328's own styles (observed).
const BUILT_IN: [&str; 4] = ["Explanatory", "Concise", "Proactive", "Learning"];

/// The style chosen for a run and what it adds.
#[derive(Debug, Default)]
pub(crate) struct Styled {
    /// The style file chosen (`None` when no file style applies).
    pub style: Option<OutputStyle>,
    /// Its turn-0 message.
    pub message: Option<ProfileMessage>,
    /// Style files trust withheld.
    pub not_loaded: Vec<NotLoaded>,
    /// Infos and warnings.
    pub diagnostics: Vec<Diagnostic>,
}

/// Where the style files are.
pub(crate) struct StyleDirs<'a> {
    /// The workspace.
    pub project: &'a dyn Workspace,
    /// The cwd, relative to the workspace.
    pub at: &'a str,
    /// The user's configuration directory.
    pub user: Option<&'a dyn Workspace>,
    /// Whether the project's files may be read.
    pub trusted: bool,
}

/// The output style the settings select, read from `dirs`.
pub(crate) fn output_style(settings: &ClaudeSettings, dirs: &StyleDirs<'_>) -> Styled {
    let mut out = Styled::default();
    let Some((file, Value::String(name))) = settings.get("outputStyle") else {
        return out;
    };
    if name == DEFAULT_STYLE {
        return out;
    }
    if BUILT_IN.contains(&name.as_str()) {
        out.diagnostics.push(Diagnostic::new(
            Severity::Info,
            Some(file.path.clone()),
            format!(
                "output style {name:?} is Claude Code's own: it adds `# Output Style: {name}` and \
                 its own text, not shown"
            ),
        ));
        return out;
    }
    let project_dir = join(&join(dirs.at, names::DOT_CLAUDE), STYLES_DIR);
    let mut places: Vec<(&dyn Workspace, String, Scope)> = Vec::new();
    if dirs.trusted {
        places.push((dirs.project, project_dir, Scope::Project));
    } else {
        for entry in style_files(dirs.project, &project_dir) {
            out.not_loaded.push(NotLoaded {
                path: dirs.project.display(&entry),
                scope: Scope::Project,
                reason: NotLoadedReason::Withheld,
            });
        }
    }
    if let Some(user) = dirs.user {
        places.push((user, STYLES_DIR.to_string(), Scope::User));
    }
    for (reader, dir, scope) in places {
        for rel in style_files(reader, &dir) {
            let Ok(read) = reader.read(&rel, limits::MAX_COMMAND_FILE_BYTES) else {
                continue;
            };
            if read.is_truncated() {
                continue;
            }
            let text = decode_lossy(&read.bytes);
            if style_name(&rel, &text) != *name {
                continue;
            }
            let path = reader.display(&rel);
            let content = format!(
                "# Output Style: {name}\n{}",
                js_trim(strip_frontmatter(&text))
            );
            out.diagnostics.push(Diagnostic::new(
                Severity::Info,
                Some(path.clone()),
                "the output style also replaces the first sentence of Claude Code's own system \
                 prompt (its own text, not shown)",
            ));
            let part = Part {
                path: path.clone(),
                scope,
                kind: PartKind::OutputStyle,
                imported_by: None,
                content: content.clone(),
                cut: None,
            };
            let mut message = ProfileMessage::joined(Provenance::OutputStyle, vec![part]);
            message.role = Role::System;
            out.message = Some(message);
            out.style = Some(OutputStyle {
                name: name.clone(),
                path,
                scope,
                selected_by: file.path.clone(),
                content,
            });
            return out;
        }
    }
    out.diagnostics.push(Diagnostic::warning(
        file.path.clone(),
        format!(
            "outputStyle {name:?} names no output style in .claude/{STYLES_DIR} or the user's: \
             Claude Code adds nothing, silently"
        ),
    ));
    out
}

/// The `.md` files of `dir`, in name order.
fn style_files(reader: &dyn Workspace, dir: &str) -> Vec<String> {
    let Ok(entries) = reader.list(dir) else {
        return Vec::new();
    };
    entries
        .into_iter()
        .filter(|entry| !entry.lossy && entry.name.ends_with(".md"))
        .filter(|entry| matches!(entry.kind, EntryKind::File | EntryKind::Symlink))
        .map(|entry| join(dir, &entry.name))
        .collect()
}

/// A style's name: its `name:`, else the file's stem.
fn style_name(rel: &str, text: &str) -> String {
    let front = read_frontmatter(text);
    match front.get("name").map(|entry| &entry.value) {
        Some(Value::String(name)) => name.clone(),
        _ => {
            let file = rel.rsplit('/').next().unwrap_or(rel);
            file.strip_suffix(".md").unwrap_or(file).to_string()
        }
    }
}
