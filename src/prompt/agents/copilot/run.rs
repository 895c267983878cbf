//! The Copilot profile's run (SPEC §17.2–§17.5, §17.8): the walk to the
//! cwd and its root, the instruction files and the path-specific sets read
//! once, laid out as Copilot's one instruction region in its system
//! message.
//!
//! Choices the spec leaves open:
//! - Without items there is no message (Copilot's region is then `"\n\n"`,
//!   [`region::region`] of nothing).
//! - The table's part is named `applyTo table` with the scope of its first
//!   row; its content is the table text, its `rows` the conditional files.
//! - A file part's `imports` lists the imports that are part of its text
//!   (inlined or marked already loaded); those left as text are reported
//!   in `not_loaded` instead.
//! - A conditional file is a rule that loads lazily (`rules list`:
//!   `lazy`), an unconditional one a rule that loads at start.
//! - A conditional file is also listed in `not_loaded` (`row`): its row
//!   is sent, its text only when a matching file is viewed.
//! - An import's path is shown workspace-relative inside the workspace,
//!   absolute outside it.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::prompt::agents::copilot::catalog::CopilotCatalog;
use crate::prompt::agents::copilot::imports::{ImportRecord, ImportStatus};
use crate::prompt::agents::copilot::instructions::{self, Dirs, Files, NOT_READ, Readers};
use crate::prompt::agents::copilot::region::{self, Item, TABLE_PART};
use crate::prompt::agents::copilot::spec::{
    AGENTS_HOME, COPILOT_HOME, COPILOT_INSTRUCTIONS_MD, CUSTOM_INSTRUCTIONS_DIRS_VAR,
};
use crate::prompt::agents::copilot::{paths, subagents, touch};
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::extras::{ImportState, PartExtras, PartImport, TableRow};
use crate::prompt::profile::seam::{ProfileError, ProfileRun, Setup};
use crate::prompt::profile::{
    NotLoaded, NotLoadedReason, Part, PartKind, ProfileMessage, ProfileRule, ProfileTurn0,
    RuleLoad, Searched, SearchedDir, Touched,
};
use crate::prompt::turn0::{Provenance, Role};
use crate::prompt::walk::{Scope, walk};
use crate::workspace::{Workspace, slashed};

/// Copilot over one workspace.
pub(super) struct CopilotRun<'a> {
    setup: &'a Setup<'a>,
    home: Option<Arc<dyn Workspace>>,
}

impl<'a> CopilotRun<'a> {
    pub(super) fn new(setup: &'a Setup<'a>) -> Self {
        Self {
            setup,
            home: (setup.homes)(&COPILOT_HOME),
        }
    }

    fn readers(&self) -> Readers<'_> {
        Readers {
            project: &*self.setup.project,
            parent: &*self.setup.parent,
            home: self.home.as_deref(),
        }
    }
}

impl ProfileRun for CopilotRun<'_> {
    fn turn0(&self) -> Result<ProfileTurn0, ProfileError> {
        let setup = self.setup;
        let readers = self.readers();
        let dirs = Dirs::new(walk(Some(readers.parent), readers.project, setup.at)?);
        let files = Files::new(readers, dirs.root().absolute(""), setup.trusted);
        let loaded = instructions::load(readers, &dirs, &files, setup.trusted);
        let sets = paths::load(readers, &dirs, setup.trusted);
        let mut turn0 = ProfileTurn0::default();
        if (setup.var)(CUSTOM_INSTRUCTIONS_DIRS_VAR).is_some() {
            turn0.diagnostics.push(Diagnostic::warning(
                CUSTOM_INSTRUCTIONS_DIRS_VAR,
                "is set: GitHub Copilot CLI also reads the instruction files of those \
                 directories, the preview does not",
            ));
        }
        let mut items = Vec::new();
        let mut parts = Vec::new();
        let mut extras = BTreeMap::new();
        for sent in &loaded.sent {
            items.push(Item::wrapped(&sent.part.content));
            let imports = part_imports(readers.project, &sent.imports);
            if !imports.is_empty() {
                let imports = PartExtras {
                    imports,
                    rows: Vec::new(),
                };
                extras.insert(parts.len(), imports);
            }
            parts.push(sent.part.clone());
            report_imports(readers.project, &sent.part.path, &sent.imports, &mut turn0);
        }
        let (unconditional, conditional): (Vec<_>, Vec<_>) =
            sets.files.iter().partition(|file| file.pattern.is_none());
        for file in &unconditional {
            items.push(Item::raw(&file.part.content));
            parts.push(file.part.clone());
        }
        if let Some(table) = region::table(&conditional) {
            items.push(Item {
                kind: region::ItemKind::Table,
                text: table.clone(),
            });
            let rows = conditional
                .iter()
                .map(|file| TableRow {
                    pattern: file.pattern.clone().unwrap_or_default(),
                    file: file.table_path.clone(),
                    path: file.part.path.clone(),
                    description: file.description.clone(),
                })
                .collect();
            let rows = PartExtras {
                imports: Vec::new(),
                rows,
            };
            extras.insert(parts.len(), rows);
            parts.push(Part {
                path: TABLE_PART.to_string(),
                scope: conditional[0].part.scope,
                kind: PartKind::ApplytoTable,
                imported_by: None,
                content: table,
                cut: None,
            });
        }
        turn0.rules = sets
            .files
            .iter()
            .map(|file| ProfileRule {
                path: file.part.path.clone(),
                scope: file.part.scope,
                paths: file.pattern.iter().cloned().collect(),
                loads: if file.pattern.is_some() {
                    RuleLoad::Lazy
                } else {
                    RuleLoad::Start
                },
                bytes: Some(file.part.content.len()),
            })
            .collect();
        turn0.not_loaded.extend(loaded.not_loaded);
        turn0
            .not_loaded
            .extend(conditional.iter().map(|file| NotLoaded {
                path: file.part.path.clone(),
                scope: file.part.scope,
                reason: NotLoadedReason::TableRow,
            }));
        turn0.not_loaded.extend(sets.not_loaded);
        turn0.diagnostics.extend(loaded.diagnostics);
        turn0.diagnostics.extend(sets.diagnostics);
        if !items.is_empty() {
            let text = region::region(&items);
            let mut message = ProfileMessage::with_text(Provenance::Instructions, parts, text);
            message.role = Role::System;
            message.extras = extras;
            turn0.messages.push(message);
        }
        let mut session = touch::Session::new(
            readers.project,
            dirs.root().absolute(""),
            started_dirs(&dirs),
            turn0
                .messages
                .iter()
                .flat_map(|message| message.parts.iter().map(|part| part.path.clone()))
                .collect(),
        );
        for path in setup.touch {
            let parts = if setup.trusted {
                session.view(path, &conditional, &files, &mut turn0.diagnostics)
            } else {
                turn0.diagnostics.push(Diagnostic::info(
                    path.clone(),
                    "--touch: the workspace is not trusted, so its instruction files are withheld",
                ));
                Vec::new()
            };
            if setup.trusted && parts.is_empty() {
                turn0.diagnostics.push(Diagnostic::info(
                    path.clone(),
                    "--touch: GitHub Copilot CLI finds no instruction file it has not sent yet \
                     for this path",
                ));
            }
            turn0.touch.push(Touched {
                path: path.clone(),
                parts,
            });
        }
        let agents = subagents::subagents(&dirs, self.home.as_deref(), setup.trusted);
        turn0.messages.extend(agents.message);
        turn0.not_loaded.extend(agents.not_loaded);
        turn0.diagnostics.extend(agents.diagnostics);
        turn0.subagents = agents.found;
        turn0.searched = self.searched(&dirs);
        Ok(turn0)
    }

    fn catalog(&self) -> Result<Box<dyn Catalog + '_>, ProfileError> {
        let readers = self.readers();
        let dirs = Dirs::new(walk(Some(readers.parent), readers.project, self.setup.at)?);
        let agents_home = (self.setup.homes)(&AGENTS_HOME);
        Ok(Box::new(CopilotCatalog::new(
            &dirs,
            self.home.as_deref(),
            agents_home.as_deref(),
            self.setup.trusted,
        )))
    }
}

impl CopilotRun<'_> {
    /// Where Copilot looked: `~/.copilot`, the root and the cwd, then the
    /// directories between them.
    fn searched(&self, dirs: &Dirs<'_>) -> Searched {
        let names: Vec<String> = std::iter::once(COPILOT_INSTRUCTIONS_MD)
            .chain(instructions::SHARED_NAMES)
            .map(str::to_string)
            .collect();
        let mut searched = Vec::new();
        if let Some(home) = &self.home {
            searched.push(SearchedDir {
                dir: home.display(""),
                scope: Scope::User,
                names: vec![instructions::USER_INSTRUCTIONS_MD.to_string()],
            });
        }
        let mut looked = dirs.root_and_cwd();
        looked.extend(dirs.between());
        for dir in looked {
            searched.push(SearchedDir {
                dir: dir.reader.display(&dir.dir),
                scope: dir.scope,
                names: names.clone(),
            });
        }
        let cwd = self.setup.at_label();
        let span = match dirs.root {
            Some(_) => format!(
                "the root (the nearest directory holding .git) and the cwd {cwd}, then each \
                 directory between them"
            ),
            None => format!("the cwd {cwd} only (no directory from it up holds .git)"),
        };
        Searched {
            rule: format!(
                "GitHub Copilot CLI reads {} (any letter case) in {span}, never below the cwd, \
                 and never {}",
                names.join(", "),
                NOT_READ.join(", ")
            ),
            dirs: searched,
        }
    }
}

/// The workspace directories whose instruction files Copilot read at
/// start (a view stops its walk up at the first of them).
fn started_dirs(dirs: &Dirs<'_>) -> std::collections::HashSet<String> {
    let mut read = dirs.root_and_cwd();
    read.extend(dirs.between());
    read.into_iter()
        .filter(|dir| dir.scope == Scope::Project)
        .map(|dir| dir.dir.clone())
        .collect()
}

/// The imports that are part of a file's text (inlined or marked), for
/// its part's `imports`.
fn part_imports(project: &dyn Workspace, imports: &[ImportRecord]) -> Vec<PartImport> {
    imports
        .iter()
        .filter_map(|record| {
            let status = match record.status {
                ImportStatus::Inlined => ImportState::Inlined,
                ImportStatus::AlreadyLoaded => ImportState::AlreadyLoaded,
                _ => return None,
            };
            Some(PartImport {
                path: shown(project, &record.path).0,
                depth: record.depth,
                status,
            })
        })
        .collect()
}

/// An import's target as outputs show it: workspace-relative with `/`
/// inside the workspace, absolute above it.
fn shown(project: &dyn Workspace, path: &std::path::Path) -> (String, Scope) {
    match path.strip_prefix(project.root()) {
        Ok(rel) => (slashed(rel), Scope::Project),
        Err(_) => (path.display().to_string(), Scope::Parent),
    }
}

/// What the imports of the file `importer` did, as diagnostics and
/// `not_loaded` entries.
fn report_imports(
    project: &dyn Workspace,
    importer: &str,
    imports: &[ImportRecord],
    turn0: &mut ProfileTurn0,
) {
    let mut capped = false;
    for record in imports {
        let (path, scope) = shown(project, &record.path);
        let (reason, said) = match &record.status {
            ImportStatus::Inlined | ImportStatus::AlreadyLoaded => continue,
            ImportStatus::TooDeep => (NotLoadedReason::TooDeep, None),
            ImportStatus::Withheld => (NotLoadedReason::Withheld, None),
            ImportStatus::External => (
                NotLoadedReason::External,
                Some(format!(
                    "external import of {importer}, not read: GitHub Copilot CLI inlines it, the \
                     preview never reads outside the workspace"
                )),
            ),
            ImportStatus::Unread(why) => (
                NotLoadedReason::Unusable(why.clone()),
                Some(format!("import of {importer} not read: {why}")),
            ),
            ImportStatus::Binary => {
                turn0.diagnostics.push(Diagnostic::warning(
                    path,
                    format!(
                        "imported by {importer} but not text: GitHub Copilot CLI inlines it \
                         anyway, invalid bytes as U+FFFD"
                    ),
                ));
                continue;
            }
            ImportStatus::Capped if capped => continue,
            ImportStatus::Capped => {
                capped = true;
                (
                    NotLoadedReason::Capped,
                    Some(format!(
                        "more than {} imports or {} imported bytes: the rest of {importer}'s \
                         imports are left as text (ours: a fan-out guard)",
                        crate::limits::MAX_IMPORTS,
                        crate::limits::MAX_IMPORTED_BYTES
                    )),
                )
            }
        };
        if let Some(said) = said {
            turn0
                .diagnostics
                .push(Diagnostic::warning(path.clone(), said));
        }
        let entry = NotLoaded {
            path,
            scope,
            reason,
        };
        if !turn0.not_loaded.contains(&entry) {
            turn0.not_loaded.push(entry);
        }
    }
}
