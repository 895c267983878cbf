//! What Claude Code does with a command's text besides sending it: the
//! shell commands it runs and replaces by their output (`` !`cmd` `` and
//! fenced ```` ```! ```` blocks), and the files an `@path` makes it attach
//! (SPEC §14.5). The preview finds both the same way and never runs or
//! reads anything here.
//!
//! The commands are [`claude_dialect::shell_commands`]'s. Mentions follow
//! Claude Code 2.1.328 (recorded cases `at-file`, `at-file-forms`):
//! - A mention is `@"PATH"` after the start or whitespace, or a word whose
//!   `@` starts it (or follows `。`, `、`, `？` or `！`), the path running to
//!   the end of the word less its trailing punctuation (`@notes.txt.` is
//!   `notes.txt`; `(@x)` and `x@y` are not mentions). Quoted mentions come
//!   first, then the others in order, each once; a `#fragment` is dropped.
//!
//! Choices the spec leaves open:
//! - The placeholder is `[mecatl-prompt did not run: CMD]`; its offset is
//!   the byte offset where it starts in the expansion the preview prints.
//! - Mentions are looked for in the expansion with the shell commands left
//!   out: Claude Code looks in their output, which the preview does not
//!   have.

use serde::Serialize;

use crate::prompt::command::claude_dialect;
use crate::prompt::text::is_js_space;

/// A shell command Claude Code would run, and where the preview's
/// placeholder for it starts in the expansion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Placeholder {
    /// The command as written (a fenced block's text, trimmed).
    pub command: String,
    /// The byte offset of its placeholder in the printed expansion.
    pub offset: usize,
}

/// The placeholder the preview prints where Claude Code would put a
/// command's output.
pub fn placeholder(command: &str) -> String {
    format!("[mecatl-prompt did not run: {command}]")
}

/// `text` with every shell command replaced by its [`placeholder`], the
/// commands, and the text with the commands left out (for mentions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defused {
    /// The text as the preview prints it.
    pub text: String,
    /// The commands, in order.
    pub commands: Vec<Placeholder>,
    /// The text with each command replaced by one space.
    pub without_commands: String,
}

/// Finds the shell commands of `text` ([`claude_dialect::shell_commands`])
/// and replaces each with its placeholder.
pub fn defuse(text: &str) -> Defused {
    let found = claude_dialect::shell_commands(text);
    let mut out = Defused {
        text: String::with_capacity(text.len()),
        commands: Vec::with_capacity(found.len()),
        without_commands: String::with_capacity(text.len()),
    };
    let mut copied = 0;
    for shell in found {
        out.text.push_str(&text[copied..shell.offset]);
        out.without_commands.push_str(&text[copied..shell.offset]);
        out.without_commands.push(' ');
        out.commands.push(Placeholder {
            offset: out.text.len(),
            command: shell.command.clone(),
        });
        out.text.push_str(&placeholder(&shell.command));
        copied = shell.offset + shell.len;
    }
    out.text.push_str(&text[copied..]);
    out.without_commands.push_str(&text[copied..]);
    out
}

/// The characters that may stand right before a mention's `@` inside a
/// word (Claude Code's CJK sentence punctuation).
const MENTION_LEADS: [char; 4] = ['\u{3002}', '\u{3001}', '\u{ff1f}', '\u{ff01}'];

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths `text` mentions with `@`, in Claude Code's order, each once,
/// without `#fragment`s (see the module docs).
pub fn mentions(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut push = |path: &str| {
        let path = path.split('#').next().unwrap_or_default();
        if !path.is_empty() && !found.iter().any(|p| p == path) {
            found.push(path.to_string());
        }
    };
    let mut quoted = Vec::new();
    for (at, _) in text.match_indices("@\"") {
        let lead = text[..at].chars().next_back();
        if !lead.is_none_or(|c| is_js_space(c) || MENTION_LEADS.contains(&c)) {
            continue;
        }
        let rest = &text[at + 2..];
        if let Some(close) = rest.find('"')
            && close > 0
            && !rest[..close].ends_with(" (agent)")
        {
            quoted.push(&rest[..close]);
        }
    }
    for path in quoted {
        push(path);
    }
    for word in text.split(is_js_space).filter(|w| !w.is_empty()) {
        if word.starts_with('"') {
            continue;
        }
        let Some(at) = word.char_indices().find_map(|(i, c)| {
            let lead = word[..i].chars().next_back();
            (c == '@' && lead.is_none_or(|l| MENTION_LEADS.contains(&l))).then_some(i)
        }) else {
            continue;
        };
        let path = word[at + 1..].trim_end_matches(|c: char| !is_word_char(c));
        if path.is_empty() || path.starts_with('"') {
            continue;
        }
        push(path);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_commands_become_placeholders_where_claude_code_runs_them() {
        let text = "Glued: x!`echo glued` end.\nSpaced: !`echo spaced` end.\n!`echo line`\n\
                    Empty: !`` end.\n```!\necho fenced\n```\nDone.";
        let defused = defuse(text);
        assert_eq!(
            defused.text,
            "Glued: x!`echo glued` end.\nSpaced: [mecatl-prompt did not run: echo spaced] end.\n\
             [mecatl-prompt did not run: echo line]\nEmpty: !`` end.\n\
             [mecatl-prompt did not run: echo fenced]\nDone."
        );
        let commands: Vec<(&str, &str)> = defused
            .commands
            .iter()
            .map(|c| (c.command.as_str(), &defused.text[c.offset..]))
            .map(|(c, rest)| (c, rest.split(']').next().unwrap_or_default()))
            .collect();
        assert_eq!(
            commands,
            [
                ("echo spaced", "[mecatl-prompt did not run: echo spaced"),
                ("echo line", "[mecatl-prompt did not run: echo line"),
                ("echo fenced", "[mecatl-prompt did not run: echo fenced"),
            ]
        );
        assert!(!defused.without_commands.contains("spaced"));
        assert!(defused.without_commands.contains("glued"));
    }

    #[test]
    fn mentions_follow_claude_codes_word_rules() {
        let text = "See @notes.txt. Also @sub/ and @missing.txt and @\"spaced name.txt\" and \
                    x@glued.txt and (@paren.txt) and @docs/guide.md#intro and @../outside.txt \
                    done. 見て、@cjk.md and @notes.txt again @\"helper (agent)\" @ @#";
        assert_eq!(
            mentions(text),
            [
                "spaced name.txt",
                "notes.txt",
                "sub",
                "missing.txt",
                "docs/guide.md",
                "../outside.txt",
                "cjk.md",
            ]
        );
    }
}
