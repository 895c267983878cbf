//! `settings.yaml` (SPEC §3.2, §3.4, §14.1): the one reader of the user's
//! settings file. Trust reads `trustedWorkspaces:` from it, profile
//! selection reads `agent:`; the file is read at most once per run, and
//! only when one of them needs it (a flag or a variable decides first).
//!
//! Choices the spec leaves open:
//! - A missing file is an empty one, silently. An unreadable, malformed or
//!   oversized (> [`MAX_SETTINGS_BYTES`]) file is ignored as a whole with
//!   one warning, by whichever consumer reads it first.
//! - `agent:` is kept as written (any YAML value): deciding whether it
//!   names an agent is the consumer's business, so a bad value cannot make
//!   the trust entries of the same file disappear.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::diagnostic::Diagnostic;
use crate::limits::MAX_SETTINGS_BYTES;
use crate::workspace::{LinkPolicy, OsWorkspace, Workspace, WsError};

/// The keys of settings.yaml the tool reads; every other key is ignored.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Settings {
    /// `trustedWorkspaces:`, as written (SPEC §3.4).
    #[serde(rename = "trustedWorkspaces", default)]
    pub trusted_workspaces: Option<Vec<String>>,
    /// `agent:`, as written (SPEC §14.1).
    #[serde(default)]
    pub agent: Option<serde_json::Value>,
}

/// The settings file of one run, read on first use.
#[derive(Debug)]
pub struct SettingsFile {
    path: Option<PathBuf>,
    loaded: OnceCell<(Settings, Vec<Diagnostic>)>,
}

impl SettingsFile {
    /// The file at `path` (`None` when no config home is known: no settings).
    pub fn new(path: Option<PathBuf>) -> Self {
        Self {
            path,
            loaded: OnceCell::new(),
        }
    }

    /// Where the file is, when a config home is known.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The settings, read on the first call; that call also appends the
    /// warnings of reading them to `diagnostics`, so they are reported once.
    pub fn get(&self, diagnostics: &mut Vec<Diagnostic>) -> &Settings {
        let mut first = false;
        let (settings, found) = self.loaded.get_or_init(|| {
            first = true;
            match &self.path {
                Some(path) => read(path),
                None => (Settings::default(), Vec::new()),
            }
        });
        if first {
            diagnostics.extend(found.iter().cloned());
        }
        settings
    }
}

/// Reads and parses the file at `path`.
fn read(path: &Path) -> (Settings, Vec<Diagnostic>) {
    let display = path.display().to_string();
    let ignored = |why: String| {
        (
            Settings::default(),
            vec![Diagnostic::warning(
                display.clone(),
                format!("settings ignored: {why}"),
            )],
        )
    };
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return (Settings::default(), Vec::new());
    };
    let reader = OsWorkspace::new(dir, LinkPolicy::Follow);
    let bounded = match reader.read(&name.to_string_lossy(), MAX_SETTINGS_BYTES + 1) {
        Ok(bounded) => bounded,
        Err(WsError::NotFound) => return (Settings::default(), Vec::new()),
        Err(err) => return ignored(err.to_string()),
    };
    if bounded.size > MAX_SETTINGS_BYTES {
        return ignored(format!("larger than {MAX_SETTINGS_BYTES} bytes"));
    }
    let text = String::from_utf8_lossy(&bounded.bytes);
    match crate::prompt::yaml::parse_yaml::<Settings>(&text) {
        Ok(settings) => (settings.unwrap_or_default(), Vec::new()),
        Err(err) => ignored(err.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_read_once_and_its_warnings_reported_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.yaml");
        std::fs::write(&path, "trustedWorkspaces: [\n").unwrap();
        let file = SettingsFile::new(Some(path.clone()));
        let mut diagnostics = Vec::new();
        assert_eq!(file.get(&mut diagnostics), &Settings::default());
        assert_eq!(diagnostics.len(), 1);
        assert!(
            diagnostics[0]
                .reason
                .starts_with("settings ignored: malformed YAML")
        );
        std::fs::write(&path, "agent: codex\n").unwrap();
        assert_eq!(
            file.get(&mut diagnostics),
            &Settings::default(),
            "read once"
        );
        assert_eq!(diagnostics.len(), 1, "reported once");
    }

    #[test]
    fn both_keys_are_read_and_a_bad_agent_keeps_the_trust_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.yaml");
        std::fs::write(
            &path,
            "agent: [1, 2]\ntrustedWorkspaces:\n  - /w\nother: 3\n",
        )
        .unwrap();
        let mut diagnostics = Vec::new();
        let file = SettingsFile::new(Some(path));
        let settings = file.get(&mut diagnostics);
        assert_eq!(settings.trusted_workspaces, Some(vec!["/w".to_string()]));
        assert_eq!(settings.agent, Some(serde_json::json!([1, 2])));
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn no_file_or_no_config_home_is_empty_settings() {
        let dir = tempfile::tempdir().unwrap();
        let mut diagnostics = Vec::new();
        let missing = SettingsFile::new(Some(dir.path().join("settings.yaml")));
        assert_eq!(missing.get(&mut diagnostics), &Settings::default());
        assert_eq!(
            SettingsFile::new(None).get(&mut diagnostics),
            &Settings::default()
        );
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn a_huge_file_is_ignored_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.yaml");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_SETTINGS_BYTES + 1).unwrap();
        let mut diagnostics = Vec::new();
        SettingsFile::new(Some(path)).get(&mut diagnostics);
        assert!(diagnostics[0].reason.contains("larger than"));
    }
}
