//! `@imports` in Claude Code instruction files (SPEC §14.3, "Imports" and "External
//! imports"): the scanner that finds them in a file's text, and the policy that decides,
//! without touching the disk, where each one points and whether it may be read. The walk
//! that reads files takes the [`Candidate`]s and reports every [`Refusal`] reason.
//!
//! What is an import, as observed with the oracle
//! (`tests/oracle/cases/claude-instructions/imports-*`): Claude Code looks for `@path` in the
//! *text tokens* of the Markdown, not in raw lines. An `@` at the start of a text run or after
//! whitespace (JavaScript's `\s`, so NBSP and tabs count) opens one; the path runs to the next
//! whitespace or backslash, with `\ ` standing for a space; `#fragment` is dropped. Text runs
//! are what Markdown leaves of a paragraph, heading, table cell, emphasis or link text, so
//! `**@x.md**`, `[@x.md](url)`, `| @x.md |` and `<span>@x.md</span>` are imports, while
//! `(@x.md)` and `foo@bar.md` are not. Code spans, fenced and indented code, image alt text
//! and HTML blocks are never scanned — except an HTML block that opens with a closed
//! comment, whose text outside the comments is (`<!-- c --> @x.md`).
//!
//! Choices the spec leaves open:
//! - The Markdown structure comes from pulldown-cmark (CommonMark with GitHub tables,
//!   strikethrough and task lists); Claude Code uses its own lexer, which agreed on every
//!   observed case. A backslash escape splits a text run, as it does there.
//! - Offsets and lines point at the `@` in the scanned text; inside an HTML block they are
//!   exact, inside other text runs they are exact whenever the run is verbatim source.
//! - Paths are resolved lexically (`..` removes a component); following symbolic links and
//!   re-judging the real path is the reader's job ([`Bounds::external`] takes any path).

use std::collections::HashSet;
use std::fmt;
use std::path::{Component, Path, PathBuf};

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::limits;
use crate::prompt::markdown::{is_comment_html, markdown_options, structure};
use crate::prompt::text::is_js_space;

/// One `@path` found in a file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The path as Claude Code reads it: `\ ` unescaped, `#fragment` dropped.
    pub path: String,
    /// Byte offset of the `@` in the scanned text.
    pub offset: usize,
    /// 1-based line of the `@`.
    pub line: usize,
}

/// How an import's path is anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `@rel` or `@./rel`: against the importing file's directory.
    Relative,
    /// `@~/rel`: against the home directory.
    Home,
    /// `@/abs`.
    Absolute,
}

impl Import {
    /// How the path is anchored.
    pub fn form(&self) -> Form {
        if self.path.starts_with("~/") {
            Form::Home
        } else if self.path.starts_with('/') {
            Form::Absolute
        } else {
            Form::Relative
        }
    }

    /// The file the import names: relative paths against `importer_dir`, `~/` against
    /// `home`, then normalised lexically.
    pub fn resolve(&self, importer_dir: &Path, home: &Path) -> PathBuf {
        let joined = match self.form() {
            Form::Home => home.join(&self.path[2..]),
            Form::Absolute => PathBuf::from(&self.path),
            Form::Relative => importer_dir.join(&self.path),
        };
        normalise(&joined)
    }
}

/// `path` with `.` components removed and `..` applied lexically (never above the root).
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() && !path.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Every import in `text` (a file's content after its frontmatter), in document order,
/// duplicates included.
pub fn scan(text: &str) -> Vec<Import> {
    // Every import starts with `@`: a text without one needs no parse.
    if !text.contains('@') {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut run = Run::default();
    let mut html: Option<Run> = None;
    let mut skipped = 0usize;
    let structure = structure(text);
    for (event, range) in Parser::new_ext(&structure, markdown_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::Image { .. }) => {
                run.flush(text, &mut found);
                skipped += 1;
            }
            Event::End(TagEnd::CodeBlock | TagEnd::Image) => skipped = skipped.saturating_sub(1),
            _ if skipped > 0 => {}
            Event::Start(Tag::HtmlBlock) => {
                run.flush(text, &mut found);
                html = Some(Run::default());
            }
            Event::Html(raw) => {
                if let Some(block) = html.as_mut() {
                    block.push(text.get(range.clone()).unwrap_or(&raw), range.start);
                }
            }
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(block) = html.take().filter(|b| is_comment_html(&b.text)) {
                    block.without_comments().flush(text, &mut found);
                }
            }
            // The source, not the decoded text: entities stay as written, offsets exact.
            Event::Text(_) => match text.get(range.clone()) {
                Some(source) => push_text(&mut run, source, range.start, text, &mut found),
                None => run.flush(text, &mut found),
            },
            Event::SoftBreak => run.push("\n", range.start),
            _ => run.flush(text, &mut found),
        }
    }
    run.flush(text, &mut found);
    found
}

/// Adds a piece of source text to the run. A backslash escape (`\` before ASCII
/// punctuation) is a token of its own to Claude Code's lexer: it ends the run, and the
/// escaped character belongs to no run.
fn push_text(run: &mut Run, source: &str, offset: usize, text: &str, found: &mut Vec<Import>) {
    let bytes = source.as_bytes();
    let mut from = 0;
    let mut at = 0;
    // The parser may start a text event after an escape's backslash: then the first
    // character is the escaped one.
    let backslashes_before = text.as_bytes()[..offset]
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count();
    if backslashes_before % 2 == 1 && bytes.first().is_some_and(u8::is_ascii_punctuation) {
        run.flush(text, found);
        from = 1;
        at = 1;
    }
    while at + 1 < bytes.len() {
        if bytes[at] == b'\\' && bytes[at + 1].is_ascii_punctuation() {
            run.push(&source[from..at], offset + from);
            run.flush(text, found);
            at += 2;
            from = at;
        } else {
            at += 1;
        }
    }
    run.push(&source[from..], offset + from);
}

/// A run of text scanned as one string, with where each piece came from.
#[derive(Debug, Default)]
struct Run {
    text: String,
    /// `(offset in text, offset in the source)` at the start of each piece.
    pieces: Vec<(usize, usize)>,
}

impl Run {
    fn push(&mut self, piece: &str, source_offset: usize) {
        self.pieces.push((self.text.len(), source_offset));
        self.text.push_str(piece);
    }

    /// The source offset of the run's byte `at`.
    fn source_offset(&self, at: usize) -> usize {
        let index = self.pieces.partition_point(|&(start, _)| start <= at);
        match index.checked_sub(1).and_then(|i| self.pieces.get(i)) {
            Some(&(start, source)) => source + (at - start),
            None => at,
        }
    }

    /// The run with every closed `<!-- … -->` cut out, offsets kept.
    fn without_comments(&self) -> Run {
        let mut out = Run::default();
        let mut at = 0;
        while let Some(open) = self.text[at..].find("<!--").map(|i| at + i) {
            let Some(close) = self.text[open + 4..].find("-->").map(|i| open + 4 + i + 3) else {
                break;
            };
            self.copy(at..open, &mut out);
            at = close;
        }
        self.copy(at..self.text.len(), &mut out);
        out
    }

    /// Appends `range` of this run to `out`, piece by piece so offsets stay right.
    fn copy(&self, range: std::ops::Range<usize>, out: &mut Run) {
        let mut at = range.start;
        while at < range.end {
            let index = self.pieces.partition_point(|&(start, _)| start <= at);
            let piece_end = self
                .pieces
                .get(index)
                .map_or(self.text.len(), |&(start, _)| start);
            let end = piece_end.min(range.end);
            out.push(&self.text[at..end], self.source_offset(at));
            at = end;
        }
    }

    /// Scans the run, appends its imports, and empties it.
    fn flush(&mut self, source: &str, found: &mut Vec<Import>) {
        if self.text.contains('@') {
            for (at, path) in find_paths(&self.text) {
                let offset = self.source_offset(at);
                let line = 1 + source.as_bytes()[..offset.min(source.len())]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                found.push(Import { path, offset, line });
            }
        }
        self.text.clear();
        self.pieces.clear();
    }
}

/// `(offset of the @, path)` for every import in one text run: an `@` at the start or
/// after whitespace, the path up to whitespace or a backslash (`\ ` is a space), the
/// fragment dropped, and only paths that look like one.
fn find_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut previous: Option<char> = None;
    while let Some((at, c)) = chars.next() {
        let opens = c == '@' && previous.is_none_or(is_js_space);
        previous = Some(c);
        if !opens {
            continue;
        }
        let mut raw = String::new();
        while let Some(&(_, next)) = chars.peek() {
            if next == '\\' {
                let mut ahead = chars.clone();
                ahead.next();
                if ahead.peek().map(|&(_, c)| c) != Some(' ') {
                    break;
                }
                chars.next();
                chars.next();
                raw.push(' ');
                previous = Some(' ');
            } else if is_js_space(next) {
                break;
            } else {
                chars.next();
                raw.push(next);
                previous = Some(next);
            }
        }
        let path = raw.split('#').next().unwrap_or_default();
        if looks_like_path(path) {
            out.push((at, path.to_string()));
        }
    }
    out
}

/// Whether an `@word` names a file: `./`, `~/` or `/`-anchored (not `/` alone), or starting
/// with an ASCII letter, digit, `.`, `_` or `-`.
fn looks_like_path(path: &str) -> bool {
    path.starts_with("./")
        || path.starts_with("~/")
        || (path.starts_with('/') && path != "/")
        || path
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// File extensions Claude Code reads through an import (compared in lowercase); a file
/// without an extension is read too, anything else is skipped as binary.
const TEXT_EXTENSIONS: &[&str] = &[
    "md",
    "txt",
    "text",
    "json",
    "yaml",
    "yml",
    "toml",
    "xml",
    "csv",
    "html",
    "htm",
    "css",
    "scss",
    "sass",
    "less",
    "js",
    "ts",
    "tsx",
    "jsx",
    "mjs",
    "cjs",
    "mts",
    "cts",
    "py",
    "pyi",
    "pyw",
    "rb",
    "erb",
    "rake",
    "go",
    "rs",
    "java",
    "kt",
    "kts",
    "scala",
    "c",
    "cpp",
    "cc",
    "cxx",
    "h",
    "hpp",
    "hxx",
    "cs",
    "swift",
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "bat",
    "cmd",
    "env",
    "ini",
    "cfg",
    "conf",
    "config",
    "properties",
    "sql",
    "graphql",
    "gql",
    "proto",
    "vue",
    "svelte",
    "astro",
    "ejs",
    "hbs",
    "pug",
    "jade",
    "php",
    "pl",
    "pm",
    "lua",
    "r",
    "dart",
    "ex",
    "exs",
    "erl",
    "hrl",
    "clj",
    "cljs",
    "cljc",
    "edn",
    "hs",
    "lhs",
    "elm",
    "ml",
    "mli",
    "f",
    "f90",
    "f95",
    "for",
    "cmake",
    "make",
    "makefile",
    "gradle",
    "sbt",
    "rst",
    "adoc",
    "asciidoc",
    "org",
    "tex",
    "latex",
    "lock",
    "log",
    "diff",
    "patch",
];

/// The extension of a file name as Node's `path.extname` sees it: from the last `.` that is
/// not the name's first character; `Some("")` for a trailing dot, `None` for none.
fn extension(name: &str) -> Option<&str> {
    let dot = name.rfind('.')?;
    (dot > 0 && name != "..").then(|| &name[dot + 1..])
}

/// Whether an import of `path` may be read as text: no extension, or one on Claude Code's
/// list, case-insensitively (`.png`, `.bin` and a trailing dot are not).
pub fn is_text_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    extension(&name).is_none_or(|ext| {
        TEXT_EXTENSIONS
            .iter()
            .any(|known| known.eq_ignore_ascii_case(ext))
    })
}

/// Which kind of file an import comes from, for the external rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The managed policy file and its imports.
    Managed,
    /// The user's files (`~/.claude/CLAUDE.md`, user rules) and their imports.
    User,
    /// Project, local and parent files (the walk from `/` to the cwd) and their imports.
    Project,
}

/// Why an import was not loaded. Some are decided here, the rest by the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Deeper than [`limits::MAX_IMPORT_DEPTH`] (Claude Code refuses it silently).
    TooDeep,
    /// Already loaded by the walk or an earlier import (cycles, duplicates).
    Duplicate,
    /// An extension outside Claude Code's text list.
    Binary,
    /// Outside the cwd from a project, local or parent file, with external includes not
    /// approved (Claude Code drops it).
    External,
    /// Outside the workspace from a project, local or parent file: never read by the
    /// preview, approved or not (a deliberate difference, SPEC §14.3).
    OutsideWorkspace,
    /// No such file (reader).
    Missing,
    /// A directory or another non-regular file (reader).
    NotAFile,
    /// Larger than [`limits::MAX_CLAUDE_FILE_BYTES`] (reader).
    TooLarge,
    /// Nothing left after the content transform (reader).
    Blank,
    /// Past [`limits::MAX_IMPORTS`] imports or [`limits::MAX_IMPORTED_BYTES`] bytes in one
    /// assembly (ours: a fan-out guard).
    OverCap,
}

impl Refusal {
    /// The reason as the profile lists it.
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::TooDeep => "imported too deep",
            Refusal::Duplicate => "already loaded",
            Refusal::Binary => "not a text file",
            Refusal::External => "outside the cwd, external imports not approved",
            Refusal::OutsideWorkspace => "external, not read",
            Refusal::Missing => "no such file",
            Refusal::NotAFile => "not a regular file",
            Refusal::TooLarge => "too large",
            Refusal::Blank => "empty",
            Refusal::OverCap => "import limit reached",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where the agent runs, which decides which imports are external.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// The home directory `@~/` resolves against.
    pub home: PathBuf,
    /// The agent's start directory (`--at`).
    pub cwd: PathBuf,
    /// The workspace root (`-C`).
    pub workspace: PathBuf,
    /// Whether the user approved external includes for the project (`~/.claude.json`).
    pub external_approved: bool,
}

impl Bounds {
    /// Whether a file imported from `origin` at `path` is refused for lying outside: never
    /// for managed and user files; for project files, outside the workspace always (ours),
    /// outside the cwd unless approved (Claude Code's rule).
    pub fn external(&self, origin: Origin, path: &Path) -> Option<Refusal> {
        if origin != Origin::Project || path.starts_with(&self.cwd) {
            None
        } else if !path.starts_with(&self.workspace) {
            Some(Refusal::OutsideWorkspace)
        } else if self.external_approved {
            None
        } else {
            Some(Refusal::External)
        }
    }
}

/// One import of one file, resolved and judged on what can be known without reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The import as written.
    pub import: Import,
    /// The file it names.
    pub target: PathBuf,
    /// Its depth: the imports of a walk file are depth 1.
    pub depth: usize,
    /// `Some` when it is not to be read, and why.
    pub refused: Option<Refusal>,
}

/// The imports of the file `importer` (at `importer_depth`, 0 for a walk file) resolved
/// and judged in order: too deep, then not a text file, then external. Duplicates are
/// judged later, when the walk reaches each one ([`Loaded::admit`]), because Claude Code
/// loads depth-first and the first visit wins.
pub fn candidates(
    imports: Vec<Import>,
    importer: &Path,
    importer_depth: usize,
    origin: Origin,
    bounds: &Bounds,
) -> Vec<Candidate> {
    let dir = importer.parent().unwrap_or(Path::new("/"));
    let depth = importer_depth + 1;
    imports
        .into_iter()
        .map(|import| {
            let target = import.resolve(dir, &bounds.home);
            let refused = if depth > limits::MAX_IMPORT_DEPTH {
                Some(Refusal::TooDeep)
            } else if !is_text_file(&target) {
                Some(Refusal::Binary)
            } else {
                bounds.external(origin, &target)
            };
            Candidate {
                import,
                target,
                depth,
                refused,
            }
        })
        .collect()
}

/// The files one assembly has loaded: each file once, and the fan-out caps.
#[derive(Debug, Default)]
pub struct Loaded {
    files: HashSet<PathBuf>,
    imports: usize,
    imported_bytes: u64,
}

impl Loaded {
    /// Records a file the walk itself loads; `false` when it was already loaded.
    pub fn claim(&mut self, path: &Path) -> bool {
        self.files.insert(path.to_path_buf())
    }

    /// Decides whether the import of `path` may be read now: not when the file was loaded
    /// already, or once the assembly holds [`limits::MAX_IMPORTS`] imports or
    /// [`limits::MAX_IMPORTED_BYTES`] imported bytes. An admitted file counts as loaded.
    pub fn admit(&mut self, path: &Path) -> Result<(), Refusal> {
        if self.files.contains(path) {
            return Err(Refusal::Duplicate);
        }
        if self.imports >= limits::MAX_IMPORTS || self.imported_bytes >= limits::MAX_IMPORTED_BYTES
        {
            return Err(Refusal::OverCap);
        }
        self.files.insert(path.to_path_buf());
        self.imports += 1;
        Ok(())
    }

    /// Whether `path` was claimed or admitted.
    pub fn contains(&self, path: &Path) -> bool {
        self.files.contains(path)
    }

    /// Counts the bytes of an admitted import that was read.
    pub fn add_bytes(&mut self, bytes: u64) {
        self.imported_bytes = self.imported_bytes.saturating_add(bytes);
    }
}

/// True for an import path its author meant as a file: a path with an
/// extension or a dotfile name (`@docs/api.md`, `@.editorconfig`), or one
/// anchored with `./`, `../`, `~/` or `/`. `lint` reports only such imports:
/// the agents try every `@word`, but `@Observable`, `@jlowin` or
/// `@scope/package` in prose are not imports their author meant.
pub fn looks_like_a_file(path: &str) -> bool {
    let anchored = ["./", "../", "~/", "/"]
        .iter()
        .any(|anchor| path.starts_with(anchor));
    let name = path.rsplit('/').next().unwrap_or(path);
    anchored || name.contains('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        scan(text).into_iter().map(|import| import.path).collect()
    }

    #[test]
    fn prose_mentions_are_not_taken_for_files() {
        for file in [
            "docs/api.md",
            ".editorconfig",
            "./notes",
            "../x",
            "~/y",
            "/etc/z",
        ] {
            assert!(looks_like_a_file(file), "{file}");
        }
        for prose in [
            "Observable",
            "jlowin",
            "MX:NOTE",
            "modelcontextprotocol/sdk",
        ] {
            assert!(!looks_like_a_file(prose), "{prose}");
        }
    }

    #[test]
    fn forms_mid_line_escapes_and_fragments() {
        let text = "Root imports @rel.md and @./dot.md\n@sub/a.md\n@my\\ file.md @frag.md#section\nx\u{a0}@nbsp.md and\t@tab.md\n";
        assert_eq!(
            paths(text),
            [
                "rel.md",
                "./dot.md",
                "sub/a.md",
                "my file.md",
                "frag.md",
                "nbsp.md",
                "tab.md"
            ]
        );
    }

    #[test]
    fn offsets_and_lines_point_at_the_at_sign() {
        let text = "intro\n\nsee @a.md and @b.md\n\n- @c.md\n";
        let found = scan(text);
        let at: Vec<(usize, usize)> = found.iter().map(|i| (i.offset, i.line)).collect();
        assert_eq!(at, [(11, 3), (21, 3), (30, 5)]);
        assert!(found.iter().all(|i| text[i.offset..].starts_with('@')));
    }

    #[test]
    fn code_comments_html_blocks_and_words_hide_imports() {
        let text = "Span `@span.md` here.\n\n```\n@fence.md\n```\n\n~~~\n@tilde.md\n~~~\n\n    @indented.md\n\n<!-- @comment.md -->\n\nInline <!-- @inline-comment.md --> comment.\n\n<div>\n@div.md\n</div>\n\nmail foo@bar.md\n\n(@paren.md)\n\n@real.md\n";
        assert_eq!(paths(text), ["real.md"]);
        assert_eq!(paths("![alt @img.md](x.png)"), Vec::<String>::new());
        assert_eq!(paths("text <my_tag>@x.md</my_tag>"), ["x.md"]);
    }

    #[test]
    fn markdown_text_runs_open_imports() {
        let text = "| col | x |\n|---|---|\n| @table.md | y |\n\n**@strong.md** and [@link.md](http://example.com)\n\n1. step\n\n    @list4.md\n\n## @heading.md\n\n> @quote.md\n\n<!-- c --> @after-comment.md\n\ntext <span>@after-tag.md</span>\n\n*@em.md*\n";
        assert_eq!(
            paths(text),
            [
                "table.md",
                "strong.md",
                "link.md",
                "list4.md",
                "heading.md",
                "quote.md",
                "after-comment.md",
                "after-tag.md",
                "em.md"
            ]
        );
    }

    #[test]
    fn an_import_after_a_closed_comment_keeps_its_offset() {
        let text = "x\n\n<!-- c --> @after.md\n";
        let found = scan(text);
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].offset..], "@after.md\n");
        assert_eq!(found[0].line, 3);
    }

    #[test]
    fn duplicates_are_all_reported() {
        assert_eq!(
            paths("@a.md @dup.md @dup.md @left.md @right.md"),
            ["a.md", "dup.md", "dup.md", "left.md", "right.md"]
        );
    }

    #[test]
    fn only_path_like_words_are_imports() {
        for text in [
            "@",
            "@/",
            "@#x",
            "@(x)",
            "@@x",
            "@\"x\"",
            "@*x*",
            "foo@bar.md",
            "@#",
        ] {
            assert_eq!(paths(text), Vec::<String>::new(), "{text:?}");
        }
        assert_eq!(
            paths("@~/x.md @/etc/x @.hidden @_u @-d @9"),
            ["~/x.md", "/etc/x", ".hidden", "_u", "-d", "9"]
        );
        assert_eq!(
            paths("@a\\b.md"),
            ["a"],
            "a backslash not before a space ends the path"
        );
        assert_eq!(paths("@a@b.md"), ["a@b.md"]);
    }

    #[test]
    fn a_backslash_escape_splits_a_text_run() {
        assert_eq!(paths("\\*@x.md"), ["x.md"]);
        assert_eq!(paths("a\\_@y.md"), ["y.md"]);
        assert_eq!(paths("\\\\@z.md"), ["z.md"]);
        assert_eq!(paths("&amp;@x.md"), Vec::<String>::new());
        assert_eq!(
            paths("\\w @x.md"),
            ["x.md"],
            "a backslash before a letter is text"
        );
    }

    #[test]
    fn resolution_is_lexical_against_the_importer_or_home() {
        let home = Path::new("/home/u");
        let dir = Path::new("/ws/sub");
        let resolve = |path: &str| {
            Import {
                path: path.to_string(),
                offset: 0,
                line: 1,
            }
            .resolve(dir, home)
        };
        assert_eq!(resolve("sib.md"), Path::new("/ws/sub/sib.md"));
        assert_eq!(resolve("./x/../y.md"), Path::new("/ws/sub/y.md"));
        assert_eq!(resolve("../../../outside.md"), Path::new("/outside.md"));
        assert_eq!(resolve("~/h.md"), Path::new("/home/u/h.md"));
        assert_eq!(resolve("/etc/hostname"), Path::new("/etc/hostname"));
        assert_eq!(normalise(Path::new("a/../../b")), Path::new("../b"));
    }

    #[test]
    fn text_extensions_follow_node_extname_case_insensitively() {
        for loads in [
            "noext", "Makefile", ".hidden", "UPPER.MD", "code.rs", "x.R", "a.b.json",
        ] {
            assert!(is_text_file(Path::new(loads)), "{loads}");
        }
        for skipped in ["img.png", "data.bin", "trail.", "a.md.png"] {
            assert!(!is_text_file(Path::new(skipped)), "{skipped}");
        }
    }

    fn bounds(approved: bool) -> Bounds {
        Bounds {
            home: PathBuf::from("/home/u"),
            cwd: PathBuf::from("/ws/sub"),
            workspace: PathBuf::from("/ws"),
            external_approved: approved,
        }
    }

    fn judged(
        text: &str,
        importer: &str,
        depth: usize,
        origin: Origin,
        approved: bool,
    ) -> Vec<(PathBuf, Option<Refusal>)> {
        candidates(
            scan(text),
            Path::new(importer),
            depth,
            origin,
            &bounds(approved),
        )
        .into_iter()
        .map(|c| (c.target, c.refused))
        .collect()
    }

    #[test]
    fn project_imports_outside_the_cwd_need_approval_and_never_leave_the_workspace() {
        let text = "@inside.md @../rootimp.md @~/secret @/etc/hostname";
        let refused = |approved| -> Vec<Option<Refusal>> {
            judged(text, "/ws/sub/CLAUDE.md", 0, Origin::Project, approved)
                .into_iter()
                .map(|(_, r)| r)
                .collect()
        };
        use Refusal::{External, OutsideWorkspace};
        assert_eq!(
            refused(false),
            [
                None,
                Some(External),
                Some(OutsideWorkspace),
                Some(OutsideWorkspace)
            ]
        );
        assert_eq!(
            refused(true),
            [None, None, Some(OutsideWorkspace), Some(OutsideWorkspace)]
        );
    }

    #[test]
    fn user_and_managed_imports_are_followed_anywhere() {
        for origin in [Origin::User, Origin::Managed] {
            let got = judged(
                "@~/u.md @../p.md @/etc/x.md",
                "/home/u/.claude/CLAUDE.md",
                0,
                origin,
                false,
            );
            assert_eq!(
                got,
                [
                    (PathBuf::from("/home/u/u.md"), None),
                    (PathBuf::from("/home/u/p.md"), None),
                    (PathBuf::from("/etc/x.md"), None)
                ]
            );
        }
    }

    #[test]
    fn depth_five_and_binary_files_are_refused() {
        let at_four = judged("@d5.md", "/ws/sub/d4.md", 4, Origin::Project, false);
        assert_eq!(at_four[0].1, Some(Refusal::TooDeep));
        let at_three = judged(
            "@d4.md @img.png",
            "/ws/sub/d3.md",
            3,
            Origin::Project,
            false,
        );
        assert_eq!(at_three[0].1, None);
        assert_eq!(at_three[1].1, Some(Refusal::Binary));
    }

    #[test]
    fn each_file_loads_once() {
        let mut loaded = Loaded::default();
        assert!(loaded.claim(Path::new("/ws/CLAUDE.md")));
        assert!(!loaded.claim(Path::new("/ws/CLAUDE.md")));
        assert_eq!(loaded.admit(Path::new("/ws/a.md")), Ok(()));
        assert_eq!(loaded.admit(Path::new("/ws/a.md")), Err(Refusal::Duplicate));
        assert_eq!(
            loaded.admit(Path::new("/ws/CLAUDE.md")),
            Err(Refusal::Duplicate)
        );
    }

    #[test]
    fn the_fan_out_caps_stop_admitting() {
        let mut loaded = Loaded::default();
        for i in 0..limits::MAX_IMPORTS {
            assert_eq!(loaded.admit(Path::new(&format!("/f{i}"))), Ok(()));
        }
        assert_eq!(loaded.admit(Path::new("/one-more")), Err(Refusal::OverCap));
        let mut loaded = Loaded::default();
        loaded.add_bytes(limits::MAX_IMPORTED_BYTES);
        assert_eq!(loaded.admit(Path::new("/big")), Err(Refusal::OverCap));
    }

    mod props {
        use proptest::prelude::*;

        use super::super::*;

        /// What never appears in an import's path.
        const SEPARATORS: [char; 4] = ['\t', '\n', '#', '\u{a0}'];
        const MARKDOWN: &str = "(?s)[-@a-z./~#`*_\\[\\]()<>! \\\\\t\n\u{a0}]{0,160}";

        proptest! {
            #[test]
            fn imports_point_at_an_at_sign_and_hold_no_separator(text in MARKDOWN) {
                for import in scan(&text) {
                    prop_assert!(text[import.offset..].starts_with('@'));
                    prop_assert!(!import.path.is_empty());
                    prop_assert!(!import.path.contains(SEPARATORS));
                    prop_assert_eq!(import.line, 1 + text[..import.offset].matches('\n').count());
                }
            }

            #[test]
            fn nothing_inside_a_fence_is_an_import(text in MARKDOWN) {
                let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
                let fence = "`".repeat(longest.max(2) + 1);
                let fenced = format!("{fence}\n{text}\n{fence}\n");
                prop_assert_eq!(scan(&fenced), Vec::new());
            }

            #[test]
            fn nothing_in_indented_code_is_an_import(text in MARKDOWN) {
                let indented: String = text.split('\n').map(|line| format!("    x{line}\n")).collect();
                prop_assert_eq!(scan(&indented), Vec::new());
            }

            #[test]
            #[cfg_attr(windows, ignore = "its importing file is the Unix path /home/…, not absolute on Windows")]
            fn resolution_never_keeps_dot_components(path in "[a-z./~]{1,20}") {
                let import = Import { path, offset: 0, line: 1 };
                let target = import.resolve(Path::new("/ws/sub"), Path::new("/home/u"));
                prop_assert!(target.is_absolute());
                prop_assert!(!target.components().any(|c| matches!(c, Component::CurDir | Component::ParentDir)));
            }
        }
    }
}
