//! A fast reading of the simplest frontmatter blocks (SPEC §10): every
//! line `key: value` with a plain key, and a value that is a plain string,
//! a double-quoted string without escapes, or a one-line flow list of
//! plain strings. Such a block reads exactly as the YAML library reads it,
//! so the library is skipped; anything else — a comment, an indented or
//! blank-valued line, a value YAML may read as a number, boolean or null,
//! a repeated key, non-ASCII text — is left to the library (`None`).
//!
//! Choices the spec leaves open, made here:
//! - **Which blocks.** Only what real command and skill files mostly hold
//!   (`description: …`, `argument-hint: [x]`, the re-quoted
//!   `argument-hint: "[a] [b]"`); a property test checks the reading
//!   against the library on generated simple and near-simple blocks.
//! - **Size.** A block whose nodes could approach the node budget, or of
//!   more than [`limits::YAML_SIMPLE_MAX_KEYS`] keys, is left to the
//!   library, which enforces the budget.

use super::MappingEntry;
use crate::limits;

/// Plain words YAML may read as something other than a string (booleans,
/// null, special floats, in YAML 1.1 and 1.2 spellings), compared without
/// case.
const NOT_STRINGS: [&str; 12] = [
    "true", "false", "null", "yes", "no", "on", "off", "y", "n", "inf", "infinity", "nan",
];

/// One line's value in a simple block, not yet turned into JSON.
#[derive(Clone, Copy)]
enum SimpleValue<'a> {
    /// A plain or double-quoted string, unquoted.
    Text(&'a str),
    /// A flow list: the text between its brackets, and its item count.
    List(&'a str, usize),
}

impl SimpleValue<'_> {
    /// The value as the YAML library reads it.
    fn to_json(self) -> serde_json::Value {
        match self {
            Self::Text(text) => serde_json::Value::String(text.to_string()),
            Self::List(inner, _) => serde_json::Value::Array(
                inner
                    .split(',')
                    .map(|item| serde_json::Value::String(item.trim_matches(' ').to_string()))
                    .collect(),
            ),
        }
    }
}

/// Hands every entry of `text` to `each` (key, 1-based line, value) in
/// order, and says whether every line was simple (see the module docs);
/// on `false` the entries handed over mean nothing.
fn each_simple_entry<'a>(
    text: &'a str,
    mut each: impl FnMut(&'a str, u64, SimpleValue<'a>),
) -> bool {
    // A block holds a few keys: a repeated one is found by looking back
    // over the keys kept here, with no set to build.
    let mut keys = [""; limits::YAML_SIMPLE_MAX_KEYS];
    let mut count = 0;
    let mut nodes = 1;
    for (index, line) in text.split('\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once(": ") else {
            return false;
        };
        if count == limits::YAML_SIMPLE_MAX_KEYS
            || !plain_word(key, |b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            || keys[..count].contains(&key)
        {
            return false;
        }
        let Some(value) = simple_value(value.trim_start_matches(' ')) else {
            return false;
        };
        nodes += 2 + match value {
            SimpleValue::List(_, items) => items,
            SimpleValue::Text(_) => 0,
        };
        if nodes > limits::YAML_MAX_NODES / 2 {
            return false;
        }
        keys[count] = key;
        count += 1;
        each(key, index as u64 + 1, value);
    }
    true
}

/// The entries of `text` when every line is simple (see the module docs);
/// `None` leaves the block to the YAML library.
pub(super) fn simple_mapping(text: &str) -> Option<Vec<MappingEntry>> {
    let mut entries = Vec::new();
    let simple = each_simple_entry(text, |key, line, value| {
        entries.push(MappingEntry {
            key: key.to_string(),
            line,
            value: value.to_json(),
        });
    });
    simple.then_some(entries)
}

/// The value of `key` in `text` when every line is simple, as
/// [`simple_mapping`] would give it, without turning the other values into
/// JSON (`Some(None)`: simple, no such key); `None` leaves the block to the
/// YAML library.
pub(super) fn simple_value_of(text: &str, key: &str) -> Option<Option<serde_json::Value>> {
    let mut found = None;
    let simple = each_simple_entry(text, |entry_key, _, value| {
        if entry_key == key {
            found = Some(value);
        }
    });
    simple.then(|| found.map(SimpleValue::to_json))
}

/// A value that reads as a string or a flow list of strings.
fn simple_value(value: &str) -> Option<SimpleValue<'_>> {
    if let Some(inner) = value.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        let plain = inner
            .bytes()
            .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\');
        return plain.then_some(SimpleValue::Text(inner));
    }
    if let Some(inner) = value.strip_prefix('[') {
        let inner = inner.strip_suffix(']')?;
        let mut items = 0;
        for item in inner.split(',') {
            let item = item.trim_matches(' ');
            if !plain_word(item, |b| plain_byte(b) && !b"[]{},".contains(&b)) {
                return None;
            }
            items += 1;
        }
        return Some(SimpleValue::List(inner, items));
    }
    plain_word(value, plain_byte).then_some(SimpleValue::Text(value))
}

/// A plain scalar YAML reads as this very string: it starts with a letter,
/// ends without a space, holds only bytes `allowed` accepts, and is not
/// one of [`NOT_STRINGS`].
fn plain_word(text: &str, allowed: impl Fn(u8) -> bool) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic())
        && !text.ends_with(' ')
        && text.bytes().all(allowed)
        && !NOT_STRINGS.iter().any(|w| w.eq_ignore_ascii_case(text))
}

/// Printable ASCII but `:` and `#`, which may start a mapping or a comment.
fn plain_byte(b: u8) -> bool {
    (b' '..=b'~').contains(&b) && b != b':' && b != b'#'
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::prompt::yaml::parse_mapping_with_library;

    #[test]
    fn simple_blocks_read_without_the_library() {
        let entries =
            simple_mapping("description: Run $1 over (a, b)\nargument-hint: [x, y z]\n").unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].line, 2);
        assert_eq!(entries[1].value, serde_json::json!(["x", "y z"]));
        assert_eq!(
            simple_mapping("argument-hint: \"[a] [b]\"").unwrap()[0].value,
            serde_json::json!("[a] [b]")
        );
        for left in [
            "a: 1\n",
            "a: yes\n",
            "a: x # c\n",
            "a: x\na: y\n",
            "a:\n",
            "  a: x\n",
            "a: [x] [y]\n",
            "a: \"x\\n\"\n",
            "a: é\n",
            &(0..=limits::YAML_SIMPLE_MAX_KEYS)
                .map(|i| format!("k{i}: v\n"))
                .collect::<String>(),
        ] {
            assert_eq!(simple_mapping(left), None, "{left:?}");
        }
        let most: String = (0..limits::YAML_SIMPLE_MAX_KEYS)
            .map(|i| format!("k{i}: v\n"))
            .collect();
        assert_eq!(
            simple_mapping(&most).map(|entries| entries.len()),
            Some(limits::YAML_SIMPLE_MAX_KEYS)
        );
    }

    /// Pieces of lines, simple and near-simple, that YAML reads in many ways.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-zA-Z][a-zA-Z0-9_ -]{0,8}",
            "[a-zA-Z0-9 $().,'!&*|>%@`?=+/\\\\-]{0,10}",
            "[ :#\\[\\]{},\"\t]",
            Just("true".to_string()),
            Just("No".to_string()),
            Just("NULL".to_string()),
            Just("y".to_string()),
            Just("Infinity".to_string()),
            Just("nan".to_string()),
            Just("0x1F".to_string()),
            Just("~".to_string()),
        ]
    }

    fn line() -> impl Strategy<Value = String> {
        let value = prop_oneof![
            piece(),
            (piece(), piece()).prop_map(|(a, b)| format!("{a} {b}")),
            prop::collection::vec(piece(), 0..4).prop_map(|v| format!("[{}]", v.join(", "))),
            prop::collection::vec(piece(), 1..3).prop_map(|v| format!("[{}]", v.join(","))),
            piece().prop_map(|v| format!("\"{v}\"")),
            (piece(), piece()).prop_map(|(a, b)| format!("[{a}] [{b}]")),
        ];
        prop_oneof![
            4 => ("[a-zA-Z][a-zA-Z0-9_-]{0,6}|true|null|y", value.clone())
                .prop_map(|(k, v)| format!("{k}: {v}")),
            1 => (piece(), value).prop_map(|(k, v)| format!("{k}:{v}")),
            1 => Just(String::new()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn a_simple_block_reads_as_the_library_reads_it(
            lines in prop::collection::vec(line(), 0..5),
        ) {
            let text = lines.join("\n") + "\n";
            if let Some(fast) = simple_mapping(&text) {
                prop_assert_eq!(Ok(fast), parse_mapping_with_library(&text), "{:?}", text);
            }
        }

        /// One key looked up reads as the whole reading has it, and is
        /// left to the library exactly when the whole reading is.
        #[test]
        fn one_value_reads_as_the_whole_block_has_it(
            lines in prop::collection::vec(line(), 0..5),
            key in "[a-zA-Z][a-zA-Z0-9_-]{0,6}|true",
        ) {
            let text = lines.join("\n") + "\n";
            let keys: Vec<String> = simple_mapping(&text)
                .into_iter()
                .flatten()
                .map(|entry| entry.key)
                .chain([key])
                .collect();
            for key in &keys {
                let whole = simple_mapping(&text)
                    .map(|entries| entries.into_iter().find(|e| e.key == *key).map(|e| e.value));
                prop_assert_eq!(simple_value_of(&text, key), whole, "{:?} {}", text, key);
            }
        }
    }
}
