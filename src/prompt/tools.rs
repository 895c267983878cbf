//! The tool catalog: what the model can call. It shapes two parts of the
//! stable prefix — the tool-discipline hints (SPEC §4.2) and the tool
//! inventory (SPEC §4.1 item 5) — and is read from the JSON shapes hosts
//! already have on hand (SPEC §8.4).

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Value};

/// One tool the model can call: its name and its description.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ToolSpec {
    /// The name the model calls the tool by.
    pub name: String,
    /// What the tool does; its first non-blank line is the inventory purpose.
    pub description: String,
}

impl ToolSpec {
    /// A tool with the given name and description.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
        }
    }
}

/// The inventory heading, the first line of the inventory section.
const INVENTORY_HEADING: &str = "Available tools:";

/// Renders the tool inventory: the heading, then `- NAME: PURPOSE` per tool
/// in catalog order, or `(none)` for an empty catalog.
///
/// PURPOSE is the first non-blank line of the description, trimmed. Lines
/// break at `\n`, `\r`, U+2028 and U+2029, so a description can never spill
/// a second line into the inventory.
pub fn render_inventory(tools: &[ToolSpec]) -> String {
    let mut out = String::from(INVENTORY_HEADING);
    if tools.is_empty() {
        out.push_str("\n(none)");
    }
    for tool in tools {
        out.push_str("\n- ");
        out.push_str(&tool.name);
        out.push_str(": ");
        out.push_str(purpose(&tool.description));
    }
    out
}

/// The first non-blank line of a description, trimmed; `""` when none.
fn purpose(description: &str) -> &str {
    description
        .split(is_line_break)
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("")
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// The dedicated file tools, in the order the hint names them.
const FILE_TOOLS: [&str; 5] = ["Read", "Edit", "Write", "Glob", "Grep"];
/// The shell tools, in the order the hint names them.
const SHELL_TOOLS: [&str; 2] = ["Bash", "Shell"];
/// The memory tools; any one of them earns the memory sentence.
const MEMORY_TOOLS: [&str; 6] = [
    "Remember",
    "Recall",
    "SearchMemory",
    "RememberUser",
    "RecallUser",
    "SearchUserModel",
];

/// Renders the tool-discipline hints: one paragraph whose sentences depend
/// only on which tool names are in the catalog, so it never names a tool
/// the model cannot call. The closing sentence about parallel calls and
/// real arguments is always present.
///
/// When both `Bash` and `Shell` are present, the shell sentence names both.
pub fn render_hints(tools: &[ToolSpec]) -> String {
    let names: HashSet<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
    let present = |candidates: &[&'static str]| -> Vec<&'static str> {
        candidates
            .iter()
            .copied()
            .filter(|name| names.contains(name))
            .collect()
    };

    let mut sentences: Vec<String> = Vec::new();
    let file_tools = present(&FILE_TOOLS);
    if !file_tools.is_empty() {
        sentences.push(format!(
            "To read, find and change files, use the dedicated tools ({}) rather than shell \
             commands such as cat, sed, find or grep.",
            join_names(&file_tools)
        ));
    }
    let shell_tools = present(&SHELL_TOOLS);
    if !shell_tools.is_empty() {
        sentences.push(format!(
            "Keep {} for real terminal work: building, running tests, git, and programs that \
             only a shell can start.",
            join_names(&shell_tools)
        ));
    }
    if names.contains("Subagent") {
        sentences.push(
            "Hand a self-contained task that would flood your context, such as a wide search \
             or a long investigation, to Subagent with a complete brief, and check what it \
             reports before relying on it."
                .to_string(),
        );
    }
    if names.contains("Parallel") {
        let lookups = if names.contains("Subagent") {
            "; independent read-only lookups go to several Subagent calls in the same turn \
             instead."
        } else {
            ", not for independent read-only lookups."
        };
        sentences.push(format!(
            "Use Parallel only for branches that each need their own writable copy of the work \
             or that compete to solve the same problem{lookups}"
        ));
    }
    if names.contains("Team") {
        sentences.push(
            "Reserve Team for large work that needs several agents coordinating, not for one \
             focused change."
                .to_string(),
        );
    }
    let memory_tools = present(&MEMORY_TOOLS);
    if !memory_tools.is_empty() {
        sentences.push(format!(
            "Saved memory is reachable through {}: consult it for what earlier sessions \
             learned before asking again, and save only durable facts, never secrets.",
            join_names(&memory_tools)
        ));
    }
    sentences.push(
        "Make independent tool calls in parallel, and never guess an argument: look up the \
         real path, name or value first."
            .to_string(),
    );
    sentences.join(" ")
}

/// Joins names as English: `A`, `A and B`, `A, B and C`.
fn join_names(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [only] => (*only).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The catalog shapes accepted, named in every shape error.
const EXPECTED_SHAPES: &str = "expected a JSON array of tools (plain {name, description}, \
     Anthropic with input_schema, OpenAI {\"type\": \"function\"} in Chat or Responses form), \
     an MCP tools/list result {\"tools\": [...]}, or its JSON-RPC envelope";

/// Why a tool catalog was rejected. Each message is one line; the caller
/// prefixes the file name. Messages name JSON locations (`.tools[2]`) but
/// never echo the file's content.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    /// The bytes are not one JSON document.
    #[error("not valid JSON ({0}); {EXPECTED_SHAPES}", EXPECTED_SHAPES = EXPECTED_SHAPES)]
    NotJson(String),
    /// Valid JSON, but not one of the accepted shapes.
    #[error("{found}; {EXPECTED_SHAPES}", EXPECTED_SHAPES = EXPECTED_SHAPES)]
    Shape {
        /// What was found instead, with its JSON location.
        found: String,
    },
    /// A tool name holds a control character or a line break.
    #[error("the tool name at {at} contains a control character (U+{code:04X})")]
    ControlCharacter {
        /// The JSON location of the tool.
        at: String,
        /// The offending character's code point.
        code: u32,
    },
}

fn shape_error(found: impl Into<String>) -> CatalogError {
    CatalogError::Shape {
        found: found.into(),
    }
}

/// Parses a tool catalog in any shape of SPEC §8.4, detected from the JSON
/// itself: a plain, Anthropic or OpenAI (Chat or Responses) tools array, an
/// MCP `tools/list` result, or its JSON-RPC envelope. Extra fields are
/// ignored; a missing or `null` description is empty.
///
/// Each element of an array is recognised on its own, so an array mixing
/// the plain and OpenAI forms is accepted. A tool name must be a non-empty
/// string free of control characters and Unicode line separators.
pub fn parse_catalog(bytes: &[u8]) -> Result<Vec<ToolSpec>, CatalogError> {
    let document: Value =
        serde_json::from_slice(bytes).map_err(|err| CatalogError::NotJson(err.to_string()))?;
    let (items, base) = tool_list(&document)?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| parse_tool(item, format!("{base}[{index}]")))
        .collect()
}

/// Finds the array of tools in a catalog document and its JSON location.
fn tool_list(document: &Value) -> Result<(&[Value], &'static str), CatalogError> {
    let object = match document {
        Value::Array(items) => return Ok((items, ".")),
        Value::Object(object) => object,
        other => return Err(shape_error(format!("found {}", kind_of(other)))),
    };
    if let Some(tools) = object.get("tools") {
        return array_at(tools, ".tools");
    }
    match object.get("result") {
        Some(Value::Object(result)) => match result.get("tools") {
            Some(tools) => array_at(tools, ".result.tools"),
            None => Err(shape_error("found a `result` object without `tools`")),
        },
        Some(other) => Err(shape_error(format!(
            "found `result` holding {}",
            kind_of(other)
        ))),
        None if object.contains_key("error") => Err(shape_error("found a JSON-RPC error response")),
        None => Err(shape_error("found an object without `tools`")),
    }
}

fn array_at<'a>(
    value: &'a Value,
    location: &'static str,
) -> Result<(&'a [Value], &'static str), CatalogError> {
    match value {
        Value::Array(items) => Ok((items, location)),
        other => Err(shape_error(format!(
            "found {} at {location}",
            kind_of(other)
        ))),
    }
}

/// Reads one tool: the OpenAI Chat form nests it under `function`; every
/// other form keeps `name` and `description` at the top.
fn parse_tool(item: &Value, at: String) -> Result<ToolSpec, CatalogError> {
    let Value::Object(object) = item else {
        return Err(shape_error(format!("found {} at {at}", kind_of(item))));
    };
    let (object, at) = match (object.get("type"), object.get("function")) {
        (Some(Value::String(kind)), Some(Value::Object(function))) if kind == "function" => {
            (function, format!("{at}.function"))
        }
        _ => (object, at),
    };
    let name = tool_name(object, &at)?;
    let description = match object.get("description") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(description)) => description.clone(),
        Some(other) => {
            return Err(shape_error(format!(
                "found {} at {at}.description",
                kind_of(other)
            )));
        }
    };
    Ok(ToolSpec { name, description })
}

fn tool_name(object: &Map<String, Value>, at: &str) -> Result<String, CatalogError> {
    let name = match object.get("name") {
        Some(Value::String(name)) if !name.is_empty() => name,
        Some(Value::String(_)) => return Err(shape_error(format!("found an empty name at {at}"))),
        Some(other) => {
            return Err(shape_error(format!(
                "found {} at {at}.name",
                kind_of(other)
            )));
        }
        None => return Err(shape_error(format!("found no `name` at {at}"))),
    };
    if let Some(bad) = name.chars().find(|&c| c.is_control() || is_line_break(c)) {
        return Err(CatalogError::ControlCharacter {
            at: at.to_string(),
            code: u32::from(bad),
        });
    }
    Ok(name.clone())
}

/// Names a JSON value's kind for error messages.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A tool left out of a merged catalog because an earlier tool had its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateTool {
    /// The repeated name.
    pub name: String,
    /// Which input catalog (0-based, in the order given) held the dropped tool.
    pub catalog: usize,
}

/// Several catalogs merged into one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MergedCatalog {
    /// Every tool in input order, each name once.
    pub tools: Vec<ToolSpec>,
    /// The tools that were dropped, in input order, for the caller to report.
    pub duplicates: Vec<DuplicateTool>,
}

/// Concatenates catalogs in order; a tool whose name already appeared
/// (in an earlier catalog or earlier in the same one) is dropped and listed
/// in [`MergedCatalog::duplicates`].
pub fn merge_catalogs(catalogs: impl IntoIterator<Item = Vec<ToolSpec>>) -> MergedCatalog {
    let mut merged = MergedCatalog::default();
    let mut seen: HashSet<String> = HashSet::new();
    for (catalog, tools) in catalogs.into_iter().enumerate() {
        for tool in tools {
            if seen.contains(&tool.name) {
                merged.duplicates.push(DuplicateTool {
                    name: tool.name,
                    catalog,
                });
            } else {
                seen.insert(tool.name.clone());
                merged.tools.push(tool);
            }
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tools(names: &[&str]) -> Vec<ToolSpec> {
        names.iter().map(|name| ToolSpec::new(*name, "")).collect()
    }

    const CLOSING: &str = "Make independent tool calls in parallel, and never guess an \
                           argument: look up the real path, name or value first.";

    #[test]
    fn inventory_lists_name_and_first_non_blank_line() {
        let catalog = vec![
            ToolSpec::new("Read", "\n   \n  Read a file.  \nMore detail."),
            ToolSpec::new("Bash", "Run a command.\r\nSecond line."),
            ToolSpec::new("Odd", "\u{2028}  Split here\rnot here"),
        ];
        assert_eq!(
            render_inventory(&catalog),
            "Available tools:\n- Read: Read a file.\n- Bash: Run a command.\n- Odd: Split here"
        );
    }

    #[test]
    fn inventory_of_empty_description_leaves_name_and_colon() {
        let catalog = vec![ToolSpec::new("Glob", ""), ToolSpec::new("Grep", " \n\t ")];
        assert_eq!(
            render_inventory(&catalog),
            "Available tools:\n- Glob: \n- Grep: "
        );
    }

    #[test]
    fn inventory_of_empty_catalog_says_none() {
        assert_eq!(render_inventory(&[]), "Available tools:\n(none)");
    }

    #[test]
    fn hints_without_known_tools_hold_only_the_closing_sentence() {
        assert_eq!(render_hints(&[]), CLOSING);
        assert_eq!(render_hints(&tools(&["read", "bash", "Custom"])), CLOSING);
    }

    #[test]
    fn hints_name_present_file_tools_in_fixed_order() {
        let hints = render_hints(&tools(&["Grep", "Read"]));
        assert_eq!(
            hints,
            format!(
                "To read, find and change files, use the dedicated tools (Read and Grep) rather \
                 than shell commands such as cat, sed, find or grep. {CLOSING}"
            )
        );
        let all = render_hints(&tools(&["Write", "Grep", "Glob", "Edit", "Read"]));
        assert!(all.contains("(Read, Edit, Write, Glob and Grep)"), "{all}");
    }

    #[test]
    fn hints_name_only_the_shell_tool_present() {
        let bash = render_hints(&tools(&["Bash"]));
        assert_eq!(
            bash,
            format!(
                "Keep Bash for real terminal work: building, running tests, git, and programs \
                 that only a shell can start. {CLOSING}"
            )
        );
        let shell = render_hints(&tools(&["Shell"]));
        assert!(shell.starts_with("Keep Shell for real"), "{shell}");
        assert!(!shell.contains("Bash"), "{shell}");
        let both = render_hints(&tools(&["Shell", "Bash"]));
        assert!(both.starts_with("Keep Bash and Shell for real"), "{both}");
    }

    #[test]
    fn hints_delegation_sentences_follow_their_tools() {
        for subset in [
            &["Subagent"][..],
            &["Parallel"],
            &["Team"],
            &["Subagent", "Team"],
            &["Parallel", "Subagent", "Team"],
        ] {
            let hints = render_hints(&tools(subset));
            for tool in ["Subagent", "Parallel", "Team"] {
                assert_eq!(
                    hints.contains(tool),
                    subset.contains(&tool),
                    "{tool} in {subset:?}: {hints}"
                );
            }
            assert!(hints.ends_with(CLOSING), "{hints}");
        }
        let ordered = render_hints(&tools(&["Team", "Parallel", "Subagent"]));
        let position = |word: &str| ordered.find(word).unwrap();
        assert!(position("Subagent") < position("Parallel"));
        assert!(position("Parallel") < position("Team"));
    }

    #[test]
    fn hints_keep_parallel_for_isolated_or_competing_branches() {
        let branches = "Use Parallel only for branches that each need their own writable copy \
                        of the work or that compete to solve the same problem";
        assert_eq!(
            render_hints(&tools(&["Parallel"])),
            format!("{branches}, not for independent read-only lookups. {CLOSING}")
        );
        let with_subagent = render_hints(&tools(&["Parallel", "Subagent"]));
        let expected = format!(
            "{branches}; independent read-only lookups go to several Subagent calls in the \
             same turn instead."
        );
        assert!(with_subagent.contains(&expected), "{with_subagent}");
    }

    #[test]
    fn hints_memory_sentence_names_the_memory_tools_present() {
        for tool in MEMORY_TOOLS {
            let hints = render_hints(&tools(&[tool]));
            assert_eq!(
                hints,
                format!(
                    "Saved memory is reachable through {tool}: consult it for what earlier \
                     sessions learned before asking again, and save only durable facts, never \
                     secrets. {CLOSING}"
                )
            );
        }
        let two = render_hints(&tools(&["SearchUserModel", "Recall"]));
        assert!(two.contains("through Recall and SearchUserModel:"), "{two}");
        assert_eq!(two.matches("Saved memory").count(), 1);
    }

    #[test]
    fn hints_with_everything_form_one_paragraph_in_order() {
        let all = render_hints(&tools(&[
            "Team", "Recall", "Bash", "Read", "Parallel", "Subagent",
        ]));
        assert!(!all.contains('\n'));
        assert!(!all.contains("  "));
        let order = [
            "(Read)",
            "Keep Bash",
            "Subagent",
            "Parallel",
            "Team",
            "Recall",
            CLOSING,
        ];
        let positions: Vec<usize> = order.iter().map(|s| all.find(s).unwrap()).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{all}");
    }

    fn names_and_descriptions(tools: &[ToolSpec]) -> Vec<(&str, &str)> {
        tools
            .iter()
            .map(|t| (t.name.as_str(), t.description.as_str()))
            .collect()
    }

    #[test]
    fn parses_plain_array_ignoring_extra_fields() {
        let json = br#"[{"name": "Read", "description": "Read a file", "extra": 1},
                        {"name": "Bash"}, {"name": "Nil", "description": null}]"#;
        let parsed = parse_catalog(json).unwrap();
        assert_eq!(
            names_and_descriptions(&parsed),
            [("Read", "Read a file"), ("Bash", ""), ("Nil", "")]
        );
    }

    #[test]
    fn parses_anthropic_tools() {
        let json = br#"[{"name": "get_weather", "description": "Weather.\nMore.",
            "input_schema": {"type": "object", "properties": {}}},
            {"type": "web_search_20250305", "name": "web_search"}]"#;
        let parsed = parse_catalog(json).unwrap();
        assert_eq!(
            names_and_descriptions(&parsed),
            [("get_weather", "Weather.\nMore."), ("web_search", "")]
        );
    }

    #[test]
    fn parses_openai_chat_and_responses_forms() {
        let chat = br#"[{"type": "function", "function": {"name": "Edit",
            "description": "Edit a file", "parameters": {}}}]"#;
        assert_eq!(
            names_and_descriptions(&parse_catalog(chat).unwrap()),
            [("Edit", "Edit a file")]
        );
        let responses = br#"[{"type": "function", "name": "Grep",
            "description": "Search", "parameters": {}, "strict": true}]"#;
        assert_eq!(
            names_and_descriptions(&parse_catalog(responses).unwrap()),
            [("Grep", "Search")]
        );
    }

    #[test]
    fn parses_mcp_result_and_json_rpc_envelope() {
        let result = br#"{"tools": [{"name": "fetch", "title": "Fetch",
            "description": "Fetch a URL", "inputSchema": {}}], "nextCursor": "x"}"#;
        assert_eq!(
            names_and_descriptions(&parse_catalog(result).unwrap()),
            [("fetch", "Fetch a URL")]
        );
        let envelope = br#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "a", "inputSchema": {}}, {"name": "b", "description": "B"}]}}"#;
        assert_eq!(
            names_and_descriptions(&parse_catalog(envelope).unwrap()),
            [("a", ""), ("b", "B")]
        );
        assert_eq!(parse_catalog(br#"{"tools": []}"#).unwrap(), vec![]);
        assert_eq!(parse_catalog(b"[]").unwrap(), vec![]);
    }

    fn found(bytes: &[u8]) -> String {
        match parse_catalog(bytes) {
            Err(CatalogError::Shape { found }) => found,
            other => panic!("expected a shape error, got {other:?}"),
        }
    }

    #[test]
    fn rejects_other_shapes_with_their_location() {
        assert_eq!(found(b"42"), "found a number");
        assert_eq!(
            found(br#"{"name": "x"}"#),
            "found an object without `tools`"
        );
        assert_eq!(found(br#"{"tools": {}}"#), "found an object at .tools");
        assert_eq!(
            found(br#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -1}}"#),
            "found a JSON-RPC error response"
        );
        assert_eq!(
            found(br#"{"result": {"items": []}}"#),
            "found a `result` object without `tools`"
        );
        assert_eq!(
            found(br#"{"result": []}"#),
            "found `result` holding an array"
        );
        assert_eq!(found(br#"[{"name": "a"}, "b"]"#), "found a string at .[1]");
        assert_eq!(
            found(br#"[{"description": "d"}]"#),
            "found no `name` at .[0]"
        );
        assert_eq!(found(br#"[{"name": ""}]"#), "found an empty name at .[0]");
        assert_eq!(found(br#"[{"name": 3}]"#), "found a number at .[0].name");
        assert_eq!(
            found(br#"{"tools": [{"name": "a", "description": ["x"]}]}"#),
            "found an array at .tools[0].description"
        );
        assert_eq!(
            found(br#"[{"type": "function", "function": {"description": "d"}}]"#),
            "found no `name` at .[0].function"
        );
        assert_eq!(
            found(br#"[{"type": "web_search"}]"#),
            "found no `name` at .[0]"
        );
    }

    #[test]
    fn error_messages_are_one_line_and_name_the_shapes() {
        let errors = [
            parse_catalog(b"{not json").unwrap_err(),
            parse_catalog(b"").unwrap_err(),
            parse_catalog(b"[1] [2]").unwrap_err(),
            parse_catalog(b"null").unwrap_err(),
        ];
        for error in errors {
            let message = error.to_string();
            assert!(!message.contains('\n'), "{message}");
            assert!(message.ends_with(EXPECTED_SHAPES), "{message}");
            assert!(message.contains("MCP tools/list"), "{message}");
        }
        assert!(matches!(
            parse_catalog(b"{not json"),
            Err(CatalogError::NotJson(_))
        ));
    }

    #[test]
    fn rejects_control_characters_in_names() {
        let err = parse_catalog(br#"[{"name": "ok"}, {"name": "bad\u0007name"}]"#).unwrap_err();
        assert_eq!(
            err,
            CatalogError::ControlCharacter {
                at: ".[1]".into(),
                code: 7
            }
        );
        assert_eq!(
            err.to_string(),
            "the tool name at .[1] contains a control character (U+0007)"
        );
        for name in [r"a\nb", r"a\u007fb", r"a\u0085b", r"a\u2028b", r"\u0000"] {
            let json = format!(r#"{{"tools": [{{"name": "{name}"}}]}}"#);
            assert!(
                matches!(
                    parse_catalog(json.as_bytes()),
                    Err(CatalogError::ControlCharacter { .. })
                ),
                "{name}"
            );
        }
        let chat = br#"[{"type": "function", "function": {"name": "x\ty"}}]"#;
        assert_eq!(
            parse_catalog(chat).unwrap_err(),
            CatalogError::ControlCharacter {
                at: ".[0].function".into(),
                code: 9
            }
        );
        // Control characters in descriptions are fine: the inventory keeps one line.
        assert!(parse_catalog(br#"[{"name": "a", "description": "x\u0007"}]"#).is_ok());
    }

    #[test]
    fn merge_keeps_first_of_each_name_and_reports_the_rest() {
        let merged = merge_catalogs([
            vec![ToolSpec::new("Read", "first"), ToolSpec::new("Bash", "")],
            vec![ToolSpec::new("Read", "second"), ToolSpec::new("Grep", "")],
            vec![
                ToolSpec::new("Grep", "again"),
                ToolSpec::new("Grep", "thrice"),
            ],
        ]);
        assert_eq!(
            names_and_descriptions(&merged.tools),
            [("Read", "first"), ("Bash", ""), ("Grep", "")]
        );
        assert_eq!(
            merged.duplicates,
            [
                DuplicateTool {
                    name: "Read".into(),
                    catalog: 1
                },
                DuplicateTool {
                    name: "Grep".into(),
                    catalog: 2
                },
                DuplicateTool {
                    name: "Grep".into(),
                    catalog: 2
                },
            ]
        );
    }

    #[test]
    fn merge_drops_duplicates_within_one_catalog() {
        let merged = merge_catalogs([vec![ToolSpec::new("A", "1"), ToolSpec::new("A", "2")]]);
        assert_eq!(names_and_descriptions(&merged.tools), [("A", "1")]);
        assert_eq!(
            merged.duplicates,
            [DuplicateTool {
                name: "A".into(),
                catalog: 0
            }]
        );
    }

    fn tool_strategy() -> impl Strategy<Value = ToolSpec> {
        ("[A-Za-z_][A-Za-z0-9_ -]{0,12}", any::<String>())
            .prop_map(|(name, description)| ToolSpec { name, description })
    }

    /// Every shape of SPEC §8.4, written from the same tools.
    fn all_shapes(tools: &[ToolSpec]) -> Vec<Value> {
        let plain: Vec<Value> = tools
            .iter()
            .map(|t| serde_json::json!({"name": t.name, "description": t.description}))
            .collect();
        let anthropic: Vec<Value> = tools
            .iter()
            .map(|t| {
                serde_json::json!({"name": t.name, "description": t.description,
                                   "input_schema": {"type": "object"}})
            })
            .collect();
        let chat: Vec<Value> = tools
            .iter()
            .map(|t| {
                serde_json::json!({"type": "function", "function": {"name": t.name,
                                   "description": t.description, "parameters": {}}})
            })
            .collect();
        let responses: Vec<Value> = tools
            .iter()
            .map(|t| {
                serde_json::json!({"type": "function", "name": t.name,
                                   "description": t.description, "parameters": {}})
            })
            .collect();
        let mcp: Vec<Value> = tools
            .iter()
            .map(|t| {
                serde_json::json!({"name": t.name, "description": t.description,
                                   "inputSchema": {}})
            })
            .collect();
        vec![
            Value::Array(plain),
            Value::Array(anthropic),
            Value::Array(chat),
            Value::Array(responses),
            serde_json::json!({"tools": mcp}),
            serde_json::json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": mcp}}),
        ]
    }

    proptest! {
        #[test]
        fn every_shape_round_trips(tools in prop::collection::vec(tool_strategy(), 0..6)) {
            for document in all_shapes(&tools) {
                let bytes = serde_json::to_vec(&document).unwrap();
                prop_assert_eq!(&parse_catalog(&bytes).unwrap(), &tools);
            }
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
            if let Err(error) = parse_catalog(&bytes) {
                prop_assert!(!error.to_string().contains('\n'));
            }
        }

        #[test]
        fn inventory_has_one_line_per_tool(tools in prop::collection::vec(tool_strategy(), 1..6)) {
            let inventory = render_inventory(&tools);
            prop_assert_eq!(inventory.split(is_line_break).count(), tools.len() + 1);
        }
    }
}
