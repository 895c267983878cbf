//! The Codex profile's turn-0 pieces (SPEC §14.4, §14.6): the AGENTS.md
//! chain and its byte budget ([`chain`]), the global `$CODEX_HOME` file
//! ([`global`]) and skills ([`skills`]), all over the workspace port and the
//! directory walk of [`crate::prompt::walk`]. The recorded oracle cases in
//! `tests/oracle/cases/codex/` are this module's contract: every rule below
//! was observed on Codex CLI 0.169.0.
//!
//! How the pieces fit: [`chain::find_root`] picks the project root on the
//! walk, [`chain::chain`] is the walk from that root down to the cwd,
//! [`chain::project_docs`] reads one file per chain directory under the
//! budget, [`global::global_doc`] reads the global file, and
//! [`instructions_text`] joins the two texts as Codex sends them.
//! [`skills::skill_roots`] and [`skills::list_skills`] find the skills of
//! the same chain and the user's directories; [`skills::skill_blocks`] is
//! what a `$NAME` mention adds. The MCP servers of its configuration
//! files are listed, never started, by `mcp` (SPEC §19.4).
//!
//! Choices the spec leaves open:
//! - Codex refuses to start on a malformed `config.toml`; the preview warns
//!   and uses the defaults (SPEC §14.4), so it still shows something.
//! - Files Codex would read but the preview does not (a link leaving the
//!   workspace, an unreadable file) contribute nothing and are reported.
//! - Files the budget drops are still opened (never read) so the warning
//!   can name them with their size.

pub mod catalog;
pub mod chain;
pub mod config;
pub mod global;
mod lint;
mod mcp;
mod run;
pub mod skill_meta;
pub mod skills;
mod spec;

pub use spec::{CODEX_HOME, SPEC, USER_HOME};

use crate::limits;
use crate::prompt::lint::report::LintHooks;
use crate::prompt::profile::seam::{Profile, ProfileRun, ProfileSpec, Setup};

/// The three `config.toml` keys the profile honours (SPEC §14.4); nothing
/// else of Codex's configuration is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexConfig {
    /// The project chain's byte budget (`project_doc_max_bytes`); 0 turns
    /// the chain off.
    pub project_doc_max_bytes: u64,
    /// Names tried after `AGENTS.md` in each directory, in order
    /// (`project_doc_fallback_filenames`).
    pub project_doc_fallback_filenames: Vec<String>,
    /// Entries whose presence marks the project root
    /// (`project_root_markers`); empty turns the root search off.
    pub project_root_markers: Vec<String>,
}

impl Default for CodexConfig {
    fn default() -> Self {
        Self {
            project_doc_max_bytes: limits::CODEX_PROJECT_DOC_MAX_BYTES,
            project_doc_fallback_filenames: Vec::new(),
            project_root_markers: vec![".git".to_string()],
        }
    }
}

/// What Codex puts between the global file and the project chain when it
/// sends both (a wire-format marker, observed).
pub const PROJECT_DOC_SEPARATOR: &str = "\n\n--- project-doc ---\n\n";

/// The instructions text exactly as Codex sends it between its
/// `<INSTRUCTIONS>` wrapper lines: the global text, the separator, the
/// project chain; either alone when the other is absent; `None` when both
/// are.
pub fn instructions_text(global: Option<&str>, project: Option<&str>) -> Option<String> {
    match (global, project) {
        (Some(global), Some(project)) => Some(format!("{global}{PROJECT_DOC_SEPARATOR}{project}")),
        (Some(only), None) | (None, Some(only)) => Some(only.to_string()),
        (None, None) => None,
    }
}

/// True when `name` is a plain relative path (no `..`, not absolute, not
/// empty): the only kind of configured file name or marker the profile
/// looks up.
pub fn is_plain_relative(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && name.split('/').all(|part| part != ".." && !part.is_empty())
}

/// Codex CLI's registration.
pub struct Codex;

impl Profile for Codex {
    fn spec(&self) -> &'static ProfileSpec {
        &SPEC
    }

    fn open<'a>(&self, setup: &'a Setup<'a>) -> Box<dyn ProfileRun + 'a> {
        Box::new(run::CodexRun::new(setup))
    }

    fn lint(&self) -> Option<&'static dyn LintHooks> {
        Some(&lint::CodexLint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_global_text_comes_first_then_the_separator() {
        assert_eq!(
            instructions_text(Some("G"), Some("P\n")).as_deref(),
            Some("G\n\n--- project-doc ---\n\nP\n")
        );
        assert_eq!(instructions_text(Some("G"), None).as_deref(), Some("G"));
        assert_eq!(instructions_text(None, Some("P")).as_deref(), Some("P"));
        assert_eq!(instructions_text(None, None), None);
    }

    #[test]
    fn only_plain_relative_names_are_looked_up() {
        for good in ["AGENTS.md", ".git", "docs/AGENTS.md"] {
            assert!(is_plain_relative(good), "{good}");
        }
        for bad in ["", "/etc/passwd", "../x", "a/../b", "a//b", "a/"] {
            assert!(!is_plain_relative(bad), "{bad}");
        }
    }
}
