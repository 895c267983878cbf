//! Gemini CLI's `@path` imports (SPEC §16.3): found in a context file's
//! text and inlined in place between Gemini's markers, failures written
//! into the text the way Gemini writes them. Pure: every file is fetched
//! through [`ImportFiles`], which the run backs with the workspace readers.
//!
//! The wire strings (`<!-- Imported from: P -->`, `<!-- End of import
//! from: P -->`, `<!-- File already processed: P -->`, `<!-- Import
//! failed: P - … -->`) are facts observed on Gemini CLI 0.61.0.
//!
//! Choices the spec leaves open:
//! - A backtick run with no closing run of the same length protects
//!   nothing (it is text, and tokens after it are imports).
//! - A file Gemini would inline but the preview does not read (outside the
//!   workspace from a project or parent file, a link out, a file over
//!   [`limits::MAX_GEMINI_FILE_BYTES`], something that is not a regular
//!   file, past the fan-out guard) becomes a bracketed note of ours in the
//!   text, `[mecatl-prompt did not read: P (why)]`, and an [`ImportEvent`]
//!   the run reports; it never looks like one of Gemini's markers.
//! - The fan-out guard counts every import looked up, repeats and
//!   failures included ([`limits::MAX_IMPORTS`] per assembly), and the
//!   bytes of every inlined file ([`limits::MAX_IMPORTED_BYTES`]), so a
//!   file of a million missing imports is as bounded as a fan-out.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use crate::limits;
use crate::prompt::imports::normalise;

/// What fetching one import target gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetch {
    /// The file's text (lossy UTF-8).
    Text(String),
    /// Nothing there.
    Missing,
    /// A directory.
    Directory,
    /// Outside what the preview reads (the workspace, for a project or
    /// parent file): never read.
    Outside,
    /// Inside an untrusted workspace, imported from a user file: withheld.
    Withheld,
    /// There but not read (the reason, in a few words).
    Unread(String),
}

/// Where imported files come from, for one assembly.
pub trait ImportFiles {
    /// The import root of a file in `dir` (absolute): the nearest ancestor
    /// of `dir` (itself included) holding `.git`, else `dir`.
    fn import_root(&self, dir: &Path) -> PathBuf;

    /// The file at `path` (absolute, normalised), imported from a file of
    /// the user's (`user`) or of the walk.
    fn fetch(&self, path: &Path, user: bool) -> Fetch;
}

/// Something an import did that the run reports beside the text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ImportEvent {
    /// The target does not exist (Gemini writes its ENOENT failure).
    Missing {
        /// The target, absolute.
        path: PathBuf,
    },
    /// The target is a directory (Gemini writes its EISDIR failure).
    Directory {
        /// The target, absolute.
        path: PathBuf,
    },
    /// The target leaves the import root (Gemini refuses it).
    Traversal {
        /// The token's path as written.
        written: String,
    },
    /// Gemini would read it; the preview does not (outside the workspace).
    Outside {
        /// The target, absolute.
        path: PathBuf,
        /// The file whose `@path` names it, absolute.
        from: PathBuf,
    },
    /// There, but not read by the preview.
    Unread {
        /// The target, absolute.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// Inside an untrusted workspace: withheld.
    Withheld {
        /// The target, absolute.
        path: PathBuf,
    },
    /// The fan-out guard stopped reading.
    Capped {
        /// The target, absolute.
        path: PathBuf,
    },
    /// The target is on the chain of files importing it: Gemini writes
    /// `File already processed` in its place.
    Cycle {
        /// The target, absolute.
        path: PathBuf,
    },
    /// A token of a file at the deepest level Gemini inlines: it stays
    /// text.
    TooDeep {
        /// The token's path as written.
        written: String,
    },
    /// The target was inlined.
    Inlined {
        /// The target, absolute.
        path: PathBuf,
    },
}

/// An [`ImportEvent`] and the token that caused it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Located {
    /// What happened.
    pub event: ImportEvent,
    /// The file holding the token, absolute.
    pub from: PathBuf,
    /// The byte offset of the token's `@` in that file's own text.
    pub offset: usize,
}

/// Where one token lies: its file and the offset of its `@`.
struct Site<'a> {
    file: &'a Path,
    offset: usize,
}

/// One assembly's import state: the fan-out guard's counts and what
/// happened.
#[derive(Debug, Default)]
pub struct Inliner {
    imports: usize,
    bytes: u64,
    /// What happened, in the order met, each with its token.
    pub events: Vec<Located>,
}

/// How the marker Gemini opens an inlined file with starts.
const OPEN_MARKER: &str = "<!-- Imported from: ";
/// How the marker Gemini closes it with starts.
const CLOSE_MARKER: &str = "<!-- End of import from: ";
/// How both end.
const MARKER_END: &str = " -->";

/// The marker Gemini opens an inlined file with.
fn opened(written: &str) -> String {
    format!("{OPEN_MARKER}{written}{MARKER_END}\n")
}

/// The marker Gemini closes an inlined file with.
fn closed(written: &str) -> String {
    format!("\n{CLOSE_MARKER}{written}{MARKER_END}")
}

impl Inliner {
    /// `text`, the content of the file at `file` (absolute), with its
    /// imports inlined as Gemini does; `user` for a file of the user's.
    pub fn process(
        &mut self,
        files: &dyn ImportFiles,
        text: &str,
        file: &Path,
        user: bool,
    ) -> String {
        let mut chain = Vec::new();
        self.inline(files, text, file, user, 0, &mut chain)
    }

    fn inline(
        &mut self,
        files: &dyn ImportFiles,
        text: &str,
        file: &Path,
        user: bool,
        depth: usize,
        chain: &mut Vec<PathBuf>,
    ) -> String {
        let tokens = tokens(text);
        if depth >= limits::GEMINI_MAX_IMPORT_DEPTH {
            for token in tokens {
                let written = text[token.start + 1..token.end].to_string();
                let site = Site {
                    file,
                    offset: token.start,
                };
                self.note(&site, ImportEvent::TooDeep { written });
            }
            return text.to_string();
        }
        if tokens.is_empty() {
            return text.to_string();
        }
        let dir = file.parent().unwrap_or(Path::new("/"));
        let root = files.import_root(dir);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for token in tokens {
            out.push_str(&text[at..token.start]);
            at = token.end;
            let written = &text[token.start + 1..token.end];
            let site = Site {
                file,
                offset: token.start,
            };
            out.push_str(&self.one(files, written, &site, &root, user, depth, chain));
        }
        out.push_str(&text[at..]);
        out
    }

    /// Records `event`, caused by the token at `site`.
    fn note(&mut self, site: &Site<'_>, event: ImportEvent) {
        self.events.push(Located {
            event,
            from: site.file.to_path_buf(),
            offset: site.offset,
        });
    }

    /// What one token `@written` at `site` becomes.
    #[expect(
        clippy::too_many_arguments,
        reason = "one token needs the whole recursion state"
    )]
    fn one(
        &mut self,
        files: &dyn ImportFiles,
        written: &str,
        site: &Site<'_>,
        root: &Path,
        user: bool,
        depth: usize,
        chain: &mut Vec<PathBuf>,
    ) -> String {
        let failed = |why: &str| format!("<!-- Import failed: {written} - {why} -->");
        let file = site.file;
        let dir = file.parent().unwrap_or(Path::new("/"));
        // Observed: `http:` and `https:` are refused; `file:x` is a
        // relative path like any other (SPEC §16.3 lists `file:` too).
        let url = ["http:", "https:"]
            .iter()
            .any(|scheme| written.starts_with(scheme));
        let target = normalise(&dir.join(written));
        if url || !target.starts_with(root) {
            self.note(
                site,
                ImportEvent::Traversal {
                    written: written.to_string(),
                },
            );
            return failed("Path traversal attempt");
        }
        if chain.contains(&target) {
            self.note(site, ImportEvent::Cycle { path: target });
            return format!("<!-- File already processed: {written} -->");
        }
        if self.imports >= limits::MAX_IMPORTS || self.bytes >= limits::MAX_IMPORTED_BYTES {
            self.note(site, ImportEvent::Capped { path: target });
            return ours(written, "past the import guard");
        }
        self.imports += 1;
        match files.fetch(&target, user) {
            Fetch::Text(content) => {
                self.bytes += content.len() as u64;
                self.note(
                    site,
                    ImportEvent::Inlined {
                        path: target.clone(),
                    },
                );
                chain.push(target.clone());
                let inner = self.inline(files, &content, &target, user, depth + 1, chain);
                chain.pop();
                format!("{}{inner}{}", opened(written), closed(written))
            }
            Fetch::Missing => {
                let shown = target.display().to_string();
                self.note(site, ImportEvent::Missing { path: target });
                failed(&format!(
                    "ENOENT: no such file or directory, access '{shown}'"
                ))
            }
            Fetch::Directory => {
                self.note(site, ImportEvent::Directory { path: target });
                failed("EISDIR: illegal operation on a directory, read")
            }
            Fetch::Outside => {
                self.note(
                    site,
                    ImportEvent::Outside {
                        path: target,
                        from: file.to_path_buf(),
                    },
                );
                ours(written, "outside the workspace")
            }
            Fetch::Withheld => {
                self.note(site, ImportEvent::Withheld { path: target });
                ours(written, "withheld: the workspace is not trusted")
            }
            Fetch::Unread(why) => {
                let note = ours(written, &why);
                self.note(site, ImportEvent::Unread { path: target, why });
                note
            }
        }
    }
}

/// True for a line that is nothing but one of the markers Gemini puts
/// around an inlined file (`<!-- Imported from: P -->`, `<!-- End of
/// import from: P -->`): what `compare` leaves out of instruction content,
/// as it leaves out Claude Code's `@path` lines.
pub fn is_marker_line(line: &str) -> bool {
    let line = line.trim();
    [OPEN_MARKER, CLOSE_MARKER].iter().any(|marker| {
        line.strip_prefix(marker)
            .is_some_and(|rest| rest.ends_with(MARKER_END))
    })
}

/// The note of ours that stands where the preview did not read a file.
pub fn ours(written: &str, why: &str) -> String {
    format!("[mecatl-prompt did not read: {written} ({why})]")
}

/// Where one import token lies in a text: from its `@` to the end of its
/// path (byte offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// The offset of the `@`.
    pub start: usize,
    /// The offset just past the path.
    pub end: usize,
}

/// Gemini's separators around a token: space, TAB, LF, CR.
fn is_separator(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// Every import token of `text`, in order (SPEC §16.3): `@` at the start
/// or after a separator, up to the next separator, starting with `.`, `/`
/// or an ASCII letter, outside code spans.
pub fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    if !bytes.contains(&b'@') {
        return Vec::new();
    }
    let spans = code_spans(bytes);
    let mut found = Vec::new();
    let mut span = spans.iter().peekable();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'@' || (i > 0 && !is_separator(bytes[i - 1])) {
            i += 1;
            continue;
        }
        while span.peek().is_some_and(|&&(_, end)| end <= i) {
            span.next();
        }
        if span.peek().is_some_and(|&&(start, _)| start <= i) {
            i += 1;
            continue;
        }
        let end = bytes[i + 1..]
            .iter()
            .position(|&b| is_separator(b))
            .map_or(bytes.len(), |len| i + 1 + len);
        let first = bytes.get(i + 1).copied().unwrap_or(b' ');
        if end > i + 1 && (first == b'.' || first == b'/' || first.is_ascii_alphabetic()) {
            found.push(Token { start: i, end });
        }
        i = end.max(i + 1);
    }
    found
}

/// The byte ranges backticks protect: a run of N backticks to the next run
/// of exactly N, both included. Linear: each run length keeps a queue of
/// its runs, so an unclosed run costs no scan to the end of the text.
fn code_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let len = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            runs.push((i, len));
            i += len;
        } else {
            i += 1;
        }
    }
    let mut by_len: HashMap<usize, VecDeque<usize>> = HashMap::new();
    for (k, &(_, len)) in runs.iter().enumerate() {
        by_len.entry(len).or_default().push_back(k);
    }
    let mut spans = Vec::new();
    let mut k = 0;
    while k < runs.len() {
        let (start, len) = runs[k];
        let later = by_len.get_mut(&len).and_then(|queue| {
            while queue.front().is_some_and(|&m| m <= k) {
                queue.pop_front();
            }
            queue.front().copied()
        });
        match later {
            Some(m) => {
                spans.push((start, runs[m].0 + len));
                k = m + 1;
            }
            None => k += 1,
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn written(text: &str) -> Vec<&str> {
        tokens(text)
            .into_iter()
            .map(|t| &text[t.start + 1..t.end])
            .collect()
    }

    #[test]
    fn tokens_follow_a_separator_and_start_with_a_dot_a_slash_or_a_letter() {
        assert_eq!(
            written("@a.md x @./b.md\t@/c\n@d,e (@f) g@h @~/i @1 @ @_x"),
            ["a.md", "./b.md", "/c", "d,e"]
        );
    }

    #[test]
    fn marker_lines_are_told_from_text() {
        assert!(is_marker_line("<!-- Imported from: ./a.md -->\n"));
        assert!(is_marker_line("<!-- End of import from: a b.md -->"));
        assert!(!is_marker_line("See <!-- Imported from: a.md -->"));
        assert!(!is_marker_line("<!-- File already processed: a.md -->"));
    }

    #[test]
    fn only_backtick_runs_protect() {
        assert_eq!(written("`@a` ``@b ` @c`` @d"), ["d"]);
        assert_eq!(
            written("~~~\n@a\n~~~\n    @b\n<!-- @c -->"),
            ["a", "b", "c"]
        );
        assert_eq!(written("``` @a"), ["a"]);
        assert_eq!(written("`` ` @a ` `` @b"), ["b"]);
        assert_eq!(written("``` `` ` @a"), ["a"]);
        // Unclosed runs of every length: linear, not a scan per run.
        let mut text: String = (1..1500).map(|n| "`".repeat(n) + "a").collect();
        text.push_str(" @z");
        assert_eq!(written(&text), ["z"]);
    }

    /// Files by absolute path; the import root is always `/w`.
    struct Mem(HashMap<PathBuf, Fetch>);

    impl ImportFiles for Mem {
        fn import_root(&self, _dir: &Path) -> PathBuf {
            PathBuf::from("/w")
        }

        fn fetch(&self, path: &Path, _user: bool) -> Fetch {
            self.0.get(path).cloned().unwrap_or(Fetch::Missing)
        }
    }

    fn mem(files: &[(&str, Fetch)]) -> Mem {
        Mem(files
            .iter()
            .map(|(path, fetch)| (PathBuf::from(path), fetch.clone()))
            .collect())
    }

    fn text(s: &str) -> Fetch {
        Fetch::Text(s.to_string())
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "fixture workspace and home are the Unix paths /w and /h"
    )]
    fn imports_inline_between_markers_and_failures_stay_in_the_text() {
        let files = mem(&[
            ("/w/a.md", text("A @b.md\n")),
            ("/w/b.md", text("B\n")),
            ("/w/d", Fetch::Directory),
        ]);
        let mut inliner = Inliner::default();
        let out = inliner.process(
            &files,
            "@./a.md @x.md @d @../o.md",
            Path::new("/w/G.md"),
            false,
        );
        assert_eq!(
            out,
            "<!-- Imported from: ./a.md -->\nA <!-- Imported from: b.md -->\nB\n\n\
             <!-- End of import from: b.md -->\n\n<!-- End of import from: ./a.md --> \
             <!-- Import failed: x.md - ENOENT: no such file or directory, access '/w/x.md' --> \
             <!-- Import failed: d - EISDIR: illegal operation on a directory, read --> \
             <!-- Import failed: ../o.md - Path traversal attempt -->"
        );
        let offsets: Vec<(usize, &str)> = inliner
            .events
            .iter()
            .map(|e| (e.offset, e.from.to_str().unwrap_or_default()))
            .collect();
        assert_eq!(
            offsets,
            [
                (0, "/w/G.md"),
                (2, "/w/a.md"),
                (8, "/w/G.md"),
                (14, "/w/G.md"),
                (17, "/w/G.md")
            ]
        );
    }

    #[test]
    fn the_ancestor_chain_is_seen_siblings_repeat_and_depth_five_stays_text() {
        let files = mem(&[
            ("/w/c1.md", text("1 @c2.md")),
            ("/w/c2.md", text("2 @c1.md")),
            ("/w/s.md", text("S")),
        ]);
        let mut inliner = Inliner::default();
        let out = inliner.process(&files, "@c1.md @s.md @s.md", Path::new("/w/G.md"), false);
        assert!(
            out.contains("2 <!-- File already processed: c1.md -->"),
            "{out}"
        );
        assert_eq!(out.matches("<!-- Imported from: s.md -->").count(), 2);
        let chain: Vec<(String, Fetch)> = (1..=7)
            .map(|i| (format!("/w/d{i}.md"), text(&format!("d{i} @d{}.md", i + 1))))
            .collect();
        let files = Mem(chain
            .into_iter()
            .map(|(p, f)| (PathBuf::from(p), f))
            .collect());
        let out = Inliner::default().process(&files, "@d1.md", Path::new("/w/G.md"), false);
        assert!(
            out.contains("d5 @d6.md\n<!-- End of import from: d5.md -->"),
            "{out}"
        );
        assert!(!out.contains("d6 "), "{out}");
    }

    #[test]
    fn the_fan_out_guard_stops_reading() {
        let files = mem(&[
            (
                "/w/x.md",
                text("@x2.md @x2.md @x2.md @x2.md @x2.md @x2.md @x2.md @x2.md @x2.md @x2.md"),
            ),
            (
                "/w/x2.md",
                text("@x3.md @x3.md @x3.md @x3.md @x3.md @x3.md @x3.md @x3.md @x3.md @x3.md"),
            ),
            (
                "/w/x3.md",
                text("@x4.md @x4.md @x4.md @x4.md @x4.md @x4.md @x4.md @x4.md @x4.md @x4.md"),
            ),
            (
                "/w/x4.md",
                text("@x5.md @x5.md @x5.md @x5.md @x5.md @x5.md @x5.md @x5.md @x5.md @x5.md"),
            ),
            ("/w/x5.md", text("leaf")),
        ]);
        let mut inliner = Inliner::default();
        let out = inliner.process(&files, &"@x.md ".repeat(10), Path::new("/w/G.md"), false);
        assert_eq!(
            out.matches("<!-- Imported from:").count(),
            limits::MAX_IMPORTS
        );
        assert!(out.contains("(past the import guard)]"));
    }
}
