//! Gemini CLI's skills, as `lint` judges them (SPEC §16.7: MP013 and MP014
//! by Gemini's rules), over every `.gemini/skills` and `.agents/skills`
//! directory of the workspace, with the files Gemini looks at there
//! ([`skills::skill_files`]):
//! - MP013: a `name:` that is not the skill's directory. Gemini names the
//!   skill by `name:` (sanitised), never by its directory, so the name a
//!   user types differs from the folder they see.
//! - MP014 (error): no frontmatter with a string `name` and
//!   `description`: Gemini does not list the skill at all.
//!
//! Choices the spec leaves open:
//! - A `SKILL.md` directly in the skills directory has no directory name
//!   to differ from: only MP014 applies to it.
//! - MP013's line is the first `name:` line of the file; MP014's is 1.
//! - `.agents/skills` is shared with Codex: it is judged for Gemini only
//!   in a workspace written for Gemini too (a `GEMINI.md` or a `.gemini`
//!   directory anywhere), so a Codex-only repository gets no Gemini
//!   finding.

use crate::prompt::agents::gemini::skills::{self, SKILL_DIRS, SkillDir};
use crate::prompt::agents::gemini::spec::{DOT_GEMINI, GEMINI_MD};
use crate::prompt::lint::codes::{Code, Level};
use crate::prompt::lint::report::{Lint, Out, line_at, quote};
use crate::prompt::profile::Agent;
use crate::prompt::walk::Scope;
use crate::workspace::{base_name, join, parent};

/// MP013 and MP014 for every skill of the workspace's Gemini skill
/// directories.
pub(super) fn check(lint: &Lint<'_>, out: &mut Out) {
    let survey = &lint.survey;
    let written_for_gemini = survey.dirs_ending(DOT_GEMINI).next().is_some()
        || survey
            .dirs()
            .iter()
            .any(|dir| survey.has_file(&join(dir, GEMINI_MD)));
    for suffix in SKILL_DIRS {
        if !suffix.starts_with(DOT_GEMINI) && !written_for_gemini {
            continue;
        }
        for dir in lint.survey.dirs_ending(suffix) {
            let skill_dir = SkillDir {
                reader: lint.reader,
                rel: dir,
                scope: Scope::Project,
            };
            for file in skills::skill_files(&skill_dir, &mut out.diagnostics) {
                if let Some(text) = lint.read(&file, out) {
                    skill(&file, dir, &text, out);
                }
            }
        }
    }
}

/// MP013 or MP014 for the skill file `file` of the skills directory
/// `dir`.
fn skill(file: &str, dir: &str, text: &str, out: &mut Out) {
    let Some((name, _)) = skills::metadata(text) else {
        out.add_at(
            Level::Error,
            Code::SkillWithoutDescription,
            file,
            Some(1),
            vec![Agent::Gemini],
            "no frontmatter with a string `name` and `description`: Gemini CLI does not list \
             this skill",
        );
        return;
    };
    let folder = parent(file);
    if folder == dir {
        return;
    }
    let folder = base_name(folder);
    let listed = skills::sanitise(&name);
    if listed != folder {
        let line = text.find("name:").map(|at| line_at(text, at));
        out.add(
            Code::SkillNameMismatch,
            file,
            line,
            vec![Agent::Gemini],
            format!(
                "`name: {}` differs from the directory `{folder}`: Gemini CLI names the skill \
                 `{}`, not `{folder}`",
                quote(&name),
                quote(&listed)
            ),
        );
    }
}
