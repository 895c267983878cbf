//! Lint's checks of Gemini CLI's `.toml` commands (SPEC §16.7), over every
//! `.gemini/commands` directory of the workspace, read as the profile reads
//! them ([`super::commands::load`]):
//! - MP017: Claude Code's syntax in a prompt, which Gemini sends as
//!   written: `$ARGUMENTS`, `$1`…, `` !`cmd` ``, a bare `@path`;
//! - MP018 (error): a file Gemini offers nothing for — invalid TOML (line
//!   and column), no string `prompt`, a file not named `.toml`;
//! - MP023: a command renamed on a clash with a built-in (a clash with a
//!   user's command depends on the user's home, which lint does not read);
//! - MP016 (note): a `!{cmd}` in a prompt, which Gemini runs (asking first)
//!   and the preview never does.
//!
//! Choices the spec leaves open:
//! - A finding's line is the line of the file where the construct is
//!   first written (TOML escapes may move it inside a prompt).
//! - Files whose names start with `.` (`.gitkeep`) are not MP018: Gemini
//!   skips them too unless they end in `.toml`.

use crate::prompt::agents::gemini::commands::{self, CommandDir, Refusal};
use crate::prompt::agents::gemini::expand;
use crate::prompt::agents::gemini::toml_command::TOML_SUFFIX;
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Lint, Out, line_at, quote};
use crate::prompt::profile::Agent;
use crate::prompt::tiers::walk_tree_following_links;
use crate::prompt::walk::Scope;
use crate::workspace::base_name;

/// The command directories' suffix.
const COMMANDS: &str = ".gemini/commands";

/// MP016, MP017, MP018, MP023 over every `.gemini/commands` of the
/// workspace.
pub(super) fn check(lint: &Lint<'_>, out: &mut Out) {
    let gemini = || vec![Agent::Gemini];
    for dir in lint.survey.dirs_ending(COMMANDS) {
        let found = commands::load(&[CommandDir {
            reader: lint.reader,
            rel: dir,
            scope: Scope::Project,
        }]);
        out.diagnostics.extend(
            found
                .diagnostics
                .iter()
                .filter(|d| d.reason.contains("are not read"))
                .cloned(),
        );
        for refused in &found.refused {
            let Refusal::Invalid(invalid) = &refused.why else {
                continue;
            };
            let line = invalid.position().map(|(line, _)| line as u64);
            out.add(
                Code::GeminiCommandInvalid,
                &refused.source,
                line,
                gemini(),
                format!(
                    "{}: Gemini CLI offers no command for this file, and typing its name sends \
                     it as text",
                    invalid.words()
                ),
            );
        }
        for command in &found.commands {
            if let Some(from) = &command.renamed_from {
                out.add(
                    Code::GeminiCommandRenamed,
                    &command.source,
                    None,
                    gemini(),
                    format!(
                        "/{from} is a built-in command of Gemini CLI, so this file is \
                         /{}: typing /{from} runs the built-in",
                        command.name
                    ),
                );
            }
            let Some(text) = lint.read(&command.source, out) else {
                continue;
            };
            for (_, shell) in expand::shell_commands(&command.command.prompt) {
                let line = text.find(&shell).map(|at| line_at(&text, at));
                out.add(
                    Code::ShellInCommand,
                    &command.source,
                    line,
                    gemini(),
                    format!(
                        "runs {} when invoked: Gemini CLI asks first, then sends its output \
                         (`gemini -p` refuses the command and sends nothing); the preview \
                         sends a placeholder",
                        code_span(&quote(&shell))
                    ),
                );
            }
            for (token, why) in claude_syntax(&command.command.prompt) {
                let line = text.find(&token).map(|at| line_at(&text, at));
                out.add(
                    Code::ClaudeSyntaxInGeminiCommand,
                    &command.source,
                    line,
                    gemini(),
                    format!("{} {why}", code_span(&quote(&token))),
                );
            }
        }
        let tree = walk_tree_following_links(lint.reader, dir);
        for file in &tree.files {
            let name = base_name(file);
            if !name.ends_with(TOML_SUFFIX) && !name.starts_with('.') {
                out.add(
                    Code::GeminiCommandInvalid,
                    file,
                    None,
                    gemini(),
                    "not a `.toml` file: Gemini CLI reads only `.toml` commands, so it offers \
                     nothing for this one",
                );
            }
        }
    }
}

/// `text` as a Markdown code span, with double backquotes around a text
/// holding one.
fn code_span(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// Claude Code's syntax in `prompt`, each construct once, with what
/// Gemini does with it.
fn claude_syntax(prompt: &str) -> Vec<(String, &'static str)> {
    let mut found: Vec<(String, &'static str)> = Vec::new();
    let mut push = |token: &str, why: &'static str| {
        if !found.iter().any(|(t, _)| t == token) {
            found.push((token.to_string(), why));
        }
    };
    for (at, _) in prompt.match_indices('$') {
        let rest = &prompt[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if rest.starts_with("ARGUMENTS") {
            push(
                "$ARGUMENTS",
                "is sent as written: Gemini CLI puts the arguments where `{{args}}` is",
            );
        } else if digits > 0 {
            push(
                &prompt[at..at + 1 + digits],
                "is sent as written: Gemini CLI has no positional arguments, only `{{args}}`",
            );
        }
    }
    for (at, _) in prompt.match_indices("!`") {
        if let Some(end) = prompt[at + 2..].find('`') {
            push(
                &prompt[at..at + 3 + end],
                "is sent as written: Gemini CLI runs `!{cmd}`, not Claude Code's `` !`cmd` ``",
            );
        }
    }
    for word in prompt.split(char::is_whitespace) {
        if let Some(path) = word.strip_prefix('@')
            && path
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '~'))
        {
            push(
                word,
                "is sent as written: Gemini CLI injects a file only as `@{path}`",
            );
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_constructs_are_found_once_each() {
        let found = claude_syntax(
            "Do $ARGUMENTS then $1 and $12, $1 again, !`ls -la`, @src/x.rs, @{ok} a@b {{args}}",
        );
        let tokens: Vec<&str> = found.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            tokens,
            ["$ARGUMENTS", "$1", "$12", "!`ls -la`", "@src/x.rs,"]
        );
        assert!(claude_syntax("Gemini {{args}} !{ls} @{f}").is_empty());
    }
}
