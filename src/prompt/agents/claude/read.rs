//! Reading one file the Claude profile considers: where it lies, how it is
//! named in output, and what reading it gave (text, or why not).

use std::path::{Path, PathBuf};

use crate::limits;
use crate::prompt::profile::{NotLoadedReason, Scope};
use crate::prompt::text::decode_read;
use crate::workspace::{Workspace, WsError};

/// A file as the profile reads it: the reader, its path below the reader's
/// root, its absolute (lexical) path and its scope.
#[derive(Clone)]
pub(crate) struct Source<'a> {
    pub(crate) reader: &'a dyn Workspace,
    pub(crate) rel: String,
    pub(crate) abs: PathBuf,
    pub(crate) scope: Scope,
    /// For an import, how deep it is (the imports of a walk file are depth
    /// 1); 0 for every other file.
    pub(crate) depth: usize,
}

impl std::fmt::Debug for Source<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("abs", &self.abs)
            .field("scope", &self.scope)
            .finish()
    }
}

/// How a path is named in parts, `not_loaded` and diagnostics (SPEC §14.7):
/// workspace-relative for project and local files, absolute otherwise.
pub(crate) fn shown(scope: Scope, abs: &Path, workspace: &Path) -> String {
    match abs.strip_prefix(workspace) {
        Ok(rel) if scope.is_gated() => crate::workspace::slashed(rel),
        _ => abs.display().to_string(),
    }
}

/// What reading a file gave.
#[derive(Debug)]
pub(crate) enum Read {
    /// Its whole text, decoded (`lossy` when invalid UTF-8 was replaced).
    Text { text: String, lossy: bool },
    /// Nothing there.
    Missing,
    /// A directory, FIFO, socket or device (named).
    NotAFile(&'static str),
    /// Larger than Claude Code reads.
    TooLarge(u64),
    /// A link leaving the workspace (refused by the confined reader).
    Refused(String),
    /// A dangling link, a loop, or an operating-system error.
    Unusable(String),
}

impl Read {
    /// Reads `rel` through `reader`, at most [`limits::MAX_CLAUDE_FILE_BYTES`]
    /// (one byte more and the file is skipped, as Claude Code skips it).
    pub(crate) fn of(reader: &dyn Workspace, rel: &str) -> Read {
        match reader.read(rel, limits::MAX_CLAUDE_FILE_BYTES) {
            Ok(read) if read.is_truncated() => Read::TooLarge(read.size),
            Ok(read) => {
                let decoded = decode_read(read.bytes, false);
                Read::Text {
                    lossy: decoded.lossy,
                    text: decoded.text.into_owned(),
                }
            }
            Err(WsError::NotFound | WsError::NotADirectory) => Read::Missing,
            Err(WsError::NotRegular(what)) => Read::NotAFile(what),
            Err(WsError::Refused(why)) => Read::Refused(why),
            Err(err @ (WsError::Unresolvable(_) | WsError::Io(_))) => {
                Read::Unusable(err.to_string())
            }
        }
    }

    /// Why a file read this way is not loaded, when it is not text.
    pub(crate) fn reason(&self) -> Option<NotLoadedReason> {
        match self {
            Read::Text { .. } => None,
            Read::Missing | Read::NotAFile(_) => Some(NotLoadedReason::Missing),
            Read::TooLarge(bytes) => Some(NotLoadedReason::TooLarge { bytes: *bytes }),
            Read::Refused(why) | Read::Unusable(why) => {
                Some(NotLoadedReason::Unusable(why.clone()))
            }
        }
    }
}
