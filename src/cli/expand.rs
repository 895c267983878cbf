//! `expand`: expand a slash-command invocation (SPEC §2.2).

use std::ffi::{OsStr, OsString};
use std::io::Read;

use clap::Args;
use clap_complete::engine::CompletionCandidate;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::adapters::codex_skills::CodexExpansion;
use crate::adapters::trust::{Trust, trust_hint};
use crate::cli::args::CommandDirsArgs;
use crate::cli::complete;
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::sources::{Catalog, catalog};
use crate::diagnostic::{Diagnostic, Severity};
use crate::limits::MAX_EXPAND_STDIN_BYTES;
use crate::prompt::command::claude_catalog::{
    Attachment, ClaudeExpansion, Placeholder, cannot_invoke_claude, parse_claude_invocation,
};
use crate::prompt::command::claude_listing::Kind;
use crate::prompt::command::{Expansion, NotExpanded, cannot_invoke, parse_invocation};
use crate::prompt::profile::Agent;

/// Arguments of `expand`.
#[derive(Debug, Clone, Args)]
pub struct ExpandArgs {
    /// The command directories to search.
    #[command(flatten)]
    pub dirs: CommandDirsArgs,

    /// Exit 1 when the input is not a known command
    #[arg(long)]
    pub require: bool,

    /// The input line, e.g. `/review src/lib.rs`; words are joined with single spaces; `-` reads it from stdin
    #[arg(
        value_name = "INPUT",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        add = clap_complete::ArgValueCompleter::new(complete_input)
    )]
    pub input: Vec<String>,
}

/// Completes a word of INPUT (SPEC §2.6). The first word is the command, so
/// it completes to the slash-command names of the workspace named on the
/// line (an empty word offers them all, a word not starting with `/` none);
/// the words after it are the command's arguments, usually files, so they
/// complete to paths relative to the workspace.
fn complete_input(current: &OsStr) -> Vec<CompletionCandidate> {
    let candidates = complete_input_on(&complete::completion_words(), current);
    complete::tagged::<ExpandArgs>("input", candidates)
}

fn complete_input_on(words: &[OsString], current: &OsStr) -> Vec<CompletionCandidate> {
    let start = ExpandArgs {
        dirs: CommandDirsArgs::default(),
        require: false,
        input: Vec::new(),
    };
    let Some((args, ctx)) = complete::read_line(words, &["expand"], start) else {
        return Vec::new();
    };
    // The word under the cursor is on the line too; when it is the first
    // INPUT word, the command name is being completed.
    let completing_name = args
        .input
        .first()
        .is_none_or(|first| OsStr::new(first) == current);
    if completing_name {
        complete::command_names(&ctx, &args.dirs.commands_dirs, current)
    } else {
        complete::paths_under(&ctx.workspace, current)
    }
}

/// The JSON document of `expand` (SPEC §2.2): the expansion, what the
/// Claude or Codex profile adds to it, the diagnostics and trust.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct ExpandDocument<'a> {
    #[serde(flatten)]
    head: DocHead<'a>,
    #[serde(flatten)]
    expansion: &'a Expansion,
    #[serde(flatten)]
    claude: Option<ClaudeFields<'a>>,
    #[serde(flatten)]
    codex: Option<CodexFields<'a>>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// What an expansion under `claude` adds (SPEC §14.5): the kind, every
/// frontmatter key, the shell commands never run, the attachments never
/// read.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct ClaudeFields<'a> {
    #[cfg_attr(test, schemars(extend("enum" = ["command", "skill", null])))]
    kind: Option<&'static str>,
    frontmatter: &'a Map<String, Value>,
    shell: &'a [Placeholder],
    attachments: &'a [Attachment],
}

/// What an expansion under `codex` adds (SPEC §14.6): the skills whose
/// blocks follow the input.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct CodexFields<'a> {
    skills: Vec<CodexBlock<'a>>,
}

/// One `<skill>` block: the skill, its SKILL.md and the block's size.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct CodexBlock<'a> {
    name: &'a str,
    source: &'a str,
    bytes: usize,
}

/// The input line: the words joined with single spaces, or stdin for a lone
/// `-` (one trailing `\n` or `\r\n` removed).
fn input_line(words: &[String]) -> Result<String, CliError> {
    if let [only] = words
        && only == "-"
    {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_EXPAND_STDIN_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::Message(format!("reading stdin: {e}")))?;
        if bytes.len() as u64 > MAX_EXPAND_STDIN_BYTES {
            return Err(CliError::Message(format!(
                "stdin: input larger than {MAX_EXPAND_STDIN_BYTES} bytes"
            )));
        }
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if text.ends_with("\r\n") {
            text.truncate(text.len() - 2);
        } else if text.ends_with('\n') {
            text.truncate(text.len() - 1);
        }
        return Ok(text);
    }
    Ok(words.join(" "))
}

/// The error `--require` adds for an input that did not expand, saying why;
/// `None` when a warning already does (a command withheld because the
/// workspace is untrusted: the warning also says how to trust it).
fn require_error(
    agent: Agent,
    input: &str,
    not_expanded: Option<&NotExpanded>,
) -> Option<Diagnostic> {
    let (path, reason) = match not_expanded {
        Some(NotExpanded::Withheld { .. }) => return None,
        Some(NotExpanded::Unusable { name, candidates }) => {
            let why: Vec<String> = candidates
                .iter()
                .map(|c| {
                    format!(
                        "{}: {}",
                        c.source,
                        c.fate
                            .detail()
                            .unwrap_or_else(|| c.fate.as_str().to_string())
                    )
                })
                .collect();
            (
                None,
                format!("/{name} exists but cannot be used: {}", why.join("; ")),
            )
        }
        Some(NotExpanded::InvalidName { name, source }) => (
            Some(source.clone()),
            match agent {
                Agent::Claude => cannot_invoke_claude(name),
                _ => cannot_invoke(name),
            },
        ),
        Some(NotExpanded::ModelOnly { name, source }) => (
            Some(source.clone()),
            format!(
                "/{name} has user-invocable: false: only the model may invoke it, and Claude \
                 Code sends nothing when it is typed"
            ),
        ),
        None => {
            let name = match agent {
                Agent::Mecatl => parse_invocation(input).map(|i| i.name),
                Agent::Claude => parse_claude_invocation(input).map(|i| i.name.to_string()),
                Agent::Codex => {
                    return Some(Diagnostic::new(
                        Severity::Fatal,
                        None,
                        "no $NAME in the input names a skill Codex would add",
                    ));
                }
            };
            match name {
                Some(name) => (None, format!("unknown command /{name}")),
                None => (None, "input is not a slash command".to_string()),
            }
        }
    };
    Some(Diagnostic::new(Severity::Fatal, path, reason))
}

/// What every profile's expansion reports, and what only some add.
struct Outcome {
    expansion: Expansion,
    diagnostics: Vec<Diagnostic>,
    not_expanded: Option<NotExpanded>,
    claude: Option<ClaudeExpansion>,
    codex: Option<CodexExpansion>,
}

/// Expands `input` with the run's profile's catalog.
fn expand(ctx: &Context, args: &ExpandArgs, input: &str) -> Result<Outcome, CliError> {
    Ok(match catalog(ctx, &args.dirs.commands_dirs)? {
        Catalog::Engine(catalog) => {
            let outcome = catalog.expand(input)?;
            Outcome {
                expansion: outcome.expansion,
                diagnostics: outcome.diagnostics,
                not_expanded: outcome.not_expanded,
                claude: None,
                codex: None,
            }
        }
        Catalog::Claude(catalog) => {
            let mut outcome = catalog.expand(input)?;
            Outcome {
                expansion: outcome.expansion.clone(),
                diagnostics: std::mem::take(&mut outcome.diagnostics),
                not_expanded: outcome.not_expanded.take(),
                claude: Some(outcome),
                codex: None,
            }
        }
        Catalog::Codex(skills) => {
            let mut outcome = skills
                .expand(input)
                .map_err(|err| CliError::Usage(err.to_string()))?;
            Outcome {
                expansion: outcome.expansion.clone(),
                diagnostics: std::mem::take(&mut outcome.diagnostics),
                not_expanded: None,
                claude: None,
                codex: Some(outcome),
            }
        }
    })
}

/// Runs `expand`.
pub fn run(ctx: &Context, args: &ExpandArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("expand")?;
    let input = input_line(&args.input)?;
    let outcome = expand(ctx, args, &input)?;
    let mut status = Status::Success;
    let mut found = outcome.diagnostics;
    if let Some(NotExpanded::Withheld { name, source }) = &outcome.not_expanded {
        found.push(Diagnostic::warning(
            source,
            format!(
                "/{name} is defined here but was not expanded: the workspace is not trusted, \
                 so its commands are withheld; {}",
                trust_hint(ctx.locations.settings_file().as_deref())
            ),
        ));
    }
    if args.require && !outcome.expansion.expanded {
        status = Status::CheckFailed;
        found.extend(require_error(
            ctx.agent,
            &input,
            outcome.not_expanded.as_ref(),
        ));
    }
    let withheld = outcome.codex.as_ref().is_some_and(|codex| codex.withheld);
    let diagnostics = with_context_diagnostics(ctx, found, withheld);
    output::print_diagnostics(ctx, &diagnostics);
    match ctx.format {
        Format::Json => output::print_json(&ExpandDocument {
            head: DocHead::of(ctx),
            expansion: &outcome.expansion,
            claude: outcome.claude.as_ref().map(|claude| ClaudeFields {
                kind: claude.kind.map(Kind::as_str),
                frontmatter: &claude.frontmatter,
                shell: &claude.shell,
                attachments: &claude.attachments,
            }),
            codex: outcome.codex.as_ref().map(|codex| CodexFields {
                skills: codex
                    .blocks
                    .iter()
                    .map(|(name, source, text)| CodexBlock {
                        name,
                        source,
                        bytes: text.len(),
                    })
                    .collect(),
            }),
            diagnostics: &diagnostics,
            trust: ctx.trust,
        })?,
        _ => output::print_text(&outcome.expansion.output)?,
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::prompt::tiers::{Candidate, Fate};

    fn error(input: &str, not_expanded: Option<NotExpanded>) -> Option<(Option<String>, String)> {
        require_error(Agent::Mecatl, input, not_expanded.as_ref()).map(|d| {
            assert_eq!(d.severity, Severity::Fatal);
            (d.path, d.reason)
        })
    }

    #[test]
    fn reasons_name_the_problem() {
        assert_eq!(
            error("/nope x", None),
            Some((None, "unknown command /nope".into()))
        );
        assert_eq!(
            error("hello", None),
            Some((None, "input is not a slash command".into()))
        );
        let withheld = NotExpanded::Withheld {
            name: "x".into(),
            source: "x.md".into(),
        };
        assert_eq!(error("/x", Some(withheld)), None);
        let dropped = |path: &str, reason: &str| Candidate {
            name: "x".into(),
            dir_index: 0,
            rel: path.into(),
            source: path.into(),
            fate: Fate::NotFound {
                reason: reason.into(),
            },
            item: None,
            diagnostics: Vec::new(),
        };
        let unusable = NotExpanded::Unusable {
            name: "x".into(),
            candidates: vec![
                dropped("a/x.md", "not a regular file (FIFO)"),
                dropped("b/x.md", "symlink loop"),
            ],
        };
        assert_eq!(
            error("/x", Some(unusable)),
            Some((
                None,
                "/x exists but cannot be used: a/x.md: not a regular file (FIFO); \
                 b/x.md: symlink loop"
                    .into()
            ))
        );
        let invalid = NotExpanded::InvalidName {
            name: "a:b".into(),
            source: "c/a:b.md".into(),
        };
        assert_eq!(
            error("/a:b", Some(invalid)),
            Some((
                Some("c/a:b.md".into()),
                "/a:b cannot be invoked: command names use only ASCII letters, digits, -, _ and ."
                    .into()
            ))
        );
    }

    #[test]
    fn a_line_that_asks_for_help_completes_nothing() {
        let words: Vec<OsString> = ["mecatl-prompt", "--help", "expand", "/"]
            .into_iter()
            .map(OsString::from)
            .collect();
        assert!(complete_input_on(&words, OsStr::new("/")).is_empty());
    }

    #[test]
    fn words_join_with_single_spaces() {
        let words = vec!["/grep".to_string(), "-n".into(), "foo".into()];
        assert_eq!(input_line(&words).unwrap(), "/grep -n foo");
    }
}
