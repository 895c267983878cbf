//! Claude Code's commands and skills (SPEC §14.5) on the one precedence
//! engine ([`crate::prompt::tiers`]): where they are found, which file
//! provides a name, what the skills listing shows the model, and what a
//! typed `/name arguments` line expands to — as observed from Claude Code
//! 2.1.328 (`tests/oracle/cases/claude-commands/`, whose README lists the
//! observations).
//!
//! - `dirs.rs`: the search directories in precedence order: skills
//!   (`$CLAUDE_CONFIG_DIR/skills`, then `.claude/skills` of the start
//!   directory and of each ancestor inside the workspace) before commands
//!   (the same places' `commands`, nested, `git/commit.md` → `git:commit`).
//!   One kind ([`ClaudeFiles`]) reads both layouts, each directory
//!   reported in its own words.
//! - `files.rs`: one file as read, its frontmatter read the way Claude Code
//!   reads it (YAML, else re-quoted YAML, else no keys).
//! - `resolve.rs`: every entry with its fate (listings, completion), one
//!   name resolved (expansion, `explain`), a skill's `name:` as a second
//!   name.
//! - `listing.rs`: the skills listing message, grouped, sorted and fitted
//!   with [`super::claude_listing`].
//! - `expand.rs` and `injections.rs`: the expansion, rendered with
//!   [`super::claude_dialect`], its shell commands replaced by placeholders
//!   and its `@path` mentions reported, never run nor read.
//!
//! Where the recorded cases differ from SPEC §14.5, the cases win:
//! - The listing puts every command in **one** group after the skills,
//!   user and project commands sorted together (SPEC: project commands,
//!   then user commands).
//! - A skill's `name:` key is a second name: `/othername` invokes skill
//!   `dirname` (SPEC: "it does not rename the skill"; it does not, but it
//!   does alias it). A file's own name beats such a key
//!   (`skill-alias-vs-command`), and a command's `name:` does nothing
//!   (`command-name-key`).
//! - `` !`cmd` `` runs only at the start of a word (`bang-word-start`), and
//!   a fenced ```` ```! ```` block runs too (`bang-command`).
//! - `@path` mentions follow Claude Code's word rules (`at-file-forms`):
//!   trailing punctuation dropped, `(@x)` and `x@y` not mentions,
//!   `@"quoted path"` first, a directory attached as its listing, a
//!   `#fragment` dropped, and a file outside the workspace attached too
//!   (which the preview never reads).
//!
//! Choices the spec leaves open, made here:
//! - **Scope of ancestors.** Ancestors are searched up to the workspace
//!   root only; the directories above it are not (SPEC §14.5 says "inside
//!   the workspace").
//! - **Claude Code's own listing entries** count against the budget as the
//!   recordings show: [`CLAUDE_OWN_ENTRIES`] reserves what Claude Code
//!   2.1.328 sent (13 entries, 6,196 columns), so a preview's shrinking
//!   matches Claude Code's for that version. `--help` says the preview does
//!   not list them.
//! - **Which entries keep their description** over budget: listing order
//!   (Claude Code prefers the ones the user invoked most, which the
//!   preview cannot know).
//! - **Shadowed entries** are read only to see whether they are usable, so
//!   listings show them without a description.
//! - **`user-invocable: false`**: listed for the model; `expand` does not
//!   expand it (Claude Code sends nothing) and says why.
//! - **Alias ties**: among skills declaring the same `name:`, the first in
//!   precedence order, then name order, wins.
//! - **Attachments** resolve against the start directory and are looked at
//!   only through the confined workspace reader and only when the
//!   workspace is trusted; their size is reported, their content never
//!   read.

mod dirs;
mod expand;
mod files;
mod injections;
mod listing;
mod resolve;

pub use dirs::{
    PROJECT_COMMANDS_DIR, PROJECT_SKILLS_DIR, SKILL_WORDS, claude_dirs, claude_dirs_on,
};
pub use expand::{
    Attachment, AttachmentStatus, ClaudeExpansion, ExpandEnv, attachment, expand_claude,
};
pub use files::{ClaudeFile, ClaudeFiles, value_text};
pub use injections::{Defused, Placeholder, defuse, mentions, placeholder};
pub use listing::{CLAUDE_OWN_ENTRIES, ListedSkill, SkillsListing, skills_listing};
pub use resolve::{
    Alias, ClaudeEntry, ClaudeInvocation, ClaudeListing, ClaudeResolution, alias_note, alias_of,
    cannot_invoke_claude, list_claude, parse_claude_invocation, resolve_claude, valid_claude_name,
};

#[cfg(test)]
mod tests;
