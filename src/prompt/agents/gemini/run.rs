//! The Gemini profile's run (SPEC §16.1–§16.3, §16.6): the two settings
//! files, the walks from each start directory up to its root, the context
//! files read with their imports inlined, assembled into Gemini's two
//! messages — the user context (in the system instruction) and the
//! project context (in the first user turn) — and what `--touch` adds.
//!
//! Choices the spec leaves open:
//! - Without a home directory and without `GEMINI_CLI_HOME` there are no
//!   user files and no user settings: an info line says so.
//! - A `--touch` path outside every start directory adds nothing, with an
//!   info line (Gemini only discovers context below where it started).
//! - The MCP servers of both settings files are listed ([`mcp`]), never
//!   started.
//! - Gemini's `~/.gemini/tmp/` memory and its extensions are not modelled:
//!   an info line says so when `~/.gemini` exists.

use std::cell::OnceCell;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::gemini::catalog::GeminiCatalog;
use crate::prompt::agents::gemini::context::{self, Readers, blocks, chain};
use crate::prompt::agents::gemini::mcp::{self, McpFile};
use crate::prompt::agents::gemini::settings::{self, ContextSettings, Effective, SETTINGS_FILE};
use crate::prompt::agents::gemini::spec::{DOT_GEMINI, GEMINI_HOME};
use crate::prompt::agents::gemini::system::{self, EnvPlaces, SystemPrompt};
use crate::prompt::agents::gemini::{
    PROJECT_CONTEXT_CLOSE, PROJECT_CONTEXT_OPEN, USER_CONTEXT_CLOSE, USER_CONTEXT_OPEN,
};
use crate::prompt::imports::normalise;
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::seam::{ProfileError, ProfileRun, Setup};
use crate::prompt::profile::{
    McpServer, NotLoaded, NotLoadedReason, Part, ProfileMessage, ProfileTurn0, Searched,
    SearchedDir, Touched,
};
use crate::prompt::turn0::{Provenance, Role};
use crate::prompt::walk::{Scope, WalkDir, walk};
use crate::workspace::{EntryKind, Workspace, join, slashed};

/// Gemini over one workspace.
pub(super) struct GeminiRun<'a> {
    setup: &'a Setup<'a>,
    home: Option<Arc<dyn Workspace>>,
    layout: OnceCell<Layout>,
}

/// What the run reads before the context files: the settings in effect,
/// the start directories, and what was said about them.
struct Layout {
    settings: Effective,
    /// The start directories (workspace-relative), the cwd first.
    starts: Vec<String>,
    /// Per start, the marker that made its root (`None`: no root).
    roots: Vec<Option<String>>,
    /// Per start, how many directories its chain holds (the root found
    /// once, by one lookup per directory).
    lengths: Vec<usize>,
    /// The configured MCP servers, never started.
    mcp_servers: Vec<McpServer>,
    not_loaded: Vec<NotLoaded>,
    diagnostics: Vec<Diagnostic>,
    /// `.gemini/system.md`, when `GEMINI_SYSTEM_MD` switches it on.
    system: SystemPrompt,
}

impl<'a> GeminiRun<'a> {
    pub(super) fn new(setup: &'a Setup<'a>) -> Self {
        Self {
            setup,
            home: (setup.homes)(&GEMINI_HOME),
            layout: OnceCell::new(),
        }
    }

    fn readers(&self) -> Readers<'_> {
        Readers {
            project: &*self.setup.project,
            parent: &*self.setup.parent,
            home: self.home.as_deref(),
        }
    }

    fn layout(&self) -> Result<&Layout, ProfileError> {
        if let Some(layout) = self.layout.get() {
            return Ok(layout);
        }
        let layout = self.read_layout()?;
        Ok(self.layout.get_or_init(|| layout))
    }

    fn read_layout(&self) -> Result<Layout, ProfileError> {
        let setup = self.setup;
        let mut diagnostics = Vec::new();
        let mut not_loaded = Vec::new();
        let settings_rel = join(DOT_GEMINI, SETTINGS_FILE);
        let user = match &self.home {
            Some(home) => settings::read(&**home, &settings_rel),
            None => {
                diagnostics.push(Diagnostic::new(
                    Severity::Info,
                    None,
                    "no home directory and no GEMINI_CLI_HOME: Gemini CLI's user context files \
                     and settings.json are not read",
                ));
                None
            }
        };
        let project_rel = join(&join(setup.at, DOT_GEMINI), SETTINGS_FILE);
        let project = if setup.trusted {
            settings::read(&*setup.project, &project_rel)
        } else {
            if setup.project.stat(&project_rel).is_ok() {
                not_loaded.push(NotLoaded {
                    path: setup.project.display(&project_rel),
                    scope: Scope::Project,
                    reason: NotLoadedReason::Withheld,
                });
            }
            None
        };
        let mut mcp_files = Vec::new();
        if let (Some(read), Some(home)) = (&user, &self.home) {
            mcp_files.push(McpFile {
                mcp: &read.mcp,
                path: home.display(&settings_rel),
                scope: Scope::User,
            });
        }
        if let Some(read) = &project {
            mcp_files.push(McpFile {
                mcp: &read.mcp,
                path: setup.project.display(&project_rel),
                scope: Scope::Project,
            });
        }
        let (mcp_servers, mcp_diagnostics) = mcp::mcp_servers(&mcp_files);
        let mut values = |read: Option<settings::SettingsRead>| -> ContextSettings {
            read.map(|read| {
                diagnostics.extend(read.diagnostics);
                read.settings
            })
            .unwrap_or_default()
        };
        let (user, project) = (values(user), values(project));
        let settings = Effective::combine(&user, &project);

        let readers = self.readers();
        let mut starts = vec![setup.at.trim_matches('/').to_string()];
        let (dirs, root) = chain(&readers, setup.at, &settings.boundary_markers)?;
        let mut roots = vec![root];
        let mut lengths = vec![dirs.len()];
        for entry in &settings.include_directories {
            match include_dir(&*setup.project, setup.at, entry) {
                Some(rel) if matches!(setup.project.stat(&rel), Ok(EntryKind::Dir)) => {
                    if !starts.contains(&rel) {
                        let (dirs, root) = chain(&readers, &rel, &settings.boundary_markers)?;
                        starts.push(rel);
                        roots.push(root);
                        lengths.push(dirs.len());
                    }
                }
                Some(rel) => diagnostics.push(Diagnostic::info(
                    setup.project.display(&rel),
                    "context.includeDirectories names no directory: nothing added",
                )),
                None => {
                    diagnostics.push(Diagnostic::warning(
                        entry.clone(),
                        "context.includeDirectories leaves the workspace: Gemini CLI reads its \
                         context files, the preview never reads outside the workspace",
                    ));
                    not_loaded.push(NotLoaded {
                        path: entry.clone(),
                        scope: Scope::Project,
                        reason: NotLoadedReason::External,
                    });
                }
            }
        }
        let walked = walk(Some(readers.parent), readers.project, setup.at)?;
        let places = EnvPlaces {
            process: (setup.var)(system::VAR).map(|v| v.to_string_lossy().into_owned()),
            walk: &walked,
            home: readers.home,
            trusted: setup.trusted,
        };
        let system = system::find(&places, readers.project, setup.at);
        diagnostics.extend(mcp_diagnostics);
        Ok(Layout {
            mcp_servers,
            settings,
            starts,
            roots,
            lengths,
            not_loaded,
            diagnostics,
            system,
        })
    }
}

/// An `includeDirectories` entry as a workspace-relative directory, or
/// `None` when it leaves the workspace.
fn include_dir(project: &dyn Workspace, at: &str, entry: &str) -> Option<String> {
    if entry.starts_with('~') {
        return None;
    }
    let path = if entry.starts_with('/') {
        normalise(Path::new(entry))
    } else {
        normalise(&project.root().join(at).join(entry))
    };
    let rel = path.strip_prefix(project.root()).ok()?;
    rel.to_str().map(|_| slashed(rel))
}

impl ProfileRun for GeminiRun<'_> {
    fn turn0(&self) -> Result<ProfileTurn0, ProfileError> {
        let setup = self.setup;
        let layout = self.layout()?;
        let readers = self.readers();
        let mut chains: Vec<Vec<WalkDir<'_>>> = Vec::new();
        for (start, &length) in layout.starts.iter().zip(&layout.lengths) {
            let mut dirs = walk(Some(readers.parent), readers.project, start)?;
            chains.push(dirs.split_off(dirs.len().saturating_sub(length)));
        }
        let mut context = context::load(&readers, &layout.settings, &chains, setup.trusted);
        let mut turn0 = ProfileTurn0::default();
        turn0.diagnostics.extend(layout.diagnostics.iter().cloned());
        turn0.not_loaded.extend(layout.not_loaded.iter().cloned());
        turn0.mcp_servers = layout.mcp_servers.clone();
        if let Some(home) = &self.home
            && home.stat(DOT_GEMINI).is_ok()
        {
            turn0.diagnostics.push(Diagnostic::info(
                home.display(DOT_GEMINI),
                "Gemini CLI's saved memories (~/.gemini/tmp) and extensions are not modelled",
            ));
        }
        for touched in setup.touch {
            let parts = if setup.trusted {
                let starts = &layout.starts;
                let parts = context.touch(&readers, &layout.settings, starts, touched);
                if parts.is_empty() {
                    turn0.diagnostics.push(Diagnostic::info(
                        touched.clone(),
                        "--touch: Gemini CLI finds no context file it has not loaded between this \
                         path and its start directory",
                    ));
                }
                parts
            } else {
                turn0.diagnostics.push(Diagnostic::info(
                    touched.clone(),
                    "--touch: the workspace is not trusted, so its context files are withheld",
                ));
                Vec::new()
            };
            turn0.touch.push(Touched {
                path: touched.clone(),
                parts,
            });
        }
        turn0.diagnostics.append(&mut context.diagnostics);
        turn0.not_loaded.append(&mut context.not_loaded);
        turn0
            .diagnostics
            .extend(layout.system.diagnostics.iter().cloned());
        turn0
            .not_loaded
            .extend(layout.system.not_loaded.iter().cloned());
        if let Some(message) = user_message(layout.system.part.as_ref(), &context) {
            turn0.messages.push(message);
        }
        if !context.project.is_empty() {
            let text = format!(
                "{PROJECT_CONTEXT_OPEN}{}{PROJECT_CONTEXT_CLOSE}",
                blocks(&context.project)
            );
            let parts = context.project.iter().map(|l| l.part.clone()).collect();
            turn0.messages.push(ProfileMessage::with_text(
                Provenance::Instructions,
                parts,
                text,
            ));
        }
        turn0.searched = self.searched(layout, &chains);
        Ok(turn0)
    }

    fn catalog(&self) -> Result<Box<dyn Catalog + '_>, ProfileError> {
        let setup = self.setup;
        let replaced = self.layout()?.system.replaced;
        Ok(Box::new(GeminiCatalog::new(
            &*setup.project,
            self.home.as_deref(),
            setup.at,
            setup.trusted,
            replaced,
        )))
    }
}

/// The system instruction's message (SPEC §16.6): the repository's
/// `system.md` when it replaces Gemini's prompt, then the user's context
/// files in their `<loaded_context>` block; `None` when there is neither.
/// Its text is the file, then a blank line and the block (Gemini puts a
/// heading of its own between them, which is not ours to reproduce).
fn user_message(system: Option<&Part>, context: &context::Context) -> Option<ProfileMessage> {
    let mut parts: Vec<Part> = system.into_iter().cloned().collect();
    let mut texts: Vec<String> = system.iter().map(|p| p.content.clone()).collect();
    if !context.user.is_empty() {
        texts.push(format!(
            "{USER_CONTEXT_OPEN}{}{USER_CONTEXT_CLOSE}",
            blocks(&context.user)
        ));
        parts.extend(context.user.iter().map(|l| l.part.clone()));
    }
    if parts.is_empty() {
        return None;
    }
    let mut message =
        ProfileMessage::with_text(Provenance::UserInstructions, parts, texts.join("\n\n"));
    message.role = Role::System;
    Some(message)
}

impl GeminiRun<'_> {
    /// Where Gemini looked: `~/.gemini`, then each walk from its start
    /// directory up to its root.
    fn searched(&self, layout: &Layout, chains: &[Vec<WalkDir<'_>>]) -> Searched {
        let names = &layout.settings.names;
        let mut dirs = Vec::new();
        if let Some(home) = &self.home {
            dirs.push(SearchedDir {
                dir: home.display(DOT_GEMINI),
                scope: Scope::User,
                names: names.clone(),
            });
        }
        for chain in chains {
            dirs.extend(chain.iter().rev().map(|dir| SearchedDir {
                dir: dir.reader.display(&dir.dir),
                scope: dir.scope,
                names: names.clone(),
            }));
        }
        let cwd = self.setup.at_label();
        let markers = &layout.settings.boundary_markers;
        let up_to = match layout.roots.first().and_then(Option::as_ref) {
            Some(marker) => {
                format!("each directory from the cwd {cwd} up to the nearest one holding {marker}")
            }
            None if markers.is_empty() => {
                format!("the cwd {cwd} only (context.memoryBoundaryMarkers is empty)")
            }
            None => format!(
                "the cwd {cwd} only (no directory from it up to / holds {})",
                markers.join(" or ")
            ),
        };
        let include = if layout.starts.len() > 1 {
            format!(
                " (and likewise from each of context.includeDirectories: {})",
                layout.starts[1..].join(", ")
            )
        } else {
            String::new()
        };
        Searched {
            rule: format!(
                "Gemini CLI reads {} in ~/.gemini and in {up_to}{include}, never below the cwd; \
                 the project's files are sent sorted by absolute path",
                names.join(", ")
            ),
            dirs,
        }
    }
}
