//! What Claude Code does with a command's text besides sending it: the
//! shell commands it runs and replaces by their output (`` !`cmd` `` and
//! fenced ```` ```! ```` blocks), and the files an `@path` makes it attach
//! (SPEC §14.5). The preview finds both the same way and never runs or
//! reads anything here.
//!
//! Rules (Claude Code 2.1.328; recorded cases `bang-command`,
//! `bang-word-start`, `at-file`, `at-file-forms`):
//! - A fenced block opens with ```` ```! ````, skips the whitespace after
//!   it, and ends at the next ```` ``` ```` (a line break right before it is
//!   not part of the command). Inline, `` !` `` must start the text or
//!   follow whitespace (`` x!`cmd` `` stays text), and the command is one or
//!   more characters up to the next backtick (`` !`` `` stays text).
//! - A mention is `@"PATH"` after the start or whitespace, or a word whose
//!   `@` starts it (or follows `。`, `、`, `？` or `！`), the path running to
//!   the end of the word less its trailing punctuation (`@notes.txt.` is
//!   `notes.txt`; `(@x)` and `x@y` are not mentions). Quoted mentions come
//!   first, then the others in order, each once; a `#fragment` is dropped.
//!
//! Choices the spec leaves open:
//! - Fenced blocks are found before inline commands, so an inline command
//!   inside a fenced block is part of the block.
//! - The placeholder is `[mecatl-prompt did not run: CMD]`; its offset is
//!   the byte offset where it starts in the expansion the preview prints.
//! - Mentions are looked for in the expansion with the shell commands left
//!   out: Claude Code looks in their output, which the preview does not
//!   have.

use serde::Serialize;

use crate::prompt::text::is_js_space;

/// A shell command Claude Code would run, and where the preview's
/// placeholder for it starts in the expansion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShellCommand {
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
    pub commands: Vec<ShellCommand>,
    /// The text with each command replaced by one space.
    pub without_commands: String,
}

/// Finds the shell commands of `text` (see the module docs) and replaces
/// each with its placeholder.
pub fn defuse(text: &str) -> Defused {
    let mut spans = fenced(text);
    let mut gaps = Vec::new();
    let mut at = 0;
    for &(start, end, _) in &spans {
        gaps.push((at, start));
        at = end;
    }
    gaps.push((at, text.len()));
    for (start, end) in gaps {
        spans.extend(inline(text, start, end));
    }
    spans.sort_by_key(|&(start, _, _)| start);
    let mut out = Defused {
        text: String::with_capacity(text.len()),
        commands: Vec::with_capacity(spans.len()),
        without_commands: String::with_capacity(text.len()),
    };
    let mut copied = 0;
    for (start, end, command) in spans {
        out.text.push_str(&text[copied..start]);
        out.without_commands.push_str(&text[copied..start]);
        out.without_commands.push(' ');
        out.commands.push(ShellCommand {
            offset: out.text.len(),
            command: command.clone(),
        });
        out.text.push_str(&placeholder(&command));
        copied = end;
    }
    out.text.push_str(&text[copied..]);
    out.without_commands.push_str(&text[copied..]);
    out
}

/// The fenced blocks: (start, end, command).
fn fenced(text: &str) -> Vec<(usize, usize, String)> {
    const OPEN: &str = "```!";
    const CLOSE: &str = "```";
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(OPEN) {
        let start = from + i;
        let after = start + OPEN.len();
        let body =
            after + (text[after..].len() - text[after..].trim_start_matches(is_js_space).len());
        match text[body..].find(CLOSE) {
            Some(j) => {
                let close = body + j;
                let command = text[body..close]
                    .strip_suffix('\n')
                    .unwrap_or(&text[body..close]);
                found.push((start, close + CLOSE.len(), command.trim().to_string()));
                from = close + CLOSE.len();
            }
            None => from = start + 1,
        }
    }
    found
}

/// The inline commands between `start` and `end`: (start, end, command).
fn inline(text: &str, start: usize, end: usize) -> Vec<(usize, usize, String)> {
    let mut found = Vec::new();
    let mut from = start;
    while let Some(i) = text[from..end].find("!`") {
        let at = from + i;
        let word_start = at == 0 || text[..at].chars().next_back().is_some_and(is_js_space);
        let body = at + 2;
        let close = text[body..end].find('`').map(|j| body + j);
        match close {
            Some(close) if word_start && close > body => {
                found.push((at, close + 1, text[body..close].to_string()));
                from = close + 1;
            }
            _ => from = at + 1,
        }
    }
    found
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
    fn a_fenced_block_wins_over_an_inline_command_inside_it() {
        let defused = defuse("!`a` ```!  \n!`b`\r\n``` after ```! unclosed");
        let commands: Vec<&str> = defused
            .commands
            .iter()
            .map(|c| c.command.as_str())
            .collect();
        assert_eq!(commands, ["a", "!`b`"]);
        assert!(defused.text.ends_with(" after ```! unclosed"));
        assert_eq!(defuse("no commands here").commands, []);
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
