//! The `paths` reader (SPEC §7.2) on arbitrary YAML text: never a panic,
//! every glob trimmed and non-empty, and an error always located inside the
//! block (the opening fence is line 1).

#![no_main]

use libfuzzer_sys::fuzz_target;
use mecatl_prompt::prompt::rules::frontmatter::{parse_paths, split_globs};

fuzz_target!(|front: &str| {
    match parse_paths(front) {
        Ok(globs) => {
            assert!(globs.iter().all(|g| !g.is_empty()));
            assert!(globs.iter().all(|g| !g.contains(char::is_whitespace)));
        }
        Err(err) => {
            assert!(err.line >= 1 && err.column >= 1, "{err:?}");
            // YAML breaks lines at LF, CRLF and a lone CR; counting every
            // CR and LF bounds that. Two more: the opening and closing fences.
            let breaks = front.bytes().filter(|b| matches!(b, b'\n' | b'\r')).count();
            let lines = breaks as u64 + 2;
            assert!(err.line <= lines, "{err:?} outside {lines} lines");
        }
    }
    for glob in split_globs(front) {
        assert!(!glob.is_empty() && !glob.contains(char::is_whitespace));
    }
});
