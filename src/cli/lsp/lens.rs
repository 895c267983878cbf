//! Code lenses and their command (SPEC §21.1): on a file that is a row of
//! `compare` (instruction files, imports, rules), one lens per agent whose
//! cell is not `—`, from one run of `compare --agents …` over the overlay;
//! the lens runs `explain --agent AGENT PATH`, whose JSON document is the
//! command's result.
//!
//! Choices the spec leaves open:
//! - Tokens: the estimate of the cell's bytes for an estimating agent; for
//!   one that counts exactly (Codex), the count of the file's first bytes
//!   as read through the overlay, as many as the cell says it loads.
//! - A cell the spec names no title for (`offered`, `touch`, `duplicate`,
//!   …) reads `Agent: STATE`, with the cell's reason in parentheses when it
//!   has one.
//! - The command's `path` is workspace-relative; it is explained in the
//!   first folder holding a file there (an absolute path: the innermost
//!   folder holding it).

use std::path::Path;

use serde_json::{Value, json};

use super::folders::{Folder, innermost};
use super::{EXPLAIN_COMMAND, cli_json};
use crate::cli::context::Context;
use crate::prompt::compare::divergence::grouped;
use crate::prompt::profile::Agent;
use crate::prompt::tokens::{Tokenizer, estimate};

/// The lenses of workspace-relative `rel` in `ctx`'s folder.
pub(super) fn lenses(ctx: &mut Context, agents: &[Agent], rel: &str) -> Value {
    let names: Vec<&str> = agents.iter().map(|a| a.as_str()).collect();
    let list = names.join(",");
    let comparison = match cli_json(ctx, &["compare", "--agents", &list]) {
        Ok(comparison) => comparison,
        Err(err) => {
            eprintln!("mecatl-prompt lsp: compare: {err}");
            return json!([]);
        }
    };
    let row = comparison
        .get("files")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|row| row.get("path").and_then(Value::as_str) == Some(rel));
    let Some(row) = row else {
        return json!([]);
    };
    let lenses: Vec<Value> = agents
        .iter()
        .filter_map(|&agent| {
            let cell = row.pointer(&format!("/per_agent/{}", agent.as_str()))?;
            let title = title(ctx, agent, rel, cell)?;
            Some(json!({
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "command": {
                    "title": title,
                    "command": EXPLAIN_COMMAND,
                    "arguments": [{"path": rel, "agent": agent.as_str()}],
                },
            }))
        })
        .collect();
    Value::Array(lenses)
}

/// A cell's lens title; `None` for `—`.
fn title(ctx: &Context, agent: Agent, rel: &str, cell: &Value) -> Option<String> {
    let name = agent.title();
    let state = cell.get("state").and_then(Value::as_str).unwrap_or("none");
    let reason = cell.get("reason").and_then(Value::as_str).unwrap_or("");
    let bytes = cell.get("bytes").and_then(Value::as_u64).unwrap_or(0);
    let tokens = |loaded: u64| grouped(tokens(ctx, agent.tokenizer(), rel, loaded));
    Some(match state {
        "none" => return None,
        "start" => format!(
            "{name}: loads at start · {} B · {} tokens",
            grouped(bytes),
            tokens(bytes)
        ),
        "cut" => {
            let kept = cell
                .pointer("/cut/kept")
                .and_then(Value::as_u64)
                .unwrap_or(bytes);
            let omitted = cell
                .pointer("/cut/omitted")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            format!(
                "{name}: cut to {} of {} B · {} tokens",
                grouped(kept),
                grouped(kept + omitted),
                tokens(kept)
            )
        }
        "not_read" => format!("{name}: not read ({reason})"),
        "shadowed" => format!("{name}: {reason}"),
        "withheld" => format!("{name}: withheld (untrusted)"),
        other if reason.is_empty() => format!("{name}: {}", other.replace('_', " ")),
        other => format!("{name}: {} ({reason})", other.replace('_', " ")),
    })
}

/// The tokens of the `loaded` bytes an agent loads of `rel`.
fn tokens(ctx: &Context, tokenizer: Tokenizer, rel: &str, loaded: u64) -> u64 {
    if !tokenizer.is_exact() {
        return estimate(loaded as usize) as u64;
    }
    let Ok(read) = ctx.reader.read(rel, loaded) else {
        return estimate(loaded as usize) as u64;
    };
    tokenizer.count(&String::from_utf8_lossy(&read.bytes)) as u64
}

/// `explain --agent AGENT PATH`'s JSON document.
pub(super) fn explain(folders: &mut [Folder], agent: Agent, path: &str) -> Result<Value, String> {
    let absolute = Path::new(path);
    let place = if absolute.is_absolute() {
        innermost(folders, absolute).map(|(i, _, rel)| (i, rel))
    } else {
        let found = folders.iter().position(|f| f.ctx.reader.stat(path).is_ok());
        found
            .or((!folders.is_empty()).then_some(0))
            .map(|i| (i, path.to_string()))
    };
    let (index, rel) = place.ok_or_else(|| format!("{path}: outside every workspace folder"))?;
    let ctx = &mut folders[index].ctx;
    ctx.agent = agent;
    cli_json(ctx, &["explain", &rel])
}
