//! Matching a rule's `paths` globs against workspace paths (SPEC §7.5), for
//! previewing which rules a path-triggered loader would activate.
//!
//! Globs are matched against the path relative to the workspace root with
//! `/` separators, anchored at the root: `*` and `?` stay within one path
//! component, `**` crosses components, `{a,b}` alternates and `[…]` are
//! classes. A leading `./` is ignored on both sides.

use globset::{Candidate, Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// The compiled globs of one rule: one [`GlobSet`] for all of them, which
/// matches the common shapes (`**/*.rs`, `**/Cargo.toml`) without building
/// a regex for each.
#[derive(Debug, Clone, Default)]
pub struct PathMatcher {
    /// The patterns as written, in the set's order.
    patterns: Vec<String>,
    set: GlobSet,
}

/// A pattern that could not be compiled, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// The pattern as written in the rule.
    pub pattern: String,
    /// Why it does not compile.
    pub reason: String,
}

impl PathMatcher {
    /// Compiles `patterns`. A pattern that does not compile matches nothing
    /// and is reported in the returned list, in pattern order.
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> (PathMatcher, Vec<PatternError>) {
        let mut kept = Vec::new();
        let mut set = GlobSetBuilder::new();
        let mut errors = Vec::new();
        for pattern in patterns {
            let pattern = pattern.as_ref();
            match parse(pattern) {
                Ok(glob) => {
                    set.add(glob);
                    kept.push(pattern.to_string());
                }
                Err(err) => errors.push(err),
            }
        }
        // Every glob parsed on its own, so the set builds.
        let set = set.build().unwrap_or_else(|_| GlobSet::empty());
        let matcher = PathMatcher {
            patterns: kept,
            set,
        };
        (matcher, errors)
    }

    /// The patterns of `patterns` that do not compile, in order: what
    /// [`PathMatcher::new`] reports, without the cost of building matchers.
    pub fn errors<S: AsRef<str>>(patterns: &[S]) -> Vec<PatternError> {
        patterns
            .iter()
            .filter_map(|pattern| parse(pattern.as_ref()).err())
            .collect()
    }

    /// The first pattern (as written) that matches the workspace-relative
    /// `path`, if any.
    pub fn matching_pattern(&self, path: &str) -> Option<&str> {
        let candidate = Candidate::new(strip_dot_slash(path));
        let first = *self.set.matches_candidate(&candidate).first()?;
        self.patterns.get(first).map(String::as_str)
    }
}

/// For a pattern that can only match files at the workspace root although
/// it looks like it means "anywhere" (`*.ts`, `*_test.go`), the pattern that
/// matches at any depth (`**/*.ts`). Names and name prefixes that usually
/// mean a root file (`go.mod`, `Jenkinsfile*`) get no suggestion.
pub fn top_level_suggestion(pattern: &str) -> Option<String> {
    let pattern = strip_dot_slash(pattern);
    let any_name = pattern.starts_with('*') && !pattern.starts_with("**");
    (any_name && !pattern.contains('/')).then(|| format!("**/{pattern}"))
}

/// Parses one pattern; this is where a pattern can fail (building its
/// matcher afterwards cannot).
fn parse(pattern: &str) -> Result<Glob, PatternError> {
    GlobBuilder::new(strip_dot_slash(pattern))
        .literal_separator(true)
        .build()
        .map_err(|err| PatternError {
            pattern: pattern.to_string(),
            reason: err.kind().to_string(),
        })
}

fn strip_dot_slash(mut text: &str) -> &str {
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher(patterns: &[&str]) -> PathMatcher {
        let (matcher, errors) = PathMatcher::new(patterns);
        assert!(errors.is_empty(), "{errors:?}");
        matcher
    }

    #[test]
    fn star_does_not_cross_slash_but_double_star_does() {
        let m = matcher(&["*.ts"]);
        assert_eq!(m.matching_pattern("a.ts"), Some("*.ts"));
        assert_eq!(m.matching_pattern("src/a.ts"), None);
        let m = matcher(&["**/*.ts"]);
        assert_eq!(m.matching_pattern("a.ts"), Some("**/*.ts"));
        assert_eq!(m.matching_pattern("src/deep/a.ts"), Some("**/*.ts"));
        let m = matcher(&["src/**"]);
        assert_eq!(m.matching_pattern("src/a/b.rs"), Some("src/**"));
        assert_eq!(m.matching_pattern("lib/src/a.rs"), None);
    }

    #[test]
    fn question_mark_braces_and_classes() {
        let m = matcher(&["a?.md"]);
        assert_eq!(m.matching_pattern("ab.md"), Some("a?.md"));
        assert_eq!(m.matching_pattern("a/.md"), None);
        let m = matcher(&["**/*.{ts,tsx}"]);
        assert_eq!(m.matching_pattern("x/y.tsx"), Some("**/*.{ts,tsx}"));
        assert_eq!(m.matching_pattern("x/y.js"), None);
        let m = matcher(&["v[0-9].txt"]);
        assert_eq!(m.matching_pattern("v7.txt"), Some("v[0-9].txt"));
        assert_eq!(m.matching_pattern("vx.txt"), None);
    }

    #[test]
    fn anchored_at_root_and_dot_slash_ignored() {
        let m = matcher(&["./src/*.rs"]);
        assert_eq!(m.matching_pattern("src/lib.rs"), Some("./src/*.rs"));
        assert_eq!(m.matching_pattern("./src/lib.rs"), Some("./src/*.rs"));
        assert_eq!(m.matching_pattern("crate/src/lib.rs"), None);
    }

    #[test]
    fn first_matching_pattern_is_reported() {
        let m = matcher(&["**/*_test.go", "**/*.go", "go.mod"]);
        assert_eq!(m.matching_pattern("pkg/a_test.go"), Some("**/*_test.go"));
        assert_eq!(m.matching_pattern("pkg/a.go"), Some("**/*.go"));
        assert_eq!(m.matching_pattern("go.mod"), Some("go.mod"));
        assert_eq!(m.matching_pattern("pkg/go.mod"), None);
    }

    #[test]
    fn uncompilable_pattern_matches_nothing_and_is_reported() {
        let (m, errors) = PathMatcher::new(&["**/*.{ts", "ok.md", "[z-a"]);
        assert_eq!(
            errors
                .iter()
                .map(|e| e.pattern.as_str())
                .collect::<Vec<_>>(),
            vec!["**/*.{ts", "[z-a"]
        );
        assert!(errors.iter().all(|e| !e.reason.is_empty()));
        assert_eq!(PathMatcher::errors(&["**/*.{ts", "ok.md", "[z-a"]), errors);
        assert_eq!(m.matching_pattern("a.{ts"), None);
        assert_eq!(m.matching_pattern("ok.md"), Some("ok.md"));
    }

    #[test]
    fn top_level_patterns_get_a_suggestion() {
        assert_eq!(top_level_suggestion("*.ts").as_deref(), Some("**/*.ts"));
        assert_eq!(top_level_suggestion("./*.md").as_deref(), Some("**/*.md"));
        assert_eq!(
            top_level_suggestion("*.{ts,tsx}").as_deref(),
            Some("**/*.{ts,tsx}")
        );
        assert_eq!(
            top_level_suggestion("*_test.go").as_deref(),
            Some("**/*_test.go")
        );
        assert_eq!(top_level_suggestion("go.mod"), None);
        assert_eq!(top_level_suggestion("Jenkinsfile*"), None);
        assert_eq!(top_level_suggestion(".gitlab-ci*"), None);
        assert_eq!(top_level_suggestion("**/*.ts"), None);
        assert_eq!(top_level_suggestion("src/*.ts"), None);
    }
}
