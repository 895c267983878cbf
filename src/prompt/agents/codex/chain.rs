//! The project AGENTS.md chain (SPEC §14.4): the project root, one file per
//! directory from the root down to the cwd, the raw bytes under the byte
//! budget, and the typed facts of everything cut, dropped or passed over.
//!
//! Rules (each pinned by a recorded case in `tests/oracle/cases/codex/`):
//! - Root: the nearest directory of the walk, from the cwd upward, that
//!   holds one of the configured markers (default `.git`, a directory or a
//!   file); none found, or no markers configured: only the cwd's directory.
//! - Per directory: the first of `AGENTS.override.md`, `AGENTS.md`, the
//!   configured fallbacks in order, that exists as something other than a
//!   directory is the directory's one file. If it holds nothing but
//!   whitespace, the directory contributes nothing (an empty override
//!   suppresses its `AGENTS.md`).
//! - Content is the raw bytes, decoded lossily; files are joined with
//!   `\n\n`. The budget counts the bytes of contributing files only, root
//!   first; the file that crosses it is cut at the byte (a split character
//!   decodes to U+FFFD); a file cut down to whitespace only contributes
//!   nothing and costs nothing; once the budget is used up, later files are
//!   dropped. A budget of 0 turns the chain off.
//!
//! Choices the spec leaves open:
//! - In an untrusted workspace (SPEC §14.1) a project directory's file is
//!   chosen by looking the names up, never by reading them: it is
//!   withheld, so nothing is known of its content and it costs no budget.
//! - Names after a directory's file that exist too (`AGENTS.md` beside an
//!   override, a fallback beside `AGENTS.md`) are reported as shadowed by
//!   it, so the preview can say why they are not sent; they are looked up,
//!   never read.
//! - A marker that resolves outside the confined workspace (a `.git`
//!   symlink leaving it) does not count: it is never looked through.
//! - A directory's file that cannot be used (a link leaving the workspace,
//!   a dangling link, a read fault) still is that directory's file: the
//!   directory contributes nothing and a warning says why. Codex would read
//!   a link leaving the workspace; the preview never does.

use crate::diagnostic::Diagnostic;
use crate::prompt::agents::codex::{CodexConfig, is_plain_relative};
use crate::prompt::profile::{Cut, NotLoaded, NotLoadedReason};
use crate::prompt::text::{INVALID_UTF8_REPLACED, decode_lossy, whole_chars};
use crate::prompt::walk::{Scope, WalkDir};
use crate::workspace::{Bounded, EntryKind, WsError};

/// The name that replaces a directory's `AGENTS.md`.
pub const OVERRIDE_NAME: &str = "AGENTS.override.md";
/// The default instruction file name.
pub use crate::prompt::agents::files::AGENTS_MD as AGENTS_NAME;
/// The project's configuration directory (and the home's default name).
pub const DOT_CODEX: &str = ".codex";
/// The project's shared skills directory's parent.
pub const DOT_AGENTS: &str = ".agents";

/// Where the project root was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// Its index in the walk.
    pub index: usize,
    /// The marker found there (e.g. `.git`).
    pub marker: String,
}

/// The project root: the nearest directory of `walk`, from its last entry
/// (the cwd) upward, holding one of `markers`. `None` when there is none or
/// no markers are given.
pub fn find_root(walk: &[WalkDir<'_>], markers: &[String]) -> Option<Root> {
    let markers: Vec<&String> = markers.iter().filter(|m| is_plain_relative(m)).collect();
    walk.iter().enumerate().rev().find_map(|(index, dir)| {
        markers
            .iter()
            .find(|marker| dir.reader.stat(&dir.rel(marker)).is_ok())
            .map(|marker| Root {
                index,
                marker: (*marker).clone(),
            })
    })
}

/// The chain: the walk from `root` down to the cwd, or the cwd's directory
/// alone without a root.
pub fn chain<'w, 'a>(walk: &'w [WalkDir<'a>], root: Option<&Root>) -> &'w [WalkDir<'a>] {
    match root {
        Some(root) => walk.get(root.index..).unwrap_or_default(),
        None => walk.get(walk.len().saturating_sub(1)..).unwrap_or_default(),
    }
}

/// One file that contributes to the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocPart {
    /// The file as its reader displays it (workspace-relative inside the
    /// workspace, absolute above it).
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// Exactly what is sent for it.
    pub content: String,
    /// Set when the budget cut it.
    pub cut: Option<Cut>,
}

/// Why a directory's file contributes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DropReason {
    /// Empty or whitespace only. When `suppresses`, it is an override and
    /// nothing of its directory is used.
    Blank {
        /// The file is an `AGENTS.override.md` standing in for its directory.
        suppresses: bool,
    },
    /// The budget cut it down to whitespace only; it costs nothing.
    CutToBlank(Cut),
    /// Earlier files used up the budget; the file (of this size) is dropped.
    OverBudget {
        /// The whole file's size in bytes.
        size: u64,
    },
    /// `project_doc_max_bytes = 0` turns the chain off; the file (of this
    /// size) is not sent.
    Disabled {
        /// The whole file's size in bytes.
        size: u64,
    },
    /// The file cannot be used (a link leaving the workspace, a dangling
    /// link, a read fault); the text says which.
    Unusable(String),
    /// A project file of an untrusted workspace: looked up, never read.
    Withheld,
    /// An earlier name of the same directory is its one file (the path of
    /// that file).
    Shadowed {
        /// The directory's file, as its reader displays it.
        by: String,
    },
}

/// A file considered and not sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// The file as its reader displays it.
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// Why it is not sent.
    pub reason: DropReason,
}

/// A dropped file in the profile vocabulary: the budget's three cases are
/// all "over budget" (with the file's size), a blank file is blank
/// whether or not it suppresses its directory.
impl From<&Dropped> for NotLoaded {
    fn from(dropped: &Dropped) -> Self {
        let reason = match &dropped.reason {
            DropReason::Blank { .. } => NotLoadedReason::Blank,
            DropReason::CutToBlank(cut) => NotLoadedReason::OverBudget {
                bytes: cut.kept + cut.omitted,
            },
            DropReason::OverBudget { size } | DropReason::Disabled { size } => {
                NotLoadedReason::OverBudget { bytes: *size }
            }
            DropReason::Unusable(why) => NotLoadedReason::Unusable(why.clone()),
            DropReason::Withheld => NotLoadedReason::Withheld,
            DropReason::Shadowed { by } => NotLoadedReason::Shadowed { by: by.clone() },
        };
        NotLoaded {
            path: dropped.path.clone(),
            scope: dropped.scope,
            reason,
        }
    }
}

/// The project chain as Codex sends it, with what was left out and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectDocs {
    /// The budget applied, in bytes.
    pub budget: u64,
    /// The contributing files, root first.
    pub parts: Vec<DocPart>,
    /// Files considered and not sent, in chain order.
    pub left_out: Vec<Dropped>,
    /// One per cut, dropped, unusable or lossily decoded file (the preview
    /// always warns where Codex is silent), and infos for blank files.
    pub diagnostics: Vec<Diagnostic>,
}

impl ProjectDocs {
    /// The chain's text: the parts joined with `\n\n`, or `None` when no
    /// file contributes.
    pub fn text(&self) -> Option<String> {
        if self.parts.is_empty() {
            return None;
        }
        let texts: Vec<&str> = self.parts.iter().map(|p| p.content.as_str()).collect();
        Some(texts.join("\n\n"))
    }
}

/// The names tried in each directory, in order: the override, `AGENTS.md`,
/// then each configured fallback once (names that are not plain relative
/// paths are skipped).
pub fn candidate_names(fallbacks: &[String]) -> Vec<&str> {
    let mut names = vec![OVERRIDE_NAME, AGENTS_NAME];
    for name in fallbacks {
        if is_plain_relative(name) && !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    names
}

/// Reads the chain's files under the budget of `config` (SPEC §14.4). When
/// not `trusted`, the files of gated (project) directories are withheld:
/// looked up, never read.
pub fn project_docs(chain: &[WalkDir<'_>], config: &CodexConfig, trusted: bool) -> ProjectDocs {
    let names = candidate_names(&config.project_doc_fallback_filenames);
    let budget = config.project_doc_max_bytes;
    let mut remaining = budget;
    let mut docs = ProjectDocs {
        budget,
        parts: Vec::new(),
        left_out: Vec::new(),
        diagnostics: Vec::new(),
    };
    for dir in chain {
        let withhold = !trusted && dir.scope.is_gated();
        let Some((index, rel, picked)) = pick(dir, &names, remaining, withhold) else {
            continue;
        };
        let path = dir.reader.display(&rel);
        let name = names[index];
        if let Some(reason) = send(&mut docs, dir, name, &path, picked, &mut remaining) {
            docs.diagnostics
                .push(left_out_diagnostic(&path, &reason, budget));
            docs.left_out.push(Dropped {
                path: path.clone(),
                scope: dir.scope,
                reason,
            });
        }
        shadowed(dir, &names[index + 1..], &path, &mut docs);
    }
    docs
}

/// What looking for a directory's file gave.
enum Picked {
    /// Its bytes, at most the remaining budget.
    Read(Bounded),
    /// A regular file of a withheld directory, looked up and not read.
    Withheld,
    /// It cannot be used.
    Failed(WsError),
}

/// Sends the directory's file `name` at `path` as a part under the
/// `remaining` budget, or says why it is not sent.
fn send(
    docs: &mut ProjectDocs,
    dir: &WalkDir<'_>,
    name: &str,
    path: &str,
    picked: Picked,
    remaining: &mut u64,
) -> Option<DropReason> {
    let budget = docs.budget;
    let read = match picked {
        Picked::Withheld => return Some(DropReason::Withheld),
        Picked::Failed(err) => return Some(DropReason::Unusable(err.to_string())),
        Picked::Read(read) => read,
    };
    if *remaining == 0 {
        return match (read.size, budget) {
            (0, _) => None,
            (size, 0) => Some(DropReason::Disabled { size }),
            (size, _) => Some(DropReason::OverBudget { size }),
        };
    }
    let kept = read.bytes.len() as u64;
    let cut = read.is_truncated().then_some(Cut {
        kept,
        omitted: read.size - kept,
    });
    let (content, invalid) = decode(&read.bytes, cut.is_some());
    if content.trim().is_empty() {
        return Some(match cut {
            Some(cut) => DropReason::CutToBlank(cut),
            None => DropReason::Blank {
                suppresses: name == OVERRIDE_NAME,
            },
        });
    }
    *remaining = remaining.saturating_sub(kept);
    if invalid {
        docs.diagnostics
            .push(Diagnostic::warning(path, INVALID_UTF8_REPLACED));
    }
    if let Some(cut) = cut {
        docs.diagnostics.push(Diagnostic::warning(
            path,
            format!(
                "cut by Codex's {budget}-byte budget (project_doc_max_bytes): \
                 {} bytes sent, {} left out; Codex does this without a word",
                cut.kept, cut.omitted
            ),
        ));
    }
    docs.parts.push(DocPart {
        path: path.to_string(),
        scope: dir.scope,
        content,
        cut,
    });
    None
}

/// The directory's one file: the index of the first name that exists as
/// something other than a directory (or another non-regular file), its
/// path, and at most `max` of its bytes read. `None` when the directory has
/// none. When `withhold`, names are only looked up, never read.
fn pick(
    dir: &WalkDir<'_>,
    names: &[&str],
    max: u64,
    withhold: bool,
) -> Option<(usize, String, Picked)> {
    names.iter().enumerate().find_map(|(index, name)| {
        let rel = dir.rel(name);
        let picked = if withhold {
            match dir.reader.stat(&rel) {
                Ok(EntryKind::File) => Picked::Withheld,
                Ok(_) | Err(WsError::NotFound | WsError::NotRegular(_)) => return None,
                Err(err) => Picked::Failed(err),
            }
        } else {
            match dir.reader.read(&rel, max) {
                Ok(read) => Picked::Read(read),
                Err(WsError::NotFound | WsError::NotRegular(_)) => return None,
                Err(err) => Picked::Failed(err),
            }
        };
        Some((index, rel, picked))
    })
}

/// Reports every name of `later` that exists as a regular file in `dir` as
/// shadowed by the directory's file `by` (looked up, never read).
fn shadowed(dir: &WalkDir<'_>, later: &[&str], by: &str, docs: &mut ProjectDocs) {
    for name in later {
        let rel = dir.rel(name);
        if let Ok(EntryKind::File) = dir.reader.stat(&rel) {
            let path = dir.reader.display(&rel);
            let reason = DropReason::Shadowed { by: by.to_string() };
            docs.diagnostics
                .push(left_out_diagnostic(&path, &reason, docs.budget));
            docs.left_out.push(Dropped {
                path,
                scope: dir.scope,
                reason,
            });
        }
    }
}

/// Decodes `bytes` lossily as Codex does, a character split by the
/// budget's cut included; the flag is set when they hold invalid UTF-8
/// other than that split character.
fn decode(bytes: &[u8], cut: bool) -> (String, bool) {
    let invalid = std::str::from_utf8(whole_chars(bytes, cut)).is_err();
    (decode_lossy(bytes).into_owned(), invalid)
}

fn left_out_diagnostic(path: &str, reason: &DropReason, budget: u64) -> Diagnostic {
    match reason {
        DropReason::Blank { suppresses: true } => Diagnostic::info(
            path,
            "empty or whitespace only: nothing from this directory is sent, its AGENTS.md included",
        ),
        DropReason::Blank { suppresses: false } => {
            Diagnostic::info(path, "empty or whitespace only: contributes nothing")
        }
        DropReason::CutToBlank(cut) => Diagnostic::warning(
            path,
            format!(
                "Codex's {budget}-byte budget leaves only whitespace of it ({} bytes), so it is not sent; {} bytes left out",
                cut.kept, cut.omitted
            ),
        ),
        DropReason::OverBudget { size } => Diagnostic::warning(
            path,
            format!(
                "not sent: earlier files used up Codex's {budget}-byte budget (project_doc_max_bytes); \
                 {size} bytes left out without a word from Codex"
            ),
        ),
        DropReason::Disabled { .. } => Diagnostic::info(
            path,
            "not sent: project_doc_max_bytes = 0 turns the project chain off",
        ),
        DropReason::Unusable(why) => {
            Diagnostic::warning(path, format!("{why}; this directory contributes nothing"))
        }
        DropReason::Withheld => Diagnostic::info(
            path,
            "withheld: the workspace is not trusted, so the file is not read",
        ),
        DropReason::Shadowed { by } => Diagnostic::info(
            path,
            format!("not sent: {by} is this directory's one file (Codex reads one per directory)"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::walk::walk;
    use crate::workspace::{LinkPolicy, MemNode, MemWorkspace, Workspace};

    fn git(ws: MemWorkspace, dir: &str) -> MemWorkspace {
        ws.node(&crate::workspace::join(dir, ".git"), MemNode::Dir)
    }

    fn config() -> CodexConfig {
        CodexConfig::default()
    }

    fn docs_with(
        parent: Option<&dyn Workspace>,
        project: &dyn Workspace,
        at: &str,
        config: &CodexConfig,
    ) -> ProjectDocs {
        let walk = walk(parent, project, at).unwrap();
        let root = find_root(&walk, &config.project_root_markers);
        project_docs(chain(&walk, root.as_ref()), config, true)
    }

    fn docs(project: &MemWorkspace, at: &str, config: &CodexConfig) -> ProjectDocs {
        docs_with(None, project, at, config)
    }

    fn text(project: &MemWorkspace, at: &str, config: &CodexConfig) -> Option<String> {
        docs(project, at, config).text()
    }

    fn sized(tag: &str, n: usize) -> String {
        let mut s = format!("{tag}\n");
        while s.len() < n {
            s.push('x');
        }
        s
    }

    #[test]
    fn the_chain_runs_from_the_git_root_to_the_cwd() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", "ROOT\n")
            .file("a/b/AGENTS.md", "AB\n")
            .file("a/b/c/AGENTS.md", "BELOW\n")
            .file("other/AGENTS.md", "SIDE\n");
        assert_eq!(
            text(&ws, "a/b", &config()).as_deref(),
            Some("ROOT\n\n\nAB\n")
        );
    }

    #[test]
    fn a_git_file_marks_the_root_too() {
        let ws = MemWorkspace::new()
            .file(".git", "gitdir: /elsewhere\n")
            .file("AGENTS.md", "ROOT\n")
            .file("sub/AGENTS.md", "SUB\n");
        assert_eq!(
            text(&ws, "sub", &config()).as_deref(),
            Some("ROOT\n\n\nSUB\n")
        );
    }

    #[test]
    fn without_a_root_only_the_cwd_is_read() {
        let ws = MemWorkspace::new()
            .file("AGENTS.md", "ROOT\n")
            .file("sub/AGENTS.md", "SUB\n");
        assert_eq!(text(&ws, "sub", &config()).as_deref(), Some("SUB\n"));
        let none = CodexConfig {
            project_root_markers: Vec::new(),
            ..config()
        };
        assert_eq!(text(&git(ws, ""), "sub", &none).as_deref(), Some("SUB\n"));
    }

    #[test]
    fn configured_markers_replace_git() {
        let ws = git(MemWorkspace::new(), "a")
            .file(".marker", "")
            .file("AGENTS.md", "ROOT\n")
            .file("a/AGENTS.md", "A\n")
            .file("a/b/AGENTS.md", "AB\n");
        let markers = CodexConfig {
            project_root_markers: vec![".marker".into()],
            ..config()
        };
        assert_eq!(
            text(&ws, "a/b", &markers).as_deref(),
            Some("ROOT\n\n\nA\n\n\nAB\n")
        );
        assert_eq!(text(&ws, "a/b", &config()).as_deref(), Some("A\n\n\nAB\n"));
        let walk = walk(None, &ws, "a/b").unwrap();
        assert_eq!(
            find_root(&walk, &markers.project_root_markers),
            Some(Root {
                index: 0,
                marker: ".marker".into()
            })
        );
    }

    #[test]
    fn the_root_may_lie_above_the_workspace() {
        let parent = git(
            MemWorkspace::new()
                .with_root("/")
                .with_policy(LinkPolicy::Follow),
            "srv",
        )
        .file("srv/AGENTS.md", "ABOVE\n")
        .file("srv/ws/AGENTS.md", "SHADOWED BY THE PROJECT READER\n");
        let project = MemWorkspace::new()
            .with_root("/srv/ws")
            .file("AGENTS.md", "WS\n")
            .file("sub/AGENTS.md", "SUB\n");
        let docs = docs_with(Some(&parent), &project, "sub", &config());
        assert_eq!(docs.text().as_deref(), Some("ABOVE\n\n\nWS\n\n\nSUB\n"));
        let scopes: Vec<_> = docs
            .parts
            .iter()
            .map(|p| (p.path.as_str(), p.scope))
            .collect();
        assert_eq!(
            scopes,
            vec![
                ("/srv/AGENTS.md", Scope::Parent),
                ("AGENTS.md", Scope::Project),
                ("sub/AGENTS.md", Scope::Project),
            ]
        );
    }

    #[test]
    fn an_override_replaces_its_directory_only() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", "ROOT\n")
            .file("AGENTS.override.md", "OVR\n")
            .file("sub/AGENTS.md", "SUB\n");
        assert_eq!(
            text(&ws, "sub", &config()).as_deref(),
            Some("OVR\n\n\nSUB\n")
        );
    }

    #[test]
    fn a_blank_override_suppresses_its_directory() {
        for blank in ["", " \n\t\n"] {
            let ws = git(MemWorkspace::new(), "")
                .file("AGENTS.md", "ROOT\n")
                .file("sub/AGENTS.override.md", blank)
                .file("sub/AGENTS.md", "SUB\n")
                .file("sub/deep/AGENTS.md", "DEEP\n");
            let docs = docs(&ws, "sub/deep", &config());
            assert_eq!(docs.text().as_deref(), Some("ROOT\n\n\nDEEP\n"));
            assert_eq!(
                docs.left_out,
                vec![
                    Dropped {
                        path: "sub/AGENTS.override.md".into(),
                        scope: Scope::Project,
                        reason: DropReason::Blank { suppresses: true },
                    },
                    Dropped {
                        path: "sub/AGENTS.md".into(),
                        scope: Scope::Project,
                        reason: DropReason::Shadowed {
                            by: "sub/AGENTS.override.md".into()
                        },
                    }
                ]
            );
        }
    }

    #[test]
    fn names_after_a_directory_file_are_shadowed_by_it() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", "ROOT\n")
            .file("CLAUDE.md", "FALLBACK\n")
            .node("README.md", MemNode::Dir);
        let fallbacks = CodexConfig {
            project_doc_fallback_filenames: vec!["README.md".into(), "CLAUDE.md".into()],
            ..config()
        };
        let docs = docs(&ws, "", &fallbacks);
        assert_eq!(docs.text().as_deref(), Some("ROOT\n"));
        assert_eq!(
            docs.left_out,
            vec![Dropped {
                path: "CLAUDE.md".into(),
                scope: Scope::Project,
                reason: DropReason::Shadowed {
                    by: "AGENTS.md".into()
                },
            }]
        );
        assert!(
            docs.diagnostics[0]
                .reason
                .contains("AGENTS.md is this directory's one file")
        );
    }

    #[test]
    fn untrusted_project_files_are_withheld_unread_and_parents_still_read() {
        let parent = git(
            MemWorkspace::new()
                .with_root("/")
                .with_policy(LinkPolicy::Follow),
            "srv",
        )
        .file("srv/AGENTS.md", "ABOVE\n");
        let project = MemWorkspace::new()
            .with_root("/srv/ws")
            .file("AGENTS.md", "")
            .node("sub/AGENTS.override.md", MemNode::Unreadable)
            .file("sub/AGENTS.md", "SUB\n")
            .node("sub/deep/AGENTS.md", MemNode::Symlink("../../../x".into()));
        let walk = walk(Some(&parent), &project, "sub/deep").unwrap();
        let root = find_root(&walk, &config().project_root_markers);
        let docs = project_docs(chain(&walk, root.as_ref()), &config(), false);
        assert_eq!(docs.text().as_deref(), Some("ABOVE\n"));
        let reasons: Vec<(&str, &DropReason)> = docs
            .left_out
            .iter()
            .map(|l| (l.path.as_str(), &l.reason))
            .collect();
        assert_eq!(
            reasons[0],
            ("AGENTS.md", &DropReason::Withheld),
            "blank or not: unknown"
        );
        assert_eq!(
            reasons[1],
            ("sub/AGENTS.override.md", &DropReason::Withheld)
        );
        assert_eq!(
            reasons[2],
            (
                "sub/AGENTS.md",
                &DropReason::Shadowed {
                    by: "sub/AGENTS.override.md".into()
                }
            )
        );
        assert!(matches!(reasons[3].1, DropReason::Unusable(_)));
        assert_eq!(reasons.len(), 4);
    }

    #[test]
    fn a_whitespace_only_file_adds_no_part() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", "ROOT\n")
            .file("a/AGENTS.md", "  \n\r\n\t\n")
            .file("a/b/AGENTS.md", "AB\n");
        let docs = docs(&ws, "a/b", &config());
        assert_eq!(docs.text().as_deref(), Some("ROOT\n\n\nAB\n"));
        assert_eq!(
            docs.left_out[0].reason,
            DropReason::Blank { suppresses: false }
        );
    }

    #[test]
    fn fallbacks_come_after_agents_md_in_list_order() {
        let ws = git(MemWorkspace::new(), "")
            .file("CLAUDE.md", "ROOT-CLAUDE\n")
            .file("README.md", "ROOT-README\n")
            .file("sub/AGENTS.md", "SUB-AGENTS\n")
            .file("sub/CLAUDE.md", "SUB-CLAUDE\n")
            .file("sub/deep/README.md", "DEEP-README\n");
        let with = |names: &[&str]| CodexConfig {
            project_doc_fallback_filenames: names.iter().map(|n| n.to_string()).collect(),
            ..config()
        };
        assert_eq!(
            text(&ws, "sub/deep", &with(&["CLAUDE.md", "README.md"])).as_deref(),
            Some("ROOT-CLAUDE\n\n\nSUB-AGENTS\n\n\nDEEP-README\n")
        );
        assert_eq!(
            text(&ws, "sub/deep", &with(&["README.md", "CLAUDE.md"])).as_deref(),
            Some("ROOT-README\n\n\nSUB-AGENTS\n\n\nDEEP-README\n")
        );
        assert_eq!(text(&ws, "", &config()), None, "no fallbacks by default");
    }

    #[test]
    fn a_directory_or_fifo_named_like_the_file_is_passed_over() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md/keep.txt", "a directory\n")
            .node("AGENTS.override.md", MemNode::Special("FIFO"))
            .file("README.md", "README\n");
        let readme = CodexConfig {
            project_doc_fallback_filenames: vec!["README.md".into()],
            ..config()
        };
        assert_eq!(text(&ws, "", &readme).as_deref(), Some("README\n"));
    }

    #[test]
    fn configured_names_that_leave_the_directory_are_not_tried() {
        let configured: Vec<String> =
            ["../secret.md", "/etc/passwd", "", "AGENTS.md", "docs/AI.md"]
                .map(String::from)
                .to_vec();
        let names = candidate_names(&configured);
        assert_eq!(names, vec![OVERRIDE_NAME, AGENTS_NAME, "docs/AI.md"]);
    }

    #[test]
    fn contents_are_raw_bytes_joined_by_a_blank_line() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", "\n\n  ROOT   \n\n\n")
            .file("sub/AGENTS.md", "CRLF  \r\nno final newline");
        assert_eq!(
            text(&ws, "sub", &config()).as_deref(),
            Some("\n\n  ROOT   \n\n\n\n\nCRLF  \r\nno final newline")
        );
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily_with_a_warning() {
        let ws = git(MemWorkspace::new(), "").file("AGENTS.md", b"bad \xff byte\n");
        let docs = docs(&ws, "", &config());
        assert_eq!(docs.text().as_deref(), Some("bad \u{fffd} byte\n"));
        assert!(docs.diagnostics[0].reason.contains("not valid UTF-8"));
    }

    #[test]
    fn the_budget_cuts_the_crossing_file_and_drops_the_rest() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", sized("ROOT", 20_000))
            .file("a/AGENTS.md", sized("A", 20_000))
            .file("a/b/AGENTS.md", sized("AB", 5_000));
        let docs = docs(&ws, "a/b", &config());
        let text = docs.text().unwrap();
        assert_eq!(text.len(), 20_000 + 2 + 12_768);
        assert_eq!(
            docs.parts[1].cut,
            Some(Cut {
                kept: 12_768,
                omitted: 7_232
            })
        );
        assert_eq!(
            docs.left_out,
            vec![Dropped {
                path: "a/b/AGENTS.md".into(),
                scope: Scope::Project,
                reason: DropReason::OverBudget { size: 5_000 },
            }]
        );
        let warned: Vec<_> = docs
            .diagnostics
            .iter()
            .map(|d| d.path.as_deref().unwrap_or_default())
            .collect();
        assert_eq!(warned, vec!["a/AGENTS.md", "a/b/AGENTS.md"]);
    }

    #[test]
    fn a_root_filling_the_budget_exactly_drops_the_next_file() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", sized("ROOT", 32_768))
            .file("sub/AGENTS.md", "SUB\n");
        let docs = docs(&ws, "sub", &config());
        assert_eq!(docs.parts.len(), 1);
        assert_eq!(docs.parts[0].cut, None);
        assert_eq!(docs.left_out[0].reason, DropReason::OverBudget { size: 4 });
    }

    #[test]
    fn a_cut_inside_a_character_sends_one_replacement_character() {
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", sized("ROOT", 32_760))
            .file("sub/AGENTS.md", "abcdef\u{20ac}xyz\n");
        let docs = docs(&ws, "sub", &config());
        assert!(docs.text().unwrap().ends_with("\n\nabcdef\u{fffd}"));
        assert!(
            docs.diagnostics
                .iter()
                .all(|d| !d.reason.contains("not valid UTF-8")),
            "a split character is the cut's doing, not the file's"
        );
    }

    #[test]
    fn blank_files_and_blank_cuts_cost_no_budget() {
        let small = |n| CodexConfig {
            project_doc_max_bytes: n,
            ..config()
        };
        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", " ".repeat(59) + "\n")
            .file("sub/AGENTS.md", sized("SUB", 80));
        assert_eq!(text(&ws, "sub", &small(100)).unwrap().len(), 80);

        let ws = git(MemWorkspace::new(), "")
            .file("AGENTS.md", sized("ROOT", 30))
            .file("a/AGENTS.md", "\n".repeat(40) + "A-TEXT\n")
            .file("a/b/AGENTS.md", "AB-TEN...\n");
        let docs = docs(&ws, "a/b", &small(50));
        assert_eq!(docs.text().unwrap(), sized("ROOT", 30) + "\n\nAB-TEN...\n");
        assert_eq!(
            docs.left_out[0].reason,
            DropReason::CutToBlank(Cut {
                kept: 20,
                omitted: 27
            })
        );
    }

    #[test]
    fn a_zero_budget_turns_the_chain_off() {
        let ws = git(MemWorkspace::new(), "").file("AGENTS.md", "ROOT\n");
        let off = CodexConfig {
            project_doc_max_bytes: 0,
            ..config()
        };
        let docs = docs(&ws, "", &off);
        assert_eq!(docs.text(), None);
        assert_eq!(docs.left_out[0].reason, DropReason::Disabled { size: 5 });
    }

    // Unix only: makes symbolic links with std::os::unix (Windows links need privileges the test cannot assume).
    #[cfg(unix)]
    #[test]
    fn a_link_out_of_a_real_workspace_is_never_read() {
        use crate::workspace::OsWorkspace;
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "S3CRET\n").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(ws.join(".git")).unwrap();
        std::fs::create_dir_all(ws.join("sub")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.md"), ws.join("AGENTS.md")).unwrap();
        std::fs::write(ws.join("sub/AGENTS.md"), "SUB\n").unwrap();
        let parent = OsWorkspace::new("/", LinkPolicy::Follow);
        let project = OsWorkspace::new(&ws, LinkPolicy::Confine);
        let docs = docs_with(Some(&parent), &project, "sub", &config());
        assert_eq!(docs.text().as_deref(), Some("SUB\n"));
        assert!(matches!(docs.left_out[0].reason, DropReason::Unusable(_)));
        assert!(!format!("{docs:?}").contains("S3CRET"));
    }

    #[test]
    fn a_link_out_of_the_workspace_is_never_read() {
        let ws = git(MemWorkspace::new(), "")
            .node("AGENTS.md", MemNode::Symlink("../secret.md".into()))
            .node("sub/AGENTS.md", MemNode::Symlink("gone.md".into()))
            .file("sub/deep/AGENTS.md", "DEEP\n");
        let docs = docs(&ws, "sub/deep", &config());
        assert_eq!(docs.text().as_deref(), Some("DEEP\n"));
        let reasons: Vec<_> = docs
            .left_out
            .iter()
            .map(|l| matches!(l.reason, DropReason::Unusable(_)))
            .collect();
        assert_eq!(reasons, vec![true, true]);
    }
}
