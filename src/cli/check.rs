//! `check --against FILE`: rebuild the manifest of `snapshot` and compare
//! it with a saved one (SPEC §2.9). Equal → exit 0; different → exit 1
//! with one line per difference, at the level of prefix, message, rule
//! and command; a file that is not a manifest → exit 2.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::adapters::trust::Trust;
use crate::cli::config::read_option_file;
use crate::cli::context::{Context, Format};
use crate::cli::error::{CliError, Status};
use crate::cli::manifest::{
    CommandDigest, ContextArgs, Manifest, MessageDigest, PartDigest, RuleDigest, SNAPSHOT_SCHEMA,
    build_manifest,
};
use crate::cli::output::{self, DocHead};
use crate::diagnostic::Diagnostic;
use crate::limits::MAX_SNAPSHOT_FILE_BYTES;

/// Arguments of `check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The manifest to compare with, as printed by `snapshot`; `-` reads stdin
    #[arg(long, value_name = "FILE")]
    pub against: PathBuf,

    /// The options that change the manifest, as for `snapshot`.
    #[command(flatten)]
    pub context: ContextArgs,
}

/// What happened to one part of the context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// It is new.
    Added,
    /// It is gone.
    Removed,
    /// Its content or source differs.
    Changed,
    /// The same parts, in another order.
    Reordered,
}

impl Change {
    fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
            Change::Reordered => "reordered",
        }
    }
}

/// One difference between the saved manifest and the current context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Difference {
    /// `agent`, `at`, `prefix`, `messages`, `instructions`,
    /// `rules message`, `soul`, `memory index`, `user model`,
    /// `skills listing`, `rule`, `rules`, `part`, `parts`, `command` or
    /// `commands`.
    pub section: String,
    /// The rule or command name.
    pub name: Option<String>,
    /// What happened.
    pub change: Change,
    /// Sizes, sources, or what changed in a rule.
    pub detail: Option<String>,
}

impl Difference {
    fn new(section: &str, name: Option<&str>, change: Change, detail: Option<String>) -> Self {
        Self {
            section: section.to_string(),
            name: name.map(str::to_string),
            change,
            detail,
        }
    }

    /// The report line: `SECTION [NAME] CHANGE[: DETAIL]`.
    fn line(&self) -> String {
        let mut line = self.section.clone();
        if let Some(name) = &self.name {
            line.push(' ');
            line.push_str(name);
        }
        line.push(' ');
        line.push_str(self.change.as_str());
        if let Some(detail) = &self.detail {
            line.push_str(": ");
            line.push_str(detail);
        }
        line
    }
}

fn sizes(before: usize, after: usize) -> String {
    format!("{before} → {after} bytes")
}

/// Differences of two keyed lists: removed and changed in the saved order,
/// then added in the current order, then `Reordered` when the common keys
/// appear in another order.
fn keyed<T>(
    saved: &[T],
    current: &[T],
    key: impl Fn(&T) -> &str,
    mut changed: impl FnMut(&T, &T) -> Option<Difference>,
    mut gone_or_new: impl FnMut(&T, Change) -> Difference,
    list_name: &str,
) -> Vec<Difference> {
    let find = |list: &'_ [T], k: &str| list.iter().position(|item| key(item) == k);
    let mut out = Vec::new();
    for old in saved {
        match find(current, key(old)) {
            None => out.push(gone_or_new(old, Change::Removed)),
            Some(i) => out.extend(changed(old, &current[i])),
        }
    }
    for new in current.iter().filter(|new| find(saved, key(new)).is_none()) {
        out.push(gone_or_new(new, Change::Added));
    }
    let common = |a: &[T], b: &[T]| -> Vec<String> {
        a.iter()
            .filter(|item| find(b, key(item)).is_some())
            .map(|item| key(item).to_string())
            .collect()
    };
    if common(saved, current) != common(current, saved) {
        out.push(Difference::new(list_name, None, Change::Reordered, None));
    }
    out
}

fn message_differences(saved: &[MessageDigest], current: &[MessageDigest]) -> Vec<Difference> {
    keyed(
        saved,
        current,
        |m| m.provenance.as_str(),
        |old, new| {
            (old != new).then(|| {
                Difference::new(
                    old.provenance.title(),
                    None,
                    Change::Changed,
                    Some(sizes(old.bytes, new.bytes)),
                )
            })
        },
        |m, change| Difference::new(m.provenance.title(), None, change, None),
        "messages",
    )
}

/// What differs in a rule: its source, its globs, its body, and the size.
fn rule_change(old: &RuleDigest, new: &RuleDigest) -> Option<Difference> {
    if old == new {
        return None;
    }
    let mut what = Vec::new();
    if old.source != new.source {
        what.push(format!("source {} → {}", old.source, new.source));
    } else if old.origin != new.origin {
        what.push(format!("origin {} → {}", old.origin, new.origin));
    }
    if old.paths != new.paths {
        what.push("paths".to_string());
    } else if old.sha256 != new.sha256 {
        what.push("body".to_string());
    }
    if old.bytes != new.bytes {
        what.push(sizes(old.bytes, new.bytes));
    }
    Some(Difference::new(
        "rule",
        Some(&old.name),
        Change::Changed,
        Some(what.join(", ")),
    ))
}

fn command_change(old: &CommandDigest, new: &CommandDigest) -> Option<Difference> {
    let detail = if old.source != new.source {
        format!("source {} → {}", old.source, new.source)
    } else {
        old.source.clone()
    };
    (old != new).then(|| Difference::new("command", Some(&old.name), Change::Changed, Some(detail)))
}

/// What differs in a part: its scope or kind, its content, and the size.
fn part_change(old: &PartDigest, new: &PartDigest) -> Option<Difference> {
    if old == new {
        return None;
    }
    let mut what = Vec::new();
    if (old.scope, old.kind) != (new.scope, new.kind) {
        what.push(format!(
            "{} {} → {} {}",
            old.scope.as_str(),
            old.kind.as_str(),
            new.scope.as_str(),
            new.kind.as_str()
        ));
    }
    if old.sha256 != new.sha256 {
        what.push(sizes(old.bytes, new.bytes));
    }
    Some(Difference::new(
        "part",
        Some(&old.path),
        Change::Changed,
        Some(what.join(", ")),
    ))
}

/// The items of a section a manifest may leave out (empty when it does).
fn list<T>(items: &Option<Vec<T>>) -> &[T] {
    items.as_deref().unwrap_or_default()
}

/// `before → after` for a changed setting.
fn change_of(section: &str, before: &str, after: &str) -> Difference {
    Difference::new(
        section,
        None,
        Change::Changed,
        Some(format!("{before} → {after}")),
    )
}

/// Every difference between the saved manifest and the current one. A
/// message's own line is left out when rule or part lines explain it.
pub fn differences(saved: &Manifest, current: &Manifest) -> Vec<Difference> {
    let mut out = Vec::new();
    if saved.agent != current.agent {
        out.push(change_of(
            "agent",
            saved.agent.as_str(),
            current.agent.as_str(),
        ));
    }
    if saved.at != current.at {
        let at = |at: &Option<String>| at.clone().unwrap_or_else(|| "(none)".to_string());
        out.push(change_of("at", &at(&saved.at), &at(&current.at)));
    }
    match (&saved.prefix, &current.prefix) {
        (Some(old), Some(new)) if old != new => out.push(Difference::new(
            "prefix",
            None,
            Change::Changed,
            Some(sizes(old.bytes, new.bytes)),
        )),
        (Some(_), None) => out.push(Difference::new("prefix", None, Change::Removed, None)),
        (None, Some(_)) => out.push(Difference::new("prefix", None, Change::Added, None)),
        _ => {}
    }
    let rules = keyed(
        list(&saved.rules),
        list(&current.rules),
        |r| r.name.as_str(),
        rule_change,
        |r, change| Difference::new("rule", Some(&r.name), change, Some(r.source.clone())),
        "rules",
    );
    let parts = keyed(
        list(&saved.parts),
        list(&current.parts),
        |p| p.path.as_str(),
        part_change,
        |p, change| Difference::new("part", Some(&p.path), change, Some(sizes_of(p.bytes))),
        "parts",
    );
    out.extend(
        message_differences(&saved.messages, &current.messages)
            .into_iter()
            .filter(|d| {
                let explained =
                    !parts.is_empty() || (!rules.is_empty() && d.section == "rules message");
                !explained || d.change != Change::Changed
            }),
    );
    out.extend(rules);
    out.extend(parts);
    out.extend(keyed(
        list(&saved.commands),
        list(&current.commands),
        |c| c.name.as_str(),
        command_change,
        |c, change| Difference::new("command", Some(&c.name), change, Some(c.source.clone())),
        "commands",
    ));
    if out.is_empty() && saved != current {
        // Only a hand-edited manifest (a repeated name) gets here.
        out.push(Difference::new("manifest", None, Change::Changed, None));
    }
    out
}

fn sizes_of(bytes: usize) -> String {
    format!("{bytes} bytes")
}

/// Reads and parses the saved manifest; anything but a snapshot-v1
/// manifest is an error (exit 2).
fn read_manifest(ctx: &Context, path: &std::path::Path) -> Result<Manifest, CliError> {
    let bytes = read_option_file(ctx, "--against", path, MAX_SNAPSHOT_FILE_BYTES)?;
    let fail = |what: String| CliError::Message(format!("--against {}: {what}", path.display()));
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|err| fail(format!("not JSON: {err}")))?;
    match value.get("schema").and_then(|s| s.as_str()) {
        Some(SNAPSHOT_SCHEMA) => {}
        Some(other) => {
            return Err(fail(format!(
                "schema is {other:?}, expected {SNAPSHOT_SCHEMA:?}"
            )));
        }
        None => {
            return Err(fail(format!(
                "not a {SNAPSHOT_SCHEMA} manifest (no schema)"
            )));
        }
    }
    serde_json::from_value(value).map_err(|err| fail(format!("malformed manifest: {err}")))
}

/// The JSON document of `check`: whether the current context matches the
/// saved manifest, and every difference.
#[derive(Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub(crate) struct CheckDocument<'a> {
    #[serde(flatten)]
    head: DocHead<'a>,
    against: String,
    matches: bool,
    differences: &'a [Difference],
    diagnostics: &'a [Diagnostic],
    trust: Trust,
}

/// Runs `check`.
pub fn run(ctx: &Context, args: &CheckArgs) -> Result<Status, CliError> {
    ctx.require_text_or_json("check")?;
    let saved = read_manifest(ctx, &args.against)?;
    let (current, diagnostics) = build_manifest(ctx, &args.context)?;
    output::print_diagnostics(ctx, &diagnostics);
    let found = differences(&saved, &current);
    let against = args.against.display().to_string();
    let matches = found.is_empty();
    match ctx.format {
        Format::Json => output::print_json(&CheckDocument {
            head: DocHead::of(ctx),
            against,
            matches,
            differences: &found,
            diagnostics: &diagnostics,
            trust: ctx.trust,
        })?,
        _ if matches => output::print_text(&format!("the context matches {against}"))?,
        _ => {
            let mut text = format!("the context differs from {against}:");
            for difference in &found {
                text.push_str("\n  ");
                text.push_str(&difference.line());
            }
            output::print_text(&text)?;
        }
    }
    Ok(if matches {
        Status::Success
    } else {
        Status::CheckFailed
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::manifest::Digest;
    use crate::prompt::profile::{Agent, PartKind, Scope};

    fn digest(sha: &str, bytes: usize) -> Digest {
        Digest {
            sha256: sha.into(),
            bytes,
        }
    }

    fn message(provenance: &str, sha: &str, bytes: usize) -> MessageDigest {
        MessageDigest {
            provenance: serde_json::from_value(provenance.into()).unwrap(),
            sha256: sha.into(),
            bytes,
        }
    }

    fn rule(name: &str, source: &str, sha: &str, bytes: usize) -> RuleDigest {
        RuleDigest {
            name: name.into(),
            origin: "project".into(),
            source: source.into(),
            paths: vec![],
            sha256: sha.into(),
            bytes,
        }
    }

    fn command(name: &str, sha: &str) -> CommandDigest {
        CommandDigest {
            name: name.into(),
            source: format!(".mecatl/commands/{name}.md"),
            sha256: sha.into(),
        }
    }

    fn manifest() -> Manifest {
        Manifest {
            schema: SNAPSHOT_SCHEMA.into(),
            agent: Agent::Mecatl,
            at: None,
            prefix: Some(digest("p", 100)),
            messages: vec![message("project", "a", 10), message("rules", "r", 50)],
            parts: None,
            rules: Some(vec![
                rule("api", ".mecatl/rules/api.md", "1", 20),
                rule("go", ".claude/rules/go.md", "2", 20),
            ]),
            commands: Some(vec![command("fix", "f"), command("review", "v")]),
        }
    }

    fn lines(saved: &Manifest, current: &Manifest) -> Vec<String> {
        differences(saved, current)
            .iter()
            .map(Difference::line)
            .collect()
    }

    #[test]
    fn equal_manifests_have_no_differences() {
        assert!(lines(&manifest(), &manifest()).is_empty());
    }

    #[test]
    fn each_section_reports_by_name() {
        let saved = manifest();
        let mut current = manifest();
        current.prefix = Some(digest("q", 104));
        current.messages[0] = message("project", "b", 12);
        current.messages[1] = message("rules", "s", 60);
        current.messages.push(message("soul", "s", 5));
        let rules = current.rules.as_mut().unwrap();
        rules[0] = rule("api", ".mecatl/rules/api.md", "9", 22);
        rules[1] = rule("go", ".mecatl/rules/go.md", "2", 20);
        rules.push(rule("new", ".claude/rules/new.md", "3", 9));
        let commands = current.commands.as_mut().unwrap();
        commands.remove(0);
        commands[0].sha256 = "w".into();
        commands.push(command("ship", "s"));
        assert_eq!(
            lines(&saved, &current),
            [
                "prefix changed: 100 → 104 bytes",
                "instructions changed: 10 → 12 bytes",
                "soul added",
                "rule api changed: body, 20 → 22 bytes",
                "rule go changed: source .claude/rules/go.md → .mecatl/rules/go.md",
                "rule new added: .claude/rules/new.md",
                "command fix removed: .mecatl/commands/fix.md",
                "command review changed: .mecatl/commands/review.md",
                "command ship added: .mecatl/commands/ship.md",
            ]
        );
    }

    #[test]
    fn a_rules_message_change_without_rule_changes_is_reported() {
        let saved = manifest();
        let mut current = manifest();
        current.messages[1] = message("rules", "s", 60);
        assert_eq!(
            lines(&saved, &current),
            ["rules message changed: 50 → 60 bytes"]
        );
    }

    fn part(path: &str, sha: &str, bytes: usize) -> PartDigest {
        PartDigest {
            path: path.into(),
            scope: Scope::Project,
            kind: PartKind::Instructions,
            sha256: sha.into(),
            bytes,
        }
    }

    fn profile_manifest() -> Manifest {
        Manifest {
            agent: Agent::Codex,
            at: Some("sub".into()),
            prefix: None,
            messages: vec![message("instructions", "m", 30)],
            parts: Some(vec![
                part("~/.codex/AGENTS.md", "g", 10),
                part("AGENTS.md", "a", 10),
                part("sub/AGENTS.md", "s", 6),
            ]),
            rules: None,
            commands: None,
            ..manifest()
        }
    }

    #[test]
    fn profile_parts_report_by_path_and_explain_the_message() {
        let saved = profile_manifest();
        let mut current = profile_manifest();
        current.messages[0] = message("instructions", "n", 31);
        let parts = current.parts.as_mut().unwrap();
        parts[1] = part("AGENTS.md", "b", 11);
        parts[2].scope = Scope::Parent;
        parts.remove(0);
        parts.push(part("sub/deep/AGENTS.md", "d", 4));
        assert_eq!(
            lines(&saved, &current),
            [
                "part ~/.codex/AGENTS.md removed: 10 bytes",
                "part AGENTS.md changed: 10 → 11 bytes",
                "part sub/AGENTS.md changed: project instructions → parent instructions",
                "part sub/deep/AGENTS.md added: 4 bytes",
            ]
        );
    }

    #[test]
    fn another_profile_or_start_directory_is_a_difference() {
        let mut current = profile_manifest();
        current.at = Some(".".into());
        assert_eq!(
            lines(&profile_manifest(), &current),
            ["at changed: sub → ."]
        );
        assert_eq!(
            lines(&manifest(), &profile_manifest())[..4],
            [
                "agent changed: mecatl → codex",
                "at changed: (none) → sub",
                "prefix removed",
                "instructions removed",
            ]
        );
    }

    #[test]
    fn reordering_is_reported() {
        let saved = manifest();
        let mut current = manifest();
        current.messages.reverse();
        assert_eq!(lines(&saved, &current), ["messages reordered"]);
    }
}
