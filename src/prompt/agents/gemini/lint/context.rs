//! Gemini CLI's context files and settings, as `lint` judges them (SPEC
//! §16.7): `context.fileName` naming no file (MP019), GEMINI.md against
//! the AGENTS.md or CLAUDE.md beside it (MP020), files that load only below
//! the start directory (MP021); the imports of the context files are
//! [`super::imports`]'s.
//!
//! Choices the spec leaves open:
//! - **Names.** The context file names are those of the start directory's
//!   (`--at`) `.gemini/settings.json` with `GEMINI.md`, as a run there
//!   reads them ([`settings`]); the user's `~/.gemini/settings.json` is not
//!   read (lint reads project files only), so a name only the user's
//!   settings add is not a context file here.
//! - **MP019** judges every `.gemini/settings.json` of the workspace (each
//!   is some start directory's): a name is missing when no directory of
//!   the workspace holds it (`~/.gemini` is not looked at; the message
//!   says so); a name with `..` or a leading `/` is reported as leaving its
//!   directory whether or not something is there (the preview never
//!   looks outside the workspace).
//! - **MP020** is per directory: Gemini's context files there (the names
//!   above) against the AGENTS.md and CLAUDE.md beside them that it does
//!   not load itself. None when one of Gemini's files holds the same text
//!   (JavaScript-trimmed, as Gemini sends it; a symbolic link reads so) or
//!   imports one of them (`@AGENTS.md`); blank files count as absent. When
//!   Gemini has no file with content there, the finding is on the AGENTS.md
//!   (else CLAUDE.md) and says Gemini gets none of it. Its agents are
//!   Gemini alone, so a workspace `lint` does not judge for Gemini (no
//!   GEMINI.md nor `.gemini` at the root, no `--agents gemini`) reports
//!   nothing new; the message names the other agents. A workspace with
//!   no context file and no `.gemini` anywhere is not written for Gemini:
//!   MP020 says nothing there (nor reads a file).
//! - **MP021** is a note on each context file below the start directory
//!   (it loads when a tool reads a file under its directory), and on each
//!   `.gemini/commands`, `.gemini/skills` and `.gemini/settings.json` below
//!   it (Gemini reads those only in the directory it starts in). Files
//!   beside the start directory's path are not reported: another start
//!   directory reaches them.

use crate::prompt::agents::PROFILES;
use crate::prompt::agents::claude::names::CLAUDE_MD;
use crate::prompt::agents::files::AGENTS_MD;
use crate::prompt::agents::gemini::context::is_plain;
use crate::prompt::agents::gemini::imports::tokens;
use crate::prompt::agents::gemini::settings::{self, ContextSettings, Effective, SETTINGS_FILE};
use crate::prompt::agents::gemini::spec::{DOT_GEMINI, GEMINI_MD};
use crate::prompt::compare::divergence::subject;
use crate::prompt::imports::normalise;
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Lint, Out, line_at, quote};
use crate::prompt::lint::survey::is_within;
use crate::prompt::profile::Agent;
use crate::prompt::text::js_trim;
use crate::workspace::{base_name, join, parent};

/// The other agents' instruction files MP020 holds GEMINI.md against,
/// CLAUDE.md first: Claude Code reads AGENTS.md only without it.
const OTHERS: [&str; 2] = [CLAUDE_MD, AGENTS_MD];

/// Gemini's directories read only where it starts, besides its settings.
const START_ONLY: [&str; 2] = ["commands", "skills"];

/// One context file of the workspace: its directory and path.
pub(super) struct ContextFile {
    /// Its directory, workspace-relative.
    pub dir: String,
    /// Its path, workspace-relative.
    pub rel: String,
}

/// Runs Gemini's checks of context files, settings and imports.
pub(super) fn check(lint: &Lint<'_>, out: &mut Out) {
    let at = lint.options.at.as_str();
    let project = settings::read(lint.reader, &join(&join(at, DOT_GEMINI), SETTINGS_FILE))
        .map(|read| read.settings)
        .unwrap_or_default();
    let names: Vec<String> = Effective::combine(&ContextSettings::default(), &project)
        .names
        .into_iter()
        .filter(|name| is_plain(name))
        .collect();
    file_names(lint, out);
    let files: Vec<ContextFile> = lint
        .survey
        .dirs()
        .iter()
        .flat_map(|dir| {
            names.iter().map(move |name| ContextFile {
                dir: dir.clone(),
                rel: join(dir, name),
            })
        })
        .filter(|file| lint.survey.has_file(&file.rel))
        .collect();
    lazy_only(lint, &files, out);
    let for_gemini = !files.is_empty() || lint.survey.dirs_ending(DOT_GEMINI).next().is_some();
    if for_gemini {
        for dir in lint.survey.dirs() {
            diverging(lint, dir, &names, out);
        }
    }
    super::imports::check(lint, &files, out);
}

/// MP019 for every `.gemini/settings.json` of the workspace.
fn file_names(lint: &Lint<'_>, out: &mut Out) {
    for dot in lint.survey.dirs_ending(DOT_GEMINI) {
        let rel = join(dot, SETTINGS_FILE);
        if !lint.survey.has_file(&rel) {
            continue;
        }
        let Some(text) = lint.read(&rel, out) else {
            continue;
        };
        let read = settings::parse(&text, &rel);
        let key_at = text.find("fileName").unwrap_or(0);
        for name in read.settings.file_names.unwrap_or_default() {
            if name == GEMINI_MD {
                continue;
            }
            let line = text[key_at..]
                .find(name.as_str())
                .map_or(line_at(&text, key_at), |i| line_at(&text, key_at + i));
            let message = if !is_plain(&name) {
                format!(
                    "context.fileName `{}` reaches outside the directory it is joined to: Gemini \
                     CLI reads it there for every directory of its walk, the preview never reads \
                     outside the workspace",
                    quote(&name)
                )
            } else if lint
                .survey
                .dirs()
                .iter()
                .any(|dir| lint.survey.has_file(&join(dir, &name)))
            {
                continue;
            } else {
                format!(
                    "context.fileName `{}` names no file in any directory of the workspace: \
                     Gemini CLI loads nothing for it (unless ~/.gemini holds one)",
                    quote(&name)
                )
            };
            out.add(
                Code::GeminiFileNameMissing,
                &rel,
                Some(line),
                vec![Agent::Gemini],
                message,
            );
        }
    }
}

/// The start directory as a message names it.
fn shown_dir(dir: &str) -> &str {
    if dir.is_empty() {
        "the workspace root"
    } else {
        dir
    }
}

/// MP021: context files, commands, skills and settings below the start
/// directory.
fn lazy_only(lint: &Lint<'_>, files: &[ContextFile], out: &mut Out) {
    let at = lint.options.at.as_str();
    let below = |dir: &str| dir != at && is_within(dir, at);
    for file in files.iter().filter(|file| below(&file.dir)) {
        out.add(
            Code::GeminiLazyOnly,
            &file.rel,
            Some(1),
            vec![Agent::Gemini],
            format!(
                "loads for Gemini CLI only when a tool reads a file under {}/: Gemini reads \
                 context files from where it starts ({}) up, not below",
                file.dir,
                shown_dir(at)
            ),
        );
    }
    for dot in lint.survey.dirs_ending(DOT_GEMINI) {
        let owner = parent(dot);
        if !below(owner) {
            continue;
        }
        let settings_rel = join(dot, SETTINGS_FILE);
        let found = START_ONLY
            .iter()
            .map(|name| {
                (
                    join(dot, name),
                    lint.survey.dirs().contains(&join(dot, name)),
                )
            })
            .chain(std::iter::once((
                settings_rel.clone(),
                lint.survey.has_file(&settings_rel),
            )));
        for (rel, _) in found.filter(|(_, there)| *there) {
            out.add(
                Code::GeminiLazyOnly,
                &rel,
                None,
                vec![Agent::Gemini],
                format!(
                    "Gemini CLI reads {DOT_GEMINI}/{} only in the directory it starts in ({}): \
                     this one counts only when Gemini starts in {owner}",
                    base_name(&rel),
                    shown_dir(at)
                ),
            );
        }
    }
}

/// MP020 in `dir`, Gemini's context file names being `names`.
fn diverging(lint: &Lint<'_>, dir: &str, names: &[String], out: &mut Out) {
    let mut read_non_blank = |rel: String| {
        let text = lint.read(&rel, out)?;
        (!js_trim(&text).is_empty()).then_some((rel, text))
    };
    let others: Vec<(String, String)> = OTHERS
        .iter()
        .filter(|name| !names.iter().any(|own| own == *name))
        .map(|name| join(dir, name))
        .filter(|rel| lint.survey.has_file(rel))
        .filter_map(&mut read_non_blank)
        .collect();
    if others.is_empty() {
        return;
    }
    let own: Vec<(String, String)> = names
        .iter()
        .map(|name| join(dir, name))
        .filter(|rel| lint.survey.has_file(rel))
        .filter_map(&mut read_non_blank)
        .collect();
    let loaders = loaders(dir, &others);
    let Some((first, _)) = own.first() else {
        let (rel, text) = &others[0];
        out.add(
            Code::GeminiInstructionsDiverge,
            rel,
            Some(1),
            vec![Agent::Gemini],
            format!(
                "no {GEMINI_MD} here: {loaders}, Gemini CLI loads none of it ({} bytes); add a \
                 {GEMINI_MD} holding `@{}`, or name it in context.fileName",
                text.len(),
                base_name(rel)
            ),
        );
        return;
    };
    let agrees = own.iter().any(|(own_rel, own_text)| {
        others.iter().any(|(rel, text)| {
            js_trim(own_text) == js_trim(text) || imports_file(own_rel, own_text, rel)
        })
    });
    if agrees {
        return;
    }
    let sizes: Vec<String> = own
        .iter()
        .map(|(rel, text)| format!("{} ({} bytes)", base_name(rel), text.len()))
        .collect();
    let other_names: Vec<&str> = others.iter().map(|(rel, _)| base_name(rel)).collect();
    out.add(
        Code::GeminiInstructionsDiverge,
        first,
        Some(1),
        vec![Agent::Gemini],
        format!(
            "Gemini CLI loads {} here, {loaders}: the files differ and {} imports neither {}",
            sizes.join(" and "),
            base_name(first),
            other_names.join(" nor ")
        ),
    );
}

/// Who loads each of `others` in `dir`, in words (`Claude Code loads
/// CLAUDE.md (82 bytes), mecatl and Codex load AGENTS.md (81 bytes)`):
/// each agent of the table that reads instruction files in `dir`, at the
/// first of `others` its instruction names list (Claude Code's CLAUDE.md
/// before its AGENTS.md fallback, the engine's AGENTS.md before CLAUDE.md).
fn loaders(dir: &str, others: &[(String, String)]) -> String {
    let picks: Vec<(Agent, &(String, String))> = PROFILES
        .iter()
        .map(|profile| profile.spec())
        .filter(|spec| spec.agent != Agent::Gemini)
        .filter(|spec| dir.is_empty() || spec.nested_instructions)
        .filter_map(|spec| {
            let first = spec
                .instruction_names
                .iter()
                .find_map(|name| others.iter().find(|(rel, _)| base_name(rel) == *name))?;
            Some((spec.agent, first))
        })
        .collect();
    let clauses: Vec<String> = others
        .iter()
        .filter_map(|file| {
            let agents: Vec<Agent> = picks
                .iter()
                .filter(|(_, pick)| pick.0 == file.0)
                .map(|(agent, _)| *agent)
                .collect();
            (!agents.is_empty()).then(|| {
                format!(
                    "{} {} ({} bytes)",
                    subject(&agents, "loads", "load"),
                    base_name(&file.0),
                    file.1.len()
                )
            })
        })
        .collect();
    clauses.join(", ")
}

/// True when the context file `rel` (text `text`) has an import token
/// naming the workspace file `target` (lexically, as Gemini resolves it
/// against the file's directory).
fn imports_file(rel: &str, text: &str, target: &str) -> bool {
    let root = std::path::Path::new("/");
    let dir = root.join(parent(rel));
    let target = root.join(target);
    tokens(text)
        .iter()
        .any(|token| normalise(&dir.join(&text[token.start + 1..token.end])) == target)
}
