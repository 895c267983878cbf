//! Slash-command directories on disk (SPEC §5.5, §2.2, §2.3, §2.8): which
//! directories are searched, through which reader, with which tier and
//! trust state — and the listing, expansion, completion and explanation the
//! CLI needs. Every one of them resolves through the domain's one
//! precedence engine ([`crate::prompt::tiers`], via
//! [`crate::prompt::command::resolve`] and [`crate::prompt::command::list_in`]),
//! so they agree on the winner.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use serde_json::Map;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::command::{
    self, Command, CommandSource, DEFAULT_COMMAND_DIRS, Expansion, NotExpanded, cannot_invoke,
    command_dirs, parse_invocation, valid_command_name,
};
use crate::prompt::compare::{Offered, OfferedKind};
use crate::prompt::divergence;
use crate::prompt::profile::ProfileTurn0;
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    EntryText, ResolvedName, places, unknown_command,
};
use crate::prompt::profile::seam::ProfileError;
use crate::prompt::text::one_line;
use crate::prompt::tiers::{Fate, NameResolution, SearchDir, Tier};
use crate::prompt::turn0::ReadFault;
use crate::workspace::{LinkPolicy, OsWorkspace, Workspace, WsError};

/// One command as `commands list` shows it (SPEC §2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct ListedCommand {
    /// The name, without the slash.
    pub name: String,
    /// The one-line description; may be empty.
    pub description: String,
    /// The file, as its reader displays it.
    pub source: String,
    /// The tier of the directory holding it (`project` or `operator`).
    pub tier: Tier,
    /// True when it is withheld because the workspace is not trusted.
    pub withheld: bool,
}

/// Everything `commands list` reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandListing {
    /// One entry per name, sorted by name.
    pub commands: Vec<ListedCommand>,
    /// Diagnostics about every file and directory discovered.
    pub diagnostics: Vec<Diagnostic>,
}

/// Everything `expand` reports (SPEC §2.2), in the order of its JSON keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExpandOutcome {
    /// What the input expanded to (or the input unchanged), and from where.
    #[serde(flatten)]
    pub expansion: Expansion,
    /// Diagnostics about the files looked at.
    pub diagnostics: Vec<Diagnostic>,
    /// When nothing expanded although a command file is there for what the
    /// input names: why (for the withheld warning and `--require`).
    #[serde(skip)]
    pub not_expanded: Option<NotExpanded>,
}

/// What `explain /NAME` needs: every directory's place for the name and
/// what became of the file there, and the winner's description and
/// frontmatter keys.
#[derive(Debug)]
pub struct CommandExplanation {
    /// The candidates in precedence order, with every directory's place.
    pub found: NameResolution<String>,
    /// The winner's description, when there is a winner.
    pub description: Option<String>,
    /// The top-level keys of the winner's frontmatter.
    pub frontmatter_keys: Vec<String>,
}

/// The command directories of one run, highest precedence first, and every
/// question the CLI asks of them.
#[derive(Debug, Clone)]
pub struct CommandCatalog {
    dirs: Vec<SearchDir<'static>>,
    /// True when these are the workspace's own directories (not the
    /// operator's): `commands list` also says what Claude Code would offer
    /// there.
    workspace_dirs: bool,
}

impl CommandCatalog {
    /// A catalog over `dirs`, highest precedence first.
    pub fn new(dirs: Vec<SearchDir<'static>>) -> Self {
        Self {
            dirs,
            workspace_dirs: false,
        }
    }

    /// The default project directories (`.mecatl/commands`, then
    /// `.claude/commands`) read through the workspace reader, withheld
    /// unless `trusted`.
    pub fn for_workspace(reader: Arc<dyn Workspace>, trusted: bool) -> Self {
        let dirs = command_dirs(reader, &DEFAULT_COMMAND_DIRS, Tier::Project, !trusted);
        Self {
            dirs,
            workspace_dirs: true,
        }
    }

    /// Operator directories (`--commands-dir`, already resolved against
    /// `-C`), in the order given; they replace the project directories.
    /// Each is read through its own reader rooted at it, links followed
    /// (the operator named it), never withheld.
    pub fn for_operator_dirs<I, P>(paths: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: Into<PathBuf>,
    {
        Self::new(
            paths
                .into_iter()
                .map(|path| {
                    let reader = Arc::new(OsWorkspace::new(path, LinkPolicy::Follow));
                    SearchDir::flat(reader, "", Tier::Operator)
                })
                .collect(),
        )
    }

    /// The directories searched, highest precedence first.
    pub fn dirs(&self) -> &[SearchDir<'static>] {
        &self.dirs
    }

    /// Warnings for operator directories that do not exist: the operator
    /// named them, so silence would hide a typo.
    fn missing_operator_dirs(&self) -> Vec<Diagnostic> {
        self.dirs
            .iter()
            .filter(|d| d.tier == Tier::Operator)
            .filter(|d| matches!(d.reader.stat(&d.dir), Err(WsError::NotFound)))
            .map(|d| Diagnostic::warning(d.display(&d.dir), "commands directory does not exist"))
            .collect()
    }

    /// Every command found, one per name, sorted by name, with diagnostics
    /// about every file and directory discovered (SPEC §2.3, §5.5).
    /// Withheld commands are listed, marked, and claim no name.
    pub fn list(&self) -> CommandListing {
        let listing = command::list_in(&self.dirs, true);
        let mut diagnostics = self.missing_operator_dirs();
        diagnostics.extend(listing.diagnostics);
        CommandListing {
            commands: listing
                .commands
                .into_iter()
                .map(|c| ListedCommand {
                    name: c.name,
                    description: c.description,
                    source: c.source,
                    tier: self.dirs[c.dir_index].tier,
                    withheld: c.withheld,
                })
                .collect(),
            diagnostics,
        }
    }

    /// Expands `input` (SPEC §2.2). An unknown command or a non-command
    /// comes back unchanged; only a read fault on the file that would have
    /// won (EACCES, EIO) is an error, naming that file.
    pub fn expand(&self, input: &str) -> Result<ExpandOutcome, ReadFault> {
        let outcome = command::expand_in(&self.dirs, input)?;
        let mut diagnostics = self.missing_operator_dirs();
        diagnostics.extend(outcome.diagnostics);
        Ok(ExpandOutcome {
            expansion: outcome.expansion,
            diagnostics,
            not_expanded: outcome.not_expanded,
        })
    }

    /// The names shell completion offers: invokable (grammar-valid, not
    /// withheld), sorted. Reads directory listings only, no file content,
    /// so a file that cannot be read is still offered.
    pub fn completion_names(&self) -> Vec<String> {
        command::list_in(&self.dirs, false)
            .commands
            .into_iter()
            .filter(|c| !c.withheld && valid_command_name(&c.name))
            .map(|c| c.name)
            .collect()
    }

    /// Why `name` resolves as it does (SPEC §2.8): every directory's
    /// candidate, and the winner's description and frontmatter keys.
    pub fn explain(&self, name: &str) -> CommandExplanation {
        let found = command::resolve(&self.dirs, name);
        let winner = found.winner().and_then(|w| w.item.as_deref());
        CommandExplanation {
            description: winner.map(command::description),
            frontmatter_keys: winner.map(command::frontmatter_keys).unwrap_or_default(),
            found,
        }
    }
}

/// The catalog as a live [`CommandSource`] over its directories: the
/// invokable commands, and the raw winning file of a name.
impl CommandSource for CommandCatalog {
    type Error = ReadFault;

    fn list_commands(&self) -> Result<Vec<Command>, ReadFault> {
        command::list_in(&self.dirs, true).into_commands()
    }

    fn command_body(&self, name: &str) -> Result<Option<String>, ReadFault> {
        if !valid_command_name(name) {
            return Ok(None);
        }
        let mut found = command::resolve(&self.dirs, name).resolution;
        if let Some(fault) = found.faults.drain(..).next() {
            return Err(fault);
        }
        Ok(found
            .candidates
            .into_iter()
            .find(|c| c.fate == Fate::Winner)
            .and_then(|c| c.item))
    }
}

/// The engine's catalog as a profile's (SPEC §2.3, §14.1): the engine has
/// no listing message; its command directories are only listed, no file
/// read, and only a listing that fails is diagnosed.
impl Catalog for CommandCatalog {
    /// One row per name; over the workspace's own directories, the skills
    /// Claude Code would offer beside them are counted in a divergence
    /// warning (SPEC §15.2).
    fn list(&self) -> Result<CatalogListing, ProfileError> {
        let mut listing = CommandCatalog::list(self);
        let workspace = self.dirs.first().filter(|_| self.workspace_dirs);
        if let Some(dir) = workspace {
            let warning = divergence::root_skills_warning(dir.reader.clone());
            listing.diagnostics.extend(warning);
        }
        let withheld = listing.commands.iter().any(|c| c.withheld);
        let rows = listing.commands.into_iter().map(|c| {
            let scope = c.tier.into();
            CatalogRow::plain(
                c.name,
                "command",
                scope,
                c.source,
                c.description,
                c.withheld,
            )
        });
        Ok(CatalogListing {
            rows: rows.collect(),
            diagnostics: listing.diagnostics,
            withheld,
        })
    }

    /// One line per command: `/name`, two spaces, the description, and
    /// `(withheld: untrusted)` for withheld ones; no trailing space.
    fn table(&self, rows: &[CatalogRow]) -> String {
        let lines: Vec<String> = rows.iter().map(text_line).collect();
        lines.join("\n")
    }

    fn completion_names(&self) -> Vec<(String, Option<String>)> {
        let names = CommandCatalog::completion_names(self).into_iter();
        names.map(|name| (format!("/{name}"), None)).collect()
    }

    fn add_listing(&self, turn0: &mut ProfileTurn0) -> Result<Vec<Offered>, ProfileError> {
        let listing = command::list_in(&self.dirs, false);
        // What `commands list` warns about (shadowing, names, Claude Code's
        // nested directories) is said by the rows and divergences of
        // whoever asks for the catalog; a directory that cannot be listed
        // is still said.
        let fatal = listing.diagnostics.into_iter();
        let fatal = fatal.filter(|d| d.severity == Severity::Fatal);
        turn0.diagnostics.extend(fatal);
        Ok(listing
            .commands
            .into_iter()
            .map(|command| Offered {
                path: command.source,
                scope: self.dirs[command.dir_index].tier.scope(),
                kind: OfferedKind::Command,
                nested: false,
                withheld: command.withheld,
            })
            .collect())
    }

    fn expand(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        let outcome = CommandCatalog::expand(self, input)?;
        Ok(CatalogExpansion {
            expansion: outcome.expansion,
            diagnostics: outcome.diagnostics,
            not_expanded: outcome.not_expanded,
            withheld: false,
            extras: Map::new(),
        })
    }

    fn cannot_invoke(&self, name: &str) -> String {
        cannot_invoke(name)
    }

    fn unknown(&self, input: &str) -> String {
        let invocation = parse_invocation(input);
        unknown_command(invocation.as_ref().map(|i| i.name.as_str()))
    }

    fn explain(&self, name: &str) -> Result<CatalogExplanation, ProfileError> {
        let explanation = CommandCatalog::explain(self, name);
        let found = explanation.found;
        Ok(CatalogExplanation::Resolved(Box::new(ResolvedName {
            places: places(&self.dirs, &found),
            winner: found.winner().map(|c| c.source.clone()),
            description: explanation.description,
            frontmatter_keys: explanation.frontmatter_keys,
            details: None,
            alias: None,
            diagnostics: found.resolution.diagnostics,
        })))
    }

    /// The invokable commands, sorted by name, with their raw files.
    fn texts(&self) -> Result<CatalogTexts, ProfileError> {
        let listing = CommandCatalog::list(self);
        let mut texts = CatalogTexts {
            withheld: listing.commands.iter().any(|c| c.withheld),
            diagnostics: listing.diagnostics,
            texts: Vec::new(),
        };
        for command in listing.commands.into_iter().filter(|c| !c.withheld) {
            if let Some(text) = self.command_body(&command.name)? {
                texts.texts.push(EntryText {
                    name: command.name,
                    source: command.source,
                    text,
                });
            }
        }
        Ok(texts)
    }
}

/// One engine row as a text line.
fn text_line(row: &CatalogRow) -> String {
    let mut line = format!("/{}", one_line(&row.name));
    let withheld = if row.withheld() {
        "(withheld: untrusted)"
    } else {
        ""
    };
    for part in [row.description.as_deref().unwrap_or_default(), withheld] {
        if !part.is_empty() {
            line.push_str("  ");
            line.push_str(part);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;

    use super::*;
    use crate::conformance::commands::{COMMAND_FIXTURE, MemCommandSource, run_command_source};
    use crate::diagnostic::Severity;
    use crate::prompt::command::{CommandExpander, SourceExpander};
    use crate::workspace::{MemNode, MemWorkspace};

    fn catalog(ws: MemWorkspace, trusted: bool) -> CommandCatalog {
        CommandCatalog::for_workspace(Arc::new(ws), trusted)
    }

    /// (withheld, fate) of every candidate for `name`, in precedence order.
    fn fates(catalog: &CommandCatalog, name: &str) -> Vec<(bool, Fate)> {
        catalog
            .explain(name)
            .found
            .resolution
            .candidates
            .into_iter()
            .map(|c| (catalog.dirs()[c.dir_index].withheld, c.fate))
            .collect()
    }

    fn sample() -> MemWorkspace {
        MemWorkspace::new()
            .file(
                ".mecatl/commands/fix.md",
                "---\ndescription: Fix it\nmodel: x\n---\nFix $1",
            )
            .file(".claude/commands/fix.md", "Claude fix $1")
            .file(".claude/commands/review.md", "Review $ARGUMENTS")
            .file(".claude/commands/my cmd.md", "Spaced")
    }

    fn listed(listing: &CommandListing) -> Vec<(&str, &str, &str, Tier, bool)> {
        listing
            .commands
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.description.as_str(),
                    c.source.as_str(),
                    c.tier,
                    c.withheld,
                )
            })
            .collect()
    }

    #[test]
    fn trusted_project_listing_and_expansion_agree() {
        let catalog = catalog(sample(), true);
        let listing = catalog.list();
        assert_eq!(
            listed(&listing),
            [
                (
                    "fix",
                    "Fix it",
                    ".mecatl/commands/fix.md",
                    Tier::Project,
                    false
                ),
                (
                    "my cmd",
                    "Spaced",
                    ".claude/commands/my cmd.md",
                    Tier::Project,
                    false
                ),
                (
                    "review",
                    "Review $ARGUMENTS",
                    ".claude/commands/review.md",
                    Tier::Project,
                    false
                ),
            ]
        );
        let warnings: Vec<(&str, &str)> = listing
            .diagnostics
            .iter()
            .map(|d| (d.path.as_deref().unwrap_or_default(), d.reason.as_str()))
            .collect();
        assert_eq!(
            warnings,
            [
                (
                    ".claude/commands/fix.md",
                    "shadowed by .mecatl/commands/fix.md"
                ),
                (
                    ".claude/commands/my cmd.md",
                    "/my cmd cannot be invoked: command names use only ASCII letters, digits, -, _ and ."
                ),
            ]
        );
        let outcome = catalog.expand("/fix src/a.rs").unwrap();
        assert_eq!(
            outcome,
            ExpandOutcome {
                expansion: Expansion {
                    expanded: true,
                    name: Some("fix".into()),
                    args: vec!["src/a.rs".into()],
                    source: Some(".mecatl/commands/fix.md".into()),
                    output: "Fix src/a.rs".into(),
                },
                diagnostics: vec![Diagnostic::warning(
                    ".claude/commands/fix.md",
                    "shadowed by .mecatl/commands/fix.md"
                )],
                not_expanded: None,
            }
        );
        assert_eq!(catalog.completion_names(), ["fix", "review"]);
    }

    #[test]
    fn json_shapes_follow_the_spec() {
        let catalog = catalog(sample(), true);
        let listing = catalog.list();
        assert_eq!(
            serde_json::to_value(&listing.commands[0]).unwrap(),
            json!({"name": "fix", "description": "Fix it", "source": ".mecatl/commands/fix.md",
                   "tier": "project", "withheld": false})
        );
        let outcome = catalog.expand("nothing").unwrap();
        assert_eq!(
            serde_json::to_string(&outcome).unwrap(),
            r#"{"expanded":false,"name":null,"args":[],"source":null,"output":"nothing","diagnostics":[]}"#
        );
        assert_eq!(
            fates(&catalog, "fix"),
            [
                (false, Fate::Winner),
                (
                    false,
                    Fate::Shadowed {
                        by: ".mecatl/commands/fix.md".into()
                    }
                ),
            ]
        );
    }

    #[test]
    fn untrusted_project_commands_are_withheld() {
        let catalog = catalog(sample(), false);
        let listing = catalog.list();
        assert!(listing.commands.iter().all(|c| c.withheld));
        assert_eq!(listing.commands[0].source, ".mecatl/commands/fix.md");
        assert_eq!(
            listing
                .diagnostics
                .iter()
                .map(|d| (d.path.as_deref().unwrap_or_default(), d.reason.as_str()))
                .filter(|(_, reason)| reason.starts_with("shadowed"))
                .collect::<Vec<_>>(),
            [(
                ".claude/commands/fix.md",
                "shadowed by .mecatl/commands/fix.md"
            )],
            "withheld files resolve among themselves"
        );
        assert!(catalog.completion_names().is_empty());
        assert!(catalog.list_commands().unwrap().is_empty());

        let outcome = catalog.expand("/fix x").unwrap();
        assert!(!outcome.expansion.expanded);
        assert_eq!(outcome.expansion.output, "/fix x");
        assert_eq!(
            outcome.not_expanded,
            Some(NotExpanded::Withheld {
                name: "fix".into(),
                source: ".mecatl/commands/fix.md".into()
            })
        );
        assert_eq!(
            outcome.diagnostics,
            [Diagnostic::warning(
                ".claude/commands/fix.md",
                "shadowed by .mecatl/commands/fix.md"
            )],
            "the withheld warning is the CLI's, which knows how to trust"
        );
        assert_eq!(catalog.expand("/unknown").unwrap().not_expanded, None);

        let fates: Vec<(bool, &str)> = fates(&catalog, "fix")
            .iter()
            .map(|(withheld, fate)| (*withheld, fate.as_str()))
            .collect();
        assert_eq!(fates, [(true, "withheld"), (true, "shadowed")]);
    }

    #[test]
    fn an_unreadable_winner_is_a_read_fault_naming_the_file() {
        let ws = MemWorkspace::new()
            .node(".mecatl/commands/x.md", MemNode::Unreadable)
            .file(".claude/commands/x.md", "Claude x");
        let catalog = catalog(ws, true);
        let err = catalog.expand("/x").unwrap_err();
        assert_eq!(err.path, ".mecatl/commands/x.md");
        assert!(
            err.to_string()
                .starts_with("reading .mecatl/commands/x.md: ")
        );
        let fates: Vec<&str> = fates(&catalog, "x")
            .iter()
            .map(|(_, fate)| fate.as_str())
            .collect();
        assert_eq!(fates, ["unreadable", "winner"]);
        let listing = catalog.list();
        assert_eq!(listing.commands[0].source, ".claude/commands/x.md");
        assert_eq!(listing.diagnostics[0].severity, Severity::Fatal);
        assert!(catalog.command_body("x").is_err());
    }

    #[test]
    fn explain_gives_the_winners_description_and_keys() {
        let explanation = catalog(sample(), true).explain("fix");
        assert_eq!(explanation.description.as_deref(), Some("Fix it"));
        assert_eq!(explanation.frontmatter_keys, ["description", "model"]);
        assert_eq!(explanation.found.resolution.candidates.len(), 2);
        let nothing = catalog(sample(), true).explain("nope");
        assert!(nothing.found.resolution.candidates.is_empty() && nothing.description.is_none());
    }

    fn write(path: &Path, content: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    // Unix only: makes symbolic links with std::os::unix (Windows links need privileges the test cannot assume).
    #[cfg(unix)]
    #[test]
    fn operator_directories_replace_the_project_ones_in_order() {
        let first = tempfile::tempdir().unwrap();
        let second = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        write(&first.path().join("fix.md"), "First $1");
        write(&second.path().join("fix.md"), "Second $1");
        write(&second.path().join("only.md"), "Only");
        write(&elsewhere.path().join("linked.md"), "Linked");
        std::os::unix::fs::symlink(
            elsewhere.path().join("linked.md"),
            first.path().join("linked.md"),
        )
        .unwrap();
        let missing = first.path().join("missing");

        let catalog = CommandCatalog::for_operator_dirs([first.path(), second.path(), &missing]);
        let listing = catalog.list();
        let fix = first.path().join("fix.md").display().to_string();
        assert_eq!(
            listed(&listing),
            [
                ("fix", "First $1", fix.as_str(), Tier::Operator, false),
                (
                    "linked",
                    "Linked",
                    &*first.path().join("linked.md").display().to_string(),
                    Tier::Operator,
                    false
                ),
                (
                    "only",
                    "Only",
                    &*second.path().join("only.md").display().to_string(),
                    Tier::Operator,
                    false
                ),
            ]
        );
        let missing_warning = Diagnostic::warning(
            missing.display().to_string(),
            "commands directory does not exist",
        );
        assert_eq!(listing.diagnostics[0], missing_warning);
        assert_eq!(
            listing.diagnostics[1],
            Diagnostic::warning(
                second.path().join("fix.md").display().to_string(),
                format!("shadowed by {fix}")
            )
        );
        let outcome = catalog.expand("/fix a").unwrap();
        assert_eq!(outcome.expansion.output, "First a");
        assert_eq!(outcome.expansion.source.as_deref(), Some(fix.as_str()));
        assert_eq!(outcome.diagnostics[0], missing_warning);
        assert_eq!(catalog.completion_names(), ["fix", "linked", "only"]);
    }

    // Unix only: a FIFO, a symbolic link and a file name that is not UTF-8.
    #[cfg(unix)]
    #[test]
    fn os_special_files_escapes_and_odd_names() {
        use std::os::unix::ffi::OsStrExt;

        let outside = tempfile::tempdir().unwrap();
        write(&outside.path().join("secret.md"), "secret");
        let root = tempfile::tempdir().unwrap();
        let mecatl = root.path().join(".mecatl/commands");
        let claude = root.path().join(".claude/commands");
        for name in ["fifo", "dir", "escape", "ok"] {
            write(
                &claude.join(format!("{name}.md")),
                &format!("claude {name}"),
            );
        }
        std::fs::create_dir_all(&mecatl).unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(mecatl.join("fifo.md"))
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::create_dir(mecatl.join("dir.md")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.md"), mecatl.join("escape.md"))
            .unwrap();
        std::fs::write(mecatl.join(std::ffi::OsStr::from_bytes(b"bad\xff.md")), "x").unwrap();

        let reader: Arc<dyn Workspace> =
            Arc::new(OsWorkspace::new(root.path(), LinkPolicy::Confine));
        let catalog = CommandCatalog::for_workspace(reader, true);
        let listing = catalog.list();
        let names: Vec<(&str, &str)> = listing
            .commands
            .iter()
            .map(|c| (c.name.as_str(), c.source.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("dir", ".claude/commands/dir.md"),
                ("escape", ".claude/commands/escape.md"),
                ("fifo", ".claude/commands/fifo.md"),
                ("ok", ".claude/commands/ok.md"),
            ]
        );
        let diagnostics: Vec<(Severity, &str, &str)> = listing
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.severity,
                    d.path.as_deref().unwrap_or_default(),
                    d.reason.as_str(),
                )
            })
            .collect();
        assert_eq!(
            diagnostics,
            [
                (
                    Severity::Warning,
                    ".mecatl/commands/bad\u{fffd}.md",
                    "file name is not valid UTF-8, so the command cannot be named; skipped"
                ),
                (
                    Severity::Info,
                    ".mecatl/commands/dir.md",
                    "nested directory not read: commands are only taken from .md files directly in \
                     the commands directory"
                ),
                (
                    Severity::Warning,
                    ".mecatl/commands/escape.md",
                    "refused symlink: symlink resolves outside the workspace; not followed; \
                     .claude/commands/escape.md is used instead"
                ),
                (
                    Severity::Warning,
                    ".mecatl/commands/fifo.md",
                    "not a regular file (FIFO); skipped without being opened; .claude/commands/fifo.md is used instead"
                ),
            ]
        );
        for name in ["fifo", "dir", "escape"] {
            let outcome = catalog.expand(&format!("/{name}")).unwrap();
            assert_eq!(outcome.expansion.output, format!("claude {name}"));
            assert_eq!(
                outcome.diagnostics.len(),
                1,
                "{name}: {:?}",
                outcome.diagnostics
            );
        }
        let long = format!("/{}", "a".repeat(300));
        let outcome = catalog.expand(&long).unwrap();
        assert!(!outcome.expansion.expanded);
        assert_eq!(outcome.expansion.output, long);
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "file names are case-insensitive on Windows: the kit expects /Fix not to find fix.md"
    )]
    fn the_catalog_passes_the_command_source_kit() {
        let fixture = || {
            COMMAND_FIXTURE
                .iter()
                .fold(MemWorkspace::new(), |ws, (name, raw)| {
                    ws.file(&format!(".claude/commands/{name}.md"), raw)
                })
        };
        run_command_source(|| catalog(fixture(), true));

        let root = tempfile::tempdir().unwrap();
        for (name, raw) in COMMAND_FIXTURE {
            write(
                &root
                    .path()
                    .join(".mecatl/commands")
                    .join(format!("{name}.md")),
                raw,
            );
        }
        write(&root.path().join(".mecatl/commands/sub/fix.md"), "nested");
        let path = root.path().to_path_buf();
        run_command_source(|| {
            CommandCatalog::for_workspace(
                Arc::new(OsWorkspace::new(&path, LinkPolicy::Confine)),
                true,
            )
        });
        run_command_source(|| CommandCatalog::for_operator_dirs([path.join(".mecatl/commands")]));
        run_command_source(MemCommandSource::fixture);
    }

    #[test]
    fn source_expander_over_the_catalog_renders_like_the_catalog() {
        let catalog = catalog(sample(), true);
        let via_source = SourceExpander::new(catalog.clone());
        let ws = MemWorkspace::new();
        for input in ["/fix a b", "/review x  y", "/nope", "plain"] {
            let direct = catalog.expand(input).unwrap();
            let adapted = via_source.expand(&ws, input).unwrap();
            assert_eq!(
                (direct.expansion.expanded, direct.expansion.output),
                (adapted.expanded, adapted.output),
                "{input}"
            );
        }
    }

    #[test]
    fn corpus_command_files_are_listed_or_diagnosed() {
        let Some(corpus) = crate::test_corpus::corpus_root() else {
            return;
        };
        let mut seen = 0;
        for repo in std::fs::read_dir(&corpus).unwrap() {
            let repo = repo.unwrap().path();
            let commands = repo.join(".claude/commands");
            if !commands.is_dir() {
                continue;
            }
            let reader: Arc<dyn Workspace> = Arc::new(OsWorkspace::new(&repo, LinkPolicy::Confine));
            let catalog = CommandCatalog::for_workspace(reader, true);
            let listing = catalog.list();
            for entry in std::fs::read_dir(&commands).unwrap() {
                let entry = entry.unwrap();
                let name = entry.file_name().to_string_lossy().into_owned();
                let source = format!(".claude/commands/{name}");
                let listed = listing.commands.iter().any(|c| c.source == source);
                let diagnosed = listing
                    .diagnostics
                    .iter()
                    .any(|d| d.path.as_deref() == Some(&source));
                if entry.file_type().unwrap().is_dir() {
                    assert!(diagnosed, "{}: nested {name} has no info", repo.display());
                } else if name.ends_with(".md") {
                    seen += 1;
                    assert!(
                        listed || diagnosed,
                        "{}: {name} neither listed nor diagnosed",
                        repo.display()
                    );
                }
            }
            for command in listing
                .commands
                .iter()
                .filter(|c| valid_command_name(&c.name))
            {
                let outcome = catalog.expand(&format!("/{} arg", command.name)).unwrap();
                assert!(outcome.expansion.expanded);
                assert_eq!(
                    outcome.expansion.source.as_deref(),
                    Some(command.source.as_str())
                );
                assert!(
                    command.description.chars().count()
                        <= crate::limits::MAX_COMMAND_DESCRIPTION_CHARS
                );
            }
        }
        assert!(seen > 0, "the corpus holds command files");
    }

    #[test]
    fn text_lines_have_no_trailing_space() {
        let row = |description: &str, withheld: bool| {
            let (name, source) = ("fix".to_string(), String::new());
            let scope = Tier::Project.into();
            CatalogRow::plain(name, "command", scope, source, description.into(), withheld)
        };
        assert_eq!(text_line(&row("Fix it", false)), "/fix  Fix it");
        assert_eq!(text_line(&row("", false)), "/fix");
        assert_eq!(text_line(&row("", true)), "/fix  (withheld: untrusted)");
        assert_eq!(
            text_line(&row("Fix it", true)),
            "/fix  Fix it  (withheld: untrusted)"
        );
    }
}
