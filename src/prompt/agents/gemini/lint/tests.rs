//! Gemini CLI's lint checks, pinned on in-memory workspaces.

use std::path::PathBuf;

use crate::prompt::lint::{LintOptions, LintReport, lint};
use crate::workspace::{MemNode, MemWorkspace};

fn run_at(ws: &MemWorkspace, at: &str) -> LintReport {
    lint(
        ws,
        &LintOptions {
            home: Some(PathBuf::from("/home/u")),
            at: at.to_string(),
        },
    )
}

/// `code path:line message` of every Gemini finding.
fn gemini(ws: &MemWorkspace, at: &str) -> Vec<String> {
    run_at(ws, at)
        .findings
        .into_iter()
        .filter(|f| f.agents == [crate::prompt::profile::Agent::Gemini])
        .map(|f| {
            let line = f.line.map(|l| format!(":{l}")).unwrap_or_default();
            format!("{} {}{line} {}", f.code.as_str(), f.path, f.message)
        })
        .collect()
}

fn codes(ws: &MemWorkspace, at: &str) -> Vec<String> {
    gemini(ws, at)
        .into_iter()
        .map(|f| f.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn a_workspace_without_gemini_files_gets_no_gemini_finding() {
    let ws = MemWorkspace::new()
        .file("AGENTS.md", "Use tabs.\n")
        .file("sub/CLAUDE.md", "Other.\n");
    assert!(gemini(&ws, "").is_empty());
}

#[test]
fn gemini_md_agrees_when_it_copies_links_or_imports_the_others() {
    let copy = MemWorkspace::new()
        .file("AGENTS.md", "Use tabs.\n")
        .file("GEMINI.md", "Use tabs.");
    let link = MemWorkspace::new()
        .file("AGENTS.md", "Use tabs.\n")
        .node("GEMINI.md", MemNode::Symlink("AGENTS.md".into()));
    let import = MemWorkspace::new()
        .file("AGENTS.md", "Use tabs.\n")
        .file("CLAUDE.md", "Claude only.\n")
        .file("GEMINI.md", "@./AGENTS.md\nGemini notes.\n");
    let named = MemWorkspace::new()
        .file("AGENTS.md", "Use tabs.\n")
        .file("GEMINI.md", "Other.\n")
        .file(
            ".gemini/settings.json",
            r#"{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}"#,
        );
    for ws in [copy, link, import, named] {
        assert_eq!(codes(&ws, ""), Vec::<String>::new());
    }
}

#[test]
fn gemini_md_that_differs_or_is_missing_is_mp020() {
    let ws = MemWorkspace::new()
        .file("AGENTS.md", "Use tabs.\n")
        .file("CLAUDE.md", "Claude.\n")
        .file("GEMINI.md", "Spaces.\n")
        .file("sub/AGENTS.md", "Sub rules.\n")
        .file("blank/AGENTS.md", "  \n");
    // Which other agents load AGENTS.md comes from the profile table, so
    // only the ends of each message are pinned.
    let found = gemini(&ws, "");
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with(
        "MP020 GEMINI.md:1 Gemini CLI loads GEMINI.md (8 bytes) here, Claude Code loads \
         CLAUDE.md (8 bytes), mecatl"
    ));
    assert!(found[0].ends_with(
        "load AGENTS.md (10 bytes): the files differ and GEMINI.md imports neither CLAUDE.md \
         nor AGENTS.md"
    ));
    assert!(found[1].starts_with("MP020 sub/AGENTS.md:1 no GEMINI.md here: Claude Code"));
    assert!(found[1].ends_with(
        "load AGENTS.md (11 bytes), Gemini CLI loads none of it (11 bytes); add a GEMINI.md \
         holding `@AGENTS.md`, or name it in context.fileName"
    ));
}

#[test]
fn file_names_that_name_nothing_or_leave_are_mp019() {
    let ws = MemWorkspace::new()
        .file("GEMINI.md", "g\n")
        .file("docs/CONTEXT.md", "c\n")
        .file(
            ".gemini/settings.json",
            "{\n  \"context\": {\n    \"fileName\": [\"CONTEXT.md\", \"NOPE.md\", \"../up.md\"]\n  }\n}\n",
        );
    assert_eq!(
        codes(&ws, ""),
        [
            "MP019 .gemini/settings.json:3",
            "MP019 .gemini/settings.json:3",
            "MP021 docs/CONTEXT.md:1",
        ]
    );
    let messages = gemini(&ws, "");
    assert!(
        messages[0].contains("`NOPE.md` names no file"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("`../up.md` reaches outside"),
        "{messages:?}"
    );
}

#[test]
fn files_below_the_start_directory_load_only_on_a_read_mp021() {
    let ws = MemWorkspace::new()
        .file("GEMINI.md", "root\n")
        .file("a/GEMINI.md", "a\n")
        .file("a/b/GEMINI.md", "b\n")
        .file("a/b/.gemini/commands/x.toml", "prompt = \"x\"\n")
        .file("a/b/.gemini/settings.json", "{}\n");
    assert_eq!(
        codes(&ws, ""),
        [
            "MP021 a/GEMINI.md:1",
            "MP021 a/b/.gemini/commands",
            "MP021 a/b/.gemini/settings.json",
            "MP021 a/b/GEMINI.md:1",
        ]
    );
    // Started in a/b, the files on its path load at start.
    assert_eq!(codes(&ws, "a/b"), Vec::<String>::new());
    // Started in a, only b's are below.
    assert_eq!(codes(&ws, "a").len(), 3);
}

#[test]
fn imports_are_judged_as_gemini_inlines_them() {
    let chain: Vec<(String, String)> = (1..=7)
        .map(|i| (format!("d{i}.md"), format!("d{i} @d{}.md\n", i + 1)))
        .collect();
    let mut ws = MemWorkspace::new()
        .file(
            "GEMINI.md",
            "Intro\n@missing.md and @docs @./d1.md @https://x.io/a.md\n`@code.md` @../../out.md\n\
             @c1.md @GEMINI.md\n",
        )
        .file("docs/x.md", "x\n")
        .file("c1.md", "@c2.md\n")
        .file("c2.md", "@c1.md\n");
    for (path, text) in &chain {
        ws = ws.file(path, text);
    }
    assert_eq!(
        codes(&ws, ""),
        [
            "MP004 GEMINI.md:2",
            "MP007 GEMINI.md:3",
            "MP022 GEMINI.md:4",
            "MP005 c2.md:1",
            "MP006 d5.md:1",
        ]
    );
    let messages = gemini(&ws, "");
    assert!(
        messages[2].contains("`@GEMINI.md` inlines GEMINI.md"),
        "{messages:?}"
    );
    assert!(
        messages[4].contains("`@d6.md` is import level 6"),
        "{messages:?}"
    );
}

#[test]
fn a_parent_context_file_imported_below_is_sent_twice() {
    let ws = MemWorkspace::new()
        .file("GEMINI.md", "root\n")
        .file("sub/GEMINI.md", "sub\n@../GEMINI.md @notes.md\n")
        .file("sub/notes.md", "@../GEMINI.md\n");
    assert_eq!(
        codes(&ws, "sub"),
        ["MP022 sub/GEMINI.md:2", "MP022 sub/notes.md:1"]
    );
}

#[test]
fn skills_are_judged_by_gemini_names_mp013_mp014() {
    let ws = MemWorkspace::new()
        .file("GEMINI.md", "Notes.\n")
        .file(
            ".gemini/skills/deploy/SKILL.md",
            "---\nname: ship:it\ndescription: Ships.\n---\nBody.\n",
        )
        .file(
            ".gemini/skills/same/SKILL.md",
            "---\nname: same\ndescription: Same.\n---\n",
        )
        .file(
            ".agents/skills/bare/SKILL.md",
            "---\nname: bare\n---\nNo description.\n",
        )
        .file(
            ".gemini/skills/SKILL.md",
            "---\nname: top\ndescription: Top.\n---\n",
        );
    assert_eq!(
        gemini(&ws, ""),
        [
            "MP014 .agents/skills/bare/SKILL.md:1 no frontmatter with a string `name` and \
             `description`: Gemini CLI does not list this skill",
            "MP013 .gemini/skills/deploy/SKILL.md:2 `name: ship:it` differs from the directory \
             `deploy`: Gemini CLI names the skill `ship-it`, not `deploy`",
        ]
    );
}

#[test]
fn a_shell_command_in_a_toml_prompt_is_mp016_and_an_empty_one_is_not() {
    let ws = MemWorkspace::new().file("GEMINI.md", "Notes.\n").file(
        ".gemini/commands/st.toml",
        "description = \"status\"\nprompt = \"\"\"\nSee:\n!{git status --short}\n!{}\n\"\"\"\n",
    );
    assert_eq!(
        gemini(&ws, ""),
        [
            "MP016 .gemini/commands/st.toml:4 runs `git status --short` when invoked: Gemini CLI \
          asks first, then sends its output (`gemini -p` refuses the command and sends \
          nothing); the preview sends a placeholder"
        ]
    );
}
