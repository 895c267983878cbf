//! How a run ends (SPEC §2.7): a [`Status`] when it completed, a
//! [`CliError`] when it could not.

use crate::prompt::profile::seam::ProfileError;
use crate::prompt::turn0::ReadFault;

/// How a run ended when it did not fail with an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Everything held: exit 0.
    Success,
    /// A check failed (`--check-stable`, `rules list --check`,
    /// `expand --require`, a budget, `check`, `explain` found nothing):
    /// exit 1.
    CheckFailed,
}

impl Status {
    /// The process exit code for this status.
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::CheckFailed => 1,
        }
    }
}

/// A run that could not complete: exit 2 with a one-line message.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A usage error the parser could not catch.
    #[error("{0}")]
    Usage(String),
    /// A runtime failure with its message.
    #[error("{0}")]
    Message(String),
    /// A read fault on a file that must be read (AGENTS.md, a command).
    #[error(transparent)]
    ReadFault(#[from] ReadFault),
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Io(#[from] std::io::Error),
}

impl From<ProfileError> for CliError {
    /// A bad `--at` is a usage error; a read fault stays one.
    fn from(err: ProfileError) -> Self {
        match err {
            ProfileError::InvalidAt(invalid) => CliError::Usage(invalid.to_string()),
            ProfileError::ReadFault(fault) => CliError::ReadFault(fault),
        }
    }
}
