//! What `lint` asks of the engine (SPEC §15.3): the rule and command
//! directories it reads at the workspace root, files directly in them
//! (SPEC §3.2, §5.5), and its reading of a rule's frontmatter (an invalid
//! block drops the rule). It has no checks of its own.

use crate::prompt::command::DEFAULT_COMMAND_DIRS;
use crate::prompt::lint::report::{
    BlockError, Doc, DocKind, DocSource, Effect, LintHooks, SourceKind,
};
use crate::prompt::rules::files::PROJECT_RULE_DIRS;
use crate::prompt::rules::frontmatter::{FrontmatterProblem, parse_paths, split};
use crate::prompt::tiers::Layout;

use super::SPEC;

/// A directory the engine reads at the workspace root only.
const fn at_root(dir: &'static str, kind: SourceKind) -> DocSource {
    DocSource {
        dir,
        kind,
        layout: Layout::Flat,
        root_only: true,
    }
}

/// The engine's rule and command directories.
const SOURCES: [DocSource; 4] = [
    at_root(PROJECT_RULE_DIRS[0], SourceKind::Rules),
    at_root(PROJECT_RULE_DIRS[1], SourceKind::Rules),
    at_root(DEFAULT_COMMAND_DIRS[0], SourceKind::Commands),
    at_root(DEFAULT_COMMAND_DIRS[1], SourceKind::Commands),
];

/// The engine's hooks.
pub(super) struct MecatlLint;

impl LintHooks for MecatlLint {
    fn sources(&self) -> &'static [DocSource] {
        &SOURCES
    }

    /// A rule whose block is not valid YAML is dropped.
    fn frontmatter(&self, doc: &Doc) -> Option<(BlockError, Effect)> {
        if doc.kind != DocKind::Rule {
            return None;
        }
        let front = split(doc.text.as_bytes()).front?;
        let err = parse_paths(&front).err()?;
        let FrontmatterProblem::Yaml(problem) = err.problem else {
            return None;
        };
        let at = BlockError {
            line: err.line,
            column: err.column,
            problem,
        };
        let effect = Effect {
            agent: SPEC.agent,
            words: "mecatl drops the rule",
            loses: true,
        };
        Some((at, effect))
    }

    /// A command's block after a byte-order mark is lost (SPEC §5.3); the
    /// rules' reader skips the mark.
    fn loses_block_after_bom(&self, kind: &DocKind) -> bool {
        matches!(kind, DocKind::Command(_))
    }
}
