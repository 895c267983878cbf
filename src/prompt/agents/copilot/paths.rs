//! GitHub Copilot CLI's path-specific instructions (SPEC §17.2, §17.5):
//! the `*.instructions.md` files below `~/.copilot/instructions` and the
//! root's and the cwd's `.github/instructions`, and the `*.md` files below
//! their `.claude/rules`. An unconditional one is sent whole, frontmatter
//! included; a conditional one becomes a row of Copilot's table.
//!
//! Rules (observed, `tests/oracle/cases/copilot/path-*`):
//! - Sets in order: the user's, the root's instructions, the root's rules,
//!   the cwd's instructions, the cwd's rules; each recursive and sorted by
//!   relative path (bytewise). Directories between the root and the cwd
//!   are not read.
//! - Unconditional: no `applyTo` (nor `paths` in `.claude/rules`), or one
//!   of `**`, `**/*`, `*`, `["**"]`. Anything else is a row: the pattern as
//!   written (a list joined by `, `), the path relative to its base (the
//!   root or the cwd; the user's absolute), the `description`.
//! - `excludeAgent: coding-agent` drops the file; other values keep it.
//! - `@` tokens in these files are not imports.
//!
//! Choices the spec leaves open:
//! - Frontmatter that is not valid YAML is read line by line for its
//!   `applyTo`/`paths` value (Copilot's table shows `[bad` for
//!   `applyTo: [bad`), with a warning naming the file and line.
//! - In an untrusted workspace the project's sets are listed `withheld`,
//!   the user's load.

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::copilot::instructions::{Dirs, Readers};
use crate::prompt::agents::copilot::spec::INSTRUCTIONS_DIR;
use crate::prompt::agents::files::CLAUDE_RULES_DIR;
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::profile::{NotLoaded, NotLoadedReason, Part, PartKind, Scope};
use crate::prompt::tiers::walk_tree;
use crate::prompt::yaml::parse_mapping;
use crate::workspace::{Workspace, WsError};

/// The suffix of a path-specific instruction file below an instructions
/// directory.
pub const INSTRUCTIONS_SUFFIX: &str = ".instructions.md";

/// The `applyTo` values that make a file unconditional.
const EVERYWHERE: [&str; 3] = ["**", "**/*", "*"];

/// One path-specific file read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathFile {
    /// Its part (kind [`PartKind::PathInstructions`], content raw).
    pub part: Part,
    /// Its pattern as written, `None` when unconditional.
    pub pattern: Option<String>,
    /// Its path as the table names it.
    pub table_path: String,
    /// Its `description`, empty without one.
    pub description: String,
}

impl PathFile {
    /// Its patterns: the comma-separated alternatives of its `applyTo`
    /// (a list was joined by `, `), none when unconditional.
    pub fn patterns(&self) -> Vec<&str> {
        self.pattern
            .iter()
            .flat_map(|pattern| pattern.split(','))
            .map(str::trim)
            .filter(|pattern| !pattern.is_empty())
            .collect()
    }
}

/// What reading the sets gave.
#[derive(Debug, Default)]
pub struct PathSets {
    /// Every file kept, in set order.
    pub files: Vec<PathFile>,
    /// Files considered and not kept.
    pub not_loaded: Vec<NotLoaded>,
    /// What was said.
    pub diagnostics: Vec<Diagnostic>,
}

/// One set: where it is read and how its files are named.
struct Set<'a> {
    reader: &'a dyn Workspace,
    dir: String,
    /// The directory table paths are relative to (reader-relative);
    /// `None`: absolute paths.
    base: Option<String>,
    scope: Scope,
    rules: bool,
}

/// Reads every set of `dirs` and the user's, in Copilot's order.
pub fn load(readers: Readers<'_>, dirs: &Dirs<'_>, trusted: bool) -> PathSets {
    let mut sets = Vec::new();
    if let Some(home) = readers.home {
        sets.push(Set {
            reader: home,
            dir: "instructions".to_string(),
            base: None,
            scope: Scope::User,
            rules: false,
        });
    }
    for dir in dirs.root_and_cwd() {
        for (name, rules) in [(INSTRUCTIONS_DIR, false), (CLAUDE_RULES_DIR, true)] {
            sets.push(Set {
                reader: dir.reader,
                dir: dir.rel(name),
                base: Some(dir.dir.clone()),
                scope: dir.scope,
                rules,
            });
        }
    }
    let mut out = PathSets::default();
    for set in &sets {
        out.read_set(set, trusted);
    }
    out
}

impl PathSets {
    fn read_set(&mut self, set: &Set<'_>, trusted: bool) {
        if !matches!(
            set.reader.stat(&set.dir),
            Ok(crate::workspace::EntryKind::Dir)
        ) {
            return;
        }
        let tree = walk_tree(set.reader, &set.dir, false);
        if tree.cut {
            self.diagnostics.push(Diagnostic::warning(
                set.reader.display(&set.dir),
                format!(
                    "more than {} entries or {} levels: the rest is not read (ours: a bound)",
                    limits::MAX_TREE_ENTRIES,
                    limits::MAX_TREE_DEPTH
                ),
            ));
        }
        let mut files: Vec<String> = tree
            .files
            .into_iter()
            .filter(|rel| {
                if set.rules {
                    rel.ends_with(".md")
                } else {
                    rel.ends_with(INSTRUCTIONS_SUFFIX)
                }
            })
            .collect();
        files.sort_unstable();
        for rel in files {
            let shown = set.reader.display(&rel);
            if !trusted && set.scope != Scope::User {
                self.skip(shown, set.scope, NotLoadedReason::Withheld);
                continue;
            }
            if let Some(file) = self.read_file(set, &rel, shown) {
                self.files.push(file);
            }
        }
    }

    fn skip(&mut self, path: String, scope: Scope, reason: NotLoadedReason) {
        self.not_loaded.push(NotLoaded {
            path,
            scope,
            reason,
        });
    }

    fn read_file(&mut self, set: &Set<'_>, rel: &str, shown: String) -> Option<PathFile> {
        let cap = limits::MAX_COPILOT_FILE_BYTES;
        let text = match set.reader.read(rel, cap + 1) {
            Ok(read) if read.is_truncated() => {
                self.diagnostics.push(Diagnostic::warning(
                    shown.clone(),
                    format!("larger than {cap} bytes: skipped (GitHub Copilot CLI sends it whole)"),
                ));
                let bytes = read.size;
                self.skip(shown, set.scope, NotLoadedReason::TooLarge { bytes });
                return None;
            }
            Ok(read) => String::from_utf8_lossy(&read.bytes).into_owned(),
            Err(WsError::NotFound) => return None,
            Err(err) => {
                let why = err.to_string();
                self.diagnostics.push(Diagnostic::warning(
                    shown.clone(),
                    format!("cannot be used: {why}"),
                ));
                let reason = match err {
                    WsError::Refused(_) => NotLoadedReason::External,
                    _ => NotLoadedReason::Unusable(why),
                };
                self.skip(shown, set.scope, reason);
                return None;
            }
        };
        let front = self.frontmatter(&text, &shown, set.rules);
        if front.exclude_agent.as_deref() == Some("coding-agent") {
            self.skip(shown, set.scope, NotLoadedReason::ExcludedAgent);
            return None;
        }
        let table_path = match &set.base {
            Some(base) => rel
                .strip_prefix(base.as_str())
                .map(|rest| rest.trim_start_matches('/'))
                .unwrap_or(rel)
                .to_string(),
            None => crate::prompt::walk::absolute(set.reader, rel)
                .display()
                .to_string(),
        };
        let pattern = front
            .pattern
            .filter(|pattern| !EVERYWHERE.contains(&pattern.as_str()));
        Some(PathFile {
            part: Part {
                path: shown,
                scope: set.scope,
                kind: PartKind::PathInstructions,
                imported_by: None,
                content: text,
                cut: None,
            },
            pattern,
            table_path,
            description: front.description.unwrap_or_default(),
        })
    }

    /// The keys Copilot reads from `text`'s frontmatter.
    fn frontmatter(&mut self, text: &str, shown: &str, rules: bool) -> Front {
        let (Some(block), _) = split_frontmatter(text) else {
            return Front::default();
        };
        let keys: &[&str] = if rules {
            &["applyTo", "paths"]
        } else {
            &["applyTo"]
        };
        match parse_mapping(block) {
            Ok(entries) => {
                let value = |key: &str| entries.iter().find(|entry| entry.key == key);
                let string = |key: &str| {
                    value(key).and_then(|entry| match &entry.value {
                        serde_json::Value::String(s) => Some(s.clone()),
                        serde_json::Value::Null => None,
                        other => Some(other.to_string()),
                    })
                };
                let pattern = keys
                    .iter()
                    .find_map(|key| value(key))
                    .and_then(|entry| match &entry.value {
                        serde_json::Value::String(s) => Some(s.clone()),
                        serde_json::Value::Array(items) => Some(
                            items
                                .iter()
                                .map(|item| match item {
                                    serde_json::Value::String(s) => s.clone(),
                                    other => other.to_string(),
                                })
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                        serde_json::Value::Null => None,
                        other => Some(other.to_string()),
                    });
                // `["**"]` joins to `**`: everywhere.
                Front {
                    pattern,
                    description: string("description"),
                    exclude_agent: string("excludeAgent"),
                }
            }
            Err(err) => {
                self.diagnostics.push(Diagnostic::warning(
                    shown.to_string(),
                    format!(
                        "frontmatter is not valid YAML (line {}, column {}): {}; its applyTo is \
                         read as written on its line, as GitHub Copilot CLI does",
                        err.line,
                        err.column,
                        err.problem.describe()
                    ),
                ));
                Front::by_lines(block, keys)
            }
        }
    }
}

/// The frontmatter keys Copilot reads.
#[derive(Debug, Default)]
struct Front {
    pattern: Option<String>,
    description: Option<String>,
    exclude_agent: Option<String>,
}

impl Front {
    /// The keys read line by line from a block that is not valid YAML.
    fn by_lines(block: &str, keys: &[&str]) -> Self {
        let value = |key: &str| {
            block.lines().find_map(|line| {
                let rest = line.strip_prefix(key)?.trim_start().strip_prefix(':')?;
                let rest = rest.trim();
                let unquoted = rest
                    .strip_prefix('"')
                    .and_then(|r| r.strip_suffix('"'))
                    .or_else(|| rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')));
                Some(unquoted.unwrap_or(rest).to_string())
            })
        };
        Front {
            pattern: keys.iter().find_map(|key| value(key)),
            description: value("description"),
            exclude_agent: value("excludeAgent"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_yaml_is_read_line_by_line() {
        let front = Front::by_lines("applyTo: [bad\ndescription: \"d\"\n", &["applyTo"]);
        assert_eq!(front.pattern.as_deref(), Some("[bad"));
        assert_eq!(front.description.as_deref(), Some("d"));
    }
}
