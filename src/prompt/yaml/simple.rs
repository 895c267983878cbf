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

/// The entries of `text` when every line is simple (see the module docs);
/// `None` leaves the block to the YAML library.
pub(super) fn simple_mapping(text: &str) -> Option<Vec<MappingEntry>> {
    let mut entries: Vec<MappingEntry> = Vec::new();
    let mut nodes = 1;
    for (index, line) in text.split('\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(": ")?;
        // A block holds a few keys: a repeated one is found by looking
        // back, with no set to build.
        if entries.len() == limits::YAML_SIMPLE_MAX_KEYS
            || !plain_word(key, |b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            || entries.iter().any(|entry| entry.key == key)
        {
            return None;
        }
        let value = simple_value(value.trim_start_matches(' '))?;
        nodes += 2 + value.as_array().map_or(0, Vec::len);
        if nodes > limits::YAML_MAX_NODES / 2 {
            return None;
        }
        entries.push(MappingEntry {
            key: key.to_string(),
            line: index as u64 + 1,
            value,
        });
    }
    Some(entries)
}

/// A value that reads as a string or a flow list of strings.
fn simple_value(value: &str) -> Option<serde_json::Value> {
    if let Some(inner) = value.strip_prefix('"') {
        let inner = inner.strip_suffix('"')?;
        let plain = inner
            .bytes()
            .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\');
        return plain.then(|| serde_json::Value::String(inner.to_string()));
    }
    if let Some(inner) = value.strip_prefix('[') {
        let inner = inner.strip_suffix(']')?;
        let items = inner
            .split(',')
            .map(|item| {
                let item = item.trim_matches(' ');
                let plain = plain_word(item, |b| plain_byte(b) && !b"[]{},".contains(&b));
                plain.then(|| serde_json::Value::String(item.to_string()))
            })
            .collect::<Option<Vec<_>>>()?;
        return Some(serde_json::Value::Array(items));
    }
    plain_word(value, plain_byte).then(|| serde_json::Value::String(value.to_string()))
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
    }
}
