//! YAML under budgets (SPEC §10): the one place that talks to the YAML
//! library. Every parse runs under the nesting, alias and node budgets, so
//! alias bombs and absurd nesting fail fast; errors are built from the
//! error's location and kind, never from the library's text, so a message
//! never echoes the document's content. Used for settings.yaml and for the
//! frontmatter of rules, commands and skills.

use crate::limits;

mod simple;

/// Why a YAML document was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlProblem {
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
}

impl YamlProblem {
    /// The problem in words, never quoting the document.
    pub fn describe(self) -> String {
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
        }
    }
}

/// Malformed YAML in a whole document such as settings.yaml, located by a
/// 1-based line and column; like a frontmatter error, it never echoes the
/// document's content.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed YAML at line {line}, column {column}: {}", problem.describe())]
pub struct YamlError {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
    /// What is wrong.
    pub problem: YamlProblem,
}

/// Parses a whole YAML document under the same budgets as frontmatter; an
/// empty or comment-only document is `None`.
pub fn parse_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<Option<T>, YamlError> {
    serde_saphyr::from_str_with_options::<Option<T>>(text, yaml_options()).map_err(|err| {
        let (location, problem) = locate(text, &err);
        YamlError {
            line: location.line().max(1),
            column: location.column().max(1),
            problem,
        }
    })
}

/// One top-level entry of a YAML mapping, with where its key stands.
#[derive(Debug, Clone, PartialEq)]
pub struct MappingEntry {
    /// The key.
    pub key: String,
    /// 1-based line of the key in the parsed text.
    pub line: u64,
    /// The value, as JSON.
    pub value: serde_json::Value,
}

/// Parses a YAML mapping under the same budgets as [`parse_yaml`] and keeps
/// its top-level entries in document order, each with the line of its key
/// (what a finding points at). An empty or comment-only document has no
/// entries; a document that is not a mapping is
/// [`YamlProblem::NotMapping`] at its first line. The simplest blocks
/// (`simple.rs`) are read without the library, exactly as it reads them.
pub fn parse_mapping(text: &str) -> Result<Vec<MappingEntry>, YamlError> {
    match simple::simple_mapping(text) {
        Some(entries) => Ok(entries),
        None => parse_mapping_with_library(text),
    }
}

/// The value of `key` as [`parse_mapping`] gives it (`Some(None)`: no such
/// key), when `text` is one of the simplest blocks (`simple.rs`), found
/// without turning the other values into JSON; `None` for any other block,
/// which only [`parse_mapping`] reads.
pub fn simple_value_of(text: &str, key: &str) -> Option<Option<serde_json::Value>> {
    simple::simple_value_of(text, key)
}

/// [`parse_mapping`] by the YAML library.
fn parse_mapping_with_library(text: &str) -> Result<Vec<MappingEntry>, YamlError> {
    match parse_yaml::<serde_json::Value>(text)? {
        None | Some(serde_json::Value::Null) => return Ok(Vec::new()),
        Some(serde_json::Value::Object(_)) => {}
        Some(_) => {
            return Err(YamlError {
                line: 1,
                column: 1,
                problem: YamlProblem::NotMapping,
            });
        }
    }
    let entries: Option<Entries> = serde_saphyr::from_str_with_options(text, yaml_options())
        .map_err(|err| {
            let (location, problem) = locate(text, &err);
            YamlError {
                line: location.line().max(1),
                column: location.column().max(1),
                problem,
            }
        })?;
    Ok(entries.map(|e| e.0).unwrap_or_default())
}

/// The entries of a mapping with their key's line (see [`parse_mapping`]).
struct Entries(Vec<MappingEntry>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EntriesVisitor)
    }
}

struct EntriesVisitor;

impl<'de> serde::de::Visitor<'de> for EntriesVisitor {
    type Value = Entries;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a mapping")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<serde_saphyr::Spanned<serde_json::Value>>()? {
            let value = map.next_value::<serde_json::Value>()?;
            let key_text = match key.value {
                serde_json::Value::String(text) => text,
                other => other.to_string(),
            };
            entries.push(MappingEntry {
                key: key_text,
                line: key.referenced.line().max(1),
                value,
            });
        }
        Ok(Entries(entries))
    }
}

/// The parser options every YAML read uses: the budgets of SPEC §10, and no
/// snippet of the input in errors.
pub(crate) fn yaml_options() -> serde_saphyr::Options {
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

/// Locates a library error in `text` and names its kind without using its
/// message, which may quote the input.
pub(crate) fn locate(
    text: &str,
    err: &serde_saphyr::Error,
) -> (serde_saphyr::Location, YamlProblem) {
    let location = err.location().unwrap_or(serde_saphyr::Location::UNKNOWN);
    let mut problem = classify(err);
    if matches!(problem, YamlProblem::Syntax(_)) && points_at_star(text, &location) {
        problem = YamlProblem::Alias;
    }
    (location, problem)
}

/// True when the error location is a `*`: an unquoted glob read as an alias.
fn points_at_star(text: &str, at: &serde_saphyr::Location) -> bool {
    let (Ok(line), Ok(column)) = (usize::try_from(at.line()), usize::try_from(at.column())) else {
        return false;
    };
    text.lines()
        .nth(line.wrapping_sub(1))
        .and_then(|text| text.chars().nth(column.wrapping_sub(1)))
        == Some('*')
}

fn classify(err: &serde_saphyr::Error) -> YamlProblem {
    use serde_saphyr::Error as E;
    use serde_saphyr::granit_parser::ErrorKind as K;
    match err {
        E::Budget { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => YamlProblem::Budget,
        E::UnknownAnchor { .. } => YamlProblem::Alias,
        E::DuplicateMappingKey { .. } => YamlProblem::DuplicateKey,
        E::AliasError { error, .. } | E::WithSnippet { error, .. } => classify(error),
        E::MultipleDocuments { .. } => {
            YamlProblem::Syntax("a `...` document end is followed by more content")
        }
        E::Eof { .. } => YamlProblem::Syntax("the block ends in the middle of a value"),
        E::ExternalMessage { source, .. } => match source.as_ref() {
            serde_saphyr::ExternalMessageSource::Parser(scan) => match scan.kind() {
                K::RecursionLimitExceeded => YamlProblem::Budget,
                K::UnknownAnchor | K::MissingAnchorOrAliasName => YamlProblem::Alias,
                K::UnclosedQuotedScalar => YamlProblem::Syntax("a quoted value is not closed"),
                K::UnclosedFlowCollection { .. }
                | K::MismatchedFlowCollectionEnd { .. }
                | K::MisplacedFlowCollectionEnd
                | K::UnexpectedEofFlowSequence
                | K::UnexpectedEofFlowMapping
                | K::ExpectedFlowSequenceSeparator
                | K::ExpectedFlowMappingSeparator => {
                    YamlProblem::Syntax("a `[…]` or `{…}` collection is not closed properly")
                }
                K::TabInIndentation | K::TabInBlockIndentation | K::TabNotAllowed => {
                    YamlProblem::Syntax("a tab is used for indentation")
                }
                K::UnexpectedCharacter { .. } => YamlProblem::Syntax(
                    "an unquoted value starts with a reserved character such as `@` or a backtick",
                ),
                K::InvalidIndentation
                | K::ExpectedBlockMappingKey
                | K::SimpleKeyExpected
                | K::InvalidSimpleKey
                | K::ExpectedBlockSequenceEntry => {
                    YamlProblem::Syntax("the indentation or a `key: value` line is not well formed")
                }
                _ => YamlProblem::Syntax("a syntax error"),
            },
            _ => YamlProblem::Syntax("a syntax error"),
        },
        _ => YamlProblem::Syntax("a value of an unexpected kind"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Doc {
        name: String,
    }

    #[test]
    fn a_document_parses_and_an_empty_one_is_none() {
        assert_eq!(
            parse_yaml::<Doc>("name: x\n").unwrap(),
            Some(Doc { name: "x".into() })
        );
        assert_eq!(parse_yaml::<Doc>("# only a comment\n").unwrap(), None);
    }

    #[test]
    fn errors_are_located_on_the_document_line_and_never_quote_it() {
        let err = parse_yaml::<Doc>("name: ok\nsecret: [unclosed\n").unwrap_err();
        assert_eq!(
            (err.line, err.problem),
            (
                2,
                YamlProblem::Syntax("a `[…]` or `{…}` collection is not closed properly")
            )
        );
        assert!(!err.to_string().contains("unclosed"));
        let star = parse_yaml::<Doc>("name: *glob\n").unwrap_err();
        assert_eq!(
            (star.line, star.column, star.problem),
            (1, 7, YamlProblem::Alias)
        );
    }

    #[test]
    fn a_mapping_keeps_its_keys_in_order_with_their_lines() {
        let entries = parse_mapping("# c\nb: 1\na:\n  - x\n\"q k\": [y]\n").unwrap();
        let keys: Vec<(&str, u64)> = entries.iter().map(|e| (e.key.as_str(), e.line)).collect();
        assert_eq!(keys, [("b", 2), ("a", 3), ("q k", 5)]);
        assert_eq!(entries[1].value, serde_json::json!(["x"]));
        assert!(parse_mapping("").unwrap().is_empty());
        assert!(parse_mapping("~\n").unwrap().is_empty());
        assert_eq!(
            parse_mapping("- a\n").unwrap_err().problem,
            YamlProblem::NotMapping
        );
        let err = parse_mapping("a: 1\nhint: [x] [y]\n").unwrap_err();
        assert_eq!(err.line, 2);
    }

    #[test]
    fn an_alias_bomb_hits_the_budget() {
        let mut doc = String::from("a: &a [x, x]\n");
        for i in 0..20 {
            let prev = if i == 0 {
                "a".to_string()
            } else {
                format!("a{}", i - 1)
            };
            doc.push_str(&format!("a{i}: &a{i} [*{prev}, *{prev}]\n"));
        }
        doc.push_str("name: y\n");
        assert_eq!(
            parse_yaml::<Doc>(&doc).unwrap_err().problem,
            YamlProblem::Budget
        );
    }
}
