//! The precedence rules (SPEC §3.3) and the three ways of applying them:
//! to every name of the directories ([`resolve_all`]), to one name
//! ([`resolve_name`]), and name by name in order, for a consumer that stops
//! early ([`InOrder`]).

use std::collections::HashMap;
use std::io;

use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::tiers::dir::{Layout, SearchDir, Tier, Words};
use crate::prompt::tiers::fate::{Candidate, Fate};
use crate::prompt::tiers::walk::{self, DirEvent, Listed, Sink};
use crate::prompt::turn0::ReadFault;
use crate::workspace::{Bounded, EntryKind, WsError};

/// One kind of named file (rules, commands, skills): how its files are
/// read and judged, and how its events are worded.
pub trait Kind {
    /// What a usable file yields when it is read.
    type Item;

    /// The words and the refusal severity of the files of `dir`. One kind
    /// may search directories of two layouts in one precedence order (Claude
    /// Code's skills and commands share one namespace, SPEC §14.5); each
    /// directory's files are reported in their own words.
    fn words(&self, dir: &SearchDir<'_>) -> &Words;

    /// Reads and judges one file offered for its name (through
    /// [`read_listed`], which words every read failure the same way).
    /// `Ok` when the file is usable: it claims its name, and the notes
    /// (adjustments such as a cut body) are reported when it wins.
    fn load(&self, dir: &SearchDir<'_>, file: &Listed) -> Result<Loaded<Self::Item>, Loss>;

    /// Reports a subdirectory of a flat directory, or a link that may be
    /// one; silent by default.
    fn nested_dir(
        &self,
        dir: &SearchDir<'_>,
        rel: &str,
        name: &str,
        kind: EntryKind,
    ) -> Option<Diagnostic> {
        let _ = (dir, rel, name, kind);
        None
    }
}

/// A usable file as its kind loaded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded<T> {
    /// The value.
    pub item: T,
    /// Adjustments and hints, reported when the file wins (or, withheld,
    /// would win once trusted).
    pub notes: Vec<Diagnostic>,
}

/// Why a file offered for a name provides nothing.
#[derive(Debug)]
pub enum Loss {
    /// Nothing is there (only when the file was looked up by name, not
    /// listed): no candidate at all.
    Absent,
    /// Nothing is there, and the listing offered it by name without looking
    /// (a skill directory's `SKILL.md`): no candidate, this note instead.
    Noted(Diagnostic),
    /// The file is there and dropped: it claims nothing and the next
    /// directory's file may win.
    Dropped {
        /// Why, as a fate.
        fate: Fate,
        /// The diagnostic; "; X is used instead" is added when another
        /// file provides the name.
        diagnostic: Diagnostic,
        /// The operating-system error, for a read fault.
        fault: Option<io::Error>,
    },
}

impl Loss {
    /// A file dropped because its content cannot be used: fatal.
    pub fn malformed(source: &str, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        Loss::Dropped {
            diagnostic: Diagnostic::fatal(source, reason.clone()),
            fate: Fate::Malformed { reason },
            fault: None,
        }
    }
}

/// Reads at most `max_bytes` of `file`, trusting its listed kind; every
/// failure becomes the [`Loss`] all kinds report the same way.
pub fn read_listed(
    words: &Words,
    dir: &SearchDir<'_>,
    file: &Listed,
    max_bytes: u64,
) -> Result<Bounded, Loss> {
    let read = match file.kind {
        Some(kind) => dir.reader.read_listed(&file.rel, kind, max_bytes),
        None => dir.reader.read(&file.rel, max_bytes),
    };
    read.map_err(|err| loss(words, dir, file, err))
}

/// How a failure to read or look at `file` is reported (SPEC §3.1, §9).
fn loss(words: &Words, dir: &SearchDir<'_>, file: &Listed, err: WsError) -> Loss {
    let source = dir.display(&file.rel);
    let listed = file.kind.is_some();
    let dropped = |fate, severity, reason: String, fault| Loss::Dropped {
        fate,
        diagnostic: Diagnostic::new(severity, Some(source.clone()), reason),
        fault,
    };
    match err {
        WsError::NotFound | WsError::NotADirectory if !listed => Loss::Absent,
        WsError::NotFound if dir.layout == Layout::SkillDirs => {
            let skill_dir = file.rel.rsplit_once('/').map_or("", |(parent, _)| parent);
            Loss::Noted(walk::no_skill_file(dir, words, skill_dir))
        }
        WsError::Io(e) if !listed && e.kind() == io::ErrorKind::InvalidFilename => Loss::Absent,
        WsError::NotFound => dropped(
            Fate::NotFound {
                reason: "disappeared before it could be read".into(),
            },
            Severity::Warning,
            "disappeared before it could be read".into(),
            None,
        ),
        WsError::NotADirectory => dropped(
            Fate::Unreadable {
                cause: "a parent is not a directory".into(),
            },
            Severity::Fatal,
            "cannot be read: a parent is not a directory".into(),
            None,
        ),
        WsError::Refused(why) => dropped(
            Fate::RefusedSymlink {
                reason: why.clone(),
            },
            words.refusal,
            format!("refused symlink: {why}"),
            None,
        ),
        WsError::Unresolvable(why) => dropped(
            Fate::NotFound {
                reason: why.clone(),
            },
            Severity::Warning,
            format!("{why}; treated as not found"),
            None,
        ),
        WsError::NotRegular(what) => dropped(
            Fate::NotFound {
                reason: format!("not a regular file ({what})"),
            },
            Severity::Warning,
            format!("not a regular file ({what}); skipped without being opened"),
            None,
        ),
        WsError::Io(e) => dropped(
            Fate::Unreadable {
                cause: e.to_string(),
            },
            Severity::Fatal,
            format!("cannot be read: {e}"),
            Some(e),
        ),
    }
}

/// Finds out whether `file` is a usable file without reading it, trusting
/// a listing's kind unless it is a link or a skill's file (offered without
/// looking).
fn look(words: &Words, dir: &SearchDir<'_>, file: &Listed) -> Result<(), Loss> {
    let kind = match file.kind {
        Some(kind) if kind != EntryKind::Symlink && dir.layout != Layout::SkillDirs => Ok(kind),
        _ => dir.reader.stat(&file.rel),
    };
    let err = match kind {
        Ok(EntryKind::File) => return Ok(()),
        Ok(EntryKind::Dir) => WsError::NotRegular("directory"),
        Ok(EntryKind::Other(what)) => WsError::NotRegular(what),
        Ok(EntryKind::Symlink) => WsError::Unresolvable("symlink".into()),
        Err(err) => err,
    };
    Err(loss(words, dir, file, err))
}

/// What is done with the files of a name that is already provided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Losers {
    /// Read them (rules validate every file, so `rules list --check`
    /// fails on a broken shadowed file).
    Read,
    /// Only look whether they are usable, to report them as shadowed.
    Look,
    /// Leave them alone: no candidate, no diagnostic (assembly, which
    /// reports only the files it opens).
    Skip,
}

/// Which files are read (loaded by their kind) and which only looked at.
/// Files are never read beyond what the consumer needs (SPEC §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadPolicy {
    /// Read the file that can still claim its name (else only look whether
    /// it is usable: completion, a listing without descriptions).
    pub contender: bool,
    /// The files of a name already provided.
    pub losers: Losers,
    /// Read withheld files (to list or explain what trust would use).
    pub withheld: bool,
}

impl ReadPolicy {
    /// Read nothing: look at every file.
    pub const LOOK: Self = Self {
        contender: false,
        losers: Losers::Look,
        withheld: false,
    };
    /// Read every file.
    pub const ALL: Self = Self {
        contender: true,
        losers: Losers::Read,
        withheld: true,
    };
}

/// Who provides a name so far, per view: active directories see only
/// active claims; withheld directories also see withheld ones.
/// A claim is the index of the providing candidate in
/// [`Resolution::candidates`] (its source is cloned only to word a shadowed
/// or dropped file), so a listing of 10,000 names keeps no second copy of
/// each winner's path.
#[derive(Debug, Default)]
struct Claims {
    active: Option<u32>,
    withheld: Option<u32>,
    /// Dropped files waiting to learn what is used instead: (diagnostic
    /// index, from a withheld directory). Boxed, since few names have any:
    /// the table of 10,000 names stays a third smaller (a `Vec` alone is
    /// three words, its box one).
    #[allow(clippy::box_collection)]
    pending: Option<Box<Vec<(usize, bool)>>>,
}

impl Claims {
    fn holder(&self, withheld: bool) -> Option<u32> {
        match withheld {
            true => self.active.or(self.withheld),
            false => self.active,
        }
    }
}

/// The outcome of resolving names: every candidate with its fate, in the
/// order considered, and the diagnostics about every file and directory.
#[derive(Debug)]
pub struct Resolution<T> {
    /// The candidates, in the order they were considered.
    pub candidates: Vec<Candidate<T>>,
    /// Diagnostics about the directories and files, in the order met.
    pub diagnostics: Vec<Diagnostic>,
    /// The tier of each diagnostic's directory (parallel to `diagnostics`).
    tiers: Vec<Tier>,
    /// Read faults: directories that could not be listed, files that could
    /// not be read. Each is also in `diagnostics`.
    pub faults: Vec<ReadFault>,
}

impl<T> Default for Resolution<T> {
    fn default() -> Self {
        Self {
            candidates: Vec::new(),
            diagnostics: Vec::new(),
            tiers: Vec::new(),
            faults: Vec::new(),
        }
    }
}

impl<T> Resolution<T> {
    /// True when a file or directory of `tier` has a fatal diagnostic (for
    /// the project tier: what fails `rules list --check`, trusted or not).
    pub fn has_fatal_in(&self, tier: Tier) -> bool {
        self.diagnostics
            .iter()
            .zip(&self.tiers)
            .any(|(d, t)| *t == tier && d.severity == Severity::Fatal)
    }

    /// The diagnostics of one candidate.
    pub fn diagnostics_of<'a>(
        &'a self,
        candidate: &'a Candidate<T>,
    ) -> impl Iterator<Item = &'a Diagnostic> + 'a {
        candidate.diagnostics.iter().map(|&i| &self.diagnostics[i])
    }

    /// The winners, in the order considered.
    pub fn winners(&self) -> impl Iterator<Item = &Candidate<T>> {
        self.candidates.iter().filter(|c| c.fate == Fate::Winner)
    }

    fn push(&mut self, tier: Tier, diagnostic: Diagnostic) -> usize {
        self.diagnostics.push(diagnostic);
        self.tiers.push(tier);
        self.diagnostics.len() - 1
    }

    fn push_listing(&mut self, dir: &SearchDir<'_>, problem: walk::DirProblem) {
        self.push(dir.tier, problem.diagnostic);
        self.faults.extend(problem.fault);
    }

    /// Decides the fate of `file`, offered from `dirs[dir_index]` for its
    /// name, given who provides the name so far; `None` when nothing is
    /// there.
    fn consider<K: Kind<Item = T>>(
        &mut self,
        dirs: &[SearchDir<'_>],
        dir_index: usize,
        file: Listed,
        claims: &mut Claims,
        kind: &K,
        policy: ReadPolicy,
    ) -> Option<usize> {
        let dir = &dirs[dir_index];
        let words = kind.words(dir);
        let holder = claims
            .holder(dir.withheld)
            .map(|at| self.candidates[at as usize].source.clone());
        let read = match (dir.withheld, &holder) {
            (_, Some(_)) if policy.losers == Losers::Skip => return None,
            (true, None) => policy.withheld,
            (_, Some(_)) => policy.losers == Losers::Read,
            (false, None) => policy.contender,
        };
        // A FIFO, socket or device the listing saw is never handed to the
        // kind: looking at it is enough to drop it, unopened.
        let special = matches!(file.kind, Some(EntryKind::Other(_)));
        let outcome = if read && !special {
            kind.load(dir, &file).map(Some)
        } else {
            look(words, dir, &file).map(|()| None)
        };
        let mut candidate = Candidate {
            name: file.name,
            dir_index,
            source: dir.display(&file.rel),
            rel: file.rel,
            fate: Fate::Winner,
            item: None,
            diagnostics: Vec::new(),
        };
        match outcome {
            Err(Loss::Absent) => return None,
            Err(Loss::Noted(note)) => {
                self.push(dir.tier, note);
                return None;
            }
            Err(Loss::Dropped {
                fate,
                mut diagnostic,
                fault,
            }) => {
                if let Some(holder) = &holder {
                    diagnostic
                        .reason
                        .push_str(&format!("; {holder} is used instead"));
                }
                let index = self.push(dir.tier, diagnostic);
                if holder.is_none() {
                    claims
                        .pending
                        .get_or_insert_default()
                        .push((index, dir.withheld));
                }
                if let Some(source) = fault {
                    self.faults.push(ReadFault {
                        path: candidate.source.clone(),
                        source,
                    });
                }
                candidate.fate = fate;
                candidate.diagnostics.push(index);
            }
            Ok(loaded) => {
                if let Some(by) = holder {
                    let index = self.push(
                        dir.tier,
                        Diagnostic::warning(&candidate.source, format!("shadowed by {by}")),
                    );
                    candidate.diagnostics.push(index);
                    candidate.fate = Fate::Shadowed { by };
                } else {
                    self.claim(claims, dir.withheld, &candidate.source);
                    candidate.fate = if dir.withheld {
                        Fate::Withheld
                    } else {
                        Fate::Winner
                    };
                    if let Some(loaded) = loaded {
                        for note in loaded.notes {
                            let index = self.push(dir.tier, note);
                            candidate.diagnostics.push(index);
                        }
                        candidate.item = Some(loaded.item);
                    }
                }
            }
        }
        self.candidates.push(candidate);
        Some(self.candidates.len() - 1)
    }

    /// Records `source` as providing the name in its view, and names it in
    /// the diagnostics of the files dropped before it that see that view.
    /// The claim is the candidate pushed next.
    fn claim(&mut self, claims: &mut Claims, withheld: bool, source: &str) {
        let at = u32::try_from(self.candidates.len()).ok();
        if withheld {
            claims.withheld = at;
        } else {
            claims.active = at;
        }
        let Some(pending) = &mut claims.pending else {
            return;
        };
        let diagnostics = &mut self.diagnostics;
        pending.retain(|&(index, pending_withheld)| {
            let sees = pending_withheld || !withheld;
            if sees {
                diagnostics[index]
                    .reason
                    .push_str(&format!("; {source} is used instead"));
            }
            !sees
        });
    }
}

/// Lists every directory and resolves every name found (listings: `rules
/// list`, `commands list`, completion). Candidates and diagnostics come in
/// the order the directories and their entries are listed.
pub fn resolve_all<K: Kind>(
    dirs: &[SearchDir<'_>],
    kind: &K,
    policy: ReadPolicy,
) -> Resolution<K::Item> {
    let mut resolution = Resolution::default();
    let mut claims: HashMap<String, Claims> = HashMap::new();
    let nested =
        |d: &SearchDir<'_>, rel: &str, name: &str, k: EntryKind| kind.nested_dir(d, rel, name, k);
    for (dir_index, dir) in dirs.iter().enumerate() {
        let mut sink = Resolve {
            dirs,
            dir_index,
            kind,
            policy,
            claims: &mut claims,
            resolution: &mut resolution,
        };
        if let Err(Some(problem)) = walk::list_dir(dir, kind.words(dir), &nested, &mut sink) {
            resolution.push_listing(dir, problem);
        }
    }
    resolution
}

/// What [`resolve_all`] does with one directory's listing: each file is
/// considered for its name as it comes.
struct Resolve<'a, 'd, K: Kind> {
    dirs: &'a [SearchDir<'d>],
    dir_index: usize,
    kind: &'a K,
    policy: ReadPolicy,
    claims: &'a mut HashMap<String, Claims>,
    resolution: &'a mut Resolution<K::Item>,
}

impl<K: Kind> Sink for Resolve<'_, '_, K> {
    /// Makes room for every name of the directory at once: a table grown
    /// by doubling to 10,000 names touches twice the memory it ends with.
    fn expect(&mut self, entries: usize) {
        self.claims.reserve(entries);
    }

    fn event(&mut self, event: DirEvent) {
        match event {
            DirEvent::Note(note) => {
                self.resolution.push(self.dirs[self.dir_index].tier, note);
            }
            DirEvent::File(file) => {
                let claims = self.claims.entry(file.name.clone()).or_default();
                self.resolution.consider(
                    self.dirs,
                    self.dir_index,
                    file,
                    claims,
                    self.kind,
                    self.policy,
                );
            }
        }
    }
}

/// Every directory's place for one name and what became of the file there
/// (`expand`, `explain`).
#[derive(Debug)]
pub struct NameResolution<T> {
    /// The candidates that exist, in precedence order, and their diagnostics.
    pub resolution: Resolution<T>,
    /// Per searched directory, where the file for the name would be, as
    /// displayed (for a name that cannot be a file there, where it would
    /// be if it could: `explain` shows every place).
    pub places: Vec<String>,
}

impl<T> NameResolution<T> {
    /// The candidate in directory `dir_index`, when a file is there.
    pub fn candidate_in(&self, dir_index: usize) -> Option<&Candidate<T>> {
        self.resolution
            .candidates
            .iter()
            .find(|c| c.dir_index == dir_index)
    }

    /// The winning candidate.
    pub fn winner(&self) -> Option<&Candidate<T>> {
        self.resolution.winners().next()
    }
}

/// Looks up `name` in every directory, in precedence order, without
/// listing them (SPEC §5.5: expansion reads `<dir>/<name>.md` directly).
pub fn resolve_name<K: Kind>(
    dirs: &[SearchDir<'_>],
    name: &str,
    kind: &K,
    policy: ReadPolicy,
) -> NameResolution<K::Item> {
    let mut resolution = Resolution::default();
    let mut claims = Claims::default();
    let mut places = Vec::with_capacity(dirs.len());
    for (dir_index, dir) in dirs.iter().enumerate() {
        let Some(rel) = dir.file_for(name) else {
            places.push(dir.display(&dir.naive_file_for(name)));
            continue;
        };
        places.push(dir.display(&rel));
        let file = Listed {
            name: name.to_string(),
            rel,
            kind: None,
        };
        resolution.consider(dirs, dir_index, file, &mut claims, kind, policy);
    }
    NameResolution { resolution, places }
}

/// What [`InOrder::new`] keeps of one directory's listing: its files, in
/// room made once, and its notes as diagnostics.
struct Collect<'a, T> {
    files: &'a mut Vec<(usize, Listed)>,
    resolution: &'a mut Resolution<T>,
    dir_index: usize,
    tier: Tier,
}

impl<T> Sink for Collect<'_, T> {
    fn expect(&mut self, entries: usize) {
        self.files.reserve_exact(entries);
    }

    fn event(&mut self, event: DirEvent) {
        match event {
            DirEvent::File(file) => self.files.push((self.dir_index, file)),
            DirEvent::Note(note) => {
                self.resolution.push(self.tier, note);
            }
        }
    }
}

/// The files of every directory grouped by name, resolved one name at a
/// time in name order, so a consumer that stops early never opens the
/// files of the names after it (SPEC §11).
pub struct InOrder<'d, K: Kind> {
    dirs: &'d [SearchDir<'d>],
    kind: &'d K,
    policy: ReadPolicy,
    /// Every listed file with its directory's index, last name first, each
    /// name's files in precedence order; the names not resolved yet are
    /// the groups at `starts` (popped from the end). One vector instead
    /// of one per name: 10,000 rules cost no 10,000 allocations.
    files: Vec<(usize, Listed)>,
    /// Where each pending name's files start in `files`, ascending (the
    /// first name's start is last).
    starts: Vec<usize>,
    /// The candidates and diagnostics so far: the listings' diagnostics,
    /// then each resolved name's.
    pub resolution: Resolution<K::Item>,
}

impl<'d, K: Kind> InOrder<'d, K> {
    /// Lists every directory (listing diagnostics are collected now).
    pub fn new(dirs: &'d [SearchDir], kind: &'d K, policy: ReadPolicy) -> Self {
        let mut resolution = Resolution::default();
        let mut files: Vec<(usize, Listed)> = Vec::new();
        // Subdirectories go unreported: a consumer in name order reports
        // the files it lists and opens, not the tree around them.
        let quiet = |_: &SearchDir<'_>, _: &str, _: &str, _: EntryKind| None;
        for (dir_index, dir) in dirs.iter().enumerate() {
            let mut sink = Collect {
                files: &mut files,
                resolution: &mut resolution,
                dir_index,
                tier: dir.tier,
            };
            if let Err(Some(problem)) = walk::list_dir(dir, kind.words(dir), &quiet, &mut sink) {
                resolution.push_listing(dir, problem);
            }
        }
        // Last name first, so names pop off the end in order; the sort is
        // stable, so each name's files stay in precedence order. Names
        // listed strictly ascending (one directory, the usual case) have
        // one such order, their reverse, found without the sort's scratch
        // copy of every file.
        if files.is_sorted_by(|(_, a), (_, b)| a.name < b.name) {
            files.reverse();
        } else {
            files.sort_by(|(_, a), (_, b)| b.name.cmp(&a.name));
        }
        // Ascending starts: the first name's group, at the end of `files`,
        // is popped first.
        let starts: Vec<usize> = (0..files.len())
            .filter(|&at| at == 0 || files[at - 1].1.name != files[at].1.name)
            .collect();
        Self {
            dirs,
            kind,
            policy,
            files,
            starts,
            resolution,
        }
    }

    /// The number of names not resolved yet.
    pub fn remaining(&self) -> usize {
        self.starts.len()
    }

    /// The next name and its files (directory index, file), without
    /// resolving it.
    pub fn peek(&self) -> Option<(&str, &[(usize, Listed)])> {
        let &start = self.starts.last()?;
        let end = self.group_end();
        let group = &self.files[start..end];
        Some((group[0].1.name.as_str(), group))
    }

    /// Resolves the next name; returns the indices of its candidates in
    /// [`InOrder::resolution`].
    pub fn next_name(&mut self) -> Option<std::ops::Range<usize>> {
        let end = self.group_end();
        let first = self.starts.pop()?;
        let start = self.resolution.candidates.len();
        let mut claims = Claims::default();
        for (dir_index, file) in self.files.drain(first..end) {
            self.resolution.consider(
                self.dirs,
                dir_index,
                file,
                &mut claims,
                self.kind,
                self.policy,
            );
        }
        Some(start..self.resolution.candidates.len())
    }

    /// Takes back the diagnostics of candidate `index`, which must be the
    /// last one considered: its consumer could not use it after all (a
    /// rule that does not fit the message), so its adjustments are not
    /// reported (the model never sees it).
    pub fn unreport(&mut self, index: usize) {
        let candidate = &mut self.resolution.candidates[index];
        for &at in candidate.diagnostics.iter().rev() {
            if at + 1 == self.resolution.diagnostics.len() {
                self.resolution.diagnostics.pop();
                self.resolution.tiers.pop();
            }
        }
        candidate.diagnostics.clear();
    }

    /// Takes the names not resolved yet, leaving none: each name's first
    /// file in precedence order (the one that would have been tried
    /// first), names in order. Nothing is allocated per name.
    pub fn take_rest(&mut self) -> Vec<(usize, Listed)> {
        let starts = std::mem::take(&mut self.starts);
        let mut files = std::mem::take(&mut self.files);
        let mut firsts = starts.iter().peekable();
        let mut at = 0;
        files.retain(|_| {
            let first = firsts.next_if_eq(&&at).is_some();
            at += 1;
            first
        });
        files.reverse();
        files
    }

    /// Where the next name's group ends in `files`: the names resolved
    /// before it were drained off the end.
    fn group_end(&self) -> usize {
        self.files.len()
    }
}
