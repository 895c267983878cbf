//! Text tables: cells kept on one line, columns aligned (the text of
//! `rules list`, `explain` and every profile's `commands list`).

use crate::limits;

/// Replaces every control character with a space, so a diagnostic or a
/// table cell stays on one line and cannot drive the terminal, even when a
/// file name holds a newline or an escape sequence.
pub fn one_line(text: &str) -> String {
    text.replace(char::is_control, " ")
}

/// Rows as left-aligned columns separated by two spaces, one line per row,
/// with no trailing spaces (the text tables of `rules list` and `explain`).
pub fn aligned_columns<R: AsRef<[String]>>(rows: &[R]) -> String {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        for (i, cell) in row.as_ref().iter().enumerate() {
            let width = cell.chars().count();
            match widths.get_mut(i) {
                Some(w) => *w = (*w).max(width),
                None => widths.push(width),
            }
        }
    }
    rows.iter()
        .map(|row| {
            let cells = row.as_ref();
            let mut line = String::new();
            for (i, cell) in cells.iter().enumerate() {
                line.push_str(cell);
                if i + 1 < cells.len() {
                    let pad = widths[i] - cell.chars().count() + 2;
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            line.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A description on one line, capped like the engine's (SPEC §5.4), for
/// a table cell.
pub fn cell(text: &str) -> String {
    cap_chars(one_line(text).trim(), limits::MAX_COMMAND_DESCRIPTION_CHARS)
}

/// `text` when it has at most `max` characters, else its first `max - 1`
/// characters and `…`.
pub fn cap_chars(text: &str, max: usize) -> String {
    if text.chars().nth(max).is_none() {
        return text.to_string();
    }
    let keep = text
        .char_indices()
        .nth(max.saturating_sub(1))
        .map_or(text.len(), |(i, _)| i);
    format!("{}…", &text[..keep])
}
