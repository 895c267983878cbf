//! The `@imports` of Claude Code's files (MP004–MP007), followed as Claude
//! Code follows them: found by the scanner of [`crate::prompt::imports`],
//! judged by its policy (depth, text files, external), each file loaded
//! once ([`Loaded`]), depth first.
//!
//! Where a chain starts: every file Claude Code's walk loads —
//! `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`, the rules of
//! `.claude/rules`, and `AGENTS.md` / `.claude/AGENTS.md` where the
//! fallback applies when Claude Code starts in that directory: no Claude
//! Code file with content in it or above it (the profile's own test,
//! [`crate::prompt::agents::claude::switches_fallback_off`]; a blank `CLAUDE.md`
//! leaves the fallback on, as recorded).
//! A walk file reached by an import is not followed again from there: the
//! walk loads it itself, and its own chain is checked from it.
//!
//! Only imports that look like a file are reported
//! ([`looks_like_a_file`]): Claude Code tries every `@word`, but
//! `@Observable` in prose is not an import its author meant, and Claude
//! Code skips it the same way.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::limits;
use crate::prompt::agents::claude::{names, switches_fallback_off};
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::imports::{
    Bounds, Candidate, Loaded, Origin, Refusal, candidates, looks_like_a_file, scan,
};
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Doc, DocKind, Lint, Out, line_at, quote};
use crate::prompt::lint::survey::is_within;
use crate::prompt::profile::Agent;
use crate::prompt::text::decode_lossy;
use crate::workspace::{EntryKind, WsError, join, parent};

/// Follows the imports of every file Claude Code's walk loads.
pub(super) fn check(lint: &Lint<'_>, docs: &[Doc], out: &mut Out) {
    let starts = walk_files(lint, docs);
    let root = lint.reader.root().to_path_buf();
    let bounds = Bounds {
        home: lint
            .options
            .home
            .clone()
            .unwrap_or_else(|| PathBuf::from("/")),
        cwd: lint
            .options
            .at
            .split('/')
            .filter(|part| !part.is_empty())
            .fold(root.clone(), |dir, part| dir.join(part)),
        workspace: root,
        external_approved: false,
    };
    let walk: HashSet<&str> = starts.iter().map(|(rel, _)| rel.as_str()).collect();
    for (start, text) in &starts {
        let mut chain = Chain {
            lint,
            bounds: &bounds,
            walk: &walk,
            start,
            loaded: Loaded::default(),
            stack: vec![start.clone()],
        };
        chain.loaded.claim(&chain.absolute(start));
        match text {
            Some(text) => chain.follow_text(start, text, 0, out),
            None => chain.follow(start, 0, out),
        }
    }
}

/// The files Claude Code's walk loads, workspace-relative, in walk order,
/// each with its text when it was already read (the Claude Code files, read
/// to decide the fallback), so a chain does not read its start again.
fn walk_files(lint: &Lint<'_>, docs: &[Doc]) -> Vec<(String, Option<String>)> {
    let mut files: Vec<(String, Option<String>)> = Vec::new();
    let mut claude_dirs: Vec<&str> = Vec::new();
    for dir in lint.survey.dirs() {
        for name in [names::CLAUDE_MD, names::DOT_CLAUDE_MD, names::LOCAL_MD] {
            let rel = join(dir, name);
            if lint.survey.has_file(&rel) {
                // Read quietly: a file that cannot be read is reported when
                // its chain is followed, and leaves the fallback on.
                let read = lint.reader.read(&rel, limits::MAX_CLAUDE_FILE_BYTES);
                let text = read.ok().map(|read| decode_lossy(&read.bytes).into_owned());
                if text.as_deref().is_some_and(switches_fallback_off) {
                    claude_dirs.push(dir);
                }
                files.push((rel, text));
            }
        }
    }
    for dir in lint.survey.dirs() {
        if claude_dirs.iter().any(|claude| is_within(dir, claude)) {
            continue;
        }
        for name in [names::AGENTS_MD, names::DOT_AGENTS_MD] {
            let rel = join(dir, name);
            if lint.survey.has_file(&rel) {
                files.push((rel, None));
            }
        }
    }
    let rules = docs
        .iter()
        .filter(|doc| doc.kind == DocKind::Rule && doc.read_by(Agent::Claude));
    files.extend(rules.map(|doc| (doc.rel.clone(), None)));
    files
}

/// One chain of imports, from one walk file.
struct Chain<'a> {
    lint: &'a Lint<'a>,
    bounds: &'a Bounds,
    walk: &'a HashSet<&'a str>,
    start: &'a str,
    loaded: Loaded,
    /// The files from the start down to the one being read.
    stack: Vec<String>,
}

impl Chain<'_> {
    fn absolute(&self, rel: &str) -> PathBuf {
        rel.split('/')
            .fold(self.bounds.workspace.clone(), |path, part| path.join(part))
    }

    /// The workspace-relative path of an absolute one inside the
    /// workspace.
    fn relative(&self, path: &Path) -> Option<String> {
        let below = path.strip_prefix(&self.bounds.workspace).ok()?;
        let parts: Option<Vec<&str>> = below.components().map(|c| c.as_os_str().to_str()).collect();
        Some(parts?.join("/"))
    }

    /// Reports and follows the imports of `rel`, which lies `depth`
    /// imports below the start.
    fn follow(&mut self, rel: &str, depth: usize, out: &mut Out) {
        if let Some(text) = self.lint.read(rel, out) {
            self.follow_text(rel, &text, depth, out);
        }
    }

    /// [`Chain::follow`] of `rel` whose text is `text`.
    fn follow_text(&mut self, rel: &str, text: &str, depth: usize, out: &mut Out) {
        let body = split_frontmatter(text).1;
        let body_at = text.len() - body.len();
        let found = scan(body);
        let importer = self.absolute(rel);
        let found = found
            .into_iter()
            .filter(|i| looks_like_a_file(&i.path))
            .collect();
        for candidate in candidates(found, &importer, depth, Origin::Project, self.bounds) {
            let line = Some(line_at(text, body_at + candidate.import.offset));
            let written = quote(&candidate.import.path);
            let (code, message) = match self.judge(&candidate, &written) {
                Judged::Follow(target) => {
                    self.stack.push(target.clone());
                    self.follow(&target, candidate.depth, out);
                    self.stack.pop();
                    continue;
                }
                Judged::Quiet => continue,
                Judged::Finding(code, message) => (code, message),
            };
            out.add(code, rel, line, vec![Agent::Claude], message);
        }
    }

    /// What becomes of one import of a file of this chain.
    fn judge(&mut self, candidate: &Candidate, written: &str) -> Judged {
        let external = || {
            Judged::Finding(
                Code::ImportExternal,
                format!(
                    "`@{written}` points outside the workspace: Claude Code drops it unless \
                     external includes were approved on that machine, and the preview never \
                     reads it"
                ),
            )
        };
        let outside_start = || {
            Judged::Finding(
                Code::ImportExternal,
                format!(
                    "`@{written}` points outside the start directory {}: Claude Code drops it \
                     unless external includes were approved on that machine",
                    shown_dir(&self.lint.options.at)
                ),
            )
        };
        match candidate.refused {
            Some(Refusal::TooDeep) => {
                return Judged::Finding(
                    Code::ImportTooDeep,
                    format!(
                        "`@{written}` is import level {} below {}: Claude Code follows {} \
                         levels, so it is not loaded",
                        candidate.depth,
                        self.start,
                        limits::MAX_IMPORT_DEPTH
                    ),
                );
            }
            Some(Refusal::OutsideWorkspace) => return external(),
            Some(Refusal::External) => return outside_start(),
            Some(_) => return Judged::Quiet,
            None => {}
        }
        let Some(target) = self.relative(&candidate.target) else {
            return external();
        };
        if self.stack.contains(&target) {
            return Judged::Finding(
                Code::ImportCycle,
                format!(
                    "`@{written}` leads back to {target}, already on this chain of imports \
                     from {}: Claude Code loads each file once and stops here",
                    self.start
                ),
            );
        }
        if self.walk.contains(target.as_str()) || self.loaded.admit(&candidate.target).is_err() {
            return Judged::Quiet;
        }
        let missing = |why: String| {
            Judged::Finding(
                Code::ImportMissing,
                format!("`@{written}` {why}: Claude Code skips it without a word"),
            )
        };
        match self.lint.reader.stat(&target) {
            Ok(EntryKind::File) => Judged::Follow(target),
            Ok(_) | Err(WsError::NotFound | WsError::NotADirectory) => {
                let from = if candidate.import.path.starts_with('/') {
                    "as written".to_string()
                } else {
                    format!("relative to {}", shown_dir(parent(self.current())))
                };
                missing(format!("names no file ({from})"))
            }
            Err(WsError::Refused(_)) => external(),
            Err(err) => missing(format!("cannot be looked at ({err})")),
        }
    }

    /// The file whose imports are being judged.
    fn current(&self) -> &str {
        self.stack.last().map_or(self.start, String::as_str)
    }
}

/// What becomes of one import.
enum Judged {
    /// A file to read and follow.
    Follow(String),
    /// A finding on the importing line.
    Finding(Code, String),
    /// Nothing to say (a duplicate, a walk file, a binary file).
    Quiet,
}

/// A workspace directory as a message names it.
fn shown_dir(dir: &str) -> &str {
    if dir.is_empty() {
        "the workspace root"
    } else {
        dir
    }
}
