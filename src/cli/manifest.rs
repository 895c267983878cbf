//! The manifest of the assembled context (SPEC §2.9) that `snapshot`
//! prints and `check` compares against.
//!
//! The manifest holds hashes and sizes, never content, of what does not
//! depend on the Env: the stable prefix (built with an empty Env), the
//! turn-0 messages, the rules of the rules message and the invokable
//! commands. It is byte-identical across machines, days and checkout
//! locations for the same files:
//! - project files are named relative to the workspace, user files
//!   relative to the home directory (`~/…`);
//! - the Env flags (`--date`, `--cwd`, …) are accepted, so the same flags
//!   as for `build` can be passed, and ignored;
//! - the memory index and the user model are per-session state the agent
//!   writes as it works, and the memory's default directory is derived
//!   from the checkout's absolute path, so they are included only when
//!   `--memory-dir` / `--user-model-dir` name their directory;
//! - like `assemble`, it follows the run's trust: an untrusted run lists
//!   no project rules or commands, so snapshot and check with the same
//!   trust.
//!
//! `rules` lists the rules the rules message shows (after precedence,
//! trust and caps), each hashed as its rendered `<rule>` block; a rule's
//! `bytes` is that block's size. A command's hash is that of its file.
//!
//! Under an agent profile (SPEC §14.7) the manifest records the profile
//! and `at`, the messages the agent sends at start, one digest per part
//! (path, scope, kind, sha256, bytes), and the agent's own commands:
//! Claude Code's invocable commands and skills, Codex's skills (SPEC
//! §14.5, §14.6); the engine's prefix and rules are not the agent's and are
//! left out. A manifest written
//! before profiles existed (no `agent`) reads as a mecatl one.
//!
//! Choices the spec leaves open:
//! - A part above the workspace (scope `parent`) is named relative to the
//!   workspace (`../AGENTS.md`), so the manifest stays the same wherever
//!   the checkout sits below the directory holding it.

use std::path::Path;

use clap::Args;
use serde::{Deserialize, Serialize};

use crate::cli::args::ListingArgs;
use crate::cli::config::{PrefixArgs, SuffixArgs, prefix_config, sha256_hex};
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::cli::profile::{ProfileArgs, profile_turn0_and};
use crate::cli::sources::command_catalog;
use crate::cli::turn0::{Turn0Args, collect_turn0};
use crate::diagnostic::Diagnostic;
use crate::prompt::build::build;
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::{Agent, Part, PartKind, Scope};
use crate::prompt::rules::render_rule_block;
use crate::prompt::turn0::Provenance;

/// The schema tag of a manifest.
pub const SNAPSHOT_SCHEMA: &str = "mecatl-prompt/snapshot-v1";

/// The options that change the manifest's content, shared by `snapshot`
/// and `check`.
#[derive(Debug, Clone, Args)]
pub struct ContextArgs {
    /// Role, tone, safety and tools.
    #[command(flatten)]
    pub prefix: PrefixArgs,
    /// What the turn-0 messages contain.
    #[command(flatten)]
    pub turn0: Turn0Args,
    /// What sizes Claude Code's skills listing.
    #[command(flatten)]
    pub listing: ListingArgs,
    /// Env flags: accepted so `build`'s flags can be reused, and ignored.
    #[command(
        flatten,
        next_help_heading = "Accepted and ignored (they only change the Env)"
    )]
    pub ignored: SuffixArgs,
}

/// A size and a hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Digest {
    /// Lowercase hex SHA-256.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: usize,
}

impl Digest {
    fn of(text: &str) -> Self {
        Self {
            sha256: sha256_hex(text),
            bytes: text.len(),
        }
    }
}

/// One turn-0 message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct MessageDigest {
    /// Where the message came from.
    pub provenance: Provenance,
    /// Hash of the message text.
    pub sha256: String,
    /// Size of the message text.
    pub bytes: usize,
}

/// One rule shown in the rules message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct RuleDigest {
    /// The rule name.
    pub name: String,
    /// `project` or `user`.
    pub origin: String,
    /// The file, workspace-relative or `~/`-relative.
    pub source: String,
    /// Its globs; empty when unconditional.
    pub paths: Vec<String>,
    /// Hash of the rendered `<rule>` block.
    pub sha256: String,
    /// Size of the rendered block.
    pub bytes: usize,
}

/// One invokable command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct CommandDigest {
    /// The name, without the slash.
    pub name: String,
    /// The winning file, workspace-relative or `~/`-relative.
    pub source: String,
    /// Hash of the file's text.
    pub sha256: String,
}

/// One part of a profile's message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct PartDigest {
    /// The file: workspace-relative, `~/`-relative, or `../`-relative above
    /// the workspace.
    pub path: String,
    /// Where it lies.
    pub scope: Scope,
    /// What it is.
    pub kind: PartKind,
    /// Hash of the part's content as sent.
    pub sha256: String,
    /// Size of that content.
    pub bytes: usize,
}

/// The manifest `snapshot` prints and `check` reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Manifest {
    /// Always [`SNAPSHOT_SCHEMA`].
    #[cfg_attr(test, schemars(extend("const" = SNAPSHOT_SCHEMA)))]
    pub schema: String,
    /// The agent profile.
    #[serde(default = "mecatl")]
    pub agent: Agent,
    /// `--at` under a profile (`.` for the workspace root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The stable prefix (mecatl only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<Digest>,
    /// The turn-0 messages, in order.
    pub messages: Vec<MessageDigest>,
    /// The parts of the messages, in order (profiles only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<PartDigest>>,
    /// The rules of the rules message, in order (mecatl only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<RuleDigest>>,
    /// The invokable commands (under `claude` its commands and skills,
    /// under `codex` its skills), each with the hash of its file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commands: Option<Vec<CommandDigest>>,
}

/// The profile of a manifest that names none.
fn mecatl() -> Agent {
    Agent::Mecatl
}

/// `path` with the home directory replaced by `~`; other paths unchanged.
fn portable(ctx: &Context, path: &str) -> String {
    let Some(home) = ctx.locations.home.as_ref().filter(|h| h.is_absolute()) else {
        return path.to_string();
    };
    match Path::new(path).strip_prefix(home) {
        Ok(rest) => format!("~/{}", crate::workspace::slashed(rest)),
        _ => path.to_string(),
    }
}

/// The invokable entries of `catalog` with the hash of each file (the
/// engine's and Claude Code's commands and skills sorted by name, Codex's
/// skills in its order), whether any was withheld, and the diagnostics
/// met reading them.
fn command_digests(
    ctx: &Context,
    catalog: &dyn Catalog,
) -> Result<(Vec<CommandDigest>, bool, Vec<Diagnostic>), CliError> {
    let texts = catalog.texts()?;
    let digests = texts.texts.into_iter().map(|entry| CommandDigest {
        sha256: sha256_hex(&entry.text),
        source: portable(ctx, &entry.source),
        name: entry.name,
    });
    Ok((digests.collect(), texts.withheld, texts.diagnostics))
}

/// A part's path as the manifest names it: `~/` for the home directory,
/// `../` above the workspace, the part's own path otherwise.
fn portable_part_path(ctx: &Context, part: &Part) -> String {
    match part.scope {
        Scope::Parent => {
            let file = Path::new(&part.path);
            let below = file
                .parent()
                .and_then(|dir| ctx.workspace.strip_prefix(dir).ok());
            match (below, file.file_name()) {
                (Some(below), Some(name)) => format!(
                    "{}{}",
                    "../".repeat(below.components().count()),
                    name.to_string_lossy()
                ),
                _ => part.path.clone(),
            }
        }
        Scope::User | Scope::Managed => portable(ctx, &part.path),
        Scope::Project | Scope::Local => part.path.clone(),
    }
}

/// The manifest of an agent profile's turn 0, with its diagnostics.
fn profile_manifest(
    ctx: &Context,
    listing: &ListingArgs,
) -> Result<(Manifest, Vec<Diagnostic>), CliError> {
    let args = ProfileArgs {
        context_window: listing.context_window,
        ..ProfileArgs::default()
    };
    let (turn0, (commands, withheld, catalog_diagnostics)) =
        profile_turn0_and(ctx, ctx.agent, &args, |catalog| {
            command_digests(ctx, catalog)
        })?;
    let mut diagnostics = turn0.diagnostics.clone();
    diagnostics.extend(catalog_diagnostics);
    let notice = ctx.withheld_notice();
    if withheld && !diagnostics.contains(&notice) {
        diagnostics.push(notice);
    }
    let manifest = Manifest {
        schema: SNAPSHOT_SCHEMA.to_string(),
        agent: ctx.agent,
        at: Some(ctx.at_label().to_string()),
        prefix: None,
        messages: turn0
            .messages
            .iter()
            .map(|m| MessageDigest {
                provenance: m.provenance,
                sha256: sha256_hex(&m.text),
                bytes: m.text.len(),
            })
            .collect(),
        parts: Some(
            turn0
                .messages
                .iter()
                .flat_map(|m| &m.parts)
                .map(|part| PartDigest {
                    path: portable_part_path(ctx, part),
                    scope: part.scope,
                    kind: part.kind,
                    sha256: sha256_hex(&part.content),
                    bytes: part.content.len(),
                })
                .collect(),
        ),
        rules: None,
        commands: Some(commands),
    };
    Ok((manifest, diagnostics))
}

/// Builds the manifest the options describe, with the diagnostics met.
pub fn build_manifest(
    ctx: &Context,
    args: &ContextArgs,
) -> Result<(Manifest, Vec<Diagnostic>), CliError> {
    if ctx.agent != Agent::Mecatl {
        return profile_manifest(ctx, &args.listing);
    }
    let mut found = Vec::new();
    let config = prefix_config(ctx, &args.prefix, &mut found)?;
    let prefix = build(&config).stable_prefix;
    let turn0_args = Turn0Args {
        no_memory: args.turn0.no_memory || args.turn0.memory_dir.is_none(),
        no_user_model: args.turn0.no_user_model || args.turn0.user_model_dir.is_none(),
        ..args.turn0.clone()
    };
    let turn0 = collect_turn0(ctx, &turn0_args)?;
    let (commands, withheld_commands, catalog_diagnostics) =
        command_digests(ctx, &command_catalog(ctx, &[])?)?;
    found.extend(catalog_diagnostics);
    let manifest = Manifest {
        schema: SNAPSHOT_SCHEMA.to_string(),
        agent: Agent::Mecatl,
        at: None,
        prefix: Some(Digest::of(&prefix)),
        parts: None,
        messages: turn0
            .messages
            .iter()
            .map(|m| MessageDigest {
                provenance: m.provenance,
                sha256: sha256_hex(&m.message.text),
                bytes: m.message.text.len(),
            })
            .collect(),
        rules: Some(
            turn0
                .messages
                .iter()
                .flat_map(|m| &m.rules)
                .map(|shown| {
                    let block = render_rule_block(&shown.rule);
                    RuleDigest {
                        name: shown.rule.name.clone(),
                        origin: shown.rule.origin.as_str().to_string(),
                        source: shown
                            .source
                            .as_deref()
                            .map(|source| portable(ctx, source))
                            .unwrap_or_default(),
                        paths: shown.rule.paths.clone(),
                        sha256: sha256_hex(&block),
                        bytes: block.len(),
                    }
                })
                .collect(),
        ),
        commands: Some(commands),
    };
    // The turn-0 diagnostics already carry the context's own ones and, when
    // rules or the soul were withheld, the notice; withheld commands need it
    // too.
    let mut diagnostics = turn0.diagnostics;
    diagnostics.extend(found);
    let notice = ctx.withheld_notice();
    if withheld_commands && !diagnostics.contains(&notice) {
        diagnostics.push(notice);
    }
    Ok((manifest, diagnostics))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::output;

    #[test]
    fn a_manifest_round_trips_through_json() {
        let manifest = Manifest {
            schema: SNAPSHOT_SCHEMA.to_string(),
            agent: Agent::Mecatl,
            at: None,
            prefix: Some(Digest::of("p")),
            parts: None,
            messages: vec![MessageDigest {
                provenance: Provenance::Project,
                sha256: sha256_hex("m"),
                bytes: 1,
            }],
            rules: Some(vec![RuleDigest {
                name: "r".into(),
                origin: "user".into(),
                source: "~/.claude/rules/r.md".into(),
                paths: vec!["**/*.rs".into()],
                sha256: sha256_hex("b"),
                bytes: 1,
            }]),
            commands: Some(vec![CommandDigest {
                name: "c".into(),
                source: ".mecatl/commands/c.md".into(),
                sha256: sha256_hex("c"),
            }]),
        };
        let bytes = output::json_bytes(&manifest);
        let back: Manifest = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back, manifest);
    }
}
