//! Generates the tables of exact `o200k_base` token counting
//! (`src/prompt/tokens/o200k.rs`) into `OUT_DIR`, so that nothing is
//! deserialised, decompressed or built when the program runs:
//!
//! - `o200k_slots.bin`, `o200k_bytes.bin`, `o200k_lens.bin` and
//!   `o200k_pairs.bin`: every token of the encoding, its bytes in one blob,
//!   a hash table from bytes to rank in the layout of
//!   `src/prompt/tokens/o200k/layout.rs`, the length of each rank, and the
//!   rank of every two-byte string; `o200k_filter.bin`, the filter in
//!   front of the hash table. The vocabulary is read
//!   from the `bpe-openai` crate (a build dependency), so no vocabulary file
//!   lives in this repository.
//! - `o200k_classes.rs`: the Unicode classes the encoding's pre-tokenizing
//!   pattern names (`\p{L}`, `\p{N}`, `\s`, …), taken from `regex-syntax`,
//!   the crate whose tables the reference pre-tokenizer's regex uses, as a
//!   two-level lookup table of one flag byte per character.
//!
//! It also links the binary as a position-dependent executable on Linux
//! with glibc (see [`link_position_dependent`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use regex_syntax::hir::{Class, HirKind};

#[path = "src/prompt/tokens/o200k/layout.rs"]
mod layout;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/prompt/tokens/o200k/layout.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write_vocabulary(&out);
    write_classes(&out);
    link_position_dependent();
}

/// Links the binary (not the library, tests or benchmarks) with `-no-pie`
/// on Linux with glibc. A position-independent executable gets one dynamic
/// relocation per pointer in its read-only data (every string constant of
/// a panic location, a clap argument or a message table: 16,600 of them),
/// which the loader applies at every start and which dirties 70 pages (a
/// small `assemble`: 3.78 M instructions and 264 page faults as a PIE,
/// 3.55 M and 203 without), and this program is started once per shell
/// completion and per pre-commit run. Linked
/// position-dependent, the loader has nothing to apply. The price is that
/// the executable's own code is not placed at a random address (shared
/// libraries, heap and stack still are); the crate has no unsafe code.
fn link_position_dependent() {
    let target = |key: &str| std::env::var(key).unwrap_or_default();
    if target("CARGO_CFG_TARGET_OS") == "linux" && target("CARGO_CFG_TARGET_ENV") == "gnu" {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}

/// Writes the rank table and the byte blob, then looks every token up in
/// them as the program will, so a layout mistake fails the build.
fn write_vocabulary(out: &Path) {
    let bpe = &bpe_openai::o200k_base().bpe;
    let count = u32::try_from(bpe.num_tokens()).expect("fewer than 2^32 tokens");
    assert!(
        u64::from(count) < (1 << layout::RANK_BITS) - 1,
        "ranks fit their field"
    );
    let mut blob: Vec<u8> = Vec::new();
    let mut slots = vec![layout::EMPTY; layout::SLOT_COUNT];
    let mut filter = vec![0u64; layout::FILTER_WORDS];
    for rank in 0..count {
        let token = bpe.token_bytes(rank);
        assert!(
            (1..=1 << layout::LEN_BITS).contains(&token.len()),
            "token {rank} has a length the slot can hold"
        );
        let offset = blob.len() as u64;
        blob.extend_from_slice(token);
        let hash = layout::hash(token);
        filter[layout::filter_word(hash)] |= layout::filter_bits(hash);
        let mut slot = layout::home_slot(hash);
        while slots[slot] != layout::EMPTY {
            slot = layout::next_slot(slot);
        }
        slots[slot] =
            layout::key(hash, token.len()) | (offset << layout::RANK_BITS) | u64::from(rank);
    }
    assert!(
        (blob.len() as u64) < (1 << layout::OFFSET_BITS),
        "offsets fit their field"
    );
    for rank in 0..count {
        assert_eq!(
            find(&slots, &blob, bpe.token_bytes(rank)),
            Some(rank),
            "token {rank} is found under its own rank (no duplicate token)"
        );
    }
    let bytes: Vec<u8> = slots.iter().flat_map(|slot| slot.to_le_bytes()).collect();
    let lens: Vec<u8> = (0..count)
        .map(|rank| u8::try_from(bpe.token_len(rank)).expect("checked above"))
        .collect();
    write(&out.join("o200k_slots.bin"), &bytes);
    write(&out.join("o200k_bytes.bin"), &blob);
    write(&out.join("o200k_lens.bin"), &lens);
    write(&out.join("o200k_pairs.bin"), &pair_ranks(&slots, &blob));
    let filter: Vec<u8> = filter.iter().flat_map(|word| word.to_le_bytes()).collect();
    write(&out.join("o200k_filter.bin"), &filter);
}

/// The rank of every two-byte string (`u32::MAX` for none), indexed by
/// `first << 8 | second`, as little-endian `u32`s: the lookup merging
/// makes most, answered without hashing.
fn pair_ranks(slots: &[u64], blob: &[u8]) -> Vec<u8> {
    (0..=u16::MAX)
        .flat_map(|pair| {
            find(slots, blob, &pair.to_be_bytes())
                .unwrap_or(u32::MAX)
                .to_le_bytes()
        })
        .collect()
}

/// The rank of `token` in the table being built, found the way
/// `src/prompt/tokens/o200k/vocab.rs` finds it.
fn find(slots: &[u64], blob: &[u8], token: &[u8]) -> Option<u32> {
    let hash = layout::hash(token);
    let key = layout::key(hash, token.len());
    let mut slot = layout::home_slot(hash);
    loop {
        let entry = slots[slot];
        if entry == layout::EMPTY {
            return None;
        }
        if entry >> layout::KEY_SHIFT << layout::KEY_SHIFT == key {
            let offset = (entry >> layout::RANK_BITS) as usize & ((1 << layout::OFFSET_BITS) - 1);
            if &blob[offset..offset + token.len()] == token {
                return Some((entry & ((1 << layout::RANK_BITS) - 1)) as u32);
            }
        }
        slot = layout::next_slot(slot);
    }
}

/// The character classes of the pre-tokenizing pattern, one flag bit
/// each, in the order of the `FLAG_*` constants the generated file
/// declares. Each is written as the pattern writes it.
const CLASSES: [(&str, &str); 6] = [
    ("UPPER", r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"),
    ("LOWER", r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"),
    ("LETTER", r"\p{L}"),
    ("NUMBER", r"\p{N}"),
    ("SPACE", r"\s"),
    ("NEWLINE", r"[\r\n]"),
];

/// Characters per block of the two-level class table.
const BLOCK: usize = 128;

/// Writes the class table: `CLASS_INDEX[c / BLOCK]` names a block of
/// `CLASS_BLOCKS`, whose `c % BLOCK`th byte holds the flags of `c`.
fn write_classes(out: &Path) {
    let chars = usize::try_from(u32::from(char::MAX)).expect("usize holds a u32") + 1;
    let mut flags = vec![0u8; chars];
    for (bit, (_, pattern)) in CLASSES.iter().enumerate() {
        let hir = regex_syntax::Parser::new()
            .parse(pattern)
            .expect("the class parses");
        let HirKind::Class(Class::Unicode(class)) = hir.kind() else {
            panic!("{pattern} is a Unicode class");
        };
        for range in class.ranges() {
            for c in u32::from(range.start())..=u32::from(range.end()) {
                flags[c as usize] |= 1 << bit;
            }
        }
    }
    let mut blocks: Vec<&[u8]> = Vec::new();
    let mut seen: HashMap<&[u8], u16> = HashMap::new();
    let mut index: Vec<u16> = Vec::new();
    for block in flags.chunks(BLOCK) {
        let at = *seen.entry(block).or_insert_with(|| {
            blocks.push(block);
            u16::try_from(blocks.len() - 1).expect("fewer than 2^16 distinct blocks")
        });
        index.push(at);
    }
    let mut rust = String::from("// Generated by build.rs from regex-syntax's Unicode tables.\n");
    for (bit, (name, pattern)) in CLASSES.iter().enumerate() {
        writeln!(rust, "/// Flag of `{pattern}`.").unwrap();
        writeln!(rust, "pub(super) const FLAG_{name}: u8 = 1 << {bit};").unwrap();
    }
    writeln!(rust, "/// Characters per block of [`CLASS_BLOCKS`].").unwrap();
    writeln!(rust, "pub(super) const CLASS_BLOCK: usize = {BLOCK};").unwrap();
    writeln!(
        rust,
        "/// The block of [`CLASS_BLOCKS`] of each run of [`CLASS_BLOCK`] characters."
    )
    .unwrap();
    write_array(&mut rust, "CLASS_INDEX", "u16", &index);
    writeln!(
        rust,
        "/// The distinct blocks of flags, one byte per character."
    )
    .unwrap();
    let all: Vec<u8> = blocks.concat();
    write_array(&mut rust, "CLASS_BLOCKS", "u8", &all);
    write(&out.join("o200k_classes.rs"), rust.as_bytes());
}

/// Appends `static NAME: [TYPE; N] = [...];` to `rust`.
fn write_array<T: std::fmt::Display>(rust: &mut String, name: &str, ty: &str, values: &[T]) {
    writeln!(
        rust,
        "pub(super) static {name}: [{ty}; {}] = [",
        values.len()
    )
    .unwrap();
    for line in values.chunks(32) {
        let line: Vec<String> = line.iter().map(ToString::to_string).collect();
        writeln!(rust, "    {},", line.join(", ")).unwrap();
    }
    writeln!(rust, "];").unwrap();
}

/// Writes `bytes` to `path`, leaving the file untouched when it already
/// holds them (so dependants are not rebuilt for nothing).
fn write(path: &Path, bytes: &[u8]) {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return;
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
