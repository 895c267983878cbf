//! What `lint` asks of Gemini CLI (SPEC §16.7): its own checks, one call
//! per concern:
//! - its `.toml` commands ([`super::command_lint`]: MP016, MP017, MP018,
//!   MP023);
//! - a repository's `system.md` ([`super::system::lint`]: MP024);
//! - its skills ([`skills`]: MP013, MP014);
//! - the workspace's context files and settings ([`context`]):
//!   `context.fileName` naming no file (MP019), GEMINI.md against the
//!   AGENTS.md or CLAUDE.md beside it (MP020), files that load only below
//!   the start directory (MP021), and the `@imports` of its context files
//!   as Gemini inlines them (MP004–MP007, MP022);
//! - the servers of every `.gemini/settings.json` (MP027).

mod context;
mod imports;
mod skills;

use crate::prompt::agents::gemini::settings::{self, SETTINGS_FILE};
use crate::prompt::agents::gemini::spec::DOT_GEMINI;
use crate::prompt::lint::report::{Doc, Lint, LintHooks, Out};
use crate::prompt::lint::servers;
use crate::prompt::profile::Agent;
use crate::workspace::join;

/// Gemini CLI's hooks.
pub(super) struct GeminiLint;

impl LintHooks for GeminiLint {
    fn check(&self, lint: &Lint<'_>, _docs: &[Doc], out: &mut Out) {
        super::command_lint::check(lint, out);
        super::system::lint(lint, out);
        skills::check(lint, out);
        context::check(lint, out);
        mcp_servers(lint, out);
    }
}

/// MP027 for the servers of every `.gemini/settings.json` of the
/// workspace.
fn mcp_servers(lint: &Lint<'_>, out: &mut Out) {
    for dir in lint.survey.dirs_ending(DOT_GEMINI) {
        let rel = join(dir, SETTINGS_FILE);
        if !lint.survey.has_file(&rel) {
            continue;
        }
        // A malformed file is `assemble`'s warning, not a finding.
        if let Some(read) = settings::read(lint.reader, &rel) {
            let servers = read.mcp.servers.iter().map(|(name, value)| (name, value));
            let agent = (Agent::Gemini, "Gemini CLI");
            servers::project_servers(out, &rel, servers, &super::mcp::KEYS, agent);
        }
    }
}

#[cfg(test)]
mod tests;
