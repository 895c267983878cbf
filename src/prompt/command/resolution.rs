//! Command directories, the one resolution routine (SPEC §5.5, §3.3): every
//! candidate file for a name in precedence order, which one wins and why
//! the others lose, and the expansion of an input against the directories.
//! The listing ([`super::list_in`]) applies the same [`Precedence`], so a
//! listing and an expansion always agree on the winner.
//!
//! The choices the spec leaves open are listed once, in [`super`].

use std::collections::HashMap;
use std::fmt;
use std::io;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::command::command_frontmatter::misplaced_frontmatter;
use crate::prompt::command::{Expansion, parse_invocation, render};
use crate::prompt::text::{INVALID_UTF8_REPLACED, decode_read};
use crate::prompt::turn0::ReadFault;
use crate::workspace::{Bounded, EntryKind, Workspace, WsError, join};

/// One directory searched for `<name>.md` command files, and the reader it
/// is read through.
#[derive(Clone, Copy)]
pub struct SearchDir<'a> {
    /// The reader the directory is read through.
    pub ws: &'a dyn Workspace,
    /// The directory, relative to the reader's root (`""` for the root).
    pub dir: &'a str,
    /// True when the directory's commands are withheld (an untrusted
    /// project tier): its files are listed and explained but claim no name
    /// and are never expanded.
    pub withheld: bool,
}

impl fmt::Debug for SearchDir<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchDir")
            .field("root", &self.ws.root())
            .field("dir", &self.dir)
            .field("withheld", &self.withheld)
            .finish()
    }
}

/// What became of one candidate file for a name (SPEC §2.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "fate")]
pub enum Fate {
    /// The file that is expanded for the name.
    #[serde(rename = "winner")]
    Winner,
    /// A usable file that loses to an earlier directory's file.
    #[serde(rename = "shadowed")]
    Shadowed {
        /// The winning file.
        by: String,
    },
    /// A file in a withheld (untrusted) directory.
    #[serde(rename = "withheld")]
    Withheld,
    /// A file the operating system would not let us read.
    #[serde(rename = "unreadable")]
    Unreadable {
        /// The operating-system error.
        cause: String,
    },
    /// A symbolic link that leaves the workspace, never followed.
    #[serde(rename = "refused symlink")]
    RefusedSymlink {
        /// Why it was refused.
        reason: String,
    },
    /// Something that is not a usable file: not regular (a directory, a
    /// FIFO) or a link that cannot be resolved.
    #[serde(rename = "not found")]
    NotFound {
        /// What it is instead.
        reason: String,
    },
}

impl Fate {
    /// The fate's name as `explain` prints it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Fate::Winner => "winner",
            Fate::Shadowed { .. } => "shadowed",
            Fate::Withheld => "withheld",
            Fate::Unreadable { .. } => "unreadable",
            Fate::RefusedSymlink { .. } => "refused symlink",
            Fate::NotFound { .. } => "not found",
        }
    }

    /// Why the file could not be used, for the fates that drop a file.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Fate::Unreadable { cause } => Some(cause),
            Fate::RefusedSymlink { reason } | Fate::NotFound { reason } => Some(reason),
            Fate::Winner | Fate::Shadowed { .. } | Fate::Withheld => None,
        }
    }
}

/// One candidate file for a name, in precedence order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandidateFile {
    /// Which of the searched directories holds it.
    pub dir_index: usize,
    /// Its path relative to that directory's reader.
    pub path: String,
    /// Its path as the reader displays it.
    pub source: String,
    /// What became of it.
    pub fate: Fate,
}

/// The winning file for a name, read and decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedFile {
    /// Which of the searched directories holds it.
    pub dir_index: usize,
    /// Its path as the reader displays it.
    pub source: String,
    /// Its content (at most [`limits::MAX_COMMAND_FILE_BYTES`]), invalid
    /// UTF-8 replaced with U+FFFD.
    pub raw: String,
}

/// Every candidate file for one name and the one that won.
#[derive(Debug)]
pub struct Resolution {
    /// The candidates in precedence order; places with nothing are omitted.
    pub candidates: Vec<CandidateFile>,
    /// The winner, if any file could claim the name.
    pub winner: Option<ResolvedFile>,
    /// Diagnostics about the candidates.
    pub diagnostics: Vec<Diagnostic>,
    /// The first read fault met before any file claimed the name: expanding
    /// the name fails with it.
    pub fault: Option<ReadFault>,
}

/// How a probe of one path turned out.
enum Probe {
    Absent,
    Regular(Option<Bounded>),
    Refused(String),
    Unusable(String),
    Fault(io::Error),
}

impl Probe {
    fn from_error(err: WsError) -> Self {
        match err {
            WsError::NotFound | WsError::NotADirectory => Probe::Absent,
            WsError::Io(e) if e.kind() == io::ErrorKind::InvalidFilename => Probe::Absent,
            WsError::Io(e) => Probe::Fault(e),
            WsError::Refused(why) => Probe::Refused(why),
            other @ (WsError::Unresolvable(_) | WsError::NotRegular(_)) => {
                Probe::Unusable(other.to_string())
            }
        }
    }

    fn from_kind(kind: EntryKind) -> Self {
        match kind {
            EntryKind::File => Probe::Regular(None),
            EntryKind::Dir => Probe::from_error(WsError::NotRegular("directory")),
            EntryKind::Other(what) => Probe::from_error(WsError::NotRegular(what)),
            EntryKind::Symlink => Probe::from_error(WsError::Unresolvable("symlink".into())),
        }
    }
}

/// Looks at `rel`: reads at most `limit` bytes when given, else only finds
/// out whether it is a usable file, trusting a listing's `kind` when it is
/// not a link.
fn probe(ws: &dyn Workspace, rel: &str, kind: Option<EntryKind>, limit: Option<u64>) -> Probe {
    if let Some(limit) = limit {
        let read = match kind {
            Some(kind) => ws.read_listed(rel, kind, limit),
            None => ws.read(rel, limit),
        };
        return match read {
            Ok(content) => Probe::Regular(Some(content)),
            Err(err) => Probe::from_error(err),
        };
    }
    match kind {
        Some(kind) if kind != EntryKind::Symlink => Probe::from_kind(kind),
        _ => match ws.stat(rel) {
            Ok(kind) => Probe::from_kind(kind),
            Err(err) => Probe::from_error(err),
        },
    }
}

/// How much of a candidate to read, by its standing.
#[derive(Clone, Copy)]
pub(super) struct Reads {
    /// For a file that claims its name.
    pub(super) winner: Option<u64>,
    /// For the first withheld file of a name nothing has claimed.
    pub(super) withheld: Option<u64>,
}

/// Who holds a name so far.
enum Claim {
    Won { source: String },
    WithheldOnly,
}

/// One candidate after [`Precedence::consider`].
pub(super) struct Considered {
    pub(super) source: String,
    pub(super) fate: Fate,
    pub(super) content: Option<Bounded>,
    pub(super) fault: Option<io::Error>,
}

/// The precedence rules of SPEC §3.3, applied to candidate files offered in
/// precedence order: the first usable file of a name wins, later ones are
/// shadowed, dropped files and withheld files claim nothing.
pub(super) struct Precedence<'a, 'd> {
    dirs: &'a [SearchDir<'d>],
    reads: Reads,
    claims: HashMap<String, Claim>,
    /// Diagnostics of dropped files whose name nothing has claimed yet; a
    /// later winner is named in them.
    dropped: HashMap<String, Vec<usize>>,
    pub(super) diagnostics: Vec<Diagnostic>,
}

impl<'a, 'd> Precedence<'a, 'd> {
    pub(super) fn new(dirs: &'a [SearchDir<'d>], reads: Reads) -> Self {
        Self {
            dirs,
            reads,
            claims: HashMap::new(),
            dropped: HashMap::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Decides the fate of the file `rel` offered for `name` from directory
    /// `dir_index`; `None` when nothing is there.
    pub(super) fn consider(
        &mut self,
        dir_index: usize,
        name: &str,
        rel: &str,
        kind: Option<EntryKind>,
    ) -> Option<Considered> {
        let dir = self.dirs[dir_index];
        let claim = self.claims.get(name);
        let winner = match claim {
            Some(Claim::Won { source }) => Some(source.clone()),
            _ => None,
        };
        let limit = match (dir.withheld, &winner) {
            (true, _) => self.reads.withheld.filter(|_| claim.is_none()),
            (false, None) => self.reads.winner,
            (false, Some(_)) => None,
        };
        let probed = probe(dir.ws, rel, kind, limit);
        let source = dir.ws.display(rel);
        let (fate, content, fault) = match probed {
            Probe::Absent => return None,
            Probe::Regular(content) => {
                let fate = if dir.withheld {
                    self.claims
                        .entry(name.to_string())
                        .or_insert(Claim::WithheldOnly);
                    Fate::Withheld
                } else if let Some(by) = winner {
                    self.diagnostics.push(Diagnostic::warning(
                        &source,
                        format!("shadowed by {by}, which takes precedence"),
                    ));
                    Fate::Shadowed { by }
                } else {
                    self.claim(name, &source);
                    Fate::Winner
                };
                (fate, content, None)
            }
            Probe::Refused(reason) => {
                self.drop_file(
                    name,
                    Diagnostic::warning(&source, format!("not used: {reason}")),
                );
                (Fate::RefusedSymlink { reason }, None, None)
            }
            Probe::Unusable(reason) => {
                self.drop_file(
                    name,
                    Diagnostic::warning(&source, format!("not used: {reason}")),
                );
                (Fate::NotFound { reason }, None, None)
            }
            Probe::Fault(err) => {
                let cause = err.to_string();
                self.drop_file(
                    name,
                    Diagnostic::fatal(&source, format!("cannot be read: {cause}")),
                );
                (Fate::Unreadable { cause }, None, Some(err))
            }
        };
        Some(Considered {
            source,
            fate,
            content,
            fault,
        })
    }

    /// Records `source` as the winner of `name` and names it in the
    /// diagnostics of the files dropped before it. The caller then adds the
    /// winner's [`content_warnings`], when it read the file.
    fn claim(&mut self, name: &str, source: &str) {
        self.claims.insert(
            name.to_string(),
            Claim::Won {
                source: source.to_string(),
            },
        );
        for index in self.dropped.remove(name).unwrap_or_default() {
            self.diagnostics[index]
                .reason
                .push_str(&format!("; {source} is used instead"));
        }
    }

    fn drop_file(&mut self, name: &str, diagnostic: Diagnostic) {
        if !matches!(self.claims.get(name), Some(Claim::Won { .. })) {
            self.dropped
                .entry(name.to_string())
                .or_default()
                .push(self.diagnostics.len());
        }
        self.diagnostics.push(diagnostic);
    }
}

/// Warnings about a winning file's content that change what the model sees;
/// `invalid` as [`decode_read`] found it.
pub(super) fn content_warnings(
    content: &Bounded,
    invalid: bool,
    source: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if content.size > limits::MAX_COMMAND_FILE_BYTES {
        diagnostics.push(Diagnostic::warning(
            source,
            format!(
                "file is {} bytes; only the first {} bytes are used",
                content.size,
                limits::MAX_COMMAND_FILE_BYTES
            ),
        ));
    }
    if invalid {
        diagnostics.push(Diagnostic::warning(source, INVALID_UTF8_REPLACED));
    }
    if let Some(reason) = misplaced_frontmatter(&content.bytes) {
        diagnostics.push(Diagnostic::warning(source, reason));
    }
}
/// True for a name that can be looked up as one file name in a directory.
fn is_file_stem(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\0'])
}

/// Finds every candidate file for `name` in `dirs`, in precedence order, and
/// reads the winner (SPEC §5.5, §3.3). Only files that could win are read;
/// withheld files and files after the winner are only looked at.
///
/// A name that is not a single file name (empty, or holding `/`) has no
/// candidates.
pub fn resolve(dirs: &[SearchDir<'_>], name: &str) -> Resolution {
    let reads = Reads {
        winner: Some(limits::MAX_COMMAND_FILE_BYTES),
        withheld: None,
    };
    resolve_with(dirs, name, reads)
}

/// [`resolve`], reading candidates as `reads` says.
fn resolve_with(dirs: &[SearchDir<'_>], name: &str, reads: Reads) -> Resolution {
    let mut resolution = Resolution {
        candidates: Vec::new(),
        winner: None,
        diagnostics: Vec::new(),
        fault: None,
    };
    if !is_file_stem(name) {
        return resolution;
    }
    let file_name = format!("{name}.md");
    let mut precedence = Precedence::new(dirs, reads);
    for (dir_index, dir) in dirs.iter().enumerate() {
        let path = join(dir.dir, &file_name);
        let Some(considered) = precedence.consider(dir_index, name, &path, None) else {
            continue;
        };
        if let Some(err) = considered.fault
            && resolution.winner.is_none()
            && resolution.fault.is_none()
        {
            resolution.fault = Some(ReadFault {
                path: considered.source.clone(),
                source: err,
            });
        }
        if let (Fate::Winner, Some(content)) = (&considered.fate, &considered.content) {
            let decoded = decode_read(&content.bytes, content.is_truncated());
            content_warnings(
                content,
                decoded.lossy,
                &considered.source,
                &mut precedence.diagnostics,
            );
            resolution.winner = Some(ResolvedFile {
                dir_index,
                source: considered.source.clone(),
                raw: decoded.text.into_owned(),
            });
        }
        resolution.candidates.push(CandidateFile {
            dir_index,
            path,
            source: considered.source,
            fate: considered.fate,
        });
    }
    resolution.diagnostics = precedence.diagnostics;
    resolution
}

/// The outcome of expanding an input against command directories.
#[derive(Debug)]
pub struct DirExpansion {
    /// The expansion itself.
    pub expansion: Expansion,
    /// Diagnostics about the files looked at.
    pub diagnostics: Vec<Diagnostic>,
    /// When nothing expanded although a command file is there for what the
    /// input names: why.
    pub not_expanded: Option<NotExpanded>,
}

/// Why an input that names an existing command file did not expand (for
/// `expand --require`, which says why, SPEC §2.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotExpanded {
    /// The name exists only in withheld directories.
    Withheld {
        /// The command name.
        name: String,
        /// The first withheld file holding it, as displayed.
        source: String,
    },
    /// Files hold the name, but none could be used (refused links, files
    /// that are not regular); their fates say why.
    Unusable {
        /// The command name.
        name: String,
        /// The dropped files, in precedence order.
        candidates: Vec<CandidateFile>,
    },
    /// The input's first word names a file whose name lies outside the
    /// grammar (`/a:b` for `a:b.md`), so the grammar read a different,
    /// unknown name.
    InvalidName {
        /// The file's name, as the input spells it.
        name: String,
        /// The file, as displayed.
        source: String,
    },
}

/// Expands `input` against `dirs` (SPEC §5.5): the winner of [`resolve`] is
/// rendered with [`render`]; an unknown command or a non-command comes back
/// unchanged, with [`NotExpanded`] when a file is there but cannot be used.
/// A read fault on a file met before any file claimed the name is an error
/// naming that file.
pub fn expand_in(dirs: &[SearchDir<'_>], input: &str) -> Result<DirExpansion, ReadFault> {
    let unchanged = |diagnostics, not_expanded| DirExpansion {
        expansion: Expansion::unchanged(input),
        diagnostics,
        not_expanded,
    };
    let Some(invocation) = parse_invocation(input) else {
        return Ok(unchanged(Vec::new(), invalid_name(dirs, input, "")));
    };
    let mut resolution = resolve(dirs, &invocation.name);
    if let Some(fault) = resolution.fault.take() {
        return Err(fault);
    }
    let Some(winner) = resolution.winner else {
        let name = invocation.name;
        let candidates = resolution.candidates;
        let not_expanded = match candidates.iter().find(|c| c.fate == Fate::Withheld) {
            Some(withheld) => Some(NotExpanded::Withheld {
                source: withheld.source.clone(),
                name,
            }),
            None if !candidates.is_empty() => Some(NotExpanded::Unusable { name, candidates }),
            None => invalid_name(dirs, input, &name),
        };
        return Ok(unchanged(resolution.diagnostics, not_expanded));
    };
    let mut diagnostics = resolution.diagnostics;
    let rendered = render(&winner.raw, &invocation.args, None);
    if let Some(limit) = rendered.truncated_at {
        diagnostics.push(Diagnostic::warning(
            &winner.source,
            format!("the expansion passed {limit} bytes and was cut there"),
        ));
    }
    Ok(DirExpansion {
        expansion: Expansion {
            expanded: true,
            name: Some(invocation.name),
            args: invocation.args,
            source: Some(winner.source),
            output: rendered.text,
        },
        diagnostics,
        not_expanded: None,
    })
}

/// [`NotExpanded::InvalidName`] when the first word of `input` after its
/// `/` is not the name the grammar read (`parsed`, empty when it read none)
/// and a file that could win or is withheld holds that word as its name.
/// Looks at files only when the word differs, and reads none.
fn invalid_name(dirs: &[SearchDir<'_>], input: &str, parsed: &str) -> Option<NotExpanded> {
    let word = input
        .trim_start_matches([' ', '\t'])
        .strip_prefix('/')?
        .split(char::is_whitespace)
        .next()
        .filter(|word| *word != parsed)?;
    let reads = Reads {
        winner: None,
        withheld: None,
    };
    let file = resolve_with(dirs, word, reads)
        .candidates
        .into_iter()
        .find(|c| matches!(c.fate, Fate::Winner | Fate::Withheld))?;
    Some(NotExpanded::InvalidName {
        name: word.to_string(),
        source: file.source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::prompt::command::test_support::{args, dirs, reasons, ws_with};
    use crate::prompt::command::{CommandExpander, DirCommandExpander};
    use crate::workspace::{MemNode, MemWorkspace};

    #[test]
    fn mecatl_directory_wins_over_claude() {
        let ws = ws_with(&[
            (".mecatl/commands/fix.md", "mecatl $1"),
            (".claude/commands/fix.md", "claude $1"),
        ]);
        let out = DirCommandExpander::default().expand(&ws, "/fix x").unwrap();
        assert_eq!(
            out,
            Expansion {
                expanded: true,
                name: Some("fix".into()),
                args: args(&["x"]),
                source: Some(".mecatl/commands/fix.md".into()),
                output: "mecatl x".into(),
            }
        );
        let outcome = expand_in(&dirs(&ws), "/fix").unwrap();
        assert_eq!(
            reasons(&outcome.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/fix.md".into(),
                "shadowed by .mecatl/commands/fix.md, which takes precedence".into()
            )]
        );
    }

    #[test]
    fn non_regular_files_are_not_found_and_the_next_directory_wins() {
        for node in [MemNode::Special("FIFO"), MemNode::Dir] {
            let ws = ws_with(&[(".claude/commands/x.md", "claude")])
                .node(".mecatl/commands/x.md", node.clone());
            let outcome = expand_in(&dirs(&ws), "/x").unwrap();
            assert_eq!(outcome.expansion.output, "claude");
            let what = if matches!(node, MemNode::Dir) {
                "directory"
            } else {
                "FIFO"
            };
            assert_eq!(
                reasons(&outcome.diagnostics),
                [(
                    Severity::Warning,
                    ".mecatl/commands/x.md".into(),
                    format!(
                        "not used: not a regular file ({what}); .claude/commands/x.md is used instead"
                    )
                )]
            );
        }
    }

    #[test]
    fn refused_and_dangling_symlinks_are_not_found() {
        let ws = MemWorkspace::new()
            .node(
                ".mecatl/commands/x.md",
                MemNode::Symlink("../../../secret".into()),
            )
            .node(".claude/commands/x.md", MemNode::Symlink("gone.md".into()));
        let resolution = resolve(&dirs(&ws), "x");
        assert!(resolution.winner.is_none());
        assert!(resolution.fault.is_none());
        let fates: Vec<&str> = resolution
            .candidates
            .iter()
            .map(|c| c.fate.as_str())
            .collect();
        assert_eq!(fates, ["refused symlink", "not found"]);
        assert!(
            resolution
                .diagnostics
                .iter()
                .all(|d| d.severity == Severity::Warning)
        );
        let expansion = DirCommandExpander::default().expand(&ws, "/x").unwrap();
        assert!(!expansion.expanded);
    }

    #[test]
    fn symlinks_inside_the_workspace_are_followed() {
        let ws = ws_with(&[("shared/review.md", "Shared $1")]).node(
            ".claude/commands/review.md",
            MemNode::Symlink("../../shared/review.md".into()),
        );
        let out = DirCommandExpander::default()
            .expand(&ws, "/review a")
            .unwrap();
        assert_eq!(out.output, "Shared a");
    }

    #[test]
    fn a_read_fault_on_the_first_candidate_is_an_error() {
        let ws = ws_with(&[(".claude/commands/x.md", "claude")])
            .node(".mecatl/commands/x.md", MemNode::Unreadable);
        let err = DirCommandExpander::default().expand(&ws, "/x").unwrap_err();
        assert_eq!(err.path, ".mecatl/commands/x.md");
        assert_eq!(err.source.kind(), io::ErrorKind::PermissionDenied);
        // A fault after the winner is not the expansion's business.
        let ws = ws_with(&[(".mecatl/commands/x.md", "mecatl")])
            .node(".claude/commands/x.md", MemNode::Unreadable);
        assert_eq!(
            DirCommandExpander::default()
                .expand(&ws, "/x")
                .unwrap()
                .output,
            "mecatl"
        );
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily_with_a_warning() {
        let ws = MemWorkspace::new().file(".claude/commands/x.md", b"a\xffb $1");
        let outcome = expand_in(&dirs(&ws), "/x y").unwrap();
        assert_eq!(outcome.expansion.output, "a\u{fffd}b y");
        assert_eq!(
            reasons(&outcome.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/x.md".into(),
                "not valid UTF-8; invalid bytes are replaced with U+FFFD".into()
            )]
        );
    }

    #[test]
    fn command_files_are_read_with_a_bound() {
        let max = limits::MAX_COMMAND_FILE_BYTES as usize;
        let mut big = "a".repeat(max - 1);
        big.push('é');
        big.push_str("tail");
        let ws = MemWorkspace::new().file(".claude/commands/big.md", &big);
        let outcome = expand_in(&dirs(&ws), "/big").unwrap();
        assert_eq!(outcome.expansion.output, "a".repeat(max - 1));
        assert_eq!(
            reasons(&outcome.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/big.md".into(),
                format!(
                    "file is {} bytes; only the first {max} bytes are used",
                    big.len()
                )
            )]
        );
    }

    #[test]
    fn a_bom_before_the_fence_is_reported() {
        let raw = "\u{feff}---\ndescription: d\n---\nBody";
        let ws = MemWorkspace::new().file(".claude/commands/b.md", raw);
        let outcome = expand_in(&dirs(&ws), "/b").unwrap();
        assert_eq!(outcome.expansion.output, raw);
        assert_eq!(outcome.diagnostics.len(), 1);
        assert!(
            outcome.diagnostics[0]
                .reason
                .starts_with("a byte order mark precedes")
        );
    }

    #[test]
    fn frontmatter_after_blank_lines_is_reported() {
        for raw in [
            "\n---\ndescription: d\n---\nBody",
            " \r\n---\r\na: b\r\n---\r\n",
        ] {
            let ws = MemWorkspace::new().file(".claude/commands/b.md", raw);
            let outcome = expand_in(&dirs(&ws), "/b").unwrap();
            assert_eq!(outcome.expansion.output, raw);
            assert_eq!(
                reasons(&outcome.diagnostics),
                [(
                    Severity::Warning,
                    ".claude/commands/b.md".into(),
                    "the opening --- is not at the start of the file, so the frontmatter is not \
                     recognised and reaches the model as text; remove what precedes it"
                        .into()
                )]
            );
        }
    }

    #[test]
    fn what_exists_but_cannot_be_used_is_said() {
        let ws = ws_with(&[(".claude/commands/w.md", "W")])
            .node(".mecatl/commands/p.md", MemNode::Special("FIFO"))
            .node(".claude/commands/p.md", MemNode::Dir)
            .node(".claude/commands/a:b.md", MemNode::Unreadable);
        let mut searched = dirs(&ws);
        searched[1].withheld = true;
        let not_expanded = |input: &str| expand_in(&searched, input).unwrap().not_expanded;
        assert_eq!(
            not_expanded("/w"),
            Some(NotExpanded::Withheld {
                name: "w".into(),
                source: ".claude/commands/w.md".into()
            })
        );
        let Some(NotExpanded::Unusable { name, candidates }) = not_expanded("/p x") else {
            panic!("unusable expected");
        };
        assert_eq!(name, "p");
        let why: Vec<(&str, Option<&str>)> = candidates
            .iter()
            .map(|c| (c.source.as_str(), c.fate.reason()))
            .collect();
        assert_eq!(
            why,
            [
                (".mecatl/commands/p.md", Some("not a regular file (FIFO)")),
                (
                    ".claude/commands/p.md",
                    Some("not a regular file (directory)")
                ),
            ]
        );
        // The file is only looked at, never read: unreadable, it is still
        // the file the input meant.
        for input in ["/a:b", "  /a:b x"] {
            assert_eq!(
                not_expanded(input),
                Some(NotExpanded::InvalidName {
                    name: "a:b".into(),
                    source: ".claude/commands/a:b.md".into()
                }),
                "{input:?}"
            );
        }
        for input in ["/a", "/nope", "/a:c", "hello", "/", "/etc/hosts"] {
            assert_eq!(not_expanded(input), None, "{input:?}");
        }
    }

    #[test]
    fn resolve_refuses_names_that_are_not_file_names() {
        let ws = ws_with(&[(".claude/commands/git/commit.md", "x")]);
        assert!(resolve(&dirs(&ws), "git/commit").candidates.is_empty());
        assert!(resolve(&dirs(&ws), "").candidates.is_empty());
    }
}
