//! The verdict on one instruction file under a profile (SPEC §14.7:
//! `explain CLAUDE.md`, `explain sub/AGENTS.md`), read from the profile's
//! [`ProfileTurn0`] alone: a part it loaded, a file it considered and left
//! out (with the typed reason), or a file it never considered — then the
//! places it looked ([`crate::prompt::profile::Searched`]) say why. A
//! profile adds its reasons by filling `not_loaded` and `searched`; nothing
//! here is specific to one agent.
//!
//! Choices the spec leaves open:
//! - A path is named like a part's: relative to `-C` and inside the
//!   workspace → workspace-relative; anything else (absolute, `~/…`) →
//!   absolute. It need not exist.
//! - A file never considered is looked up (never read) to tell "not found"
//!   from "present but not read"; only the first makes `explain` exit 1.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cli::context::Context;
use crate::diagnostic::Diagnostic;
use crate::prompt::profile::{Cut, NotLoaded, Part, ProfileTurn0, Scope};
use crate::workspace::{EntryKind, Workspace, WsError};

/// Where a file stands under a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FileState {
    /// It is a part of a turn-0 message.
    Loaded,
    /// It is a part only once `--touch` reads its path.
    Touched,
    /// The profile considered it and left it out.
    NotLoaded,
    /// It exists, and the profile never looks at it at start.
    NotConsidered,
    /// It does not exist (or is not a file), and the profile does not read it.
    NotFound,
}

/// The loaded part, as `explain` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct PartPlace {
    /// 1-based, counting every part of the output in order.
    pub number: usize,
    /// Its size as sent.
    pub bytes: usize,
    /// Set when a budget cut it.
    pub cut: Option<Cut>,
}

/// Why one file was or was not loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct FileVerdict {
    /// The file, named like a part's path.
    pub path: String,
    /// Its scope, when the profile met it.
    pub scope: Option<Scope>,
    /// Where it stands.
    pub state: FileState,
    /// The verdict in words (`shadowed by …`, `not a name Codex reads …`).
    pub detail: String,
    /// The loaded part.
    pub part: Option<PartPlace>,
    /// Which places the profile reads, and why.
    pub rule: String,
    /// The run's diagnostics that name this file.
    #[serde(skip)]
    pub notes: Vec<Diagnostic>,
}

impl FileVerdict {
    /// True unless nothing is known of the file (`explain` exits 1).
    pub fn found(&self) -> bool {
        self.state != FileState::NotFound
    }
}

/// `name` named like a part's path: workspace-relative when it lies inside
/// the workspace (relative names are taken relative to `-C`), else
/// absolute (`~/` is the home directory).
pub fn part_path(ctx: &Context, name: &str) -> String {
    let absolute = match (name.strip_prefix("~/"), &ctx.locations.home) {
        (Some(rest), Some(home)) => crate::cli::context::normalise(&home.join(rest)),
        _ => ctx.resolve_path(Path::new(name)),
    };
    match absolute.strip_prefix(&ctx.workspace) {
        Ok(rel) => crate::workspace::slashed(rel),
        Err(_) => absolute.display().to_string(),
    }
}

/// What became of the file at `path` (named like a part's path) in
/// `turn0`. `lookup` says what the path is on disk, for a file the profile
/// never met.
pub fn file_verdict(
    turn0: &ProfileTurn0,
    path: &str,
    lookup: impl FnOnce() -> Result<EntryKind, WsError>,
) -> FileVerdict {
    let verdict = |scope, state, detail: String, part| FileVerdict {
        path: path.to_string(),
        scope,
        state,
        detail,
        part,
        rule: turn0.searched.rule.clone(),
        notes: turn0
            .diagnostics
            .iter()
            .filter(|d| d.path.as_deref() == Some(path))
            .cloned()
            .collect(),
    };
    let started = turn0
        .messages
        .iter()
        .flat_map(|m| &m.parts)
        .map(|p| (None, p));
    let later = turn0
        .touch
        .iter()
        .flat_map(|t| t.parts.iter().map(move |p| (Some(t.path.as_str()), p)));
    let numbered = started
        .chain(later)
        .enumerate()
        .map(|(i, found)| (i + 1, found));
    if let Some((number, (by, part))) = numbered.into_iter().find(|(_, (_, p))| p.path == path) {
        let (state, when) = match by {
            None => (FileState::Loaded, "at start".to_string()),
            Some(by) => (FileState::Touched, format!("when {by} is read")),
        };
        let detail = format!("loaded {when}: part {number}{}", cut_words(part));
        return verdict(Some(part.scope), state, detail, Some(place(number, part)));
    }
    if let Some(entry) = turn0.not_loaded.iter().find(|n| n.path == path) {
        let NotLoaded { scope, reason, .. } = entry;
        let detail = format!("not loaded: {}", reason.phrase());
        return verdict(Some(*scope), FileState::NotLoaded, detail, None);
    }
    let (dir, name) = split(path);
    let searched = turn0.searched.dirs.iter().find(|d| d.dir == dir);
    let present = matches!(lookup(), Ok(EntryKind::File));
    let (state, detail) = match (searched, present) {
        (_, false) => (FileState::NotFound, "not found".to_string()),
        (Some(searched), true) if !searched.names.iter().any(|n| n == name) => (
            FileState::NotConsidered,
            format!(
                "not read: {name} is not one of the names read in {}: {}",
                label(dir),
                searched.names.join(", ")
            ),
        ),
        (Some(_), true) => (
            FileState::NotConsidered,
            "not read: an earlier name of its directory is read instead".to_string(),
        ),
        (None, true) => (
            FileState::NotConsidered,
            format!("not read: {} is not a directory read at start", label(dir)),
        ),
    };
    verdict(searched.map(|s| s.scope), state, detail, None)
}

fn place(number: usize, part: &Part) -> PartPlace {
    PartPlace {
        number,
        bytes: part.content.len(),
        cut: part.cut,
    }
}

/// `, cut: K bytes sent, O left out` when a budget cut the part.
fn cut_words(part: &Part) -> String {
    match part.cut {
        Some(cut) => format!(", cut: {} bytes sent, {} left out", cut.kept, cut.omitted),
        None => format!(", {} bytes", part.content.len()),
    }
}

/// A path's directory and file name (`""` for the workspace root).
fn split(path: &str) -> (&str, &str) {
    match path.rsplit_once('/') {
        Some(("", name)) => ("/", name),
        Some((dir, name)) => (dir, name),
        None => ("", path),
    }
}

/// A directory for sentences: `.` for the workspace root.
fn label(dir: &str) -> &str {
    if dir.is_empty() { "." } else { dir }
}

/// What `path` (named like a part's) is on disk, looked up through the
/// project reader when workspace-relative, else through `outside`.
pub fn lookup(
    project: &dyn Workspace,
    outside: &dyn Workspace,
    path: &str,
) -> Result<EntryKind, WsError> {
    if path.starts_with('/') {
        let absolute = PathBuf::from(path);
        match absolute.strip_prefix(outside.root()) {
            Ok(rel) => outside.stat(&rel.to_string_lossy()),
            Err(_) => Err(WsError::NotFound),
        }
    } else {
        project.stat(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::profile::{
        NotLoadedReason, PartKind, ProfileMessage, Searched, SearchedDir, Touched,
    };
    use crate::prompt::turn0::Provenance;

    fn part(path: &str, content: &str) -> Part {
        Part {
            path: path.into(),
            scope: Scope::Project,
            kind: PartKind::Instructions,
            imported_by: None,
            content: content.into(),
            cut: None,
        }
    }

    fn turn0() -> ProfileTurn0 {
        ProfileTurn0 {
            messages: vec![ProfileMessage::joined(
                Provenance::Instructions,
                vec![part("/h/.codex/AGENTS.md", "G"), part("AGENTS.md", "ROOT")],
            )],
            touch: vec![Touched {
                path: "web/x.ts".into(),
                parts: vec![part("web/AGENTS.md", "WEB")],
            }],
            not_loaded: vec![NotLoaded {
                path: "sub/AGENTS.md".into(),
                scope: Scope::Project,
                reason: NotLoadedReason::Shadowed {
                    by: "sub/AGENTS.override.md".into(),
                },
            }],
            diagnostics: vec![
                Diagnostic::info("sub/AGENTS.md", "about it"),
                Diagnostic::info("AGENTS.md", "not about it"),
            ],
            searched: Searched {
                rule: "the rule".into(),
                dirs: vec![SearchedDir {
                    dir: "sub".into(),
                    scope: Scope::Project,
                    names: vec!["AGENTS.override.md".into(), "AGENTS.md".into()],
                }],
            },
            rules: Vec::new(),
            subagents: Vec::new(),
            output_style: None,
            mcp_servers: Vec::new(),
            hooks: Vec::new(),
        }
    }

    fn absent() -> Result<EntryKind, WsError> {
        Err(WsError::NotFound)
    }

    #[test]
    fn a_loaded_file_is_its_part() {
        let verdict = file_verdict(&turn0(), "AGENTS.md", absent);
        assert_eq!(verdict.state, FileState::Loaded);
        assert_eq!(
            verdict.part,
            Some(PartPlace {
                number: 2,
                bytes: 4,
                cut: None
            })
        );
        assert_eq!(verdict.detail, "loaded at start: part 2, 4 bytes");
        assert_eq!(verdict.rule, "the rule");
        let touched = file_verdict(&turn0(), "web/AGENTS.md", absent);
        assert_eq!(touched.state, FileState::Touched);
        assert_eq!(
            touched.detail,
            "loaded when web/x.ts is read: part 3, 3 bytes"
        );
    }

    #[test]
    fn a_file_left_out_says_why_with_the_notes_about_it() {
        let verdict = file_verdict(&turn0(), "sub/AGENTS.md", absent);
        assert_eq!(verdict.state, FileState::NotLoaded);
        assert_eq!(
            verdict.detail,
            "not loaded: shadowed by sub/AGENTS.override.md"
        );
        assert_eq!(
            verdict.notes,
            vec![Diagnostic::info("sub/AGENTS.md", "about it")]
        );
        assert!(verdict.found());
    }

    #[test]
    fn a_file_never_considered_says_where_the_profile_looks() {
        let file = || Ok(EntryKind::File);
        let other_name = file_verdict(&turn0(), "sub/README.md", file);
        assert_eq!(other_name.state, FileState::NotConsidered);
        assert_eq!(
            other_name.detail,
            "not read: README.md is not one of the names read in sub: AGENTS.override.md, AGENTS.md"
        );
        let elsewhere = file_verdict(&turn0(), "deep/AGENTS.md", file);
        assert_eq!(
            elsewhere.detail,
            "not read: deep is not a directory read at start"
        );
        assert!(elsewhere.found());
        let missing = file_verdict(&turn0(), "deep/AGENTS.md", absent);
        assert_eq!(missing.state, FileState::NotFound);
        assert!(!missing.found());
        let dir = file_verdict(&turn0(), "sub/AGENTS.md.d", || Ok(EntryKind::Dir));
        assert_eq!(dir.state, FileState::NotFound);
    }

    #[test]
    fn paths_split_into_directory_and_name() {
        assert_eq!(split("AGENTS.md"), ("", "AGENTS.md"));
        assert_eq!(split("a/b/AGENTS.md"), ("a/b", "AGENTS.md"));
        assert_eq!(split("/AGENTS.md"), ("/", "AGENTS.md"));
        assert_eq!(split("/h/.codex/AGENTS.md"), ("/h/.codex", "AGENTS.md"));
    }
}
