//! Codex skills (SPEC §14.6): where Codex finds them, the listing entries
//! it shows, and the `<skill>` block a `$NAME` mention adds. How one
//! SKILL.md's name and description are read is [`super::skill_meta`].
//!
//! Rules (recorded cases `skills-*`, `skill-exec*`):
//! - Roots: `.codex/skills` and `.agents/skills` in every directory of the
//!   chain (project root → cwd), then `$CODEX_HOME/skills` and
//!   `~/.agents/skills`. Codex's bundled system skills
//!   (`$CODEX_HOME/skills/.system`) are not ours to list; they are skipped
//!   like every name starting with `.`.
//! - Below a root, every directory down to
//!   [`limits::CODEX_SKILL_SCAN_DEPTH`] levels is searched, skill
//!   directories included (a skill may hold another); linked directories
//!   are followed; a `SKILL.md` must be a regular file (a link is not
//!   listed) and valid UTF-8.
//! - Order: repository skills, then the user's, each sorted by name (byte
//!   order), then by path. Equal names are all listed.
//! - A mention is `$` and a name of letters, digits, `_`, `-`, `:`, anywhere
//!   in the text; it matches a skill's name exactly. Each skill mentioned
//!   under a name no other skill has adds one block, in listing order:
//!   `<skill>\n<name>NAME</name>\n<path>PATH</path>\n` + the file's text +
//!   `\n</skill>`, the path absolute.
//!
//! Choices the spec leaves open:
//! - Codex lists a skill reached both through a link and directly once; the
//!   port cannot tell, so the preview lists it twice.
//! - In the project tier, links leaving the workspace are not followed
//!   (confinement, SPEC §3.1); a warning names them.
//! - A SKILL.md over [`limits::MAX_CODEX_SKILL_FILE_BYTES`] is judged by its
//!   first bytes, with a warning.
//! - The search is ours, not [`crate::prompt::tiers::walk_tree`]: Codex goes
//!   breadth first, follows links to directories and stops at 6 levels and
//!   [`limits::CODEX_SKILL_SCAN_MAX_DIRS`] directories; the entries looked
//!   at are also bounded by [`limits::MAX_TREE_ENTRIES`] (SPEC §15.6).

use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::codex::skill_meta::{Unlisted, read_meta};
use crate::prompt::text::whole_chars;
use crate::prompt::tiers::SKILL_FILE;
use crate::prompt::walk::{Scope, WalkDir, absolute};
use crate::workspace::{EntryKind, Workspace, WsError, join};

/// Where Codex finds a project's skills in each directory of its chain.
pub const PROJECT_SKILL_DIRS: [&str; 2] = [".codex/skills", ".agents/skills"];

/// Which part of the listing a skill belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkillGroup {
    /// The repository's skills (chain directories).
    Repo,
    /// The user's skills.
    User,
}

/// A directory skills are searched below.
#[derive(Clone)]
pub struct SkillRoot<'a> {
    /// The reader it is read through.
    pub reader: &'a dyn Workspace,
    /// The directory, relative to the reader's root.
    pub dir: String,
    /// Where it lies.
    pub scope: Scope,
    /// The listing group of its skills.
    pub group: SkillGroup,
}

impl std::fmt::Debug for SkillRoot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillRoot")
            .field("dir", &self.reader.display(&self.dir))
            .field("scope", &self.scope)
            .field("group", &self.group)
            .finish()
    }
}

/// The roots Codex searches, in its order, each directory once:
/// `.codex/skills` and `.agents/skills` of every chain directory, then
/// `skills` of `codex_home` (a reader rooted at `$CODEX_HOME`) and
/// `.agents/skills` of `home` (rooted at the user's home directory), each
/// when there is one.
pub fn skill_roots<'a>(
    chain: &[WalkDir<'a>],
    codex_home: Option<&'a dyn Workspace>,
    home: Option<&'a dyn Workspace>,
) -> Vec<SkillRoot<'a>> {
    let mut roots = Vec::new();
    for dir in chain {
        for sub in PROJECT_SKILL_DIRS {
            roots.push(SkillRoot {
                reader: dir.reader,
                dir: dir.rel(sub),
                scope: dir.scope,
                group: SkillGroup::Repo,
            });
        }
    }
    if let Some(codex_home) = codex_home {
        roots.push(SkillRoot {
            reader: codex_home,
            dir: "skills".to_string(),
            scope: Scope::User,
            group: SkillGroup::User,
        });
    }
    if let Some(home) = home {
        roots.push(SkillRoot {
            reader: home,
            dir: ".agents/skills".to_string(),
            scope: Scope::User,
            group: SkillGroup::User,
        });
    }
    let mut seen = HashSet::new();
    roots.retain(|root| seen.insert(absolute(root.reader, &root.dir)));
    roots
}

/// One listed skill.
#[derive(Clone)]
pub struct Skill<'a> {
    /// Its name (frontmatter `name`, else its directory's name).
    pub name: String,
    /// Its description, single-lined and capped as Codex lists it.
    pub description: String,
    /// The SKILL.md as its reader displays it (workspace-relative in the
    /// project, absolute elsewhere).
    pub path: String,
    /// The SKILL.md's absolute path, as Codex shows it in a `<skill>` block.
    pub absolute: PathBuf,
    /// Where it lies.
    pub scope: Scope,
    /// Its listing group.
    pub group: SkillGroup,
    reader: &'a dyn Workspace,
    rel: String,
}

impl std::fmt::Debug for Skill<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Skill")
            .field("name", &self.name)
            .field("description", &self.description)
            .field("path", &self.path)
            .field("scope", &self.scope)
            .field("group", &self.group)
            .finish()
    }
}

impl Skill<'_> {
    /// The SKILL.md's text (bounded, as for its block); why not, when it
    /// cannot be read now.
    pub fn text(&self) -> Result<String, String> {
        read_text(self.reader, &self.rel).map(|(text, _)| text)
    }

    /// The listing entry as Codex renders it, with `path` where Codex puts
    /// its root alias: `- NAME: DESCRIPTION (file: PATH)`.
    pub fn entry(&self) -> String {
        format!(
            "- {}: {} (file: {})",
            self.name, self.description, self.path
        )
    }
}

/// Every skill found, in listing order, with what was passed over.
#[derive(Debug, Clone)]
pub struct SkillListing<'a> {
    /// The skills, repository ones first, each group by name then path.
    pub skills: Vec<Skill<'a>>,
    /// The SKILL.md files Codex does not list for what their metadata
    /// says, in the order found (each also has a diagnostic).
    pub unlisted: Vec<UnlistedSkill>,
    /// SKILL.md files Codex would not list, links not followed, cuts.
    pub diagnostics: Vec<Diagnostic>,
}

/// A SKILL.md Codex reads and does not list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnlistedSkill {
    /// The SKILL.md as its reader displays it.
    pub path: String,
    /// Why Codex does not list it.
    pub reason: Unlisted,
}

/// Searches `roots` (SPEC §14.6).
pub fn list_skills<'a>(roots: &[SkillRoot<'a>]) -> SkillListing<'a> {
    let mut listing = SkillListing {
        skills: Vec::new(),
        unlisted: Vec::new(),
        diagnostics: Vec::new(),
    };
    for root in roots {
        scan(root, &mut listing);
    }
    listing
        .skills
        .sort_by(|a, b| (a.group, &a.name, &a.absolute).cmp(&(b.group, &b.name, &b.absolute)));
    listing
}

/// Breadth-first search below one root.
fn scan<'a>(root: &SkillRoot<'a>, listing: &mut SkillListing<'a>) {
    let mut queue = VecDeque::from([(root.dir.clone(), 0usize)]);
    let mut searched = 1usize;
    let mut seen = 0usize;
    while let Some((dir, depth)) = queue.pop_front() {
        if seen > limits::MAX_TREE_ENTRIES {
            listing.diagnostics.push(Diagnostic::warning(
                root.reader.display(&root.dir),
                format!(
                    "more than {} entries below this skills directory: the rest is not searched",
                    limits::MAX_TREE_ENTRIES
                ),
            ));
            return;
        }
        let entries = match root.reader.list(&dir) {
            Ok(entries) => entries,
            Err(WsError::NotFound | WsError::NotADirectory) if dir == root.dir => return,
            Err(err) => {
                listing.diagnostics.push(Diagnostic::warning(
                    root.reader.display(&dir),
                    format!("{err}; skills below it are not listed"),
                ));
                continue;
            }
        };
        seen += entries.len();
        for entry in entries {
            if entry.name.starts_with('.') || entry.lossy {
                continue;
            }
            let rel = join(&dir, &entry.name);
            let kind = match entry.kind {
                EntryKind::Symlink => match root.reader.stat(&rel) {
                    Ok(EntryKind::Dir) => EntryKind::Dir,
                    Ok(_) => continue,
                    Err(err) => {
                        listing.diagnostics.push(Diagnostic::warning(
                            root.reader.display(&rel),
                            format!("{err}; skills behind this link are not listed"),
                        ));
                        continue;
                    }
                },
                kind => kind,
            };
            match kind {
                EntryKind::Dir if depth < limits::CODEX_SKILL_SCAN_DEPTH => {
                    if searched < limits::CODEX_SKILL_SCAN_MAX_DIRS {
                        searched += 1;
                        queue.push_back((rel, depth + 1));
                    } else if searched == limits::CODEX_SKILL_SCAN_MAX_DIRS {
                        searched += 1;
                        listing.diagnostics.push(Diagnostic::warning(
                            root.reader.display(&root.dir),
                            format!(
                                "more than {} directories below this skills directory: \
                                 Codex stops searching, so does the preview",
                                limits::CODEX_SKILL_SCAN_MAX_DIRS
                            ),
                        ));
                    }
                }
                EntryKind::File if entry.name == SKILL_FILE => {
                    if let Some(skill) = read_skill(root, &dir, rel, listing) {
                        listing.skills.push(skill);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The listed skill of the SKILL.md at `rel` in `dir`, or a diagnostic.
fn read_skill<'a>(
    root: &SkillRoot<'a>,
    dir: &str,
    rel: String,
    listing: &mut SkillListing<'a>,
) -> Option<Skill<'a>> {
    let path = root.reader.display(&rel);
    let text = match read_text(root.reader, &rel) {
        Ok((text, cut)) => {
            if cut {
                listing.diagnostics.push(Diagnostic::warning(
                    &path,
                    format!(
                        "larger than {} bytes: listed from its start only",
                        limits::MAX_CODEX_SKILL_FILE_BYTES
                    ),
                ));
            }
            text
        }
        Err(why) => {
            listing.diagnostics.push(Diagnostic::fatal(&path, why));
            return None;
        }
    };
    let dir_name = dir.rsplit('/').next().unwrap_or(dir);
    let meta = match read_meta(&text, dir_name) {
        Ok(meta) => meta,
        Err(why) => {
            listing.diagnostics.push(Diagnostic::fatal(
                &path,
                format!("{}: Codex does not list this skill", why.describe()),
            ));
            listing.unlisted.push(UnlistedSkill { path, reason: why });
            return None;
        }
    };
    if meta.description_cut {
        listing.diagnostics.push(Diagnostic::info(
            &path,
            format!(
                "description longer than {} characters: Codex lists it cut, as shown",
                limits::CODEX_SKILL_DESCRIPTION_MAX_CHARS
            ),
        ));
    }
    Some(Skill {
        name: meta.name,
        description: meta.description,
        path,
        absolute: absolute(root.reader, &rel),
        scope: root.scope,
        group: root.group,
        reader: root.reader,
        rel,
    })
}

/// A SKILL.md's text, bounded, and whether it was cut; an error phrase when
/// it cannot be read or is not valid UTF-8 (Codex lists neither).
fn read_text(reader: &dyn Workspace, rel: &str) -> Result<(String, bool), String> {
    let read = reader
        .read_listed(rel, EntryKind::File, limits::MAX_CODEX_SKILL_FILE_BYTES)
        .map_err(|err| format!("{err}; not listed"))?;
    let cut = read.is_truncated();
    let mut bytes = read.bytes;
    bytes.truncate(whole_chars(&bytes, cut).len());
    String::from_utf8(bytes)
        .map(|text| (text, cut))
        .map_err(|_| "not valid UTF-8: Codex does not list this skill".to_string())
}

/// The names mentioned in `text` as `$NAME`, in order, each once.
pub fn mentions(text: &str) -> Vec<&str> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':');
    let mut names = Vec::new();
    for (at, _) in text.match_indices('$') {
        let rest = &text[at + 1..];
        let end = rest.find(|c: char| !is_name(c)).unwrap_or(rest.len());
        let name = &rest[..end];
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// What a `$NAME` mention adds: the skill's whole SKILL.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillBlock {
    /// The skill's name.
    pub name: String,
    /// The SKILL.md's absolute path.
    pub path: PathBuf,
    /// The SKILL.md's text, frontmatter included.
    pub content: String,
}

impl SkillBlock {
    /// The block exactly as Codex sends it.
    pub fn text(&self) -> String {
        format!(
            "<skill>\n<name>{}</name>\n<path>{}</path>\n{}\n</skill>",
            self.name,
            self.path.display(),
            self.content
        )
    }
}

/// The blocks the mentions in `text` add, with what could not be added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillExpansion {
    /// One block per skill, in listing order.
    pub blocks: Vec<SkillBlock>,
    /// Mentions that add nothing (unknown, ambiguous, unreadable).
    pub diagnostics: Vec<Diagnostic>,
}

/// The `<skill>` blocks Codex adds for the `$NAME` mentions in `text`.
pub fn skill_blocks(listing: &SkillListing<'_>, text: &str) -> SkillExpansion {
    let mut expansion = SkillExpansion {
        blocks: Vec::new(),
        diagnostics: Vec::new(),
    };
    let mentioned = mentions(text);
    for name in &mentioned {
        match listing.skills.iter().filter(|s| s.name == *name).count() {
            0 => expansion.diagnostics.push(Diagnostic::new(
                Severity::Info,
                None,
                format!("${name}: no skill has this name; Codex adds nothing for it"),
            )),
            1 => {}
            n => expansion.diagnostics.push(Diagnostic::new(
                Severity::Warning,
                None,
                format!("${name}: {n} skills have this name; Codex adds none of them"),
            )),
        }
    }
    for skill in &listing.skills {
        let unique = listing
            .skills
            .iter()
            .filter(|s| s.name == skill.name)
            .count()
            == 1;
        if !unique || !mentioned.contains(&skill.name.as_str()) {
            continue;
        }
        match read_text(skill.reader, &skill.rel) {
            Ok((content, _)) => expansion.blocks.push(SkillBlock {
                name: skill.name.clone(),
                path: skill.absolute.clone(),
                content,
            }),
            Err(why) => expansion
                .diagnostics
                .push(Diagnostic::fatal(&skill.path, why)),
        }
    }
    expansion
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::walk::walk;
    use crate::workspace::{LinkPolicy, MemNode, MemWorkspace};

    fn skill(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\n---\n\n{name} body\n")
    }

    fn user(root: &str) -> MemWorkspace {
        MemWorkspace::new()
            .with_root(root)
            .with_policy(LinkPolicy::Follow)
    }

    fn listing<'a>(
        project: &'a MemWorkspace,
        at: &str,
        codex_home: &'a MemWorkspace,
        home: &'a MemWorkspace,
    ) -> SkillListing<'a> {
        // The whole walk is the chain here: these tests are about skills.
        let chain = walk(None, project, at).unwrap();
        list_skills(&skill_roots(&chain, Some(codex_home), Some(home)))
    }

    fn entries(listing: &SkillListing<'_>) -> Vec<String> {
        listing.skills.iter().map(Skill::entry).collect()
    }

    #[test]
    #[cfg_attr(windows, ignore = "fixture homes are Unix paths /h/…")]
    fn every_root_is_searched_and_the_listing_is_grouped_then_sorted() {
        let project = MemWorkspace::new()
            .with_root("/w")
            .file(".agents/skills/zeta/SKILL.md", skill("zeta", "Root"))
            .file(
                ".agents/skills/group/nested/SKILL.md",
                skill("nested", "Nested"),
            )
            .file("a/.agents/skills/beta/SKILL.md", skill("beta", "A"))
            .file("a/.codex/skills/delta/SKILL.md", skill("delta", "A codex"))
            .file(".codex/skills/gamma/SKILL.md", skill("gamma", "Root codex"))
            .file("a/b/.agents/skills/dup/SKILL.md", skill("dup", "Cwd dup"))
            .file(".agents/skills/dup/SKILL.md", skill("dup", "Root dup"))
            .file(
                "other/.agents/skills/other/SKILL.md",
                skill("other", "Side"),
            )
            .file(
                "a/b/c/.agents/skills/below/SKILL.md",
                skill("below", "Below"),
            );
        let codex_home = user("/h/.codex")
            .file(
                "skills/user-codex/SKILL.md",
                skill("user-codex", "Codex home"),
            )
            .file(
                "skills/.system/imagegen/SKILL.md",
                skill("imagegen", "Bundled"),
            );
        let home = user("/h").file(
            ".agents/skills/user-agents/SKILL.md",
            skill("user-agents", "Home"),
        );
        let listing = listing(&project, "a/b", &codex_home, &home);
        assert_eq!(
            entries(&listing),
            vec![
                "- beta: A (file: a/.agents/skills/beta/SKILL.md)",
                "- delta: A codex (file: a/.codex/skills/delta/SKILL.md)",
                "- dup: Root dup (file: .agents/skills/dup/SKILL.md)",
                "- dup: Cwd dup (file: a/b/.agents/skills/dup/SKILL.md)",
                "- gamma: Root codex (file: .codex/skills/gamma/SKILL.md)",
                "- nested: Nested (file: .agents/skills/group/nested/SKILL.md)",
                "- zeta: Root (file: .agents/skills/zeta/SKILL.md)",
                "- user-agents: Home (file: /h/.agents/skills/user-agents/SKILL.md)",
                "- user-codex: Codex home (file: /h/.codex/skills/user-codex/SKILL.md)",
            ]
        );
        assert_eq!(
            listing.skills[0].absolute,
            PathBuf::from("/w/a/.agents/skills/beta/SKILL.md")
        );
        assert_eq!(listing.skills[0].scope, Scope::Project);
        assert_eq!(listing.skills[8].group, SkillGroup::User);
    }

    #[test]
    fn the_search_goes_six_levels_down_and_skips_hidden_names() {
        let project = MemWorkspace::new()
            .file(
                ".agents/skills/d1/d2/d3/d4/d5/d6/SKILL.md",
                skill("depth6", "Six"),
            )
            .file(
                ".agents/skills/e1/e2/e3/e4/e5/e6/e7/SKILL.md",
                skill("depth7", "Seven"),
            )
            .file(".agents/skills/parent/SKILL.md", skill("parent", "P"))
            .file(".agents/skills/parent/child/SKILL.md", skill("child", "C"))
            .file(".agents/skills/.hidden/SKILL.md", skill("hidden", "H"))
            .file(
                ".agents/skills/vis/.deep/SKILL.md",
                skill("hidden-deep", "H"),
            )
            .file(".agents/skills/lower/skill.md", skill("lower", "L"))
            .file(".agents/skills/Upper/SKILL.md", skill("Upper_Case.x", "U"));
        let names: Vec<String> = listing(&project, "", &user("/c"), &user("/h"))
            .skills
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, vec!["Upper_Case.x", "child", "depth6", "parent"]);
    }

    #[test]
    fn the_search_stops_at_codexs_directory_cap_and_our_entry_cap() {
        let mut project = MemWorkspace::new();
        for i in 0..limits::CODEX_SKILL_SCAN_MAX_DIRS + 1 {
            let rel = format!(".agents/skills/s{i:05}/SKILL.md");
            project.insert(
                &rel,
                MemNode::File(skill(&format!("s{i:05}"), "D").into_bytes()),
            );
        }
        let (codex_home, home) = (user("/c"), user("/h"));
        let capped = listing(&project, "", &codex_home, &home);
        assert_eq!(capped.skills.len(), limits::CODEX_SKILL_SCAN_MAX_DIRS - 1);
        assert_eq!(capped.diagnostics.len(), 1);

        let mut crowded = MemWorkspace::new().file(".agents/skills/zz/SKILL.md", skill("zz", "D"));
        for i in 0..limits::MAX_TREE_ENTRIES {
            crowded.insert(
                &format!(".agents/skills/f{i:06}"),
                MemNode::File(Vec::new()),
            );
        }
        let stopped = listing(&crowded, "", &codex_home, &home);
        assert!(stopped.skills.is_empty());
        assert!(stopped.diagnostics[0].reason.contains("entries"));
    }

    #[test]
    fn linked_directories_are_followed_inside_the_workspace_only() {
        let project = MemWorkspace::new()
            .file("elsewhere/ext/SKILL.md", skill("ext", "Through a link"))
            .file("elsewhere/target.md", skill("target", "File link target"))
            .node(
                ".agents/skills/dirlink",
                MemNode::Symlink("../../elsewhere/ext".into()),
            )
            .node(
                ".agents/skills/filelink/SKILL.md",
                MemNode::Symlink("../../../elsewhere/target.md".into()),
            )
            .node(
                ".agents/skills/out",
                MemNode::Symlink("../../../outside".into()),
            );
        let (codex_home, home) = (user("/c"), user("/h"));
        let listing = listing(&project, "", &codex_home, &home);
        assert_eq!(
            entries(&listing),
            vec!["- ext: Through a link (file: .agents/skills/dirlink/SKILL.md)"]
        );
        assert_eq!(listing.diagnostics.len(), 1);
        assert_eq!(
            listing.diagnostics[0].path.as_deref(),
            Some(".agents/skills/out")
        );
    }

    // Unix only: makes symbolic links with std::os::unix (Windows links need privileges the test cannot assume).
    #[cfg(unix)]
    #[test]
    fn a_real_skills_link_out_of_the_workspace_is_not_followed() {
        use crate::workspace::OsWorkspace;
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir(outside.path().join("s")).unwrap();
        std::fs::write(outside.path().join("s/SKILL.md"), skill("s", "S3CRET")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".agents/skills")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join(".agents/skills/out")).unwrap();
        let project = OsWorkspace::new(dir.path(), LinkPolicy::Confine);
        let chain = walk(None, &project, "").unwrap();
        let (codex_home, home) = (user("/nonexistent/c"), user("/nonexistent/h"));
        let listing = list_skills(&skill_roots(&chain, Some(&codex_home), Some(&home)));
        assert!(listing.skills.is_empty());
        assert_eq!(listing.diagnostics.len(), 1);
        assert!(!format!("{listing:?}").contains("S3CRET"));
    }

    #[test]
    fn skills_codex_would_not_list_are_reported() {
        let project = MemWorkspace::new()
            .file(
                ".agents/skills/nodesc/SKILL.md",
                "---\nname: nodesc\n---\nBody\n",
            )
            .file(
                ".agents/skills/bad/SKILL.md",
                b"---\nname: bad\ndescription: D\n---\n\xff\n",
            )
            .file(".agents/skills/good/SKILL.md", skill("good", "Fine"));
        let (codex_home, home) = (user("/c"), user("/h"));
        let listing = listing(&project, "", &codex_home, &home);
        assert_eq!(
            entries(&listing),
            vec!["- good: Fine (file: .agents/skills/good/SKILL.md)"]
        );
        let dropped: Vec<_> = listing
            .diagnostics
            .iter()
            .map(|d| (d.severity, d.path.clone().unwrap_or_default()))
            .collect();
        assert_eq!(
            dropped,
            vec![
                (Severity::Fatal, ".agents/skills/bad/SKILL.md".to_string()),
                (
                    Severity::Fatal,
                    ".agents/skills/nodesc/SKILL.md".to_string()
                ),
            ]
        );
        // Only the metadata's verdicts are typed (invalid UTF-8 is not).
        assert_eq!(
            listing.unlisted,
            vec![UnlistedSkill {
                path: ".agents/skills/nodesc/SKILL.md".to_string(),
                reason: Unlisted::NoDescription,
            }]
        );
    }

    #[test]
    fn a_root_seen_twice_is_searched_once() {
        // The workspace is the home directory: its .agents/skills is also
        // the user's.
        let project = MemWorkspace::new()
            .with_root("/h")
            .file(".agents/skills/s/SKILL.md", skill("s", "Once"));
        let home = user("/h").file(".agents/skills/s/SKILL.md", skill("s", "Once"));
        let codex_home = user("/h/.codex");
        let listing = listing(&project, "", &codex_home, &home);
        assert_eq!(listing.skills.len(), 1);
        assert_eq!(listing.skills[0].group, SkillGroup::Repo);
    }

    #[test]
    fn mentions_are_dollar_names_anywhere() {
        assert_eq!(
            mentions("use $zed, then x$fm-name, $zed again, $a:b_c-1. $ $"),
            vec!["zed", "fm-name", "a:b_c-1"]
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "fixture workspace is the Unix path /w")]
    fn mentioned_skills_add_their_whole_file_in_listing_order() {
        let project = MemWorkspace::new()
            .with_root("/w")
            .file(
                ".agents/skills/dir-name/SKILL.md",
                "---\nname: fm-name\ndescription: D\n---\r\nCRLF BODY\r\n",
            )
            .file(".agents/skills/fm-name/SKILL.md", skill("other", "Decoy"))
            .file(".agents/skills/zed/SKILL.md", skill("zed", "Z"))
            .file(".agents/skills/dup1/SKILL.md", skill("dup", "One"))
            .file(".agents/skills/dup2/SKILL.md", skill("dup", "Two"));
        let (codex_home, home) = (user("/c"), user("/h"));
        let listing = listing(&project, "", &codex_home, &home);
        let expansion = skill_blocks(&listing, "use $zed, then x$fm-name, $dup, $FM-NAME, $nope");
        let texts: Vec<String> = expansion.blocks.iter().map(SkillBlock::text).collect();
        assert_eq!(
            texts,
            vec![
                "<skill>\n<name>fm-name</name>\n<path>/w/.agents/skills/dir-name/SKILL.md</path>\n\
                 ---\nname: fm-name\ndescription: D\n---\r\nCRLF BODY\r\n\n</skill>",
                "<skill>\n<name>zed</name>\n<path>/w/.agents/skills/zed/SKILL.md</path>\n\
                 ---\nname: zed\ndescription: Z\n---\n\nzed body\n\n</skill>",
            ]
        );
        let notes: Vec<_> = expansion.diagnostics.iter().map(|d| d.severity).collect();
        assert_eq!(
            notes,
            vec![Severity::Warning, Severity::Info, Severity::Info]
        );
    }
}
