//! Instruction-file checks: Codex's budget (MP008, from the chain of
//! [`crate::prompt::codex::chain`]) and AGENTS.md against CLAUDE.md
//! (MP009). The imports of Claude Code's files are [`super::import_chain`].

use crate::prompt::codex::CodexConfig;
use crate::prompt::codex::chain::{
    AGENTS_NAME, LeftOutReason, OVERRIDE_NAME, chain, find_root, project_docs,
};
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::imports::{Form, normalise, scan};
use crate::prompt::lint::survey::{base_name, parent};
use crate::prompt::lint::{Code, Lint, Out, line_at};
use crate::prompt::profile::Agent;
use crate::prompt::text::js_trim;
use crate::prompt::walk::walk;
use crate::workspace::{EntryKind, join};

use std::path::Path;

/// Claude Code's instruction files of one directory, in its order.
pub(super) const CLAUDE_FILES: [&str; 2] = ["CLAUDE.md", ".claude/CLAUDE.md"];

/// Runs the instruction checks.
pub(super) fn check(lint: &Lint<'_>, out: &mut Out) {
    codex_budget(lint, out);
    for dir in lint.survey.dirs() {
        diverging(lint, dir, out);
    }
}

/// MP008: for Codex started in each directory that holds an AGENTS.md (or
/// an override), every file of its chain that the budget cuts or drops.
/// The same file met from several start directories gives the same
/// finding, which the report keeps once.
fn codex_budget(lint: &Lint<'_>, out: &mut Out) {
    let config = CodexConfig::default();
    for dir in lint.survey.dirs() {
        let holds_doc = [OVERRIDE_NAME, AGENTS_NAME]
            .iter()
            .any(|name| lint.survey.has_file(&join(dir, name)));
        if !holds_doc {
            continue;
        }
        let Ok(walked) = walk(None, lint.reader, dir) else {
            continue;
        };
        // No marker inside the workspace: its root stands for the project
        // root (a checkout copied without its `.git`).
        let root = find_root(&walked, &config.project_root_markers);
        // Lint reads to check, whatever the trust (never to inject).
        let docs = match root {
            Some(root) => project_docs(chain(&walked, Some(&root)), &config, true),
            None => project_docs(&walked, &config, true),
        };
        let budget = docs.budget;
        for part in &docs.parts {
            let Some(cut) = part.cut else { continue };
            let line = line_at(&part.content, part.content.len());
            out.add(
                Code::CodexBudget,
                &part.path,
                Some(line),
                vec![Agent::Codex],
                format!(
                    "Codex sends only the first {} of its {} bytes: the AGENTS.md chain may hold \
                     {budget} bytes (project_doc_max_bytes) and is cut here, on line {line}, \
                     without a word",
                    cut.kept,
                    cut.kept + cut.omitted
                ),
            );
        }
        for left in &docs.left_out {
            let message = match &left.reason {
                LeftOutReason::OverBudget { size } => format!(
                    "Codex drops this file ({size} bytes): the files above it in the AGENTS.md \
                     chain use up its {budget}-byte budget (project_doc_max_bytes), without a \
                     word"
                ),
                LeftOutReason::CutToBlank(cut) => format!(
                    "Codex drops this file: the {} bytes its {budget}-byte budget leaves are \
                     whitespace, and {} bytes are left out, without a word",
                    cut.kept, cut.omitted
                ),
                _ => continue,
            };
            out.add(
                Code::CodexBudget,
                &left.path,
                Some(1),
                vec![Agent::Codex],
                message,
            );
        }
    }
}

/// MP009: in `dir`, an AGENTS.md and a Claude Code file that neither
/// holds the same bytes nor imports the AGENTS.md (a link to AGENTS.md
/// reads the same bytes). A blank Claude Code file does not count: Claude
/// Code then falls back to AGENTS.md. A file whose whole text is the
/// relative path of another workspace file is named for what it most
/// likely is: a symbolic link checked out as a plain file (git's
/// `core.symlinks=false`, or a copy that lost the link).
fn diverging(lint: &Lint<'_>, dir: &str, out: &mut Out) {
    let agents_rel = join(dir, AGENTS_NAME);
    if !lint.survey.has_file(&agents_rel) {
        return;
    }
    let claude_files: Vec<String> = CLAUDE_FILES
        .iter()
        .map(|name| join(dir, name))
        .filter(|rel| lint.survey.has_file(rel))
        .collect();
    if claude_files.is_empty() {
        return;
    }
    let Some(agents) = lint.read(&agents_rel, out) else {
        return;
    };
    let all = || {
        let mut concerned = vec![Agent::Claude, Agent::Codex];
        if dir.is_empty() {
            concerned.push(Agent::Mecatl);
        }
        concerned
    };
    let others = if dir.is_empty() {
        "Codex and mecatl load"
    } else {
        "Codex loads"
    };
    let mut shown = Vec::new();
    for rel in &claude_files {
        let Some(text) = lint.read(rel, out) else {
            return;
        };
        if text == agents || imports_file(&text, rel, &agents_rel) {
            return;
        }
        if let Some(target) = link_text(lint, rel, &text) {
            let message = format!(
                "{} holds only the text `{target}`, a symbolic link checked out as a plain \
                 file: Claude Code loads those {} bytes here, {others} AGENTS.md ({} bytes)",
                base_name(rel),
                text.len(),
                agents.len()
            );
            out.add(Code::InstructionsDiverge, rel, Some(1), all(), message);
            return;
        }
        if !js_trim(split_frontmatter(&text).1).is_empty() {
            shown.push((rel, text.len()));
        }
    }
    let Some((first, _)) = shown.first() else {
        return;
    };
    let names: Vec<&str> = shown.iter().map(|(rel, _)| base_name(rel)).collect();
    let sizes: Vec<String> = shown
        .iter()
        .map(|(rel, bytes)| format!("{} ({bytes} bytes)", base_name(rel)))
        .collect();
    let message = match link_text(lint, &agents_rel, &agents) {
        Some(target) => format!(
            "AGENTS.md holds only the text `{target}`, a symbolic link checked out as a plain \
             file: {others} those {} bytes here, Claude Code loads {}",
            agents.len(),
            sizes.join(" and ")
        ),
        None => format!(
            "Claude Code loads {} here, {others} AGENTS.md ({} bytes): the files differ and {} \
             does not import AGENTS.md",
            sizes.join(" and "),
            agents.len(),
            names.join(" or ")
        ),
    };
    let at = if message.starts_with("AGENTS.md") {
        agents_rel.as_str()
    } else {
        first.as_str()
    };
    out.add(Code::InstructionsDiverge, at, Some(1), all(), message);
}

/// The text of the file `rel` when it is nothing but the relative path
/// of another file of the workspace (what a symbolic link checked out as
/// a plain file holds).
fn link_text(lint: &Lint<'_>, rel: &str, text: &str) -> Option<String> {
    let target = text.trim();
    if target.is_empty() || target.contains(char::is_whitespace) || target.starts_with('/') {
        return None;
    }
    let root = Path::new("/");
    let resolved = normalise(&root.join(parent(rel)).join(target));
    let resolved = resolved.strip_prefix(root).ok()?.to_str()?;
    let is_file = matches!(lint.reader.stat(resolved), Ok(EntryKind::File));
    (resolved != rel && is_file).then(|| target.to_string())
}

/// True when the Claude Code file `rel` (whose text is `text`) imports the
/// file `target` (both workspace-relative). The comparison is lexical, in
/// a tree rooted at `/` standing for the workspace; a `~/` import never
/// names a workspace file.
fn imports_file(text: &str, rel: &str, target: &str) -> bool {
    let root = Path::new("/");
    let dir = root.join(parent(rel));
    let target = root.join(target);
    scan(split_frontmatter(text).1).iter().any(|import| {
        import.form() == Form::Relative && normalise(&import.resolve(&dir, root)) == target
    })
}
