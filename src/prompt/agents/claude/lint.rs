//! What `lint` asks of Claude Code (SPEC §15.3): its rule, command and
//! skill directories at any depth, its reading of a block that is not
//! valid YAML (read again with the values quoted, else every key
//! ignored), and its own checks: skills' names and descriptions (MP013,
//! MP014), the `@imports` of its files (MP004–MP007, [`import_chain`])
//! commands its skills shadow (MP015, [`shadowed`]), the servers of
//! `.mcp.json` files (MP027) and the rest of its turn 0: subagents, output
//! style, hooks (MP025, MP026, MP028, [`inventory`]).

mod import_chain;
mod inventory;
mod shadowed;

use serde_json::Value;

use crate::limits;
use crate::prompt::agents::claude::settings::read_json_object;
use crate::prompt::agents::claude::{mcp, names};
use crate::prompt::command::claude_catalog::{PROJECT_COMMANDS_DIR, PROJECT_SKILLS_DIR};
use crate::prompt::command::claude_dialect::{self, Reading};
use crate::prompt::command::misplaced_frontmatter;
use crate::prompt::lint::codes::Code;
use crate::prompt::lint::report::{
    BlockError, Doc, DocKind, DocSource, Effect, Lint, LintHooks, Out, SourceKind, quote,
};
use crate::prompt::lint::servers;
use crate::prompt::profile::Agent;
use crate::prompt::tiers::Layout;
use crate::workspace::join;

/// Claude Code's directories, read wherever they are.
const SOURCES: [DocSource; 3] = [
    DocSource {
        dir: names::RULES_DIR,
        kind: SourceKind::Rules,
        layout: Layout::Nested,
        root_only: false,
    },
    DocSource {
        dir: PROJECT_COMMANDS_DIR,
        kind: SourceKind::Commands,
        layout: Layout::Nested,
        root_only: false,
    },
    DocSource {
        dir: PROJECT_SKILLS_DIR,
        kind: SourceKind::Skills,
        layout: Layout::SkillDirs,
        root_only: false,
    },
];

/// Claude Code's hooks.
pub(super) struct ClaudeLint;

impl LintHooks for ClaudeLint {
    fn sources(&self) -> &'static [DocSource] {
        &SOURCES
    }

    /// An invalid block is read a second time with its values quoted;
    /// when that fails too, every key is ignored.
    fn frontmatter(&self, doc: &Doc) -> Option<(BlockError, Effect)> {
        let read = claude_dialect::read_frontmatter(&doc.text);
        let (words, loses, err) = match &read.reading {
            Reading::Requoted(err) => (
                "Claude Code reads it a second time with the values quoted",
                false,
                err,
            ),
            Reading::Ignored(err) => ("Claude Code ignores every key of the block", true, err),
            Reading::NoBlock | Reading::Yaml => return None,
        };
        let at = BlockError {
            line: err.line,
            column: err.column,
            problem: err.problem,
        };
        let effect = Effect {
            agent: Agent::Claude,
            words,
            loses,
        };
        Some((at, effect))
    }

    fn check(&self, lint: &Lint<'_>, docs: &[Doc], out: &mut Out) {
        shadowed::shadowed_by_skills(lint, out);
        for doc in docs.iter().filter(|doc| doc.read_by(Agent::Claude)) {
            if let DocKind::Skill(dir) = &doc.kind {
                skill(doc, dir, out);
            }
        }
        import_chain::check(lint, docs, out);
        inventory::check(lint, out);
        mcp_json(lint, out);
    }
}

/// MP027 for the servers of every `.mcp.json` of the workspace.
fn mcp_json(lint: &Lint<'_>, out: &mut Out) {
    for dir in lint.survey.dirs() {
        let rel = join(dir, mcp::MCP_JSON);
        if !lint.survey.has_file(&rel) {
            continue;
        }
        // A file that is not JSON is `assemble`'s warning, not a finding.
        let Ok(Some(file)) = read_json_object(lint.reader, &rel, limits::MAX_CLAUDE_SETTINGS_BYTES)
        else {
            continue;
        };
        if let Some(Value::Object(servers)) = file.get("mcpServers") {
            servers::project_servers(out, &rel, servers, &mcp::KEYS, (Agent::Claude, "claude -p"));
        }
    }
}

/// MP013 and MP014 for a skill of `.claude/skills/DIR`, unless its block
/// is lost (misplaced, or every key ignored).
fn skill(doc: &Doc, dir: &str, out: &mut Out) {
    let read = claude_dialect::read_frontmatter(&doc.text);
    let keys_lost = misplaced_frontmatter(doc.text.as_bytes()).is_some()
        || matches!(read.reading, Reading::Ignored(_));
    if keys_lost {
        return;
    }
    if let Some(entry) = read.get("name")
        && let Some(name) = entry.value.as_str().map(str::trim)
        && !name.is_empty()
        && name != dir
    {
        out.add(
            Code::SkillNameMismatch,
            &doc.rel,
            Some(entry.line),
            vec![Agent::Claude],
            format!(
                "`name: {}` differs from the directory `{dir}`: Claude Code names the skill \
                 `{dir}` and lists it as `{dir} ({})`",
                quote(name),
                quote(name)
            ),
        );
    }
    let described = read
        .get("description")
        .and_then(|entry| entry.value.as_str())
        .is_some_and(|text| !text.trim().is_empty());
    if !described {
        out.add(
            Code::SkillWithoutDescription,
            &doc.rel,
            Some(read.first_line.saturating_sub(1).max(1)),
            vec![Agent::Claude],
            "no `description:`: Claude Code lists the skill with its first body line, which \
             rarely says when to use it",
        );
    }
}
