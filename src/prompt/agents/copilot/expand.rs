//! What GitHub Copilot CLI's interactive session sends for `/NAME args`
//! (SPEC §17.7): one user message, Copilot's one-line sentence naming
//! `"/NAME"`, a blank line, then the entry inside `<skill-context>` — its
//! base directory, for a command the file to view, then its body with the
//! arguments substituted. The sentence and the wrappers are Copilot's wire
//! strings, recorded from CLI 1.0.102 (`tests/oracle/cases/copilot/expand*`).
//!
//! Substitution (observed): the body without its frontmatter, final
//! newline kept; `$ARGUMENTS` is the typed string; `$N` and
//! `$ARGUMENTS[N]` are its shell-style words counted from 0, empty past
//! the end; `${1}` stays as written; without any placeholder,
//! `\n\nARGUMENTS: {typed}` is appended.
//!
//! Choices the spec leaves open:
//! - The words are split by the shell-style splitter of Claude Code's
//!   dialect ([`split_arguments`]), which agrees on quotes and spaces.
//! - Nothing is appended for an empty argument string.

use crate::prompt::agents::copilot::skills::{Entry, Kind};
use crate::prompt::command::claude_dialect::{split_arguments, strip_frontmatter};

/// Copilot's sentence before the context block.
pub fn sentence(name: &str) -> String {
    format!("The user explicitly invoked the \"/{name}\" skill. Follow its instructions now.")
}

/// The message for `entry` invoked with the typed argument string `args`.
pub fn message(entry: &Entry, args: &str) -> String {
    let dir = entry
        .absolute
        .parent()
        .map(|dir| dir.display().to_string())
        .unwrap_or_default();
    let related = match entry.kind {
        Kind::Skill => String::new(),
        Kind::Command => format!(
            "Related files (use view tool to read):\n  - {}\n\n",
            entry.absolute.display()
        ),
    };
    format!(
        "{}\n\n<skill-context name=\"{name}\">\nBase directory for this skill: {dir}\n\n{related}{}\n</skill-context>",
        sentence(&entry.name),
        substitute(strip_frontmatter(&entry.text), args),
        name = entry.name,
    )
}

/// `body` with the placeholders of `args` substituted.
pub fn substitute(body: &str, args: &str) -> String {
    let words = split_arguments(args);
    let word = |n: &str| {
        n.parse::<usize>()
            .ok()
            .and_then(|n| words.get(n))
            .cloned()
            .unwrap_or_default()
    };
    let mut out = String::with_capacity(body.len());
    let mut substituted = false;
    let mut rest = body;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let digits = |text: &str| text.bytes().take_while(u8::is_ascii_digit).count();
        if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            let n = tail.strip_prefix('[').map(digits).unwrap_or(0);
            if n > 0 && tail[1 + n..].starts_with(']') {
                out.push_str(&word(&tail[1..=n]));
                rest = &tail[n + 2..];
            } else {
                out.push_str(args);
                rest = tail;
            }
            substituted = true;
        } else if digits(after) > 0 {
            let n = digits(after);
            out.push_str(&word(&after[..n]));
            rest = &after[n..];
            substituted = true;
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    if !substituted && !args.is_empty() {
        out.push_str("\n\nARGUMENTS: ");
        out.push_str(args);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_take_zero_based_shell_words_and_raw_arguments() {
        let body = "All: $ARGUMENTS\nZero: $0 One: $1 Far: $5 Idx: $ARGUMENTS[1] Lit: ${1}\n";
        assert_eq!(
            substitute(body, "prod \"eu west\" x"),
            "All: prod \"eu west\" x\nZero: prod One: eu west Far:  Idx: eu west Lit: ${1}\n"
        );
        assert_eq!(
            substitute("No placeholders here.\n", "a  b"),
            "No placeholders here.\n\n\nARGUMENTS: a  b"
        );
        assert_eq!(substitute("Plain $ sign\n", ""), "Plain $ sign\n");
    }
}
