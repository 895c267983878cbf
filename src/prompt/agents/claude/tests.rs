//! Unit tests of the Claude profile over in-memory readers. The recorded
//! oracle cases (`tests/oracle/cases/claude-instructions/`) replay the same
//! loader on disk through the binary; these pin the preview's own rules
//! (trust, the external rule, links, bounds) and the order details.

use std::cell::Cell;
use std::path::Path;

use super::*;
use crate::diagnostic::Severity;
use crate::limits;
use crate::prompt::agents::test_fixture::Fixture;
use crate::prompt::profile::{NotLoadedReason, PartKind, RuleLoad, Scope};
use crate::prompt::walk::walk;
use crate::workspace::{LinkPolicy, MemNode, MemWorkspace};

/// The readers of one test: a workspace at `/home/u/ws`, the filesystem
/// root (holding what lies outside the workspace) and `~/.claude`.
type World = Fixture;

fn new_world() -> World {
    Fixture::new(&Claude, "/home/u/ws", "/home/u", "/home/u/.claude")
}

/// Claude's loader over the fixture's readers, with no managed settings.
trait Load {
    fn world(&self) -> &World;

    fn load(&self, at: &str, trusted: bool, approval: &dyn ExternalApproval) -> ClaudeInstructions {
        self.load_touching(at, trusted, approval, &[])
    }

    fn load_touching(
        &self,
        at: &str,
        trusted: bool,
        approval: &dyn ExternalApproval,
        touch: &[&str],
    ) -> ClaudeInstructions {
        load_managed(self.world(), None, at, trusted, approval, touch)
    }
}

impl Load for World {
    fn world(&self) -> &World {
        self
    }
}

/// Claude's loader over `world`'s readers and the managed settings'.
fn load_managed(
    world: &World,
    managed: Option<&dyn Workspace>,
    at: &str,
    trusted: bool,
    approval: &dyn ExternalApproval,
    touch: &[&str],
) -> ClaudeInstructions {
    let setup = LoadSetup {
        readers: LoadReaders {
            project: &world.project,
            root: Some(&world.parent),
            user: Some(&world.home),
            managed,
        },
        at,
        home: Path::new("/home/u"),
        trusted,
        approval,
    };
    let touch: Vec<String> = touch.iter().map(|t| (*t).to_string()).collect();
    let dirs = walk(Some(&world.parent), &world.project, at).unwrap();
    load_walked(&setup, &dirs, &touch)
}

/// Counts the questions, answers `answer`.
struct Asked {
    answer: bool,
    count: Cell<usize>,
}

impl Asked {
    fn new(answer: bool) -> Self {
        Self {
            answer,
            count: Cell::new(0),
        }
    }
}

impl ExternalApproval for Asked {
    fn approved(&self, project: &Path) -> Result<bool, String> {
        assert_eq!(project, Path::new("/home/u/ws"), "keyed by the git root");
        self.count.set(self.count.get() + 1);
        Ok(self.answer)
    }
}

fn paths(parts: &[Part]) -> Vec<(&str, Scope, PartKind)> {
    parts
        .iter()
        .map(|p| (p.path.as_str(), p.scope, p.kind))
        .collect()
}

fn reasons(result: &ClaudeInstructions) -> Vec<(&str, NotLoadedReason)> {
    result
        .not_loaded
        .iter()
        .map(|n| (n.path.as_str(), n.reason.clone()))
        .collect()
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn the_start_order_is_managed_user_walk_then_memory() {
    let mut world = new_world()
        .ws(".git/HEAD", "")
        .ws("CLAUDE.md", "ROOT @sub/imp.md")
        .ws("sub/imp.md", "IMP")
        .ws(".claude/CLAUDE.md", "DOT")
        .ws(".claude/rules/b.md", "B")
        .ws(".claude/rules/a/c.md", "C")
        .ws("CLAUDE.local.md", "LOCAL")
        .ws("sub/CLAUDE.md", "SUB")
        .above("home/u/CLAUDE.md", "PARENT")
        .user("CLAUDE.md", "USER")
        .user("rules/u.md", "USER-RULE")
        .user(
            "projects/-home-u-ws/memory/MEMORY.md",
            "MEM @not-followed.md",
        );
    world.project = world
        .project
        .with_listing_order(".claude/rules", &["b.md", "a"]);
    let managed = MemWorkspace::new()
        .with_root("/etc/claude-code")
        .with_policy(LinkPolicy::Follow)
        .file("CLAUDE.md", "MANAGED");
    let result = load_managed(&world, Some(&managed), "sub", true, &NoApproval, &[]);
    use PartKind::{AutoMemory, Import, Instructions, Rule};
    use Scope::{Local, Managed, Parent, Project, User};
    assert_eq!(
        paths(&result.parts),
        [
            ("/etc/claude-code/CLAUDE.md", Managed, Instructions),
            ("/home/u/.claude/CLAUDE.md", User, Instructions),
            ("/home/u/.claude/rules/u.md", User, Rule),
            ("/home/u/CLAUDE.md", Parent, Instructions),
            ("CLAUDE.md", Project, Instructions),
            ("sub/imp.md", Project, Import),
            (".claude/CLAUDE.md", Project, Instructions),
            (".claude/rules/b.md", Project, Rule),
            (".claude/rules/a/c.md", Project, Rule),
            ("CLAUDE.local.md", Local, Instructions),
            ("sub/CLAUDE.md", Project, Instructions),
            (
                "/home/u/.claude/projects/-home-u-ws/memory/MEMORY.md",
                User,
                AutoMemory
            ),
        ]
    );
    assert_eq!(result.parts[5].imported_by.as_deref(), Some("CLAUDE.md"));
    assert_eq!(result.parts[11].content, "MEM @not-followed.md");
    assert!(result.not_loaded.is_empty(), "{:?}", result.not_loaded);
}

#[test]
fn agents_md_is_a_fallback_after_the_rules() {
    let world = new_world()
        .ws("AGENTS.md", "AGENTS")
        .ws(".claude/rules/r.md", "RULE")
        .ws("CLAUDE.md", " \n");
    let result = world.load(".", true, &NoApproval);
    assert_eq!(
        paths(&result.parts),
        [
            (".claude/rules/r.md", Scope::Project, PartKind::Rule),
            ("AGENTS.md", Scope::Project, PartKind::Instructions),
        ]
    );
    assert_eq!(reasons(&result), [("CLAUDE.md", NotLoadedReason::Blank)]);

    let world = new_world()
        .ws("AGENTS.md", "AGENTS")
        .ws("sub/CLAUDE.md", "SUB");
    let result = world.load("sub", true, &NoApproval);
    assert_eq!(result.parts.len(), 1);
    assert_eq!(
        reasons(&result),
        [("AGENTS.md", NotLoadedReason::FallbackUnused)]
    );
}

#[test]
fn an_agents_md_brought_in_by_an_import_is_not_listed_as_passed_over() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws("CLAUDE.md", "@AGENTS.md")
        .ws("AGENTS.md", "AGENTS")
        .ws("sub/AGENTS.md", "SUB-AGENTS");
    let result = world.load("sub", true, &Asked::new(true));
    let sent: Vec<&str> = result.parts.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(sent, ["CLAUDE.md", "AGENTS.md"]);
    assert_eq!(
        reasons(&result),
        [("sub/AGENTS.md", NotLoadedReason::FallbackUnused)]
    );
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn untrusted_lists_project_and_local_files_without_reading_them() {
    // An unreadable file would be reported as a read fault if it were opened.
    let world = new_world()
        .ws_node("CLAUDE.md", MemNode::Unreadable)
        .ws_node("CLAUDE.local.md", MemNode::Unreadable)
        .ws_node("AGENTS.md", MemNode::Unreadable)
        .ws_node(".claude/rules/r.md", MemNode::Unreadable)
        .ws("inside.md", "INSIDE")
        .user("CLAUDE.md", "USER @~/ws/inside.md");
    let result = world.load(".", false, &NoApproval);
    assert_eq!(
        paths(&result.parts),
        [(
            "/home/u/.claude/CLAUDE.md",
            Scope::User,
            PartKind::Instructions
        )]
    );
    assert_eq!(
        reasons(&result),
        [
            ("/home/u/ws/inside.md", NotLoadedReason::Withheld),
            ("CLAUDE.md", NotLoadedReason::Withheld),
            (".claude/rules/r.md", NotLoadedReason::Withheld),
            ("AGENTS.md", NotLoadedReason::Withheld),
            ("CLAUDE.local.md", NotLoadedReason::Withheld),
        ]
    );
    assert!(
        result
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Info),
        "{:?}",
        result.diagnostics
    );
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn project_imports_outside_the_workspace_are_never_read() {
    let world = new_world()
        .ws(
            "CLAUDE.md",
            "@~/secret @/etc/hostname @../outside.md @link.md @inside.md",
        )
        .ws_node("link.md", MemNode::Symlink("../secret".into()))
        .ws("inside.md", "INSIDE")
        .above("home/u/secret", "SECRET")
        .above("etc/hostname", "HOST")
        .above("home/u/outside.md", "OUTSIDE");
    for approved in [false, true] {
        let asked = Asked::new(approved);
        let result = world.load(".", true, &asked);
        let sent: Vec<&str> = result.parts.iter().map(|p| p.content.as_str()).collect();
        assert_eq!(sent[1..], ["INSIDE"]);
        let external: Vec<&str> = result
            .not_loaded
            .iter()
            .filter(|n| n.reason == NotLoadedReason::External)
            .map(|n| n.path.as_str())
            .collect();
        assert_eq!(
            external,
            [
                "/home/u/secret",
                "/etc/hostname",
                "/home/u/outside.md",
                "link.md"
            ]
        );
        assert_eq!(asked.count.get(), 0, "nothing here needs the approval");
        let warnings = result
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        assert_eq!(warnings, 4);
    }
}

#[test]
fn imports_outside_the_cwd_follow_the_approval_asked_once() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws("sub/CLAUDE.md", "SUB @../a.md @../b.md @here.md")
        .ws("a.md", "A")
        .ws("b.md", "B")
        .ws("sub/here.md", "HERE")
        .ws_node("sub/link.md", MemNode::Symlink("../a.md".into()))
        .ws("sub/x/CLAUDE.md", "X @../link.md");
    let denied = Asked::new(false);
    let result = world.load("sub", true, &denied);
    let sent: Vec<&str> = result.parts.iter().map(|p| p.content.as_str()).collect();
    assert_eq!(sent, ["SUB @../a.md @../b.md @here.md", "HERE"]);
    assert_eq!(denied.count.get(), 1);
    let approved = Asked::new(true);
    let result = world.load("sub", true, &approved);
    let sent: Vec<&str> = result.parts.iter().map(|p| p.content.as_str()).collect();
    assert_eq!(sent, ["SUB @../a.md @../b.md @here.md", "A", "B", "HERE"]);
    assert_eq!(approved.count.get(), 1);

    // A link inside the cwd that leads outside it is external like the file.
    let result = world.load("sub/x", true, &Asked::new(false));
    assert_eq!(
        reasons(&result),
        [
            ("a.md", NotLoadedReason::External),
            ("b.md", NotLoadedReason::External),
            ("sub/here.md", NotLoadedReason::External),
            ("sub/link.md", NotLoadedReason::External),
        ]
    );
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn user_imports_are_followed_anywhere() {
    let world = new_world()
        .user("CLAUDE.md", "USER @~/notes.md @../other.md @rel.md")
        .user("rel.md", "REL")
        .above("home/u/notes.md", "NOTES")
        .above("home/u/other.md", "OTHER");
    let result = world.load(".", false, &NoApproval);
    let sent: Vec<(&str, Option<&str>)> = result
        .parts
        .iter()
        .map(|p| (p.path.as_str(), p.imported_by.as_deref()))
        .collect();
    let by = Some("/home/u/.claude/CLAUDE.md");
    assert_eq!(
        sent,
        [
            ("/home/u/.claude/CLAUDE.md", None),
            ("/home/u/notes.md", by),
            ("/home/u/other.md", by),
            ("/home/u/.claude/rel.md", by),
        ]
    );
}

#[test]
fn files_over_four_mib_are_skipped_with_a_warning() {
    let limit = usize::try_from(limits::MAX_CLAUDE_FILE_BYTES).unwrap();
    let world = new_world()
        .ws("CLAUDE.md", &"x".repeat(limit + 1))
        .ws("AGENTS.md", &"y".repeat(limit));
    let result = world.load(".", true, &NoApproval);
    assert_eq!(result.parts.len(), 1, "exactly 4 MiB loads");
    assert_eq!(result.parts[0].path, "AGENTS.md");
    assert_eq!(
        reasons(&result),
        [(
            "CLAUDE.md",
            NotLoadedReason::TooLarge {
                bytes: limits::MAX_CLAUDE_FILE_BYTES + 1
            }
        )]
    );
    assert_eq!(result.diagnostics[0].severity, Severity::Warning);
}

#[test]
fn the_import_guard_stops_a_fan_out_with_one_warning() {
    let count = limits::MAX_IMPORTS + 5;
    let text: String = (0..count).map(|i| format!("@f{i}.md\n\n")).collect();
    let mut world = new_world().ws("CLAUDE.md", &text);
    for i in 0..count {
        world = world.ws(&format!("f{i}.md"), "F");
    }
    let result = world.load(".", true, &NoApproval);
    assert_eq!(result.parts.len(), 1 + limits::MAX_IMPORTS);
    let capped = result
        .not_loaded
        .iter()
        .filter(|n| n.reason == NotLoadedReason::Capped)
        .count();
    assert_eq!(capped, 5);
    let warnings: Vec<_> = result
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

#[test]
fn cycles_and_depth_are_bounded() {
    let mut world = new_world()
        .ws("CLAUDE.md", "@a.md")
        .ws("a.md", "A @b.md")
        .ws("b.md", "B @a.md @CLAUDE.md @d1.md");
    for depth in 1..9 {
        world = world.ws(&format!("d{depth}.md"), &format!("@d{}.md", depth + 1));
    }
    let result = world.load(".", true, &NoApproval);
    let sent: Vec<&str> = result.parts.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(sent, ["CLAUDE.md", "a.md", "b.md", "d1.md", "d2.md"]);
    assert_eq!(
        reasons(&result),
        [
            ("a.md", NotLoadedReason::Duplicate),
            ("CLAUDE.md", NotLoadedReason::Duplicate),
            ("d3.md", NotLoadedReason::TooDeep),
        ]
    );
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn conditional_rules_load_when_a_matching_file_is_read() {
    let world = new_world()
        .ws("CLAUDE.md", "ROOT")
        .ws(
            ".claude/rules/rs.md",
            "---\npaths: \"*.rs\"\n---\nRS @imp.txt",
        )
        .ws(".claude/rules/imp.txt", "IMP")
        .ws(".claude/rules/py.md", "---\npaths: \"*.py\"\n---\nPY")
        .ws("src/CLAUDE.md", "SRC")
        .ws("src/CLAUDE.local.md", "SRC-LOCAL")
        .ws("src/AGENTS.md", "NEVER")
        .ws("src/.claude/rules/near.md", "---\npaths: lib.rs\n---\nNEAR")
        .ws("src/.claude/rules/plain.md", "SRC-RULE")
        .user("rules/user.md", "---\npaths: src/*.rs\n---\nUSER");
    let result = world.load_touching(
        ".",
        true,
        &NoApproval,
        &["src/lib.rs", "./src/main.rs", "../x"],
    );
    let start: Vec<&str> = result.parts.iter().map(|p| p.content.as_str()).collect();
    assert_eq!(start, ["ROOT", "IMP"]);
    let touched: Vec<(&str, Vec<&str>)> = result
        .touch
        .iter()
        .map(|t| {
            (
                t.path.as_str(),
                t.parts.iter().map(|p| p.content.as_str()).collect(),
            )
        })
        .collect();
    assert_eq!(
        touched,
        [
            (
                "src/lib.rs",
                vec![
                    "SRC",
                    "SRC-LOCAL",
                    "SRC-RULE",
                    "USER",
                    "NEAR",
                    "RS @imp.txt"
                ]
            ),
            ("src/main.rs", vec![]),
            ("../x", vec![]),
        ]
    );
    let rules: Vec<(&str, RuleLoad, Vec<String>)> = result
        .rules
        .iter()
        .map(|r| (r.path.as_str(), r.loads.clone(), r.paths.clone()))
        .collect();
    assert_eq!(
        rules[..3],
        [
            (
                "/home/u/.claude/rules/user.md",
                RuleLoad::Lazy,
                vec!["src/*.rs".to_string()]
            ),
            (
                ".claude/rules/py.md",
                RuleLoad::Lazy,
                vec!["*.py".to_string()]
            ),
            (
                ".claude/rules/rs.md",
                RuleLoad::Lazy,
                vec!["*.rs".to_string()]
            ),
        ]
    );
}

#[test]
fn a_deep_rules_tree_is_cut_with_a_warning() {
    let deep: String = (0..40).map(|i| format!("d{i}/")).collect();
    let world = new_world()
        .ws(&format!(".claude/rules/{deep}deep.md"), "DEEP")
        .ws(".claude/rules/top.md", "TOP")
        .ws_node(".claude/rules/loop", MemNode::Symlink(".".into()));
    let result = world.load(".", true, &NoApproval);
    let sent: Vec<&str> = result.parts.iter().map(|p| p.content.as_str()).collect();
    assert_eq!(sent, ["TOP"]);
    assert!(
        result
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Warning && d.reason.contains("are not read")),
        "{:?}",
        result.diagnostics
    );
}

#[test]
fn auto_memory_is_cut_like_claude_code_and_keyed_by_the_git_root() {
    let long: String = (0..250).map(|i| format!("line {i}\n")).collect();
    let world = new_world()
        .ws(".git", "gitdir: elsewhere\n")
        .ws("a/b/.keep", "")
        .user("projects/-home-u-ws/memory/MEMORY.md", &long);
    let result = world.load("a/b", true, &NoApproval);
    let memory = &result.parts[0];
    assert_eq!(memory.kind, PartKind::AutoMemory);
    assert_eq!(
        memory.content.lines().count(),
        limits::MAX_CLAUDE_MEMORY_LINES
    );
    let cut = memory.cut.expect("cut");
    assert_eq!(cut.kept, memory.content.len() as u64);
    assert!(cut.omitted > 0);
}

#[test]
fn an_invalid_paths_block_is_read_again_like_claude_code() {
    let world = new_world().ws(".claude/rules/ts.md", "---\npaths: **/*.ts\n---\nTS");
    let result = world.load(".", true, &NoApproval);
    assert!(result.parts.is_empty());
    assert_eq!(result.rules[0].loads, RuleLoad::Lazy);
    assert_eq!(result.rules[0].paths, ["**/*.ts"]);
    assert!(
        result
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Warning)
    );
}
