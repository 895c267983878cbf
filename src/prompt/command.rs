//! Slash commands (SPEC §5): the invocation grammar, placeholder
//! substitution, command frontmatter and descriptions, the expander and
//! lister ports, and the directory resolution that every listing, expansion
//! and explanation of command files goes through, so they always agree on
//! which file wins.
//!
//! Choices the spec leaves open, made here and relied on elsewhere:
//!
//! - **Output bound.** With post-expansion text (§5.6) the output is cut at
//!   [`limits::MAX_EXPANSION_BYTES`], as the engine does. Without it the
//!   engine does not cut, and neither do we at that size: a real-world
//!   command in the test corpus is 29,675 bytes and must expand whole. The
//!   output is instead bounded at [`limits::MAX_COMMAND_FILE_BYTES`], the
//!   most we ever read of a template, with the same marker; a template alone
//!   never reaches it, so it only stops `$ARGUMENTS` repeated over a large
//!   input from exhausting memory.
//! - **Refused symlinks** in command directories are "not found" plus a
//!   warning (§5.5), not the fatal diagnostic §3.1 gives rules.
//! - **Over-long names** (the OS reports the file name as invalid or too
//!   long) are unknown commands, never read faults.
//! - **Listing** reads only the first [`DESCRIPTION_HEAD_BYTES`] of a file,
//!   which is all a description can come from.
//! - **An unreadable file** does not claim its name in a listing (the next
//!   directory's file is listed, §3.3); expansion of that name is a read
//!   fault (§5.5), because the file the user meant could not be read.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::text::{INVALID_UTF8_REPLACED, decode_read, floor_char_boundary};
use crate::prompt::turn0::ReadFault;
use crate::workspace::{Bounded, EntryKind, Workspace, WsError, join};

/// The project directories searched for commands when none are given, highest
/// precedence first (SPEC §5.5).
pub const DEFAULT_COMMAND_DIRS: [&str; 2] = [".mecatl/commands", ".claude/commands"];

/// How much of each command file a listing reads (and checks for invalid
/// UTF-8). A description comes from the frontmatter or the first non-blank
/// line, which real files have in their first few hundred bytes (in the
/// test corpus the deepest is on line 4, and one file of 80 passes 16 KiB);
/// 16 KiB leaves room for any real frontmatter while a huge file costs a
/// listing no more than a few ordinary ones (SPEC §11: within 5%).
pub const DESCRIPTION_HEAD_BYTES: u64 = 16 * 1024;

/// The output bound when no post-expansion text is involved: the largest
/// template we read, so only argument amplification can reach it.
const TEMPLATE_OUTPUT_BOUND: usize = limits::MAX_COMMAND_FILE_BYTES as usize;

// ---------------------------------------------------------------------------
// §5.1 Grammar

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// True when `name` can be invoked as `/name`: non-empty, and only ASCII
/// letters, digits, `-`, `_` and `.` (SPEC §5.1).
pub fn valid_command_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(is_name_char)
}

/// A parsed slash-command invocation: the name without its `/`, and the
/// positional arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The command name, always [`valid_command_name`].
    pub name: String,
    /// The arguments, split on Unicode whitespace, never empty strings.
    pub args: Vec<String>,
}

/// Parses `input` as a slash-command invocation (SPEC §5.1), or `None` when
/// it is not one.
///
/// Leading spaces and tabs (only those) are skipped; then `/` and a
/// non-empty name must follow. The name ends at the first character outside
/// the name alphabet, and everything from there on is split on any Unicode
/// whitespace into arguments, with no quoting: `/etc/hosts` is the command
/// `etc` with the argument `/hosts`.
pub fn parse_invocation(input: &str) -> Option<Invocation> {
    let rest = input.trim_start_matches([' ', '\t']).strip_prefix('/')?;
    let name_len = rest.find(|c| !is_name_char(c)).unwrap_or(rest.len());
    if name_len == 0 {
        return None;
    }
    let (name, tail) = rest.split_at(name_len);
    Some(Invocation {
        name: name.to_string(),
        args: tail.split_whitespace().map(str::to_string).collect(),
    })
}

// ---------------------------------------------------------------------------
// §5.2 Substitution

/// A string builder that stops at a byte limit, on a UTF-8 boundary, and
/// remembers that it did.
struct Capped {
    text: String,
    limit: usize,
    overflowed: bool,
}

impl Capped {
    fn new(limit: usize, expected: usize) -> Self {
        Self {
            text: String::with_capacity(expected.min(limit)),
            limit,
            overflowed: false,
        }
    }

    fn push(&mut self, piece: &str) {
        if self.overflowed {
            return;
        }
        let room = self.limit - self.text.len();
        if piece.len() <= room {
            self.text.push_str(piece);
        } else {
            self.text
                .push_str(&piece[..floor_char_boundary(piece, room)]);
            self.overflowed = true;
        }
    }
}

/// Substitutes the placeholders of a command body (SPEC §5.2) in one pass
/// from left to right; substituted text is never re-scanned.
///
/// `$ARGUMENTS` becomes all arguments joined by one space (`$ARGUMENTSX` is
/// that followed by `X`). `$` followed by a run of ASCII digits is one
/// 1-based index (`$10` is the tenth argument) and becomes that argument, or
/// nothing when out of range — `$0` and runs too long for any index
/// included. Any other `$` is kept (`$HOME`; `$$1` is `$` then argument 1).
///
/// The output is not bounded; expanders use [`render`], which is.
pub fn substitute(body: &str, args: &[String]) -> String {
    let mut out = Capped::new(usize::MAX, body.len());
    substitute_into(body, args, &mut out);
    out.text
}

fn substitute_into(body: &str, args: &[String], out: &mut Capped) {
    let mut rest = body;
    while let Some(dollar) = rest.find('$') {
        out.push(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        rest = if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            push_joined(args, out);
            tail
        } else {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                out.push("$");
                after
            } else {
                if let Some(arg) = positional(args, &after[..digits]) {
                    out.push(arg);
                }
                &after[digits..]
            }
        };
        if out.overflowed {
            return;
        }
    }
    out.push(rest);
}

fn push_joined(args: &[String], out: &mut Capped) {
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push(" ");
        }
        out.push(arg);
        if out.overflowed {
            return;
        }
    }
}

/// The argument a run of ASCII digits names, if any. Stops reading digits
/// as soon as the index overflows, so a run of any length costs nothing.
fn positional<'a>(args: &'a [String], digits: &str) -> Option<&'a str> {
    let index = digits.bytes().try_fold(0usize, |n, d| {
        n.checked_mul(10)?.checked_add(usize::from(d - b'0'))
    })?;
    args.get(index.checked_sub(1)?).map(String::as_str)
}

/// A rendered expansion: the text the model sees, and where it was cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The output, including the truncation marker when cut.
    pub text: String,
    /// The byte limit the output was cut at, when it was.
    pub truncated_at: Option<usize>,
}

/// Renders a raw command template the way every expander does (SPEC §5.3,
/// §5.2, §5.6): strips the frontmatter, substitutes `args`, puts non-empty
/// `post` text in front (never itself substituted), and bounds the result.
///
/// With post text the bound is [`limits::MAX_EXPANSION_BYTES`] (the engine's
/// cap); without, it is [`limits::MAX_COMMAND_FILE_BYTES`] (see the module
/// docs). A cut output ends with
/// `\n...[expansion truncated at LIMIT bytes]`, after at most LIMIT bytes
/// cut on a UTF-8 boundary.
pub fn render(raw: &str, args: &[String], post: Option<&str>) -> Rendered {
    let post = post.filter(|p| !p.is_empty());
    let limit = match post {
        Some(_) => limits::MAX_EXPANSION_BYTES,
        None => TEMPLATE_OUTPUT_BOUND,
    };
    let body = strip_frontmatter(raw);
    let mut out = Capped::new(limit, body.len() + post.map_or(0, str::len));
    if let Some(post) = post {
        out.push(post);
    }
    substitute_into(body, args, &mut out);
    let truncated_at = out.overflowed.then_some(limit);
    let mut text = out.text;
    if let Some(limit) = truncated_at {
        text.push_str(&format!("\n...[expansion truncated at {limit} bytes]"));
    }
    Rendered { text, truncated_at }
}

// ---------------------------------------------------------------------------
// §5.3 Frontmatter

fn opens_frontmatter(raw: &str) -> bool {
    raw.starts_with("---\n") || raw.starts_with("---\r\n")
}

/// The byte offset where the body begins when `raw` opens with a terminated
/// frontmatter block.
fn body_start(raw: &str) -> Option<usize> {
    if !opens_frontmatter(raw) {
        return None;
    }
    let mut pos = raw.find('\n')? + 1;
    loop {
        let (line, next) = match raw[pos..].find('\n') {
            Some(i) => (&raw[pos..pos + i], Some(pos + i + 1)),
            None => (&raw[pos..], None),
        };
        if line.trim_end_matches('\r') == "---" {
            let start = next.unwrap_or(raw.len());
            return Some(if raw[start..].starts_with('\n') {
                start + 1
            } else {
                start
            });
        }
        pos = next?;
    }
}

/// The body of a raw command file without its frontmatter (SPEC §5.3),
/// byte for byte as the engine computes it.
///
/// Only a file that begins with `---\n` or `---\r\n` has frontmatter (a BOM
/// in front means it has none). The block ends at the first later line that
/// is `---` once trailing `\r`s are removed; the body is everything after
/// that line less one leading `\n`, so in a CRLF file a blank line after the
/// block leaves a `\r\n`. Unterminated frontmatter leaves the file unchanged.
pub fn strip_frontmatter(raw: &str) -> &str {
    body_start(raw).map_or(raw, |start| &raw[start..])
}

/// The top-level keys of a file's frontmatter block, in order (for
/// explanations); empty when the file has no terminated block.
pub fn frontmatter_keys(raw: &str) -> Vec<String> {
    let Some(end) = body_start(raw) else {
        return Vec::new();
    };
    raw[..end]
        .split('\n')
        .skip(1)
        .take_while(|line| line.trim_end_matches('\r') != "---")
        .filter(|line| !line.starts_with([' ', '\t', '#', '-']))
        .filter_map(|line| line.split_once(':'))
        .map(|(key, _)| key.trim().to_string())
        .filter(|key| !key.is_empty())
        .collect()
}

// ---------------------------------------------------------------------------
// §5.4 Description

/// The one-line description of a raw command file (SPEC §5.4).
///
/// The `description:` value of a leading frontmatter block — a top-level
/// key, trimmed, one pair of surrounding `"` or `'` removed; a `>` or `|`
/// block scalar is folded from its indented lines into one line — else the
/// first non-blank line of the body, else empty. The scan of the block ends
/// at a line whose trimmed text is `---` (or at the end of an unterminated
/// block). An empty value falls back to the body line. A leading BOM is not
/// part of any line, and control characters become spaces so the result is
/// one line that is safe to print. Longer than
/// [`limits::MAX_COMMAND_DESCRIPTION_CHARS`] characters, it is cut to fit
/// with a final `…`.
pub fn description(raw: &str) -> String {
    let text = frontmatter_description(raw)
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| first_non_blank_line(strip_frontmatter(raw)).to_string());
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    // Trimmed again: a control character at either end became a space.
    cap_chars(one_line.trim(), limits::MAX_COMMAND_DESCRIPTION_CHARS)
}

fn frontmatter_description(raw: &str) -> Option<String> {
    if !opens_frontmatter(raw) {
        return None;
    }
    let mut lines = raw.split('\n').skip(1);
    while let Some(line) = lines.next() {
        if line.trim() == "---" {
            return None;
        }
        let Some(value) = line.strip_prefix("description:") else {
            continue;
        };
        let value = value.trim();
        return Some(if is_block_scalar_header(value) {
            fold_block_scalar(lines)
        } else {
            unquote(value).to_string()
        });
    }
    None
}

/// True for a YAML block scalar header: `>` or `|`, optional chomping and
/// indentation indicators, optional comment.
fn is_block_scalar_header(value: &str) -> bool {
    let Some(indicators) = value.strip_prefix(['>', '|']) else {
        return false;
    };
    let indicators = indicators.split('#').next().unwrap_or_default().trim();
    indicators
        .chars()
        .all(|c| c == '+' || c == '-' || c.is_ascii_digit())
}

/// Joins the indented continuation lines of a block scalar into one line.
fn fold_block_scalar<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut parts = Vec::new();
    for line in lines {
        let trimmed = line.trim();
        if trimmed == "---" || (!trimmed.is_empty() && !line.starts_with([' ', '\t'])) {
            break;
        }
        if !trimmed.is_empty() {
            parts.push(trimmed);
        }
    }
    parts.join(" ")
}

fn unquote(value: &str) -> &str {
    ['"', '\'']
        .into_iter()
        .find_map(|q| value.strip_prefix(q)?.strip_suffix(q))
        .unwrap_or(value)
}

fn first_non_blank_line(body: &str) -> &str {
    body.strip_prefix('\u{feff}')
        .unwrap_or(body)
        .split(['\n', '\r'])
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default()
}

/// `text` when it has at most `max` characters, else its first `max - 1`
/// characters and `…`.
fn cap_chars(text: &str, max: usize) -> String {
    if text.chars().nth(max).is_none() {
        return text.to_string();
    }
    let keep = text
        .char_indices()
        .nth(max.saturating_sub(1))
        .map_or(text.len(), |(i, _)| i);
    format!("{}…", &text[..keep])
}

// ---------------------------------------------------------------------------
// §5.6 Ports and composition

/// A discovered command's listing metadata; it carries no body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Command {
    /// The name invoked as `/name`.
    pub name: String,
    /// A one-line summary (see [`description`]); may be empty.
    pub description: String,
}

/// What an expander made of an input line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Expansion {
    /// True when the input named a command that was found and rendered.
    pub expanded: bool,
    /// The command name, when expanded.
    pub name: Option<String>,
    /// The arguments, when expanded; empty otherwise.
    pub args: Vec<String>,
    /// The file that was expanded, as its workspace displays it; `None` when
    /// nothing expanded or the template came from a non-file source.
    pub source: Option<String>,
    /// The rendered template, or the input unchanged.
    pub output: String,
}

impl Expansion {
    /// The outcome for an input that is not a known command: the input,
    /// unchanged.
    pub fn unchanged(input: &str) -> Self {
        Self {
            expanded: false,
            name: None,
            args: Vec::new(),
            source: None,
            output: input.to_string(),
        }
    }
}

/// Rewrites a user input into what the model sees: a command invocation
/// becomes its rendered template; anything else passes through unchanged.
pub trait CommandExpander {
    /// Expands `input`. An unknown command or a non-command is not an error:
    /// it comes back unchanged with `expanded = false`. An error is only a
    /// genuine read fault on a command file.
    fn expand(&self, ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault>;

    /// This expander as a lister, when it can enumerate its commands.
    fn as_lister(&self) -> Option<&dyn CommandLister> {
        None
    }
}

/// Enumerates the commands an expander would expand, without expanding any.
pub trait CommandLister {
    /// The invokable commands, one per name, sorted by name. An error is a
    /// genuine read fault enumerating the commands; a missing directory is
    /// simply no commands.
    fn list(&self, ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault>;
}

/// The default expander: expands nothing and lists nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoopExpander;

impl CommandExpander for NoopExpander {
    fn expand(&self, _ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault> {
        Ok(Expansion::unchanged(input))
    }

    fn as_lister(&self) -> Option<&dyn CommandLister> {
        Some(self)
    }
}

impl CommandLister for NoopExpander {
    fn list(&self, _ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault> {
        Ok(Vec::new())
    }
}

/// Several expanders tried in order, highest precedence first: the first
/// that expands wins and the first error stops the chain. Its listing merges
/// the children that can list; the first occurrence of a name wins.
#[derive(Default)]
pub struct MultiExpander {
    children: Vec<Box<dyn CommandExpander>>,
}

impl MultiExpander {
    /// Composes `children`, highest precedence first.
    pub fn new(children: Vec<Box<dyn CommandExpander>>) -> Self {
        Self { children }
    }
}

impl fmt::Debug for MultiExpander {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MultiExpander")
            .field("children", &self.children.len())
            .finish()
    }
}

impl CommandExpander for MultiExpander {
    fn expand(&self, ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault> {
        for child in &self.children {
            let expansion = child.expand(ws, input)?;
            if expansion.expanded {
                return Ok(expansion);
            }
        }
        Ok(Expansion::unchanged(input))
    }

    fn as_lister(&self) -> Option<&dyn CommandLister> {
        Some(self)
    }
}

impl CommandLister for MultiExpander {
    fn list(&self, ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault> {
        let mut merged = BTreeMap::new();
        for lister in self.children.iter().filter_map(|c| c.as_lister()) {
            for command in lister.list(ws)? {
                merged.entry(command.name.clone()).or_insert(command);
            }
        }
        Ok(merged.into_values().collect())
    }
}

// ---------------------------------------------------------------------------
// §5.5 Directories: the one resolution routine

/// One directory searched for `<name>.md` command files, and the reader it
/// is read through.
#[derive(Clone, Copy)]
pub struct SearchDir<'a> {
    /// The reader the directory is read through.
    pub ws: &'a dyn Workspace,
    /// The directory, relative to the reader's root (`""` for the root).
    pub dir: &'a str,
    /// True when the directory's commands are withheld (an untrusted
    /// project tier): its files are listed and explained but claim no name
    /// and are never expanded.
    pub withheld: bool,
}

impl fmt::Debug for SearchDir<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchDir")
            .field("root", &self.ws.root())
            .field("dir", &self.dir)
            .field("withheld", &self.withheld)
            .finish()
    }
}

/// What became of one candidate file for a name (SPEC §2.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "fate")]
pub enum Fate {
    /// The file that is expanded for the name.
    #[serde(rename = "winner")]
    Winner,
    /// A usable file that loses to an earlier directory's file.
    #[serde(rename = "shadowed")]
    Shadowed {
        /// The winning file.
        by: String,
    },
    /// A file in a withheld (untrusted) directory.
    #[serde(rename = "withheld")]
    Withheld,
    /// A file the operating system would not let us read.
    #[serde(rename = "unreadable")]
    Unreadable {
        /// The operating-system error.
        cause: String,
    },
    /// A symbolic link that leaves the workspace, never followed.
    #[serde(rename = "refused symlink")]
    RefusedSymlink {
        /// Why it was refused.
        reason: String,
    },
    /// Something that is not a usable file: not regular (a directory, a
    /// FIFO) or a link that cannot be resolved.
    #[serde(rename = "not found")]
    NotFound {
        /// What it is instead.
        reason: String,
    },
}

impl Fate {
    /// The fate's name as `explain` prints it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Fate::Winner => "winner",
            Fate::Shadowed { .. } => "shadowed",
            Fate::Withheld => "withheld",
            Fate::Unreadable { .. } => "unreadable",
            Fate::RefusedSymlink { .. } => "refused symlink",
            Fate::NotFound { .. } => "not found",
        }
    }
}

/// One candidate file for a name, in precedence order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandidateFile {
    /// Which of the searched directories holds it.
    pub dir_index: usize,
    /// Its path relative to that directory's reader.
    pub path: String,
    /// Its path as the reader displays it.
    pub source: String,
    /// What became of it.
    pub fate: Fate,
}

/// The winning file for a name, read and decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedFile {
    /// Which of the searched directories holds it.
    pub dir_index: usize,
    /// Its path as the reader displays it.
    pub source: String,
    /// Its content (at most [`limits::MAX_COMMAND_FILE_BYTES`]), invalid
    /// UTF-8 replaced with U+FFFD.
    pub raw: String,
}

/// Every candidate file for one name and the one that won.
#[derive(Debug)]
pub struct Resolution {
    /// The candidates in precedence order; places with nothing are omitted.
    pub candidates: Vec<CandidateFile>,
    /// The winner, if any file could claim the name.
    pub winner: Option<ResolvedFile>,
    /// Diagnostics about the candidates.
    pub diagnostics: Vec<Diagnostic>,
    /// The first read fault met before any file claimed the name: expanding
    /// the name fails with it.
    pub fault: Option<ReadFault>,
}

/// How a probe of one path turned out.
enum Probe {
    Absent,
    Regular(Option<Bounded>),
    Refused(String),
    Unusable(String),
    Fault(io::Error),
}

impl Probe {
    fn from_error(err: WsError) -> Self {
        match err {
            WsError::NotFound | WsError::NotADirectory => Probe::Absent,
            WsError::Io(e) if e.kind() == io::ErrorKind::InvalidFilename => Probe::Absent,
            WsError::Io(e) => Probe::Fault(e),
            WsError::Refused(why) => Probe::Refused(why),
            other @ (WsError::Unresolvable(_) | WsError::NotRegular(_)) => {
                Probe::Unusable(other.to_string())
            }
        }
    }

    fn from_kind(kind: EntryKind) -> Self {
        match kind {
            EntryKind::File => Probe::Regular(None),
            EntryKind::Dir => Probe::from_error(WsError::NotRegular("directory")),
            EntryKind::Other(what) => Probe::from_error(WsError::NotRegular(what)),
            EntryKind::Symlink => Probe::from_error(WsError::Unresolvable("symlink".into())),
        }
    }
}

/// Looks at `rel`: reads at most `limit` bytes when given, else only finds
/// out whether it is a usable file, trusting a listing's `kind` when it is
/// not a link.
fn probe(ws: &dyn Workspace, rel: &str, kind: Option<EntryKind>, limit: Option<u64>) -> Probe {
    if let Some(limit) = limit {
        let read = match kind {
            Some(kind) => ws.read_listed(rel, kind, limit),
            None => ws.read(rel, limit),
        };
        return match read {
            Ok(content) => Probe::Regular(Some(content)),
            Err(err) => Probe::from_error(err),
        };
    }
    match kind {
        Some(kind) if kind != EntryKind::Symlink => Probe::from_kind(kind),
        _ => match ws.stat(rel) {
            Ok(kind) => Probe::from_kind(kind),
            Err(err) => Probe::from_error(err),
        },
    }
}

/// How much of a candidate to read, by its standing.
#[derive(Clone, Copy)]
struct Reads {
    /// For a file that claims its name.
    winner: Option<u64>,
    /// For the first withheld file of a name nothing has claimed.
    withheld: Option<u64>,
}

/// Who holds a name so far.
enum Claim {
    Won { source: String },
    WithheldOnly,
}

/// One candidate after [`Precedence::consider`].
struct Considered {
    source: String,
    fate: Fate,
    content: Option<Bounded>,
    fault: Option<io::Error>,
}

/// The precedence rules of SPEC §3.3, applied to candidate files offered in
/// precedence order: the first usable file of a name wins, later ones are
/// shadowed, dropped files and withheld files claim nothing.
struct Precedence<'a, 'd> {
    dirs: &'a [SearchDir<'d>],
    reads: Reads,
    claims: HashMap<String, Claim>,
    /// Diagnostics of dropped files whose name nothing has claimed yet; a
    /// later winner is named in them.
    dropped: HashMap<String, Vec<usize>>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a, 'd> Precedence<'a, 'd> {
    fn new(dirs: &'a [SearchDir<'d>], reads: Reads) -> Self {
        Self {
            dirs,
            reads,
            claims: HashMap::new(),
            dropped: HashMap::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Decides the fate of the file `rel` offered for `name` from directory
    /// `dir_index`; `None` when nothing is there.
    fn consider(
        &mut self,
        dir_index: usize,
        name: &str,
        rel: &str,
        kind: Option<EntryKind>,
    ) -> Option<Considered> {
        let dir = self.dirs[dir_index];
        let claim = self.claims.get(name);
        let winner = match claim {
            Some(Claim::Won { source }) => Some(source.clone()),
            _ => None,
        };
        let limit = match (dir.withheld, &winner) {
            (true, _) => self.reads.withheld.filter(|_| claim.is_none()),
            (false, None) => self.reads.winner,
            (false, Some(_)) => None,
        };
        let probed = probe(dir.ws, rel, kind, limit);
        let source = dir.ws.display(rel);
        let (fate, content, fault) = match probed {
            Probe::Absent => return None,
            Probe::Regular(content) => {
                let fate = if dir.withheld {
                    self.claims
                        .entry(name.to_string())
                        .or_insert(Claim::WithheldOnly);
                    Fate::Withheld
                } else if let Some(by) = winner {
                    self.diagnostics.push(Diagnostic::warning(
                        &source,
                        format!("shadowed by {by}, which takes precedence"),
                    ));
                    Fate::Shadowed { by }
                } else {
                    self.claim(name, &source);
                    Fate::Winner
                };
                (fate, content, None)
            }
            Probe::Refused(reason) => {
                self.drop_file(
                    name,
                    Diagnostic::warning(&source, format!("not used: {reason}")),
                );
                (Fate::RefusedSymlink { reason }, None, None)
            }
            Probe::Unusable(reason) => {
                self.drop_file(
                    name,
                    Diagnostic::warning(&source, format!("not used: {reason}")),
                );
                (Fate::NotFound { reason }, None, None)
            }
            Probe::Fault(err) => {
                let cause = err.to_string();
                self.drop_file(
                    name,
                    Diagnostic::fatal(&source, format!("cannot be read: {cause}")),
                );
                (Fate::Unreadable { cause }, None, Some(err))
            }
        };
        Some(Considered {
            source,
            fate,
            content,
            fault,
        })
    }

    /// Records `source` as the winner of `name` and names it in the
    /// diagnostics of the files dropped before it. The caller then adds the
    /// winner's [`content_warnings`], when it read the file.
    fn claim(&mut self, name: &str, source: &str) {
        self.claims.insert(
            name.to_string(),
            Claim::Won {
                source: source.to_string(),
            },
        );
        for index in self.dropped.remove(name).unwrap_or_default() {
            self.diagnostics[index]
                .reason
                .push_str(&format!("; {source} is used instead"));
        }
    }

    fn drop_file(&mut self, name: &str, diagnostic: Diagnostic) {
        if !matches!(self.claims.get(name), Some(Claim::Won { .. })) {
            self.dropped
                .entry(name.to_string())
                .or_default()
                .push(self.diagnostics.len());
        }
        self.diagnostics.push(diagnostic);
    }
}

/// Warnings about a winning file's content that change what the model sees;
/// `invalid` as [`decode_read`] found it.
fn content_warnings(
    content: &Bounded,
    invalid: bool,
    source: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if content.size > limits::MAX_COMMAND_FILE_BYTES {
        diagnostics.push(Diagnostic::warning(
            source,
            format!(
                "file is {} bytes; only the first {} bytes are used",
                content.size,
                limits::MAX_COMMAND_FILE_BYTES
            ),
        ));
    }
    if invalid {
        diagnostics.push(Diagnostic::warning(source, INVALID_UTF8_REPLACED));
    }
    if let Some(reason) = misplaced_frontmatter(&content.bytes) {
        diagnostics.push(Diagnostic::warning(source, reason));
    }
}

/// Why a file that looks like it has frontmatter does not (SPEC §5.3: only a
/// `---` at the very first byte opens a block), so the block reaches the
/// model as text.
fn misplaced_frontmatter(bytes: &[u8]) -> Option<&'static str> {
    let opens = |b: &[u8]| b.starts_with(b"---\n") || b.starts_with(b"---\r\n");
    if opens(bytes) {
        return None;
    }
    let (bom, rest) = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let start = rest
        .iter()
        .position(|b| !b" \t\r\n".contains(b))
        .unwrap_or(rest.len());
    if !opens(&rest[start..]) {
        return None;
    }
    Some(if bom {
        "a byte order mark precedes the opening ---, so the frontmatter is not \
         recognised and reaches the model as text; save the file without a BOM"
    } else {
        "the opening --- is not at the start of the file, so the frontmatter is not \
         recognised and reaches the model as text; remove what precedes it"
    })
}

/// True for a name that can be looked up as one file name in a directory.
fn is_file_stem(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\0'])
}

/// Finds every candidate file for `name` in `dirs`, in precedence order, and
/// reads the winner (SPEC §5.5, §3.3). Only files that could win are read;
/// withheld files and files after the winner are only looked at.
///
/// A name that is not a single file name (empty, or holding `/`) has no
/// candidates.
pub fn resolve(dirs: &[SearchDir<'_>], name: &str) -> Resolution {
    let mut resolution = Resolution {
        candidates: Vec::new(),
        winner: None,
        diagnostics: Vec::new(),
        fault: None,
    };
    if !is_file_stem(name) {
        return resolution;
    }
    let file_name = format!("{name}.md");
    let reads = Reads {
        winner: Some(limits::MAX_COMMAND_FILE_BYTES),
        withheld: None,
    };
    let mut precedence = Precedence::new(dirs, reads);
    for (dir_index, dir) in dirs.iter().enumerate() {
        let path = join(dir.dir, &file_name);
        let Some(considered) = precedence.consider(dir_index, name, &path, None) else {
            continue;
        };
        if let Some(err) = considered.fault
            && resolution.winner.is_none()
            && resolution.fault.is_none()
        {
            resolution.fault = Some(ReadFault {
                path: considered.source.clone(),
                source: err,
            });
        }
        if let (Fate::Winner, Some(content)) = (&considered.fate, &considered.content) {
            let decoded = decode_read(&content.bytes, content.is_truncated());
            content_warnings(
                content,
                decoded.lossy,
                &considered.source,
                &mut precedence.diagnostics,
            );
            resolution.winner = Some(ResolvedFile {
                dir_index,
                source: considered.source.clone(),
                raw: decoded.text.into_owned(),
            });
        }
        resolution.candidates.push(CandidateFile {
            dir_index,
            path,
            source: considered.source,
            fate: considered.fate,
        });
    }
    resolution.diagnostics = precedence.diagnostics;
    resolution
}

/// The outcome of expanding an input against command directories.
#[derive(Debug)]
pub struct DirExpansion {
    /// The expansion itself.
    pub expansion: Expansion,
    /// Diagnostics about the files looked at.
    pub diagnostics: Vec<Diagnostic>,
    /// When the input named a command that exists only in a withheld
    /// directory: that file, as displayed.
    pub withheld: Option<String>,
}

/// Expands `input` against `dirs` (SPEC §5.5): the winner of [`resolve`] is
/// rendered with [`render`]; an unknown command or a non-command comes back
/// unchanged. A read fault on a file met before any file claimed the name is
/// an error naming that file.
pub fn expand_in(dirs: &[SearchDir<'_>], input: &str) -> Result<DirExpansion, ReadFault> {
    let unchanged = |diagnostics, withheld| DirExpansion {
        expansion: Expansion::unchanged(input),
        diagnostics,
        withheld,
    };
    let Some(invocation) = parse_invocation(input) else {
        return Ok(unchanged(Vec::new(), None));
    };
    let mut resolution = resolve(dirs, &invocation.name);
    if let Some(fault) = resolution.fault.take() {
        return Err(fault);
    }
    let Some(winner) = resolution.winner else {
        let withheld = resolution
            .candidates
            .into_iter()
            .find(|c| c.fate == Fate::Withheld)
            .map(|c| c.source);
        return Ok(unchanged(resolution.diagnostics, withheld));
    };
    let mut diagnostics = resolution.diagnostics;
    let rendered = render(&winner.raw, &invocation.args, None);
    if let Some(limit) = rendered.truncated_at {
        diagnostics.push(Diagnostic::warning(
            &winner.source,
            format!("the expansion passed {limit} bytes and was cut there"),
        ));
    }
    Ok(DirExpansion {
        expansion: Expansion {
            expanded: true,
            name: Some(invocation.name),
            args: invocation.args,
            source: Some(winner.source),
            output: rendered.text,
        },
        diagnostics,
        withheld: None,
    })
}

/// One listed command file: the winner of its name, or, when nothing claims
/// the name, the first withheld file holding it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedFile {
    /// The name (file name minus `.md`); may lie outside the grammar.
    pub name: String,
    /// Its description, or empty when the listing did not read files.
    pub description: String,
    /// Which of the searched directories holds it.
    pub dir_index: usize,
    /// Its path as the reader displays it.
    pub source: String,
    /// True when it comes from a withheld directory.
    pub withheld: bool,
}

/// Everything found in the command directories.
#[derive(Debug)]
pub struct Listing {
    /// One entry per name, sorted by name.
    pub commands: Vec<ListedFile>,
    /// Diagnostics about every file and directory discovered.
    pub diagnostics: Vec<Diagnostic>,
    /// Genuine read faults listing a directory (also in `diagnostics`).
    pub faults: Vec<ReadFault>,
}

impl Listing {
    /// The invokable commands (not withheld, valid names), or the first
    /// directory read fault.
    pub fn into_commands(self) -> Result<Vec<Command>, ReadFault> {
        if let Some(fault) = self.faults.into_iter().next() {
            return Err(fault);
        }
        Ok(self
            .commands
            .into_iter()
            .filter(|c| !c.withheld && valid_command_name(&c.name))
            .map(|c| Command {
                name: c.name,
                description: c.description,
            })
            .collect())
    }
}

/// Lists the command files of `dirs` (SPEC §5.5) under the same precedence
/// as [`resolve`], so a listing and an expansion always agree on the winner.
///
/// `<dir>/*.md` entries are candidates (dotfiles too; `.md` is
/// case-sensitive; a bare `.md` is skipped with a warning, a file name that
/// is not UTF-8 too). With `describe`, the head of each file that can be
/// listed is read for its description; without, nothing is read (for shell
/// completion), so an unreadable file is listed. Nested subdirectories each
/// get an info diagnostic; names outside the grammar a "cannot be invoked"
/// warning. A directory that exists but cannot be listed, or is not a
/// directory, gives a fatal diagnostic and the others are still read.
pub fn list_in(dirs: &[SearchDir<'_>], describe: bool) -> Listing {
    let head = describe.then_some(DESCRIPTION_HEAD_BYTES);
    let mut precedence = Precedence::new(
        dirs,
        Reads {
            winner: head,
            withheld: head,
        },
    );
    let mut rows: BTreeMap<String, ListedFile> = BTreeMap::new();
    let mut faults = Vec::new();
    for (dir_index, dir) in dirs.iter().enumerate() {
        let entries = match dir.ws.list(dir.dir) {
            Ok(entries) => entries,
            Err(err) => {
                if let Some(fault) = directory_problem(dir, err, &mut precedence.diagnostics) {
                    faults.push(fault);
                }
                continue;
            }
        };
        for entry in entries {
            let path = join(dir.dir, &entry.name);
            let Some(name) = entry.name.strip_suffix(".md") else {
                if !entry.lossy && is_subdirectory(dir, &path, entry.kind) {
                    precedence
                        .diagnostics
                        .push(nested_directory_info(dir, &entry.name, &path));
                }
                continue;
            };
            let source = || dir.ws.display(&path);
            if entry.lossy {
                precedence.diagnostics.push(Diagnostic::warning(
                    source(),
                    "file name is not valid UTF-8, so the command cannot be named; skipped",
                ));
                continue;
            }
            if name.is_empty() {
                precedence.diagnostics.push(Diagnostic::warning(
                    source(),
                    "a file named only .md has no command name; skipped",
                ));
                continue;
            }
            let Some(considered) = precedence.consider(dir_index, name, &path, Some(entry.kind))
            else {
                continue;
            };
            let checked = considered.content.as_ref().map(|c| {
                let decoded = decode_read(&c.bytes, c.is_truncated());
                (c, decoded)
            });
            if let (Fate::Winner, Some((content, decoded))) = (&considered.fate, &checked) {
                let diagnostics = &mut precedence.diagnostics;
                content_warnings(content, decoded.lossy, &considered.source, diagnostics);
            }
            let listed = match considered.fate {
                Fate::Winner => true,
                Fate::Withheld => !rows.contains_key(name),
                _ => false,
            };
            if listed {
                let description = checked
                    .map(|(_, decoded)| description(&decoded.text))
                    .unwrap_or_default();
                rows.insert(
                    name.to_string(),
                    ListedFile {
                        name: name.to_string(),
                        description,
                        dir_index,
                        source: considered.source,
                        withheld: considered.fate == Fate::Withheld,
                    },
                );
            }
        }
    }
    let mut diagnostics = precedence.diagnostics;
    for row in rows.values().filter(|row| !valid_command_name(&row.name)) {
        diagnostics.push(Diagnostic::warning(
            &row.source,
            format!(
                "/{} cannot be invoked: command names use only ASCII letters, digits, -, _ and .",
                row.name
            ),
        ));
    }
    Listing {
        commands: rows.into_values().collect(),
        diagnostics,
        faults,
    }
}

/// Reports a command directory that could not be listed; a missing one is
/// no commands, not a problem. Returns the read fault, if it was one.
fn directory_problem(
    dir: &SearchDir<'_>,
    err: WsError,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ReadFault> {
    let path = dir.ws.display(dir.dir);
    let reason = match err {
        WsError::NotFound => return None,
        WsError::Io(source) => {
            diagnostics.push(Diagnostic::fatal(
                &path,
                format!("command directory cannot be listed: {source}"),
            ));
            return Some(ReadFault { path, source });
        }
        WsError::NotADirectory | WsError::NotRegular(_) => {
            "a command directory is expected here, but this is not a directory".to_string()
        }
        WsError::Refused(why) => format!("command directory not read: {why}"),
        // SPEC §3.1: a link that cannot be resolved counts as not found.
        WsError::Unresolvable(why) => {
            diagnostics.push(Diagnostic::warning(
                path,
                format!("command directory is a {why}; treated as missing"),
            ));
            return None;
        }
    };
    diagnostics.push(Diagnostic::fatal(path, reason));
    None
}

fn is_subdirectory(dir: &SearchDir<'_>, path: &str, kind: EntryKind) -> bool {
    match kind {
        EntryKind::Dir => true,
        EntryKind::Symlink => matches!(dir.ws.stat(path), Ok(EntryKind::Dir)),
        _ => false,
    }
}

/// The info diagnostic for a nested subdirectory: the engine does not read
/// it, Claude Code would offer its files as `/dir:name`.
fn nested_directory_info(dir: &SearchDir<'_>, name: &str, path: &str) -> Diagnostic {
    let stems: Vec<String> = match dir.ws.list(path) {
        Ok(entries) => entries
            .into_iter()
            .filter(|e| !e.lossy)
            .filter_map(|e| e.name.strip_suffix(".md").map(str::to_string))
            .filter(|stem| !stem.is_empty())
            .collect(),
        Err(_) => Vec::new(),
    };
    let reason = match stems.first() {
        Some(first) => format!(
            "nested directory not read: its {} .md file(s) are not commands here \
             (Claude Code would offer them as /{name}:NAME, e.g. /{name}:{first})",
            stems.len()
        ),
        None => "nested directory not read: commands are only taken from .md files \
                 directly in the commands directory"
            .to_string(),
    };
    Diagnostic::info(dir.ws.display(path), reason)
}

/// The directory-backed expander and lister (SPEC §5.5): `<name>.md` files
/// under workspace-relative directories, read through the workspace on
/// every call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirCommandExpander {
    dirs: Vec<String>,
}

impl Default for DirCommandExpander {
    fn default() -> Self {
        Self::new(Vec::<String>::new())
    }
}

impl DirCommandExpander {
    /// An expander over `dirs`, highest precedence first; no directories
    /// means [`DEFAULT_COMMAND_DIRS`].
    pub fn new<I, S>(dirs: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut dirs: Vec<String> = dirs.into_iter().map(Into::into).collect();
        if dirs.is_empty() {
            dirs = DEFAULT_COMMAND_DIRS.iter().map(|d| d.to_string()).collect();
        }
        Self { dirs }
    }

    /// The directories searched, highest precedence first.
    pub fn dirs(&self) -> &[String] {
        &self.dirs
    }

    fn search_dirs<'a>(&'a self, ws: &'a dyn Workspace) -> Vec<SearchDir<'a>> {
        self.dirs
            .iter()
            .map(|dir| SearchDir {
                ws,
                dir,
                withheld: false,
            })
            .collect()
    }
}

impl CommandExpander for DirCommandExpander {
    fn expand(&self, ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault> {
        expand_in(&self.search_dirs(ws), input).map(|outcome| outcome.expansion)
    }

    fn as_lister(&self) -> Option<&dyn CommandLister> {
        Some(self)
    }
}

impl CommandLister for DirCommandExpander {
    fn list(&self, ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault> {
        list_in(&self.search_dirs(ws), true).into_commands()
    }
}

// ---------------------------------------------------------------------------
// §5.6 Command sources

/// A raw template and the post-expansion text a source puts in front of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyWithPost {
    /// The raw template, frontmatter included.
    pub body: String,
    /// Text placed before the rendered template, never substituted.
    pub post: String,
}

/// A non-filesystem command backend (SPEC §5.6). Live: consulted on every
/// call. Where templates live is the source's own business.
pub trait CommandSource {
    /// A genuine backend fault.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The commands' metadata (no bodies), one per valid name, sorted.
    fn list_commands(&self) -> Result<Vec<Command>, Self::Error>;

    /// The raw template for `name`, frontmatter included, byte for byte;
    /// `Ok(None)` for an unknown name, which is never an error.
    fn command_body(&self, name: &str) -> Result<Option<String>, Self::Error>;

    /// `None` when the source offers no post-expansion text (the default);
    /// else what [`CommandSource::command_body`] would give, with that text.
    fn body_with_post(&self, name: &str) -> Option<Result<Option<BodyWithPost>, Self::Error>> {
        let _ = name;
        None
    }
}

/// Adapts a [`CommandSource`] to the expander and lister ports, rendering a
/// template byte-identically to [`DirCommandExpander`] (the same grammar,
/// frontmatter stripping, substitution and [`render`]). The workspace
/// argument is ignored.
#[derive(Debug, Clone)]
pub struct SourceExpander<S> {
    source: S,
}

impl<S: CommandSource> SourceExpander<S> {
    /// An expander over `source`.
    pub fn new(source: S) -> Self {
        Self { source }
    }

    /// The wrapped source.
    pub fn source(&self) -> &S {
        &self.source
    }
}

/// A source error as a read fault naming what was being read.
fn source_fault(what: String, err: impl std::error::Error + Send + Sync + 'static) -> ReadFault {
    ReadFault {
        path: what,
        source: io::Error::other(err),
    }
}

impl<S: CommandSource> CommandExpander for SourceExpander<S> {
    fn expand(&self, _ws: &dyn Workspace, input: &str) -> Result<Expansion, ReadFault> {
        let Some(invocation) = parse_invocation(input) else {
            return Ok(Expansion::unchanged(input));
        };
        let fault = |err| source_fault(format!("/{} (command source)", invocation.name), err);
        let found = match self.source.body_with_post(&invocation.name) {
            Some(result) => result.map_err(fault)?.map(|b| (b.body, Some(b.post))),
            None => self
                .source
                .command_body(&invocation.name)
                .map_err(fault)?
                .map(|body| (body, None)),
        };
        let Some((body, post)) = found else {
            return Ok(Expansion::unchanged(input));
        };
        let rendered = render(&body, &invocation.args, post.as_deref());
        Ok(Expansion {
            expanded: true,
            name: Some(invocation.name),
            args: invocation.args,
            source: None,
            output: rendered.text,
        })
    }

    fn as_lister(&self) -> Option<&dyn CommandLister> {
        Some(self)
    }
}

impl<S: CommandSource> CommandLister for SourceExpander<S> {
    fn list(&self, _ws: &dyn Workspace) -> Result<Vec<Command>, ReadFault> {
        let commands = self
            .source
            .list_commands()
            .map_err(|err| source_fault("command source listing".to_string(), err))?;
        let mut unique = BTreeMap::new();
        for command in commands {
            unique.entry(command.name.clone()).or_insert(command);
        }
        Ok(unique.into_values().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::workspace::{MemNode, MemWorkspace};
    use proptest::prelude::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn inv(input: &str) -> Option<(String, Vec<String>)> {
        parse_invocation(input).map(|i| (i.name, i.args))
    }

    fn some(name: &str, list: &[&str]) -> Option<(String, Vec<String>)> {
        Some((name.to_string(), args(list)))
    }

    // §5.1 -----------------------------------------------------------------

    #[test]
    fn grammar_names_and_arguments() {
        assert_eq!(inv("/fix a b"), some("fix", &["a", "b"]));
        assert_eq!(inv("/fix"), some("fix", &[]));
        assert_eq!(inv("/fix\n"), some("fix", &[]));
        assert_eq!(inv("/pr.merge-2_x:y z"), some("pr.merge-2_x", &[":y", "z"]));
        assert_eq!(inv("/fixé"), some("fix", &["é"]));
        assert_eq!(inv("/..  x"), some("..", &["x"]));
    }

    #[test]
    fn grammar_strips_only_leading_spaces_and_tabs() {
        assert_eq!(inv("\t /fix x"), some("fix", &["x"]));
        assert_eq!(inv("   /fix"), some("fix", &[]));
        assert_eq!(inv("\n/fix"), None);
        assert_eq!(inv("\u{a0}/fix"), None);
        assert_eq!(inv("x /fix"), None);
    }

    #[test]
    fn grammar_rejects_empty_names() {
        assert_eq!(inv(""), None);
        assert_eq!(inv("/"), None);
        assert_eq!(inv("/ fix"), None);
        assert_eq!(inv("//fix"), None);
        assert_eq!(inv("/:x"), None);
    }

    #[test]
    fn etc_hosts_is_command_etc_with_argument() {
        assert_eq!(inv("/etc/hosts"), some("etc", &["/hosts"]));
    }

    #[test]
    fn arguments_split_on_unicode_whitespace_without_quoting() {
        assert_eq!(
            inv("/fix a\u{a0}b\u{2003}c\u{3000}d\u{85}e\r\nf\u{2028}g"),
            some("fix", &["a", "b", "c", "d", "e", "f", "g"])
        );
        // U+200B is not whitespace.
        assert_eq!(inv("/fix a\u{200b}b"), some("fix", &["a\u{200b}b"]));
        assert_eq!(inv("/fix \"a b\""), some("fix", &["\"a", "b\""]));
    }

    #[test]
    fn valid_names() {
        for name in ["fix", "pr.merge-2", ".x", "..", "A_b-9"] {
            assert!(valid_command_name(name), "{name}");
        }
        for name in ["", "my cmd", "a/b", "a:b", "é", "x\n"] {
            assert!(!valid_command_name(name), "{name:?}");
        }
    }

    // §5.2 -----------------------------------------------------------------

    #[test]
    fn substitutes_arguments_and_positionals() {
        let a = args(&["a", "b"]);
        assert_eq!(substitute("$1-$2-$3", &a), "a-b-");
        assert_eq!(substitute("[$ARGUMENTS]", &a), "[a b]");
        assert_eq!(substitute("[$ARGUMENTS]", &[]), "[]");
        assert_eq!(substitute("$ARGUMENTSX", &a), "a bX");
        assert_eq!(substitute("$ARGUMENTS1", &a), "a b1");
        assert_eq!(substitute("é$1ü", &a), "éaü");
    }

    #[test]
    fn dollar_zero_and_out_of_range_are_empty() {
        let a = args(&["a"]);
        assert_eq!(substitute("<$0>", &a), "<>");
        assert_eq!(substitute("<$2>", &a), "<>");
        assert_eq!(substitute("<$0001>", &a), "<a>");
    }

    #[test]
    fn a_digit_run_is_one_index() {
        let ten: Vec<String> = (1..=10).map(|i| format!("a{i}")).collect();
        assert_eq!(substitute("<$10>", &ten), "<a10>");
        assert_eq!(substitute("<$10>", &ten[..9]), "<>");
        assert_eq!(substitute("<$1 0>", &ten[..9]), "<a1 0>");
    }

    #[test]
    fn other_dollars_are_literal() {
        let a = args(&["a"]);
        assert_eq!(substitute("$HOME", &a), "$HOME");
        assert_eq!(substitute("$$1", &a), "$a");
        assert_eq!(substitute("$", &a), "$");
        assert_eq!(substitute("a $ b $", &a), "a $ b $");
        assert_eq!(substitute("$ARGUMENT", &a), "$ARGUMENT");
        assert_eq!(substitute("$arguments", &a), "$arguments");
        assert_eq!(substitute("$\u{661}", &a), "$\u{661}");
    }

    #[test]
    fn overflowing_digit_runs_are_empty() {
        let a = args(&["a"]);
        let forty = format!("x${}y", "1".repeat(40));
        assert_eq!(substitute(&forty, &a), "xy");
        let huge = format!("x${}y", "9".repeat(100_000));
        assert_eq!(substitute(&huge, &a), "xy");
        let max = format!("<${}>", usize::MAX);
        assert_eq!(substitute(&max, &a), "<>");
    }

    #[test]
    fn substituted_text_is_never_rescanned() {
        let a = args(&["$2", "b", "$ARGUMENTS"]);
        assert_eq!(substitute("$1", &a), "$2");
        assert_eq!(substitute("$3", &a), "$ARGUMENTS");
        assert_eq!(substitute("$ARGUMENTS", &a), "$2 b $ARGUMENTS");
    }

    // §5.3 -----------------------------------------------------------------

    #[test]
    fn frontmatter_is_stripped_byte_exactly() {
        let cases = [
            ("---\ndescription: x\n---\nBody\n", "Body\n"),
            ("---\ndescription: x\n---\n\nBody", "Body"),
            ("---\ndescription: x\n---\n\n\nBody", "\nBody"),
            ("---\na\n---", ""),
            ("---\n---\n", ""),
            ("---\n---\nB", "B"),
            ("---\na\n---\r\r\nB", "B"),
            ("---\n  ---\n---\nB", "B"),
        ];
        for (raw, body) in cases {
            assert_eq!(strip_frontmatter(raw), body, "{raw:?}");
        }
    }

    #[test]
    fn crlf_frontmatter_keeps_the_engines_quirks() {
        assert_eq!(
            strip_frontmatter("---\r\ndescription: x\r\n---\r\nBody\r\n"),
            "Body\r\n"
        );
        // Only a leading \n is removed; this body starts with the \r of
        // the blank line, so that line's \r\n stays.
        assert_eq!(
            strip_frontmatter("---\r\na: b\r\n---\r\n\r\nBody"),
            "\r\nBody"
        );
        assert_eq!(strip_frontmatter("---\r\na: b\r\n---\nBody"), "Body");
    }

    #[test]
    fn no_frontmatter_leaves_the_file_unchanged() {
        for raw in [
            "\u{feff}---\na: b\n---\nBody",
            "---\na: b\nBody",
            "---",
            "---\n",
            "--- \na\n---\nB",
            "----\na\n---\nB",
            "\n---\na\n---\nB",
            "---\na\n --- \nB",
            "",
        ] {
            assert_eq!(strip_frontmatter(raw), raw, "{raw:?}");
        }
    }

    #[test]
    fn frontmatter_keys_are_top_level_keys() {
        let raw = "---\ndescription: x\nallowed-tools: Bash\nmeta:\n  nested: 1\n# c\n---\nBody";
        assert_eq!(
            frontmatter_keys(raw),
            ["description", "allowed-tools", "meta"]
        );
        assert!(frontmatter_keys("---\na: b\nBody").is_empty());
    }

    // §5.4 -----------------------------------------------------------------

    #[test]
    fn description_from_frontmatter() {
        assert_eq!(
            description("---\ndescription: Run it.\n---\nBody"),
            "Run it."
        );
        assert_eq!(
            description("---\ndescription:   spaced  \n---\nB"),
            "spaced"
        );
        assert_eq!(
            description("---\nname: a\ndescription: second\n---\nB"),
            "second"
        );
        assert_eq!(
            description("---\r\ndescription: \"Quoted\"\r\n---\r\nB"),
            "Quoted"
        );
        assert_eq!(description("---\ndescription: 'single'\n---\nB"), "single");
        assert_eq!(
            description("---\ndescription: \"mixed'\n---\nB"),
            "\"mixed'"
        );
        assert_eq!(description("---\ndescription: \"\"\n---\nBody"), "Body");
        assert_eq!(description("---\ndescription:\n---\nBody"), "Body");
    }

    #[test]
    fn description_folds_block_scalars() {
        let folded = "---\ndescription: >\n  Line one\n  line two\n\n  three\nname: x\n---\nBody";
        assert_eq!(description(folded), "Line one line two three");
        let literal = "---\r\ndescription: |-\r\n    Keep\r\n    this\r\n---\r\nBody";
        assert_eq!(description(literal), "Keep this");
        let empty = "---\ndescription: >\nname: x\n---\nBody";
        assert_eq!(description(empty), "Body");
        let commented = "---\ndescription: > # note\n  Folded\n---\nB";
        assert_eq!(description(commented), "Folded");
        assert_eq!(description("---\ndescription: >x\n---\nB"), ">x");
    }

    #[test]
    fn description_scan_stops_at_a_trimmed_fence() {
        let raw = "---\nname: a\n  ---  \ndescription: late\n---\nBody";
        assert_eq!(description(raw), "Body");
        let nested = "---\nmeta:\n  description: nested\n---\nBody";
        assert_eq!(description(nested), "Body");
        let unterminated = "---\ndescription: D\nBody";
        assert_eq!(description(unterminated), "D");
    }

    #[test]
    fn description_falls_back_to_first_non_blank_line() {
        assert_eq!(description("\n  \n  # Title  \nmore"), "# Title");
        assert_eq!(description("---\nname: x\n---\n\n\tFirst\n"), "First");
        assert_eq!(description(""), "");
        assert_eq!(description("   \n\n"), "");
        assert_eq!(description("Title\rrest"), "Title");
        assert_eq!(description("a\tb\u{1b}[31m"), "a b [31m");
        // Control characters at either end leave no padding behind.
        assert_eq!(description("\0title\0\n"), "title");
        assert_eq!(description("---\ndescription: d\u{7}\n---\n"), "d");
        // A BOM before the fence: not frontmatter, and not part of the line.
        assert_eq!(description("\u{feff}---\ndescription: x\n---\nBody"), "---");
        assert_eq!(description("---\na: b\nBody"), "---");
    }

    #[test]
    fn description_cap_counts_the_ellipsis() {
        let max = limits::MAX_COMMAND_DESCRIPTION_CHARS;
        let at = "x".repeat(max);
        assert_eq!(description(&at), at);
        let under = "x".repeat(max - 1);
        assert_eq!(description(&under), under);
        let over = "é".repeat(max + 1);
        let cut = description(&over);
        assert_eq!(cut, format!("{}…", "é".repeat(max - 1)));
        assert_eq!(cut.chars().count(), max);
        let way_over = format!("---\ndescription: {}\n---\n", "y".repeat(500));
        assert_eq!(description(&way_over), format!("{}…", "y".repeat(max - 1)));
    }

    // §5.6 render and caps ---------------------------------------------------

    #[test]
    fn render_strips_frontmatter_then_substitutes() {
        let out = render("---\ndescription: d\n---\nReview $1.", &args(&["x"]), None);
        assert_eq!(out.text, "Review x.");
        assert_eq!(out.truncated_at, None);
    }

    #[test]
    fn post_text_is_prepended_and_never_substituted() {
        let out = render("Body $1", &args(&["a"]), Some("Post $1 $ARGUMENTS\n"));
        assert_eq!(out.text, "Post $1 $ARGUMENTS\nBody a");
        assert_eq!(render("B", &[], Some("")), render("B", &[], None));
    }

    #[test]
    fn post_expansion_cap_at_its_boundary() {
        let max = limits::MAX_EXPANSION_BYTES;
        let marker = format!("\n...[expansion truncated at {max} bytes]");
        assert_eq!(marker, "\n...[expansion truncated at 25000 bytes]");
        let post = "p".repeat(10);

        let at = "b".repeat(max - post.len());
        let out = render(&at, &[], Some(&post));
        assert_eq!(out.text.len(), max);
        assert_eq!(out.truncated_at, None);

        let under = "b".repeat(max - post.len() - 1);
        assert_eq!(render(&under, &[], Some(&post)).text.len(), max - 1);

        let over = "b".repeat(max - post.len() + 1);
        let out = render(&over, &[], Some(&post));
        assert_eq!(out.truncated_at, Some(max));
        assert_eq!(
            out.text,
            format!("{post}{}{marker}", "b".repeat(max - post.len()))
        );
    }

    #[test]
    fn post_expansion_cap_lands_on_a_char_boundary() {
        let max = limits::MAX_EXPANSION_BYTES;
        // "p" then two-byte characters: byte `max` falls inside one.
        let body = "é".repeat(max / 2 + 1);
        let out = render(&body, &[], Some("p"));
        let kept = out
            .text
            .strip_suffix("\n...[expansion truncated at 25000 bytes]")
            .unwrap();
        assert_eq!(kept.len(), max - 1);
        assert_eq!(kept, format!("p{}", "é".repeat((max - 2) / 2)));
    }

    #[test]
    fn templates_without_post_text_are_not_cut_at_the_post_cap() {
        let body = "b".repeat(29_675);
        let out = render(&body, &[], None);
        assert_eq!(out.text, body);
        assert_eq!(out.truncated_at, None);
    }

    #[test]
    fn argument_amplification_is_bounded() {
        let big = "a".repeat(100_000);
        let body = "$ARGUMENTS ".repeat(1_000);
        let out = render(&body, &[big], None);
        let bound = limits::MAX_COMMAND_FILE_BYTES as usize;
        assert_eq!(out.truncated_at, Some(bound));
        let marker = format!("\n...[expansion truncated at {bound} bytes]");
        assert_eq!(out.text.len(), bound + marker.len());
        assert!(out.text.ends_with(&marker));
    }

    // §5.5 directories ---------------------------------------------------------

    fn ws_with(files: &[(&str, &str)]) -> MemWorkspace {
        files
            .iter()
            .fold(MemWorkspace::new(), |ws, (path, body)| ws.file(path, body))
    }

    fn dirs(ws: &dyn Workspace) -> Vec<SearchDir<'_>> {
        DEFAULT_COMMAND_DIRS
            .iter()
            .map(|dir| SearchDir {
                ws,
                dir,
                withheld: false,
            })
            .collect()
    }

    fn reasons(diagnostics: &[Diagnostic]) -> Vec<(Severity, String, String)> {
        diagnostics
            .iter()
            .map(|d| {
                (
                    d.severity,
                    d.path.clone().unwrap_or_default(),
                    d.reason.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn mecatl_directory_wins_over_claude() {
        let ws = ws_with(&[
            (".mecatl/commands/fix.md", "mecatl $1"),
            (".claude/commands/fix.md", "claude $1"),
        ]);
        let out = DirCommandExpander::default().expand(&ws, "/fix x").unwrap();
        assert_eq!(
            out,
            Expansion {
                expanded: true,
                name: Some("fix".into()),
                args: args(&["x"]),
                source: Some(".mecatl/commands/fix.md".into()),
                output: "mecatl x".into(),
            }
        );
        let outcome = expand_in(&dirs(&ws), "/fix").unwrap();
        assert_eq!(
            reasons(&outcome.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/fix.md".into(),
                "shadowed by .mecatl/commands/fix.md, which takes precedence".into()
            )]
        );
    }

    #[test]
    fn unknown_and_non_commands_pass_through() {
        let ws = ws_with(&[(".claude/commands/fix.md", "x")]);
        let expander = DirCommandExpander::default();
        for input in ["/nope a", "hello", "/etc/hosts", "", "  /", "\n/fix"] {
            assert_eq!(
                expander.expand(&ws, input).unwrap(),
                Expansion::unchanged(input),
                "{input:?}"
            );
        }
    }

    #[test]
    fn custom_directories_replace_the_defaults() {
        let ws = ws_with(&[
            ("cmds/a/fix.md", "A"),
            ("cmds/b/fix.md", "B"),
            (".claude/commands/fix.md", "C"),
        ]);
        let expander = DirCommandExpander::new(["cmds/b", "cmds/a"]);
        assert_eq!(expander.expand(&ws, "/fix").unwrap().output, "B");
        assert_eq!(DirCommandExpander::default().dirs(), DEFAULT_COMMAND_DIRS);
    }

    #[test]
    fn non_regular_files_are_not_found_and_the_next_directory_wins() {
        for node in [MemNode::Special("FIFO"), MemNode::Dir] {
            let ws = ws_with(&[(".claude/commands/x.md", "claude")])
                .node(".mecatl/commands/x.md", node.clone());
            let outcome = expand_in(&dirs(&ws), "/x").unwrap();
            assert_eq!(outcome.expansion.output, "claude");
            let what = if matches!(node, MemNode::Dir) {
                "directory"
            } else {
                "FIFO"
            };
            assert_eq!(
                reasons(&outcome.diagnostics),
                [(
                    Severity::Warning,
                    ".mecatl/commands/x.md".into(),
                    format!(
                        "not used: not a regular file ({what}); .claude/commands/x.md is used instead"
                    )
                )]
            );
        }
    }

    #[test]
    fn refused_and_dangling_symlinks_are_not_found() {
        let ws = MemWorkspace::new()
            .node(
                ".mecatl/commands/x.md",
                MemNode::Symlink("../../../secret".into()),
            )
            .node(".claude/commands/x.md", MemNode::Symlink("gone.md".into()));
        let resolution = resolve(&dirs(&ws), "x");
        assert!(resolution.winner.is_none());
        assert!(resolution.fault.is_none());
        let fates: Vec<&str> = resolution
            .candidates
            .iter()
            .map(|c| c.fate.as_str())
            .collect();
        assert_eq!(fates, ["refused symlink", "not found"]);
        assert!(
            resolution
                .diagnostics
                .iter()
                .all(|d| d.severity == Severity::Warning)
        );
        let expansion = DirCommandExpander::default().expand(&ws, "/x").unwrap();
        assert!(!expansion.expanded);
    }

    #[test]
    fn symlinks_inside_the_workspace_are_followed() {
        let ws = ws_with(&[("shared/review.md", "Shared $1")]).node(
            ".claude/commands/review.md",
            MemNode::Symlink("../../shared/review.md".into()),
        );
        let out = DirCommandExpander::default()
            .expand(&ws, "/review a")
            .unwrap();
        assert_eq!(out.output, "Shared a");
    }

    #[test]
    fn a_read_fault_on_the_first_candidate_is_an_error() {
        let ws = ws_with(&[(".claude/commands/x.md", "claude")])
            .node(".mecatl/commands/x.md", MemNode::Unreadable);
        let err = DirCommandExpander::default().expand(&ws, "/x").unwrap_err();
        assert_eq!(err.path, ".mecatl/commands/x.md");
        assert_eq!(err.source.kind(), io::ErrorKind::PermissionDenied);
        // A fault after the winner is not the expansion's business.
        let ws = ws_with(&[(".mecatl/commands/x.md", "mecatl")])
            .node(".claude/commands/x.md", MemNode::Unreadable);
        assert_eq!(
            DirCommandExpander::default()
                .expand(&ws, "/x")
                .unwrap()
                .output,
            "mecatl"
        );
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily_with_a_warning() {
        let ws = MemWorkspace::new().file(".claude/commands/x.md", b"a\xffb $1");
        let outcome = expand_in(&dirs(&ws), "/x y").unwrap();
        assert_eq!(outcome.expansion.output, "a\u{fffd}b y");
        assert_eq!(
            reasons(&outcome.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/x.md".into(),
                "not valid UTF-8; invalid bytes are replaced with U+FFFD".into()
            )]
        );
    }

    #[test]
    fn listing_warns_about_invalid_utf8_after_naming_the_winner() {
        let ws = MemWorkspace::new()
            .node(".mecatl/commands/x.md", MemNode::Special("FIFO"))
            .file(".claude/commands/x.md", b"Fix \xff now");
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(listing.commands[0].description, "Fix \u{fffd} now");
        assert_eq!(
            reasons(&listing.diagnostics),
            [
                (
                    Severity::Warning,
                    ".mecatl/commands/x.md".into(),
                    "not used: not a regular file (FIFO); .claude/commands/x.md is used instead"
                        .into()
                ),
                (
                    Severity::Warning,
                    ".claude/commands/x.md".into(),
                    "not valid UTF-8; invalid bytes are replaced with U+FFFD".into()
                ),
            ]
        );
    }

    #[test]
    fn command_files_are_read_with_a_bound() {
        let max = limits::MAX_COMMAND_FILE_BYTES as usize;
        let mut big = "a".repeat(max - 1);
        big.push('é');
        big.push_str("tail");
        let ws = MemWorkspace::new().file(".claude/commands/big.md", &big);
        let outcome = expand_in(&dirs(&ws), "/big").unwrap();
        assert_eq!(outcome.expansion.output, "a".repeat(max - 1));
        assert_eq!(
            reasons(&outcome.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/big.md".into(),
                format!(
                    "file is {} bytes; only the first {max} bytes are used",
                    big.len()
                )
            )]
        );
    }

    #[test]
    fn a_bom_before_the_fence_is_reported() {
        let raw = "\u{feff}---\ndescription: d\n---\nBody";
        let ws = MemWorkspace::new().file(".claude/commands/b.md", raw);
        let outcome = expand_in(&dirs(&ws), "/b").unwrap();
        assert_eq!(outcome.expansion.output, raw);
        assert_eq!(outcome.diagnostics.len(), 1);
        assert!(
            outcome.diagnostics[0]
                .reason
                .starts_with("a byte order mark precedes")
        );
    }

    #[test]
    fn frontmatter_after_blank_lines_is_reported() {
        for raw in [
            "\n---\ndescription: d\n---\nBody",
            " \r\n---\r\na: b\r\n---\r\n",
        ] {
            let ws = MemWorkspace::new().file(".claude/commands/b.md", raw);
            let outcome = expand_in(&dirs(&ws), "/b").unwrap();
            assert_eq!(outcome.expansion.output, raw);
            assert_eq!(
                reasons(&outcome.diagnostics),
                [(
                    Severity::Warning,
                    ".claude/commands/b.md".into(),
                    "the opening --- is not at the start of the file, so the frontmatter is not \
                     recognised and reaches the model as text; remove what precedes it"
                        .into()
                )]
            );
        }
        for raw in ["Body\n---\na\n---\n", "---\na: b\n---\nB", "--- x\n", ""] {
            assert_eq!(misplaced_frontmatter(raw.as_bytes()), None, "{raw:?}");
        }
    }

    #[test]
    fn files_are_read_on_every_call() {
        let expander = DirCommandExpander::default();
        let before = ws_with(&[(".claude/commands/x.md", "one")]);
        let after = ws_with(&[(".claude/commands/x.md", "two")]);
        assert_eq!(expander.expand(&before, "/x").unwrap().output, "one");
        assert_eq!(expander.expand(&after, "/x").unwrap().output, "two");
    }

    #[test]
    fn resolve_refuses_names_that_are_not_file_names() {
        let ws = ws_with(&[(".claude/commands/git/commit.md", "x")]);
        assert!(resolve(&dirs(&ws), "git/commit").candidates.is_empty());
        assert!(resolve(&dirs(&ws), "").candidates.is_empty());
    }

    // §5.5 listing -------------------------------------------------------------

    fn names(listing: &Listing) -> Vec<(&str, &str, &str, bool)> {
        listing
            .commands
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.description.as_str(),
                    c.source.as_str(),
                    c.withheld,
                )
            })
            .collect()
    }

    #[test]
    fn listing_takes_md_files_sorted_first_directory_wins() {
        let ws = ws_with(&[
            (".mecatl/commands/zeta.md", "Z"),
            (
                ".mecatl/commands/fix.md",
                "---\ndescription: Mecatl fix\n---\n",
            ),
            (".claude/commands/fix.md", "Claude fix"),
            (".claude/commands/.hidden.md", "Hidden"),
            (".claude/commands/alpha.md", "\n\nAlpha line\n"),
            (".claude/commands/UPPER.MD", "ignored"),
            (".claude/commands/notes.txt", "ignored"),
            (".claude/commands/.md", "bare"),
        ]);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [
                (".hidden", "Hidden", ".claude/commands/.hidden.md", false),
                ("alpha", "Alpha line", ".claude/commands/alpha.md", false),
                ("fix", "Mecatl fix", ".mecatl/commands/fix.md", false),
                ("zeta", "Z", ".mecatl/commands/zeta.md", false),
            ]
        );
        assert_eq!(
            reasons(&listing.diagnostics),
            [
                (
                    Severity::Warning,
                    ".claude/commands/.md".into(),
                    "a file named only .md has no command name; skipped".into()
                ),
                (
                    Severity::Warning,
                    ".claude/commands/fix.md".into(),
                    "shadowed by .mecatl/commands/fix.md, which takes precedence".into()
                ),
            ]
        );
    }

    #[test]
    fn nested_directories_get_one_info_each() {
        let ws = ws_with(&[
            (".claude/commands/top.md", "t"),
            (".claude/commands/git/commit.md", "c"),
            (".claude/commands/git/push.md", "p"),
            (".claude/commands/git/deeper/x.md", "x"),
            (".claude/commands/empty/readme.txt", "r"),
        ]);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [("top", "t", ".claude/commands/top.md", false)]
        );
        assert_eq!(
            reasons(&listing.diagnostics),
            [
                (
                    Severity::Info,
                    ".claude/commands/empty".into(),
                    "nested directory not read: commands are only taken from .md files directly \
                     in the commands directory"
                        .into()
                ),
                (
                    Severity::Info,
                    ".claude/commands/git".into(),
                    "nested directory not read: its 2 .md file(s) are not commands here \
                     (Claude Code would offer them as /git:NAME, e.g. /git:commit)"
                        .into()
                ),
            ]
        );
    }

    #[test]
    fn names_outside_the_grammar_are_listed_with_a_warning() {
        let ws = ws_with(&[(".claude/commands/my cmd.md", "Spaced")]);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [("my cmd", "Spaced", ".claude/commands/my cmd.md", false)]
        );
        assert_eq!(
            reasons(&listing.diagnostics),
            [(
                Severity::Warning,
                ".claude/commands/my cmd.md".into(),
                "/my cmd cannot be invoked: command names use only ASCII letters, digits, -, _ and ."
                    .into()
            )]
        );
        assert!(
            list_in(&dirs(&ws), true)
                .into_commands()
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn dropped_files_do_not_claim_their_name_in_a_listing() {
        let ws = ws_with(&[
            (".claude/commands/x.md", "Claude x"),
            (".claude/commands/y.md", "Claude y"),
        ])
        .node(".mecatl/commands/x.md", MemNode::Unreadable)
        .node(".mecatl/commands/y.md", MemNode::Special("socket"));
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [
                ("x", "Claude x", ".claude/commands/x.md", false),
                ("y", "Claude y", ".claude/commands/y.md", false),
            ]
        );
        let diagnostics = reasons(&listing.diagnostics);
        assert_eq!(diagnostics.len(), 2);
        assert_eq!(diagnostics[0].0, Severity::Fatal);
        assert_eq!(diagnostics[0].1, ".mecatl/commands/x.md");
        assert!(diagnostics[0].2.starts_with("cannot be read: "));
        assert!(
            diagnostics[0]
                .2
                .ends_with("; .claude/commands/x.md is used instead")
        );
        assert_eq!(
            diagnostics[1],
            (
                Severity::Warning,
                ".mecatl/commands/y.md".into(),
                "not used: not a regular file (socket); .claude/commands/y.md is used instead"
                    .into()
            )
        );
    }

    #[test]
    fn withheld_files_are_listed_but_claim_nothing() {
        let ws = ws_with(&[
            (".mecatl/commands/x.md", "Withheld x"),
            (".mecatl/commands/w.md", "Withheld w"),
            (".claude/commands/x.md", "Used x"),
        ]);
        let mut searched = dirs(&ws);
        searched[0].withheld = true;
        let listing = list_in(&searched, true);
        assert_eq!(
            names(&listing),
            [
                ("w", "Withheld w", ".mecatl/commands/w.md", true),
                ("x", "Used x", ".claude/commands/x.md", false),
            ]
        );
        assert!(listing.diagnostics.is_empty(), "{:?}", listing.diagnostics);
        let fates: Vec<Fate> = resolve(&searched, "x")
            .candidates
            .into_iter()
            .map(|c| c.fate)
            .collect();
        assert_eq!(fates, [Fate::Withheld, Fate::Winner]);
        let commands = list_in(&searched, true).into_commands().unwrap();
        assert_eq!(
            commands,
            [Command {
                name: "x".into(),
                description: "Used x".into()
            }]
        );
    }

    #[test]
    fn the_first_withheld_file_of_a_name_is_listed() {
        let ws = ws_with(&[
            (".mecatl/commands/w.md", "First"),
            (".claude/commands/w.md", "Second"),
        ]);
        let withheld: Vec<SearchDir<'_>> = dirs(&ws)
            .into_iter()
            .map(|d| SearchDir {
                withheld: true,
                ..d
            })
            .collect();
        let listing = list_in(&withheld, true);
        assert_eq!(
            names(&listing),
            [("w", "First", ".mecatl/commands/w.md", true)]
        );
        assert!(listing.diagnostics.is_empty());
        let outcome = expand_in(&withheld, "/w now").unwrap();
        assert_eq!(outcome.expansion, Expansion::unchanged("/w now"));
        assert_eq!(outcome.withheld.as_deref(), Some(".mecatl/commands/w.md"));
    }

    #[test]
    fn listing_without_descriptions_reads_no_file() {
        let ws = MemWorkspace::new().node(".claude/commands/x.md", MemNode::Unreadable);
        let listing = list_in(&dirs(&ws), false);
        assert_eq!(names(&listing), [("x", "", ".claude/commands/x.md", false)]);
        assert!(listing.diagnostics.is_empty());
    }

    #[test]
    fn broken_command_directories_are_fatal_and_others_still_load() {
        let ws = ws_with(&[
            (".mecatl/commands", "a file"),
            (".claude/commands/ok.md", "Ok"),
        ]);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [("ok", "Ok", ".claude/commands/ok.md", false)]
        );
        assert_eq!(
            reasons(&listing.diagnostics),
            [(
                Severity::Fatal,
                ".mecatl/commands".into(),
                "a command directory is expected here, but this is not a directory".into()
            )]
        );
        assert!(listing.faults.is_empty());

        let ws = ws_with(&[(".claude/commands/ok.md", "Ok")])
            .node(".mecatl/commands", MemNode::Unreadable);
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(listing.commands.len(), 1);
        assert_eq!(listing.diagnostics[0].severity, Severity::Fatal);
        let err = listing.into_commands().unwrap_err();
        assert_eq!(err.path, ".mecatl/commands");
        assert!(DirCommandExpander::default().list(&ws).is_err());
    }

    #[test]
    fn an_escaping_directory_link_is_fatal() {
        let ws = ws_with(&[(".claude/commands/ok.md", "Ok")]).node(
            ".mecatl/commands",
            MemNode::Symlink("../../elsewhere".into()),
        );
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(
            names(&listing),
            [("ok", "Ok", ".claude/commands/ok.md", false)]
        );
        assert_eq!(listing.diagnostics.len(), 1);
        assert_eq!(listing.diagnostics[0].severity, Severity::Fatal);
        assert_eq!(
            listing.diagnostics[0].path.as_deref(),
            Some(".mecatl/commands")
        );
        assert!(
            listing.diagnostics[0]
                .reason
                .starts_with("command directory not read: ")
        );
    }

    #[test]
    fn a_looping_directory_link_is_missing_with_a_warning() {
        let ws = ws_with(&[(".claude/commands/ok.md", "Ok")])
            .node(".mecatl/commands", MemNode::Symlink("commands".into()));
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(listing.commands.len(), 1);
        assert_eq!(
            listing.diagnostics,
            [Diagnostic::warning(
                ".mecatl/commands",
                "command directory is a symlink loop; treated as missing"
            )]
        );
        assert!(listing.into_commands().is_ok());
    }

    #[test]
    fn missing_directories_are_no_commands() {
        let ws = MemWorkspace::new();
        let listing = list_in(&dirs(&ws), true);
        assert!(listing.commands.is_empty() && listing.diagnostics.is_empty());
        assert!(DirCommandExpander::default().list(&ws).unwrap().is_empty());
    }

    #[test]
    fn listing_and_expansion_agree_on_ten_thousand_files() {
        let mut ws = MemWorkspace::new();
        for i in 0..10_000 {
            let dir = if i % 3 == 0 {
                ".mecatl/commands"
            } else {
                ".claude/commands"
            };
            ws.insert(
                &format!("{dir}/c{:05}.md", i % 7_000),
                MemNode::File(format!("{dir} {i}").into_bytes()),
            );
        }
        let listing = list_in(&dirs(&ws), true);
        assert_eq!(listing.commands.len(), 7_000);
        for row in listing.commands.iter().step_by(97) {
            let out = expand_in(&dirs(&ws), &format!("/{}", row.name)).unwrap();
            assert_eq!(out.expansion.source.as_deref(), Some(row.source.as_str()));
            assert_eq!(out.expansion.output, row.description);
        }
    }

    // Composition ---------------------------------------------------------------

    struct Failing;

    impl CommandExpander for Failing {
        fn expand(&self, _ws: &dyn Workspace, _input: &str) -> Result<Expansion, ReadFault> {
            Err(ReadFault {
                path: "boom".into(),
                source: io::Error::other("boom"),
            })
        }
    }

    fn mem_source(
        pairs: &[(&str, &str)],
    ) -> SourceExpander<crate::conformance::commands::MemCommandSource> {
        SourceExpander::new(crate::conformance::commands::MemCommandSource::new(
            pairs.iter().copied(),
        ))
    }

    #[test]
    fn noop_expands_and_lists_nothing() {
        let ws = MemWorkspace::new();
        assert_eq!(
            NoopExpander.expand(&ws, "/fix").unwrap(),
            Expansion::unchanged("/fix")
        );
        assert!(
            NoopExpander
                .as_lister()
                .unwrap()
                .list(&ws)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn multi_expander_first_expansion_wins_and_errors_stop_the_chain() {
        let ws = ws_with(&[(".claude/commands/a.md", "dir a")]);
        let multi = MultiExpander::new(vec![
            Box::new(NoopExpander),
            Box::new(mem_source(&[("b", "source b"), ("a", "source a")])),
            Box::new(DirCommandExpander::default()),
            Box::new(Failing),
        ]);
        assert_eq!(multi.expand(&ws, "/a").unwrap().output, "source a");
        assert_eq!(multi.expand(&ws, "/b").unwrap().output, "source b");
        assert_eq!(multi.expand(&ws, "/c").unwrap_err().path, "boom");

        let ordered = MultiExpander::new(vec![
            Box::new(DirCommandExpander::default()),
            Box::new(mem_source(&[("a", "s")])),
        ]);
        assert_eq!(ordered.expand(&ws, "/a x").unwrap().output, "dir a");
        assert_eq!(
            ordered.expand(&ws, "hi").unwrap(),
            Expansion::unchanged("hi")
        );
    }

    #[test]
    fn multi_expander_merges_listings_first_occurrence_wins() {
        let ws = ws_with(&[
            (".claude/commands/a.md", "dir a"),
            (".claude/commands/c.md", "dir c"),
        ]);
        let multi = MultiExpander::new(vec![
            Box::new(Failing),
            Box::new(mem_source(&[("b", "source b"), ("a", "source a")])),
            Box::new(DirCommandExpander::default()),
        ]);
        let listed: Vec<(String, String)> = multi
            .as_lister()
            .unwrap()
            .list(&ws)
            .unwrap()
            .into_iter()
            .map(|c| (c.name, c.description))
            .collect();
        assert_eq!(
            listed,
            [
                ("a".to_string(), "source a".to_string()),
                ("b".to_string(), "source b".to_string()),
                ("c".to_string(), "dir c".to_string()),
            ]
        );
    }

    struct WithPost;

    impl CommandSource for WithPost {
        type Error = io::Error;

        fn list_commands(&self) -> Result<Vec<Command>, io::Error> {
            Ok(Vec::new())
        }

        fn command_body(&self, _name: &str) -> Result<Option<String>, io::Error> {
            Err(io::Error::other("command_body must not be called"))
        }

        fn body_with_post(&self, name: &str) -> Option<Result<Option<BodyWithPost>, io::Error>> {
            Some(match name {
                "skill" => Ok(Some(BodyWithPost {
                    body: "---\ndescription: s\n---\nUse $1.".into(),
                    post: "Base directory: /x/$1\n\n".into(),
                })),
                "broken" => Err(io::Error::other("backend down")),
                _ => Ok(None),
            })
        }
    }

    #[test]
    fn source_expander_uses_post_text_when_offered() {
        let ws = MemWorkspace::new();
        let expander = SourceExpander::new(WithPost);
        let out = expander.expand(&ws, "/skill go").unwrap();
        assert_eq!(out.output, "Base directory: /x/$1\n\nUse go.");
        assert_eq!(out.source, None);
        assert_eq!(
            expander.expand(&ws, "/other").unwrap(),
            Expansion::unchanged("/other")
        );
        let err = expander.expand(&ws, "/broken").unwrap_err();
        assert_eq!(
            err.to_string(),
            "reading /broken (command source): backend down"
        );
    }

    // Properties ----------------------------------------------------------------

    /// A straightforward reading of §5.2, character by character, to check
    /// the single-pass implementation against.
    fn reference_substitute(body: &str, args: &[String]) -> String {
        let chars: Vec<char> = body.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '$' {
                out.push(chars[i]);
                i += 1;
                continue;
            }
            let rest: String = chars[i + 1..].iter().collect();
            if rest.starts_with("ARGUMENTS") {
                out.push_str(&args.join(" "));
                i += 10;
                continue;
            }
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if digits.is_empty() {
                out.push('$');
                i += 1;
                continue;
            }
            let trimmed = digits.trim_start_matches('0');
            if trimmed.len() <= 18 {
                let index: u64 = trimmed.parse().unwrap_or(0);
                if index >= 1 && index as usize <= args.len() {
                    out.push_str(&args[index as usize - 1]);
                }
            }
            i += 1 + digits.len();
        }
        out
    }

    fn body_strategy() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("$".to_string()),
                Just("$ARGUMENTS".to_string()),
                Just("ARGUMENTS".to_string()),
                Just("---\n".to_string()),
                Just("\r\n".to_string()),
                "[0-9]{1,3}",
                "[a-zé ]{0,4}",
            ],
            0..24,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #[test]
        fn substitution_matches_the_reference(body in body_strategy(), args in proptest::collection::vec("[a-z$0-9]{1,4}", 0..12)) {
            prop_assert_eq!(substitute(&body, &args), reference_substitute(&body, &args));
        }

        #[test]
        fn in_range_positionals_never_survive(body in body_strategy(), args in proptest::collection::vec("[a-zé]{1,4}", 1..12)) {
            let out = substitute(&body, &args);
            let bytes = out.as_bytes();
            for i in 0..bytes.len().saturating_sub(1) {
                prop_assert!(
                    !(bytes[i] == b'$' && bytes[i + 1].is_ascii_digit()),
                    "{:?} left a $ and digit in {:?}", body, out
                );
            }
        }

        #[test]
        fn source_and_directory_expanders_render_identically(
            body in body_strategy(),
            args in proptest::collection::vec("[a-z$0-9é]{1,4}", 0..6),
        ) {
            let ws = MemWorkspace::new().file(".claude/commands/t.md", &body);
            let input = format!("/t {}", args.join(" "));
            let from_dir = DirCommandExpander::default().expand(&ws, &input).unwrap();
            let from_source = mem_source(&[("t", body.as_str())]).expand(&ws, &input).unwrap();
            prop_assert_eq!(&from_dir.output, &from_source.output);
            prop_assert_eq!(from_dir.args, from_source.args);
            prop_assert!(from_dir.expanded && from_source.expanded);
        }

        #[test]
        fn parsed_invocations_obey_the_grammar(
            input in "[ \t]{0,2}/?[a-z0-9._/$é \t\u{a0}\u{3000}-]{0,40}",
        ) {
            if let Some(invocation) = parse_invocation(&input) {
                prop_assert!(valid_command_name(&invocation.name));
                let rest = input.trim_start_matches([' ', '\t']);
                let head = format!("/{}", invocation.name);
                prop_assert!(rest.starts_with(&head), "{:?} does not start with {:?}", rest, head);
                for arg in &invocation.args {
                    prop_assert!(!arg.is_empty() && !arg.contains(char::is_whitespace));
                }
                let rebuilt = format!("/{} {}", invocation.name, invocation.args.join(" "));
                prop_assert_eq!(parse_invocation(&rebuilt), Some(invocation));
            } else {
                let rest = input.trim_start_matches([' ', '\t']);
                let name = rest.strip_prefix('/').unwrap_or_default();
                prop_assert!(!rest.starts_with('/') || !name.starts_with(is_name_char));
            }
        }

        #[test]
        fn nothing_panics_on_arbitrary_text(raw in ".{0,200}", input in ".{0,80}") {
            let ws = MemWorkspace::new().file(".claude/commands/t.md", &raw);
            let _ = description(&raw);
            let _ = strip_frontmatter(&raw);
            let _ = frontmatter_keys(&raw);
            let _ = DirCommandExpander::default().expand(&ws, &input).unwrap();
            let _ = DirCommandExpander::default().expand(&ws, &format!("/t {input}")).unwrap();
        }
    }
}
