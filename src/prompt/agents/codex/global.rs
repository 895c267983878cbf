//! The global Codex instructions (SPEC §14.4): `$CODEX_HOME/AGENTS.override.md`,
//! else `$CODEX_HOME/AGENTS.md`, trimmed, sent before the project chain and
//! outside its budget.
//!
//! Rules (recorded cases `global-*`): the first of the two names whose
//! content is not blank after trimming wins, so an empty or whitespace-only
//! override falls back to `AGENTS.md` (unlike a project override, which
//! suppresses its directory); invalid UTF-8 is decoded lossily.
//!
//! Choices the spec leaves open:
//! - Codex reads the file whole; the preview reads at most
//!   [`limits::MAX_CODEX_GLOBAL_DOC_BYTES`] and warns when it cuts.
//! - A name that cannot be used (a dangling link, a read fault) is reported
//!   and the next name is tried, as Codex does when a read fails.

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::codex::chain::{AGENTS_NAME, DropReason, Dropped, OVERRIDE_NAME};
use crate::prompt::text::{INVALID_UTF8_REPLACED, decode_read};
use crate::prompt::walk::Scope;
use crate::workspace::{Workspace, WsError};

/// The global file that is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalDoc {
    /// The file, absolute (as a user-tier reader displays it).
    pub path: String,
    /// Its trimmed text, exactly as sent.
    pub content: String,
}

/// The global file, with the files passed over and the diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalReport {
    /// The file sent, if any.
    pub doc: Option<GlobalDoc>,
    /// Names present but not used (blank or unusable).
    pub left_out: Vec<Dropped>,
    /// Why each was passed over; a cut or lossy decode of the one used.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the global instructions from `codex_home` (a reader rooted at
/// `$CODEX_HOME`).
pub fn global_doc(codex_home: &dyn Workspace) -> GlobalReport {
    let mut report = GlobalReport {
        doc: None,
        left_out: Vec::new(),
        diagnostics: Vec::new(),
    };
    for name in [OVERRIDE_NAME, AGENTS_NAME] {
        let path = codex_home.display(name);
        let read = match codex_home.read(name, limits::MAX_CODEX_GLOBAL_DOC_BYTES) {
            Err(WsError::NotFound | WsError::NotRegular(_)) => continue,
            Err(err) => {
                report.diagnostics.push(Diagnostic::warning(
                    &path,
                    format!("{err}; not used for Codex's global instructions"),
                ));
                report.left_out.push(Dropped {
                    path,
                    scope: Scope::User,
                    reason: DropReason::Unusable(err.to_string()),
                });
                continue;
            }
            Ok(read) => read,
        };
        let truncated = read.is_truncated();
        let decoded = decode_read(read.bytes, truncated);
        let content = decoded.text.trim();
        if content.is_empty() {
            report.diagnostics.push(Diagnostic::info(
                &path,
                "empty or whitespace only: not used for Codex's global instructions",
            ));
            report.left_out.push(Dropped {
                path,
                scope: Scope::User,
                reason: DropReason::Blank { suppresses: false },
            });
            continue;
        }
        if decoded.lossy {
            report
                .diagnostics
                .push(Diagnostic::warning(&path, INVALID_UTF8_REPLACED));
        }
        if truncated {
            report.diagnostics.push(Diagnostic::warning(
                &path,
                format!(
                    "larger than {} bytes: the preview shows only its start, Codex sends it whole",
                    limits::MAX_CODEX_GLOBAL_DOC_BYTES
                ),
            ));
        }
        report.doc = Some(GlobalDoc {
            path,
            content: content.to_string(),
        });
        break;
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{LinkPolicy, MemNode, MemWorkspace};

    fn home() -> MemWorkspace {
        MemWorkspace::new()
            .with_root("/home/u/.codex")
            .with_policy(LinkPolicy::Follow)
    }

    fn content(home: &MemWorkspace) -> Option<String> {
        global_doc(home).doc.map(|d| d.content)
    }

    #[test]
    #[cfg_attr(windows, ignore = "fixture homes are Unix paths /home/u/…")]
    fn the_global_file_is_trimmed() {
        let home = home().file("AGENTS.md", "\n\n  GLOBAL\nline two   \n\n");
        let report = global_doc(&home);
        let doc = report.doc.unwrap();
        assert_eq!(doc.content, "GLOBAL\nline two");
        assert_eq!(doc.path, "/home/u/.codex/AGENTS.md");
        assert!(report.diagnostics.is_empty());
    }

    #[test]
    fn the_override_is_preferred_unless_blank() {
        let both = home()
            .file("AGENTS.md", "AGENTS\n")
            .file("AGENTS.override.md", "OVERRIDE\n");
        assert_eq!(content(&both).as_deref(), Some("OVERRIDE"));
        let blank = home()
            .file("AGENTS.md", "AGENTS\n")
            .file("AGENTS.override.md", "  \n");
        let report = global_doc(&blank);
        assert_eq!(report.doc.unwrap().content, "AGENTS");
        assert_eq!(
            report.left_out[0].reason,
            DropReason::Blank { suppresses: false }
        );
    }

    #[test]
    fn an_unusable_override_falls_back_with_a_warning() {
        let home = home()
            .file("AGENTS.md", "AGENTS\n")
            .node("AGENTS.override.md", MemNode::Unreadable);
        let report = global_doc(&home);
        assert_eq!(report.doc.unwrap().content, "AGENTS");
        assert_eq!(report.diagnostics.len(), 1);
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily() {
        let home = home().file("AGENTS.md", b"GLOBAL \xff BAD\n");
        let report = global_doc(&home);
        assert_eq!(report.doc.unwrap().content, "GLOBAL \u{fffd} BAD");
        assert!(report.diagnostics[0].reason.contains("UTF-8"));
    }

    #[test]
    fn no_file_no_global_instructions() {
        assert_eq!(content(&home()), None);
        assert_eq!(content(&home().file("AGENTS.md", "\n")), None);
    }
}
