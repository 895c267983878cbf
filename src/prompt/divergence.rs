//! Divergence warnings under the default profile (SPEC §15.2): without
//! `--agent` the preview stays the engine's, but says where a real agent
//! would see the same files differently, naming the file and the profile
//! that shows the difference. `lint` (SPEC §15.3) words the same facts as
//! findings from the same functions here: [`instructions`] (MP009),
//! [`ArgumentFates`] (MP010) and [`shell_fate`] (MP016).
//!
//! Choices the spec leaves open:
//! - **Where each warning shows.** AGENTS.md against CLAUDE.md: `assemble`
//!   (the one subcommand that sends the engine's instructions), when the
//!   engine sent AGENTS.md (not with `--no-instructions`, nor when it fell
//!   back to CLAUDE.md as Claude Code does), at the workspace root, the one
//!   directory the engine reads them from. Nested command directories: wherever the
//!   engine lists its command directories (`commands list`; completion
//!   prints no diagnostics), one warning per nested directory. Skills:
//!   `commands list`, one warning with their count. Unused arguments,
//!   `` !`cmd` `` and `@file`: `expand`, about the file it expanded.
//! - **Only Claude Code's own files.** The nested-directory warning is for
//!   the project's `.claude/commands`; a nested directory of
//!   `.mecatl/commands` or of a `--commands-dir` directory, which no agent
//!   reads, stays an info. Likewise `expand` warns only about a file of
//!   `.claude/commands`. Skills are those of the workspace root's
//!   `.claude/skills` (a directory holding `SKILL.md`, found by the
//!   engine's skill walk: one listing and one stat per directory).
//! - **Cost and trust.** The instruction files are read (up to
//!   [`limits::MAX_CLAUDE_FILE_BYTES`], the most Claude Code reads) only
//!   when AGENTS.md and a Claude Code file both exist; the engine reads
//!   instructions whatever the trust (SPEC §3.2), so the comparison does
//!   too. Skills and nested directories are listed, never read, as
//!   withheld commands are listed. `expand` looks only at what it
//!   expanded, which an untrusted workspace withholds.
//! - **`@file` and `` !`cmd` ``** are looked for in the engine's expansion
//!   (the arguments substituted), with Claude Code's detectors
//!   ([`claude_dialect::shell_commands`], [`mentions`]); each kind is one
//!   warning naming them all.
//! - **Divergence of instruction files** is per directory, between
//!   AGENTS.md and `CLAUDE.md` / `.claude/CLAUDE.md`: none when a Claude
//!   Code file holds the same bytes (a symbolic link to AGENTS.md reads
//!   so), imports AGENTS.md (`@AGENTS.md` plus Claude-only notes included:
//!   Claude Code then reads all Codex reads) or sends nothing (blank, or
//!   only frontmatter and comments: Claude Code falls back, as
//!   [`switches_fallback_off`] says); none either when AGENTS.md is blank (every agent then reads as
//!   if it were absent, and the engine falls back to CLAUDE.md). A file
//!   whose whole text is the path of another workspace file is named as a
//!   symbolic link checked out as a plain file.
//! - **Who is concerned** by AGENTS.md against CLAUDE.md: Claude Code and
//!   every profile that names AGENTS.md among its instruction files, where
//!   it reads them (every directory, or the workspace root only), read from
//!   the table of profiles the caller hands in (so this module, whose
//!   wording the agents' folders share, imports none of them).

use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::claude::{self, names, switches_fallback_off};
use crate::prompt::agents::copilot;
use crate::prompt::agents::files::AGENTS_MD;
use crate::prompt::command::claude_catalog::{PROJECT_SKILLS_DIR, SKILL_WORDS, defuse, mentions};
use crate::prompt::command::claude_dialect::{self, split_frontmatter};
use crate::prompt::command::{strip_frontmatter, substitute};
use crate::prompt::compare::divergence::subject;
use crate::prompt::imports::{Form, normalise, scan};
use crate::prompt::lint::report::quote;
use crate::prompt::profile::Agent;
use crate::prompt::profile::seam::{Profile, ProfileSpec};
use crate::prompt::text::{decode_lossy, js_trim};
use crate::prompt::tiers::{Layout, SearchDir, Tier, count_offered};
use crate::workspace::{EntryKind, Workspace, base_name, join, parent};

/// The project directory whose commands Claude Code reads.
pub use crate::prompt::command::claude_catalog::PROJECT_COMMANDS_DIR as CLAUDE_COMMANDS_DIR;

/// How every warning ends: the profile that shows the real thing.
pub const SEE_CLAUDE: &str = "run with --agent claude to see what Claude Code does";

/// A difference between what the agents load from one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The file to point at, workspace-relative.
    pub path: String,
    /// What each agent loads; one line.
    pub message: String,
    /// The agents whose view differs.
    pub agents: Vec<Agent>,
}

impl Divergence {
    /// The warning the default profile shows for it.
    pub fn warning(&self) -> Diagnostic {
        warning(&self.path, &self.message)
    }
}

/// A divergence warning: `message`, then [`SEE_CLAUDE`].
fn warning(path: &str, message: &str) -> Diagnostic {
    Diagnostic::warning(path, format!("{message}; {SEE_CLAUDE}"))
}

/// In `dir`, an AGENTS.md and a Claude Code file that neither holds the
/// same bytes nor imports the AGENTS.md (see the module docs), for Claude
/// Code and the agents of `profiles` that load AGENTS.md there
/// ([`loading_agents_md`]). `exists` says whether a file (or a link to one)
/// is there; `read` gives its text, `None` when it cannot be read (and
/// then nothing is said).
pub fn instructions(
    reader: &dyn Workspace,
    dir: &str,
    profiles: &[&dyn Profile],
    exists: &dyn Fn(&str) -> bool,
    read: &mut dyn FnMut(&str) -> Option<String>,
) -> Option<Divergence> {
    let agents_rel = join(dir, AGENTS_MD);
    let loading = loading_agents_md(reader, profiles, dir);
    if loading.is_empty() || !exists(&agents_rel) {
        return None;
    }
    let claude_files: Vec<String> = [names::CLAUDE_MD, names::DOT_CLAUDE_MD]
        .iter()
        .map(|name| join(dir, name))
        .filter(|rel| exists(rel))
        .collect();
    if claude_files.is_empty() {
        return None;
    }
    let agents = read(&agents_rel)?;
    if js_trim(&agents).is_empty() {
        return None;
    }
    let concerned: Vec<Agent> = std::iter::once(claude::SPEC.agent)
        .chain(loading.iter().map(|spec| spec.agent))
        .collect();
    let others = subject(&concerned[1..], "loads", "load");
    let found = |path: &str, message: String| Divergence {
        path: path.to_string(),
        message,
        agents: concerned.clone(),
    };
    let mut shown = Vec::new();
    for rel in &claude_files {
        let text = read(rel)?;
        if text == agents || imports_file(&text, rel, &agents_rel) {
            return None;
        }
        if let Some(target) = link_text(reader, rel, &text) {
            let message = format!(
                "{} holds only the text `{target}`, a symbolic link checked out as a plain \
                 file: Claude Code loads those {} bytes here, {others} AGENTS.md ({} bytes)",
                base_name(rel),
                text.len(),
                agents.len()
            );
            return Some(found(rel, message));
        }
        if switches_fallback_off(&text) {
            shown.push((rel, text.len()));
        }
    }
    let (first, _) = shown.first()?;
    let names: Vec<&str> = shown.iter().map(|(rel, _)| base_name(rel)).collect();
    let sizes: Vec<String> = shown
        .iter()
        .map(|(rel, bytes)| format!("{} ({bytes} bytes)", base_name(rel)))
        .collect();
    Some(match link_text(reader, &agents_rel, &agents) {
        Some(target) => found(
            &agents_rel,
            format!(
                "AGENTS.md holds only the text `{target}`, a symbolic link checked out as a \
                 plain file: {others} those {} bytes here, Claude Code loads {}",
                agents.len(),
                sizes.join(" and ")
            ),
        ),
        None => found(
            first,
            format!(
                "Claude Code loads {} here, {others} AGENTS.md ({} bytes): the files differ and \
                 {} does not import AGENTS.md",
                sizes.join(" and "),
                agents.len(),
                names.join(" or ")
            ),
        ),
    })
}

/// The agents of `profiles` other than Claude Code and GitHub Copilot CLI
/// (which sends both files) that load AGENTS.md in
/// `dir` (it is among their
/// [`instruction_names`](ProfileSpec::instruction_names)) and are default
/// agents of `reader` ([`ProfileSpec::is_default`] at its root, so an
/// agent whose files the workspace does not hold is not named): those that
/// read every directory of their walk first, then those that read only the
/// workspace root's, each in table order.
fn loading_agents_md(
    reader: &dyn Workspace,
    profiles: &[&dyn Profile],
    dir: &str,
) -> Vec<&'static ProfileSpec> {
    let mut loading: Vec<&ProfileSpec> = profiles
        .iter()
        .map(|profile| profile.spec())
        .filter(|spec| spec.agent != claude::SPEC.agent)
        .filter(|spec| spec.is_default(reader, ""))
        // Copilot sends AGENTS.md and CLAUDE.md both: it picks neither.
        .filter(|spec| spec.agent != copilot::SPEC.agent)
        .filter(|spec| spec.instruction_names.contains(&AGENTS_MD))
        .filter(|spec| dir.is_empty() || spec.nested_instructions)
        .collect();
    loading.sort_by_key(|spec| !spec.nested_instructions);
    loading
}

/// The warning for the workspace root's instruction files under the
/// default profile ([`instructions`] at `""`, for `profiles`): each file
/// is stat'ed, and read up to [`limits::MAX_CLAUDE_FILE_BYTES`] only when
/// both kinds exist.
pub fn root_instructions_warning(
    reader: &dyn Workspace,
    profiles: &[&dyn Profile],
) -> Option<Diagnostic> {
    let exists = |rel: &str| matches!(reader.stat(rel), Ok(EntryKind::File));
    let mut read = |rel: &str| {
        reader
            .read(rel, limits::MAX_CLAUDE_FILE_BYTES)
            .ok()
            .map(|read| decode_lossy(&read.bytes).into_owned())
    };
    instructions(reader, "", profiles, &exists, &mut read).map(|found| found.warning())
}

/// The text of the file `rel` when it is nothing but the relative path
/// of another file of the workspace (what a symbolic link checked out as
/// a plain file holds).
fn link_text(reader: &dyn Workspace, rel: &str, text: &str) -> Option<String> {
    let target = text.trim();
    if target.is_empty() || target.contains(char::is_whitespace) || target.starts_with('/') {
        return None;
    }
    let root = Path::new("/");
    let resolved = normalise(&root.join(parent(rel)).join(target));
    let resolved = crate::workspace::slashed(resolved.strip_prefix(root).ok()?);
    let is_file = matches!(reader.stat(&resolved), Ok(EntryKind::File));
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

/// What each dialect does with arguments given to a command file whose
/// template may not place them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgumentFates {
    /// Claude Code finds no placeholder and appends `ARGUMENTS: …`.
    pub claude_appends: bool,
    /// The engine's template has no placeholder and drops them.
    pub mecatl_drops: bool,
}

impl ArgumentFates {
    /// The fates for the command file `raw` (frontmatter included).
    pub fn of(raw: &str) -> Self {
        let names = claude_dialect::read_frontmatter(raw).argument_names();
        let body = strip_frontmatter(raw);
        Self {
            claude_appends: !claude_dialect::uses_arguments(raw, &names),
            mecatl_drops: substitute(body, &[]) == body,
        }
    }

    /// What becomes of the arguments, in words, for the agents that read
    /// the file (`mecatl` false: only Claude Code does); `None` when both
    /// place them.
    pub fn describe(self, mecatl: bool) -> Option<&'static str> {
        match (self.claude_appends, mecatl && self.mecatl_drops) {
            (true, true) => Some(
                "Claude Code appends the arguments after the body as `ARGUMENTS: …`, and mecatl \
                 drops them",
            ),
            (true, false) => {
                Some("Claude Code appends the arguments after the body as `ARGUMENTS: …`")
            }
            (false, true) => Some("mecatl drops the arguments (Claude Code places them)"),
            (false, false) => None,
        }
    }
}

/// What becomes of the shell commands `quoted` (each already quoted for a
/// message) when their file is invoked.
pub fn shell_fate(quoted: &[String]) -> String {
    let list: Vec<String> = quoted.iter().map(|c| format!("`{c}`")).collect();
    let (its, they) = if quoted.len() == 1 {
        ("its output", "the command")
    } else {
        ("their output", "the commands")
    };
    format!(
        "runs {} when invoked: Claude Code sends {its}, mecatl and the preview send {they} as \
         written",
        list.join(", ")
    )
}

/// The warnings for the engine's expansion of the command file `source`
/// (of the project's `.claude/commands`): `raw` is the file, `args` the
/// arguments given, `output` the expansion. Arguments the template does
/// not place, shell commands Claude Code would run, and files it would
/// attach.
pub fn expansion_warnings(
    source: &str,
    raw: &str,
    args: &[String],
    output: &str,
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let fates = ArgumentFates::of(raw);
    if !args.is_empty()
        && let Some(fate) = fates.describe(true)
    {
        found.push(warning(
            source,
            &format!("the template places none of the arguments given: {fate}"),
        ));
    }
    let defused = defuse(output);
    if !defused.commands.is_empty() {
        let quoted: Vec<String> = defused
            .commands
            .iter()
            .map(|shell| quote(&shell.command))
            .collect();
        found.push(warning(source, &shell_fate(&quoted)));
    }
    let attached = mentions(&defused.without_commands);
    if !attached.is_empty() {
        let list: Vec<String> = attached
            .iter()
            .map(|p| format!("`@{}`", quote(p)))
            .collect();
        let them = if attached.len() == 1 {
            "the file"
        } else {
            "the files"
        };
        found.push(warning(
            source,
            &format!(
                "the expansion mentions {}: Claude Code attaches {them} before the message, \
                 mecatl sends the text only",
                list.join(", ")
            ),
        ));
    }
    found
}

/// The warning for a nested directory `shown` (named `name`) of the
/// project's `.claude/commands` holding `stems.len()` `.md` files: the
/// engine reads none, Claude Code offers them as `/name:stem`.
pub fn nested_commands_warning(shown: &str, name: &str, stems: &[String]) -> Diagnostic {
    let examples: Vec<String> = stems
        .iter()
        .take(limits::DIVERGENCE_EXAMPLES)
        .map(|stem| format!("/{name}:{stem}"))
        .collect();
    let more = if stems.len() > examples.len() {
        ", …"
    } else {
        ""
    };
    warning(
        shown,
        &format!(
            "nested directory not read under the mecatl profile: Claude Code offers its {} .md \
             file(s) as /{name}:NAME ({}{more})",
            stems.len(),
            examples.join(", ")
        ),
    )
}

/// The warning for `count` skills in the skills directory `shown`: the
/// engine has no skills, Claude Code lists them to the model and offers
/// them as commands.
fn skills_warning(shown: &str, count: usize) -> Diagnostic {
    warning(
        shown,
        &format!(
            "{count} skill(s) here are not read under the mecatl profile: Claude Code lists \
             them to the model and offers them as /NAME"
        ),
    )
}

/// The warning for the skills of the workspace root's `.claude/skills`
/// (the directories holding a `SKILL.md`, found by the engine's skill walk
/// without reading one); `None` when there are none.
pub fn root_skills_warning(reader: Arc<dyn Workspace + '_>) -> Option<Diagnostic> {
    let dir =
        SearchDir::flat(reader, PROJECT_SKILLS_DIR, Tier::Project).with_layout(Layout::SkillDirs);
    let count = count_offered(&dir, &SKILL_WORDS);
    (count > 0).then(|| skills_warning(&dir.display(&dir.dir), count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::MemWorkspace;

    #[test]
    fn nested_commands_name_a_few_examples_and_count_the_rest() {
        let stems: Vec<String> = ["a", "b", "c", "d:e"].map(String::from).to_vec();
        let warned = nested_commands_warning(".claude/commands/ns", "ns", &stems);
        assert_eq!(
            warned.reason,
            format!(
                "nested directory not read under the mecatl profile: Claude Code offers its 4 \
                 .md file(s) as /ns:NAME (/ns:a, /ns:b, /ns:c, …); {SEE_CLAUDE}"
            )
        );
        let two = nested_commands_warning("n", "ns", &stems[..2]);
        assert!(two.reason.contains("(/ns:a, /ns:b); "), "{}", two.reason);
    }

    #[test]
    fn shell_fates_agree_in_number() {
        assert!(shell_fate(&["ls".into()]).contains("sends its output"));
        assert!(shell_fate(&["ls".into(), "pwd".into()]).contains("`ls`, `pwd`"));
        assert!(shell_fate(&["ls".into(), "pwd".into()]).contains("the commands as written"));
    }

    #[test]
    fn skills_are_directories_holding_skill_md() {
        let ws = MemWorkspace::new()
            .file(".claude/skills/a/SKILL.md", "a")
            .file(".claude/skills/b/notes.md", "b")
            .file(".claude/skills/top.md", "t");
        let warned = root_skills_warning(Arc::new(ws)).expect("one skill");
        assert_eq!(warned.path.as_deref(), Some(".claude/skills"));
        assert!(warned.reason.starts_with("1 skill(s) here"));
        assert_eq!(root_skills_warning(Arc::new(MemWorkspace::new())), None);
    }

    #[test]
    fn arguments_fates_follow_each_dialect() {
        let none = ArgumentFates::of("Fix it.\n");
        assert!(none.claude_appends && none.mecatl_drops);
        let placed = ArgumentFates::of("Fix $ARGUMENTS.\n");
        assert!(!placed.claude_appends && !placed.mecatl_drops);
        assert_eq!(placed.describe(true), None);
        let named = ArgumentFates::of("---\narguments: [file]\n---\nFix $file.\n");
        assert!(!named.claude_appends);
    }
}
