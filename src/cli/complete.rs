//! Dynamic shell completion (SPEC §2.6): the pieces every value completer
//! shares.
//!
//! At TAB time the shell runs `COMPLETE=<shell> mecatl-prompt -- <words>`;
//! clap_complete finds the argument under the cursor and calls its
//! completer with the word being completed. A completer sees only that
//! word, so the options that change the answer (`-C`, `--commands-dir`, the
//! trust flags) are read back from the whole line (`read_line`), parsed
//! by the same clap definitions as a normal run, and the workspace is
//! resolved by [`Context::resolve`] exactly as a real `expand` or
//! `rules list` would. Every failure (a line clap cannot make sense of, a
//! missing workspace) completes nothing rather than guessing.
//!
//! A subcommand's own completers sit beside its arguments (`expand`'s
//! INPUT, `explain`'s NAME) and read the line into them with
//! `read_line`; this module imports no subcommand, so no subcommand
//! imports another through it.

use std::collections::{BTreeSet, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use clap::builder::StyledStr;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches};
use clap_complete::engine::{CompletionCandidate, PathCompleter, ValueCompleter};

use crate::cli::Cli;
use crate::cli::context::{Context, GlobalArgs};
use crate::cli::output;
use crate::cli::run_profile::with_catalog;
use crate::cli::sources::rule_dirs;
use crate::prompt::rules::discovery::discover;

/// The words the shell passed after `--`: the command line being completed,
/// program name first.
pub(crate) fn completion_words() -> Vec<OsString> {
    let mut args = std::env::args_os().skip(1);
    args.by_ref().find(|a| a == "--");
    args.collect()
}

/// What the line being completed says, as far as clap could read it.
struct Line {
    /// The subcommand names, outermost first (`["rules", "list"]`).
    path: Vec<String>,
    /// The global options given anywhere on the line, defaults for the rest.
    global: GlobalArgs,
    /// The matches of the innermost subcommand.
    innermost: ArgMatches,
}

impl Line {
    /// Parses the line with the same clap definitions as a normal run.
    /// Parse errors are ignored, so an unfinished line still yields the
    /// options it names before the first bad word (clap stops reading
    /// there); `None` when clap gives up anyway (`--help` on the line, for
    /// one).
    fn parse(words: &[OsString]) -> Option<Line> {
        let mut matches = Cli::command()
            .ignore_errors(true)
            .try_get_matches_from(words)
            .ok()?;
        let mut path = Vec::new();
        while let Some((name, sub)) = matches.remove_subcommand() {
            path.push(name);
            matches = sub;
        }
        // Global options reach every level; a level whose parse stopped
        // early lacks the defaults, so start from them and overlay what was
        // given.
        let mut global = default_globals()?;
        global.update_from_arg_matches(&matches).ok()?;
        Some(Line {
            path,
            global,
            innermost: matches,
        })
    }

    /// The innermost subcommand's arguments as the line gives them, over
    /// `start` (an unfinished line lacks required values, so they cannot
    /// be built from the matches alone).
    fn args<A: FromArgMatches>(&self, mut start: A) -> Option<A> {
        start.update_from_arg_matches(&self.innermost).ok()?;
        Some(start)
    }

    /// The context a run of this line would resolve.
    fn context(&self) -> Option<Context> {
        Context::resolve(&self.global).ok()
    }
}

/// What a subcommand's completer needs from the line `words`, when its
/// subcommand path is `path`: its arguments as the line gives them, over
/// `start`, and the context a run of the line would resolve.
pub(crate) fn read_line<A: FromArgMatches>(
    words: &[OsString],
    path: &[&str],
    start: A,
) -> Option<(A, Context)> {
    let line = Line::parse(words).filter(|line| line.path == path)?;
    Some((line.args(start)?, line.context()?))
}

/// The global options as a line that gives none of them parses.
fn default_globals() -> Option<GlobalArgs> {
    let empty = GlobalArgs::augment_args(clap::Command::new("mecatl-prompt"))
        .try_get_matches_from(["mecatl-prompt"])
        .ok()?;
    GlobalArgs::from_arg_matches(&empty).ok()
}

/// The names offered for `current`: every name the run's profile lets
/// the user type, kept when it starts with `current` — `/name` for every
/// command `commands list` would show as invokable (withheld ones
/// excluded); under `claude`, skills too, with their `argument-hint` as
/// the help; under `codex`, `$name` for every skill, its description as
/// the help.
pub(crate) fn command_names(
    ctx: &Context,
    commands_dirs: &[PathBuf],
    current: &OsStr,
) -> Vec<CompletionCandidate> {
    let Some(prefix) = current.to_str() else {
        return Vec::new();
    };
    let named = with_catalog(ctx, commands_dirs, |catalog| Ok(catalog.completion_names()));
    let Ok(named) = named else {
        return Vec::new();
    };
    // The first of each name, without copying the names to remember them.
    let mut seen = HashSet::with_capacity(named.len());
    let offered: Vec<bool> = named
        .iter()
        .map(|(name, _)| name.starts_with(prefix) && seen.insert(name.as_str()))
        .collect();
    drop(seen);
    named
        .into_iter()
        .zip(offered)
        .filter_map(|(named, offered)| offered.then_some(named))
        .map(|(name, help)| {
            CompletionCandidate::new(name).help(help.map(|h| output::one_line(&h).into()))
        })
        .collect()
}

/// The rule names offered for `current`: every rule of every tier that
/// would be injected (withheld ones excluded, as for commands), kept when it
/// starts with `current`.
pub(crate) fn rule_names(ctx: &Context, current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(prefix) = current.to_str() else {
        return Vec::new();
    };
    let discovery = discover(&rule_dirs(ctx));
    let names: BTreeSet<&str> = discovery
        .active()
        .map(|r| r.rule.name.as_str())
        .filter(|name| name.starts_with(prefix))
        .collect();
    names.into_iter().map(CompletionCandidate::new).collect()
}

/// `candidates` of the argument `id` of `A`, each tagged as clap_complete
/// tags a candidate that comes back without a tag: with the argument as
/// its usage shows it (`<INPUT>...`). clap_complete renders that once per
/// candidate, a tenth of a thousand-name completion's own work; rendered
/// here once, the candidates come back tagged and it renders nothing.
pub(crate) fn tagged<A: Args>(
    id: &str,
    candidates: Vec<CompletionCandidate>,
) -> Vec<CompletionCandidate> {
    let mut command = A::augment_args(clap::Command::new("mecatl-prompt"));
    command.build();
    let Some(tag) = command
        .get_arguments()
        .find(|arg| arg.get_id() == id)
        .map(|arg| StyledStr::from(arg.to_string()))
    else {
        return candidates;
    };
    candidates
        .into_iter()
        .map(|candidate| match candidate.get_tag() {
            Some(_) => candidate,
            None => candidate.tag(Some(tag.clone())),
        })
        .collect()
}

/// Paths starting with `current`, relative paths taken from `dir`. They are
/// written with `/` like every workspace path the tool prints (on Windows
/// the completer joins with `\`), unless `current` itself was typed with `\`.
pub(crate) fn paths_under(dir: &Path, current: &OsStr) -> Vec<CompletionCandidate> {
    let candidates = PathCompleter::any().current_dir(dir).complete(current);
    if std::path::MAIN_SEPARATOR == '/' || current.to_string_lossy().contains('\\') {
        return candidates;
    }
    candidates
        .into_iter()
        .map(|candidate| match candidate.get_value().to_str() {
            Some(value) if value.contains('\\') => {
                CompletionCandidate::new(value.replace('\\', "/"))
                    .help(candidate.get_help().cloned())
                    .tag(candidate.get_tag().cloned())
                    .hide(candidate.is_hide_set())
            }
            _ => candidate,
        })
        .collect()
}

/// Completes a `rules list --for` value: paths relative to the workspace
/// named on the line, since that is what `--for` resolves against.
pub fn for_path(current: &OsStr) -> Vec<CompletionCandidate> {
    for_path_on(&completion_words(), current)
}

fn for_path_on(words: &[OsString], current: &OsStr) -> Vec<CompletionCandidate> {
    Line::parse(words)
        .and_then(|line| line.context())
        .map(|ctx| paths_under(&ctx.workspace, current))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
