//! Claude Code's names on the precedence engine: every entry of the
//! command and skill directories with its fate, and one name resolved,
//! a skill's `name:` key included.

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::command::claude_catalog::files::{ClaudeFile, ClaudeFiles, kind_of};
use crate::prompt::command::claude_listing::Kind;
use crate::prompt::tiers::{
    Fate, Layout, Losers, NameResolution, ReadPolicy, SearchDir, Tier, resolve_all, resolve_name,
};
use crate::prompt::turn0::ReadFault;
use crate::workspace::sort_by_name_then;

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')
}

/// True when `/name` can be typed under the Claude profile: the engine's
/// grammar (SPEC §5.1) with `:` between the levels of a nested name
/// (SPEC §14.5).
pub fn valid_claude_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(is_name_char)
}

/// Why `/name` cannot be typed under the Claude profile.
pub fn cannot_invoke_claude(name: &str) -> String {
    format!(
        "/{name} cannot be invoked: command names use only ASCII letters, digits, -, _, . and :"
    )
}

/// A typed `/name arguments` line under the Claude profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaudeInvocation<'a> {
    /// The name, without its `/`, always [`valid_claude_name`].
    pub name: &'a str,
    /// Everything after the name, as typed (the dialect trims it).
    pub args: &'a str,
}

/// Parses `input` as an invocation: leading spaces and tabs, `/`, a name
/// of [`valid_claude_name`] characters, then the arguments.
pub fn parse_claude_invocation(input: &str) -> Option<ClaudeInvocation<'_>> {
    let rest = input.trim_start_matches([' ', '\t']).strip_prefix('/')?;
    let end = rest.find(|c| !is_name_char(c)).unwrap_or(rest.len());
    (end > 0).then(|| ClaudeInvocation {
        name: &rest[..end],
        args: &rest[end..],
    })
}

/// One usable file for a name: the winner, a file it shadows, or a
/// withheld file.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaudeEntry {
    /// The name it offers (its path with `:`, or its skill directory).
    pub name: String,
    /// Command or skill.
    pub kind: Kind,
    /// Which search directory holds it.
    pub dir_index: usize,
    /// Its directory's tier (`user` or `project`).
    pub tier: Tier,
    /// The file, as displayed.
    pub source: String,
    /// [`Fate::Winner`], [`Fate::Shadowed`] or [`Fate::Withheld`].
    pub fate: Fate,
    /// The file as read, when the listing read it.
    pub file: Option<ClaudeFile>,
}

impl ClaudeEntry {
    /// True when Claude Code leaves it out of the skills listing
    /// (`disable-model-invocation: true`).
    pub fn hidden_from_model(&self) -> bool {
        self.file
            .as_ref()
            .is_some_and(ClaudeFile::hidden_from_model)
    }

    /// True when the user may type it: a name of the grammar, and not
    /// `user-invocable: false`.
    pub fn user_invocable(&self) -> bool {
        valid_claude_name(&self.name) && !self.file.as_ref().is_some_and(ClaudeFile::model_only)
    }
}

/// Every entry of the directories, with what was said about them.
#[derive(Debug)]
pub struct ClaudeListing {
    /// The usable files, sorted by name, each name's in precedence order.
    pub entries: Vec<ClaudeEntry>,
    /// Diagnostics about every directory and file looked at.
    pub diagnostics: Vec<Diagnostic>,
    /// Read faults (also in `diagnostics`).
    pub faults: Vec<ReadFault>,
}

impl ClaudeListing {
    /// The winners, in name order.
    pub fn winners(&self) -> impl Iterator<Item = &ClaudeEntry> {
        self.entries.iter().filter(|e| e.fate == Fate::Winner)
    }
}

/// Lists every entry of `dirs` under `policy` (what is read: the heads of
/// files that can win for `commands list`, nothing for `snapshot`), read
/// as `files` says. Names outside the grammar get a "cannot be invoked"
/// warning.
pub fn list_claude(
    dirs: &[SearchDir<'_>],
    policy: ReadPolicy,
    files: &ClaudeFiles,
) -> ClaudeListing {
    let resolution = resolve_all(dirs, files, policy);
    let mut diagnostics = resolution.diagnostics;
    let mut entries: Vec<ClaudeEntry> = resolution
        .candidates
        .into_iter()
        .filter(|c| {
            matches!(
                c.fate,
                Fate::Winner | Fate::Shadowed { .. } | Fate::Withheld
            )
        })
        .map(|c| {
            let dir = &dirs[c.dir_index];
            ClaudeEntry {
                kind: kind_of(dir),
                tier: dir.tier,
                name: c.name,
                dir_index: c.dir_index,
                source: c.source,
                fate: c.fate,
                file: c.item,
            }
        })
        .collect();
    sort_by_name_then(&mut entries, |entry| (&entry.name, entry.dir_index));
    for entry in &entries {
        if matches!(entry.fate, Fate::Winner | Fate::Withheld) && !valid_claude_name(&entry.name) {
            diagnostics.push(Diagnostic::warning(
                &entry.source,
                cannot_invoke_claude(&entry.name),
            ));
        }
    }
    ClaudeListing {
        entries,
        diagnostics,
        faults: resolution.faults,
    }
}

/// The skill a `name:` key makes `name` a second name of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alias {
    /// The name typed.
    pub name: String,
    /// The skill's own name (its directory).
    pub skill: String,
    /// Its SKILL.md, as displayed.
    pub source: String,
}

/// One name resolved: every directory's place and candidate, and, when no
/// file holds the name itself, the skill whose `name:` it is.
#[derive(Debug)]
pub struct ClaudeResolution {
    /// The candidates of the name (of the skill's own name, through an
    /// alias), in precedence order.
    pub found: NameResolution<ClaudeFile>,
    /// Set when the name was resolved through a skill's `name:` key.
    pub alias: Option<Alias>,
}

/// Resolves `name` (SPEC §14.5): the winner is read whole, files after it
/// only looked at. A name no file holds may be a skill's `name:` key
/// (observed: a file's own name always beats such a key, and a command's
/// `name:` key is no name at all); among skills declaring the same key,
/// the first in precedence order wins.
pub fn resolve_claude(dirs: &[SearchDir<'_>], name: &str) -> ClaudeResolution {
    let policy = ReadPolicy {
        contender: true,
        losers: Losers::Look,
        withheld: false,
    };
    let found = resolve_name(dirs, name, &ClaudeFiles::WHOLE, policy);
    let claimed = found
        .resolution
        .candidates
        .iter()
        .any(|c| matches!(c.fate, Fate::Winner | Fate::Withheld));
    if claimed || !found.resolution.faults.is_empty() {
        return ClaudeResolution { found, alias: None };
    }
    match alias_of(dirs, name) {
        Some(alias) => ClaudeResolution {
            found: resolve_name(dirs, &alias.skill, &ClaudeFiles::WHOLE, policy),
            alias: Some(alias),
        },
        None => ClaudeResolution { found, alias: None },
    }
}

/// The first skill (in precedence order, active before withheld) whose
/// `name:` key is `name`.
pub fn alias_of(dirs: &[SearchDir<'_>], name: &str) -> Option<Alias> {
    let skills: Vec<SearchDir<'_>> = dirs
        .iter()
        .filter(|d| d.layout == Layout::SkillDirs)
        .cloned()
        .collect();
    let policy = ReadPolicy {
        contender: true,
        losers: Losers::Skip,
        withheld: true,
    };
    let resolution = resolve_all(&skills, &ClaudeFiles::KEYS, policy);
    let declares = |fate: &Fate| {
        resolution.candidates.iter().find(|c| {
            c.fate == *fate
                && c.item
                    .as_ref()
                    .and_then(ClaudeFile::declared_name)
                    .is_some_and(|declared| declared == name)
        })
    };
    let skill = declares(&Fate::Winner).or_else(|| declares(&Fate::Withheld))?;
    Some(Alias {
        name: name.to_string(),
        skill: skill.name.clone(),
        source: skill.source.clone(),
    })
}

/// The diagnostic saying a name was resolved through a skill's `name:`.
pub fn alias_note(alias: &Alias) -> Diagnostic {
    Diagnostic::new(
        Severity::Info,
        Some(alias.source.clone()),
        format!(
            "/{} is the name: of skill /{}; Claude Code invokes that skill by either name",
            alias.name, alias.skill
        ),
    )
}
