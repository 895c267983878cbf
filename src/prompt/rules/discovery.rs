//! Every rule of every directory (SPEC §2.4, §7): `rules list` and
//! `explain --rule`. The rules message reads directories lazily instead
//! ([`crate::prompt::rules::lazy::LazyRulesSource`]).
//!
//! Discovery reads every file, withheld ones included, so that CI without
//! trust still checks the repository's rules; a shadowed file is reported
//! only as shadowed, its own adjustments (body cut, hints) are not, since
//! it is not used.

use crate::diagnostic::Diagnostic;
use crate::prompt::rules::Rule;
use crate::prompt::rules::files::{LoadedRule, RuleFiles};
use crate::prompt::tiers::{
    Fate, Losers, NameResolution, ReadPolicy, SearchDir, Tier, resolve_all, resolve_name,
};

/// A rule found by [`discover`], with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveredRule {
    /// The rule, body trimmed and capped.
    pub rule: Rule,
    /// The file, as its reader displays it.
    pub source: String,
    /// True when its directory is withheld: listed, never injected.
    pub withheld: bool,
    /// True when the body was cut to the cap (or the file to the read bound).
    pub truncated: bool,
    /// The body's size in bytes, after trim and cap.
    pub bytes: usize,
}

impl DiscoveredRule {
    /// A loaded rule as discovered from `source`.
    pub fn new(loaded: LoadedRule, source: String, withheld: bool) -> Self {
        Self {
            bytes: loaded.rule.body.len(),
            rule: loaded.rule,
            source,
            withheld,
            truncated: loaded.truncated,
        }
    }
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

/// Reads every rule file of every directory (SPEC §2.4, §7): withheld
/// directories included and marked, precedence by name, a diagnostic for
/// every file skipped, dropped, shadowed or adjusted.
pub fn discover(dirs: &[SearchDir]) -> RuleDiscovery {
    let resolution = resolve_all(dirs, &RuleFiles, ReadPolicy::ALL);
    let project_fatal = resolution.has_fatal_in(Tier::Project);
    let mut rules: Vec<DiscoveredRule> = resolution
        .candidates
        .into_iter()
        .filter(|c| matches!(c.fate, Fate::Winner | Fate::Withheld))
        .filter_map(|c| {
            let withheld = dirs[c.dir_index].withheld;
            Some(DiscoveredRule::new(c.item?, c.source, withheld))
        })
        .collect();
    rules.sort_by(|a, b| a.rule.name.cmp(&b.rule.name));
    RuleDiscovery {
        rules,
        diagnostics: resolution.diagnostics,
        project_fatal,
    }
}

/// Every directory's file for the rule `name`, in precedence order, with
/// its fate (SPEC §2.8): every file is read, so a broken one says why.
pub fn explain_rule(dirs: &[SearchDir], name: &str) -> NameResolution<LoadedRule> {
    resolve_name(
        dirs,
        name,
        &RuleFiles,
        ReadPolicy {
            losers: Losers::Read,
            ..ReadPolicy::ALL
        },
    )
}
