//! Named files in tiered directories (SPEC §3.3): the one precedence engine
//! that rules, commands and skills resolve through, so every listing,
//! expansion, explanation and accounting agrees on which file provides a
//! name and why the others do not.
//!
//! Directories ([`SearchDir`]) are searched in precedence order; each has a
//! tier, a trust state, a [`Layout`] that maps its files to names
//! (`<name>.md`, nested `a/b.md` → `a:b`, or `<name>/SKILL.md`) and the
//! suffix its files are told by (`.md`, `.toml`, `.instructions.md`). A
//! kind of file ([`Kind`]) says how its files are read and judged and how
//! its events are worded ([`Words`]). Every file offered for a name gets a
//! [`Fate`]. Three drivers apply the rules: [`resolve_all`] for listings,
//! [`resolve_name`] for one name, [`InOrder`] for consumers that stop early;
//! a [`ReadPolicy`] says which files are read and which only looked at.
//!
//! Choices the spec leaves open, made here once for every kind:
//! - **Withheld directories** resolve precedence among withheld
//!   directories (a second withheld file of a name is shadowed by the
//!   first) and never claim a name from an active directory, so listings
//!   show what trust would use.
//! - **Wording.** A loser is "shadowed by X"; a dropped file's reason ends
//!   "; X is used instead" when another file provides the name (its own
//!   view's holder: for a withheld file, what trust would use).
//! - **Refusals.** A refused symlink and a file name that is not UTF-8 are
//!   reported with the kind's refusal severity ([`Words::refusal`]); a read
//!   fault is fatal; an unresolvable link, a vanished file or a non-regular
//!   file is a warning and counts as not found.
//! - **Recursion** (nested and skill layouts, [`walk_tree`]) is bounded by
//!   [`crate::limits::MAX_TREE_DEPTH`] and [`crate::limits::MAX_TREE_ENTRIES`]
//!   and does not follow links to directories, so a link loop stays flat.

mod dir;
mod engine;
mod fate;
mod walk;

pub use dir::{Layout, MD_SUFFIX, SKILL_FILE, SearchDir, Tier, Words};
pub use engine::{
    InOrder, Kind, Loaded, Losers, Loss, NameResolution, ReadPolicy, Resolution, read_listed,
    resolve_all, resolve_name,
};
pub use fate::{Candidate, Fate};
pub use walk::{
    Listed, Tree, count_md_files, count_offered, walk_tree, walk_tree_following_links,
    walk_tree_pruned,
};

#[cfg(test)]
mod tests;
