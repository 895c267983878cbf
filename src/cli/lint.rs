//! `lint` (SPEC §15.3, §15.5, §20.5): the findings of
//! [`crate::prompt::lint`], judged by the workspace's configuration
//! ([`crate::prompt::lint::policy`]), in four formats — text, JSON, GitHub
//! workflow commands and SARIF 2.1.0 — and the exit status: 1 when an
//! error remains (or, with `--deny warnings`, a warning), else 0.
//!
//! Precedence: the command line, then `.mecatl-prompt.toml`, then the
//! defaults — `--agents` replaces the file's `agents`, `--deny warnings`
//! and `--deny errors` replace its `deny`.
//!
//! Trust: lint reads the project's files only to check them, like `rules
//! list --check`; it never injects anything, so it works untrusted, and it
//! never runs anything (a `` !`cmd` `` is reported, not run).
//!
//! Choices the spec leaves open:
//! - Lint looks at every agent at once: `--agents` narrows the findings,
//!   the global `--agent` does not apply. `--at` is where Claude Code is
//!   taken to start, for imports that leave it; the JSON names the agents
//!   and `at`, as `compare` does.
//! - Text ends with a summary line (`N errors, N warnings, N notes`, or
//!   `no findings`); the `github` format prints the same summary as a plain
//!   log line after the workflow commands.
//! - The `github` message ends with the agents in brackets, as in text; the
//!   title is the code alone.
//! - SARIF lists every code as a rule, found or not, so `ruleIndex` is the
//!   code's number minus one; a location's `uri` is the workspace-relative
//!   path, percent-encoded, against `uriBaseId` `%SRCROOT%`.
//! - The configuration's warnings (unknown codes, in the file, a comment
//!   or a baseline) are diagnostics: on stderr and in the JSON's
//!   `diagnostics`, never findings, so they never change the exit status.
//! - `--write-baseline FILE` records the findings left after the
//!   configuration, then reports as `--baseline FILE` would right after
//!   (no findings, exit 0); `-v` says how many it recorded. It cannot be
//!   combined with `--baseline`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::adapters::trust::Trust;
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::lint_config::{read_baseline, read_config, write_baseline};
use crate::cli::output::{self, SCHEMA};
use crate::diagnostic::Diagnostic;
use crate::prompt::agents::default_agents;
use crate::prompt::lint::policy::{Baseline, Sources};
use crate::prompt::lint::{Code, Finding, Level, LintOptions, LintReport, lint};
use crate::prompt::profile::Agent;

/// Arguments of `lint`.
#[derive(Debug, Clone, Args)]
pub struct LintArgs {
    /// Report only findings that concern these agents (comma-separated: mecatl, claude, codex, gemini)
    /// [default: `agents` in .mecatl-prompt.toml, else mecatl, claude and codex, and gemini when the root or --at holds GEMINI.md or .gemini]
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_agent)]
    pub agents: Vec<Agent>,

    /// Also exit 1 when a warning remains (`warnings`), or only on an error (`errors`)
    /// [default: `deny` in .mecatl-prompt.toml, else errors]
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub deny: Option<Deny>,

    /// Report only the findings not recorded in FILE, a baseline written by --write-baseline;
    /// `-` reads stdin
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,

    /// Record the current findings in FILE as accepted (the one option that writes a file),
    /// then report as --baseline FILE would
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
}

/// What `--deny` makes fail besides errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// Warnings fail the run too.
    Warnings,
    /// Only errors fail the run, whatever .mecatl-prompt.toml says.
    Errors,
}

fn parse_agent(name: &str) -> Result<Agent, String> {
    name.trim().parse().map_err(|err| format!("{err}"))
}

/// Runs `lint`.
pub fn run(ctx: &Context, args: &LintArgs) -> Result<Status, CliError> {
    ctx.require_format("lint", &[Format::Github, Format::Sarif])?;
    let (config, mut notes) = read_config(ctx)?;
    let baseline = match &args.baseline {
        Some(path) => {
            let (baseline, warnings) = read_baseline(ctx, path)?;
            notes.extend(warnings);
            Some(baseline)
        }
        None => None,
    };
    let defaults = default_agents(ctx.reader.as_ref(), &ctx.at);
    let chosen = match (&args.agents, &config.policy.agents) {
        (flag, _) if !flag.is_empty() => flag.as_slice(),
        (_, Some(file)) => file.as_slice(),
        _ => defaults.as_slice(),
    };
    let agents: Vec<Agent> = Agent::ALL
        .into_iter()
        .filter(|agent| chosen.contains(agent))
        .collect();
    let deny_warnings = match args.deny {
        Some(deny) => deny == Deny::Warnings,
        None => config.policy.deny_warnings,
    };
    let options = LintOptions {
        home: ctx.locations.home.clone(),
        at: ctx.at.clone(),
    };
    let mut report = lint(ctx.reader.as_ref(), &options);
    report.retain_agents(&agents);
    let mut sources = Sources::new(ctx.reader.as_ref());
    let mut findings = config
        .policy
        .apply(&mut sources, std::mem::take(&mut report.findings));
    if let Some(path) = &args.write_baseline {
        let recorded = Baseline::record(&mut sources, &findings);
        write_baseline(ctx, path, &recorded)?;
        notes.push(Diagnostic::info(
            path.display().to_string(),
            format!("recorded {} findings as the baseline", findings.len()),
        ));
        findings.clear();
    } else if let Some(baseline) = &baseline {
        findings = baseline.filter(&mut sources, findings);
    }
    report.findings = findings;
    notes.append(&mut report.diagnostics);
    notes.extend(sources.into_diagnostics());
    let diagnostics = with_context_diagnostics(ctx, notes, false);
    output::print_diagnostics(ctx, &diagnostics);
    let summary = Summary::of(&report);
    match ctx.format {
        Format::Json => output::print_json(&LintDocument {
            schema: SCHEMA,
            agents: &agents,
            at: ctx.at_label(),
            findings: &report.findings,
            summary,
            diagnostics: &diagnostics,
            trust: ctx.trust,
        })?,
        Format::Github => output::write_stdout(github(&report, &summary).as_bytes())?,
        Format::Sarif => output::print_json(&sarif(&report))?,
        // Text (the other formats were refused above).
        _ => output::print_text(&text(&report, &summary))?,
    }
    let denied = deny_warnings && summary.warnings > 0;
    Ok(if summary.errors > 0 || denied {
        Status::CheckFailed
    } else {
        Status::Success
    })
}

/// The JSON document (SPEC §8.2).
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct LintDocument<'a> {
    #[cfg_attr(test, schemars(extend("const" = SCHEMA)))]
    schema: &'static str,
    agents: &'a [Agent],
    at: &'a str,
    findings: &'a [Finding],
    summary: Summary,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// How many findings of each severity remain.
#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct Summary {
    errors: usize,
    warnings: usize,
    notes: usize,
}

impl Summary {
    fn of(report: &LintReport) -> Self {
        Self {
            errors: report.count(Level::Error),
            warnings: report.count(Level::Warning),
            notes: report.count(Level::Note),
        }
    }

    /// `1 error, 2 warnings, 0 notes`, or `no findings`.
    fn line(&self) -> String {
        if self.errors + self.warnings + self.notes == 0 {
            return "no findings".to_string();
        }
        let count = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        format!(
            "{}, {}, {}",
            count(self.errors, "error"),
            count(self.warnings, "warning"),
            count(self.notes, "note")
        )
    }
}

/// `[claude, codex]`.
fn agent_list(agents: &[Agent]) -> String {
    let names: Vec<&str> = agents.iter().map(|agent| agent.as_str()).collect();
    format!("[{}]", names.join(", "))
}

/// One line per finding, `PATH:LINE: SEVERITY MPnnn: message [agents]`,
/// then the summary.
fn text(report: &LintReport, summary: &Summary) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        let place = match finding.line {
            Some(line) => format!("{}:{line}", output::one_line(&finding.path)),
            None => output::one_line(&finding.path),
        };
        out.push_str(&format!(
            "{place}: {} {}: {} {}\n",
            finding.severity.as_str(),
            finding.code.as_str(),
            output::one_line(&finding.message),
            agent_list(&finding.agents)
        ));
    }
    out.push_str(&summary.line());
    out
}

/// GitHub's workflow commands, one per finding
/// (`::error file=…,line=…,title=MPnnn::message`), then the summary as a
/// plain log line.
fn github(report: &LintReport, summary: &Summary) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        let command = match finding.severity {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "notice",
        };
        let mut properties = format!("file={}", escape_property(&finding.path));
        if let Some(line) = finding.line {
            properties.push_str(&format!(",line={line}"));
        }
        properties.push_str(&format!(
            ",title={}",
            escape_property(finding.code.as_str())
        ));
        let message = format!("{} {}", finding.message, agent_list(&finding.agents));
        out.push_str(&format!(
            "::{command} {properties}::{}\n",
            escape_data(&message)
        ));
    }
    out.push_str(&format!("mecatl-prompt lint: {}\n", summary.line()));
    out
}

/// A workflow command's message, escaped as GitHub's toolkit does: `%`,
/// CR and LF.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: the message escapes, and `:` and
/// `,`, which would end the value.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The SARIF schema's address, as the log names it.
const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
struct SarifLog {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [SarifRun; 1],
}

#[derive(Serialize)]
struct SarifRun {
    tool: SarifTool,
    results: Vec<SarifResult>,
}

#[derive(Serialize)]
struct SarifTool {
    driver: SarifDriver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifDriver {
    name: &'static str,
    semantic_version: &'static str,
    rules: Vec<SarifRule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRule {
    id: &'static str,
    name: &'static str,
    short_description: SarifText,
    full_description: SarifText,
    help: SarifText,
    default_configuration: SarifConfiguration,
    properties: SarifProperties,
}

#[derive(Serialize)]
struct SarifText {
    text: String,
}

#[derive(Serialize)]
struct SarifConfiguration {
    level: Level,
}

#[derive(Serialize)]
struct SarifProperties {
    agents: Vec<Agent>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: Level,
    message: SarifText,
    locations: [SarifLocation; 1],
    properties: SarifProperties,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    physical_location: SarifPhysical,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifPhysical {
    artifact_location: SarifArtifact,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<SarifRegion>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifArtifact {
    uri: String,
    uri_base_id: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRegion {
    start_line: u64,
}

/// The SARIF 2.1.0 log: one run, one rule per code, one result per
/// finding.
fn sarif(report: &LintReport) -> SarifLog {
    let rules = Code::ALL
        .iter()
        .map(|code| SarifRule {
            id: code.as_str(),
            name: code.name(),
            short_description: SarifText {
                text: code.title().to_string(),
            },
            full_description: SarifText {
                text: code.why().to_string(),
            },
            help: SarifText {
                text: code.fix().to_string(),
            },
            default_configuration: SarifConfiguration {
                level: code.level(),
            },
            properties: SarifProperties {
                agents: code.agents().to_vec(),
            },
        })
        .collect();
    let results = report
        .findings
        .iter()
        .map(|finding| SarifResult {
            rule_id: finding.code.as_str(),
            // Every code is a rule, in number order.
            rule_index: finding.code as usize,
            level: finding.severity,
            message: SarifText {
                text: finding.message.clone(),
            },
            locations: [SarifLocation {
                physical_location: SarifPhysical {
                    artifact_location: SarifArtifact {
                        uri: output::uri_path(&finding.path),
                        uri_base_id: "%SRCROOT%",
                    },
                    region: finding.line.map(|start_line| SarifRegion { start_line }),
                },
            }],
            properties: SarifProperties {
                agents: finding.agents.clone(),
            },
        })
        .collect();
    SarifLog {
        schema: SARIF_SCHEMA,
        version: "2.1.0",
        runs: [SarifRun {
            tool: SarifTool {
                driver: SarifDriver {
                    name: "mecatl-prompt",
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            results,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_as_githubs_toolkit_does() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn sarif_uris_are_percent_encoded_relative_references() {
        assert_eq!(
            output::uri_path(".claude/commands/a b.md"),
            ".claude/commands/a%20b.md"
        );
        assert_eq!(output::uri_path("dé/x#1?.md"), "d%C3%A9/x%231%3F.md");
    }

    #[test]
    fn the_summary_counts_each_severity() {
        let zero = Summary {
            errors: 0,
            warnings: 0,
            notes: 0,
        };
        assert_eq!(zero.line(), "no findings");
        let some = Summary {
            errors: 1,
            warnings: 2,
            notes: 0,
        };
        assert_eq!(some.line(), "1 error, 2 warnings, 0 notes");
    }
}
