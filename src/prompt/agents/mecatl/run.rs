//! The mecatl profile's run: the engine's own turn 0 (SPEC §6.1) in the
//! profile vocabulary, so that `compare` (SPEC §15.1) can set it beside
//! Claude Code and Codex. The messages are the engine's, assembled by the
//! pipeline the composition root hands in ([`Setup::engine`]); this module
//! only maps the report's typed facts onto parts and files not loaded.
//!
//! Choices the spec leaves open:
//! - The engine's turn 0 is every source with its defaults: what
//!   `assemble` prints without options. The engine has no working
//!   directory of an agent's: it reads the workspace root whatever `--at`
//!   says.
//! - A part is one file's own content, as under the other profiles: the
//!   project instructions without the engine's header line and cut marker
//!   (`cut` says what the cap left out), each rule's body without its
//!   `<rule>` block. The engine's framing stays in the message's `text`,
//!   as Codex's marker line does. The soul, memory index and user model
//!   are made by the engine rather than copied from one file: their part
//!   is the whole message.
//! - A file's scope: a rule's follows its origin (the user's directories
//!   and a driver are `user`); any other file's follows its name, since the
//!   readers name workspace files relative and every other file absolute
//!   (the engine reads nothing above the workspace).
//! - The root instruction file the engine never opens because the other
//!   one was used (`CLAUDE.md` beside a non-blank `AGENTS.md`) is reported
//!   shadowed when it exists, from a lookup that does not read it.

use crate::prompt::agents::mecatl::SPEC;
use crate::prompt::instructions::INSTRUCTION_FILES;
use crate::prompt::profile::catalog::Catalog;
use crate::prompt::profile::seam::{ProfileError, ProfileRun, Setup, touch_adds_nothing_for};
use crate::prompt::profile::{
    Cut, NotLoaded, NotLoadedReason, Part, PartKind, ProfileMessage, ProfileTurn0, Scope, Searched,
    SearchedDir,
};
use crate::prompt::rules::{RuleOrigin, ShownRule};
use crate::prompt::turn0::{
    AssembledMessage, LeftOut, LeftOutReason, Provenance, Rejection, Turn0Report,
};
use crate::workspace::{EntryKind, Workspace};

/// The engine over one workspace.
pub(super) struct MecatlRun<'a> {
    pub(super) setup: &'a Setup<'a>,
}

impl ProfileRun for MecatlRun<'_> {
    /// The engine's turn 0 for this run as a profile's: its messages with
    /// one part per file, what its sources left out, and `--touch` (which
    /// adds nothing).
    fn turn0(&self) -> Result<ProfileTurn0, ProfileError> {
        turn0(self.setup)
    }

    /// The engine's command directories, as the composition root built
    /// them.
    fn catalog(&self) -> Result<Box<dyn Catalog + '_>, ProfileError> {
        Ok((self.setup.engine_catalog)())
    }
}

fn turn0(setup: &Setup<'_>) -> Result<ProfileTurn0, ProfileError> {
    let report = (setup.engine)()?;
    let shadowed = shadowed_root_file(&*setup.project, &report);
    let Turn0Report {
        messages,
        left_out,
        diagnostics,
    } = report;
    let mut turn0 = ProfileTurn0 {
        messages: messages.into_iter().map(message).collect(),
        touch: Vec::new(),
        not_loaded: left_out
            .iter()
            .map(NotLoaded::from)
            .chain(shadowed)
            .collect(),
        diagnostics,
        searched: searched(&*setup.project),
        // The engine's rules are `rules list`'s own; under compare they are
        // parts and files not loaded like any other.
        rules: Vec::new(),
        // The engine reads no subagent, MCP or hook configuration.
        subagents: Vec::new(),
        output_style: None,
        mcp_servers: Vec::new(),
        hooks: Vec::new(),
    };
    touch_adds_nothing_for(&SPEC, setup.touch, &mut turn0);
    Ok(turn0)
}

/// One engine message as a profile message: its parts (see the module
/// doc) and its exact text.
fn message(assembled: AssembledMessage) -> ProfileMessage {
    let AssembledMessage {
        provenance,
        message,
        source,
        content,
        omitted,
        rules,
    } = assembled;
    let path = source.unwrap_or_else(|| provenance.as_str().to_string());
    let parts = match provenance {
        Provenance::Rules => rules.into_iter().map(rule_part).collect(),
        _ => {
            let body = content
                .and_then(|span| message.text.get(span))
                .unwrap_or(&message.text);
            vec![Part {
                scope: scope_of(&path),
                kind: kind_of(provenance),
                imported_by: None,
                cut: omitted.map(|omitted| Cut {
                    kept: body.len() as u64,
                    omitted,
                }),
                content: body.to_string(),
                path,
            }]
        }
    };
    ProfileMessage::with_text(provenance, parts, message.text)
}

/// A rule the rules message shows, as a part holding its body.
fn rule_part(shown: ShownRule) -> Part {
    let scope = match shown.rule.origin {
        RuleOrigin::Project => Scope::Project,
        RuleOrigin::User | RuleOrigin::Driver => Scope::User,
    };
    Part {
        path: shown.source.unwrap_or(shown.rule.name),
        scope,
        kind: PartKind::Rule,
        imported_by: None,
        content: shown.rule.body,
        cut: None,
    }
}

/// The kind of the part a one-file message of `provenance` makes.
fn kind_of(provenance: Provenance) -> PartKind {
    match provenance {
        Provenance::Project
        | Provenance::Instructions
        | Provenance::UserInstructions
        | Provenance::Unknown => PartKind::Instructions,
        Provenance::Rules => PartKind::Rule,
        Provenance::Soul => PartKind::Soul,
        Provenance::Memory => PartKind::MemoryIndex,
        Provenance::UserModel => PartKind::UserModel,
        Provenance::Skills => PartKind::Skills,
        Provenance::Agents => PartKind::Subagent,
        Provenance::OutputStyle => PartKind::OutputStyle,
    }
}

/// A file's scope from its name (see the module doc).
fn scope_of(path: &str) -> Scope {
    if path.starts_with('/') {
        Scope::User
    } else {
        Scope::Project
    }
}

/// What a source of the engine left out, in the profile vocabulary.
impl From<&LeftOut> for NotLoaded {
    fn from(fact: &LeftOut) -> Self {
        let path = fact
            .source
            .clone()
            .or_else(|| fact.name.clone())
            .unwrap_or_else(|| fact.provenance.as_str().to_string());
        let reason = match &fact.reason {
            LeftOutReason::Withheld => NotLoadedReason::Withheld,
            LeftOutReason::DroppedAtCap => NotLoadedReason::PastCap,
            LeftOutReason::Rejected(rejection) if **rejection == Rejection::Blank => {
                NotLoadedReason::Blank
            }
            LeftOutReason::Rejected(rejection) => NotLoadedReason::Unusable(rejection.to_string()),
            LeftOutReason::Unreadable { cause } => NotLoadedReason::Unusable(cause.clone()),
            LeftOutReason::NotFound => NotLoadedReason::Missing,
        };
        NotLoaded {
            scope: scope_of(&path),
            path,
            reason,
        }
    }
}

/// The root instruction files after the one the engine used that exist,
/// shadowed by it (looked up, never read).
fn shadowed_root_file(project: &dyn Workspace, report: &Turn0Report) -> Vec<NotLoaded> {
    let Some(used) = report
        .message(Provenance::Project)
        .and_then(|message| message.source.as_deref())
    else {
        return Vec::new();
    };
    INSTRUCTION_FILES
        .iter()
        .skip_while(|name| project.display(name) != used)
        .skip(1)
        .filter(|name| matches!(project.stat(name), Ok(EntryKind::File)))
        .map(|name| NotLoaded {
            path: project.display(name),
            scope: Scope::Project,
            reason: NotLoadedReason::Shadowed {
                by: used.to_string(),
            },
        })
        .collect()
}

/// Where the engine looks for instructions: the workspace root.
fn searched(project: &dyn Workspace) -> Searched {
    Searched {
        rule: format!(
            "the engine reads the first non-blank of {} at the workspace root",
            INSTRUCTION_FILES.join(", ")
        ),
        dirs: vec![SearchedDir {
            dir: project.display(""),
            scope: Scope::Project,
            names: INSTRUCTION_FILES.map(str::to_string).to_vec(),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::rules::Rule;
    use crate::prompt::turn0::Message;
    use crate::workspace::MemWorkspace;

    #[test]
    fn the_instructions_part_is_the_file_content_and_the_cut_says_what_the_cap_left_out() {
        let text = "Project instructions (AGENTS.md):\n\nBODY\n\n[truncated: 9 bytes omitted]";
        let mut assembled = AssembledMessage::new(
            Provenance::Project,
            Message::user(text),
            Some("AGENTS.md".into()),
        );
        let header = "Project instructions (AGENTS.md):\n\n".len();
        assembled.content = Some(header..header + 4);
        assembled.omitted = Some(9);
        let profile = message(assembled);
        assert_eq!(profile.text, text, "the message keeps the engine's framing");
        assert_eq!(
            profile.parts,
            [Part {
                path: "AGENTS.md".into(),
                scope: Scope::Project,
                kind: PartKind::Instructions,
                imported_by: None,
                content: "BODY".into(),
                cut: Some(Cut {
                    kept: 4,
                    omitted: 9
                }),
            }]
        );
    }

    #[test]
    fn the_rules_message_is_one_part_per_rule_body_and_whole_messages_keep_their_text() {
        let shown = |name: &str, origin, source: Option<&str>| ShownRule {
            rule: Rule {
                name: name.into(),
                body: format!("{name} body"),
                paths: Vec::new(),
                origin,
            },
            source: source.map(str::to_string),
            truncated: false,
        };
        let mut rules = AssembledMessage::new(Provenance::Rules, Message::user("RULES"), None);
        rules.rules = vec![
            shown("a", RuleOrigin::Project, Some(".claude/rules/a.md")),
            shown("b", RuleOrigin::User, Some("/h/.claude/rules/b.md")),
            shown("c", RuleOrigin::Driver, None),
        ];
        let profile = message(rules);
        let parts: Vec<(&str, Scope, &str)> = profile
            .parts
            .iter()
            .map(|p| (p.path.as_str(), p.scope, p.content.as_str()))
            .collect();
        assert_eq!(
            parts,
            [
                (".claude/rules/a.md", Scope::Project, "a body"),
                ("/h/.claude/rules/b.md", Scope::User, "b body"),
                ("c", Scope::User, "c body"),
            ]
        );
        assert_eq!(profile.text, "RULES");
        let soul = message(AssembledMessage::new(
            Provenance::Soul,
            Message::user("SOUL"),
            Some("/c/mecatl/soul.md".into()),
        ));
        assert_eq!(
            (
                soul.parts[0].kind,
                soul.parts[0].scope,
                soul.parts[0].content.as_str()
            ),
            (PartKind::Soul, Scope::User, "SOUL")
        );
    }

    #[test]
    fn left_out_facts_keep_their_reason() {
        let fact = |source: &str, reason| LeftOut {
            provenance: Provenance::Rules,
            name: Some("n".into()),
            source: Some(source.into()),
            reason,
        };
        let reasons: Vec<(String, Scope, String)> = [
            fact(".mecatl/rules/a.md", LeftOutReason::Withheld),
            fact("/h/rules/b.md", LeftOutReason::DroppedAtCap),
            fact("AGENTS.md", LeftOutReason::rejected(Rejection::Blank)),
            fact(
                "c.md",
                LeftOutReason::Unreadable {
                    cause: "denied".into(),
                },
            ),
            fact("/s.md", LeftOutReason::NotFound),
        ]
        .iter()
        .map(NotLoaded::from)
        .map(|n| (n.path, n.scope, n.reason.phrase()))
        .collect();
        let expected = [
            (".mecatl/rules/a.md", Scope::Project, "withheld: untrusted"),
            (
                "/h/rules/b.md",
                Scope::User,
                "dropped at the rules message's cap",
            ),
            ("AGENTS.md", Scope::Project, "blank"),
            ("c.md", Scope::Project, "cannot be used: denied"),
            ("/s.md", Scope::User, "not found"),
        ]
        .map(|(p, s, r)| (p.to_string(), s, r.to_string()));
        assert_eq!(reasons, expected);
    }

    #[test]
    fn claude_md_beside_the_agents_md_used_is_shadowed_and_not_read() {
        let ws = MemWorkspace::new()
            .file("AGENTS.md", "A")
            .file("CLAUDE.md", "C");
        let mut report = Turn0Report::default();
        report.messages.push(AssembledMessage::new(
            Provenance::Project,
            Message::user("x"),
            Some("AGENTS.md".into()),
        ));
        let shadowed = shadowed_root_file(&ws, &report);
        assert_eq!(
            shadowed,
            [NotLoaded {
                path: "CLAUDE.md".into(),
                scope: Scope::Project,
                reason: NotLoadedReason::Shadowed {
                    by: "AGENTS.md".into()
                },
            }]
        );
        let claude_used = {
            let mut report = Turn0Report::default();
            report.messages.push(AssembledMessage::new(
                Provenance::Project,
                Message::user("x"),
                Some("CLAUDE.md".into()),
            ));
            report
        };
        assert!(shadowed_root_file(&ws, &claude_used).is_empty());
        let only_agents = MemWorkspace::new().file("AGENTS.md", "A");
        assert!(shadowed_root_file(&only_agents, &report).is_empty());
        assert!(shadowed_root_file(&ws, &Turn0Report::default()).is_empty());
    }
}
