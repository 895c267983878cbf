//! What `lint` asks of GitHub Copilot CLI (SPEC §17.8), over every
//! directory of the workspace (Copilot may start in any of them):
//! - its path-specific sets: a file under `.github/instructions/` that is
//!   not `*.instructions.md` (MP030), `excludeAgent` (MP034), a set
//!   neither at the root nor at `--at` (MP036);
//! - a directory whose AGENTS.md, CLAUDE.md and GEMINI.md differ (MP031);
//! - the `@` imports of its instruction files: a chain past 8 levels
//!   (MP032, on the file holding the 9th-level import) and the forms it
//!   leaves as text (MP035);
//! - a SKILL.md of its skill directories without frontmatter (MP033).
//!
//! Choices the spec leaves open:
//! - MP031 compares the files' bytes (Copilot sends identical bytes once)
//!   and is reported on the first of the names present.
//! - MP034: `coding-agent` is a note that Copilot drops the file,
//!   `code-review` says nothing, any other value is a note that it
//!   excludes nothing.
//! - MP035 covers `@/…` and `@~/…` and a `@../…` that leaves the workspace.
//! - MP032 and MP035 look at the instruction files Copilot reads at every
//!   level (copilot-instructions.md, AGENTS.md, CLAUDE.md, GEMINI.md).

use std::path::Path;

use crate::prompt::agents::copilot::imports::{ImportStatus, Inliner, import_tokens};
use crate::prompt::agents::copilot::instructions::{Files, Readers, SHARED_NAMES};
use crate::prompt::agents::copilot::paths::INSTRUCTIONS_SUFFIX;
use crate::prompt::agents::copilot::skills::SKILL_DIRS;
use crate::prompt::agents::copilot::spec::{COPILOT_INSTRUCTIONS_MD, INSTRUCTIONS_DIR};
use crate::prompt::agents::files::{CLAUDE_RULES_DIR, SKILL_MD};
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::imports::normalise;
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Doc, Lint, LintHooks, Out, quote};
use crate::prompt::lint::survey::is_within;
use crate::prompt::profile::Agent;
use crate::prompt::walk::absolute;
use crate::prompt::yaml::parse_mapping;
use crate::workspace::{EntryKind, join};

/// GitHub Copilot CLI's hooks.
pub(super) struct CopilotLint;

impl LintHooks for CopilotLint {
    fn check(&self, lint: &Lint<'_>, _docs: &[Doc], out: &mut Out) {
        for set in [INSTRUCTIONS_DIR, CLAUDE_RULES_DIR] {
            path_sets(lint, set, out);
        }
        doubled(lint, out);
        imports(lint, out);
        skills(lint, out);
    }
}

/// The files directly in `dir`, workspace-relative.
fn files_in(lint: &Lint<'_>, dir: &str) -> Vec<String> {
    let entries = lint.reader.list(dir).unwrap_or_default();
    entries
        .into_iter()
        .filter(|entry| !entry.lossy && entry.kind != EntryKind::Dir)
        .map(|entry| join(dir, &entry.name))
        .filter(|rel| matches!(lint.reader.stat(rel), Ok(EntryKind::File)))
        .collect()
}

/// MP030, MP034 and MP036 for every set named `set`
/// (`.github/instructions`, `.claude/rules`).
fn path_sets(lint: &Lint<'_>, set: &str, out: &mut Out) {
    let at = lint.options.at.trim_matches('/');
    for top in lint.survey.dirs_ending(set) {
        let base = top.strip_suffix(set).unwrap_or("").trim_end_matches('/');
        if !base.is_empty() && base != at {
            out.add(
                Code::PathSetPlacement,
                top,
                None,
                vec![Agent::Copilot],
                format!(
                    "GitHub Copilot CLI reads `{set}` only at the root and in the directory it \
                     starts in: these files load only when it starts in `{base}`"
                ),
            );
        }
        let below = lint.survey.dirs().iter().filter(|dir| is_within(dir, top));
        for rel in below.flat_map(|dir| files_in(lint, dir)) {
            let name = rel.rsplit('/').next().unwrap_or(&rel);
            if set == INSTRUCTIONS_DIR && !name.ends_with(INSTRUCTIONS_SUFFIX) {
                out.add(
                    Code::CopilotInstructionsName,
                    &rel,
                    None,
                    vec![Agent::Copilot],
                    format!(
                        "`{}` is not named `*{INSTRUCTIONS_SUFFIX}`: GitHub Copilot CLI never \
                         loads it",
                        quote(name)
                    ),
                );
                continue;
            }
            if name.ends_with(".md") {
                exclude_agent(lint, &rel, out);
            }
        }
    }
}

/// MP034 for the `excludeAgent` of `rel`'s frontmatter.
fn exclude_agent(lint: &Lint<'_>, rel: &str, out: &mut Out) {
    let Some(text) = lint.read(rel, out) else {
        return;
    };
    let Some(Ok(keys)) = split_frontmatter(&text).0.map(parse_mapping) else {
        return;
    };
    let Some(entry) = keys.iter().find(|entry| entry.key == "excludeAgent") else {
        return;
    };
    let value = entry.value.as_str().unwrap_or_default();
    let message = match value {
        "code-review" => return,
        "coding-agent" => "`excludeAgent: coding-agent`: GitHub Copilot CLI drops this file \
                           (so does the coding agent); code review still reads it"
            .to_string(),
        other => format!(
            "`excludeAgent: {}` names no agent Copilot knows (`coding-agent`, `code-review`): \
             it excludes nothing",
            quote(other)
        ),
    };
    // The block's lines start after the opening `---`.
    out.add(
        Code::ExcludeAgent,
        rel,
        Some(entry.line + 1),
        vec![Agent::Copilot],
        message,
    );
}

/// MP031 for every directory holding two or more of AGENTS.md, CLAUDE.md
/// and GEMINI.md with different bytes.
fn doubled(lint: &Lint<'_>, out: &mut Out) {
    for dir in lint.survey.dirs() {
        let present: Vec<String> = SHARED_NAMES
            .iter()
            .map(|name| join(dir, name))
            .filter(|rel| lint.survey.has_file(rel))
            .collect();
        if present.len() < 2 {
            continue;
        }
        let texts: Vec<Option<String>> = present.iter().map(|rel| lint.read(rel, out)).collect();
        if texts.iter().any(Option::is_none) || texts.iter().all(|text| *text == texts[0]) {
            continue;
        }
        let mut names: Vec<&str> = present
            .iter()
            .map(|rel| rel.rsplit('/').next().unwrap_or(rel))
            .collect();
        let last = names.pop().unwrap_or_default();
        out.add(
            Code::CopilotDoubled,
            &present[0],
            None,
            vec![Agent::Copilot],
            format!(
                "{} and {last} of this directory differ: GitHub Copilot CLI sends each of them",
                names.join(", ")
            ),
        );
    }
}

/// MP032 and MP035 for the instruction files Copilot reads.
fn imports(lint: &Lint<'_>, out: &mut Out) {
    let workspace = lint.reader.root().to_path_buf();
    let readers = Readers {
        project: lint.reader,
        parent: lint.reader,
        home: None,
    };
    let files = Files::new(readers, workspace.clone(), true);
    let mut inliner = Inliner::new(&files);
    let names = std::iter::once(COPILOT_INSTRUCTIONS_MD).chain(SHARED_NAMES);
    let names: Vec<&str> = names.collect();
    for dir in lint.survey.dirs() {
        for name in &names {
            let rel = join(dir, name);
            if !lint.survey.has_file(&rel) {
                continue;
            }
            let Some(text) = lint.read(&rel, out) else {
                continue;
            };
            import_forms(lint, &rel, &text, out);
            let real = absolute(lint.reader, &rel);
            let inlined = inliner.inline(&text, &real);
            let mut holders: Vec<&Path> = Vec::new();
            for record in &inlined.imports {
                holders.truncate(record.depth.saturating_sub(1));
                if record.status == ImportStatus::TooDeep {
                    let holder = holders.last().map_or(rel.clone(), |path| shown(lint, path));
                    out.add(
                        Code::CopilotImportDepth,
                        &holder,
                        None,
                        vec![Agent::Copilot],
                        format!(
                            "imports {} at level {} (through {rel}): GitHub Copilot CLI \
                             follows 8 levels and leaves it as text",
                            shown(lint, &record.path),
                            record.depth
                        ),
                    );
                }
                if record.status == ImportStatus::Inlined {
                    holders.push(&record.path);
                }
            }
        }
    }
}

/// A path as lint names files: workspace-relative inside it.
fn shown(lint: &Lint<'_>, path: &Path) -> String {
    match path.strip_prefix(lint.reader.root()) {
        Ok(rel) => crate::workspace::slashed(rel),
        Err(_) => path.display().to_string(),
    }
}

/// MP035 for the import tokens of `rel` that Copilot leaves as text.
fn import_forms(lint: &Lint<'_>, rel: &str, text: &str, out: &mut Out) {
    let dir = absolute(lint.reader, crate::workspace::parent(rel));
    for (line, token) in import_tokens(text) {
        let form = if token.starts_with('/') {
            "an absolute path"
        } else if token.starts_with("~/") {
            "a path in the home directory"
        } else if token.starts_with("../")
            && !normalise(&dir.join(token)).starts_with(lint.reader.root())
        {
            "a path outside the workspace"
        } else {
            continue;
        };
        out.add(
            Code::CopilotImportForm,
            rel,
            Some(line),
            vec![Agent::Copilot],
            format!(
                "`@{}` is {form}: Claude Code inlines it, GitHub Copilot CLI sends it as text",
                quote(token)
            ),
        );
    }
}

/// MP033 for every SKILL.md of Copilot's skill directories without a
/// frontmatter block.
fn skills(lint: &Lint<'_>, out: &mut Out) {
    for skills in SKILL_DIRS {
        for dir in lint.survey.dirs_ending(skills) {
            let entries = lint.reader.list(dir).unwrap_or_default();
            for entry in entries.into_iter().filter(|e| e.kind == EntryKind::Dir) {
                let rel = join(&join(dir, &entry.name), SKILL_MD);
                if !lint.survey.has_file(&rel) {
                    continue;
                }
                let Some(text) = lint.read(&rel, out) else {
                    continue;
                };
                if split_frontmatter(&text).0.is_none() {
                    out.add(
                        Code::SkillWithoutFrontmatter,
                        &rel,
                        Some(1),
                        vec![Agent::Copilot],
                        "no frontmatter: GitHub Copilot CLI does not load this skill",
                    );
                }
            }
        }
    }
}
