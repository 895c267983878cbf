//! `rules list --for` (SPEC §2.4, §7.5) over real rule files from the
//! corpus: one file per `paths` shape found there, copied byte for byte into
//! a temp workspace, and paths chosen to hit each glob style. The corpus is
//! found as every corpus test finds it (`tests/cli/corpus.rs`); where it is
//! absent these tests are skipped, and the binary says so once.

use serde_json::{Value, json};

use crate::corpus::corpus_root;
use crate::support::{TestEnv, stderr, stdout};

/// Corpus rule files and the name each gets in `.claude/rules/`, with the
/// `paths` shape each stands for.
const CORPUS_RULES: &[(&str, &str)] = &[
    // Block sequence of single-quoted globs.
    (
        "AgentWorkforce__relay/.claude/rules/cli-modules.md",
        "cli-modules",
    ),
    ("AgentWorkforce__relay/.claude/rules/testing.md", "testing"),
    // Block sequence of literal file paths.
    (
        "AgentWorkforce__relay/.claude/rules/mcp-injection.md",
        "mcp-injection",
    ),
    // No frontmatter: unconditional.
    ("AgentWorkforce__relay/.claude/rules/rust.md", "rust"),
    // Flow sequences: an anchored `*`, an exact name, a dot directory.
    (
        "reporails__cli/.claude/rules/documentation.md",
        "documentation",
    ),
    (
        "reporails__cli/.claude/rules/instruction-file-style.md",
        "instruction-file-style",
    ),
    // Double-quoted block sequences: name prefixes with `*`, `**/` prefixes.
    (
        "michael-harris__claude-code-multi-agent-dev-system/.claude/rules/ci-cd.md",
        "ci-cd",
    ),
    (
        "michael-harris__claude-code-multi-agent-dev-system/.claude/rules/docker.md",
        "docker",
    ),
    (
        "triggerdotdev__trigger.dev/.claude/rules/package-installation.md",
        "package-installation",
    ),
    ("GraysonCAdams__scrolly/.claude/rules/styling.md", "styling"),
    // One double-quoted scalar of comma-separated globs (nested in the
    // corpus, where it is not loaded; copied flat here).
    (
        "modu-ai__moai-adk/.claude/rules/moai/languages/typescript.md",
        "moai-typescript",
    ),
];

/// A workspace holding the corpus rules, or `None` without a corpus.
fn corpus_workspace() -> Option<TestEnv> {
    let corpus = corpus_root()?;
    let env = TestEnv::new();
    for (source, name) in CORPUS_RULES {
        env.write(
            &format!(".claude/rules/{name}.md"),
            std::fs::read(corpus.join(source)).unwrap(),
        );
    }
    Some(env)
}

/// One path per glob style, each commented with what it should hit.
const FOR_PATHS: &[&str] = &[
    // `packages/cli/src/cli/**/*.ts` and `**/*.ts`.
    "packages/cli/src/cli/commands/run.ts",
    // A literal path.
    "crates/broker/src/inject.rs",
    // `**/*.test.tsx` and `**/*.tsx`.
    "web/app/button.test.tsx",
    // `docs/*.md`, one level only…
    "docs/guide.md",
    // …so not this one.
    "docs/api/intro.md",
    // An exact root name.
    "README.md",
    // A dot directory under `**`.
    ".claude/rules/rust.md",
    // A root name prefix: `.gitlab-ci*`.
    ".gitlab-ci.yml",
    // `**/Dockerfile*` at depth.
    "services/api/Dockerfile.dev",
    // `**/package.json` with `**` matching nothing.
    "package.json",
    // `src/**/*.svelte` with `**` matching nothing.
    "src/App.svelte",
];

fn list(env: &TestEnv, format: &str, paths: &[&str]) -> std::process::Output {
    let mut cmd = env.cmd();
    cmd.args(["--trust-project", "--format", format, "rules", "list"]);
    for path in paths {
        cmd.args(["--for", path]);
    }
    cmd.output().unwrap()
}

#[test]
fn text_lists_the_rules_that_apply_and_ends_with_the_note() {
    let Some(env) = corpus_workspace() else {
        return;
    };
    let output = list(&env, "text", FOR_PATHS);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    snapbox::assert_data_eq!(
        stdout(&output),
        snapbox::file!["snapshots/eco/rules-for.txt": Text].raw()
    );
}

#[test]
fn json_names_the_path_and_pattern_of_every_match() {
    let Some(env) = corpus_workspace() else {
        return;
    };
    let output = list(&env, "json", FOR_PATHS);
    assert!(output.status.success(), "{}", stderr(&output));
    snapbox::assert_data_eq!(
        stdout(&output),
        snapbox::file!["snapshots/eco/rules-for.json": Text].raw()
    );
}

/// `{rule name: [[path, pattern], …]}` from a JSON listing.
fn matches_by_rule(doc: &Value) -> Vec<(String, Vec<(String, Value)>)> {
    doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| {
            let matches = rule["matches"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["path"].as_str().unwrap().to_string(),
                        m["pattern"].clone(),
                    )
                })
                .collect();
            (rule["name"].as_str().unwrap().to_string(), matches)
        })
        .collect()
}

fn pair(path: &str, pattern: Value) -> (String, Value) {
    (path.to_string(), pattern)
}

#[test]
fn each_glob_style_matches_as_specified() {
    let Some(env) = corpus_workspace() else {
        return;
    };
    let output = list(&env, "json", FOR_PATHS);
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    let by_rule = matches_by_rule(&doc);
    let get = |name: &str| {
        by_rule
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, m)| m.clone())
            .unwrap_or_else(|| panic!("{name} not listed"))
    };
    assert_eq!(
        get("cli-modules"),
        [pair(
            "packages/cli/src/cli/commands/run.ts",
            json!("packages/cli/src/cli/**/*.ts")
        )]
    );
    assert_eq!(
        get("mcp-injection"),
        [pair(
            "crates/broker/src/inject.rs",
            json!("crates/broker/src/inject.rs")
        )]
    );
    assert_eq!(
        get("testing"),
        [pair("web/app/button.test.tsx", json!("**/*.test.tsx"))]
    );
    assert_eq!(
        get("documentation"),
        [
            pair("docs/guide.md", json!("docs/*.md")),
            pair("README.md", json!("README.md"))
        ]
    );
    assert_eq!(
        get("instruction-file-style"),
        [pair(".claude/rules/rust.md", json!(".claude/rules/**"))]
    );
    assert_eq!(get("ci-cd"), [pair(".gitlab-ci.yml", json!(".gitlab-ci*"))]);
    assert_eq!(
        get("docker"),
        [pair("services/api/Dockerfile.dev", json!("**/Dockerfile*"))]
    );
    assert_eq!(
        get("package-installation"),
        [pair("package.json", json!("**/package.json"))]
    );
    assert_eq!(
        get("styling"),
        [pair("src/App.svelte", json!("src/**/*.svelte"))]
    );
    assert_eq!(
        get("moai-typescript"),
        [
            pair("packages/cli/src/cli/commands/run.ts", json!("**/*.ts")),
            pair("web/app/button.test.tsx", json!("**/*.tsx")),
        ]
    );
    // The unconditional rule applies to every path, with no pattern.
    let always: Vec<(String, Value)> = FOR_PATHS.iter().map(|p| pair(p, Value::Null)).collect();
    assert_eq!(get("rust"), always);
    // Every listed rule matched something; `docs/api/intro.md` only the
    // unconditional one.
    assert_eq!(by_rule.len(), CORPUS_RULES.len());
    let intro: Vec<&str> = by_rule
        .iter()
        .filter(|(_, m)| m.iter().any(|(p, _)| p == "docs/api/intro.md"))
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(intro, ["rust"]);
}

#[test]
fn a_path_no_glob_matches_keeps_only_unconditional_rules() {
    let Some(env) = corpus_workspace() else {
        return;
    };
    let output = list(&env, "text", &["notes/todo.txt"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let names: Vec<&str> = text
        .lines()
        .skip(1)
        .map_while(|line| line.split_whitespace().next().filter(|w| *w != "note:"))
        .collect();
    assert_eq!(names, ["rust"]);
    assert!(text.ends_with(
        "\nnote: the engine injects every rule and lets the model apply its condition; --for \
         previews what path-scoped activation would load\n"
    ));
}

#[test]
fn for_paths_are_normalised_and_resolved_against_the_workspace_option() {
    let Some(env) = corpus_workspace() else {
        return;
    };
    let output = list(&env, "json", &["./web//app/./x.test.tsx"]);
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    let testing = matches_by_rule(&doc)
        .into_iter()
        .find(|(name, _)| name == "testing")
        .unwrap();
    assert_eq!(
        testing.1,
        [pair("web/app/x.test.tsx", json!("**/*.test.tsx"))]
    );

    // From a subdirectory, `-C ..` makes the same path relative to the root.
    std::fs::create_dir_all(env.ws.join("web")).unwrap();
    let output = env
        .cmd()
        .current_dir(env.ws.join("web"))
        .args([
            "-C",
            "..",
            "--trust-project",
            "--format",
            "json",
            "rules",
            "list",
        ])
        .args(["--for", "./a//b.ts"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    let typescript = matches_by_rule(&doc)
        .into_iter()
        .find(|(name, _)| name == "moai-typescript")
        .unwrap();
    assert_eq!(typescript.1, [pair("a/b.ts", json!("**/*.ts"))]);
}

#[test]
fn a_for_path_outside_the_workspace_exits_2() {
    let env = TestEnv::new();
    for outside in ["../elsewhere.ts", "/etc/passwd", "a/../../b.ts"] {
        let output = env
            .cmd()
            .args(["rules", "list", "--for", outside])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{outside}");
        assert!(output.stdout.is_empty());
        assert_eq!(
            stderr(&output).replace(&env.ws.display().to_string(), "<WS>"),
            format!("mecatl-prompt: error: --for {outside}: path is outside the workspace <WS>\n")
        );
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "the corpus is reached through /work/…/../shared, which Wine resolves on drive C:"
)]
fn corpus_workspace_in_place_with_flow_sequences() {
    let Some(corpus) = corpus_root() else {
        return;
    };
    let env = TestEnv::new();
    let output = env
        .cmd()
        .arg("-C")
        .arg(corpus.join("reporails__cli"))
        .args(["--trust-project", "--format", "json", "rules", "list"])
        .args([
            "--for",
            "docs/specs/cli.md",
            "--for",
            "src/reporails_cli/bundled/x.yml",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let doc: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        matches_by_rule(&doc),
        [
            (
                "checks-readonly".to_string(),
                vec![pair(
                    "src/reporails_cli/bundled/x.yml",
                    json!("src/reporails_cli/bundled/**")
                )]
            ),
            (
                "specs".to_string(),
                vec![pair("docs/specs/cli.md", json!("docs/specs/**"))]
            ),
        ]
    );
}
