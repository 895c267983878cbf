//! `expand`: expand a slash-command invocation (SPEC §2.2).

use std::ffi::{OsStr, OsString};
use std::io::Read;

use clap::Args;
use clap_complete::engine::CompletionCandidate;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::adapters::trust::{Trust, trust_hint};
use crate::cli::args::CommandDirsArgs;
use crate::cli::complete;
use crate::cli::context::with_context_diagnostics;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::output::{self, DocHead};
use crate::cli::run_profile::with_catalog;
use crate::diagnostic::Diagnostic;
use crate::limits::MAX_EXPAND_STDIN_BYTES;
use crate::prompt::command::{Expansion, NotExpanded};
use crate::prompt::profile::catalog::require_error;

/// Arguments of `expand`.
#[derive(Debug, Clone, Args)]
pub struct ExpandArgs {
    /// The command directories to search.
    #[command(flatten)]
    pub dirs: CommandDirsArgs,

    /// Exit 1 when the input is not a known command
    #[arg(long)]
    pub require: bool,

    /// Show what the agent's print mode (`-p LINE`) sends instead of its
    /// interactive session (GitHub Copilot CLI: the line as typed)
    #[arg(long, conflicts_with = "require")]
    pub print: bool,

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
        print: false,
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
    #[cfg_attr(test, schemars(with = "crate::prompt::agents::ExpandExtras"))]
    extras: &'a Map<String, Value>,
    diagnostics: &'a [Diagnostic],
    trust: Trust,
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

/// Runs `expand`.
pub fn run(ctx: &Context, args: &ExpandArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("expand")?;
    let input = input_line(&args.input)?;
    with_catalog(ctx, &args.dirs.commands_dirs, |catalog| {
        let outcome = if args.print {
            catalog.expand_print(&input)?
        } else {
            catalog.expand(&input)?
        };
        let mut status = Status::Success;
        let mut found = outcome.diagnostics;
        if let Some(NotExpanded::Withheld { name, source }) = &outcome.not_expanded {
            found.push(Diagnostic::warning(
                source,
                format!(
                    "/{name} is defined here but was not expanded: the workspace is not \
                     trusted, so its commands are withheld; {}",
                    trust_hint(ctx.locations.settings_file().as_deref())
                ),
            ));
        }
        if args.require && !outcome.expansion.expanded {
            status = Status::CheckFailed;
            let why = outcome.not_expanded.as_ref();
            found.extend(require_error(catalog, ctx.agent.title(), &input, why));
        }
        let diagnostics = with_context_diagnostics(ctx, found, outcome.withheld);
        output::print_diagnostics(ctx, &diagnostics);
        match ctx.format {
            Format::Json => output::print_json(&ExpandDocument {
                head: DocHead::of(ctx),
                expansion: &outcome.expansion,
                extras: &outcome.extras,
                diagnostics: &diagnostics,
                trust: ctx.trust,
            })?,
            _ => output::print_text(&outcome.expansion.output)?,
        }
        Ok(status)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::adapters::commandsfs::CommandCatalog;
    use crate::diagnostic::Severity;
    use crate::prompt::tiers::{Candidate, Fate};

    fn error(input: &str, not_expanded: Option<NotExpanded>) -> Option<(Option<String>, String)> {
        let catalog = CommandCatalog::new(Vec::new());
        require_error(&catalog, "mecatl", input, not_expanded.as_ref()).map(|d| {
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
