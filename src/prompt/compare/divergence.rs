//! The divergences of a [`Comparison`] in plain words (SPEC §15.1): one
//! line each, naming the files and their sizes, in this order:
//! - `instruction-files`: the agents load different instruction files
//!   (instruction files and imports on the walk): "Claude Code loads
//!   CLAUDE.md (11,149 B); mecatl and Codex load AGENTS.md (38,463 B)";
//! - `content`: one file reaches the agents that load it with different
//!   content (Claude Code strips HTML comments and frontmatter, Codex sends
//!   the raw bytes);
//! - `cut`: an agent cuts a file ("Codex cuts docs/AGENTS.md after 12,768
//!   of 20,000 bytes");
//! - `dropped`: an agent leaves a file out over a budget or a size limit;
//! - `rules`: rules that only some agents load at start;
//! - `commands`: commands and skills only some agents offer, per
//!   directory ("7 nested commands exist only for Claude Code");
//! - `touch`: reading a `--touch` path adds different files per agent;
//! - `lazy`: a file an agent loads only when a tool reads below the start
//!   directory ("sub/GEMINI.md loads for Gemini CLI only on a read under
//!   sub/"), from the files the caller found ([`lazy`]);
//! - `instruction-content`: the agents' instruction contents differ (what
//!   `--fail-on-divergence` fails on), with each one's size.
//!
//! Choices the spec leaves open:
//! - A file's size in a sentence is its size on disk when the run read it
//!   (the caller knows: `compare` asks its reading cache), else what the
//!   agent sends for it, or for a file a budget cut its whole size; the
//!   `content` line gives what each agent sends. Sizes are in bytes with
//!   thousands separated by commas.
//! - Agents that behave alike share a clause, named in the order they are
//!   compared; a list of files longer than
//!   [`limits::COMPARE_LISTED_FILES`] names that many and counts the rest.
//! - A difference every agent has by design (the soul, memory index and
//!   user model of the engine, Claude Code's auto-memory, the skills
//!   listings) is a row of the table, not a divergence.

use std::collections::HashMap;

use serde::Serialize;

use super::{
    Comparison, OfferCounts, Offered, Profiled, dir_key, is_instruction, normalised, start_parts,
};
use crate::limits;
use crate::prompt::profile::{Agent, NotLoadedReason, Part, PartKind};

/// What kind of divergence a line is (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum DivergenceKind {
    /// Different instruction files.
    InstructionFiles,
    /// One file, different content.
    Content,
    /// A file cut by a budget.
    Cut,
    /// A file left out over a budget or a size limit.
    Dropped,
    /// Rules only some agents load.
    Rules,
    /// Commands and skills only some agents offer.
    Commands,
    /// Different files added by reading a path.
    Touch,
    /// A file loaded only on a read below the start directory.
    Lazy,
    /// Different instruction content.
    InstructionContent,
}

/// One divergence: its kind, a sentence, and the files it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Divergence {
    /// What kind of divergence it is.
    pub kind: DivergenceKind,
    /// The sentence.
    pub message: String,
    /// The files it names, in the order named.
    pub paths: Vec<String>,
}

/// The divergences of `comparison`, made from `profiles` (see the module
/// doc for the kinds and their order).
pub(super) fn divergences(
    profiles: &[Profiled<'_>],
    comparison: &Comparison,
    sizes: &FileSizes<'_>,
) -> Vec<Divergence> {
    let mut found = Vec::new();
    found.extend(instruction_files(profiles, sizes));
    found.extend(contents(profiles, comparison));
    found.extend(profiles.iter().flat_map(cuts));
    found.extend(profiles.iter().flat_map(dropped));
    found.extend(rules(comparison, sizes));
    found.extend(commands(profiles));
    found.extend(touch(profiles, sizes));
    found.extend(instruction_content(profiles, comparison));
    found
}

/// A file as sentences name it: its path and size.
type Named = (String, u64);

/// The size of the file at a path (named like a part's), when the run
/// read it.
pub type FileSizes<'a> = dyn Fn(&str) -> Option<u64> + 'a;

/// The size a sentence gives a file: its size on disk when known, else
/// what the agent sends for it (its whole size when cut).
fn size_of(path: &str, sent: Option<&Part>, sizes: &FileSizes<'_>) -> u64 {
    sizes(path).unwrap_or(match sent {
        Some(Part { cut: Some(cut), .. }) => cut.kept + cut.omitted,
        Some(part) => part.content.len() as u64,
        None => 0,
    })
}

/// Which instruction files (not rules) each agent loads at start.
fn instruction_files(profiles: &[Profiled<'_>], sizes: &FileSizes<'_>) -> Option<Divergence> {
    let keyed = profiles.iter().map(|profile| {
        let files: Vec<Named> = start_parts(profile.turn0)
            .filter(|part| is_instruction(part) && part.kind != PartKind::Rule)
            .map(|part| (part.path.clone(), size_of(&part.path, Some(part), sizes)))
            .collect();
        let mut key: Vec<String> = files.iter().map(|(path, _)| path.clone()).collect();
        key.sort();
        (profile.agent, (key, files))
    });
    let groups = groups(keyed, |a, b| a.0 == b.0);
    if groups.len() < 2 {
        return None;
    }
    let clauses: Vec<String> = groups
        .iter()
        .map(|(agents, (_, files))| {
            if files.is_empty() {
                format!("{} no instruction file", subject(agents, "loads", "load"))
            } else {
                format!("{} {}", subject(agents, "loads", "load"), file_list(files))
            }
        })
        .collect();
    Some(Divergence {
        kind: DivergenceKind::InstructionFiles,
        message: clauses.join("; "),
        paths: union(
            groups
                .iter()
                .flat_map(|(_, (_, files))| files)
                .map(|(path, _)| path.as_str()),
        ),
    })
}

/// Files two agents or more send whole at start with different content.
fn contents(profiles: &[Profiled<'_>], comparison: &Comparison) -> Vec<Divergence> {
    let parts: Vec<HashMap<&str, &Part>> = profiles
        .iter()
        .map(|profile| {
            start_parts(profile.turn0)
                .filter(|part| is_instruction(part))
                .map(|part| (part.path.as_str(), part))
                .collect()
        })
        .collect();
    let mut found = Vec::new();
    for row in &comparison.files {
        let sent: Vec<(Agent, &Part)> = profiles
            .iter()
            .zip(&parts)
            .filter_map(|(profile, parts)| Some((profile.agent, *parts.get(row.path.as_str())?)))
            .collect();
        if sent.len() < 2 || sent.iter().any(|(_, part)| part.cut.is_some()) {
            continue;
        }
        let keyed = sent
            .iter()
            .map(|(agent, part)| (*agent, (normalised(&part.content), part.content.len())));
        let groups = groups(keyed, |a, b| a.0 == b.0);
        if groups.len() < 2 {
            continue;
        }
        let clauses: Vec<String> = groups
            .iter()
            .map(|(agents, (_, bytes))| {
                format!("{} {}", subject(agents, "gets", "get"), size(*bytes as u64))
            })
            .collect();
        found.push(Divergence {
            kind: DivergenceKind::Content,
            message: format!("{} differs: {}", row.path, clauses.join(", ")),
            paths: vec![row.path.clone()],
        });
    }
    found
}

/// The files an agent cuts.
fn cuts(profile: &Profiled<'_>) -> Vec<Divergence> {
    start_parts(profile.turn0)
        .filter_map(|part| {
            let cut = part.cut?;
            Some(Divergence {
                kind: DivergenceKind::Cut,
                message: format!(
                    "{} cuts {} after {} of {} bytes",
                    profile.agent.title(),
                    part.path,
                    grouped(cut.kept),
                    grouped(cut.kept + cut.omitted)
                ),
                paths: vec![part.path.clone()],
            })
        })
        .collect()
}

/// The files an agent leaves out over a budget or a size limit.
fn dropped(profile: &Profiled<'_>) -> Vec<Divergence> {
    let agent = profile.agent.title();
    profile
        .turn0
        .not_loaded
        .iter()
        .filter_map(|entry| {
            let path = &entry.path;
            let message = match entry.reason {
                NotLoadedReason::OverBudget { bytes } => {
                    format!(
                        "{agent} drops {path} ({}): its budget is used up",
                        size(bytes)
                    )
                }
                NotLoadedReason::TooLarge { bytes } => {
                    format!(
                        "{agent} skips {path} ({}): larger than it reads",
                        size(bytes)
                    )
                }
                NotLoadedReason::PastCap => {
                    format!("{agent} drops {path}: its rules message is full")
                }
                NotLoadedReason::Capped => {
                    format!("{agent} stops before {path}: past the preview's import guard")
                }
                _ => return None,
            };
            Some(Divergence {
                kind: DivergenceKind::Dropped,
                message,
                paths: vec![path.clone()],
            })
        })
        .collect()
}

/// Rules that only some of the agents load at start, grouped by which.
fn rules(comparison: &Comparison, sizes: &FileSizes<'_>) -> Vec<Divergence> {
    let agents = &comparison.agents;
    let mut groups: Vec<(Vec<Agent>, Vec<Named>)> = Vec::new();
    for row in &comparison.files {
        if row.kind != Some(PartKind::Rule) {
            continue;
        }
        let loading: Vec<Agent> = agents
            .iter()
            .zip(&row.cells)
            .filter(|(_, cell)| cell.at_start())
            .map(|(agent, _)| *agent)
            .collect();
        if loading.is_empty() || loading.len() == agents.len() {
            continue;
        }
        let sent = row
            .cells
            .iter()
            .find(|cell| cell.at_start())
            .and_then(|cell| cell.bytes);
        let bytes = sizes(&row.path).or(sent).unwrap_or_default();
        let named = (row.path.clone(), bytes);
        match groups.iter_mut().find(|(who, _)| *who == loading) {
            Some((_, files)) => files.push(named),
            None => groups.push((loading, vec![named])),
        }
    }
    groups
        .into_iter()
        .map(|(loading, files)| {
            let count = files.len();
            let noun = if count == 1 {
                "rule loads"
            } else {
                "rules load"
            };
            let mut message = format!(
                "{count} {noun} at start only for {}: {}",
                names(&loading),
                file_list(&files)
            );
            let without: Vec<Agent> = agents
                .iter()
                .copied()
                .filter(|agent| !loading.contains(agent) && !agent.has_rules())
                .collect();
            if !without.is_empty() {
                message.push_str(&format!("; {} no rules", subject(&without, "has", "have")));
            }
            Divergence {
                kind: DivergenceKind::Rules,
                message,
                paths: files.into_iter().map(|(path, _)| path).collect(),
            }
        })
        .collect()
}

/// The commands and skills only some agents offer (withheld ones are
/// offered by none), grouped by which agents offer them, each directory
/// with how many of them it holds.
fn commands(profiles: &[Profiled<'_>]) -> Vec<Divergence> {
    /// The entries offered by the same agents, and where they lie.
    struct Group {
        agents: Vec<Agent>,
        counts: OfferCounts,
        dirs: Vec<(String, usize)>,
    }
    let mut entries: Vec<(&Offered, Vec<Agent>)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for profile in profiles {
        for entry in profile.offered.iter().filter(|entry| !entry.withheld) {
            let at = *index.entry(&entry.path).or_insert_with(|| {
                entries.push((entry, Vec::new()));
                entries.len() - 1
            });
            entries[at].1.push(profile.agent);
        }
    }
    entries.sort_by(|(a, _), (b, _)| {
        dir_key(a.scope, a.directory())
            .cmp(&dir_key(b.scope, b.directory()))
            .then_with(|| a.path.cmp(&b.path))
    });
    let mut groups: Vec<Group> = Vec::new();
    for (entry, who) in entries {
        if who.len() == profiles.len() {
            continue;
        }
        let dir = entry.row();
        let group = match groups.iter().position(|group| group.agents == who) {
            Some(at) => &mut groups[at],
            None => {
                groups.push(Group {
                    agents: who,
                    counts: OfferCounts::default(),
                    dirs: Vec::new(),
                });
                let last = groups.len() - 1;
                &mut groups[last]
            }
        };
        group.counts.add(entry);
        match group.dirs.last_mut() {
            Some((last, n)) if *last == dir => *n += 1,
            _ => group.dirs.push((dir, 1)),
        }
    }
    groups
        .into_iter()
        .map(
            |Group {
                 agents: who,
                 counts,
                 dirs,
             }| {
                let verb = if counts.entries() == 1 {
                    "exists"
                } else {
                    "exist"
                };
                let shown: Vec<String> = dirs
                    .iter()
                    .take(limits::COMPARE_LISTED_FILES)
                    .map(|(dir, n)| format!("{dir} ({n})"))
                    .collect();
                let rest = dirs.len().saturating_sub(limits::COMPARE_LISTED_FILES);
                let more = if rest > 0 {
                    format!(" and {rest} more directories")
                } else {
                    String::new()
                };
                Divergence {
                    kind: DivergenceKind::Commands,
                    message: format!(
                        "{} {verb} only for {}: {}{more}",
                        offer_words(counts),
                        names(&who),
                        shown.join(", ")
                    ),
                    paths: dirs.into_iter().map(|(dir, _)| dir).collect(),
                }
            },
        )
        .collect()
}

/// Commands, skills, subagents, MCP servers and hooks counted in words:
/// `7 nested commands`, `3 commands (1 nested) and 2 skills`, `1 subagent,
/// 1 MCP server and 1 hook` (a divergence's sentence, a row's cell).
pub fn offer_words(counts: OfferCounts) -> String {
    let count = |n: usize, one: &str| match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {one}s"),
    };
    let mut words = Vec::new();
    if counts.commands > 0 {
        words.push(match counts.nested {
            0 => count(counts.commands, "command"),
            n if n == counts.commands => count(n, "nested command"),
            n => format!("{} ({n} nested)", count(counts.commands, "command")),
        });
    }
    if counts.skills > 0 {
        words.push(count(counts.skills, "skill"));
    }
    if counts.subagents > 0 {
        words.push(count(counts.subagents, "subagent"));
    }
    if counts.servers > 0 {
        words.push(count(counts.servers, "MCP server"));
    }
    if counts.hooks > 0 {
        words.push(count(counts.hooks, "hook"));
    }
    match words.split_last() {
        Some((last, first)) if !first.is_empty() => format!("{} and {last}", first.join(", ")),
        _ => words.join(""),
    }
}

/// Per `--touch` path, the files it adds when they differ between agents.
fn touch(profiles: &[Profiled<'_>], sizes: &FileSizes<'_>) -> Vec<Divergence> {
    let mut touched: Vec<&str> = Vec::new();
    for profile in profiles {
        for entry in &profile.turn0.touch {
            if !touched.contains(&entry.path.as_str()) {
                touched.push(&entry.path);
            }
        }
    }
    touched
        .into_iter()
        .filter_map(|path| {
            let keyed = profiles.iter().map(|profile| {
                let added: Vec<Named> = profile
                    .turn0
                    .touch
                    .iter()
                    .filter(|entry| entry.path == path)
                    .flat_map(|entry| &entry.parts)
                    .map(|part| (part.path.clone(), size_of(&part.path, Some(part), sizes)))
                    .collect();
                (profile.agent, added)
            });
            let mut groups = groups(keyed, |a, b| {
                a.iter().map(|f| &f.0).eq(b.iter().map(|f| &f.0))
            });
            if groups.len() < 2 {
                return None;
            }
            // What is added first, the agents that add nothing last.
            groups.sort_by_key(|(_, files)| files.is_empty());
            let clauses: Vec<String> = groups
                .iter()
                .map(|(agents, files)| {
                    if files.is_empty() {
                        format!("nothing for {}", names(agents))
                    } else {
                        format!("{} for {}", file_list(files), names(agents))
                    }
                })
                .collect();
            Some(Divergence {
                kind: DivergenceKind::Touch,
                message: format!("Reading {path} adds {}", clauses.join("; ")),
                paths: union(
                    groups
                        .iter()
                        .flat_map(|(_, files)| files)
                        .map(|(path, _)| path.as_str()),
                ),
            })
        })
        .collect()
}

/// One `lazy` sentence per file of `files` (workspace-relative, in a
/// directory below the start directory) that `agent` loads only when a tool
/// reads a file under that directory.
pub fn lazy(agent: Agent, files: &[String]) -> Vec<Divergence> {
    files
        .iter()
        .map(|path| {
            let dir = crate::workspace::parent(path);
            Divergence {
                kind: DivergenceKind::Lazy,
                message: format!(
                    "{path} loads for {} only on a read under {dir}/",
                    agent.title()
                ),
                paths: vec![path.clone()],
            }
        })
        .collect()
}

/// The agents' instruction contents, when they differ.
fn instruction_content(profiles: &[Profiled<'_>], comparison: &Comparison) -> Option<Divergence> {
    if !comparison.diverges() {
        return None;
    }
    let keyed = comparison
        .agents
        .iter()
        .copied()
        .zip(comparison.contents.iter().map(String::as_str));
    let clauses: Vec<String> = groups(keyed, |a, b| a == b)
        .iter()
        .map(|(agents, content)| {
            let bytes = size(content.len() as u64);
            match agents.len() {
                1 => format!("{} gets {bytes}", names(agents)),
                _ => format!("{} get the same {bytes}", names(agents)),
            }
        })
        .collect();
    let paths = profiles
        .iter()
        .flat_map(|profile| start_parts(profile.turn0))
        .filter(|part| is_instruction(part))
        .map(|part| part.path.as_str());
    Some(Divergence {
        kind: DivergenceKind::InstructionContent,
        message: format!("The instruction content differs: {}", clauses.join(", ")),
        paths: union(paths),
    })
}

/// Groups `keyed` by equal keys, in the order first met.
fn groups<K>(
    keyed: impl IntoIterator<Item = (Agent, K)>,
    same: impl Fn(&K, &K) -> bool,
) -> Vec<(Vec<Agent>, K)> {
    let mut groups: Vec<(Vec<Agent>, K)> = Vec::new();
    for (agent, key) in keyed {
        match groups.iter_mut().find(|(_, known)| same(known, &key)) {
            Some((agents, _)) => agents.push(agent),
            None => groups.push((vec![agent], key)),
        }
    }
    groups
}

/// `paths`, each once, in the order first named.
fn union<'a>(paths: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut once: Vec<String> = Vec::new();
    for path in paths {
        if !once.iter().any(|known| known == path) {
            once.push(path.to_string());
        }
    }
    once
}

/// Agents' names for a sentence: `A`, `A and B`, `A, B and C`.
pub fn names(agents: &[Agent]) -> String {
    let titles: Vec<&str> = agents.iter().map(|agent| agent.title()).collect();
    match titles.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Agents' names with the verb agreeing: `A loads`, `A and B load`.
pub fn subject(agents: &[Agent], one: &str, many: &str) -> String {
    let verb = if agents.len() == 1 { one } else { many };
    format!("{} {verb}", names(agents))
}

/// Files with their sizes, `a (1 B), b (2 B)`, the list cut at
/// [`limits::COMPARE_LISTED_FILES`] with a count of the rest.
fn file_list(files: &[Named]) -> String {
    let shown: Vec<String> = files
        .iter()
        .take(limits::COMPARE_LISTED_FILES)
        .map(|(path, bytes)| format!("{path} ({})", size(*bytes)))
        .collect();
    let rest = files.len().saturating_sub(limits::COMPARE_LISTED_FILES);
    if rest == 0 {
        shown.join(", ")
    } else {
        format!("{} and {rest} more", shown.join(", "))
    }
}

/// A size for a sentence: `38,463 B`.
pub fn size(bytes: u64) -> String {
    format!("{} B", grouped(bytes))
}

/// A number with its thousands separated by commas: `38,463`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{part, profiled, turn0};
    use super::super::{State, compare};
    use super::*;
    use crate::prompt::profile::{Cut, ProfileTurn0, Touched};

    fn messages(profiles: &[(Agent, &ProfileTurn0)]) -> Vec<(DivergenceKind, String)> {
        compare(&profiled(profiles), &|_| None)
            .divergences
            .into_iter()
            .map(|d| (d.kind, d.message))
            .collect()
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        let shown = [0, 7, 999, 1_000, 38_463, 1_234_567].map(grouped);
        assert_eq!(shown, ["0", "7", "999", "1,000", "38,463", "1,234,567"]);
        assert_eq!(size(11_149), "11,149 B");
    }

    #[test]
    fn agents_are_named_in_a_sentence() {
        assert_eq!(names(&[Agent::Codex]), "Codex");
        assert_eq!(names(&[Agent::Mecatl, Agent::Codex]), "mecatl and Codex");
        let all = names(&Agent::ALL);
        let last = Agent::ALL[Agent::ALL.len() - 1].title();
        assert!(all.starts_with("mecatl, Claude Code, ") || all == "mecatl, Claude Code and Codex");
        assert!(all.ends_with(&format!(" and {last}")), "{all}");
    }

    #[test]
    fn different_instruction_files_are_named_with_their_sizes() {
        let agents = part("AGENTS.md", PartKind::Instructions, &"a".repeat(38_463));
        let claude_md = part("CLAUDE.md", PartKind::Instructions, &"c".repeat(11_149));
        let mecatl = turn0(vec![agents.clone()], vec![]);
        let claude = turn0(vec![claude_md], vec![]);
        let codex = turn0(vec![agents], vec![]);
        let found = messages(&[
            (Agent::Mecatl, &mecatl),
            (Agent::Claude, &claude),
            (Agent::Codex, &codex),
        ]);
        assert_eq!(
            found,
            [
                (
                    DivergenceKind::InstructionFiles,
                    "mecatl and Codex load AGENTS.md (38,463 B); Claude Code loads CLAUDE.md \
                     (11,149 B)"
                        .to_string()
                ),
                (
                    DivergenceKind::InstructionContent,
                    "The instruction content differs: mecatl and Codex get the same 38,463 B, \
                     Claude Code gets 11,149 B"
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn a_file_is_named_with_its_size_on_disk_when_the_run_read_it() {
        let trimmed = part("CLAUDE.md", PartKind::Instructions, "C");
        let claude = turn0(vec![trimmed], vec![]);
        let codex = turn0(
            vec![part("AGENTS.md", PartKind::Instructions, "A\n")],
            vec![],
        );
        let profiles = profiled(&[(Agent::Claude, &claude), (Agent::Codex, &codex)]);
        let on_disk = |path: &str| (path == "CLAUDE.md").then_some(2);
        let found = compare(&profiles, &on_disk).divergences;
        assert_eq!(
            found[0].message,
            "Claude Code loads CLAUDE.md (2 B); Codex loads AGENTS.md (2 B)"
        );
        assert_eq!(found[0].paths, ["CLAUDE.md", "AGENTS.md"]);
    }

    #[test]
    fn a_cut_a_drop_and_a_file_read_differently_are_one_line_each() {
        let mut cut = part(
            "docs/AGENTS.md",
            PartKind::Instructions,
            &"d".repeat(12_768),
        );
        cut.cut = Some(Cut {
            kept: 12_768,
            omitted: 7_232,
        });
        let codex = turn0(
            vec![
                part("AGENTS.md", PartKind::Instructions, "<!-- c -->\nA\n"),
                cut,
            ],
            vec![(
                "docs/x/AGENTS.md",
                NotLoadedReason::OverBudget { bytes: 4_000 },
            )],
        );
        let claude = turn0(
            vec![
                part("AGENTS.md", PartKind::Instructions, "A"),
                part("docs/AGENTS.md", PartKind::Instructions, "d"),
            ],
            vec![("huge.md", NotLoadedReason::TooLarge { bytes: 5_000_000 })],
        );
        let found = messages(&[(Agent::Codex, &codex), (Agent::Claude, &claude)]);
        let lines: Vec<&str> = found.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(
            lines,
            [
                "AGENTS.md differs: Codex gets 13 B, Claude Code gets 1 B",
                "Codex cuts docs/AGENTS.md after 12,768 of 20,000 bytes",
                "Codex drops docs/x/AGENTS.md (4,000 B): its budget is used up",
                "Claude Code skips huge.md (5,000,000 B): larger than it reads",
                "The instruction content differs: Codex gets 12,782 B, Claude Code gets 4 B",
            ]
        );
    }

    #[test]
    fn rules_only_some_agents_load_are_grouped_and_codex_has_none() {
        let rule = |path: &str| part(path, PartKind::Rule, "R");
        let mecatl = turn0(
            vec![rule(".claude/rules/a.md"), rule(".claude/rules/ts.md")],
            vec![],
        );
        let claude = turn0(
            vec![rule(".claude/rules/a.md")],
            vec![(".claude/rules/ts.md", NotLoadedReason::Conditional)],
        );
        let codex = turn0(vec![], vec![]);
        let found = messages(&[
            (Agent::Mecatl, &mecatl),
            (Agent::Claude, &claude),
            (Agent::Codex, &codex),
        ]);
        let lines: Vec<&str> = found.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(
            lines[..2],
            [
                "1 rule loads at start only for mecatl and Claude Code: .claude/rules/a.md (1 B); \
                 Codex has no rules",
                "1 rule loads at start only for mecatl: .claude/rules/ts.md (1 B); Codex has no \
                 rules",
            ]
        );
    }

    #[test]
    fn commands_and_skills_only_some_agents_offer_are_counted_per_directory() {
        use crate::prompt::compare::{Offered, OfferedKind};
        use crate::prompt::profile::Scope;
        let offered = |path: &str, kind, nested, withheld| Offered {
            path: path.into(),
            scope: Scope::Project,
            kind,
            nested,
            withheld,
        };
        let command = |path: &str| offered(path, OfferedKind::Command, false, false);
        let nested = |path: &str| offered(path, OfferedKind::Command, true, false);
        let skill = |path: &str| offered(path, OfferedKind::Skill, false, false);
        let engine = [command(".claude/commands/review.md")];
        let claude = [
            command(".claude/commands/review.md"),
            nested(".claude/commands/git/commit.md"),
            nested(".claude/commands/git/push.md"),
            nested(".claude/commands/db/up.md"),
            skill(".claude/skills/deploy/SKILL.md"),
        ];
        let codex = [
            skill(".agents/skills/lint/SKILL.md"),
            offered(".agents/skills/x/SKILL.md", OfferedKind::Skill, false, true),
        ];
        let none = turn0(vec![], vec![]);
        let profiles = [
            Profiled {
                agent: Agent::Mecatl,
                turn0: &none,
                offered: &engine,
            },
            Profiled {
                agent: Agent::Claude,
                turn0: &none,
                offered: &claude,
            },
            Profiled {
                agent: Agent::Codex,
                turn0: &none,
                offered: &codex,
            },
        ];
        let comparison = compare(&profiles, &|_| None);
        type Row<'a> = (&'a str, Vec<(State, Option<usize>)>);
        let rows: Vec<Row<'_>> = comparison
            .files
            .iter()
            .map(|row| {
                let cells = row.cells.iter().map(|c| (c.state, c.entries)).collect();
                (row.path.as_str(), cells)
            })
            .collect();
        let none_cell = (State::None, None);
        assert_eq!(
            rows,
            [
                (
                    ".agents/skills/",
                    vec![none_cell, none_cell, (State::Offered, Some(1))]
                ),
                (
                    ".claude/commands/",
                    vec![(State::Offered, Some(1)); 2]
                        .into_iter()
                        .chain([none_cell])
                        .collect()
                ),
                (
                    ".claude/skills/",
                    vec![none_cell, (State::Offered, Some(1)), none_cell]
                ),
                (
                    ".claude/commands/db/",
                    vec![none_cell, (State::Offered, Some(1)), none_cell]
                ),
                (
                    ".claude/commands/git/",
                    vec![none_cell, (State::Offered, Some(2)), none_cell]
                ),
            ]
        );
        let lines: Vec<&str> = comparison
            .divergences
            .iter()
            .filter(|d| d.kind == DivergenceKind::Commands)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            lines,
            [
                "1 skill exists only for Codex: .agents/skills/ (1)",
                "1 command exists only for mecatl and Claude Code: .claude/commands/ (1)",
                "3 nested commands and 1 skill exist only for Claude Code: .claude/skills/ (1), \
                 .claude/commands/db/ (1), .claude/commands/git/ (2)",
            ]
        );
        let only_withheld = [offered(
            ".agents/skills/x/SKILL.md",
            OfferedKind::Skill,
            false,
            true,
        )];
        let profiles = [Profiled {
            agent: Agent::Codex,
            turn0: &none,
            offered: &only_withheld,
        }];
        let row = &compare(&profiles, &|_| None).files[0];
        assert_eq!(
            (row.cells[0].state, row.cells[0].entries),
            (State::Withheld, Some(1))
        );
        let unread = [offered(".agents/skills", OfferedKind::Unread, false, true)];
        let profiles = [Profiled {
            agent: Agent::Codex,
            turn0: &none,
            offered: &unread,
        }];
        let row = &compare(&profiles, &|_| None).files[0];
        assert_eq!(
            (row.path.as_str(), row.cells[0].state, row.cells[0].entries),
            (".agents/skills/", State::Withheld, None)
        );
        assert_eq!(
            offer_words(OfferCounts {
                commands: 3,
                nested: 1,
                skills: 2,
                ..OfferCounts::default()
            }),
            "3 commands (1 nested) and 2 skills"
        );
        assert_eq!(
            offer_words(OfferCounts {
                subagents: 2,
                servers: 1,
                hooks: 3,
                ..OfferCounts::default()
            }),
            "2 subagents, 1 MCP server and 3 hooks"
        );
    }

    #[test]
    fn touch_and_long_lists_name_what_each_agent_adds() {
        let mut claude = turn0(vec![part("A.md", PartKind::Instructions, "x")], vec![]);
        claude.touch.push(Touched {
            path: "src/x.ts".into(),
            parts: (0..7)
                .map(|i| part(&format!("src/{i}.md"), PartKind::Rule, "r"))
                .collect(),
        });
        let mut codex = turn0(vec![part("A.md", PartKind::Instructions, "x")], vec![]);
        codex.touch.push(Touched {
            path: "src/x.ts".into(),
            parts: Vec::new(),
        });
        let found = messages(&[(Agent::Claude, &claude), (Agent::Codex, &codex)]);
        assert_eq!(
            found,
            [(
                DivergenceKind::Touch,
                "Reading src/x.ts adds src/0.md (1 B), src/1.md (1 B), src/2.md (1 B), src/3.md \
                 (1 B), src/4.md (1 B) and 2 more for Claude Code; nothing for Codex"
                    .to_string()
            )]
        );
    }

    #[test]
    fn the_same_instructions_are_no_divergence() {
        let mecatl = turn0(vec![part("AGENTS.md", PartKind::Instructions, "A")], vec![]);
        let codex = turn0(
            vec![part("AGENTS.md", PartKind::Instructions, "A\n")],
            vec![],
        );
        assert!(messages(&[(Agent::Mecatl, &mecatl), (Agent::Codex, &codex)]).is_empty());
    }
}
