//! The seam between the house and one agent profile (SPEC §14.1): the data
//! every profile declares about its agent ([`ProfileSpec`]) and the
//! registered, stateless side of a profile ([`Profile`]). The one table of
//! profiles is [`crate::prompt::agents::PROFILES`]; everything that must
//! name every agent (the `--agent` values and help, the man page, `compare`,
//! lint's survey, the token counts) reads it instead of keeping a list.
//!
//! Choices the spec leaves open:
//! - The record is `const` data, no behaviour: what an agent is called,
//!   how its tokens are counted, how far it reads a file, how its commands
//!   are invoked, where its home directories are and which variables move
//!   them, which configuration directories are its.
//! - A home directory moved by a variable takes the variable only when it
//!   is set, non-empty and absolute, as the agents do; otherwise its default.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::prompt::profile::{Agent, Scope};
use crate::prompt::tokens::Tokenizer;

/// What the house knows about an agent, as data.
#[derive(Debug)]
pub struct ProfileSpec {
    /// The key of the profile.
    pub agent: Agent,
    /// The name used on the command line and in JSON.
    pub name: &'static str,
    /// The agent's own name, for sentences.
    pub title: &'static str,
    /// What the name stands for, in `--agent`'s help.
    pub summary: &'static str,
    /// How its tokens are counted (SPEC §15.4).
    pub tokenizer: Tokenizer,
    /// The most bytes it reads of an instruction file: `compare` runs the
    /// profiles from the largest reader down, so that a memoised read is
    /// answered only from one that read at least as much.
    pub read_cap: u64,
    /// What invokes one of its commands or skills (`/name`, `$name`).
    pub sigil: char,
    /// Whether the agent has rules at all (SPEC §14.2).
    pub has_rules: bool,
    /// Its directories outside the workspace.
    pub homes: &'static [HomeDir],
    /// Its configuration directories inside a project (lint looks into
    /// them even when they are links).
    pub config_dirs: &'static [&'static str],
}

/// A directory of an agent outside the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HomeDir {
    /// The environment variable that moves it, if any.
    pub var: Option<&'static str>,
    /// Where it is when no variable moves it.
    pub default: HomeDefault,
    /// The scope of the files read from it.
    pub scope: Scope,
}

/// Where a home directory is by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HomeDefault {
    /// Below the user's home directory (`""` is the home itself).
    UnderHome(&'static str),
    /// A fixed absolute path (machine policy).
    Absolute(&'static str),
}

impl HomeDir {
    /// The directory, from the value of its variable (`var`) and the home
    /// directory: the variable's value when set, non-empty and absolute,
    /// else the default; `None` when the default is below a home directory
    /// there is none of.
    pub fn resolve(&self, var: Option<&OsStr>, home: Option<&Path>) -> Option<PathBuf> {
        let moved = self
            .var
            .and(var)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute());
        moved.or_else(|| match self.default {
            HomeDefault::UnderHome(below) => home.map(|home| home.join(below)),
            HomeDefault::Absolute(path) => Some(PathBuf::from(path)),
        })
    }
}

/// A registered profile: stateless, one per agent, listed once in
/// [`crate::prompt::agents::PROFILES`].
pub trait Profile: Sync {
    /// The agent's data.
    fn spec(&self) -> &'static ProfileSpec;
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOVED: HomeDir = HomeDir {
        var: Some("X_HOME"),
        default: HomeDefault::UnderHome(".x"),
        scope: Scope::User,
    };

    #[test]
    fn a_variable_moves_a_home_only_when_absolute() {
        let home = Path::new("/h");
        let moved = MOVED.resolve(Some(OsStr::new("/srv/x")), Some(home));
        assert_eq!(moved, Some(PathBuf::from("/srv/x")));
        for unusable in [None, Some(OsStr::new("")), Some(OsStr::new("rel/x"))] {
            let default = MOVED.resolve(unusable, Some(home));
            assert_eq!(default, Some(PathBuf::from("/h/.x")));
        }
        assert_eq!(MOVED.resolve(None, None), None);
    }

    #[test]
    fn a_fixed_home_needs_no_home_and_ignores_variables() {
        let managed = HomeDir {
            var: None,
            default: HomeDefault::Absolute("/etc/x"),
            scope: Scope::Managed,
        };
        let path = managed.resolve(Some(OsStr::new("/elsewhere")), None);
        assert_eq!(path, Some(PathBuf::from("/etc/x")));
    }
}
