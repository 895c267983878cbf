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
use crate::prompt::command::{Expansion, parse_invocation};

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

/// Why an input did not expand, for `--require`.
fn not_expanded_reason(input: &str, withheld_hint: Option<&str>) -> String {
    match (parse_invocation(input), withheld_hint) {
        (Some(_), Some(hint)) => hint.to_string(),
        (Some(invocation), None) => format!("unknown command /{}", invocation.name),
        (None, _) => "input is not a slash command".to_string(),
    }
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
        if outcome.withheld_hint.is_none() {
            found.push(Diagnostic::new(
                Severity::Fatal,
                None,
                not_expanded_reason(&input, None),
            ));
        }
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

    #[test]
    fn reasons_name_the_problem() {
        assert_eq!(
            not_expanded_reason("/nope x", None),
            "unknown command /nope"
        );
        assert_eq!(
            not_expanded_reason("hello", None),
            "input is not a slash command"
        );
        assert_eq!(not_expanded_reason("/x", Some("withheld")), "withheld");
    }

    #[test]
    fn words_join_with_single_spaces() {
        let words = vec!["/grep".to_string(), "-n".into(), "foo".into()];
        assert_eq!(input_line(&words).unwrap(), "/grep -n foo");
    }
}
