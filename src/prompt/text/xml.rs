//! XML's five special characters escaped, as the agents escape the text
//! they put inside their `<skill>` and `<file>` elements (GitHub Copilot
//! CLI's skills listing and reminders, opencode's skills listing).

/// `text` with `&`, `<`, `>`, `"` and `'` escaped as entities.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
