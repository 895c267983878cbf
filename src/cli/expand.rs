//! `expand`: expand a slash-command invocation (SPEC §2.2).

use std::io::Read;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::adapters::trust::Trust;
use crate::cli::context::{Context, Format};
use crate::cli::output::{self, SCHEMA};
use crate::cli::sources::{command_catalog, with_context_diagnostics};
use crate::cli::{CliError, Status};
use crate::diagnostic::{Diagnostic, Severity};
use crate::limits::MAX_EXPAND_STDIN_BYTES;
use crate::prompt::command::{Expansion, NotExpanded, cannot_invoke, parse_invocation};

/// Arguments of `expand`.
#[derive(Debug, Clone, Args)]
pub struct ExpandArgs {
    /// Read commands from DIR instead of .mecatl/commands and .claude/commands (repeatable; never trust-gated)
    #[arg(long = "commands-dir", value_name = "DIR")]
    pub commands_dirs: Vec<PathBuf>,

    /// Exit 1 when the input is not a known command
    #[arg(long)]
    pub require: bool,

    /// The input line, e.g. `/review src/lib.rs`; words are joined with single spaces; `-` reads it from stdin
    #[arg(
        value_name = "INPUT",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        add = clap_complete::ArgValueCompleter::new(crate::cli::complete::expand_input)
    )]
    pub input: Vec<String>,
}

#[derive(Serialize)]
struct ExpandDocument<'a> {
    schema: &'static str,
    #[serde(flatten)]
    expansion: &'a Expansion,
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

/// The error `--require` adds for an input that did not expand, saying why;
/// `None` when a warning already does (a command withheld because the
/// workspace is untrusted: the warning also says how to trust it).
fn require_error(input: &str, not_expanded: Option<&NotExpanded>) -> Option<Diagnostic> {
    let (path, reason) = match not_expanded {
        Some(NotExpanded::Withheld { .. }) => return None,
        Some(NotExpanded::Unusable { name, candidates }) => {
            let why: Vec<String> = candidates
                .iter()
                .map(|c| {
                    format!(
                        "{}: {}",
                        c.source,
                        c.fate.reason().unwrap_or(c.fate.as_str())
                    )
                })
                .collect();
            (
                None,
                format!("/{name} exists but cannot be used: {}", why.join("; ")),
            )
        }
        Some(NotExpanded::InvalidName { name, source }) => {
            (Some(source.clone()), cannot_invoke(name))
        }
        None => match parse_invocation(input) {
            Some(invocation) => (None, format!("unknown command /{}", invocation.name)),
            None => (None, "input is not a slash command".to_string()),
        },
    };
    Some(Diagnostic::new(Severity::Fatal, path, reason))
}

/// Runs `expand`.
pub fn run(ctx: &Context, args: &ExpandArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("expand")?;
    let input = input_line(&args.input)?;
    let outcome = command_catalog(ctx, &args.commands_dirs)?.expand(&input)?;
    let mut status = Status::Success;
    let mut found = outcome.diagnostics.clone();
    if args.require && !outcome.expansion.expanded {
        status = Status::CheckFailed;
        found.extend(require_error(&input, outcome.not_expanded.as_ref()));
    }
    let diagnostics = with_context_diagnostics(ctx, found, false);
    output::print_diagnostics(ctx, &diagnostics);
    match ctx.format {
        Format::Json => output::print_json(&ExpandDocument {
            schema: SCHEMA,
            expansion: &outcome.expansion,
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

    use crate::prompt::command::{CandidateFile, Fate};

    fn error(input: &str, not_expanded: Option<NotExpanded>) -> Option<(Option<String>, String)> {
        require_error(input, not_expanded.as_ref()).map(|d| {
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
        let dropped = |path: &str, reason: &str| CandidateFile {
            dir_index: 0,
            path: path.into(),
            source: path.into(),
            fate: Fate::NotFound {
                reason: reason.into(),
            },
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
    fn words_join_with_single_spaces() {
        let words = vec!["/grep".to_string(), "-n".into(), "foo".into()];
        assert_eq!(input_line(&words).unwrap(), "/grep -n foo");
    }
}
