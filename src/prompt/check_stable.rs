//! `--check-stable` (SPEC §4.5): build twice with the same configuration and
//! two environments that differ in every field, and show where the stable
//! prefixes differ, if they do.

use crate::prompt::build::Config;
use crate::prompt::env::Env;
use crate::prompt::memory_index::MemoryEntry;
use crate::prompt::operator_profile::OperatorProfileConfig;
use crate::prompt::text::parse_date;

/// The git status every B environment carries: plausible, and unlike any
/// real repository's.
pub const SYNTHETIC_GIT_STATUS: &str = "branch: check-stable-b\nstatus:\n M check-stable-b.txt\n\
                                        commits:\n0000000 check-stable synthetic commit";

/// The key of the operator-profile entry added for B.
pub const SYNTHETIC_PROFILE_KEY: &str = "user/check-stable";

/// The B environment derived from A: every field changed.
///
/// `cwd` gains `/.check-stable-b`; a valid `YYYY-MM-DD` date becomes the next
/// day, any other date gains `-b`; `model` gains `-b`; `os`, `mode` and
/// `shell` switch to `linux`/`plan`/`/bin/sh`, or to `darwin`/`default`/
/// `/bin/bash` when A already has that value; git status becomes
/// [`SYNTHETIC_GIT_STATUS`].
pub fn env_b(a: &Env) -> Env {
    let switch = |current: &str, preferred: &str, fallback: &str| {
        if current == preferred {
            fallback.to_string()
        } else {
            preferred.to_string()
        }
    };
    Env {
        cwd: format!("{}/.check-stable-b", a.cwd),
        os: switch(&a.os, "linux", "darwin"),
        model: format!("{}-b", a.model),
        date: next_day(&a.date).unwrap_or_else(|| format!("{}-b", a.date)),
        mode: switch(&a.mode, "plan", "default"),
        shell: switch(&a.shell, "/bin/sh", "/bin/bash"),
        git_status: SYNTHETIC_GIT_STATUS.to_string(),
    }
}

/// The operator-profile entry added to B's profile.
///
/// Its timestamp is far in the future so that, ordered newest first, it is
/// the first entry selected even when A's profile already fills the caps.
pub fn synthetic_profile_entry() -> MemoryEntry {
    MemoryEntry {
        key: SYNTHETIC_PROFILE_KEY.to_string(),
        value: "synthetic fact added by the prefix stability check".to_string(),
        description: "Synthetic entry for the prefix stability check".to_string(),
        updated_at: Some("9999-12-31T23:59:59Z".to_string()),
    }
}

/// B's operator profile: A's entries plus [`synthetic_profile_entry`].
pub fn operator_profile_b(a: &OperatorProfileConfig) -> OperatorProfileConfig {
    let mut b = a.clone();
    b.entries.push(synthetic_profile_entry());
    b
}

/// The B configuration: A's with [`env_b`] and [`operator_profile_b`].
/// `--env-b` overrides are applied to its `env` afterwards.
pub fn config_b(a: &Config) -> Config {
    Config {
        env: env_b(&a.env),
        operator_profile: operator_profile_b(&a.operator_profile),
        ..a.clone()
    }
}

/// The day after `date` when it is a valid `YYYY-MM-DD` calendar date
/// (Gregorian, leap years included), else `None`.
pub fn next_day(date: &str) -> Option<String> {
    let date = parse_date(date)?;
    Some(match date.tomorrow() {
        Ok(next) => next.to_string(),
        // jiff's calendar ends with 9999-12-31.
        Err(_) => format!("{}-01-01", i32::from(date.year()) + 1),
    })
}

/// The env keys `--env-b` accepts, as in the builder-command JSON.
pub const ENV_KEYS: [&str; 7] = ["cwd", "os", "model", "date", "mode", "shell", "git_status"];

/// An `--env-b` key that names no env field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown env key {0:?}; expected one of cwd, os, model, date, mode, shell, git_status")]
pub struct UnknownEnvKey(pub String);

/// Sets the env field named `key` (a key of [`ENV_KEYS`]) to `value`.
pub fn set_env_field(env: &mut Env, key: &str, value: &str) -> Result<(), UnknownEnvKey> {
    let field = match key {
        "cwd" => &mut env.cwd,
        "os" => &mut env.os,
        "model" => &mut env.model,
        "date" => &mut env.date,
        "mode" => &mut env.mode,
        "shell" => &mut env.shell,
        "git_status" => &mut env.git_status,
        _ => return Err(UnknownEnvKey(key.to_string())),
    };
    *field = value.to_string();
    Ok(())
}

/// How two stable prefixes differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrefixDiff {
    /// The byte offset of the first differing byte; the shorter length when
    /// one prefix is a prefix of the other.
    pub first_difference: usize,
    /// A line-based unified diff, labelled `--- A` / `+++ B`, with three
    /// lines of context; every line ends with `\n`.
    pub diff: String,
}

/// Compares the prefixes built from A and B: `None` when byte-identical.
pub fn compare_prefixes(a: &str, b: &str) -> Option<PrefixDiff> {
    if a == b {
        return None;
    }
    let first_difference = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    Some(PrefixDiff {
        first_difference,
        diff: unified_diff(a, b),
    })
}

/// Lines of unchanged context around each change.
const CONTEXT: usize = 3;

/// The largest LCS table computed; beyond it the differing middle is shown
/// as removed and re-added whole, which is still a correct diff.
const LCS_CELL_BUDGET: usize = 1 << 22;

/// One step of an edit script, by line index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Keep,
    Delete,
    Insert,
}

fn unified_diff(a: &str, b: &str) -> String {
    let old: Vec<&str> = a.split_inclusive('\n').collect();
    let new: Vec<&str> = b.split_inclusive('\n').collect();
    let edits = edit_script(&old, &new);

    // Line positions in A and B before each edit.
    let mut positions = Vec::with_capacity(edits.len() + 1);
    let (mut at_old, mut at_new) = (0, 0);
    for edit in &edits {
        positions.push((at_old, at_new));
        match edit {
            Edit::Keep => (at_old, at_new) = (at_old + 1, at_new + 1),
            Edit::Delete => at_old += 1,
            Edit::Insert => at_new += 1,
        }
    }
    positions.push((at_old, at_new));

    let mut out = String::from("--- A\n+++ B\n");
    for (start, end) in hunks(&edits) {
        let (old_start, new_start) = positions[start];
        let (old_end, new_end) = positions[end];
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            hunk_range(old_start, old_end - old_start),
            hunk_range(new_start, new_end - new_start)
        ));
        for (index, edit) in edits.iter().enumerate().take(end).skip(start) {
            let (in_old, in_new) = positions[index];
            let (marker, line) = match edit {
                Edit::Keep => (' ', old[in_old]),
                Edit::Delete => ('-', old[in_old]),
                Edit::Insert => ('+', new[in_new]),
            };
            out.push(marker);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

/// The `start,count` of a hunk header, 1-based, GNU style: a count of one is
/// omitted, and an empty range names the line before it.
fn hunk_range(start: usize, count: usize) -> String {
    match count {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{count}", start + 1),
    }
}

/// Groups the edits into hunks: `[start, end)` ranges of edit indices, each
/// change padded with [`CONTEXT`] kept lines, close changes merged.
fn hunks(edits: &[Edit]) -> Vec<(usize, usize)> {
    let mut hunks: Vec<(usize, usize)> = Vec::new();
    let changes = edits
        .iter()
        .enumerate()
        .filter(|(_, edit)| **edit != Edit::Keep)
        .map(|(index, _)| index);
    for change in changes {
        let start = change.saturating_sub(CONTEXT);
        let end = (change + CONTEXT + 1).min(edits.len());
        match hunks.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => hunks.push((start, end)),
        }
    }
    hunks
}

/// A shortest edit script turning `old` into `new`: the common head and
/// tail are kept, and the middle is aligned by longest common subsequence
/// when its table fits [`LCS_CELL_BUDGET`].
fn edit_script(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let head = old.iter().zip(new).take_while(|(x, y)| x == y).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let old_mid = &old[head..old.len() - tail];
    let new_mid = &new[head..new.len() - tail];

    let mut edits = vec![Edit::Keep; head];
    let cells = (old_mid.len() + 1).saturating_mul(new_mid.len() + 1);
    if cells <= LCS_CELL_BUDGET {
        edits.extend(lcs_edits(old_mid, new_mid));
    } else {
        edits.extend(std::iter::repeat_n(Edit::Delete, old_mid.len()));
        edits.extend(std::iter::repeat_n(Edit::Insert, new_mid.len()));
    }
    edits.extend(std::iter::repeat_n(Edit::Keep, tail));
    edits
}

/// The edit script from a longest-common-subsequence table; deletions come
/// before insertions where both are possible.
fn lcs_edits(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let width = new.len() + 1;
    // common[i * width + j] = LCS length of old[i..] and new[j..].
    let mut common = vec![0u32; (old.len() + 1) * width];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            common[i * width + j] = if old[i] == new[j] {
                common[(i + 1) * width + j + 1] + 1
            } else {
                common[(i + 1) * width + j].max(common[i * width + j + 1])
            };
        }
    }
    let mut edits = Vec::with_capacity(old.len() + new.len());
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        if old[i] == new[j] {
            edits.push(Edit::Keep);
            (i, j) = (i + 1, j + 1);
        } else if common[(i + 1) * width + j] >= common[i * width + j + 1] {
            edits.push(Edit::Delete);
            i += 1;
        } else {
            edits.push(Edit::Insert);
            j += 1;
        }
    }
    edits.extend(std::iter::repeat_n(Edit::Delete, old.len() - i));
    edits.extend(std::iter::repeat_n(Edit::Insert, new.len() - j));
    edits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::build::build;
    use proptest::prelude::*;

    fn env_a() -> Env {
        Env {
            cwd: "/home/ada/project".into(),
            os: "darwin".into(),
            model: "model-x".into(),
            date: "2026-05-29".into(),
            mode: "default".into(),
            shell: "/bin/zsh".into(),
            git_status: "branch: main".into(),
        }
    }

    #[test]
    fn env_b_changes_every_field() {
        assert_eq!(
            env_b(&env_a()),
            Env {
                cwd: "/home/ada/project/.check-stable-b".into(),
                os: "linux".into(),
                model: "model-x-b".into(),
                date: "2026-05-30".into(),
                mode: "plan".into(),
                shell: "/bin/sh".into(),
                git_status: SYNTHETIC_GIT_STATUS.into(),
            }
        );
    }

    #[test]
    fn env_b_switches_away_from_the_preferred_values() {
        let a = Env {
            os: "linux".into(),
            mode: "plan".into(),
            shell: "/bin/sh".into(),
            ..Env::default()
        };
        let b = env_b(&a);
        assert_eq!(
            (b.os.as_str(), b.mode.as_str(), b.shell.as_str()),
            ("darwin", "default", "/bin/bash")
        );
        assert_eq!(b.cwd, "/.check-stable-b");
        assert_eq!(b.model, "-b");
        assert_eq!(b.date, "-b");
    }

    #[test]
    fn env_b_of_a_non_date_appends_b() {
        for date in [
            "yesterday",
            "2026-5-29",
            "2026-02-30",
            "2026-13-01",
            "2026-00-10",
            "２０２６-05-29",
        ] {
            let a = Env {
                date: date.into(),
                ..Env::default()
            };
            assert_eq!(env_b(&a).date, format!("{date}-b"));
        }
    }

    #[test]
    fn next_day_crosses_month_and_year_ends() {
        let cases = [
            ("2024-02-28", "2024-02-29"),
            ("2024-02-29", "2024-03-01"),
            ("2023-02-28", "2023-03-01"),
            ("2000-02-28", "2000-02-29"),
            ("1900-02-28", "1900-03-01"),
            ("2026-04-30", "2026-05-01"),
            ("2026-01-31", "2026-02-01"),
            ("2026-05-29", "2026-05-30"),
            ("2025-12-31", "2026-01-01"),
            ("0999-12-31", "1000-01-01"),
            ("9999-12-31", "10000-01-01"),
        ];
        for (date, next) in cases {
            assert_eq!(next_day(date).as_deref(), Some(next), "{date}");
        }
        for invalid in [
            "2023-02-29",
            "2026-04-31",
            "2026-1-01",
            "2026/01/01",
            "",
            "2026-01-011",
        ] {
            assert_eq!(next_day(invalid), None, "{invalid}");
        }
    }

    #[test]
    fn profile_b_adds_the_synthetic_entry() {
        let a = OperatorProfileConfig {
            entries: vec![MemoryEntry {
                key: "user/name".into(),
                value: "Ada".into(),
                ..MemoryEntry::default()
            }],
            max_entries: 3,
            ..OperatorProfileConfig::default()
        };
        let b = operator_profile_b(&a);
        assert_eq!(b.entries.len(), 2);
        assert_eq!(b.entries[0], a.entries[0]);
        assert_eq!(b.entries[1].key, "user/check-stable");
        assert_eq!(b.max_entries, 3);
    }

    #[test]
    fn config_b_keeps_the_stable_inputs() {
        let a = Config {
            role: "r".into(),
            env: env_a(),
            ..Config::default()
        };
        let b = config_b(&a);
        assert_eq!(b.role, "r");
        assert_eq!(b.env, env_b(&a.env));
        assert_eq!(b.operator_profile.entries, [synthetic_profile_entry()]);
        assert_eq!(
            compare_prefixes(&build(&a).stable_prefix, &build(&b).stable_prefix),
            None
        );
    }

    #[test]
    fn set_env_field_sets_each_key() {
        let mut env = Env::default();
        for key in ENV_KEYS {
            set_env_field(&mut env, key, &format!("v-{key}")).unwrap();
        }
        assert_eq!(
            env,
            Env {
                cwd: "v-cwd".into(),
                os: "v-os".into(),
                model: "v-model".into(),
                date: "v-date".into(),
                mode: "v-mode".into(),
                shell: "v-shell".into(),
                git_status: "v-git_status".into(),
            }
        );
    }

    #[test]
    fn set_env_field_rejects_unknown_keys() {
        let mut env = env_a();
        for key in ["permission-mode", "CWD", "git-status", ""] {
            let err = set_env_field(&mut env, key, "x").unwrap_err();
            assert_eq!(err, UnknownEnvKey(key.to_string()));
        }
        assert_eq!(env, env_a());
        assert_eq!(
            UnknownEnvKey("nope".into()).to_string(),
            "unknown env key \"nope\"; expected one of cwd, os, model, date, mode, shell, git_status"
        );
    }

    #[test]
    fn identical_prefixes_have_no_diff() {
        assert_eq!(compare_prefixes("", ""), None);
        assert_eq!(compare_prefixes("same\ntext", "same\ntext"), None);
    }

    #[test]
    fn first_difference_is_a_byte_offset() {
        let diff = |a: &str, b: &str| compare_prefixes(a, b).unwrap().first_difference;
        assert_eq!(diff("abc", "abd"), 2);
        assert_eq!(diff("abc", "abcd"), 3);
        assert_eq!(diff("abcd", "abc"), 3);
        assert_eq!(diff("", "x"), 0);
        assert_eq!(diff("é", "è"), 1);
    }

    #[test]
    fn diff_shows_the_changed_line_with_context() {
        let a = "1\n2\n3\n4\n5\n6\n7\n8\n9";
        let b = "1\n2\n3\n4\nfive\n6\n7\n8\n9";
        let found = compare_prefixes(a, b).unwrap();
        assert_eq!(found.first_difference, 8);
        assert_eq!(
            found.diff,
            "--- A\n+++ B\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn diff_marks_a_missing_final_newline() {
        assert_eq!(
            compare_prefixes("a\nb", "a\nb\n").unwrap().diff,
            "--- A\n+++ B\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
        );
    }

    #[test]
    fn diff_of_insertion_into_empty_names_line_zero() {
        assert_eq!(
            compare_prefixes("", "x\n").unwrap().diff,
            "--- A\n+++ B\n@@ -0,0 +1 @@\n+x\n"
        );
    }

    #[test]
    fn distant_changes_get_separate_hunks_close_ones_merge() {
        let numbered = |changed: &[usize]| -> String {
            (1..=20)
                .map(|n| {
                    if changed.contains(&n) {
                        format!("x{n}\n")
                    } else {
                        format!("{n}\n")
                    }
                })
                .collect()
        };
        let a = numbered(&[]);
        // Six unchanged lines between two changes still merge into one hunk.
        let near = compare_prefixes(&a, &numbered(&[2, 9])).unwrap();
        assert_eq!(near.diff.matches("@@ -").count(), 1, "{}", near.diff);
        assert!(near.diff.contains("@@ -1,12 +1,12 @@\n"), "{}", near.diff);
        // Seven do not.
        let far = compare_prefixes(&a, &numbered(&[2, 10])).unwrap();
        assert_eq!(far.diff.matches("@@ -").count(), 2, "{}", far.diff);
        assert!(far.diff.contains("@@ -1,5 +1,5 @@\n"), "{}", far.diff);
        assert!(far.diff.contains("@@ -7,7 +7,7 @@\n"), "{}", far.diff);
    }

    /// Applies a unified diff with full context to `old`, for checking.
    fn apply(old: &str, diff: &str) -> String {
        let old: Vec<&str> = old.split_inclusive('\n').collect();
        let mut out = String::new();
        let mut next_old = 0;
        let mut lines = diff.split_inclusive('\n').skip(2).peekable();
        while let Some(line) = lines.next() {
            if let Some(header) = line.strip_prefix("@@ -") {
                let range = header.split(' ').next().unwrap();
                let mut parts = range.split(',');
                let start: usize = parts.next().unwrap().parse().unwrap();
                let count: usize = parts.next().map_or(1, |c| c.parse().unwrap());
                let first = if count == 0 { start } else { start - 1 };
                for kept in &old[next_old..first] {
                    out.push_str(kept);
                }
                next_old = first;
                continue;
            }
            let no_newline = lines.peek() == Some(&"\\ No newline at end of file\n");
            let text = &line[1..];
            let text = if no_newline {
                lines.next();
                text.strip_suffix('\n').unwrap()
            } else {
                text
            };
            match &line[..1] {
                " " => {
                    out.push_str(text);
                    next_old += 1;
                }
                "-" => next_old += 1,
                "+" => out.push_str(text),
                other => panic!("unexpected line {other:?}"),
            }
        }
        for kept in &old[next_old..] {
            out.push_str(kept);
        }
        out
    }

    #[test]
    fn over_budget_middles_are_replaced_whole() {
        let a: String = (0..3000).map(|n| format!("a{n}\n")).collect();
        let b: String = (0..3000).map(|n| format!("b{n}\n")).collect();
        let found = compare_prefixes(&a, &b).unwrap();
        assert_eq!(apply(&a, &found.diff), b);
        assert_eq!(found.diff.matches("\n-").count(), 3000);
    }

    fn lines() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof!["[abc]", Just("\n".to_string()), "[ab]\n"],
            0..40,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #[test]
        fn diff_turns_a_into_b(a in lines(), b in lines()) {
            match compare_prefixes(&a, &b) {
                None => prop_assert_eq!(&a, &b),
                Some(found) => {
                    prop_assert_ne!(&a, &b);
                    prop_assert_eq!(apply(&a, &found.diff), b.clone());
                    let offset = found.first_difference;
                    prop_assert_eq!(&a.as_bytes()[..offset], &b.as_bytes()[..offset]);
                    prop_assert!(a.as_bytes().get(offset) != b.as_bytes().get(offset));
                }
            }
        }
    }
}
