//! The rules-source conformance kit (SPEC §7.4): the fixture every source
//! under test must serve, and the checks it must pass.

use crate::limits;
use crate::prompt::rules::{Rule, RuleOrigin, RulesSource};

/// One rule of the conformance fixture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixtureRule {
    /// The rule name.
    pub name: &'static str,
    /// Its globs; empty means unconditional.
    pub paths: &'static [&'static str],
    /// Its body.
    pub body: &'static str,
}

/// The rules a source under test must serve, sorted by name.
pub const RULE_FIXTURE: [FixtureRule; 3] = [
    FixtureRule {
        name: "api",
        paths: &[],
        body: "Follow the API style guide for every endpoint.",
    },
    FixtureRule {
        name: "go-style",
        paths: &["**/*.go", "go.mod"],
        body: "Run gofmt and go vet before committing.",
    },
    FixtureRule {
        name: "testing",
        paths: &["**/*_test.go"],
        body: "Write table-driven tests with t.Run subtests.",
    },
];

impl FixtureRule {
    /// The rule file's name: `<name>.md`.
    pub fn file_name(&self) -> String {
        format!("{}.md", self.name)
    }

    /// The rule file's content: frontmatter with `paths` when the rule is
    /// conditional, then the body.
    pub fn file_content(&self) -> String {
        if self.paths.is_empty() {
            return format!("{}\n", self.body);
        }
        let globs: String = self
            .paths
            .iter()
            .map(|glob| format!("  - \"{glob}\"\n"))
            .collect();
        format!("---\npaths:\n{globs}---\n\n{}\n", self.body)
    }

    /// The rule as a source with the given origin serves it.
    pub fn to_rule(&self, origin: RuleOrigin) -> Rule {
        Rule {
            name: self.name.to_string(),
            body: self.body.to_string(),
            paths: self.paths.iter().map(|glob| glob.to_string()).collect(),
            origin,
        }
    }
}

/// Checks a rules source against the contract of SPEC §7.4. `factory`
/// must return a fresh source serving exactly [`RULE_FIXTURE`] each time
/// it is called.
///
/// # Panics
///
/// On the first broken expectation, with a message naming it: this is a
/// test kit, meant to be called from a test.
pub fn run_rules_source<S: RulesSource>(factory: impl Fn() -> S) {
    let source = factory();
    let first = source
        .list_rules()
        .unwrap_or_else(|err| panic!("list_rules failed: {err}"));
    assert_eq!(
        first.len(),
        RULE_FIXTURE.len(),
        "expected exactly {} rules, got {:?}",
        RULE_FIXTURE.len(),
        names(&first)
    );
    assert!(
        first.windows(2).all(|pair| pair[0].name < pair[1].name),
        "names must be unique and strictly sorted: {:?}",
        names(&first)
    );
    for (got, want) in first.iter().zip(RULE_FIXTURE.iter()) {
        assert!(
            !got.origin.as_str().is_empty(),
            "rule {} has no origin",
            got.name
        );
        assert_eq!(
            *got,
            want.to_rule(got.origin),
            "rule {} differs from the fixture",
            want.name
        );
        assert!(
            got.body.len() <= limits::MAX_RULE_BYTES,
            "rule {} has a body over {} bytes",
            got.name,
            limits::MAX_RULE_BYTES
        );
    }
    let second = source
        .list_rules()
        .unwrap_or_else(|err| panic!("second list_rules failed: {err}"));
    assert_eq!(first, second, "two calls must return the same snapshot");

    let other = factory();
    let from_other = other
        .list_rules()
        .unwrap_or_else(|err| panic!("list_rules on a second source failed: {err}"));
    assert_eq!(
        first, from_other,
        "each factory call must serve the fixture"
    );
    let again = source
        .list_rules()
        .unwrap_or_else(|err| panic!("list_rules after a second source failed: {err}"));
    assert_eq!(
        first, again,
        "creating a new source must not change the first"
    );
}

fn names(rules: &[Rule]) -> Vec<&str> {
    rules.iter().map(|rule| rule.name.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::adapters::rulesfs::user_dir;
    use crate::prompt::rules::files::project_rule_dirs;
    use crate::prompt::rules::frontmatter;
    use crate::prompt::rules::lazy::LazyRulesSource;
    use crate::prompt::rules::{MemRulesSource, RulesError, RulesMessage};
    use crate::prompt::turn0::Delivery;
    use crate::workspace::{LinkPolicy, MemWorkspace, OsWorkspace};

    #[test]
    fn fixture_files_parse_back_to_the_fixture() {
        for fixture in RULE_FIXTURE {
            let parts = frontmatter::split(fixture.file_content().as_bytes());
            let paths = match parts.front {
                Some(front) => frontmatter::parse_paths(&front).unwrap(),
                None => Vec::new(),
            };
            assert_eq!(paths, fixture.paths);
            assert_eq!(parts.body.trim(), fixture.body);
        }
    }

    #[test]
    fn mem_source_conforms() {
        run_rules_source(|| {
            MemRulesSource::new(
                RULE_FIXTURE
                    .iter()
                    .rev()
                    .map(|f| f.to_rule(RuleOrigin::Driver)),
            )
        });
    }

    fn mem_workspace() -> MemWorkspace {
        RULE_FIXTURE
            .iter()
            .fold(MemWorkspace::new(), |ws, fixture| {
                ws.file(
                    &format!(".claude/rules/{}", fixture.file_name()),
                    fixture.file_content(),
                )
            })
    }

    #[test]
    fn fs_source_over_memory_conforms() {
        run_rules_source(|| {
            LazyRulesSource::new(project_rule_dirs(Arc::new(mem_workspace()), false))
        });
    }

    #[test]
    fn fs_source_on_disk_conforms_for_both_tiers() {
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join("project/.claude/rules");
        let user = dir.path().join("config/mecatl/rules");
        for path in [&rules, &user] {
            std::fs::create_dir_all(path).unwrap();
            for fixture in RULE_FIXTURE {
                std::fs::write(path.join(fixture.file_name()), fixture.file_content()).unwrap();
            }
        }
        let project_root = dir.path().join("project");
        run_rules_source(|| {
            let reader = Arc::new(OsWorkspace::new(&project_root, LinkPolicy::Confine));
            LazyRulesSource::new(project_rule_dirs(reader, false))
        });
        let user_root = dir.path().join("config/mecatl");
        run_rules_source(|| LazyRulesSource::new(vec![user_dir(user_root.join("rules"))]));
    }

    /// A source that serves `rules` as given, whatever the contract says.
    fn serve(
        rules: &[Rule],
        max_bytes: usize,
        max_count: usize,
    ) -> Delivery<Result<RulesMessage, RulesError>> {
        Delivery::of(Ok(RulesMessage::render(rules, max_bytes, max_count)))
    }

    struct Unsorted;
    impl RulesSource for Unsorted {
        fn deliver(
            &self,
            max_bytes: usize,
            max_count: usize,
        ) -> Delivery<Result<RulesMessage, RulesError>> {
            let rules: Vec<Rule> = RULE_FIXTURE
                .iter()
                .rev()
                .map(|f| f.to_rule(RuleOrigin::User))
                .collect();
            serve(&rules, max_bytes, max_count)
        }
    }

    #[test]
    #[should_panic(expected = "strictly sorted")]
    fn kit_rejects_an_unsorted_source() {
        run_rules_source(|| Unsorted);
    }

    struct Shared(Arc<std::sync::Mutex<usize>>);
    impl RulesSource for Shared {
        fn deliver(
            &self,
            max_bytes: usize,
            max_count: usize,
        ) -> Delivery<Result<RulesMessage, RulesError>> {
            let mut calls = self.0.lock().unwrap();
            *calls += 1;
            let take = if *calls > 2 { 2 } else { 3 };
            let rules: Vec<Rule> = RULE_FIXTURE[..take]
                .iter()
                .map(|f| f.to_rule(RuleOrigin::User))
                .collect();
            serve(&rules, max_bytes, max_count)
        }
    }

    #[test]
    #[should_panic(expected = "each factory call must serve the fixture")]
    fn kit_rejects_sources_sharing_state() {
        let state = Arc::new(std::sync::Mutex::new(0));
        run_rules_source(|| Shared(Arc::clone(&state)));
    }
}
