//! Where user-tier files live (SPEC §3.2): config home, data home, and the
//! paths derived from them. Resolved once from a snapshot of the environment.

use std::path::{Path, PathBuf};

use etcetera::BaseStrategy;

use crate::prompt::agents::claude::names;

/// The user-tier directories for one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locations {
    /// The home directory, when one is known.
    pub home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME` when set and absolute, else `~/.config`.
    pub config_home: Option<PathBuf>,
    /// `$XDG_DATA_HOME` when set and absolute, else `~/.local/share`
    /// (macOS: `~/Library/Application Support`, where the engine keeps data).
    pub data_home: Option<PathBuf>,
}

impl Locations {
    /// Locations from the process environment (`HOME`, `XDG_CONFIG_HOME`,
    /// `XDG_DATA_HOME`); everything is `None` when no home can be found.
    pub fn from_env() -> Self {
        let Ok(xdg) = etcetera::base_strategy::Xdg::new() else {
            return Self {
                home: None,
                config_home: None,
                data_home: None,
            };
        };
        let data_home = if cfg!(target_os = "macos") {
            etcetera::base_strategy::Apple::new()
                .map(|apple| apple.data_dir())
                .ok()
        } else {
            Some(xdg.data_dir())
        };
        Self {
            home: Some(xdg.home_dir().to_path_buf()),
            config_home: Some(xdg.config_dir()),
            data_home,
        }
    }

    /// `<config home>/mecatl`, the root of our user configuration.
    pub fn mecatl_config(&self) -> Option<PathBuf> {
        self.config_home.as_ref().map(|c| c.join("mecatl"))
    }

    /// `<config home>/mecatl/settings.yaml`.
    pub fn settings_file(&self) -> Option<PathBuf> {
        self.mecatl_config().map(|c| c.join("settings.yaml"))
    }

    /// `<config home>/mecatl/soul.md`, the default user soul.
    pub fn user_soul(&self) -> Option<PathBuf> {
        self.mecatl_config().map(|c| c.join("soul.md"))
    }

    /// `<config home>/mecatl/usermodel`, the default user-model store.
    pub fn user_model_dir(&self) -> Option<PathBuf> {
        self.mecatl_config().map(|c| c.join("usermodel"))
    }

    /// The user-tier rule directories in precedence order:
    /// `<config home>/mecatl/rules`, then `~/.claude/rules`.
    pub fn user_rule_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        if let Some(config) = self.mecatl_config() {
            dirs.push(config.join("rules"));
        }
        if let Some(home) = &self.home {
            dirs.push(home.join(names::RULES_DIR));
        }
        dirs
    }

    /// The engine's default memory directory for `workspace`:
    /// `<data home>/mecatui/memory/<slug>`.
    pub fn default_memory_dir(&self, workspace: &Path) -> Option<PathBuf> {
        self.data_home.as_ref().map(|data| {
            data.join("mecatui")
                .join("memory")
                .join(workspace_slug(workspace))
        })
    }
}

/// The engine's slug for a workspace: the absolute path, not resolved
/// through symlinks, with a trailing `/` removed and every `/` replaced by
/// `-` (so `/home/me/repo` becomes `-home-me-repo`). On Windows `\` and the
/// drive's `:` are replaced too (`C:\me\repo` becomes `C--me-repo`): left in,
/// the absolute path would replace the data home it is joined to, and the
/// memory directory would be the workspace itself.
pub fn workspace_slug(workspace: &Path) -> String {
    let text = workspace.to_string_lossy();
    let separators: &[char] = if cfg!(windows) {
        &['/', '\\', ':']
    } else {
        &['/']
    };
    let trimmed = if text.len() > 1 {
        text.trim_end_matches(|c| c == '/' || (cfg!(windows) && c == '\\'))
    } else {
        &text
    };
    trimmed.replace(separators, "-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_replaces_separators_and_drops_trailing_slash() {
        assert_eq!(workspace_slug(Path::new("/home/me/repo")), "-home-me-repo");
        assert_eq!(workspace_slug(Path::new("/home/me/repo/")), "-home-me-repo");
        assert_eq!(workspace_slug(Path::new("/")), "-");
    }

    #[test]
    fn derived_paths_hang_off_config_home() {
        let loc = Locations {
            home: Some("/h".into()),
            config_home: Some("/c".into()),
            data_home: Some("/d".into()),
        };
        assert_eq!(
            loc.user_rule_dirs(),
            vec![
                PathBuf::from("/c/mecatl/rules"),
                PathBuf::from("/h/.claude/rules")
            ]
        );
        assert_eq!(loc.settings_file(), Some("/c/mecatl/settings.yaml".into()));
        assert_eq!(
            loc.default_memory_dir(Path::new("/w/x")),
            Some("/d/mecatui/memory/-w-x".into())
        );
    }
}
