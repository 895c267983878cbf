//! The opencode profile over in-memory workspaces: trust, switches,
//! `instructions` entries that leave the workspace or are URLs, links,
//! `--touch`, the walk's root, and the limits. The recorded oracle cases
//! (`tests/cli/oracle/opencode.rs`) pin the wire text; these pin the rest.

use std::ffi::OsStr;
use std::sync::Arc;

use super::*;
use crate::diagnostic::Severity;
use crate::limits;
use crate::prompt::agents::opencode::catalog::OpencodeCatalog;
use crate::prompt::agents::test_fixture::{self, EngineCatalog, Fixture, reasons};
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::seam::HomeDir;
use crate::prompt::profile::{NotLoadedReason, ProfileTurn0};
use crate::prompt::turn0::{Provenance, Role, Turn0Report};
use crate::prompt::walk::Scope;
use crate::workspace::{MemNode, MemWorkspace, Workspace};

/// A workspace at `/top/w`, the directories above it, a home at `/h`
/// (its `.config` as the XDG config home), and the environment.
type World = Fixture;

fn new_world() -> World {
    let engine_catalog: EngineCatalog = |_| Box::new(OpencodeCatalog::default());
    Fixture::new(&Opencode, "/top/w", "/h", "/h")
        .with_engine_catalog(engine_catalog)
        .with_xdg("/h/.config")
}

/// The paths of the instructions message's parts.
fn paths(turn0: &ProfileTurn0) -> Vec<String> {
    test_fixture::paths(turn0, Provenance::Instructions)
}

fn said(turn0: &ProfileTurn0, severity: Severity, words: &str) -> bool {
    turn0
        .diagnostics
        .iter()
        .any(|d| d.severity == severity && d.reason.contains(words))
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn one_name_wins_the_walk_and_the_message_is_opencodes_region() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("AGENTS.md", "root\n")
        .ws("a/CLAUDE.md", "a claude\n")
        .ws("a/b/AGENTS.md", "ab\n")
        .above("top/AGENTS.md", "above the git root\n");
    let turn0 = world.run("a/b", true, &[]);
    assert_eq!(paths(&turn0), ["a/b/AGENTS.md", "AGENTS.md"]);
    let message = &turn0.messages[0];
    assert_eq!(message.role, Role::System);
    assert_eq!(
        message.text,
        "Instructions from: /top/w/a/b/AGENTS.md\nab\n\nInstructions from: /top/w/AGENTS.md\nroot\n"
    );
    assert_eq!(
        reasons(&turn0),
        [(
            "a/CLAUDE.md".to_string(),
            NotLoadedReason::Shadowed {
                by: "AGENTS.md on the walk".to_string()
            }
        )]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn without_git_the_walk_reaches_the_top_and_reads_parents() {
    let world = new_world()
        .ws("AGENTS.md", "w\n")
        .above("AGENTS.md", "slash\n")
        .above("top/AGENTS.md", "top\n");
    let turn0 = world.run("", true, &[]);
    assert_eq!(paths(&turn0), ["AGENTS.md", "/top/AGENTS.md", "/AGENTS.md"]);
    let scopes: Vec<Scope> = turn0.messages[0].parts.iter().map(|p| p.scope).collect();
    assert_eq!(scopes, [Scope::Project, Scope::Parent, Scope::Parent]);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn a_git_file_makes_a_root_only_when_its_gitdir_exists() {
    let base = new_world()
        .ws("AGENTS.md", "w\n")
        .above("top/AGENTS.md", "top\n");
    let dangling = base.ws(".git", "gitdir: /nowhere/wt\n");
    assert_eq!(paths(&dangling.run("", true, &[])).len(), 2);
    let mut worktree = new_world()
        .ws("AGENTS.md", "w\n")
        .ws(".git", "gitdir: /srv/main/.git/worktrees/w\n")
        .above("top/AGENTS.md", "top\n");
    worktree
        .parent
        .insert("srv/main/.git/worktrees/w", MemNode::Dir);
    assert_eq!(paths(&worktree.run("", true, &[])), ["AGENTS.md"]);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn untrusted_project_files_and_configs_are_withheld_but_still_decide_the_name() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("AGENTS.md", "")
        .ws("CLAUDE.md", "claude\n")
        .ws("opencode.json", r#"{"instructions": ["x.md"]}"#)
        .ws("x.md", "x\n")
        .user(".config/opencode/AGENTS.md", "global\n");
    let turn0 = world.run("", false, &[]);
    assert_eq!(paths(&turn0), ["/h/.config/opencode/AGENTS.md"]);
    assert!(turn0.withheld_any());
    let withheld: Vec<String> = reasons(&turn0)
        .into_iter()
        .filter(|(_, reason)| *reason == NotLoadedReason::Withheld)
        .map(|(path, _)| path)
        .collect();
    assert_eq!(withheld, ["opencode.json", "AGENTS.md"]);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn switches_drop_claude_files_and_the_project() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("CLAUDE.md", "claude\n")
        .ws("CONTEXT.md", "context\n")
        .user(".claude/CLAUDE.md", "user claude\n");
    let on = world.run("", true, &[]);
    assert_eq!(paths(&on), ["/h/.claude/CLAUDE.md", "CLAUDE.md"]);
    let world = world.var("OPENCODE_DISABLE_CLAUDE_CODE", "TRUE");
    assert_eq!(paths(&world.run("", true, &[])), ["CONTEXT.md"]);
    let world = world.var("OPENCODE_DISABLE_PROJECT_CONFIG", "1");
    assert!(paths(&world.run("", true, &[])).is_empty());
    let off = new_world()
        .ws("CLAUDE.md", "c\n")
        .var("OPENCODE_DISABLE_CLAUDE_CODE", "0");
    assert_eq!(paths(&off.run("", true, &[])), ["CLAUDE.md"]);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn the_config_dir_variable_replaces_the_xdg_one() {
    let world = || {
        new_world()
            .user(".config/opencode/AGENTS.md", "xdg\n")
            .user("AGENTS.md", "moved\n")
    };
    let moved = world().var("OPENCODE_CONFIG_DIR", "/h");
    assert_eq!(paths(&moved.run("", true, &[])), ["/h/AGENTS.md"]);
    let relative = world().var("OPENCODE_CONFIG_DIR", "rel");
    assert_eq!(
        paths(&relative.run("", true, &[])),
        ["/h/.config/opencode/AGENTS.md"]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn entries_leaving_the_workspace_and_urls_are_never_read() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws(
            "opencode.jsonc",
            r#"{"instructions": ["../out.md", "/etc/*.conf", "~/notes.md", "https://x.test/a.md",
                "/top/w/in.md", "none/*.md", "[bad"]}"#,
        )
        .ws("in.md", "inside\n")
        .above("top/out.md", "outside\n")
        .above("etc/passwd.conf", "secret\n")
        .user("notes.md", "notes\n");
    let turn0 = world.run("", true, &[]);
    assert_eq!(paths(&turn0), ["in.md"]);
    let got = reasons(&turn0);
    for entry in ["../out.md", "/etc/*.conf", "~/notes.md"] {
        assert!(
            got.contains(&(entry.to_string(), NotLoadedReason::External)),
            "{entry}: {got:?}"
        );
    }
    assert!(got.contains(&(
        "https://x.test/a.md".to_string(),
        NotLoadedReason::Unusable("url, not fetched".to_string())
    )));
    assert!(said(&turn0, Severity::Info, "none/*.md matches no file"));
    assert!(said(&turn0, Severity::Warning, "[bad is not a valid glob"));
    assert!(!turn0.messages[0].text.contains("secret"));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn the_users_config_reads_absolute_and_home_entries() {
    let world = new_world()
        .user(
            ".config/opencode/opencode.json",
            r#"{"instructions": ["~/n/*.md", "/srv/s.md"]}"#,
        )
        .user("n/a.md", "a\n")
        .above("srv/s.md", "s\n");
    let turn0 = world.run("", true, &[]);
    assert_eq!(paths(&turn0), ["/h/n/a.md", "/srv/s.md"]);
    assert!(
        turn0.messages[0]
            .parts
            .iter()
            .all(|p| p.scope == Scope::User)
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn a_link_leaving_the_workspace_is_not_read() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("opencode.json", r#"{"instructions": ["docs/*.md"]}"#)
        .ws_node("docs/out.md", MemNode::Symlink("/etc/secret.md".into()))
        .ws_node("AGENTS.md", MemNode::Special("fifo"))
        .above("etc/secret.md", "secret\n");
    let turn0 = world.run("", true, &[]);
    assert!(paths(&turn0).is_empty());
    let got = reasons(&turn0);
    assert!(matches!(got[0].1, NotLoadedReason::Unusable(_)), "{got:?}");
    assert_eq!(got.len(), 2, "{got:?}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn empty_and_large_files_add_nothing() {
    let big = " ".repeat(usize::try_from(limits::MAX_OPENCODE_FILE_BYTES).unwrap() + 1);
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("AGENTS.md", "")
        .ws("a/AGENTS.md", &big)
        .ws("a/b/AGENTS.md", " \n");
    let turn0 = world.run("a/b", true, &[]);
    assert_eq!(paths(&turn0), ["a/b/AGENTS.md"]);
    let got = reasons(&turn0);
    assert!(got.contains(&("AGENTS.md".to_string(), NotLoadedReason::Blank)));
    assert!(
        matches!(got[0].1, NotLoadedReason::TooLarge { .. }),
        "{got:?}"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn touch_adds_the_first_name_per_directory_up_to_the_cwd_once() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("a/AGENTS.md", "a\n")
        .ws("a/x/CLAUDE.md", "x claude\n")
        .ws("a/x/y/AGENTS.md", "y\n")
        .ws("a/x/y/CONTEXT.md", "y context\n")
        .ws("ab/AGENTS.md", "ab\n")
        .ws("b/AGENTS.md", "b\n");
    let turn0 = world.run(
        "a",
        true,
        &["a/x/y/f.rs", "a/x/g.rs", "a/x/y/AGENTS.md", "b/f", "ab/f"],
    );
    let touched: Vec<Vec<String>> = turn0
        .touch
        .iter()
        .map(|t| t.parts.iter().map(|p| p.path.clone()).collect())
        .collect();
    assert_eq!(
        touched,
        [
            vec!["a/x/y/AGENTS.md".to_string(), "a/x/CLAUDE.md".to_string()],
            vec![],
            vec![],
            vec![],
            vec!["ab/AGENTS.md".to_string()],
        ]
    );
    assert!(said(
        &turn0,
        Severity::Info,
        "compares the paths as strings"
    ));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn configs_that_do_not_parse_warn_with_line_and_column() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("opencode.json", "{\n  \"instructions\": [\"a.md\"\n}\n")
        .ws(
            ".opencode/opencode.jsonc",
            "{\"instructions\": [\"b.md\",],}",
        )
        .ws("b.md", "b\n");
    let turn0 = world.run("", true, &[]);
    assert_eq!(paths(&turn0), ["b.md"]);
    assert!(said(
        &turn0,
        Severity::Warning,
        "does not parse at line 3, column 1"
    ));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn a_wide_glob_stops_at_the_match_cap() {
    let mut world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("opencode.json", r#"{"instructions": ["**/*.md"]}"#);
    for i in 0..=limits::MAX_OPENCODE_INSTRUCTION_MATCHES {
        world = world.ws(&format!("d/{i}.md"), "x");
    }
    let turn0 = world.run("", true, &[]);
    assert_eq!(
        paths(&turn0).len(),
        limits::MAX_OPENCODE_INSTRUCTION_MATCHES
    );
    assert!(said(&turn0, Severity::Warning, "matches more than"));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn without_a_home_nothing_global_is_read() {
    let world = new_world().ws(".opencode/command/x.md", "x");
    let project: Arc<dyn Workspace> = Arc::new(world.project.clone());
    let parent: Arc<dyn Workspace> = Arc::new(world.parent.clone());
    let homes = |_: &HomeDir| None;
    let var = |_: &str| -> Option<&OsStr> { None };
    let engine = || Ok(Turn0Report::default());
    let engine_catalog = || -> Box<dyn Catalog> { Box::new(OpencodeCatalog::default()) };
    let setup = Setup {
        project,
        parent,
        homes: &homes,
        home: None,
        at: "",
        trusted: true,
        touch: &[],
        var: &var,
        context_window: None,
        engine: &engine,
        engine_catalog: &engine_catalog,
    };
    let run = Opencode.open(&setup);
    let listing = run.catalog().unwrap().list().unwrap();
    assert_eq!(listing.rows.len(), 1);
    let turn0 = run.turn0().unwrap();
    assert!(said(&turn0, Severity::Info, "no home directory"));
}

#[test]
fn opencode_is_a_default_agent_only_where_its_files_are() {
    let bare = MemWorkspace::new().file("AGENTS.md", "x");
    assert!(!SPEC.is_default(&bare, ""));
    for entry in ["opencode.json", "opencode.jsonc", ".opencode/x"] {
        let ws = MemWorkspace::new().file(entry, "{}");
        assert!(SPEC.is_default(&ws, ""), "{entry}");
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn a_glob_over_more_entries_than_the_scan_takes_stops_with_a_warning() {
    let mut world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("opencode.json", r#"{"instructions": ["**/*.txt"]}"#);
    for i in 0..=limits::MAX_TREE_ENTRIES {
        world
            .project
            .insert(&format!("d/{i}.bin"), MemNode::File(Vec::new()));
    }
    let turn0 = world.run("", true, &[]);
    assert!(paths(&turn0).is_empty());
    assert!(said(&turn0, Severity::Warning, "the scan stopped at"));
}

#[path = "tests_catalog.rs"]
mod catalog;
