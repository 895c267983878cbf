//! Gemini CLI's skills listing (SPEC §16.4, last bullet; observed:
//! recorded case `gemini-commands/skills`): the `SKILL.md` files in, or one
//! directory below, `~/.gemini/skills`, `~/.agents/skills`,
//! `<at>/.gemini/skills` and `<at>/.agents/skills`, in that order, each
//! directory in listing order; a skill needs a string `name` and
//! `description` in its frontmatter; its name is `name` with each of
//! `:\/<>*?"|` made `-`; a later skill of a name replaces the earlier one
//! in its place. Gemini lists them after its own bundled skills (not
//! ours) in an `<available_skills>` block of its system instruction.
//!
//! Choices the spec leaves open:
//! - The frontmatter is the text between a first line `---` and the next
//!   line starting with `---` (Gemini's pattern); it is read as YAML, and
//!   when that gives no string `name` and `description`, line by line as
//!   Gemini's fallback does (`name:` and `description:` lines, a
//!   description continued by indented lines).
//! - In an untrusted workspace the project's two directories are withheld
//!   (named in an info line, never listed), as Gemini skips them in an
//!   untrusted folder.
//! - Subdirectories whose names start with `.` are not looked into (Gemini's
//!   glob skips them).
//! - A directory holding more than [`limits::MAX_GEMINI_SKILLS_PER_DIR`]
//!   skills is cut there with a warning; a `SKILL.md` over
//!   [`limits::MAX_CODEX_SKILL_FILE_BYTES`] is skipped with a warning.

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::walk::{Scope, absolute};
use crate::prompt::yaml::parse_mapping;
use crate::workspace::{EntryKind, Workspace, join};

/// The skill file's name.
pub const SKILL_FILE: &str = "SKILL.md";
/// The skills directories below a home or a start directory, in order.
pub const SKILL_DIRS: [&str; 2] = [".gemini/skills", ".agents/skills"];
/// What opens the listing.
pub const LISTING_OPEN: &str = "<available_skills>\n";
/// What closes it.
pub const LISTING_CLOSE: &str = "\n</available_skills>";

/// One skills directory.
#[derive(Clone, Copy)]
pub struct SkillDir<'a> {
    /// Its reader.
    pub reader: &'a dyn Workspace,
    /// The directory, relative to the reader.
    pub rel: &'a str,
    /// `user` or `project`.
    pub scope: Scope,
}

/// One skill Gemini lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeminiSkill {
    /// Its name, sanitised.
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its `SKILL.md`, absolute (what the listing names).
    pub location: String,
    /// Its `SKILL.md`, as its reader displays it.
    pub source: String,
    /// `user` or `project`.
    pub scope: Scope,
}

impl GeminiSkill {
    /// The skill's entry in the listing.
    pub fn entry(&self) -> String {
        format!(
            "  <skill>\n    <name>{}</name>\n    <description>{}</description>\n    \
             <location>{}</location>\n  </skill>",
            self.name, self.description, self.location
        )
    }
}

/// The listing's text around `entries`.
pub fn listing_text<'e>(entries: impl Iterator<Item = &'e str>) -> String {
    let entries: Vec<&str> = entries.collect();
    format!("{LISTING_OPEN}{}{LISTING_CLOSE}", entries.join("\n"))
}

/// The skills of `dirs`, in Gemini's order, and what was said.
pub fn list(dirs: &[SkillDir<'_>]) -> (Vec<GeminiSkill>, Vec<Diagnostic>) {
    let mut skills: Vec<GeminiSkill> = Vec::new();
    let mut diagnostics = Vec::new();
    for dir in dirs {
        for rel in skill_files(dir, &mut diagnostics) {
            let source = dir.reader.display(&rel);
            let text = match dir.reader.read(&rel, limits::MAX_CODEX_SKILL_FILE_BYTES) {
                Ok(read) if read.is_truncated() => {
                    diagnostics.push(Diagnostic::warning(
                        &source,
                        format!(
                            "over {} bytes: not read, so not listed",
                            limits::MAX_CODEX_SKILL_FILE_BYTES
                        ),
                    ));
                    continue;
                }
                Ok(read) => String::from_utf8_lossy(&read.bytes).into_owned(),
                Err(err) => {
                    diagnostics.push(Diagnostic::warning(&source, format!("not read: {err}")));
                    continue;
                }
            };
            let Some((name, description)) = metadata(&text) else {
                diagnostics.push(Diagnostic::warning(
                    &source,
                    "no frontmatter with a string `name` and `description`: Gemini CLI does not \
                     list this skill",
                ));
                continue;
            };
            let skill = GeminiSkill {
                name: sanitise(&name),
                description,
                location: absolute(dir.reader, &rel).display().to_string(),
                source,
                scope: dir.scope,
            };
            match skills.iter_mut().find(|s| s.name == skill.name) {
                Some(earlier) => {
                    diagnostics.push(Diagnostic::info(
                        &earlier.source,
                        format!(
                            "skill {} is replaced by {}, which Gemini CLI lists in its place",
                            skill.name, skill.source
                        ),
                    ));
                    *earlier = skill;
                }
                None => skills.push(skill),
            }
        }
    }
    (skills, diagnostics)
}

/// `SKILL.md` in `dir`, then in each of its subdirectories, in listing
/// order (links to directories followed, as a stat does).
pub(super) fn skill_files(dir: &SkillDir<'_>, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let Ok(entries) = dir.reader.list_unsorted(dir.rel) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let own = join(dir.rel, SKILL_FILE);
    if matches!(dir.reader.stat(&own), Ok(EntryKind::File)) {
        files.push(own);
    }
    for entry in entries
        .iter()
        .filter(|e| !e.lossy && !e.name.starts_with('.'))
    {
        if files.len() >= limits::MAX_GEMINI_SKILLS_PER_DIR {
            diagnostics.push(Diagnostic::warning(
                dir.reader.display(dir.rel),
                format!(
                    "more than {} skills: the rest are not listed",
                    limits::MAX_GEMINI_SKILLS_PER_DIR
                ),
            ));
            break;
        }
        let sub = join(dir.rel, &entry.name);
        if entry.kind != EntryKind::Dir && !matches!(dir.reader.stat(&sub), Ok(EntryKind::Dir)) {
            continue;
        }
        let file = join(&sub, SKILL_FILE);
        if matches!(dir.reader.stat(&file), Ok(EntryKind::File)) {
            files.push(file);
        }
    }
    files
}

/// A skill's name as Gemini lists it.
pub fn sanitise(name: &str) -> String {
    name.chars()
        .map(|c| {
            if matches!(c, ':' | '\\' | '/' | '<' | '>' | '*' | '?' | '"' | '|') {
                '-'
            } else {
                c
            }
        })
        .collect()
}

/// `name` and `description` from a `SKILL.md`, as Gemini reads them.
pub fn metadata(text: &str) -> Option<(String, String)> {
    let block = front_block(text)?;
    if let Ok(entries) = parse_mapping(block) {
        let string = |key: &str| {
            entries
                .iter()
                .rev()
                .find(|e| e.key == key)
                .and_then(|e| e.value.as_str().map(str::to_string))
        };
        if let (Some(name), Some(description)) = (string("name"), string("description")) {
            return Some((name, description));
        }
    }
    line_by_line(block)
}

/// The text between a first line `---` and the next line that starts
/// with `---`.
fn front_block(text: &str) -> Option<&str> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut at = 0;
    loop {
        let line_end = rest[at..].find('\n').map(|i| at + i)?;
        let next = &rest[line_end + 1..];
        if next.starts_with("---") {
            let block = &rest[..line_end];
            return Some(block.strip_suffix('\r').unwrap_or(block));
        }
        at = line_end + 1;
    }
}

/// Gemini's fallback reading of a block that YAML does not give both
/// keys for.
fn line_by_line(block: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = block
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if let Some(value) = line.strip_prefix("name:") {
            name = Some(value.trim().to_string());
        } else if let Some(value) = line.strip_prefix("description:") {
            let mut parts = vec![value.trim().to_string()];
            while let Some(next) = lines.get(i + 1)
                && next.starts_with([' ', '\t'])
                && !next.trim().is_empty()
            {
                parts.push(next.trim().to_string());
                i += 1;
            }
            parts.retain(|p| !p.is_empty());
            description = Some(parts.join(" "));
        }
        i += 1;
    }
    Some((name?, description?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sanitised() {
        assert_eq!(sanitise("b:a/r\\<x>*?\"|"), "b-a-r--x-----");
    }

    #[test]
    fn yaml_first_then_line_by_line() {
        let yaml = "---\nname: \"b:a\"\ndescription: D\n---\nbody";
        assert_eq!(metadata(yaml), Some(("b:a".into(), "D".into())));
        let number = "---\nname: 123\ndescription: d\n  more\n---\n";
        assert_eq!(metadata(number), Some(("123".into(), "d more".into())));
        let bad = "---\nname: [x\ndescription: d\n---\n";
        assert_eq!(metadata(bad), Some(("[x".into(), "d".into())));
        assert_eq!(metadata("no block"), None);
        assert_eq!(metadata("---\nname: x\n---\n"), None);
        let dashes = "---\nname: x\ndescription: y\n----\nbody";
        assert_eq!(metadata(dashes), Some(("x".into(), "y".into())));
    }

    #[test]
    fn the_listing_is_gemini_block() {
        let skill = GeminiSkill {
            name: "foo".into(),
            description: "Foo".into(),
            location: "/w/.gemini/skills/foo/SKILL.md".into(),
            source: ".gemini/skills/foo/SKILL.md".into(),
            scope: Scope::Project,
        };
        let entry = skill.entry();
        assert_eq!(
            listing_text([entry.as_str()].into_iter()),
            "<available_skills>\n  <skill>\n    <name>foo</name>\n    <description>Foo\
             </description>\n    <location>/w/.gemini/skills/foo/SKILL.md</location>\n  \
             </skill>\n</available_skills>"
        );
    }
}
