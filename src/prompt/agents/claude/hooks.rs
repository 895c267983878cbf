//! Claude Code's command hooks (SPEC §19.5): listed with what they would
//! add to turn 0, **never run**.
//!
//! - Every `{"type": "command", "command": …}` hook of the `hooks` key of
//!   each settings file (the user's, the project's, the local one, in that
//!   order; in each, the configuration's order), with its event and
//!   matcher.
//! - `SessionStart` hooks whose matcher is absent, empty, `*` or matches
//!   `startup` would put their output (trailing newlines trimmed) at the
//!   start of Claude Code's system message, as a paragraph
//!   `SessionStart:startup hook success: OUTPUT`, or, when the output is
//!   JSON with `hookSpecificOutput.additionalContext`,
//!   `SessionStart hook additional context: TEXT`; several run in parallel
//!   and their paragraphs come in completion order; a failing one adds
//!   nothing. `UserPromptSubmit` hooks would add
//!   `UserPromptSubmit hook success: OUTPUT` (JSON:
//!   `UserPromptSubmit hook additional context: TEXT`) to the same system
//!   message, after the skills listing and before the date line.
//!   Each of those is a warning naming its command and `not run`.
//!
//! Observed with Claude Code 2.1.328 (`tests/oracle/cases/claude-hooks/`):
//! the paragraphs above as written; hooks of the user's, the project's and
//! the local settings all run; a `resume` matcher adds nothing; a
//! `UserPromptSubmit` hook's matcher is ignored; a hook printing nothing,
//! exiting 2, or printing JSON without `additionalContext` (say only
//! `systemMessage`) adds nothing;
//! `disableAllHooks: true` in `.claude/settings.local.json` alone turns
//! the project's hooks off too; a hook exiting 1 adds nothing (not even
//! its stdout); the order of several `SessionStart` paragraphs changes
//! from run to run.
//! - Other events are listed as not at turn 0.
//! - `disableAllHooks: true` (the file of highest precedence setting it)
//!   turns every hook off: they are still listed, adding nothing, with one
//!   info line.
//!
//! - A `SessionStart` matcher is read as Claude Code 2.1.328 reads it
//!   (observed, `claude-hooks/matchers-regex`): absent, empty or `*`
//!   matches every session; made of letters, digits, `_` and `|` only, it
//!   is a list of exact names split at `|` (`Startup` does not match); any
//!   other pattern is an unanchored regular expression (`start.*`,
//!   `^startup$` match).
//!
//! Choices the spec leaves open:
//! - The regular expression is compiled by Rust's `regex-automata`, not
//!   JavaScript: a pattern it cannot compile (lookaround, backreferences)
//!   or larger than [`limits::MAX_HOOK_MATCHER_REGEX_BYTES`] compiled
//!   matches nothing, as a JavaScript syntax error does in Claude Code.
//! - Hooks of other types (`prompt`, …) run no command and are not listed.

use regex_automata::meta::Regex;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::claude::settings::ClaudeSettings;
use crate::prompt::profile::inventory::Hook;

/// The event whose hooks run when a session starts.
const SESSION_START: &str = "SessionStart";
/// The event whose hooks run when a prompt is submitted.
const USER_PROMPT_SUBMIT: &str = "UserPromptSubmit";

/// Every command hook of `settings`, with the diagnostics about them.
pub(crate) fn hooks(settings: &ClaudeSettings) -> (Vec<Hook>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let disabled = match settings.get("disableAllHooks") {
        Some((file, Value::Bool(true))) => Some(file.path.clone()),
        _ => None,
    };
    let mut found = Vec::new();
    for file in &settings.files {
        let Some(Value::Object(events)) = file.value.get("hooks") else {
            continue;
        };
        for (event, groups) in events {
            for group in groups.as_array().into_iter().flatten() {
                let matcher = group.get("matcher").and_then(Value::as_str);
                let commands = group
                    .get("hooks")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter(|hook| hook.get("type").and_then(Value::as_str) == Some("command"))
                    .filter_map(|hook| hook.get("command").and_then(Value::as_str));
                for command in commands {
                    let would_add = match &disabled {
                        Some(path) => format!("nothing: hooks are off (disableAllHooks in {path})"),
                        None => would_add(event, matcher),
                    };
                    found.push(Hook {
                        event: event.clone(),
                        matcher: matcher.map(str::to_string),
                        command: command.to_string(),
                        path: file.path.clone(),
                        scope: file.scope,
                        run: false,
                        would_add,
                    });
                }
            }
        }
    }
    match &disabled {
        Some(path) if !found.is_empty() => diagnostics.push(Diagnostic::new(
            Severity::Info,
            Some(path.clone()),
            "disableAllHooks is true: Claude Code runs none of the hooks listed",
        )),
        Some(_) => {}
        None => {
            for hook in found
                .iter()
                .filter(|hook| at_turn0(&hook.event, hook.matcher.as_deref()))
            {
                diagnostics.push(Diagnostic::warning(
                    hook.path.clone(),
                    format!(
                        "{} hook `{}`: not run (would add {})",
                        hook.event, hook.command, hook.would_add
                    ),
                ));
            }
        }
    }
    (found, diagnostics)
}

/// Whether a hook of `event` with `matcher` adds to turn 0.
pub(crate) fn at_turn0(event: &str, matcher: Option<&str>) -> bool {
    match event {
        SESSION_START => starts_up(matcher),
        USER_PROMPT_SUBMIT => true,
        _ => false,
    }
}

/// The source of a new session, which `SessionStart` matchers are tested
/// against.
const STARTUP: &str = "startup";

/// Whether a `SessionStart` matcher matches a new session (`startup`).
fn starts_up(matcher: Option<&str>) -> bool {
    match matcher {
        None | Some("" | "*") => true,
        Some(names)
            if names
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|') =>
        {
            names.split('|').any(|name| name == STARTUP)
        }
        Some(pattern) => regex_matches(pattern, STARTUP),
    }
}

/// Whether the unanchored regular expression `pattern` matches `text`;
/// `false` when it does not compile within the limit.
fn regex_matches(pattern: &str, text: &str) -> bool {
    let config = Regex::config().nfa_size_limit(Some(limits::MAX_HOOK_MATCHER_REGEX_BYTES));
    Regex::builder()
        .configure(config)
        .build(pattern)
        .is_ok_and(|regex| regex.is_match(text))
}

/// What a hook of `event` with `matcher` would add, in one sentence.
fn would_add(event: &str, matcher: Option<&str>) -> String {
    match event {
        SESSION_START if starts_up(matcher) => "its output, trailing newlines trimmed, as a \
             paragraph `SessionStart:startup hook success: OUTPUT` (output that is JSON: only \
             its additionalContext, as `SessionStart hook additional context: TEXT`) at the \
             start of Claude Code's system message; nothing if it fails or prints nothing \
             (not run)"
            .to_string(),
        SESSION_START => format!(
            "nothing at turn 0: it runs on {} sessions, not at startup (not run)",
            matcher.unwrap_or_default()
        ),
        USER_PROMPT_SUBMIT => "its output as a paragraph `UserPromptSubmit hook success: \
             OUTPUT` (output that is JSON: only its additionalContext, as \
             `UserPromptSubmit hook additional context: TEXT`) in Claude Code's system message \
             after the skills listing, before the date line; nothing if it fails or prints \
             nothing (not run)"
            .to_string(),
        other => format!("nothing at turn 0: it runs on {other} (not run)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_start_matcher_matches_startup_as_observed() {
        for matcher in [
            None,
            Some(""),
            Some("*"),
            Some("startup"),
            Some("resume|startup"),
            Some("start.*"),
            Some("^startup$"),
            Some("tar."),
        ] {
            assert!(starts_up(matcher), "{matcher:?}");
        }
        for matcher in [
            Some("resume"),
            Some("clear|compact"),
            Some("startups"),
            Some("Startup"),
            Some("tar"),
            Some("startup "),
            Some("(?=startup)"),
            Some("(startup"),
        ] {
            assert!(!starts_up(matcher), "{matcher:?}");
        }
    }

    #[test]
    fn only_session_start_and_user_prompt_submit_reach_turn_0() {
        assert!(at_turn0("SessionStart", None));
        assert!(!at_turn0("SessionStart", Some("resume")));
        assert!(at_turn0("UserPromptSubmit", Some("x")));
        assert!(!at_turn0("PreToolUse", None));
        assert_eq!(
            would_add("PreToolUse", Some("Bash")),
            "nothing at turn 0: it runs on PreToolUse (not run)"
        );
    }
}
