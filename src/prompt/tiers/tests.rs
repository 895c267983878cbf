//! The engine's rules on a toy kind over in-memory trees.

use std::cell::RefCell;
use std::sync::Arc;

use super::*;
use crate::diagnostic::{Severity, triples};
use crate::limits;
use crate::workspace::{MemNode, MemWorkspace};

/// Files whose content is `BAD` are malformed; every load is recorded.
struct Toy {
    words: Words,
    loads: RefCell<Vec<String>>,
}

impl Toy {
    fn new() -> Self {
        Self {
            words: Words {
                noun: "toy",
                plural: "toys",
                dir_noun: "toy directory",
                refusal: Severity::Fatal,
            },
            loads: RefCell::new(Vec::new()),
        }
    }
}

impl Kind for Toy {
    type Item = String;

    fn words(&self, _dir: &SearchDir<'_>) -> &Words {
        &self.words
    }

    fn load(&self, dir: &SearchDir<'_>, file: &Listed) -> Result<Loaded<String>, Loss> {
        let bytes = read_listed(&self.words, dir, file, 1024)?;
        self.loads.borrow_mut().push(dir.display(&file.rel));
        let text = String::from_utf8_lossy(&bytes.bytes).into_owned();
        if text == "BAD" {
            return Err(Loss::malformed(&dir.display(&file.rel), "bad toy"));
        }
        Ok(Loaded {
            item: text,
            notes: Vec::new(),
        })
    }
}

fn dirs(tree: MemWorkspace, names: &[&str], withheld: &[bool]) -> Vec<SearchDir<'static>> {
    let reader: Arc<dyn crate::workspace::Workspace> = Arc::new(tree);
    names
        .iter()
        .zip(withheld)
        .map(|(dir, &w)| SearchDir::flat(reader.clone(), *dir, Tier::Project).withheld_if(w))
        .collect()
}

fn fates<T>(resolution: &Resolution<T>) -> Vec<(String, String)> {
    resolution
        .candidates
        .iter()
        .map(|c| (c.source.clone(), c.fate.as_str().to_string()))
        .collect()
}

fn pair(source: &str, fate: &str) -> (String, String) {
    (source.to_string(), fate.to_string())
}

#[test]
fn the_first_usable_file_wins_and_later_ones_are_shadowed() {
    let tree = MemWorkspace::new()
        .file("a/x.md", "a x")
        .file("b/x.md", "b x")
        .file("b/y.md", "b y")
        .file("c/y.md", "c y");
    let toy = Toy::new();
    let found = resolve_all(
        &dirs(tree, &["a", "b", "c"], &[false; 3]),
        &toy,
        ReadPolicy::ALL,
    );
    assert_eq!(
        fates(&found),
        vec![
            pair("a/x.md", "winner"),
            pair("b/x.md", "shadowed"),
            pair("b/y.md", "winner"),
            pair("c/y.md", "shadowed"),
        ]
    );
    assert_eq!(
        found.candidates[1].fate,
        Fate::Shadowed {
            by: "a/x.md".into()
        }
    );
    assert_eq!(found.candidates[0].item.as_deref(), Some("a x"));
    assert_eq!(
        triples(&found.diagnostics),
        vec![
            (
                Severity::Warning,
                "b/x.md".into(),
                "shadowed by a/x.md".into()
            ),
            (
                Severity::Warning,
                "c/y.md".into(),
                "shadowed by b/y.md".into()
            ),
        ]
    );
}

#[test]
fn a_dropped_file_claims_nothing_and_names_what_is_used_instead() {
    let tree = MemWorkspace::new()
        .file("a/x.md", "BAD")
        .node("a/y.md", MemNode::Unreadable)
        .file("b/x.md", "b x")
        .file("b/z.md", "b z")
        .file("c/z.md", "BAD");
    let toy = Toy::new();
    let found = resolve_all(
        &dirs(tree, &["a", "b", "c"], &[false; 3]),
        &toy,
        ReadPolicy::ALL,
    );
    assert_eq!(
        fates(&found),
        vec![
            pair("a/x.md", "malformed"),
            pair("a/y.md", "unreadable"),
            pair("b/x.md", "winner"),
            pair("b/z.md", "winner"),
            pair("c/z.md", "malformed"),
        ]
    );
    let reasons = triples(&found.diagnostics);
    assert_eq!(reasons[0].2, "bad toy; b/x.md is used instead");
    assert!(
        reasons[1].2.starts_with("cannot be read: "),
        "{:?}",
        reasons[1]
    );
    assert!(!reasons[1].2.contains("instead"), "nothing provides y");
    assert_eq!(
        reasons[2].2, "bad toy; b/z.md is used instead",
        "a later loser too"
    );
    assert_eq!(found.faults.len(), 1, "the unreadable file is a read fault");
    assert!(found.has_fatal_in(Tier::Project));
    assert!(!found.has_fatal_in(Tier::User));
}

#[test]
fn withheld_directories_resolve_among_themselves_and_claim_nothing_active() {
    let reader: Arc<dyn crate::workspace::Workspace> = Arc::new(
        MemWorkspace::new()
            .file("p1/x.md", "p1 x")
            .file("p2/x.md", "p2 x")
            .file("u/x.md", "u x"),
    );
    let dirs = vec![
        SearchDir::flat(reader.clone(), "p1", Tier::Project).withheld_if(true),
        SearchDir::flat(reader.clone(), "p2", Tier::Project).withheld_if(true),
        SearchDir::flat(reader, "u", Tier::User),
    ];
    let toy = Toy::new();
    let found = resolve_all(&dirs, &toy, ReadPolicy::ALL);
    assert_eq!(
        fates(&found),
        vec![
            pair("p1/x.md", "withheld"),
            pair("p2/x.md", "shadowed"),
            pair("u/x.md", "winner"),
        ]
    );
    let looked = resolve_all(
        &dirs,
        &toy,
        ReadPolicy {
            withheld: false,
            ..ReadPolicy::ALL
        },
    );
    assert_eq!(fates(&looked), fates(&found));
    assert!(
        looked.candidates[0].item.is_none(),
        "withheld files only looked at"
    );
}

#[test]
fn one_name_is_looked_up_in_every_place_without_listing() {
    let tree = MemWorkspace::new()
        .file("b/x.md", "b x")
        .file("c/x.md", "c x");
    let toy = Toy::new();
    let dirs = dirs(tree, &["a", "b", "c"], &[false; 3]);
    let found = resolve_name(
        &dirs,
        "x",
        &toy,
        ReadPolicy {
            losers: Losers::Look,
            ..ReadPolicy::ALL
        },
    );
    assert_eq!(
        found.places,
        vec!["a/x.md".to_string(), "b/x.md".into(), "c/x.md".into()]
    );
    assert!(found.candidate_in(0).is_none());
    assert_eq!(found.winner().map(|c| c.source.as_str()), Some("b/x.md"));
    assert_eq!(
        found.candidate_in(2).map(|c| c.fate.as_str()),
        Some("shadowed")
    );
    assert_eq!(
        *toy.loads.borrow(),
        vec!["b/x.md".to_string()],
        "losers only looked at"
    );
    for bad in ["", "a/b", "..", "x\0"] {
        let found = resolve_name(&dirs, bad, &toy, ReadPolicy::ALL);
        assert!(found.resolution.candidates.is_empty(), "{bad:?}");
        assert_eq!(found.places[0], format!("a/{bad}.md"));
    }
}

/// The note for a toy skill directory without its file.
fn no_toy_file(dir: &str) -> (Severity, String, String) {
    (
        Severity::Warning,
        dir.into(),
        "no SKILL.md in this toy directory; skipped".into(),
    )
}

#[test]
fn layouts_map_files_to_names() {
    let reader: Arc<dyn crate::workspace::Workspace> = Arc::new(
        MemWorkspace::new()
            .file("cmd/top.md", "t")
            .file("cmd/git/commit.md", "c")
            .file("cmd/a/b/c.md", "abc")
            .file("cmd/a/notes.txt", "n")
            .file("skills/deploy/SKILL.md", "d")
            .file("skills/deploy/extra.md", "e")
            .file("skills/empty/readme.txt", "r")
            .file("skills/loose.md", "l"),
    );
    let nested = SearchDir::flat(reader.clone(), "cmd", Tier::Project).with_layout(Layout::Nested);
    let skills = SearchDir::flat(reader, "skills", Tier::Project).with_layout(Layout::SkillDirs);
    let toy = Toy::new();
    let found = resolve_all(&[nested.clone(), skills.clone()], &toy, ReadPolicy::ALL);
    let names: Vec<(&str, &str)> = found
        .candidates
        .iter()
        .map(|c| (c.name.as_str(), c.rel.as_str()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("a:b:c", "cmd/a/b/c.md"),
            ("git:commit", "cmd/git/commit.md"),
            ("top", "cmd/top.md"),
            ("deploy", "skills/deploy/SKILL.md"),
        ]
    );
    assert_eq!(
        triples(&found.diagnostics),
        vec![no_toy_file("skills/empty")]
    );
    assert_eq!(
        nested.file_for("git:commit").as_deref(),
        Some("cmd/git/commit.md")
    );
    assert_eq!(nested.file_for("git::commit"), None);
    assert_eq!(
        skills.file_for("deploy").as_deref(),
        Some("skills/deploy/SKILL.md")
    );
}

/// The names and files `dirs` list, in order.
fn listed(found: &Resolution<String>) -> Vec<(&str, &str)> {
    found
        .candidates
        .iter()
        .map(|c| (c.name.as_str(), c.rel.as_str()))
        .collect()
}

/// The note for a file named only `suffix` in `dir`.
fn bare_suffix(dir: &str, suffix: &str) -> (Severity, String, String) {
    (
        Severity::Warning,
        format!("{dir}/{suffix}"),
        format!("a file named only {suffix} has no toy name; skipped"),
    )
}

#[test]
fn a_directory_names_its_files_by_its_own_suffix() {
    let reader: Arc<dyn crate::workspace::Workspace> = Arc::new(
        MemWorkspace::new()
            .file("toml/x.toml", "x")
            .file("toml/y.md", "y")
            .file("toml/git/commit.toml", "c")
            .file("toml/git/notes.md", "n")
            .file("toml/.toml", "bare")
            .file("ins/a.instructions.md", "a")
            .file("ins/a.md", "plain")
            .file("ins/b.c.instructions.md", "bc")
            .file("ins/.instructions.md", "bare")
            .file("deep/a.instructions.md", "top")
            .file("deep/sub/d.instructions.md", "d")
            .file("deep/sub/d.md", "plain"),
    );
    let dir = |name: &str, layout: Layout, suffix: &'static str| {
        SearchDir::flat(reader.clone(), name, Tier::Project)
            .with_layout(layout)
            .with_suffix(suffix)
    };
    let toml = dir("toml", Layout::Nested, ".toml");
    let flat_toml = dir("toml", Layout::Flat, ".toml");
    let ins = dir("ins", Layout::Flat, ".instructions.md");
    let deep = dir("deep", Layout::Nested, ".instructions.md");
    let toy = Toy::new();

    // Listings: only files with the suffix, named without all of it.
    let found = resolve_all(std::slice::from_ref(&toml), &toy, ReadPolicy::ALL);
    assert_eq!(
        listed(&found),
        vec![("git:commit", "toml/git/commit.toml"), ("x", "toml/x.toml")]
    );
    assert_eq!(
        triples(&found.diagnostics),
        vec![bare_suffix("toml", ".toml")]
    );
    let found = resolve_all(std::slice::from_ref(&flat_toml), &toy, ReadPolicy::ALL);
    assert_eq!(listed(&found), vec![("x", "toml/x.toml")]);
    let found = resolve_all(std::slice::from_ref(&ins), &toy, ReadPolicy::ALL);
    assert_eq!(
        listed(&found),
        vec![
            ("a", "ins/a.instructions.md"),
            ("b.c", "ins/b.c.instructions.md")
        ]
    );
    assert_eq!(
        triples(&found.diagnostics),
        vec![bare_suffix("ins", ".instructions.md")]
    );
    let found = resolve_all(&[deep.clone(), ins.clone()], &toy, ReadPolicy::ALL);
    assert_eq!(
        fates(&found),
        vec![
            pair("deep/a.instructions.md", "winner"),
            pair("deep/sub/d.instructions.md", "winner"),
            pair("ins/a.instructions.md", "shadowed"),
            pair("ins/b.c.instructions.md", "winner"),
        ]
    );
    assert_eq!(found.candidates[1].name, "sub:d");

    // One name: looked up at its file under the suffix, never `a.md`.
    assert_eq!(ins.file_for("a").as_deref(), Some("ins/a.instructions.md"));
    assert_eq!(ins.naive_file_for("a/b"), "ins/a/b.instructions.md");
    assert_eq!(
        toml.file_for("git:commit").as_deref(),
        Some("toml/git/commit.toml")
    );
    assert_eq!(toml.naive_file_for("git:x"), "toml/git/x.toml");
    toy.loads.borrow_mut().clear();
    let found = resolve_name(std::slice::from_ref(&ins), "a", &toy, ReadPolicy::ALL);
    assert_eq!(found.winner().and_then(|c| c.item.as_deref()), Some("a"));
    let found = resolve_name(&[toml, ins], "git:commit", &toy, ReadPolicy::ALL);
    assert_eq!(found.winner().and_then(|c| c.item.as_deref()), Some("c"));
    assert_eq!(
        found.places,
        vec![
            "toml/git/commit.toml".to_string(),
            "ins/git:commit.instructions.md".into()
        ]
    );
    assert_eq!(
        *toy.loads.borrow(),
        vec![
            "ins/a.instructions.md".to_string(),
            "toml/git/commit.toml".into()
        ]
    );
}

#[test]
fn recursion_is_bounded_in_depth() {
    let deep = (0..40)
        .map(|i| format!("d{i}"))
        .collect::<Vec<_>>()
        .join("/");
    let reader: Arc<dyn crate::workspace::Workspace> = Arc::new(
        MemWorkspace::new()
            .file(&format!("cmd/{deep}/x.md"), "x")
            .file("cmd/y.md", "y"),
    );
    let nested = SearchDir::flat(reader.clone(), "cmd", Tier::Project).with_layout(Layout::Nested);
    let found = resolve_all(&[nested], &Toy::new(), ReadPolicy::LOOK);
    assert_eq!(found.candidates.len(), 1, "only cmd/y.md");
    assert!(
        found.diagnostics[0]
            .reason
            .starts_with(&format!("deeper than {} levels", limits::MAX_TREE_DEPTH)),
        "{:?}",
        found.diagnostics
    );
    let tree = walk_tree(reader.as_ref(), "cmd", false);
    assert!(tree.cut);
    assert_eq!(tree.files, vec!["cmd/y.md".to_string()]);
}

#[test]
fn the_look_policy_opens_no_file() {
    let tree = MemWorkspace::new()
        .file("a/x.md", "BAD")
        .file("b/x.md", "b x")
        .node("a/fifo.md", MemNode::Special("FIFO"));
    let toy = Toy::new();
    let found = resolve_all(
        &dirs(tree, &["a", "b"], &[false; 2]),
        &toy,
        ReadPolicy::LOOK,
    );
    assert!(toy.loads.borrow().is_empty());
    assert_eq!(
        fates(&found),
        vec![
            pair("a/fifo.md", "not found"),
            pair("a/x.md", "winner"),
            pair("b/x.md", "shadowed")
        ]
    );
    assert_eq!(
        triples(&found.diagnostics)[0],
        (
            Severity::Warning,
            "a/fifo.md".into(),
            "not a regular file (FIFO); skipped without being opened".into()
        )
    );
}

#[test]
fn in_order_resolves_names_one_at_a_time() {
    let tree = MemWorkspace::new()
        .file("a/m.md", "a m")
        .file("b/m.md", "b m")
        .file("b/k.md", "b k")
        .file("a/z.md", "a z");
    let toy = Toy::new();
    let dirs = dirs(tree, &["a", "b"], &[false; 2]);
    let mut order = InOrder::new(
        &dirs,
        &toy,
        ReadPolicy {
            losers: Losers::Look,
            ..ReadPolicy::ALL
        },
    );
    assert_eq!(order.remaining(), 3);
    assert_eq!(
        order.peek().map(|(name, files)| (name, files.len())),
        Some(("k", 1))
    );
    let k = order.next_name().expect("k");
    assert_eq!(order.resolution.candidates[k.start].source, "b/k.md");
    let m = order.next_name().expect("m");
    let m_fates: Vec<&str> = order.resolution.candidates[m]
        .iter()
        .map(|c| c.fate.as_str())
        .collect();
    assert_eq!(m_fates, vec!["winner", "shadowed"]);
    assert_eq!(
        *toy.loads.borrow(),
        vec!["b/k.md".to_string(), "a/m.md".to_string()]
    );
    let rest = order.take_rest();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].1.name, "z");
    assert_eq!(toy.loads.borrow().len(), 2, "z never opened");
}

#[test]
fn walk_tree_follows_the_system_listing_order_when_asked() {
    let tree = MemWorkspace::new()
        .file("r/b.md", "")
        .file("r/a.md", "")
        .file("r/sub/s.md", "")
        .with_listing_order("r", &["b.md", "sub", "a.md"]);
    assert_eq!(
        walk_tree(&tree, "r", true).files,
        vec!["r/b.md", "r/sub/s.md", "r/a.md"]
    );
    assert_eq!(
        walk_tree(&tree, "r", false).files,
        vec!["r/a.md", "r/b.md", "r/sub/s.md"]
    );
    assert_eq!(count_md_files(&tree, "r"), 3);
}

/// A kind that searches skill directories and nested command directories
/// in one precedence order, each reported in its own words.
struct TwoKinds;

const SKILL_WORDS: Words = Words {
    noun: "skill",
    plural: "skills",
    dir_noun: "skills directory",
    refusal: Severity::Warning,
};

const COMMAND_WORDS: Words = Words {
    noun: "command",
    plural: "commands",
    dir_noun: "commands directory",
    refusal: Severity::Warning,
};

impl Kind for TwoKinds {
    type Item = String;

    fn words(&self, dir: &SearchDir<'_>) -> &Words {
        match dir.layout {
            Layout::SkillDirs => &SKILL_WORDS,
            _ => &COMMAND_WORDS,
        }
    }

    fn load(&self, dir: &SearchDir<'_>, file: &Listed) -> Result<Loaded<String>, Loss> {
        let bytes = read_listed(self.words(dir), dir, file, 1024)?;
        Ok(Loaded {
            item: String::from_utf8_lossy(&bytes.bytes).into_owned(),
            notes: Vec::new(),
        })
    }
}

#[test]
fn one_kind_searches_two_layouts_in_one_order_each_in_its_own_words() {
    let reader: Arc<dyn crate::workspace::Workspace> = Arc::new(
        MemWorkspace::new()
            .file("skills/review/SKILL.md", "skill review")
            .file("skills/bare/notes.txt", "n")
            .node("skills/fifo/SKILL.md", MemNode::Special("FIFO"))
            .file("cmd/review.md", "command review")
            .file("cmd/fifo.md", "command fifo")
            .file("cmd/git/commit.md", "commit"),
    );
    let skills =
        SearchDir::flat(reader.clone(), "skills", Tier::User).with_layout(Layout::SkillDirs);
    let commands = SearchDir::flat(reader, "cmd", Tier::Project).with_layout(Layout::Nested);
    let dirs = [skills, commands];
    let found = resolve_all(&dirs, &TwoKinds, ReadPolicy::ALL);
    let fates: Vec<(&str, &str, &str)> = found
        .candidates
        .iter()
        .map(|c| (c.name.as_str(), c.rel.as_str(), c.fate.as_str()))
        .collect();
    assert_eq!(
        fates,
        vec![
            ("fifo", "skills/fifo/SKILL.md", "not found"),
            ("review", "skills/review/SKILL.md", "winner"),
            ("fifo", "cmd/fifo.md", "winner"),
            ("git:commit", "cmd/git/commit.md", "winner"),
            ("review", "cmd/review.md", "shadowed"),
        ]
    );
    assert_eq!(
        triples(&found.diagnostics),
        vec![
            (
                Severity::Warning,
                "skills/bare".into(),
                "no SKILL.md in this skill directory; skipped".into()
            ),
            (
                Severity::Warning,
                "skills/fifo/SKILL.md".into(),
                "not a regular file (FIFO); skipped without being opened; cmd/fifo.md is used \
                 instead"
                    .into()
            ),
            (
                Severity::Warning,
                "cmd/review.md".into(),
                "shadowed by skills/review/SKILL.md".into()
            ),
        ]
    );
}

#[test]
fn skill_links_that_cannot_be_followed_are_candidates_with_their_fate() {
    let reader: Arc<dyn crate::workspace::Workspace> = Arc::new(
        MemWorkspace::new()
            .file("elsewhere/inside/SKILL.md", "inside")
            .node("skills/out", MemNode::Symlink("../../../outside".into()))
            .node("skills/gone", MemNode::Symlink("missing".into()))
            .node("skills/in", MemNode::Symlink("../elsewhere/inside".into()))
            .node(
                "skills/file",
                MemNode::Symlink("../elsewhere/inside/SKILL.md".into()),
            ),
    );
    let skills = SearchDir::flat(reader, "skills", Tier::Project).with_layout(Layout::SkillDirs);
    let found = resolve_all(&[skills], &TwoKinds, ReadPolicy::ALL);
    let fates: Vec<(&str, &str)> = found
        .candidates
        .iter()
        .map(|c| (c.name.as_str(), c.fate.as_str()))
        .collect();
    assert_eq!(
        fates,
        vec![
            ("gone", "not found"),
            ("in", "winner"),
            ("out", "refused symlink")
        ]
    );
    assert_eq!(found.candidates[1].item.as_deref(), Some("inside"));
    assert!(found.candidates[2].item.is_none());
    assert_eq!(
        triples(&found.diagnostics),
        vec![
            (
                Severity::Warning,
                "skills/gone".into(),
                "dangling symlink; treated as not found".into()
            ),
            (
                Severity::Warning,
                "skills/out".into(),
                "refused symlink: symlink resolves outside the workspace; not followed".into()
            ),
        ]
    );
}

#[test]
fn a_pruned_walk_skips_named_directories_and_reports_dirs_and_links() {
    let tree = MemWorkspace::new()
        .file("AGENTS.md", "")
        .file(".git/HEAD", "")
        .file("pkg/node_modules/x/CLAUDE.md", "")
        .file("pkg/.claude/commands/a.md", "")
        .node("linked", MemNode::Symlink("pkg".into()));
    let prune = |name: &str| name == ".git" || name == "node_modules";
    let walked = walk_tree_pruned(&tree, "", &prune, limits::MAX_TREE_ENTRIES);
    assert_eq!(walked.files, vec!["AGENTS.md", "pkg/.claude/commands/a.md"]);
    assert_eq!(
        walked.dirs,
        vec!["pkg", "pkg/.claude", "pkg/.claude/commands"]
    );
    assert_eq!(walked.dir_links, vec!["linked"]);
    assert!(!walked.cut);
    let whole = walk_tree(&tree, "", false);
    assert!(whole.files.contains(&".git/HEAD".to_string()));
}

#[test]
fn a_walk_following_links_enters_each_real_directory_once() {
    let tree = MemWorkspace::new()
        .file("r/a.md", "")
        .file("shared/s.md", "")
        .node("r/linked", MemNode::Symlink("../shared".into()))
        .node("r/again", MemNode::Symlink("../shared".into()))
        .node("r/up", MemNode::Symlink(".".into()))
        .node("r/out", MemNode::Symlink("../../outside".into()))
        .with_listing_order("r", &["linked", "a.md", "again", "up", "out"]);
    let walked = walk_tree_following_links(&tree, "r");
    assert_eq!(
        walked.files,
        vec!["r/linked/s.md", "r/a.md", "r/out"],
        "the second link and the loop are not walked; a refused link is a file"
    );
    assert_eq!(walked.dir_links, vec!["r/linked", "r/again", "r/up"]);
    assert_eq!(walk_tree(&tree, "r", true).files, vec!["r/a.md", "r/out"]);
}

#[test]
fn a_skill_directory_without_its_file_is_a_note_whether_files_are_read_or_looked_at() {
    // The listing offers each directory's SKILL.md without looking; reading
    // it or looking at it finds the missing one.
    let reader: Arc<dyn crate::workspace::Workspace> = Arc::new(
        MemWorkspace::new()
            .file("skills/deploy/SKILL.md", "d")
            .file("skills/empty/readme.txt", "r"),
    );
    let skills = SearchDir::flat(reader, "skills", Tier::Project).with_layout(Layout::SkillDirs);
    for policy in [ReadPolicy::ALL, ReadPolicy::LOOK] {
        let found = resolve_all(std::slice::from_ref(&skills), &Toy::new(), policy);
        assert_eq!(
            fates(&found),
            vec![pair("skills/deploy/SKILL.md", "winner")]
        );
        assert_eq!(
            triples(&found.diagnostics),
            vec![no_toy_file("skills/empty")],
            "{policy:?}"
        );
    }
    assert_eq!(count_offered(&skills, &Toy::new().words), 1);
}
