//! opencode's skills (SPEC §18.4): every `**/SKILL.md` below its skill
//! directories, named by the frontmatter's `name:`, and the listing opencode
//! puts in its system message (recorded case
//! `tests/oracle/cases/opencode-commands/skills-listing`).
//!
//! Choices the spec leaves open:
//! - opencode parses the files concurrently and the last parsed wins a
//!   name; the preview picks by the rank of the directory ([`SkillDir`]'s
//!   `rank`: the walk's `.opencode` nearest first, `~/.opencode`, the
//!   config directory, `skills.paths`, the walk's `.agents`, its `.claude`,
//!   then the user's `.agents` and `.claude`), the first found of a rank
//!   breaking ties, and warns (lint MP045); the others are `shadowed`.
//! - A file without a string `name:` is not a skill: an info line here,
//!   lint MP047's warning.
//! - The trees are walked sorted and bounded ([`limits::MAX_TREE_DEPTH`],
//!   [`limits::MAX_TREE_ENTRIES`]); past [`limits::MAX_OPENCODE_SKILLS`]
//!   skill files in all the rest are not read (a warning); a file over
//!   [`limits::MAX_CODEX_SKILL_FILE_BYTES`], or one that is not a regular
//!   file (a FIFO), is skipped with a warning.
//! - A `skills.paths` entry is read where it lands inside the workspace (a
//!   relative one from the cwd, `..` resolved against it; an absolute one
//!   inside the workspace; `~/` from the user's config in the home); one a
//!   project config points out of the workspace is not read, with a
//!   warning naming the entry (opencode would read it).
//! - The location is the absolute path with `&`, `<`, `>`, `"` and `'`
//!   escaped as XML; name and description are sent raw. The listing's text
//!   is the `<available_skills>` block without opencode's built-in skill
//!   and its two opening lines (said in `--help`).

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::opencode::collate::locale_compare;
use crate::prompt::agents::opencode::commands::front;
use crate::prompt::text::xml_escape;
use crate::prompt::tiers::walk_tree;
use crate::prompt::walk::{Scope, absolute};
use crate::workspace::{EntryKind, Workspace};

/// The skill file's name.
pub const SKILL_FILE: &str = "SKILL.md";
/// What opens the listing.
pub const LISTING_OPEN: &str = "<available_skills>\n";
/// What closes it.
pub const LISTING_CLOSE: &str = "\n</available_skills>";

/// One directory opencode reads skills from.
pub struct SkillDir<'r> {
    /// Its reader.
    pub reader: &'r dyn Workspace,
    /// The directory below the reader's root.
    pub rel: String,
    /// Where it lies.
    pub scope: Scope,
    /// Its rank in a clash (lower wins).
    pub rank: usize,
}

/// One `SKILL.md` with a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpencodeSkill {
    /// Its `name:`.
    pub name: String,
    /// Its `description:` (without one it is not listed).
    pub description: Option<String>,
    /// The file, absolute (what the listing names).
    pub location: String,
    /// The file, as displayed.
    pub source: String,
    /// Where it lies.
    pub scope: Scope,
    /// The file that wins its name instead.
    pub shadowed_by: Option<String>,
    rank: usize,
}

impl OpencodeSkill {
    /// Its entry in the listing.
    pub fn entry(&self) -> String {
        format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    \
             <location>{}</location>\n  </skill>",
            self.name,
            self.description.as_deref().unwrap_or_default(),
            xml_escape(&self.location)
        )
    }
}

/// The listing's text around `entries`.
pub fn listing_text<'e>(entries: impl Iterator<Item = &'e str>) -> String {
    let entries: Vec<&str> = entries.collect();
    format!("{LISTING_OPEN}{}{LISTING_CLOSE}", entries.join("\n"))
}

/// Every skill of a run.
#[derive(Debug, Default)]
pub struct Skills {
    /// Every skill, the winners first in listing order (by name), then the
    /// shadowed ones.
    pub skills: Vec<OpencodeSkill>,
    /// The `SKILL.md` files without a string `name:`, as displayed.
    pub nameless: Vec<String>,
    /// What was said.
    pub diagnostics: Vec<Diagnostic>,
    /// The project directories an untrusted workspace withheld.
    pub withheld: Vec<String>,
}

impl Skills {
    /// The skills opencode lists (winners with a description), in order.
    pub fn listed(&self) -> impl Iterator<Item = &OpencodeSkill> {
        self.skills
            .iter()
            .filter(|s| s.shadowed_by.is_none() && s.description.is_some())
    }
}

/// Reads the skills of `dirs` and settles each name.
pub fn load(dirs: &[SkillDir<'_>], trusted: bool) -> Skills {
    let mut out = Skills::default();
    let mut found: Vec<OpencodeSkill> = Vec::new();
    let mut files = 0usize;
    for dir in dirs {
        if !matches!(dir.reader.stat(&dir.rel), Ok(EntryKind::Dir)) {
            continue;
        }
        if dir.scope.is_gated() && !trusted {
            let shown = dir.reader.display(&dir.rel);
            out.diagnostics.push(Diagnostic::info(
                &shown,
                "the workspace is not trusted, so opencode's skills here are withheld",
            ));
            out.withheld.push(shown);
            continue;
        }
        let tree = walk_tree(dir.reader, &dir.rel, false);
        if tree.cut {
            out.diagnostics.push(Diagnostic::warning(
                dir.reader.display(&dir.rel),
                format!(
                    "skill files deeper than {} levels or past {} entries are not read",
                    limits::MAX_TREE_DEPTH,
                    limits::MAX_TREE_ENTRIES
                ),
            ));
        }
        let skill_files = tree
            .files
            .iter()
            .filter(|f| f.rsplit('/').next() == Some(SKILL_FILE));
        for rel in skill_files {
            files += 1;
            if files > limits::MAX_OPENCODE_SKILLS {
                out.diagnostics.push(Diagnostic::warning(
                    dir.reader.display(&dir.rel),
                    format!(
                        "more than {} SKILL.md files in all: the rest are not read",
                        limits::MAX_OPENCODE_SKILLS
                    ),
                ));
                break;
            }
            if let Some(skill) = read(dir, rel, &mut out) {
                found.push(skill);
            }
        }
        if files > limits::MAX_OPENCODE_SKILLS {
            break;
        }
    }
    settle(&mut found, &mut out.diagnostics);
    out.skills = found;
    out
}

/// One `SKILL.md` as a skill, or `None` (and what was said).
fn read(dir: &SkillDir<'_>, rel: &str, out: &mut Skills) -> Option<OpencodeSkill> {
    let source = dir.reader.display(rel);
    let text = match dir.reader.read(rel, limits::MAX_CODEX_SKILL_FILE_BYTES) {
        Ok(read) if read.is_truncated() => {
            out.diagnostics.push(Diagnostic::warning(
                &source,
                format!(
                    "over {} bytes: not read, so not listed",
                    limits::MAX_CODEX_SKILL_FILE_BYTES
                ),
            ));
            return None;
        }
        Ok(read) => String::from_utf8_lossy(&read.bytes).into_owned(),
        Err(err) => {
            out.diagnostics
                .push(Diagnostic::warning(&source, format!("not read: {err}")));
            return None;
        }
    };
    let (keys, _) = front(&text, &source, &mut out.diagnostics)?;
    let keys = keys.unwrap_or_default();
    let Some(name) = keys.get("name").and_then(Value::as_str) else {
        out.diagnostics.push(Diagnostic::info(
            &source,
            "no string `name:` in its frontmatter: opencode does not take it as a skill",
        ));
        out.nameless.push(source);
        return None;
    };
    Some(OpencodeSkill {
        name: name.to_string(),
        description: keys
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        location: absolute(dir.reader, rel).display().to_string(),
        source,
        scope: dir.scope,
        shadowed_by: None,
        rank: dir.rank,
    })
}

/// Marks the losers of each name (see the module docs), warns once per
/// clash, and orders the skills: winners by name, then the losers.
fn settle(found: &mut [OpencodeSkill], said: &mut Vec<Diagnostic>) {
    found.sort_by(|a, b| locale_compare(&a.name, &b.name).then(a.rank.cmp(&b.rank)));
    let mut i = 0;
    while i < found.len() {
        let end = i + found[i..]
            .iter()
            .take_while(|s| s.name == found[i].name)
            .count();
        if end - i > 1 {
            let winner = found[i].source.clone();
            let losers: Vec<String> = found[i + 1..end].iter().map(|s| s.source.clone()).collect();
            for loser in &mut found[i + 1..end] {
                loser.shadowed_by = Some(winner.clone());
            }
            said.push(Diagnostic::warning(
                &winner,
                format!(
                    "skill {} is also named by {}: opencode keeps whichever it parses last, which \
                     varies from run to run; the preview shows this one",
                    found[i].name,
                    losers.join(", ")
                ),
            ));
        }
        i = end;
    }
    found.sort_by_key(|s| s.shadowed_by.is_some());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::MemWorkspace;

    fn skill(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\n---\nbody\n")
    }

    #[test]
    fn listing_sorted_by_locale_and_clashes_ranked() {
        let ws = MemWorkspace::new()
            .file(".opencode/skills/a/SKILL.md", skill("beta", "b"))
            .file(".opencode/skills/b/SKILL.md", skill("Alpha", "A & <x>"))
            .file(".claude/skills/c/SKILL.md", skill("beta", "lost"))
            .file(".claude/skills/d/SKILL.md", "---\ndescription: x\n---\n")
            .file(".claude/skills/e/SKILL.md", "---\nname: quiet\n---\n");
        let dirs = [
            SkillDir {
                reader: &ws,
                rel: ".claude/skills".into(),
                scope: Scope::Project,
                rank: 5,
            },
            SkillDir {
                reader: &ws,
                rel: ".opencode/skills".into(),
                scope: Scope::Project,
                rank: 0,
            },
        ];
        let found = load(&dirs, true);
        let listed: Vec<&str> = found.listed().map(|s| s.name.as_str()).collect();
        assert_eq!(listed, ["Alpha", "beta"]);
        let beta = found
            .skills
            .iter()
            .find(|s| s.name == "beta")
            .expect("beta");
        assert!(beta.source.contains(".opencode"));
        assert_eq!(found.nameless.len(), 1);
        assert!(found.skills.iter().any(|s| s.name == "quiet"));
        assert!(
            found
                .diagnostics
                .iter()
                .any(|d| d.reason.contains("varies"))
        );
        let entry = found
            .listed()
            .next()
            .map(OpencodeSkill::entry)
            .unwrap_or_default();
        assert!(entry.contains("<description>A & <x></description>"));
    }
}
