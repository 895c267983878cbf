//! The `@imports` of Claude Code's files (MP004–MP007), followed as Claude
//! Code follows them: found by the scanner of [`crate::prompt::imports`],
//! judged by its policy (depth, text files, external), each file loaded
//! once ([`Loaded`]), depth first.
//!
//! Where a chain starts: every file Claude Code's walk loads —
//! `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`, the rules of
//! `.claude/rules`, and `AGENTS.md` / `.claude/AGENTS.md` where the
//! fallback applies (no Claude Code file in the directory or above it).
//! A walk file reached by an import is not followed again from there: the
//! walk loads it itself, and its own chain is checked from it.
//!
//! Only imports that look like a file are reported: a path with an
//! extension or a dotfile name (`@docs/api.md`, `@.editorconfig`), or one
//! anchored with `./`, `../`, `~/` or `/`. Claude Code tries every `@word`,
//! but `@Observable`, `@jlowin` or `@scope/package` in prose are not
//! imports their author meant, and Claude Code skips them the same way.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::imports::{Bounds, Loaded, NotLoaded, Origin, candidates, scan};
use crate::prompt::lint::docs::{Doc, DocKind};
use crate::prompt::lint::instructions::CLAUDE_FILES;
use crate::prompt::lint::survey::{is_within, parent};
use crate::prompt::lint::{Code, Lint, Out, line_at, quote};
use crate::prompt::profile::Agent;
use crate::workspace::{EntryKind, WsError, join};

/// The names of Claude Code's AGENTS.md fallback in a directory.
const FALLBACK_FILES: [&str; 2] = ["AGENTS.md", ".claude/AGENTS.md"];

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
        cwd: root.clone(),
        workspace: root,
        external_approved: false,
    };
    let walk: HashSet<&str> = starts.iter().map(String::as_str).collect();
    for start in &starts {
        let mut chain = Chain {
            lint,
            bounds: &bounds,
            walk: &walk,
            start,
            loaded: Loaded::default(),
            stack: vec![start.clone()],
        };
        chain.loaded.claim(&chain.absolute(start));
        chain.follow(start, 0, out);
    }
}

/// The files Claude Code's walk loads, workspace-relative, in walk order.
fn walk_files(lint: &Lint<'_>, docs: &[Doc]) -> Vec<String> {
    let claude_names = CLAUDE_FILES.iter().chain(&["CLAUDE.local.md"]);
    let mut files: Vec<String> = Vec::new();
    let mut claude_dirs: Vec<&str> = Vec::new();
    for dir in lint.survey.dirs() {
        for name in claude_names.clone() {
            let rel = join(dir, name);
            if lint.survey.has_file(&rel) {
                files.push(rel);
                claude_dirs.push(dir);
            }
        }
    }
    for dir in lint.survey.dirs() {
        if claude_dirs.iter().any(|claude| is_within(dir, claude)) {
            continue;
        }
        for name in FALLBACK_FILES {
            let rel = join(dir, name);
            if lint.survey.has_file(&rel) {
                files.push(rel);
            }
        }
    }
    let rules = docs
        .iter()
        .filter(|doc| doc.kind == DocKind::Rule && doc.read_by(Agent::Claude));
    files.extend(rules.map(|doc| doc.rel.clone()));
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
        let Some(text) = self.lint.read(rel, out) else {
            return;
        };
        let body = split_frontmatter(&text).1;
        let body_at = text.len() - body.len();
        let found = scan(body);
        let importer = self.absolute(rel);
        let found = found
            .into_iter()
            .filter(|i| looks_like_a_file(&i.path))
            .collect();
        for candidate in candidates(found, &importer, depth, Origin::Project, self.bounds) {
            let line = Some(line_at(&text, body_at + candidate.import.offset));
            let written = quote(&candidate.import.path);
            let claude = || vec![Agent::Claude];
            match candidate.refused {
                Some(NotLoaded::TooDeep) => {
                    out.add(
                        Code::ImportTooDeep,
                        rel,
                        line,
                        claude(),
                        format!(
                            "`@{written}` is import level {} below {}: Claude Code follows \
                             {} levels, so it is not loaded",
                            candidate.depth,
                            self.start,
                            crate::limits::MAX_IMPORT_DEPTH
                        ),
                    );
                    continue;
                }
                Some(NotLoaded::OutsideWorkspace | NotLoaded::External) => {
                    out.add(
                        Code::ImportExternal,
                        rel,
                        line,
                        claude(),
                        external(&written),
                    );
                    continue;
                }
                Some(_) => continue,
                None => {}
            }
            let Some(target) = self.relative(&candidate.target) else {
                out.add(
                    Code::ImportExternal,
                    rel,
                    line,
                    claude(),
                    external(&written),
                );
                continue;
            };
            if self.stack.contains(&target) {
                out.add(
                    Code::ImportCycle,
                    rel,
                    line,
                    claude(),
                    format!(
                        "`@{written}` leads back to {}, already on this chain of imports from \
                         {}: Claude Code loads each file once and stops here",
                        target, self.start
                    ),
                );
                continue;
            }
            if self.walk.contains(target.as_str()) || self.loaded.admit(&candidate.target).is_err()
            {
                continue;
            }
            match self.lint.reader.stat(&target) {
                Ok(EntryKind::File) => {
                    self.stack.push(target.clone());
                    self.follow(&target, candidate.depth, out);
                    self.stack.pop();
                }
                Ok(_) | Err(WsError::NotFound | WsError::NotADirectory) => out.add(
                    Code::ImportMissing,
                    rel,
                    line,
                    claude(),
                    format!(
                        "`@{written}` names no file (relative to {}): Claude Code skips it \
                         without a word",
                        match parent(rel) {
                            "" => "the workspace root",
                            dir => dir,
                        }
                    ),
                ),
                Err(WsError::Refused(_)) => {
                    out.add(
                        Code::ImportExternal,
                        rel,
                        line,
                        claude(),
                        external(&written),
                    );
                }
                Err(err) => out.add(
                    Code::ImportMissing,
                    rel,
                    line,
                    claude(),
                    format!("`@{written}` cannot be looked at ({err}): Claude Code skips it"),
                ),
            }
        }
    }
}

/// The message of an import that leaves the workspace.
fn external(written: &str) -> String {
    format!(
        "`@{written}` points outside the workspace: Claude Code drops it unless external \
         includes were approved on that machine, and the preview never reads it"
    )
}

/// True for an import path its author meant as a file (see the module
/// docs).
fn looks_like_a_file(path: &str) -> bool {
    let anchored = ["./", "../", "~/", "/"]
        .iter()
        .any(|anchor| path.starts_with(anchor));
    let name = path.rsplit('/').next().unwrap_or(path);
    anchored || name.contains('.')
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
