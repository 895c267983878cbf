//! What `lint` asks of opencode (SPEC §18.5): its own checks over the
//! workspace, reading the files as the profile reads them:
//! - instruction files: `@path` sent as text (MP040), an empty file that
//!   blocks a later name (MP041);
//! - configs (`opencode.json(c)`, `.opencode/opencode.json(c)`): one that
//!   does not parse (MP046, line and column), `instructions` entries that
//!   match nothing (MP042) or are URLs or outside the workspace (MP043),
//!   an `mcp` server opencode would start (MP027, `enabled: false` ones
//!   left out);
//! - commands: `$0` (MP044); skills: same-name skills (MP045), a SKILL.md
//!   without `name:` (MP047); `.claude/commands` present (MP048).
//!
//! Choices the spec leaves open:
//! - The checks run only on a workspace that holds one of opencode's own
//!   files (an `opencode.json(c)` or a `.opencode` directory anywhere): a
//!   repository that does not target opencode gets no findings about how
//!   opencode would treat its other agents' files.
//! - The instruction file of a directory is the first of opencode's names
//!   there (what a read under it loads); MP040 looks for opencode's own
//!   mention pattern and reports paths that look like files (holding a `.`
//!   or `/`), each once per file.
//! - MP041 fires for a 0-byte AGENTS.md (or CLAUDE.md) when a later name
//!   exists anywhere in the workspace.
//! - An `instructions` entry is tried in its config's directory and every
//!   directory above it inside the workspace (MP042 when it matches in
//!   none).

use crate::prompt::agents::files::{AGENTS_MD, CLAUDE_MD};
use crate::prompt::agents::opencode::commands::{self, COMMAND_DIRS, Place};
use crate::prompt::agents::opencode::expand::mentions;
use crate::prompt::agents::opencode::glob;
use crate::prompt::agents::opencode::instructions::{is_relative, is_url};
use crate::prompt::agents::opencode::skills::{self, SkillDir};
use crate::prompt::agents::opencode::spec::{CONFIG_FILES, CONTEXT_MD, DOT_OPENCODE};
use crate::prompt::agents::opencode::{config, mcp};
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{Doc, Lint, LintHooks, Out, line_at, quote};
use crate::prompt::lint::servers;
use crate::prompt::profile::Agent;
use crate::prompt::walk::Scope;
use crate::workspace::{base_name, join, parent};

/// opencode's instruction names, in its order.
const NAMES: [&str; 3] = [AGENTS_MD, CLAUDE_MD, CONTEXT_MD];

/// The skill directories below a directory of the walk.
const SKILL_DIRS: [&str; 4] = [
    ".opencode/skill",
    ".opencode/skills",
    ".claude/skills",
    ".agents/skills",
];

/// opencode's hooks.
pub(super) struct OpencodeLint;

impl LintHooks for OpencodeLint {
    fn check(&self, lint: &Lint<'_>, _docs: &[Doc], out: &mut Out) {
        let targets_opencode = lint.survey.dirs().iter().any(|dir| {
            base_name(dir) == DOT_OPENCODE
                || CONFIG_FILES
                    .iter()
                    .any(|name| lint.survey.has_file(&join(dir, name)))
        });
        if !targets_opencode {
            return;
        }
        instruction_files(lint, out);
        configs(lint, out);
        commands_and_skills(lint, out);
    }
}

fn opencode() -> Vec<Agent> {
    vec![Agent::Opencode]
}

/// MP040 and MP041.
fn instruction_files(lint: &Lint<'_>, out: &mut Out) {
    let anywhere = |name: &str| {
        lint.survey
            .dirs()
            .iter()
            .any(|dir| lint.survey.has_file(&join(dir, name)))
    };
    for dir in lint.survey.dirs() {
        let Some(name) = NAMES
            .into_iter()
            .find(|name| lint.survey.has_file(&join(dir, name)))
        else {
            continue;
        };
        let rel = join(dir, name);
        let Some(text) = lint.read(&rel, out) else {
            continue;
        };
        if text.is_empty() && name != CONTEXT_MD {
            let later: Vec<&str> = NAMES
                .into_iter()
                .skip_while(|n| *n != name)
                .skip(1)
                .filter(|n| anywhere(n))
                .collect();
            if !later.is_empty() {
                out.add(
                    Code::OpencodeEmptyBlocks,
                    &rel,
                    None,
                    opencode(),
                    format!(
                        "this empty {name} wins opencode's walk and sends nothing, so {} is not \
                         loaded",
                        later.join(" and ")
                    ),
                );
            }
        }
        for path in mentions(&text)
            .into_iter()
            .filter(|p| p.contains(['.', '/']))
        {
            let at = text.find(&format!("@{path}")).unwrap_or_default();
            out.add(
                Code::OpencodeAtPath,
                &rel,
                Some(line_at(&text, at)),
                opencode(),
                format!(
                    "opencode sends `@{}` as text and does not load the file",
                    quote(&path)
                ),
            );
        }
    }
}

/// MP046, MP042, MP043 for every config of the workspace.
fn configs(lint: &Lint<'_>, out: &mut Out) {
    for dir in lint.survey.dirs() {
        let holder = if base_name(dir) == DOT_OPENCODE {
            parent(dir)
        } else {
            dir.as_str()
        };
        for name in CONFIG_FILES {
            let rel = join(dir, name);
            if !lint.survey.has_file(&rel) {
                continue;
            }
            let Some(text) = lint.read(&rel, out) else {
                continue;
            };
            let mut said = Vec::new();
            let Some(value) = config::parse_value(&text, &rel, &mut said) else {
                let line = said
                    .first()
                    .and_then(|d| d.reason.strip_prefix("does not parse at line "))
                    .and_then(|rest| rest.split(',').next())
                    .and_then(|line| line.parse().ok());
                let reason = said.pop().map(|d| d.reason).unwrap_or_default();
                out.add(Code::OpencodeConfigInvalid, &rel, line, opencode(), reason);
                continue;
            };
            let entries = value
                .get("instructions")
                .and_then(serde_json::Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(serde_json::Value::as_str);
            for entry in entries {
                instruction_entry(lint, holder, &rel, &text, entry, out);
            }
            project_servers(&rel, &value, out);
        }
    }
}

/// MP027 for each server the config `rel` (its parsed `value`) would have
/// opencode start: those whose `enabled` is not `false`.
fn project_servers(rel: &str, value: &serde_json::Value, out: &mut Out) {
    let servers = value.get("mcp").and_then(serde_json::Value::as_object);
    for (name, server) in servers.into_iter().flatten() {
        if let Some(entry) = mcp::entry(server).filter(|_| mcp::enabled(server)) {
            servers::project_server(out, rel, name, &entry, (Agent::Opencode, "opencode"));
        }
    }
}

/// MP042 or MP043 for one `instructions` entry of the config `rel`.
fn instruction_entry(
    lint: &Lint<'_>,
    holder: &str,
    rel: &str,
    text: &str,
    entry: &str,
    out: &mut Out,
) {
    let line = text
        .find(&format!("\"{entry}\""))
        .map(|at| line_at(text, at));
    if is_url(entry) || !is_relative(entry) || entry.split('/').any(|part| part == "..") {
        let what = if is_url(entry) {
            "a URL opencode fetches at every start"
        } else {
            "outside the workspace: opencode reads it from the user's machine"
        };
        out.add(
            Code::OpencodeInstructionsExternal,
            rel,
            line,
            opencode(),
            format!("`instructions` entry {} is {what}", quote(entry)),
        );
        return;
    }
    let mut dir = holder;
    loop {
        if glob::scan(lint.reader, dir, entry).is_ok_and(|m| !m.files.is_empty()) {
            return;
        }
        if dir.is_empty() {
            break;
        }
        dir = parent(dir);
    }
    out.add(
        Code::OpencodeInstructionsUnmatched,
        rel,
        line,
        opencode(),
        format!(
            "`instructions` entry {} matches no file from here up to the workspace root",
            quote(entry)
        ),
    );
}

/// MP044, MP045, MP047, MP048.
fn commands_and_skills(lint: &Lint<'_>, out: &mut Out) {
    for dir in COMMAND_DIRS {
        let suffix = join(DOT_OPENCODE, dir);
        for found in lint.survey.dirs_ending(&suffix) {
            let place = Place {
                reader: lint.reader,
                rel: found.to_string(),
                scope: Scope::Project,
            };
            let loaded = commands::load(&[], &[place], true);
            for command in &loaded.commands {
                let Some(at) = command.text.find("$0") else {
                    continue;
                };
                out.add(
                    Code::OpencodeDollarZero,
                    &command.source,
                    Some(line_at(&command.text, at)),
                    opencode(),
                    format!(
                        "/{}: opencode's placeholders are 1-based, so `$0` is not the first \
                         argument",
                        command.name
                    ),
                );
            }
        }
    }
    let skill_dirs: Vec<SkillDir<'_>> = SKILL_DIRS
        .iter()
        .flat_map(|suffix| lint.survey.dirs_ending(suffix))
        .map(|rel| SkillDir {
            reader: lint.reader,
            rel: rel.to_string(),
            scope: Scope::Project,
            rank: 0,
        })
        .collect();
    let found = skills::load(&skill_dirs, true);
    for path in &found.nameless {
        out.add(
            Code::OpencodeSkillWithoutName,
            path,
            None,
            opencode(),
            "no string `name:` in the frontmatter: opencode does not take this file as a skill",
        );
    }
    for skill in found.skills.iter().filter(|s| s.shadowed_by.is_some()) {
        out.add(
            Code::OpencodeSkillClash,
            &skill.source,
            None,
            opencode(),
            format!(
                "skill {} is also named by {}: opencode keeps whichever it parses last",
                skill.name,
                skill.shadowed_by.as_deref().unwrap_or_default()
            ),
        );
    }
    for dir in lint.survey.dirs_ending(".claude/commands") {
        out.add(
            Code::OpencodeClaudeCommands,
            dir,
            None,
            opencode(),
            "opencode reads commands from .opencode/command(s) only: these are not offered \
             under opencode",
        );
    }
}
