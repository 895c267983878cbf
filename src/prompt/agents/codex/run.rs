//! The Codex profile's run (SPEC §14.4): `$CODEX_HOME/config.toml`, the
//! walk from `/` to `--at`, the project root and chain, the budgeted
//! AGENTS.md files and the global file, assembled into one instructions
//! message whose parts are the global file (scope `user`) then the project
//! chain, root first. The rules are the domain's ([`crate::prompt::agents::codex`]);
//! this module only chooses the readers and maps the domain's facts onto
//! the profile vocabulary.
//!
//! Choices the spec leaves open:
//! - Without a home directory and without `CODEX_HOME`, there is no global
//!   file and no `config.toml`: the defaults apply, with an info line.
//! - A file the budget cut down to whitespace, or that a zero budget turns
//!   off, is "over budget" in `not_loaded` (with its size); the diagnostic
//!   says which rule.

use std::cell::OnceCell;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::codex::catalog::CodexSkills;
use crate::prompt::agents::codex::chain::{
    AGENTS_NAME, Dropped, OVERRIDE_NAME, Root, candidate_names, chain, find_root, project_docs,
};
use crate::prompt::agents::codex::config::{self, ConfigRead};
use crate::prompt::agents::codex::global::global_doc;
use crate::prompt::agents::codex::mcp;
use crate::prompt::agents::codex::{CODEX_HOME, SPEC, USER_HOME};
use crate::prompt::agents::codex::{CodexConfig, instructions_text};
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::seam::{ProfileError, ProfileRun, Setup, touch_adds_nothing_for};
use crate::prompt::profile::{
    NotLoaded, Part, PartKind, ProfileMessage, ProfileTurn0, Searched, SearchedDir,
};
use crate::prompt::turn0::Provenance;
use crate::prompt::walk::{Scope, WalkDir, walk};
use crate::workspace::Workspace;

/// Codex over one workspace.
pub(super) struct CodexRun<'a> {
    setup: &'a Setup<'a>,
    layout: OnceCell<Layout<'a>>,
}

/// What Codex reads before anything else, once per run: its home,
/// `config.toml`, the walk from `/` to `--at` and the project root.
struct Layout<'a> {
    codex_home: Option<Arc<dyn Workspace>>,
    home: Option<Arc<dyn Workspace>>,
    read: ConfigRead,
    walk: Vec<WalkDir<'a>>,
    root: Option<Root>,
}

impl<'a> CodexRun<'a> {
    pub(super) fn new(setup: &'a Setup<'a>) -> Self {
        Self {
            setup,
            layout: OnceCell::new(),
        }
    }

    /// The run's [`Layout`], read on first use.
    fn layout(&self) -> Result<&Layout<'a>, ProfileError> {
        if let Some(layout) = self.layout.get() {
            return Ok(layout);
        }
        let setup = self.setup;
        let codex_home = (setup.homes)(&CODEX_HOME);
        let read = match &codex_home {
            Some(home) => config::load(&**home),
            None => ConfigRead {
                config: CodexConfig::default(),
                mcp: Default::default(),
                diagnostics: Vec::new(),
            },
        };
        let walk = walk(Some(&*setup.parent), &*setup.project, setup.at)?;
        let root = find_root(&walk, &read.config.project_root_markers);
        let layout = Layout {
            home: (setup.homes)(&USER_HOME),
            codex_home,
            read,
            walk,
            root,
        };
        Ok(self.layout.get_or_init(|| layout))
    }
}

impl ProfileRun for CodexRun<'_> {
    /// Codex's turn 0 for this run (SPEC §14.4): its instructions message,
    /// what it left out, where it looked, and `--touch` (which adds
    /// nothing).
    fn turn0(&self) -> Result<ProfileTurn0, ProfileError> {
        turn0(self.setup, self.layout()?)
    }

    /// Its skills (SPEC §14.6), from the same chain.
    fn catalog(&self) -> Result<Box<dyn Catalog + '_>, ProfileError> {
        let layout = self.layout()?;
        Ok(Box::new(CodexSkills::new(
            chain(&layout.walk, layout.root.as_ref()),
            layout.codex_home.as_deref(),
            layout.home.as_deref(),
            &layout.read.diagnostics,
            self.setup.trusted,
        )))
    }
}

fn turn0(setup: &Setup<'_>, layout: &Layout<'_>) -> Result<ProfileTurn0, ProfileError> {
    let mut turn0 = ProfileTurn0::default();
    let codex_home = &layout.codex_home;
    if codex_home.is_none() {
        turn0.diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            "no home directory and no CODEX_HOME: Codex's global file and config.toml are not \
             read, its defaults apply",
        ));
    }
    let config = &layout.read.config;
    turn0
        .diagnostics
        .extend(layout.read.diagnostics.iter().cloned());

    let root = layout.root.as_ref();
    let chain = chain(&layout.walk, root);
    let docs = project_docs(chain, config, setup.trusted);
    let global = codex_home.as_deref().map(global_doc);

    let mut parts = Vec::new();
    let mut left_out: Vec<&Dropped> = Vec::new();
    if let Some(global) = &global {
        turn0.diagnostics.extend(global.diagnostics.iter().cloned());
        left_out.extend(&global.left_out);
        parts.extend(global.doc.iter().map(|doc| Part {
            path: doc.path.clone(),
            scope: Scope::User,
            kind: PartKind::Instructions,
            imported_by: None,
            content: doc.content.clone(),
            cut: None,
        }));
    }
    turn0.diagnostics.extend(docs.diagnostics.iter().cloned());
    left_out.extend(&docs.left_out);
    parts.extend(docs.parts.iter().map(|doc| Part {
        path: doc.path.clone(),
        scope: doc.scope,
        kind: PartKind::Instructions,
        imported_by: None,
        content: doc.content.clone(),
        cut: doc.cut,
    }));
    turn0.not_loaded = left_out.into_iter().map(NotLoaded::from).collect();

    let global_text = global
        .as_ref()
        .and_then(|global| global.doc.as_ref())
        .map(|doc| doc.content.as_str());
    if let Some(text) = instructions_text(global_text, docs.text().as_deref()) {
        turn0.messages.push(ProfileMessage::with_text(
            Provenance::Instructions,
            parts,
            text,
        ));
    }
    let project_root = root.map_or(layout.walk.last(), |root| layout.walk.get(root.index));
    let servers = mcp::mcp_servers(
        (&layout.read.mcp, codex_home.as_deref()),
        project_root,
        setup.trusted,
    );
    turn0.mcp_servers = servers.servers;
    turn0.not_loaded.extend(servers.not_loaded);
    turn0.diagnostics.extend(servers.diagnostics);
    turn0.searched = searched(setup, codex_home.as_deref(), chain, root, config);
    touch_adds_nothing_for(&SPEC, setup.touch, &mut turn0);
    Ok(turn0)
}

/// `""` (the workspace root) as `.`, any other directory as it is.
fn dir_label(dir: &str) -> &str {
    if dir.is_empty() { "." } else { dir }
}

/// Where Codex looked: its home's two global names, then each chain
/// directory with the names tried there; and the rule that chose the chain.
fn searched(
    setup: &Setup<'_>,
    codex_home: Option<&dyn Workspace>,
    chain: &[WalkDir<'_>],
    root: Option<&Root>,
    config: &CodexConfig,
) -> Searched {
    let names: Vec<String> = candidate_names(&config.project_doc_fallback_filenames)
        .into_iter()
        .map(str::to_string)
        .collect();
    let mut dirs = Vec::new();
    if let Some(home) = codex_home {
        dirs.push(SearchedDir {
            dir: home.display(""),
            scope: Scope::User,
            names: vec![OVERRIDE_NAME.to_string(), AGENTS_NAME.to_string()],
        });
    }
    dirs.extend(chain.iter().map(|dir| SearchedDir {
        dir: dir.reader.display(&dir.dir),
        scope: dir.scope,
        names: names.clone(),
    }));
    let cwd = setup.at_label();
    let start = match (root, chain.first()) {
        (Some(root), Some(top)) => format!(
            "each directory from the project root {} (it holds {}) down to the cwd {cwd}",
            dir_label(&top.reader.display(&top.dir)),
            root.marker
        ),
        _ if config.project_root_markers.is_empty() => format!(
            "the cwd {cwd} only (project_root_markers is empty, so no project root is sought)"
        ),
        _ => format!(
            "the cwd {cwd} only (no directory from it up to / holds {})",
            config.project_root_markers.join(" or ")
        ),
    };
    let global = match codex_home {
        Some(home) => format!(", after its global file in {}", home.display("")),
        None => String::new(),
    };
    Searched {
        rule: format!(
            "Codex reads the first of {} present in {start}{global}",
            names.join(", ")
        ),
        dirs,
    }
}
