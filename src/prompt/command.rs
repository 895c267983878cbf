//! Slash commands (SPEC §5): the invocation grammar, placeholder
//! substitution, command frontmatter and descriptions, the expander and
//! lister ports, and the directory resolution that every listing, expansion
//! and explanation of command files goes through, so they always agree on
//! which file wins.
//!
//! Choices the spec leaves open, made here and relied on elsewhere:
//!
//! - **Output bound.** When the source supports post-expansion text (§5.6),
//!   even empty text, the output is cut at
//!   [`limits::MAX_EXPANSION_BYTES`](crate::limits::MAX_EXPANSION_BYTES),
//!   as the engine does. Otherwise the engine does not cut, and neither do
//!   we at that size: a real-world command in the test corpus is 29,675
//!   bytes and must expand whole. The output is instead bounded at
//!   [`limits::MAX_COMMAND_FILE_BYTES`](crate::limits::MAX_COMMAND_FILE_BYTES),
//!   the most we ever read of a template, with the same marker; a template
//!   alone never reaches it, so it only stops `$ARGUMENTS` repeated over a
//!   large input from exhausting memory.
//! - **Refused symlinks** in command directories are "not found" plus a
//!   warning (§5.5), not the fatal diagnostic §3.1 gives rules.
//! - **Over-long names** (the OS reports the file name as invalid or too
//!   long) are unknown commands, never read faults.
//! - **Listing** reads only the first
//!   [`limits::COMMAND_DESCRIPTION_HEAD_BYTES`](crate::limits::COMMAND_DESCRIPTION_HEAD_BYTES)
//!   of a file, which is all a description can come from.
//! - **An unreadable file** does not claim its name in a listing (the next
//!   directory's file is listed, §3.3); expansion of that name is a read
//!   fault (§5.5), because the file the user meant could not be read.
//!
//! One concern per file: `grammar.rs` (§5.1), `substitute.rs` (§5.2 and
//! the output bound), `command_frontmatter.rs` (§5.3, §5.4), `ports.rs` and
//! `source.rs` (§5.6), `files.rs` (the command kind of the precedence
//! engine, [`crate::prompt::tiers`]), `resolution.rs` and `listing.rs`
//! (§5.5, §3.3),
//! `dir_expander.rs` (§5.5). Everything public is re-exported here, so
//! callers name it `crate::prompt::command::X`. Claude Code's dialect and
//! skills listing (§14.5) are public modules of their own,
//! `claude_dialect` and `claude_listing`; the dialect shares the output
//! bound of `substitute.rs`.

pub mod claude_catalog;
pub mod claude_dialect;
pub mod claude_listing;
mod command_frontmatter;
mod dir_expander;
mod files;
mod grammar;
mod listing;
mod ports;
mod resolution;
mod source;
mod substitute;
#[cfg(test)]
mod test_support;

pub use command_frontmatter::{
    Misplaced, description, frontmatter_keys, misplaced_frontmatter, strip_frontmatter,
};
pub use dir_expander::DirCommandExpander;
pub use files::{COMMAND_WORDS, CommandFiles, DEFAULT_COMMAND_DIRS, command_dirs};
pub use grammar::{Invocation, NameGrammar, cannot_invoke, parse_invocation, valid_command_name};
pub use listing::{ListedFile, Listing, list_in};
pub use ports::{Command, CommandExpander, CommandLister, Expansion, MultiExpander, NoopExpander};
pub use resolution::{DirExpansion, NotExpanded, expand_in, resolve};
pub use source::{BodyWithPost, CommandSource, SourceExpander};
pub use substitute::{Rendered, render, substitute};
