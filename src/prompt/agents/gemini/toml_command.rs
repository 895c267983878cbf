//! One Gemini CLI custom command file (SPEC §16.4): its name from its path
//! under `commands/`, and its `prompt` and `description` from its TOML, as
//! Gemini CLI 0.61.0 reads them (its `FileCommandLoader`).
//!
//! Choices the spec leaves open:
//! - The TOML is read with the `toml` crate; Gemini's own TOML reader may
//!   accept or refuse a few files differently (a warning names line and
//!   column either way).
//! - A `description` that is not a string makes the file invalid, as
//!   Gemini's schema does (`prompt` a string, `description` an optional
//!   string).
//! - A file of exactly `.toml` (an empty name) is not a command: Gemini
//!   would register a nameless one nobody can type.

use crate::prompt::text::{is_js_space, line_column, utf16_floor, utf16_len};

/// What a command file's name ends with.
pub const TOML_SUFFIX: &str = ".toml";

/// Longest name segment Gemini keeps whole; a longer one keeps its first
/// 47 characters and gets `...`.
pub const MAX_SEGMENT: usize = 50;
/// What a cut segment keeps.
const SEGMENT_KEEP: usize = 47;
/// Longest description shown, in UTF-16 code units (Gemini's display
/// sanitiser); a longer one keeps 97 units and gets `...`.
const MAX_DESCRIPTION_UNITS: usize = 100;

/// A command file Gemini offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TomlCommand {
    /// `prompt`, never trimmed.
    pub prompt: String,
    /// `description` as Gemini shows it, else its default.
    pub description: String,
}

/// Why Gemini offers no command for a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invalid {
    /// Not TOML: where, and what.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's words.
        message: String,
    },
    /// Valid TOML that Gemini's schema refuses (no string `prompt`, a
    /// `description` that is not a string).
    Schema(String),
}

impl Invalid {
    /// The reason in words, with line and column when there are.
    pub fn words(&self) -> String {
        match self {
            Invalid::Syntax {
                line,
                column,
                message,
            } => format!("invalid TOML at line {line}, column {column}: {message}"),
            Invalid::Schema(why) => why.clone(),
        }
    }

    /// Line and column, for a syntax error.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            Invalid::Syntax { line, column, .. } => Some((*line, *column)),
            Invalid::Schema(_) => None,
        }
    }
}

/// Reads `text`, the file named `file_name`, as Gemini does.
pub fn parse(text: &str, file_name: &str) -> Result<TomlCommand, Invalid> {
    let table: toml::Table = toml::from_str(text).map_err(|err| {
        let (line, column) = err
            .span()
            .map_or((1, 1), |span| line_column(text, span.start));
        Invalid::Syntax {
            line,
            column,
            message: err.message().trim().to_string(),
        }
    })?;
    let prompt = match table.get("prompt") {
        Some(toml::Value::String(prompt)) => prompt.clone(),
        Some(_) => return Err(Invalid::Schema("`prompt` is not a string".into())),
        None => return Err(Invalid::Schema("no `prompt`".into())),
    };
    let description = match table.get("description") {
        Some(toml::Value::String(text)) if !text.is_empty() => text.as_str(),
        Some(toml::Value::String(_)) | None => "",
        Some(_) => return Err(Invalid::Schema("`description` is not a string".into())),
    };
    let description = if description.is_empty() {
        default_description(file_name)
    } else {
        description.to_string()
    };
    Ok(TomlCommand {
        prompt,
        description: for_display(&description),
    })
}

/// `Custom command from FILE.toml`.
pub fn default_description(file_name: &str) -> String {
    format!("Custom command from {file_name}")
}

/// A description as Gemini displays it: C0 and C1 control characters
/// other than TAB, LF and CR, bidirectional marks, U+200B and U+FEFF
/// dropped, then each run of JavaScript whitespace made one space, then
/// cut at 100 UTF-16 code units (its `sanitizeForDisplay`; the ANSI escape
/// sequences it also strips are left to the control-character rule).
fn for_display(text: &str) -> String {
    let unsafe_char = |c: char| {
        matches!(c,
            '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{80}'..='\u{9f}'
            | '\u{200b}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}' | '\u{feff}')
    };
    let mut out = String::with_capacity(text.len());
    let mut in_space = false;
    for c in text.chars().filter(|c| !unsafe_char(*c)) {
        if is_js_space(c) {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    if utf16_len(&out) > MAX_DESCRIPTION_UNITS {
        let keep = utf16_floor(&out, MAX_DESCRIPTION_UNITS - 3);
        out.truncate(keep);
        out.push_str("...");
    }
    out
}

/// The command name of the file at `rel` (relative to its `commands`
/// directory, `/`-separated, ending in `.toml`): each segment with every
/// character outside `[A-Za-z0-9_.-]` made `_` (one per UTF-16 code unit,
/// as Gemini replaces), cut past [`MAX_SEGMENT`], joined by `:`; `None`
/// for an empty name.
pub fn command_name(rel: &str) -> Option<String> {
    let stem = rel.strip_suffix(TOML_SUFFIX)?;
    if stem.is_empty() || stem.ends_with('/') {
        return None;
    }
    let segments: Vec<String> = stem.split('/').map(sanitise_segment).collect();
    Some(segments.join(":"))
}

fn sanitise_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for c in segment.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n('_', c.len_utf16()));
        }
    }
    // Every character is ASCII now, so bytes are characters.
    if out.len() > MAX_SEGMENT {
        out.truncate(SEGMENT_KEEP);
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_join_sanitised_segments_with_colons() {
        assert_eq!(
            command_name("git/commit.toml").as_deref(),
            Some("git:commit")
        );
        assert_eq!(command_name("a b/c$d.toml").as_deref(), Some("a_b:c_d"));
        assert_eq!(command_name("é😀.toml").as_deref(), Some("___"));
        assert_eq!(command_name(".hidden.toml").as_deref(), Some(".hidden"));
        assert_eq!(command_name(".toml"), None);
        let long = format!("{}.toml", "x".repeat(51));
        assert_eq!(command_name(&long), Some(format!("{}...", "x".repeat(47))));
        let fifty = format!("{}.toml", "y".repeat(50));
        assert_eq!(command_name(&fifty), Some("y".repeat(50)));
    }

    #[test]
    fn prompt_is_required_and_a_string_and_never_trimmed() {
        let ok = parse("prompt = \"  hi {{args}}\\n\"\n", "x.toml").unwrap();
        assert_eq!(ok.prompt, "  hi {{args}}\n");
        assert_eq!(ok.description, "Custom command from x.toml");
        assert_eq!(
            parse("description = \"d\"\n", "x.toml"),
            Err(Invalid::Schema("no `prompt`".into()))
        );
        assert!(matches!(
            parse("prompt = 5\n", "x.toml"),
            Err(Invalid::Schema(_))
        ));
        assert!(matches!(
            parse("prompt = \"p\"\ndescription = 1\n", "x.toml"),
            Err(Invalid::Schema(_))
        ));
        let described = parse(
            "prompt = \"p\"\ndescription = \"a\\n\\tb\\u000b\\ufeffc\"\n",
            "x.toml",
        );
        assert_eq!(described.unwrap().description, "a bc");
    }

    #[test]
    fn bad_toml_names_line_and_column() {
        let err = parse("description = \"x\"\nprompt = \"unterminated\n", "bad.toml").unwrap_err();
        let (line, _) = err.position().unwrap();
        assert_eq!(line, 2);
        assert!(err.words().starts_with("invalid TOML at line 2, column "));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        assert!(matches!(
            parse(&deep, "x.toml"),
            Err(Invalid::Syntax { .. })
        ));
        let tables = format!("a = {}1{}\n", "{b = ".repeat(50_000), "}".repeat(50_000));
        assert!(parse(&tables, "x.toml").is_err());
    }

    #[test]
    fn long_descriptions_are_cut_at_one_hundred_units() {
        let text = format!("prompt = \"p\"\ndescription = \"{}\"\n", "d".repeat(120));
        let cut = parse(&text, "x.toml").unwrap().description;
        assert_eq!(cut, format!("{}...", "d".repeat(97)));
    }
}
