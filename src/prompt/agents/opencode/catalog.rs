//! opencode's commands and skills, as far as this version goes (SPEC
//! §18.3 and §18.4 are not built yet): an empty catalog that says so.
//! `commands list` lists nothing with a line saying why, `expand` passes
//! its input through unchanged with the same line, `explain /name` finds
//! nothing, and the turn 0 has no skills listing.
//!
//! Choices the spec leaves open:
//! - The line names what is not modelled, so an empty listing is never
//!   mistaken for a workspace without commands: an info line, or a warning
//!   naming the directories when opencode's command or skill directories
//!   exist (looked up, never listed), since then the empty answer hides
//!   something opencode would offer.

use serde_json::Map;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::command::{Expansion, cannot_invoke};
use crate::prompt::compare::Offered;
use crate::prompt::profile::ProfileTurn0;
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    ListedName,
};
use crate::prompt::profile::seam::ProfileError;

/// The line every catalog answer carries.
pub const NOT_MODELLED: &str = "opencode's commands (.opencode/command(s)/**/*.md, the `command` \
     config) and skills are not listed or expanded by this version of mecatl-prompt";

/// The directories, below a walk directory or a home, where opencode finds
/// commands and skills.
pub const PLACES: [&str; 7] = [
    ".opencode/command",
    ".opencode/commands",
    ".opencode/skill",
    ".opencode/skills",
    ".claude/skills",
    ".agents/skills",
    ".config/opencode/command",
];

/// opencode's catalog: nothing yet, and a line saying so.
#[derive(Debug, Clone, Default)]
pub struct OpencodeCatalog {
    /// opencode's command and skill directories that exist, as displayed.
    pub present: Vec<String>,
}

impl OpencodeCatalog {
    fn not_modelled(&self) -> Diagnostic {
        if self.present.is_empty() {
            return Diagnostic::new(Severity::Info, None, NOT_MODELLED);
        }
        Diagnostic::new(
            Severity::Warning,
            None,
            format!(
                "{NOT_MODELLED}; opencode would offer what is in {}",
                self.present.join(", ")
            ),
        )
    }
}

impl Catalog for OpencodeCatalog {
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
