//! `explain`: why a command or rule resolved as it did (SPEC §2.8).
//!
//! Every location that could hold the name is listed in precedence order,
//! those without the file included (`not found`), so the output also
//! shows where to put a file to override the winner. A bare `explain NAME`
//! tries commands first and falls back to rules only when no command
//! location holds anything under that name; when neither does, both
//! searches are shown and the exit status is 1.

use std::ffi::{OsStr, OsString};

use clap::Args;
use clap_complete::engine::CompletionCandidate;
use serde::Serialize;

use crate::adapters::commandsfs::{Candidate, CommandCatalog, CommandTier};
use crate::adapters::trust::Trust;
use crate::cli::args::CommandDirsArgs;
use crate::cli::complete;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, SCHEMA};
use crate::cli::sources::{command_catalog, rule_dirs, with_context_diagnostics};
use crate::diagnostic::Diagnostic;
use crate::prompt::command::Fate as CommandFate;
use crate::prompt::rules::discovery::explain_rule;
use crate::prompt::rules::files::{LoadedRule, origin_of};
use crate::prompt::rules::{RuleOrigin, render_rule_block};
use crate::prompt::tiers::{Fate, NameResolution, SearchDir, Tier};
use crate::workspace::join;

/// Arguments of `explain`.
#[derive(Debug, Clone, Args)]
pub struct ExplainArgs {
    /// Explain the rule NAME (without this, `/NAME` is a command and a bare NAME tries commands, then rules)
    #[arg(long)]
    pub rule: bool,

    /// The command directories to search, as for `expand`.
    #[command(flatten)]
    pub dirs: CommandDirsArgs,

    /// `/NAME` for a command, NAME for a command or else a rule
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
    complete_name_on(&complete::completion_words(), current)
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct CandidateView {
    /// The file, as its reader displays it.
    source: String,
    /// `project`, `user` or `operator`.
    tier: &'static str,
    /// `trusted`, `untrusted` or `not gated`.
    trust: &'static str,
    /// `winner`, `shadowed`, `withheld`, `unreadable`, `malformed`,
    /// `refused symlink` or `not found`.
    fate: &'static str,
    /// What shadows it, or why it could not be used.
    detail: Option<String>,
}

impl CandidateView {
    fn found(&self) -> bool {
        self.fate != "not found"
    }
}

/// What the command section shows.
#[derive(Debug, Clone, Serialize)]
struct CommandSection {
    name: String,
    candidates: Vec<CandidateView>,
    winner: Option<String>,
    why: String,
    description: Option<String>,
    frontmatter_keys: Vec<String>,
}

/// What the rule section shows: the winner's parsed rule, or, when the
/// only usable file is withheld, what it would inject once trusted.
#[derive(Debug, Clone, Serialize)]
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

#[derive(Serialize)]
struct ExplainDocument<'a> {
    schema: &'static str,
    name: &'a str,
    found: bool,
    command: Option<&'a CommandSection>,
    rule: Option<&'a RuleSection>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// The command candidates of every directory, in precedence order: the
/// catalog's candidates, and `not found` for a directory without the file.
fn command_views(
    catalog: &CommandCatalog,
    name: &str,
    found: Vec<Candidate>,
) -> Vec<CandidateView> {
    let file = format!("{name}.md");
    catalog
        .dirs()
        .iter()
        .map(|dir| {
            let source = dir.reader.display(&join(&dir.dir, &file));
            let project = dir.tier == CommandTier::Project;
            let view = |fate: &'static str, detail: Option<String>| CandidateView {
                source: source.clone(),
                tier: dir.tier.as_str(),
                trust: trust_state(project, dir.withheld),
                fate,
                detail,
            };
            match found.iter().find(|c| c.source == source) {
                None => view("not found", None),
                Some(candidate) => {
                    let detail = match &candidate.fate {
                        CommandFate::Winner | CommandFate::Withheld => None,
                        CommandFate::Shadowed { by } => Some(format!("by {by}")),
                        CommandFate::Unreadable { cause } => Some(cause.clone()),
                        CommandFate::RefusedSymlink { reason }
                        | CommandFate::NotFound { reason } => Some(reason.clone()),
                    };
                    view(candidate.fate.as_str(), detail)
                }
            }
        })
        .collect()
}

/// The rule candidates as views, one per rules directory in precedence
/// order; a directory without the file is `not found`.
fn rule_views(dirs: &[SearchDir], found: &NameResolution<LoadedRule>) -> Vec<CandidateView> {
    dirs.iter()
        .zip(&found.places)
        .enumerate()
        .map(|(i, (dir, place))| {
            let (source, fate, detail) = match found.candidate_in(i) {
                Some(c) => (c.source.clone(), c.fate.as_str(), c.fate.detail()),
                None => (place.clone(), "not found", None),
            };
            CandidateView {
                source,
                tier: origin_of(dir.tier).as_str(),
                trust: trust_state(dir.tier == Tier::Project, dir.withheld),
                fate,
                detail,
            }
        })
        .collect()
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
fn why(label: &str, views: &[CandidateView]) -> String {
    let described = |v: &CandidateView| format!("{} ({})", v.source, v.fate);
    let winner = views.iter().position(|v| v.fate == "winner");
    if let Some(w) = winner {
        let earlier: Vec<String> = views[..w]
            .iter()
            .filter(|v| v.found())
            .map(described)
            .collect();
        let shadowed: Vec<String> = views[w + 1..]
            .iter()
            .filter(|v| v.fate == "shadowed")
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
    if let Some(withheld) = views.iter().find(|v| v.fate == "withheld") {
        return format!(
            "Nothing is injected: {} would provide {label} but is withheld because the workspace \
             is not trusted (trust it with --trust-project, MECATL_TRUST_PROJECT=1 or \
             trustedWorkspaces in settings.yaml).",
            withheld.source
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

fn explain_command(catalog: &CommandCatalog, name: &str) -> (CommandSection, Vec<Diagnostic>) {
    let explanation = catalog.explain(name);
    let candidates = command_views(catalog, name, explanation.candidates);
    let winner = candidates
        .iter()
        .find(|v| v.fate == "winner")
        .map(|v| v.source.clone());
    let section = CommandSection {
        name: name.to_string(),
        why: why(&format!("/{name}"), &candidates),
        candidates,
        winner,
        description: explanation.description,
        frontmatter_keys: explanation.frontmatter_keys,
    };
    (section, explanation.diagnostics)
}

fn explain_rule_section(ctx: &Context, name: &str) -> (RuleSection, Vec<Diagnostic>) {
    let dirs = rule_dirs(ctx);
    let found = explain_rule(&dirs, name);
    let views = rule_views(&dirs, &found);
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
        why: why(&format!("rule {name}"), &views),
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
        let fate = match &v.detail {
            Some(detail) => format!("{} ({detail})", v.fate),
            None => v.fate.to_string(),
        };
        [
            v.source.clone(),
            v.tier.to_string(),
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
    if let Some(description) = &section.description {
        out.push_str(&format!("\ndescription: {description}"));
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

/// Runs `explain`.
pub fn run(ctx: &Context, args: &ExplainArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("explain")?;
    let (command_only, name) = match args.name.strip_prefix('/') {
        Some(_) if args.rule => {
            return Err(CliError::Usage(format!(
                "--rule {}: a rule name has no leading /",
                args.name
            )));
        }
        Some(name) => (true, name),
        None => (false, args.name.as_str()),
    };
    let catalog = command_catalog(ctx, &args.dirs.commands_dirs)?;
    let mut found = Vec::new();
    let command = (!args.rule).then(|| {
        let (section, notes) = explain_command(&catalog, name);
        found.extend(notes);
        section
    });
    let command_found = command
        .as_ref()
        .is_some_and(|c| c.candidates.iter().any(CandidateView::found));
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
    let withheld = [
        command.as_ref().map(|c| &c.candidates),
        rule.as_ref().map(|r| &r.candidates),
    ]
    .into_iter()
    .flatten()
    .flatten()
    .any(|v| v.fate == "withheld");
    let diagnostics = with_context_diagnostics(ctx, found, withheld);
    output::print_diagnostics(ctx, &diagnostics);
    let any_found = command_found || rule_found;
    match ctx.format {
        Format::Json => output::print_json(&ExplainDocument {
            schema: SCHEMA,
            name,
            found: any_found,
            command: command.as_ref(),
            rule: rule.as_ref(),
            diagnostics: &diagnostics,
            trust: ctx.trust,
        })?,
        _ => {
            let sections: Vec<String> = command
                .iter()
                .map(command_text)
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
