//! The Claude profile's commands and skills over in-memory trees.

use std::sync::Arc;

use super::*;
use crate::diagnostic::Severity;
use crate::prompt::command::NotExpanded;
use crate::prompt::command::claude_listing::Kind;
use crate::prompt::tiers::{Fate, Layout, ReadPolicy, SearchDir, Tier};
use crate::workspace::{LinkPolicy, MemNode, MemWorkspace, Workspace};

fn skill(description: &str, body: &str) -> String {
    format!("---\ndescription: {description}\n---\n{body}")
}

fn project(files: &[(&str, &str)]) -> Arc<dyn Workspace> {
    Arc::new(
        files
            .iter()
            .fold(MemWorkspace::new().with_root("/w"), |ws, (path, body)| {
                ws.file(path, body)
            }),
    )
}

fn user(files: &[(&str, &str)]) -> Arc<dyn Workspace> {
    Arc::new(
        files.iter().fold(
            MemWorkspace::new()
                .with_root("/h/.claude")
                .with_policy(LinkPolicy::Follow),
            |ws, (path, body)| ws.file(path, body),
        ),
    )
}

fn dirs(
    project: &Arc<dyn Workspace>,
    user: &Arc<dyn Workspace>,
    at: &str,
) -> Vec<SearchDir<'static>> {
    claude_dirs(project.clone(), at, false, Some(user.clone())).unwrap()
}

const DESCRIBE: ReadPolicy = ReadPolicy::ALL;

fn fates(listing: &ClaudeListing) -> Vec<(String, Kind, String, &'static str)> {
    listing
        .entries
        .iter()
        .map(|e| (e.name.clone(), e.kind, e.source.clone(), e.fate.as_str()))
        .collect()
}

fn env(project: &Arc<dyn Workspace>, at: &str, trusted: bool) -> ExpandEnv<'static> {
    ExpandEnv {
        project: project.clone(),
        at: at.to_string(),
        trusted,
    }
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /h/…")]
fn directories_come_in_claude_codes_precedence_order() {
    let (p, u) = (project(&[]), user(&[]));
    let shown: Vec<(String, Tier, Layout)> = dirs(&p, &u, "a/b")
        .iter()
        .map(|d| (d.display(&d.dir), d.tier, d.layout))
        .collect();
    let row = |dir: &str, tier, layout| (dir.to_string(), tier, layout);
    assert_eq!(
        shown,
        [
            row("/h/.claude/skills", Tier::User, Layout::SkillDirs),
            row("a/b/.claude/skills", Tier::Project, Layout::SkillDirs),
            row("a/.claude/skills", Tier::Project, Layout::SkillDirs),
            row(".claude/skills", Tier::Project, Layout::SkillDirs),
            row("/h/.claude/commands", Tier::User, Layout::Nested),
            row("a/b/.claude/commands", Tier::Project, Layout::Nested),
            row("a/.claude/commands", Tier::Project, Layout::Nested),
            row(".claude/commands", Tier::Project, Layout::Nested),
        ]
    );
    let withheld = claude_dirs(p.clone(), "", true, None).unwrap();
    assert!(
        withheld
            .iter()
            .all(|d| d.withheld && d.tier == Tier::Project)
    );
    assert!(claude_dirs(p, "../x", false, None).is_err());
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /h/…")]
fn skills_beat_commands_user_beats_project_and_the_cwd_beats_its_ancestors() {
    let p = project(&[
        (
            ".claude/skills/review/SKILL.md",
            &skill("project skill", "P"),
        ),
        (".claude/commands/review.md", "project command"),
        (".claude/commands/deploy.md", "project deploy"),
        ("sub/.claude/commands/deploy.md", "cwd deploy"),
        ("sub/.claude/skills/fmt/SKILL.md", "cwd fmt"),
        (".claude/skills/fmt/SKILL.md", "root fmt"),
        (".claude/commands/lint.md", "project lint"),
        (".claude/commands/a.md", "a"),
        (".claude/commands/a/b.md", "a b"),
        (".claude/commands/a/b/c.md", "a b c"),
    ]);
    let u = user(&[
        ("commands/review.md", "user command"),
        ("skills/lint/SKILL.md", "user lint skill"),
        ("commands/deploy.md", "user deploy"),
    ]);
    let listing = list_claude(&dirs(&p, &u, "sub"), DESCRIBE, &ClaudeFiles::HEAD);
    let row =
        |name: &str, kind, source: &str, fate| (name.to_string(), kind, source.to_string(), fate);
    assert_eq!(
        fates(&listing),
        [
            row("a", Kind::Command, ".claude/commands/a.md", "winner"),
            row("a:b", Kind::Command, ".claude/commands/a/b.md", "winner"),
            row(
                "a:b:c",
                Kind::Command,
                ".claude/commands/a/b/c.md",
                "winner"
            ),
            row(
                "deploy",
                Kind::Command,
                "/h/.claude/commands/deploy.md",
                "winner"
            ),
            row(
                "deploy",
                Kind::Command,
                "sub/.claude/commands/deploy.md",
                "shadowed"
            ),
            row(
                "deploy",
                Kind::Command,
                ".claude/commands/deploy.md",
                "shadowed"
            ),
            row(
                "fmt",
                Kind::Skill,
                "sub/.claude/skills/fmt/SKILL.md",
                "winner"
            ),
            row(
                "fmt",
                Kind::Skill,
                ".claude/skills/fmt/SKILL.md",
                "shadowed"
            ),
            row(
                "lint",
                Kind::Skill,
                "/h/.claude/skills/lint/SKILL.md",
                "winner"
            ),
            row(
                "lint",
                Kind::Command,
                ".claude/commands/lint.md",
                "shadowed"
            ),
            row(
                "review",
                Kind::Skill,
                ".claude/skills/review/SKILL.md",
                "winner"
            ),
            row(
                "review",
                Kind::Command,
                "/h/.claude/commands/review.md",
                "shadowed"
            ),
            row(
                "review",
                Kind::Command,
                ".claude/commands/review.md",
                "shadowed"
            ),
        ]
    );
    let review = &listing.entries[10];
    assert_eq!(
        review.file.as_ref().map(ClaudeFile::description).as_deref(),
        Some("project skill")
    );
    assert!(
        listing.entries[11].file.is_none(),
        "losers are only looked at"
    );
}

#[test]
fn invalid_yaml_and_a_misplaced_fence_are_reported_with_what_claude_code_does() {
    let p = project(&[
        (
            ".claude/commands/compare.md",
            "---\ndescription: Compare\nargument-hint: [a] [b]\n---\nx",
        ),
        (
            ".claude/commands/broken.md",
            "---\ndescription: x\n  bad: [\n---\nx",
        ),
        (
            ".claude/commands/late.md",
            "\n---\ndescription: late\n---\nx",
        ),
    ]);
    let listing = list_claude(
        &claude_dirs(p, "", false, None).unwrap(),
        DESCRIBE,
        &ClaudeFiles::HEAD,
    );
    let notes: Vec<(String, String)> = listing
        .diagnostics
        .iter()
        .map(|d| (d.path.clone().unwrap_or_default(), d.reason.clone()))
        .collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(notes[0].0.ends_with("broken.md") && notes[0].1.contains("ignores every key"));
    assert!(
        notes[0]
            .1
            .starts_with("frontmatter is not valid YAML at line 3, column")
    );
    assert!(notes[1].0.ends_with("compare.md") && notes[1].1.contains("quoted and uses its keys"));
    assert!(notes[2].0.ends_with("late.md") && notes[2].1.starts_with("the opening ---"));
    let compare = listing
        .entries
        .iter()
        .find(|e| e.name == "compare")
        .unwrap();
    let file = compare.file.as_ref().unwrap();
    assert_eq!(file.argument_hint().as_deref(), Some("[a] [b]"));
    assert_eq!(file.description(), "Compare");
}

fn expand(dirs: &[SearchDir<'_>], input: &str, env: &ExpandEnv<'_>) -> ClaudeExpansion {
    expand_claude(dirs, input, env).unwrap()
}

#[test]
#[cfg_attr(windows, ignore = "fixture workspace is the Unix path /w")]
fn a_skill_expands_with_its_base_directory_and_a_command_gets_its_arguments_line() {
    let p = project(&[
        (
            ".claude/skills/deploy/SKILL.md",
            &skill("Deploy", "Deploy to $0 in $1.\n"),
        ),
        (
            ".claude/commands/git/commit.md",
            "---\nargument-hint: [msg]\n---\nCommit.\n",
        ),
        ("sub/.keep", ""),
    ]);
    let u = user(&[]);
    let searched = dirs(&p, &u, "sub");
    let out = expand(&searched, "/deploy prod \"eu west\"", &env(&p, "sub", true));
    assert_eq!(
        out.expansion.output,
        "Base directory for this skill: /w/.claude/skills/deploy\n\nDeploy to prod in eu west.\n"
    );
    assert_eq!(out.expansion.args, ["prod", "eu west"]);
    assert_eq!(out.expansion.name.as_deref(), Some("deploy"));
    assert_eq!(out.kind, Some(Kind::Skill));
    assert_eq!(
        out.frontmatter.get("description").and_then(|v| v.as_str()),
        Some("Deploy")
    );

    let out = expand(
        &searched,
        "  /git:commit fix the typo",
        &env(&p, "sub", true),
    );
    assert_eq!(out.expansion.output, "Commit.\n\n\nARGUMENTS: fix the typo");
    assert_eq!(
        out.expansion.source.as_deref(),
        Some(".claude/commands/git/commit.md")
    );
    assert_eq!(out.kind, Some(Kind::Command));

    for unknown in ["/nope x", "hello", "/", "/etc/hosts"] {
        let out = expand(&searched, unknown, &env(&p, "sub", true));
        assert!(!out.expansion.expanded && out.expansion.output == unknown);
        assert_eq!(out.not_expanded, None, "{unknown}");
    }
}

#[test]
fn a_skills_name_key_is_a_second_name_that_a_real_name_beats() {
    let p = project(&[
        (
            ".claude/skills/dirname/SKILL.md",
            "---\nname: othername\ndescription: d\n---\nDir $0.\n",
        ),
        (
            ".claude/skills/aliased/SKILL.md",
            "---\nname: review\ndescription: a\n---\nAliased.\n",
        ),
        (".claude/commands/review.md", "Review command.\n"),
        (".claude/commands/cmd.md", "---\nname: other\n---\nCmd.\n"),
    ]);
    let searched = claude_dirs(p.clone(), "", false, None).unwrap();
    let e = env(&p, "", true);
    let out = expand(&searched, "/othername x", &e);
    assert_eq!(out.expansion.name.as_deref(), Some("dirname"));
    assert!(out.expansion.output.ends_with("Dir x.\n"));
    assert!(out.diagnostics.iter().any(|d| {
        d.severity == Severity::Info
            && d.reason
                .starts_with("/othername is the name: of skill /dirname")
    }));
    assert_eq!(
        expand(&searched, "/review", &e).expansion.output,
        "Review command.\n"
    );
    assert!(!expand(&searched, "/other", &e).expansion.expanded);
    assert_eq!(
        alias_of(&searched, "othername").map(|a| a.skill).as_deref(),
        Some("dirname")
    );

    let listing = list_claude(&searched, DESCRIBE, &ClaudeFiles::HEAD);
    let lines: Vec<String> = skills_listing(&searched, &listing, 100_000)
        .entries
        .into_iter()
        .map(|e| e.line)
        .collect();
    assert_eq!(
        lines,
        [
            "- aliased: a",
            "- dirname (othername): d",
            "- cmd: Cmd.",
            "- review: Review command."
        ]
    );
}

#[test]
fn shell_commands_are_placeholders_and_mentions_are_attachments_never_read() {
    let p: Arc<dyn Workspace> = Arc::new(
        MemWorkspace::new()
            .with_root("/w")
            .file(
                ".claude/commands/t.md",
                "Run !`touch /tmp/marker` then\n```!\nrm -rf x\n```\nRead @notes.txt, @sub/, @gone.md, \
                 @../outside.txt, @/w/abs.txt, @/etc/passwd, @~/.ssh/id, @link.txt and @fifo.\n",
            )
            .file("notes.txt", "12345")
            .file("abs.txt", "a")
            .file("sub/x", "")
            .node("link.txt", MemNode::Symlink("../outside.txt".into()))
            .node("fifo", MemNode::Special("FIFO")),
    );
    let searched = claude_dirs(p.clone(), "", false, None).unwrap();
    let out = expand(&searched, "/t", &env(&p, "", true));
    assert_eq!(
        out.expansion.output,
        "Run [mecatl-prompt did not run: touch /tmp/marker] then\n\
         [mecatl-prompt did not run: rm -rf x]\nRead @notes.txt, @sub/, @gone.md, \
         @../outside.txt, @/w/abs.txt, @/etc/passwd, @~/.ssh/id, @link.txt and @fifo.\n"
    );
    let shell: Vec<(&str, usize)> = out
        .shell
        .iter()
        .map(|s| (s.command.as_str(), s.offset))
        .collect();
    assert_eq!(shell, [("touch /tmp/marker", 4), ("rm -rf x", 56)]);
    let attachments: Vec<(String, Option<u64>, String)> = out
        .attachments
        .iter()
        .map(|a| (a.path.clone(), a.bytes, a.status.phrase()))
        .collect();
    let row = |path: &str, bytes, status: &str| (path.to_string(), bytes, status.to_string());
    assert_eq!(
        attachments,
        [
            row("notes.txt", Some(5), "attached"),
            row("sub", None, "directory: its listing is attached"),
            row("gone.md", None, "not found: nothing is attached"),
            row("../outside.txt", None, "outside the workspace: not read"),
            row("abs.txt", Some(1), "attached"),
            row("/etc/passwd", None, "outside the workspace: not read"),
            row("~/.ssh/id", None, "outside the workspace: not read"),
            row(
                "link.txt",
                None,
                "not read: refused symlink: symlink resolves outside the workspace; not followed"
            ),
            row("fifo", None, "not read: not a regular file (FIFO)"),
        ]
    );
    let warnings = out
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    assert_eq!(warnings, 1 + 5, "{:?}", out.diagnostics);
    assert!(
        out.diagnostics[0]
            .reason
            .starts_with("Claude Code runs 2 shell command(s)")
    );

    let untrusted = expand(&searched, "/t", &env(&p, "", false));
    assert!(
        untrusted
            .attachments
            .iter()
            .any(|a| a.path == "notes.txt" && a.status == AttachmentStatus::Withheld)
    );
}

#[test]
fn withheld_and_model_only_entries_do_not_expand_and_say_why() {
    let p = project(&[
        (".claude/commands/w.md", "W"),
        (
            ".claude/skills/auto/SKILL.md",
            "---\nuser-invocable: false\n---\nAuto.\n",
        ),
    ]);
    let untrusted = claude_dirs(p.clone(), "", true, None).unwrap();
    let out = expand(&untrusted, "/w", &env(&p, "", false));
    assert_eq!(
        out.not_expanded,
        Some(NotExpanded::Withheld {
            name: "w".into(),
            source: ".claude/commands/w.md".into()
        })
    );
    let trusted = claude_dirs(p.clone(), "", false, None).unwrap();
    let out = expand(&trusted, "/auto", &env(&p, "", true));
    assert_eq!(
        out.not_expanded,
        Some(NotExpanded::ModelOnly {
            name: "auto".into(),
            source: ".claude/skills/auto/SKILL.md".into()
        })
    );
    let listing = list_claude(&trusted, DESCRIBE, &ClaudeFiles::HEAD);
    let auto = listing.entries.iter().find(|e| e.name == "auto").unwrap();
    assert!(!auto.user_invocable() && !auto.hidden_from_model());
    let withheld = list_claude(&untrusted, DESCRIBE, &ClaudeFiles::HEAD);
    assert!(withheld.entries.iter().all(|e| e.fate == Fate::Withheld));
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /h/…")]
fn the_listing_groups_sorts_hides_and_shrinks_like_claude_code() {
    let p = project(&[
        (
            "sub/.claude/skills/mm-cwd/SKILL.md",
            &skill("cwd skill", ""),
        ),
        (
            "sub/.claude/skills/bb-cwd/SKILL.md",
            &skill("cwd skill two", ""),
        ),
        (".claude/skills/aa-root/SKILL.md", &skill("root skill", "")),
        ("sub/.claude/commands/dd-cwd.md", &skill("cwd command", "")),
        (".claude/commands/cc-proj.md", &skill("project command", "")),
        (
            ".claude/commands/hidden.md",
            "---\ndisable-model-invocation: true\n---\nH",
        ),
        (".claude/commands/Zed.md", "# Heading line\n"),
    ]);
    let u = user(&[
        ("skills/zz-user/SKILL.md", &skill("user skill", "")),
        ("commands/ab-user.md", &skill("user command", "")),
    ]);
    let searched = dirs(&p, &u, "sub");
    let listing = list_claude(&searched, DESCRIBE, &ClaudeFiles::HEAD);
    let full = skills_listing(&searched, &listing, 100_000);
    let lines: Vec<&str> = full.entries.iter().map(|e| e.line.as_str()).collect();
    assert_eq!(
        lines,
        [
            "- zz-user: user skill",
            "- bb-cwd: cwd skill two",
            "- mm-cwd: cwd skill",
            "- aa-root: root skill",
            "- ab-user: user command",
            "- cc-proj: project command",
            "- dd-cwd: cwd command",
            "- Zed: Heading line",
        ]
    );
    assert_eq!(full.hidden, ["hidden"]);
    assert_eq!(full.shrunk, 0);
    let message = full.message().unwrap();
    assert_eq!(message.parts.len(), 8);
    assert_eq!(message.parts[0].path, "/h/.claude/skills/zz-user/SKILL.md");
    assert_eq!(message.parts[0].scope, crate::prompt::profile::Scope::User);
    assert_eq!(full.diagnostics().len(), 1, "only the hidden entry is said");

    // Claude Code's own entries take most of a budget just above their
    // width.
    let tight = skills_listing(&searched, &listing, CLAUDE_OWN_ENTRIES.width + 4);
    assert!(tight.shrunk > 0 && tight.shrunk < 8, "{tight:?}");
    let warning = &tight.diagnostics()[0];
    assert_eq!(warning.severity, Severity::Warning);
    assert!(
        warning
            .reason
            .contains(&format!("{} of 8 entries are shrunk", tight.shrunk))
    );
    let empty = list_claude(
        &claude_dirs(project(&[]), "", false, None).unwrap(),
        DESCRIBE,
        &ClaudeFiles::HEAD,
    );
    assert!(skills_listing(&[], &empty, 8_000).message().is_none());
}

#[test]
fn names_of_the_claude_grammar() {
    assert!(valid_claude_name("git:commit") && valid_claude_name("a.b-c_d"));
    assert!(!valid_claude_name("my cmd") && !valid_claude_name(""));
    let parsed = parse_claude_invocation("\t/git:commit  a b").unwrap();
    assert_eq!((parsed.name, parsed.args), ("git:commit", "  a b"));
    assert!(parse_claude_invocation("/ x").is_none());
    assert!(parse_claude_invocation("x /y").is_none());
}

#[test]
fn a_keys_read_keeps_only_the_frontmatter_and_answers_the_same() {
    let hinted = "---\nargument-hint: [file]\nuser-invocable: false\n---\n\nBody $ARGUMENTS.\n";
    let named = "---\nname: other\ndescription: d\n---\nSkill body.\n";
    let project = project(&[
        (".claude/commands/hinted.md", hinted),
        (".claude/commands/bare.md", "No frontmatter at all.\n"),
        (".claude/skills/s/SKILL.md", named),
    ]);
    let dirs = dirs(&project, &user(&[]), "");
    let read = |files: &ClaudeFiles| list_claude(&dirs, ReadPolicy::ALL, files);
    let (whole, keys) = (read(&ClaudeFiles::WHOLE), read(&ClaudeFiles::KEYS));
    let texts: Vec<&str> = keys
        .entries
        .iter()
        .map(|e| e.file.as_ref().unwrap().text.as_str())
        .collect();
    // Sorted by name: bare, hinted, s.
    assert_eq!(
        texts,
        [
            "",
            "---\nargument-hint: [file]\nuser-invocable: false\n---\n\n",
            "---\nname: other\ndescription: d\n---\n"
        ]
    );
    for (whole, keys) in whole.entries.iter().zip(&keys.entries) {
        let (whole, keys) = (whole.file.as_ref().unwrap(), keys.file.as_ref().unwrap());
        assert_eq!(keys.argument_hint(), whole.argument_hint());
        assert_eq!(keys.model_only(), whole.model_only());
        assert_eq!(keys.declared_name(), whole.declared_name());
        assert_eq!(keys.keys(), whole.keys());
    }
    assert_eq!(
        keys.entries[1].file.as_ref().unwrap().argument_hint(),
        Some("[file]".to_string())
    );
}
