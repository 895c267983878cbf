//! Codex's skills on disk (SPEC §14.6): the skill roots of one run (the
//! chain from the project root to `--at`, `$CODEX_HOME/skills`,
//! `~/.agents/skills`) read through the confined workspace reader and
//! link-following user readers, and every question the CLI asks of them:
//! the listing (`commands list`, the turn-0 listing message, completion)
//! and the `<skill>` blocks a `$NAME` mention adds (`expand`).
//!
//! Choices the spec leaves open:
//! - In an untrusted workspace the skill roots inside it are withheld: not
//!   searched (a skill's name is in its file, which is not read), each one
//!   that exists named in an info line. Roots above the workspace and the
//!   user's are read.
//! - `expand` prints the input as typed, then each block Codex adds after
//!   it, separated by blank lines (Codex sends them as messages of their
//!   own).

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::codex::skills::{SkillListing, list_skills, skill_blocks, skill_roots};
use crate::prompt::command::{Expansion, cannot_invoke};
use crate::prompt::compare::{Offered, OfferedKind};
use crate::prompt::profile::catalog::{
    Catalog, CatalogExpansion, CatalogExplanation, CatalogListing, CatalogRow, CatalogTexts,
    EntryText, ListedEntry, ListedName, extras,
};
use crate::prompt::profile::seam::ProfileError;
use crate::prompt::profile::{
    NotLoaded, NotLoadedReason, Part, PartKind, ProfileMessage, ProfileTurn0,
};
use crate::prompt::text::{aligned_columns, cell, one_line};
use crate::prompt::turn0::Provenance;
use crate::prompt::walk::{Scope, WalkDir};
use crate::workspace::{EntryKind, Workspace};

/// The Codex skill roots of one run, from its chain (laid out once by the
/// run).
pub struct CodexSkills<'r> {
    chain: &'r [WalkDir<'r>],
    codex_home: Option<&'r dyn Workspace>,
    home: Option<&'r dyn Workspace>,
    config_diagnostics: &'r [Diagnostic],
    trusted: bool,
}

/// Every skill Codex lists, with what was said on the way and whether a
/// root was withheld.
#[derive(Debug)]
pub struct CodexListing<'a> {
    /// The skills, in Codex's order.
    pub listing: SkillListing<'a>,
    /// `config.toml` problems, withheld roots, then the listing's own.
    pub diagnostics: Vec<Diagnostic>,
    /// The skill roots of an untrusted workspace left unread, as displayed.
    pub withheld: Vec<String>,
}

/// What `expand --agent codex` shows: the input, and the blocks its
/// `$NAME` mentions add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexExpansion {
    /// `expanded` when a block is added; `name` and `source` are the first
    /// block's skill; `output` the input then every block.
    pub expansion: Expansion,
    /// One `(name, SKILL.md as displayed, block text)` per block, in
    /// Codex's order.
    pub blocks: Vec<(String, String, String)>,
    /// Mentions that add nothing, files that could not be read.
    pub diagnostics: Vec<Diagnostic>,
    /// True when an untrusted workspace's skill root was left unread.
    pub withheld: bool,
}

impl<'r> CodexSkills<'r> {
    /// The roots of a run whose project chain is `chain` (its roots in the
    /// workspace withheld unless `trusted`), with the readers of
    /// `$CODEX_HOME` and the home directory when there are (links
    /// followed: SPEC §3.1); `config_diagnostics` are what reading
    /// `config.toml` said, which the listing repeats.
    pub fn new(
        chain: &'r [WalkDir<'r>],
        codex_home: Option<&'r dyn Workspace>,
        home: Option<&'r dyn Workspace>,
        config_diagnostics: &'r [Diagnostic],
        trusted: bool,
    ) -> Self {
        Self {
            chain,
            codex_home,
            home,
            config_diagnostics,
            trusted,
        }
    }

    /// Searches every root (SPEC §14.6).
    pub fn listing(&self) -> CodexListing<'r> {
        let mut diagnostics = self.config_diagnostics.to_vec();
        let mut roots = skill_roots(self.chain, self.codex_home, self.home);
        let mut withheld = Vec::new();
        if !self.trusted {
            roots.retain(|root| {
                if root.scope != Scope::Project {
                    return true;
                }
                if matches!(root.reader.stat(&root.dir), Ok(EntryKind::Dir)) {
                    let shown = root.reader.display(&root.dir);
                    withheld.push(shown.clone());
                    diagnostics.push(Diagnostic::info(
                        shown,
                        "skills directory withheld: the workspace is not trusted, so its skills \
                         are not read",
                    ));
                }
                false
            });
        }
        let listing = list_skills(&roots);
        diagnostics.extend(listing.diagnostics.iter().cloned());
        CodexListing {
            listing,
            diagnostics,
            withheld,
        }
    }

    /// The input, then the `<skill>` block of every skill its `$NAME`
    /// mentions name (SPEC §14.6).
    pub fn expand_skills(&self, input: &str) -> CodexExpansion {
        let found = self.listing();
        let added = skill_blocks(&found.listing, input);
        let mut diagnostics = found.diagnostics;
        diagnostics.extend(added.diagnostics);
        let blocks: Vec<(String, String, String)> = added
            .blocks
            .iter()
            .map(|block| {
                let shown = found
                    .listing
                    .skills
                    .iter()
                    .find(|s| s.absolute == block.path)
                    .map_or_else(|| block.path.display().to_string(), |s| s.path.clone());
                (block.name.clone(), shown, block.text())
            })
            .collect();
        let mut output = input.to_string();
        for (_, _, text) in &blocks {
            output.push_str("\n\n");
            output.push_str(text);
        }
        let first = blocks.first();
        CodexExpansion {
            expansion: Expansion {
                expanded: first.is_some(),
                name: first.map(|(name, _, _)| name.clone()),
                args: Vec::new(),
                source: first.map(|(_, source, _)| source.clone()),
                output,
            },
            blocks,
            diagnostics,
            withheld: !found.withheld.is_empty(),
        }
    }
}

impl Catalog for CodexSkills<'_> {
    /// Names as Codex lists them, equal names included.
    fn list(&self) -> Result<CatalogListing, ProfileError> {
        let found = self.listing();
        let rows = found.listing.skills.iter().map(|skill| {
            let scope = skill.scope.into();
            let (name, path) = (skill.name.clone(), skill.path.clone());
            CatalogRow::plain(name, "skill", scope, path, skill.description.clone(), false)
        });
        Ok(CatalogListing {
            rows: rows.collect(),
            diagnostics: found.diagnostics,
            withheld: !found.withheld.is_empty(),
        })
    }

    /// `NAME SCOPE DESCRIPTION`, names as `$NAME`, a note on names several
    /// skills share.
    fn table(&self, rows: &[CatalogRow]) -> String {
        let mut lines = vec![["NAME", "SCOPE", "DESCRIPTION"].map(String::from)];
        for row in rows {
            let same = rows.iter().filter(|r| r.name == row.name).count();
            let mut description = cell(row.description.as_deref().unwrap_or_default());
            if same > 1 {
                description.push_str(&format!(
                    "  (one of {same} skills named so: Codex adds none of them for ${})",
                    one_line(&row.name)
                ));
            }
            lines.push([
                format!("${}", one_line(&row.name)),
                row.scope.as_str().to_string(),
                description,
            ]);
        }
        aligned_columns(&lines)
    }

    fn completion_names(&self) -> Vec<(String, Option<String>)> {
        let found = self.listing();
        let skills = found.listing.skills.iter();
        skills
            .map(|skill| (format!("${}", skill.name), Some(skill.description.clone())))
            .collect()
    }

    /// Every skill, `- NAME: DESCRIPTION (file: PATH)`, in Codex's order;
    /// its budget rule is not reproduced, so the listing is sent whole and
    /// a warning says when it passes
    /// [`limits::CODEX_SKILLS_LISTING_WARN_BYTES`].
    fn add_listing(&self, turn0: &mut ProfileTurn0) -> Result<Vec<Offered>, ProfileError> {
        let found = self.listing();
        turn0.diagnostics.extend(found.diagnostics);
        turn0
            .not_loaded
            .extend(found.withheld.iter().map(|root| NotLoaded {
                path: root.clone(),
                scope: Scope::Project,
                reason: NotLoadedReason::Withheld,
            }));
        let (parts, mut offered): (Vec<Part>, Vec<Offered>) = found
            .listing
            .skills
            .iter()
            .map(|skill| {
                let part =
                    Part::listing_entry(&skill.path, skill.scope, PartKind::Skills, skill.entry());
                let offered = Offered {
                    path: skill.path.clone(),
                    scope: skill.scope,
                    kind: OfferedKind::Skill,
                    nested: false,
                    withheld: false,
                };
                (part, offered)
            })
            .unzip();
        offered.extend(found.withheld.iter().map(|root| Offered {
            path: root.clone(),
            scope: Scope::Project,
            kind: OfferedKind::Unread,
            nested: false,
            withheld: true,
        }));
        if parts.is_empty() {
            return Ok(offered);
        }
        let text = parts
            .iter()
            .map(|part| part.content.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        if text.len() > limits::CODEX_SKILLS_LISTING_WARN_BYTES {
            turn0.diagnostics.push(Diagnostic::new(
                Severity::Warning,
                None,
                format!(
                    "the skills listing is {} bytes ({} skills): Codex shortens a large listing \
                     by a rule the preview does not reproduce, so what it sends may be shorter \
                     than shown",
                    text.len(),
                    parts.len()
                ),
            ));
        }
        turn0
            .messages
            .push(ProfileMessage::with_text(Provenance::Skills, parts, text));
        Ok(offered)
    }

    /// Adds the skills whose blocks follow the input.
    fn expand(&self, input: &str) -> Result<CatalogExpansion, ProfileError> {
        let outcome = self.expand_skills(input);
        let fields = ExpandFields {
            skills: outcome
                .blocks
                .iter()
                .map(|(name, source, text)| CodexBlock {
                    name,
                    source,
                    bytes: text.len(),
                })
                .collect(),
        };
        Ok(CatalogExpansion {
            expansion: outcome.expansion,
            diagnostics: outcome.diagnostics,
            not_expanded: None,
            withheld: outcome.withheld,
            extras: extras(fields),
        })
    }

    fn cannot_invoke(&self, name: &str) -> String {
        cannot_invoke(name)
    }

    fn unknown(&self, _input: &str) -> String {
        "no $NAME in the input names a skill Codex would add".to_string()
    }

    /// Every skill Codex lists under the name.
    fn explain(&self, name: &str) -> Result<CatalogExplanation, ProfileError> {
        let found = self.listing();
        let entries = found
            .listing
            .skills
            .iter()
            .filter(|skill| skill.name == name);
        let entries = entries.map(|skill| ListedEntry {
            source: skill.path.clone(),
            scope: skill.scope,
            description: skill.description.clone(),
        });
        Ok(CatalogExplanation::Listed(ListedName {
            entries: entries.collect(),
            diagnostics: found.diagnostics,
        }))
    }

    /// Every skill in Codex's order; one that cannot be read is a fatal
    /// diagnostic naming it.
    fn texts(&self) -> Result<CatalogTexts, ProfileError> {
        let found = self.listing();
        let mut texts = CatalogTexts {
            withheld: !found.withheld.is_empty(),
            diagnostics: found.diagnostics,
            texts: Vec::new(),
        };
        for skill in &found.listing.skills {
            match skill.text() {
                Ok(text) => texts.texts.push(EntryText {
                    name: skill.name.clone(),
                    source: skill.path.clone(),
                    text,
                }),
                Err(why) => texts.diagnostics.push(Diagnostic::fatal(&skill.path, why)),
            }
        }
        Ok(texts)
    }
}

/// What an expansion under Codex adds to `expand`'s JSON (SPEC §14.6):
/// the skills whose blocks follow the input.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ExpandFields<'a> {
    skills: Vec<CodexBlock<'a>>,
}

/// One `<skill>` block: the skill, its SKILL.md and the block's size.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct CodexBlock<'a> {
    name: &'a str,
    source: &'a str,
    bytes: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::agents::codex::chain::{chain, find_root};
    use crate::prompt::walk::walk;
    use crate::workspace::{LinkPolicy, OsWorkspace};

    fn write(root: &std::path::Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn skill(name: &str) -> String {
        format!("---\nname: {name}\ndescription: {name} skill\n---\n{name} body\n")
    }

    /// Runs `f` over the skills of a run in `ws` started at its root,
    /// with `home`'s `.codex` and `.agents`.
    fn with_skills<R>(
        ws: &std::path::Path,
        home: &std::path::Path,
        trusted: bool,
        f: impl FnOnce(&CodexSkills<'_>) -> R,
    ) -> R {
        let project = OsWorkspace::new(ws, LinkPolicy::Confine);
        let parent = OsWorkspace::new("/", LinkPolicy::Follow);
        let codex_home = OsWorkspace::new(home.join(".codex"), LinkPolicy::Follow);
        let user = OsWorkspace::new(home, LinkPolicy::Follow);
        let walked = walk(Some(&parent), &project, "").unwrap();
        let root = find_root(&walked, &[".git".to_string()]);
        let chain = chain(&walked, root.as_ref());
        f(&CodexSkills::new(
            chain,
            Some(&codex_home),
            Some(&user),
            &[],
            trusted,
        ))
    }

    #[test]
    fn an_untrusted_workspace_keeps_its_skills_unread_and_the_users_listed() {
        let dir = tempfile::tempdir().unwrap();
        let (ws, home) = (dir.path().join("ws"), dir.path().join("home"));
        std::fs::create_dir_all(ws.join(".git")).unwrap();
        write(&ws, ".agents/skills/proj/SKILL.md", &skill("proj"));
        write(&home, ".agents/skills/mine/SKILL.md", &skill("mine"));
        let names = |found: &CodexListing<'_>| -> Vec<String> {
            found
                .listing
                .skills
                .iter()
                .map(|s| s.name.clone())
                .collect()
        };
        with_skills(&ws, &home, true, |skills| {
            let found = skills.listing();
            assert_eq!(names(&found), ["proj", "mine"]);
            assert!(found.withheld.is_empty());
        });
        with_skills(&ws, &home, false, |skills| {
            let found = skills.listing();
            assert_eq!(names(&found), ["mine"]);
            assert_eq!(found.withheld, [".agents/skills"]);
            assert_eq!(found.diagnostics[0].path.as_deref(), Some(".agents/skills"));
        });
    }

    #[test]
    fn expand_shows_the_input_then_every_block() {
        let dir = tempfile::tempdir().unwrap();
        let (ws, home) = (dir.path().join("ws"), dir.path().join("home"));
        write(&ws, ".agents/skills/foo/SKILL.md", &skill("foo"));
        let out = with_skills(&ws, &home, true, |skills| {
            skills.expand_skills("$foo go $nope")
        });
        let path = ws
            .join(".agents")
            .join("skills")
            .join("foo")
            .join("SKILL.md");
        assert_eq!(
            out.expansion.output,
            format!(
                "$foo go $nope\n\n<skill>\n<name>foo</name>\n<path>{}</path>\n{}\n</skill>",
                path.display(),
                skill("foo")
            )
        );
        assert_eq!(out.expansion.name.as_deref(), Some("foo"));
        assert_eq!(
            out.expansion.source.as_deref(),
            Some(".agents/skills/foo/SKILL.md")
        );
        assert_eq!(
            out.diagnostics.len(),
            1,
            "$nope adds nothing: {:?}",
            out.diagnostics
        );
        let none = with_skills(&ws, &home, true, |skills| {
            skills.expand_skills("no mention")
        });
        assert!(!none.expansion.expanded && none.expansion.output == "no mention");
    }
}
