//! What opencode 1.18.33 makes of a command's template and the arguments
//! typed after its name (SPEC §18.3; recorded cases in
//! `tests/oracle/cases/opencode-commands/`):
//! - The arguments are the words of opencode's pattern: `[Image N]`, a
//!   `"…"` or `'…'` group (its quotes dropped), or a run of characters
//!   that are neither JavaScript whitespace nor quotes; a lone quote is
//!   dropped.
//! - `$N` (digits) is replaced by the N-th argument, 1-based; an index past
//!   the end by nothing; the highest-numbered placeholder of the template
//!   by its argument and every later one, joined by one space. `$0` is
//!   JavaScript's `args[-1]`, the text `undefined`, unless it is the
//!   highest placeholder, which takes `args.slice(-1)`: the last argument
//!   (recorded: `zero`, `only-zero`).
//! - Then every `$ARGUMENTS` is replaced by the raw arguments, through
//!   JavaScript's `replaceAll` with a string (so `$$` in the arguments
//!   becomes `$`); `${1}` is no placeholder.
//! - A template without any placeholder gets `\n\n` and the raw arguments
//!   appended when they are not blank.
//! - `` !`cmd` `` is run by opencode and replaced by its output; the
//!   preview never runs it and writes §14.5's placeholder instead.
//! - `@path` stays in the text; opencode attaches the file (its read
//!   output as extra parts), which the preview lists.
//!
//! Choices the spec leaves open:
//! - The raw arguments are the input after the name with its leading
//!   whitespace and trailing line breaks removed (opencode's TUI keeps
//!   what follows the first space).
//! - Mentions are found with opencode's pattern (an `@` not after a word
//!   character or a backtick, then a path of non-space characters without
//!   `,` and backticks whose dots each start a segment).

use crate::prompt::command::claude_catalog::{Placeholder, placeholder};
use crate::prompt::text::{is_js_space, js_replace_all};

/// The placeholder of the raw arguments.
pub const ARGUMENTS: &str = "$ARGUMENTS";

/// A template expanded with its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expanded {
    /// The text opencode sends, with a placeholder for each shell command.
    pub text: String,
    /// The shell commands opencode would run (never run here).
    pub shell: Vec<Placeholder>,
    /// The paths the text mentions with `@`, each once, in order.
    pub attachments: Vec<String>,
}

/// The arguments of `raw` as opencode splits them.
pub fn split_args(raw: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut rest = raw;
    while let Some(c) = rest.chars().next() {
        if let Some(len) = image_len(rest) {
            args.push(rest[..len].to_string());
            rest = &rest[len..];
        } else if c == '"' || c == '\'' {
            match rest[1..].find(c) {
                Some(close) => {
                    args.push(rest[1..1 + close].to_string());
                    rest = &rest[close + 2..];
                }
                None => rest = &rest[1..],
            }
        } else if is_js_space(c) {
            rest = &rest[c.len_utf8()..];
        } else {
            let len = rest
                .find(|c: char| is_js_space(c) || c == '"' || c == '\'')
                .unwrap_or(rest.len());
            args.push(rest[..len].to_string());
            rest = &rest[len..];
        }
    }
    args
}

/// The length of a `[Image N]` word at the start of `text`, any case.
fn image_len(text: &str) -> Option<usize> {
    let head = text.get(..6)?;
    if !head.eq_ignore_ascii_case("[image") {
        return None;
    }
    let after = &text[6..];
    let spaces = after.len() - after.trim_start_matches(is_js_space).len();
    if spaces == 0 {
        return None;
    }
    let digits_at = &after[spaces..];
    let digits = digits_at.len()
        - digits_at
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    (digits > 0 && digits_at[digits..].starts_with(']')).then_some(6 + spaces + digits + 1)
}

/// Every `$N` of `template`: where it starts, how long it is, its number
/// (saturated: a number too large for `usize` is past any argument).
fn placeholders(template: &str) -> Vec<(usize, usize, usize)> {
    let bytes = template.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits > 0 {
                let number = template[i + 1..i + 1 + digits]
                    .parse::<usize>()
                    .unwrap_or(usize::MAX);
                found.push((i, digits + 1, number));
                i += digits + 1;
                continue;
            }
        }
        i += 1;
    }
    found
}

/// `template` with `raw` as its arguments, as opencode sends it (see the
/// module docs); shell commands are not run.
pub fn expand(template: &str, raw: &str) -> Expanded {
    let args = split_args(raw);
    let found = placeholders(template);
    let last = found.iter().map(|&(_, _, n)| n).max();
    let mut text = String::with_capacity(template.len() + raw.len());
    let mut copied = 0;
    for &(at, len, number) in &found {
        text.push_str(&template[copied..at]);
        let value = match number {
            0 if last == Some(0) => args.last().cloned().unwrap_or_default(),
            0 => "undefined".to_string(),
            n if n > args.len() => String::new(),
            n if Some(n) == last => args[n - 1..].join(" "),
            n => args[n - 1].clone(),
        };
        text.push_str(&value);
        copied = at + len;
    }
    text.push_str(&template[copied..]);
    let uses_arguments = template.contains(ARGUMENTS);
    let mut text = js_replace_all(&text, ARGUMENTS, raw);
    if found.is_empty() && !uses_arguments && !raw.trim_matches(is_js_space).is_empty() {
        text.push_str("\n\n");
        text.push_str(raw);
    }
    let (text, shell) = defuse(&text);
    let attachments = mentions(&text);
    Expanded {
        text,
        shell,
        attachments,
    }
}

/// `text` with each `` !`cmd` `` replaced by the placeholder of §14.5, and
/// the commands.
fn defuse(text: &str) -> (String, Vec<Placeholder>) {
    let mut out = String::with_capacity(text.len());
    let mut shell = Vec::new();
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = text[from..].find("!`") {
        let open = from + found;
        let body = open + 2;
        match text[body..].find('`') {
            Some(0) => from = body,
            Some(close) => {
                let command = &text[body..body + close];
                out.push_str(&text[copied..open]);
                shell.push(Placeholder {
                    command: command.to_string(),
                    offset: out.len(),
                });
                out.push_str(&placeholder(command));
                copied = body + close + 1;
                from = copied;
            }
            None => break,
        }
    }
    out.push_str(&text[copied..]);
    (out, shell)
}

/// True for a character that cannot be in a mention's path.
fn ends_mention(c: char) -> bool {
    is_js_space(c) || c == '`' || c == ','
}

/// The paths `text` mentions with `@`, each once, in order.
pub(super) fn mentions(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (at, _) in text.match_indices('@') {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '`') {
            continue;
        }
        let rest = &text[at + 1..];
        let mut len = usize::from(rest.starts_with('.'));
        loop {
            let segment = rest[len..]
                .find(|c: char| ends_mention(c) || c == '.')
                .unwrap_or(rest.len() - len);
            len += segment;
            let after_dot = &rest[len..];
            let next = after_dot.strip_prefix('.').map(|tail| {
                tail.find(|c: char| ends_mention(c) || c == '.')
                    .unwrap_or(tail.len())
            });
            match next {
                Some(more) if more > 0 => len += 1,
                _ => break,
            }
        }
        let path = &rest[..len];
        if !path.is_empty() && !found.iter().any(|p| p == path) {
            found.push(path.to_string());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(template: &str, raw: &str) -> String {
        expand(template, raw).text
    }

    #[test]
    fn arguments_group_on_quotes() {
        assert_eq!(split_args("a \"b c\" 'd e' f"), ["a", "b c", "d e", "f"]);
        assert_eq!(split_args("x\"y z\""), ["x", "y z"]);
        assert_eq!(split_args("\"open a"), ["open", "a"]);
        assert_eq!(split_args("[Image 1] x"), ["[Image 1]", "x"]);
        assert!(split_args(" \t ").is_empty());
    }

    #[test]
    fn the_highest_placeholder_takes_the_rest() {
        assert_eq!(text("$1 $3", "a b c d"), "a c d");
        assert_eq!(text("$1 $2", "a"), "a ");
        assert_eq!(text("$2 $1 $2", "a b c"), "b c a b c");
    }

    #[test]
    fn zero_is_undefined_unless_it_is_the_highest() {
        assert_eq!(text("zero=$0 one=$1", "x y"), "zero=undefined one=x y");
        assert_eq!(text("only $0 here", "x y"), "only y here");
        assert_eq!(text("only $0 here", ""), "only  here");
    }

    #[test]
    fn arguments_is_raw_and_braces_stay() {
        assert_eq!(
            text("[$ARGUMENTS] ${1} $2", "\"a b\" c $$x"),
            "[\"a b\" c $x] ${1} c $$x"
        );
    }

    #[test]
    fn no_placeholder_appends_the_arguments() {
        assert_eq!(text("plain", "x y"), "plain\n\nx y");
        assert_eq!(text("plain", "  "), "plain");
    }

    #[test]
    fn shell_commands_are_never_run() {
        let out = expand("a !`touch m` b !`` c", "");
        assert_eq!(out.text, "a [mecatl-prompt did not run: touch m] b !`` c");
        assert_eq!(out.shell[0].command, "touch m");
        assert_eq!(out.shell[0].offset, 2);
    }

    #[test]
    fn mentions_follow_opencodes_pattern() {
        assert_eq!(
            mentions("see @notes.md, @src/a.rs. x@y `@z` @.env @a"),
            ["notes.md", "src/a.rs", ".env", "a"]
        );
    }
}
