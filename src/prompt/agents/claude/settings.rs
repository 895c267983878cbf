//! Claude Code's settings files, read only for what changes turn 0 (SPEC
//! §19.1, §19.4–§19.6): the user's `$CLAUDE_CONFIG_DIR/settings.json`,
//! then the cwd's `.claude/settings.json` (scope `project`) and
//! `.claude/settings.local.json` (scope `local`), later files taking
//! precedence for a key.
//!
//! - The project's two files are project files: trust-gated (untrusted:
//!   listed in `not_loaded` as withheld, never read), read through the
//!   confined reader, capped at [`limits::MAX_CLAUDE_SETTINGS_BYTES`]
//!   (over it: skipped with a warning).
//! - A file that is not a JSON object is a warning naming the file, line
//!   and column, and is ignored as a whole.
//!
//! Choices the spec leaves open:
//! - The settings of the cwd are read, not the git root's (Claude Code
//!   starts in the cwd; `disabledMcpjsonServers` was observed honoured
//!   from there only, and, started in a subdirectory, only its
//!   `SessionStart` hooks ran: `tests/oracle/cases/claude-hooks/cwd-settings`).

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::claude::names;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Scope};
use crate::workspace::{Workspace, WsError, join};

/// The settings file's name.
pub(crate) const SETTINGS_JSON: &str = "settings.json";
/// The local (not checked in) settings file's name.
pub(crate) const SETTINGS_LOCAL_JSON: &str = "settings.local.json";

/// One settings file that was read.
#[derive(Debug, Clone)]
pub(crate) struct SettingsFile {
    /// Named like a part's path.
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// Its top-level keys.
    pub value: Map<String, Value>,
}

/// The settings files read, lowest precedence first, and what was left out.
#[derive(Debug, Default)]
pub(crate) struct ClaudeSettings {
    /// The user's, the project's, the local one, as far as each exists.
    pub files: Vec<SettingsFile>,
    /// The project's files trust withheld.
    pub not_loaded: Vec<NotLoaded>,
    /// Files that could not be used.
    pub diagnostics: Vec<Diagnostic>,
}

impl ClaudeSettings {
    /// The value of `key` in the file of highest precedence that sets it.
    pub(crate) fn get(&self, key: &str) -> Option<(&SettingsFile, &Value)> {
        self.files
            .iter()
            .rev()
            .find_map(|file| file.value.get(key).map(|value| (file, value)))
    }
}

/// Reads the settings files of a run: `user` is the user's configuration
/// directory, `at` the cwd relative to `project`.
pub(crate) fn read_settings(
    project: &dyn Workspace,
    at: &str,
    user: Option<&dyn Workspace>,
    trusted: bool,
) -> ClaudeSettings {
    let mut settings = ClaudeSettings::default();
    if let Some(user) = user {
        settings.read(user, SETTINGS_JSON, Scope::User);
    }
    let dir = join(at, names::DOT_CLAUDE);
    for (name, scope) in [
        (SETTINGS_JSON, Scope::Project),
        (SETTINGS_LOCAL_JSON, Scope::Local),
    ] {
        let rel = join(&dir, name);
        if trusted {
            settings.read(project, &rel, scope);
        } else if project.stat(&rel).is_ok() {
            settings.not_loaded.push(NotLoaded {
                path: project.display(&rel),
                scope,
                reason: NotLoadedReason::Withheld,
            });
        }
    }
    settings
}

impl ClaudeSettings {
    fn read(&mut self, reader: &dyn Workspace, rel: &str, scope: Scope) {
        match read_json_object(reader, rel, limits::MAX_CLAUDE_SETTINGS_BYTES) {
            Ok(Some(value)) => self.files.push(SettingsFile {
                path: reader.display(rel),
                scope,
                value,
            }),
            Ok(None) => {}
            Err(diagnostic) => self.diagnostics.push(diagnostic),
        }
    }
}

/// The JSON object in `rel`: `None` when there is no such file; a warning
/// naming the file (and the line and column of a syntax error) when it is
/// unreadable, over `cap` bytes or not a JSON object.
pub(crate) fn read_json_object(
    reader: &dyn Workspace,
    rel: &str,
    cap: u64,
) -> Result<Option<Map<String, Value>>, Diagnostic> {
    let shown = || reader.display(rel);
    let read = match reader.read(rel, cap) {
        Ok(read) => read,
        Err(WsError::NotFound) => return Ok(None),
        Err(err) => {
            return Err(Diagnostic::warning(
                shown(),
                format!("cannot be read, ignored: {err}"),
            ));
        }
    };
    if read.is_truncated() {
        return Err(Diagnostic::warning(
            shown(),
            format!("over {cap} bytes ({} bytes): skipped", read.size),
        ));
    }
    match serde_json::from_slice::<Value>(&read.bytes) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        Ok(_) => Err(Diagnostic::warning(shown(), "not a JSON object: ignored")),
        Err(err) => Err(Diagnostic::warning(
            shown(),
            format!(
                "not valid JSON (line {}, column {}): ignored",
                err.line(),
                err.column()
            ),
        )),
    }
}
