//! What reading a file adds (SPEC §14.3, `--touch PATH`), as observed
//! (`tests/oracle/cases/claude-instructions/lazy-*`):
//! 1. per directory from below the cwd down to the file's directory, top
//!    first: `CLAUDE.md` with its imports, `.claude/CLAUDE.md`,
//!    `CLAUDE.local.md`, then the directory's rules (never an `AGENTS.md`);
//! 2. the conditional rules whose patterns match the file, the user's
//!    first, then the nearest directory's before those further up, each
//!    group in listing order; a rule's imports already loaded are not sent
//!    again.
//!
//! A file outside the cwd adds nothing. Each directory and each rule is
//! added once across all touched paths.

use std::cmp::Reverse;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::prompt::agents::claude::assembly::Assembly;
use crate::prompt::imports::normalise;
use crate::prompt::profile::{Part, PartKind, Scope, Touched};
use crate::prompt::walk::WalkDir;
use crate::workspace::join;

/// What reading `path` (workspace-relative) adds, given the walk `dirs` of
/// the start-up.
pub(crate) fn touch<'a>(
    assembly: &mut Assembly<'_, 'a>,
    dirs: &[WalkDir<'a>],
    path: &str,
) -> Touched {
    let abs = normalise(&assembly.workspace().join(path));
    let rel = match abs.strip_prefix(assembly.workspace()) {
        Ok(inside) => crate::workspace::slashed(inside),
        Err(_) => path.to_string(),
    };
    let mut parts = Vec::new();
    let below = match abs.strip_prefix(assembly.cwd()) {
        Ok(below) if !below.as_os_str().is_empty() => below.to_path_buf(),
        _ => {
            assembly.diagnose(Diagnostic::info(
                &rel,
                "not below the cwd: Claude Code adds nothing when it reads it",
            ));
            return Touched { path: rel, parts };
        }
    };
    if let Some(cwd) = dirs.last() {
        let mut dir = cwd.dir.clone();
        let names: Vec<String> = below
            .parent()
            .into_iter()
            .flat_map(Path::components)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        for name in names {
            dir = join(&dir, &name);
            let nested = WalkDir {
                reader: cwd.reader,
                dir: dir.clone(),
                scope: cwd.scope,
            };
            if assembly.first_visit(&nested) {
                assembly.load_lazy_dir(&nested, &mut parts);
            }
        }
    }
    activate(assembly, &abs, &mut parts);
    Touched { path: rel, parts }
}

/// Loads every conditional rule not loaded yet whose patterns match the
/// file at `abs`: the user's first, then from the nearest base up.
fn activate(assembly: &mut Assembly<'_, '_>, abs: &Path, out: &mut Vec<Part>) {
    let mut rules = std::mem::take(&mut assembly.conditional);
    let mut order: Vec<usize> = (0..rules.len()).filter(|&i| !rules[i].active).collect();
    order.sort_by_key(|&i| {
        let rule = &rules[i];
        (
            rule.source.scope != Scope::User,
            Reverse(rule.base.components().count()),
        )
    });
    for index in order {
        let rule = &mut rules[index];
        let Ok(relative) = abs.strip_prefix(&rule.base) else {
            continue;
        };
        if !rule.paths.matches(&crate::workspace::slashed(relative)) {
            continue;
        }
        rule.active = true;
        // A rule loaded already (an import of it, say) is listed by
        // `load_text`; nothing else to do.
        let _ = assembly.load_text(
            &rule.source,
            &rule.path,
            &rule.text,
            PartKind::Rule,
            None,
            out,
        );
    }
    assembly.conditional = rules;
}
