//! `compare` (SPEC §15.1): what each agent loads from this workspace, side
//! by side. Each profile's turn 0 comes from the one registration
//! ([`crate::cli::profile::agent_turn0`]), every profile reading through
//! one memoised set of readers ([`Readers::memoised`]), so a file that
//! three profiles need is read once; the table, the totals, the
//! divergences and the instruction content come from
//! [`crate::prompt::compare`].
//!
//! Output:
//! - Text: a table (`FILE`, `SCOPE`, one column per agent; a cell says
//!   `start`, `touch`, `cut K/N`, `shadowed`, `withheld`, `not read (why)`,
//!   a directory's commands and skills, or `—`), the total bytes and tokens per agent with a line naming how
//!   tokens were counted, then the divergences, one line each. With
//!   `--diff A,B`, only the unified diff of A's and B's instruction
//!   content.
//! - JSON: `{"schema", "agents", "at", "files": [{"path",
//!   "scope", "per_agent": {NAME: {"state", "bytes", "cut", "reason"}}}],
//!   "totals": {NAME: {"bytes", "tokens", "tokenizer"}}, "divergences":
//!   [{"kind", "message", "paths"}], "diff"?, "diagnostics", "trust"}`.
//! - Exit 0; with `--fail-on-divergence`, 1 when the agents' instruction
//!   content differs ([`crate::prompt::compare`] defines it).
//!
//! Choices the spec leaves open:
//! - A document about several agents names them (`agents`) where the
//!   others name their one `agent`, as `lint`'s does; `at` is always
//!   present (`.` for the workspace root), since the walks of two of the
//!   agents depend on it.
//! - A cell's `reason` (JSON) says why a file was shadowed, withheld or not
//!   read, in the words `assemble`'s `not_loaded` uses; `state` is one of
//!   `start`, `cut`, `touch`, `shadowed`, `withheld`, `not_read`,
//!   `offered`, `none`; a directory's cell counts its commands and skills
//!   in `entries` (null elsewhere, and for a directory left unsearched).
//! - The profiles run Claude Code first, then the engine, then Codex,
//!   whatever order is asked for: a read is answered from an earlier one
//!   only when that one read at least as much, and Claude Code reads files
//!   whole up to 4 MiB, the engine up to its 64 KiB cap and some room,
//!   Codex no more than its budget.
//! - Diagnostics: the run's own once, then each agent's in the order asked
//!   for, each diagnostic once however many profiles met it, then the
//!   trust notice once. With `-v`, an info line counts the reads and
//!   lookups the profiles shared.
//! - `--diff A,B` takes two different agents among `--agents`; the diff is
//!   empty when their contents are equal, with an info line saying so.
//!   JSON carries it as `"diff": {"a", "b", "unified"}`.
//! - The table leaves out the rows of paths no agent found a file at
//!   (every cell `—` or `not read (missing)`: an `@name` in prose that
//!   Claude Code's scanner takes for an import) and counts them in a line
//!   below it; JSON lists them.
//! - Commands and skills are rows per directory: a cell counts what the
//!   agent offers from it (`2 nested commands and 1 skill`), or what trust withholds
//!   (`withheld (N)`; plain `withheld` for a Codex skills directory left
//!   unsearched). `--fail-on-divergence` never looks at them.
//! - Gemini CLI's context files below the start directory load only when
//!   a tool reads under their directory: when Gemini is compared, a look
//!   at the tree below `--at` (pruned as `lint`'s, through the profiles'
//!   reading cache, bounded by [`limits::COMPARE_LAZY_ENTRIES`] entries so
//!   a monorepo costs no more than a small tree; an info line says when it
//!   stopped) finds its instruction names there, and each file no `--touch`
//!   added is a `lazy` divergence.
//!   Claude Code's nested files load the same way and are named under
//!   `--touch` only, as before, so output without Gemini does not change;
//!   without Gemini compared, nothing is walked.
//! - The engine (mecatl) runs with every turn-0 source and its defaults,
//!   as `assemble` does without options; its totals count its soul,
//!   memory index and user model too, which are rows of the table.

use std::collections::HashSet;

use clap::Args;
use serde::Serialize;
use serde::ser::SerializeMap;

use crate::adapters::trust::Trust;
use crate::cli::args::ListingArgs;
use crate::cli::args::TouchArgs;
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{Context, Format, agent_parser};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, SCHEMA};
use crate::cli::profile::{AgentRun, ProfileArgs, agent_run};
use crate::cli::readers::Readers;
use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents;
use crate::prompt::agents::default_agents;
use crate::prompt::compare::divergence::{self, Divergence, grouped, names, offer_words};
use crate::prompt::compare::{self, Cell, Comparison, FileRow, Profiled, State, diff};
use crate::prompt::lint::survey::PRUNED;
use crate::prompt::profile::{Agent, NotLoadedReason, ProfileTurn0};
use crate::prompt::tiers::walk_tree_pruned;
use crate::prompt::tokens::{ESTIMATE_RULE, Tokenizer};
use crate::workspace::{MemoCounts, ReadMemo, base_name, parent};

/// `--agents`' help: its default is every profile, in table order, those
/// with [`crate::prompt::profile::seam::ProfileSpec::default_when`] only when their files are there.
fn agents_help() -> String {
    let always: Vec<&str> = agents::PROFILES
        .iter()
        .map(|profile| profile.spec())
        .filter(|spec| spec.default_when.is_empty())
        .map(|spec| spec.name)
        .collect();
    let when: Vec<String> = agents::PROFILES
        .iter()
        .map(|profile| profile.spec())
        .filter(|spec| !spec.default_when.is_empty())
        .map(|spec| {
            format!(
                ", {} when the root or --at holds {}",
                spec.name,
                spec.default_when.join(" or ")
            )
        })
        .collect();
    format!(
        "The agents to compare, comma-separated, in the order shown [default: {}{}]",
        always.join(","),
        when.concat()
    )
}

/// Arguments of `compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    // The help's default lists every profile of the table ([`agents_help`]).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = agent_parser(), help = agents_help())]
    pub agents: Vec<Agent>,

    /// What reading a file adds.
    #[command(flatten)]
    pub touch: TouchArgs,

    /// What sizes Claude Code's skills listing.
    #[command(flatten)]
    pub listing: ListingArgs,

    /// Print a unified diff of two agents' instruction content instead of the table
    #[arg(long, value_name = "A,B", value_delimiter = ',', value_parser = agent_parser())]
    pub diff: Vec<Agent>,

    /// Exit 1 when the agents' instruction content differs (instruction files, imports and rules on the walk, normalised); commands, skills and the skills listing never fail it
    #[arg(long)]
    pub fail_on_divergence: bool,
}

/// What an agent's turn 0 costs, and how its tokens were counted (SPEC
/// §15.4: exactly for Codex, the labelled estimate for the others).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct Total {
    bytes: u64,
    tokens: usize,
    tokenizer: Tokenizer,
}

/// The agents compared and the pair `--diff` names.
#[derive(Debug, PartialEq, Eq)]
struct Selection {
    agents: Vec<Agent>,
    diff: Option<(Agent, Agent)>,
}

/// The agents compared and the pair `--diff` names, checked.
fn selection(args: &CompareArgs, defaults: &[Agent]) -> Result<Selection, CliError> {
    let agents = if args.agents.is_empty() {
        defaults.to_vec()
    } else {
        args.agents.clone()
    };
    if let Some(twice) = agents
        .iter()
        .enumerate()
        .find_map(|(i, agent)| agents[..i].contains(agent).then_some(agent))
    {
        return Err(CliError::Usage(format!(
            "--agents: {} is listed twice",
            twice.as_str()
        )));
    }
    let pair = match args.diff[..] {
        [] => None,
        [a, b] if a == b => {
            return Err(CliError::Usage(format!(
                "--diff {0},{0}: name two different agents",
                a.as_str()
            )));
        }
        [a, b] => Some((a, b)),
        _ => {
            return Err(CliError::Usage(
                "--diff takes two agents, as in --diff claude,codex".to_string(),
            ));
        }
    };
    if let Some((a, b)) = pair
        && let Some(missing) = [a, b].into_iter().find(|agent| !agents.contains(agent))
    {
        return Err(CliError::Usage(format!(
            "--diff {},{}: {} is not among the agents compared ({})",
            a.as_str(),
            b.as_str(),
            missing.as_str(),
            agents
                .iter()
                .map(|a| a.as_str())
                .collect::<Vec<_>>()
                .join(",")
        )));
    }
    Ok(Selection { agents, diff: pair })
}

/// Runs `compare`.
pub fn run(ctx: &Context, args: &CompareArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("compare")?;
    let defaults = default_agents(ctx.reader.as_ref(), &ctx.at);
    let Selection { agents, diff: pair } = selection(args, &defaults)?;
    let profile_args = ProfileArgs::resolve(ctx, &args.touch, &args.listing)?;
    let memo = ReadMemo::new();
    let readers = Readers::memoised(ctx, memo.clone());
    let mut runs: Vec<(Agent, AgentRun)> = Vec::new();
    for agent in agents::read_order()
        .into_iter()
        .filter(|a| agents.contains(a))
    {
        let mut run = agent_run(&readers, agent, &profile_args)?;
        run.offered.extend(compare::inventory(&run.turn0));
        runs.push((agent, run));
    }
    runs.sort_by_key(|(agent, _)| agents.iter().position(|a| a == agent));
    let profiled: Vec<Profiled<'_>> = runs
        .iter()
        .map(|(agent, run)| Profiled {
            agent: *agent,
            turn0: &run.turn0,
            offered: &run.offered,
        })
        .collect();
    let turns: Vec<(Agent, &ProfileTurn0)> = runs
        .iter()
        .map(|(agent, run)| (*agent, &run.turn0))
        .collect();
    let size = |path: &str| memo.size(&ctx.workspace.join(path));
    let mut comparison = compare::compare(&profiled, &size);
    let mut lazy_cut = Vec::new();
    for (agent, run) in runs
        .iter()
        .filter(|(agent, _)| agent.profile().spec().lazy_in_compare)
    {
        let (found, cut) = lazy_files(&readers, *agent, &run.turn0);
        comparison.add_lazy(divergence::lazy(*agent, &found));
        if cut {
            lazy_cut.push(*agent);
        }
    }
    let totals: Vec<Total> = turns
        .iter()
        .zip(&comparison.sent)
        .map(|((agent, turn0), bytes)| {
            let tokenizer = agent.tokenizer();
            let texts = turn0.messages.iter().map(|m| m.text.as_str());
            Total {
                bytes: *bytes,
                tokens: tokenizer.count_each(texts),
                tokenizer,
            }
        })
        .collect();
    let mut diagnostics = diagnostics(ctx, &turns, memo.counts());
    for agent in lazy_cut {
        diagnostics.push(Diagnostic::new(
            Severity::Info,
            None,
            format!(
                "the look for {}'s context files below the start directory stopped after {} \
                 entries; `lint` names every one",
                agent.title(),
                grouped(limits::COMPARE_LAZY_ENTRIES as u64)
            ),
        ));
    }
    let unified = pair.map(|(a, b)| {
        let content = |agent| comparison.content_of(agent).unwrap_or_default();
        let unified = diff::unified(a.as_str(), content(a), b.as_str(), content(b));
        if unified.is_empty() {
            diagnostics.push(Diagnostic::new(
                Severity::Info,
                None,
                format!(
                    "--diff: {} get the same instruction content",
                    names(&[a, b])
                ),
            ));
        }
        DiffView { a, b, unified }
    });
    output::print_diagnostics(ctx, &diagnostics);
    match ctx.format {
        Format::Json => output::print_json(&CompareDocument {
            schema: SCHEMA,
            agents: &comparison.agents,
            at: ctx.at_label(),
            files: comparison
                .files
                .iter()
                .map(|row| FileView {
                    row,
                    agents: &comparison.agents,
                })
                .collect(),
            totals: PerAgent(&comparison.agents, &totals),
            divergences: &comparison.divergences,
            diff: unified.as_ref(),
            diagnostics: &diagnostics,
            trust: ctx.trust,
        })?,
        _ => match &unified {
            Some(diff) => output::write_stdout(diff.unified.as_bytes())?,
            None => output::print_text(&text(&comparison, &totals))?,
        },
    }
    Ok(if args.fail_on_divergence && comparison.diverges() {
        Status::CheckFailed
    } else {
        Status::Success
    })
}

/// The instruction files `agent` loads only on a read below the start
/// directory and no `--touch` added, sorted, and whether the look was cut:
/// its instruction names in the directories below `--at`, found by a walk
/// of the tree below it (pruned as `lint`'s) through the profiles' reading
/// cache, bounded by [`limits::COMPARE_LAZY_ENTRIES`] entries.
fn lazy_files(readers: &Readers<'_>, agent: Agent, turn0: &ProfileTurn0) -> (Vec<String>, bool) {
    let at = readers.context().at.as_str();
    let prune = |name: &str| PRUNED.contains(&name);
    let tree = walk_tree_pruned(readers.project(), at, &prune, limits::COMPARE_LAZY_ENTRIES);
    let touched: HashSet<&str> = turn0
        .touch
        .iter()
        .flat_map(|entry| &entry.parts)
        .map(|part| part.path.as_str())
        .collect();
    let names = agent.spec().instruction_names;
    let mut found: Vec<String> = tree
        .files
        .into_iter()
        .filter(|rel| parent(rel) != at && names.contains(&base_name(rel)))
        .filter(|rel| !touched.contains(rel.as_str()))
        .collect();
    found.sort();
    (found, tree.cut)
}

/// The run's diagnostics once, then each agent's (each diagnostic once),
/// then what the readers shared (info), then the trust notice.
fn diagnostics(
    ctx: &Context,
    turns: &[(Agent, &ProfileTurn0)],
    counts: MemoCounts,
) -> Vec<Diagnostic> {
    let mut seen: HashSet<(Severity, Option<&str>, &str)> = HashSet::new();
    let mut found: Vec<Diagnostic> = Vec::new();
    for diagnostic in turns.iter().flat_map(|(_, turn0)| &turn0.diagnostics) {
        let key = (
            diagnostic.severity,
            diagnostic.path.as_deref(),
            diagnostic.reason.as_str(),
        );
        if seen.insert(key) {
            found.push(diagnostic.clone());
        }
    }
    found.push(Diagnostic::new(
        Severity::Info,
        None,
        format!(
            "{} profiles read files {} times and looked up paths {} times; {} more reads and {} \
             more lookups were answered from memory",
            turns.len(),
            counts.reads,
            counts.lookups,
            counts.reads_remembered,
            counts.lookups_remembered
        ),
    ));
    let withheld = turns.iter().any(|(_, turn0)| turn0.withheld_any());
    with_context_diagnostics(ctx, found, withheld)
}

/// The JSON document of `compare`.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct CompareDocument<'a> {
    #[cfg_attr(test, schemars(extend("const" = SCHEMA)))]
    schema: &'static str,
    agents: &'a [Agent],
    at: &'a str,
    files: Vec<FileView<'a>>,
    totals: PerAgent<'a, Total>,
    divergences: &'a [Divergence],
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<&'a DiffView>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// `--diff A,B` in JSON.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct DiffView {
    a: Agent,
    b: Agent,
    unified: String,
}

/// A row in JSON: `{"path", "scope", "per_agent": {NAME: cell}}`.
struct FileView<'a> {
    row: &'a FileRow,
    agents: &'a [Agent],
}

impl Serialize for FileView<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut row = serializer.serialize_struct("File", 3)?;
        row.serialize_field("path", &self.row.path)?;
        row.serialize_field("scope", &self.row.scope)?;
        row.serialize_field("per_agent", &PerAgent(self.agents, &self.row.cells))?;
        row.end()
    }
}

#[cfg(test)]
crate::json_schema::closed::closed_schema!(FileView<'_>, "A row: a file, and what each agent makes of it.", {
    "path" = "Named like a part's path.",
    "scope": crate::prompt::profile::Scope,
    "per_agent": PerAgent<'static, Cell>,
});

/// Values keyed by agent name, in the agents' order (a row's cells, the
/// totals).
struct PerAgent<'a, T>(&'a [Agent], &'a [T]);

impl<T: Serialize> Serialize for PerAgent<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (agent, value) in self.0.iter().zip(self.1) {
            map.serialize_entry(agent.as_str(), value)?;
        }
        map.end()
    }
}

#[cfg(test)]
impl<T: schemars::JsonSchema> schemars::JsonSchema for PerAgent<'_, T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("PerAgent_{}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Values keyed by agent name, in the agents' order.",
            "type": "object",
            "propertyNames": generator.subschema_for::<Agent>(),
            "additionalProperties": generator.subschema_for::<T>(),
        })
    }
}

/// A cell as the table shows it.
fn cell_text(cell: &Cell) -> String {
    match cell.state {
        State::Start => "start".to_string(),
        State::Cut => match cell.cut {
            Some(cut) => format!(
                "cut {}/{}",
                grouped(cut.kept),
                grouped(cut.kept + cut.omitted)
            ),
            None => "cut".to_string(),
        },
        State::Touch => "touch".to_string(),
        State::Shadowed => "shadowed".to_string(),
        State::Row => "row".to_string(),
        State::Duplicate => "duplicate".to_string(),
        State::Withheld => match cell.entries {
            Some(entries) => format!("withheld ({entries})"),
            None => "withheld".to_string(),
        },
        State::NotRead => format!("not read ({})", cell.label.unwrap_or("not loaded")),
        State::Offered => offer_words(cell.offer.unwrap_or_default()),
        State::None => "—".to_string(),
    }
}

/// The text rendering: the table, the totals, the tokenizers, then the
/// divergences.
fn text(comparison: &Comparison, totals: &[Total]) -> String {
    let agents = &comparison.agents;
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut head = vec!["FILE".to_string(), "SCOPE".to_string()];
    head.extend(agents.iter().map(|a| a.as_str().to_uppercase()));
    rows.push(head);
    let (shown, unfound): (Vec<&FileRow>, Vec<&FileRow>) =
        comparison.files.iter().partition(|row| !names_no_file(row));
    for row in shown {
        let mut line = vec![output::one_line(&row.path), row.scope.as_str().to_string()];
        line.extend(row.cells.iter().map(cell_text));
        rows.push(line);
    }
    let mut bytes = vec!["total bytes".to_string(), String::new()];
    bytes.extend(totals.iter().map(|t| grouped(t.bytes)));
    rows.push(bytes);
    let mut tokens = vec!["total tokens".to_string(), String::new()];
    tokens.extend(totals.iter().map(|t| {
        let estimated = if t.tokenizer.is_exact() { "" } else { "~" };
        format!("{estimated}{}", grouped(t.tokens as u64))
    }));
    rows.push(tokens);
    let mut out = output::aligned_columns(&rows);
    out.push('\n');
    out.push_str(&tokenizer_line(agents, totals));
    if !unfound.is_empty() {
        let who: Vec<Agent> = agents
            .iter()
            .enumerate()
            .filter(|(at, _)| {
                unfound
                    .iter()
                    .any(|row| row.cells[*at].state != State::None)
            })
            .map(|(_, agent)| *agent)
            .collect();
        let paths = match unfound.len() {
            1 => "1 path".to_string(),
            n => format!("{} paths", grouped(n as u64)),
        };
        out.push_str(&format!(
            "\nnot shown: {paths} {} took for imports, where no file exists (--format json lists them)",
            names(&who)
        ));
    }
    out.push_str("\n\n");
    if comparison.divergences.is_empty() {
        out.push_str(&format!(
            "No divergence: {} get the same instruction content.",
            names(agents)
        ));
    } else {
        out.push_str("Divergences:");
        for divergence in &comparison.divergences {
            out.push_str("\n- ");
            out.push_str(&output::one_line(&divergence.message));
        }
    }
    out
}

/// True for a row no agent found a file for: every cell is `—` or `not
/// read (missing)` (an `@name` in prose that Claude Code's scanner takes
/// for an import and finds nothing at). The table leaves such rows out and
/// counts them; JSON keeps them.
fn names_no_file(row: &FileRow) -> bool {
    row.cells.iter().all(|cell| match cell.state {
        State::None => true,
        State::NotRead => cell.label == Some(NotLoadedReason::Missing.label()),
        _ => false,
    })
}

/// How the tokens of the totals were counted, in one line.
fn tokenizer_line(agents: &[Agent], totals: &[Total]) -> String {
    let mut clauses = Vec::new();
    let mut exact: Vec<(Tokenizer, Vec<Agent>)> = Vec::new();
    for (agent, total) in agents.iter().zip(totals) {
        if !total.tokenizer.is_exact() {
            continue;
        }
        match exact
            .iter_mut()
            .find(|(known, _)| *known == total.tokenizer)
        {
            Some((_, who)) => who.push(*agent),
            None => exact.push((total.tokenizer, vec![*agent])),
        }
    }
    for (tokenizer, who) in exact {
        clauses.push(format!(
            "{} counted exactly with {}",
            names(&who),
            tokenizer.label()
        ));
    }
    if totals.iter().any(|t| !t.tokenizer.is_exact()) {
        clauses.push(format!("~ estimated as {ESTIMATE_RULE}"));
    }
    format!("tokens: {}", clauses.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::profile::Cut;

    fn args(agents: &[Agent], diff: &[Agent]) -> CompareArgs {
        CompareArgs {
            agents: agents.to_vec(),
            touch: TouchArgs::default(),
            listing: ListingArgs::default(),
            diff: diff.to_vec(),
            fail_on_divergence: false,
        }
    }

    fn usage(result: Result<Selection, CliError>) -> String {
        match result {
            Err(CliError::Usage(why)) => why,
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn agents_default_to_all_and_diff_names_two_of_them() {
        assert_eq!(
            selection(&args(&[], &[Agent::Claude, Agent::Codex]), &Agent::ALL).unwrap(),
            Selection {
                agents: Agent::ALL.to_vec(),
                diff: Some((Agent::Claude, Agent::Codex)),
            }
        );
        assert_eq!(
            usage(selection(
                &args(&[Agent::Codex, Agent::Codex], &[]),
                &Agent::ALL
            )),
            "--agents: codex is listed twice"
        );
        assert_eq!(
            usage(selection(&args(&[], &[Agent::Codex]), &Agent::ALL)),
            "--diff takes two agents, as in --diff claude,codex"
        );
        assert_eq!(
            usage(selection(
                &args(&[], &[Agent::Codex, Agent::Codex]),
                &Agent::ALL
            )),
            "--diff codex,codex: name two different agents"
        );
        assert_eq!(
            usage(selection(
                &args(
                    &[Agent::Mecatl, Agent::Codex],
                    &[Agent::Mecatl, Agent::Claude]
                ),
                &Agent::ALL
            )),
            "--diff mecatl,claude: claude is not among the agents compared (mecatl,codex)"
        );
    }

    #[test]
    fn cells_say_what_became_of_the_file() {
        let mut cell = Cell::none();
        assert_eq!(cell_text(&cell), "—");
        cell.state = State::Cut;
        cell.cut = Some(Cut {
            kept: 12_768,
            omitted: 7_232,
        });
        assert_eq!(cell_text(&cell), "cut 12,768/20,000");
        cell.state = State::NotRead;
        cell.label = Some("conditional");
        assert_eq!(cell_text(&cell), "not read (conditional)");
    }

    #[test]
    fn the_tokenizer_line_names_exact_counts_and_the_estimate() {
        let total = |tokenizer| Total {
            bytes: 4,
            tokens: 1,
            tokenizer,
        };
        let (estimate, exact) = (Tokenizer::Estimate, Tokenizer::O200kBase);
        let agents = [Agent::Mecatl, Agent::Claude, Agent::Codex];
        assert_eq!(
            tokenizer_line(&agents, &[total(estimate), total(estimate), total(exact)]),
            "tokens: Codex counted exactly with o200k_base; ~ estimated as bytes / 4, rounded up"
        );
        assert_eq!(
            tokenizer_line(&agents[..1], &[total(estimate)]),
            "tokens: ~ estimated as bytes / 4, rounded up"
        );
    }
}
