//! How an agent profile's turn 0 is printed (SPEC §14.7, §8): one
//! renderer for every profile.
//!
//! - Text: one section per part, a header line of ours
//!   (`── 3 · project · sub/CLAUDE.md (import of CLAUDE.md) ──`) then the
//!   part's exact content (and a newline when it lacks one), one blank line
//!   between sections; then one section per `--touch` path, its parts
//!   numbered on.
//! - JSON: `{"schema", "agent", "at", "messages": [{"role", "provenance",
//!   "parts", "text"}], "subagents", "output_style", "mcp_servers", "hooks", "touch",
//!   "not_loaded", "stats"?, "diagnostics",
//!   "trust"}`; `text` is the message exactly as the agent sends it.
//! - Providers (§8.3): Anthropic gets one user message per message, one
//!   text block per part; OpenAI one user message per message holding its
//!   `text`.
//! - The skills and subagents listings (provenance `skills` and `agents`,
//!   one part per entry) are one list each: one text section
//!   (`── N · skills listing · K entries ──`, then the listing) and one
//!   Anthropic text block.
//!
//! Choices the spec leaves open:
//! - A header names the part's number (counting every part printed), its
//!   scope and path, then in parentheses what else is worth knowing: whose
//!   import it is, its kind when it is not an instruction file or an
//!   import, and a budget cut.
//! - MCP servers and hooks (never started, never run) close the text: one
//!   section each, a line per server or hook with what it would add.
//! - A `--touch` path that adds nothing still gets its header line
//!   (`── touch PATH · adds nothing ──`), so the text shows it was asked.
//! - The provider formats carry only what is sent at start: `--touch`
//!   parts arrive later in a conversation and are left out there.

use std::borrow::Cow;

use serde::Serialize;

use crate::adapters::trust::Trust;
use crate::cli::output::{self, DocHead};
use crate::cli::provider;
use crate::cli::stats::Stats;
use crate::diagnostic::Diagnostic;
use crate::prompt::profile::{
    Hook, McpServer, NotLoaded, OutputStyle, Part, PartKind, ProfileMessage, ProfileTurn0,
    Subagent, Touched, Transport,
};
use crate::prompt::turn0::Provenance;

/// The JSON document of `assemble` under a profile.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct ProfileDocument<'a> {
    /// Schema, agent and `at`.
    #[serde(flatten)]
    pub head: DocHead<'a>,
    /// The messages sent at start.
    pub messages: &'a [ProfileMessage],
    /// Every subagent file found (SPEC §19.2).
    pub subagents: &'a [Subagent],
    /// The output style the settings select (SPEC §19.3).
    pub output_style: Option<&'a OutputStyle>,
    /// Every configured MCP server, never started (SPEC §19.4).
    pub mcp_servers: &'a [McpServer],
    /// Every configured command hook, never run (SPEC §19.5).
    pub hooks: &'a [Hook],
    /// What reading each `--touch` path adds.
    pub touch: &'a [Touched],
    /// Files considered and not loaded.
    pub not_loaded: &'a [NotLoaded],
    /// `--stats`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<&'a Stats>,
    /// Every diagnostic of the run.
    pub diagnostics: &'a [Diagnostic],
    /// The trust decision.
    pub trust: Trust,
}

/// The header line of part `number`.
fn header(number: usize, part: &Part) -> String {
    let mut notes = Vec::new();
    if let Some(importer) = &part.imported_by {
        notes.push(format!("import of {}", output::one_line(importer)));
    }
    if !matches!(part.kind, PartKind::Instructions | PartKind::Import) {
        notes.push(part.kind.as_str().to_string());
    }
    if let Some(cut) = part.cut {
        notes.push(format!(
            "cut: {} of {} bytes",
            cut.kept,
            cut.kept + cut.omitted
        ));
    }
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    };
    format!(
        "── {number} · {} · {}{notes} ──\n",
        part.scope.as_str(),
        output::one_line(&part.path)
    )
}

/// The text rendering (see the module doc), as the pieces to write in
/// order, so that large contents are not copied once more.
fn text_pieces(turn0: &ProfileTurn0) -> Vec<Cow<'_, str>> {
    let mut pieces = Vec::new();
    let mut number = 0;
    for message in &turn0.messages {
        if is_listing(message) {
            number += 1;
            let entries = message.parts.len();
            let plural = if entries == 1 { "entry" } else { "entries" };
            push_section(
                &mut pieces,
                format!(
                    "── {number} · {} · {entries} {plural} ──\n",
                    message.provenance.title()
                ),
            );
            pieces.push(Cow::Borrowed(&message.text));
            if !message.text.ends_with('\n') {
                pieces.push(Cow::Borrowed("\n"));
            }
            continue;
        }
        push_parts(&mut pieces, &mut number, &message.parts);
    }
    for touched in &turn0.touch {
        let path = output::one_line(&touched.path);
        let head = if touched.parts.is_empty() {
            format!("── touch {path} · adds nothing ──\n")
        } else {
            format!("── touch {path} ──\n")
        };
        push_section(&mut pieces, head);
        push_parts(&mut pieces, &mut number, &touched.parts);
    }
    push_configured(&mut pieces, turn0);
    pieces
}

/// The MCP servers and hooks, one section each when there are any: one
/// line per server or hook, saying it was not run and what it would add.
fn push_configured(pieces: &mut Vec<Cow<'_, str>>, turn0: &ProfileTurn0) {
    if !turn0.mcp_servers.is_empty() {
        let count = turn0.mcp_servers.len();
        push_section(
            pieces,
            format!("── MCP servers · {count} configured · none started ──\n"),
        );
        for server in &turn0.mcp_servers {
            pieces.push(Cow::Owned(format!("{}\n", server_line(server))));
        }
    }
    if !turn0.hooks.is_empty() {
        let count = turn0.hooks.len();
        push_section(
            pieces,
            format!("── hooks · {count} configured · none run ──\n"),
        );
        for hook in &turn0.hooks {
            let matcher = hook
                .matcher
                .as_deref()
                .map(|m| format!(" [{}]", output::one_line(m)))
                .unwrap_or_default();
            pieces.push(Cow::Owned(format!(
                "{}{matcher} ({}): `{}`: would add {}\n",
                hook.event,
                hook.path,
                output::one_line(&hook.command),
                hook.would_add
            )));
        }
    }
}

/// One server in a text line: its name, file, transport and command or
/// URL, whether it would start, and what it would add.
pub(crate) fn server_line(server: &McpServer) -> String {
    let target = server.command.as_deref().or(server.url.as_deref());
    let state = if server.enabled {
        "would start"
    } else {
        "would not start"
    };
    format!(
        "{} ({}, {}: {}) {}: not run; would add {}",
        output::one_line(&server.name),
        server.path,
        transport_word(server.transport),
        output::one_line(target.unwrap_or_default()),
        state,
        server.would_add
    )
}

/// The transport's word in a text line.
fn transport_word(transport: Transport) -> &'static str {
    match transport {
        Transport::Stdio => "stdio",
        Transport::Http => "http",
        Transport::Sse => "sse",
    }
}

/// True for a listing (of skills or subagents): one part per entry, shown
/// and sent as one list.
fn is_listing(message: &ProfileMessage) -> bool {
    matches!(message.provenance, Provenance::Skills | Provenance::Agents)
}

/// Starts a section with its header line, after a blank line unless it is
/// the first.
fn push_section(pieces: &mut Vec<Cow<'_, str>>, head: String) {
    if !pieces.is_empty() {
        pieces.push(Cow::Borrowed("\n"));
    }
    pieces.push(Cow::Owned(head));
}

/// One section per part, numbered on from `number`.
fn push_parts<'a>(pieces: &mut Vec<Cow<'a, str>>, number: &mut usize, parts: &'a [Part]) {
    for part in parts {
        *number += 1;
        push_section(pieces, header(*number, part));
        pieces.push(Cow::Borrowed(&part.content));
        if !part.content.ends_with('\n') {
            pieces.push(Cow::Borrowed("\n"));
        }
    }
}

/// Prints the text rendering on stdout; nothing at all when there is no
/// part and no `--touch`.
pub fn write_text(turn0: &ProfileTurn0) -> std::io::Result<()> {
    let pieces = text_pieces(turn0);
    if pieces.is_empty() {
        return Ok(());
    }
    let bytes: Vec<&[u8]> = pieces.iter().map(|piece| piece.as_bytes()).collect();
    output::write_stdout_parts(&bytes)
}

/// The Anthropic shape: one user message per message, a text block per
/// part (a listing of skills or subagents, one list, is one block).
pub fn anthropic(turn0: &ProfileTurn0) -> provider::Messages<provider::AnthropicMessage<'_>> {
    provider::anthropic_block_messages(turn0.messages.iter().map(|message| {
        if is_listing(message) {
            return vec![message.text.as_str()];
        }
        message
            .parts
            .iter()
            .map(|part| part.content.as_str())
            .collect()
    }))
}

/// The OpenAI shape: one user message per message, holding its text.
pub fn openai(turn0: &ProfileTurn0) -> provider::Messages<provider::OpenAiMessage<'_>> {
    provider::openai_messages(
        "user",
        turn0.messages.iter().map(|message| message.text.as_str()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::profile::{Cut, Scope};
    use crate::prompt::turn0::Provenance;

    fn part(path: &str, kind: PartKind, content: &str) -> Part {
        Part {
            path: path.into(),
            scope: Scope::Project,
            kind,
            imported_by: None,
            content: content.into(),
            cut: None,
        }
    }

    fn text(turn0: &ProfileTurn0) -> String {
        text_pieces(turn0).concat()
    }

    #[test]
    fn every_part_is_a_section_with_its_exact_content() {
        let mut import = part("sub/CLAUDE.md", PartKind::Import, "IMPORTED");
        import.imported_by = Some("CLAUDE.md".into());
        let mut cut = part("a/AGENTS.md", PartKind::Instructions, "CUT\n");
        cut.cut = Some(Cut {
            kept: 4,
            omitted: 6,
        });
        let turn0 = ProfileTurn0 {
            messages: vec![
                ProfileMessage::joined(
                    Provenance::Instructions,
                    vec![
                        part("CLAUDE.md", PartKind::Instructions, "ROOT\n\n"),
                        import,
                        cut,
                    ],
                ),
                ProfileMessage::joined(
                    Provenance::Instructions,
                    vec![part("rules/x.md", PartKind::Rule, "R")],
                ),
            ],
            touch: vec![
                Touched {
                    path: "web/app.ts".into(),
                    parts: vec![part("web/CLAUDE.md", PartKind::Instructions, "WEB\n")],
                },
                Touched {
                    path: "new\nline.ts".into(),
                    parts: Vec::new(),
                },
            ],
            ..ProfileTurn0::default()
        };
        assert_eq!(
            text(&turn0),
            "── 1 · project · CLAUDE.md ──\nROOT\n\n\n\
             ── 2 · project · sub/CLAUDE.md (import of CLAUDE.md) ──\nIMPORTED\n\n\
             ── 3 · project · a/AGENTS.md (cut: 4 of 10 bytes) ──\nCUT\n\n\
             ── 4 · project · rules/x.md (rule) ──\nR\n\n\
             ── touch web/app.ts ──\n\n\
             ── 5 · project · web/CLAUDE.md ──\nWEB\n\n\
             ── touch new line.ts · adds nothing ──\n"
        );
    }

    #[test]
    fn the_skills_listing_is_one_section_and_one_block() {
        let listing = ProfileMessage::with_text(
            Provenance::Skills,
            vec![
                part(".claude/skills/a/SKILL.md", PartKind::Skills, "- a: A"),
                part(".claude/commands/b.md", PartKind::Skills, "- b"),
            ],
            "- a: A\n- b".into(),
        );
        let turn0 = ProfileTurn0 {
            messages: vec![
                ProfileMessage::joined(
                    Provenance::Instructions,
                    vec![part("CLAUDE.md", PartKind::Instructions, "ROOT")],
                ),
                listing,
            ],
            ..ProfileTurn0::default()
        };
        assert_eq!(
            text(&turn0),
            "── 1 · project · CLAUDE.md ──\nROOT\n\n\
             ── 2 · skills listing · 2 entries ──\n- a: A\n- b\n"
        );
        assert_eq!(
            serde_json::to_value(anthropic(&turn0)).unwrap()["messages"][1],
            serde_json::json!({"role": "user", "content": [
                {"type": "text", "text": "- a: A\n- b"}]})
        );
    }

    #[test]
    fn nothing_to_show_is_no_output() {
        assert!(text_pieces(&ProfileTurn0::default()).is_empty());
    }

    #[test]
    fn providers_get_blocks_per_part_or_the_joined_text() {
        let turn0 = ProfileTurn0 {
            messages: vec![ProfileMessage::with_text(
                Provenance::Instructions,
                vec![
                    part("/h/AGENTS.md", PartKind::Instructions, "G"),
                    part("AGENTS.md", PartKind::Instructions, "P"),
                ],
                "G--P".into(),
            )],
            ..ProfileTurn0::default()
        };
        assert_eq!(
            serde_json::to_value(anthropic(&turn0)).unwrap(),
            serde_json::json!({"messages": [{"role": "user", "content": [
                {"type": "text", "text": "G"}, {"type": "text", "text": "P"}]}]})
        );
        assert_eq!(
            serde_json::to_value(openai(&turn0)).unwrap(),
            serde_json::json!({"messages": [{"role": "user", "content": "G--P"}]})
        );
    }
}
