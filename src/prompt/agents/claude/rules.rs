//! Claude Code's rules (SPEC §14.3): every `.md` file below a rules
//! directory, in the order the directory listing returns them (Claude Code
//! does not sort; [`walk_tree_following_links`]), recursion where a
//! subdirectory — or a link to one, each real directory once — appears; a
//! rule is named by its real path. A rule without `paths:` (or whose patterns are
//! only `**`) loads at start; a conditional one does not, but its imports
//! do, at its position (observed: `conditional-rule-imports`), and it loads
//! when a matching file is read (`--touch`).

use std::path::PathBuf;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::claude::assembly::{Assembly, Conditional, Importer, origin_of};
use crate::prompt::agents::claude::names;
use crate::prompt::agents::claude::paths::{Activation, RulePaths};
use crate::prompt::agents::claude::read::{Read, Source};
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::markdown::claude_content;
use crate::prompt::profile::{NotLoadedReason, Part, PartKind, ProfileRule, RuleLoad, Scope};
use crate::prompt::rules::frontmatter::claude_rule_paths;
use crate::prompt::tiers::walk_tree_following_links;
use crate::prompt::walk::WalkDir;
use crate::workspace::Workspace;

/// One rules tree to read: where it is and what its patterns are relative
/// to.
pub(crate) struct RulesTree<'a> {
    reader: &'a dyn Workspace,
    /// The tree's root, relative to the reader's root.
    rel: String,
    /// The directory its rules' patterns are relative to: the directory
    /// holding `.claude` for a walk directory's rules, the cwd for the
    /// user's.
    base: PathBuf,
    scope: Scope,
}

impl<'a> RulesTree<'a> {
    /// The `.claude/rules` tree of a walk directory.
    pub(crate) fn walk(dir: &WalkDir<'a>) -> Self {
        Self {
            reader: dir.reader,
            rel: dir.rel(names::RULES_DIR),
            base: dir.absolute(""),
            scope: dir.scope,
        }
    }

    /// The user's rules tree `rel` of `reader`, patterns relative to `cwd`.
    pub(crate) fn user(reader: &'a dyn Workspace, rel: &str, cwd: PathBuf) -> Self {
        Self {
            reader,
            rel: rel.to_string(),
            base: cwd,
            scope: Scope::User,
        }
    }
}

impl<'a> Assembly<'_, 'a> {
    /// Reads one rules tree in listing order: unconditional rules become
    /// parts (with their imports), conditional ones contribute their
    /// imports and are kept for `--touch`.
    pub(crate) fn load_rules(&mut self, tree: &RulesTree<'a>, out: &mut Vec<Part>) {
        let found = walk_tree_following_links(tree.reader, &tree.rel);
        if found.cut {
            let shown = self.shown(tree.scope, &super::absolute(tree.reader, &tree.rel));
            self.diagnose(Diagnostic::warning(
                shown,
                format!(
                    "rules deeper than {} levels or past {} entries are not read",
                    limits::MAX_TREE_DEPTH,
                    limits::MAX_TREE_ENTRIES
                ),
            ));
        }
        for rel in found.files.into_iter().filter(|f| f.ends_with(".md")) {
            // Claude Code names a rule by its real path (a rule reached
            // through a link shows where it lives; observed:
            // `rules-symlinks`), and its imports resolve from there.
            let abs = match tree.reader.real_path(&rel) {
                Ok(real) => self.named(&real),
                Err(_) => super::absolute(tree.reader, &rel),
            };
            let source = Source {
                reader: tree.reader,
                abs,
                rel,
                scope: tree.scope,
                depth: 0,
            };
            let path = self.shown(tree.scope, &source.abs);
            let (loads, paths, bytes) = self.load_rule(tree, source, &path, out);
            self.note_rule(ProfileRule {
                path,
                scope: tree.scope,
                paths,
                loads,
                bytes,
            });
        }
    }

    /// Loads one rule file: how it loads, its patterns, and its size as
    /// sent when it loads at start.
    fn load_rule(
        &mut self,
        tree: &RulesTree<'a>,
        source: Source<'a>,
        path: &str,
        out: &mut Vec<Part>,
    ) -> (RuleLoad, Vec<String>, Option<usize>) {
        if self.gated(tree.scope) {
            self.skip(tree.scope, path.to_string(), NotLoadedReason::Withheld, "");
            return (
                RuleLoad::Skipped(NotLoadedReason::Withheld),
                Vec::new(),
                None,
            );
        }
        let read = Read::of(source.reader, &source.rel);
        let skipped = read.reason();
        let Some(text) = self.text_of(&source, path, read, None) else {
            let reason = skipped.unwrap_or(NotLoadedReason::Missing);
            return (RuleLoad::Skipped(reason), Vec::new(), None);
        };
        let patterns = match split_frontmatter(&text).0 {
            Some(front) => {
                let (patterns, problem) = claude_rule_paths(front);
                if let Some(problem) = problem {
                    self.diagnose(Diagnostic::warning(
                        path,
                        format!("{problem}; read again the way Claude Code reads such a block"),
                    ));
                }
                patterns
            }
            None => Vec::new(),
        };
        let patterns = match Activation::of(&patterns) {
            Activation::Always => {
                let at = out.len();
                return match self.load_text(&source, path, &text, PartKind::Rule, None, out) {
                    // The rule's part comes first, its imports after it.
                    Ok(()) => (
                        RuleLoad::Start,
                        Vec::new(),
                        out.get(at).map(|part| part.content.len()),
                    ),
                    Err(reason) => (RuleLoad::Skipped(reason), Vec::new(), None),
                };
            }
            Activation::When(patterns) => patterns,
        };
        if claude_content(&text).is_none() {
            self.skip(
                tree.scope,
                path.to_string(),
                NotLoadedReason::Blank,
                "nothing is left once frontmatter, comments and whitespace are removed",
            );
            return (RuleLoad::Skipped(NotLoadedReason::Blank), patterns, None);
        }
        let compiled = RulePaths::new(&patterns);
        for error in compiled.errors() {
            self.diagnose(Diagnostic::warning(
                path,
                format!(
                    "paths pattern {:?} does not compile ({}); it matches nothing",
                    error.pattern, error.reason
                ),
            ));
        }
        self.skip(
            tree.scope,
            path.to_string(),
            NotLoadedReason::Conditional,
            &format!("paths: {}", patterns.join(", ")),
        );
        let importer = Importer {
            abs: &source.abs,
            scope: tree.scope,
            origin: origin_of(tree.scope),
            shown: path,
        };
        self.expand(importer, &text, 0, out);
        self.conditional.push(Conditional {
            path: path.to_string(),
            source,
            text,
            paths: compiled,
            base: tree.base.clone(),
            active: false,
        });
        (RuleLoad::Lazy, patterns, None)
    }
}
