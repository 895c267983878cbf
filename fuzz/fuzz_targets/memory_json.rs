//! The memory.json reader (SPEC §6.5) and the fenced index it feeds: never a
//! panic, and no stored text can close the fence or forge a line.

#![no_main]

use libfuzzer_sys::fuzz_target;
use mecatl_prompt::adapters::memoryfs::parse_memory_json;
use mecatl_prompt::prompt::memory_index::{
    MEMORY_INDEX_CLOSE_TAG, MEMORY_INDEX_OPEN_TAG, render_memory_index,
};
use mecatl_prompt::prompt::user_model::{
    USER_MODEL_CLOSE_TAG, USER_MODEL_OPEN_TAG, render_user_model,
};

/// One fence, opened and closed once, holding at most one line per entry
/// plus a footer.
fn check_fence(text: &str, open: &str, close: &str, entries: usize) {
    let open_name = open.split(' ').next().unwrap_or(open);
    assert_eq!(text.matches(open_name).count(), 1, "{text}");
    assert_eq!(text.matches(close).count(), 1, "{text}");
    assert!(text.ends_with(close), "{text}");
    let Some((_, inside)) = text.split_once(open) else {
        panic!("no opening tag in {text}");
    };
    let lines = inside.trim_start_matches('\n').lines().count();
    assert!(
        lines <= entries + 2,
        "{lines} lines for {entries} entries: {text}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(entries) = parse_memory_json(data) else {
        return;
    };
    let count = entries.len();
    if let Some(text) = render_memory_index(entries.clone(), 0, 0) {
        check_fence(&text, MEMORY_INDEX_OPEN_TAG, MEMORY_INDEX_CLOSE_TAG, count);
    }
    if let Some(text) = render_user_model(entries, 0, 0) {
        check_fence(&text, USER_MODEL_OPEN_TAG, USER_MODEL_CLOSE_TAG, count);
    }
});
