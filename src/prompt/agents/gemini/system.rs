//! `.gemini/system.md` (SPEC §16.5; observed: recorded case
//! `gemini-commands/system-md`): `GEMINI_SYSTEM_MD` set to `true` or `1`
//! makes Gemini CLI send `<at>/.gemini/system.md` instead of its whole
//! system prompt (another value but `0`/`false` names the file). Gemini
//! takes the variable from its environment, else from the first env file
//! it finds: `.gemini/.env`, then `.env`, in each directory from the cwd up
//! to `/`, then `~/.gemini/.env`, `~/.env` — only that one file, even when
//! it does not set the variable.
//!
//! Only the line of that one key is ever looked at: no other line of an
//! env file is kept, printed, hashed or logged, and nothing says what
//! else is in it.
//!
//! Choices the spec leaves open:
//! - In an untrusted workspace no env file is read: Gemini takes only its
//!   authentication variables from them in an untrusted folder, so only
//!   the process environment can switch the file on, and the file itself
//!   is then withheld.
//! - The file's text is sent as Gemini sends its system prompt: runs of
//!   3+ `\n` made `\n\n`, then trimmed; its `${…}` variables (Gemini fills
//!   in its skills, tools and agents) stay as written, with an info line.
//! - A file named outside the workspace is never read (not_loaded
//!   `external`, a warning); a missing one is a warning (Gemini refuses to
//!   start).

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::gemini::context::squeeze_newlines;
use crate::prompt::agents::gemini::spec::DOT_GEMINI;
use crate::prompt::imports::normalise;
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Lint, Out};
use crate::prompt::profile::Agent;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Part, PartKind};
use crate::prompt::text::js_trim;
use crate::prompt::walk::{Scope, WalkDir, absolute};
use crate::workspace::{EntryKind, Workspace, WsError, join, parent, slashed};

/// The variable.
pub const VAR: &str = "GEMINI_SYSTEM_MD";
/// The file it switches on, below the start directory.
pub const SYSTEM_MD: &str = ".gemini/system.md";
/// An env file's name.
const DOT_ENV: &str = ".env";

/// Where the run looks for the variable.
pub struct EnvPlaces<'a> {
    /// The value in the process environment, when set.
    pub process: Option<String>,
    /// The walk from the top down to the start directory.
    pub walk: &'a [WalkDir<'a>],
    /// Gemini's home (holding `.gemini`), when there is one.
    pub home: Option<&'a dyn Workspace>,
    /// Whether the workspace is trusted.
    pub trusted: bool,
}

/// What the run found.
#[derive(Debug, Default)]
pub struct SystemPrompt {
    /// The file's part, when Gemini sends it and the preview read it.
    pub part: Option<Part>,
    /// True when Gemini replaces its system prompt (whether or not the
    /// preview could read the file).
    pub replaced: bool,
    /// Files not read.
    pub not_loaded: Vec<NotLoaded>,
    /// What was said.
    pub diagnostics: Vec<Diagnostic>,
}

/// Finds `GEMINI_SYSTEM_MD` and, when it replaces the system prompt,
/// reads the file through `project` (the start directory `at`).
pub fn find(places: &EnvPlaces<'_>, project: &dyn Workspace, at: &str) -> SystemPrompt {
    let mut out = SystemPrompt::default();
    let Some((value, from)) = value(places) else {
        return out;
    };
    let value = js_trim(&value);
    let lower = value.to_ascii_lowercase();
    if value.is_empty() || lower == "0" || lower == "false" {
        return out;
    }
    out.replaced = true;
    let start = normalise(&project.root().join(at));
    let target = if lower == "1" || lower == "true" {
        start.join(SYSTEM_MD)
    } else if let Some(rest) = value.strip_prefix("~/") {
        match places.home {
            Some(home) => home.root().join(rest),
            None => start.join(value),
        }
    } else {
        normalise(&start.join(value))
    };
    let shown_target = target.display().to_string();
    // Workspace-relative, with `/` on every platform.
    let Some(rel) = target
        .strip_prefix(project.root())
        .ok()
        .filter(|rel| rel.to_str().is_some())
        .map(slashed)
    else {
        out.diagnostics.push(Diagnostic::warning(
            &shown_target,
            format!(
                "{VAR} (from {from}) makes Gemini CLI replace its whole system prompt with this \
                 file, outside the workspace: the preview never reads it"
            ),
        ));
        out.not_loaded.push(NotLoaded {
            path: shown_target,
            scope: Scope::User,
            reason: NotLoadedReason::External,
        });
        return out;
    };
    let shown = project.display(&rel);
    if !places.trusted {
        out.diagnostics.push(Diagnostic::warning(
            &shown,
            format!(
                "{VAR} (from {from}) makes Gemini CLI replace its whole system prompt with this \
                 file; the workspace is not trusted, so it is withheld"
            ),
        ));
        out.not_loaded.push(NotLoaded {
            path: shown,
            scope: Scope::Project,
            reason: NotLoadedReason::Withheld,
        });
        return out;
    }
    let text = match project.stat(&rel) {
        Ok(EntryKind::File) => match project.read(&rel, limits::MAX_GEMINI_FILE_BYTES) {
            Ok(read) if !read.is_truncated() => String::from_utf8_lossy(&read.bytes).into_owned(),
            Ok(read) => {
                out.diagnostics.push(Diagnostic::warning(
                    &shown,
                    format!(
                        "{} bytes, over the {} the preview reads: Gemini CLI sends it as its \
                         whole system prompt; not shown",
                        read.size,
                        limits::MAX_GEMINI_FILE_BYTES
                    ),
                ));
                return out;
            }
            Err(err) => {
                out.diagnostics
                    .push(Diagnostic::warning(&shown, format!("not read: {err}")));
                return out;
            }
        },
        Err(WsError::NotFound) => {
            out.diagnostics.push(Diagnostic::warning(
                &shown,
                format!(
                    "{VAR} (from {from}) names this file, which does not exist: Gemini CLI \
                     refuses to start"
                ),
            ));
            return out;
        }
        _ => {
            out.diagnostics.push(Diagnostic::warning(
                &shown,
                format!("{VAR} (from {from}) names this, which the preview does not read"),
            ));
            return out;
        }
    };
    out.diagnostics.push(Diagnostic::warning(
        &shown,
        format!(
            "{VAR} (from {from}) makes Gemini CLI replace its whole system prompt with this \
             repository's file: its own instructions and the skills listing are not sent"
        ),
    ));
    if text.contains("${") {
        out.diagnostics.push(Diagnostic::info(
            &shown,
            "Gemini CLI fills in its ${…} variables here (skills, tools, agents); the preview \
             shows them as written",
        ));
    }
    out.part = Some(Part {
        path: shown,
        scope: Scope::Project,
        kind: PartKind::SystemPrompt,
        imported_by: None,
        content: js_trim(&squeeze_newlines(&text)).to_string(),
        cut: None,
    });
    out
}

/// The variable's value and where it came from (the process, or an env
/// file as displayed).
fn value(places: &EnvPlaces<'_>) -> Option<(String, String)> {
    if let Some(value) = &places.process {
        return Some((value.clone(), "the environment".to_string()));
    }
    if !places.trusted {
        // Gemini takes only its authentication variables from the env
        // files of an untrusted folder.
        return None;
    }
    let mut candidates: Vec<(&dyn Workspace, String, Scope)> = Vec::new();
    for dir in places.walk.iter().rev() {
        candidates.push((dir.reader, join(&dir.rel(DOT_GEMINI), DOT_ENV), dir.scope));
        candidates.push((dir.reader, dir.rel(DOT_ENV), dir.scope));
    }
    if let Some(home) = places.home {
        candidates.push((home, join(DOT_GEMINI, DOT_ENV), Scope::User));
        candidates.push((home, DOT_ENV.to_string(), Scope::User));
    }
    let (reader, rel, scope) = candidates
        .into_iter()
        .find(|(reader, rel, _)| reader.stat(rel).is_ok())?;
    let shown = if scope == Scope::Project {
        reader.display(&rel)
    } else {
        absolute(reader, &rel).display().to_string()
    };
    let read = reader.read(&rel, limits::MAX_GEMINI_ENV_FILE_BYTES).ok()?;
    let text = String::from_utf8_lossy(&read.bytes);
    env_value(&text, VAR).map(|value| (value, shown))
}

/// MP024: each `.gemini/system.md` of the workspace that the first env
/// file above it (within the workspace) switches on.
pub(super) fn lint(lint: &Lint<'_>, out: &mut Out) {
    for dir in lint.survey.dirs_ending(DOT_GEMINI) {
        let system = join(dir, "system.md");
        if !lint.survey.has_file(&system) {
            continue;
        }
        let owner = parent(dir);
        let mut at = Some(owner);
        let found = loop {
            let Some(here) = at else { break None };
            let candidates = [join(&join(here, DOT_GEMINI), DOT_ENV), join(here, DOT_ENV)];
            if let Some(env) = candidates.into_iter().find(|c| lint.survey.has_file(c)) {
                break Some(env);
            }
            at = (!here.is_empty()).then(|| parent(here));
        };
        let Some(env) = found else { continue };
        let Ok(read) = lint.reader.read(&env, limits::MAX_GEMINI_ENV_FILE_BYTES) else {
            continue;
        };
        let value = env_value(&String::from_utf8_lossy(&read.bytes), VAR);
        let on = value.is_some_and(|v| {
            let v = js_trim(&v).to_ascii_lowercase();
            v == "1" || v == "true"
        });
        if on {
            out.add(
                Code::GeminiSystemPromptReplaced,
                &system,
                None,
                vec![Agent::Gemini],
                format!(
                    "{VAR} in {env} makes Gemini CLI send this file instead of its whole system \
                     prompt, started in {}",
                    if owner.is_empty() { "." } else { owner }
                ),
            );
        }
    }
}

/// The value `text`, an env file, gives `key` (the last assignment wins,
/// as dotenv reads): `KEY=VALUE` with an optional `export `, the value
/// trimmed, quotes removed, a ` #` comment after an unquoted value dropped.
/// No other line is kept.
pub fn env_value(text: &str, key: &str) -> Option<String> {
    let mut found = None;
    for line in text.lines() {
        let line = line.trim_start();
        let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
        let Some(rest) = line.strip_prefix(key) else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix(['=', ':']) else {
            continue;
        };
        let value = value.trim();
        let quoted = ['"', '\'', '`']
            .into_iter()
            .find_map(|q| value.strip_prefix(q).and_then(|v| v.split_once(q)));
        found = Some(match quoted {
            Some((inner, _)) => inner.to_string(),
            None => value
                .split(" #")
                .next()
                .unwrap_or_default()
                .trim()
                .to_string(),
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_key_is_read() {
        let text = "SECRET=abc\nexport GEMINI_SYSTEM_MD = \"true\" \n# GEMINI_SYSTEM_MD=0\n";
        assert_eq!(env_value(text, VAR).as_deref(), Some("true"));
        assert_eq!(
            env_value("GEMINI_SYSTEM_MD=1 # on\n", VAR).as_deref(),
            Some("1")
        );
        assert_eq!(env_value("GEMINI_SYSTEM_MDX=1\n", VAR), None);
        assert_eq!(env_value("SECRET=GEMINI_SYSTEM_MD=1\n", VAR), None);
    }
}
