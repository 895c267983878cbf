//! The JSON Schemas under `schemas/` (SPEC §15.5) against real outputs:
//! every JSON document the binary prints, under each profile, validates
//! against its schema; every schema is exercised by some output; and a
//! document with a wrong type or an unknown field does not validate.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::lint::lint_env;
use crate::lint_config::README_CONFIG;
use crate::support::{FIXED_ENV, TestEnv, code, compile_schema, json, stderr};

/// The schema files, `schemas/*.json`.
fn schema_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

/// Validates JSON outputs against the schema files, remembering which
/// files it used.
#[derive(Default)]
struct Validator {
    used: BTreeSet<String>,
}

impl Validator {
    /// Runs the binary with `args` in `env`, which must print one JSON
    /// document valid against `schemas/<file>.json`, and returns it.
    fn run(&mut self, env: &TestEnv, file: &str, args: &[&str]) -> Value {
        let out = env.run(args);
        assert!(
            matches!(code(&out), Some(0 | 1)),
            "{args:?} failed: {}",
            stderr(&out)
        );
        let doc = json(&out);
        self.check(file, &doc, args);
        doc
    }

    /// Asserts that `doc` is valid against `schemas/<file>.json`.
    fn check(&mut self, file: &str, doc: &Value, what: &[&str]) {
        let (schemas, index) = schema(file);
        if let Err(err) = schemas.validate(doc, index) {
            panic!("{what:?} does not validate against schemas/{file}.json:\n{err:#}");
        }
        self.used.insert(format!("{file}.json"));
    }
}

/// `schemas/<file>.json`, compiled.
fn schema(file: &str) -> (boon::Schemas, boon::SchemaIndex) {
    let path = schema_dir().join(format!("{file}.json"));
    let url = format!("file://{}", path.display());
    compile_schema(&path, &url)
}

/// The demo workspace, a git root, with a Codex skill and a Claude command
/// that attaches files, so that every profile's shapes have rows.
fn demo_env() -> TestEnv {
    let env = TestEnv::demo();
    std::fs::create_dir_all(env.ws.join(".git")).expect("a git root");
    env.write(
        ".agents/skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Write the notes\n---\nWrite them.\n",
    );
    env.write(
        ".claude/commands/attach.md",
        "Read @AGENTS.md and @missing.md, then $ARGUMENTS.\n",
    );
    env
}

/// `args` after the global options `head` and the fixed environment.
fn fixed<'a>(head: &[&'a str], args: &[&'a str]) -> Vec<&'a str> {
    let mut all = head.to_vec();
    all.extend(args);
    all.extend(FIXED_ENV);
    all
}

const JSON: [&str; 3] = ["--format", "json", "--trust-project"];
const CLAUDE: [&str; 5] = ["--format", "json", "--trust-project", "--agent", "claude"];
const CODEX: [&str; 5] = ["--format", "json", "--trust-project", "--agent", "codex"];

/// Counts the entries of the array at `pointer`.
fn len(doc: &Value, pointer: &str) -> usize {
    doc.pointer(pointer)
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

#[test]
fn every_json_output_validates_against_its_schema() {
    let env = demo_env();
    let mut v = Validator::default();
    let run = |v: &mut Validator, file, head: &[&str], args: &[&str]| {
        let mut all = head.to_vec();
        all.extend(args);
        v.run(&env, file, &all)
    };

    // The engine.
    v.run(&env, "build", &fixed(&JSON, &["build", "--stats"]));
    v.run(&env, "build", &["--format", "json", "build"]);
    v.run(
        &env,
        "build-check-stable",
        &fixed(&JSON, &["build", "--check-stable"]),
    );
    run(
        &mut v,
        "expand",
        &JSON,
        &["expand", "/review", "src/pay.go"],
    );
    run(&mut v, "expand", &JSON, &["expand", "not a command"]);
    run(&mut v, "commands-list", &JSON, &["commands", "list"]);
    run(
        &mut v,
        "commands-list",
        &["--format", "json"],
        &["commands", "list"],
    );
    run(&mut v, "rules-list", &JSON, &["rules", "list"]);
    run(
        &mut v,
        "rules-list",
        &JSON,
        &["rules", "list", "--for", "src/pay.go"],
    );
    run(&mut v, "assemble", &JSON, &["assemble", "--stats"]);
    let explain = run(&mut v, "explain", &JSON, &["explain", "review"]);
    assert!(len(&explain, "/command/candidates") > 0, "candidates shown");
    run(&mut v, "explain", &JSON, &["explain", "money"]);
    run(
        &mut v,
        "explain",
        &JSON,
        &["explain", "nothing-of-that-name"],
    );
    let snapshot = run(&mut v, "snapshot", &["--trust-project"], &["snapshot"]);
    let saved = env.root.join("snapshot.json");
    std::fs::write(&saved, snapshot.to_string()).expect("save the manifest");
    env.write("AGENTS.md", "Changed since the snapshot.\n");
    let check = run(
        &mut v,
        "check",
        &JSON,
        &["check", "--against", &saved.display().to_string()],
    );
    assert!(len(&check, "/differences") > 0, "differences shown");

    // Claude Code.
    let assembled = run(
        &mut v,
        "assemble-profile",
        &CLAUDE,
        &["assemble", "--stats", "--touch", "web/app.tsx"],
    );
    assert!(len(&assembled, "/messages/0/parts") > 0, "parts shown");
    assert!(len(&assembled, "/touch") > 0, "touched paths shown");
    let listed = run(&mut v, "commands-list", &CLAUDE, &["commands", "list"]);
    assert!(len(&listed, "/commands") > 0, "Claude commands listed");
    let rules = run(&mut v, "rules-list-profile", &CLAUDE, &["rules", "list"]);
    assert!(len(&rules, "/rules") > 0, "Claude rules listed");
    let expanded = run(&mut v, "expand", &CLAUDE, &["expand", "/attach", "go"]);
    assert!(len(&expanded, "/attachments") > 0, "attachments shown");
    let unchanged = run(&mut v, "expand", &CLAUDE, &["expand", "plain", "words"]);
    assert_eq!(
        unchanged["kind"],
        Value::Null,
        "a flattened field left null"
    );
    let expanded = run(&mut v, "expand", &CLAUDE, &["expand", "/git:commit"]);
    assert!(len(&expanded, "/shell") > 0, "shell placeholders shown");
    run(&mut v, "explain", &CLAUDE, &["explain", "CLAUDE.md"]);
    run(&mut v, "explain", &CLAUDE, &["explain", "review"]);
    run(&mut v, "snapshot", &CLAUDE[2..], &["snapshot"]);

    // Codex.
    let assembled = run(&mut v, "assemble-profile", &CODEX, &["assemble", "--stats"]);
    assert_eq!(assembled["stats"]["tokenizer"], "o200k_base");
    let skills = run(&mut v, "commands-list", &CODEX, &["commands", "list"]);
    assert!(len(&skills, "/commands") > 0, "Codex skills listed");
    run(&mut v, "rules-list-profile", &CODEX, &["rules", "list"]);
    let expanded = run(&mut v, "expand", &CODEX, &["expand", "use", "$notes"]);
    assert!(len(&expanded, "/skills") > 0, "skill blocks shown");
    run(&mut v, "explain", &CODEX, &["explain", "AGENTS.md"]);
    run(&mut v, "explain", &CODEX, &["explain", "notes"]);

    // The providers' shapes.
    for format in ["anthropic", "openai"] {
        let schema = |side| match format {
            "anthropic" if side == "build" => "anthropic-system",
            "anthropic" => "anthropic-messages",
            _ => "openai-messages",
        };
        let head = ["--trust-project", "--format", format];
        v.run(&env, schema("build"), &fixed(&head, &["build"]));
        run(&mut v, schema("assemble"), &head, &["assemble"]);
        let mut claude = head.to_vec();
        claude.extend(["--agent", "claude"]);
        run(&mut v, schema("assemble"), &claude, &["assemble"]);
    }

    // compare, of every profile and of two with their diff.
    let compared = run(
        &mut v,
        "compare",
        &JSON,
        &["compare", "--touch", "web/app.tsx"],
    );
    assert!(len(&compared, "/files") > 0, "rows shown");
    let diffed = run(
        &mut v,
        "compare",
        &JSON,
        &["compare", "--diff", "claude,codex"],
    );
    assert!(diffed["diff"].is_object(), "the diff shown");

    // lint, on a workspace with findings, under every profile.
    let lint = v.run(&lint_env(), "lint", &["--format", "json", "lint"]);
    assert!(len(&lint, "/findings") > 0, "findings shown");

    // lint's configuration (TOML, read as JSON) and the baseline it writes.
    let config: Value = toml::from_str(README_CONFIG).expect("TOML");
    v.check("mecatl-prompt-toml", &config, &[".mecatl-prompt.toml"]);
    let lint_ws = lint_env();
    lint_ws.write(".mecatl-prompt.toml", README_CONFIG);
    let out = lint_ws.run(&["lint", "--write-baseline", "accepted.json"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(lint_ws.ws.join("accepted.json")).expect("written");
    let baseline: Value = serde_json::from_str(&written).expect("JSON");
    v.check("lint-baseline", &baseline, &["lint", "--write-baseline"]);
    assert!(len(&baseline, "/findings") > 0, "findings recorded");

    let mut files: Vec<String> = std::fs::read_dir(schema_dir())
        .expect("schemas/")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let used: Vec<String> = v.used.into_iter().collect();
    assert_eq!(used, files, "every schema validated some real output");
}

#[test]
fn schemas_reject_a_wrong_type_and_an_unknown_field() {
    let env = demo_env();
    let mut v = Validator::default();
    let doc = v.run(&env, "build", &fixed(&JSON, &["build", "--stats"]));
    let (schemas, index) = schema("build");

    let mut wrong = doc.clone();
    wrong["prefix_bytes"] = Value::from("12");
    assert!(
        schemas.validate(&wrong, index).is_err(),
        "a count as a string"
    );

    let mut wrong = doc.clone();
    wrong["stats"]["prefix"]["total"]["tokens"] = Value::from(-1);
    assert!(schemas.validate(&wrong, index).is_err(), "a negative count");

    let mut wrong = doc.clone();
    wrong["trust"]["source"] = Value::from("guess");
    assert!(
        schemas.validate(&wrong, index).is_err(),
        "an unknown enum word"
    );

    let mut wrong = doc.clone();
    wrong["schema"] = Value::from("mecatl-prompt/v2");
    assert!(
        schemas.validate(&wrong, index).is_err(),
        "another schema tag"
    );

    let mut wrong = doc;
    wrong["diagnostics"] =
        serde_json::json!([{"severity": "warning", "path": null, "reason": "r", "extra": 1}]);
    assert!(schemas.validate(&wrong, index).is_err(), "an unknown field");

    // The configuration's schema is as strict as the tool: a misspelt key,
    // a severity that is not one, an override without globs.
    let (schemas, index) = schema("mecatl-prompt-toml");
    let valid: Value = toml::from_str(README_CONFIG).expect("TOML");
    assert!(schemas.validate(&valid, index).is_ok());
    for wrong in [
        "[lint]\ndisabel = [\"MP004\"]\n",
        "[lint.severity]\nMP004 = \"fatal\"\n",
        "[lint]\nagents = []\n",
        "[[lint.overrides]]\ndisable = [\"MP004\"]\n",
        "[lint]\ndeny = [\"notes\"]\n",
    ] {
        let wrong: Value = toml::from_str(wrong).expect("TOML");
        assert!(schemas.validate(&wrong, index).is_err(), "{wrong}");
    }

    // A hand-written schema (a profile's part) is as strict.
    let doc = v.run(
        &env,
        "assemble-profile",
        &[&CLAUDE[..], &["assemble"]].concat(),
    );
    let (schemas, index) = schema("assemble-profile");
    let mut wrong = doc;
    wrong["messages"][0]["parts"][0]["bytes"] = Value::from("many");
    assert!(
        schemas.validate(&wrong, index).is_err(),
        "a part's size as a word"
    );
}
