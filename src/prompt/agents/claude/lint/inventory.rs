//! The rest of Claude Code's turn 0 as `lint` judges it (SPEC §19.7), read
//! with the profile's own readers and never run:
//! - MP025: a `.claude/agents` file Claude Code skips (no `name` or
//!   `description`, unreadable, too large) or reads leniently (its block is
//!   not valid YAML);
//! - MP026: an `outputStyle` in a project settings file that names no style
//!   of Claude Code's own nor of the `.claude/output-styles` beside it;
//! - MP028 (note): every command hook of a project settings file that runs
//!   at the start of a session or when a prompt is sent, naming its command.
//!
//! Choices the spec leaves open:
//! - Every directory of the workspace is some start directory: each one's
//!   `.claude/settings.json` and `.claude/settings.local.json` are judged
//!   on their own, as a session started there would read them. The user's
//!   settings and styles are not read (lint reads project files only), so
//!   MP026's message says a style of the user's would also do.
//! - `disableAllHooks: true` in the same directory's settings silences
//!   MP028 there, as it silences the hooks.
//! - A finding's line is the first line of the file where the key or the
//!   hook's command is written as JSON escapes it (a Windows path's `\`
//!   is `\\` in the file).

use serde_json::Value;

use crate::prompt::agents::claude::hooks::{at_turn0, hooks};
use crate::prompt::agents::claude::names::DOT_CLAUDE;
use crate::prompt::agents::claude::output_style::{StyleDirs, output_style};
use crate::prompt::agents::claude::settings::{
    ClaudeSettings, SETTINGS_JSON, SETTINGS_LOCAL_JSON, read_settings,
};
use crate::prompt::agents::claude::subagents::{AGENTS_DIR, read_one};
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Lint, Out, line_at};
use crate::prompt::profile::Agent;
use crate::prompt::profile::subagent::SubagentFate;
use crate::prompt::tiers::walk_tree;
use crate::prompt::walk::Scope;
use crate::workspace::join;

/// MP025, MP026 and MP028 over the workspace.
pub(super) fn check(lint: &Lint<'_>, out: &mut Out) {
    subagent_files(lint, out);
    for dir in lint.survey.dirs() {
        let claude = join(dir, DOT_CLAUDE);
        let has_settings = [SETTINGS_JSON, SETTINGS_LOCAL_JSON]
            .iter()
            .any(|name| lint.survey.has_file(&join(&claude, name)));
        if has_settings {
            let settings = read_settings(lint.reader, dir, None, true);
            style(lint, dir, &settings, out);
            turn_zero_hooks(lint, &settings, out);
        }
    }
}

/// The first line of the JSON file `path` holding the string `needle` as
/// JSON writes it (escapes and all), else as it reads, if any.
fn line_of(lint: &Lint<'_>, path: &str, needle: &str, out: &mut Out) -> Option<u64> {
    let text = lint.read(path, out)?;
    let escaped = serde_json::to_string(needle).ok()?;
    let escaped = &escaped[1..escaped.len() - 1];
    text.find(escaped)
        .or_else(|| text.find(needle))
        .map(|at| line_at(&text, at))
}

/// MP025 for every `.claude/agents` file Claude Code skips or reads
/// leniently.
fn subagent_files(lint: &Lint<'_>, out: &mut Out) {
    let suffix = join(DOT_CLAUDE, AGENTS_DIR);
    for dir in lint.survey.dirs_ending(&suffix) {
        for file in walk_tree(lint.reader, dir, false).files {
            if !file.ends_with(".md") {
                continue;
            }
            let mut said = Vec::new();
            let shown = lint.reader.display(&file);
            let agent = read_one(lint.reader, &file, shown, Scope::Project, &mut said);
            let skipped = agent.fate == SubagentFate::Skipped;
            for diagnostic in said {
                let effect = if skipped {
                    "Claude Code does not list it"
                } else {
                    "Claude Code lists it as read that way"
                };
                out.add(
                    Code::SubagentSkipped,
                    &file,
                    Some(1),
                    vec![Agent::Claude],
                    format!("{}: {effect}", diagnostic.reason),
                );
            }
        }
    }
}

/// MP026 when the settings of the start directory `dir` name an output
/// style that is nowhere.
fn style(lint: &Lint<'_>, dir: &str, settings: &ClaudeSettings, out: &mut Out) {
    let dirs = StyleDirs {
        project: lint.reader,
        at: dir,
        user: None,
        trusted: true,
    };
    let styled = output_style(settings, &dirs);
    let unknown = styled.style.is_none()
        && styled
            .diagnostics
            .iter()
            .any(|d| d.reason.contains("names no output style"));
    let Some((file, Value::String(name))) = settings.get("outputStyle") else {
        return;
    };
    if unknown {
        let line = line_of(lint, &file.path, "outputStyle", out);
        out.add(
            Code::UnknownOutputStyle,
            &file.path,
            line,
            vec![Agent::Claude],
            format!(
                "`outputStyle: {name}` names no output style of Claude Code's own nor of \
                 {}/output-styles (a style of the user's would do, which lint does not read): \
                 Claude Code adds nothing, silently",
                join(dir, DOT_CLAUDE)
            ),
        );
    }
}

/// MP028 for every command hook of `settings` that runs at turn 0.
fn turn_zero_hooks(lint: &Lint<'_>, settings: &ClaudeSettings, out: &mut Out) {
    if matches!(
        settings.get("disableAllHooks"),
        Some((_, Value::Bool(true)))
    ) {
        return;
    }
    let (found, _) = hooks(settings);
    for hook in found
        .iter()
        .filter(|hook| at_turn0(&hook.event, hook.matcher.as_deref()))
    {
        let line = line_of(lint, &hook.path, &hook.command, out);
        out.add(
            Code::TurnZeroHook,
            &hook.path,
            line,
            vec![Agent::Claude],
            format!(
                "{} hook `{}` runs before the model answers: Claude Code adds {}",
                hook.event, hook.command, hook.would_add
            ),
        );
    }
}
