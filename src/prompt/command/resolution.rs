//! Command resolution (SPEC §5.5, §3.3) on the precedence engine: every
//! candidate file for a name in precedence order, which one wins and why
//! the others lose, and the expansion of an input against the directories.
//! The listing ([`super::list_in`]) resolves through the same engine, so a
//! listing and an expansion always agree on the winner.
//!
//! The choices the spec leaves open are listed once, in [`super`].

use crate::diagnostic::Diagnostic;
use crate::prompt::command::files::CommandFiles;
use crate::prompt::command::{Expansion, parse_invocation, render};
use crate::prompt::divergence;
use crate::prompt::tiers::{
    Candidate, Fate, Kind, Losers, NameResolution, ReadPolicy, SearchDir, Tier, resolve_name,
};
use crate::prompt::turn0::ReadFault;

/// Finds every candidate file for `name` in `dirs`, in precedence order, and
/// reads the winner whole (SPEC §5.5, §3.3). Only files that could win are
/// read; withheld files and files after the winner are only looked at. A
/// name that cannot be a file name (empty, holding `/`) has no candidates.
pub fn resolve(dirs: &[SearchDir<'_>], name: &str) -> NameResolution<String> {
    resolve_name(
        dirs,
        name,
        &CommandFiles::WHOLE,
        ReadPolicy {
            contender: true,
            losers: Losers::Look,
            withheld: false,
        },
    )
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
        candidates: Vec<Candidate<String>>,
    },
    /// The file may only be invoked by the model (Claude Code's
    /// `user-invocable: false`): typed by the user, it sends nothing.
    ModelOnly {
        /// The command name.
        name: String,
        /// The file, as displayed.
        source: String,
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
/// naming that file: the file the user meant could not be read.
pub fn expand_in(dirs: &[SearchDir<'_>], input: &str) -> Result<DirExpansion, ReadFault> {
    let unchanged = |diagnostics, not_expanded| DirExpansion {
        expansion: Expansion::unchanged(input),
        diagnostics,
        not_expanded,
    };
    let Some(invocation) = parse_invocation(input) else {
        return Ok(unchanged(
            Vec::new(),
            invalid_name(dirs, &CommandFiles::WHOLE, input, ""),
        ));
    };
    let found = resolve(dirs, &invocation.name);
    let mut resolution = found.resolution;
    // Files after the winner are only looked at, so every fault came first.
    if let Some(fault) = resolution.faults.drain(..).next() {
        return Err(fault);
    }
    let winner = resolution
        .candidates
        .iter()
        .position(|c| c.fate == Fate::Winner);
    let Some(winner) = winner else {
        let name = invocation.name;
        let candidates = resolution.candidates;
        let not_expanded = match candidates.iter().find(|c| c.fate == Fate::Withheld) {
            Some(withheld) => Some(NotExpanded::Withheld {
                source: withheld.source.clone(),
                name,
            }),
            None if !candidates.is_empty() => Some(NotExpanded::Unusable { name, candidates }),
            None => invalid_name(dirs, &CommandFiles::WHOLE, input, &name),
        };
        return Ok(unchanged(resolution.diagnostics, not_expanded));
    };
    let winner = resolution.candidates.swap_remove(winner);
    let mut diagnostics = resolution.diagnostics;
    let raw = winner.item.unwrap_or_default();
    let rendered = render(&raw, &invocation.args, None);
    if let Some(limit) = rendered.truncated_at {
        diagnostics.push(Diagnostic::warning(
            &winner.source,
            format!("the expansion passed {limit} bytes and was cut there"),
        ));
    }
    let dir = &dirs[winner.dir_index];
    if dir.tier == Tier::Project && dir.dir == divergence::CLAUDE_COMMANDS_DIR {
        diagnostics.extend(divergence::expansion_warnings(
            &winner.source,
            &raw,
            &invocation.args,
            &rendered.text,
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
/// and a file of `kind` that could win or is withheld holds that word as
/// its name. Looks at files only when the word differs, and reads none.
pub(crate) fn invalid_name<K: Kind>(
    dirs: &[SearchDir<'_>],
    kind: &K,
    input: &str,
    parsed: &str,
) -> Option<NotExpanded> {
    let word = input
        .trim_start_matches([' ', '\t'])
        .strip_prefix('/')?
        .split(char::is_whitespace)
        .next()
        .filter(|word| *word != parsed)?;
    let file = resolve_name(dirs, word, kind, ReadPolicy::LOOK)
        .resolution
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
    use std::io;

    use super::*;
    use crate::diagnostic::Severity;
    use crate::limits;
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
                "shadowed by .mecatl/commands/fix.md".into()
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
                        "not a regular file ({what}); skipped without being opened; \
                         .claude/commands/x.md is used instead"
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
        let found = resolve(&dirs(&ws), "x");
        assert!(found.winner().is_none());
        let resolution = found.resolution;
        assert!(resolution.faults.is_empty());
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
        searched[1] = searched[1].clone().withheld_if(true);
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
        let why: Vec<(&str, Option<String>)> = candidates
            .iter()
            .map(|c| (c.source.as_str(), c.fate.detail()))
            .collect();
        assert_eq!(
            why,
            [
                (
                    ".mecatl/commands/p.md",
                    Some("not a regular file (FIFO)".to_string())
                ),
                (
                    ".claude/commands/p.md",
                    Some("not a regular file (directory)".to_string())
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
        assert!(
            resolve(&dirs(&ws), "git/commit")
                .resolution
                .candidates
                .is_empty()
        );
        assert!(resolve(&dirs(&ws), "").resolution.candidates.is_empty());
    }
}
