//! The `@import` scanner (SPEC §14.3) and Claude Code's content transform on arbitrary
//! text: never a panic, every import points at an `@` of the text on the line it names,
//! holds no separator, and resolves to a normalised absolute path.

#![no_main]

use std::path::{Component, Path};

use libfuzzer_sys::fuzz_target;
use mecatl_prompt::prompt::imports::scan;
use mecatl_prompt::prompt::markdown::{claude_content, claude_memory};
use mecatl_prompt::prompt::text::js_trim;

fuzz_target!(|raw: &[u8]| {
    let text = String::from_utf8_lossy(raw);
    for import in scan(&text) {
        assert!(text[import.offset..].starts_with('@'));
        assert_eq!(import.line, 1 + text[..import.offset].matches('\n').count());
        assert!(!import.path.is_empty());
        assert!(!import.path.contains(['\t', '\n', '\r', '#']));
        let target = import.resolve(Path::new("/ws/sub"), Path::new("/home/u"));
        assert!(target.is_absolute());
        assert!(!target.components().any(|c| matches!(c, Component::CurDir | Component::ParentDir)));
    }
    if let Some(content) = claude_content(&text) {
        assert!(!content.is_empty());
        assert_eq!(js_trim(&content), &*content);
    }
    if let Some((memory, _)) = claude_memory(&text) {
        assert!(memory.split('\n').count() <= 200);
    }
});
