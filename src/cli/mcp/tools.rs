//! The MCP server's tools (SPEC §21.2): `assemble`, `compare`, `lint` and
//! `explain`, each the CLI's subcommand of that name run with
//! `--format json` on a command line made from the tool's arguments, its
//! document kept in memory by [`output::capture`] and returned as the
//! result's structured content and as text.
//!
//! Choices the spec leaves open:
//! - arguments become a command line parsed by the CLI's own parser, so a
//!   bad value is refused with the CLI's own message; every value is
//!   joined to its option (`--at=VALUE`) or follows `--`, so no value can
//!   be read as an option;
//! - an argument the tool does not take, or of the wrong JSON type, is a
//!   tool error (`isError`) naming it, like a bad value;
//! - without `agent`, the profile is the one the server's own `--agent`
//!   names, else the CLI's default;
//! - `outputSchema` of `assemble`, whose document has one shape under
//!   mecatl and another under the other profiles, is `anyOf` the two
//!   schemas, their `$defs` gathered under prefixed names;
//! - a run that ends in exit 1 with its document (lint's errors) is a
//!   result, not a tool error: the findings are the answer.

use std::ffi::OsString;
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::cli::context::{Context, GlobalArgs};
use crate::cli::{output, parse_words, run_in};
use crate::prompt::agents::PROFILES;

/// One argument a tool takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arg {
    /// `workspace`: the workspace root (`-C`), confined to the roots.
    Workspace,
    /// `agent`: one profile (`--agent`).
    Agent,
    /// `agents`: a list of profiles (`--agents`).
    Agents,
    /// `at`: the agent's working directory (`--at`).
    At,
    /// `touch`: paths the agent reads (`--touch`, repeated).
    Touch,
    /// `name`: the command, rule or path to explain (required).
    Name,
    /// `rule`: explain a rule (`--rule`).
    Rule,
}

impl Arg {
    fn key(self) -> &'static str {
        match self {
            Arg::Workspace => "workspace",
            Arg::Agent => "agent",
            Arg::Agents => "agents",
            Arg::At => "at",
            Arg::Touch => "touch",
            Arg::Name => "name",
            Arg::Rule => "rule",
        }
    }

    fn schema(self) -> Value {
        let agents: Vec<&str> = PROFILES.iter().map(|p| p.spec().name).collect();
        match self {
            Arg::Workspace => json!({"type": "string", "description":
                "The workspace root: absolute, or relative to the first root; it must lie inside \
                 one of the client's roots (or the server's start directory) [default: the first root]"}),
            Arg::Agent => json!({"type": "string", "enum": agents, "description":
                "Which agent's way of loading the workspace to show"}),
            Arg::Agents => json!({"type": "array", "items": {"type": "string", "enum": agents},
                "description": "The agents to show, in this order [default: every one]"}),
            Arg::At => json!({"type": "string", "description":
                "The directory the agent is started in, relative to the workspace [default: its root]"}),
            Arg::Touch => json!({"type": "array", "items": {"type": "string"}, "description":
                "Also show what the agent loads when it reads each of these paths (relative to the workspace)"}),
            Arg::Name => json!({"type": "string", "description":
                "The command, skill or rule name, or a path, to explain"}),
            Arg::Rule => {
                json!({"type": "boolean", "description": "Explain a rule rather than a command"})
            }
        }
    }
}

/// One tool: the subcommand it runs and what it takes.
struct Tool {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    args: &'static [Arg],
    /// The §15.5 schemas of its document, by file name and text.
    schemas: &'static [(&'static str, &'static str)],
}

const TOOLS: [Tool; 4] = [
    Tool {
        name: "assemble",
        title: "What an agent loads",
        description: "The files an agent loads from this workspace at start (and on reading the \
                      `touch` paths), in order, with bytes and tokens: `mecatl-prompt assemble \
                      --format json`. Read-only; project files are withheld unless the server \
                      was started with --trust-project.",
        args: &[Arg::Workspace, Arg::Agent, Arg::At, Arg::Touch],
        schemas: &[
            ("assemble", include_str!("../../../schemas/assemble.json")),
            (
                "assemble-profile",
                include_str!("../../../schemas/assemble-profile.json"),
            ),
        ],
    },
    Tool {
        name: "compare",
        title: "What each agent loads, side by side",
        description: "One row per file any agent loads or considers, one cell per agent, the \
                      totals and the divergences: `mecatl-prompt compare --format json`. \
                      Read-only.",
        args: &[Arg::Workspace, Arg::Agents, Arg::At, Arg::Touch],
        schemas: &[("compare", include_str!("../../../schemas/compare.json"))],
    },
    Tool {
        name: "lint",
        title: "Check the agent files",
        description: "Findings (MPnnn codes) in the agent files that silently do something other \
                      than meant under some agent: `mecatl-prompt lint --format json`. Read-only; \
                      needs no trust.",
        args: &[Arg::Workspace, Arg::Agents, Arg::At],
        schemas: &[("lint", include_str!("../../../schemas/lint.json"))],
    },
    Tool {
        name: "explain",
        title: "Why a command, rule or file resolved as it did",
        description: "Every candidate file of a command, skill, rule or path and its fate: \
                      `mecatl-prompt explain NAME --format json`. Read-only.",
        args: &[Arg::Workspace, Arg::Name, Arg::Agent, Arg::At, Arg::Rule],
        schemas: &[("explain", include_str!("../../../schemas/explain.json"))],
    },
];

/// `tools/list`'s result.
pub(super) fn list() -> Value {
    let tools: Vec<Value> = TOOLS
        .iter()
        .map(|tool| {
            let properties: Map<String, Value> = tool
                .args
                .iter()
                .map(|arg| (arg.key().to_string(), arg.schema()))
                .collect();
            let required: Vec<&str> = tool
                .args
                .iter()
                .filter(|arg| **arg == Arg::Name)
                .map(|arg| arg.key())
                .collect();
            json!({
                "name": tool.name,
                "title": tool.title,
                "description": tool.description,
                "inputSchema": {
                    "type": "object",
                    "properties": properties,
                    "required": required,
                    "additionalProperties": false,
                },
                "outputSchema": output_schema(tool.schemas),
                "annotations": {
                    "title": tool.title,
                    "readOnlyHint": true,
                    "destructiveHint": false,
                    "idempotentHint": true,
                    "openWorldHint": false,
                },
            })
        })
        .collect();
    json!({ "tools": tools })
}

/// The schema of a tool's document: the one schema, or `anyOf` several
/// with their `$defs` gathered under `FILE.NAME`.
fn output_schema(schemas: &[(&str, &str)]) -> Value {
    // The schemas are files of this repository, checked to be JSON by the
    // schema tests; a broken one would show as `null` in every listing.
    let parsed = |text: &str| serde_json::from_str::<Value>(text).unwrap_or_default();
    if let [(_, text)] = schemas {
        return parsed(text);
    }
    let mut defs = Map::new();
    let mut any_of = Vec::new();
    for (file, text) in schemas {
        let mut schema = parsed(text);
        if let Some(object) = schema.as_object_mut() {
            object.remove("$schema");
            if let Some(Value::Object(own)) = object.remove("$defs") {
                for (name, mut def) in own {
                    prefix_refs(&mut def, file);
                    defs.insert(format!("{file}.{name}"), def);
                }
            }
        }
        prefix_refs(&mut schema, file);
        defs.insert((*file).to_string(), schema);
        any_of.push(json!({"$ref": format!("#/$defs/{file}")}));
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "anyOf": any_of,
        "$defs": defs,
    })
}

/// Rewrites every `#/$defs/NAME` reference in `schema` to `#/$defs/FILE.NAME`.
fn prefix_refs(schema: &mut Value, file: &str) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                match value {
                    Value::String(target) if key == "$ref" => {
                        if let Some(name) = target.strip_prefix("#/$defs/") {
                            *target = format!("#/$defs/{file}.{name}");
                        }
                    }
                    other => prefix_refs(other, file),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| prefix_refs(item, file)),
        _ => {}
    }
}

/// Whether `name` is one of the tools.
pub(super) fn exists(name: &str) -> bool {
    TOOLS.iter().any(|tool| tool.name == name)
}

/// What the server fixes for every call.
pub(super) struct Fixed<'a> {
    /// The server's own global options (its `--agent` is the default).
    pub(super) global: &'a GlobalArgs,
    /// Whether the server was started with `--trust-project`.
    pub(super) trusted: bool,
}

/// The `workspace` argument, read before the call so it can be confined.
pub(super) fn workspace_arg(arguments: &Map<String, Value>) -> Result<Option<&str>, String> {
    match arguments.get("workspace") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(path)) => Ok(Some(path)),
        Some(_) => Err("argument workspace: expected a string".to_string()),
    }
}

/// Runs tool `name` (one of [`TOOLS`]) on the confined `workspace` and
/// returns `tools/call`'s result: the document, or a tool error.
pub(super) fn call(
    name: &str,
    arguments: &Map<String, Value>,
    workspace: &Path,
    fixed: &Fixed,
) -> Value {
    let Some(tool) = TOOLS.iter().find(|tool| tool.name == name) else {
        return tool_error(format!("unknown tool {name}"));
    };
    let argv = match command_line(tool, arguments, workspace, fixed.global) {
        Ok(argv) => argv,
        Err(message) => return tool_error(message),
    };
    let cli = match parse_words(argv) {
        Ok(cli) => cli,
        Err(err) => return tool_error(err.to_string().trim_end().to_string()),
    };
    let ctx = match Context::resolve_with_fixed_trust(&cli.global, fixed.trusted) {
        Ok(ctx) => ctx,
        Err(err) => return tool_error(format!("mecatl-prompt: error: {err}")),
    };
    let (ran, captured) = output::capture(|| run_in(&ctx, cli.command));
    if !captured.stderr.is_empty() && !fixed.global.quiet {
        crate::cli::mcp::log(captured.stderr.trim_end());
    }
    match ran {
        Ok(_) => match serde_json::from_slice::<Value>(&captured.stdout) {
            Ok(document) => json!({
                "content": [{
                    "type": "text",
                    "text": String::from_utf8_lossy(&captured.stdout),
                }],
                "structuredContent": document,
                "isError": false,
            }),
            Err(err) => tool_error(format!("{name} printed no JSON document: {err}")),
        },
        Err(err) => tool_error(format!("mecatl-prompt: error: {err}")),
    }
}

/// A `tools/call` result that reports a failure to the model.
pub(super) fn tool_error(message: String) -> Value {
    json!({"content": [{"type": "text", "text": message}], "isError": true})
}

/// The CLI command line that does what the call asks.
fn command_line(
    tool: &Tool,
    arguments: &Map<String, Value>,
    workspace: &Path,
    global: &GlobalArgs,
) -> Result<Vec<OsString>, String> {
    if let Some(key) = arguments
        .keys()
        .find(|key| !tool.args.iter().any(|arg| arg.key() == key.as_str()))
    {
        return Err(format!("{} takes no argument {key}", tool.name));
    }
    let mut workspace_option = OsString::from("--workspace=");
    workspace_option.push(workspace);
    let mut globals: Vec<OsString> = vec![
        "mecatl-prompt".into(),
        "--format=json".into(),
        "--color=never".into(),
        workspace_option,
    ];
    let mut after: Vec<OsString> = Vec::new();
    let mut name = None;
    let mut agent = global.agent.map(|agent| agent.as_str().to_string());
    for arg in tool.args {
        let Some(value) = arguments.get(arg.key()).filter(|v| !v.is_null()) else {
            continue;
        };
        let string = || {
            value
                .as_str()
                .ok_or_else(|| format!("argument {}: expected a string", arg.key()))
        };
        let strings = || -> Result<Vec<&str>, String> {
            let expected = || format!("argument {}: expected an array of strings", arg.key());
            value
                .as_array()
                .ok_or_else(expected)?
                .iter()
                .map(|item| item.as_str().ok_or_else(expected))
                .collect()
        };
        match arg {
            Arg::Workspace => {}
            Arg::Agent => agent = Some(string()?.to_string()),
            Arg::At => globals.push(format!("--at={}", string()?).into()),
            Arg::Agents => {
                let agents = strings()?;
                if !agents.is_empty() {
                    after.push(format!("--agents={}", agents.join(",")).into());
                }
            }
            Arg::Touch => {
                for path in strings()? {
                    after.push(format!("--touch={path}").into());
                }
            }
            Arg::Name => name = Some(string()?.to_string()),
            Arg::Rule => match value.as_bool() {
                Some(true) => after.push("--rule".into()),
                Some(false) => {}
                None => return Err("argument rule: expected a boolean".to_string()),
            },
        }
    }
    if let Some(agent) = agent {
        globals.push(format!("--agent={agent}").into());
    }
    globals.push(tool.name.into());
    globals.extend(after);
    if let Some(name) = name {
        globals.push("--".into());
        globals.push(name.into());
    }
    Ok(globals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_lists_every_profile_and_a_closed_input() {
        let listed = list();
        let tools = listed["tools"].as_array().unwrap();
        assert_eq!(tools.len(), TOOLS.len());
        let agents: Vec<Value> = PROFILES.iter().map(|p| json!(p.spec().name)).collect();
        for tool in tools {
            assert_eq!(tool["inputSchema"]["additionalProperties"], false);
            assert_eq!(tool["outputSchema"]["type"], "object", "{}", tool["name"]);
            let agent = &tool["inputSchema"]["properties"]["agent"]["enum"];
            let agents_item = &tool["inputSchema"]["properties"]["agents"]["items"]["enum"];
            let listed = if agent.is_null() { agents_item } else { agent };
            assert_eq!(listed.as_array().unwrap(), &agents, "{}", tool["name"]);
        }
    }

    #[test]
    fn gathered_schemas_point_at_their_own_defs() {
        let schema = output_schema(TOOLS[0].schemas);
        let text = schema.to_string();
        let defs = schema["$defs"].as_object().unwrap();
        for reference in text.split("\"$ref\":\"#/$defs/").skip(1) {
            let name = &reference[..reference.find('"').unwrap()];
            assert!(defs.contains_key(name), "{name}");
        }
    }

    #[test]
    fn values_never_become_options() {
        let args: Map<String, Value> = serde_json::from_value(json!({
            "name": "--trust-project", "at": "--help", "rule": true
        }))
        .unwrap();
        let global = crate::cli::parse_words(["mecatl-prompt", "mcp"])
            .unwrap()
            .global;
        let line = command_line(&TOOLS[3], &args, Path::new("/w"), &global).unwrap();
        let line: Vec<String> = line
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            line,
            [
                "mecatl-prompt",
                "--format=json",
                "--color=never",
                "--workspace=/w",
                "--at=--help",
                "explain",
                "--rule",
                "--",
                "--trust-project"
            ]
        );
    }
}
