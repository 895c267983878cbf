//! Seeing across agents (SPEC §15.1): the turn 0 of several profiles set
//! side by side — one row per file any of them loads or considers, one
//! cell per agent saying what became of it — with what each agent sends
//! in total, the instruction content each one gets, and the divergences
//! in plain words ([`divergence`]). Pure: it reads the profiles'
//! [`ProfileTurn0`] facts and nothing else, so `compare` never looks at a
//! file a second time.
//!
//! **Instruction content.** What `--fail-on-divergence` compares and
//! `--diff` shows: per agent, the content of every part it sends at start
//! that is an instruction file, an import or a rule (not the skills
//! listing, auto-memory, soul, memory index or user model) and that lies on
//! the agent's walk (scopes `parent`, `project` and `local`; the user's
//! own and machine files differ between machines by design, so a check
//! in CI would depend on whose machine ran it). Each piece is normalised:
//! lines holding nothing but `@path` imports are dropped (Claude Code sends
//! the imported file as its own piece; the line carries no instruction),
//! then leading and trailing whitespace is trimmed, and empty pieces are
//! dropped. The instruction files and imports come in the agent's order;
//! the rules follow, sorted by their content, since Claude Code reads rules
//! in the filesystem's listing order and the engine in name order — the
//! same rules in another order are the same instructions. The pieces are
//! joined by a blank line. So a `CLAUDE.md` that is a symbolic link to
//! `AGENTS.md`, or that holds only `@AGENTS.md`, gives Claude Code the same
//! instruction content as Codex gets from `AGENTS.md`, while a comment only
//! Claude Code strips, a rule only one agent loads or a budget cut makes
//! the contents differ.
//!
//! Choices the spec leaves open:
//! - A row is a file named like a part's path. Rows are ordered by scope
//!   (managed, user, parent, then the workspace's own), then by depth, then
//!   by path, so the order does not depend on any agent's listing order.
//! - A cell is the first of: a part sent at start (`start`, or `cut` with
//!   kept/omitted bytes when a budget cut it), a part added by `--touch`
//!   (`touch`), a file considered and not loaded (`withheld`; `shadowed`
//!   when another file takes its place, including Claude Code's unused
//!   AGENTS.md fallback; else `not_read` with the reason), or nothing
//!   (`none`: the agent does not look at that file).
//! - Commands and skills are one row per directory ([`Offered`]), not a
//!   row per file: the skills listing's parts and the catalog entries
//!   trust withholds are left to those rows. A skills directory left
//!   unsearched (Codex's, untrusted) is withheld without a count.
//! - A cell's `bytes` is what the agent sends for the file (for a cut
//!   file, the bytes kept); for a file left out over a budget or size
//!   limit, the file's size; else none.
//! - An agent's total is every turn-0 message it sends at start, framing
//!   included (the engine's headers, Codex's marker line, the skills
//!   listing): the bytes `assemble --stats` totals.

pub mod diff;
pub mod divergence;

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::prompt::agents::gemini::imports::is_marker_line;
use crate::prompt::imports;
use crate::prompt::profile::subagent::SubagentFate;
use crate::prompt::profile::{Agent, Cut, NotLoadedReason, Part, PartKind, ProfileTurn0, Scope};
use divergence::{Divergence, FileSizes};

/// One agent's turn 0, as compared, and the commands and skills it
/// offers.
#[derive(Debug, Clone, Copy)]
pub struct Profiled<'a> {
    /// The agent.
    pub agent: Agent,
    /// What its profile produced.
    pub turn0: &'a ProfileTurn0,
    /// Every command and skill its catalog offers (or withholds).
    pub offered: &'a [Offered],
}

/// Whether an offered entry is a command or a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferedKind {
    /// A command file (`NAME.md`).
    Command,
    /// A skill directory (`NAME/SKILL.md`).
    Skill,
    /// A skills directory withheld unread (Codex's skill names lie inside
    /// their files, so an untrusted workspace's root is not searched): its
    /// path is the directory, its entries are not counted.
    Unread,
    /// A subagent file the agent lists to the model.
    Subagent,
    /// An MCP server the agent would start: its path is the configuration
    /// file, which is the row.
    Server,
    /// A command hook: its path is the settings file, which is the row.
    Hook,
}

/// A command, skill or subagent an agent offers, or an MCP server or hook
/// it would run, for the per-directory (per-file for servers and hooks)
/// rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    /// Its file, named like a part's path: a command's `.md`, a skill's
    /// `SKILL.md`.
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// Command or skill.
    pub kind: OfferedKind,
    /// Invoked under a name holding `:` (a command below a subdirectory,
    /// Claude Code's `/git:commit`).
    pub nested: bool,
    /// Withheld by trust: found, not offered.
    pub withheld: bool,
}

impl Offered {
    /// The directory a row summarises it under: a command's own directory,
    /// a skill's skills directory (the parent of its directory).
    pub fn directory(&self) -> &str {
        let parent = |path: &'_ str| -> usize { path.rfind('/').unwrap_or(0) };
        let file_dir = &self.path[..parent(&self.path)];
        match self.kind {
            OfferedKind::Command | OfferedKind::Subagent => file_dir,
            OfferedKind::Skill => &file_dir[..parent(file_dir)],
            OfferedKind::Unread | OfferedKind::Server | OfferedKind::Hook => &self.path,
        }
    }

    /// The row it is counted in: its directory, ending in `/`, or for a
    /// server or hook the configuration file itself.
    pub fn row(&self) -> String {
        match self.kind {
            OfferedKind::Server | OfferedKind::Hook => self.path.clone(),
            _ => format!("{}/", self.directory()),
        }
    }
}

/// The subagents a turn 0 lists (or withholds), the MCP servers it would
/// start and its command hooks, as offered entries: `compare` counts them
/// in rows beside the commands and skills, never running any.
pub fn inventory(turn0: &ProfileTurn0) -> Vec<Offered> {
    let entry = |path: &str, scope, kind, withheld| Offered {
        path: path.to_string(),
        scope,
        kind,
        nested: false,
        withheld,
    };
    let subagents = turn0.subagents.iter().filter_map(|agent| match agent.fate {
        SubagentFate::Listed => Some(entry(
            &agent.path,
            agent.scope,
            OfferedKind::Subagent,
            false,
        )),
        SubagentFate::Withheld => {
            Some(entry(&agent.path, agent.scope, OfferedKind::Subagent, true))
        }
        SubagentFate::Shadowed | SubagentFate::Skipped => None,
    });
    let servers = turn0
        .mcp_servers
        .iter()
        .filter(|server| server.enabled)
        .map(|server| entry(&server.path, server.scope, OfferedKind::Server, false));
    let hooks = turn0
        .hooks
        .iter()
        .map(|hook| entry(&hook.path, hook.scope, OfferedKind::Hook, false));
    subagents.chain(servers).chain(hooks).collect()
}

/// What became of a file under one agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// Sent at start, whole.
    Start,
    /// Sent at start, cut by a budget.
    Cut,
    /// Sent once a `--touch` path is read.
    Touch,
    /// Another file takes its place.
    Shadowed,
    /// Named at start in the agent's table of conditional files, sent
    /// once a matching file is read (GitHub Copilot CLI).
    Row,
    /// Its bytes equal a file already sent, which the agent sends once.
    Duplicate,
    /// A project file of an untrusted workspace, never read.
    Withheld,
    /// Considered and not sent, for the cell's reason.
    NotRead,
    /// A directory whose commands or skills the agent offers.
    Offered,
    /// Not looked at.
    None,
}

/// How many commands and skills of one directory an agent offers (or
/// withholds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OfferCounts {
    /// Commands, nested ones included.
    pub commands: usize,
    /// Commands invoked under a name holding `:`.
    pub nested: usize,
    /// Skills.
    pub skills: usize,
    /// Directories left unread, whose entries are not counted.
    pub unread: usize,
    /// Subagents.
    pub subagents: usize,
    /// MCP servers that would start.
    pub servers: usize,
    /// Command hooks.
    pub hooks: usize,
}

impl OfferCounts {
    /// Every counted entry: commands, skills, subagents, servers, hooks.
    pub fn entries(self) -> usize {
        self.commands + self.skills + self.subagents + self.servers + self.hooks
    }

    fn add(&mut self, offered: &Offered) {
        match offered.kind {
            OfferedKind::Command => {
                self.commands += 1;
                self.nested += usize::from(offered.nested);
            }
            OfferedKind::Skill => self.skills += 1,
            OfferedKind::Unread => self.unread += 1,
            OfferedKind::Subagent => self.subagents += 1,
            OfferedKind::Server => self.servers += 1,
            OfferedKind::Hook => self.hooks += 1,
        }
    }
}

/// One agent's cell of a row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Cell {
    /// What became of the file.
    pub state: State,
    /// See the module doc.
    pub bytes: Option<u64>,
    /// Set when a budget cut the file.
    pub cut: Option<Cut>,
    /// Why it was not loaded, in words (shadowed, withheld, not read).
    pub reason: Option<String>,
    /// For a directory's row: how many of its commands and skills the
    /// agent offers (or withholds).
    pub entries: Option<usize>,
    /// The reason in a word or two, for a table.
    #[serde(skip)]
    pub label: Option<&'static str>,
    /// For a directory's row: its commands and skills by kind.
    #[serde(skip)]
    pub offer: Option<OfferCounts>,
}

impl Cell {
    /// The cell of a file the agent does not look at.
    pub fn none() -> Self {
        Self {
            state: State::None,
            bytes: None,
            cut: None,
            reason: None,
            entries: None,
            label: None,
            offer: None,
        }
    }

    /// A directory's cell: what the agent offers from it, else what it
    /// withholds.
    fn offered(offered: OfferCounts, withheld: OfferCounts) -> Self {
        let (state, counts) = if offered.entries() > 0 {
            (State::Offered, offered)
        } else {
            (State::Withheld, withheld)
        };
        let uncounted = counts.entries() == 0 && counts.unread > 0;
        Self {
            state,
            entries: (!uncounted).then_some(counts.entries()),
            offer: Some(counts),
            ..Self::none()
        }
    }

    fn sent(part: &Part, state: State) -> Self {
        let (state, bytes) = match part.cut {
            Some(cut) => (State::Cut, cut.kept),
            None => (state, part.content.len() as u64),
        };
        Self {
            state,
            bytes: Some(bytes),
            cut: part.cut,
            ..Self::none()
        }
    }

    fn not_loaded(reason: &NotLoadedReason) -> Self {
        let state = match reason {
            NotLoadedReason::Withheld => State::Withheld,
            NotLoadedReason::Shadowed { .. } | NotLoadedReason::FallbackUnused => State::Shadowed,
            NotLoadedReason::TableRow => State::Row,
            NotLoadedReason::DuplicateOf { .. } => State::Duplicate,
            _ => State::NotRead,
        };
        let bytes = match reason {
            NotLoadedReason::TooLarge { bytes } | NotLoadedReason::OverBudget { bytes } => {
                Some(*bytes)
            }
            _ => None,
        };
        Self {
            state,
            bytes,
            reason: Some(reason.phrase()),
            label: Some(reason.label()),
            ..Self::none()
        }
    }

    /// True when the agent sends the file at start (whole or cut).
    pub fn at_start(&self) -> bool {
        matches!(self.state, State::Start | State::Cut)
    }
}

/// One file any of the agents loads or considers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRow {
    /// Named like a part's path.
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// What it is, as the first agent that sends it has it; `None` when no
    /// agent sends it.
    pub kind: Option<PartKind>,
    /// One cell per agent, in the comparison's agent order.
    pub cells: Vec<Cell>,
}

/// Several agents' turn 0 side by side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// The agents, in the order asked for.
    pub agents: Vec<Agent>,
    /// The rows (see the module doc for the order).
    pub files: Vec<FileRow>,
    /// Per agent, the bytes of every turn-0 message it sends at start.
    pub sent: Vec<u64>,
    /// Per agent, its instruction content (see the module doc).
    pub contents: Vec<String>,
    /// The divergences, in plain words.
    pub divergences: Vec<Divergence>,
}

impl Comparison {
    /// True when the agents' instruction contents are not all the same.
    pub fn diverges(&self) -> bool {
        self.contents.windows(2).any(|pair| pair[0] != pair[1])
    }

    /// Adds `lazy` divergences ([`divergence::lazy`]) in their place: before
    /// the instruction-content line.
    pub fn add_lazy(&mut self, found: Vec<Divergence>) {
        let at = self
            .divergences
            .iter()
            .position(|d| d.kind == divergence::DivergenceKind::InstructionContent)
            .unwrap_or(self.divergences.len());
        self.divergences.splice(at..at, found);
    }

    /// The instruction content of `agent`, when it was compared.
    pub fn content_of(&self, agent: Agent) -> Option<&str> {
        let at = self.agents.iter().position(|a| *a == agent)?;
        self.contents.get(at).map(String::as_str)
    }
}

/// Sets `profiles` side by side (see the module doc); `sizes` gives the
/// size on disk of a file the run read, for the divergences' sentences.
pub fn compare(profiles: &[Profiled<'_>], sizes: &FileSizes<'_>) -> Comparison {
    let cells: Vec<HashMap<&str, Cell>> = profiles.iter().map(cells_of).collect();
    let mut seen: HashMap<&str, (Scope, Option<PartKind>)> = HashMap::new();
    for profile in profiles {
        let turn0 = profile.turn0;
        let listed = catalog_paths(profile);
        for part in start_parts(turn0).chain(touch_parts(turn0)) {
            if is_listing_line(part) {
                continue;
            }
            let known = seen.entry(&part.path).or_insert((part.scope, None));
            known.1.get_or_insert(part.kind);
        }
        for entry in turn0
            .not_loaded
            .iter()
            .filter(|e| !listed.contains(&*e.path))
        {
            seen.entry(&entry.path).or_insert((entry.scope, None));
        }
    }
    let mut files: Vec<FileRow> = seen
        .into_iter()
        .map(|(path, (scope, kind))| FileRow {
            path: path.to_string(),
            scope,
            kind,
            cells: cells
                .iter()
                .map(|of| of.get(path).cloned().unwrap_or_else(Cell::none))
                .collect(),
        })
        .collect();
    files.extend(directory_rows(profiles));
    files.sort_by(|a, b| row_key(a).cmp(&row_key(b)));
    let mut comparison = Comparison {
        agents: profiles.iter().map(|p| p.agent).collect(),
        files,
        sent: profiles
            .iter()
            .map(|p| p.turn0.messages.iter().map(|m| m.text.len() as u64).sum())
            .collect(),
        contents: profiles
            .iter()
            .map(|p| instruction_content(p.turn0))
            .collect(),
        divergences: Vec::new(),
    };
    comparison.divergences = divergence::divergences(profiles, &comparison, sizes);
    comparison
}

/// One row per directory any agent offers commands, skills or subagents
/// from (or withholds them from), its path ending in `/`, and one per file
/// configuring MCP servers or hooks.
fn directory_rows(profiles: &[Profiled<'_>]) -> Vec<FileRow> {
    type Counts = Vec<(OfferCounts, OfferCounts)>;
    let mut dirs: HashMap<String, (Scope, Counts)> = HashMap::new();
    for (at, profile) in profiles.iter().enumerate() {
        for offered in profile.offered {
            let (_, counts) = dirs.entry(offered.row()).or_insert_with(|| {
                let none = (OfferCounts::default(), OfferCounts::default());
                (offered.scope, vec![none; profiles.len()])
            });
            let (active, withheld) = &mut counts[at];
            if offered.withheld {
                withheld.add(offered);
            } else {
                active.add(offered);
            }
        }
    }
    dirs.into_iter()
        .map(|(path, (scope, counts))| FileRow {
            path,
            scope,
            kind: None,
            cells: counts
                .into_iter()
                .map(|(active, withheld)| {
                    match active.entries() + withheld.entries() + withheld.unread {
                        0 => Cell::none(),
                        _ => Cell::offered(active, withheld),
                    }
                })
                .collect(),
        })
        .collect()
}

/// Every part an agent sends at start, in order.
pub fn start_parts(turn0: &ProfileTurn0) -> impl Iterator<Item = &Part> {
    turn0.messages.iter().flat_map(|message| &message.parts)
}

/// Every part `--touch` adds, in order.
fn touch_parts(turn0: &ProfileTurn0) -> impl Iterator<Item = &Part> {
    turn0.touch.iter().flat_map(|touched| &touched.parts)
}

/// The paths an agent's catalog stands for (its entries' files, the
/// directories it left unread): summarised per directory, not rows of their
/// own.
fn catalog_paths<'a>(profile: &Profiled<'a>) -> HashSet<&'a str> {
    profile.offered.iter().map(|o| o.path.as_str()).collect()
}

/// True for a line of a skills or subagents listing: its file is a row of
/// the listing, not an instruction file.
fn is_listing_line(part: &Part) -> bool {
    matches!(part.kind, PartKind::Skills | PartKind::Subagent)
}

/// Each file's cell under one agent: the first fact about it wins (see the
/// module doc). The skills and subagents listings' parts and the catalog's withheld
/// entries are left to the directory rows.
fn cells_of<'a>(profile: &Profiled<'a>) -> HashMap<&'a str, Cell> {
    let turn0 = profile.turn0;
    let listed = catalog_paths(profile);
    let mut cells = HashMap::new();
    for part in start_parts(turn0).filter(|part| !is_listing_line(part)) {
        cells
            .entry(part.path.as_str())
            .or_insert_with(|| Cell::sent(part, State::Start));
    }
    for part in touch_parts(turn0) {
        cells
            .entry(part.path.as_str())
            .or_insert_with(|| Cell::sent(part, State::Touch));
    }
    for entry in turn0
        .not_loaded
        .iter()
        .filter(|e| !listed.contains(&*e.path))
    {
        cells
            .entry(entry.path.as_str())
            .or_insert_with(|| Cell::not_loaded(&entry.reason));
    }
    cells
}

/// How rows are ordered: scope, depth, path.
fn row_key(row: &FileRow) -> (u8, usize, &str) {
    dir_key(row.scope, &row.path)
}

/// The order of a path of `scope` among rows: scope, depth, path.
fn dir_key(scope: Scope, path: &str) -> (u8, usize, &str) {
    let rank = match scope {
        Scope::Managed => 0,
        Scope::User => 1,
        Scope::Parent => 2,
        Scope::Project | Scope::Local => 3,
    };
    let depth = path.split('/').filter(|c| !c.is_empty()).count();
    (rank, depth, path)
}

/// True for a part that counts toward the instruction content: an
/// instruction file, import or rule on the agent's walk.
pub fn is_instruction(part: &Part) -> bool {
    matches!(
        part.kind,
        PartKind::Instructions | PartKind::Import | PartKind::Rule
    ) && matches!(part.scope, Scope::Parent | Scope::Project | Scope::Local)
}

/// An agent's instruction content (see the module doc).
pub fn instruction_content(turn0: &ProfileTurn0) -> String {
    let mut files = Vec::new();
    let mut rules = Vec::new();
    for part in start_parts(turn0).filter(|part| is_instruction(part)) {
        let piece = normalised(&part.content);
        if piece.is_empty() {
            continue;
        }
        if part.kind == PartKind::Rule {
            rules.push(piece);
        } else {
            files.push(piece);
        }
    }
    rules.sort();
    files.extend(rules);
    files.join("\n\n")
}

/// A piece of instruction content: lines holding only `@path` imports
/// dropped, and lines holding only Gemini CLI's import markers
/// ([`is_marker_line`]: the inlined file stays), then trimmed. An import
/// is what Claude Code's scanner takes for one ([`imports::scan`]): a
/// decorator in a code block is not.
pub fn normalised(content: &str) -> String {
    let mut per_line: HashMap<usize, usize> = HashMap::new();
    for import in imports::scan(content) {
        *per_line.entry(import.line).or_default() += 1;
    }
    let kept: Vec<&str> = content
        .split_inclusive('\n')
        .enumerate()
        .filter(|(i, line)| {
            let found = per_line.get(&(i + 1)).copied().unwrap_or_default();
            !only_imports(line, found) && !is_marker_line(line)
        })
        .map(|(_, line)| line)
        .collect();
    kept.concat().trim().to_string()
}

/// True for a line whose words are all `@path` imports (`found` of them
/// were found on it).
fn only_imports(line: &str, found: usize) -> bool {
    found > 0 && {
        let mut words = line.split_whitespace();
        words.clone().count() == found && words.all(|word| word.starts_with('@'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::profile::{NotLoaded, ProfileMessage, Touched};
    use crate::prompt::turn0::Provenance;

    pub(super) fn part(path: &str, kind: PartKind, content: &str) -> Part {
        Part {
            path: path.into(),
            scope: if path.starts_with('/') {
                Scope::User
            } else {
                Scope::Project
            },
            kind,
            imported_by: None,
            content: content.into(),
            cut: None,
        }
    }

    /// The agents' turn 0, as compared.
    pub(super) fn profiled<'a>(turns: &[(Agent, &'a ProfileTurn0)]) -> Vec<Profiled<'a>> {
        turns
            .iter()
            .map(|(agent, turn0)| Profiled {
                agent: *agent,
                turn0,
                offered: &[],
            })
            .collect()
    }

    pub(super) fn turn0(
        parts: Vec<Part>,
        not_loaded: Vec<(&str, NotLoadedReason)>,
    ) -> ProfileTurn0 {
        ProfileTurn0 {
            messages: vec![ProfileMessage::joined(Provenance::Instructions, parts)],
            not_loaded: not_loaded
                .into_iter()
                .map(|(path, reason)| NotLoaded {
                    path: path.into(),
                    scope: Scope::Project,
                    reason,
                })
                .collect(),
            ..ProfileTurn0::default()
        }
    }

    #[test]
    fn every_file_is_a_row_with_one_cell_per_agent() {
        let mut cut = part("sub/AGENTS.md", PartKind::Instructions, "CUT");
        cut.cut = Some(Cut {
            kept: 3,
            omitted: 7,
        });
        let codex = turn0(
            vec![part("AGENTS.md", PartKind::Instructions, "A\n"), cut],
            vec![(
                "sub/deep/AGENTS.md",
                NotLoadedReason::OverBudget { bytes: 50 },
            )],
        );
        let mut claude = turn0(
            vec![
                part("/h/.claude/CLAUDE.md", PartKind::Instructions, "U"),
                part("CLAUDE.md", PartKind::Instructions, "C"),
                part(".claude/rules/r.md", PartKind::Rule, "R"),
            ],
            vec![
                ("AGENTS.md", NotLoadedReason::FallbackUnused),
                (".claude/rules/ts.md", NotLoadedReason::Conditional),
            ],
        );
        claude.touch.push(Touched {
            path: "sub/x.ts".into(),
            parts: vec![part("sub/CLAUDE.md", PartKind::Instructions, "S")],
        });
        let profiles = profiled(&[(Agent::Claude, &claude), (Agent::Codex, &codex)]);
        let comparison = compare(&profiles, &|_| None);
        let rows: Vec<(&str, [State; 2])> = comparison
            .files
            .iter()
            .map(|row| (row.path.as_str(), [row.cells[0].state, row.cells[1].state]))
            .collect();
        assert_eq!(
            rows,
            [
                ("/h/.claude/CLAUDE.md", [State::Start, State::None]),
                ("AGENTS.md", [State::Shadowed, State::Start]),
                ("CLAUDE.md", [State::Start, State::None]),
                ("sub/AGENTS.md", [State::None, State::Cut]),
                ("sub/CLAUDE.md", [State::Touch, State::None]),
                (".claude/rules/r.md", [State::Start, State::None]),
                (".claude/rules/ts.md", [State::NotRead, State::None]),
                ("sub/deep/AGENTS.md", [State::None, State::NotRead]),
            ]
        );
        let cut = &comparison.files[3].cells[1];
        assert_eq!((cut.bytes, cut.cut.map(|c| c.omitted)), (Some(3), Some(7)));
        let dropped = &comparison.files[7].cells[1];
        assert_eq!(
            (dropped.bytes, dropped.label, dropped.reason.as_deref()),
            (
                Some(50),
                Some("over budget"),
                Some("over budget (50 bytes)")
            )
        );
        assert_eq!(comparison.files[6].kind, None, "never sent");
        assert_eq!(comparison.sent, [7, 7], "every message as sent");
    }

    #[test]
    fn instruction_content_is_the_walk_files_then_the_sorted_rules() {
        let claude = turn0(
            vec![
                part("/h/.claude/CLAUDE.md", PartKind::Instructions, "personal"),
                part("CLAUDE.md", PartKind::Instructions, "@AGENTS.md\n"),
                part("AGENTS.md", PartKind::Import, "\n# Rules\nBe kind.\n"),
                part(".claude/rules/b.md", PartKind::Rule, "B"),
                part(".claude/rules/a.md", PartKind::Rule, " A "),
                part("/h/memory/MEMORY.md", PartKind::AutoMemory, "memory"),
            ],
            vec![],
        );
        assert_eq!(instruction_content(&claude), "# Rules\nBe kind.\n\nA\n\nB");
        let mecatl = turn0(
            vec![
                part("AGENTS.md", PartKind::Instructions, "# Rules\nBe kind."),
                part(".mecatl/rules/a.md", PartKind::Rule, "A"),
                part(".claude/rules/b.md", PartKind::Rule, "B"),
                part("/c/soul.md", PartKind::Soul, "soul"),
            ],
            vec![],
        );
        assert_eq!(instruction_content(&mecatl), instruction_content(&claude));
    }

    #[test]
    fn only_lines_of_imports_are_dropped() {
        assert_eq!(normalised("@AGENTS.md\n"), "");
        assert_eq!(normalised("@a.md @b.md\nkeep\n  @c.md  \n"), "keep");
        assert_eq!(
            normalised("see @a.md\n@\nmail a@b.c"),
            "see @a.md\n@\nmail a@b.c"
        );
        assert_eq!(normalised("  \r\n\t"), "");
        let decorator = "```python\n@app.route\ndef f(): pass\n```";
        assert_eq!(normalised(decorator), decorator, "code is not an import");
    }

    #[test]
    fn agents_diverge_when_their_contents_differ() {
        let a = turn0(
            vec![part("AGENTS.md", PartKind::Instructions, "X\n")],
            vec![],
        );
        let b = turn0(vec![part("CLAUDE.md", PartKind::Instructions, "X")], vec![]);
        let c = turn0(vec![part("AGENTS.md", PartKind::Instructions, "Y")], vec![]);
        let compared = |turns: &[(Agent, &ProfileTurn0)]| compare(&profiled(turns), &|_| None);
        let same = compared(&[(Agent::Codex, &a), (Agent::Claude, &b)]);
        assert!(!same.diverges());
        assert_eq!(same.content_of(Agent::Claude), Some("X"));
        let nothing = turn0(
            vec![part("AGENTS.md", PartKind::Instructions, " \n")],
            vec![],
        );
        assert_eq!(instruction_content(&nothing), "");
        assert_eq!(same.content_of(Agent::Mecatl), None);
        let differ = compared(&[(Agent::Codex, &a), (Agent::Claude, &b), (Agent::Mecatl, &c)]);
        assert!(differ.diverges());
    }
}
