//! Rendering results: text and JSON on stdout, diagnostics on stderr
//! (SPEC §8.1, §8.2, §9). Every subcommand prints through these helpers so
//! the streams, colors and formats stay consistent.

use std::io::{self, Write};

use serde::Serialize;

use crate::cli::context::{Context, Verbosity};
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::profile::Agent;
pub use crate::prompt::text::{aligned_columns, one_line};

/// The schema tag that opens every JSON document of ours.
pub const SCHEMA: &str = "mecatl-prompt/v1";

/// What opens every JSON document of ours (SPEC §8.2, §14.1): the schema,
/// the agent profile, and the agent's working directory (`.` for the
/// workspace root) unless the profile is mecatl. Documents flatten it in
/// as their first field.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct DocHead<'a> {
    /// Always [`SCHEMA`].
    #[cfg_attr(test, schemars(extend("const" = SCHEMA)))]
    pub schema: &'static str,
    /// The profile the document describes.
    pub agent: Agent,
    /// `--at`, workspace-relative; absent under mecatl.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<&'a str>,
}

impl<'a> DocHead<'a> {
    /// The head of a document about the run's profile.
    pub fn of(ctx: &'a Context) -> Self {
        Self {
            schema: SCHEMA,
            agent: ctx.agent,
            at: (ctx.agent != Agent::Mecatl).then(|| ctx.at_label()),
        }
    }

    /// The head of a document about the engine whatever the profile
    /// (`build`, SPEC §14.1).
    pub fn engine() -> DocHead<'static> {
        DocHead {
            schema: SCHEMA,
            agent: Agent::Mecatl,
            at: None,
        }
    }
}

/// Writes `bytes` to stdout through one locked, buffered handle, flushed
/// once. A closed pipe is not an error: the reader went away on purpose.
pub fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    write_stdout_parts(&[bytes])
}

/// Writes `parts` to stdout one after the other, like [`write_stdout`]
/// given them joined, without first copying them into one buffer: small
/// parts are gathered in the buffer, large ones pass straight through.
/// Inside [`capture`], the parts go to the capture's buffer instead.
pub fn write_stdout_parts(parts: &[&[u8]]) -> io::Result<()> {
    if CAPTURE
        .with_borrow_mut(|captured| {
            captured.as_mut().map(|captured| {
                parts
                    .iter()
                    .for_each(|part| captured.stdout.extend_from_slice(part));
            })
        })
        .is_some()
    {
        return Ok(());
    }
    let stdout = io::stdout();
    let mut lock = io::BufWriter::new(stdout.lock());
    let result = parts
        .iter()
        .try_for_each(|part| lock.write_all(part))
        .and_then(|()| lock.flush());
    match result {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes text that may carry ANSI styling: styles are kept only when color
/// is enabled for this run, stripped otherwise.
pub fn write_styled_stdout(ctx: &Context, text: &str) -> io::Result<()> {
    if ctx.color {
        write_stdout(text.as_bytes())
    } else {
        let mut plain = Vec::with_capacity(text.len());
        let mut stream = anstream::StripStream::new(&mut plain);
        stream.write_all(text.as_bytes())?;
        write_stdout(&plain)
    }
}

/// Serialises `value` as pretty JSON (two-space indent) plus one `\n`.
pub fn json_bytes<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising our own plain structs into a Vec cannot fail: every map key
    // is a string and no Serialize impl of ours returns an error.
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Prints `value` as a JSON document on stdout.
pub fn print_json<T: Serialize>(value: &T) -> io::Result<()> {
    write_stdout(&json_bytes(value))
}

/// Prints `content` plus exactly one `\n` (SPEC §8.1).
pub fn print_text(content: &str) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(content.len() + 1);
    bytes.extend_from_slice(content.as_bytes());
    bytes.push(b'\n');
    write_stdout(&bytes)
}

/// The one-line stderr form of a diagnostic (SPEC §9).
pub fn format_diagnostic(diagnostic: &Diagnostic) -> String {
    let word = match diagnostic.severity {
        Severity::Fatal => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let reason = one_line(&diagnostic.reason);
    match &diagnostic.path {
        Some(path) => format!("mecatl-prompt: {word}: {}: {reason}", one_line(path)),
        None => format!("mecatl-prompt: {word}: {reason}"),
    }
}

/// Prints the diagnostics the verbosity lets through on stderr: fatal and
/// warning by default, info too with `-v`, nothing with `-q`.
pub fn print_diagnostics(ctx: &Context, diagnostics: &[Diagnostic]) {
    let shown = diagnostics.iter().filter(|d| match ctx.verbosity {
        Verbosity::Quiet => false,
        Verbosity::Normal => d.severity != Severity::Info,
        Verbosity::Verbose => true,
    });
    let mut text = String::new();
    for diagnostic in shown {
        text.push_str(&format_diagnostic(diagnostic));
        text.push('\n');
    }
    if text.is_empty() {
        return;
    }
    let captured = CAPTURE.with_borrow_mut(|captured| {
        captured
            .as_mut()
            .map(|captured| captured.stderr.push_str(&text))
    });
    if captured.is_none() {
        let _ = io::stderr().lock().write_all(text.as_bytes());
    }
}

/// What a subcommand printed while it ran inside [`capture`].
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Captured {
    /// Everything written to stdout, byte for byte.
    pub stdout: Vec<u8>,
    /// The diagnostic lines written to stderr.
    pub stderr: String,
}

thread_local! {
    /// The capture of the current thread, when one is running.
    static CAPTURE: std::cell::RefCell<Option<Captured>> = const { std::cell::RefCell::new(None) };
}

/// Runs `run` (a subcommand) with its stdout and diagnostics kept in memory
/// instead of written, and returns its result with what it printed. The
/// servers (`lsp`, `mcp`) answer with the very document the CLI prints
/// this way: one implementation of each subcommand, whoever reads it.
/// Captures on one thread do not nest: an inner capture takes the output
/// and the outer one resumes after it.
pub fn capture<R>(run: impl FnOnce() -> R) -> (R, Captured) {
    let outer = CAPTURE.with_borrow_mut(|captured| captured.replace(Captured::default()));
    let result = run();
    let captured = CAPTURE.with_borrow_mut(|captured| std::mem::replace(captured, outer));
    (result, captured.unwrap_or_default())
}

/// A path as a URI reference (SARIF's relative ones, `lsp`'s `file:`
/// URIs): every byte outside the unreserved characters and `/`
/// percent-encoded.
pub fn uri_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The path of a `file:` URI (`file:///a%20b`, `file://localhost/a`), the
/// inverse of [`uri_path`]; `None` for another scheme or host, a malformed
/// escape or a path that is not UTF-8. On Windows, `file:///C:/x` is
/// `C:\x`.
pub fn file_uri_path(uri: &str) -> Option<std::path::PathBuf> {
    let rest = uri
        .strip_prefix("file://")
        .or_else(|| uri.strip_prefix("FILE://"))?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let decoded = String::from_utf8(percent_decode(rest)?).ok()?;
    let decoded = if cfg!(windows) && decoded.as_bytes().get(2) == Some(&b':') {
        decoded[1..].replace('/', "\\")
    } else {
        decoded
    };
    Some(std::path::PathBuf::from(decoded))
}

/// `%XX` escapes decoded; `None` when an escape is malformed.
fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_keeps_stdout_and_diagnostics_and_ends_with_the_run() {
        let ((), outer) = capture(|| {
            write_stdout_parts(&[b"a", b"b"]).unwrap();
            let ((), inner) = capture(|| print_text("inner").unwrap());
            assert_eq!(inner.stdout, b"inner\n");
            print_json(&[1]).unwrap();
        });
        assert_eq!(outer.stdout, b"ab[\n  1\n]\n");
        assert!(CAPTURE.with_borrow(Option::is_none));
    }

    #[test]
    fn diagnostics_have_one_line_forms() {
        assert_eq!(
            format_diagnostic(&Diagnostic::fatal("a.md", "bad")),
            "mecatl-prompt: error: a.md: bad"
        );
        assert_eq!(
            format_diagnostic(&Diagnostic::new(Severity::Info, None, "note")),
            "mecatl-prompt: info: note"
        );
        assert_eq!(
            format_diagnostic(&Diagnostic::warning("a\nb.md", "x\ny")),
            "mecatl-prompt: warning: a b.md: x y"
        );
        assert_eq!(
            format_diagnostic(&Diagnostic::warning("\u{1b}]0;t\u{7}\r.md", "z")),
            "mecatl-prompt: warning:  ]0;t  .md: z"
        );
    }

    #[test]
    fn columns_align_without_trailing_spaces() {
        let rows = vec![
            vec!["NAME".to_string(), "X".into(), "".into()],
            vec!["a".to_string(), "longer".into(), "".into()],
        ];
        assert_eq!(aligned_columns(&rows), "NAME  X\na     longer");
    }

    #[test]
    fn json_is_pretty_with_trailing_newline() {
        #[derive(Serialize)]
        struct Doc {
            schema: &'static str,
            n: u8,
        }
        let bytes = json_bytes(&Doc {
            schema: SCHEMA,
            n: 1,
        });
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            "{\n  \"schema\": \"mecatl-prompt/v1\",\n  \"n\": 1\n}\n"
        );
    }
}
