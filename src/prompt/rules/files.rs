//! Rule files (SPEC §7.1–§7.3) as a kind of the precedence engine
//! ([`crate::prompt::tiers`]): where they live, how one is read and
//! parsed, and what is reported about it.
//!
//! Choices where the spec is open:
//! - A file whose glob does not compile keeps its rule (the glob matches
//!   nothing, SPEC §7.5) but gets a fatal diagnostic, so `rules list
//!   --check` fails on it.
//! - A file is read from a head of [`RULE_HEAD_BYTES`]; the rest of the
//!   1 MiB bound only when the head cannot decide the rule, so a 2 GiB
//!   rule costs 24 KiB.
//! - A nested subdirectory of a rules directory is not read (as the
//!   engine) and gets a warning with its `.md` count, since Claude Code
//!   would load them; a link to a directory is not reported (counting
//!   through `up -> ..` would walk the repository).

use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::files::CLAUDE_RULES_DIR;
use crate::prompt::glob::{PathMatcher, top_level_suggestion};
use crate::prompt::rules::frontmatter;
use crate::prompt::rules::{Rule, RuleOrigin, cap_body, sanitise_rule_name};
use crate::prompt::text::{INVALID_UTF8_REPLACED, whole_chars};
use crate::prompt::tiers::{
    Kind, Listed, Loaded, Loss, SearchDir, Tier, Words, count_md_files, read_listed,
};
use crate::workspace::{EntryKind, Workspace};

/// The project rule directories, highest precedence first (SPEC §3.2).
pub const PROJECT_RULE_DIRS: [&str; 2] = [".mecatl/rules", CLAUDE_RULES_DIR];

/// How rule files are named in diagnostics; a refused symlink or a file
/// name that is not UTF-8 is fatal (it fails `rules list --check`).
pub const RULE_WORDS: Words = Words {
    noun: "rule",
    plural: "rules",
    dir_noun: "rules directory",
    refusal: Severity::Fatal,
};

/// How much of a rule file is read first. It holds the frontmatter and a
/// body past the cap in all but odd files; a longer file is read again, up
/// to [`limits::MAX_RULE_FILE_BYTES`], only when its head cannot decide the
/// rule (see [`split_head`]).
pub const RULE_HEAD_BYTES: u64 = 24 * 1024;

/// The project rule directories read through the workspace reader,
/// withheld when the workspace is untrusted.
pub fn project_rule_dirs(reader: Arc<dyn Workspace>, withheld: bool) -> Vec<SearchDir<'static>> {
    PROJECT_RULE_DIRS
        .iter()
        .map(|dir| SearchDir::flat(reader.clone(), *dir, Tier::Project).withheld_if(withheld))
        .collect()
}

/// A user rules directory: the root of `reader` (which the composition
/// root builds to follow links, since the user owns both ends).
pub fn user_rule_dir(reader: Arc<dyn Workspace>) -> SearchDir<'static> {
    SearchDir::flat(reader, "", Tier::User)
}

/// The tier label a rule read from a directory of `tier` carries. An
/// operator-named directory is never gated, like the user's: its rules
/// are labelled `user`.
pub fn origin_of(tier: Tier) -> RuleOrigin {
    match tier {
        Tier::Project => RuleOrigin::Project,
        Tier::User | Tier::Operator => RuleOrigin::User,
    }
}

/// A rule file that loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedRule {
    /// The rule: name from the file name, body trimmed and capped, paths
    /// from the frontmatter, origin from the directory's tier.
    pub rule: Rule,
    /// True when the body was cut to the cap (or the file to the read
    /// bound).
    pub truncated: bool,
}

/// The rule-file kind of the precedence engine.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleFiles;

impl Kind for RuleFiles {
    type Item = LoadedRule;

    fn words(&self, _dir: &SearchDir<'_>) -> &Words {
        &RULE_WORDS
    }

    fn load(&self, dir: &SearchDir<'_>, file: &Listed) -> Result<Loaded<LoadedRule>, Loss> {
        let shown = dir.display(&file.rel);
        let mut read = read_listed(&RULE_WORDS, dir, file, RULE_HEAD_BYTES)?;
        let head = match read.is_truncated() {
            false => Some(Parsed::of(&read.bytes)),
            true if read.size > limits::MAX_RULE_FILE_BYTES => split_head(&read.bytes),
            true => None,
        };
        let Parsed {
            parts,
            body,
            cut,
            lossy,
        } = match head {
            Some(parsed) => parsed,
            None => {
                read = read_listed(&RULE_WORDS, dir, file, limits::MAX_RULE_FILE_BYTES)?;
                Parsed::of(whole_chars(&read.bytes, read.is_truncated()))
            }
        };
        let paths = match parts.front.as_deref().map(frontmatter::parse_paths) {
            None => Vec::new(),
            Some(Ok(paths)) => paths,
            Some(Err(err)) => return Err(Loss::malformed(&shown, err.to_string())),
        };
        let mut notes = Vec::new();
        if read.is_truncated() {
            notes.push(Diagnostic::warning(
                shown.clone(),
                format!(
                    "file is {} bytes; only the first {} bytes are used and the body was cut \
                     to at most {} bytes",
                    read.size,
                    limits::MAX_RULE_FILE_BYTES,
                    limits::MAX_RULE_BYTES
                ),
            ));
        } else if cut {
            notes.push(Diagnostic::warning(
                shown.clone(),
                format!(
                    "body is {} bytes; cut to {} bytes, the rule body limit",
                    parts.body.trim().len(),
                    limits::MAX_RULE_BYTES
                ),
            ));
        }
        if lossy {
            notes.push(Diagnostic::warning(shown.clone(), INVALID_UTF8_REPLACED));
        }
        notes.extend(glob_notes(&shown, &file.name, &paths));
        Ok(Loaded {
            item: LoadedRule {
                rule: Rule {
                    name: file.name.clone(),
                    body,
                    paths,
                    origin: origin_of(dir.tier),
                },
                truncated: cut || read.is_truncated(),
            },
            notes,
        })
    }

    fn nested_dir(
        &self,
        dir: &SearchDir<'_>,
        rel: &str,
        _name: &str,
        kind: EntryKind,
    ) -> Option<Diagnostic> {
        if kind != EntryKind::Dir {
            return None;
        }
        let count = count_md_files(dir.reader.as_ref(), rel);
        Some(Diagnostic::warning(
            dir.display(rel),
            format!(
                "nested directory not read (rules are only the files directly in the rules \
                 directory); it holds {count} .md file(s), which Claude Code would load"
            ),
        ))
    }
}

/// A rule file's content split into frontmatter and capped body.
struct Parsed {
    parts: frontmatter::Split,
    body: String,
    cut: bool,
    /// True when invalid UTF-8 was replaced with U+FFFD.
    lossy: bool,
}

impl Parsed {
    fn of(bytes: &[u8]) -> Self {
        let parts = frontmatter::split(bytes);
        let (body, cut) = cap_body(&parts.body);
        let lossy = std::str::from_utf8(bytes).is_err();
        Self {
            parts,
            body,
            cut,
            lossy,
        }
    }
}

/// The rule a file over [`limits::MAX_RULE_FILE_BYTES`] gives, decided from
/// its head alone, or `None` when the rest of the bound could change it.
///
/// The head is a prefix of the bounded content; without a cut-off last
/// character, its frontmatter block and trimmed body are prefixes of what
/// the whole bound would give. Once the block closed inside the head (or
/// no block opens) and the trimmed body already passes the cap, the capped
/// body is the same. The one message that depends on the whole body's
/// length is not given for a file over the bound.
fn split_head(head: &[u8]) -> Option<Parsed> {
    let head = whole_chars(head, true);
    let parsed = Parsed::of(head);
    let unclosed_block =
        parsed.parts.front.is_none() && head.strip_prefix(BOM).unwrap_or(head).starts_with(FENCE);
    (parsed.cut && !unclosed_block).then_some(parsed)
}

const BOM: &[u8] = "\u{feff}".as_bytes();
const FENCE: &[u8] = b"---";

/// A fatal diagnostic per glob that does not compile (the rule is kept;
/// the glob matches nothing), then an info hint per glob that only matches
/// at the workspace root.
fn glob_notes(shown: &str, name: &str, paths: &[String]) -> Vec<Diagnostic> {
    let bad_globs = PathMatcher::errors(paths);
    let compiles = |pattern: &String| !bad_globs.iter().any(|bad| bad.pattern == *pattern);
    let fatals = bad_globs.iter().map(|bad| {
        Diagnostic::fatal(
            shown,
            format!(
                "rule `{}`: pattern `{}` cannot be compiled ({}); it matches nothing",
                sanitise_rule_name(name),
                bad.pattern,
                bad.reason
            ),
        )
    });
    let hints = paths.iter().filter(|p| compiles(p)).filter_map(|pattern| {
        let anywhere = top_level_suggestion(pattern)?;
        Some(Diagnostic::info(
            shown,
            format!(
                "pattern `{pattern}` matches only files at the workspace root; write \
                 `{anywhere}` to match at any depth"
            ),
        ))
    });
    fatals.chain(hints).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::Strategy;

    /// A parsed rule file as comparable values: front, capped body, cut.
    type Summary = (Option<String>, String, bool);

    /// What the head decides, next to what the whole bounded content gives.
    fn head_and_whole(content: &[u8], head: usize) -> Option<(Summary, Summary)> {
        let summary = |p: Parsed| (p.parts.front, p.body, p.cut);
        let decided = split_head(&content[..head.min(content.len())])?;
        Some((summary(decided), summary(Parsed::of(content))))
    }

    #[test]
    fn a_head_decides_only_what_the_rest_cannot_change() {
        let cap = limits::MAX_RULE_BYTES;
        let long = "x".repeat(cap + 100);
        // A closed block and a body already past the cap: decided.
        let closed = format!("---\npaths: a\n---\n{long}more");
        let (head, whole) = head_and_whole(closed.as_bytes(), closed.len() - 4).unwrap();
        assert_eq!(head, whole);
        assert!(head.2 && head.0.as_deref() == Some("paths: a\n"));
        // No block at all, CRLF and a BOM kept in the body: decided.
        let plain = format!("\u{feff}Rule\r\n{long}");
        let (head, whole) = head_and_whole(plain.as_bytes(), cap + 50).unwrap();
        assert_eq!(head, whole);
        // A block that has not closed in the head: the rest decides.
        let open = format!("---\npaths: a\n{long}\n---\nbody");
        assert!(head_and_whole(open.as_bytes(), cap + 50).is_none());
        // A body within the cap so far: trailing text may or may not follow.
        let short = format!("Rule{}{long}", " ".repeat(cap + 50));
        assert!(head_and_whole(short.as_bytes(), cap + 20).is_none());
        // A head cut inside a whitespace character (U+3000) does not count
        // it as text.
        let wide = format!("x{}\u{3000}", " ".repeat(cap + 10));
        assert!(head_and_whole(wide.as_bytes(), wide.len() - 1).is_none());
    }

    fn segment() -> impl Strategy<Value = Vec<u8>> {
        let pieces: Vec<&'static [u8]> = vec![
            b"---\n",
            b"---\r\n",
            b"---",
            b"\r\n",
            b"\n",
            b"\r",
            b" ",
            b"\t",
            b"x",
            "\u{3000}".as_bytes(),
            "\u{e9}".as_bytes(),
            "\u{feff}".as_bytes(),
            b"\xff",
            b"\xe3\x80",
            b"paths: a\n",
        ];
        (proptest::sample::select(pieces), 1..3000usize).prop_map(|(piece, n)| piece.repeat(n))
    }

    proptest::proptest! {
        #[test]
        fn a_decided_head_gives_what_the_whole_bound_gives(
            parts in proptest::collection::vec(segment(), 1..40),
            at in 0.0..1.0f64,
        ) {
            let content = parts.concat();
            let head = (content.len() as f64 * at) as usize;
            if let Some((head, whole)) = head_and_whole(&content, head) {
                proptest::prop_assert_eq!(head, whole);
            }
        }
    }
}
