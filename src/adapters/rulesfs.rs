//! Rule directories on disk (SPEC §3.2): the user-tier search directories,
//! read through readers that follow links (the user owns both ends; dotfile
//! managers link rule files). Resolution, precedence and parsing live in the
//! domain ([`crate::prompt::rules`] on [`crate::prompt::tiers`]); this
//! module only builds readers.

use std::path::PathBuf;
use std::sync::Arc;

use crate::prompt::rules::files::user_rule_dir;
use crate::prompt::tiers::SearchDir;
use crate::workspace::{LinkPolicy, OsWorkspace};

/// A user rules directory at `path`, read with links followed.
pub fn user_dir(path: impl Into<PathBuf>) -> SearchDir<'static> {
    user_rule_dir(Arc::new(OsWorkspace::new(path, LinkPolicy::Follow)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::rules::RuleOrigin;
    use crate::prompt::rules::discovery::discover;
    use crate::prompt::tiers::Tier;

    #[test]
    fn a_user_dir_reads_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("rules")).unwrap();
        std::fs::write(dir.path().join("rules/u.md"), "user rule").unwrap();
        let user = user_dir(dir.path().join("rules"));
        assert_eq!(user.tier, Tier::User);
        assert!(!user.withheld);
        let found = discover(&[user]);
        assert_eq!(found.rules.len(), 1);
        assert_eq!(found.rules[0].rule.origin, RuleOrigin::User);
        assert_eq!(
            found.rules[0].source,
            dir.path().join("rules").join("u.md").display().to_string()
        );
    }
}
