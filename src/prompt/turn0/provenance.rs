//! Where a turn-0 message came from (SPEC §6.1): the closed set of
//! provenances and the message kind derived from it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The source a turn-0 message came from: SPEC §6.1's closed set, plus
/// [`Provenance::Unknown`] for assemblers that do not declare one.
///
/// Declared in the order SPEC §6.1 puts the messages, so that ordering
/// provenances orders messages. A new built-in source adds a variant here
/// (and its [`Provenance::as_str`] and [`Provenance::title`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Provenance {
    /// The project instructions, `AGENTS.md` or `CLAUDE.md` (SPEC §6.2).
    Project,
    /// The rules message (SPEC §6.3).
    Rules,
    /// The operator's persona (SPEC §6.4).
    Soul,
    /// The project memory index (SPEC §6.5).
    Memory,
    /// The user model (SPEC §6.5).
    UserModel,
    /// A custom assembler that declares no provenance.
    Unknown,
    /// An agent profile's instructions message, made of one part per file
    /// (SPEC §14.2).
    Instructions,
    /// An agent profile's skills listing (SPEC §14.5, §14.6).
    Skills,
    /// An agent profile's user-level instructions sent apart from the
    /// project's (Gemini CLI's `~/.gemini` context files, SPEC §16.6).
    UserInstructions,
    /// An agent profile's subagents listing (SPEC §19.2).
    Agents,
    /// An agent profile's output style (SPEC §19.3).
    #[serde(rename = "output-style")]
    OutputStyle,
}

impl Provenance {
    /// The name used in JSON, manifests and `--stats`: `project`, `rules`,
    /// `soul`, `memory`, `user_model` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Provenance::Project => "project",
            Provenance::Rules => "rules",
            Provenance::Soul => "soul",
            Provenance::Memory => "memory",
            Provenance::UserModel => "user_model",
            Provenance::Unknown => "unknown",
            Provenance::Instructions => "instructions",
            Provenance::Skills => "skills",
            Provenance::UserInstructions => "user_instructions",
            Provenance::Agents => "agents",
            Provenance::OutputStyle => "output-style",
        }
    }

    /// What people call the message in a report: `instructions`,
    /// `rules message`, `soul`, `memory index`, `user model` or `unknown`.
    pub fn title(self) -> &'static str {
        match self {
            Provenance::Project => "instructions",
            Provenance::Rules => "rules message",
            Provenance::Soul => "soul",
            Provenance::Memory => "memory index",
            Provenance::UserModel => "user model",
            Provenance::Unknown => "unknown",
            Provenance::Instructions => "instructions",
            Provenance::Skills => "skills listing",
            Provenance::UserInstructions => "user instructions",
            Provenance::Agents => "subagents listing",
            Provenance::OutputStyle => "output style",
        }
    }

    /// `instruction` for a built-in source, `custom` for
    /// [`Provenance::Unknown`] (SPEC §6.1).
    pub fn kind(self) -> MessageKind {
        match self {
            Provenance::Unknown => MessageKind::Custom,
            _ => MessageKind::Instruction,
        }
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The kind of a turn-0 message (SPEC §6.1), derived from its provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum MessageKind {
    /// From one of the built-in sources.
    Instruction,
    /// From an assembler that declares no provenance.
    Custom,
}

impl MessageKind {
    /// `instruction` or `custom`.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageKind::Instruction => "instruction",
            MessageKind::Custom => "custom",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Provenance; 6] = [
        Provenance::Project,
        Provenance::Rules,
        Provenance::Soul,
        Provenance::Memory,
        Provenance::UserModel,
        Provenance::Unknown,
    ];

    #[test]
    fn names_are_the_serialised_names() {
        for provenance in ALL {
            assert_eq!(
                serde_json::to_string(&provenance).unwrap(),
                format!("\"{}\"", provenance.as_str())
            );
            assert_eq!(provenance.to_string(), provenance.as_str());
            let back: Provenance = serde_json::from_str(&format!("\"{provenance}\"")).unwrap();
            assert_eq!(back, provenance);
        }
        assert_eq!(Provenance::UserModel.as_str(), "user_model");
        assert!(serde_json::from_str::<Provenance>("\"custom\"").is_err());
    }

    #[test]
    fn only_unknown_is_custom_and_the_order_is_the_spec_order() {
        let kinds: Vec<&str> = ALL.iter().map(|p| p.kind().as_str()).collect();
        assert_eq!(
            kinds,
            [
                "instruction",
                "instruction",
                "instruction",
                "instruction",
                "instruction",
                "custom"
            ]
        );
        assert!(ALL.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(Provenance::Memory.title(), "memory index");
    }
}
