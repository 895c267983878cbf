//! Expanding a typed `/name arguments` line as Claude Code would (SPEC
//! §14.5): the name resolved through the Claude directories, the file
//! rendered in Claude's dialect, its shell commands replaced by
//! placeholders and its `@path` mentions reported as attachments, never
//! run nor read.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::command::claude_catalog::files::{ClaudeFile, ClaudeFiles};
use crate::prompt::command::claude_catalog::injections::{Placeholder, defuse, mentions};
use crate::prompt::command::claude_catalog::resolve::{
    alias_note, parse_claude_invocation, resolve_claude,
};
use crate::prompt::command::claude_dialect::{self, split_arguments};
use crate::prompt::command::claude_listing::Kind;
use crate::prompt::command::resolution::invalid_name;
use crate::prompt::command::{Expansion, NotExpanded};
use crate::prompt::text::js_trim;
use crate::prompt::tiers::{Candidate, Fate, SearchDir};
use crate::prompt::turn0::ReadFault;
use crate::prompt::walk::absolute;
use crate::workspace::{EntryKind, Workspace, WsError, join};

/// What an expansion needs to know about the run besides the directories.
#[derive(Clone)]
pub struct ExpandEnv<'r> {
    /// The project reader (confined to the workspace): where `@path`
    /// mentions are looked at.
    pub project: Arc<dyn Workspace + 'r>,
    /// The start directory, workspace-relative (`""` for the root): what
    /// relative mentions resolve against.
    pub at: String,
    /// False in an untrusted workspace: mentioned project files are not
    /// looked at.
    pub trusted: bool,
}

impl ExpandEnv<'_> {
    /// The start directory's absolute path (`${CLAUDE_PROJECT_DIR}`).
    fn project_dir(&self) -> String {
        absolute(self.project.as_ref(), &self.at)
            .display()
            .to_string()
    }
}

/// What became of a file an `@path` mention names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachmentStatus {
    /// A file of the workspace: Claude Code attaches its content.
    Attached,
    /// A directory of the workspace: Claude Code attaches its listing.
    Directory,
    /// Nothing is there: Claude Code attaches nothing.
    NotFound,
    /// Outside the workspace (`../`, `~/`, an absolute path elsewhere):
    /// Claude Code attaches it; the preview never looks at it.
    Outside,
    /// A project file of an untrusted workspace: not looked at.
    Withheld,
    /// Something the preview will not or cannot use: a link leaving the
    /// workspace, a FIFO, a read fault.
    Unusable(String),
}

impl AttachmentStatus {
    /// The status as one phrase, used in text and JSON.
    pub fn phrase(&self) -> String {
        match self {
            AttachmentStatus::Attached => "attached".into(),
            AttachmentStatus::Directory => "directory: its listing is attached".into(),
            AttachmentStatus::NotFound => "not found: nothing is attached".into(),
            AttachmentStatus::Outside => "outside the workspace: not read".into(),
            AttachmentStatus::Withheld => "withheld: untrusted".into(),
            AttachmentStatus::Unusable(why) => format!("not read: {why}"),
        }
    }
}

/// One `@path` mention of an expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The file: workspace-relative when it lies in the workspace, else as
    /// written.
    pub path: String,
    /// Its size, for an attached file.
    pub bytes: Option<u64>,
    /// What became of it.
    pub status: AttachmentStatus,
}

/// The JSON shape of SPEC §14.5: `{path, bytes, status}`.
impl Serialize for Attachment {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut entry = serializer.serialize_struct("Attachment", 3)?;
        entry.serialize_field("path", &self.path)?;
        entry.serialize_field("bytes", &self.bytes)?;
        entry.serialize_field("status", &self.status.phrase())?;
        entry.end()
    }
}

#[cfg(test)]
crate::json_schema::closed::closed_schema!(Attachment, "One `@path` mention of an expansion.", {
    "path" = "Workspace-relative when it lies in the workspace, else as written.",
    "bytes": Option<u64>,
    "status" = "What became of it, in words (`attached`, `not found: nothing is attached`, …).",
});

/// Everything an expansion under the Claude profile reports.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaudeExpansion {
    /// What the input expanded to, or the input unchanged. `args` is the
    /// shell-style split of the arguments.
    pub expansion: Expansion,
    /// Command or skill, when expanded.
    pub kind: Option<Kind>,
    /// The expanded file's frontmatter keys.
    pub frontmatter: Map<String, Value>,
    /// The shell commands Claude Code would run, each replaced by a
    /// placeholder in the output.
    pub shell: Vec<Placeholder>,
    /// The files the `@path` mentions name.
    pub attachments: Vec<Attachment>,
    /// Diagnostics about the files looked at and the expansion.
    pub diagnostics: Vec<Diagnostic>,
    /// When nothing expanded although a file is there: why.
    pub not_expanded: Option<NotExpanded>,
}

/// Expands `input` against `dirs` (SPEC §14.5). An unknown name or a
/// non-command comes back unchanged (§2.2); a read fault on the file that
/// would have been used is an error naming it.
pub fn expand_claude(
    dirs: &[SearchDir<'_>],
    input: &str,
    env: &ExpandEnv<'_>,
) -> Result<ClaudeExpansion, ReadFault> {
    let unchanged = |diagnostics, not_expanded| ClaudeExpansion {
        expansion: Expansion::unchanged(input),
        kind: None,
        frontmatter: Map::new(),
        shell: Vec::new(),
        attachments: Vec::new(),
        diagnostics,
        not_expanded,
    };
    let Some(invocation) = parse_claude_invocation(input) else {
        return Ok(unchanged(
            Vec::new(),
            invalid_name(dirs, &ClaudeFiles::WHOLE, input, ""),
        ));
    };
    let resolved = resolve_claude(dirs, invocation.name);
    let mut resolution = resolved.found.resolution;
    if let Some(fault) = resolution.faults.drain(..).next() {
        return Err(fault);
    }
    let mut diagnostics = std::mem::take(&mut resolution.diagnostics);
    diagnostics.extend(resolved.alias.as_ref().map(alias_note));
    let winner = resolution
        .candidates
        .iter()
        .position(|c| c.fate == Fate::Winner);
    let Some(winner) = winner else {
        let name = invocation.name.to_string();
        let candidates = resolution.candidates;
        let not_expanded = match candidates.iter().find(|c| c.fate == Fate::Withheld) {
            Some(withheld) => Some(NotExpanded::Withheld {
                source: withheld.source.clone(),
                name,
            }),
            None if !candidates.is_empty() => Some(NotExpanded::Unusable {
                name,
                candidates: candidates.into_iter().map(without_item).collect(),
            }),
            None => invalid_name(dirs, &ClaudeFiles::WHOLE, input, invocation.name),
        };
        return Ok(unchanged(diagnostics, not_expanded));
    };
    let winner = resolution.candidates.swap_remove(winner);
    let Some(file) = winner.item else {
        return Ok(unchanged(diagnostics, None));
    };
    if file.model_only() {
        let not_expanded = NotExpanded::ModelOnly {
            name: winner.name,
            source: winner.source,
        };
        return Ok(unchanged(diagnostics, Some(not_expanded)));
    }
    let dir = &dirs[winner.dir_index];
    let skill_dir = (file.kind == Kind::Skill).then(|| {
        let parent = winner.rel.rsplit_once('/').map_or("", |(dir, _)| dir);
        absolute(dir.reader.as_ref(), parent).display().to_string()
    });
    let project_dir = env.project_dir();
    let names = file.argument_names();
    let context = claude_dialect::Context {
        skill_dir: skill_dir.as_deref(),
        project_dir: Some(&project_dir),
        argument_names: &names,
    };
    let rendered = claude_dialect::render(&file.text, invocation.args, &context);
    if let Some(limit) = rendered.truncated_at {
        diagnostics.push(Diagnostic::warning(
            &winner.source,
            format!("the expansion passed {limit} bytes and was cut there"),
        ));
    }
    let defused = defuse(&rendered.text);
    diagnostics.extend(shell_warning(&winner.source, &defused.commands));
    let attachments: Vec<Attachment> = mentions(&defused.without_commands)
        .iter()
        .map(|path| attachment(env, path))
        .collect();
    diagnostics.extend(attachment_notes(&winner.source, &attachments));
    Ok(ClaudeExpansion {
        expansion: Expansion {
            expanded: true,
            name: Some(winner.name),
            args: split_arguments(js_trim(invocation.args)),
            source: Some(winner.source),
            output: defused.text,
        },
        kind: Some(file.kind),
        frontmatter: file.keys(),
        shell: defused.commands,
        attachments,
        diagnostics,
        not_expanded: None,
    })
}

fn without_item(candidate: Candidate<ClaudeFile>) -> Candidate<String> {
    Candidate {
        name: candidate.name,
        dir_index: candidate.dir_index,
        rel: candidate.rel,
        source: candidate.source,
        fate: candidate.fate,
        item: None,
        diagnostics: candidate.diagnostics,
    }
}

/// One warning for the shell commands of an expansion.
fn shell_warning(source: &str, commands: &[Placeholder]) -> Option<Diagnostic> {
    let shown: Vec<String> = commands
        .iter()
        .take(3)
        .map(|c| format!("`{}`", one_line(&c.command)))
        .collect();
    let first = shown.first()?;
    let more = match commands.len() {
        1 => String::new(),
        n if n <= 3 => format!(", {}", shown[1..].join(", ")),
        n => format!(", {} and {} more", shown[1..].join(", "), n - 3),
    };
    Some(Diagnostic::warning(
        source,
        format!(
            "Claude Code runs {} shell command(s) of this file and sends their output \
             ({first}{more}); the preview never runs them and shows a placeholder instead",
            commands.len()
        ),
    ))
}

/// The attachments in one info line, and a warning for each file Claude
/// Code would attach that the preview does not look at.
fn attachment_notes(source: &str, attachments: &[Attachment]) -> Vec<Diagnostic> {
    if attachments.is_empty() {
        return Vec::new();
    }
    let listed: Vec<String> = attachments
        .iter()
        .map(|a| match (&a.status, a.bytes) {
            (AttachmentStatus::Attached, Some(bytes)) => format!("{} ({bytes} bytes)", a.path),
            (status, _) => format!("{} ({})", a.path, status.phrase()),
        })
        .collect();
    let mut notes = vec![Diagnostic::info(
        source,
        format!(
            "Claude Code attaches the files this text mentions: {}",
            listed.join(", ")
        ),
    )];
    notes.extend(
        attachments
            .iter()
            .filter(|a| matches!(a.status, AttachmentStatus::Outside | AttachmentStatus::Unusable(_)))
            .map(|a| {
                Diagnostic::new(
                    Severity::Warning,
                    Some(source.to_string()),
                    format!(
                        "@{}: Claude Code would attach this file; the preview does not read it ({})",
                        a.path,
                        a.status.phrase()
                    ),
                )
            }),
    );
    notes
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Resolves one mention against the start directory and looks at it
/// through the confined reader, never outside the workspace (opencode's
/// attachments are looked at the same way).
pub fn attachment(env: &ExpandEnv<'_>, mention: &str) -> Attachment {
    let outside = || Attachment {
        path: mention.to_string(),
        bytes: None,
        status: AttachmentStatus::Outside,
    };
    if mention.starts_with('~') {
        return outside();
    }
    let rel = match mention.strip_prefix('/') {
        Some(_) => std::path::Path::new(mention)
            .strip_prefix(env.project.root())
            .ok()
            .and_then(|rest| rest.to_str())
            .and_then(normalise),
        None => normalise(&join(&env.at, mention)),
    };
    let Some(rel) = rel else {
        return outside();
    };
    let status = |status| Attachment {
        path: rel.clone(),
        bytes: None,
        status,
    };
    if !env.trusted {
        return status(AttachmentStatus::Withheld);
    }
    match env.project.stat(&rel) {
        Ok(EntryKind::File) => match env.project.read(&rel, 0) {
            Ok(read) => Attachment {
                path: rel.clone(),
                bytes: Some(read.size),
                status: AttachmentStatus::Attached,
            },
            Err(err) => status(unusable(err)),
        },
        Ok(EntryKind::Dir) => status(AttachmentStatus::Directory),
        Ok(EntryKind::Other(what)) => status(AttachmentStatus::Unusable(format!(
            "not a regular file ({what})"
        ))),
        Ok(EntryKind::Symlink) => status(AttachmentStatus::Unusable("a symlink".into())),
        Err(err) => status(unusable(err)),
    }
}

fn unusable(err: WsError) -> AttachmentStatus {
    match err {
        WsError::NotFound | WsError::NotADirectory => AttachmentStatus::NotFound,
        WsError::Refused(why) => AttachmentStatus::Unusable(format!("refused symlink: {why}")),
        other => AttachmentStatus::Unusable(other.to_string()),
    }
}

/// `rel` with `.` and `..` resolved lexically; `None` when it leaves the
/// root.
fn normalise(rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}
