//! opencode's commands (SPEC §18.3): the `command` object of its merged
//! configs and the `command/**/*.md` and `commands/**/*.md` files of its
//! directories, named by their path below that directory without `.md`
//! (`git/commit.md` is `/git/commit`), the later source winning a name
//! (recorded cases in `tests/oracle/cases/opencode-commands/`).
//!
//! Choices the spec leaves open:
//! - Within one directory `command/` comes before `commands/`, so a name in
//!   both is `commands/`'s (recorded: `dir-clash`); a config's later file
//!   wins as its later `command` entry does.
//! - A file's frontmatter is read as YAML (`description`, `agent`, `model`
//!   and the others shown by `commands list`); one that does not parse is a
//!   warning and the file gives no command. A config entry whose `template`
//!   is not a string is a warning and gives no command.
//! - The trees are walked sorted by name and bounded (SPEC §15.6,
//!   [`limits::MAX_TREE_DEPTH`], [`limits::MAX_TREE_ENTRIES`]); a file over
//!   [`limits::MAX_COMMAND_FILE_BYTES`] is skipped with a warning.
//! - A project directory is withheld in an untrusted workspace (named in an
//!   info line, never listed).

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::opencode::config::Parsed;
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::text::js_trim;
use crate::prompt::tiers::walk_tree;
use crate::prompt::walk::Scope;
use crate::prompt::yaml::parse_mapping;
use crate::workspace::{EntryKind, Workspace, WsError};

/// The command directories below a `.opencode` or config directory, in
/// the order they are read (the later wins a name).
pub const COMMAND_DIRS: [&str; 2] = ["command", "commands"];

/// One directory opencode reads commands from.
pub struct Place<'r> {
    /// Its reader.
    pub reader: &'r dyn Workspace,
    /// The directory below the reader's root.
    pub rel: String,
    /// Where it lies.
    pub scope: Scope,
}

/// One command file or config entry.
#[derive(Debug, Clone, PartialEq)]
pub struct OpencodeCommand {
    /// Its name, without `/`.
    pub name: String,
    /// Its file, as displayed (a config entry: the config).
    pub source: String,
    /// Where it lies.
    pub scope: Scope,
    /// The template: a file's body without frontmatter, trimmed; a config
    /// entry's `template` as written.
    pub template: String,
    /// Its `description`.
    pub description: Option<String>,
    /// Its frontmatter, or the config entry's keys other than `template`.
    pub frontmatter: Option<Map<String, Value>>,
    /// The source that wins its name instead, when it lost.
    pub shadowed_by: Option<String>,
    /// The file's whole text (a config entry: its template).
    pub text: String,
}

/// Every command of one run.
#[derive(Debug, Default)]
pub struct Commands {
    /// Every command, winners and losers, sorted by name, the winner of a
    /// name first.
    pub commands: Vec<OpencodeCommand>,
    /// What was said about the files.
    pub diagnostics: Vec<Diagnostic>,
    /// The project directories an untrusted workspace withheld.
    pub withheld: Vec<String>,
}

impl Commands {
    /// The command opencode runs for `name`.
    pub fn find(&self, name: &str) -> Option<&OpencodeCommand> {
        self.commands
            .iter()
            .find(|c| c.name == name && c.shadowed_by.is_none())
    }

    /// The winners, by name.
    pub fn winners(&self) -> impl Iterator<Item = &OpencodeCommand> {
        self.commands.iter().filter(|c| c.shadowed_by.is_none())
    }
}

/// Reads the commands of `configs` (in merge order) and `places` (in
/// precedence order, the last wins) and settles each name.
pub fn load(configs: &[Parsed], places: &[Place<'_>], trusted: bool) -> Commands {
    let mut out = Commands::default();
    let mut found: Vec<OpencodeCommand> = Vec::new();
    for config in configs {
        from_config(config, &mut found, &mut out.diagnostics);
    }
    for place in places {
        if place.scope.is_gated() && !trusted {
            if matches!(place.reader.stat(&place.rel), Ok(EntryKind::Dir)) {
                let shown = place.reader.display(&place.rel);
                out.diagnostics.push(Diagnostic::info(
                    &shown,
                    "the workspace is not trusted, so opencode's commands here are withheld",
                ));
                out.withheld.push(shown);
            }
            continue;
        }
        from_dir(place, &mut found, &mut out.diagnostics);
    }
    // The last of each name wins; stable sort keeps the order of sources.
    for i in 0..found.len() {
        let later = found[i + 1..]
            .iter()
            .rev()
            .find(|c| c.name == found[i].name)
            .map(|c| c.source.clone());
        found[i].shadowed_by = later;
    }
    found.reverse();
    found.sort_by(|a, b| a.name.cmp(&b.name));
    out.commands = found;
    out
}

/// The entries of a config's `command` object.
fn from_config(config: &Parsed, found: &mut Vec<OpencodeCommand>, said: &mut Vec<Diagnostic>) {
    let Some(entries) = config.value.get("command") else {
        return;
    };
    let Some(entries) = entries.as_object() else {
        said.push(Diagnostic::warning(
            &config.shown,
            "`command` is not an object: opencode's schema rejects it; ignored",
        ));
        return;
    };
    for (name, entry) in entries {
        let Some(template) = entry.get("template").and_then(Value::as_str) else {
            said.push(Diagnostic::warning(
                &config.shown,
                format!(
                    "command {name}: `template` is not a string: opencode's schema rejects it; \
                     ignored"
                ),
            ));
            continue;
        };
        let mut keys = entry.as_object().cloned().unwrap_or_default();
        keys.remove("template");
        found.push(OpencodeCommand {
            name: name.clone(),
            source: config.shown.clone(),
            scope: config.scope,
            template: template.to_string(),
            description: keys
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
            frontmatter: Some(keys),
            shadowed_by: None,
            text: template.to_string(),
        });
    }
}

/// The `*.md` files below one directory.
fn from_dir(place: &Place<'_>, found: &mut Vec<OpencodeCommand>, said: &mut Vec<Diagnostic>) {
    if !matches!(place.reader.stat(&place.rel), Ok(EntryKind::Dir)) {
        return;
    }
    let tree = walk_tree(place.reader, &place.rel, false);
    if tree.cut {
        said.push(Diagnostic::warning(
            place.reader.display(&place.rel),
            format!(
                "command files deeper than {} levels or past {} entries are not read",
                limits::MAX_TREE_DEPTH,
                limits::MAX_TREE_ENTRIES
            ),
        ));
    }
    let prefix = format!("{}/", place.rel.trim_end_matches('/'));
    for rel in tree.files.iter().filter(|f| f.ends_with(".md")) {
        let under = rel.strip_prefix(&prefix).unwrap_or(rel);
        let name = &under[..under.len() - ".md".len()];
        let source = place.reader.display(rel);
        if name.is_empty() || name.ends_with('/') {
            continue;
        }
        let text = match place.reader.read(rel, limits::MAX_COMMAND_FILE_BYTES) {
            Ok(read) if read.is_truncated() => {
                said.push(Diagnostic::warning(
                    &source,
                    format!(
                        "over {} bytes: not read, so /{name} is not offered",
                        limits::MAX_COMMAND_FILE_BYTES
                    ),
                ));
                continue;
            }
            Ok(read) => String::from_utf8_lossy(&read.bytes).into_owned(),
            Err(WsError::NotFound) => continue,
            Err(err) => {
                said.push(Diagnostic::warning(&source, format!("not read: {err}")));
                continue;
            }
        };
        let Some((frontmatter, body)) = front(&text, &source, said) else {
            continue;
        };
        found.push(OpencodeCommand {
            name: name.to_string(),
            source,
            scope: place.scope,
            template: js_trim(body).to_string(),
            description: frontmatter
                .as_ref()
                .and_then(|keys| keys.get("description"))
                .and_then(Value::as_str)
                .map(str::to_string),
            frontmatter,
            shadowed_by: None,
            text,
        });
    }
}

/// A markdown file's frontmatter (as a map; `None` without a block) and
/// body; `None` and a warning when the block does not parse.
pub fn front<'t>(
    text: &'t str,
    source: &str,
    said: &mut Vec<Diagnostic>,
) -> Option<(Option<Map<String, Value>>, &'t str)> {
    let (block, body) = split_frontmatter(text);
    let Some(block) = block else {
        return Some((None, body));
    };
    match parse_mapping(block) {
        Ok(entries) => Some((
            Some(entries.into_iter().map(|e| (e.key, e.value)).collect()),
            body,
        )),
        Err(err) => {
            said.push(Diagnostic::warning(
                source,
                format!(
                    "frontmatter does not parse at line {}, column {} ({}): opencode does not \
                     load this file",
                    err.line + 1,
                    err.column,
                    err.problem.describe()
                ),
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::MemWorkspace;

    fn place<'r>(reader: &'r dyn Workspace, rel: &str) -> Place<'r> {
        Place {
            reader,
            rel: rel.to_string(),
            scope: Scope::Project,
        }
    }

    #[test]
    fn nested_names_and_the_later_source_wins() {
        let ws = MemWorkspace::new()
            .file(
                "a/.opencode/command/git/commit.md",
                "---\ndescription: c\n---\n\n body \n",
            )
            .file("a/.opencode/command/dup.md", "near")
            .file(".opencode/commands/dup.md", "root");
        let places = [
            place(&ws, "a/.opencode/command"),
            place(&ws, ".opencode/commands"),
        ];
        let found = load(&[], &places, true);
        let commit = found.find("git/commit").expect("nested");
        assert_eq!(commit.template, "body");
        assert_eq!(commit.description.as_deref(), Some("c"));
        assert_eq!(found.find("dup").map(|c| c.template.as_str()), Some("root"));
        let lost = &found.commands[1];
        assert_eq!(lost.name, "dup");
        assert!(lost.shadowed_by.is_some());
    }

    #[test]
    fn a_config_template_that_is_no_string_is_a_warning() {
        let value = serde_json::json!({"command": {"a": {"template": 3}, "b": {"template": "t"}}});
        let config = Parsed {
            shown: "opencode.json".into(),
            scope: Scope::Project,
            value,
        };
        let found = load(&[config], &[], true);
        assert_eq!(found.commands.len(), 1);
        assert!(
            found.diagnostics[0]
                .reason
                .contains("`template` is not a string")
        );
    }

    #[test]
    fn an_untrusted_project_directory_is_withheld() {
        let ws = MemWorkspace::new().file(".opencode/command/x.md", "x");
        let found = load(&[], &[place(&ws, ".opencode/command")], false);
        assert!(found.commands.is_empty());
        assert_eq!(found.withheld.len(), 1);
    }
}
