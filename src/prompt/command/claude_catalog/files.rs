//! One Claude Code command or skill file as the precedence engine reads
//! it: its text, whether it is a command or a skill, and its frontmatter
//! read the way Claude Code reads it.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Range;

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::command::claude_catalog::dirs::SKILL_WORDS;
use crate::prompt::command::claude_dialect::{self, Frontmatter, Reading, read_frontmatter_block};
use crate::prompt::command::claude_listing::{self, Kind};
use crate::prompt::command::command_frontmatter::misplaced_frontmatter;
use crate::prompt::command::files::{COMMAND_WORDS, read_text};
use crate::prompt::tiers::{Layout, Listed, Loaded, Loss, SearchDir, Words};
use crate::prompt::yaml;

/// A frontmatter value as Claude Code turns it into text: a string
/// trimmed, a number or boolean spelled out; blank and other values give
/// nothing.
pub fn value_text(value: Option<&Value>) -> Option<String> {
    value_str(value?).map(Cow::into_owned)
}

/// [`value_text`] without copying a string.
fn value_str(value: &Value) -> Option<Cow<'_, str>> {
    match value {
        Value::String(s) => Some(Cow::Borrowed(s.trim())).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        _ => None,
    }
}

/// True for a frontmatter flag set to `true` (the boolean, or the string
/// `true` in any case).
fn flag(value: Option<&Value>) -> Option<bool> {
    match value? {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A command or skill file as read: its kind, its text (whole or the
/// head, as the read asked) and its frontmatter, read when first asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaudeFile {
    /// Command or skill.
    pub kind: Kind,
    /// The file's text, decoded (lossily): whole, its head, or only its
    /// frontmatter block (fences included; empty without one), as the read
    /// asked ([`ClaudeFiles`]).
    pub text: String,
    /// Boxed: most files of a listing are never parsed, and a candidate
    /// that carries a file stays small (a completion over 1,000 files
    /// holds 1,000 of them).
    frontmatter: OnceCell<Box<Frontmatter>>,
    /// Where the frontmatter block's text lies in `text`, found once.
    block: OnceCell<Option<Range<usize>>>,
}

impl ClaudeFile {
    /// A file of `kind` holding `text`.
    pub fn new(kind: Kind, text: String) -> Self {
        Self {
            kind,
            text,
            frontmatter: OnceCell::new(),
            block: OnceCell::new(),
        }
    }

    /// A file of `kind` holding `text`, whose frontmatter block is already
    /// known to lie at `block` (or to be absent).
    fn with_block(kind: Kind, text: String, block: Option<Range<usize>>) -> Self {
        Self {
            block: OnceCell::from(block),
            ..Self::new(kind, text)
        }
    }

    /// The frontmatter as Claude Code reads it, parsed the first time.
    pub fn frontmatter(&self) -> &Frontmatter {
        self.frontmatter
            .get_or_init(|| Box::new(read_frontmatter_block(&self.text, self.block().clone())))
    }

    /// Where the frontmatter block's text lies, found once.
    fn block(&self) -> &Option<Range<usize>> {
        self.block
            .get_or_init(|| claude_dialect::frontmatter_block(&self.text))
    }

    fn key(&self, key: &str) -> Option<String> {
        value_text(self.value(key).as_deref())
    }

    /// The value of `key`. A block whose text does not hold the key's name
    /// is not parsed for it: a listing or a completion that needs only a
    /// few keys parses only the blocks that may have them. Until the whole
    /// block is parsed, one of the simplest blocks
    /// ([`yaml::simple_value_of`]) gives the one value asked, so a
    /// completion never builds the others.
    fn value(&self, key: &str) -> Option<Cow<'_, Value>> {
        let yaml = &self.text[self.block().clone()?];
        if !yaml.contains(key) {
            return None;
        }
        if self.frontmatter.get().is_none()
            && let Some(found) = yaml::simple_value_of(yaml, key)
        {
            return found.map(Cow::Owned);
        }
        self.frontmatter()
            .get(key)
            .map(|entry| Cow::Borrowed(&entry.value))
    }

    /// Every frontmatter key Claude Code reads, with its value, in order.
    pub fn keys(&self) -> Map<String, Value> {
        self.frontmatter()
            .entries
            .iter()
            .map(|entry| (entry.key.clone(), entry.value.clone()))
            .collect()
    }

    /// The description Claude Code lists: `description:`, else the body's
    /// first line ([`claude_listing::line_description`]).
    pub fn description(&self) -> String {
        self.key("description").unwrap_or_else(|| {
            claude_listing::line_description(
                claude_dialect::strip_frontmatter(&self.text),
                self.kind,
            )
        })
    }

    /// `when_to_use:`, appended to the listing's description.
    pub fn when_to_use(&self) -> Option<String> {
        self.key("when_to_use")
    }

    /// `argument-hint:`, shown beside the name in listings and completion.
    /// A list (`[message]` is YAML for a list of one word) is shown as
    /// written, its items between brackets.
    pub fn argument_hint(&self) -> Option<String> {
        match self.value("argument-hint")?.as_ref() {
            Value::Array(items) => {
                let mut hint = String::from("[");
                for (at, item) in items.iter().filter_map(value_str).enumerate() {
                    if at > 0 {
                        hint.push_str(", ");
                    }
                    hint.push_str(&item);
                }
                hint.push(']');
                Some(hint)
            }
            other => value_text(Some(other)),
        }
    }

    /// A skill's `name:` key, which Claude Code shows beside the directory
    /// name and accepts as a second name (observed: `skill-name-key*`); a
    /// command's `name:` key does nothing (`command-name-key`).
    pub fn declared_name(&self) -> Option<String> {
        match self.kind {
            Kind::Skill => self.key("name"),
            Kind::Command => None,
        }
    }

    /// `disable-model-invocation: true`: left out of the skills listing.
    pub fn hidden_from_model(&self) -> bool {
        flag(self.value("disable-model-invocation").as_deref()) == Some(true)
    }

    /// `user-invocable: false`: only the model may invoke it; Claude Code
    /// sends nothing when the user types it.
    pub fn model_only(&self) -> bool {
        flag(self.value("user-invocable").as_deref()) == Some(false)
    }

    /// The names of `arguments:` (a list, or a space-separated string), as
    /// [`claude_dialect::argument_names`] keeps them.
    pub fn argument_names(&self) -> Vec<String> {
        self.frontmatter().argument_names()
    }
}

/// The kind of file a directory of this layout holds.
pub(super) fn kind_of(dir: &SearchDir<'_>) -> Kind {
    match dir.layout {
        Layout::SkillDirs => Kind::Skill,
        Layout::Flat | Layout::Nested => Kind::Command,
    }
}

/// The words of a directory's files.
fn words_of(dir: &SearchDir<'_>) -> &'static Words {
    match kind_of(dir) {
        Kind::Skill => &SKILL_WORDS,
        Kind::Command => &COMMAND_WORDS,
    }
}

/// Claude Code's commands and skills as one kind of the precedence engine
/// (skills in [`Layout::SkillDirs`] directories, commands in
/// [`Layout::Nested`] ones): a usable file yields a [`ClaudeFile`], read
/// up to `read_bytes`.
#[derive(Debug, Clone, Copy)]
pub struct ClaudeFiles {
    /// How much of a file is read.
    pub read_bytes: u64,
    /// Whether a file's frontmatter is checked when it is read (invalid
    /// YAML, a misplaced fence): off for completion, which reports nothing
    /// and parses only what it shows.
    pub diagnose: bool,
    /// Whether the body is kept after the read: off for a consumer that
    /// asks only frontmatter keys, so a thousand files do not keep a
    /// thousand bodies (a completion over 1,000 commands held 1 MB of them).
    pub keep_body: bool,
}

impl ClaudeFiles {
    /// Whole files (up to [`limits::MAX_COMMAND_FILE_BYTES`]), for
    /// expansion.
    pub const WHOLE: Self = Self {
        read_bytes: limits::MAX_COMMAND_FILE_BYTES,
        diagnose: true,
        keep_body: true,
    };
    /// The first [`limits::COMMAND_DESCRIPTION_HEAD_BYTES`], for listings.
    pub const HEAD: Self = Self {
        read_bytes: limits::COMMAND_DESCRIPTION_HEAD_BYTES,
        diagnose: true,
        keep_body: true,
    };
    /// Only the frontmatter block of the same head, unchecked: completion
    /// (`argument-hint:`, `user-invocable:`) and a skill's `name:`.
    pub const KEYS: Self = Self {
        read_bytes: limits::COMMAND_DESCRIPTION_HEAD_BYTES,
        diagnose: false,
        keep_body: false,
    };
}

impl crate::prompt::tiers::Kind for ClaudeFiles {
    type Item = ClaudeFile;

    fn words(&self, dir: &SearchDir<'_>) -> &Words {
        words_of(dir)
    }

    fn load(&self, dir: &SearchDir<'_>, file: &Listed) -> Result<Loaded<ClaudeFile>, Loss> {
        let (mut text, mut notes) = read_text(words_of(dir), dir, file, self.read_bytes)?;
        let found = claude_dialect::frontmatter_block_and_body(&text);
        if !self.keep_body {
            text.truncate(found.as_ref().map_or(0, |(_, body)| *body));
            text.shrink_to_fit();
        }
        let file_read = ClaudeFile::with_block(kind_of(dir), text, found.map(|(block, _)| block));
        if self.diagnose {
            notes.extend(frontmatter_note(&dir.display(&file.rel), &file_read));
        }
        Ok(Loaded {
            item: file_read,
            notes,
        })
    }
}

/// What is said about a file's frontmatter: a block Claude Code does not
/// see (text before the opening `---`), or one that is not valid YAML,
/// with its line and column and what Claude Code makes of it.
fn frontmatter_note(source: &str, file: &ClaudeFile) -> Option<Diagnostic> {
    let (error, consequence) = match &file.frontmatter().reading {
        Reading::Yaml => return None,
        Reading::NoBlock => {
            let misplaced = misplaced_frontmatter(file.text.as_bytes())?;
            return Some(Diagnostic::warning(
                source,
                format!(
                    "the opening --- on line {} is not at the start of the file, so Claude \
                     Code does not read the frontmatter and sends it as text; remove what \
                     precedes it",
                    misplaced.line()
                ),
            ));
        }
        Reading::Requoted(error) => (
            error,
            "Claude Code reads it again with such values quoted and uses its keys; quote \
             them (e.g. `argument-hint: \"[a] [b]\"`) so every reader agrees",
        ),
        Reading::Ignored(error) => (
            error,
            "Claude Code ignores every key of it (no description, no arguments), though \
             the block still leaves the text",
        ),
    };
    Some(Diagnostic::warning(
        source,
        format!(
            "frontmatter is not valid YAML at line {}, column {} ({}); {consequence}",
            error.line,
            error.column,
            error.problem.describe()
        ),
    ))
}
