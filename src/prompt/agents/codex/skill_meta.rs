//! How Codex reads a SKILL.md's `name` and `description` (SPEC §14.6), as
//! observed on Codex 0.169.0 (recorded cases `skills-frontmatter`,
//! `skills-limits`).
//!
//! - The block: the first line, trimmed, is `---` (so no BOM and no blank
//!   line before it; CRLF is fine), and the next line that trims to `---`
//!   closes it. An empty or unclosed block means no metadata.
//! - The block is YAML (parsed by [`crate::prompt::yaml`], the one YAML
//!   implementation, under its budgets). A scalar is taken as its text
//!   (`42` → `42`); no value, `~` or `null` count as absent; a list or
//!   mapping is invalid.
//! - When the block is not valid YAML, each key is recovered on its own:
//!   its top-level line and the indented lines after it are parsed alone;
//!   when that fails too, a one-line value is taken literally up to a ` #`
//!   comment, unless it starts with `*`, `%` or a quote. A key written
//!   twice is invalid.
//! - Values are single-lined: every run of whitespace becomes one space,
//!   ends trimmed. A missing or empty name is the directory's name; a name
//!   over [`limits::CODEX_SKILL_NAME_MAX_CHARS`] characters drops the
//!   skill; a missing or empty description drops it; one over
//!   [`limits::CODEX_SKILL_DESCRIPTION_MAX_CHARS`] characters is cut,
//!   `...` included.
//!
//! Choices the spec leaves open:
//! - The literal recovery is the rule that fits every observed case
//!   (`Use when: needed # c` → `Use when: needed`, `[unclosed`,
//!   `` @a `b` `` kept; `*star`, `%x`, `"unterminated` dropped); values
//!   starting with other YAML indicators were not observed and follow the
//!   same rule.
//! - A number is shown as the YAML library reads it (`1.50` → `1.5`);
//!   Codex keeps the written text. Only a float written with extra digits
//!   differs.

use serde_json::{Map, Value};

use crate::limits;
use crate::prompt::yaml::parse_yaml;

/// The YAML block of a SKILL.md as Codex finds it, without its fences.
pub fn front_block(text: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next()?.trim() != "---" {
        return None;
    }
    let mut block = Vec::new();
    for line in lines {
        if line.trim() == "---" {
            return (!block.is_empty()).then(|| block.join("\n"));
        }
        block.push(line);
    }
    None
}

/// A metadata field as read from the block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// A value (not yet single-lined).
    Value(String),
    /// Absent, or null.
    Absent,
    /// A list or mapping, written twice, or unreadable.
    Invalid,
}

/// `name` and `description` of a block.
pub fn name_and_description(block: &str) -> (Field, Field) {
    match parse_yaml::<Map<String, Value>>(block) {
        Ok(map) => {
            let map = map.unwrap_or_default();
            (field(map.get("name")), field(map.get("description")))
        }
        Err(_) => (recover(block, "name"), recover(block, "description")),
    }
}

/// A top-level YAML value as a text field.
fn field(value: Option<&Value>) -> Field {
    match value {
        Some(Value::String(text)) => Field::Value(text.clone()),
        Some(Value::Number(number)) => Field::Value(number.to_string()),
        Some(Value::Bool(flag)) => Field::Value(flag.to_string()),
        Some(Value::Null) | None => Field::Absent,
        Some(Value::Array(_) | Value::Object(_)) => Field::Invalid,
    }
}

/// `key` of a block that is not valid YAML as a whole.
fn recover(block: &str, key: &str) -> Field {
    let lines: Vec<&str> = block.lines().collect();
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| {
            line.strip_prefix(key)
                .and_then(|rest| rest.strip_prefix(':'))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
        })
        .map(|(index, _)| index)
        .collect();
    let [start] = starts[..] else {
        return if starts.is_empty() {
            Field::Absent
        } else {
            Field::Invalid
        };
    };
    let rest = &lines[start + 1..];
    let more = rest
        .iter()
        .take_while(|line| line.is_empty() || line.starts_with([' ', '\t']))
        .count();
    let entry = lines[start..=start + more].join("\n");
    match parse_yaml::<Map<String, Value>>(&entry) {
        Ok(map) => field(map.as_ref().and_then(|map| map.get(key))),
        Err(_) if rest[..more].iter().any(|line| !line.trim().is_empty()) => Field::Invalid,
        Err(_) => literal(&lines[start][key.len() + 1..]),
    }
}

/// A one-line value taken as written, up to a ` #` comment.
fn literal(value: &str) -> Field {
    let value = value.trim();
    if value.starts_with(['*', '%', '"', '\'']) {
        return Field::Invalid;
    }
    let end = value
        .char_indices()
        .find(|&(i, c)| c == '#' && value[..i].ends_with([' ', '\t']))
        .map_or(value.len(), |(i, _)| i);
    Field::Value(value[..end].trim().to_string())
}

/// Every run of whitespace as one space, trimmed.
pub fn single_line(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why Codex does not list a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unlisted {
    /// No frontmatter block (or an empty or unclosed one).
    NoFrontmatter,
    /// `name` is a list or mapping, written twice, or unreadable.
    InvalidName,
    /// The name is longer than the limit.
    NameTooLong,
    /// `description` is a list or mapping, written twice, or unreadable.
    InvalidDescription,
    /// No description, or an empty one.
    NoDescription,
}

impl Unlisted {
    /// Why, in a phrase.
    pub fn describe(&self) -> String {
        match self {
            Unlisted::NoFrontmatter => {
                "no frontmatter: the first line must be `---` and a later line `---` must close it"
                    .to_string()
            }
            Unlisted::InvalidName => "`name` cannot be read as one text value".to_string(),
            Unlisted::NameTooLong => format!(
                "the name is longer than {} characters",
                limits::CODEX_SKILL_NAME_MAX_CHARS
            ),
            Unlisted::InvalidDescription => {
                "`description` cannot be read as one text value".to_string()
            }
            Unlisted::NoDescription => "no description".to_string(),
        }
    }
}

/// A skill's listing metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    /// The name, single-lined.
    pub name: String,
    /// The description, single-lined and capped.
    pub description: String,
    /// True when the description was cut.
    pub description_cut: bool,
}

/// The listing metadata of a SKILL.md whose text is `text` and whose
/// directory is named `dir_name`.
pub fn read_meta(text: &str, dir_name: &str) -> Result<Meta, Unlisted> {
    let block = front_block(text).ok_or(Unlisted::NoFrontmatter)?;
    let (name, description) = name_and_description(&block);
    let name = match name {
        Field::Invalid => return Err(Unlisted::InvalidName),
        Field::Value(name) if !single_line(&name).is_empty() => single_line(&name),
        Field::Value(_) | Field::Absent => single_line(dir_name),
    };
    if name.chars().count() > limits::CODEX_SKILL_NAME_MAX_CHARS {
        return Err(Unlisted::NameTooLong);
    }
    let description = match description {
        Field::Invalid => return Err(Unlisted::InvalidDescription),
        Field::Absent => return Err(Unlisted::NoDescription),
        Field::Value(description) => single_line(&description),
    };
    if description.is_empty() {
        return Err(Unlisted::NoDescription);
    }
    let max = limits::CODEX_SKILL_DESCRIPTION_MAX_CHARS;
    let (description, description_cut) = if description.chars().count() > max {
        let kept: String = description.chars().take(max - "...".len()).collect();
        (kept + "...", true)
    } else {
        (description, false)
    };
    Ok(Meta {
        name,
        description,
        description_cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(front: &str) -> String {
        format!("---\n{front}---\n\nBody.\n")
    }

    fn meta(front: &str) -> Result<Meta, Unlisted> {
        read_meta(&skill(front), "dir")
    }

    fn listed(front: &str) -> (String, String) {
        let meta = meta(front).unwrap_or_else(|why| panic!("{front:?}: {why:?}"));
        (meta.name, meta.description)
    }

    fn description(front: &str) -> String {
        listed(front).1
    }

    #[test]
    fn the_block_opens_on_the_first_line_and_closes_on_a_fence_line() {
        assert_eq!(front_block("---\na: 1\n---\nbody").as_deref(), Some("a: 1"));
        assert_eq!(
            front_block("---  \r\na: 1\r\n---\t\r\nbody").as_deref(),
            Some("a: 1")
        );
        for none in [
            "\u{feff}---\na: 1\n---\n",
            "\n---\na: 1\n---\n",
            "---\n---\nbody",
            "---\na: 1\nbody",
            "---\na: 1\n...\nbody",
            "no block",
        ] {
            assert_eq!(front_block(none), None, "{none:?}");
        }
    }

    #[test]
    fn values_are_yaml_scalars_on_one_line() {
        assert_eq!(
            listed("name: fm-name\ndescription: Plain\n"),
            ("fm-name".into(), "Plain".into())
        );
        assert_eq!(
            description("description: >\n  Folded line one\n  and line two.\n"),
            "Folded line one and line two."
        );
        assert_eq!(
            description("description: |\n  Line one\n    Line   two\n"),
            "Line one Line two"
        );
        assert_eq!(
            listed("name: \"quoted\"\ndescription: 'Has: a colon, \"quotes\" and it''s'\n"),
            ("quoted".into(), "Has: a colon, \"quotes\" and it's".into())
        );
        assert_eq!(
            description("description: \"tab\\there\\u0041\"\n"),
            "tab hereA"
        );
        assert_eq!(description("description: 42\n"), "42");
        assert_eq!(
            description("description: \"  lots   of \\t spaces  \"\n"),
            "lots of spaces"
        );
        assert_eq!(
            description("description: first line\n  continued line\n"),
            "first line continued line"
        );
    }

    #[test]
    fn the_name_defaults_to_the_directory() {
        assert_eq!(listed("description: D\n").0, "dir");
        assert_eq!(listed("name:\ndescription: D\n").0, "dir");
        assert_eq!(listed("name: \"  \"\ndescription: D\n").0, "dir");
    }

    #[test]
    fn a_skill_without_a_usable_description_or_name_is_not_listed() {
        assert_eq!(meta("name: n\n"), Err(Unlisted::NoDescription));
        assert_eq!(
            meta("name: n\ndescription: ~\n"),
            Err(Unlisted::NoDescription)
        );
        assert_eq!(
            meta("name: n\ndescription: \"\"\n"),
            Err(Unlisted::NoDescription)
        );
        assert_eq!(
            meta("name: n\ndescription: [a, b]\n"),
            Err(Unlisted::InvalidDescription)
        );
        assert_eq!(
            meta("name: [n]\ndescription: D\n"),
            Err(Unlisted::InvalidName)
        );
        assert_eq!(
            meta("name: n\ndescription: first\ndescription: second\n"),
            Err(Unlisted::InvalidDescription)
        );
        assert_eq!(
            read_meta("No frontmatter.\n", "d"),
            Err(Unlisted::NoFrontmatter)
        );
    }

    #[test]
    fn invalid_yaml_is_recovered_key_by_key() {
        assert_eq!(
            description("description: Use when: you need it # a comment\n"),
            "Use when: you need it"
        );
        assert_eq!(description("description: [unclosed\n"), "[unclosed");
        assert_eq!(
            description("description: @mentions and `ticks`\n"),
            "@mentions and `ticks`"
        );
        assert_eq!(listed("name: a: b\ndescription: D\n").0, "a: b");
        assert_eq!(
            description("description: Valid despite another key\nallowed-tools: [Bash(git *)\n"),
            "Valid despite another key"
        );
        assert_eq!(
            description("description: >\n  folded in\n  fallback\nbroken: [x\n"),
            "folded in fallback"
        );
        assert_eq!(description("description: 'it''s'\nbroken: [x\n"), "it's");
        assert_eq!(description("description: \"dq\" # c\nbroken: [x\n"), "dq");
        assert_eq!(
            listed("description: fallback without a name\nbroken: [x\n").0,
            "dir"
        );
    }

    #[test]
    fn some_invalid_yaml_is_not_recovered() {
        for front in [
            "name: star\ndescription: *star\n",
            "name: pct\ndescription: %percent\n",
            "name: dq\ndescription: \"unterminated\n",
            "name: f\ndescription: first line\n  second: line\n",
            "name: f\ndescription: [a, b]\nbroken: [x\n",
            "name: f\ndescription: null\nbroken: [x\n",
            "name: f\n\tdescription: tab indented\n",
            "name: f\nmeta:\n  description: indented only\nbroken: [x\n",
            "name: f24 # c\ndescription: 'quoted' trailing\n",
        ] {
            assert!(meta(front).is_err(), "{front:?} should not be listed");
        }
    }

    #[test]
    fn names_and_descriptions_are_capped_in_characters() {
        let name64 = format!("name: {}\ndescription: D\n", "n".repeat(64));
        assert_eq!(listed(&name64).0.len(), 64);
        let name65 = format!("name: {}\ndescription: D\n", "\u{e9}".repeat(65));
        assert_eq!(meta(&name65), Err(Unlisted::NameTooLong));
        let exact = format!("description: {}\n", "d".repeat(1024));
        assert_eq!(meta(&exact).unwrap().description.len(), 1024);
        let long = format!("description: {}\n", "\u{e9}".repeat(1025));
        let cut = meta(&long).unwrap();
        assert!(cut.description_cut);
        assert_eq!(cut.description.chars().count(), 1024);
        assert!(cut.description.ends_with("\u{e9}..."));
    }
}
