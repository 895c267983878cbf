//! Gemini CLI's commands and skills, as far as this version goes (SPEC
//! §16.4 is not built yet): an empty catalog that says so. `commands list`
//! lists nothing with an info line, `expand` passes its input through
//! unchanged with the same line, `explain /name` finds nothing, and the
//! turn 0 has no skills listing.
//!
//! Choices the spec leaves open:
//! - The info line names what exists and is not modelled (`.toml`
//!   commands under `.gemini/commands`, skills), so an empty listing is
//!   never mistaken for a workspace without commands.

use serde_json::Map;

use crate::diagnostic::Diagnostic;
use crate::prompt::command::{Expansion, cannot_invoke};
use crate::prompt::compare::Offered;
use crate::prompt::profile::ProfileTurn0;
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    ListedName,
};
use crate::prompt::profile::seam::ProfileError;

/// The line every catalog answer carries.
pub const NOT_MODELLED: &str = "Gemini CLI's custom commands (.gemini/commands/**/*.toml) and \
     skills are not listed or expanded by this version of mecatl-prompt";

/// Gemini's catalog: nothing yet, and a line saying so.
pub struct GeminiCatalog;

fn not_modelled() -> Diagnostic {
    Diagnostic::new(crate::diagnostic::Severity::Info, None, NOT_MODELLED)
}

impl Catalog for GeminiCatalog {
    fn list(&self) -> Result<CatalogListing, ProfileError> {
        Ok(CatalogListing {
            rows: Vec::new(),
            diagnostics: vec![not_modelled()],
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
            diagnostics: vec![not_modelled()],
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
            diagnostics: vec![not_modelled()],
        }))
    }

    fn texts(&self) -> Result<CatalogTexts, ProfileError> {
        Ok(CatalogTexts {
            texts: Vec::new(),
            diagnostics: vec![not_modelled()],
            withheld: false,
        })
    }
}
