//! GitHub Copilot CLI's skills and commands (SPEC §17.7): where it finds
//! them, which it lists to the model and in which order, as observed on
//! CLI 1.0.102 (`tests/oracle/cases/copilot/skills*`).
//!
//! Rules:
//! - Skills: `<name>/SKILL.md` under `.github/skills`, `.agents/skills`,
//!   `.claude/skills` of the cwd and each ancestor up to the root, then
//!   `~/.copilot/skills` and `~/.agents/skills`. The name is `name:`, else
//!   the directory; a `SKILL.md` without frontmatter is not loaded.
//! - Commands: the top-level `.claude/commands/*.md` of the same
//!   directories (not nested ones); the description is `description:`,
//!   else the body's non-blank lines joined by spaces.
//! - One entry per name: `.github` before `.agents` and `.claude`, the
//!   cwd before its ancestors, the project before the user, a skill
//!   before a command.
//! - `disable-model-invocation: true` is not listed to the model.
//! - Listing order: with no skill in the cwd (or the cwd is the root),
//!   project skills by name; else by kind, the cwd's before its
//!   ancestors', each by name. Then the user's (`~/.copilot` first), then
//!   Copilot's built-ins (not reproduced), then commands by name.
//!
//! Choices the spec leaves open:
//! - The commands of every directory from the cwd up to the root are
//!   read, the nearest first.
//! - In an untrusted workspace, project skills and commands are found (by
//!   listing) and withheld, never opened.

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::copilot::instructions::Dirs;
use crate::prompt::agents::files::{CLAUDE_COMMANDS_DIR, CLAUDE_SKILLS_DIR, SKILL_MD};
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::profile::Scope;
use crate::prompt::text::xml_escape;
use crate::prompt::yaml::parse_mapping;
use crate::workspace::{EntryKind, Workspace, join};

/// The project's skill directories, in the order one name is taken.
pub const SKILL_DIRS: [&str; 3] = [".github/skills", ".agents/skills", CLAUDE_SKILLS_DIR];

/// Whether an entry is a skill or a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `<name>/SKILL.md`.
    Skill,
    /// `.claude/commands/<name>.md`.
    Command,
}

/// One skill or command found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its name.
    pub name: String,
    /// Skill or command.
    pub kind: Kind,
    /// Its file, as displayed.
    pub source: String,
    /// Where it lies.
    pub scope: Scope,
    /// Its description.
    pub description: String,
    /// Listed to the model (`disable-model-invocation` is not true).
    pub listed: bool,
    /// Withheld by trust (found, not read).
    pub withheld: bool,
    /// Another entry of the same name is used (its file).
    pub shadowed_by: Option<String>,
    /// Its file's text (empty when withheld).
    pub text: String,
    /// Its file, absolute.
    pub absolute: std::path::PathBuf,
    /// Sort keys: kind index (0–2 project skills, 3 user, 4 command) and
    /// distance from the cwd.
    rank: (usize, usize),
}

impl Entry {
    /// The entry's block in Copilot's listing.
    pub fn block(&self) -> String {
        let location = if self.scope == Scope::User {
            "user"
        } else {
            "project"
        };
        format!(
            "<skill>\n  <name>{}</name>\n  <description>{}</description>\n  \
             <location>{location}</location>\n</skill>",
            xml_escape(&self.name),
            xml_escape(&self.description)
        )
    }
}

/// What the search found.
#[derive(Debug, Default)]
pub struct Found {
    /// Every entry, in Copilot's listing order (unlisted and shadowed ones
    /// where their kind and name put them).
    pub entries: Vec<Entry>,
    /// What was said.
    pub diagnostics: Vec<Diagnostic>,
}

/// A directory searched and how its entries rank.
struct Place<'a> {
    reader: &'a dyn Workspace,
    dir: String,
    scope: Scope,
    rank: (usize, usize),
    kind: Kind,
}

/// Finds every skill and command of `dirs` and the user's homes.
pub fn find(
    dirs: &Dirs<'_>,
    copilot_home: Option<&dyn Workspace>,
    agents_home: Option<&dyn Workspace>,
    trusted: bool,
) -> Found {
    let mut places = Vec::new();
    let last = dirs.walk.len() - 1;
    let top = dirs.root.unwrap_or(last);
    for (distance, dir) in dirs.walk[top..].iter().rev().enumerate() {
        for (kind, skills) in SKILL_DIRS.iter().enumerate() {
            places.push(Place {
                reader: dir.reader,
                dir: dir.rel(skills),
                scope: dir.scope,
                rank: (kind, distance),
                kind: Kind::Skill,
            });
        }
    }
    for (order, home) in [copilot_home, agents_home].into_iter().enumerate() {
        if let Some(home) = home {
            places.push(Place {
                reader: home,
                dir: "skills".to_string(),
                scope: Scope::User,
                rank: (3, order),
                kind: Kind::Skill,
            });
        }
    }
    for (distance, dir) in dirs.walk[top..].iter().rev().enumerate() {
        places.push(Place {
            reader: dir.reader,
            dir: dir.rel(CLAUDE_COMMANDS_DIR),
            scope: dir.scope,
            rank: (4, distance),
            kind: Kind::Command,
        });
    }
    let mut found = Found::default();
    let mut all = Vec::new();
    for place in &places {
        found.search(place, trusted, &mut all);
    }
    // One entry per name, in priority order.
    let mut by_priority: Vec<usize> = (0..all.len()).collect();
    by_priority.sort_by_key(|&i| all[i].rank);
    let mut taken: Vec<(String, String)> = Vec::new();
    for i in by_priority {
        match taken.iter().find(|(name, _)| *name == all[i].name) {
            Some((_, by)) => all[i].shadowed_by = Some(by.clone()),
            None => taken.push((all[i].name.clone(), all[i].source.clone())),
        }
    }
    let cwd_has_skills = dirs.root != Some(last)
        && all.iter().any(|entry| {
            entry.kind == Kind::Skill && entry.scope != Scope::User && entry.rank.1 == 0
        });
    all.sort_by(|a, b| {
        let group = |e: &Entry| match e.rank.0 {
            0..=2 => 0,
            3 => 1,
            _ => 2,
        };
        let key = |e: &Entry| match group(e) {
            0 if cwd_has_skills => (0, e.rank.0, e.rank.1),
            0 => (0, 0, 0),
            1 => (1, e.rank.1, 0),
            _ => (2, 0, 0),
        };
        key(a).cmp(&key(b)).then_with(|| a.name.cmp(&b.name))
    });
    found.entries = all;
    found
}

impl Found {
    /// Reads the entries of one place into `all`.
    fn search(&mut self, place: &Place<'_>, trusted: bool, all: &mut Vec<Entry>) {
        let Ok(listed) = place.reader.list(&place.dir) else {
            return;
        };
        let withheld = !trusted && place.scope != Scope::User;
        for item in listed.into_iter().take(limits::MAX_TREE_ENTRIES) {
            let (rel, name) = match place.kind {
                Kind::Skill => {
                    let dir = join(&place.dir, &item.name);
                    if !matches!(place.reader.stat(&dir), Ok(EntryKind::Dir)) {
                        continue;
                    }
                    (join(&dir, SKILL_MD), item.name.clone())
                }
                Kind::Command => {
                    let Some(stem) = item.name.strip_suffix(".md") else {
                        continue;
                    };
                    if !matches!(
                        place.reader.stat(&join(&place.dir, &item.name)),
                        Ok(EntryKind::File)
                    ) {
                        continue;
                    }
                    (join(&place.dir, &item.name), stem.to_string())
                }
            };
            let source = place.reader.display(&rel);
            let mut entry = Entry {
                name,
                kind: place.kind,
                source: source.clone(),
                scope: place.scope,
                description: String::new(),
                listed: true,
                withheld,
                shadowed_by: None,
                text: String::new(),
                absolute: crate::prompt::walk::absolute(place.reader, &rel),
                rank: place.rank,
            };
            if withheld {
                if place.reader.stat(&rel).is_ok() {
                    all.push(entry);
                }
                continue;
            }
            let text = match place.reader.read(&rel, limits::MAX_COMMAND_FILE_BYTES + 1) {
                Ok(read) if !read.is_truncated() => {
                    String::from_utf8_lossy(&read.bytes).into_owned()
                }
                Ok(_) => {
                    self.diagnostics.push(Diagnostic::warning(
                        source,
                        format!(
                            "larger than {} bytes: not read",
                            limits::MAX_COMMAND_FILE_BYTES
                        ),
                    ));
                    continue;
                }
                Err(crate::workspace::WsError::NotFound) => continue,
                Err(err) => {
                    self.diagnostics.push(Diagnostic::warning(
                        source,
                        format!("cannot be used: {err}"),
                    ));
                    continue;
                }
            };
            let (block, body) = split_frontmatter(&text);
            let keys = match block.map(parse_mapping) {
                Some(Ok(entries)) => entries,
                Some(Err(err)) => {
                    self.diagnostics.push(Diagnostic::warning(
                        source,
                        format!(
                            "frontmatter is not valid YAML (line {}, column {}): {}; not loaded",
                            err.line,
                            err.column,
                            err.problem.describe()
                        ),
                    ));
                    continue;
                }
                None if place.kind == Kind::Skill => {
                    self.diagnostics.push(Diagnostic::warning(
                        source,
                        "a SKILL.md without frontmatter: GitHub Copilot CLI does not load it",
                    ));
                    continue;
                }
                None => Vec::new(),
            };
            let value = |key: &str| {
                keys.iter().find(|e| e.key == key).map(|e| match &e.value {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
            };
            if let Some(name) = value("name").filter(|_| place.kind == Kind::Skill) {
                entry.name = name;
            }
            entry.description = value("description").unwrap_or_else(|| match place.kind {
                Kind::Skill => String::new(),
                Kind::Command => body
                    .lines()
                    .map(str::trim)
                    .filter(|line| !line.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
            });
            entry.listed = value("disable-model-invocation").as_deref() != Some("true");
            entry.text = text;
            all.push(entry);
        }
    }
}
