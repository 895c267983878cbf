//! Rule-file frontmatter (SPEC §7.2): splitting a file into its YAML block and
//! body, and reading the `paths` key.
//!
//! This is the only module that talks to the YAML library. Every parse runs
//! under the budgets of SPEC §10 (nesting depth, aliases, nodes), so alias
//! bombs and absurd nesting fail fast with a diagnostic. Error messages are
//! built here from the error's location and kind, never from the library's
//! text, so a diagnostic never echoes the file's content.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::limits;
use crate::prompt::text::decode_lossy;

/// A rule file cut into its frontmatter and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The YAML between the fences (each line with its `\n`), or `None` when
    /// the file has no complete frontmatter block.
    pub front: Option<String>,
    /// What follows the closing fence, or the whole file when there is no
    /// block.
    pub body: String,
}

const BOM: char = '\u{feff}';
const FENCE: &str = "---";

/// Splits a rule file into frontmatter and body (SPEC §7.2).
///
/// One leading BOM is stripped and CRLF becomes LF; a block opens with a
/// first line that is exactly `---` and closes at the next line that is
/// exactly `---`, whose line break is removed with it. Without a complete
/// block the whole file is the body, BOM and CRLF untouched. Invalid UTF-8
/// is decoded lossily.
pub fn split(raw: &[u8]) -> Split {
    let text = decode_lossy(raw);
    let stripped = text.strip_prefix(BOM).unwrap_or(&text);
    // Only a file that opens with a fence can have a block; skip copying
    // the others.
    let normalised = if stripped.starts_with(FENCE) {
        stripped.replace("\r\n", "\n")
    } else {
        String::new()
    };
    match find_block(&normalised) {
        Some((front, body)) => Split {
            front: Some(front.to_string()),
            body: body.to_string(),
        },
        None => Split {
            front: None,
            body: text.into_owned(),
        },
    }
}

/// Finds `(front, body)` in LF-normalised text, or `None` without a
/// complete block.
fn find_block(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix(FENCE)?.strip_prefix('\n')?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.strip_suffix('\n').unwrap_or(line) == FENCE {
            let after = offset + line.len();
            return Some((&rest[..offset], &rest[after..]));
        }
        offset += line.len();
    }
    None
}

/// Why a frontmatter block was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontmatterProblem {
    /// The YAML does not parse; the text names the kind of mistake.
    Syntax(&'static str),
    /// An unquoted value starts with `*`, which YAML reads as an alias.
    Alias,
    /// The block exceeds the nesting, alias or node budget.
    Budget,
    /// A key appears twice in one mapping.
    DuplicateKey,
    /// The block is not a mapping of `key: value` lines.
    NotMapping,
    /// `paths` holds a mapping.
    PathsMapping,
    /// An item of the `paths` list is itself a list or mapping.
    NestedPathsItem,
}

impl FrontmatterProblem {
    fn describe(self) -> String {
        match self {
            Self::Syntax(what) => format!("invalid YAML ({what})"),
            Self::Alias => "an unquoted value starting with `*` is a YAML alias, not a glob; \
                quote the glob, e.g. `paths: \"**/*.ts\"`"
                .to_string(),
            Self::Budget => format!(
                "the YAML exceeds the frontmatter budget (nesting depth {}, {} aliases, {} nodes)",
                limits::YAML_MAX_DEPTH,
                limits::YAML_MAX_ALIASES,
                limits::YAML_MAX_NODES
            ),
            Self::DuplicateKey => "a key appears twice in the same mapping".to_string(),
            Self::NotMapping => {
                "the frontmatter must be a mapping of `key: value` lines".to_string()
            }
            Self::PathsMapping => {
                "`paths` must be a glob, a comma-separated list of globs or a YAML list of globs, \
                 not a mapping"
                    .to_string()
            }
            Self::NestedPathsItem => {
                "an item of the `paths` list must be a glob, not a nested list or mapping"
                    .to_string()
            }
        }
    }
}

/// Malformed frontmatter, located by a 1-based line and column in the rule
/// file (the opening `---` is line 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed YAML frontmatter at line {line}, column {column}: {}", problem.describe())]
pub struct FrontmatterError {
    /// 1-based line in the file, counting the opening fence.
    pub line: u64,
    /// 1-based column (in characters) on that line.
    pub column: u64,
    /// What is wrong.
    pub problem: FrontmatterProblem,
}

/// Reads the `paths` key of a frontmatter block (SPEC §7.2).
///
/// `paths` may be a YAML sequence, a scalar, or a comma- or
/// whitespace-separated scalar; every item is split with [`split_globs`].
/// Non-string scalars keep their literal text (`true`, `42`, `null`), an
/// empty value or an absent key means unconditional (an empty list). Other
/// keys are ignored.
pub fn parse_paths(front: &str) -> Result<Vec<String>, FrontmatterError> {
    let Some(paths) = parse_entries(front)?
        .into_iter()
        .find_map(|(key, value)| (key == "paths").then_some(value))
    else {
        return Ok(Vec::new());
    };
    match &paths.value {
        Node::Map => Err(error_at(
            &paths.referenced,
            FrontmatterProblem::PathsMapping,
        )),
        Node::Seq(items) => {
            let mut globs = Vec::new();
            for item in items {
                match &item.value {
                    Node::Seq(_) | Node::Map => {
                        return Err(error_at(
                            &item.referenced,
                            FrontmatterProblem::NestedPathsItem,
                        ));
                    }
                    scalar => globs.extend(split_globs(&scalar_text(front, scalar, item))),
                }
            }
            Ok(globs)
        }
        scalar => Ok(split_globs(&scalar_text(front, scalar, &paths))),
    }
}

/// A top-level value of a frontmatter block, as a string field sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    /// A scalar: the decoded string, or the literal source text of a
    /// boolean or number (`42`, `true`).
    Text(String),
    /// No value, `~` or `null`.
    Null,
    /// A sequence or mapping.
    Collection,
}

/// Reads the top-level `keys` of a frontmatter block, one result per key in
/// the order given (`None` for a key that is absent). Other keys are parsed
/// for validity and otherwise ignored; a key given twice is an error, like
/// any YAML mistake.
pub fn parse_fields(
    front: &str,
    keys: &[&str],
) -> Result<Vec<Option<FieldValue>>, FrontmatterError> {
    let entries = parse_entries(front)?;
    Ok(keys
        .iter()
        .map(|key| {
            entries
                .iter()
                .find(|(name, _)| name == key)
                .map(|(_, value)| match &value.value {
                    Node::Text(text) => FieldValue::Text(text.clone()),
                    Node::Null(_) => FieldValue::Null,
                    Node::Seq(_) | Node::Map => FieldValue::Collection,
                    literal @ Node::Literal(_) => {
                        FieldValue::Text(scalar_text(front, literal, value))
                    }
                })
        })
        .collect())
}

/// The string-keyed top-level entries of a frontmatter block (none for an
/// empty block); a block that is not a mapping is an error.
fn parse_entries(front: &str) -> Result<Vec<(String, Spanned<Node>)>, FrontmatterError> {
    let parsed: Option<Spanned<Document>> =
        serde_saphyr::from_str_with_options(front, yaml_options())
            .map_err(|err| located_error(front, &err))?;
    match parsed.map(|document| (document.value, document.referenced)) {
        None | Some((Document::Empty, _)) => Ok(Vec::new()),
        Some((Document::NotMapping, at)) => Err(error_at(&at, FrontmatterProblem::NotMapping)),
        Some((Document::Mapping(entries), _)) => Ok(entries),
    }
}

/// Splits one `paths` value into globs: on whitespace, then on commas that
/// are not inside a balanced `{…}`; pieces are trimmed and empties dropped.
///
/// Whitespace always splits, even inside braces (SPEC §7.2 names only commas
/// as protected), so `{ts, tsx}` yields two broken globs that fail to compile
/// visibly rather than one glob that silently matches ` tsx`.
pub fn split_globs(value: &str) -> Vec<String> {
    value
        .split(char::is_whitespace)
        .flat_map(split_commas_outside_braces)
        .filter(|glob| !glob.is_empty())
        .map(str::to_string)
        .collect()
}

fn split_commas_outside_braces(token: &str) -> Vec<&str> {
    let balanced = balanced_braces(token);
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in token.char_indices() {
        match c {
            '{' if balanced.contains(&i) => depth += 1,
            '}' if balanced.contains(&i) => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(&token[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&token[start..]);
    pieces
}

/// Byte offsets of the braces in `token` that have a partner; a backslash
/// escapes the next character, as in globs.
fn balanced_braces(token: &str) -> Vec<usize> {
    let mut open = Vec::new();
    let mut matched = Vec::new();
    let mut escaped = false;
    for (i, c) in token.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '{' => open.push(i),
            '}' => {
                if let Some(start) = open.pop() {
                    matched.push(start);
                    matched.push(i);
                }
            }
            _ => {}
        }
    }
    matched
}

/// The text of a scalar `paths` value: the decoded string for string
/// scalars, the literal source text for anything the YAML schema would turn
/// into a boolean, number or null.
fn scalar_text<T>(front: &str, node: &Node, spanned: &Spanned<T>) -> String {
    match node {
        Node::Text(text) => text.clone(),
        Node::Literal(fallback) | Node::Null(fallback) => source_text(front, &spanned.defined)
            .unwrap_or(fallback)
            .to_string(),
        Node::Seq(_) | Node::Map => String::new(),
    }
}

/// The source text a location covers, when the library reports byte
/// offsets that land on character boundaries of `front`.
fn source_text<'a>(front: &'a str, at: &serde_saphyr::Location) -> Option<&'a str> {
    let span = at.span();
    let start = usize::try_from(span.byte_offset()?).ok()?;
    let len = usize::try_from(span.byte_len()?).ok()?;
    front.get(start..start.checked_add(len)?)
}

/// Malformed YAML in a whole document such as settings.yaml, located by a
/// 1-based line and column; like [`FrontmatterError`], it never echoes the
/// document's content.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed YAML at line {line}, column {column}: {}", problem.describe())]
pub struct YamlError {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
    /// What is wrong.
    pub problem: FrontmatterProblem,
}

/// Parses a whole YAML document under the same budgets as frontmatter; an
/// empty or comment-only document is `None`.
pub fn parse_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<Option<T>, YamlError> {
    serde_saphyr::from_str_with_options::<Option<T>>(text, yaml_options()).map_err(|err| {
        let located = located_error(text, &err);
        YamlError {
            line: located.line.saturating_sub(1).max(1),
            column: located.column,
            problem: located.problem,
        }
    })
}

fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = limits::YAML_MAX_DEPTH;
    budget.max_aliases = limits::YAML_MAX_ALIASES;
    budget.max_nodes = limits::YAML_MAX_NODES;
    budget.flow_nesting_limit = limits::YAML_MAX_DEPTH;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    // Replayed alias content counts like nodes: an alias bomb stays under
    // the alias count yet expands exponentially.
    options.alias_limits.max_total_replayed_events = limits::YAML_MAX_NODES;
    options.alias_limits.max_replay_stack_depth = limits::YAML_MAX_DEPTH;
    options.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::AsString;
    options.with_snippet = false;
    options
}

fn error_at(at: &serde_saphyr::Location, problem: FrontmatterProblem) -> FrontmatterError {
    FrontmatterError {
        line: at.line().max(1) + 1,
        column: at.column().max(1),
        problem,
    }
}

/// Locates a library error and names its kind without using its message,
/// which may quote the input.
fn located_error(front: &str, err: &serde_saphyr::Error) -> FrontmatterError {
    let location = err.location().unwrap_or(serde_saphyr::Location::UNKNOWN);
    let mut problem = classify(err);
    if matches!(problem, FrontmatterProblem::Syntax(_)) && points_at_star(front, &location) {
        problem = FrontmatterProblem::Alias;
    }
    error_at(&location, problem)
}

/// True when the error location is a `*`: an unquoted glob read as an alias.
fn points_at_star(front: &str, at: &serde_saphyr::Location) -> bool {
    let (Ok(line), Ok(column)) = (usize::try_from(at.line()), usize::try_from(at.column())) else {
        return false;
    };
    front
        .lines()
        .nth(line.wrapping_sub(1))
        .and_then(|text| text.chars().nth(column.wrapping_sub(1)))
        == Some('*')
}

fn classify(err: &serde_saphyr::Error) -> FrontmatterProblem {
    use serde_saphyr::Error as E;
    use serde_saphyr::granit_parser::ErrorKind as K;
    match err {
        E::Budget { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => FrontmatterProblem::Budget,
        E::UnknownAnchor { .. } => FrontmatterProblem::Alias,
        E::DuplicateMappingKey { .. } => FrontmatterProblem::DuplicateKey,
        E::AliasError { error, .. } | E::WithSnippet { error, .. } => classify(error),
        E::MultipleDocuments { .. } => {
            FrontmatterProblem::Syntax("a `...` document end is followed by more content")
        }
        E::Eof { .. } => FrontmatterProblem::Syntax("the block ends in the middle of a value"),
        E::ExternalMessage { source, .. } => match source.as_ref() {
            serde_saphyr::ExternalMessageSource::Parser(scan) => match scan.kind() {
                K::RecursionLimitExceeded => FrontmatterProblem::Budget,
                K::UnknownAnchor | K::MissingAnchorOrAliasName => FrontmatterProblem::Alias,
                K::UnclosedQuotedScalar => {
                    FrontmatterProblem::Syntax("a quoted value is not closed")
                }
                K::UnclosedFlowCollection { .. }
                | K::MismatchedFlowCollectionEnd { .. }
                | K::MisplacedFlowCollectionEnd
                | K::UnexpectedEofFlowSequence
                | K::UnexpectedEofFlowMapping
                | K::ExpectedFlowSequenceSeparator
                | K::ExpectedFlowMappingSeparator => {
                    FrontmatterProblem::Syntax("a `[…]` or `{…}` collection is not closed properly")
                }
                K::TabInIndentation | K::TabInBlockIndentation | K::TabNotAllowed => {
                    FrontmatterProblem::Syntax("a tab is used for indentation")
                }
                K::UnexpectedCharacter { .. } => FrontmatterProblem::Syntax(
                    "an unquoted value starts with a reserved character such as `@` or a backtick",
                ),
                K::InvalidIndentation
                | K::ExpectedBlockMappingKey
                | K::SimpleKeyExpected
                | K::InvalidSimpleKey
                | K::ExpectedBlockSequenceEntry => FrontmatterProblem::Syntax(
                    "the indentation or a `key: value` line is not well formed",
                ),
                _ => FrontmatterProblem::Syntax("a syntax error"),
            },
            _ => FrontmatterProblem::Syntax("a syntax error"),
        },
        _ => FrontmatterProblem::Syntax("a value of an unexpected kind"),
    }
}

/// The top level of a frontmatter block.
enum Document {
    /// A null document (`~`).
    Empty,
    /// A mapping: its entries with string keys, in order.
    Mapping(Vec<(String, Spanned<Node>)>),
    /// A scalar or sequence where a mapping belongs.
    NotMapping,
}

/// A YAML value as far as `paths` cares.
enum Node {
    /// A string scalar, decoded.
    Text(String),
    /// A boolean or number scalar; the literal source text is taken from
    /// the span, this formatted value is the fallback.
    Literal(String),
    /// A null scalar (no value, `~`, `null`); as text, like a literal, its
    /// source text (empty for no value).
    Null(String),
    /// A sequence of values.
    Seq(Vec<Spanned<Node>>),
    /// A mapping (its content is skipped).
    Map,
}

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DocumentVisitor)
    }
}

struct DocumentVisitor;

impl<'de> Visitor<'de> for DocumentVisitor {
    type Value = Document;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Node>()? {
            match key {
                Node::Text(key) => entries.push((key, map.next_value::<Spanned<Node>>()?)),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Document::Mapping(entries))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Document, E> {
        Ok(Document::Empty)
    }

    fn visit_none<E: de::Error>(self) -> Result<Document, E> {
        Ok(Document::Empty)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Document, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Document::NotMapping)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Document, E> {
        Ok(Document::NotMapping)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Document, E> {
        Ok(Document::NotMapping)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Document, E> {
        Ok(Document::NotMapping)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Document, E> {
        Ok(Document::NotMapping)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Document, E> {
        Ok(Document::NotMapping)
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Document, E> {
        Ok(Document::NotMapping)
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML value")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Text(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::Text(v))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Literal(v.to_string()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Literal(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Literal(v.to_string()))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Node, E> {
        Ok(Node::Literal(v.to_string()))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Node, E> {
        Ok(Node::Literal(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Literal(v.to_string()))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Node, E> {
        Ok(Node::Text(String::from_utf8_lossy(v).into_owned()))
    }

    /// Null: the span tells an empty value (no text) from a written `null`.
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null(String::new()))
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null(String::new()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Node>>()? {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Node::Map)
    }
}

#[cfg(test)]
mod tests;
