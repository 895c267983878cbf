//! Replays of `tests/oracle/cases/claude-instructions/`: what Claude Code 2.1.328 sent as
//! instruction parts, checked against what the Claude profile loads from the same files —
//! the content transform (`prompt::markdown`) on every captured part, and the whole
//! profile ([`profile_parts`]) part by part: the sequence of (path, scope, content) at
//! start and, for a prompt mentioning `@path`, what reading that file adds. Rule files of
//! one directory are compared as a set (their order is the filesystem's) and our order is
//! checked against a raw `read_dir` walk of the replayed tree.

use std::path::Path;

use mecatl_prompt::limits;
use mecatl_prompt::prompt::imports;
use mecatl_prompt::prompt::markdown::{claude_content, claude_memory};
use serde_json::Value;

use super::{Fixture, assemble_profile, cases};

const GROUP: &str = "claude-instructions";
const SCOPES: [&str; 5] = ["project", "local", "user", "managed", "auto-memory"];

/// One instruction part: a file and what Claude Code sent of it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Part {
    path: String,
    /// `None` for a part that arrived lazily (`touch`), which carries no label.
    scope: Option<String>,
    content: String,
}

impl Part {
    fn from_json(value: &Value) -> Part {
        Part {
            path: value["path"].as_str().expect("part path").to_string(),
            scope: value["scope"].as_str().map(String::from),
            content: value["content"].as_str().expect("part content").to_string(),
        }
    }
}

fn parts(fixture: &Fixture, key: &str) -> Vec<Part> {
    fixture.expected[key]
        .as_array()
        .unwrap_or_else(|| panic!("{}: no {key} array", fixture.name()))
        .iter()
        .map(Part::from_json)
        .collect()
}

fn fixtures() -> Vec<Fixture> {
    cases(GROUP).iter().map(|dir| Fixture::load(dir)).collect()
}

/// The file's bytes, lossily decoded, when it is one Claude Code would read.
fn read_text(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > limits::MAX_CLAUDE_FILE_BYTES {
        return None;
    }
    Some(String::from_utf8_lossy(&std::fs::read(path).ok()?).into_owned())
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded cases hold symbolic links to directories, copied as file links"
)]
fn every_case_is_recorded_from_its_own_case_file() {
    let all = fixtures();
    assert!(
        all.len() >= 28,
        "only {} claude-instructions cases",
        all.len()
    );
    for fixture in &all {
        let name = fixture.name();
        let case = &fixture.case;
        assert_eq!(case["agent"], "claude", "{name}");
        assert_eq!(case["agent_version"], "2.1.328", "{name}");
        assert_eq!(
            case["capture"],
            format!("python3 tests/oracle/record.py {name}"),
            "{name}"
        );
        assert!(
            case["what"].as_str().is_some_and(|w| !w.is_empty()),
            "{name}: what"
        );
        let at = imports::normalise(&fixture.workspace.join(fixture.at()));
        assert_eq!(at, fixture.cwd, "{name}: --at");
        for part in parts(fixture, "parts")
            .iter()
            .chain(&parts(fixture, "touch"))
        {
            if let Some(scope) = &part.scope {
                assert!(SCOPES.contains(&scope.as_str()), "{name}: scope {scope}");
            }
            assert!(
                Path::new(&part.path).is_file(),
                "{name}: {} is not in the replayed case",
                part.path
            );
            assert!(
                !part.content.contains("system-reminder"),
                "{name}: agent text stored"
            );
        }
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded cases hold symbolic links to directories, copied as file links"
)]
fn the_transform_of_every_loaded_file_is_what_claude_code_sent() {
    for fixture in &fixtures() {
        let memory_truncated: Vec<Option<bool>> = fixture.expected["parts"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| p["truncated"].as_bool())
            .collect();
        let all = parts(fixture, "parts").into_iter().zip(memory_truncated);
        let touch = parts(fixture, "touch").into_iter().map(|p| (p, None));
        for (part, truncated) in all.chain(touch) {
            let what = format!("{}: {}", fixture.name(), part.path);
            let text =
                read_text(Path::new(&part.path)).unwrap_or_else(|| panic!("{what}: unreadable"));
            if part.scope.as_deref() == Some("auto-memory") {
                let (content, cut) =
                    claude_memory(&text).unwrap_or_else(|| panic!("{what}: blank"));
                assert_eq!(content, part.content, "{what}");
                assert_eq!(Some(cut), truncated, "{what}: truncated");
            } else {
                let content = claude_content(&text).unwrap_or_else(|| panic!("{what}: blank"));
                assert_eq!(content, part.content, "{what}");
            }
        }
    }
}

#[test]
fn files_claude_code_skipped_are_blank_or_too_large_to_us() {
    let cases = [
        ("transform-blank-files", "ws/.claude/rules/spaces.md"),
        ("transform-blank-files", "ws/.claude/rules/comment-only.md"),
        ("transform-blank-files", "ws/.claude/rules/ideographic.md"),
        (
            "transform-blank-files",
            "ws/.claude/rules/frontmatter-only.md",
        ),
        ("blank-claude-keeps-fallback", "ws/CLAUDE.md"),
        ("size-rules", "ws/.claude/rules/over.md"),
        ("size-claude-fallback", "ws/CLAUDE.md"),
    ];
    for (case, file) in cases {
        let fixture = Fixture::load(&super::cases_dir().join(GROUP).join(case));
        let path = fixture.tree.join(file);
        assert!(path.is_file(), "{case}: {file} missing");
        let sent = parts(&fixture, "parts")
            .iter()
            .any(|p| Path::new(&p.path) == path);
        assert!(!sent, "{case}: {file} was sent");
        let ours = read_text(&path).and_then(|text| claude_content(&text).map(|c| c.into_owned()));
        assert_eq!(ours, None, "{case}: {file}");
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "recorded cases hold symbolic links to directories, copied as file links"
)]
fn the_profile_loads_the_parts_claude_code_sent() {
    for fixture in &fixtures() {
        let ours = profile_parts(fixture);
        let expected = deliberately_not_read(fixture, parts(fixture, "parts"), &ours.external);
        let rules = [&ours.start_rules[..], &ours.touch_rules, &ours.activated].concat();
        assert_parts_match(fixture, &expected, &ours.start, &rules);
        assert_parts_match(fixture, &parts(fixture, "touch"), &ours.touch, &rules);
        for rules in [&ours.start_rules, &ours.touch_rules, &ours.activated] {
            assert_rule_order_is_listing_order(fixture, rules);
        }
    }
}

/// What the profile loads for a case, in Claude Code's terms.
struct Profile {
    /// The parts at start: absolute paths, and `project` for our `parent` (Claude Code
    /// labels files above the workspace as project files), `auto-memory` for the
    /// auto-memory part.
    start: Vec<Part>,
    /// The parts reading the file the prompt mentions adds (unlabelled, as captured).
    touch: Vec<Part>,
    /// Imports listed as external (not read).
    external: Vec<String>,
    /// The rule parts at start, in order.
    start_rules: Vec<String>,
    /// The rule parts of directories read lazily, in order.
    touch_rules: Vec<String>,
    /// The conditional rules the touched file activated, in order.
    activated: Vec<String>,
}

/// The profile's document for a case: `assemble --agent claude --format json` on the
/// replayed tree, with the case's HOME, its `--at`, the file its prompt mentions as
/// `--touch`, and its approval of external imports written where Claude Code keeps it
/// (`~/.claude.json`, keyed by the git root).
fn profile_document(fixture: &Fixture) -> Value {
    if fixture.case["approve_external"].as_bool() == Some(true) {
        let key = git_root(fixture).display().to_string();
        let config = serde_json::json!({
            "projects": {key: {"hasClaudeMdExternalIncludesApproved": true}}
        });
        std::fs::write(fixture.home.join(".claude.json"), config.to_string())
            .expect("write .claude.json");
    }
    let mentioned = mentioned(fixture);
    let touch: Vec<&str> = match &mentioned {
        Some(path) => vec!["--touch", path],
        None => Vec::new(),
    };
    assemble_profile(fixture, "claude", &touch).0
}

/// Where Claude Code keys the project: the nearest directory holding `.git` from the
/// cwd up, else the cwd.
fn git_root(fixture: &Fixture) -> std::path::PathBuf {
    fixture
        .cwd
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .unwrap_or(&fixture.cwd)
        .to_path_buf()
}

fn profile_parts(fixture: &Fixture) -> Profile {
    let document = profile_document(fixture);
    let absolute = |part: &Value| -> String {
        let path = part["path"].as_str().expect("path");
        if matches!(part["scope"].as_str(), Some("project" | "local")) {
            fixture.workspace.join(path).display().to_string()
        } else {
            path.to_string()
        }
    };
    let ours = |part: &Value, labelled: bool| Part {
        path: absolute(part),
        scope: labelled.then(|| match (part["scope"].as_str(), part["kind"].as_str()) {
            (_, Some("auto-memory")) => "auto-memory".to_string(),
            (Some("parent"), _) => "project".to_string(),
            (scope, _) => scope.expect("scope").to_string(),
        }),
        content: part["content"].as_str().expect("content").to_string(),
    };
    let array = |value: &Value| value.as_array().cloned().unwrap_or_default();
    let start: Vec<Value> = array(&document["messages"])
        .iter()
        .flat_map(|m| array(&m["parts"]))
        .collect();
    let touch: Vec<Value> = array(&document["touch"])
        .iter()
        .flat_map(|t| array(&t["parts"]))
        .collect();
    let not_loaded = array(&document["not_loaded"]);
    let listed = |phrase: &str| -> Vec<String> {
        not_loaded
            .iter()
            .filter(|n| n["reason"].as_str().is_some_and(|r| r.starts_with(phrase)))
            .map(absolute)
            .collect()
    };
    let conditional = listed("conditional");
    let rules = |parts: &[Value], activated: bool| -> Vec<String> {
        parts
            .iter()
            .filter(|p| p["kind"] == "rule")
            .map(absolute)
            .filter(|path| conditional.contains(path) == activated)
            .collect()
    };
    Profile {
        start_rules: rules(&start, false),
        touch_rules: rules(&touch, false),
        activated: rules(&touch, true),
        start: start.iter().map(|p| ours(p, true)).collect(),
        touch: touch.iter().map(|p| ours(p, false)).collect(),
        external: listed("external"),
    }
}

/// The captured parts without those the preview deliberately never reads (SPEC §14.3):
/// imports from project files that lie outside the workspace, which Claude Code reads
/// only when external imports are approved. Each one must be listed by the profile as
/// external, and only an approved case may have any.
fn deliberately_not_read(fixture: &Fixture, captured: Vec<Part>, external: &[String]) -> Vec<Part> {
    let (outside, kept): (Vec<Part>, Vec<Part>) = captured.into_iter().partition(|part| {
        !Path::new(&part.path).starts_with(&fixture.workspace) && external.contains(&part.path)
    });
    if !outside.is_empty() {
        assert_eq!(
            fixture.case["approve_external"].as_bool(),
            Some(true),
            "{}: {outside:#?} were sent without approval",
            fixture.name()
        );
    }
    kept
}

/// The workspace-relative path of the file the case's prompt mentions (`@path hi`), as
/// seen from the workspace root.
fn mentioned(fixture: &Fixture) -> Option<String> {
    let prompt = fixture.case["prompt"].as_str().unwrap_or("hi");
    let word = prompt.split_whitespace().next()?.strip_prefix('@')?;
    let path = imports::normalise(&fixture.cwd.join(word));
    Some(
        path.strip_prefix(&fixture.workspace)
            .unwrap_or(&path)
            .display()
            .to_string(),
    )
}

/// Rule files of one tree come in the order a raw `read_dir` walk of the replayed tree
/// gives them (Claude Code does not sort; neither does the profile). `rules` is one
/// phase's rule parts, in the profile's order.
fn assert_rule_order_is_listing_order(fixture: &Fixture, rules: &[String]) {
    let mut roots: Vec<&str> = rules.iter().filter_map(|p| rules_root(p)).collect();
    roots.dedup();
    for root in roots {
        let ours: Vec<&String> = rules
            .iter()
            .filter(|p| rules_root(p) == Some(root))
            .collect();
        let listing: Vec<String> = raw_walk(Path::new(root))
            .into_iter()
            .filter(|path| ours.contains(&path))
            .collect();
        let ours: Vec<String> = ours.into_iter().cloned().collect();
        assert_eq!(ours, listing, "{}: rule order under {root}", fixture.name());
    }
}

/// Every file below `dir`, depth first, in `read_dir` order.
fn raw_walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            out.extend(raw_walk(&path));
        } else {
            out.push(path.display().to_string());
        }
    }
    out
}

/// The profile's parts equal the captured ones: same sequence, except that the rule files
/// of one `.claude/rules` tree come in the filesystem's listing order, so each such run is
/// compared as a set.
fn assert_parts_match(fixture: &Fixture, expected: &[Part], actual: &[Part], rules: &[String]) {
    let name = fixture.name();
    assert_eq!(
        actual.len(),
        expected.len(),
        "{name}: {actual:#?}\nexpected {expected:#?}"
    );
    // A rule reached through a link is named by its real path, outside any
    // rules directory: it belongs to the run it appears in.
    let linked_rule = |path: &str| rules_root(path).is_none() && rules.iter().any(|r| r == path);
    let mut at = 0;
    while at < expected.len() {
        let rules_dir = rules_root(&expected[at].path);
        let run = expected[at..]
            .iter()
            .take_while(|p| {
                rules_dir.is_some() && (rules_root(&p.path) == rules_dir || linked_rule(&p.path))
            })
            .count()
            .max(1);
        let mut want: Vec<&Part> = expected[at..at + run].iter().collect();
        let mut got: Vec<&Part> = actual[at..at + run].iter().collect();
        if run > 1 {
            want.sort_by(|a, b| a.path.cmp(&b.path));
            got.sort_by(|a, b| a.path.cmp(&b.path));
        }
        assert_eq!(got, want, "{name}: parts {at}..{}", at + run);
        at += run;
    }
}

/// The `…/.claude/rules` (or `~/.claude/rules`) directory a path lies under, if any.
fn rules_root(path: &str) -> Option<&str> {
    path.find("/.claude/rules/")
        .map(|at| &path[..at + "/.claude/rules/".len()])
}
