//! The opencode profile (SPEC §18): the instruction files opencode 1.18.33
//! loads at turn 0 (§18.1) — the global file, the one name that wins the
//! walk, the `instructions` entries of its configs — its instructions
//! region, what reading a file adds (`--touch`, §18.2), its commands
//! (§18.3) and skills (§18.4). The recorded oracle cases in
//! `tests/oracle/cases/opencode/` and `opencode-commands/` are this
//! module's contract.
//!
//! How the pieces fit: [`config`] reads and merges the `instructions` of
//! opencode's configs; [`instructions::chain`] finds the walk's root (the
//! nearest `.git`, else `/`); [`instructions::load`] finds and reads the
//! files, matching the entries with [`glob`]; the run ([`run`]) makes
//! opencode's message of them and answers `--touch`. [`commands`] and
//! [`skills`] read the commands and skills, [`expand`] makes a command's
//! text of its arguments, and [`catalog`] answers the CLI about them;
//! [`subagents`] and [`mcp`] are the rest of turn 0 (SPEC §19.4, §19.7);
//! `lint` holds its lint checks (MP040–MP048).
//!
//! Choices the spec leaves open:
//! - The instructions are one `system`-role message (provenance
//!   `instructions`), one part per file; its `text` is exactly opencode's
//!   region, the blocks joined by `\n`; each part's `content` is the
//!   file's text, without the `Instructions from:` header.
//! - Files read lazily (`--touch`) are parts of the touch section; the
//!   `<system-reminder>` opencode wraps them in is named here
//!   ([`REMINDER_OPEN`], [`REMINDER_CLOSE`]: the parts' blocks joined by a
//!   blank line between them), since a touch section carries parts only.
//! - `OPENCODE_CONFIG_DIR` replaces the user's config directory when set
//!   and absolute (observed); otherwise it is `$XDG_CONFIG_HOME/opencode`,
//!   else `~/.config/opencode`.

pub mod catalog;
mod collate;
pub mod commands;
pub mod config;
pub mod expand;
pub mod glob;
pub mod instructions;
mod lint;
pub mod mcp;
mod run;
pub mod skills;
mod spec;
pub mod subagents;

pub use spec::{CONFIG_FILES, CONTEXT_MD, DOT_OPENCODE, SPEC};

use crate::prompt::lint::report::LintHooks;
use crate::prompt::profile::seam::{Profile, ProfileRun, ProfileSpec, Setup};

/// What opens each file's block in opencode's instructions region.
pub const INSTRUCTIONS_FROM: &str = "Instructions from: ";
/// What opens the files a read adds, appended to the read's result.
pub const REMINDER_OPEN: &str = "\n\n<system-reminder>\n";
/// What closes them.
pub const REMINDER_CLOSE: &str = "\n</system-reminder>";

/// opencode's registration.
pub struct Opencode;

impl Profile for Opencode {
    fn spec(&self) -> &'static ProfileSpec {
        &SPEC
    }

    fn open<'a>(&self, setup: &'a Setup<'a>) -> Box<dyn ProfileRun + 'a> {
        Box::new(run::OpencodeRun::new(setup))
    }

    fn lint(&self) -> Option<&'static dyn LintHooks> {
        Some(&lint::OpencodeLint)
    }
}

#[cfg(test)]
mod tests;
