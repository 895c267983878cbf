//! Replays of `tests/oracle/cases/claude-instructions/`: what Claude Code 2.1.328 sent as
//! instruction parts, checked against the pure pieces the Claude profile is built from —
//! the content transform (`prompt::markdown`) and the import scanner and policy
//! (`prompt::imports`).
//!
//! [`profile_parts`] is where the wired profile plugs in: today it rebuilds a case's
//! sequence from the captured walk files plus the imports our pieces predict, and
//! [`assert_parts_match`] compares it with the capture the way the full profile will be
//! compared (rule files of one directory as a set: their order is the filesystem's).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use mecatl_prompt::limits;
use mecatl_prompt::prompt::command::claude_dialect::split_frontmatter;
use mecatl_prompt::prompt::imports::{self, Bounds, Loaded, NotLoaded, Origin};
use mecatl_prompt::prompt::markdown::{claude_content, claude_memory};
use serde_json::Value;

use super::{Fixture, cases};

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
fn the_imports_our_pieces_predict_are_the_parts_claude_code_sent() {
    for fixture in &fixtures() {
        let expected = parts(fixture, "parts");
        let mut loaded = Loaded::default();
        let actual = profile_parts(fixture, &expected, &mut loaded);
        assert_parts_match(fixture, &expected, &actual);
        let touch = parts(fixture, "touch");
        let actual = profile_parts(fixture, &touch, &mut loaded);
        assert_parts_match(fixture, &touch, &actual);
    }
}

/// The profile's parts for a case. Until the Claude profile is wired, this rebuilds them
/// from the capture's own walk files (every part no earlier part imported), each followed
/// by the imports `prompt::imports` and `prompt::markdown` predict for it. Once the
/// profile exists this becomes one call to it, and the comparison stays.
fn profile_parts(fixture: &Fixture, captured: &[Part], loaded: &mut Loaded) -> Vec<Part> {
    let bounds = Bounds {
        home: fixture.home.clone(),
        cwd: fixture.cwd.clone(),
        workspace: fixture.workspace.clone(),
        external_approved: fixture.case["approve_external"].as_bool() == Some(true),
    };
    let mut out = Vec::new();
    let mut predicted: VecDeque<Part> = VecDeque::new();
    for part in captured {
        if let Some(next) = predicted.pop_front() {
            out.push(next);
            continue;
        }
        let path = PathBuf::from(&part.path);
        assert!(
            is_walk_file(&path) || part.scope.as_deref() == Some("auto-memory"),
            "{}: {} is neither a walk file nor an import we predicted",
            fixture.name(),
            part.path
        );
        loaded.claim(&path);
        out.push(part.clone());
        let origin = match part.scope.as_deref() {
            Some("auto-memory") => continue,
            Some("user") => Origin::User,
            Some("managed") => Origin::Managed,
            _ => Origin::Project,
        };
        let mut found = Vec::new();
        expand(
            &path,
            0,
            origin,
            part.scope.as_deref(),
            &bounds,
            loaded,
            &mut found,
        );
        predicted.extend(found);
    }
    out.extend(predicted);
    out
}

/// Whether the walk itself (not an import) can load `path`: an instruction file by name,
/// or anything in a `.claude/rules` tree (a conditional rule's imports arrive without the
/// rule).
fn is_walk_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    matches!(name, "CLAUDE.md" | "CLAUDE.local.md" | "AGENTS.md")
        || rules_root(&path.display().to_string()).is_some()
}

/// Depth-first, pre-order: the parts the imports of `file` (at `depth`) add.
fn expand(
    file: &Path,
    depth: usize,
    origin: Origin,
    scope: Option<&str>,
    bounds: &Bounds,
    loaded: &mut Loaded,
    out: &mut Vec<Part>,
) {
    let Some(text) = read_text(file) else { return };
    let found = imports::scan(split_frontmatter(&text).1);
    for candidate in imports::candidates(found, file, depth, origin, bounds) {
        if !claude_reads(candidate.refused, bounds) || loaded.admit(&candidate.target).is_err() {
            continue;
        }
        let Some(text) = read_text(&candidate.target) else {
            continue;
        };
        let Some(content) = claude_content(&text) else {
            continue;
        };
        loaded.add_bytes(text.len() as u64);
        out.push(Part {
            path: candidate.target.display().to_string(),
            scope: scope.map(String::from),
            content: content.into_owned(),
        });
        expand(
            &candidate.target,
            candidate.depth,
            origin,
            scope,
            bounds,
            loaded,
            out,
        );
    }
}

/// Whether Claude Code reads an import we judged so. The preview never reads a project
/// import outside the workspace (SPEC §14.3, deliberate); Claude Code does when the user
/// approved external includes, so the replay follows Claude Code there.
fn claude_reads(refused: Option<NotLoaded>, bounds: &Bounds) -> bool {
    match refused {
        None => true,
        Some(NotLoaded::OutsideWorkspace) => bounds.external_approved,
        Some(_) => false,
    }
}

/// The profile's parts equal the captured ones: same sequence, except that the rule files
/// of one `.claude/rules` tree come in the filesystem's listing order, so each such run is
/// compared as a set.
fn assert_parts_match(fixture: &Fixture, expected: &[Part], actual: &[Part]) {
    let name = fixture.name();
    assert_eq!(
        actual.len(),
        expected.len(),
        "{name}: {actual:#?}\nexpected {expected:#?}"
    );
    let mut at = 0;
    while at < expected.len() {
        let rules_dir = rules_root(&expected[at].path);
        let run = expected[at..]
            .iter()
            .take_while(|p| rules_dir.is_some() && rules_root(&p.path) == rules_dir)
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
