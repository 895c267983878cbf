//! The opencode profile's run (SPEC §18.1, §18.2): the switches, the walk
//! and its root, the merged configs, the instruction files read into
//! opencode's one instructions message, and what `--touch` adds.
//!
//! Choices the spec leaves open:
//! - Without a home directory (and without `OPENCODE_CONFIG_DIR`) there is
//!   no global file and no user config: an info line says so.
//! - A `--touch` path that adds nothing says so in an info line (outside
//!   the cwd, or every file on its way already loaded).

use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::agents::files::{AGENTS_MD, CLAUDE_MD};
use crate::prompt::agents::opencode::catalog::{OpencodeCatalog, PLACES};
use crate::prompt::agents::opencode::config::{self, ConfigFile};
use crate::prompt::agents::opencode::instructions::{self, Readers, Switches, region};
use crate::prompt::agents::opencode::spec::{
    CONFIG_DIR, CONFIG_FILES, DISABLE_CLAUDE_CODE, DISABLE_CLAUDE_CODE_PROMPT,
    DISABLE_PROJECT_CONFIG, DOT_OPENCODE, USER_HOME, XDG_CONFIG, is_on,
};
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::seam::{ProfileError, ProfileRun, Setup};
use crate::prompt::profile::{ProfileMessage, ProfileTurn0, Searched, SearchedDir, Touched};
use crate::prompt::turn0::{Provenance, Role};
use crate::prompt::walk::{Scope, WalkDir, walk};
use crate::workspace::{EntryKind, Workspace, join};

/// opencode over one workspace.
pub(super) struct OpencodeRun<'a> {
    setup: &'a Setup<'a>,
    /// The reader holding opencode's config directory, and the directory
    /// below its root.
    config: Option<(Arc<dyn Workspace>, String)>,
    home: Option<Arc<dyn Workspace>>,
    switches: Switches,
}

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
        turn0.searched = self.searched(&readers, &chain, git, loaded.winner);
        Ok(turn0)
    }

    fn catalog(&self) -> Result<Box<dyn Catalog + '_>, ProfileError> {
        let setup = self.setup;
        let mut present = Vec::new();
        for place in &PLACES[..6] {
            let rel = join(setup.at, place);
            if matches!(setup.project.stat(&rel), Ok(EntryKind::Dir)) {
                present.push(setup.project.display(&rel));
            }
        }
        if let Some(home) = &self.home {
            for place in &PLACES[6..] {
                if matches!(home.stat(place), Ok(EntryKind::Dir)) {
                    present.push(home.display(place));
                }
            }
        }
        Ok(Box::new(OpencodeCatalog { present }))
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
