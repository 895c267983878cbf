//! The Gemini profile over in-memory workspaces: trust, links, names that
//! leave the workspace, settings problems, imports the preview does not
//! read, `--touch`, and the order of the walk. The recorded oracle cases
//! (`tests/cli/oracle/gemini.rs`) pin the wire text; these pin the rest.

use std::path::Path;

use super::*;
use crate::diagnostic::Severity;
use crate::prompt::agents::gemini::catalog::GeminiCatalog;
use crate::prompt::agents::test_fixture::{EngineCatalog, Fixture, paths, reasons};
use crate::prompt::profile::{NotLoadedReason, PartKind};
use crate::prompt::turn0::{Provenance, Role};
use crate::prompt::walk::Scope;
use crate::workspace::{MemNode, MemWorkspace};

/// A workspace at `/top/w`, the directories above it, and a home at `/h`.
type World = Fixture;

fn new_world() -> World {
    let engine_catalog: EngineCatalog =
        |empty| Box::new(GeminiCatalog::new(empty, None, "", true, false));
    Fixture::new(&Gemini, "/top/w", "/h", "/h").with_engine_catalog(engine_catalog)
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn the_walk_sorts_by_absolute_path_and_the_user_context_is_a_system_message() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws("GEMINI.md", "root")
        .ws("A/GEMINI.md", "a")
        .ws("A/x/GEMINI.md", "ax")
        .ws("A/x/y/GEMINI.md", "below the cwd")
        .ws("B/GEMINI.md", "sibling")
        .user(".gemini/GEMINI.md", "u\n\n\n\nv");
    let turn0 = world.run("A/x", true, &[]);
    assert_eq!(
        paths(&turn0, Provenance::Instructions),
        ["A/GEMINI.md", "A/x/GEMINI.md", "GEMINI.md"]
    );
    let user = &turn0.messages[0];
    assert_eq!(
        (user.role, user.provenance),
        (Role::System, Provenance::UserInstructions)
    );
    assert_eq!(user.parts[0].path, "/h/.gemini/GEMINI.md");
    assert_eq!(user.parts[0].scope, Scope::User);
    assert_eq!(
        user.text,
        "<loaded_context>\n--- Context from: /h/.gemini/GEMINI.md ---\nu\n\nv\n\
         --- End of Context from: /h/.gemini/GEMINI.md ---\n</loaded_context>"
    );
    assert!(turn0.messages[1].text.starts_with(
        "<loaded_context>\n<project_context>\n--- Context from: /top/w/A/GEMINI.md ---\na\n"
    ));
}

#[test]
fn utf16_order_puts_astral_characters_before_the_private_use_area() {
    // In UTF-8 (and Rust's str order) U+E000 sorts before U+10000; in
    // UTF-16 the surrogate 0xD800 comes first, as in JavaScript.
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws("GEMINI.md", "root")
        .ws(
            ".gemini/settings.json",
            "{\"context\": {\"fileName\": [\"\u{e000}.md\", \"\u{10000}.md\"]}}",
        )
        .ws("\u{e000}.md", "pua")
        .ws("\u{10000}.md", "astral");
    let turn0 = world.run("", true, &[]);
    assert_eq!(
        paths(&turn0, Provenance::Instructions),
        ["GEMINI.md", "\u{10000}.md", "\u{e000}.md"]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn an_untrusted_workspace_withholds_the_walk_and_its_settings_but_loads_the_users() {
    let world = new_world()
        .above("top/GEMINI.md", "parent")
        .above("top/.git/HEAD", "")
        .ws("GEMINI.md", "root")
        .ws(
            ".gemini/settings.json",
            r#"{"context": {"fileName": "X.md"}}"#,
        )
        .user(".gemini/GEMINI.md", "u");
    let turn0 = world.run("", false, &["GEMINI.md"]);
    assert_eq!(
        paths(&turn0, Provenance::UserInstructions),
        ["/h/.gemini/GEMINI.md"]
    );
    assert!(paths(&turn0, Provenance::Instructions).is_empty());
    assert_eq!(
        reasons(&turn0),
        [
            (
                ".gemini/settings.json".to_string(),
                NotLoadedReason::Withheld
            ),
            ("/top/GEMINI.md".to_string(), NotLoadedReason::Withheld),
            ("GEMINI.md".to_string(), NotLoadedReason::Withheld),
        ]
    );
    assert!(turn0.withheld_any());
    assert!(turn0.touch[0].parts.is_empty());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn a_parent_root_loads_files_above_the_workspace_but_never_their_imports_outside_it() {
    let world = new_world()
        .above("top/.git/HEAD", "")
        .above("top/GEMINI.md", "parent @./secret.md")
        .above("top/secret.md", "SECRET")
        .ws("GEMINI.md", "root @../secret.md");
    let turn0 = world.run("", true, &[]);
    assert_eq!(
        paths(&turn0, Provenance::Instructions),
        ["/top/GEMINI.md", "GEMINI.md"]
    );
    let text = &turn0.messages[0].text;
    assert!(!text.contains("SECRET"), "{text}");
    assert!(
        text.contains("parent [mecatl-prompt did not read: ./secret.md (outside the workspace)]")
    );
    assert!(
        text.contains("root [mecatl-prompt did not read: ../secret.md (outside the workspace)]")
    );
    let external: Vec<_> = reasons(&turn0)
        .into_iter()
        .filter(|(_, r)| *r == NotLoadedReason::External)
        .collect();
    // Both name the same file: listed once, a warning per importer.
    assert_eq!(
        external,
        [("/top/secret.md".to_string(), NotLoadedReason::External)]
    );
    let importers: Vec<&str> = turn0
        .diagnostics
        .iter()
        .filter(|d| d.reason.contains("Gemini CLI inlines it"))
        .map(|d| d.reason.as_str())
        .collect();
    assert_eq!(importers.len(), 2, "{importers:?}");
    assert!(importers[0].starts_with("external import of /top/GEMINI.md, not read"));
    assert!(importers[1].starts_with("external import of GEMINI.md, not read"));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn names_and_links_leaving_the_workspace_are_never_read() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws(
            ".gemini/settings.json",
            r#"{"context": {"fileName": ["../out.md", "LINK.md"]}}"#,
        )
        .above("top/out.md", "OUT")
        .above("etc/secret", "SECRET")
        .ws_node("LINK.md", MemNode::Symlink("/etc/secret".into()))
        .ws("GEMINI.md", "root");
    let turn0 = world.run("", true, &[]);
    assert_eq!(paths(&turn0, Provenance::Instructions), ["GEMINI.md"]);
    let text = &turn0.messages[0].text;
    assert!(!text.contains("OUT") && !text.contains("SECRET"), "{text}");
    let reasons = reasons(&turn0);
    assert!(
        reasons.contains(&("/top/out.md".to_string(), NotLoadedReason::External)),
        "{reasons:?}"
    );
    assert!(
        reasons.contains(&("LINK.md".to_string(), NotLoadedReason::External)),
        "{reasons:?}"
    );
}

#[test]
fn malformed_settings_warn_with_line_and_column_and_the_defaults_apply() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws(
            ".gemini/settings.json",
            "{\n  \"context\": {\"fileName\": \"X.md\"},\n}",
        )
        .ws("X.md", "x")
        .ws("GEMINI.md", "root");
    let turn0 = world.run("", true, &[]);
    assert_eq!(paths(&turn0, Provenance::Instructions), ["GEMINI.md"]);
    let warning = turn0
        .diagnostics
        .iter()
        .find(|d| d.path.as_deref() == Some(".gemini/settings.json"))
        .expect("a warning naming the file");
    assert!(
        warning
            .reason
            .starts_with("malformed JSON at line 3, column 1"),
        "{}",
        warning.reason
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn blank_files_and_directories_named_gemini_md_add_nothing() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws("GEMINI.md", " \u{feff}\n\t")
        .ws_node("sub/GEMINI.md", MemNode::Dir)
        .ws("sub/x", "");
    let turn0 = world.run("sub", true, &[]);
    assert!(turn0.messages.is_empty());
    let reasons = reasons(&turn0);
    assert!(
        reasons.contains(&("GEMINI.md".to_string(), NotLoadedReason::Blank)),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|(p, r)| p == "sub/GEMINI.md" && matches!(r, NotLoadedReason::Unusable(_))),
        "{reasons:?}"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn touch_adds_the_files_below_the_cwd_top_down_once() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws("GEMINI.md", "root")
        .ws("a/GEMINI.md", "a")
        .ws("a/b/GEMINI.md", "ab")
        .ws("a/b/c.rs", "")
        .ws("other/GEMINI.md", "other");
    let turn0 = world.run("", true, &["a/b/c.rs", "a/b", "../x"]);
    let touched: Vec<Vec<&str>> = turn0
        .touch
        .iter()
        .map(|t| t.parts.iter().map(|p| p.path.as_str()).collect())
        .collect();
    assert_eq!(
        touched,
        [vec!["a/GEMINI.md", "a/b/GEMINI.md"], vec![], vec![]]
    );
    let at_sub = world.run("a", true, &["other/x.rs"]);
    assert!(
        at_sub.touch[0].parts.is_empty(),
        "outside the cwd adds nothing"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn include_directories_outside_the_workspace_are_never_read() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws(
            ".gemini/settings.json",
            r#"{"context": {"includeDirectories": ["../elsewhere", "~/x", "lib"]}}"#,
        )
        .above("top/elsewhere/GEMINI.md", "ELSEWHERE")
        .ws("lib/GEMINI.md", "lib")
        .ws("GEMINI.md", "root");
    let turn0 = world.run("", true, &[]);
    assert_eq!(
        paths(&turn0, Provenance::Instructions),
        ["GEMINI.md", "lib/GEMINI.md"]
    );
    let external = reasons(&turn0)
        .into_iter()
        .filter(|(_, r)| *r == NotLoadedReason::External)
        .count();
    assert_eq!(external, 2);
}

/// A workspace with user and project commands that clash, an invalid
/// one, a nested one and skills.
fn commands_world() -> World {
    new_world()
        .ws(".git/HEAD", "")
        .ws(".gemini/commands/dup.toml", "prompt = \"PROJ {{args}}\"\n")
        .ws(".gemini/commands/help.toml", "prompt = \"HELP\"\n")
        .ws(
            ".gemini/commands/git/commit.toml",
            "description = \"Commit\"\nprompt = \"Commit: {{args}}\"\n",
        )
        .ws(".gemini/commands/plain.toml", "prompt = \"PLAIN\"\n")
        .ws(
            ".gemini/commands/inj.toml",
            "prompt = \"See @{notes.txt} @{gone} {{args}}\"\n",
        )
        .ws(".gemini/commands/run.toml", "prompt = \"X !{touch M} Y\"\n")
        .ws(".gemini/commands/bad.toml", "prompt = \"open\n")
        .ws("notes.txt", "N1\r\nN2 {{args}}\n")
        .ws(
            ".gemini/skills/foo/SKILL.md",
            "---\nname: foo\ndescription: Foo\n---\nbody\n",
        )
        .user(".gemini/commands/dup.toml", "prompt = \"USER\"\n")
        .user(
            ".agents/skills/mine/SKILL.md",
            "---\nname: \"m:i\"\ndescription: Mine\n---\n",
        )
}

#[test]
fn commands_are_named_and_renamed_as_gemini_does() {
    commands_world().with_run("", true, &[], |run| {
        let catalog = run.catalog().unwrap();
        let listing = catalog.list().unwrap();
        let rows: Vec<(&str, &str, Option<&str>, &str)> = listing
            .rows
            .iter()
            .map(|r| (r.name.as_str(), r.kind, r.renamed_from.as_deref(), r.fate))
            .collect();
        assert_eq!(
            rows,
            [
                ("git:commit", "command", None, "winner"),
                ("inj", "command", None, "winner"),
                ("plain", "command", None, "winner"),
                ("run", "command", None, "winner"),
                ("user.dup", "command", Some("dup"), "winner"),
                ("workspace.dup", "command", Some("dup"), "winner"),
                ("workspace.help", "command", Some("help"), "winner"),
                ("bad", "command", None, "malformed"),
                ("m-i", "skill", None, "winner"),
                ("foo", "skill", None, "winner"),
            ]
        );
        let bad = listing
            .diagnostics
            .iter()
            .find(|d| d.reason.contains("invalid TOML"));
        assert!(bad.unwrap().reason.contains("line 1, column"));
        let dup = catalog.expand("/dup x").unwrap();
        assert!(!dup.expansion.expanded);
        assert!(
            dup.diagnostics
                .iter()
                .any(|d| d.reason.contains("nobody's"))
        );
    });
}

#[test]
fn expansion_follows_gemini_steps() {
    commands_world().with_run("", true, &[], |run| {
        let catalog = run.catalog().unwrap();
        let out = |input: &str| catalog.expand(input).unwrap();
        assert_eq!(out("/git:commit a  b").expansion.output, "Commit: a b");
        assert_eq!(
            out("/plain  x  y ").expansion.output,
            "PLAIN\n\n/plain  x  y"
        );
        assert_eq!(out("/plain").expansion.output, "PLAIN");
        let injected = out("/inj q");
        assert_eq!(injected.expansion.output, "See N1\nN2 q\n @{gone} q");
        assert_eq!(injected.extras["parts"], 5);
        assert_eq!(injected.extras["files"][0]["status"], "injected");
        assert_eq!(injected.extras["files"][1]["status"], "not-found");
        let ran = out("/run");
        assert_eq!(
            ran.expansion.output,
            "X [mecatl-prompt did not run: touch M] Y"
        );
        assert_eq!(ran.extras["shell"][0]["offset"], 2);
        assert!(
            ran.diagnostics
                .iter()
                .any(|d| d.severity == Severity::Warning && d.reason.contains("never runs"))
        );
    });
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /top/w and /h"
)]
fn the_skills_listing_comes_first_unless_system_md_replaces_the_prompt() {
    let world = commands_world()
        .ws(".gemini/system.md", "SYS\n\n\n\nEND\n")
        .ws(
            ".gemini/.env",
            "SECRET=do-not-show\nGEMINI_SYSTEM_MD=true\n",
        )
        .user(".gemini/GEMINI.md", "USER");
    let turn0 = world.with_run("", true, &[], |run| {
        let mut turn0 = run.turn0().unwrap();
        run.catalog().unwrap().add_listing(&mut turn0).unwrap();
        turn0
    });
    let system = &turn0.messages[0];
    assert_eq!(system.provenance, Provenance::UserInstructions);
    assert_eq!(system.parts[0].kind, PartKind::SystemPrompt);
    assert_eq!(system.parts[0].content, "SYS\n\nEND");
    assert!(system.text.starts_with("SYS\n\nEND\n\n<loaded_context>\n"));
    assert!(
        !turn0
            .messages
            .iter()
            .any(|m| m.provenance == Provenance::Skills)
    );
    let everything = format!("{turn0:?}");
    assert!(!everything.contains("do-not-show"));
    assert!(
        turn0
            .diagnostics
            .iter()
            .any(|d| d.reason.contains("replace its whole system prompt"))
    );

    let plain = commands_world().var(system::VAR, "0");
    let turn0 = plain.with_run("", true, &[], |run| {
        let mut turn0 = run.turn0().unwrap();
        run.catalog().unwrap().add_listing(&mut turn0).unwrap();
        turn0
    });
    let skills = &turn0.messages[0];
    assert_eq!(skills.provenance, Provenance::Skills);
    assert_eq!(skills.role, Role::System);
    let text = &skills.text;
    assert!(text.starts_with("<available_skills>\n  <skill>\n    <name>m-i</name>"));
    assert!(text.contains("<location>/top/w/.gemini/skills/foo/SKILL.md</location>"));
}

#[test]
fn an_untrusted_workspace_withholds_its_commands_skills_and_env() {
    let world = commands_world()
        .ws(".gemini/system.md", "SYS")
        .ws(".env", "GEMINI_SYSTEM_MD=1\n");
    world.with_run("", false, &[], |run| {
        let catalog = run.catalog().unwrap();
        let listing = catalog.list().unwrap();
        let names: Vec<&str> = listing.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["dup", "m-i"]);
        assert!(listing.withheld);
        let turn0 = run.turn0().unwrap();
        assert!(
            !turn0
                .messages
                .iter()
                .any(|m| m.parts.iter().any(|p| p.kind == PartKind::SystemPrompt))
        );
    });
}

#[test]
fn gemini_is_a_default_agent_only_where_its_files_are() {
    let plain = MemWorkspace::new().file("AGENTS.md", "a").file("sub/x", "");
    assert!(!SPEC.is_default(&plain, ""));
    assert!(!SPEC.is_default(&plain, "sub"));
    let at_root = MemWorkspace::new().file("GEMINI.md", "g");
    assert!(SPEC.is_default(&at_root, ""));
    let at_sub = MemWorkspace::new().file("sub/.gemini/settings.json", "{}");
    assert!(!SPEC.is_default(&at_sub, ""));
    assert!(SPEC.is_default(&at_sub, "sub"));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn an_import_through_a_link_out_of_the_workspace_is_never_read() {
    let world = new_world()
        .ws(".git/HEAD", "")
        .ws("GEMINI.md", "root @./docs/notes.md")
        .ws_node("docs/notes.md", MemNode::Symlink("/etc/secret".into()))
        .above("etc/secret", "SECRET");
    let turn0 = world.run("", true, &[]);
    let text = &turn0.messages[0].text;
    assert!(!text.contains("SECRET"), "{text}");
    assert!(
        text.contains("root [mecatl-prompt did not read: ./docs/notes.md (outside the workspace)]"),
        "{text}"
    );
    assert!(
        reasons(&turn0).contains(&("docs/notes.md".to_string(), NotLoadedReason::External)),
        "{:?}",
        reasons(&turn0)
    );
}

/// No file exists: every import fails.
struct Nothing;

impl imports::ImportFiles for Nothing {
    fn import_root(&self, dir: &Path) -> std::path::PathBuf {
        dir.to_path_buf()
    }

    fn fetch(&self, _path: &Path, _user: bool) -> imports::Fetch {
        imports::Fetch::Missing
    }
}

proptest::proptest! {
    /// Any text: every token starts at an `@` at the start or after a
    /// separator, ends at a separator or the end, and tokens never overlap.
    #[test]
    fn tokens_are_well_formed_on_any_text(text in "[@a-z./` \\n\\t(]{0,64}") {
        let found = imports::tokens(&text);
        let bytes = text.as_bytes();
        for token in &found {
            proptest::prop_assert_eq!(bytes[token.start], b'@');
            proptest::prop_assert!(token.start == 0 || b" \t\n\r".contains(&bytes[token.start - 1]));
            proptest::prop_assert!(token.end == bytes.len() || b" \t\n\r".contains(&bytes[token.end]));
            proptest::prop_assert!(token.end > token.start + 1);
        }
        proptest::prop_assert!(found.windows(2).all(|pair| pair[0].end <= pair[1].start));
    }

    /// Any text, no file: the text outside the tokens comes back unchanged
    /// and each token becomes one failure comment naming it.
    #[test]
    fn failed_imports_change_only_their_tokens(text in "\\PC{0,48}") {
        let out = imports::Inliner::default().process(&Nothing, &text, Path::new("/w/G.md"), false);
        let mut rest = out.as_str();
        let mut at = 0;
        for token in imports::tokens(&text) {
            let before = &text[at..token.start];
            let written = &text[token.start + 1..token.end];
            let opened = format!("{before}<!-- Import failed: {written} - ");
            proptest::prop_assert!(rest.starts_with(&opened), "{:?} in {:?}", opened, out);
            rest = &rest[opened.len()..];
            let end = rest.find(" -->").map(|end| end + " -->".len());
            proptest::prop_assert!(end.is_some(), "{:?}", out);
            rest = &rest[end.unwrap_or_default()..];
            at = token.end;
        }
        proptest::prop_assert_eq!(rest, &text[at..]);
    }
}

#[test]
fn thousands_of_missing_imports_stop_at_the_guard() {
    let text: String = (0..20_000).map(|i| format!("@m{i}.md ")).collect();
    let world = new_world().ws(".git/HEAD", "").ws("GEMINI.md", &text);
    let turn0 = world.run("", true, &[]);
    let sent = &turn0.messages[0].text;
    assert_eq!(sent.matches("ENOENT").count(), crate::limits::MAX_IMPORTS);
    assert!(sent.contains("(past the import guard)]"));
    let capped = reasons(&turn0)
        .into_iter()
        .filter(|(_, r)| *r == NotLoadedReason::Capped)
        .count();
    assert_eq!(
        capped, 1,
        "the first one is listed, the warning counts them all"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "fixture workspace and home are the Unix paths /w and /h"
)]
fn untrusted_a_users_import_into_the_workspace_is_withheld() {
    // A `.git` at `/` makes the whole disk the user file's import root.
    let world = new_world()
        .above(".git/HEAD", "")
        .ws("notes.md", "PROJECT SECRET")
        .user(".gemini/GEMINI.md", "user @/top/w/notes.md");
    let turn0 = world.run("", false, &[]);
    let text = &turn0.messages[0].text;
    assert!(!text.contains("PROJECT SECRET"), "{text}");
    assert!(
        text.contains(
            "[mecatl-prompt did not read: /top/w/notes.md (withheld: the workspace is not trusted)]"
        ),
        "{text}"
    );
}

/// Whether `.gemini/system.md` of the start directory replaces Gemini's
/// system prompt in `world` started at `at`.
fn system_part(world: &World, at: &str, process: Option<&str>) -> Option<String> {
    let world = match process {
        Some(value) => world.clone().var(system::VAR, value),
        None => world.clone(),
    };
    world.with_run(at, true, &[], |run| {
        let turn0 = run.turn0().unwrap();
        turn0
            .messages
            .iter()
            .flat_map(|m| &m.parts)
            .find(|p| p.kind == PartKind::SystemPrompt)
            .map(|p| p.path.clone())
    })
}

#[test]
fn the_first_env_file_found_decides_and_the_environment_wins() {
    let base = || {
        new_world()
            .ws(".git/HEAD", "")
            .ws(".gemini/system.md", "ROOT SYS")
            .ws("sub/.gemini/system.md", "SUB SYS")
    };
    // The first env file found ends the search, even without the key.
    let first = base()
        .ws(".env", "OTHER=1\n")
        .user(".gemini/.env", "GEMINI_SYSTEM_MD=1\n");
    assert_eq!(system_part(&first, "", None), None);
    // With none in the workspace, the home's decides.
    let home = base().user(".gemini/.env", "GEMINI_SYSTEM_MD=TRUE\n");
    assert_eq!(
        system_part(&home, "", None).as_deref(),
        Some(".gemini/system.md")
    );
    // The start directory's `.gemini/.env` comes before the root's `.env`,
    // and the file is the start directory's.
    let nested = base()
        .ws(".env", "GEMINI_SYSTEM_MD=0\n")
        .ws("sub/.gemini/.env", "GEMINI_SYSTEM_MD=1\n");
    assert_eq!(
        system_part(&nested, "sub", None).as_deref(),
        Some("sub/.gemini/system.md")
    );
    // The environment beats every file.
    assert_eq!(system_part(&nested, "sub", Some("false")), None);
    assert_eq!(
        system_part(&first, "", Some("1")).as_deref(),
        Some(".gemini/system.md")
    );
}
