//! Where the tests find the shared corpus of real third-party workspaces
//! (SPEC §13), and what they do without it.
//!
//! One locator for every test that reads the corpus: the library's unit
//! tests use this module, and the integration tests include the same file
//! (`#[path]`), so the rule is written once.
//!
//! - The corpus is `MECATL_CORPUS_DIR` when set, else `shared/corpus`
//!   beside the clone (`../shared/corpus` from the crate), as in CI.
//! - Without it, a corpus test is skipped, and the test binary says so once
//!   on its standard error, outside the test harness's capture, so a fresh
//!   clone's `cargo test` passes and shows why those tests did nothing.
//! - With `MECATL_REQUIRE_CORPUS=1` (set by `.ci/run`) a missing or empty
//!   corpus fails the test instead.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Once;

/// The variable that makes a missing corpus a failure instead of a skip.
const REQUIRE: &str = "MECATL_REQUIRE_CORPUS";

/// Where the corpus is expected, whether or not it is there.
pub(crate) fn corpus_dir() -> PathBuf {
    match std::env::var_os("MECATL_CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus")),
    }
}

/// Every folder of the corpus, sorted; `None` when the corpus is missing or
/// empty and not required (the skip is announced once per test binary).
///
/// # Panics
/// When the corpus is missing or empty and `MECATL_REQUIRE_CORPUS` is set.
pub(crate) fn corpus_folders() -> Option<Vec<PathBuf>> {
    let corpus = corpus_dir();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    if folders.is_empty() {
        let why = format!("no corpus workspaces at {}", corpus.display());
        assert!(
            std::env::var_os(REQUIRE).is_none_or(|v| v.is_empty() || v == "0"),
            "{why}, and {REQUIRE} is set: put the shared data beside the clone \
             or point MECATL_CORPUS_DIR at it"
        );
        announce_skip(&why);
        return None;
    }
    folders.sort();
    Some(folders)
}

/// The corpus directory when it holds at least one workspace (see
/// [`corpus_folders`] for the skip and the requirement).
pub(crate) fn corpus_root() -> Option<PathBuf> {
    corpus_folders().map(|_| corpus_dir())
}

/// Says once per test binary, on the real standard error (not the
/// harness's captured one), that corpus tests were skipped and why.
fn announce_skip(why: &str) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "note: {why}: the tests over the corpus are skipped in this binary \
             (set MECATL_CORPUS_DIR to run them, {REQUIRE}=1 to make this a failure)"
        );
    });
}
