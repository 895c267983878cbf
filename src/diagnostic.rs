//! Diagnostics: what happened to a file that was skipped, adjusted or worth a
//! note (SPEC §9). Adapters collect them as data; only the CLI prints them.

use serde::Serialize;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The file was dropped.
    Fatal,
    /// The file was used with an adjustment, or something needs attention.
    Warning,
    /// Context only.
    Info,
}

impl Severity {
    /// The lowercase word used in text output and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Fatal => "fatal",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One diagnostic: severity, the file it is about (if any) and why.
///
/// `path` is workspace-relative with `/` for project files and absolute for
/// user files (see [`crate::workspace::Workspace::display`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// The file or directory concerned, when there is one.
    pub path: Option<String>,
    /// A one-line reason; never echoes file content.
    pub reason: String,
}

impl Diagnostic {
    /// A fatal diagnostic about `path`.
    pub fn fatal(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::new(Severity::Fatal, Some(path.into()), reason)
    }

    /// A warning about `path`.
    pub fn warning(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::new(Severity::Warning, Some(path.into()), reason)
    }

    /// An info diagnostic about `path`.
    pub fn info(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::new(Severity::Info, Some(path.into()), reason)
    }

    /// The info diagnostic that names a file as read, and as what
    /// (`read (soul)`): `-v` lists every file read this way.
    pub fn read(path: impl Into<String>, what: &str) -> Self {
        Self::info(path, format!("read ({what})"))
    }

    /// A diagnostic with any severity and an optional path.
    pub fn new(severity: Severity, path: Option<String>, reason: impl Into<String>) -> Self {
        Self {
            severity,
            path,
            reason: reason.into(),
        }
    }
}

/// Diagnostics as `(severity, path, reason)` triples, for tests that
/// compare them whole.
#[cfg(test)]
pub(crate) fn triples(diagnostics: &[Diagnostic]) -> Vec<(Severity, String, String)> {
    diagnostics
        .iter()
        .map(|d| {
            (
                d.severity,
                d.path.clone().unwrap_or_default(),
                d.reason.clone(),
            )
        })
        .collect()
}
