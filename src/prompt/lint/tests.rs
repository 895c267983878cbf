//! Every check of `lint`, pinned on in-memory workspaces.

use std::path::PathBuf;

use super::*;
use crate::prompt::profile::Agent::{Claude, Codex, Mecatl};
use crate::workspace::{MemNode, MemWorkspace};

/// `(code, severity, path, line, agents)` of every finding.
type Row = (&'static str, Level, String, Option<u64>, Vec<Agent>);

fn run(ws: &MemWorkspace) -> LintReport {
    run_at(ws, "")
}

fn run_at(ws: &MemWorkspace, at: &str) -> LintReport {
    lint(
        ws,
        &LintOptions {
            home: Some(PathBuf::from("/home/u")),
            at: at.to_string(),
        },
    )
}

/// The findings of every agent but GitHub Copilot CLI, whose checks
/// (MP030–MP036) are pinned in its own module and would add its view of
/// these workspaces to every row list.
fn rows(ws: &MemWorkspace) -> Vec<Row> {
    run(ws)
        .findings
        .into_iter()
        .filter(|f| f.agents != [Agent::Copilot])
        .map(|f| (f.code.as_str(), f.severity, f.path, f.line, f.agents))
        .collect()
}

fn row(code: &'static str, level: Level, path: &str, line: u64, agents: &[Agent]) -> Row {
    (code, level, path.to_string(), Some(line), agents.to_vec())
}

fn message(ws: &MemWorkspace, code: &str, path: &str) -> String {
    run(ws)
        .findings
        .into_iter()
        .find(|f| f.code.as_str() == code && f.path == path)
        .unwrap_or_else(|| panic!("no {code} on {path}"))
        .message
}

#[test]
fn invalid_yaml_in_a_command_is_a_warning_when_claude_recovers_it() {
    let ws = MemWorkspace::new()
        // pr-pm__prpm's shape: Claude Code quotes the value and goes on.
        .file(
            ".claude/commands/karen/compare.md",
            "---\ndescription: Compare\nargument-hint: [a] [b]\n---\nCompare $ARGUMENTS\n",
        )
        // invalid-yaml-unrecoverable's shape: every key is lost.
        .file(
            ".claude/commands/broken.md",
            "---\ndescription: Broken\nnote2: a: b\n---\nHello $0\n",
        )
        // Nobody parses the YAML of an engine-only command.
        .file(
            ".mecatl/commands/plain.md",
            "---\nhint: [a] [b]\n---\nx $1\n",
        );
    assert_eq!(
        rows(&ws),
        vec![
            row(
                "MP001",
                Level::Error,
                ".claude/commands/broken.md",
                3,
                &[Claude]
            ),
            row(
                "MP001",
                Level::Warning,
                ".claude/commands/karen/compare.md",
                3,
                &[Claude]
            ),
        ]
    );
    let text = message(&ws, "MP001", ".claude/commands/karen/compare.md");
    assert!(
        text.starts_with("line 3, column 20: invalid YAML"),
        "{text}"
    );
    assert!(
        !text.contains("[a]"),
        "a message never quotes the YAML: {text}"
    );
}

#[test]
fn unquoted_globs_are_aliases_the_engine_drops() {
    let ws = MemWorkspace::new()
        // Read by both: mecatl drops it, Claude Code cannot re-quote a list item.
        .file(
            ".claude/rules/ts.md",
            "---\npaths:\n  - *.ts\n---\nUse strict mode.\n",
        )
        // Claude Code only: it re-quotes `*.md` and keeps the paths.
        .file(
            ".claude/rules/docs/md.md",
            "---\npaths: *.md\n---\nWrap at 80.\n",
        )
        .file(
            ".mecatl/rules/broken.md",
            "---\npaths: [unclosed\n---\nBody\n",
        );
    assert_eq!(
        rows(&ws),
        vec![
            row(
                "MP002",
                Level::Warning,
                ".claude/rules/docs/md.md",
                2,
                &[Claude]
            ),
            row(
                "MP002",
                Level::Error,
                ".claude/rules/ts.md",
                3,
                &[Mecatl, Claude]
            ),
            row(
                "MP001",
                Level::Error,
                ".mecatl/rules/broken.md",
                2,
                &[Mecatl]
            ),
        ]
    );
    assert!(message(&ws, "MP002", ".claude/rules/ts.md").contains("mecatl drops the rule"));
}

#[test]
fn a_misplaced_block_is_reported_for_the_agents_that_lose_it() {
    let ws = MemWorkspace::new()
        // A BOM: mecatl's commands lose the block, Claude Code does not.
        .file(
            ".claude/commands/bom.md",
            "\u{feff}---\ndescription: d\n---\nx\n",
        )
        .file(
            ".claude/commands/ns/bom.md",
            "\u{feff}---\ndescription: d\n---\nx\n",
        )
        // A blank line: everyone loses it.
        .file(
            ".claude/rules/blank.md",
            "\n---\npaths: src/**\n---\nRule\n",
        )
        .file(
            ".claude/skills/s/SKILL.md",
            "\u{feff}---\ndescription: fine for Claude\n---\nBody\n",
        )
        // Codex wants `---` on the first line, so the skill is not listed.
        .file(
            ".agents/skills/c/SKILL.md",
            "\n---\nname: c\ndescription: d\n---\nBody\n",
        );
    assert_eq!(
        rows(&ws),
        vec![
            row(
                "MP003",
                Level::Error,
                ".agents/skills/c/SKILL.md",
                2,
                &[Codex]
            ),
            row(
                "MP003",
                Level::Warning,
                ".claude/commands/bom.md",
                1,
                &[Mecatl]
            ),
            row(
                "MP003",
                Level::Warning,
                ".claude/rules/blank.md",
                2,
                &[Mecatl, Claude]
            ),
        ]
    );
}

#[test]
fn cursor_and_copilot_keys_leave_a_rule_unscoped() {
    let ws = MemWorkspace::new()
        .file(
            ".claude/rules/cursor.md",
            "---\ndescription: TS\nglobs: \"*.ts\"\nalwaysApply: false\n---\nBody\n",
        )
        .file(
            ".claude/rules/deep/copilot.md",
            "---\napplyTo: \"**/*.py\"\n---\nBody\n",
        )
        .file(
            ".claude/rules/both.md",
            "---\nglobs: \"*.ts\"\npaths: \"src/**/*.ts\"\n---\nBody\n",
        )
        .file(".mecatl/rules/m.md", "---\nglobs: \"*.rs\"\n---\nBody\n");
    assert_eq!(
        rows(&ws),
        vec![
            row(
                "MP012",
                Level::Warning,
                ".claude/rules/cursor.md",
                3,
                &[Mecatl, Claude]
            ),
            row(
                "MP012",
                Level::Warning,
                ".claude/rules/deep/copilot.md",
                2,
                &[Claude]
            ),
            row("MP012", Level::Warning, ".mecatl/rules/m.md", 2, &[Mecatl]),
        ]
    );
}

#[test]
fn skills_are_checked_as_claude_code_and_codex_name_them() {
    let ws = MemWorkspace::new()
        .file(
            ".claude/skills/deploy/SKILL.md",
            "---\nname: ship\n---\nShip it.\n",
        )
        .file(
            ".claude/skills/fine/SKILL.md",
            "---\nname: fine\ndescription: Use when fine.\n---\nBody\n",
        )
        .file(
            ".agents/skills/fmt/SKILL.md",
            "---\nname: format\ndescription: Formats.\n---\nBody\n",
        )
        .file(
            ".agents/skills/nodesc/SKILL.md",
            "---\nname: nodesc\n---\nBody\n",
        )
        // Invalid YAML Codex recovers key by key: listed, so a warning.
        .file(
            ".codex/skills/odd/SKILL.md",
            "---\nname: odd\ndescription: Use when: needed\n---\nBody\n",
        );
    assert_eq!(
        rows(&ws),
        vec![
            row(
                "MP013",
                Level::Warning,
                ".agents/skills/fmt/SKILL.md",
                2,
                &[Codex]
            ),
            row(
                "MP014",
                Level::Error,
                ".agents/skills/nodesc/SKILL.md",
                1,
                &[Codex]
            ),
            row(
                "MP014",
                Level::Warning,
                ".claude/skills/deploy/SKILL.md",
                1,
                &[Claude]
            ),
            row(
                "MP013",
                Level::Warning,
                ".claude/skills/deploy/SKILL.md",
                2,
                &[Claude]
            ),
            row(
                "MP001",
                Level::Warning,
                ".codex/skills/odd/SKILL.md",
                3,
                &[Codex]
            ),
        ]
    );
    assert!(message(&ws, "MP013", ".claude/skills/deploy/SKILL.md").contains("`deploy (ship)`"));
}

#[test]
fn templates_are_checked_in_each_dialect() {
    let ws = MemWorkspace::new()
        // Read by both; neither places the arguments.
        .file(
            ".claude/commands/hint.md",
            "---\nargument-hint: [file]\n---\nReview the file.\n",
        )
        // A named argument: Claude Code places it, the engine does not.
        .file(
            ".claude/commands/named.md",
            "---\nargument-hint: [file]\narguments: [file]\n---\nReview $file.\n",
        )
        .file(
            ".claude/commands/ok.md",
            "---\nargument-hint: [x]\n---\nDo $ARGUMENTS\n",
        )
        .file(
            ".claude/commands/ns/gemini.md",
            "Intro\n\nRun on {{args}} now\n",
        )
        .file(
            ".claude/commands/ctx.md",
            "---\ndescription: c\n---\nStatus: !`git status`\n",
        )
        // The engine's own directory: no Claude Code dialect there.
        .file(".mecatl/commands/m.md", "{{args}} and !`ls`\n");
    assert_eq!(
        rows(&ws),
        vec![
            row(
                "MP016",
                Level::Note,
                ".claude/commands/ctx.md",
                4,
                &[Mecatl, Claude]
            ),
            row(
                "MP010",
                Level::Warning,
                ".claude/commands/hint.md",
                2,
                &[Mecatl, Claude]
            ),
            row(
                "MP010",
                Level::Warning,
                ".claude/commands/named.md",
                2,
                &[Mecatl]
            ),
            row(
                "MP011",
                Level::Warning,
                ".claude/commands/ns/gemini.md",
                3,
                &[Claude]
            ),
        ]
    );
    assert!(message(&ws, "MP016", ".claude/commands/ctx.md").contains("`git status`"));
}

#[test]
fn a_skill_shadows_a_command_of_its_name_from_any_start_directory() {
    let ws = MemWorkspace::new()
        .file(
            ".claude/skills/review/SKILL.md",
            "---\ndescription: r\n---\nR\n",
        )
        .file(".claude/commands/review.md", "Review\n")
        .file(".claude/commands/other.md", "Other\n")
        // A skill below shadows the root's command when Claude Code starts there.
        .file(
            "pkg/.claude/skills/deploy/SKILL.md",
            "---\ndescription: d\n---\nD\n",
        )
        .file(".claude/commands/deploy.md", "Deploy\n")
        // A command below a skill's directory is shadowed too.
        .file("pkg/.claude/commands/review.md", "Review pkg\n");
    assert_eq!(
        rows(&ws),
        vec![
            row(
                "MP015",
                Level::Warning,
                ".claude/commands/deploy.md",
                1,
                &[Claude]
            ),
            row(
                "MP015",
                Level::Warning,
                ".claude/commands/review.md",
                1,
                &[Claude]
            ),
            row(
                "MP015",
                Level::Warning,
                "pkg/.claude/commands/review.md",
                1,
                &[Claude]
            ),
        ]
    );
}

#[test]
fn imports_are_followed_as_claude_code_follows_them() {
    let ws = MemWorkspace::new()
        .file(
            "CLAUDE.md",
            "# Project\n@docs/missing.md\n@docs/a.md\nSee @Observable and @jlowin.\n\
             @../outside.md\n@~/private.md\n@./docs\n`@in/code.md`\n",
        )
        .file("docs/a.md", "@b.md\n")
        .file("docs/b.md", "Back to\n@a.md\n")
        .file("docs/sub/keep.md", "")
        .file("chain/CLAUDE.md", "---\ndescription: x\n---\n@d1.md\n")
        .file("chain/d1.md", "@d2.md")
        .file("chain/d2.md", "@d3.md")
        .file("chain/d3.md", "@d4.md")
        .file("chain/d4.md", "\n@d5.md")
        .file("chain/d5.md", "too deep");
    assert_eq!(
        rows(&ws),
        vec![
            row("MP004", Level::Warning, "CLAUDE.md", 2, &[Claude]),
            row("MP007", Level::Warning, "CLAUDE.md", 5, &[Claude]),
            row("MP007", Level::Warning, "CLAUDE.md", 6, &[Claude]),
            row("MP004", Level::Warning, "CLAUDE.md", 7, &[Claude]),
            row("MP006", Level::Warning, "chain/d4.md", 2, &[Claude]),
            row("MP005", Level::Note, "docs/b.md", 2, &[Claude]),
        ]
    );
    assert!(message(&ws, "MP006", "chain/d4.md").contains("level 5 below chain/CLAUDE.md"));
    let external = message(&ws, "MP007", "CLAUDE.md");
    assert!(external.contains("`@../outside.md`") && !external.contains("/home/u"));
}

#[test]
fn an_import_leaving_the_start_directory_is_external() {
    let ws = MemWorkspace::new()
        .file("app/CLAUDE.md", "@../shared/style.md\n")
        .file("shared/style.md", "Style\n");
    assert_eq!(rows(&ws), vec![], "from the root, shared/ is inside");
    let from_app: Vec<(String, Option<u64>, String)> = run_at(&ws, "app")
        .findings
        .into_iter()
        .map(|f| (f.code.as_str().to_string(), f.line, f.message))
        .collect();
    assert_eq!(
        from_app,
        [(
            "MP007".to_string(),
            Some(1),
            "`@../shared/style.md` points outside the start directory app: Claude Code drops it \
             unless external includes were approved on that machine"
                .to_string()
        )]
    );
}

#[test]
fn agents_md_is_a_claude_code_file_only_where_the_fallback_applies() {
    let fallback = MemWorkspace::new().file("AGENTS.md", "@gone.md\n");
    assert_eq!(
        rows(&fallback),
        vec![row("MP004", Level::Warning, "AGENTS.md", 1, &[Claude])]
    );
    let claude_above = MemWorkspace::new()
        .file("CLAUDE.md", "@AGENTS.md\n")
        .file("AGENTS.md", "Shared\n")
        .file("sub/AGENTS.md", "@gone.md\n");
    assert_eq!(rows(&claude_above), vec![]);
    // A CLAUDE.md Claude Code sends nothing of leaves the fallback on.
    let blank_above = MemWorkspace::new()
        .file("CLAUDE.md", "---\nx: 1\n---\n<!-- later -->\n\n")
        .file("sub/AGENTS.md", "@gone.md\n");
    assert_eq!(
        rows(&blank_above),
        vec![row("MP004", Level::Warning, "sub/AGENTS.md", 1, &[Claude])]
    );
}

#[test]
fn codex_budget_cuts_and_drops_are_named_with_their_line() {
    let line = "x".repeat(99) + "\n";
    let big = line.repeat(400); // 40,000 bytes
    let ws = MemWorkspace::new().file("AGENTS.md", &big);
    let cut_line = 32_768 / 100 + 1;
    assert_eq!(
        rows(&ws),
        vec![row(
            "MP008",
            Level::Warning,
            "AGENTS.md",
            cut_line,
            &[Codex]
        )]
    );
    assert!(message(&ws, "MP008", "AGENTS.md").contains("first 32768 of its 40000 bytes"));
    // budget-cut's shape: root whole, the middle cut, the leaf dropped.
    let half = line.repeat(200);
    let chain = MemWorkspace::new()
        .file("AGENTS.md", &half)
        .file("a/AGENTS.md", &half)
        .file("a/b/AGENTS.md", line.repeat(50));
    assert_eq!(
        rows(&chain),
        vec![
            row("MP008", Level::Warning, "a/AGENTS.md", 128, &[Codex]),
            row("MP008", Level::Warning, "a/b/AGENTS.md", 1, &[Codex]),
        ]
    );
    // A `.git` marks the project root: the chain starts there.
    let rooted = MemWorkspace::new()
        .file("AGENTS.md", &half)
        .file("a/.git/HEAD", "ref")
        .file("a/AGENTS.md", &half);
    assert_eq!(rows(&rooted), vec![]);
}

#[test]
fn agents_md_and_claude_md_diverge_unless_one_is_the_other() {
    let diverging = MemWorkspace::new()
        .file("AGENTS.md", "Use tabs.\n")
        .file("CLAUDE.md", "Use spaces.\n")
        .file("sub/AGENTS.md", "A\n")
        .file("sub/.claude/CLAUDE.md", "B\n");
    assert_eq!(
        rows(&diverging),
        vec![
            row(
                "MP009",
                Level::Warning,
                "CLAUDE.md",
                1,
                &[Mecatl, Claude, Codex]
            ),
            row(
                "MP009",
                Level::Warning,
                "sub/.claude/CLAUDE.md",
                1,
                &[Claude, Codex]
            ),
        ]
    );
    assert!(message(&diverging, "MP009", "CLAUDE.md").contains(
        "Claude Code loads CLAUDE.md (12 bytes) here, Codex and mecatl load AGENTS.md (10 bytes)"
    ));
    for same in [
        MemWorkspace::new()
            .file("AGENTS.md", "X\n")
            .file("CLAUDE.md", "X\n"),
        MemWorkspace::new()
            .file("AGENTS.md", "X\n")
            .node("CLAUDE.md", MemNode::Symlink("AGENTS.md".into())),
        MemWorkspace::new()
            .file("AGENTS.md", "X\n")
            .file("CLAUDE.md", "@AGENTS.md\n\nClaude-only notes.\n"),
        MemWorkspace::new()
            .file("AGENTS.md", "X\n")
            .file("CLAUDE.md", " \n"),
    ] {
        assert_eq!(rows(&same), vec![]);
    }
    // A link checked out as a plain file holds its target's path.
    let text_link = MemWorkspace::new()
        .file("AGENTS.md", "Real instructions\n")
        .file("CLAUDE.md", "AGENTS.md");
    assert!(
        message(&text_link, "MP009", "CLAUDE.md")
            .starts_with("CLAUDE.md holds only the text `AGENTS.md`, a symbolic link")
    );
    let reverse = MemWorkspace::new()
        .file("AGENTS.md", "CLAUDE.md")
        .file("CLAUDE.md", "Real instructions\n");
    assert!(message(&reverse, "MP009", "AGENTS.md").starts_with("AGENTS.md holds only"));
}

#[test]
fn findings_can_be_kept_for_some_agents_and_are_ordered() {
    let ws = MemWorkspace::new()
        .file("AGENTS.md", "x\n".repeat(20_000))
        .file(".claude/commands/g.md", "{{args}}\n")
        .file("node_modules/p/.claude/commands/g.md", "{{args}}\n")
        .file(".git/CLAUDE.md", "@missing.md\n");
    let mut report = run(&ws);
    let paths: Vec<&str> = report.findings.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [".claude/commands/g.md", "AGENTS.md"],
        "pruned dirs are not read"
    );
    report.retain_agents(&[Codex]);
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.count(Level::Warning), 1);
    assert_eq!(report.count(Level::Error), 0);
}
