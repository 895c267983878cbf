//! The rule-file frontmatter splitter (SPEC §7.2) and the `paths` reader on
//! whatever block it finds: never a panic, and the split obeys its contract.

#![no_main]

use libfuzzer_sys::fuzz_target;
use mecatl_prompt::prompt::rules::frontmatter::{parse_paths, split};

fuzz_target!(|raw: &[u8]| {
    let got = split(raw);
    let text = String::from_utf8_lossy(raw);
    match &got.front {
        None => assert_eq!(got.body, text, "without a block the body is the file"),
        Some(front) => {
            // The block and body come from the BOM-less, LF-normalised text.
            let normalised = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let normalised = normalised.replace("\r\n", "\n");
            assert!(normalised.starts_with("---\n"));
            assert!(normalised.ends_with(&got.body));
            assert!(front.is_empty() || front.ends_with('\n'));
            assert!(!front.split('\n').any(|line| line == "---"));
            if let Ok(globs) = parse_paths(front) {
                assert!(globs.iter().all(|g| !g.is_empty()));
                assert!(globs.iter().all(|g| !g.contains(char::is_whitespace)));
            }
        }
    }
});
