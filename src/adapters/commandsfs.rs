//! Slash-command directories on disk (SPEC §5.5, §2.2, §2.3, §2.8): which
//! directories are searched, through which reader, with which tier and
//! trust state — and the listing, expansion, completion and explanation the
//! CLI needs. Every one of them goes through the domain's single resolution
//! routine ([`crate::prompt::command::resolve`] and
//! [`crate::prompt::command::list_in`]), so they agree on the winner.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::prompt::command::{
    self, Command, CommandSource, DEFAULT_COMMAND_DIRS, Fate, SearchDir, valid_command_name,
};
use crate::prompt::instructions::ReadFault;
use crate::workspace::{LinkPolicy, OsWorkspace, Workspace, WsError};

/// Which tier a command directory belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CommandTier {
    /// A directory of the workspace (trust-gated).
    Project,
    /// A directory named with `--commands-dir` (never gated).
    Operator,
}

impl CommandTier {
    /// The lowercase word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            CommandTier::Project => "project",
            CommandTier::Operator => "operator",
        }
    }
}

/// One directory searched for `<name>.md` command files.
#[derive(Clone)]
pub struct CommandDir {
    /// The reader the directory is read through: the workspace reader
    /// (symlinks confined to the workspace) for project directories, a
    /// reader rooted at the directory (symlinks followed) for operator ones.
    pub reader: Arc<dyn Workspace>,
    /// The directory, relative to the reader's root (`""` for the root).
    pub dir: String,
    /// The tier it belongs to.
    pub tier: CommandTier,
    /// True when its commands are withheld because the workspace is not
    /// trusted: listed and explained, never expanded or completed.
    pub withheld: bool,
}

impl std::fmt::Debug for CommandDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandDir")
            .field("root", &self.reader.root())
            .field("dir", &self.dir)
            .field("tier", &self.tier)
            .field("withheld", &self.withheld)
            .finish()
    }
}

impl CommandDir {
    /// A project directory `dir` of the workspace read by `reader`, withheld
    /// unless the workspace is trusted.
    pub fn project(reader: Arc<dyn Workspace>, dir: impl Into<String>, trusted: bool) -> Self {
        Self {
            reader,
            dir: dir.into(),
            tier: CommandTier::Project,
            withheld: !trusted,
        }
    }

    /// An operator-named directory (`--commands-dir`), read through its own
    /// reader rooted at `path`, following symlinks, never withheld.
    pub fn operator(path: impl Into<PathBuf>) -> Self {
        Self {
            reader: Arc::new(OsWorkspace::new(path, LinkPolicy::Follow)),
            dir: String::new(),
            tier: CommandTier::Operator,
            withheld: false,
        }
    }
}

/// One command as `commands list` shows it (SPEC §2.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedCommand {
    /// The name, without the slash.
    pub name: String,
    /// The one-line description; may be empty.
    pub description: String,
    /// The file, as its reader displays it.
    pub source: String,
    /// The tier of the directory holding it.
    pub tier: CommandTier,
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
    /// True when the input named a command that was found and rendered.
    pub expanded: bool,
    /// The command name, when expanded.
    pub name: Option<String>,
    /// The arguments, when expanded; empty otherwise.
    pub args: Vec<String>,
    /// The file expanded, when expanded.
    pub source: Option<String>,
    /// The rendered template, or the input unchanged.
    pub output: String,
    /// Diagnostics about the files looked at. When the command exists only
    /// in a withheld directory they include a warning saying so.
    pub diagnostics: Vec<Diagnostic>,
    /// Set when the input named a command that exists only in a withheld
    /// directory: why it did not expand and how to trust the workspace
    /// (the same text as the warning in `diagnostics`; for `--require`).
    #[serde(skip)]
    pub withheld_hint: Option<String>,
}

/// One candidate file for a name, for `explain` (SPEC §2.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    /// The file, as its reader displays it.
    pub source: String,
    /// The tier of the directory holding it.
    pub tier: CommandTier,
    /// True when its directory is withheld.
    pub withheld: bool,
    /// What became of it (serialized as a `fate` key and its details).
    #[serde(flatten)]
    pub fate: Fate,
}

/// What `explain /NAME` needs: every candidate in precedence order and, for
/// the winner, its description and frontmatter keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandExplanation {
    /// Every candidate file, in precedence order.
    pub candidates: Vec<Candidate>,
    /// The winner's description, when there is a winner.
    pub description: Option<String>,
    /// The top-level keys of the winner's frontmatter.
    pub frontmatter_keys: Vec<String>,
    /// Diagnostics about the candidates.
    pub diagnostics: Vec<Diagnostic>,
}

/// The command directories of one run, highest precedence first, and every
/// question the CLI asks of them.
#[derive(Debug, Clone)]
pub struct CommandCatalog {
    dirs: Vec<CommandDir>,
}

impl CommandCatalog {
    /// A catalog over `dirs`, highest precedence first.
    pub fn new(dirs: Vec<CommandDir>) -> Self {
        Self { dirs }
    }

    /// The default project directories (`.mecatl/commands`, then
    /// `.claude/commands`) read through the workspace reader, withheld
    /// unless `trusted`.
    pub fn for_workspace(reader: Arc<dyn Workspace>, trusted: bool) -> Self {
        Self::new(
            DEFAULT_COMMAND_DIRS
                .iter()
                .map(|dir| CommandDir::project(reader.clone(), *dir, trusted))
                .collect(),
        )
    }

    /// Operator directories (`--commands-dir`, already resolved against
    /// `-C`), in the order given; they replace the project directories.
    pub fn for_operator_dirs<I, P>(paths: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: Into<PathBuf>,
    {
        Self::new(paths.into_iter().map(CommandDir::operator).collect())
    }

    /// The directories searched, highest precedence first.
    pub fn dirs(&self) -> &[CommandDir] {
        &self.dirs
    }

    fn search_dirs(&self) -> Vec<SearchDir<'_>> {
        self.dirs
            .iter()
            .map(|d| SearchDir {
                ws: &*d.reader,
                dir: &d.dir,
                withheld: d.withheld,
            })
            .collect()
    }

    /// Warnings for operator directories that do not exist: the operator
    /// named them, so silence would hide a typo.
    fn missing_operator_dirs(&self) -> Vec<Diagnostic> {
        self.dirs
            .iter()
            .filter(|d| d.tier == CommandTier::Operator)
            .filter(|d| matches!(d.reader.stat(&d.dir), Err(WsError::NotFound)))
            .map(|d| {
                Diagnostic::warning(
                    d.reader.display(&d.dir),
                    "commands directory does not exist",
                )
            })
            .collect()
    }

    /// Every command found, one per name, sorted by name, with diagnostics
    /// about every file and directory discovered (SPEC §2.3, §5.5).
    /// Withheld commands are listed, marked, and claim no name.
    pub fn list(&self) -> CommandListing {
        let listing = command::list_in(&self.search_dirs(), true);
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
        let outcome = command::expand_in(&self.search_dirs(), input)?;
        let mut diagnostics = self.missing_operator_dirs();
        diagnostics.extend(outcome.diagnostics);
        let expansion = outcome.expansion;
        let withheld_hint = outcome.withheld.map(|source| {
            let name = command::parse_invocation(input)
                .map(|i| i.name)
                .unwrap_or_default();
            let hint = format!(
                "/{name} is defined here but was not expanded: the workspace is not trusted, \
                 so its commands are withheld; trust it with --trust-project, \
                 MECATL_TRUST_PROJECT=1 or trustedWorkspaces in settings.yaml"
            );
            diagnostics.push(Diagnostic::warning(source, hint.clone()));
            hint
        });
        Ok(ExpandOutcome {
            expanded: expansion.expanded,
            name: expansion.name,
            args: expansion.args,
            source: expansion.source,
            output: expansion.output,
            diagnostics,
            withheld_hint,
        })
    }

    /// The names shell completion offers: invokable (grammar-valid, not
    /// withheld), sorted. Reads directory listings only, no file content,
    /// so a file that cannot be read is still offered.
    pub fn completion_names(&self) -> Vec<String> {
        command::list_in(&self.search_dirs(), false)
            .commands
            .into_iter()
            .filter(|c| !c.withheld && valid_command_name(&c.name))
            .map(|c| c.name)
            .collect()
    }

    /// Every candidate file for `name` in precedence order, with its fate.
    pub fn candidates(&self, name: &str) -> Vec<Candidate> {
        self.explain(name).candidates
    }

    /// Why `name` resolves as it does (SPEC §2.8): the candidates, and the
    /// winner's description and frontmatter keys.
    pub fn explain(&self, name: &str) -> CommandExplanation {
        let resolution = command::resolve(&self.search_dirs(), name);
        let candidates = resolution
            .candidates
            .into_iter()
            .map(|c| {
                let dir = &self.dirs[c.dir_index];
                Candidate {
                    source: c.source,
                    tier: dir.tier,
                    withheld: dir.withheld,
                    fate: c.fate,
                }
            })
            .collect();
        let winner = resolution.winner.as_ref();
        CommandExplanation {
            candidates,
            description: winner.map(|w| command::description(&w.raw)),
            frontmatter_keys: winner
                .map(|w| command::frontmatter_keys(&w.raw))
                .unwrap_or_default(),
            diagnostics: resolution.diagnostics,
        }
    }
}

/// The catalog as a live [`CommandSource`] over its directories: the
/// invokable commands, and the raw winning file of a name.
impl CommandSource for CommandCatalog {
    type Error = ReadFault;

    fn list_commands(&self) -> Result<Vec<Command>, ReadFault> {
        command::list_in(&self.search_dirs(), true).into_commands()
    }

    fn command_body(&self, name: &str) -> Result<Option<String>, ReadFault> {
        if !valid_command_name(name) {
            return Ok(None);
        }
        let mut resolution = command::resolve(&self.search_dirs(), name);
        match resolution.fault.take() {
            Some(fault) => Err(fault),
            None => Ok(resolution.winner.map(|w| w.raw)),
        }
    }
}
