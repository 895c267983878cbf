//! The in-memory world the profiles' unit tests open a profile over: a
//! workspace, the directories above it, a home (and, for agents that read
//! one, an XDG config home), and the environment. One builder for every
//! profile, so a change to [`Setup`] is made once.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::Arc;

use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::seam::{HomeDir, Profile, ProfileRun, Setup};
use crate::prompt::profile::{NotLoadedReason, ProfileTurn0};
use crate::prompt::turn0::{Provenance, Turn0Report};
use crate::workspace::{LinkPolicy, MemNode, MemWorkspace, Workspace};

/// The engine's command catalog of a run, built over an empty workspace.
pub(crate) type EngineCatalog = for<'a> fn(&'a MemWorkspace) -> Box<dyn Catalog + 'a>;

/// A reader rooted at `root` that follows links (what lies outside the
/// workspace).
pub(crate) fn follow(root: &str) -> MemWorkspace {
    MemWorkspace::new()
        .with_root(root)
        .with_policy(LinkPolicy::Follow)
}

/// One test's readers and environment, and the profile they are opened
/// with.
#[derive(Clone)]
pub(crate) struct Fixture {
    profile: &'static dyn Profile,
    engine_catalog: Option<EngineCatalog>,
    /// The workspace: confined.
    pub(crate) project: MemWorkspace,
    /// The directories above the workspace, rooted at `/`.
    pub(crate) parent: MemWorkspace,
    /// The reader of every home directory but the XDG config home.
    pub(crate) home: MemWorkspace,
    /// The XDG config home, when the fixture has one: `.config/…` files of
    /// [`Fixture::user`] land there.
    pub(crate) xdg: Option<MemWorkspace>,
    home_dir: &'static str,
    vars: Vec<(String, String)>,
}

impl Fixture {
    /// `profile` over a workspace at `project`, the user's home directory
    /// `home_dir`, and the reader of the agent's home at `user`.
    pub(crate) fn new(
        profile: &'static dyn Profile,
        project: &str,
        home_dir: &'static str,
        user: &str,
    ) -> Self {
        Self {
            profile,
            engine_catalog: None,
            project: MemWorkspace::new().with_root(project),
            parent: follow("/"),
            home: follow(user),
            xdg: None,
            home_dir,
            vars: Vec::new(),
        }
    }

    /// The engine's command catalog the profile's run is given (a run
    /// that asks for it without one panics).
    pub(crate) fn with_engine_catalog(mut self, catalog: EngineCatalog) -> Self {
        self.engine_catalog = Some(catalog);
        self
    }

    /// Adds an XDG config home at `root`.
    pub(crate) fn with_xdg(mut self, root: &str) -> Self {
        self.xdg = Some(follow(root));
        self
    }

    /// A file of the workspace.
    pub(crate) fn ws(self, rel: &str, text: &str) -> Self {
        self.ws_node(rel, MemNode::File(text.into()))
    }

    /// A node of the workspace.
    pub(crate) fn ws_node(mut self, rel: &str, node: MemNode) -> Self {
        self.project.insert(rel, node);
        self
    }

    /// A file below `/`, outside the workspace.
    pub(crate) fn above(mut self, rel: &str, text: &str) -> Self {
        self.parent.insert(rel, MemNode::File(text.into()));
        self
    }

    /// A file below the agent's home (`.config/…` lands in the XDG config
    /// home when there is one).
    pub(crate) fn user(mut self, rel: &str, text: &str) -> Self {
        let node = MemNode::File(text.into());
        match (&mut self.xdg, rel.strip_prefix(".config/")) {
            (Some(xdg), Some(below)) => xdg.insert(below, node),
            _ => self.home.insert(rel, node),
        }
        self
    }

    /// A variable of the environment.
    pub(crate) fn var(mut self, name: &str, value: &str) -> Self {
        self.vars.push((name.to_string(), value.to_string()));
        self
    }

    /// The profile's turn 0 started at `at`.
    pub(crate) fn run(&self, at: &str, trusted: bool, touch: &[&str]) -> ProfileTurn0 {
        self.with_run(at, trusted, touch, |run| run.turn0().expect("turn 0"))
    }

    /// Runs `f` over the profile's run started at `at`.
    pub(crate) fn with_run<R>(
        &self,
        at: &str,
        trusted: bool,
        touch: &[&str],
        f: impl FnOnce(&dyn ProfileRun) -> R,
    ) -> R {
        let project: Arc<dyn Workspace> = Arc::new(self.project.clone());
        let parent: Arc<dyn Workspace> = Arc::new(self.parent.clone());
        let home: Arc<dyn Workspace> = Arc::new(self.home.clone());
        let xdg = self.xdg.clone().map(|x| Arc::new(x) as Arc<dyn Workspace>);
        let homes = |dir: &HomeDir| match &xdg {
            Some(xdg) if dir.var == Some("XDG_CONFIG_HOME") => Some(xdg.clone()),
            _ => Some(home.clone()),
        };
        let var = |name: &str| -> Option<&OsStr> {
            let found = self.vars.iter().find(|(key, _)| key == name);
            found.map(|(_, value)| OsStr::new(value.as_str()))
        };
        let engine = || Ok(Turn0Report::default());
        let empty = MemWorkspace::new();
        let engine_catalog = || {
            let catalog = self.engine_catalog.expect("the fixture's engine catalog");
            catalog(&empty)
        };
        let touch: Vec<String> = touch.iter().map(|t| (*t).to_string()).collect();
        let setup = Setup {
            project,
            parent,
            homes: &homes,
            home: Some(Path::new(self.home_dir)),
            at,
            trusted,
            touch: &touch,
            var: &var,
            context_window: None,
            engine: &engine,
            engine_catalog: &engine_catalog,
        };
        f(&*self.profile.open(&setup))
    }
}

/// The paths of the parts of `turn0`'s messages of `provenance`.
pub(crate) fn paths(turn0: &ProfileTurn0, provenance: Provenance) -> Vec<String> {
    turn0
        .messages
        .iter()
        .filter(|m| m.provenance == provenance)
        .flat_map(|m| m.parts.iter().map(|p| p.path.clone()))
        .collect()
}

/// What `turn0` did not load, and why.
pub(crate) fn reasons(turn0: &ProfileTurn0) -> Vec<(String, NotLoadedReason)> {
    turn0
        .not_loaded
        .iter()
        .map(|n| (n.path.clone(), n.reason.clone()))
        .collect()
}
