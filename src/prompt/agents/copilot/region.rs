//! GitHub Copilot CLI's instruction region (SPEC §17.3): the items in
//! order — each instruction file in its `<custom_instruction>` wrapper,
//! each unconditional path-specific file raw, the table of conditional
//! ones last — laid out byte for byte as Copilot lays them out after
//! `</tools>\n` in its system message.
//!
//! The wrapper, the table's header and its five-line introduction are
//! Copilot's wire strings, recorded from CLI 1.0.102
//! (`tests/oracle/cases/copilot/`).

use crate::prompt::agents::copilot::paths::PathFile;

/// What opens an instruction file's item.
pub const WRAP_OPEN: &str = "<custom_instruction>\n";
/// What closes it.
pub const WRAP_CLOSE: &str = "\n</custom_instruction>";

/// The lines that open Copilot's table of conditional instruction files
/// (its fixed introduction, then the header and its rule).
pub const TABLE_HEAD: &str = "Here is a list of instruction files that contain rules for modifying or creating new code.\n\
These files are important for ensuring that the code is modified or created correctly.\n\
Please make sure to follow the rules specified in these files when working with the codebase.\n\
If you have not already read the file, use the `view` tool to acquire it.\n\
Make sure to acquire the instructions before making any changes to the code.\n\
| Pattern | File Path | Description |\n\
| ------- | --------- | ----------- |";

/// The name of the table's part (it is no one file).
pub const TABLE_PART: &str = "applyTo table";

/// The kinds of item, which decide the layout's final newline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// An instruction file in its wrapper.
    Wrapped,
    /// An unconditional path-specific file, raw.
    Raw,
    /// The table of conditional path-specific files.
    Table,
}

/// One item of the region: its kind and its text as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Its kind.
    pub kind: ItemKind,
    /// Its text as sent.
    pub text: String,
}

impl Item {
    /// An instruction file's item: `content` in the wrapper.
    pub fn wrapped(content: &str) -> Self {
        Self {
            kind: ItemKind::Wrapped,
            text: format!("{WRAP_OPEN}{content}{WRAP_CLOSE}"),
        }
    }

    /// An unconditional path-specific file's item: its text.
    pub fn raw(content: &str) -> Self {
        Self {
            kind: ItemKind::Raw,
            text: content.to_string(),
        }
    }
}

/// The table of the conditional files among `files` (`None`: none), its
/// rows in order.
pub fn table(files: &[&PathFile]) -> Option<String> {
    if files.is_empty() {
        return None;
    }
    let rows: Vec<String> = files
        .iter()
        .map(|file| {
            format!(
                "| {} | '{}' | {} |",
                file.pattern.as_deref().unwrap_or_default(),
                file.table_path,
                file.description
            )
        })
        .collect();
    Some(format!("{TABLE_HEAD}\n{}", rows.join("\n")))
}

/// The region: `"\n"`, the items joined by a blank line, `"\n"`, and one
/// more `"\n"` when instruction files and path-specific items (raw or the
/// table) are both present (observed: raw files with the table alone add
/// none); `"\n\n"` without items.
pub fn region(items: &[Item]) -> String {
    let wrapped = items.iter().any(|item| item.kind == ItemKind::Wrapped);
    let path_specific = items.iter().any(|item| item.kind != ItemKind::Wrapped);
    let texts: Vec<&str> = items.iter().map(|item| item.text.as_str()).collect();
    let extra = if wrapped && path_specific { "\n" } else { "" };
    format!("\n{}\n{extra}", texts.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_region_shapes() {
        assert_eq!(region(&[]), "\n\n");
        let one = [Item::wrapped("A\n")];
        assert_eq!(
            region(&one),
            "\n<custom_instruction>\nA\n\n</custom_instruction>\n"
        );
        let two = [Item::wrapped("A\n"), Item::raw("R\n")];
        assert_eq!(
            region(&two),
            "\n<custom_instruction>\nA\n\n</custom_instruction>\n\nR\n\n\n"
        );
        let raw_only = [Item::raw("R\n"), Item::raw("S\n")];
        assert_eq!(region(&raw_only), "\nR\n\n\nS\n\n");
        let table = Item {
            kind: ItemKind::Table,
            text: "T".to_string(),
        };
        let raw_and_table = [Item::raw("R\n"), table];
        assert_eq!(region(&raw_and_table), "\nR\n\n\nT\n");
    }
}
