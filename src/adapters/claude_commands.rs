//! Claude Code's commands and skills on disk (SPEC §14.5): the search
//! directories of one run, read through the confined workspace reader and
//! the `$CLAUDE_CONFIG_DIR` reader, and every question the CLI asks of
//! them. Every answer resolves through the domain's one precedence engine
//! ([`crate::prompt::command::claude_catalog`]), so the listing, expansion,
//! completion, explanation, manifest and skills listing agree on the
//! winner.

use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::prompt::command::claude_catalog::{
    ClaudeExpansion, ClaudeFiles, ClaudeListing, ClaudeResolution, ExpandEnv, SkillsListing,
    claude_dirs, expand_claude, list_claude, resolve_claude, skills_listing,
};
use crate::prompt::tiers::{Fate, Losers, ReadPolicy, SearchDir};
use crate::prompt::turn0::ReadFault;
use crate::prompt::walk::InvalidAt;
use crate::workspace::Workspace;

/// One invocable entry and its whole text (for manifests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryText {
    /// The name, without the slash.
    pub name: String,
    /// The file, as displayed.
    pub source: String,
    /// Its whole text (up to the read bound).
    pub text: String,
}

/// The Claude Code command and skill directories of one run.
#[derive(Clone)]
pub struct ClaudeCatalog {
    dirs: Vec<SearchDir<'static>>,
    env: ExpandEnv<'static>,
}

impl std::fmt::Debug for ClaudeCatalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClaudeCatalog")
            .field("dirs", &self.dirs)
            .field("at", &self.env.at)
            .finish()
    }
}

impl ClaudeCatalog {
    /// The directories of a run started in `at` (workspace-relative) in the
    /// workspace read by `project` (withheld unless `trusted`), with the
    /// user's `config_dir` (`$CLAUDE_CONFIG_DIR`) when there is one.
    pub fn new(
        project: Arc<dyn Workspace>,
        at: &str,
        trusted: bool,
        config_dir: Option<Arc<dyn Workspace>>,
    ) -> Result<Self, InvalidAt> {
        Ok(Self {
            dirs: claude_dirs(project.clone(), at, !trusted, config_dir)?,
            env: ExpandEnv {
                project,
                at: at.to_string(),
                trusted,
            },
        })
    }

    /// The directories searched, highest precedence first.
    pub fn dirs(&self) -> &[SearchDir<'static>] {
        &self.dirs
    }

    /// Every entry (`commands list`): the heads of the files that win or
    /// are withheld are read, the shadowed ones only looked at.
    pub fn list(&self) -> ClaudeListing {
        list_claude(
            &self.dirs,
            ReadPolicy {
                contender: true,
                losers: Losers::Look,
                withheld: true,
            },
            &ClaudeFiles::HEAD,
        )
    }

    /// The names shell completion offers, with their `argument-hint`: the
    /// winners the user may type (not withheld, not `user-invocable:
    /// false`, names of the grammar), sorted. Reads only the winners'
    /// heads and keeps only their frontmatter blocks, parsed only when they
    /// name one of the keys shown.
    pub fn completion_names(&self) -> Vec<(String, Option<String>)> {
        let listing = list_claude(
            &self.dirs,
            ReadPolicy {
                contender: true,
                losers: Losers::Skip,
                withheld: false,
            },
            &ClaudeFiles::KEYS,
        );
        // Each entry is consumed as it is answered, so the memory of one
        // file's parsed frontmatter is reused by the next.
        listing
            .entries
            .into_iter()
            .filter(|entry| entry.fate == Fate::Winner && entry.user_invocable())
            .map(|entry| {
                let hint = entry.file.and_then(|f| f.argument_hint());
                (entry.name, hint)
            })
            .collect()
    }

    /// Expands `input` (SPEC §14.5, §2.2).
    pub fn expand(&self, input: &str) -> Result<ClaudeExpansion, ReadFault> {
        expand_claude(&self.dirs, input, &self.env)
    }

    /// Why `name` resolves as it does: every directory's place for it.
    pub fn explain(&self, name: &str) -> ClaudeResolution {
        resolve_claude(&self.dirs, name)
    }

    /// The skills listing fitted to `budget` columns, and the entries it
    /// was made from (only the winners' heads read), whose diagnostics end
    /// with what is said about the listing.
    pub fn skills_listing(&self, budget: usize) -> (SkillsListing, ClaudeListing) {
        let mut listing = list_claude(
            &self.dirs,
            ReadPolicy {
                contender: true,
                losers: Losers::Skip,
                withheld: false,
            },
            &ClaudeFiles::HEAD,
        );
        let skills = skills_listing(&self.dirs, &listing, budget);
        listing.diagnostics.extend(skills.diagnostics());
        (skills, listing)
    }

    /// The invocable entries with their whole text, sorted by name (for
    /// `snapshot`), the diagnostics met, and whether anything was withheld.
    /// The diagnostics are the listing's, as `commands list` reports them.
    pub fn texts(&self) -> Result<(Vec<EntryText>, Vec<Diagnostic>, bool), ReadFault> {
        let listing = self.list();
        if let Some(fault) = listing.faults.into_iter().next() {
            return Err(fault);
        }
        let withheld = listing.entries.iter().any(|e| e.fate == Fate::Withheld);
        let mut texts = Vec::new();
        for entry in listing.entries.iter().filter(|e| e.fate == Fate::Winner) {
            let mut found = resolve_claude(&self.dirs, &entry.name).found.resolution;
            if let Some(fault) = found.faults.drain(..).next() {
                return Err(fault);
            }
            let winner = found
                .candidates
                .into_iter()
                .find(|c| c.fate == Fate::Winner);
            if let Some(file) = winner.as_ref().and_then(|c| c.item.as_ref()) {
                texts.push(EntryText {
                    name: entry.name.clone(),
                    source: entry.source.clone(),
                    text: file.text.clone(),
                });
            }
        }
        Ok((texts, listing.diagnostics, withheld))
    }
}
