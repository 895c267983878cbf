//! Replays `tests/oracle/cases/claude-commands/`: what Claude Code 2.1.328
//! sent for a slash command or skill, and the custom entries of its skills
//! listing, against the Claude dialect (`claude_dialect`) and listing rules
//! (`claude_listing`) applied to the same files.
//!
//! Which file Claude Code used for a name is [`winner`]'s answer: today the
//! precedence the fixtures show, written out here; once the Claude profile
//! resolves names, [`winner`] asks the profile instead and the same
//! comparisons check its resolution too. The listing is compared entry by
//! entry in the captured order; [`profile_listing_order`] is where the
//! profile's group order will be checked.

use std::path::{Path, PathBuf};

use mecatl_prompt::limits;
use mecatl_prompt::prompt::command::claude_dialect::{self, Context};
use mecatl_prompt::prompt::command::claude_listing::{self, Kind, ListingEntry, Reserved};
use serde_json::{Map, Value};

use super::{Fixture, cases};

/// The listing budget of the model the fixtures were captured with (Claude
/// Opus 5.5 as Claude Code 2.1.328 counts it), when a case sets none:
/// `listing-many-entries` places it between 29,963 and 30,153.
const CAPTURED_MODEL_BUDGET: usize = 30_000;

/// A command or skill file that provides a name.
#[derive(Debug)]
struct Source {
    kind: Kind,
    /// The file.
    path: PathBuf,
}

/// The file Claude Code used for `name` in `fixture`: a skill before a
/// command; the user's before the project's; the cwd's before its
/// ancestors' (inside the workspace). This is the function the Claude
/// profile's resolution replaces.
fn winner(fixture: &Fixture, name: &str) -> Option<Source> {
    let mut chain = vec![fixture.workspace.clone()];
    let at = fixture.at();
    for part in Path::new(&at).components() {
        if let std::path::Component::Normal(part) = part {
            let next = chain[chain.len() - 1].join(part);
            chain.push(next);
        }
    }
    let user = fixture.home.join(".claude");
    let roots: Vec<PathBuf> = std::iter::once(user)
        .chain(chain.iter().rev().map(|dir| dir.join(".claude")))
        .collect();
    let skills = roots.iter().map(|root| Source {
        kind: Kind::Skill,
        path: root.join("skills").join(name).join("SKILL.md"),
    });
    let rel = format!("{}.md", name.replace(':', "/"));
    let commands = roots.iter().map(|root| Source {
        kind: Kind::Command,
        path: root.join("commands").join(&rel),
    });
    skills.chain(commands).find(|s| s.path.is_file())
}

/// The hook for the profile's listing: once the Claude profile lists
/// commands and skills, assert here that its entries, in its group order,
/// are `captured` (names as listed). Until then the order is taken from the
/// capture, and this checks only what needs no profile: every listed name
/// has a file.
fn profile_listing_order(fixture: &Fixture, captured: &[String]) {
    for name in captured {
        assert!(
            winner(fixture, name).is_some(),
            "{}: no file for {name}",
            fixture.name()
        );
    }
}

/// The hook for the preview's `` !`cmd` `` placeholders (SPEC §14.5): Claude
/// Code ran the commands (`captured` shows their output); the dialect never
/// runs anything, so `rendered` still holds each command as written. When
/// the preview replaces them with placeholders, check those here instead.
fn check_shell_placeholders(fixture: &Fixture, captured: &str, rendered: &str) {
    for (command, output) in [
        ("!`echo hi-from-bang`", "hi-from-bang"),
        ("```!\necho fenced-bang\n```", "fenced-bang"),
    ] {
        assert!(
            captured.contains(output) && !captured.contains(command),
            "{}",
            fixture.name()
        );
        assert!(
            rendered.contains(command),
            "{}: {rendered:?}",
            fixture.name()
        );
    }
}

/// The frontmatter keys Claude Code reads from `raw`
/// ([`claude_dialect::read_frontmatter`]).
fn frontmatter(raw: &str) -> Map<String, Value> {
    claude_dialect::read_frontmatter(raw)
        .entries
        .into_iter()
        .map(|entry| (entry.key, entry.value))
        .collect()
}

/// A frontmatter value as Claude Code turns it into text: strings trimmed,
/// numbers and booleans spelled out; blank or other values are none.
fn text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn expansions_match_claude_code() {
    let mut replayed = 0;
    for case_dir in cases("claude-commands") {
        let fixture = Fixture::load(&case_dir);
        let Some(command) = fixture.expected["command"].as_object() else {
            continue;
        };
        let name = command["name"].as_str().expect("command name");
        let args = command["args"].as_str().unwrap_or_default();
        let captured = fixture.expected["expansion"].as_str().expect("expansion");
        let source = winner(&fixture, name)
            .unwrap_or_else(|| panic!("{}: no file for /{name}", fixture.name()));
        let raw = read(&source.path);
        let names = claude_dialect::read_frontmatter(&raw).argument_names();
        let skill_dir = source
            .path
            .parent()
            .expect("skill dir")
            .display()
            .to_string();
        let project_dir = fixture.cwd.display().to_string();
        let context = Context {
            skill_dir: (source.kind == Kind::Skill).then_some(skill_dir.as_str()),
            project_dir: Some(&project_dir),
            argument_names: &names,
        };
        let rendered = claude_dialect::render(&raw, args, &context);
        assert_eq!(rendered.truncated_at, None, "{}", fixture.name());
        let shell = claude_dialect::shell_commands(claude_dialect::strip_frontmatter(&raw));
        if !shell.is_empty() {
            // Every command the detector finds is one Claude Code ran: its
            // `echo` output is in the capture, the command is not.
            for found in &shell {
                let output = found.command.strip_prefix("echo ").expect("an echo");
                assert!(
                    captured.contains(output) && !captured.contains(&found.command),
                    "{}: {found:?}",
                    fixture.name()
                );
            }
            check_shell_placeholders(&fixture, captured, &rendered.text);
        } else {
            assert_eq!(rendered.text, captured, "{}", fixture.name());
        }
        for attachment in fixture.expected["attachments"]
            .as_array()
            .expect("attachments")
        {
            let path = Path::new(attachment.as_str().expect("attachment path"));
            assert!(
                path.starts_with(&fixture.workspace) && path.is_file(),
                "{}: {path:?}",
                fixture.name()
            );
        }
        replayed += 1;
    }
    assert!(replayed >= 40, "only {replayed} expansions replayed");
}

#[test]
fn listings_match_claude_code() {
    let mut shrunk_cases = 0;
    for case_dir in cases("claude-commands") {
        let fixture = Fixture::load(&case_dir);
        let captured: Vec<String> = fixture.expected["listing"]
            .as_array()
            .expect("listing")
            .iter()
            .map(|e| e.as_str().expect("entry").to_string())
            .collect();
        let names: Vec<String> = captured
            .iter()
            .map(|e| {
                let shown = e[2..].split(": ").next().unwrap_or_default();
                shown.split(" (").next().unwrap_or(shown).to_string()
            })
            .collect();
        profile_listing_order(&fixture, &names);
        let entries: Vec<ListingEntry> = names.iter().map(|name| entry(&fixture, name)).collect();
        let budget = match fixture.case["env"]["SLASH_COMMAND_TOOL_CHAR_BUDGET"].as_str() {
            Some(value) => {
                claude_listing::budget(limits::DEFAULT_CONTEXT_WINDOW_TOKENS, Some(value))
            }
            None => CAPTURED_MODEL_BUDGET,
        };
        let others = &fixture.expected["listing_others"];
        let count = |key: &str| usize::try_from(others[key].as_u64().expect(key)).expect(key);
        let reserved = Reserved {
            entries: count("entries"),
            width: count("width"),
        };
        let fitted = claude_listing::fit(&entries, budget, reserved);
        assert_eq!(fitted.lines, captured, "{}", fixture.name());
        if fitted.shrunk > 0 {
            shrunk_cases += 1;
        }
    }
    assert!(
        shrunk_cases >= 4,
        "only {shrunk_cases} cases shrink entries"
    );
}

/// The listing entry of `name`, from the file that provides it.
fn entry(fixture: &Fixture, name: &str) -> ListingEntry {
    let source = winner(fixture, name).expect("listed name has a file");
    let raw = read(&source.path);
    let keys = frontmatter(&raw);
    let description = text(keys.get("description")).unwrap_or_else(|| {
        claude_listing::line_description(claude_dialect::strip_frontmatter(&raw), source.kind)
    });
    let when = text(keys.get("when_to_use"));
    let declared = text(keys.get("name"));
    ListingEntry {
        name: claude_listing::entry_name(name, declared.as_deref()),
        description: claude_listing::entry_description(&description, when.as_deref()),
    }
}
