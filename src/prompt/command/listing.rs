//! Listing command directories (SPEC §2.3, §5.5) on the precedence
//! engine: one entry per name, with the same winners as expansion.

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::prompt::command::files::CommandFiles;
use crate::prompt::command::{Command, cannot_invoke, description, valid_command_name};
use crate::prompt::tiers::{
    Fate, Kind, Listed, Loaded, Losers, Loss, ReadPolicy, SearchDir, Words, resolve_all,
};
use crate::prompt::turn0::ReadFault;
use crate::workspace::EntryKind;

/// One listed command file: the winner of its name, or, when nothing claims
/// the name, the first withheld file holding it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedFile {
    /// The name (file name minus `.md`); may lie outside the grammar.
    pub name: String,
    /// Its description, or empty when the listing did not read files.
    pub description: String,
    /// Which of the searched directories holds it.
    pub dir_index: usize,
    /// Its path as the reader displays it.
    pub source: String,
    /// True when it comes from a withheld directory.
    pub withheld: bool,
}

/// Everything found in the command directories.
#[derive(Debug)]
pub struct Listing {
    /// One entry per name, sorted by name.
    pub commands: Vec<ListedFile>,
    /// Diagnostics about every file and directory discovered.
    pub diagnostics: Vec<Diagnostic>,
    /// Genuine read faults listing a directory (also in `diagnostics`).
    pub faults: Vec<ReadFault>,
}

impl Listing {
    /// The invokable commands (not withheld, valid names), or the first
    /// directory read fault.
    pub fn into_commands(self) -> Result<Vec<Command>, ReadFault> {
        if let Some(fault) = self.faults.into_iter().next() {
            return Err(fault);
        }
        Ok(self
            .commands
            .into_iter()
            .filter(|c| !c.withheld && valid_command_name(&c.name))
            .map(|c| Command {
                name: c.name,
                description: c.description,
            })
            .collect())
    }
}

/// Lists the command files of `dirs` (SPEC §5.5) under the same precedence
/// as [`resolve`](super::resolve), so a listing and an expansion always
/// agree on the winner.
///
/// `<dir>/*.md` entries are candidates (dotfiles too; `.md` is
/// case-sensitive; a bare `.md` is skipped with a warning, a file name that
/// is not UTF-8 too). With `describe`, the head of each file that can be
/// listed is read for its description; without, nothing is read (for shell
/// completion), so an unreadable file is listed. Nested subdirectories each
/// get an info diagnostic; names outside the grammar a "cannot be invoked"
/// warning. A directory that exists but cannot be listed, or is not a
/// directory, gives a fatal diagnostic and the others are still read.
pub fn list_in(dirs: &[SearchDir<'_>], describe: bool) -> Listing {
    let policy = ReadPolicy {
        contender: describe,
        losers: Losers::Look,
        withheld: describe,
    };
    let resolution = resolve_all(dirs, &Descriptions, policy);
    let mut rows: BTreeMap<String, ListedFile> = BTreeMap::new();
    for candidate in resolution.candidates {
        let withheld = match candidate.fate {
            Fate::Winner => false,
            Fate::Withheld if !rows.contains_key(&candidate.name) => true,
            _ => continue,
        };
        let row = ListedFile {
            description: candidate.item.unwrap_or_default(),
            name: candidate.name.clone(),
            dir_index: candidate.dir_index,
            source: candidate.source,
            withheld,
        };
        rows.insert(candidate.name, row);
    }
    let mut diagnostics = resolution.diagnostics;
    for row in rows.values().filter(|row| !valid_command_name(&row.name)) {
        diagnostics.push(Diagnostic::warning(&row.source, cannot_invoke(&row.name)));
    }
    Listing {
        commands: rows.into_values().collect(),
        diagnostics,
        faults: resolution.faults,
    }
}

/// The command files of a listing ([`CommandFiles::HEAD`]), each usable
/// file yielding only its description: every file is resolved before the
/// rows are built, and ten thousand heads kept till then were ten
/// megabytes.
struct Descriptions;

impl Kind for Descriptions {
    type Item = String;

    fn words(&self, dir: &SearchDir<'_>) -> &Words {
        CommandFiles::HEAD.words(dir)
    }

    fn load(&self, dir: &SearchDir<'_>, file: &Listed) -> Result<Loaded<String>, Loss> {
        let Loaded { item, notes } = CommandFiles::HEAD.load(dir, file)?;
        Ok(Loaded {
            item: description(&item),
            notes,
        })
    }

    fn nested_dir(
        &self,
        dir: &SearchDir<'_>,
        rel: &str,
        name: &str,
        kind: EntryKind,
    ) -> Option<Diagnostic> {
        CommandFiles::HEAD.nested_dir(dir, rel, name, kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::prompt::command::test_support::{dirs, reasons, ws_with};
    use crate::prompt::command::{
        CommandLister, DirCommandExpander, Expansion, NotExpanded, expand_in, resolve,
    };
    use crate::workspace::{MemNode, MemWorkspace};

    fn names(listing: &Listing) -> Vec<(&str, &str, &str, bool)> {
        listing
            .commands
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.description.as_str(),
                    c.source.as_str(),
                    c.withheld,
                )
            })
            .collect()
    }

    #[test]
    fn listing_warns_about_invalid_utf8_after_naming_the_winner() {
        let ws = MemWorkspace::new()
            .node(".mecatl/commands/x.md", MemNode::Special("FIFO"))
            .file(".claude/commands/x.md", b"Fix \xff now");
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(listing.commands[0].description, "Fix \u{fffd} now");
        assert_eq!(
            reasons(&listing.diagnostics),
            [
                (
                    Severity::Warning,
                    ".mecatl/commands/x.md".into(),
                    "not a regular file (FIFO); skipped without being opened; .claude/commands/x.md is used instead"
                        .into()
                ),
                (
                    Severity::Warning,
                    ".claude/commands/x.md".into(),
                    "not valid UTF-8; invalid bytes are replaced with U+FFFD".into()
                ),
            ]
        );
    }

    #[test]
    fn listing_takes_md_files_sorted_first_directory_wins() {
        let ws = ws_with(&[
            (".mecatl/commands/zeta.md", "Z"),
            (
                ".mecatl/commands/fix.md",
                "---\ndescription: Mecatl fix\n---\n",
            ),
            (".claude/commands/fix.md", "Claude fix"),
            (".claude/commands/.hidden.md", "Hidden"),
            (".claude/commands/alpha.md", "\n\nAlpha line\n"),
            (".claude/commands/UPPER.MD", "ignored"),
            (".claude/commands/notes.txt", "ignored"),
            (".claude/commands/.md", "bare"),
        ]);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [
                (".hidden", "Hidden", ".claude/commands/.hidden.md", false),
                ("alpha", "Alpha line", ".claude/commands/alpha.md", false),
                ("fix", "Mecatl fix", ".mecatl/commands/fix.md", false),
                ("zeta", "Z", ".mecatl/commands/zeta.md", false),
            ]
        );
        assert_eq!(
            reasons(&listing.diagnostics),
            [
                (
                    Severity::Warning,
                    ".claude/commands/.md".into(),
                    "a file named only .md has no command name; skipped".into()
                ),
                (
                    Severity::Warning,
                    ".claude/commands/fix.md".into(),
                    "shadowed by .mecatl/commands/fix.md".into()
                ),
            ]
        );
    }

    /// A nested directory of `.claude/commands` is a divergence warning
    /// (Claude Code reads it); one of `.mecatl/commands`, which no agent
    /// reads, or one without `.md` files, stays an info.
    #[test]
    fn nested_claude_directories_get_one_warning_each() {
        let ws = ws_with(&[
            (".mecatl/commands/ops/deploy.md", "d"),
            (".claude/commands/top.md", "t"),
            (".claude/commands/git/commit.md", "c"),
            (".claude/commands/git/push.md", "p"),
            (".claude/commands/git/deeper/x.md", "x"),
            (".claude/commands/empty/readme.txt", "r"),
        ]);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [("top", "t", ".claude/commands/top.md", false)]
        );
        let info = "nested directory not read: commands are only taken from .md files directly \
                    in the commands directory"
            .to_string();
        assert_eq!(
            reasons(&listing.diagnostics),
            [
                (Severity::Info, ".mecatl/commands/ops".into(), info.clone()),
                (Severity::Info, ".claude/commands/empty".into(), info),
                (
                    Severity::Warning,
                    ".claude/commands/git".into(),
                    "nested directory not read under the mecatl profile: Claude Code offers its \
                     3 .md file(s) as /git:NAME (/git:commit, /git:deeper:x, /git:push); run \
                     with --agent claude to see what Claude Code does"
                        .into()
                ),
            ]
        );
    }

    #[test]
    fn names_outside_the_grammar_are_listed_with_a_warning() {
        let ws = ws_with(&[(".claude/commands/my cmd.md", "Spaced")]);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [("my cmd", "Spaced", ".claude/commands/my cmd.md", false)]
        );
        assert_eq!(
            reasons(&listing.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/my cmd.md".into(),
                "/my cmd cannot be invoked: command names use only ASCII letters, digits, -, _ and ."
                    .into()
            )]
        );
        assert!(
            list_in(&dirs(&ws), true)
                .into_commands()
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn dropped_files_do_not_claim_their_name_in_a_listing() {
        let ws = ws_with(&[
            (".claude/commands/x.md", "Claude x"),
            (".claude/commands/y.md", "Claude y"),
        ])
        .node(".mecatl/commands/x.md", MemNode::Unreadable)
        .node(".mecatl/commands/y.md", MemNode::Special("socket"));
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [
                ("x", "Claude x", ".claude/commands/x.md", false),
                ("y", "Claude y", ".claude/commands/y.md", false),
            ]
        );
        let diagnostics = reasons(&listing.diagnostics);
        assert_eq!(diagnostics.len(), 2);
        assert_eq!(diagnostics[0].0, Severity::Fatal);
        assert_eq!(diagnostics[0].1, ".mecatl/commands/x.md");
        assert!(diagnostics[0].2.starts_with("cannot be read: "));
        assert!(
            diagnostics[0]
                .2
                .ends_with("; .claude/commands/x.md is used instead")
        );
        assert_eq!(
            diagnostics[1],
            (
                Severity::Warning,
                ".mecatl/commands/y.md".into(),
                "not a regular file (socket); skipped without being opened; .claude/commands/y.md is used instead"
                    .into()
            )
        );
    }

    #[test]
    fn withheld_files_are_listed_but_claim_nothing() {
        let ws = ws_with(&[
            (".mecatl/commands/x.md", "Withheld x"),
            (".mecatl/commands/w.md", "Withheld w"),
            (".claude/commands/x.md", "Used x"),
        ]);
        let mut searched = dirs(&ws);
        searched[0] = searched[0].clone().withheld_if(true);
        let listing = list_in(&searched, true);
        assert_eq!(
            names(&listing),
            [
                ("w", "Withheld w", ".mecatl/commands/w.md", true),
                ("x", "Used x", ".claude/commands/x.md", false),
            ]
        );
        assert!(listing.diagnostics.is_empty(), "{:?}", listing.diagnostics);
        let fates: Vec<Fate> = resolve(&searched, "x")
            .resolution
            .candidates
            .into_iter()
            .map(|c| c.fate)
            .collect();
        assert_eq!(fates, [Fate::Withheld, Fate::Winner]);
        let commands = list_in(&searched, true).into_commands().unwrap();
        assert_eq!(
            commands,
            [Command {
                name: "x".into(),
                description: "Used x".into()
            }]
        );
    }

    #[test]
    fn the_first_withheld_file_of_a_name_is_listed() {
        let ws = ws_with(&[
            (".mecatl/commands/w.md", "First"),
            (".claude/commands/w.md", "Second"),
        ]);
        let withheld: Vec<SearchDir<'_>> = dirs(&ws)
            .into_iter()
            .map(|d| SearchDir {
                withheld: true,
                ..d
            })
            .collect();
        let listing = list_in(&withheld, true);
        assert_eq!(
            names(&listing),
            [("w", "First", ".mecatl/commands/w.md", true)]
        );
        assert_eq!(
            reasons(&listing.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/w.md".into(),
                "shadowed by .mecatl/commands/w.md".into()
            )],
            "withheld directories resolve among themselves"
        );
        let outcome = expand_in(&withheld, "/w now").unwrap();
        assert_eq!(outcome.expansion, Expansion::unchanged("/w now"));
        assert_eq!(
            outcome.not_expanded,
            Some(NotExpanded::Withheld {
                name: "w".into(),
                source: ".mecatl/commands/w.md".into()
            })
        );
    }

    #[test]
    fn listing_without_descriptions_reads_no_file() {
        let ws = MemWorkspace::new().node(".claude/commands/x.md", MemNode::Unreadable);
        let listing = list_in(&dirs(&ws), false);
        assert_eq!(names(&listing), [("x", "", ".claude/commands/x.md", false)]);
        assert!(listing.diagnostics.is_empty());
    }

    #[test]
    fn broken_command_directories_are_fatal_and_others_still_load() {
        let ws = ws_with(&[
            (".mecatl/commands", "a file"),
            (".claude/commands/ok.md", "Ok"),
        ]);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [("ok", "Ok", ".claude/commands/ok.md", false)]
        );
        assert_eq!(
            reasons(&listing.diagnostics),
            [(
                Severity::Fatal,
                ".mecatl/commands".into(),
                "is not a directory; no commands are read from it".into()
            )]
        );
        assert!(listing.faults.is_empty());

        let ws = ws_with(&[(".claude/commands/ok.md", "Ok")])
            .node(".mecatl/commands", MemNode::Unreadable);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(listing.commands.len(), 1);
        assert_eq!(listing.diagnostics[0].severity, Severity::Fatal);
        let err = listing.into_commands().unwrap_err();
        assert_eq!(err.path, ".mecatl/commands");
        assert!(DirCommandExpander::default().list(&ws).is_err());
    }

    #[test]
    fn an_escaping_directory_link_is_fatal() {
        let ws = ws_with(&[(".claude/commands/ok.md", "Ok")]).node(
            ".mecatl/commands",
            MemNode::Symlink("../../elsewhere".into()),
        );
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [("ok", "Ok", ".claude/commands/ok.md", false)]
        );
        assert_eq!(listing.diagnostics.len(), 1);
        assert_eq!(listing.diagnostics[0].severity, Severity::Fatal);
        assert_eq!(
            listing.diagnostics[0].path.as_deref(),
            Some(".mecatl/commands")
        );
        assert!(
            listing.diagnostics[0]
                .reason
                .starts_with("command directory not read: ")
        );
    }

    #[test]
    fn a_looping_directory_link_is_missing_with_a_warning() {
        let ws = ws_with(&[(".claude/commands/ok.md", "Ok")])
            .node(".mecatl/commands", MemNode::Symlink("commands".into()));
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(listing.commands.len(), 1);
        assert_eq!(
            listing.diagnostics,
            [Diagnostic::warning(
                ".mecatl/commands",
                "command directory is a symlink loop; treated as missing"
            )]
        );
        assert!(listing.into_commands().is_ok());
    }

    #[test]
    fn missing_directories_are_no_commands() {
        let ws = MemWorkspace::new();
        let listing = list_in(&dirs(&ws), true);
        assert!(listing.commands.is_empty() && listing.diagnostics.is_empty());
        assert!(DirCommandExpander::default().list(&ws).unwrap().is_empty());
    }

    #[test]
    fn listing_and_expansion_agree_on_ten_thousand_files() {
        let mut ws = MemWorkspace::new();
        for i in 0..10_000 {
            let dir = if i % 3 == 0 {
                ".mecatl/commands"
            } else {
                ".claude/commands"
            };
            ws.insert(
                &format!("{dir}/c{:05}.md", i % 7_000),
                MemNode::File(format!("{dir} {i}").into_bytes()),
            );
        }
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(listing.commands.len(), 7_000);
        for row in listing.commands.iter().step_by(97) {
            let out = expand_in(&dirs(&ws), &format!("/{}", row.name)).unwrap();
            assert_eq!(out.expansion.source.as_deref(), Some(row.source.as_str()));
            assert_eq!(out.expansion.output, row.description);
        }
    }
}
