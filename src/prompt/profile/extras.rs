//! What a part says beyond its content, for the profiles that say more
//! (GitHub Copilot CLI, SPEC §17.8): the imports inlined into a file's
//! part and the rows of a table part, as extra keys of that part's JSON,
//! present only when non-empty so that every other profile's parts keep
//! their shape.

use serde::Serialize;

/// The extra keys of one part.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct PartExtras {
    /// The imports inlined into the part's content (or marked already
    /// loaded), in text order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<PartImport>,
    /// The rows of a table part, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rows: Vec<TableRow>,
}

impl PartExtras {
    /// True when the part says nothing more.
    pub fn is_empty(&self) -> bool {
        self.imports.is_empty() && self.rows.is_empty()
    }
}

/// One import of a part's file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct PartImport {
    /// The target: workspace-relative inside the workspace, absolute
    /// otherwise.
    pub path: String,
    /// Its level: the file's own imports are 1.
    pub depth: usize,
    /// `inlined` or `already-loaded`.
    pub status: ImportState,
}

/// What became of an import that is part of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ImportState {
    /// Its text is inlined.
    Inlined,
    /// Already inlined into the same file: a marker stands for it.
    AlreadyLoaded,
}

/// One row of a table part: a file named at start, sent when a matching
/// file is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct TableRow {
    /// The pattern as written.
    pub pattern: String,
    /// The file as the row names it.
    pub file: String,
    /// The file, named like a part's path.
    pub path: String,
    /// Its description, empty without one.
    pub description: String,
}
