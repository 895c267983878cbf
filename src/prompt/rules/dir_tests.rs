//! Rules read from directories: discovery, precedence, the lazy message
//! and explanations, over in-memory trees and the disk.

use std::sync::Arc;

use crate::conformance::rules::RULE_FIXTURE;
use crate::diagnostic::{Severity, triples};
use crate::limits;
use crate::prompt::rules::discovery::{RuleDiscovery, discover, explain_rule};
use crate::prompt::rules::files::project_rule_dirs;
use crate::prompt::rules::lazy::{AssembledRules, assemble_rules};
use crate::prompt::rules::{
    MemRulesSource, RULES_HEADER, Rule, RuleOrigin, RulesAssembler, render_rule_block,
};
use crate::prompt::tiers::{Fate, SearchDir, Tier};
use crate::prompt::turn0::InstructionAssembler;
use crate::workspace::{LinkPolicy, MemNode, MemWorkspace, OsWorkspace};

const USER_CONFIG: &str = "/home/u/.config/mecatl";
const USER_CLAUDE: &str = "/home/u/.claude";

/// The four locations of SPEC §3.2 over in-memory trees.
fn four(
    project: MemWorkspace,
    config: MemWorkspace,
    claude: MemWorkspace,
    withheld: bool,
) -> Vec<SearchDir<'static>> {
    let mut locations = project_rule_dirs(Arc::new(project), withheld);
    for (tree, root) in [(config, USER_CONFIG), (claude, USER_CLAUDE)] {
        locations.push(SearchDir::flat(
            Arc::new(tree.with_policy(LinkPolicy::Follow).with_root(root)),
            "rules",
            Tier::User,
        ));
    }
    locations
}

fn project_only(project: MemWorkspace) -> Vec<SearchDir<'static>> {
    project_rule_dirs(Arc::new(project), false)
}

fn summary(found: &RuleDiscovery) -> Vec<(String, String, bool)> {
    found
        .rules
        .iter()
        .map(|r| (r.rule.name.clone(), r.source.clone(), r.withheld))
        .collect()
}

fn row(name: &str, source: &str, withheld: bool) -> (String, String, bool) {
    (name.into(), source.into(), withheld)
}

fn diag(severity: Severity, path: &str, reason: &str) -> (Severity, String, String) {
    (severity, path.into(), reason.into())
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn precedence_across_the_four_locations() {
    let project = MemWorkspace::new()
        .file(".mecatl/rules/x.md", "mecatl x")
        .file(".claude/rules/x.md", "claude x")
        .file(".claude/rules/y.md", "claude y");
    let config = MemWorkspace::new()
        .file("rules/x.md", "config x")
        .file("rules/y.md", "config y")
        .file("rules/z.md", "config z");
    let claude = MemWorkspace::new()
        .file("rules/x.md", "home x")
        .file("rules/z.md", "home z")
        .file("rules/w.md", "home w");
    let found = discover(&four(project, config, claude, false));
    assert_eq!(
        summary(&found),
        vec![
            row("w", "/home/u/.claude/rules/w.md", false),
            row("x", ".mecatl/rules/x.md", false),
            row("y", ".claude/rules/y.md", false),
            row("z", "/home/u/.config/mecatl/rules/z.md", false),
        ]
    );
    let origins: Vec<_> = found.rules.iter().map(|r| r.rule.origin).collect();
    assert_eq!(
        origins,
        vec![
            RuleOrigin::User,
            RuleOrigin::Project,
            RuleOrigin::Project,
            RuleOrigin::User
        ]
    );
    assert_eq!(found.rules[1].rule.body, "mecatl x");
    use Severity::Warning;
    assert_eq!(
        triples(&found.diagnostics),
        vec![
            diag(
                Warning,
                ".claude/rules/x.md",
                "shadowed by .mecatl/rules/x.md"
            ),
            diag(
                Warning,
                "/home/u/.config/mecatl/rules/x.md",
                "shadowed by .mecatl/rules/x.md"
            ),
            diag(
                Warning,
                "/home/u/.config/mecatl/rules/y.md",
                "shadowed by .claude/rules/y.md"
            ),
            diag(
                Warning,
                "/home/u/.claude/rules/x.md",
                "shadowed by .mecatl/rules/x.md"
            ),
            diag(
                Warning,
                "/home/u/.claude/rules/z.md",
                "shadowed by /home/u/.config/mecatl/rules/z.md"
            ),
        ]
    );
    assert!(!found.has_project_fatal());
}

#[test]
fn a_fatally_dropped_file_does_not_claim_its_name() {
    let project = MemWorkspace::new()
        .file(".mecatl/rules/x.md", "---\npaths: **/*.ts\n---\nbad")
        .file(".claude/rules/x.md", "good x")
        .file(".claude/rules/only.md", "---\npaths: [\n---\nbad");
    let found = discover(&project_only(project));
    assert_eq!(summary(&found), vec![row("x", ".claude/rules/x.md", false)]);
    assert_eq!(
        triples(&found.diagnostics),
        vec![
            diag(
                Severity::Fatal,
                ".mecatl/rules/x.md",
                "malformed YAML frontmatter at line 2, column 8: an unquoted value starting \
                 with `*` is a YAML alias, not a glob; quote the glob, e.g. `paths: \
                 \"**/*.ts\"`; .claude/rules/x.md is used instead"
            ),
            diag(
                Severity::Fatal,
                ".claude/rules/only.md",
                "malformed YAML frontmatter at line 2, column 8: invalid YAML (a `[…]` or \
                 `{…}` collection is not closed properly)"
            ),
        ]
    );
    assert!(found.has_project_fatal());
}

#[test]
fn user_tier_fatals_do_not_fail_the_project_check() {
    let config = MemWorkspace::new().file("rules/bad.md", "---\npaths: {a: 1}\n---\nx");
    let found = discover(&four(
        MemWorkspace::new(),
        config,
        MemWorkspace::new(),
        false,
    ));
    assert_eq!(found.diagnostics.len(), 1);
    assert_eq!(found.diagnostics[0].severity, Severity::Fatal);
    assert!(!found.has_project_fatal());
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn withheld_rules_are_listed_but_claim_nothing() {
    let project = MemWorkspace::new()
        .file(".mecatl/rules/x.md", "project x")
        .file(".claude/rules/x.md", "claude x")
        .file(".claude/rules/p.md", "---\npaths: [\n---\n");
    let config = MemWorkspace::new().file("rules/x.md", "user x");
    let found = discover(&four(project, config, MemWorkspace::new(), true));
    assert_eq!(
        summary(&found),
        vec![
            row("x", ".mecatl/rules/x.md", true),
            row("x", "/home/u/.config/mecatl/rules/x.md", false),
        ]
    );
    assert_eq!(
        triples(&found.diagnostics)
            .into_iter()
            .map(|(s, p, _)| (s, p))
            .collect::<Vec<_>>(),
        vec![
            (Severity::Fatal, ".claude/rules/p.md".to_string()),
            (Severity::Warning, ".claude/rules/x.md".to_string()),
        ]
    );
    assert_eq!(
        found.diagnostics[1].reason,
        "shadowed by .mecatl/rules/x.md"
    );
    // Broken project files fail the check even when withheld.
    assert!(found.has_project_fatal());
    let active: Vec<Rule> = found.active().map(|f| f.rule.clone()).collect();
    assert_eq!(active.len(), 1);
    assert_eq!(active[0].body, "user x");
    assert_eq!(active[0].origin, RuleOrigin::User);
}

#[test]
fn listing_rules_names_dotfiles_and_case() {
    let project = MemWorkspace::new()
        .file(".claude/rules/b.md", "b")
        .file(".claude/rules/.hidden.md", "h")
        .file(".claude/rules/A.md", "a")
        .file(".claude/rules/upper.MD", "ignored")
        .file(".claude/rules/notes.txt", "ignored")
        .file(".claude/rules/with space.md", "s")
        .file(".claude/rules/.md", "bare");
    let found = discover(&project_only(project));
    let names: Vec<_> = found.rules.iter().map(|r| r.rule.name.as_str()).collect();
    assert_eq!(names, vec![".hidden", "A", "b", "with space"]);
    assert_eq!(
        triples(&found.diagnostics),
        vec![diag(
            Severity::Warning,
            ".claude/rules/.md",
            "a file named only .md has no rule name; skipped"
        )]
    );
}

#[test]
fn hostile_file_names_stay_on_one_line_when_rendered() {
    let project = MemWorkspace::new().file(
        ".claude/rules/a\"b<c>\r\nd.md",
        "---\npaths: '[z-a'\n---\nbody",
    );
    let found = discover(&project_only(project));
    let rule = &found.rules[0].rule;
    assert_eq!(rule.name, "a\"b<c>\r\nd");
    assert_eq!(
        render_rule_block(rule),
        "<rule name=\"a'bc  d\">\nApplies when: [z-a\nbody\n</rule>"
    );
    assert_eq!(found.diagnostics.len(), 1);
    let reason = &found.diagnostics[0].reason;
    assert!(reason.starts_with("rule `a'bc  d`: pattern `[z-a` cannot be compiled"));
    assert!(!reason.contains(['\r', '\n']));
}

#[test]
fn nested_directories_are_reported_with_their_counts() {
    let project = MemWorkspace::new()
        .file(".claude/rules/top.md", "t")
        .file(".claude/rules/sub/a.md", "a")
        .file(".claude/rules/sub/deeper/b.md", "b")
        .file(".claude/rules/sub/readme.txt", "x")
        .file(".claude/rules/x.md/c.md", "c")
        .node(".claude/rules/empty", MemNode::Dir);
    let found = discover(&project_only(project));
    assert_eq!(
        summary(&found),
        vec![row("top", ".claude/rules/top.md", false)]
    );
    let nested = |n: usize| {
        format!(
            "nested directory not read (rules are only the files directly in the rules \
             directory); it holds {n} .md file(s), which Claude Code would load"
        )
    };
    assert_eq!(
        triples(&found.diagnostics),
        vec![
            diag(Severity::Warning, ".claude/rules/empty", &nested(0)),
            diag(Severity::Warning, ".claude/rules/sub", &nested(2)),
            diag(Severity::Warning, ".claude/rules/x.md", &nested(1)),
        ]
    );
}

#[test]
fn a_location_that_is_not_a_directory_is_fatal_and_others_still_load() {
    let project = MemWorkspace::new()
        .file(".mecatl/rules", "I am a file")
        .file(".claude/rules/ok.md", "ok");
    let found = discover(&project_only(project));
    assert_eq!(
        summary(&found),
        vec![row("ok", ".claude/rules/ok.md", false)]
    );
    assert_eq!(
        triples(&found.diagnostics),
        vec![diag(
            Severity::Fatal,
            ".mecatl/rules",
            "is not a directory; no rules are read from it"
        )]
    );
    assert!(found.has_project_fatal());
}

#[test]
fn an_unlistable_location_is_fatal() {
    let project = MemWorkspace::new()
        .node(".mecatl/rules", MemNode::Unreadable)
        .file(".claude/rules/ok.md", "ok");
    let found = discover(&project_only(project));
    assert_eq!(found.rules.len(), 1);
    assert_eq!(found.diagnostics.len(), 1);
    assert_eq!(found.diagnostics[0].severity, Severity::Fatal);
    assert!(
        found.diagnostics[0]
            .reason
            .starts_with("rules directory cannot be listed: ")
    );
}

#[test]
fn missing_and_empty_locations_give_nothing() {
    let project = MemWorkspace::new().node(".claude/rules", MemNode::Dir);
    let found = discover(&four(
        project,
        MemWorkspace::new(),
        MemWorkspace::new(),
        false,
    ));
    assert_eq!(found, RuleDiscovery::default());
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn links_special_files_and_unreadable_files() {
    let project = MemWorkspace::new()
        .file("outside-ok.md", "inside link target")
        .node(
            ".claude/rules/leak.md",
            MemNode::Symlink("/etc/passwd".into()),
        )
        .node(
            ".claude/rules/dangling.md",
            MemNode::Symlink("nope.md".into()),
        )
        .node(
            ".claude/rules/inner.md",
            MemNode::Symlink("../../outside-ok.md".into()),
        )
        .node(".claude/rules/fifo.md", MemNode::Special("FIFO"))
        .node(".claude/rules/locked.md", MemNode::Unreadable);
    let config = MemWorkspace::new().file("rules/leak.md", "user leak");
    let found = discover(&four(project, config, MemWorkspace::new(), false));
    assert_eq!(
        summary(&found),
        vec![
            row("inner", ".claude/rules/inner.md", false),
            row("leak", "/home/u/.config/mecatl/rules/leak.md", false),
        ]
    );
    assert_eq!(found.rules[0].rule.body, "inside link target");
    use Severity::{Fatal, Warning};
    assert_eq!(
        triples(&found.diagnostics),
        vec![
            diag(
                Warning,
                ".claude/rules/dangling.md",
                "dangling symlink; treated as not found"
            ),
            diag(
                Warning,
                ".claude/rules/fifo.md",
                "not a regular file (FIFO); skipped without being opened"
            ),
            diag(
                Fatal,
                ".claude/rules/leak.md",
                "refused symlink: symlink resolves outside the workspace; not followed; \
                 /home/u/.config/mecatl/rules/leak.md is used instead"
            ),
            diag(
                Fatal,
                ".claude/rules/locked.md",
                "cannot be read: permission denied"
            ),
        ]
    );
}

#[test]
fn body_cap_boundaries_and_warning() {
    let at = "a".repeat(limits::MAX_RULE_BYTES);
    let over = "b".repeat(limits::MAX_RULE_BYTES + 1);
    let project = MemWorkspace::new()
        .file(".claude/rules/at.md", format!("\n{at}\n\n"))
        .file(".claude/rules/over.md", &over);
    let found = discover(&project_only(project));
    let at_rule = &found.rules[0];
    assert_eq!(
        (at_rule.bytes, at_rule.truncated),
        (limits::MAX_RULE_BYTES, false)
    );
    let over_rule = &found.rules[1];
    assert_eq!(
        (over_rule.bytes, over_rule.truncated),
        (limits::MAX_RULE_BYTES, true)
    );
    assert!(over_rule.rule.body.ends_with('…'));
    assert_eq!(
        triples(&found.diagnostics),
        vec![diag(
            Severity::Warning,
            ".claude/rules/over.md",
            "body is 20481 bytes; cut to 20480 bytes, the rule body limit"
        )]
    );
}

#[test]
fn huge_files_are_read_with_a_bound() {
    let size = limits::MAX_RULE_FILE_BYTES as usize + 10;
    let project = MemWorkspace::new().file(".claude/rules/huge.md", "z".repeat(size));
    let found = discover(&project_only(project));
    assert_eq!(found.rules[0].bytes, limits::MAX_RULE_BYTES);
    assert!(found.rules[0].truncated);
    assert_eq!(
        found.diagnostics[0].reason,
        format!(
            "file is {size} bytes; only the first 1048576 bytes are used and the body was \
             cut to at most 20480 bytes"
        )
    );
}

#[test]
fn an_invalid_byte_does_not_keep_a_cut_off_character_as_text() {
    // A file over the read bound: a short rule, an invalid byte in it,
    // then ideographic spaces (whitespace) past the head and past the
    // bound. The 24 KiB head cuts a space in two; with a `!` the 1 MiB
    // bound cuts one too. Neither cut-off space is text.
    for (raw, text) in [
        (&b"Rule text \xff here"[..], "Rule text \u{fffd} here"),
        (b"Rule text \xff here!", "Rule text \u{fffd} here!"),
    ] {
        let mut content = raw.to_vec();
        while content.len() <= limits::MAX_RULE_FILE_BYTES as usize {
            content.extend_from_slice("\u{3000}".as_bytes());
        }
        let project = MemWorkspace::new().file(".claude/rules/wide.md", content);
        let found = discover(&project_only(project));
        let rule = &found.rules[0];
        assert_eq!((rule.bytes, rule.truncated), (text.len(), true));
        assert_eq!(rule.rule.body, text);
    }
}

#[test]
fn huge_files_are_read_from_their_head() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join(".claude/rules");
    std::fs::create_dir_all(&rules).unwrap();
    let file = std::fs::File::create(rules.join("huge.md")).unwrap();
    std::io::Write::write_all(&mut &file, b"Huge rule\n").unwrap();
    file.set_len(4 * limits::MAX_RULE_FILE_BYTES).unwrap();
    let reader = Arc::new(OsWorkspace::new(dir.path(), LinkPolicy::Confine));
    let found = discover(&project_rule_dirs(reader, false));
    let rule = &found.rules[0];
    assert_eq!((rule.bytes, rule.truncated), (limits::MAX_RULE_BYTES, true));
    let kept = limits::MAX_RULE_BYTES - '…'.len_utf8();
    assert_eq!(
        rule.rule.body,
        format!("Huge rule\n{}…", "\0".repeat(kept - "Huge rule\n".len()))
    );
}

#[test]
fn globs_are_checked_and_top_level_patterns_hinted() {
    let project = MemWorkspace::new().file(
        ".claude/rules/web.md",
        "---\npaths: ['**/*.{ts', '*.ts', go.mod]\n---\nBody",
    );
    let found = discover(&project_only(project));
    assert_eq!(found.rules.len(), 1, "the rule is kept");
    assert_eq!(
        found.rules[0].rule.paths,
        vec!["**/*.{ts", "*.ts", "go.mod"]
    );
    let got = triples(&found.diagnostics);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].0, Severity::Fatal);
    assert!(
        got[0]
            .2
            .starts_with("rule `web`: pattern `**/*.{ts` cannot be compiled ("),
        "{}",
        got[0].2
    );
    assert!(got[0].2.ends_with("); it matches nothing"));
    assert_eq!(
        got[1],
        diag(
            Severity::Info,
            ".claude/rules/web.md",
            "pattern `*.ts` matches only files at the workspace root; write `**/*.ts` to \
             match at any depth"
        )
    );
    assert!(found.has_project_fatal());
}

#[test]
fn frontmatter_and_crlf_reach_the_rule() {
    let project = MemWorkspace::new()
        .file(
            ".claude/rules/a.md",
            "\u{feff}---\r\npaths: \"src/**, **/*.{ts,tsx}\"\r\nname: ignored\r\n---\r\n\r\nLine 1\r\nLine 2\r\n",
        )
        .file(".claude/rules/b.md", "\u{feff}No frontmatter\r\n");
    let found = discover(&project_only(project));
    assert_eq!(found.rules[0].rule.name, "a");
    assert_eq!(found.rules[0].rule.paths, vec!["src/**", "**/*.{ts,tsx}"]);
    assert_eq!(found.rules[0].rule.body, "Line 1\nLine 2");
    assert_eq!(found.rules[1].rule.body, "\u{feff}No frontmatter");
}

// Unix only: a FIFO and a symbolic link.
#[cfg(unix)]
#[test]
fn os_fifo_and_escaping_link_never_block_or_leak() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join(".claude/rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::write(rules.join("ok.md"), "fine").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret"), rules.join("leak.md")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(rules.join("pipe.md"))
        .status()
        .unwrap();
    assert!(status.success());
    let reader = Arc::new(OsWorkspace::new(dir.path(), LinkPolicy::Confine));
    let found = discover(&project_rule_dirs(reader, false));
    assert_eq!(
        summary(&found),
        vec![row("ok", ".claude/rules/ok.md", false)]
    );
    let got = triples(&found.diagnostics);
    assert_eq!(got[0].0, Severity::Fatal);
    assert_eq!(got[0].1, ".claude/rules/leak.md");
    assert!(!got[0].2.contains("s3cret"));
    assert_eq!(
        got[1],
        diag(
            Severity::Warning,
            ".claude/rules/pipe.md",
            "not a regular file (FIFO); skipped without being opened"
        )
    );
}

/// (source, fate) of every place `explain --rule` shows, in precedence
/// order: a place without a file is `not found`.
fn explained(dirs: &[SearchDir<'_>], name: &str) -> Vec<(String, Fate)> {
    let found = explain_rule(dirs, name);
    found
        .places
        .iter()
        .enumerate()
        .map(|(i, place)| match found.candidate_in(i) {
            Some(c) => (c.source.clone(), c.fate.clone()),
            None => (
                place.clone(),
                Fate::NotFound {
                    reason: String::new(),
                },
            ),
        })
        .collect()
}

#[test]
#[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
fn explain_reports_every_fate_in_precedence_order() {
    let project = MemWorkspace::new()
        .node(".mecatl/rules/x.md", MemNode::Symlink("/etc/x".into()))
        .file(".claude/rules/x.md", "claude x");
    let config = MemWorkspace::new().file("rules/x.md", "config x");
    let claude = MemWorkspace::new().file("rules/x.md", "---\npaths: [\n---\n");
    let dirs = four(project, config, claude, false);
    let got = explained(&dirs, "x");
    assert_eq!(
        got.iter()
            .map(|(s, f)| (s.as_str(), f.as_str()))
            .collect::<Vec<_>>(),
        vec![
            (".mecatl/rules/x.md", "refused symlink"),
            (".claude/rules/x.md", "winner"),
            ("/home/u/.config/mecatl/rules/x.md", "shadowed"),
            ("/home/u/.claude/rules/x.md", "malformed"),
        ]
    );
    assert_eq!(
        got[2].1,
        Fate::Shadowed {
            by: ".claude/rules/x.md".into()
        }
    );
    let found = explain_rule(&dirs, "x");
    let winner = found.winner().unwrap();
    assert_eq!(winner.item.as_ref().unwrap().rule.body, "claude x");
    let shadowed = found.candidate_in(2).unwrap();
    assert_eq!(
        found
            .resolution
            .diagnostics_of(shadowed)
            .next()
            .unwrap()
            .reason,
        "shadowed by .claude/rules/x.md"
    );
}

#[test]
fn explain_for_withheld_missing_and_special_files() {
    let project = MemWorkspace::new()
        .file(".mecatl/rules/x.md", "project x")
        .node(".claude/rules/x.md", MemNode::Special("socket"));
    let config = MemWorkspace::new()
        .file("rules/x.md/inner.md", "a directory named x.md")
        .file("rules/other.md", "other");
    let claude = MemWorkspace::new().file("rules/x.md", "home x");
    let got = explained(&four(project, config, claude, true), "x");
    let fates: Vec<&str> = got.iter().map(|(_, f)| f.as_str()).collect();
    assert_eq!(fates, vec!["withheld", "not found", "not found", "winner"]);
    assert_eq!(
        got[1].1.detail().as_deref(),
        Some("not a regular file (socket)")
    );
    assert_eq!(
        got[2].1.detail().as_deref(),
        Some("not a regular file (directory)")
    );
    let nameless = explain_rule(&project_only(MemWorkspace::new()), "");
    assert!(nameless.resolution.candidates.is_empty());
    assert_eq!(
        nameless.places,
        vec![".mecatl/rules/.md", ".claude/rules/.md"]
    );
}

fn eager_message(locations: &[SearchDir<'_>], max_bytes: usize, max_count: usize) -> String {
    let assembler = RulesAssembler {
        src: Some(Arc::new(MemRulesSource::new(
            discover(locations).active().map(|f| f.rule.clone()),
        ))),
        max_bytes,
        max_count,
    };
    let messages = assembler.assemble(&MemWorkspace::new()).unwrap();
    assert_eq!(messages.len(), 1);
    messages[0].text.clone()
}

fn lazy_fixture() -> Vec<SearchDir<'static>> {
    let mut project = MemWorkspace::new()
        .file(".mecatl/rules/r05.md", "mecatl wins r05")
        .file(".mecatl/rules/r07.md", "---\npaths: *bad\n---\nmalformed")
        .file(".mecatl/rules/.md", "bare");
    let mut config = MemWorkspace::new();
    for i in 0..40 {
        let body = format!("---\npaths: src/{i}/**\n---\nRule number {i}.\n");
        project.insert(
            &format!(".claude/rules/r{i:02}.md"),
            MemNode::File(body.into_bytes()),
        );
        config.insert(
            &format!("rules/u{i:02}.md"),
            MemNode::File(format!("user {i}").into_bytes()),
        );
    }
    config.insert("rules/r01.md", MemNode::File(b"user r01 shadowed".to_vec()));
    let mut locations = four(project, config, MemWorkspace::new(), false);
    locations.insert(
        0,
        SearchDir::flat(
            Arc::new(MemWorkspace::new().file(".mecatl/rules/r03.md", "withheld")),
            ".mecatl/rules",
            Tier::Project,
        )
        .withheld_if(true),
    );
    locations
}

#[test]
fn lazy_and_eager_agree_without_caps() {
    let locations = lazy_fixture();
    let lazy = assemble_rules(&locations, 1 << 20, 1000);
    let eager = eager_message(&locations, 1 << 20, 1000);
    assert_eq!(lazy.message.as_ref().unwrap().text, eager);
    assert_eq!(lazy.message.as_ref().unwrap().shown, 80);
    assert!(eager.contains("mecatl wins r05"));
    assert!(eager.contains("Rule number 7."));
    assert!(!eager.contains("user r01 shadowed"));
    assert!(!eager.contains("withheld"));
    let r07 = lazy
        .diagnostics
        .iter()
        .find(|d| d.path.as_deref() == Some(".mecatl/rules/r07.md"))
        .unwrap();
    assert!(
        r07.reason
            .ends_with("; .claude/rules/r07.md is used instead")
    );
}

#[test]
fn lazy_and_eager_agree_at_the_default_caps() {
    let locations = lazy_fixture();
    let lazy = assemble_rules(&locations, 0, 0);
    let eager = eager_message(&locations, 0, 0);
    let message = lazy.message.unwrap();
    assert_eq!(message.text, eager);
    assert_eq!(message.shown, limits::MAX_RULES_COUNT);
    assert!(
        eager.ends_with("\n...(48 more rule(s) not shown; rules beyond the cap were dropped)\n")
    );
    // Only the shown rules' files (and the dropped r07 before them) were opened.
    assert_eq!(lazy.read.len(), limits::MAX_RULES_COUNT + 1);
    assert_eq!(lazy.shown.len(), limits::MAX_RULES_COUNT);
    assert_eq!(lazy.shown[5].source, ".mecatl/rules/r05.md");
}

#[test]
fn lazy_and_eager_agree_at_a_byte_cap() {
    let locations = lazy_fixture();
    let max = 2000;
    let lazy = assemble_rules(&locations, max, 0);
    let eager = eager_message(&locations, max, 0);
    let message = lazy.message.unwrap();
    assert_eq!(message.text, eager);
    assert!(message.shown > 0 && message.shown < 80);
    assert_eq!(
        lazy.read.len(),
        message.shown + 2,
        "one refused, one dropped"
    );
}

#[test]
fn lazy_counts_unopened_files_as_discovered() {
    let project = MemWorkspace::new()
        .file(".claude/rules/a.md", "a")
        .file(".claude/rules/b.md", "b")
        .file(".claude/rules/c.md", "---\npaths: [\n---\nnever opened");
    let lazy = assemble_rules(&project_only(project), 0, 1);
    let text = lazy.message.unwrap().text;
    assert_eq!(
        text,
        format!(
            "{RULES_HEADER}\n{}\n...(2 more rule(s) not shown; rules beyond the cap were \
             dropped)\n",
            render_rule_block(&Rule {
                name: "a".into(),
                body: "a".into(),
                paths: vec![],
                origin: RuleOrigin::Project
            })
        )
    );
    assert!(lazy.diagnostics.is_empty());
    assert_eq!(lazy.read.len(), 1);
}

#[test]
fn lazy_without_rules_has_no_message() {
    let lazy = assemble_rules(&project_only(MemWorkspace::new()), 0, 0);
    assert_eq!(lazy, AssembledRules::default());
}

#[test]
fn fixture_round_trips_through_discovery() {
    let ws = RULE_FIXTURE.iter().fold(MemWorkspace::new(), |ws, f| {
        ws.file(
            &format!(".mecatl/rules/{}", f.file_name()),
            f.file_content(),
        )
    });
    let found = discover(&project_only(ws));
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
}

#[test]
fn corpus_rule_directories_are_fully_accounted_for() {
    let Some(corpus) = crate::test_corpus::corpus_root() else {
        return;
    };
    let mut checked = 0;
    for workspace in std::fs::read_dir(&corpus).unwrap() {
        let workspace = workspace.unwrap().path();
        let rules_dir = workspace.join(".claude/rules");
        if !rules_dir.is_dir() {
            continue;
        }
        let reader = Arc::new(OsWorkspace::new(&workspace, LinkPolicy::Confine));
        let found = discover(&project_rule_dirs(reader, false));
        let mut nested_total = 0;
        for entry in std::fs::read_dir(&rules_dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let shown = format!(".claude/rules/{name}");
            let listed = found.rules.iter().any(|r| r.source == shown);
            let diagnosed = found
                .diagnostics
                .iter()
                .any(|d| d.path.as_deref() == Some(shown.as_str()));
            if entry.file_type().unwrap().is_dir() {
                assert!(diagnosed, "{shown} not reported");
                nested_total += walk_md(&entry.path());
            } else if name.ends_with(".md") {
                assert!(listed || diagnosed, "{shown} unaccounted for");
            }
        }
        let reported: usize = found
            .diagnostics
            .iter()
            .filter_map(|d| d.reason.split("it holds ").nth(1))
            .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
            .sum();
        assert_eq!(reported, nested_total, "{}", workspace.display());
        for rule in &found.rules {
            assert!(rule.bytes <= limits::MAX_RULE_BYTES);
            assert!(!render_rule_block(&rule.rule).is_empty());
        }
        checked += 1;
    }
    assert!(checked > 0);
}

fn walk_md(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                walk_md(&entry.path())
            } else {
                usize::from(entry.file_name().to_string_lossy().ends_with(".md"))
            }
        })
        .sum()
}
