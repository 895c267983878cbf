//! The turn-0 predicate (SPEC §6.7): recognises text this crate injected as
//! a turn-0 message, so a host can tell it from what the user typed.

use crate::prompt::instructions::PROJECT_INSTRUCTIONS_PREFIX;
use crate::prompt::memory_index::MEMORY_INDEX_HEADER;
use crate::prompt::rules::RULES_HEADER;
use crate::prompt::soul::SOUL_HEADER;
use crate::prompt::user_model::USER_MODEL_HEADER;

/// The fixed beginnings of our turn-0 messages: the project-instructions
/// prefix and the rules, soul, memory-index and user-model headers.
pub const TURN0_HEADERS: &[&str] = &[
    PROJECT_INSTRUCTIONS_PREFIX,
    RULES_HEADER,
    SOUL_HEADER,
    MEMORY_INDEX_HEADER,
    USER_MODEL_HEADER,
];

/// True exactly for a text that begins with one of [`TURN0_HEADERS`].
pub fn is_injected_turn0_fragment(text: &str) -> bool {
    TURN0_HEADERS.iter().any(|header| text.starts_with(header))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::instructions::RootAssembler;
    use crate::prompt::memory_index::{MemoryEntry, render_memory_index};
    use crate::prompt::rules::{Rule, RuleOrigin, render_rules_message};
    use crate::prompt::soul::render_soul;
    use crate::prompt::turn0::InstructionAssembler;
    use crate::prompt::user_model::render_user_model;
    use crate::workspace::MemWorkspace;

    #[test]
    fn every_message_we_build_is_recognised() {
        let ws = MemWorkspace::new().file("CLAUDE.md", "x");
        let project = RootAssembler.assemble(&ws).unwrap().remove(0).text;
        let entry = MemoryEntry {
            key: "k".into(),
            description: "d".into(),
            ..MemoryEntry::default()
        };
        for text in [
            project,
            render_soul("Be brief.").unwrap(),
            render_memory_index(vec![entry.clone()], 0, 0).unwrap(),
            render_rules_message(
                &[Rule {
                    name: "r".into(),
                    body: "b".into(),
                    paths: vec![],
                    origin: RuleOrigin::Project,
                }],
                1,
                0,
                0,
            )
            .unwrap()
            .text,
            render_user_model(vec![entry], 0, 0).unwrap(),
        ] {
            assert!(is_injected_turn0_fragment(&text), "{text}");
        }
    }

    #[test]
    fn other_texts_are_not() {
        for text in [
            "",
            "Project instructions",
            "project instructions (AGENTS.md):",
            " Project instructions (AGENTS.md):",
            "please fix the bug",
            "<soul>",
            "<memory-index encoding=\"jsonl\">",
        ] {
            assert!(!is_injected_turn0_fragment(text), "{text:?}");
        }
        assert!(is_injected_turn0_fragment("Project instructions (anything"));
        let cut = &SOUL_HEADER[..SOUL_HEADER.len() - 1];
        assert!(!is_injected_turn0_fragment(cut));
    }
}
