//! The directory walk of the agent profiles (SPEC §14.1, §15.6): every
//! directory on the path from the top of the filesystem down to the agent's
//! working directory (`--at`), each with the reader it is read through and
//! its scope. Never a tree walk: one directory per level of the path.
//!
//! Directories above the workspace root are read through a *parent* reader
//! (typically rooted at `/`, links followed) and have scope
//! [`Scope::Parent`]; the workspace root and everything below it are read
//! through the project reader (confined, trust-gated) and have scope
//! [`Scope::Project`]. Which readers those are is the composition root's
//! business; this module only lays the path out.
//!
//! Choices the spec leaves open:
//! - The walk above the workspace starts at the parent reader's root, which
//!   must be an ancestor of the workspace root; otherwise (or without a
//!   parent reader) the walk starts at the workspace root.
//! - A directory above the workspace whose path is not valid UTF-8 cannot be
//!   named through the port; the walk then starts below it, at the
//!   workspace root.

use std::path::{Component, Path, PathBuf};

use crate::workspace::{Workspace, join};

/// Where a file a profile reads comes from (SPEC §14.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Machine policy (`/etc/claude-code/CLAUDE.md`).
    Managed,
    /// The user's own configuration (`~/.claude`, `$CODEX_HOME`, `~/.agents`, …).
    User,
    /// A directory above the workspace root, on the walk.
    Parent,
    /// Inside the workspace: trust-gated and confined (SPEC §3).
    Project,
    /// A project file meant to stay out of version control
    /// (`CLAUDE.local.md`): gated like project.
    Local,
}

impl Scope {
    /// The lowercase name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::User => "user",
            Scope::Parent => "parent",
            Scope::Project => "project",
            Scope::Local => "local",
        }
    }

    /// True for the scopes trust gates (SPEC §14.1): project and local.
    pub fn is_gated(self) -> bool {
        matches!(self, Scope::Project | Scope::Local)
    }
}

/// One directory of the walk.
#[derive(Clone)]
pub struct WalkDir<'a> {
    /// The reader this directory is read through.
    pub reader: &'a dyn Workspace,
    /// The directory, relative to the reader's root (`""` for the root).
    pub dir: String,
    /// Where the directory lies.
    pub scope: Scope,
}

impl std::fmt::Debug for WalkDir<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WalkDir")
            .field("root", &self.reader.root())
            .field("dir", &self.dir)
            .field("scope", &self.scope)
            .finish()
    }
}

impl WalkDir<'_> {
    /// The reader-relative path of `name` in this directory.
    pub fn rel(&self, name: &str) -> String {
        join(&self.dir, name)
    }

    /// The absolute path of `name` in this directory (`name` may be empty
    /// for the directory itself).
    pub fn absolute(&self, name: &str) -> PathBuf {
        absolute(self.reader, &self.rel(name))
    }
}

/// The absolute path of `rel` below `reader`'s root (lexically, links not
/// resolved).
pub fn absolute(reader: &dyn Workspace, rel: &str) -> PathBuf {
    rel.split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .fold(reader.root().to_path_buf(), |path, part| path.join(part))
}

/// `--at` named a path that is not a plain workspace-relative directory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}: the start directory must be relative to the workspace root, without `..`")]
pub struct InvalidAt(pub String);

/// The walk from the top down to `at` (workspace-relative, `""` or `.` for
/// the workspace root), top first.
pub fn walk<'a>(
    parent: Option<&'a dyn Workspace>,
    project: &'a dyn Workspace,
    at: &str,
) -> Result<Vec<WalkDir<'a>>, InvalidAt> {
    if at.starts_with('/') {
        return Err(InvalidAt(at.to_string()));
    }
    let mut dirs: Vec<WalkDir<'a>> = parent
        .map(|parent| above(parent, project.root()))
        .unwrap_or_default();
    let mut dir = String::new();
    dirs.push(WalkDir {
        reader: project,
        dir: dir.clone(),
        scope: Scope::Project,
    });
    for part in at.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(InvalidAt(at.to_string())),
            part => {
                dir = join(&dir, part);
                dirs.push(WalkDir {
                    reader: project,
                    dir: dir.clone(),
                    scope: Scope::Project,
                });
            }
        }
    }
    Ok(dirs)
}

/// The directories from `parent`'s root down to (excluding) `workspace`.
fn above<'a>(parent: &'a dyn Workspace, workspace: &Path) -> Vec<WalkDir<'a>> {
    let Ok(below) = workspace.strip_prefix(parent.root()) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    for component in below.components() {
        match component {
            Component::Normal(name) => match name.to_str() {
                Some(name) => names.push(name),
                None => return Vec::new(),
            },
            Component::CurDir => {}
            _ => return Vec::new(),
        }
    }
    // The last name is the workspace root itself, read as the project.
    names.pop();
    let mut dir = String::new();
    let mut dirs = vec![WalkDir {
        reader: parent,
        dir: dir.clone(),
        scope: Scope::Parent,
    }];
    for name in names {
        dir = join(&dir, name);
        dirs.push(WalkDir {
            reader: parent,
            dir: dir.clone(),
            scope: Scope::Parent,
        });
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{LinkPolicy, MemWorkspace};

    fn layout(dirs: &[WalkDir<'_>]) -> Vec<(String, &'static str)> {
        dirs.iter()
            .map(|d| (d.absolute("").display().to_string(), d.scope.as_str()))
            .collect()
    }

    #[test]
    #[cfg_attr(windows, ignore = "fixture paths are Unix paths /home/u/ws")]
    fn walks_from_the_parent_root_down_to_the_start_directory() {
        let parent = MemWorkspace::new()
            .with_root("/")
            .with_policy(LinkPolicy::Follow);
        let project = MemWorkspace::new().with_root("/home/u/ws");
        let dirs = walk(Some(&parent), &project, "a/./b/").unwrap();
        assert_eq!(
            layout(&dirs),
            vec![
                ("/".to_string(), "parent"),
                ("/home".to_string(), "parent"),
                ("/home/u".to_string(), "parent"),
                ("/home/u/ws".to_string(), "project"),
                ("/home/u/ws/a".to_string(), "project"),
                ("/home/u/ws/a/b".to_string(), "project"),
            ]
        );
        assert_eq!(dirs[2].rel("AGENTS.md"), "home/u/AGENTS.md");
        assert_eq!(dirs[5].rel("AGENTS.md"), "a/b/AGENTS.md");
    }

    #[test]
    fn without_a_usable_parent_the_walk_starts_at_the_workspace() {
        let project = MemWorkspace::new().with_root("/home/u/ws");
        let elsewhere = MemWorkspace::new().with_root("/srv");
        for parent in [None, Some(&elsewhere as &dyn Workspace)] {
            let dirs = walk(parent, &project, ".").unwrap();
            assert_eq!(layout(&dirs), vec![("/home/u/ws".to_string(), "project")]);
        }
    }

    #[test]
    fn a_start_directory_leaving_the_workspace_is_refused() {
        let project = MemWorkspace::new();
        assert!(walk(None, &project, "a/../..").is_err());
        assert!(walk(None, &project, "/etc").is_err());
    }
}
