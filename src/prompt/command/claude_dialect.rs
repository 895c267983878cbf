//! Claude Code's command dialect (SPEC §14.5): how a command or skill file
//! and the typed arguments become the text the model sees, as observed
//! from Claude Code 2.1.328 (`tests/oracle/cases/claude-commands/`).
//!
//! [`render`] removes the frontmatter, puts a skill's base-directory line in
//! front, and substitutes in one pass from left to right, so substituted
//! text is never scanned again:
//!
//! - `${CLAUDE_SKILL_DIR}` (skills only) and `${CLAUDE_PROJECT_DIR}` become
//!   those directories;
//! - `\$` before a placeholder gives the placeholder literally, without the
//!   backslash (`\\$0` is a backslash then argument 0: a backslash before
//!   the backslash turns the escape off);
//! - `$NAME` for a name of the frontmatter's `arguments:` (not followed by a
//!   word character or `[`) becomes the argument at that position, or
//!   nothing past the end;
//! - `$ARGUMENTS[N]` and `$N` (a whole digit run not followed by a word
//!   character) become argument N counting from 0, and stay as written past
//!   the end;
//! - `$ARGUMENTS` becomes the typed argument string, trimmed;
//! - when nothing was substituted (placeholders left as written do not
//!   count) and the argument string is not empty, `\n\nARGUMENTS: <string>`
//!   is appended.
//!
//! Every substituted value has a `!` that starts a word escaped as `\!` and
//! `` `! `` / `` !` `` spaced apart, so an argument cannot add a
//! `` !`command` `` for Claude Code to run; U+FFFE and U+FFFF become U+FFFD.
//!
//! Choices the spec leaves open, made here:
//!
//! - **Output bound.** Claude Code refuses an expansion over 4,000,000
//!   characters; the preview cuts at the same bound and with the same marker
//!   as the engine's [`super::render`], so a preview always shows something.
//! - **`${CLAUDE_SESSION_ID}` and `${CLAUDE_EFFORT}`** are left as written:
//!   they name one session's values, which a preview does not have.
//! - **Argument names containing `$`** are matched where they start, left to
//!   right; Claude Code's one-name-at-a-time replacement could differ only
//!   when such a name overlaps another's match.

mod split;

use std::borrow::Cow;

pub use split::split_arguments;

use super::Rendered;
use super::substitute::{Capped, TEMPLATE_OUTPUT_BOUND};
use crate::limits;
use crate::prompt::text::is_js_space;
use crate::prompt::yaml::{MappingEntry, YamlError, parse_mapping, parse_yaml};

/// The line (and blank line) Claude Code puts before a skill's body.
pub fn skill_prefix(skill_dir: &str) -> String {
    format!("Base directory for this skill: {skill_dir}\n\n")
}

/// What an expansion needs besides the file and the typed arguments.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The skill's absolute directory, for a skill; `None` for a command.
    /// It gives the base-directory line and `${CLAUDE_SKILL_DIR}`.
    pub skill_dir: Option<&'a str>,
    /// The directory Claude Code starts in (`${CLAUDE_PROJECT_DIR}`: the
    /// cwd, not the git root, was observed); left as written when `None`.
    pub project_dir: Option<&'a str>,
    /// The names of the frontmatter's `arguments:` key, as
    /// [`argument_names`] keeps them.
    pub argument_names: &'a [String],
}

/// The argument names Claude Code takes from an `arguments:` key: the
/// strings of a list, or the whitespace-separated words of a string (the
/// caller splits it), less blank ones and ones made only of digits. A
/// name's position in the result is the argument it stands for. [`render`]
/// then uses the first [`limits::CLAUDE_MAX_ARGUMENT_NAMES`] of those at
/// most [`limits::CLAUDE_MAX_ARGUMENT_NAME_UNITS`] UTF-16 code units long,
/// each keeping its position.
pub fn argument_names<'a>(words: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    words
        .into_iter()
        .filter(|w| !w.trim_matches(is_js_space).is_empty())
        .filter(|w| !w.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// The body of a command or skill file as Claude Code sends it: without a
/// leading BOM and frontmatter block, and without the whitespace that
/// follows the block (blank lines and the first line's indentation).
///
/// A block opens with `---` at the very start (after a BOM), then
/// whitespace up to and including a line break, and ends at the next
/// `---`, wherever it stands. Without a block the file is unchanged, BOM
/// included.
pub fn strip_frontmatter(raw: &str) -> &str {
    frontmatter_end(raw).map_or(raw, |end| &raw[end..])
}

/// A file's frontmatter text (between the fences, as [`strip_frontmatter`]
/// finds them) and its body; `None` and the whole file without a block.
pub fn split_frontmatter(raw: &str) -> (Option<&str>, &str) {
    match frontmatter_bounds(raw) {
        Some((content, close, end)) => (Some(&raw[content..close]), &raw[end..]),
        None => (None, raw),
    }
}

/// Where the text of `raw`'s frontmatter block lies, when it has one (the
/// block [`split_frontmatter`] gives).
pub fn frontmatter_block(raw: &str) -> Option<std::ops::Range<usize>> {
    frontmatter_bounds(raw).map(|(content, close, _)| content..close)
}

/// [`frontmatter_block`] and where the body starts, found at once.
pub fn frontmatter_block_and_body(raw: &str) -> Option<(std::ops::Range<usize>, usize)> {
    frontmatter_bounds(raw).map(|(content, close, end)| (content..close, end))
}

/// The byte offset where the body starts, when `raw` has a block.
fn frontmatter_end(raw: &str) -> Option<usize> {
    frontmatter_bounds(raw).map(|(_, _, end)| end)
}

/// Where the block's text starts, where its closing `---` starts, and where
/// the body starts.
fn frontmatter_bounds(raw: &str) -> Option<(usize, usize, usize)> {
    let bom = if raw.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let after_open = raw[bom..].strip_prefix("---")?;
    let content = bom + 3 + leading_space(after_open).rfind('\n')? + 1;
    let close = content + first_dashes(&raw[content..])?;
    let end = close + 3;
    Some((content, close, end + leading_space(&raw[end..]).len()))
}

/// The second reading Claude Code gives frontmatter that is not valid YAML:
/// each `key: value` line (a key of ASCII letters, `_` and `-`) whose value
/// is not quoted, not a valid flow list (`is_flow_list` decides) and holds
/// one of ``{}[]*&#!|>%@` `` or `": "` gets its value double-quoted (`\` and
/// `"` escaped), and leading tabs become two spaces each. When that parses,
/// its keys are used (`argument-hint: [a] [b]` is the string `[a] [b]`);
/// when it does not, Claude Code ignores the whole block.
pub fn requote_frontmatter(yaml: &str, is_flow_list: impl Fn(&str) -> bool) -> String {
    let lines: Vec<String> = yaml
        .split('\n')
        .map(|line| requote_line(line, &is_flow_list).unwrap_or_else(|| line.to_string()))
        .map(|line| {
            let tabs = line.len() - line.trim_start_matches('\t').len();
            format!("{}{}", "  ".repeat(tabs), &line[tabs..])
        })
        .collect();
    lines.join("\n")
}

/// How Claude Code read a file's frontmatter block (see [`read_frontmatter`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// The file has no block.
    NoBlock,
    /// The block is valid YAML.
    Yaml,
    /// The block is not valid YAML (the error, located in the file); the
    /// second reading of [`requote_frontmatter`] parsed and gave the keys.
    Requoted(YamlError),
    /// Neither reading parsed (the first error, located in the file):
    /// Claude Code ignores every key, yet still removes the block.
    Ignored(YamlError),
}

/// A command, skill or instruction file's frontmatter as Claude Code reads
/// it (observed in `invalid-yaml-frontmatter`, `invalid-yaml-unrecoverable`).
#[derive(Debug, Clone, PartialEq)]
pub struct Frontmatter {
    /// How the block was read.
    pub reading: Reading,
    /// The keys Claude Code uses, in order, each with the line of its key
    /// in the file (1-based); empty when the block was ignored.
    pub entries: Vec<MappingEntry>,
    /// The file's line on which the block's YAML starts (1-based).
    pub first_line: u64,
}

impl Frontmatter {
    /// The entry of `key`, when Claude Code reads one.
    pub fn get(&self, key: &str) -> Option<&MappingEntry> {
        self.entries.iter().find(|entry| entry.key == key)
    }

    /// The argument names of the `arguments:` key ([`argument_names`] of
    /// a list's strings, or of a string's whitespace-separated words).
    pub fn argument_names(&self) -> Vec<String> {
        match self.get("arguments").map(|entry| &entry.value) {
            Some(serde_json::Value::Array(items)) => {
                argument_names(items.iter().filter_map(serde_json::Value::as_str))
            }
            Some(serde_json::Value::String(words)) => argument_names(words.split_whitespace()),
            _ => Vec::new(),
        }
    }
}

/// Reads a file's frontmatter as Claude Code does: the block
/// [`split_frontmatter`] finds, as YAML, else as YAML after
/// [`requote_frontmatter`], else no keys at all. Lines (of errors and of
/// keys) are the file's.
pub fn read_frontmatter(raw: &str) -> Frontmatter {
    read_frontmatter_block(raw, frontmatter_block(raw))
}

/// [`read_frontmatter`] of `raw` whose block is already known to be at
/// `block` ([`frontmatter_block`]), or known to be absent.
pub fn read_frontmatter_block(raw: &str, block: Option<std::ops::Range<usize>>) -> Frontmatter {
    let Some(block) = block else {
        return Frontmatter {
            reading: Reading::NoBlock,
            entries: Vec::new(),
            first_line: 1,
        };
    };
    let content = block.start;
    let yaml = &raw[block];
    let before = raw[..content].bytes().filter(|b| *b == b'\n').count() as u64;
    let in_file = |mut err: YamlError| {
        err.line += before;
        err
    };
    let in_file_entries = |mut entries: Vec<MappingEntry>| {
        for entry in &mut entries {
            entry.line += before;
        }
        entries
    };
    let (reading, entries) = match parse_mapping(yaml) {
        Ok(entries) => (Reading::Yaml, in_file_entries(entries)),
        Err(first) => {
            let is_flow_list = |v: &str| {
                matches!(
                    parse_yaml::<serde_json::Value>(v),
                    Ok(Some(serde_json::Value::Array(_)))
                )
            };
            match parse_mapping(&requote_frontmatter(yaml, is_flow_list)) {
                Ok(entries) => (Reading::Requoted(in_file(first)), in_file_entries(entries)),
                Err(_) => (Reading::Ignored(in_file(first)), Vec::new()),
            }
        }
    };
    Frontmatter {
        reading,
        entries,
        first_line: before + 1,
    }
}

fn requote_line(line: &str, is_flow_list: &impl Fn(&str) -> bool) -> Option<String> {
    let (key, rest) = line.split_once(':')?;
    let value = rest.trim_start_matches(is_js_space);
    let matches = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
        && value.len() < rest.len()
        && !value.is_empty()
        && !value.contains(['\r', '\u{2028}', '\u{2029}']);
    if !matches {
        return None;
    }
    let quoted = |q: char| value.len() >= 2 && value.starts_with(q) && value.ends_with(q);
    let flow_list = value.starts_with('[') && value.ends_with(']') && is_flow_list(value);
    let special = value.contains([
        '{', '}', '[', ']', '*', '&', '#', '!', '|', '>', '%', '@', '`',
    ]) || value.contains(": ");
    (special && !quoted('"') && !quoted('\'') && !flow_list).then(|| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        format!("{key}: \"{escaped}\"")
    })
}

/// Where the first `---` in `text` starts (what `text.find("---")` says,
/// found by looking only at each `-`).
fn first_dashes(text: &str) -> Option<usize> {
    let mut from = 0;
    loop {
        let at = from + text[from..].find('-')?;
        if text.as_bytes()[at..].starts_with(b"---") {
            return Some(at);
        }
        from = at + 1;
    }
}

fn leading_space(text: &str) -> &str {
    &text[..text.len() - text.trim_start_matches(is_js_space).len()]
}

/// JavaScript's `\w`.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

const SKILL_DIR_VAR: &str = "${CLAUDE_SKILL_DIR}";
const PROJECT_DIR_VAR: &str = "${CLAUDE_PROJECT_DIR}";

/// Renders a command or skill file with the typed argument string the way
/// Claude Code does (see the module docs), bounded like the engine's
/// [`super::render`].
pub fn render(raw: &str, args: &str, context: &Context<'_>) -> Rendered {
    let body = strip_frontmatter(raw);
    let template: Cow<'_, str> = match context.skill_dir {
        Some(dir) => Cow::Owned(skill_prefix(dir) + body),
        None => Cow::Borrowed(body),
    };
    let args = args.trim_matches(is_js_space);
    let mut render = Render {
        context,
        args,
        positional: split_arguments(args),
        names: usable_names(context.argument_names),
        out: Capped::new(TEMPLATE_OUTPUT_BOUND, template.len()),
        substituted: false,
        probe: false,
    };
    render.template(&template);
    if !render.substituted && !args.is_empty() {
        render.out.push("\n\nARGUMENTS: ");
        render.value(args);
    }
    render.out.into_rendered()
}

/// True when the body of `raw` has a placeholder that takes an argument
/// (`$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` or a name of `argument_names`), as
/// [`render`] finds them; false when Claude Code would append
/// `ARGUMENTS: …` to any non-empty argument string, whatever its length
/// (a `$N` counts even when few arguments are given).
pub fn uses_arguments(raw: &str, argument_names: &[String]) -> bool {
    let body = strip_frontmatter(raw);
    let context = Context {
        argument_names,
        ..Context::default()
    };
    let mut probe = Render {
        context: &context,
        args: "",
        positional: Vec::new(),
        names: usable_names(argument_names),
        out: Capped::new(TEMPLATE_OUTPUT_BOUND, body.len()),
        substituted: false,
        probe: true,
    };
    probe.template(body);
    probe.substituted
}

/// A shell command Claude Code runs when it expands a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellCommand {
    /// Byte offset in the body of the `!` (inline) or of the opening fence.
    pub offset: usize,
    /// The marker's length in bytes, from `offset` to after its closing
    /// backquote(s): what Claude Code replaces with the output.
    pub len: usize,
    /// The command as written (a fenced block's text without the
    /// whitespace around it).
    pub command: String,
}

/// The shell commands Claude Code runs when it expands `body` and replaces
/// with their output, in order (Claude Code 2.1.328's patterns, read from
/// its bundle; recorded in `bang-command` and `bang-word-start`):
/// - a fenced block: ```` ```! ````, the whitespace after it, then
///   everything up to the next ```` ``` ```` (a line break right before it
///   is not part of the command);
/// - inline: `` !` `` at the start of the body or after whitespace, one or
///   more characters that are not a backquote (line breaks included), and a
///   backquote; `` x!`cmd` `` and `` !`` `` are text.
///
/// Fenced blocks are found first, so an inline command inside one is part
/// of the block.
pub fn shell_commands(body: &str) -> Vec<ShellCommand> {
    const OPEN: &str = "```!";
    const CLOSE: &str = "```";
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = body[from..].find(OPEN) {
        let start = from + at;
        let text = start + OPEN.len() + leading_space(&body[start + OPEN.len()..]).len();
        let Some(close) = body[text..].find(CLOSE).map(|i| text + i) else {
            from = start + 1;
            continue;
        };
        let command = body[text..close]
            .strip_suffix('\n')
            .unwrap_or(&body[text..close]);
        found.push(ShellCommand {
            offset: start,
            len: close + CLOSE.len() - start,
            command: command.trim_matches(is_js_space).to_string(),
        });
        from = close + CLOSE.len();
    }
    let gaps: Vec<(usize, usize)> = std::iter::once(0)
        .chain(found.iter().map(|c| c.offset + c.len))
        .zip(found.iter().map(|c| c.offset).chain([body.len()]))
        .collect();
    for (start, end) in gaps {
        let mut from = start;
        while let Some(at) = body[from..end].find("!`") {
            let bang = from + at;
            from = bang + 1;
            let word_start = bang == 0 || body[..bang].chars().next_back().is_some_and(is_js_space);
            let text = bang + 2;
            match body[text..end].find('`').map(|i| text + i) {
                Some(close) if word_start && close > text => {
                    found.push(ShellCommand {
                        offset: bang,
                        len: close + 1 - bang,
                        command: body[text..close].to_string(),
                    });
                    from = close + 1;
                }
                _ => {}
            }
        }
    }
    found.sort_by_key(|c| c.offset);
    found
}

/// The names [`render`] uses, with their argument positions, longest first
/// (a longer name wins where two could match), ties in declared order.
fn usable_names(names: &[String]) -> Vec<(usize, &str)> {
    let mut usable: Vec<(usize, &str)> = names
        .iter()
        .map(String::as_str)
        .enumerate()
        .filter(|(_, name)| name.encode_utf16().count() <= limits::CLAUDE_MAX_ARGUMENT_NAME_UNITS)
        .take(limits::CLAUDE_MAX_ARGUMENT_NAMES)
        .collect();
    usable.sort_by_key(|(_, name)| std::cmp::Reverse(name.encode_utf16().count()));
    usable
}

struct Render<'c, 'a> {
    context: &'c Context<'a>,
    args: &'c str,
    positional: Vec<String>,
    names: Vec<(usize, &'a str)>,
    out: Capped,
    substituted: bool,
    /// Probing ([`uses_arguments`]): every argument index counts as given.
    probe: bool,
}

/// What a `$` at some position starts.
enum Placeholder<'a> {
    /// A directory variable's value.
    Variable(&'a str),
    /// A named argument, by position; past the end it gives nothing.
    Named(usize),
    /// `$ARGUMENTS[N]` or `$N`: argument N, or the text as written when
    /// there is none (`None`: too large for any position).
    Index(Option<usize>),
    /// `$ARGUMENTS`.
    All,
}

impl<'a> Render<'_, 'a> {
    fn template(&mut self, template: &str) {
        let bytes = template.as_bytes();
        let mut literal = 0;
        let mut at = 0;
        while let Some(found) = template[at..].find(['$', '\\', '\u{fffe}', '\u{ffff}']) {
            let start = at + found;
            self.literal(&template[literal..start]);
            let rest = &template[start..];
            at = if let Some(after_dollar) = rest.strip_prefix('$') {
                start + 1 + self.dollar(after_dollar)
            } else if let Some(after_dollar) = rest.strip_prefix("\\$") {
                let escapes = (start == 0 || bytes[start - 1] != b'\\')
                    && self.variable(after_dollar).is_none()
                    && self.escapable(after_dollar);
                self.out.push(if escapes { "$" } else { "\\" });
                start + if escapes { 2 } else { 1 }
            } else if rest.starts_with('\\') {
                self.out.push("\\");
                start + 1
            } else {
                // U+FFFE or U+FFFF, three bytes each.
                self.out.push("\u{fffd}");
                start + 3
            };
            literal = at;
            if self.out.overflowed {
                return;
            }
        }
        self.literal(&template[literal..]);
    }

    /// Handles the text after a `$`; returns how much of it was used.
    fn dollar(&mut self, after: &str) -> usize {
        let Some((placeholder, len)) = self.placeholder(after) else {
            self.out.push("$");
            return 0;
        };
        match placeholder {
            Placeholder::Variable(value) => self.literal(value),
            Placeholder::Named(index) => {
                self.substituted = true;
                let value = self.positional.get(index).cloned().unwrap_or_default();
                self.value(&value);
            }
            Placeholder::Index(Some(_)) if self.probe => self.substituted = true,
            Placeholder::Index(index) => match index.and_then(|i| self.positional.get(i)) {
                Some(value) => {
                    self.substituted = true;
                    let value = value.clone();
                    self.value(&value);
                }
                None => {
                    self.out.push("$");
                    self.literal(&after[..len]);
                }
            },
            Placeholder::All => {
                self.substituted = true;
                self.value(self.args);
            }
        }
        len
    }

    /// The placeholder `after` (the text after a `$`) starts with, and its
    /// length, in Claude Code's order of precedence.
    fn placeholder(&self, after: &str) -> Option<(Placeholder<'a>, usize)> {
        if let Some((value, len)) = self.variable(after) {
            return Some((Placeholder::Variable(value), len));
        }
        if let Some((index, len)) = self.named(after) {
            return Some((Placeholder::Named(index), len));
        }
        if let Some(inner) = after.strip_prefix("ARGUMENTS[") {
            let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && inner[digits..].starts_with(']') {
                let len = "ARGUMENTS[".len() + digits + 1;
                return Some((Placeholder::Index(parse_index(&inner[..digits])), len));
            }
        }
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0
            && !after
                .as_bytes()
                .get(digits)
                .copied()
                .is_some_and(is_word_byte)
        {
            return Some((Placeholder::Index(parse_index(&after[..digits])), digits));
        }
        after
            .starts_with("ARGUMENTS")
            .then_some((Placeholder::All, "ARGUMENTS".len()))
    }

    /// The value and length of a directory variable `after` starts with.
    fn variable(&self, after: &str) -> Option<(&'a str, usize)> {
        [
            (SKILL_DIR_VAR, self.context.skill_dir),
            (PROJECT_DIR_VAR, self.context.project_dir),
        ]
        .into_iter()
        .find_map(|(var, value)| {
            let value = value.filter(|_| after.starts_with(&var[1..]))?;
            Some((value, var.len() - 1))
        })
    }

    /// The argument position and length of a name `after` starts with.
    fn named(&self, after: &str) -> Option<(usize, usize)> {
        self.names.iter().find_map(|&(index, name)| {
            let next = after.strip_prefix(name)?.bytes().next();
            let ends = !next.is_some_and(|b| b == b'[' || is_word_byte(b));
            ends.then_some((index, name.len()))
        })
    }

    /// True when `\$` before `after` is an escape: a digit, `ARGUMENTS` or
    /// an argument name follows.
    fn escapable(&self, after: &str) -> bool {
        after.starts_with(|c: char| c.is_ascii_digit())
            || after.starts_with("ARGUMENTS")
            || self.named(after).is_some()
    }

    /// Template text: copied, with U+FFFE and U+FFFF made U+FFFD.
    fn literal(&mut self, text: &str) {
        self.out.push(&replace_nonchars(text));
    }

    /// A substituted value: directory variables in it filled in, `!`
    /// escaped (see the module docs).
    fn value(&mut self, value: &str) {
        let mut value = Cow::Borrowed(value);
        for (var, dir) in [
            (SKILL_DIR_VAR, self.context.skill_dir),
            (PROJECT_DIR_VAR, self.context.project_dir),
        ] {
            if let Some(dir) = dir.filter(|_| value.contains(var)) {
                value = Cow::Owned(value.replace(var, dir));
            }
        }
        self.literal(&escape_bangs(&value));
    }
}

/// Claude Code's escape of `!` in substituted values.
fn escape_bangs(value: &str) -> Cow<'_, str> {
    if !value.contains('!') {
        return Cow::Borrowed(value);
    }
    let spaced = value.replace("`!", "` !").replace("!`", "! `");
    let mut out = String::with_capacity(spaced.len() + 4);
    let mut after_space = true;
    for c in spaced.chars() {
        if c == '!' && after_space {
            out.push('\\');
        }
        out.push(c);
        after_space = is_js_space(c);
    }
    Cow::Owned(out)
}

fn replace_nonchars(text: &str) -> Cow<'_, str> {
    if text.contains(['\u{fffe}', '\u{ffff}']) {
        Cow::Owned(text.replace(['\u{fffe}', '\u{ffff}'], "\u{fffd}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// A digit run as an index; `None` when too large for any argument list.
fn parse_index(digits: &str) -> Option<usize> {
    digits.parse().ok()
}

#[cfg(test)]
mod tests;
