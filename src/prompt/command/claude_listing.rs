//! The skills listing Claude Code shows the model (SPEC §14.5): one entry
//! per model-invocable command or skill, its description rules, its budget
//! and how entries shrink to a bare name over budget, as observed from
//! Claude Code 2.1.328 (`tests/oracle/cases/claude-commands/`, `listing-*`,
//! `description-*`, `*-descriptions`, `empty-bodies`).
//!
//! Which entries there are and in which groups (user skills, project skills
//! with the cwd's first, then every command — user and project together)
//! is the profile's business; this module renders and fits them.
//!
//! Choices the spec leaves open, made here:
//!
//! - **Claude Code's own entries** share the budget and never shrink. The
//!   preview does not list them; [`fit`] takes their count and width as
//!   [`Reserved`], zero when the caller has nothing better.
//! - **Which entries keep their description** over budget: Claude Code
//!   goes through them by how often the user invoked each (a per-user
//!   count the preview cannot see), in listing order among equals. The
//!   preview has no counts, so listing order decides.
//! - **Width** is counted per character with the `unicode-width` tables
//!   (East Asian wide 2, control and combining 0), close to the terminal
//!   width Claude Code measures; emoji sequences may differ.
//! - **Sort order** inside a group follows Claude Code's locale collation
//!   for ASCII names (case-insensitive first, `_` `-` `:` … before digits
//!   before letters, lower case first among equals); other characters sort
//!   after ASCII letters by code point.

use std::cmp::Ordering;

use unicode_width::UnicodeWidthChar;

use crate::limits;
use crate::prompt::text::{is_js_space, utf16_len};

/// What an entry is, which names its default description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `.claude/commands/**/*.md` file.
    Command,
    /// A `.claude/skills/<dir>/SKILL.md` file.
    Skill,
}

impl Kind {
    /// The lowercase word used in output: `command` or `skill`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Command => "command",
            Kind::Skill => "skill",
        }
    }
}

/// The description Claude Code gives a file without a `description:` (or
/// with a blank one): its body's first non-blank line, trimmed, without the
/// `#`s and space of a Markdown heading; over
/// [`limits::CLAUDE_LINE_DESCRIPTION_UNITS`] UTF-16 code units it keeps its
/// first 97 and gets `...`. A body with no such line gives `Skill` or
/// `Custom command`. `body` is the file without its frontmatter.
pub fn line_description(body: &str, kind: Kind) -> String {
    let Some(line) = body
        .split('\n')
        .map(|line| line.trim_matches(is_js_space))
        .find(|line| !line.is_empty())
    else {
        return match kind {
            Kind::Skill => "Skill",
            Kind::Command => "Custom command",
        }
        .to_string();
    };
    let text = heading_text(line).unwrap_or(line);
    let cut = limits::CLAUDE_LINE_DESCRIPTION_UNITS;
    if utf16_len(text) > cut {
        format!("{}...", utf16_prefix(text, cut - "...".len()))
    } else {
        text.to_string()
    }
}

/// The text of a Markdown heading line (`## Title` → `Title`).
fn heading_text(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches('#');
    if rest.len() == line.len() {
        return None;
    }
    let text = rest.trim_start_matches(is_js_space);
    let breaks = |c: char| matches!(c, '\r' | '\u{2028}' | '\u{2029}');
    (text.len() < rest.len() && !text.is_empty() && !text.contains(breaks)).then_some(text)
}

/// The name an entry shows: the invocable name, followed by the `name:`
/// key in parentheses when that differs (`- dirname (othername): …`). The
/// caller passes `declared` only when that name resolves to this entry.
pub fn entry_name(name: &str, declared: Option<&str>) -> String {
    match declared {
        Some(declared)
            if !declared.is_empty()
                && declared != name
                && !name.ends_with(&format!(":{declared}")) =>
        {
            format!("{name} ({declared})")
        }
        _ => name.to_string(),
    }
}

/// The description an entry shows: `description`, then ` - WHEN_TO_USE`
/// when that is set, cut to [`limits::CLAUDE_LISTING_DESCRIPTION_UNITS`]
/// UTF-16 code units with a final `…`.
pub fn entry_description(description: &str, when_to_use: Option<&str>) -> String {
    let joined = match when_to_use.filter(|w| !w.is_empty()) {
        Some(when) => format!("{description} - {when}"),
        None => description.to_string(),
    };
    let cut = limits::CLAUDE_LISTING_DESCRIPTION_UNITS;
    if utf16_len(&joined) > cut {
        format!("{}…", utf16_prefix(&joined, cut - 1))
    } else {
        joined
    }
}

/// One entry of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingEntry {
    /// What [`entry_name`] shows.
    pub name: String,
    /// What [`entry_description`] shows.
    pub description: String,
}

impl ListingEntry {
    /// The entry with its description: `- NAME: DESCRIPTION`.
    pub fn full(&self) -> String {
        format!("- {}: {}", self.name, self.description)
    }

    /// The entry shrunk to its name: `- NAME`.
    pub fn name_only(&self) -> String {
        format!("- {}", self.name)
    }
}

/// The listing's budget in display columns: `override_value` (Claude Code's
/// `SLASH_COMMAND_TOOL_CHAR_BUDGET`) when it is a positive whole number,
/// else [`limits::CLAUDE_LISTING_BUDGET_PERCENT`] of the context window
/// times [`limits::CLAUDE_LISTING_CHARS_PER_TOKEN`] (8,000 for
/// [`limits::DEFAULT_CONTEXT_WINDOW_TOKENS`]), at least 1.
pub fn budget(context_window_tokens: u64, override_value: Option<&str>) -> usize {
    if let Some(value) = override_value
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&v| v > 0)
    {
        return value;
    }
    let columns = context_window_tokens
        .saturating_mul(limits::CLAUDE_LISTING_CHARS_PER_TOKEN)
        .saturating_mul(limits::CLAUDE_LISTING_BUDGET_PERCENT)
        / 100;
    usize::try_from(columns).unwrap_or(usize::MAX).max(1)
}

/// Entries of the listing the caller does not render, which count against
/// the budget (Claude Code's own). They come after the caller's entries;
/// over budget, some of them shrink to their name like the caller's, but
/// only once every caller entry has had its turn, so only their width
/// matters here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reserved {
    /// How many.
    pub entries: usize,
    /// Their total display width with every description.
    pub width: usize,
    /// The width they lose when the listing is over budget (the
    /// descriptions of those that shrink).
    pub shrinkable: usize,
}

/// A listing fitted to its budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// One line per entry, in the entries' order, each `full` or
    /// `name_only`.
    pub lines: Vec<String>,
    /// How many entries were shrunk to their name.
    pub shrunk: usize,
    /// The listing's width with every description, separators and reserved
    /// entries included; over the budget, entries shrink.
    pub width: usize,
}

/// Fits `entries` to `budget` as Claude Code does.
///
/// The listing's width is every line's display width plus one for each
/// line break between lines (reserved entries included). Within budget,
/// every entry keeps its description. Over it, every entry starts from its
/// name alone; then, in order, an entry gets its description back when the
/// extra width fits in what is left, so one that does not fit is skipped
/// and later, smaller ones may still fit. There is no marker in the text.
pub fn fit(entries: &[ListingEntry], budget: usize, reserved: Reserved) -> Fitted {
    let full: Vec<String> = entries.iter().map(ListingEntry::full).collect();
    let separators = (entries.len() + reserved.entries).saturating_sub(1);
    let total = reserved.width + separators + full.iter().map(|l| width(l)).sum::<usize>();
    if total <= budget {
        return Fitted {
            lines: full,
            shrunk: 0,
            width: total,
        };
    }
    let names: Vec<String> = entries.iter().map(ListingEntry::name_only).collect();
    let base = reserved.width.saturating_sub(reserved.shrinkable)
        + separators
        + names.iter().map(|l| width(l)).sum::<usize>();
    let mut left = budget.saturating_sub(base);
    let mut shrunk = 0;
    let lines = full
        .into_iter()
        .zip(names)
        .map(|(full, name)| {
            let extra = width(&full) - width(&name);
            if extra <= left {
                left -= extra;
                full
            } else {
                shrunk += 1;
                name
            }
        })
        .collect();
    Fitted {
        lines,
        shrunk,
        width: total,
    }
}

/// Display width: East Asian wide characters count 2, control and
/// combining characters 0, others 1.
pub fn width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// The order of two names inside one listing group (see the module docs).
pub fn listing_order(a: &str, b: &str) -> Ordering {
    let primary = |s: &str| s.chars().map(primary_weight).collect::<Vec<_>>();
    primary(a)
        .cmp(&primary(b))
        .then_with(|| {
            let case = |s: &str| s.chars().map(|c| c.is_uppercase()).collect::<Vec<_>>();
            case(a).cmp(&case(b))
        })
        .then_with(|| a.cmp(b))
}

/// ASCII punctuation and symbols in the order of the root collation.
const PUNCTUATION: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

fn primary_weight(c: char) -> u32 {
    let c = c.to_ascii_lowercase();
    if c.is_ascii_whitespace() {
        return 0;
    }
    if let Some(i) = PUNCTUATION.find(c) {
        return 1 + u32::try_from(i).unwrap_or(0);
    }
    if c.is_ascii_digit() {
        return 100 + u32::from(c) - u32::from('0');
    }
    if c.is_ascii_lowercase() {
        return 200 + u32::from(c) - u32::from('a');
    }
    300 + u32::from(c)
}

/// The first `units` UTF-16 code units of `text`; a surrogate pair cut in
/// half leaves U+FFFD, as the cut half reaches the model.
fn utf16_prefix(text: &str, units: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let len = c.len_utf16();
        if used + len > units {
            if used < units {
                out.push('\u{fffd}');
            }
            break;
        }
        out.push(c);
        used += len;
    }
    out
}

#[cfg(test)]
mod tests;
