//! Where a Claude assembly starts reading (SPEC §14.3): the walk at start
//! (per directory `CLAUDE.md`, `.claude/CLAUDE.md`, the rules, the fallback
//! files when the fallback applies, `CLAUDE.local.md`) and a directory read
//! lazily because a file below the cwd was read. The orchestration lives
//! here so that the assembly's state ([`Assembly`]) and its rules
//! ([`RulesTree`]) do not import each other.

use crate::prompt::agents::claude::assembly::{Assembly, exists};
use crate::prompt::agents::claude::names;
use crate::prompt::agents::claude::read::{Read, Source};
use crate::prompt::agents::claude::rules::RulesTree;
use crate::prompt::agents::claude::switches_fallback_off;
use crate::prompt::profile::{NotLoadedReason, Part, PartKind, Scope};
use crate::prompt::walk::WalkDir;

/// What the fallback decision sees of one walk file before anything loads.
#[derive(Debug)]
enum Probe {
    /// A gated file of an untrusted workspace: whether it exists (never
    /// opened).
    Withheld(bool),
    /// What reading it gave.
    Read(Read),
}

impl Probe {
    /// Whether the file counts as a Claude instruction file with content,
    /// which switches the AGENTS.md fallback off.
    fn has_content(&self) -> bool {
        match self {
            Probe::Withheld(exists) => *exists,
            Probe::Read(Read::Text { text, .. }) => switches_fallback_off(text),
            Probe::Read(_) => false,
        }
    }
}

impl<'a> Assembly<'_, 'a> {
    /// The walk at start (SPEC §14.3): per directory `CLAUDE.md`,
    /// `.claude/CLAUDE.md`, the rules, the fallback files when the fallback
    /// applies, `CLAUDE.local.md`.
    pub(crate) fn load_walk(&mut self, dirs: &[WalkDir<'a>], out: &mut Vec<Part>) {
        let probes: Vec<[Probe; 3]> = dirs
            .iter()
            .map(|dir| {
                [names::CLAUDE_MD, names::DOT_CLAUDE_MD, names::LOCAL_MD]
                    .map(|name| self.probe(dir, name))
            })
            .collect();
        let fallback = !self.managed_content() && !probes.iter().flatten().any(Probe::has_content);
        // Fallback files passed over are listed once the walk is done, so one
        // an import brought in after all is not listed as left out.
        let mut passed_over = Vec::new();
        for (dir, [claude, dot_claude, local]) in dirs.iter().zip(probes) {
            self.load_probe(dir, names::CLAUDE_MD, dir.scope, claude, out);
            self.load_probe(dir, names::DOT_CLAUDE_MD, dir.scope, dot_claude, out);
            self.load_rules(&RulesTree::walk(dir), out);
            for name in [names::AGENTS_MD, names::DOT_AGENTS_MD] {
                if fallback {
                    let probe = self.probe(dir, name);
                    self.load_probe(dir, name, dir.scope, probe, out);
                } else if exists(dir.reader, &dir.rel(name)) {
                    if self.gated(dir.scope) {
                        let path = self.shown(dir.scope, &dir.absolute(name));
                        self.skip(dir.scope, path, NotLoadedReason::Withheld, "");
                    } else {
                        let abs = dir.absolute(name);
                        let same = self.identity(dir.reader, &dir.rel(name), &abs);
                        passed_over.push((dir.scope, abs, same));
                    }
                }
            }
            self.load_probe(dir, names::LOCAL_MD, local_scope(dir.scope), local, out);
        }
        for (scope, abs, same) in passed_over {
            if !self.was_loaded(&same) {
                let path = self.shown(scope, &abs);
                self.skip(scope, path, NotLoadedReason::FallbackUnused, "");
            }
        }
    }

    /// A directory read because a file below the cwd was read: `CLAUDE.md`,
    /// `.claude/CLAUDE.md`, `CLAUDE.local.md`, then its rules (never a
    /// fallback file).
    pub(crate) fn load_lazy_dir(&mut self, dir: &WalkDir<'a>, out: &mut Vec<Part>) {
        for (name, scope) in [
            (names::CLAUDE_MD, dir.scope),
            (names::DOT_CLAUDE_MD, dir.scope),
            (names::LOCAL_MD, local_scope(dir.scope)),
        ] {
            let probe = self.probe(dir, name);
            self.load_probe(dir, name, scope, probe, out);
        }
        self.load_rules(&RulesTree::walk(dir), out);
    }

    fn probe(&self, dir: &WalkDir<'a>, name: &str) -> Probe {
        let rel = dir.rel(name);
        if self.gated(dir.scope) {
            Probe::Withheld(exists(dir.reader, &rel))
        } else {
            Probe::Read(Read::of(dir.reader, &rel))
        }
    }

    fn load_probe(
        &mut self,
        dir: &WalkDir<'a>,
        name: &str,
        scope: Scope,
        probe: Probe,
        out: &mut Vec<Part>,
    ) {
        let source = Source {
            reader: dir.reader,
            rel: dir.rel(name),
            abs: dir.absolute(name),
            scope,
            depth: 0,
        };
        match probe {
            Probe::Withheld(false) | Probe::Read(Read::Missing) => {}
            Probe::Withheld(true) => {
                let path = self.shown(scope, &source.abs);
                self.skip(scope, path, NotLoadedReason::Withheld, "");
            }
            Probe::Read(read) => {
                self.load_read(&source, read, PartKind::Instructions, out);
            }
        }
    }
}

/// The scope of `CLAUDE.local.md` in a walk directory of `scope`.
fn local_scope(scope: Scope) -> Scope {
    if scope == Scope::Project {
        Scope::Local
    } else {
        scope
    }
}
