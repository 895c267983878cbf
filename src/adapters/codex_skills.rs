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

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::prompt::agents::codex::chain::{chain, find_root};
use crate::prompt::agents::codex::config;
use crate::prompt::agents::codex::skills::{SkillListing, list_skills, skill_blocks, skill_roots};
use crate::prompt::command::Expansion;
use crate::prompt::walk::{InvalidAt, Scope, walk};
use crate::workspace::{EntryKind, Workspace};

/// The Codex skill roots of one run.
pub struct CodexSkills {
    project: Arc<dyn Workspace>,
    parent: Arc<dyn Workspace>,
    codex_home: Option<Arc<dyn Workspace>>,
    home: Option<Arc<dyn Workspace>>,
    at: String,
    trusted: bool,
}

impl std::fmt::Debug for CodexSkills {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodexSkills")
            .field("project", &self.project.root())
            .field("at", &self.at)
            .finish()
    }
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

impl CodexSkills {
    /// The roots of a run started in `at` (workspace-relative) in the
    /// workspace read by `project` (its roots withheld unless `trusted`),
    /// the directories above it read by `parent` (rooted at `/`), with the
    /// readers of `$CODEX_HOME` and the home directory when there are
    /// (links followed: SPEC §3.1).
    pub fn new(
        project: Arc<dyn Workspace>,
        at: &str,
        trusted: bool,
        parent: Arc<dyn Workspace>,
        codex_home: Option<Arc<dyn Workspace>>,
        home: Option<Arc<dyn Workspace>>,
    ) -> Self {
        Self {
            project,
            parent,
            codex_home,
            home,
            at: at.to_string(),
            trusted,
        }
    }

    /// Searches every root (SPEC §14.6).
    pub fn listing(&self) -> Result<CodexListing<'_>, InvalidAt> {
        let mut diagnostics = Vec::new();
        let markers = match &self.codex_home {
            Some(home) => {
                let read = config::load(&**home);
                diagnostics.extend(read.diagnostics);
                read.config.project_root_markers
            }
            None => crate::prompt::agents::codex::CodexConfig::default().project_root_markers,
        };
        let walked = walk(Some(&*self.parent), self.project.as_ref(), &self.at)?;
        let root = find_root(&walked, &markers);
        let chain = chain(&walked, root.as_ref());
        let mut roots = skill_roots(chain, self.codex_home.as_deref(), self.home.as_deref());
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
        Ok(CodexListing {
            listing,
            diagnostics,
            withheld,
        })
    }

    /// The blocks the `$NAME` mentions of `input` add (SPEC §14.6).
    pub fn expand(&self, input: &str) -> Result<CodexExpansion, InvalidAt> {
        let found = self.listing()?;
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
        Ok(CodexExpansion {
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
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{LinkPolicy, OsWorkspace};

    fn write(root: &std::path::Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn skill(name: &str) -> String {
        format!("---\nname: {name}\ndescription: {name} skill\n---\n{name} body\n")
    }

    fn skills(ws: &std::path::Path, home: &std::path::Path, trusted: bool) -> CodexSkills {
        let project: Arc<dyn Workspace> = Arc::new(OsWorkspace::new(ws, LinkPolicy::Confine));
        let follow = |dir: std::path::PathBuf| -> Arc<dyn Workspace> {
            Arc::new(OsWorkspace::new(dir, LinkPolicy::Follow))
        };
        CodexSkills::new(
            project,
            "",
            trusted,
            follow("/".into()),
            Some(follow(home.join(".codex"))),
            Some(follow(home.to_path_buf())),
        )
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
        let trusted = skills(&ws, &home, true);
        let found = trusted.listing().unwrap();
        assert_eq!(names(&found), ["proj", "mine"]);
        assert!(found.withheld.is_empty());

        let untrusted = skills(&ws, &home, false);
        let found = untrusted.listing().unwrap();
        assert_eq!(names(&found), ["mine"]);
        assert_eq!(found.withheld, [".agents/skills"]);
        assert_eq!(found.diagnostics[0].path.as_deref(), Some(".agents/skills"));
    }

    #[test]
    fn expand_shows_the_input_then_every_block() {
        let dir = tempfile::tempdir().unwrap();
        let (ws, home) = (dir.path().join("ws"), dir.path().join("home"));
        write(&ws, ".agents/skills/foo/SKILL.md", &skill("foo"));
        let out = skills(&ws, &home, true).expand("$foo go $nope").unwrap();
        let path = ws.join(".agents/skills/foo/SKILL.md");
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
        let none = skills(&ws, &home, true).expand("no mention").unwrap();
        assert!(!none.expansion.expanded && none.expansion.output == "no mention");
    }
}
