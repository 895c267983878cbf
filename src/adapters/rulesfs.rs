//! Rule files on disk (SPEC §7.1–§7.3, §3.2–§3.3): discovery across the
//! rule locations, precedence by name, and the filesystem [`RulesSource`].
//!
//! Each location is a directory read through its own [`Workspace`]: the
//! project locations through the confined workspace reader, the user
//! locations through readers that follow links. Files are flat
//! `<dir>/<name>.md`; the first location holding a name wins.
//!
//! Three entry points share the same listing, loading and precedence code:
//! [`discover`] reads every file of every location (for `rules list`),
//! [`assemble_rules`] reads only the bodies that can still be rendered (for
//! `assemble`), and [`candidates`] explains how one name resolved.
//!
//! Choices where the spec is open, kept consistent across the three:
//! - A file whose glob does not compile keeps its rule (the glob matches
//!   nothing, SPEC §7.5) but gets a fatal diagnostic, so `rules list
//!   --check` fails on it.
//! - A withheld (untrusted) location still resolves precedence among
//!   withheld locations, so `rules list` shows what trust would inject; a
//!   withheld rule never claims a name from a trusted or user location.
//! - A shadowed file is reported only as shadowed: its own adjustments
//!   (body cut, hints) are not, since it is not used.
//! - A symlink that cannot be resolved, a FIFO or other non-regular file,
//!   and a bare `.md` are skipped with a warning (SPEC §3.1); a refused
//!   symlink, an unreadable file, a file name that is not UTF-8 and
//!   malformed frontmatter are fatal. None of them claims its name.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::frontmatter;
use crate::prompt::glob::{PathMatcher, top_level_suggestion};
use crate::prompt::rules::{
    RenderedRules, Rule, RuleOrigin, RulesError, RulesMessage, RulesMessageBuilder, RulesSource,
    cap_body, sanitise_rule_name,
};
use crate::prompt::turn0::Delivery;
use crate::workspace::{DirEntry, EntryKind, LinkPolicy, OsWorkspace, Workspace, WsError, join};

/// The project rule directories, highest precedence first (SPEC §3.2).
pub const PROJECT_RULE_DIRS: [&str; 2] = [".mecatl/rules", ".claude/rules"];

const RULE_SUFFIX: &str = ".md";

/// One directory that may hold rule files.
#[derive(Clone)]
pub struct RuleLocation {
    /// The reader the directory is read through.
    pub reader: Arc<dyn Workspace>,
    /// The directory, relative to the reader's root (`""` for the root).
    pub dir: String,
    /// The tier its rules belong to.
    pub origin: RuleOrigin,
    /// True when the tier is withheld (untrusted project): its rules are
    /// listed and checked but never injected.
    pub withheld: bool,
}

impl RuleLocation {
    /// A user-tier location: `dir` under `root`, read with links followed.
    pub fn user(root: impl Into<PathBuf>, dir: &str) -> Self {
        Self {
            reader: Arc::new(OsWorkspace::new(root, LinkPolicy::Follow)),
            dir: dir.to_string(),
            origin: RuleOrigin::User,
            withheld: false,
        }
    }

    fn rel(&self, file: &str) -> String {
        join(&self.dir, file)
    }

    /// How a file of this location is named in diagnostics and output.
    fn display(&self, file: &str) -> String {
        self.reader.display(&self.rel(file))
    }
}

impl fmt::Debug for RuleLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuleLocation")
            .field("dir", &self.reader.display(&self.dir))
            .field("origin", &self.origin)
            .field("withheld", &self.withheld)
            .finish()
    }
}

/// The project locations (`.mecatl/rules`, then `.claude/rules`) read
/// through the workspace reader; `withheld` when the workspace is untrusted.
pub fn project_locations(reader: Arc<dyn Workspace>, withheld: bool) -> Vec<RuleLocation> {
    PROJECT_RULE_DIRS
        .iter()
        .map(|dir| RuleLocation {
            reader: Arc::clone(&reader),
            dir: (*dir).to_string(),
            origin: RuleOrigin::Project,
            withheld,
        })
        .collect()
}

/// A rule found by [`discover`], with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveredRule {
    /// The rule, body trimmed and capped.
    pub rule: Rule,
    /// The file, as its reader displays it.
    pub source: String,
    /// True when its location is withheld: listed, never injected.
    pub withheld: bool,
    /// True when the body was cut to the cap (or the file to the read bound).
    pub truncated: bool,
    /// The body's size in bytes, after trim and cap.
    pub bytes: usize,
}

/// Everything [`discover`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleDiscovery {
    /// Every rule that claimed its name, withheld ones included, sorted by
    /// name (a withheld rule sorts before an active one of the same name).
    pub rules: Vec<DiscoveredRule>,
    /// Diagnostics for every file and directory looked at, in the order
    /// they were met.
    pub diagnostics: Vec<Diagnostic>,
    project_fatal: bool,
}

impl RuleDiscovery {
    /// True when a project-tier file or directory has a fatal diagnostic
    /// (what fails `rules list --check`, trusted or not).
    pub fn has_project_fatal(&self) -> bool {
        self.project_fatal
    }

    /// The rules that are injected: those not withheld.
    pub fn active(&self) -> impl Iterator<Item = &DiscoveredRule> {
        self.rules.iter().filter(|found| !found.withheld)
    }
}

/// Diagnostics collected while reading, remembering whether a project-tier
/// one was fatal.
#[derive(Default)]
struct Report {
    diagnostics: Vec<Diagnostic>,
    project_fatal: bool,
}

impl Report {
    fn push(&mut self, origin: RuleOrigin, diagnostic: Diagnostic) {
        if origin == RuleOrigin::Project && diagnostic.severity == Severity::Fatal {
            self.project_fatal = true;
        }
        self.diagnostics.push(diagnostic);
    }

    fn extend(&mut self, origin: RuleOrigin, diagnostics: Vec<Diagnostic>) {
        for diagnostic in diagnostics {
            self.push(origin, diagnostic);
        }
    }
}

/// What happened to one candidate file, for `explain` (SPEC §2.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CandidateFate {
    /// It provides the rule.
    #[serde(rename = "winner")]
    Winner,
    /// A higher-precedence file provides the rule.
    #[serde(rename = "shadowed")]
    Shadowed,
    /// Its location is withheld because the workspace is untrusted.
    #[serde(rename = "withheld")]
    Withheld,
    /// It cannot be read (permission, I/O error, not a regular file).
    #[serde(rename = "unreadable")]
    Unreadable,
    /// Its frontmatter is malformed.
    #[serde(rename = "malformed")]
    Malformed,
    /// It is a symlink leading out of the workspace.
    #[serde(rename = "refused symlink")]
    RefusedSymlink,
    /// There is no such file (or it is a dangling link).
    #[serde(rename = "not found")]
    NotFound,
}

impl CandidateFate {
    /// The word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            CandidateFate::Winner => "winner",
            CandidateFate::Shadowed => "shadowed",
            CandidateFate::Withheld => "withheld",
            CandidateFate::Unreadable => "unreadable",
            CandidateFate::Malformed => "malformed",
            CandidateFate::RefusedSymlink => "refused symlink",
            CandidateFate::NotFound => "not found",
        }
    }
}

/// One location's file for a rule name, as [`candidates`] resolves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCandidate {
    /// The file (`<dir>/<name>.md`), as its reader displays it.
    pub source: String,
    /// The location's tier.
    pub origin: RuleOrigin,
    /// True when the location is withheld.
    pub withheld: bool,
    /// What happened to it.
    pub fate: CandidateFate,
    /// The parsed rule, when the file loaded.
    pub rule: Option<Rule>,
    /// True when the loaded body was cut.
    pub truncated: bool,
    /// Why it got its fate, and any adjustment made while loading.
    pub diagnostics: Vec<Diagnostic>,
}

/// A rule file that loaded.
struct Loaded {
    rule: Rule,
    truncated: bool,
    /// Adjustments, hints and glob errors; none of them drops the rule.
    notes: Vec<Diagnostic>,
}

impl Loaded {
    /// The rule as discovered from `source`, and the notes to report.
    fn discovered(self, source: String, withheld: bool) -> (DiscoveredRule, Vec<Diagnostic>) {
        let found = DiscoveredRule {
            bytes: self.rule.body.len(),
            rule: self.rule,
            source,
            withheld,
            truncated: self.truncated,
        };
        (found, self.notes)
    }
}

/// A file that does not provide a rule, and why.
struct Dropped {
    fate: CandidateFate,
    diagnostic: Diagnostic,
}

/// A `<name>.md` file or symlink of a location, to try.
struct RuleFile {
    /// The file name, `<name>.md`.
    file: String,
    /// What the listing said it is.
    kind: EntryKind,
}

impl RuleFile {
    /// The rule name: the file name minus `.md`.
    fn name(&self) -> &str {
        &self.file[..self.file.len() - RULE_SUFFIX.len()]
    }
}

/// What a directory entry is, for rules.
enum Entry {
    /// A rule file to try.
    Rule(RuleFile),
    /// A nested directory: not read, reported.
    Subdir(String),
    /// A `.md` entry skipped without being opened.
    Skipped(Dropped),
    /// Anything else.
    Ignored,
}

/// Lists a location. `Err(None)` when it does not exist; `Err(Some(_))`
/// with the diagnostic when it exists but cannot be listed.
fn list_entries(loc: &RuleLocation) -> Result<Vec<DirEntry>, Option<Diagnostic>> {
    let shown = loc.reader.display(&loc.dir);
    loc.reader.list(&loc.dir).map_err(|err| match err {
        WsError::NotFound => None,
        WsError::Unresolvable(why) => Some(Diagnostic::warning(
            shown,
            format!("rules directory is a {why}; treated as missing"),
        )),
        WsError::Refused(why) => Some(Diagnostic::fatal(
            shown,
            format!("rules directory not read: {why}"),
        )),
        WsError::NotADirectory | WsError::NotRegular(_) => Some(Diagnostic::fatal(
            shown,
            "is not a directory; no rules are read from it",
        )),
        WsError::Io(err) => Some(Diagnostic::fatal(
            shown,
            format!("rules directory cannot be listed: {err}"),
        )),
    })
}

/// A location's entries, classified; a location that cannot be listed is
/// reported and yields nothing.
fn list_classified(loc: &RuleLocation, report: &mut Report) -> Vec<Entry> {
    match list_entries(loc) {
        Ok(entries) => entries
            .into_iter()
            .map(|entry| classify(loc, entry))
            .collect(),
        Err(problem) => {
            report.extend(loc.origin, problem.into_iter().collect());
            Vec::new()
        }
    }
}

fn classify(loc: &RuleLocation, entry: DirEntry) -> Entry {
    if entry.kind == EntryKind::Dir {
        return Entry::Subdir(entry.name);
    }
    let Some(name) = entry.name.strip_suffix(RULE_SUFFIX) else {
        return Entry::Ignored;
    };
    let skipped = |fate, diagnostic| Entry::Skipped(Dropped { fate, diagnostic });
    if name.is_empty() {
        return skipped(
            CandidateFate::NotFound,
            Diagnostic::warning(
                loc.display(&entry.name),
                "a file named just `.md` has no rule name; skipped",
            ),
        );
    }
    if entry.lossy {
        return skipped(
            CandidateFate::Unreadable,
            Diagnostic::fatal(
                loc.display(&entry.name),
                "file name is not valid UTF-8, so the rule cannot be read; rule dropped",
            ),
        );
    }
    match entry.kind {
        EntryKind::File | EntryKind::Symlink => Entry::Rule(RuleFile {
            file: entry.name,
            kind: entry.kind,
        }),
        EntryKind::Other(kind) => skipped(
            CandidateFate::Unreadable,
            Diagnostic::warning(
                loc.display(&entry.name),
                format!("not a regular file ({kind}); skipped without being opened"),
            ),
        ),
        EntryKind::Dir => Entry::Subdir(entry.name),
    }
}

/// How much of a rule file is read first. It holds the frontmatter and a
/// body past the cap in all but odd files; a longer file is read again, up
/// to [`limits::MAX_RULE_FILE_BYTES`], only when its head cannot decide the
/// rule (see [`split_head`]). A 2 GiB rule costs 24 KiB, not 1 MiB.
const RULE_HEAD_BYTES: u64 = 24 * 1024;

/// A rule file's content split into frontmatter and capped body.
struct Parsed {
    parts: frontmatter::Split,
    body: String,
    cut: bool,
}

impl Parsed {
    fn of(bytes: &[u8]) -> Self {
        let parts = frontmatter::split(bytes);
        let (body, cut) = cap_body(&parts.body);
        Self { parts, body, cut }
    }
}

/// The rule a file over [`limits::MAX_RULE_FILE_BYTES`] gives, decided from
/// its head alone, or `None` when the rest of the bound could change it.
///
/// The head is a prefix of the bounded content; without a cut-off last
/// character, its frontmatter block and trimmed body are prefixes of what
/// the whole bound would give. Once the block closed inside the head (or
/// no block opens) and the trimmed body already passes the cap, the capped
/// body is the same. The one message that depends on the whole body's
/// length is not given for a file over the bound.
fn split_head(head: &[u8]) -> Option<Parsed> {
    let head = match std::str::from_utf8(head) {
        Err(err) if err.error_len().is_none() => &head[..err.valid_up_to()],
        _ => head,
    };
    let parsed = Parsed::of(head);
    let unclosed_block =
        parsed.parts.front.is_none() && head.strip_prefix(BOM).unwrap_or(head).starts_with(FENCE);
    (parsed.cut && !unclosed_block).then_some(parsed)
}

const BOM: &[u8] = "\u{feff}".as_bytes();
const FENCE: &[u8] = b"---";

/// Reads and parses one rule file.
fn load_rule(loc: &RuleLocation, found: &RuleFile) -> Result<Loaded, Dropped> {
    let (name, file) = (found.name(), found.file.as_str());
    let shown = loc.display(file);
    let rel = loc.rel(file);
    let read_up_to = |max| {
        loc.reader
            .read_listed(&rel, found.kind, max)
            .map_err(|err| read_failure(&shown, err))
    };
    let mut read = read_up_to(RULE_HEAD_BYTES)?;
    let head = match read.is_truncated() {
        false => Some(Parsed::of(&read.bytes)),
        true if read.size > limits::MAX_RULE_FILE_BYTES => split_head(&read.bytes),
        true => None,
    };
    let Parsed { parts, body, cut } = match head {
        Some(parsed) => parsed,
        None => {
            read = read_up_to(limits::MAX_RULE_FILE_BYTES)?;
            Parsed::of(&read.bytes)
        }
    };
    let paths = match parts.front.as_deref().map(frontmatter::parse_paths) {
        None => Vec::new(),
        Some(Ok(paths)) => paths,
        Some(Err(err)) => {
            return Err(Dropped {
                fate: CandidateFate::Malformed,
                diagnostic: Diagnostic::fatal(shown, err.to_string()),
            });
        }
    };
    let mut notes = Vec::new();
    if read.is_truncated() {
        notes.push(Diagnostic::warning(
            shown.clone(),
            format!(
                "file is {} bytes; only the first {} bytes are used and the body was cut to at \
                 most {} bytes",
                read.size,
                limits::MAX_RULE_FILE_BYTES,
                limits::MAX_RULE_BYTES
            ),
        ));
    } else if cut {
        notes.push(Diagnostic::warning(
            shown.clone(),
            format!(
                "body is {} bytes; cut to {} bytes, the rule body limit",
                parts.body.trim().len(),
                limits::MAX_RULE_BYTES
            ),
        ));
    }
    notes.extend(glob_notes(&shown, name, &paths));
    Ok(Loaded {
        rule: Rule {
            name: name.to_string(),
            body,
            paths,
            origin: loc.origin,
        },
        truncated: cut || read.is_truncated(),
        notes,
    })
}

/// Why a listed rule file could not be read.
fn read_failure(shown: &str, err: WsError) -> Dropped {
    let (fate, diagnostic) = match err {
        WsError::NotFound => (
            CandidateFate::NotFound,
            Diagnostic::warning(shown, "disappeared before it could be read"),
        ),
        WsError::Unresolvable(why) => (
            CandidateFate::NotFound,
            Diagnostic::warning(shown, format!("{why}; treated as not found")),
        ),
        WsError::Refused(why) => (
            CandidateFate::RefusedSymlink,
            Diagnostic::fatal(shown, format!("refused symlink: {why}")),
        ),
        WsError::NotRegular(kind) => (
            CandidateFate::Unreadable,
            Diagnostic::warning(
                shown,
                format!("not a regular file ({kind}); skipped without being opened"),
            ),
        ),
        WsError::NotADirectory => (
            CandidateFate::Unreadable,
            Diagnostic::fatal(shown, "cannot be read: a parent is not a directory"),
        ),
        WsError::Io(err) => (
            CandidateFate::Unreadable,
            Diagnostic::fatal(shown, format!("cannot be read: {err}")),
        ),
    };
    Dropped { fate, diagnostic }
}

/// A fatal diagnostic per glob that does not compile (the rule is kept;
/// the glob matches nothing), then an info hint per glob that only matches
/// at the workspace root.
fn glob_notes(shown: &str, name: &str, paths: &[String]) -> Vec<Diagnostic> {
    let bad_globs = PathMatcher::errors(paths);
    let compiles = |pattern: &String| !bad_globs.iter().any(|bad| bad.pattern == *pattern);
    let fatals = bad_globs.iter().map(|bad| {
        Diagnostic::fatal(
            shown,
            format!(
                "rule `{}`: pattern `{}` cannot be compiled ({}); it matches nothing",
                sanitise_rule_name(name),
                bad.pattern,
                bad.reason
            ),
        )
    });
    let hints = paths.iter().filter(|p| compiles(p)).filter_map(|pattern| {
        let anywhere = top_level_suggestion(pattern)?;
        Some(Diagnostic::info(
            shown,
            format!(
                "pattern `{pattern}` matches only files at the workspace root; write \
                 `{anywhere}` to match at any depth"
            ),
        ))
    });
    fatals.chain(hints).collect()
}

/// Names already provided, per view: trusted/user locations see only
/// active claims; withheld locations also see withheld ones.
#[derive(Default)]
struct Claims {
    active: HashMap<String, String>,
    withheld: HashMap<String, String>,
}

impl Claims {
    /// The source that already provides `name` as seen from a location.
    fn holder(&self, name: &str, withheld: bool) -> Option<&str> {
        self.active
            .get(name)
            .or_else(|| withheld.then(|| self.withheld.get(name)).flatten())
            .map(String::as_str)
    }

    /// Lets `source` claim `name` unless an earlier file holds it; returns
    /// the shadowing file's source when it does.
    fn claim(&mut self, name: &str, source: &str, withheld: bool) -> Option<String> {
        if let Some(holder) = self.holder(name, withheld) {
            return Some(holder.to_string());
        }
        let view = if withheld {
            &mut self.withheld
        } else {
            &mut self.active
        };
        view.insert(name.to_string(), source.to_string());
        None
    }
}

fn shadowed(source: &str, holder: &str) -> Diagnostic {
    Diagnostic::warning(source, format!("shadowed by {holder}"))
}

/// Completes a dropped file's reason with what provides the name instead.
fn note_replacement(diagnostic: &mut Diagnostic, holder: Option<&str>) {
    match holder {
        Some(holder) => diagnostic
            .reason
            .push_str(&format!("; rule dropped, {holder} is used instead")),
        None => diagnostic.reason.push_str("; rule dropped"),
    }
}

/// Counts the `.md` files below a nested directory, at any depth, without
/// following links.
fn count_nested_rules(reader: &dyn Workspace, rel: &str) -> usize {
    let mut count = 0;
    let mut pending = vec![rel.to_string()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = reader.list(&dir) else {
            continue;
        };
        for entry in entries {
            match entry.kind {
                EntryKind::Dir => pending.push(join(&dir, &entry.name)),
                EntryKind::File | EntryKind::Symlink if entry.name.ends_with(RULE_SUFFIX) => {
                    count += 1;
                }
                _ => {}
            }
        }
    }
    count
}

/// The warning for a nested directory of a location, with its `.md` count.
fn nested_warning(loc: &RuleLocation, name: &str) -> Diagnostic {
    let rel = loc.rel(name);
    let count = count_nested_rules(loc.reader.as_ref(), &rel);
    Diagnostic::warning(
        loc.reader.display(&rel),
        format!(
            "nested directory not read (rules are only the files directly in the rules \
             directory); it holds {count} .md file(s), which Claude Code would load"
        ),
    )
}

/// Reads every rule file of every location (SPEC §2.4, §7): withheld
/// locations included and marked, precedence by name, a diagnostic for
/// every file skipped, dropped, shadowed or adjusted.
pub fn discover(locations: &[RuleLocation]) -> RuleDiscovery {
    let mut report = Report::default();
    let mut claims = Claims::default();
    let mut rules = Vec::new();
    let mut dropped: Vec<(usize, String, bool)> = Vec::new();
    for loc in locations {
        for entry in list_classified(loc, &mut report) {
            match entry {
                Entry::Rule(found) => {
                    let source = loc.display(&found.file);
                    let name = found.name();
                    match load_rule(loc, &found) {
                        Ok(loaded) => match claims.claim(name, &source, loc.withheld) {
                            Some(holder) => report.push(loc.origin, shadowed(&source, &holder)),
                            None => {
                                let (found, notes) = loaded.discovered(source, loc.withheld);
                                report.extend(loc.origin, notes);
                                rules.push(found);
                            }
                        },
                        Err(lost) => {
                            if lost.diagnostic.severity == Severity::Fatal {
                                dropped.push((
                                    report.diagnostics.len(),
                                    name.to_string(),
                                    loc.withheld,
                                ));
                            }
                            report.push(loc.origin, lost.diagnostic);
                        }
                    }
                }
                Entry::Subdir(name) => report.push(loc.origin, nested_warning(loc, &name)),
                Entry::Skipped(lost) => report.push(loc.origin, lost.diagnostic),
                Entry::Ignored => {}
            }
        }
    }
    for (index, name, withheld) in dropped {
        note_replacement(
            &mut report.diagnostics[index],
            claims.holder(&name, withheld),
        );
    }
    rules.sort_by(|a, b| a.rule.name.cmp(&b.rule.name));
    RuleDiscovery {
        rules,
        diagnostics: report.diagnostics,
        project_fatal: report.project_fatal,
    }
}

/// The filesystem [`RulesSource`]: a snapshot of the active (not withheld)
/// rules of a discovery.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FsRulesSource {
    rules: Vec<Rule>,
}

impl FsRulesSource {
    /// The active rules of `discovery`, sorted by name.
    pub fn from_discovery(discovery: &RuleDiscovery) -> Self {
        Self {
            rules: discovery.active().map(|found| found.rule.clone()).collect(),
        }
    }

    /// Discovers `locations` and keeps the active rules; the diagnostics are
    /// returned beside the source.
    pub fn load(locations: &[RuleLocation]) -> (Self, Vec<Diagnostic>) {
        let discovery = discover(locations);
        (Self::from_discovery(&discovery), discovery.diagnostics)
    }
}

impl RulesSource for FsRulesSource {
    fn deliver(
        &self,
        max_bytes: usize,
        max_count: usize,
    ) -> Delivery<Result<RulesMessage, RulesError>> {
        Delivery::of(Ok(RulesMessage::render(&self.rules, max_bytes, max_count)))
    }
}

/// What [`assemble_rules`] produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AssembledRules {
    /// The rules message, `None` when no rule exists.
    pub message: Option<RenderedRules>,
    /// The rules shown in the message, in order.
    pub shown: Vec<DiscoveredRule>,
    /// Diagnostics for the directories listed and the files opened.
    pub diagnostics: Vec<Diagnostic>,
    /// Every file opened, with its tier, in the order read.
    pub read: Vec<(String, RuleOrigin)>,
}

/// Builds the rules message reading as little as possible (SPEC §11): the
/// active locations are listed, names resolved by precedence from the
/// listings, and bodies read in name order only while the message can
/// still take a rule. Files never opened count as discovered in the
/// footer. Caps of 0 select the defaults. Withheld locations are skipped.
///
/// For the same files this renders exactly what [`discover`] +
/// [`FsRulesSource`] + [`crate::prompt::rules::RulesAssembler`] render,
/// except that when the caps are hit, unopened files that would have been
/// dropped still count in the footer's N.
pub fn assemble_rules(
    locations: &[RuleLocation],
    max_bytes: usize,
    max_count: usize,
) -> AssembledRules {
    let mut report = Report::default();
    // Every rule file of the active locations, by name, each name's files
    // in precedence order (a stable sort of runs that are already nearly
    // sorted: each listing is sorted by file name).
    let mut files: Vec<(&RuleLocation, RuleFile)> = Vec::new();
    for loc in locations.iter().filter(|loc| !loc.withheld) {
        for entry in list_classified(loc, &mut report) {
            match entry {
                Entry::Rule(found) => files.push((loc, found)),
                Entry::Skipped(lost) => report.push(loc.origin, lost.diagnostic),
                Entry::Subdir(_) | Entry::Ignored => {}
            }
        }
    }
    files.sort_by(|(_, a), (_, b)| a.name().cmp(b.name()));
    let groups = files.chunk_by(|(_, a), (_, b)| a.name() == b.name());
    let discovered = groups.clone().count();
    let mut builder = RulesMessageBuilder::new(max_bytes, max_count);
    let mut read = Vec::new();
    let mut shown = Vec::new();
    let mut unavailable = 0;
    for group in groups {
        if !builder.accepts_more() {
            break;
        }
        let mut lost = Vec::new();
        let mut winner = None;
        for (loc, found) in group {
            let source = loc.display(&found.file);
            read.push((source.clone(), loc.origin));
            match load_rule(loc, found) {
                Ok(loaded) => {
                    winner = Some((loc, source, loaded));
                    break;
                }
                Err(dropped) => lost.push((loc.origin, dropped.diagnostic)),
            }
        }
        let holder = winner.as_ref().map(|(_, source, _)| source.as_str());
        for (origin, mut diagnostic) in lost {
            if diagnostic.severity == Severity::Fatal {
                note_replacement(&mut diagnostic, holder);
            }
            report.push(origin, diagnostic);
        }
        let Some((loc, source, loaded)) = winner else {
            unavailable += 1;
            continue;
        };
        if !builder.try_push(&loaded.rule) {
            break;
        }
        let (found, notes) = loaded.discovered(source, false);
        report.extend(loc.origin, notes);
        shown.push(found);
    }
    AssembledRules {
        message: builder.finish(discovered - unavailable),
        shown,
        diagnostics: report.diagnostics,
        read,
    }
}

/// Every location's file for the rule `name`, in precedence order, with
/// its fate (SPEC §2.8). A location without the file yields a `not found`
/// candidate.
pub fn candidates(locations: &[RuleLocation], name: &str) -> Vec<RuleCandidate> {
    let file = format!("{name}{RULE_SUFFIX}");
    let mut claims = Claims::default();
    locations
        .iter()
        .map(|loc| {
            let source = loc.display(&file);
            let mut candidate = RuleCandidate {
                source: source.clone(),
                origin: loc.origin,
                withheld: loc.withheld,
                fate: CandidateFate::NotFound,
                rule: None,
                truncated: false,
                diagnostics: Vec::new(),
            };
            if name.is_empty() || name.contains('/') {
                return candidate;
            }
            let entry = match list_entries(loc) {
                Ok(entries) => entries.into_iter().find(|entry| entry.name == file),
                Err(problem) => {
                    if let Some(problem) = problem {
                        if problem.severity == Severity::Fatal {
                            candidate.fate = CandidateFate::Unreadable;
                        }
                        candidate.diagnostics.push(problem);
                    }
                    return candidate;
                }
            };
            let outcome = match entry.map(|entry| classify(loc, entry)) {
                Some(Entry::Rule(found)) => load_rule(loc, &found),
                Some(Entry::Skipped(lost)) => Err(lost),
                Some(Entry::Subdir(_) | Entry::Ignored) | None => return candidate,
            };
            match outcome {
                Ok(loaded) => {
                    candidate.fate = match claims.claim(name, &source, loc.withheld) {
                        Some(holder) => {
                            candidate.diagnostics.push(shadowed(&source, &holder));
                            CandidateFate::Shadowed
                        }
                        None => {
                            candidate.diagnostics = loaded.notes;
                            if loc.withheld {
                                CandidateFate::Withheld
                            } else {
                                CandidateFate::Winner
                            }
                        }
                    };
                    candidate.truncated = loaded.truncated;
                    candidate.rule = Some(loaded.rule);
                }
                Err(lost) => {
                    candidate.fate = lost.fate;
                    candidate.diagnostics.push(lost.diagnostic);
                }
            }
            candidate
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::rules::RULE_FIXTURE;
    use crate::prompt::rules::{RULES_HEADER, RulesAssembler, render_rule_block};
    use crate::prompt::turn0::InstructionAssembler;
    use crate::workspace::{MemNode, MemWorkspace};
    use proptest::prelude::Strategy;

    const USER_CONFIG: &str = "/home/u/.config/mecatl";
    const USER_CLAUDE: &str = "/home/u/.claude";

    /// The four locations of SPEC §3.2 over in-memory trees.
    fn four(
        project: MemWorkspace,
        config: MemWorkspace,
        claude: MemWorkspace,
        withheld: bool,
    ) -> Vec<RuleLocation> {
        let mut locations = project_locations(Arc::new(project), withheld);
        for (tree, root) in [(config, USER_CONFIG), (claude, USER_CLAUDE)] {
            locations.push(RuleLocation {
                reader: Arc::new(tree.with_policy(LinkPolicy::Follow).with_root(root)),
                dir: "rules".into(),
                origin: RuleOrigin::User,
                withheld: false,
            });
        }
        locations
    }

    fn project_only(project: MemWorkspace) -> Vec<RuleLocation> {
        project_locations(Arc::new(project), false)
    }

    fn summary(found: &RuleDiscovery) -> Vec<(String, String, bool)> {
        found
            .rules
            .iter()
            .map(|r| (r.rule.name.clone(), r.source.clone(), r.withheld))
            .collect()
    }

    fn diags(found: &[Diagnostic]) -> Vec<(Severity, String, String)> {
        found
            .iter()
            .map(|d| {
                (
                    d.severity,
                    d.path.clone().unwrap_or_default(),
                    d.reason.clone(),
                )
            })
            .collect()
    }

    fn row(name: &str, source: &str, withheld: bool) -> (String, String, bool) {
        (name.into(), source.into(), withheld)
    }

    fn diag(severity: Severity, path: &str, reason: &str) -> (Severity, String, String) {
        (severity, path.into(), reason.into())
    }

    #[test]
    fn precedence_across_the_four_locations() {
        let project = MemWorkspace::new()
            .file(".mecatl/rules/x.md", "mecatl x")
            .file(".claude/rules/x.md", "claude x")
            .file(".claude/rules/y.md", "claude y");
        let config = MemWorkspace::new()
            .file("rules/x.md", "config x")
            .file("rules/y.md", "config y")
            .file("rules/z.md", "config z");
        let claude = MemWorkspace::new()
            .file("rules/x.md", "home x")
            .file("rules/z.md", "home z")
            .file("rules/w.md", "home w");
        let found = discover(&four(project, config, claude, false));
        assert_eq!(
            summary(&found),
            vec![
                row("w", "/home/u/.claude/rules/w.md", false),
                row("x", ".mecatl/rules/x.md", false),
                row("y", ".claude/rules/y.md", false),
                row("z", "/home/u/.config/mecatl/rules/z.md", false),
            ]
        );
        let origins: Vec<_> = found.rules.iter().map(|r| r.rule.origin).collect();
        assert_eq!(
            origins,
            vec![
                RuleOrigin::User,
                RuleOrigin::Project,
                RuleOrigin::Project,
                RuleOrigin::User
            ]
        );
        assert_eq!(found.rules[1].rule.body, "mecatl x");
        use Severity::Warning;
        assert_eq!(
            diags(&found.diagnostics),
            vec![
                diag(
                    Warning,
                    ".claude/rules/x.md",
                    "shadowed by .mecatl/rules/x.md"
                ),
                diag(
                    Warning,
                    "/home/u/.config/mecatl/rules/x.md",
                    "shadowed by .mecatl/rules/x.md"
                ),
                diag(
                    Warning,
                    "/home/u/.config/mecatl/rules/y.md",
                    "shadowed by .claude/rules/y.md"
                ),
                diag(
                    Warning,
                    "/home/u/.claude/rules/x.md",
                    "shadowed by .mecatl/rules/x.md"
                ),
                diag(
                    Warning,
                    "/home/u/.claude/rules/z.md",
                    "shadowed by /home/u/.config/mecatl/rules/z.md"
                ),
            ]
        );
        assert!(!found.has_project_fatal());
    }

    #[test]
    fn a_fatally_dropped_file_does_not_claim_its_name() {
        let project = MemWorkspace::new()
            .file(".mecatl/rules/x.md", "---\npaths: **/*.ts\n---\nbad")
            .file(".claude/rules/x.md", "good x")
            .file(".claude/rules/only.md", "---\npaths: [\n---\nbad");
        let found = discover(&project_only(project));
        assert_eq!(summary(&found), vec![row("x", ".claude/rules/x.md", false)]);
        assert_eq!(
            diags(&found.diagnostics),
            vec![
                diag(
                    Severity::Fatal,
                    ".mecatl/rules/x.md",
                    "malformed YAML frontmatter at line 2, column 8: an unquoted value starting \
                     with `*` is a YAML alias, not a glob; quote the glob, e.g. `paths: \
                     \"**/*.ts\"`; rule dropped, .claude/rules/x.md is used instead"
                ),
                diag(
                    Severity::Fatal,
                    ".claude/rules/only.md",
                    "malformed YAML frontmatter at line 2, column 8: invalid YAML (a `[…]` or \
                     `{…}` collection is not closed properly); rule dropped"
                ),
            ]
        );
        assert!(found.has_project_fatal());
    }

    #[test]
    fn user_tier_fatals_do_not_fail_the_project_check() {
        let config = MemWorkspace::new().file("rules/bad.md", "---\npaths: {a: 1}\n---\nx");
        let found = discover(&four(
            MemWorkspace::new(),
            config,
            MemWorkspace::new(),
            false,
        ));
        assert_eq!(found.diagnostics.len(), 1);
        assert_eq!(found.diagnostics[0].severity, Severity::Fatal);
        assert!(!found.has_project_fatal());
    }

    #[test]
    fn withheld_rules_are_listed_but_claim_nothing() {
        let project = MemWorkspace::new()
            .file(".mecatl/rules/x.md", "project x")
            .file(".claude/rules/x.md", "claude x")
            .file(".claude/rules/p.md", "---\npaths: [\n---\n");
        let config = MemWorkspace::new().file("rules/x.md", "user x");
        let found = discover(&four(project, config, MemWorkspace::new(), true));
        assert_eq!(
            summary(&found),
            vec![
                row("x", ".mecatl/rules/x.md", true),
                row("x", "/home/u/.config/mecatl/rules/x.md", false),
            ]
        );
        assert_eq!(
            diags(&found.diagnostics)
                .into_iter()
                .map(|(s, p, _)| (s, p))
                .collect::<Vec<_>>(),
            vec![
                (Severity::Fatal, ".claude/rules/p.md".to_string()),
                (Severity::Warning, ".claude/rules/x.md".to_string()),
            ]
        );
        assert_eq!(
            found.diagnostics[1].reason,
            "shadowed by .mecatl/rules/x.md"
        );
        // Broken project files fail the check even when withheld.
        assert!(found.has_project_fatal());
        let active = FsRulesSource::from_discovery(&found).list_rules().unwrap();
        assert_eq!(active.len(), 1);
        assert_eq!(active[0].body, "user x");
        assert_eq!(active[0].origin, RuleOrigin::User);
    }

    #[test]
    fn listing_rules_names_dotfiles_and_case() {
        let project = MemWorkspace::new()
            .file(".claude/rules/b.md", "b")
            .file(".claude/rules/.hidden.md", "h")
            .file(".claude/rules/A.md", "a")
            .file(".claude/rules/upper.MD", "ignored")
            .file(".claude/rules/notes.txt", "ignored")
            .file(".claude/rules/with space.md", "s")
            .file(".claude/rules/.md", "bare");
        let found = discover(&project_only(project));
        let names: Vec<_> = found.rules.iter().map(|r| r.rule.name.as_str()).collect();
        assert_eq!(names, vec![".hidden", "A", "b", "with space"]);
        assert_eq!(
            diags(&found.diagnostics),
            vec![diag(
                Severity::Warning,
                ".claude/rules/.md",
                "a file named just `.md` has no rule name; skipped"
            )]
        );
    }

    #[test]
    fn hostile_file_names_stay_on_one_line_when_rendered() {
        let project = MemWorkspace::new().file(
            ".claude/rules/a\"b<c>\r\nd.md",
            "---\npaths: '[z-a'\n---\nbody",
        );
        let found = discover(&project_only(project));
        let rule = &found.rules[0].rule;
        assert_eq!(rule.name, "a\"b<c>\r\nd");
        assert_eq!(
            render_rule_block(rule),
            "<rule name=\"a'bc  d\">\nApplies when: [z-a\nbody\n</rule>"
        );
        assert_eq!(found.diagnostics.len(), 1);
        let reason = &found.diagnostics[0].reason;
        assert!(reason.starts_with("rule `a'bc  d`: pattern `[z-a` cannot be compiled"));
        assert!(!reason.contains(['\r', '\n']));
    }

    #[test]
    fn nested_directories_are_reported_with_their_counts() {
        let project = MemWorkspace::new()
            .file(".claude/rules/top.md", "t")
            .file(".claude/rules/sub/a.md", "a")
            .file(".claude/rules/sub/deeper/b.md", "b")
            .file(".claude/rules/sub/readme.txt", "x")
            .file(".claude/rules/x.md/c.md", "c")
            .node(".claude/rules/empty", MemNode::Dir);
        let found = discover(&project_only(project));
        assert_eq!(
            summary(&found),
            vec![row("top", ".claude/rules/top.md", false)]
        );
        let nested = |n: usize| {
            format!(
                "nested directory not read (rules are only the files directly in the rules \
                 directory); it holds {n} .md file(s), which Claude Code would load"
            )
        };
        assert_eq!(
            diags(&found.diagnostics),
            vec![
                diag(Severity::Warning, ".claude/rules/empty", &nested(0)),
                diag(Severity::Warning, ".claude/rules/sub", &nested(2)),
                diag(Severity::Warning, ".claude/rules/x.md", &nested(1)),
            ]
        );
    }

    #[test]
    fn a_location_that_is_not_a_directory_is_fatal_and_others_still_load() {
        let project = MemWorkspace::new()
            .file(".mecatl/rules", "I am a file")
            .file(".claude/rules/ok.md", "ok");
        let found = discover(&project_only(project));
        assert_eq!(
            summary(&found),
            vec![row("ok", ".claude/rules/ok.md", false)]
        );
        assert_eq!(
            diags(&found.diagnostics),
            vec![diag(
                Severity::Fatal,
                ".mecatl/rules",
                "is not a directory; no rules are read from it"
            )]
        );
        assert!(found.has_project_fatal());
    }

    #[test]
    fn an_unlistable_location_is_fatal() {
        let project = MemWorkspace::new()
            .node(".mecatl/rules", MemNode::Unreadable)
            .file(".claude/rules/ok.md", "ok");
        let found = discover(&project_only(project));
        assert_eq!(found.rules.len(), 1);
        assert_eq!(found.diagnostics.len(), 1);
        assert_eq!(found.diagnostics[0].severity, Severity::Fatal);
        assert!(
            found.diagnostics[0]
                .reason
                .starts_with("rules directory cannot be listed: ")
        );
    }

    #[test]
    fn missing_and_empty_locations_give_nothing() {
        let project = MemWorkspace::new().node(".claude/rules", MemNode::Dir);
        let found = discover(&four(
            project,
            MemWorkspace::new(),
            MemWorkspace::new(),
            false,
        ));
        assert_eq!(found, RuleDiscovery::default());
    }

    #[test]
    fn links_special_files_and_unreadable_files() {
        let project = MemWorkspace::new()
            .file("outside-ok.md", "inside link target")
            .node(
                ".claude/rules/leak.md",
                MemNode::Symlink("/etc/passwd".into()),
            )
            .node(
                ".claude/rules/dangling.md",
                MemNode::Symlink("nope.md".into()),
            )
            .node(
                ".claude/rules/inner.md",
                MemNode::Symlink("../../outside-ok.md".into()),
            )
            .node(".claude/rules/fifo.md", MemNode::Special("FIFO"))
            .node(".claude/rules/locked.md", MemNode::Unreadable);
        let config = MemWorkspace::new().file("rules/leak.md", "user leak");
        let found = discover(&four(project, config, MemWorkspace::new(), false));
        assert_eq!(
            summary(&found),
            vec![
                row("inner", ".claude/rules/inner.md", false),
                row("leak", "/home/u/.config/mecatl/rules/leak.md", false),
            ]
        );
        assert_eq!(found.rules[0].rule.body, "inside link target");
        use Severity::{Fatal, Warning};
        assert_eq!(
            diags(&found.diagnostics),
            vec![
                diag(
                    Warning,
                    ".claude/rules/dangling.md",
                    "dangling symlink; treated as not found"
                ),
                diag(
                    Warning,
                    ".claude/rules/fifo.md",
                    "not a regular file (FIFO); skipped without being opened"
                ),
                diag(
                    Fatal,
                    ".claude/rules/leak.md",
                    "refused symlink: symlink resolves outside the workspace; not followed; \
                     rule dropped, /home/u/.config/mecatl/rules/leak.md is used instead"
                ),
                diag(
                    Fatal,
                    ".claude/rules/locked.md",
                    "cannot be read: permission denied; rule dropped"
                ),
            ]
        );
    }

    #[test]
    fn body_cap_boundaries_and_warning() {
        let at = "a".repeat(limits::MAX_RULE_BYTES);
        let over = "b".repeat(limits::MAX_RULE_BYTES + 1);
        let project = MemWorkspace::new()
            .file(".claude/rules/at.md", format!("\n{at}\n\n"))
            .file(".claude/rules/over.md", &over);
        let found = discover(&project_only(project));
        let at_rule = &found.rules[0];
        assert_eq!(
            (at_rule.bytes, at_rule.truncated),
            (limits::MAX_RULE_BYTES, false)
        );
        let over_rule = &found.rules[1];
        assert_eq!(
            (over_rule.bytes, over_rule.truncated),
            (limits::MAX_RULE_BYTES, true)
        );
        assert!(over_rule.rule.body.ends_with('…'));
        assert_eq!(
            diags(&found.diagnostics),
            vec![diag(
                Severity::Warning,
                ".claude/rules/over.md",
                "body is 20481 bytes; cut to 20480 bytes, the rule body limit"
            )]
        );
    }

    #[test]
    fn huge_files_are_read_with_a_bound() {
        let size = limits::MAX_RULE_FILE_BYTES as usize + 10;
        let project = MemWorkspace::new().file(".claude/rules/huge.md", "z".repeat(size));
        let found = discover(&project_only(project));
        assert_eq!(found.rules[0].bytes, limits::MAX_RULE_BYTES);
        assert!(found.rules[0].truncated);
        assert_eq!(
            found.diagnostics[0].reason,
            format!(
                "file is {size} bytes; only the first 1048576 bytes are used and the body was \
                 cut to at most 20480 bytes"
            )
        );
    }

    /// A parsed rule file as comparable values: front, capped body, cut.
    type Summary = (Option<String>, String, bool);

    /// What the head decides, next to what the whole bounded content gives.
    fn head_and_whole(content: &[u8], head: usize) -> Option<(Summary, Summary)> {
        let summary = |p: Parsed| (p.parts.front, p.body, p.cut);
        let decided = split_head(&content[..head.min(content.len())])?;
        Some((summary(decided), summary(Parsed::of(content))))
    }

    #[test]
    fn a_head_decides_only_what_the_rest_cannot_change() {
        let cap = limits::MAX_RULE_BYTES;
        let long = "x".repeat(cap + 100);
        // A closed block and a body already past the cap: decided.
        let closed = format!("---\npaths: a\n---\n{long}more");
        let (head, whole) = head_and_whole(closed.as_bytes(), closed.len() - 4).unwrap();
        assert_eq!(head, whole);
        assert!(head.2 && head.0.as_deref() == Some("paths: a\n"));
        // No block at all, CRLF and a BOM kept in the body: decided.
        let plain = format!("\u{feff}Rule\r\n{long}");
        let (head, whole) = head_and_whole(plain.as_bytes(), cap + 50).unwrap();
        assert_eq!(head, whole);
        // A block that has not closed in the head: the rest decides.
        let open = format!("---\npaths: a\n{long}\n---\nbody");
        assert!(head_and_whole(open.as_bytes(), cap + 50).is_none());
        // A body within the cap so far: trailing text may or may not follow.
        let short = format!("Rule{}{long}", " ".repeat(cap + 50));
        assert!(head_and_whole(short.as_bytes(), cap + 20).is_none());
        // A head cut inside a whitespace character (U+3000) does not count
        // it as text.
        let wide = format!("x{}\u{3000}", " ".repeat(cap + 10));
        assert!(head_and_whole(wide.as_bytes(), wide.len() - 1).is_none());
    }

    fn segment() -> impl Strategy<Value = Vec<u8>> {
        let pieces: Vec<&'static [u8]> = vec![
            b"---\n",
            b"---\r\n",
            b"---",
            b"\r\n",
            b"\n",
            b"\r",
            b" ",
            b"\t",
            b"x",
            "\u{3000}".as_bytes(),
            "\u{e9}".as_bytes(),
            "\u{feff}".as_bytes(),
            b"\xff",
            b"\xe3\x80",
            b"paths: a\n",
        ];
        (proptest::sample::select(pieces), 1..3000usize).prop_map(|(piece, n)| piece.repeat(n))
    }

    proptest::proptest! {
        #[test]
        fn a_decided_head_gives_what_the_whole_bound_gives(
            parts in proptest::collection::vec(segment(), 1..40),
            at in 0.0..1.0f64,
        ) {
            let content = parts.concat();
            let head = (content.len() as f64 * at) as usize;
            if let Some((head, whole)) = head_and_whole(&content, head) {
                proptest::prop_assert_eq!(head, whole);
            }
        }
    }

    #[test]
    fn huge_files_are_read_from_their_head() {
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join(".claude/rules");
        std::fs::create_dir_all(&rules).unwrap();
        let file = std::fs::File::create(rules.join("huge.md")).unwrap();
        std::io::Write::write_all(&mut &file, b"Huge rule\n").unwrap();
        file.set_len(4 * limits::MAX_RULE_FILE_BYTES).unwrap();
        let reader = Arc::new(OsWorkspace::new(dir.path(), LinkPolicy::Confine));
        let found = discover(&project_locations(reader, false));
        let rule = &found.rules[0];
        assert_eq!((rule.bytes, rule.truncated), (limits::MAX_RULE_BYTES, true));
        let kept = limits::MAX_RULE_BYTES - '…'.len_utf8();
        assert_eq!(
            rule.rule.body,
            format!("Huge rule\n{}…", "\0".repeat(kept - "Huge rule\n".len()))
        );
    }

    #[test]
    fn globs_are_checked_and_top_level_patterns_hinted() {
        let project = MemWorkspace::new().file(
            ".claude/rules/web.md",
            "---\npaths: ['**/*.{ts', '*.ts', go.mod]\n---\nBody",
        );
        let found = discover(&project_only(project));
        assert_eq!(found.rules.len(), 1, "the rule is kept");
        assert_eq!(
            found.rules[0].rule.paths,
            vec!["**/*.{ts", "*.ts", "go.mod"]
        );
        let got = diags(&found.diagnostics);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, Severity::Fatal);
        assert!(
            got[0]
                .2
                .starts_with("rule `web`: pattern `**/*.{ts` cannot be compiled ("),
            "{}",
            got[0].2
        );
        assert!(got[0].2.ends_with("); it matches nothing"));
        assert_eq!(
            got[1],
            diag(
                Severity::Info,
                ".claude/rules/web.md",
                "pattern `*.ts` matches only files at the workspace root; write `**/*.ts` to \
                 match at any depth"
            )
        );
        assert!(found.has_project_fatal());
    }

    #[test]
    fn frontmatter_and_crlf_reach_the_rule() {
        let project = MemWorkspace::new()
            .file(
                ".claude/rules/a.md",
                "\u{feff}---\r\npaths: \"src/**, **/*.{ts,tsx}\"\r\nname: ignored\r\n---\r\n\r\nLine 1\r\nLine 2\r\n",
            )
            .file(".claude/rules/b.md", "\u{feff}No frontmatter\r\n");
        let found = discover(&project_only(project));
        assert_eq!(found.rules[0].rule.name, "a");
        assert_eq!(found.rules[0].rule.paths, vec!["src/**", "**/*.{ts,tsx}"]);
        assert_eq!(found.rules[0].rule.body, "Line 1\nLine 2");
        assert_eq!(found.rules[1].rule.body, "\u{feff}No frontmatter");
    }

    #[test]
    fn user_location_constructor_reads_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("rules")).unwrap();
        std::fs::write(dir.path().join("rules/u.md"), "user rule").unwrap();
        let loc = RuleLocation::user(dir.path(), "rules");
        assert_eq!(loc.origin, RuleOrigin::User);
        assert!(!loc.withheld);
        let found = discover(&[loc]);
        assert_eq!(
            summary(&found),
            vec![row(
                "u",
                &dir.path().join("rules/u.md").display().to_string(),
                false
            )]
        );
    }

    #[test]
    fn os_fifo_and_escaping_link_never_block_or_leak() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join(".claude/rules");
        std::fs::create_dir_all(&rules).unwrap();
        std::fs::write(rules.join("ok.md"), "fine").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), rules.join("leak.md")).unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(rules.join("pipe.md"))
            .status()
            .unwrap();
        assert!(status.success());
        let reader = Arc::new(OsWorkspace::new(dir.path(), LinkPolicy::Confine));
        let found = discover(&project_locations(reader, false));
        assert_eq!(
            summary(&found),
            vec![row("ok", ".claude/rules/ok.md", false)]
        );
        let got = diags(&found.diagnostics);
        assert_eq!(got[0].0, Severity::Fatal);
        assert_eq!(got[0].1, ".claude/rules/leak.md");
        assert!(!got[0].2.contains("s3cret"));
        assert_eq!(
            got[1],
            diag(
                Severity::Warning,
                ".claude/rules/pipe.md",
                "not a regular file (FIFO); skipped without being opened"
            )
        );
    }

    #[test]
    fn candidates_report_every_fate_in_precedence_order() {
        let project = MemWorkspace::new()
            .node(".mecatl/rules/x.md", MemNode::Symlink("/etc/x".into()))
            .file(".claude/rules/x.md", "claude x");
        let config = MemWorkspace::new().file("rules/x.md", "config x");
        let claude = MemWorkspace::new().file("rules/x.md", "---\npaths: [\n---\n");
        let got = candidates(&four(project, config, claude, false), "x");
        let fates: Vec<_> = got.iter().map(|c| (c.source.as_str(), c.fate)).collect();
        assert_eq!(
            fates,
            vec![
                (".mecatl/rules/x.md", CandidateFate::RefusedSymlink),
                (".claude/rules/x.md", CandidateFate::Winner),
                ("/home/u/.config/mecatl/rules/x.md", CandidateFate::Shadowed),
                ("/home/u/.claude/rules/x.md", CandidateFate::Malformed),
            ]
        );
        assert_eq!(got[1].rule.as_ref().unwrap().body, "claude x");
        assert_eq!(
            got[2].diagnostics[0].reason,
            "shadowed by .claude/rules/x.md"
        );
        assert_eq!(
            got.iter().map(|c| c.fate.as_str()).collect::<Vec<_>>(),
            vec!["refused symlink", "winner", "shadowed", "malformed"]
        );
    }

    #[test]
    fn candidates_for_withheld_missing_and_special_files() {
        let project = MemWorkspace::new()
            .file(".mecatl/rules/x.md", "project x")
            .node(".claude/rules/x.md", MemNode::Special("socket"));
        let config = MemWorkspace::new()
            .file("rules/x.md/inner.md", "a directory named x.md")
            .file("rules/other.md", "other");
        let claude = MemWorkspace::new().file("rules/x.md", "home x");
        let got = candidates(&four(project, config, claude, true), "x");
        let fates: Vec<_> = got.iter().map(|c| c.fate).collect();
        assert_eq!(
            fates,
            vec![
                CandidateFate::Withheld,
                CandidateFate::Unreadable,
                CandidateFate::NotFound,
                CandidateFate::Winner,
            ]
        );
        assert_eq!(
            serde_json::to_string(&fates).unwrap(),
            r#"["withheld","unreadable","not found","winner"]"#
        );
        assert!(
            candidates(&project_only(MemWorkspace::new()), "")
                .iter()
                .all(|c| c.fate == CandidateFate::NotFound)
        );
    }

    fn eager_message(locations: &[RuleLocation], max_bytes: usize, max_count: usize) -> String {
        let assembler = RulesAssembler {
            src: Some(Arc::new(FsRulesSource::from_discovery(&discover(
                locations,
            )))),
            max_bytes,
            max_count,
        };
        let messages = assembler.assemble(&MemWorkspace::new()).unwrap();
        assert_eq!(messages.len(), 1);
        messages[0].text.clone()
    }

    fn lazy_fixture() -> Vec<RuleLocation> {
        let mut project = MemWorkspace::new()
            .file(".mecatl/rules/r05.md", "mecatl wins r05")
            .file(".mecatl/rules/r07.md", "---\npaths: *bad\n---\nmalformed")
            .file(".mecatl/rules/.md", "bare");
        let mut config = MemWorkspace::new();
        for i in 0..40 {
            let body = format!("---\npaths: src/{i}/**\n---\nRule number {i}.\n");
            project.insert(
                &format!(".claude/rules/r{i:02}.md"),
                MemNode::File(body.into_bytes()),
            );
            config.insert(
                &format!("rules/u{i:02}.md"),
                MemNode::File(format!("user {i}").into_bytes()),
            );
        }
        config.insert("rules/r01.md", MemNode::File(b"user r01 shadowed".to_vec()));
        let mut locations = four(project, config, MemWorkspace::new(), false);
        locations.insert(
            0,
            RuleLocation {
                reader: Arc::new(MemWorkspace::new().file(".mecatl/rules/r03.md", "withheld")),
                dir: ".mecatl/rules".into(),
                origin: RuleOrigin::Project,
                withheld: true,
            },
        );
        locations
    }

    #[test]
    fn lazy_and_eager_agree_without_caps() {
        let locations = lazy_fixture();
        let lazy = assemble_rules(&locations, 1 << 20, 1000);
        let eager = eager_message(&locations, 1 << 20, 1000);
        assert_eq!(lazy.message.as_ref().unwrap().text, eager);
        assert_eq!(lazy.message.as_ref().unwrap().shown, 80);
        assert!(eager.contains("mecatl wins r05"));
        assert!(eager.contains("Rule number 7."));
        assert!(!eager.contains("user r01 shadowed"));
        assert!(!eager.contains("withheld"));
        let r07 = lazy
            .diagnostics
            .iter()
            .find(|d| d.path.as_deref() == Some(".mecatl/rules/r07.md"))
            .unwrap();
        assert!(
            r07.reason
                .ends_with("; rule dropped, .claude/rules/r07.md is used instead")
        );
    }

    #[test]
    fn lazy_and_eager_agree_at_the_default_caps() {
        let locations = lazy_fixture();
        let lazy = assemble_rules(&locations, 0, 0);
        let eager = eager_message(&locations, 0, 0);
        let message = lazy.message.unwrap();
        assert_eq!(message.text, eager);
        assert_eq!(message.shown, limits::MAX_RULES_COUNT);
        assert!(
            eager
                .ends_with("\n...(48 more rule(s) not shown; rules beyond the cap were dropped)\n")
        );
        // Only the shown rules' files (and the dropped r07 before them) were opened.
        assert_eq!(lazy.read.len(), limits::MAX_RULES_COUNT + 1);
        assert_eq!(lazy.shown.len(), limits::MAX_RULES_COUNT);
        assert_eq!(lazy.shown[5].source, ".mecatl/rules/r05.md");
    }

    #[test]
    fn lazy_and_eager_agree_at_a_byte_cap() {
        let locations = lazy_fixture();
        let max = 2000;
        let lazy = assemble_rules(&locations, max, 0);
        let eager = eager_message(&locations, max, 0);
        let message = lazy.message.unwrap();
        assert_eq!(message.text, eager);
        assert!(message.shown > 0 && message.shown < 80);
        assert_eq!(
            lazy.read.len(),
            message.shown + 2,
            "one refused, one dropped"
        );
    }

    #[test]
    fn lazy_counts_unopened_files_as_discovered() {
        let project = MemWorkspace::new()
            .file(".claude/rules/a.md", "a")
            .file(".claude/rules/b.md", "b")
            .file(".claude/rules/c.md", "---\npaths: [\n---\nnever opened");
        let lazy = assemble_rules(&project_only(project), 0, 1);
        let text = lazy.message.unwrap().text;
        assert_eq!(
            text,
            format!(
                "{RULES_HEADER}\n{}\n...(2 more rule(s) not shown; rules beyond the cap were \
                 dropped)\n",
                render_rule_block(&Rule {
                    name: "a".into(),
                    body: "a".into(),
                    paths: vec![],
                    origin: RuleOrigin::Project
                })
            )
        );
        assert!(lazy.diagnostics.is_empty());
        assert_eq!(lazy.read.len(), 1);
    }

    #[test]
    fn lazy_without_rules_has_no_message() {
        let lazy = assemble_rules(&project_only(MemWorkspace::new()), 0, 0);
        assert_eq!(lazy, AssembledRules::default());
    }

    #[test]
    fn fixture_round_trips_through_discovery() {
        let ws = RULE_FIXTURE.iter().fold(MemWorkspace::new(), |ws, f| {
            ws.file(
                &format!(".mecatl/rules/{}", f.file_name()),
                f.file_content(),
            )
        });
        let found = discover(&project_only(ws));
        assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    }

    fn corpus_root() -> Option<PathBuf> {
        let beside = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        [beside, PathBuf::from("/work/shared/corpus")]
            .into_iter()
            .find(|path| path.is_dir())
    }

    #[test]
    fn corpus_rule_directories_are_fully_accounted_for() {
        let Some(corpus) = corpus_root() else {
            return;
        };
        let mut checked = 0;
        for workspace in std::fs::read_dir(&corpus).unwrap() {
            let workspace = workspace.unwrap().path();
            let rules_dir = workspace.join(".claude/rules");
            if !rules_dir.is_dir() {
                continue;
            }
            let reader = Arc::new(OsWorkspace::new(&workspace, LinkPolicy::Confine));
            let found = discover(&project_locations(reader, false));
            let mut nested_total = 0;
            for entry in std::fs::read_dir(&rules_dir).unwrap() {
                let entry = entry.unwrap();
                let name = entry.file_name().to_string_lossy().into_owned();
                let shown = format!(".claude/rules/{name}");
                let listed = found.rules.iter().any(|r| r.source == shown);
                let diagnosed = found
                    .diagnostics
                    .iter()
                    .any(|d| d.path.as_deref() == Some(shown.as_str()));
                if entry.file_type().unwrap().is_dir() {
                    assert!(diagnosed, "{shown} not reported");
                    nested_total += walk_md(&entry.path());
                } else if name.ends_with(".md") {
                    assert!(listed || diagnosed, "{shown} unaccounted for");
                }
            }
            let reported: usize = found
                .diagnostics
                .iter()
                .filter_map(|d| d.reason.split("it holds ").nth(1))
                .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
                .sum();
            assert_eq!(reported, nested_total, "{}", workspace.display());
            for rule in &found.rules {
                assert!(rule.bytes <= limits::MAX_RULE_BYTES);
                assert!(!render_rule_block(&rule.rule).is_empty());
            }
            checked += 1;
        }
        assert!(checked > 0);
    }

    fn walk_md(dir: &std::path::Path) -> usize {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                let kind = entry.file_type().unwrap();
                if kind.is_dir() {
                    walk_md(&entry.path())
                } else {
                    usize::from(entry.file_name().to_string_lossy().ends_with(".md"))
                }
            })
            .sum()
    }
}
