//! Gemini CLI's custom commands (SPEC §16.4): the `.toml` files below
//! `~/.gemini/commands` and `<at>/.gemini/commands`, each read once
//! ([`super::toml_command`]), and the names Gemini CLI 0.61.0 gives them
//! when they clash (its `SlashCommandResolver`, observed: recorded cases
//! `gemini-commands/clash-*`).
//!
//! The clash rule, as Gemini runs it: names are claimed in order — its
//! built-in commands, then the user's files, then the project's. A file
//! whose name is taken is renamed `user.NAME` or `workspace.NAME` (then
//! `…1`, `…2` while that is taken too), and the file holding the name is
//! renamed the same way unless it is a built-in: a user and a project
//! `dup` become `/user.dup` and `/workspace.dup`, and `/dup` is nobody's.
//!
//! Choices the spec leaves open:
//! - Files are found as Gemini's glob finds them (every `*.toml` at any
//!   depth, dot files included, links followed), within the tree bounds of
//!   SPEC §15.6 ([`limits::MAX_TREE_DEPTH`], [`limits::MAX_TREE_ENTRIES`]);
//!   a cut walk is a warning. One file is read up to
//!   [`limits::MAX_GEMINI_FILE_BYTES`] and all of them up to
//!   [`limits::MAX_GEMINI_COMMAND_BYTES`]; a file past either is skipped
//!   with a warning, before any TOML is parsed.
//! - Two files of one directory whose names sanitise alike clash by the
//!   same rule in listing order; when both renames give one name, the
//!   second file replaces the first, as in Gemini, and the lost one is
//!   listed `shadowed`.
//! - In an untrusted workspace the project's directory is withheld (named
//!   in an info line, never listed); the user's commands load. When the
//!   start directory is Gemini's home itself, its commands are the user's
//!   only, as Gemini skips the project directory then.

use std::collections::{HashMap, HashSet};

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::gemini::spec::DOT_GEMINI;
use crate::prompt::agents::gemini::toml_command::{self, Invalid, TOML_SUFFIX, command_name};
use crate::prompt::tiers::walk_tree_following_links;
use crate::prompt::walk::Scope;
use crate::workspace::{Workspace, base_name, join};

/// Gemini CLI 0.61.0's built-in commands with their default settings:
/// they claim their names before any file (alternative names do not).
pub const BUILT_INS: &[&str] = &[
    "about",
    "agents",
    "auth",
    "bug",
    "bug-memory",
    "chat",
    "clear",
    "commands",
    "compress",
    "copy",
    "corgi",
    "directory",
    "docs",
    "editor",
    "export-session",
    "extensions",
    "footer",
    "gemma",
    "help",
    "ide",
    "init",
    "mcp",
    "memory",
    "model",
    "policies",
    "privacy",
    "quit",
    "resume",
    "rewind",
    "settings",
    "setup-github",
    "shortcuts",
    "skills",
    "stats",
    "tasks",
    "terminal-setup",
    "theme",
    "tools",
    "vim",
];

/// A command directory below a reader: where its commands lie and what
/// Gemini prefixes their names with on a clash.
#[derive(Clone, Copy)]
pub struct CommandDir<'a> {
    /// The reader the directory is read through.
    pub reader: &'a dyn Workspace,
    /// The directory, relative to the reader.
    pub rel: &'a str,
    /// `user` or `project`.
    pub scope: Scope,
}

impl CommandDir<'_> {
    /// Gemini's clash prefix for the directory's commands.
    fn prefix(&self) -> &'static str {
        match self.scope {
            Scope::User => "user",
            _ => "workspace",
        }
    }
}

/// The `commands` directory below `.gemini` in `dir` (`""`: the reader's
/// root).
pub fn commands_dir(dir: &str) -> String {
    join(&join(dir, DOT_GEMINI), "commands")
}

/// A command Gemini offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeminiCommand {
    /// The name it is typed by, after clashes.
    pub name: String,
    /// The name its path gives, when a clash renamed it.
    pub renamed_from: Option<String>,
    /// `user` or `project`.
    pub scope: Scope,
    /// The file, as its reader displays it.
    pub source: String,
    /// Its `prompt` and `description`.
    pub command: toml_command::TomlCommand,
}

/// A command file Gemini offers nothing for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The name its path gives, when it gives one.
    pub name: Option<String>,
    /// `user` or `project`.
    pub scope: Scope,
    /// The file, as displayed.
    pub source: String,
    /// Why.
    pub why: Refusal,
}

/// Why a command file offers nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Gemini refuses it (bad TOML, no string `prompt`).
    Invalid(Invalid),
    /// Another file took its name in the clash rule (Gemini keeps one of
    /// two files renamed alike): that file, as displayed.
    Replaced(String),
    /// The preview did not read it (too large, unreadable): why.
    Unread(String),
}

/// Every command of one run.
#[derive(Debug, Default)]
pub struct Commands {
    /// The commands Gemini offers, sorted by name.
    pub commands: Vec<GeminiCommand>,
    /// The files it offers nothing for, in reading order.
    pub refused: Vec<Refused>,
    /// What was said about the directories and files.
    pub diagnostics: Vec<Diagnostic>,
    /// The project's command directory, as displayed, when trust withheld
    /// it.
    pub withheld: Option<String>,
}

impl Commands {
    /// The command typed as `name`.
    pub fn find(&self, name: &str) -> Option<&GeminiCommand> {
        self.commands.iter().find(|c| c.name == name)
    }
}

/// Reads the commands of `dirs` (the user's first, then the project's)
/// and names them as Gemini does.
pub fn load(dirs: &[CommandDir<'_>]) -> Commands {
    let mut out = Commands::default();
    let mut budget = limits::MAX_GEMINI_COMMAND_BYTES;
    let mut found = Vec::new();
    for dir in dirs {
        let tree = walk_tree_following_links(dir.reader, dir.rel);
        if tree.cut {
            out.diagnostics.push(Diagnostic::warning(
                dir.reader.display(dir.rel),
                format!(
                    "command files deeper than {} levels or past {} entries are not read",
                    limits::MAX_TREE_DEPTH,
                    limits::MAX_TREE_ENTRIES
                ),
            ));
        }
        let prefix = format!("{}/", dir.rel.trim_end_matches('/'));
        for rel in tree.files.iter().filter(|f| f.ends_with(TOML_SUFFIX)) {
            let under = rel.strip_prefix(&prefix).unwrap_or(rel);
            let source = dir.reader.display(rel);
            let name = command_name(under);
            let refuse = |why| Refused {
                name: name.clone(),
                scope: dir.scope,
                source: source.clone(),
                why,
            };
            let Some(plain) = name.clone() else {
                out.diagnostics.push(Diagnostic::info(
                    &source,
                    "a file named only `.toml` gives no command name: Gemini CLI offers nothing \
                     anyone can type",
                ));
                continue;
            };
            let cap = limits::MAX_GEMINI_FILE_BYTES.min(budget);
            let text = match dir.reader.read(rel, cap) {
                Ok(read) if read.is_truncated() => {
                    let why = format!(
                        "{} bytes: past what the preview reads ({} bytes per file, {} in all); \
                         not parsed",
                        read.size,
                        limits::MAX_GEMINI_FILE_BYTES,
                        limits::MAX_GEMINI_COMMAND_BYTES
                    );
                    out.diagnostics.push(Diagnostic::warning(&source, &why));
                    out.refused.push(refuse(Refusal::Unread(why)));
                    continue;
                }
                Ok(read) => {
                    budget = budget.saturating_sub(read.size);
                    String::from_utf8_lossy(&read.bytes).into_owned()
                }
                Err(err) => {
                    let why = format!("not read: {err}");
                    out.diagnostics.push(Diagnostic::warning(&source, &why));
                    out.refused.push(refuse(Refusal::Unread(why)));
                    continue;
                }
            };
            match toml_command::parse(&text, base_name(rel)) {
                Ok(command) => found.push((plain, *dir, source, command)),
                Err(invalid) => {
                    out.diagnostics.push(Diagnostic::warning(
                        &source,
                        format!(
                            "{}: Gemini CLI offers no command for this file (/{plain} is not \
                             one)",
                            invalid.words()
                        ),
                    ));
                    out.refused.push(refuse(Refusal::Invalid(invalid)));
                }
            }
        }
    }
    let claims = resolve(
        found
            .iter()
            .map(|(name, dir, _, _)| (name.as_str(), dir.prefix())),
    );
    let sources: Vec<String> = found
        .iter()
        .map(|(_, _, source, _)| source.clone())
        .collect();
    for ((plain, dir, source, command), claim) in found.into_iter().zip(claims) {
        match claim {
            Claim::Named(name) => out.commands.push(GeminiCommand {
                renamed_from: (name != plain).then_some(plain),
                name,
                scope: dir.scope,
                source,
                command,
            }),
            Claim::Replaced(by) => out.refused.push(Refused {
                name: Some(plain),
                scope: dir.scope,
                source,
                why: Refusal::Replaced(by.map_or_else(String::new, |j| sources[j].clone())),
            }),
        }
    }
    out.commands.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// What the clash rule gives one file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Claim {
    /// The name it ends up with.
    Named(String),
    /// Lost: a later file took its final name (that file's index).
    Replaced(Option<usize>),
}

/// One holder of a name in Gemini's command map.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holder {
    BuiltIn,
    File(usize),
}

/// Gemini's command map: names in insertion order (a replaced value keeps
/// its place, a deleted name leaves it).
#[derive(Default)]
struct CommandMap {
    slots: Vec<Option<(String, Holder)>>,
    index: HashMap<String, usize>,
}

impl CommandMap {
    fn has(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    fn get(&self, name: &str) -> Option<Holder> {
        let slot = self.index.get(name)?;
        self.slots[*slot].as_ref().map(|(_, holder)| *holder)
    }

    fn set(&mut self, name: String, holder: Holder) -> Option<Holder> {
        if let Some(&slot) = self.index.get(&name) {
            let old = self.slots[slot].replace((name, holder));
            return old.map(|(_, h)| h);
        }
        self.index.insert(name.clone(), self.slots.len());
        self.slots.push(Some((name, holder)));
        None
    }

    fn delete(&mut self, name: &str) {
        if let Some(slot) = self.index.remove(name) {
            self.slots[slot] = None;
        }
    }

    /// `prefix.name`, then `prefix.name1`, `prefix.name2`… until free.
    fn renamed(&self, name: &str, prefix: &str) -> String {
        let base = format!("{prefix}.{name}");
        let mut renamed = base.clone();
        let mut suffix = 1;
        while self.has(&renamed) {
            renamed = format!("{base}{suffix}");
            suffix += 1;
        }
        renamed
    }
}

/// The clash rule over `files` (each `(name, prefix)`, in claiming
/// order), after the built-ins.
fn resolve<'n>(files: impl Iterator<Item = (&'n str, &'static str)>) -> Vec<Claim> {
    let files: Vec<(&str, &str)> = files.collect();
    let mut map = CommandMap::default();
    let mut first: HashSet<&str> = HashSet::new();
    for name in BUILT_INS {
        map.set((*name).to_string(), Holder::BuiltIn);
        first.insert(name);
    }
    let mut prefixes = Vec::with_capacity(files.len());
    for (i, &(name, prefix)) in files.iter().enumerate() {
        prefixes.push(prefix);
        let final_name = if first.contains(name) {
            let renamed = map.renamed(name, prefix);
            if let Some(Holder::File(owner)) = map.get(name) {
                let moved = map.renamed(name, prefixes[owner]);
                map.delete(name);
                map.set(moved, Holder::File(owner));
            }
            renamed
        } else {
            first.insert(name);
            name.to_string()
        };
        map.set(final_name, Holder::File(i));
    }
    let mut final_names: Vec<Option<String>> = vec![None; files.len()];
    for (name, holder) in map.slots.into_iter().flatten() {
        if let Holder::File(i) = holder {
            final_names[i] = Some(name);
        }
    }
    (0..files.len())
        .map(|i| match &final_names[i] {
            Some(name) => Claim::Named(name.clone()),
            None => Claim::Replaced((i + 1..files.len()).find(|&j| {
                final_names[j]
                    .as_ref()
                    .is_some_and(|n| lost_to(n, files[i]))
            })),
        })
        .collect()
}

/// Whether `name` is what a rename of `(plain, prefix)` could give.
fn lost_to(name: &str, (plain, prefix): (&str, &str)) -> bool {
    name.strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|rest| rest.starts_with(plain))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(files: &[(&str, &'static str)]) -> Vec<Claim> {
        resolve(files.iter().copied())
    }

    fn named(name: &str) -> Claim {
        Claim::Named(name.to_string())
    }

    #[test]
    fn a_user_and_a_project_name_both_get_prefixes() {
        let got = names(&[("dup", "user"), ("dup", "workspace"), ("solo", "workspace")]);
        assert_eq!(
            got,
            [named("user.dup"), named("workspace.dup"), named("solo")]
        );
    }

    #[test]
    fn a_built_in_name_renames_only_the_file() {
        let got = names(&[("help", "workspace"), ("help", "user")]);
        assert_eq!(got, [named("workspace.help"), named("user.help")]);
    }

    #[test]
    fn a_taken_rename_gets_a_number() {
        let got = names(&[("user.x", "user"), ("x", "user"), ("x", "workspace")]);
        assert_eq!(
            got,
            [named("user.x"), named("user.x1"), named("workspace.x")]
        );
    }

    #[test]
    fn two_files_renamed_alike_keep_the_second() {
        let got = names(&[("a_b", "user"), ("a_b", "user")]);
        assert_eq!(got, [Claim::Replaced(Some(1)), named("user.a_b")]);
    }
}
