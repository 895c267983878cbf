//! Workspace trust (SPEC §3.4). An untrusted workspace keeps its project
//! tier of commands, rules and soul out of what is injected or expanded, and
//! never runs `git`.
//!
//! First match wins: the last of `--trust-project`/`--no-trust-project`;
//! `MECATL_TRUST_PROJECT` = `1` or `0`; an exact entry of
//! `trustedWorkspaces:` in `settings.yaml` (read through
//! [`crate::adapters::settings`]); else untrusted.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::adapters::settings::SettingsFile;
use crate::diagnostic::Diagnostic;

/// Where the trust decision came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum TrustSource {
    /// `--trust-project` or `--no-trust-project`.
    Flag,
    /// `MECATL_TRUST_PROJECT`.
    Env,
    /// `trustedWorkspaces:` in settings.yaml.
    Settings,
    /// Nothing said otherwise: untrusted.
    Default,
}

/// The trust decision for one run, as printed in every JSON document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Trust {
    /// Whether the project tier is used.
    pub trusted: bool,
    /// Where the decision came from.
    pub source: TrustSource,
}

/// The inputs of the trust decision, gathered by the caller.
#[derive(Debug, Clone, Default)]
pub struct TrustInputs<'a> {
    /// The last trust flag given, if any.
    pub flag: Option<bool>,
    /// The value of `MECATL_TRUST_PROJECT`, if set.
    pub env_value: Option<&'a str>,
    /// The settings file, consulted only when no flag or variable decides.
    pub settings: Option<&'a SettingsFile>,
    /// The home directory, for `~/` in settings entries.
    pub home: Option<&'a Path>,
}

/// Decides whether `workspace` is trusted, with the diagnostics that explain
/// ignored inputs.
pub fn resolve_trust(workspace: &Path, inputs: &TrustInputs<'_>) -> (Trust, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    if let Some(trusted) = inputs.flag {
        return (
            Trust {
                trusted,
                source: TrustSource::Flag,
            },
            diagnostics,
        );
    }
    match inputs.env_value {
        Some("1") | Some("0") => {
            let trusted = inputs.env_value == Some("1");
            diagnostics.push(Diagnostic::new(
                crate::diagnostic::Severity::Info,
                None,
                format!(
                    "workspace is {} because MECATL_TRUST_PROJECT={}",
                    if trusted { "trusted" } else { "untrusted" },
                    if trusted { 1 } else { 0 }
                ),
            ));
            return (
                Trust {
                    trusted,
                    source: TrustSource::Env,
                },
                diagnostics,
            );
        }
        Some(_) => diagnostics.push(Diagnostic::new(
            crate::diagnostic::Severity::Warning,
            None,
            "MECATL_TRUST_PROJECT is neither 1 nor 0; ignored",
        )),
        None => {}
    }
    if let Some(settings) = inputs.settings {
        let entries = trusted_workspaces(settings, inputs.home, &mut diagnostics);
        let canonical = std::fs::canonicalize(workspace).ok();
        let listed = canonical.is_some_and(|ws| entries.contains(&ws));
        if listed {
            return (
                Trust {
                    trusted: true,
                    source: TrustSource::Settings,
                },
                diagnostics,
            );
        }
    }
    (
        Trust {
            trusted: false,
            source: TrustSource::Default,
        },
        diagnostics,
    )
}

/// The canonical paths listed under `trustedWorkspaces:`; a missing file is
/// an empty list, an unusable file or entry a warning.
fn trusted_workspaces(
    settings: &SettingsFile,
    home: Option<&Path>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<PathBuf> {
    let display = settings
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let entries = settings
        .get(diagnostics)
        .trusted_workspaces
        .clone()
        .unwrap_or_default();
    let mut paths = Vec::new();
    for entry in entries {
        let expanded = match (entry.strip_prefix("~/"), home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => PathBuf::from(&entry),
        };
        if !expanded.is_absolute() {
            diagnostics.push(Diagnostic::warning(
                display.clone(),
                format!("trustedWorkspaces entry {entry:?} is not an absolute path; skipped"),
            ));
            continue;
        }
        match std::fs::canonicalize(&expanded) {
            Ok(canonical) => paths.push(canonical),
            Err(err) => diagnostics.push(Diagnostic::warning(
                display.clone(),
                format!("trustedWorkspaces entry {entry:?} cannot be resolved ({err}); skipped"),
            )),
        }
    }
    paths
}

/// How to trust a workspace (SPEC §3.4): the one wording every message
/// that needs it uses, naming the settings file when there is one.
pub fn trust_hint(settings_file: Option<&Path>) -> String {
    let settings = settings_file
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "settings.yaml".to_string());
    format!(
        "trust it with --trust-project, MECATL_TRUST_PROJECT=1 or trustedWorkspaces in {settings}"
    )
}

/// The one notice printed when project files were withheld, naming every way
/// to trust the workspace.
pub fn withheld_notice(settings_file: Option<&Path>) -> Diagnostic {
    Diagnostic::new(
        crate::diagnostic::Severity::Warning,
        None,
        format!(
            "project files were withheld because the workspace is not trusted; {}",
            trust_hint(settings_file)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs<'a>(
        flag: Option<bool>,
        env: Option<&'a str>,
        settings: Option<&'a SettingsFile>,
    ) -> TrustInputs<'a> {
        TrustInputs {
            flag,
            env_value: env,
            settings,
            home: None,
        }
    }

    /// A fresh settings file at `path` (each one is read once).
    fn file(path: &Path) -> SettingsFile {
        SettingsFile::new(Some(path.to_path_buf()))
    }

    #[test]
    fn flag_beats_env_beats_settings() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path();
        let settings = ws.join("settings.yaml");
        std::fs::write(
            &settings,
            format!("trustedWorkspaces:\n  - {}\n", ws.display()),
        )
        .unwrap();
        let (t, _) = resolve_trust(ws, &inputs(Some(false), Some("1"), Some(&file(&settings))));
        assert_eq!((t.trusted, t.source), (false, TrustSource::Flag));
        let (t, d) = resolve_trust(ws, &inputs(None, Some("0"), Some(&file(&settings))));
        assert_eq!((t.trusted, t.source), (false, TrustSource::Env));
        assert_eq!(d.len(), 1);
        let (t, _) = resolve_trust(ws, &inputs(None, None, Some(&file(&settings))));
        assert_eq!((t.trusted, t.source), (true, TrustSource::Settings));
        let (t, d) = resolve_trust(ws, &inputs(None, Some("yes"), None));
        assert_eq!((t.trusted, t.source), (false, TrustSource::Default));
        assert!(d[0].reason.contains("neither 1 nor 0"));
    }

    #[test]
    fn settings_match_exactly_and_skip_relative_entries() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("repo");
        std::fs::create_dir_all(ws.join("sub")).unwrap();
        let settings = dir.path().join("settings.yaml");
        std::fs::write(
            &settings,
            format!(
                "trustedWorkspaces:\n  - relative/path\n  - {}\n  - {}\n",
                ws.display(),
                dir.path().join("gone").display()
            ),
        )
        .unwrap();
        let (t, d) = resolve_trust(&ws.join("sub"), &inputs(None, None, Some(&file(&settings))));
        assert!(!t.trusted, "subdirectories are not trusted");
        assert!(d.iter().any(|d| d.reason.contains("not an absolute path")));
        assert!(
            d.iter()
                .any(|d| d.reason.contains("gone\" cannot be resolved")),
            "{d:?}"
        );
        let (t, _) = resolve_trust(&ws, &inputs(None, None, Some(&file(&settings))));
        assert!(t.trusted);
    }

    #[test]
    fn malformed_settings_trust_nothing_and_say_so_once() {
        let dir = tempfile::tempdir().unwrap();
        let settings = dir.path().join("settings.yaml");
        std::fs::write(&settings, "trustedWorkspaces: [unclosed\n").unwrap();
        let (t, d) = resolve_trust(dir.path(), &inputs(None, None, Some(&file(&settings))));
        assert!(!t.trusted);
        assert_eq!(d.len(), 1);
        assert!(d[0].reason.starts_with("settings ignored"));
    }
}
