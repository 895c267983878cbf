//! The opencode profile's run (SPEC §18.1, §18.2): the switches, the walk
//! and its root, the merged configs, the instruction files read into
//! opencode's one instructions message, and what `--touch` adds.
//!
//! Choices the spec leaves open:
//! - Without a home directory (and without `OPENCODE_CONFIG_DIR`) there is
//!   no global file and no user config: an info line says so.
//! - A `--touch` path that adds nothing says so in an info line (outside
//!   the cwd, or every file on its way already loaded).

use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::files::{AGENTS_MD, CLAUDE_MD};
use crate::prompt::agents::opencode::catalog::OpencodeCatalog;
use crate::prompt::agents::opencode::commands::{self, COMMAND_DIRS, Place};
use crate::prompt::agents::opencode::config::{self, ConfigFile, Merged};
use crate::prompt::agents::opencode::instructions::{self, Readers, Switches, region};
use crate::prompt::agents::opencode::mcp;
use crate::prompt::agents::opencode::skills::{self, SkillDir};
use crate::prompt::agents::opencode::spec::{
    CONFIG_DIR, CONFIG_FILES, DISABLE_CLAUDE_CODE, DISABLE_CLAUDE_CODE_PROMPT,
    DISABLE_CLAUDE_CODE_SKILLS, DISABLE_EXTERNAL_SKILLS, DISABLE_PROJECT_CONFIG, DOT_OPENCODE,
    USER_HOME, XDG_CONFIG, is_on,
};
use crate::prompt::agents::opencode::subagents::{self, AGENT_DIRS};
use crate::prompt::command::claude_catalog::ExpandEnv;
use crate::prompt::imports::normalise;
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::seam::{ProfileError, ProfileRun, Setup};
use crate::prompt::profile::{ProfileMessage, ProfileTurn0, Searched, SearchedDir, Touched};
use crate::prompt::turn0::{Provenance, Role};
use crate::prompt::walk::{Scope, WalkDir, walk};
use crate::workspace::{Workspace, join, slashed};

/// opencode over one workspace.
pub(super) struct OpencodeRun<'a> {
    setup: &'a Setup<'a>,
    /// The reader holding opencode's config directory, and the directory
    /// below its root.
    config: Option<(Arc<dyn Workspace>, String)>,
    home: Option<Arc<dyn Workspace>>,
    switches: Switches,
    skill_switches: SkillSwitches,
}

/// Which skill directories opencode's switches leave in (SPEC §18.4).
#[derive(Debug, Clone, Copy)]
struct SkillSwitches {
    /// `.claude/skills` (off with `OPENCODE_DISABLE_CLAUDE_CODE(_SKILLS)` or
    /// `OPENCODE_DISABLE_EXTERNAL_SKILLS`).
    claude: bool,
    /// `.agents/skills` (off with `OPENCODE_DISABLE_EXTERNAL_SKILLS`).
    agents: bool,
}

/// The clash ranks of skill directories, best first (SPEC §18.4): a
/// directory's rank is its kind's times this, plus its distance from the
/// cwd on the walk.
const RANK_STEP: usize = 10_000;

/// The skill directories below a `.opencode` or config directory.
const OPENCODE_SKILL_DIRS: [&str; 2] = ["skill", "skills"];

impl<'a> OpencodeRun<'a> {
    pub(super) fn new(setup: &'a Setup<'a>) -> Self {
        let moved = CONFIG_DIR
            .var
            .and_then(|var| (setup.var)(var))
            .is_some_and(|dir| std::path::Path::new(dir).is_absolute());
        let config = if moved {
            (setup.homes)(&CONFIG_DIR).map(|reader| (reader, String::new()))
        } else {
            (setup.homes)(&XDG_CONFIG).map(|reader| (reader, "opencode".to_string()))
        };
        let off = |name: &str| is_on((setup.var)(name));
        Self {
            setup,
            config,
            home: (setup.homes)(&USER_HOME),
            switches: Switches {
                claude: !off(DISABLE_CLAUDE_CODE) && !off(DISABLE_CLAUDE_CODE_PROMPT),
                project: !off(DISABLE_PROJECT_CONFIG),
            },
            skill_switches: SkillSwitches {
                claude: !off(DISABLE_CLAUDE_CODE)
                    && !off(DISABLE_CLAUDE_CODE_SKILLS)
                    && !off(DISABLE_EXTERNAL_SKILLS),
                agents: !off(DISABLE_EXTERNAL_SKILLS),
            },
        }
    }

    fn readers(&self) -> Readers<'_> {
        Readers {
            project: &*self.setup.project,
            parent: &*self.setup.parent,
            config: self
                .config
                .as_ref()
                .map(|(reader, dir)| (&**reader, dir.clone())),
            home: self.home.as_deref(),
        }
    }

    /// The configs opencode merges, in its order: the config directory's,
    /// then each walk directory's from the root down, then each walk
    /// directory's `.opencode` from the cwd up (observed:
    /// `config-merge`, `dot-opencode-order`).
    fn config_files<'r>(
        &self,
        readers: &Readers<'r>,
        chain: &[WalkDir<'r>],
    ) -> Vec<ConfigFile<'r>> {
        let mut files = Vec::new();
        if let Some((reader, dir)) = &readers.config {
            for name in CONFIG_FILES {
                files.push(ConfigFile {
                    reader: *reader,
                    rel: join(dir, name),
                    scope: Scope::User,
                });
            }
        }
        if self.switches.project {
            let down = chain.iter().map(|dir| (dir, ""));
            let up = chain.iter().rev().map(|dir| (dir, DOT_OPENCODE));
            for (dir, below) in down.chain(up) {
                for name in CONFIG_FILES {
                    files.push(ConfigFile {
                        reader: dir.reader,
                        rel: dir.rel(&join(below, name)),
                        scope: dir.scope,
                    });
                }
            }
        }
        files
    }

    /// Where opencode reads commands (`names`: [`COMMAND_DIRS`]) or
    /// subagents ([`AGENT_DIRS`]), the later winning (SPEC §18.3): its
    /// config directory, the walk's `.opencode` from the cwd up, then
    /// `~/.opencode`.
    fn places<'r>(
        &self,
        readers: &Readers<'r>,
        chain: &[WalkDir<'r>],
        names: [&str; 2],
    ) -> Vec<Place<'r>> {
        let mut places = Vec::new();
        let mut add = |reader: &'r dyn Workspace, dir: &str, scope: Scope| {
            for name in names {
                places.push(Place {
                    reader,
                    rel: join(dir, name),
                    scope,
                });
            }
        };
        if let Some((reader, dir)) = &readers.config {
            add(*reader, dir, Scope::User);
        }
        if self.switches.project {
            for dir in chain.iter().rev() {
                add(dir.reader, &dir.rel(DOT_OPENCODE), dir.scope);
            }
        }
        if let Some(home) = readers.home {
            add(home, DOT_OPENCODE, Scope::User);
        }
        places
    }

    /// Where opencode reads skills, in its order, each with its clash rank
    /// (SPEC §18.4).
    fn skill_dirs<'r>(&self, readers: &Readers<'r>, chain: &[WalkDir<'r>]) -> Vec<SkillDir<'r>> {
        let on = self.skill_switches;
        let mut dirs = Vec::new();
        let mut add = |reader: &'r dyn Workspace, rel: String, scope: Scope, rank: usize| {
            dirs.push(SkillDir {
                reader,
                rel,
                scope,
                rank,
            });
        };
        let project: &[WalkDir<'r>] = if self.switches.project { chain } else { &[] };
        let external = [
            (on.claude, ".claude/skills", 7, 5),
            (on.agents, ".agents/skills", 6, 4),
        ];
        if let Some(home) = readers.home {
            for (wanted, rel, kind, _) in external {
                if wanted {
                    add(home, rel.to_string(), Scope::User, kind * RANK_STEP);
                }
            }
        }
        for (near, dir) in project.iter().rev().enumerate() {
            for (wanted, rel, _, kind) in external {
                if wanted {
                    add(dir.reader, dir.rel(rel), dir.scope, kind * RANK_STEP + near);
                }
            }
        }
        if let Some((reader, dir)) = &readers.config {
            for name in OPENCODE_SKILL_DIRS {
                add(*reader, join(dir, name), Scope::User, 2 * RANK_STEP);
            }
        }
        for (near, dir) in project.iter().rev().enumerate() {
            for name in OPENCODE_SKILL_DIRS {
                let rel = dir.rel(&join(DOT_OPENCODE, name));
                add(dir.reader, rel, dir.scope, near);
            }
        }
        if let Some(home) = readers.home {
            for name in OPENCODE_SKILL_DIRS {
                add(home, join(DOT_OPENCODE, name), Scope::User, RANK_STEP);
            }
        }
        dirs
    }
}

/// The `skills.paths` of the merged configs as skill directories (see
/// [`skill_path_dir`]; a warning for one a project config points out of
/// the workspace), and a line for each `skills.urls` entry, never fetched.
fn skill_paths<'r>(
    readers: &Readers<'r>,
    at: &str,
    merged: &Merged,
    said: &mut Vec<Diagnostic>,
) -> Vec<SkillDir<'r>> {
    let mut dirs = Vec::new();
    for config in &merged.configs {
        let Some(skills) = config.value.get("skills") else {
            continue;
        };
        let strings = |key: &str| -> Vec<String> {
            skills
                .get(key)
                .and_then(serde_json::Value::as_array)
                .map(|items| {
                    items
                        .iter()
                        .filter_map(|item| item.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        for url in strings("urls") {
            said.push(Diagnostic::info(
                &config.shown,
                format!("skills.urls entry {url}: opencode downloads skills from it; not fetched"),
            ));
        }
        for path in strings("paths") {
            match skill_path_dir(readers, at, config.scope, &path) {
                Some((reader, rel, scope)) => dirs.push(SkillDir {
                    reader,
                    rel,
                    scope,
                    rank: 3 * RANK_STEP,
                }),
                None if config.scope == Scope::User => said.push(Diagnostic::info(
                    &config.shown,
                    format!(
                        "skills.paths entry {path}: outside the workspace and the home \
                         directory, not read"
                    ),
                )),
                None => said.push(Diagnostic::warning(
                    &config.shown,
                    format!(
                        "skills.paths entry {path} leaves the workspace: opencode reads the \
                         skills there, the preview never reads outside the workspace on a \
                         project file's word"
                    ),
                )),
            }
        }
    }
    dirs
}

/// Where one `skills.paths` entry of a config of `scope` points, as a
/// reader, a path below its root and a scope: a relative entry below the
/// cwd `at` (`..` resolved against it), an absolute one inside the
/// workspace, a `~/` one of the user's config in the home. `None` for
/// anything else: the preview does not read outside the workspace on a
/// project file's word, and has no reader for the rest of the machine.
fn skill_path_dir<'r>(
    readers: &Readers<'r>,
    at: &str,
    scope: Scope,
    path: &str,
) -> Option<(&'r dyn Workspace, String, Scope)> {
    if let Some(rest) = path.strip_prefix("~/") {
        let home = readers.home.filter(|_| scope == Scope::User)?;
        let rel = normalise(Path::new(rest));
        let inside = !rel.starts_with("..");
        return inside.then(|| (home, slashed(&rel), Scope::User));
    }
    if path.starts_with('~') {
        return None;
    }
    let written = Path::new(path);
    let rel = if written.has_root() {
        normalise(written)
            .strip_prefix(readers.project.root())
            .ok()?
            .to_path_buf()
    } else {
        normalise(&Path::new(at).join(written))
    };
    let inside = !rel.starts_with("..");
    inside.then(|| (readers.project, slashed(&rel), Scope::Project))
}

impl ProfileRun for OpencodeRun<'_> {
    fn turn0(&self) -> Result<ProfileTurn0, ProfileError> {
        let setup = self.setup;
        let readers = self.readers();
        let dirs = walk(Some(readers.parent), readers.project, setup.at)?;
        let (chain, git) = instructions::chain(dirs, readers.parent);
        let merged = config::merge(&self.config_files(&readers, &chain), setup.trusted);
        let mut loaded =
            instructions::load(&readers, &chain, self.switches, &merged, setup.trusted);
        let mut turn0 = ProfileTurn0::default();
        if readers.config.is_none() && readers.home.is_none() {
            turn0.diagnostics.push(Diagnostic::new(
                Severity::Info,
                None,
                "no home directory and no OPENCODE_CONFIG_DIR: opencode's global file and user \
                 config are not read",
            ));
        }
        turn0.diagnostics.extend(merged.diagnostics.iter().cloned());
        turn0.not_loaded.extend(merged.not_loaded.iter().cloned());
        for path in setup.touch {
            let added = loaded.touch(
                readers.project,
                setup.at,
                path,
                self.switches,
                setup.trusted,
            );
            if added.is_empty() {
                turn0.diagnostics.push(Diagnostic::info(
                    path.clone(),
                    "--touch: opencode finds no instruction file it has not loaded between this \
                     path and the cwd",
                ));
            }
            turn0.touch.push(Touched {
                path: path.clone(),
                parts: added.into_iter().map(|file| file.part).collect(),
            });
        }
        turn0.diagnostics.append(&mut loaded.diagnostics);
        turn0.not_loaded.append(&mut loaded.not_loaded);
        if !loaded.files.is_empty() {
            let text = region(&loaded.files);
            let parts = loaded.files.iter().map(|file| file.part.clone()).collect();
            let mut message = ProfileMessage::with_text(Provenance::Instructions, parts, text);
            message.role = Role::System;
            turn0.messages.push(message);
        }
        let places = self.places(&readers, &chain, AGENT_DIRS);
        let (agents, withheld, said) = subagents::load(&places, setup.trusted);
        turn0.not_loaded.extend(withheld);
        turn0.diagnostics.extend(said);
        turn0.messages.extend(subagents::message(&agents));
        turn0.subagents = agents;
        let (servers, said) = mcp::servers(&merged.configs);
        turn0.diagnostics.extend(said);
        turn0.mcp_servers = servers;
        turn0.searched = self.searched(&readers, &chain, git, loaded.winner);
        Ok(turn0)
    }

    fn catalog(&self) -> Result<Box<dyn Catalog + '_>, ProfileError> {
        let setup = self.setup;
        let readers = self.readers();
        let dirs = walk(Some(readers.parent), readers.project, setup.at)?;
        let (chain, _) = instructions::chain(dirs, readers.parent);
        let merged = config::merge(&self.config_files(&readers, &chain), setup.trusted);
        let commands = commands::load(
            &merged.configs,
            &self.places(&readers, &chain, COMMAND_DIRS),
            setup.trusted,
        );
        let mut skill_dirs = self.skill_dirs(&readers, &chain);
        let mut said = Vec::new();
        skill_dirs.extend(skill_paths(&readers, setup.at, &merged, &mut said));
        let mut skills = skills::load(&skill_dirs, setup.trusted);
        said.append(&mut skills.diagnostics);
        skills.diagnostics = said;
        let env = ExpandEnv {
            project: setup.project.clone(),
            at: setup.at.to_string(),
            trusted: setup.trusted,
        };
        Ok(Box::new(OpencodeCatalog {
            commands,
            skills,
            env: Some(env),
        }))
    }
}

impl OpencodeRun<'_> {
    /// Where opencode looked: the global files, then the walk from the cwd
    /// up to its root.
    fn searched(
        &self,
        readers: &Readers<'_>,
        chain: &[WalkDir<'_>],
        git: bool,
        winner: Option<&str>,
    ) -> Searched {
        let mut dirs = Vec::new();
        if let Some((reader, dir)) = &readers.config {
            dirs.push(SearchedDir {
                dir: reader.display(dir),
                scope: Scope::User,
                names: vec![AGENTS_MD.to_string()],
            });
        }
        if let Some(home) = readers.home
            && self.switches.claude
        {
            dirs.push(SearchedDir {
                dir: home.display(".claude"),
                scope: Scope::User,
                names: vec![CLAUDE_MD.to_string()],
            });
        }
        let names: Vec<String> = self
            .switches
            .names()
            .iter()
            .map(|name| name.to_string())
            .collect();
        if self.switches.project {
            dirs.extend(chain.iter().rev().map(|dir| SearchedDir {
                dir: dir.reader.display(&dir.dir),
                scope: dir.scope,
                names: names.clone(),
            }));
        }
        let cwd = self.setup.at_label();
        let up_to = if git {
            "the nearest directory holding .git"
        } else {
            "/ (no directory holds .git)"
        };
        let won = match winner {
            Some(name) => format!("; {name} won, so only its copies load"),
            None => String::new(),
        };
        let project = if self.switches.project {
            format!(
                "then the first of {} that exists anywhere from the cwd {cwd} up to {up_to}, \
                 every copy nearest first{won}",
                names.join(", ")
            )
        } else {
            "and no project file (OPENCODE_DISABLE_PROJECT_CONFIG)".to_string()
        };
        Searched {
            rule: format!(
                "opencode reads the first existing global file ({}), {project}; then the \
                 `instructions` of its configs",
                if self.switches.claude {
                    "its config directory's AGENTS.md, else ~/.claude/CLAUDE.md"
                } else {
                    "its config directory's AGENTS.md"
                }
            ),
            dirs,
        }
    }
}
