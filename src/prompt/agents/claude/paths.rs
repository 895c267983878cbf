//! The `paths:` of a Claude Code rule (SPEC §14.3, "Conditional rules"):
//! which patterns make a rule conditional, and whether a file the agent
//! reads matches them. Pure: patterns and paths in, a verdict out.
//!
//! Observed with the oracle (`tests/oracle/cases/claude-instructions/`
//! `rules-paths`, `lazy-globs`, `lazy-cwd-subdir`): the patterns are
//! **gitignore lines**, not globs matched against the whole path.
//! - A trailing `/**` is dropped, so `src/**` is `src` and `**/**` is `**`;
//!   a rule whose patterns are then all `**` (or none at all) is
//!   unconditional.
//! - A pattern without a `/` (other than a trailing one) matches a name at
//!   any depth: `*.rs` and `lib.rs` match `src/lib.rs`. A leading `/` or a
//!   `/` inside anchors it to the base directory.
//! - A pattern that matches a directory matches everything below it (`src`
//!   matches `src/lib.rs`); a trailing `/` matches directories only.
//! - `!` re-includes, the last matching line wins, and a file below an
//!   excluded directory cannot be re-included (gitignore's rule).
//! - Braces and comma-separated lists work (`src/{lib,main}.rs`,
//!   `docs/**, src/*.rs`).
//!
//! **Why not globset's `literal_separator(true)` on the pattern as written**
//! (what SPEC §14.3 says): that reads `*.rs` as "a `.rs` file at the top of
//! the base directory", while Claude Code loads a `*.rs` rule for
//! `src/lib.rs`. Each gitignore line is therefore first rewritten into the
//! glob it stands for (`**/` in front of an unanchored line, the directory
//! rule applied to every parent of the path), and only those rewritten
//! globs are compiled with a literal separator, where `*` staying inside
//! one component is exactly gitignore's meaning.
//!
//! Choices the spec leaves open:
//! - A pattern that does not compile (an unclosed `[` or `{`) matches
//!   nothing; [`RulePaths::errors`] names it so the caller can warn.
//! - `**` glued to other characters in one component (`a**b`) is read as
//!   `*`, as gitignore does.
//! - Paths are workspace-style: relative, `/`-separated, no `.` or `..`.

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

use crate::prompt::glob::PatternError;

/// The patterns of one rule, reduced the way Claude Code reduces them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Activation {
    /// No `paths`, or only `**`: the rule loads at start.
    Always,
    /// The rule loads when a file matching one of these patterns is read.
    When(Vec<String>),
}

impl Activation {
    /// How a rule with the `paths` patterns `patterns` (as the frontmatter
    /// parser split them) is activated: each trailing `/**` dropped, empty
    /// patterns removed, and only `**` left means always.
    pub fn of(patterns: &[String]) -> Activation {
        let reduced: Vec<String> = patterns
            .iter()
            .map(|p| p.strip_suffix("/**").unwrap_or(p).to_string())
            .filter(|p| !p.is_empty())
            .collect();
        if reduced.iter().all(|p| p == "**") {
            Activation::Always
        } else {
            Activation::When(reduced)
        }
    }
}

/// One gitignore line, its glob compiled into the rule's set.
#[derive(Debug, Clone)]
struct Line {
    /// `!pattern`: a match re-includes.
    negated: bool,
    /// `pattern/`: only directories match.
    dir_only: bool,
}

/// A rule's patterns compiled for matching: one [`GlobSet`] of every
/// line's glob (the common `**/*.rs` shapes then need no regex), and each
/// line's flags at its index.
#[derive(Debug, Clone, Default)]
pub struct RulePaths {
    lines: Vec<Line>,
    set: GlobSet,
    errors: Vec<PatternError>,
}

impl RulePaths {
    /// Compiles gitignore-style `patterns`; those that do not compile are
    /// kept in [`RulePaths::errors`] and match nothing.
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> RulePaths {
        let mut paths = RulePaths::default();
        let mut set = GlobSetBuilder::new();
        for pattern in patterns {
            let pattern = pattern.as_ref();
            match compile(pattern) {
                Ok(Some((glob, line))) => {
                    set.add(glob);
                    paths.lines.push(line);
                }
                Ok(None) => {}
                Err(reason) => paths.errors.push(PatternError {
                    pattern: pattern.to_string(),
                    reason,
                }),
            }
        }
        // Every glob compiled on its own, so the set builds.
        paths.set = set.build().unwrap_or_else(|_| GlobSet::empty());
        paths
    }

    /// The patterns that do not compile, in order.
    pub fn errors(&self) -> &[PatternError] {
        &self.errors
    }

    /// Whether the file at `path` (relative to the rule's base directory)
    /// matches: some directory above it, or the file itself, is matched by
    /// the last line that matches it, and that line is not a `!` line.
    pub fn matches(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let mut prefix = String::new();
        for (index, part) in parts.iter().enumerate() {
            if !prefix.is_empty() {
                prefix.push('/');
            }
            prefix.push_str(part);
            let is_dir = index + 1 < parts.len();
            if self.verdict(&prefix, is_dir) {
                return true;
            }
        }
        false
    }

    /// Whether the last line matching `path` (a directory when `is_dir`)
    /// excludes it.
    fn verdict(&self, path: &str, is_dir: bool) -> bool {
        self.set
            .matches(path)
            .into_iter()
            .rev()
            .map(|index| &self.lines[index])
            .find(|line| is_dir || !line.dir_only)
            .is_some_and(|line| !line.negated)
    }
}

/// Compiles one gitignore line into its glob and flags: `Ok(None)` for a
/// blank line or a comment.
fn compile(pattern: &str) -> Result<Option<(Glob, Line)>, String> {
    let mut text = trim_unescaped_end(pattern);
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let negated = text.starts_with('!');
    if negated {
        text = &text[1..];
    }
    let dir_only = text.ends_with('/');
    let text = text.trim_end_matches('/');
    let anchored = text.starts_with('/') || text.contains('/');
    let text = text.trim_start_matches('/');
    if text.is_empty() {
        return Ok(None);
    }
    let body = glue_double_stars(text);
    let glob = if anchored { body } else { format!("**/{body}") };
    let glob = GlobBuilder::new(&glob)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|err| err.kind().to_string())?;
    Ok(Some((glob, Line { negated, dir_only })))
}

/// `text` without trailing spaces, except one escaped with a backslash.
fn trim_unescaped_end(text: &str) -> &str {
    let mut end = text.len();
    while end > 0 && text.as_bytes()[end - 1] == b' ' {
        if end >= 2 && text.as_bytes()[end - 2] == b'\\' {
            break;
        }
        end -= 1;
    }
    &text[..end]
}

/// `**` that is not a whole path component becomes `*`.
fn glue_double_stars(text: &str) -> String {
    text.split('/')
        .map(|part| {
            if part == "**" || !part.contains("**") {
                part.to_string()
            } else {
                let mut out = part.to_string();
                while out.contains("**") {
                    out = out.replace("**", "*");
                }
                out
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(patterns: &[&str], path: &str) -> bool {
        let paths = RulePaths::new(patterns);
        assert!(paths.errors().is_empty(), "{:?}", paths.errors());
        paths.matches(path)
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn only_double_stars_or_nothing_is_unconditional() {
        for always in [&[][..], &["**"], &["**/**"], &[""], &["**", "**/**"]] {
            assert_eq!(Activation::of(&strings(always)), Activation::Always);
        }
        assert_eq!(
            Activation::of(&strings(&["src/**", "**/*"])),
            Activation::When(strings(&["src", "**/*"]))
        );
        assert_eq!(
            Activation::of(&strings(&["**", "docs/*.md"])),
            Activation::When(strings(&["**", "docs/*.md"]))
        );
    }

    #[test]
    fn unanchored_names_match_at_any_depth() {
        assert!(matches(&["*.rs"], "src/lib.rs"));
        assert!(matches(&["lib.rs"], "src/deep/lib.rs"));
        assert!(matches(&["*.rs"], "lib.rs"));
        assert!(!matches(&["*.rs"], "src/lib.py"));
    }

    #[test]
    fn a_slash_anchors_to_the_base() {
        assert!(!matches(&["/lib.rs"], "src/lib.rs"));
        assert!(matches(&["/lib.rs"], "lib.rs"));
        assert!(matches(&["src/*.rs"], "src/lib.rs"));
        assert!(!matches(&["src/*.rs"], "a/src/lib.rs"));
        assert!(!matches(&["src/*.rs"], "src/deep/lib.rs"));
        assert!(!matches(&["src/lib.rs"], "lib.rs"));
        assert!(matches(&["app/src/*.rs"], "app/src/main.rs"));
    }

    #[test]
    fn a_directory_match_covers_everything_below() {
        assert!(matches(&["src"], "src/deep/lib.rs"));
        assert!(
            matches(&["src"], "a/src/lib.rs"),
            "unanchored directory name"
        );
        assert!(matches(&["src/"], "src/lib.rs"));
        assert!(
            !matches(&["lib.rs/"], "src/lib.rs"),
            "a file is not a directory"
        );
        assert!(!matches(&["docs"], "src/lib.rs"));
    }

    #[test]
    fn double_stars_braces_and_classes() {
        assert!(matches(&["**/*"], "a/b/c"));
        assert!(matches(&["src/**/*.rs"], "src/lib.rs"));
        assert!(matches(&["src/**/*.rs"], "src/a/b/lib.rs"));
        assert!(matches(&["src/{lib,main}.rs"], "src/main.rs"));
        assert!(!matches(&["src/{lib,main}.rs"], "src/mod.rs"));
        assert!(matches(&["v[0-9].txt"], "docs/v7.txt"));
        assert!(matches(&["a**b"], "axyb"));
        assert!(!matches(&["a**b"], "ax/yb"));
    }

    #[test]
    fn negation_comments_and_escapes() {
        assert!(!matches(&["*.rs", "!lib.rs"], "src/lib.rs"));
        assert!(matches(&["*.rs", "!lib.rs"], "src/main.rs"));
        assert!(
            matches(&["src", "!src/lib.rs"], "src/lib.rs"),
            "below an excluded directory nothing is re-included"
        );
        assert!(!matches(&["# *.rs"], "lib.rs"));
        assert!(matches(&["\\#x"], "#x"));
        assert!(matches(&["lib.rs   "], "lib.rs"));
        assert!(matches(&["\\!x"], "!x"));
    }

    #[test]
    fn broken_patterns_match_nothing_and_are_named() {
        let paths = RulePaths::new(&["[z-a", "src/{a", "*.md"]);
        let bad: Vec<&str> = paths.errors().iter().map(|e| e.pattern.as_str()).collect();
        assert_eq!(bad, ["[z-a", "src/{a"]);
        assert!(paths.matches("x.md"));
        assert!(!paths.matches("src/a"));
    }
}
