//! GitHub Copilot CLI's `@path` imports (SPEC §17.4): found in an
//! instruction file's text and inlined right after the token, between
//! Copilot's `<imported_custom_instruction>` markers. Pure: every target is
//! fetched through [`ImportFiles`], which the run backs with the workspace
//! readers.
//!
//! What is an import, as observed on Copilot CLI 1.0.102
//! (`tests/oracle/cases/copilot/imports*`): an `@` at a line start or after
//! whitespace, `(`, `[`, `"` or `'`; the path runs over letters, digits and
//! `_-./~+`, trailing dots dropped (so `@x.md.`, `(@x.md)`, `@x.md;` and
//! `"@x.md"` all import `x.md`); fenced code blocks and code spans are
//! never scanned, indented code and HTML comments are. A path with neither
//! `.` nor `/`, an absolute one and `@~/…` stay text, as do missing files
//! and directories; `..` is followed while the target stays inside the
//! root (the fetcher decides). Each target is keyed by its real path: one
//! already inlined into the same top-level file (the file itself
//! included) becomes the `skipped="already-loaded"` marker.
//!
//! Choices the spec leaves open:
//! - The characters a path runs over are the ones observed; Copilot's
//!   exact class is not known beyond them.
//! - A token past the depth limit is listed (`too deep`) only when its
//!   target is a file Copilot would inline.
//! - A target that is not text (invalid UTF-8, a NUL byte) is inlined
//!   lossily, as Copilot reads any extension, and reported.
//! - The fan-out guard counts every import looked up, repeats included
//!   ([`limits::MAX_IMPORTS`] per assembly), and the bytes of every inlined
//!   file ([`limits::MAX_IMPORTED_BYTES`]); past it tokens stay text and
//!   are reported.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::limits;
use crate::prompt::imports::normalise;
use crate::prompt::text::is_js_space;

/// What opens an inlined import, before its source path.
pub const IMPORT_OPEN: &str = "<imported_custom_instruction source=\"";
/// What closes an inlined import.
pub const IMPORT_CLOSE: &str = "</imported_custom_instruction>";
/// What ends the marker of an import already inlined into the same file.
pub const ALREADY_LOADED: &str = "\" skipped=\"already-loaded\" />";

/// What fetching one import target gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetch {
    /// The file's text (lossy UTF-8) and its real path.
    Text {
        /// Where it really lies (links resolved): the marker's source.
        real: PathBuf,
        /// Its text.
        text: String,
        /// Not text (invalid UTF-8 or a NUL byte): read lossily.
        binary: bool,
    },
    /// Nothing Copilot reads: missing, a directory, outside the root.
    Absent,
    /// Copilot reads it; the preview does not (outside the workspace).
    External,
    /// In an untrusted workspace: withheld.
    Withheld,
    /// There but not read (the reason, in a few words).
    Unread(String),
}

/// Where imported files come from, for one assembly.
pub trait ImportFiles {
    /// The file at `path` (absolute, normalised).
    fn fetch(&self, path: &Path) -> Fetch;
}

/// What became of one import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportStatus {
    /// Inlined.
    Inlined,
    /// Already inlined into the same top-level file: the skip marker.
    AlreadyLoaded,
    /// Past the depth limit: left as text.
    TooDeep,
    /// Outside the workspace: left as text, never read.
    External,
    /// In an untrusted workspace: left as text.
    Withheld,
    /// Not read (why): left as text.
    Unread(String),
    /// Past the fan-out guard: left as text.
    Capped,
    /// Not text: inlined lossily (reported beside its `Inlined` record).
    Binary,
}

/// One import of a top-level file, at any depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportRecord {
    /// The target, absolute (its real path once read).
    pub path: PathBuf,
    /// Its level: the top-level file's own imports are 1.
    pub depth: usize,
    /// What became of it.
    pub status: ImportStatus,
}

/// Inlines imports for one assembly: the fan-out guard spans every file,
/// the already-loaded set one top-level file.
pub struct Inliner<'f> {
    files: &'f dyn ImportFiles,
    looked_up: usize,
    bytes: u64,
}

/// One top-level file's text with its imports inlined, and what its
/// imports did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inlined {
    /// The text as sent.
    pub text: String,
    /// Every import met, in text order.
    pub imports: Vec<ImportRecord>,
}

impl<'f> Inliner<'f> {
    /// An inliner fetching through `files`.
    pub fn new(files: &'f dyn ImportFiles) -> Self {
        Self {
            files,
            looked_up: 0,
            bytes: 0,
        }
    }

    /// `text`, the content of the top-level file at `real` (its real,
    /// absolute path), with its imports inlined.
    pub fn inline(&mut self, text: &str, real: &Path) -> Inlined {
        let mut file = TopLevel {
            seen: HashSet::from([real.to_path_buf()]),
            imports: Vec::new(),
        };
        let dir = real.parent().unwrap_or(real);
        let text = self.expand(&mut file, text, dir, 1);
        Inlined {
            text,
            imports: file.imports,
        }
    }

    /// `text` (of a file in `dir`) with its imports of level `depth`
    /// inlined.
    fn expand(&mut self, file: &mut TopLevel, text: &str, dir: &Path, depth: usize) -> String {
        let mut out = String::with_capacity(text.len());
        for (line, tokens) in scanned_lines(text) {
            let mut copied = 0;
            for (start, end) in tokens {
                out.push_str(&line[copied..end]);
                copied = end;
                let token = &line[start + 1..end];
                if let Some(insert) = self.import(file, token, dir, depth) {
                    out.push_str(&insert);
                }
            }
            out.push_str(&line[copied..]);
        }
        out
    }

    /// What follows the token `token` (without its `@`) in the text: the
    /// inlined file or the skip marker, `None` when it stays text.
    fn import(
        &mut self,
        file: &mut TopLevel,
        token: &str,
        dir: &Path,
        depth: usize,
    ) -> Option<String> {
        if !is_import_path(token) {
            return None;
        }
        let path = normalise(&dir.join(token));
        if self.looked_up >= limits::MAX_IMPORTS || self.bytes > limits::MAX_IMPORTED_BYTES {
            file.record(path, depth, ImportStatus::Capped);
            return None;
        }
        self.looked_up += 1;
        if file.seen.contains(&path) {
            // Known without reading it (the top-level file itself, read
            // or not).
            file.record(path.clone(), depth, ImportStatus::AlreadyLoaded);
            return Some(format!(
                "\n\n{IMPORT_OPEN}{}{ALREADY_LOADED}",
                path.display()
            ));
        }
        let (real, text) = match self.files.fetch(&path) {
            Fetch::Text { real, text, binary } => {
                if binary {
                    file.record(real.clone(), depth, ImportStatus::Binary);
                }
                (real, text)
            }
            Fetch::Absent => return None,
            Fetch::External => {
                file.record(path, depth, ImportStatus::External);
                return None;
            }
            Fetch::Withheld => {
                file.record(path, depth, ImportStatus::Withheld);
                return None;
            }
            Fetch::Unread(why) => {
                file.record(path, depth, ImportStatus::Unread(why));
                return None;
            }
        };
        if depth > limits::COPILOT_MAX_IMPORT_DEPTH {
            file.record(real, depth, ImportStatus::TooDeep);
            return None;
        }
        let source = real.display().to_string();
        if !file.seen.insert(real.clone()) {
            file.record(real, depth, ImportStatus::AlreadyLoaded);
            return Some(format!("\n\n{IMPORT_OPEN}{source}{ALREADY_LOADED}"));
        }
        self.bytes += text.len() as u64;
        file.record(real.clone(), depth, ImportStatus::Inlined);
        let inner_dir = real.parent().unwrap_or(&real);
        let inner = self.expand(file, &text, inner_dir, depth + 1);
        let inner = inner.trim_end_matches(is_js_space);
        Some(format!(
            "\n\n{IMPORT_OPEN}{source}\">\n{inner}\n{IMPORT_CLOSE}"
        ))
    }
}

/// Each line of `text` (with its line break) and the byte ranges of its
/// import tokens (the `@` through the path's last character); a fenced
/// code block's lines have none.
fn scanned_lines(text: &str) -> impl Iterator<Item = (&str, Vec<(usize, usize)>)> {
    let mut fence: Option<(u8, usize)> = None;
    text.split_inclusive('\n').map(move |line| {
        if let Some(open) = fence {
            if closes_fence(line, open) {
                fence = None;
            }
            return (line, Vec::new());
        }
        if let Some(open) = opens_fence(line) {
            fence = Some(open);
            return (line, Vec::new());
        }
        (line, tokens(line))
    })
}

/// Every `@` token of `text` as Copilot scans it, with its 1-based line:
/// the path after the `@`, whether or not Copilot reads it.
pub fn import_tokens(text: &str) -> Vec<(u64, &str)> {
    scanned_lines(text)
        .zip(1u64..)
        .flat_map(|((line, tokens), number)| {
            tokens
                .into_iter()
                .map(move |(start, end)| (number, &line[start + 1..end]))
        })
        .collect()
}

/// The imports of one top-level file.
struct TopLevel {
    seen: HashSet<PathBuf>,
    imports: Vec<ImportRecord>,
}

impl TopLevel {
    fn record(&mut self, path: PathBuf, depth: usize, status: ImportStatus) {
        self.imports.push(ImportRecord {
            path,
            depth,
            status,
        });
    }
}

/// True for a token Copilot tries to read: holding `.` or `/`, neither
/// absolute nor home-relative.
fn is_import_path(token: &str) -> bool {
    (token.contains('.') || token.contains('/'))
        && !token.starts_with('/')
        && !token.starts_with('~')
}

/// True for a character a path runs over.
fn is_path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '~' | '+')
}

/// True for a character after which an `@` opens an import.
fn opens_after(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | '[' | '"' | '\'')
}

/// The `(start, end)` byte ranges of the import tokens of `line` (the `@`
/// through the path's last character), outside its code spans.
fn tokens(line: &str) -> Vec<(usize, usize)> {
    let spans = code_spans(line);
    let mut found = Vec::new();
    let mut prev: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let opens = c == '@' && prev.is_none_or(opens_after);
        prev = Some(c);
        if !opens || spans.iter().any(|&(s, e)| at >= s && at < e) {
            continue;
        }
        let rest = &line[at + 1..];
        let len = rest.find(|c: char| !is_path_char(c)).unwrap_or(rest.len());
        let path = rest[..len].trim_end_matches('.');
        if path.is_empty() {
            continue;
        }
        let end = at + 1 + path.len();
        found.push((at, end));
        while chars.peek().is_some_and(|&(i, _)| i < end) {
            prev = chars.next().map(|(_, c)| c);
        }
    }
    found
}

/// The byte ranges of `line`'s code spans: a run of backticks up to the
/// next run of the same length (an unclosed run protects nothing).
fn code_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let open = run_at(i);
        let mut j = i + open;
        let mut closed = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let run = run_at(j);
                if run == open {
                    closed = Some(j + run);
                    break;
                }
                j += run;
            } else {
                j += 1;
            }
        }
        match closed {
            Some(end) => {
                spans.push((i, end));
                i = end;
            }
            None => i += open,
        }
    }
    spans
}

/// The fence a line opens (its character and length): up to three spaces,
/// then three or more backticks or tildes.
fn opens_fence(line: &str) -> Option<(u8, usize)> {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let rest = &line.as_bytes()[indent..];
    let c = *rest.first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let len = rest.iter().take_while(|&&b| b == c).count();
    (len >= 3).then_some((c, len))
}

/// True when `line` closes the fence `open`.
fn closes_fence(line: &str, open: (u8, usize)) -> bool {
    let trimmed = line.trim_start_matches(' ');
    let len = trimmed.bytes().take_while(|&b| b == open.0).count();
    len >= open.1 && trimmed[len..].trim().is_empty() && line.len() - trimmed.len() <= 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Files(HashMap<PathBuf, &'static str>);

    impl ImportFiles for Files {
        fn fetch(&self, path: &Path) -> Fetch {
            match self.0.get(path) {
                Some(text) => Fetch::Text {
                    real: path.to_path_buf(),
                    text: text.to_string(),
                    binary: false,
                },
                None => Fetch::Absent,
            }
        }
    }

    fn files(entries: &[(&str, &'static str)]) -> Files {
        Files(
            entries
                .iter()
                .map(|(path, text)| (PathBuf::from(path), *text))
                .collect(),
        )
    }

    fn inline(files: &Files, text: &str) -> Inlined {
        Inliner::new(files).inline(text, Path::new("/w/AGENTS.md"))
    }

    #[test]
    fn tokens_stop_at_punctuation_and_open_after_brackets_and_quotes() {
        let line = "a @x.md. (@y.md) [@z.md] \"@q.md\" foo@no.md *@no.md `@no.md` @e.md;\n";
        let got: Vec<&str> = tokens(line).iter().map(|&(s, e)| &line[s..e]).collect();
        assert_eq!(got, ["@x.md", "@y.md", "@z.md", "@q.md", "@e.md"]);
    }

    #[test]
    #[cfg_attr(windows, ignore = "fixture paths are the Unix paths /w and /h")]
    fn an_import_is_inlined_after_its_token_trimmed_at_the_end() {
        let files = files(&[("/w/a.md", "A\n@b.md\nend  \n\n"), ("/w/b.md", "B\n")]);
        let got = inline(&files, "Top @a.md then.\n");
        assert_eq!(
            got.text,
            "Top @a.md\n\n<imported_custom_instruction source=\"/w/a.md\">\nA\n@b.md\n\n\
             <imported_custom_instruction source=\"/w/b.md\">\nB\n\
             </imported_custom_instruction>\nend\n</imported_custom_instruction> then.\n"
        );
        let depths: Vec<usize> = got.imports.iter().map(|i| i.depth).collect();
        assert_eq!(depths, [1, 2]);
    }

    #[test]
    fn repeats_and_the_file_itself_are_already_loaded() {
        let files = files(&[("/w/a.md", "A\n"), ("/w/AGENTS.md", "self")]);
        let got = inline(&files, "@a.md @a.md @AGENTS.md\n");
        assert_eq!(got.text.matches(ALREADY_LOADED).count(), 2);
        assert_eq!(got.imports[1].status, ImportStatus::AlreadyLoaded);
    }

    #[test]
    fn fences_protect_indented_code_and_comments_do_not() {
        let files = files(&[("/w/a.md", "A")]);
        let got = inline(&files, "```\n@a.md\n```\n    @a.md\n");
        assert_eq!(got.text.matches(IMPORT_OPEN).count(), 1);
        assert!(
            got.text
                .starts_with("```\n@a.md\n```\n    @a.md\n\n<imported")
        );
    }

    #[test]
    fn forms_copilot_never_reads_stay_text() {
        let files = files(&[("/w/LICENSE", "L"), ("/x.md", "X")]);
        let text = "@LICENSE @/x.md @~/x.md @missing.md\n";
        let got = inline(&files, text);
        assert_eq!(got.text, text);
        assert!(got.imports.is_empty());
    }

    #[test]
    fn the_ninth_level_stays_text_and_is_listed() {
        let mut entries = Vec::new();
        let names: Vec<String> = (1..=10).map(|i| format!("/w/d{i}.md")).collect();
        let texts: Vec<&'static str> = (1..=10)
            .map(|i| &*Box::leak(format!("d{i} @d{}.md\n", i + 1).into_boxed_str()))
            .collect();
        for (name, text) in names.iter().zip(&texts) {
            entries.push((name.as_str(), *text));
        }
        let files = files(&entries);
        let got = inline(&files, "@d1.md\n");
        assert_eq!(got.text.matches(IMPORT_OPEN).count(), 8);
        assert!(got.text.contains("d8 @d9.md\n</imported"));
        let last = got.imports.last().unwrap();
        assert_eq!((last.depth, &last.status), (9, &ImportStatus::TooDeep));
    }
}
