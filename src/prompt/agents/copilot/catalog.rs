//! GitHub Copilot CLI's skills and commands, as far as this version goes
//! (SPEC §17.7 is not built yet): an empty catalog that says so.
//! `commands list` lists nothing with an info line, `expand` passes its
//! input through unchanged with the same line, `explain /name` finds
//! nothing, and the turn 0 has no skills listing.
//!
//! Choices the spec leaves open:
//! - The line names what is not modelled, so an empty listing is never
//!   mistaken for a workspace without skills. It is an info line, and a
//!   warning naming the directories when Copilot's skill or command
//!   directories exist at the cwd or in `~/.copilot` (looked up, never
//!   listed), since then the empty answer hides something Copilot offers.

use serde_json::Map;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::files::{CLAUDE_COMMANDS_DIR, CLAUDE_SKILLS_DIR};
use crate::prompt::command::{Expansion, cannot_invoke};
use crate::prompt::compare::Offered;
use crate::prompt::profile::ProfileTurn0;
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    ListedName,
};
use crate::prompt::profile::seam::{ProfileError, Setup};
use crate::workspace::{EntryKind, Workspace, join};

/// The line every catalog answer carries.
pub const NOT_MODELLED: &str = "GitHub Copilot CLI's skills (.github/skills, .agents/skills, \
     .claude/skills) and .claude/commands are not listed or expanded by this version of \
     mecatl-prompt";

/// Copilot's catalog: nothing yet, and a line saying so.
#[derive(Debug, Clone, Default)]
pub struct CopilotCatalog {
    /// Copilot's skill and command directories that exist, as displayed.
    pub present: Vec<String>,
}

impl CopilotCatalog {
    /// The catalog of one run: looks up (never lists) where Copilot keeps
    /// skills and commands.
    pub fn new(setup: &Setup<'_>, home: Option<&dyn Workspace>) -> Self {
        let mut present = Vec::new();
        let places = [
            ".github/skills",
            ".agents/skills",
            CLAUDE_SKILLS_DIR,
            CLAUDE_COMMANDS_DIR,
        ];
        for place in places {
            let rel = join(setup.at, place);
            if matches!(setup.project.stat(&rel), Ok(EntryKind::Dir)) {
                present.push(setup.project.display(&rel));
            }
        }
        if let Some(home) = home
            && matches!(home.stat("skills"), Ok(EntryKind::Dir))
        {
            present.push(home.display("skills"));
        }
        Self { present }
    }

    fn not_modelled(&self) -> Diagnostic {
        if self.present.is_empty() {
            return Diagnostic::new(Severity::Info, None, NOT_MODELLED);
        }
        Diagnostic::new(
            Severity::Warning,
            None,
            format!(
                "{NOT_MODELLED}; GitHub Copilot CLI would offer what is in {}",
                self.present.join(", ")
            ),
        )
    }
}

impl Catalog for CopilotCatalog {
    fn list(&self) -> Result<CatalogListing, ProfileError> {
        Ok(CatalogListing {
            rows: Vec::new(),
            diagnostics: vec![self.not_modelled()],
            withheld: false,
        })
    }

    fn table(&self, _rows: &[CatalogRow]) -> String {
        String::new()
    }

    fn completion_names(&self) -> Vec<(String, Option<String>)> {
        Vec::new()
    }

    fn add_listing(&self, _turn0: &mut ProfileTurn0) -> Result<Vec<Offered>, ProfileError> {
        Ok(Vec::new())
    }

    fn expand(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        Ok(CatalogExpansion {
            expansion: Expansion::unchanged(input),
            diagnostics: vec![self.not_modelled()],
            not_expanded: None,
            withheld: false,
            extras: Map::new(),
        })
    }

    fn cannot_invoke(&self, name: &str) -> String {
        cannot_invoke(name)
    }

    fn unknown(&self, _input: &str) -> String {
        format!("nothing expanded: {NOT_MODELLED}")
    }

    fn explain(&self, _name: &str) -> Result<CatalogExplanation, ProfileError> {
        Ok(CatalogExplanation::Listed(ListedName {
            entries: Vec::new(),
            diagnostics: vec![self.not_modelled()],
        }))
    }

    fn texts(&self) -> Result<CatalogTexts, ProfileError> {
        Ok(CatalogTexts {
            texts: Vec::new(),
            diagnostics: vec![self.not_modelled()],
            withheld: false,
        })
    }
}
