//! Gemini CLI's commands and skills of one run (SPEC §16.4), as the one
//! interface the CLI asks: `commands list`, completion, `expand`,
//! `explain /name`, `snapshot`'s texts, and the skills listing message.
//!
//! Choices the spec leaves open:
//! - `commands list` shows the commands Gemini offers (sorted by name,
//!   `renamed_from` on a renamed one), then the files it offers nothing
//!   for (`malformed` for invalid TOML or no string `prompt`; `shadowed`
//!   for one lost in a clash; `unreadable` for one the preview did not
//!   read), then the skills (kind `skill`: Gemini has no slash command for
//!   them, so they are not user-invocable and not completed).
//! - A built-in name (`/help`) or a name that a clash left to nobody
//!   (`/dup` after `/user.dup` and `/workspace.dup`) expands nothing, with
//!   a line saying why.
//! - The skills listing is the first message (Gemini sends it in its
//!   system instruction, before the user's context files); when the
//!   repository replaces the system prompt (SPEC §16.5), Gemini sends no
//!   listing and neither does the preview (an info line says so).

use std::cell::OnceCell;

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::gemini::commands::{
    self, BUILT_INS, CommandDir, Commands, Refusal, commands_dir,
};
use crate::prompt::agents::gemini::expand::{self, FileScope, InjectedFile, parse_invocation};
use crate::prompt::agents::gemini::skills::{self, GeminiSkill, SKILL_DIRS, SkillDir};
use crate::prompt::command::claude_catalog::Placeholder;
use crate::prompt::command::{Expansion, cannot_invoke};
use crate::prompt::compare::{Offered, OfferedKind};
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    EntryText, NamePlace, ResolvedName, extras, name_kind_scope_table, unknown_command,
    withhold_dirs,
};
use crate::prompt::profile::seam::ProfileError;
use crate::prompt::profile::{Part, PartKind, ProfileMessage, ProfileTurn0};
use crate::prompt::text::{cell, one_line};
use crate::prompt::tiers::{Fate, Tier};
use crate::prompt::turn0::{Provenance, Role};
use crate::prompt::walk::Scope;
use crate::workspace::{EntryKind, Workspace, join};

/// Gemini's commands and skills over one run.
pub struct GeminiCatalog<'r> {
    /// The workspace reader (confined).
    pub project: &'r dyn Workspace,
    /// Gemini's home (holding `.gemini` and `.agents`), when there is one.
    pub home: Option<&'r dyn Workspace>,
    /// The start directory, workspace-relative.
    pub at: &'r str,
    /// Whether the workspace is trusted.
    pub trusted: bool,
    /// True when the repository replaces Gemini's system prompt, which
    /// then holds no skills listing.
    pub system_replaced: bool,
    commands: OnceCell<Commands>,
    skills: OnceCell<SkillsFound>,
}

/// The skills of a run, what was said about them, and the project's skill
/// directories an untrusted workspace withheld.
struct SkillsFound {
    skills: Vec<GeminiSkill>,
    diagnostics: Vec<Diagnostic>,
    withheld: Vec<String>,
}

impl<'r> GeminiCatalog<'r> {
    /// The catalog of a run.
    pub fn new(
        project: &'r dyn Workspace,
        home: Option<&'r dyn Workspace>,
        at: &'r str,
        trusted: bool,
        system_replaced: bool,
    ) -> Self {
        Self {
            project,
            home,
            at,
            trusted,
            system_replaced,
            commands: OnceCell::new(),
            skills: OnceCell::new(),
        }
    }

    /// True when the start directory is Gemini's home, whose commands and
    /// skills are then the user's only.
    fn at_home(&self) -> bool {
        self.home
            .is_some_and(|home| crate::prompt::walk::absolute(self.project, self.at) == home.root())
    }

    /// The project directory `rel` below the start directory when it is
    /// read: `None` at home or (listed as withheld) when untrusted.
    fn project_dir(&self, rel: &str, withheld: &mut Vec<String>) -> Option<String> {
        if self.at_home() {
            return None;
        }
        let dir = join(self.at, rel);
        if !self.trusted {
            if matches!(self.project.stat(&dir), Ok(EntryKind::Dir)) {
                withheld.push(self.project.display(&dir));
            }
            return None;
        }
        Some(dir)
    }

    /// Every command, read once.
    pub fn commands(&self) -> &Commands {
        self.commands.get_or_init(|| {
            let user = commands_dir("");
            let mut withheld = Vec::new();
            let project = self.project_dir(&commands_dir(""), &mut withheld);
            let mut dirs = Vec::new();
            if let Some(home) = self.home {
                dirs.push(CommandDir {
                    reader: home,
                    rel: &user,
                    scope: Scope::User,
                });
            }
            if let Some(project) = &project {
                dirs.push(CommandDir {
                    reader: self.project,
                    rel: project,
                    scope: Scope::Project,
                });
            }
            let mut found = commands::load(&dirs);
            if let Some(dir) = withheld.pop() {
                found.diagnostics.insert(0, withheld_line(&dir, "commands"));
                found.withheld = Some(dir);
            }
            found
        })
    }

    /// Every skill Gemini lists, what was said, and the withheld skill
    /// directories.
    fn skills(&self) -> &SkillsFound {
        self.skills.get_or_init(|| {
            let mut withheld = Vec::new();
            let mut dirs: Vec<(&dyn Workspace, String, Scope)> = Vec::new();
            if let Some(home) = self.home {
                for rel in SKILL_DIRS {
                    dirs.push((home, rel.to_string(), Scope::User));
                }
            }
            for rel in SKILL_DIRS {
                if let Some(dir) = self.project_dir(rel, &mut withheld) {
                    dirs.push((self.project, dir, Scope::Project));
                }
            }
            let dirs: Vec<SkillDir<'_>> = dirs
                .iter()
                .map(|(reader, rel, scope)| SkillDir {
                    reader: *reader,
                    rel,
                    scope: *scope,
                })
                .collect();
            let (skills, mut diagnostics) = skills::list(&dirs);
            for dir in &withheld {
                diagnostics.insert(0, withheld_line(dir, "skills"));
            }
            SkillsFound {
                skills,
                diagnostics,
                withheld,
            }
        })
    }

    fn withheld_any(&self) -> bool {
        self.commands().withheld.is_some() || !self.skills().withheld.is_empty()
    }
}

/// The info line for a project directory an untrusted workspace withholds.
fn withheld_line(dir: &str, what: &str) -> Diagnostic {
    Diagnostic::info(
        dir,
        format!("the workspace is not trusted, so Gemini CLI's {what} here are withheld"),
    )
}

impl Catalog for GeminiCatalog<'_> {
    fn list(&self) -> Result<CatalogListing, ProfileError> {
        let found = self.commands();
        let mut rows: Vec<CatalogRow> = found
            .commands
            .iter()
            .map(|c| {
                let mut row = CatalogRow::plain(
                    c.name.clone(),
                    "command",
                    c.scope.into(),
                    c.source.clone(),
                    c.command.description.clone(),
                    false,
                );
                row.renamed_from.clone_from(&c.renamed_from);
                row
            })
            .collect();
        for refused in &found.refused {
            let (fate, shadowed_by) = match &refused.why {
                Refusal::Invalid(_) => ("malformed", None),
                Refusal::Replaced(by) => ("shadowed", Some(by.clone())),
                Refusal::Unread(_) => ("unreadable", None),
            };
            rows.push(CatalogRow {
                name: refused.name.clone().unwrap_or_default(),
                kind: "command",
                scope: refused.scope.into(),
                source: refused.source.clone(),
                description: None,
                argument_hint: None,
                fate,
                shadowed_by,
                hidden_from_model: true,
                user_invocable: false,
                frontmatter: None,
                renamed_from: None,
            });
        }
        let found_skills = self.skills();
        for skill in &found_skills.skills {
            let mut row = CatalogRow::plain(
                skill.name.clone(),
                "skill",
                skill.scope.into(),
                skill.source.clone(),
                skill.description.clone(),
                false,
            );
            row.user_invocable = false;
            rows.push(row);
        }
        let mut diagnostics = found.diagnostics.clone();
        diagnostics.extend(found_skills.diagnostics.iter().cloned());
        Ok(CatalogListing {
            rows,
            diagnostics,
            withheld: self.withheld_any(),
        })
    }

    /// `NAME KIND SCOPE DESCRIPTION`, commands as `/NAME`, a note on a
    /// renamed or refused file.
    fn table(&self, rows: &[CatalogRow]) -> String {
        name_kind_scope_table(rows, |row| {
            match (row.fate, &row.renamed_from, &row.shadowed_by) {
                ("winner", Some(from), _) => format!(
                    "{}  (renamed from /{} on a name clash)",
                    cell(row.description.as_deref().unwrap_or_default()),
                    one_line(from)
                ),
                ("winner", None, _) => cell(row.description.as_deref().unwrap_or_default()),
                ("shadowed", _, Some(by)) => format!("(lost to {} in a name clash)", one_line(by)),
                (fate, _, _) => format!("({fate}: {}, not offered)", one_line(&row.source)),
            }
        })
    }

    fn completion_names(&self) -> Vec<(String, Option<String>)> {
        let commands = self.commands().commands.iter();
        commands
            .map(|c| (format!("/{}", c.name), Some(c.command.description.clone())))
            .collect()
    }

    /// The skills listing, first (SPEC §16.6); the commands and skills
    /// for `compare`.
    fn add_listing(&self, turn0: &mut ProfileTurn0) -> Result<Vec<Offered>, ProfileError> {
        let found = self.commands();
        let SkillsFound {
            skills,
            diagnostics: skill_diagnostics,
            withheld,
        } = self.skills();
        let mut offered: Vec<Offered> = found
            .commands
            .iter()
            .map(|c| Offered {
                path: c.source.clone(),
                scope: c.scope,
                kind: OfferedKind::Command,
                nested: c.renamed_from.as_deref().unwrap_or(&c.name).contains(':'),
                withheld: false,
            })
            .collect();
        offered.extend(skills.iter().map(|s| Offered {
            path: s.source.clone(),
            scope: s.scope,
            kind: OfferedKind::Skill,
            nested: false,
            withheld: false,
        }));
        withhold_dirs(found.withheld.iter().chain(withheld), &mut offered, turn0);
        turn0.diagnostics.extend(skill_diagnostics.iter().cloned());
        if skills.is_empty() {
            return Ok(offered);
        }
        if self.system_replaced {
            turn0.diagnostics.push(Diagnostic::info(
                skills[0].source.clone(),
                format!(
                    "{} skill(s) found, but the repository replaces Gemini CLI's system prompt, \
                     which then holds no skills listing",
                    skills.len()
                ),
            ));
            return Ok(offered);
        }
        let parts: Vec<Part> = skills
            .iter()
            .map(|skill| {
                Part::listing_entry(&skill.source, skill.scope, PartKind::Skills, skill.entry())
            })
            .collect();
        let text = skills::listing_text(parts.iter().map(|p| p.content.as_str()));
        let mut message = ProfileMessage::with_text(Provenance::Skills, parts, text);
        message.role = Role::System;
        turn0.messages.insert(0, message);
        Ok(offered)
    }

    fn expand(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        let found = self.commands();
        let mut diagnostics = found.diagnostics.clone();
        let unchanged = |diagnostics| CatalogExpansion {
            expansion: Expansion::unchanged(input),
            diagnostics,
            not_expanded: None,
            withheld: found.withheld.is_some(),
            extras: serde_json::Map::new(),
        };
        let Some(invocation) = parse_invocation(input) else {
            return Ok(unchanged(diagnostics));
        };
        let Some(command) = found.find(invocation.name) else {
            if let Some(why) = self.why_nothing(invocation.name) {
                // A built-in is what Gemini runs for the line: worth knowing;
                // a name a clash or a refused file left to nobody is not what
                // the user meant.
                let severity = if BUILT_INS.contains(&invocation.name) {
                    Severity::Info
                } else {
                    Severity::Warning
                };
                diagnostics.push(Diagnostic::new(severity, None, why));
            }
            return Ok(unchanged(diagnostics));
        };
        let scope = FileScope {
            project: self.project,
            at: self.at,
            trusted: self.trusted,
        };
        let expanded = match expand::expand(command, &invocation, &scope) {
            Ok(expanded) => expanded,
            Err(unclosed) => {
                diagnostics.push(Diagnostic::warning(
                    &command.source,
                    format!(
                        "an `{}` without its closing brace: Gemini CLI refuses this command and \
                         sends nothing",
                        unclosed.trigger
                    ),
                ));
                return Ok(unchanged(diagnostics));
            }
        };
        diagnostics.extend(expanded.diagnostics.iter().cloned());
        let fields = ExpandFields {
            kind: Some("command"),
            renamed_from: command.renamed_from.as_deref(),
            parts: expanded.parts.len(),
            shell: &expanded.shell,
            files: &expanded.files,
        };
        Ok(CatalogExpansion {
            expansion: Expansion {
                expanded: true,
                name: Some(command.name.clone()),
                args: invocation.words.iter().map(|w| (*w).to_string()).collect(),
                source: Some(command.source.clone()),
                output: expanded.text(),
            },
            diagnostics,
            not_expanded: None,
            withheld: false,
            extras: extras(fields),
        })
    }

    fn cannot_invoke(&self, name: &str) -> String {
        cannot_invoke(name)
    }

    fn unknown(&self, input: &str) -> String {
        let name = parse_invocation(input).map(|i| i.name);
        match name.and_then(|name| self.why_nothing(name)) {
            Some(why) => why,
            None => unknown_command(name),
        }
    }

    /// The files that give the name, in Gemini's claiming order (the
    /// user's, then the project's): the one it offers, those a clash
    /// renamed away from it (`not found`, saying their new name), those it
    /// refuses; then the skills of the name.
    fn explain(&self, name: &str) -> Result<CatalogExplanation, ProfileError> {
        let name = name.strip_prefix('/').unwrap_or(name);
        let found = self.commands();
        let mut places = Vec::new();
        let mut winner = None;
        let mut description = None;
        let tier = |scope: Scope| {
            if scope == Scope::User {
                Tier::User
            } else {
                Tier::Project
            }
        };
        for c in &found.commands {
            let fate = if c.name == name {
                winner = Some(c.source.clone());
                description = Some(c.command.description.clone());
                Fate::Winner
            } else if c.renamed_from.as_deref() == Some(name) {
                Fate::NotFound {
                    reason: format!("renamed /{} on a name clash", c.name),
                }
            } else {
                continue;
            };
            places.push(NamePlace {
                source: c.source.clone(),
                tier: tier(c.scope),
                withheld: false,
                fate,
            });
        }
        for refused in found
            .refused
            .iter()
            .filter(|r| r.name.as_deref() == Some(name))
        {
            let fate = match &refused.why {
                Refusal::Invalid(invalid) => Fate::Malformed {
                    reason: invalid.words(),
                },
                Refusal::Replaced(by) => Fate::Shadowed { by: by.clone() },
                Refusal::Unread(why) => Fate::Unreadable { cause: why.clone() },
            };
            places.push(NamePlace {
                source: refused.source.clone(),
                tier: tier(refused.scope),
                withheld: false,
                fate,
            });
        }
        places.sort_by_key(|p| p.tier != Tier::User);
        let mut diagnostics = Vec::new();
        if let Some(why) = self.why_nothing(name).filter(|_| winner.is_none()) {
            diagnostics.push(Diagnostic::new(Severity::Info, None, why));
        }
        for skill in self.skills().skills.iter().filter(|s| s.name == name) {
            diagnostics.push(Diagnostic::info(
                &skill.source,
                format!(
                    "a skill named {name}: Gemini CLI lists it to the model, which activates it; \
                     it is no slash command"
                ),
            ));
        }
        Ok(CatalogExplanation::Resolved(Box::new(ResolvedName {
            places,
            winner,
            description,
            frontmatter_keys: Vec::new(),
            details: None,
            alias: None,
            diagnostics,
        })))
    }

    fn texts(&self) -> Result<CatalogTexts, ProfileError> {
        let found = self.commands();
        Ok(CatalogTexts {
            texts: found
                .commands
                .iter()
                .map(|c| EntryText {
                    name: c.name.clone(),
                    source: c.source.clone(),
                    text: c.command.prompt.clone(),
                })
                .collect(),
            diagnostics: found.diagnostics.clone(),
            withheld: found.withheld.is_some(),
        })
    }
}

impl GeminiCatalog<'_> {
    /// Why `/name`, which no command holds, expands nothing, when there is
    /// more to say than that it is unknown.
    fn why_nothing(&self, name: &str) -> Option<String> {
        let found = self.commands();
        let renamed: Vec<&str> = found
            .commands
            .iter()
            .filter(|c| c.renamed_from.as_deref() == Some(name))
            .map(|c| c.name.as_str())
            .collect();
        if !renamed.is_empty() {
            let names: Vec<String> = renamed.iter().map(|n| format!("/{n}")).collect();
            return Some(format!(
                "/{name} is nobody's: Gemini CLI renamed the files that clash on it to {}",
                names.join(", ")
            ));
        }
        if BUILT_INS.contains(&name) {
            return Some(format!(
                "/{name} is a built-in command of Gemini CLI, not a custom one: nothing to expand"
            ));
        }
        let refused = found
            .refused
            .iter()
            .find(|r| r.name.as_deref() == Some(name))?;
        Some(format!(
            "/{name}: {} offers no command (see its warning)",
            refused.source
        ))
    }
}

/// What an expansion under Gemini CLI adds to `expand`'s JSON (SPEC
/// §16.4): the kind, the name the file gives when a clash renamed it, how
/// many parts Gemini sends, the shell commands never run and the files
/// the `@{…}`s name.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ExpandFields<'a> {
    #[cfg_attr(test, schemars(extend("enum" = ["command", "skill", null])))]
    kind: Option<&'static str>,
    renamed_from: Option<&'a str>,
    parts: usize,
    shell: &'a [Placeholder],
    files: &'a [InjectedFile],
}
