//! Claude Code's global configuration file, read-only, for the one fact the
//! Claude profile needs (SPEC §14.3): whether the user approved imports
//! outside the cwd for a project,
//! `projects["<key>"].hasClaudeMdExternalIncludesApproved`.
//!
//! The file is `$CLAUDE_CONFIG_DIR/.claude.json` when that variable is set,
//! else `~/.claude.json` (Claude Code's own rule: the variable moves the
//! file, not only the `.claude` directory). It is read through a
//! [`Workspace`] rooted at the directory holding it, links followed (the
//! user's own file), at most once per run and only when an import needs
//! the answer.
//!
//! Choices the spec leaves open:
//! - A missing file, a missing project entry or a missing key mean "not
//!   approved", silently; a file that is not JSON, not an object where one
//!   belongs, or larger than [`limits::MAX_CLAUDE_JSON_BYTES`] means "not
//!   approved" with a reason (the profile turns it into a warning).
//! - The key is matched exactly as Claude Code writes it (the absolute git
//!   root, else the cwd).

use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use crate::limits;
use crate::prompt::agents::claude::ExternalApproval;
use crate::workspace::{Workspace, WsError};

/// The file's name in its directory.
pub const CLAUDE_JSON: &str = ".claude.json";

/// The keys read from the file; everything else is skipped unparsed.
#[derive(Debug, Default, Deserialize)]
struct Global {
    #[serde(default)]
    projects: HashMap<String, Project>,
}

#[derive(Debug, Default, Deserialize)]
struct Project {
    #[serde(default, rename = "hasClaudeMdExternalIncludesApproved")]
    approved: Option<bool>,
}

/// Claude Code's global configuration, read on first use.
pub struct ClaudeJson<'a> {
    dir: &'a dyn Workspace,
    global: OnceCell<Result<Global, String>>,
}

impl<'a> ClaudeJson<'a> {
    /// The file [`CLAUDE_JSON`] in `dir` (`$CLAUDE_CONFIG_DIR`, else the
    /// home directory).
    pub fn new(dir: &'a dyn Workspace) -> Self {
        Self {
            dir,
            global: OnceCell::new(),
        }
    }

    fn read(&self) -> Result<Global, String> {
        let shown = self.dir.display(CLAUDE_JSON);
        let bytes = match self.dir.read(CLAUDE_JSON, limits::MAX_CLAUDE_JSON_BYTES) {
            Ok(read) if read.is_truncated() => {
                return Err(format!(
                    "{shown} is larger than {} bytes",
                    limits::MAX_CLAUDE_JSON_BYTES
                ));
            }
            Ok(read) => read.bytes,
            Err(WsError::NotFound) => return Ok(Global::default()),
            Err(err) => return Err(format!("{shown}: {err}")),
        };
        serde_json::from_slice(&bytes).map_err(|err| {
            format!(
                "{shown} is not the JSON Claude Code writes (line {}, column {})",
                err.line(),
                err.column()
            )
        })
    }
}

impl ExternalApproval for ClaudeJson<'_> {
    fn approved(&self, project: &Path) -> Result<bool, String> {
        let global = self.global.get_or_init(|| self.read()).as_ref()?;
        let key = project.to_string_lossy();
        Ok(global
            .projects
            .get(key.as_ref())
            .and_then(|p| p.approved)
            .unwrap_or(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{LinkPolicy, MemWorkspace};

    fn home(text: &str) -> MemWorkspace {
        MemWorkspace::new()
            .with_root("/home/u")
            .with_policy(LinkPolicy::Follow)
            .file(CLAUDE_JSON, text)
    }

    #[test]
    fn the_project_key_decides() {
        let dir = home(
            r#"{"numStartups": 3, "projects": {
                "/w/a": {"hasClaudeMdExternalIncludesApproved": true, "allowedTools": []},
                "/w/b": {"hasClaudeMdExternalIncludesApproved": false},
                "/w/c": {}}}"#,
        );
        let json = ClaudeJson::new(&dir);
        assert_eq!(json.approved(Path::new("/w/a")), Ok(true));
        for other in ["/w/b", "/w/c", "/w/d", "/w/a/sub"] {
            assert_eq!(json.approved(Path::new(other)), Ok(false), "{other}");
        }
    }

    #[test]
    fn no_file_is_no_approval_and_a_broken_one_says_why() {
        let empty = MemWorkspace::new().with_root("/home/u");
        assert_eq!(ClaudeJson::new(&empty).approved(Path::new("/w")), Ok(false));
        let broken = home("{\"projects\": [1, 2]}");
        let err = ClaudeJson::new(&broken)
            .approved(Path::new("/w"))
            .unwrap_err();
        assert!(err.contains("line 1"), "{err}");
        assert!(!err.contains("[1, 2]"), "never quotes the file: {err}");
    }
}
