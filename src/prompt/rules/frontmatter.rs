//! The rules' frontmatter (SPEC §7.2): splitting a rule file into its YAML
//! block and body, and reading the `paths` key. (Commands have their own,
//! simpler rule, in [`crate::prompt::command`].) Parsing goes through
//! [`crate::prompt::yaml`], under its budgets; errors never echo content.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::prompt::command::claude_dialect::requote_frontmatter;
use crate::prompt::text::decode_lossy;
use crate::prompt::yaml::{YamlProblem, locate, yaml_options};

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

/// Why a rule's frontmatter block was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontmatterProblem {
    /// The YAML itself is wrong (syntax, alias, budget, duplicate key, not a
    /// mapping).
    Yaml(YamlProblem),
    /// `paths` holds a mapping.
    PathsMapping,
    /// An item of the `paths` list is itself a list or mapping.
    NestedPathsItem,
}

impl FrontmatterProblem {
    fn describe(self) -> String {
        match self {
            Self::Yaml(problem) => problem.describe(),
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
    let parsed: Option<Spanned<Document>> =
        serde_saphyr::from_str_with_options(front, yaml_options()).map_err(|err| {
            let (location, problem) = locate(front, &err);
            error_at(&location, FrontmatterProblem::Yaml(problem))
        })?;
    let Some(document) = parsed else {
        return Ok(Vec::new());
    };
    let paths = match document.value {
        Document::Empty => return Ok(Vec::new()),
        Document::NotMapping => {
            return Err(error_at(
                &document.referenced,
                FrontmatterProblem::Yaml(YamlProblem::NotMapping),
            ));
        }
        Document::Mapping(None) => return Ok(Vec::new()),
        Document::Mapping(Some(paths)) => paths,
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

/// A Claude Code rule's `paths` (SPEC §14.3), from the block Claude Code's
/// frontmatter rule found
/// ([`crate::prompt::command::claude_dialect::split_frontmatter`]): read
/// like [`parse_paths`]; when the block is not valid YAML, read again the
/// way Claude Code reads such blocks
/// ([`crate::prompt::command::claude_dialect::requote_frontmatter`], so the
/// common `paths: **/*.ts` is the glob `**/*.ts`), and when that fails too
/// the block is ignored, as Claude Code ignores it: no paths. The error of
/// the first reading comes back so the caller can warn about it.
pub fn claude_rule_paths(front: &str) -> (Vec<String>, Option<FrontmatterError>) {
    match parse_paths(front) {
        Ok(paths) => (paths, None),
        Err(first) => {
            let is_flow_list =
                |value: &str| crate::prompt::yaml::parse_yaml::<Vec<IgnoredAny>>(value).is_ok();
            let second = requote_frontmatter(front, is_flow_list);
            (parse_paths(&second).unwrap_or_default(), Some(first))
        }
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
        Node::Literal(fallback) => source_text(front, &spanned.defined)
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

fn error_at(at: &serde_saphyr::Location, problem: FrontmatterProblem) -> FrontmatterError {
    FrontmatterError {
        line: at.line().max(1) + 1,
        column: at.column().max(1),
        problem,
    }
}

/// The top level of a frontmatter block.
enum Document {
    /// A null document (`~`).
    Empty,
    /// A mapping, with its `paths` value when present.
    Mapping(Option<Spanned<Node>>),
    /// A scalar or sequence where a mapping belongs.
    NotMapping,
}

/// A YAML value as far as `paths` cares.
enum Node {
    /// A string scalar, decoded.
    Text(String),
    /// A boolean, number or null scalar; the literal source text is taken
    /// from the span, this formatted value is the fallback.
    Literal(String),
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
        let mut paths = None;
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Paths => paths = Some(map.next_value::<Spanned<Node>>()?),
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Document::Mapping(paths))
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

/// A frontmatter key: only `paths` matters; any other key, whatever its
/// type, is skipped.
enum Key {
    Paths,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let node = Node::deserialize(deserializer)?;
        Ok(match node {
            Node::Text(text) if text == "paths" => Key::Paths,
            _ => Key::Other,
        })
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
        Ok(Node::Literal(String::new()))
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Literal(String::new()))
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
mod tests {
    use super::*;

    #[test]
    fn claude_rule_paths_read_invalid_yaml_a_second_time() {
        assert_eq!(
            claude_rule_paths("paths: \"src/**\"\n"),
            (vec!["src/**".to_string()], None)
        );
        let (paths, first) = claude_rule_paths("paths: **/*.ts\n");
        assert_eq!(paths, ["**/*.ts"]);
        assert!(first.is_some(), "the alias reading is reported");
        let (paths, first) = claude_rule_paths("paths: [a, b]\n");
        assert_eq!(
            (paths, first),
            (vec!["a".to_string(), "b".to_string()], None)
        );
        let (paths, first) = claude_rule_paths("paths: x\n  bad: [\n");
        assert!(paths.is_empty(), "an unreadable block is ignored");
        assert!(first.is_some());
    }
    use crate::limits;
    use proptest::prelude::*;

    fn paths(front: &str) -> Vec<String> {
        parse_paths(front).unwrap()
    }

    fn problem(front: &str) -> FrontmatterError {
        parse_paths(front).unwrap_err()
    }

    #[test]
    fn split_finds_block_and_removes_one_newline() {
        let got = split(b"---\npaths: a\n---\n\nbody\n");
        assert_eq!(got.front.as_deref(), Some("paths: a\n"));
        assert_eq!(got.body, "\nbody\n");
    }

    #[test]
    fn split_accepts_empty_block_and_closing_fence_at_eof() {
        assert_eq!(
            split(b"---\n---\nbody"),
            Split {
                front: Some(String::new()),
                body: "body".into()
            }
        );
        assert_eq!(
            split(b"---\nx: 1\n---"),
            Split {
                front: Some("x: 1\n".into()),
                body: String::new()
            }
        );
    }

    #[test]
    fn split_strips_one_bom_and_normalises_crlf_in_a_block() {
        let got = split("\u{feff}---\r\npaths: a\r\n---\r\nline1\r\nline2".as_bytes());
        assert_eq!(got.front.as_deref(), Some("paths: a\n"));
        assert_eq!(got.body, "line1\nline2");
        let two_boms = "\u{feff}\u{feff}---\nx: 1\n---\nb";
        assert_eq!(split(two_boms.as_bytes()).front, None);
    }

    #[test]
    fn split_without_block_keeps_raw_file_with_bom_and_crlf() {
        let raw = "\u{feff}# Title\r\nbody\r\n";
        assert_eq!(
            split(raw.as_bytes()),
            Split {
                front: None,
                body: raw.into()
            }
        );
    }

    #[test]
    fn split_unterminated_block_is_all_body() {
        let raw = "\u{feff}---\r\npaths: a\r\nbody\r\n";
        assert_eq!(split(raw.as_bytes()).front, None);
        assert_eq!(split(raw.as_bytes()).body, raw);
        assert_eq!(split(b"---").front, None);
        assert_eq!(split(b"---\n").front, None);
    }

    #[test]
    fn split_fences_must_be_exact_lines() {
        assert_eq!(split(b"--- \nx: 1\n---\nb").front, None);
        assert_eq!(split(b"----\nx: 1\n---\nb").front, None);
        let got = split(b"---\nx: 1\n ---\n---- \n---\nbody");
        assert_eq!(got.front.as_deref(), Some("x: 1\n ---\n---- \n"));
        assert_eq!(got.body, "body");
        // A lone CR is not a line break: `---\r` does not close.
        assert_eq!(split(b"---\nx: 1\n---\rmore").front, None);
    }

    #[test]
    fn split_decodes_invalid_utf8_lossily() {
        let got = split(b"---\npaths: a\n---\nok \xff end");
        assert_eq!(got.body, "ok \u{fffd} end");
        assert_eq!(split(b"\xfe\xff").body, "\u{fffd}\u{fffd}");
    }

    #[test]
    fn paths_as_sequence() {
        assert_eq!(
            paths("paths:\n  - '**/*.go'\n  - go.mod\n"),
            vec!["**/*.go", "go.mod"]
        );
        assert_eq!(paths("paths: [a, \"b c\"]\n"), vec!["a", "b", "c"]);
    }

    #[test]
    fn paths_as_single_scalar() {
        assert_eq!(paths("paths: src/**/*.rs\n"), vec!["src/**/*.rs"]);
        assert_eq!(paths("paths: \"**/*.ts\"\n"), vec!["**/*.ts"]);
        assert_eq!(paths("paths: '**/*.ts'\n"), vec!["**/*.ts"]);
    }

    #[test]
    fn paths_comma_and_whitespace_lists() {
        assert_eq!(paths("paths: a, b ,c,,\n"), vec!["a", "b", "c"]);
        assert_eq!(paths("paths: a b\tc\n"), vec!["a", "b", "c"]);
        assert_eq!(
            paths("paths:\n  - a, b\n  - c d\n"),
            vec!["a", "b", "c", "d"]
        );
    }

    #[test]
    fn braces_keep_their_commas() {
        assert_eq!(paths("paths: '**/*.{ts,tsx}'\n"), vec!["**/*.{ts,tsx}"]);
        assert_eq!(
            paths("paths: '{a,b}/*.{c,{d,e}},x'\n"),
            vec!["{a,b}/*.{c,{d,e}}", "x"]
        );
        // An unbalanced brace does not protect its commas.
        assert_eq!(split_globs("a{b,c"), vec!["a{b", "c"]);
        assert_eq!(split_globs("a}b,c"), vec!["a}b", "c"]);
        // An escaped brace is literal.
        assert_eq!(split_globs("a\\{b,c}"), vec!["a\\{b", "c}"]);
        // Whitespace splits even inside braces.
        assert_eq!(split_globs("*.{ts, tsx}"), vec!["*.{ts", "tsx}"]);
    }

    #[test]
    fn non_string_scalars_keep_their_literal_text() {
        assert_eq!(paths("paths: true\n"), vec!["true"]);
        assert_eq!(paths("paths: 42\n"), vec!["42"]);
        assert_eq!(paths("paths: null\n"), vec!["null"]);
        assert_eq!(paths("paths: ~\n"), vec!["~"]);
        assert_eq!(paths("paths: 0x1F\n"), vec!["0x1F"]);
        assert_eq!(paths("paths: 1.50\n"), vec!["1.50"]);
        assert_eq!(paths("paths: .nan\n"), vec![".nan"]);
        assert_eq!(
            paths("paths:\n  - true\n  - 42\n  - null\n  - 3.0\n"),
            vec!["true", "42", "null", "3.0"]
        );
        assert_eq!(paths("x: &q 42\npaths: *q\n"), vec!["42"]);
    }

    #[test]
    fn empty_or_absent_paths_is_unconditional() {
        let empty: Vec<String> = Vec::new();
        assert_eq!(paths("paths:\n"), empty);
        assert_eq!(paths("paths: ''\n"), empty);
        assert_eq!(paths("paths: []\n"), empty);
        assert_eq!(paths("paths:\n  -\n"), empty);
        assert_eq!(paths("paths: ' , '\n"), empty);
        assert_eq!(paths("description: hi\n"), empty);
        assert_eq!(paths(""), empty);
        assert_eq!(paths("  \n# only a comment\n"), empty);
        assert_eq!(paths("~\n"), empty);
    }

    #[test]
    fn other_keys_never_make_a_valid_block_malformed() {
        let front = "name: other\ndescription: >\n  folded\n  text\nx: .nan\ny: !custom [1, {a: b}]\n\
                     z: 2001-12-14\n<<: {q: 1}\n42: answer\nnested: {a: [1, 2, {b: c}]}\npaths: a\n";
        assert_eq!(paths(front), vec!["a"]);
    }

    #[test]
    fn mapping_paths_is_malformed() {
        let err = problem("paths:\n  a: 1\n");
        assert_eq!(err.problem, FrontmatterProblem::PathsMapping);
        assert_eq!((err.line, err.column), (3, 3));
        assert_eq!(
            problem("paths: {a: 1}\n").problem,
            FrontmatterProblem::PathsMapping
        );
    }

    #[test]
    fn nested_paths_item_is_malformed() {
        let err = problem("paths:\n  - a\n  - [b, c]\n");
        assert_eq!(err.problem, FrontmatterProblem::NestedPathsItem);
        assert_eq!((err.line, err.column), (4, 5));
        assert_eq!(
            problem("paths: [a, {b: c}]\n").problem,
            FrontmatterProblem::NestedPathsItem
        );
    }

    #[test]
    fn unquoted_star_glob_is_malformed_with_hint() {
        let err = problem("paths: **/*.ts\n");
        assert_eq!(err.problem, FrontmatterProblem::Yaml(YamlProblem::Alias));
        assert_eq!((err.line, err.column), (2, 8));
        assert_eq!(
            err.to_string(),
            "malformed YAML frontmatter at line 2, column 8: an unquoted value starting with `*` \
             is a YAML alias, not a glob; quote the glob, e.g. `paths: \"**/*.ts\"`"
        );
        let err = problem("description: x\npaths:\n  - src/a\n  - *.md\n");
        assert_eq!(err.problem, FrontmatterProblem::Yaml(YamlProblem::Alias));
        assert_eq!((err.line, err.column), (5, 5));
        assert_eq!(
            problem("paths: *\n").problem,
            FrontmatterProblem::Yaml(YamlProblem::Alias)
        );
    }

    #[test]
    fn syntax_errors_are_located_and_never_echo_content() {
        let secret = "SECRET_TOKEN_value";
        let cases = [
            format!("a: 1\n  {secret}: 2\n"),
            format!("paths: \"{secret}\n"),
            format!("paths: [{secret}\n"),
            format!("{secret}: 1\n{secret}: 2\n"),
            format!("paths: @{secret}\n"),
            format!("{secret}\n"),
            format!("paths: a\n...\n{secret}\n"),
        ];
        for front in &cases {
            let err = problem(front);
            let text = err.to_string();
            assert!(!text.contains(secret), "{text}");
            assert!(
                text.starts_with("malformed YAML frontmatter at line "),
                "{text}"
            );
        }
        let err = problem(&cases[0]);
        assert_eq!((err.line, err.column), (3, 21));
        assert_eq!(
            problem(&cases[3]).problem,
            FrontmatterProblem::Yaml(YamlProblem::DuplicateKey)
        );
        assert_eq!(
            problem(&cases[5]).problem,
            FrontmatterProblem::Yaml(YamlProblem::NotMapping)
        );
        assert_eq!((problem(&cases[5]).line, problem(&cases[5]).column), (2, 1));
        assert_eq!(
            problem(&cases[1]).problem,
            FrontmatterProblem::Yaml(YamlProblem::Syntax("a quoted value is not closed"))
        );
        assert_eq!(
            problem("- a\n").problem,
            FrontmatterProblem::Yaml(YamlProblem::NotMapping)
        );
    }

    #[test]
    fn billion_laughs_fails_fast_on_the_budget() {
        let mut front = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for level in 1..10u8 {
            let name = char::from(b'a' + level);
            let prev = char::from(b'a' + level - 1);
            let refs = vec![format!("*{prev}"); 9].join(", ");
            front.push_str(&format!("{name}: &{name} [{refs}]\n"));
        }
        front.push_str("paths: *j\n");
        let err = problem(&front);
        assert_eq!(err.problem, FrontmatterProblem::Yaml(YamlProblem::Budget));
    }

    #[test]
    fn too_many_aliases_fail_on_the_budget() {
        let refs = vec!["*a"; limits::YAML_MAX_ALIASES + 1].join(", ");
        let front = format!("a: &a x\nb: [{refs}]\npaths: y\n");
        assert_eq!(
            problem(&front).problem,
            FrontmatterProblem::Yaml(YamlProblem::Budget)
        );
        let refs = vec!["*a"; limits::YAML_MAX_ALIASES - 1].join(", ");
        let front = format!("a: &a x\nb: [{refs}]\npaths: y\n");
        assert_eq!(paths(&front), vec!["y"]);
    }

    #[test]
    fn deep_nesting_fails_on_the_budget_without_blowing_the_stack() {
        let flow = format!("paths: {}\n", "[".repeat(10_000));
        assert_eq!(
            problem(&flow).problem,
            FrontmatterProblem::Yaml(YamlProblem::Budget)
        );
        let mut block = String::from("x:\n");
        for depth in 1..10_000 {
            block.push_str(&" ".repeat(depth));
            block.push_str("-\n");
        }
        assert_eq!(
            problem(&block).problem,
            FrontmatterProblem::Yaml(YamlProblem::Budget)
        );
        let maps: String = (0..10_000)
            .map(|depth| format!("{}k:\n", " ".repeat(depth)))
            .collect();
        assert_eq!(
            problem(&maps).problem,
            FrontmatterProblem::Yaml(YamlProblem::Budget)
        );
    }

    #[test]
    fn nesting_within_budget_is_accepted() {
        let within = limits::YAML_MAX_DEPTH - 1;
        let front = format!(
            "x: {}{}\npaths: a\n",
            "[".repeat(within),
            "]".repeat(within)
        );
        assert_eq!(paths(&front), vec!["a"]);
    }

    #[test]
    fn too_many_nodes_fail_on_the_budget() {
        let items = vec!["x"; limits::YAML_MAX_NODES + 1].join(", ");
        let front = format!("big: [{items}]\npaths: a\n");
        assert_eq!(
            problem(&front).problem,
            FrontmatterProblem::Yaml(YamlProblem::Budget)
        );
    }

    fn yaml_line() -> impl Strategy<Value = String> {
        "[a-z]{1,8}: [a-z0-9 ]{0,12}"
    }

    proptest! {
        #[test]
        fn split_round_trips_front_and_body(
            lines in proptest::collection::vec(yaml_line(), 0..5),
            body in "(?s).{0,200}",
            crlf in any::<bool>(),
            bom in any::<bool>(),
        ) {
            let front: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let eol = if crlf { "\r\n" } else { "\n" };
            let mut raw = String::new();
            if bom {
                raw.push(BOM);
            }
            raw.push_str(&format!("---{eol}"));
            for line in &lines {
                raw.push_str(&format!("{line}{eol}"));
            }
            raw.push_str(&format!("---{eol}"));
            raw.push_str(&body);
            let got = split(raw.as_bytes());
            prop_assert_eq!(got.front, Some(front));
            prop_assert_eq!(got.body, body.replace("\r\n", "\n"));
        }

        #[test]
        fn split_without_opening_fence_returns_input(raw in "(?s).{0,200}") {
            prop_assume!(!raw.trim_start_matches(BOM).starts_with("---"));
            let got = split(raw.as_bytes());
            prop_assert_eq!(got.front, None);
            prop_assert_eq!(got.body, raw);
        }

        #[test]
        fn parse_paths_never_panics(front in "(?s).{0,300}") {
            let _ = parse_paths(&front);
        }

        #[test]
        fn split_globs_pieces_are_trimmed_and_non_empty(value in "[a-z{},* \t]{0,40}") {
            for glob in split_globs(&value) {
                prop_assert!(!glob.is_empty());
                prop_assert!(!glob.contains(char::is_whitespace));
            }
        }
    }
}
