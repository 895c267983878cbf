//! The turn-0 contract (SPEC §6.1): where a message came from
//! ([`Provenance`]), what a source left out and why ([`LeftOut`]), what a
//! source port delivers ([`Delivery`]) and what an assembly reports
//! ([`Turn0Report`]); and the turn-0 predicate (SPEC §6.7).
//!
//! Choices the spec leaves open:
//! - A source's facts are typed, never text: a consumer learns that a soul
//!   was rejected, and why, from a [`LeftOutReason`], not from a
//!   diagnostic's wording.
//! - [`Provenance`] is a closed enum; a new built-in source adds a variant.

mod left_out;
mod predicate;
mod provenance;
mod report;

pub use left_out::{Delivery, LeftOut, LeftOutReason, Rejection};
pub use predicate::{TURN0_HEADERS, is_injected_turn0_fragment};
pub use provenance::{MessageKind, Provenance};
pub use report::{AssembledMessage, Turn0Report};
