//! The catalog of a run: commands and skills from every source, in
//! opencode's order (SPEC §18.3, §18.4).

use super::*;

fn rows(world: &World, at: &str, trusted: bool) -> Vec<(String, &'static str, String)> {
    world.with_run(at, trusted, &[], |run| {
        let listing = run.catalog().expect("catalog").list().expect("list");
        listing
            .rows
            .into_iter()
            .map(|row| (row.name, row.fate, row.source))
            .collect()
    })
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn the_later_source_wins_a_command_name() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws(
            "opencode.json",
            r#"{"command": {"dup": {"template": "config"}}}"#,
        )
        .ws(".opencode/command/dup.md", "root")
        .ws("a/.opencode/commands/dup.md", "cwd")
        .user(".config/opencode/command/dup.md", "config dir");
    let found = rows(&world, "a", true);
    let dup: Vec<(&str, &str)> = found
        .iter()
        .filter(|(name, _, _)| name == "dup")
        .map(|(_, fate, source)| (*fate, source.as_str()))
        .collect();
    assert_eq!(dup[0], ("winner", ".opencode/command/dup.md"));
    assert_eq!(dup.len(), 4);
    assert!(dup[1..].iter().all(|(fate, _)| *fate == "shadowed"));
    let home = world.clone().user(".opencode/command/dup.md", "home");
    let found = rows(&home, "a", true);
    assert!(
        found[0].2.ends_with("/h/.opencode/command/dup.md"),
        "{found:?}"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn skills_follow_the_switches_and_the_listing_is_sorted() {
    let skill = |name: &str| format!("---\nname: {name}\ndescription: d {name}\n---\nbody\n");
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws(".opencode/skills/b/SKILL.md", &skill("beta"))
        .ws(".claude/skills/a/SKILL.md", &skill("Alpha"))
        .ws(".agents/skills/c/SKILL.md", &skill("alpha"));
    let listed = |world: &World| {
        let turn0 = world.with_run("", true, &[], |run| {
            let mut turn0 = run.turn0().expect("turn 0");
            run.catalog()
                .expect("catalog")
                .add_listing(&mut turn0)
                .expect("listing");
            turn0
        });
        test_fixture::paths(&turn0, Provenance::Skills)
    };
    assert_eq!(
        listed(&world),
        [
            ".agents/skills/c/SKILL.md",
            ".claude/skills/a/SKILL.md",
            ".opencode/skills/b/SKILL.md"
        ]
    );
    let no_claude = world
        .clone()
        .var("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS", "1");
    assert_eq!(listed(&no_claude).len(), 2);
    let no_external = world
        .clone()
        .var("OPENCODE_DISABLE_EXTERNAL_SKILLS", "true");
    assert_eq!(listed(&no_external), [".opencode/skills/b/SKILL.md"]);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn expand_reads_nested_names() {
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws(".opencode/command/git/commit.md", "msg: $1 $2\n");
    let out = world.with_run("", true, &[], |run| {
        run.catalog()
            .expect("catalog")
            .expand("/git/commit a b c")
            .expect("expand")
    });
    assert_eq!(out.expansion.output, "msg: a b c");
    assert_eq!(out.expansion.name.as_deref(), Some("git/commit"));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace, parents and home are the Unix paths /top/w, / and /h"
)]
fn skills_paths_are_read_inside_the_workspace_and_named_when_they_leave_it() {
    let skill = |name: &str| format!("---\nname: {name}\ndescription: d {name}\n---\nbody\n");
    let config = r#"{"skills": {"paths": ["x/../near", "../far", "/top/w/abs", "../../up", "/elsewhere", "~/mine"]}}"#;
    let world = new_world()
        .ws(".git/HEAD", "ref")
        .ws("opencode.json", config)
        .ws("a/near/n/SKILL.md", &skill("near"))
        .ws("far/f/SKILL.md", &skill("far"))
        .ws("abs/b/SKILL.md", &skill("abs"));
    let (names, warnings) = world.with_run("a", true, &[], |run| {
        let listing = run.catalog().expect("catalog").list().expect("list");
        let names: Vec<String> = listing.rows.iter().map(|row| row.name.clone()).collect();
        let warnings: Vec<String> = listing
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .map(|d| d.reason.clone())
            .collect();
        (names, warnings)
    });
    for name in ["near", "far", "abs"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    for entry in ["../../up", "/elsewhere", "~/mine"] {
        assert!(
            warnings
                .iter()
                .any(|w| w.starts_with(&format!("skills.paths entry {entry} leaves the workspace"))),
            "{entry} in {warnings:?}"
        );
    }
    assert_eq!(warnings.len(), 3, "{warnings:?}");
}
