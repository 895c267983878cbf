//! Turn-0 messages (SPEC §6.1): the [`InstructionAssembler`] port, the
//! [`Message`] it produces, and the provenance manifest.

use serde::Serialize;

use crate::workspace::Workspace;

/// Who a message is from. Turn-0 messages are always from the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A user-role message.
    User,
}

impl Role {
    /// The lowercase role name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
        }
    }
}

/// One turn-0 message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    /// Always [`Role::User`] for turn-0 messages.
    pub role: Role,
    /// The message text.
    pub text: String,
}

impl Message {
    /// A user-role message with `text`.
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            text: text.into(),
        }
    }
}

/// A genuine read fault (permission denied, I/O error) on a file an
/// assembler must read; "not found" is never a fault.
#[derive(Debug, thiserror::Error)]
#[error("reading {path}: {source}")]
pub struct ReadFault {
    /// The file, as the workspace displays it.
    pub path: String,
    /// The operating-system error.
    #[source]
    pub source: std::io::Error,
}

/// Where one turn-0 message came from (SPEC §6.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InstructionManifest {
    /// `instruction` for the built-in assemblers, `custom` otherwise.
    pub kind: String,
    /// `project`, `rules`, `soul`, `memory`, `user_model`, or `unknown`.
    pub provenance: String,
}

impl InstructionManifest {
    /// The manifest of a built-in assembler with the given provenance.
    pub fn instruction(provenance: &str) -> Self {
        Self {
            kind: "instruction".to_string(),
            provenance: provenance.to_string(),
        }
    }

    /// The manifest of an assembler that does not declare one.
    pub fn custom() -> Self {
        Self {
            kind: "custom".to_string(),
            provenance: "unknown".to_string(),
        }
    }
}

/// Produces turn-0 messages for a workspace.
pub trait InstructionAssembler {
    /// The messages, in order. An error is returned only for a genuine read
    /// fault; every assembler but project instructions fails soft.
    fn assemble(&self, ws: &dyn Workspace) -> Result<Vec<Message>, ReadFault>;

    /// Kind and provenance of the messages this assembler produces.
    fn manifest(&self) -> InstructionManifest {
        InstructionManifest::custom()
    }
}
