//! One `instructions` glob in one directory, as opencode scans it (SPEC
//! §18.1): `*` does not cross `/`, `**` does, only files match, and the
//! matches come in the reverse of the listing order (observed).
//!
//! Choices the spec leaves open:
//! - The scan starts at the pattern's literal leading directories and goes
//!   no deeper than the pattern's components unless it holds `**`; it stops
//!   at [`limits::MAX_TREE_DEPTH`] levels and
//!   [`limits::MAX_TREE_ENTRIES`] entries (`cut`, warned by the caller).
//! - Links to directories are not entered; any other link matches like a
//!   file (its reader decides whether it may be read, and a refusal is
//!   reported when it is read).
//! - A name that is not valid UTF-8 cannot be named through the port and
//!   never matches.

use crate::limits;
use crate::prompt::glob::{PathMatcher, PatternError};
use crate::workspace::{EntryKind, Workspace, join};

/// The files one pattern matched in one directory.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Matches {
    /// Reader-relative paths, in opencode's order.
    pub files: Vec<String>,
    /// True when the scan stopped at a limit.
    pub cut: bool,
}

/// The files below `dir` (reader-relative) that `pattern` matches.
pub fn scan(reader: &dyn Workspace, dir: &str, pattern: &str) -> Result<Matches, PatternError> {
    let pattern = pattern.trim_start_matches("./");
    let (matcher, mut errors) = PathMatcher::new(&[pattern]);
    if let Some(error) = errors.pop() {
        return Err(error);
    }
    let parts: Vec<&str> = pattern.split('/').filter(|p| !p.is_empty()).collect();
    let literal = parts
        .iter()
        .take_while(|part| !part.contains(['*', '?', '[', '{']))
        .count();
    let mut scan = Scan {
        reader,
        dir,
        matcher: &matcher,
        budget: limits::MAX_TREE_ENTRIES,
        deep: false,
        matches: Matches::default(),
    };
    if literal == parts.len() {
        // No wildcard: the one path, when it is a file.
        let rel = join(dir, &parts.join("/"));
        if matches!(reader.stat(&rel), Ok(EntryKind::File)) {
            scan.matches.files.push(rel);
        }
        return Ok(scan.matches);
    }
    scan.deep = parts.iter().any(|part| part.contains("**"));
    let depth = if scan.deep {
        limits::MAX_TREE_DEPTH
    } else {
        parts.len() - literal
    };
    let base = join(dir, &parts[..literal].join("/"));
    scan.enter(&base, depth);
    scan.matches.files.reverse();
    Ok(scan.matches)
}

/// One scan's state.
struct Scan<'a> {
    reader: &'a dyn Workspace,
    dir: &'a str,
    matcher: &'a PathMatcher,
    budget: usize,
    /// The pattern holds `**`: a directory past the depth limit cuts.
    deep: bool,
    matches: Matches,
}

impl Scan<'_> {
    /// Lists `rel`, matching its files and entering its directories while
    /// `depth` levels remain.
    fn enter(&mut self, rel: &str, depth: usize) {
        let Ok(entries) = self.reader.list_unsorted(rel) else {
            return;
        };
        for entry in entries {
            if self.budget == 0 {
                self.matches.cut = true;
                return;
            }
            self.budget -= 1;
            if entry.lossy {
                continue;
            }
            let path = join(rel, &entry.name);
            let file = match entry.kind {
                EntryKind::File => true,
                // A link matches unless it names a directory; one its
                // reader refuses is matched, so reading it reports why.
                EntryKind::Symlink => !matches!(self.reader.stat(&path), Ok(EntryKind::Dir)),
                _ => false,
            };
            match entry.kind {
                EntryKind::Dir if depth > 1 => self.enter(&path, depth - 1),
                EntryKind::Dir if self.deep => self.matches.cut = true,
                _ if file => {
                    let below = path
                        .strip_prefix(self.dir)
                        .map(|rest| rest.trim_start_matches('/'))
                        .unwrap_or(&path);
                    if self.matcher.matching_pattern(below).is_some() {
                        self.matches.files.push(path);
                    }
                }
                _ => {}
            }
        }
    }
}
