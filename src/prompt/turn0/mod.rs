//! The turn-0 contract (SPEC §6.1): the [`InstructionAssembler`] port and
//! its composition, the [`Message`] it produces and where each came from
//! ([`Provenance`]), what a source left out and why ([`LeftOut`]), what a
//! source port's main method returns ([`Delivery`]), what an assembly
//! reports ([`Turn0Report`]); and the turn-0 predicate (SPEC §6.7).
//!
//! The assemblers themselves live beside their sources: project
//! instructions in `instructions`, then `rules`, `soul`, `memory_index` and
//! `user_model`.
//!
//! Choices the spec leaves open:
//! - A source's facts are typed, never text: a consumer learns that a soul
//!   was rejected, and why, from a [`LeftOutReason`], not from a
//!   diagnostic's wording.
//! - [`Provenance`] is a closed enum; a new built-in source adds a variant.
//! - Every source port has one main method returning a [`Delivery`]
//!   (product, left-out facts, diagnostics); its seed-shaped method
//!   (`SoulSource::load`, `MemoryIndexSource::index`, …) is derived from it.

mod assembler;
mod left_out;
mod message;
mod predicate;
mod provenance;
mod report;

pub use assembler::{
    InstructionAssembler, InstructionManifest, MultiAssembler, ReadFault, SourceError,
    assemble_with_manifest,
};
pub use left_out::{Delivery, LeftOut, LeftOutReason, Rejection};
pub use message::{Message, Role};
pub use predicate::{TURN0_HEADERS, is_injected_turn0_fragment};
pub use provenance::{MessageKind, Provenance};
pub use report::{AssembledMessage, Turn0Report};
