//! The assembler port (SPEC §6.1): [`InstructionAssembler`], the
//! [`Message`] it produces, its manifest, and composition
//! ([`MultiAssembler`], [`assemble_with_manifest`]).
//!
//! An assembler has one required method, [`InstructionAssembler::collect`],
//! which adds its messages, what its source left out and its diagnostics
//! to a [`Turn0Report`]; the seed's `assemble` and `assemble_with_manifest`
//! are derived from it, so a caller that wants the facts and a caller that
//! wants only the messages run the same code.

use serde::Serialize;

use crate::prompt::turn0::{Message, MessageKind, Provenance, Turn0Report};
use crate::workspace::Workspace;

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

/// Why a fail-soft turn-0 source (soul, memory index, user model, operator
/// profile) could not deliver. Assemblers drop it; the diagnostics beside
/// it say what happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SourceError(pub String);

/// Kind and provenance of a turn-0 message (SPEC §6.1): the kind follows
/// from the provenance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InstructionManifest {
    /// `instruction` for the built-in sources, `custom` otherwise.
    pub kind: MessageKind,
    /// Where the message came from.
    pub provenance: Provenance,
}

impl From<Provenance> for InstructionManifest {
    fn from(provenance: Provenance) -> Self {
        Self {
            kind: provenance.kind(),
            provenance,
        }
    }
}

impl InstructionManifest {
    /// The manifest of an assembler that does not declare one: kind
    /// `custom`, provenance `unknown`.
    pub fn custom() -> Self {
        Provenance::Unknown.into()
    }
}

/// Produces turn-0 messages for a workspace.
pub trait InstructionAssembler {
    /// Adds this assembler's messages (each with its provenance, which is
    /// [`InstructionAssembler::manifest`]'s), what its source left out and
    /// the diagnostics for the files it looked at to `report`. An error is
    /// returned only for a genuine read fault, and aborts the assembly;
    /// every assembler but project instructions fails soft.
    fn collect(&self, ws: &dyn Workspace, report: &mut Turn0Report) -> Result<(), ReadFault>;

    /// Kind and provenance of the messages this assembler produces.
    fn manifest(&self) -> InstructionManifest {
        InstructionManifest::custom()
    }

    /// The whole report of this assembler alone.
    fn report(&self, ws: &dyn Workspace) -> Result<Turn0Report, ReadFault> {
        let mut report = Turn0Report::default();
        self.collect(ws, &mut report)?;
        Ok(report)
    }

    /// The messages, in order (the seed's method).
    fn assemble(&self, ws: &dyn Workspace) -> Result<Vec<Message>, ReadFault> {
        Ok(self
            .report(ws)?
            .messages
            .into_iter()
            .map(|assembled| assembled.message)
            .collect())
    }

    /// The messages, each paired with the manifest of the assembler that
    /// produced it (composite assemblers report their children's).
    fn assemble_with_manifest(
        &self,
        ws: &dyn Workspace,
    ) -> Result<Vec<(Message, InstructionManifest)>, ReadFault> {
        Ok(self
            .report(ws)?
            .messages
            .into_iter()
            .map(|assembled| (assembled.message, assembled.provenance.into()))
            .collect())
    }
}

/// Runs `assemblers` in order and pairs every message with its provenance
/// (SPEC §6.1). The first read fault aborts.
pub fn assemble_with_manifest(
    ws: &dyn Workspace,
    assemblers: &[&dyn InstructionAssembler],
) -> Result<Vec<(Message, InstructionManifest)>, ReadFault> {
    MultiAssembler::new(assemblers.to_vec()).assemble_with_manifest(ws)
}

/// Several assemblers in order (highest first), their messages concatenated
/// (SPEC §6.1). An absent source is an assembler without a source, which
/// contributes nothing; the first read fault aborts the whole assembly.
#[derive(Default)]
pub struct MultiAssembler<'a> {
    children: Vec<&'a dyn InstructionAssembler>,
}

impl<'a> MultiAssembler<'a> {
    /// A composite of `children`, run in the given order.
    pub fn new(children: Vec<&'a dyn InstructionAssembler>) -> Self {
        Self { children }
    }
}

impl InstructionAssembler for MultiAssembler<'_> {
    fn collect(&self, ws: &dyn Workspace, report: &mut Turn0Report) -> Result<(), ReadFault> {
        for child in &self.children {
            child.collect(ws, report)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostic;
    use crate::prompt::instructions::RootAssembler;
    use crate::prompt::turn0::{AssembledMessage, LeftOut, LeftOutReason};
    use crate::workspace::MemWorkspace;

    /// A custom assembler: fixed texts, a left-out fact and a diagnostic
    /// per text, or a fault.
    struct Fixed(&'static [&'static str], bool);

    impl InstructionAssembler for Fixed {
        fn collect(&self, _ws: &dyn Workspace, report: &mut Turn0Report) -> Result<(), ReadFault> {
            if self.1 {
                return Err(ReadFault {
                    path: "x".into(),
                    source: std::io::Error::from(std::io::ErrorKind::Other),
                });
            }
            for text in self.0 {
                let provenance = self.manifest().provenance;
                report.messages.push(AssembledMessage::new(
                    provenance,
                    Message::user(*text),
                    None,
                ));
                report.left_out.push(LeftOut {
                    provenance,
                    name: Some(text.to_string()),
                    source: None,
                    reason: LeftOutReason::DroppedAtCap,
                });
                report.diagnostics.push(Diagnostic::info(*text, "seen"));
            }
            Ok(())
        }
    }

    #[test]
    fn multi_assembler_concatenates_in_order_and_stops_at_the_first_fault() {
        let ws = MemWorkspace::new().file("AGENTS.md", "p");
        let a = Fixed(&["a1", "a2"], false);
        let empty = Fixed(&[], false);
        let b = Fixed(&["b"], false);
        let multi = MultiAssembler::new(vec![&RootAssembler, &a, &empty, &b]);
        let texts: Vec<String> = multi
            .assemble(&ws)
            .unwrap()
            .into_iter()
            .map(|m| m.text)
            .collect();
        assert_eq!(
            texts,
            ["Project instructions (AGENTS.md):\n\np", "a1", "a2", "b"]
        );
        let manifests: Vec<String> = multi
            .assemble_with_manifest(&ws)
            .unwrap()
            .into_iter()
            .map(|(_, m)| format!("{}/{}", m.kind.as_str(), m.provenance))
            .collect();
        assert_eq!(
            manifests,
            [
                "instruction/project",
                "custom/unknown",
                "custom/unknown",
                "custom/unknown"
            ]
        );
        let failing = Fixed(&[], true);
        let broken = MultiAssembler::new(vec![&a, &failing, &b]);
        assert!(broken.assemble(&ws).is_err());
        assert!(assemble_with_manifest(&ws, &[&a, &failing, &b]).is_err());
        let nested = MultiAssembler::new(vec![&multi, &b]);
        assert_eq!(nested.assemble_with_manifest(&ws).unwrap().len(), 5);
        assert_eq!(
            nested.assemble_with_manifest(&ws).unwrap()[0].1,
            Provenance::Project.into()
        );
    }

    #[test]
    fn the_report_keeps_every_childs_facts_in_order() {
        let ws = MemWorkspace::new();
        let (a, bc) = (Fixed(&["a"], false), Fixed(&["b", "c"], false));
        let multi = MultiAssembler::new(vec![&a, &bc]);
        let report = multi.report(&ws).unwrap();
        let names: Vec<&str> = report
            .left_out
            .iter()
            .filter_map(|fact| fact.name.as_deref())
            .collect();
        assert_eq!(names, ["a", "b", "c"]);
        let paths: Vec<&str> = report
            .diagnostics
            .iter()
            .filter_map(|d| d.path.as_deref())
            .collect();
        assert_eq!(paths, ["a", "b", "c"]);
        assert_eq!(
            InstructionManifest::custom(),
            InstructionManifest {
                kind: MessageKind::Custom,
                provenance: Provenance::Unknown
            }
        );
    }
}
