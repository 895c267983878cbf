//! A command line given as one string (`--builder-cmd`, SPEC §4.4a) split
//! into a program and its arguments the way a user of the platform expects,
//! without running a shell.
//!
//! - On Unix: POSIX shell-word rules (`'…'`, `"…"`, `\` escapes), as the
//!   spec says.
//! - On Windows: the C runtime's rules for a command line, so a path such as
//!   `C:\tools\builder.exe` keeps its backslashes: words split at spaces and
//!   tabs (and, here, line breaks) outside `"…"`; backslashes are literal
//!   unless a run of them ends at a `"` (then each pair is one backslash,
//!   and an odd one makes the quote literal); `""` inside quotes is one literal quote. Single quotes
//!   are ordinary characters.
//!
//! Choice the spec leaves open: an unclosed `"` is an error on both
//! platforms (the C runtime would run to the end of the line), so a typo
//! is reported rather than guessed at. The program name follows the same
//! rules as the arguments.
//!
//! Both splitters are compiled everywhere, so both are tested on every
//! platform; [`split`] picks the platform's.

/// Why a command line does not split into words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// A quote opened and never closed.
    #[error("missing closing quote")]
    UnclosedQuote,
}

/// `line` split into words by the platform's rules.
pub fn split(line: &str) -> Result<Vec<String>, SplitError> {
    if cfg!(windows) {
        split_windows(line)
    } else {
        split_posix(line)
    }
}

/// `line` split with POSIX shell-word rules (no expansion of any kind;
/// an unclosed quote is the only way it fails).
pub fn split_posix(line: &str) -> Result<Vec<String>, SplitError> {
    shell_words::split(line).map_err(|_| SplitError::UnclosedQuote)
}

/// `line` split with the Windows C runtime's rules (see the module docs).
pub fn split_windows(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let mut run = 1;
                while chars.peek() == Some(&'\\') {
                    chars.next();
                    run += 1;
                }
                in_word = true;
                if chars.peek() == Some(&'"') {
                    word.extend(std::iter::repeat_n('\\', run / 2));
                    if run % 2 == 1 {
                        chars.next();
                        word.push('"');
                    }
                } else {
                    word.extend(std::iter::repeat_n('\\', run));
                }
            }
            '"' => {
                in_word = true;
                if quoted && chars.peek() == Some(&'"') {
                    chars.next();
                    word.push('"');
                } else {
                    quoted = !quoted;
                }
            }
            ' ' | '\t' | '\n' | '\r' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if quoted {
        return Err(SplitError::UnclosedQuote);
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(words: Result<Vec<String>, SplitError>) -> Vec<String> {
        words.unwrap()
    }

    #[test]
    fn windows_paths_keep_their_backslashes() {
        assert_eq!(
            ok(split_windows(r"C:\tools\builder.exe --mode fast")),
            [r"C:\tools\builder.exe", "--mode", "fast"]
        );
        assert_eq!(
            ok(split_windows(r#""C:\Program Files\b.exe" "a b"	c"#)),
            [r"C:\Program Files\b.exe", "a b", "c"]
        );
    }

    #[test]
    fn windows_backslashes_before_a_quote_pair_up() {
        assert_eq!(ok(split_windows(r#"a\\"b c""#)), [r"a\b c"]);
        assert_eq!(ok(split_windows(r#"a\"b"#)), [r#"a"b"#]);
        assert_eq!(ok(split_windows(r#"a\\\"b"#)), [r#"a\"b"#]);
        assert_eq!(ok(split_windows(r#""a""b""#)), [r#"a"b"#]);
        assert_eq!(ok(split_windows(r#"x "" y"#)), ["x", "", "y"]);
    }

    #[test]
    fn windows_single_quotes_are_ordinary() {
        assert_eq!(ok(split_windows("sh 'a b'")), ["sh", "'a", "b'"]);
    }

    #[test]
    fn an_unclosed_double_quote_is_an_error_on_both_platforms() {
        assert_eq!(
            split_windows(r#"b.exe "open"#),
            Err(SplitError::UnclosedQuote)
        );
        assert_eq!(split_posix(r#"b "open"#), Err(SplitError::UnclosedQuote));
        assert_eq!(split_posix("b 'open"), Err(SplitError::UnclosedQuote));
    }

    #[test]
    fn posix_rules_unescape_and_unquote() {
        assert_eq!(
            ok(split_posix(r#"sh 'a b' "c d" e\ f"#)),
            ["sh", "a b", "c d", "e f"]
        );
    }

    #[test]
    fn blank_lines_have_no_words() {
        assert!(ok(split_windows(" \t\r\n ")).is_empty());
        assert!(ok(split_posix("  ")).is_empty());
    }
}
