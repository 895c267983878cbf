//! `rules list`: list discovered rules of every tier (SPEC §2.4, §7.5).
//! Withheld project rules are listed and checked too, so CI without trust
//! still validates a repository's rules; trust only gates injection.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::adapters::trust::Trust;
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::profile::{ProfileArgs, profile_turn0};
use crate::cli::sources::rule_dirs;
use crate::diagnostic::{Diagnostic, Severity};
use crate::prompt::glob::PathMatcher;
use crate::prompt::profile::{Agent, ProfileTurn0, RuleLoad};
use crate::prompt::rules::RuleOrigin;
use crate::prompt::rules::discovery::{DiscoveredRule, discover};

/// Subcommands of `rules`.
#[derive(Debug, Clone, Subcommand)]
pub enum RulesCommand {
    /// List discovered rules, withheld project rules included
    List(RulesListArgs),
}

/// Arguments of `rules list`.
#[derive(Debug, Clone, Args)]
pub struct RulesListArgs {
    /// Keep only rules that apply to PATH (workspace-relative; repeatable)
    #[arg(
        long = "for",
        value_name = "PATH",
        add = clap_complete::ArgValueCompleter::new(crate::cli::complete::for_path)
    )]
    pub for_paths: Vec<PathBuf>,

    /// Exit 1 when a project-tier rule file has a fatal problem
    #[arg(long)]
    pub check: bool,
}

/// Which pattern of a rule matched which `--for` path; `pattern` is null
/// for an unconditional rule, which applies to every path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct PathMatch {
    /// The workspace-relative path, as normalised.
    pub path: String,
    /// The glob that matched, or null when the rule is unconditional.
    pub pattern: Option<String>,
}

#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct RuleEntry<'a> {
    name: &'a str,
    origin: RuleOrigin,
    paths: &'a [String],
    bytes: usize,
    truncated: bool,
    withheld: bool,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    matches: Option<Vec<PathMatch>>,
}

/// The JSON document of `rules list`, whatever its rows.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ListDocument<'a, R> {
    #[serde(flatten)]
    head: DocHead<'a>,
    rules: Vec<R>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// The note that ends `rules list --for` in text mode.
const FOR_NOTE: &str = "note: the engine injects every rule and lets the model apply its \
                        condition; --for previews what path-scoped activation would load";

/// The matches of `rule` against `paths`, or `None` when it applies to none.
fn matches_for(found: &DiscoveredRule, paths: &[String]) -> Option<Vec<PathMatch>> {
    let patterns = &found.rule.paths;
    let matches: Vec<PathMatch> = if patterns.is_empty() {
        paths
            .iter()
            .map(|p| PathMatch {
                path: p.clone(),
                pattern: None,
            })
            .collect()
    } else {
        let (matcher, _already_reported) = PathMatcher::new(patterns);
        paths
            .iter()
            .filter_map(|p| {
                matcher.matching_pattern(p).map(|pattern| PathMatch {
                    path: p.clone(),
                    pattern: Some(pattern.to_string()),
                })
            })
            .collect()
    };
    (!matches.is_empty()).then_some(matches)
}

/// The text table: a header row, then one row per rule, columns padded and
/// separated by two spaces, with no trailing spaces.
fn text_table(entries: &[RuleEntry<'_>]) -> String {
    let header = ["NAME", "ORIGIN", "APPLIES-WHEN", "BYTES", "SOURCE"];
    let mut rows: Vec<[String; 5]> = vec![header.map(String::from)];
    for entry in entries {
        let applies = if entry.paths.is_empty() {
            "(always)".to_string()
        } else {
            entry.paths.join(", ")
        };
        let bytes = if entry.truncated {
            format!("{} (truncated)", entry.bytes)
        } else {
            entry.bytes.to_string()
        };
        let source = if entry.withheld {
            format!("{}  (withheld)", entry.source)
        } else {
            entry.source.to_string()
        };
        rows.push([
            output::one_line(entry.name),
            entry.origin.as_str().to_string(),
            output::one_line(&applies),
            bytes,
            output::one_line(&source),
        ]);
    }
    output::aligned_columns(&rows)
}

/// `rules list` under an agent profile: the profile's rules, or for an
/// agent without rules (Codex) an empty list and an info line saying so.
fn run_profile_list(ctx: &Context, args: &RulesListArgs) -> Result<Status, CliError> {
    if !args.for_paths.is_empty() {
        return Err(CliError::Usage(
            "--for previews the engine's path-scoped rules; under an agent profile, \
             `assemble --touch PATH` shows what reading PATH loads"
                .to_string(),
        ));
    }
    let agent = ctx.agent;
    let turn0 = if agent.has_rules() {
        profile_turn0(ctx, agent, &ProfileArgs::default())?
    } else {
        let none = Diagnostic::new(
            Severity::Info,
            None,
            format!(
                "{} has no rules: it loads instruction files only",
                agent.title()
            ),
        );
        ProfileTurn0 {
            diagnostics: with_context_diagnostics(ctx, vec![none], false),
            ..ProfileTurn0::default()
        }
    };
    let rules = &turn0.rules;
    output::print_diagnostics(ctx, &turn0.diagnostics);
    match ctx.format {
        Format::Json => output::print_json(&ListDocument {
            head: DocHead::of(ctx),
            rules: rules.iter().collect(),
            diagnostics: &turn0.diagnostics,
            trust: ctx.trust,
        })?,
        _ if rules.is_empty() => {}
        _ => {
            let mut rows =
                vec![["PATH", "SCOPE", "LOADS", "APPLIES-WHEN", "BYTES"].map(String::from)];
            rows.extend(rules.iter().map(|rule| {
                let applies = match &rule.loads {
                    RuleLoad::Start => "(always)".to_string(),
                    RuleLoad::Lazy => rule.paths.join(", "),
                    RuleLoad::Skipped(reason) => format!("({})", reason.phrase()),
                };
                [
                    output::one_line(&rule.path),
                    rule.scope.as_str().to_string(),
                    rule.loads.as_str().to_string(),
                    output::one_line(&applies),
                    rule.bytes
                        .map_or_else(|| "-".to_string(), |b| b.to_string()),
                ]
            }));
            output::print_text(&output::aligned_columns(&rows))?;
        }
    }
    Ok(Status::Success)
}

/// Runs `rules list`.
pub fn run_list(ctx: &Context, args: &RulesListArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("rules list")?;
    if ctx.agent != Agent::Mecatl {
        return run_profile_list(ctx, args);
    }
    let for_paths = args
        .for_paths
        .iter()
        .map(|p| ctx.workspace_relative("--for", p))
        .collect::<Result<Vec<_>, _>>()?;
    let discovery = discover(&rule_dirs(ctx));
    let withheld = discovery.rules.iter().any(|r| r.withheld);
    let entries: Vec<RuleEntry<'_>> = discovery
        .rules
        .iter()
        .filter_map(|found| {
            let matches = if for_paths.is_empty() {
                None
            } else {
                Some(matches_for(found, &for_paths)?)
            };
            Some(RuleEntry {
                name: &found.rule.name,
                origin: found.rule.origin,
                paths: &found.rule.paths,
                bytes: found.bytes,
                truncated: found.truncated,
                withheld: found.withheld,
                source: &found.source,
                matches,
            })
        })
        .collect();
    let diagnostics = with_context_diagnostics(ctx, discovery.diagnostics.clone(), withheld);
    output::print_diagnostics(ctx, &diagnostics);
    match ctx.format {
        Format::Json => output::print_json(&ListDocument {
            head: DocHead::of(ctx),
            rules: entries,
            diagnostics: &diagnostics,
            trust: ctx.trust,
        })?,
        _ => {
            let mut text = text_table(&entries);
            if !for_paths.is_empty() {
                text.push('\n');
                text.push_str(FOR_NOTE);
            }
            output::print_text(&text)?;
        }
    }
    Ok(if args.check && discovery.has_project_fatal() {
        Status::CheckFailed
    } else {
        Status::Success
    })
}
