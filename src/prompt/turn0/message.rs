//! One turn-0 message (SPEC §6.1): what every assembler produces and every
//! report carries.

use serde::Serialize;

/// Who a message is from. The engine's turn-0 messages are always from
/// the user; a profile may send one as part of the system instruction
/// (Gemini CLI's user context, SPEC §16.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A user-role message.
    User,
    /// Text the agent puts in its system instruction.
    System,
}

impl Role {
    /// The lowercase role name used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::System => "system",
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
