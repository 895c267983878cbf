//! Hover (SPEC §21.1): what each agent adds when it reads the hovered file,
//! `assemble --agent AGENT --touch PATH`'s `touch` section per agent, as
//! Markdown, sizes and tokens only, never a file's content.
//!
//! Choices the spec leaves open:
//! - A profile that loads nothing lazily (its `--touch` says so) reads
//!   "adds nothing (AGENT loads everything at start)" trusted or not; the
//!   others read "adds nothing" when the file adds none, and the withheld
//!   line when the workspace is untrusted.
//! - A part's kind is shown as `assemble` names it (`instructions`, `rule`,
//!   `import of `PARENT``, and a profile's own kinds such as
//!   `path-instructions`); tokens are counted with the agent's tokenizer
//!   on the part's content, `~` marking an estimate.
//! - A profile whose `assemble` fails says so in its section.

use serde_json::{Value, json};

use super::cli_json;
use crate::cli::context::Context;
use crate::prompt::compare::divergence::grouped;
use crate::prompt::profile::Agent;
use crate::prompt::profile::seam::touch_adds_nothing;

/// The hover of workspace-relative `rel` in `ctx`'s folder.
pub(super) fn hover(ctx: &mut Context, agents: &[Agent], rel: &str) -> Value {
    let mut text = format!("**Reading `{rel}`**\n");
    for &agent in agents {
        text.push('\n');
        text.push_str(&section(ctx, agent, rel));
        text.push('\n');
    }
    json!({"contents": {"kind": "markdown", "value": text.trim_end()}})
}

/// One agent's section.
fn section(ctx: &mut Context, agent: Agent, rel: &str) -> String {
    let title = agent.title();
    ctx.agent = agent;
    let document = match cli_json(ctx, &["assemble", "--touch", rel]) {
        Ok(document) => document,
        Err(err) => return format!("**{title}**: {err}"),
    };
    let eager = touch_adds_nothing(agent.spec(), rel).reason;
    let loads_all = document
        .get("diagnostics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|d| d.get("reason").and_then(Value::as_str) == Some(eager.as_str()));
    if loads_all {
        return format!("**{title}** adds nothing ({title} loads everything at start)");
    }
    if !ctx.trust.trusted {
        return format!(
            "**{title}** adds nothing: project files are withheld (start the server with \
             --trust-project)"
        );
    }
    let parts: Vec<&Value> = document
        .pointer("/touch/0/parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    if parts.is_empty() {
        return format!("**{title}** adds nothing");
    }
    let tokenizer = agent.tokenizer();
    let mark = if tokenizer.is_exact() { "" } else { "~" };
    let (mut bytes, mut tokens) = (0u64, 0u64);
    let mut lines = Vec::new();
    for part in &parts {
        let size = part.get("bytes").and_then(Value::as_u64).unwrap_or(0);
        let count =
            tokenizer.count(part.get("content").and_then(Value::as_str).unwrap_or("")) as u64;
        bytes += size;
        tokens += count;
        let path = part.get("path").and_then(Value::as_str).unwrap_or("");
        let kind = match (
            part.get("kind").and_then(Value::as_str).unwrap_or(""),
            part.get("imported_by").and_then(Value::as_str),
        ) {
            ("import", Some(parent)) => format!("import of `{parent}`"),
            (kind, _) => kind.to_string(),
        };
        lines.push(format!(
            "- `{path}` · {kind} · {} B · {mark}{} tokens",
            grouped(size),
            grouped(count)
        ));
    }
    let files = if parts.len() == 1 { "file" } else { "files" };
    format!(
        "**{title}** adds {} {files} · {} B · {mark}{} tokens\n{}",
        parts.len(),
        grouped(bytes),
        grouped(tokens),
        lines.join("\n")
    )
}
