//! The language server's frame reader (SPEC §21.1, "Robustness") on
//! arbitrary bytes: never a panic, never a hang, and every message read
//! consumes input, so the stream always reaches its end.

#![no_main]

use libfuzzer_sys::fuzz_target;
use mecatl_prompt::cli::lsp::framing::read_message;

fuzz_target!(|raw: &[u8]| {
    let mut input = raw;
    let mut left = input.len();
    while let Ok(Some(_)) = read_message(&mut input) {
        assert!(input.len() < left, "a message consumes input");
        left = input.len();
    }
});
