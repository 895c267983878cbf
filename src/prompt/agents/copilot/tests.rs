//! The Copilot profile over in-memory workspaces: trust, what the preview
//! deliberately does not read, what is listed and why, and the limits. The
//! recorded oracle cases (`tests/cli/oracle/copilot.rs`) pin the wire
//! text; these pin the rest.

use super::*;
use crate::diagnostic::Severity;
use crate::prompt::agents::copilot::catalog::CopilotCatalog;
use crate::prompt::agents::test_fixture::{EngineCatalog, Fixture};
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::{NotLoadedReason, PartKind, ProfileTurn0};
use crate::prompt::walk::Scope;
use crate::workspace::{MemNode, Workspace};

/// A workspace at `/top/w`, the directories above it (`/`), and
/// `~/.copilot` at `/h/.copilot`.
type World = Fixture;

fn new_world() -> World {
    let engine_catalog: EngineCatalog = |_| Box::new(CopilotCatalog::default());
    Fixture::new(&Copilot, "/top/w", "/h", "/h/.copilot").with_engine_catalog(engine_catalog)
}

fn sent(turn0: &ProfileTurn0) -> Vec<(String, PartKind)> {
    turn0
        .messages
        .iter()
        .flat_map(|m| m.parts.iter().map(|p| (p.path.clone(), p.kind)))
        .collect()
}

fn reason(turn0: &ProfileTurn0, path: &str) -> Option<NotLoadedReason> {
    let found = turn0.not_loaded.iter().find(|n| n.path == path);
    found.map(|n| n.reason.clone())
}

#[test]
#[cfg_attr(windows, ignore = "fixture paths are the Unix paths /top/w and /h")]
fn untrusted_withholds_the_project_and_the_root_above_and_loads_the_user_file() {
    let world = new_world()
        .above("top/.git/HEAD", "")
        .above("top/AGENTS.md", "parent")
        .ws("CLAUDE.md", "project")
        .ws(".github/instructions/a.instructions.md", "raw")
        .user("copilot-instructions.md", "user");
    let turn0 = world.run("", false, &[]);
    assert_eq!(
        sent(&turn0),
        [(
            "/h/.copilot/copilot-instructions.md".to_string(),
            PartKind::Instructions
        )]
    );
    for path in [
        "/top/AGENTS.md",
        "CLAUDE.md",
        ".github/instructions/a.instructions.md",
    ] {
        assert_eq!(
            reason(&turn0, path),
            Some(NotLoadedReason::Withheld),
            "{path}"
        );
    }
}

#[test]
#[cfg_attr(windows, ignore = "fixture paths are the Unix paths /top/w and /h")]
fn a_parent_files_import_out_of_the_workspace_is_never_read() {
    let world = new_world()
        .above("top/.git/HEAD", "")
        .above("top/AGENTS.md", "Out @notes.md and in @w/in.md\n")
        .above("top/notes.md", "SECRET")
        .ws("in.md", "inside");
    let turn0 = world.run("", true, &[]);
    let text = &turn0.messages[0].text;
    assert!(!text.contains("SECRET"), "{text}");
    assert!(text.contains("Out @notes.md and in @w/in.md\n\n<imported_custom_instruction source=\"/top/w/in.md\">\ninside\n"));
    assert_eq!(
        reason(&turn0, "/top/notes.md"),
        Some(NotLoadedReason::External)
    );
    let warned = turn0
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning && d.path.as_deref() == Some("/top/notes.md"));
    assert!(warned, "{:?}", turn0.diagnostics);
}

#[test]
fn variants_duplicates_and_names_copilot_never_reads_are_listed() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws("AGENTS.md", "same\n")
        .ws("agents.md", "variant\n")
        .ws("CLAUDE.md", "same\n")
        .ws("CLAUDE.local.md", "local")
        .ws("AGENTS.override.md", "override");
    let turn0 = world.run("", true, &[]);
    assert_eq!(
        sent(&turn0),
        [("AGENTS.md".to_string(), PartKind::Instructions)]
    );
    assert_eq!(
        reason(&turn0, "agents.md"),
        Some(NotLoadedReason::CaseVariant {
            of: "AGENTS.md".into()
        })
    );
    assert_eq!(
        reason(&turn0, "CLAUDE.md"),
        Some(NotLoadedReason::DuplicateOf {
            of: "AGENTS.md".into()
        })
    );
    let never = NotLoadedReason::NotReadBy {
        agent: "GitHub Copilot CLI",
    };
    assert_eq!(reason(&turn0, "CLAUDE.local.md"), Some(never.clone()));
    assert_eq!(reason(&turn0, "AGENTS.override.md"), Some(never));
}

#[test]
fn excluded_and_conditional_files_are_listed_and_the_variable_warns() {
    let mut world = new_world()
        .ws(".git/HEAD", "")
        .ws(
            ".github/instructions/x.instructions.md",
            "---\nexcludeAgent: coding-agent\n---\nx\n",
        )
        .ws(
            ".github/instructions/y.instructions.md",
            "---\napplyTo: \"src/**\"\n---\ny\n",
        )
        .ws(".github/instructions/notes.md", "never");
    world = world.var(CUSTOM_INSTRUCTIONS_DIRS_VAR, "/elsewhere");
    let turn0 = world.run("", true, &[]);
    assert_eq!(
        sent(&turn0),
        [("applyTo table".to_string(), PartKind::ApplytoTable)]
    );
    assert_eq!(
        reason(&turn0, ".github/instructions/x.instructions.md"),
        Some(NotLoadedReason::ExcludedAgent)
    );
    assert_eq!(
        reason(&turn0, ".github/instructions/y.instructions.md"),
        Some(NotLoadedReason::TableRow)
    );
    assert!(
        turn0
            .diagnostics
            .iter()
            .any(|d| d.path.as_deref() == Some(CUSTOM_INSTRUCTIONS_DIRS_VAR))
    );
}

#[test]
fn a_ninth_level_import_is_listed_too_deep_and_nothing_loaded_sends_nothing() {
    let mut world = new_world().ws(".git/HEAD", "");
    world = world.ws("AGENTS.md", "@d1.md\n");
    for i in 1..=9 {
        world = world.ws(&format!("d{i}.md"), &format!("d{i} @d{}.md\n", i + 1));
    }
    world = world.ws("d10.md", "ten");
    let turn0 = world.run("", true, &[]);
    assert_eq!(reason(&turn0, "d9.md"), Some(NotLoadedReason::TooDeep));
    assert!(!turn0.messages[0].text.contains("ten"));
    let json = serde_json::to_value(&turn0.messages[0]).expect("JSON");
    let imports = json["parts"][0]["imports"].as_array().expect("imports");
    assert_eq!(imports.len(), 8);
    assert_eq!(
        imports[7],
        serde_json::json!({"path": "d8.md", "depth": 8, "status": "inlined"})
    );
    let empty = new_world().ws(".git/HEAD", "").run("", true, &[]);
    assert!(empty.messages.is_empty());
}

#[test]
#[cfg_attr(windows, ignore = "fixture paths are the Unix paths /w and /h")]
fn user_files_are_read_with_scope_user() {
    let world = new_world().ws(".git/HEAD", "").user(
        "instructions/u.instructions.md",
        "---\napplyTo: \"**/*.go\"\n---\ngo\n",
    );
    let turn0 = world.run("", true, &[]);
    let table = &turn0.messages[0].parts[0];
    assert_eq!(table.scope, Scope::User);
    assert!(
        table
            .content
            .ends_with("| **/*.go | '/h/.copilot/instructions/u.instructions.md' |  |")
    );
    let json = serde_json::to_value(&turn0.messages[0]).expect("JSON");
    assert_eq!(json["parts"][0]["rows"][0]["pattern"], "**/*.go");
    assert!(json["parts"][0].get("imports").is_none());
}

#[test]
#[cfg_attr(windows, ignore = "fixture paths are the Unix paths /w and /h")]
fn a_wide_fan_out_of_cycles_is_bounded_by_the_import_guard() {
    let mut world = new_world().ws(".git/HEAD", "");
    let all: String = (0..100).map(|i| format!("@f{i}.md\n")).collect();
    world = world.ws("AGENTS.md", &all);
    for i in 0..100 {
        world = world.ws(&format!("f{i}.md"), &format!("f{i}\n{all}"));
    }
    let turn0 = world.run("", true, &[]);
    let text = &turn0.messages[0].text;
    // Each file inlines once per top-level file; the rest are markers,
    // and past the guard tokens stay text.
    assert_eq!(text.matches("source=\"/top/w/f7.md\">").count(), 1);
    assert_eq!(reason(&turn0, "f0.md"), None);
    let capped = turn0
        .not_loaded
        .iter()
        .filter(|n| n.reason == NotLoadedReason::Capped)
        .count();
    assert_eq!(capped, 1, "{:?}", turn0.not_loaded.len());
}

#[test]
fn a_fifo_under_an_instruction_name_is_never_opened() {
    let mut world = new_world().ws(".git/HEAD", "").ws("CLAUDE.md", "claude");
    world
        .project
        .insert("AGENTS.md", MemNode::Special("a FIFO"));
    let turn0 = world.run("", true, &[]);
    assert_eq!(
        sent(&turn0),
        [("CLAUDE.md".to_string(), PartKind::Instructions)]
    );
}

#[test]
fn ten_thousand_instruction_files_are_all_rows_in_path_order() {
    let mut world = new_world().ws(".git/HEAD", "");
    for i in 0..10_000 {
        world = world.ws(
            &format!(".github/instructions/d{}/f{i}.instructions.md", i % 10),
            "---\napplyTo: \"src/**\"\n---\nx\n",
        );
    }
    let turn0 = world.run("", true, &[]);
    let table = &turn0.messages[0].parts[0];
    assert_eq!(table.kind, PartKind::ApplytoTable);
    assert_eq!(turn0.messages[0].extras[&0].rows.len(), 10_000);
    let rows = &turn0.messages[0].extras[&0].rows;
    assert!(rows.windows(2).all(|pair| pair[0].file < pair[1].file));
}

fn catalog(world: &World, trusted: bool) -> CopilotCatalog {
    let project: &dyn Workspace = &world.project;
    let parent: &dyn Workspace = &world.parent;
    let walk = crate::prompt::walk::walk(Some(parent), project, "").expect("walk");
    let dirs = instructions::Dirs::new(walk);
    CopilotCatalog::new(&dirs, Some(&world.home), None, trusted)
}

#[test]
fn untrusted_skills_are_withheld_and_hidden_ones_are_rows_not_listed() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws(
            ".github/skills/hide/SKILL.md",
            "---\ndescription: h\ndisable-model-invocation: true\n---\nH\n",
        )
        .ws(
            ".github/skills/show/SKILL.md",
            "---\ndescription: s\n---\nS\n",
        )
        .user("skills/mine/SKILL.md", "---\ndescription: m\n---\nM\n");
    let trusted = catalog(&world, true);
    let rows = trusted.list().expect("rows").rows;
    let hidden: Vec<(&str, bool)> = rows
        .iter()
        .map(|row| (row.name.as_str(), row.hidden_from_model))
        .collect();
    assert_eq!(hidden, [("hide", true), ("show", false), ("mine", false)]);
    let mut turn0 = ProfileTurn0::default();
    trusted.add_listing(&mut turn0).expect("listing");
    assert_eq!(turn0.messages[0].parts.len(), 2);
    let untrusted = catalog(&world, false).list().expect("rows");
    assert!(untrusted.withheld);
    let fates: Vec<&str> = untrusted.rows.iter().map(|row| row.fate).collect();
    assert_eq!(fates, ["withheld", "withheld", "winner"]);
}

#[test]
fn a_binary_import_is_inlined_lossily_with_a_warning() {
    let mut world = new_world()
        .ws(".git/HEAD", "")
        .ws("AGENTS.md", "See @logo.png\n");
    world
        .project
        .insert("logo.png", MemNode::File(b"\x89PNG\0\xff".to_vec()));
    let turn0 = world.run("", true, &[]);
    assert!(turn0.messages[0].text.contains("PNG\0\u{fffd}"));
    let warned = turn0
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning && d.path.as_deref() == Some("logo.png"));
    assert!(warned, "{:?}", turn0.diagnostics);
}
