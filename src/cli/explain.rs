//! `explain`: why a command or rule resolved as it did (SPEC §2.8), and
//! under an agent profile why an instruction file was or was not loaded
//! (SPEC §14.7), read from the profile's turn 0 by
//! [`crate::cli::profile::verdict`].
//!
//! Every location that could hold the name is listed in precedence order,
//! those without the file included (`not found`), so the output also
//! shows where to put a file to override the winner. A bare `explain NAME`
//! tries commands first and falls back to rules only when no command
//! location holds anything under that name; when neither does, both
//! searches are shown and the exit status is 1.
//!
//! Under `claude` the command section searches Claude Code's command and
//! skill directories (SPEC §14.5) and adds the winner's kind,
//! `argument-hint` and frontmatter; a name that only a skill's `name:` key
//! gives is explained through that skill. Under `codex`, `$NAME` (or a
//! bare NAME) shows every skill Codex lists under that name (SPEC §14.6).
//!
//! Under a profile, a NAME that ends in `.md` or holds a `/` past its
//! first character is an instruction file (a command name has neither):
//! `explain AGENTS.md --agent codex`, `explain sub/AGENTS.md`,
//! `explain ~/.codex/AGENTS.md`. A file that configures MCP servers
//! (`.mcp.json`, `.codex/config.toml`, `.gemini/settings.json`, ending in
//! `.json` or `.toml`) lists its servers as `assemble` does (SPEC §19.4):
//! transport, command or URL, why they would or would not start, what they
//! would add, secret keys without values — never started.

use std::ffi::{OsStr, OsString};

use clap::Args;
use clap_complete::engine::CompletionCandidate;
use serde::Serialize;

use crate::adapters::trust::{Trust, trust_hint};
use crate::cli::args::CommandDirsArgs;
use crate::cli::complete;
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::parts::server_line;
use crate::cli::profile::verdict::{self, FileVerdict};
use crate::cli::profile::{ProfileArgs, profile_turn0};
use crate::cli::readers::Readers;
use crate::cli::run_profile::with_catalog;
use crate::cli::sources::rule_dirs;
use crate::diagnostic::Diagnostic;
use crate::prompt::command::NameGrammar;
use crate::prompt::profile::catalog::{
    Catalog, CatalogExplanation, NameDetails, NamePlace, places,
};
use crate::prompt::profile::{Agent, McpServer};
use crate::prompt::rules::discovery::explain_rule;
use crate::prompt::walk::Scope;

use crate::prompt::rules::{RuleOrigin, render_rule_block};
use crate::prompt::tiers::{Fate, NameResolution, SearchDir, Tier};

/// Arguments of `explain`.
#[derive(Debug, Clone, Args)]
pub struct ExplainArgs {
    /// Explain the rule NAME (without this, `/NAME` is a command and a bare NAME tries commands, then rules)
    #[arg(long)]
    pub rule: bool,

    /// The command directories to search, as for `expand`.
    #[command(flatten)]
    pub dirs: CommandDirsArgs,

    /// `/NAME` for a command (under --agent codex `$NAME` for a skill), NAME for a command or else a rule
    #[arg(
        value_name = "NAME",
        add = clap_complete::ArgValueCompleter::new(complete_name)
    )]
    pub name: String,
}

/// Completes NAME (SPEC §2.6): with `--rule`, the rule names; else a word
/// starting with `/` completes to the slash-command names as for `expand`,
/// another word to the rule names, and an empty word offers both.
/// Commands are offered with their `/` only, so a bare word is a rule.
fn complete_name(current: &OsStr) -> Vec<CompletionCandidate> {
    let candidates = complete_name_on(&complete::completion_words(), current);
    complete::tagged::<ExplainArgs>("name", candidates)
}

fn complete_name_on(words: &[OsString], current: &OsStr) -> Vec<CompletionCandidate> {
    let start = ExplainArgs {
        rule: false,
        dirs: CommandDirsArgs::default(),
        name: String::new(),
    };
    let Some((args, ctx)) = complete::read_line(words, &["explain"], start) else {
        return Vec::new();
    };
    let commands =
        !args.rule && (current.is_empty() || current.as_encoded_bytes().starts_with(b"/"));
    let rules = args.rule || !current.as_encoded_bytes().starts_with(b"/");
    let mut names = Vec::new();
    if commands {
        names.extend(complete::command_names(
            &ctx,
            &args.dirs.commands_dirs,
            current,
        ));
    }
    if rules {
        names.extend(complete::rule_names(&ctx, current));
    }
    names
}

/// Trust state of a location, as `explain` prints it.
fn trust_state(project: bool, withheld: bool) -> &'static str {
    match (project, withheld) {
        (false, _) => "not gated",
        (true, true) => "untrusted",
        (true, false) => "trusted",
    }
}

/// One candidate file, whatever its kind.
/// One place that could hold the name, whatever the kind: the file there
/// and what became of it, straight from the precedence engine.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CandidateView {
    /// The file, as its reader displays it.
    source: String,
    /// The directory's tier.
    tier: Tier,
    /// `trusted`, `untrusted` or `not gated`.
    trust: &'static str,
    /// What became of the file; [`Fate::NotFound`] with no reason when
    /// nothing is there.
    fate: Fate,
}

impl CandidateView {
    fn found(&self) -> bool {
        !matches!(self.fate, Fate::NotFound { .. })
    }
}

impl From<NamePlace> for CandidateView {
    fn from(place: NamePlace) -> Self {
        Self {
            source: place.source,
            tier: place.tier,
            trust: trust_state(place.tier == Tier::Project, place.withheld),
            fate: place.fate,
        }
    }
}

/// The JSON shape: `{source, tier, trust, fate, detail}`, the fate by its
/// name and its data as one detail string.
impl Serialize for CandidateView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut view = serializer.serialize_struct("CandidateView", 5)?;
        view.serialize_field("source", &self.source)?;
        view.serialize_field("tier", self.tier.as_str())?;
        view.serialize_field("trust", self.trust)?;
        view.serialize_field("fate", self.fate.as_str())?;
        view.serialize_field("detail", &self.fate.detail())?;
        view.end()
    }
}

#[cfg(test)]
crate::json_schema::closed::closed_schema!(CandidateView, "One place that could hold the name: the file there and what became of it.", {
    "source" = "The file, as its reader displays it.",
    "tier": Tier,
    "trust" => ["trusted", "untrusted", "not gated"],
    "fate" = "What became of the file (`winner`, `shadowed`, `not found`, …).",
    "detail": Option<String>,
});

/// What the command section shows.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct CommandSection {
    name: String,
    candidates: Vec<CandidateView>,
    winner: Option<String>,
    why: String,
    description: Option<String>,
    frontmatter_keys: Vec<String>,
    #[serde(flatten)]
    details: Option<NameDetails>,
}

/// What `explain` shows of a name an agent lists without precedence
/// (Codex's skills, SPEC §14.6): every entry under it; a `$NAME` mention
/// adds the block of the only one, none when there are several.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct SkillSection {
    name: String,
    skills: Vec<SkillView>,
    used: Option<String>,
    why: String,
}

/// One entry of a [`SkillSection`].
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct SkillView {
    source: String,
    scope: Scope,
    description: String,
}

/// What the rule section shows: the winner's parsed rule, or, when the
/// only usable file is withheld, what it would inject once trusted.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct RuleSection {
    name: String,
    candidates: Vec<CandidateView>,
    winner: Option<String>,
    why: String,
    origin: Option<RuleOrigin>,
    paths: Option<Vec<String>>,
    truncated: bool,
    injected: bool,
    block: Option<String>,
}

/// The JSON document of `explain`: what the name or path is, section by
/// section (command, skill, rule, file), the diagnostics and trust.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ExplainDocument<'a> {
    #[serde(flatten)]
    head: DocHead<'a>,
    name: &'a str,
    found: bool,
    command: Option<&'a CommandSection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skill: Option<&'a SkillSection>,
    rule: Option<&'a RuleSection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a FileVerdict>,
    /// The MCP servers the file configures, never started (SPEC §19.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    mcp_servers: Option<&'a Vec<&'a McpServer>>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// Every searched directory's place for the name, in precedence order,
/// with what became of the file there (`not found` where there is none).
fn candidate_views<T>(dirs: &[SearchDir<'_>], found: &NameResolution<T>) -> Vec<CandidateView> {
    let places = places(dirs, found).into_iter();
    places.map(CandidateView::from).collect()
}

/// `a`, `a and b`, `a, b and c`.
fn join_words(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// One sentence saying why the winner won, or why nothing did.
fn why(ctx: &Context, label: &str, views: &[CandidateView]) -> String {
    let described = |v: &CandidateView| format!("{} ({})", v.source, v.fate.as_str());
    let winner = views.iter().position(|v| v.fate == Fate::Winner);
    if let Some(w) = winner {
        let earlier: Vec<String> = views[..w]
            .iter()
            .filter(|v| v.found())
            .map(described)
            .collect();
        let shadowed: Vec<String> = views[w + 1..]
            .iter()
            .filter(|v| matches!(v.fate, Fate::Shadowed { .. }))
            .map(|v| v.source.clone())
            .collect();
        let mut sentence = if earlier.is_empty() {
            format!(
                "{} wins because it is the first location in precedence order that holds {label}",
                views[w].source
            )
        } else {
            format!(
                "{} wins because the higher-precedence {} could not be used",
                views[w].source,
                join_words(&earlier)
            )
        };
        if !shadowed.is_empty() {
            sentence.push_str(&format!("; it shadows {}", join_words(&shadowed)));
        }
        sentence.push('.');
        return sentence;
    }
    if let Some(withheld) = views.iter().find(|v| v.fate == Fate::Withheld) {
        return format!(
            "Nothing is injected: {} would provide {label} but is withheld because the workspace \
             is not trusted ({}).",
            withheld.source,
            trust_hint(ctx.locations.settings_file().as_deref())
        );
    }
    let failed: Vec<String> = views.iter().filter(|v| v.found()).map(described).collect();
    if failed.is_empty() {
        format!("No location holds {label}.")
    } else {
        format!(
            "Nothing provides {label}: {} could not be used.",
            join_words(&failed)
        )
    }
}

/// The section of what `catalog` found for `name`: the command section
/// of a precedence search (for a skill's `name:`, the skill's own name's),
/// or the skill section of a listing.
fn catalog_section(
    ctx: &Context,
    catalog: &dyn Catalog,
    name: &str,
) -> Result<(Section, Vec<Diagnostic>), CliError> {
    let spec = ctx.agent.spec();
    Ok(match catalog.explain(name)? {
        CatalogExplanation::Resolved(resolved) => {
            let resolved = *resolved;
            let candidates: Vec<CandidateView> = resolved
                .places
                .into_iter()
                .map(CandidateView::from)
                .collect();
            let held = resolved.alias.as_ref().map_or(name, |(skill, _)| skill);
            let mut why = why(ctx, &format!("{}{held}", spec.sigil), &candidates);
            if let Some((skill, source)) = &resolved.alias {
                why = format!(
                    "No file is named /{name}; it is the name: of skill /{skill} ({source}), \
                     which {} invokes by either name. {why}",
                    spec.title
                );
            }
            let section = CommandSection {
                name: name.to_string(),
                candidates,
                winner: resolved.winner,
                why,
                description: resolved.description,
                frontmatter_keys: resolved.frontmatter_keys,
                details: resolved.details,
            };
            (Section::Command(section), resolved.diagnostics)
        }
        CatalogExplanation::Listed(listed) => {
            let skills: Vec<SkillView> = listed
                .entries
                .into_iter()
                .map(|entry| SkillView {
                    source: entry.source,
                    scope: entry.scope,
                    description: entry.description,
                })
                .collect();
            let (title, sigil) = (spec.title, spec.sigil);
            let (used, why) = match skills.as_slice() {
                [] => (
                    None,
                    format!("No skill {title} lists is named {name}; {sigil}{name} adds nothing."),
                ),
                [only] => (
                    Some(only.source.clone()),
                    format!(
                        "{sigil}{name} adds the whole of {} as a <skill> block after the message.",
                        only.source
                    ),
                ),
                several => (
                    None,
                    format!(
                        "{} skills are named {name}: {title} adds none of them for {sigil}{name}.",
                        several.len()
                    ),
                ),
            };
            let section = SkillSection {
                name: name.to_string(),
                skills,
                used,
                why,
            };
            (Section::Skill(section), listed.diagnostics)
        }
    })
}

/// A catalog's section of `explain`.
enum Section {
    /// A precedence search.
    Command(CommandSection),
    /// A listing without precedence.
    Skill(SkillSection),
}

fn skill_text(section: &SkillSection) -> String {
    let mut out = format!("skill ${}\n", output::one_line(&section.name));
    if !section.skills.is_empty() {
        let mut rows = vec![["SOURCE", "SCOPE", "DESCRIPTION"].map(String::from)];
        rows.extend(section.skills.iter().map(|skill| {
            [
                output::one_line(&skill.source),
                skill.scope.as_str().to_string(),
                output::one_line(&skill.description),
            ]
        }));
        out.push_str(&output::aligned_columns(&rows));
        out.push('\n');
    }
    out.push_str(&format!("why: {}", section.why));
    out
}

fn explain_rule_section(ctx: &Context, name: &str) -> (RuleSection, Vec<Diagnostic>) {
    let dirs = rule_dirs(ctx);
    let found = explain_rule(&dirs, name);
    let views = candidate_views(&dirs, &found);
    let shown = found.winner().or_else(|| {
        found
            .resolution
            .candidates
            .iter()
            .find(|c| c.fate == Fate::Withheld)
    });
    let loaded = shown.and_then(|c| c.item.as_ref());
    let rule = loaded.map(|l| &l.rule);
    let section = RuleSection {
        name: name.to_string(),
        why: why(ctx, &format!("rule {name}"), &views),
        winner: found.winner().map(|c| c.source.clone()),
        candidates: views,
        origin: rule.map(|r| r.origin),
        paths: rule.map(|r| r.paths.clone()),
        truncated: loaded.is_some_and(|l| l.truncated),
        injected: shown.is_some_and(|c| c.fate == Fate::Winner),
        block: rule.map(render_rule_block),
    };
    (section, found.resolution.diagnostics)
}

fn candidate_table(views: &[CandidateView]) -> String {
    let mut rows = vec![["SOURCE", "TIER", "TRUST", "FATE"].map(String::from)];
    rows.extend(views.iter().map(|v| {
        let fate = match v.fate.detail() {
            Some(detail) => format!("{} ({detail})", v.fate.as_str()),
            None => v.fate.as_str().to_string(),
        };
        [
            v.source.clone(),
            v.tier.as_str().to_string(),
            v.trust.to_string(),
            fate,
        ]
    }));
    output::aligned_columns(&rows)
}

fn command_text(section: &CommandSection) -> String {
    let mut out = format!("command /{}\n", section.name);
    out.push_str(&candidate_table(&section.candidates));
    out.push_str(&format!("\nwhy: {}", section.why));
    if let Some(details) = &section.details {
        if let Some(kind) = details.kind {
            out.push_str(&format!("\nkind: {kind}"));
        }
        if let Some(hint) = &details.argument_hint {
            out.push_str(&format!("\nargument-hint: {}", output::one_line(hint)));
        }
    }
    if let Some(description) = &section.description {
        out.push_str(&format!("\ndescription: {}", output::one_line(description)));
        let keys = if section.frontmatter_keys.is_empty() {
            "(none)".to_string()
        } else {
            section.frontmatter_keys.join(", ")
        };
        out.push_str(&format!("\nfrontmatter keys: {keys}"));
    }
    out
}

fn rule_text(section: &RuleSection) -> String {
    let mut out = format!("rule {}\n", section.name);
    out.push_str(&candidate_table(&section.candidates));
    out.push_str(&format!("\nwhy: {}", section.why));
    if let (Some(paths), Some(block)) = (&section.paths, &section.block) {
        let applies = if paths.is_empty() {
            "(always)".to_string()
        } else {
            paths.join(", ")
        };
        out.push_str(&format!("\npaths: {applies}"));
        if section.truncated {
            out.push_str("\nbody: cut to the rule body limit");
        }
        out.push_str(if section.injected {
            "\nrendered:\n"
        } else {
            "\nrendered once trusted:\n"
        });
        out.push_str(block);
    }
    out
}

/// True when `name` names a file rather than a command or rule: it ends in
/// `.md`, `.json` or `.toml` (configuration files: `.mcp.json`,
/// `config.toml`), or holds a `/` past its first character, unless the
/// profile's grammar (`names`) reads it as one nested command name
/// (`/git/commit`).
fn names_a_file(names: NameGrammar, name: &str) -> bool {
    [".md", ".json", ".toml"]
        .iter()
        .any(|ext| name.ends_with(ext))
        || (name.get(1..).is_some_and(|rest| rest.contains('/'))
            && !(names == NameGrammar::Nested && names.is_invocation(name)))
}

/// The text of the MCP servers a configuration file holds (SPEC §19.4):
/// one line per server as `assemble` shows it, then why it would or
/// would not start, its arguments and its secret keys (never values).
fn servers_text(ctx: &Context, path: &str, servers: &[&McpServer]) -> String {
    let mut out = format!(
        "MCP servers of {} ({} profile, at {}): {} configured, none started",
        output::one_line(path),
        ctx.agent.as_str(),
        ctx.at_label(),
        servers.len()
    );
    for server in servers {
        out.push_str(&format!("\n{}", server_line(server)));
        out.push_str(&format!("\n  why: {}", output::one_line(&server.why)));
        if !server.args.is_empty() {
            let args: Vec<String> = server.args.iter().map(|a| output::one_line(a)).collect();
            out.push_str(&format!("\n  args: {}", args.join(" ")));
        }
        if !server.env_keys.is_empty() {
            out.push_str(&format!(
                "\n  env and header keys (values not shown): {}",
                server.env_keys.join(", ")
            ));
        }
    }
    out
}

/// The text of a file's explanation.
fn file_text(ctx: &Context, verdict: &FileVerdict) -> String {
    let mut out = format!(
        "instruction file {} ({} profile, at {})\n{}",
        output::one_line(&verdict.path),
        ctx.agent.as_str(),
        ctx.at_label(),
        verdict.detail
    );
    if let Some(scope) = verdict.scope {
        out.push_str(&format!("\nscope: {}", scope.as_str()));
    }
    out.push_str(&format!("\nrule: {}", verdict.rule));
    if !verdict.notes.is_empty() {
        out.push_str("\nnotes:");
        for note in &verdict.notes {
            out.push_str(&format!(
                "\n  {}: {}",
                note.severity.as_str(),
                output::one_line(&note.reason)
            ));
        }
    }
    out
}

/// Explains the instruction file `name` under the run's profile: exit 0
/// when the profile met it or it exists, 1 when neither.
fn run_file(ctx: &Context, name: &str) -> Result<Status, CliError> {
    let turn0 = profile_turn0(ctx, ctx.agent, &ProfileArgs::default())?;
    let readers = Readers::new(ctx);
    let path = verdict::part_path(ctx, name);
    let verdict = verdict::file_verdict(&turn0, &path, || {
        verdict::lookup(readers.project(), readers.parent(), &path)
    });
    let servers: Vec<&McpServer> = turn0
        .mcp_servers
        .iter()
        .filter(|server| server.path == path)
        .collect();
    output::print_diagnostics(ctx, &turn0.diagnostics);
    match ctx.format {
        Format::Json => output::print_json(&ExplainDocument {
            head: DocHead::of(ctx),
            name,
            found: verdict.found(),
            command: None,
            skill: None,
            rule: None,
            file: servers.is_empty().then_some(&verdict),
            mcp_servers: (!servers.is_empty()).then_some(&servers),
            diagnostics: &turn0.diagnostics,
            trust: ctx.trust,
        })?,
        _ if !servers.is_empty() => output::print_text(&servers_text(ctx, &path, &servers))?,
        _ => output::print_text(&file_text(ctx, &verdict))?,
    }
    Ok(if verdict.found() {
        Status::Success
    } else {
        Status::CheckFailed
    })
}

/// Runs `explain`.
pub fn run(ctx: &Context, args: &ExplainArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("explain")?;
    if ctx.agent != Agent::Mecatl && !args.rule && names_a_file(ctx.agent.spec().names, &args.name)
    {
        return run_file(ctx, &args.name);
    }
    let sigil = ctx.agent.spec().sigil;
    let (command_only, name) = match args.name.strip_prefix(sigil) {
        Some(_) if args.rule => {
            return Err(CliError::Usage(format!(
                "--rule {}: a rule name has no leading /",
                args.name
            )));
        }
        Some(name) => (true, name),
        None => (false, args.name.as_str()),
    };
    let mut found = Vec::new();
    let mut command = None;
    let mut skill = None;
    if !args.rule {
        let (section, notes) = with_catalog(ctx, &args.dirs.commands_dirs, |catalog| {
            catalog_section(ctx, catalog, name)
        })?;
        found.extend(notes);
        match section {
            Section::Command(section) => command = Some(section),
            Section::Skill(section) => skill = Some(section),
        }
    }
    let command_found = command
        .as_ref()
        .is_some_and(|c| c.candidates.iter().any(CandidateView::found))
        || skill.as_ref().is_some_and(|s| !s.skills.is_empty());
    let rule = (!command_only && !command_found).then(|| {
        let (section, notes) = explain_rule_section(ctx, name);
        found.extend(notes);
        section
    });
    let rule_found = rule
        .as_ref()
        .is_some_and(|r| r.candidates.iter().any(CandidateView::found));
    // A bare NAME that only a rule holds: the empty command search is noise.
    let command = command.filter(|_| command_found || !rule_found);
    let skill = skill.filter(|_| command_found || !rule_found);
    let withheld = [
        command.as_ref().map(|c| &c.candidates),
        rule.as_ref().map(|r| &r.candidates),
    ]
    .into_iter()
    .flatten()
    .flatten()
    .any(|v| v.fate == Fate::Withheld);
    let diagnostics = with_context_diagnostics(ctx, found, withheld);
    output::print_diagnostics(ctx, &diagnostics);
    let any_found = command_found || rule_found;
    match ctx.format {
        Format::Json => output::print_json(&ExplainDocument {
            head: DocHead::of(ctx),
            name,
            found: any_found,
            command: command.as_ref(),
            skill: skill.as_ref(),
            rule: rule.as_ref(),
            file: None,
            mcp_servers: None,
            diagnostics: &diagnostics,
            trust: ctx.trust,
        })?,
        _ => {
            let sections: Vec<String> = command
                .iter()
                .map(command_text)
                .chain(skill.iter().map(skill_text))
                .chain(rule.iter().map(rule_text))
                .collect();
            output::print_text(&sections.join("\n\n"))?;
        }
    }
    Ok(if any_found {
        Status::Success
    } else {
        Status::CheckFailed
    })
}
