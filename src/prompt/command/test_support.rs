//! Fixtures shared by the command module's unit tests.

use proptest::prelude::*;

use crate::conformance::commands::MemCommandSource;
use std::sync::Arc;

use crate::prompt::command::{DEFAULT_COMMAND_DIRS, SourceExpander, command_dirs};
use crate::prompt::tiers::{SearchDir, Tier};
use crate::workspace::{MemWorkspace, Workspace};

pub(super) fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

pub(super) fn ws_with(files: &[(&str, &str)]) -> MemWorkspace {
    files
        .iter()
        .fold(MemWorkspace::new(), |ws, (path, body)| ws.file(path, body))
}

pub(super) fn dirs(ws: &dyn Workspace) -> Vec<SearchDir<'_>> {
    command_dirs(Arc::new(ws), &DEFAULT_COMMAND_DIRS, Tier::Project, false)
}

pub(super) use crate::diagnostic::triples as reasons;

pub(super) fn mem_source(pairs: &[(&str, &str)]) -> SourceExpander<MemCommandSource> {
    SourceExpander::new(MemCommandSource::new(pairs.iter().copied()))
}

pub(super) fn body_strategy() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("$".to_string()),
            Just("$ARGUMENTS".to_string()),
            Just("ARGUMENTS".to_string()),
            Just("---\n".to_string()),
            Just("\r\n".to_string()),
            "[0-9]{1,3}",
            "[a-zé ]{0,4}",
        ],
        0..24,
    )
    .prop_map(|parts| parts.concat())
}
