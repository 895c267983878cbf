//! The layout of the generated `o200k_base` rank table, shared word for
//! word by the build script that writes it (`build.rs` includes this file)
//! and by [`super::vocab`], which reads it: one hash function and one slot
//! format, so the two cannot disagree.
//!
//! The table is open addressing with linear probing over
//! [`SLOT_COUNT`] slots of one `u64` each, stored little-endian. A slot
//! packs, from the low bits: the token's rank ([`RANK_BITS`]), the offset
//! of its bytes in the byte blob ([`OFFSET_BITS`]), its length less one
//! ([`LEN_BITS`]) and the high bits of its hash (the rest), so most misses
//! are rejected without reading the blob. An empty slot is [`EMPTY`].
//!
//! In front of the table sits a filter of [`FILTER_WORDS`] `u64` words
//! (a blocked Bloom filter): each token sets two bits of one word, both
//! chosen by hash bits the slot does not use. Merging mostly looks up
//! strings that are no token; the filter (256 KiB, which stays in a
//! core's second-level cache where the 4 MiB table does not) answers most
//! of those without a read of the table.

/// log2 of the number of slots: 2^19 slots for 199,998 tokens keeps the
/// load under 40%, so a miss (the common lookup while merging) ends after
/// one or two probes.
pub(crate) const SLOT_BITS: u32 = 19;
/// The number of slots.
pub(crate) const SLOT_COUNT: usize = 1 << SLOT_BITS;
/// Bits of a slot holding the token's rank (its id, its merge priority).
pub(crate) const RANK_BITS: u32 = 18;
/// Bits of a slot holding the offset of the token's bytes in the blob.
pub(crate) const OFFSET_BITS: u32 = 21;
/// Bits of a slot holding the token's length less one.
pub(crate) const LEN_BITS: u32 = 7;
/// Where the key (length and hash bits) starts in a slot.
pub(crate) const KEY_SHIFT: u32 = RANK_BITS + OFFSET_BITS;
/// A slot that holds no token (its rank field is all ones, which no rank
/// reaches).
pub(crate) const EMPTY: u64 = u64::MAX;

/// log2 of the number of words of the filter.
pub(crate) const FILTER_WORD_BITS: u32 = 15;
/// The number of `u64` words of the filter: 2^21 bits for 199,998 tokens,
/// about 10 bits a token, so a string that is no token passes for about
/// one in 30 (3.5% of the strings the tests try).
pub(crate) const FILTER_WORDS: usize = 1 << FILTER_WORD_BITS;

/// The word of the filter that holds a hash's bits: hash bits just above
/// those of [`home_slot`].
pub(crate) fn filter_word(hash: u64) -> usize {
    (hash >> SLOT_BITS) as usize & (FILTER_WORDS - 1)
}

/// The two bits (maybe one, when they coincide) a hash sets in its
/// [`filter_word`]: two six-bit fields of the hash above that word's.
pub(crate) fn filter_bits(hash: u64) -> u64 {
    let bits = hash >> (SLOT_BITS + FILTER_WORD_BITS);
    (1 << (bits & 63)) | (1 << ((bits >> 6) & 63))
}

/// The key a token of `len` bytes (1 to 2^[`LEN_BITS`]) with hash `hash`
/// has in its slot: its length less one, then the hash's high bits, both
/// already shifted into place.
pub(crate) fn key(hash: u64, len: usize) -> u64 {
    let len_field = (len as u64).wrapping_sub(1) & ((1 << LEN_BITS) - 1);
    let hash_field = hash >> (KEY_SHIFT + LEN_BITS);
    ((hash_field << LEN_BITS) | len_field) << KEY_SHIFT
}

/// The first slot probed for a hash: its low bits (the key holds the
/// high ones).
pub(crate) fn home_slot(hash: u64) -> usize {
    (hash as usize) & (SLOT_COUNT - 1)
}

/// The slot after `slot`, wrapping around.
pub(crate) fn next_slot(slot: usize) -> usize {
    (slot + 1) & (SLOT_COUNT - 1)
}

/// Multipliers of the hash (from wyhash's secret), odd with mixed bits.
const MIX_A: u64 = 0xa076_1d64_78bd_642f;
const MIX_B: u64 = 0xe703_7ed1_a0b4_28db;
const MIX_C: u64 = 0x8ebc_6af0_9c88_c6e3;

/// A 64-bit hash of a byte string, the same on every target (bytes are
/// read little-endian). Not cryptographic: a lookup always compares the
/// bytes, so a collision costs a probe, never a wrong answer.
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    let len = bytes.len();
    let mut state = MIX_C;
    let mut rest = bytes;
    while rest.len() > 16 {
        state = fold(read_u64(rest) ^ MIX_A, read_u64(&rest[8..]) ^ state);
        rest = &rest[16..];
    }
    // The last (up to) 16 bytes, read so that every byte counts: two
    // overlapping words, or for fewer than four bytes the first, middle
    // and last byte.
    let (a, b) = if len >= 8 {
        let tail = &bytes[len - 8..];
        (read_u64(rest), read_u64(tail))
    } else if len >= 4 {
        (read_u32(bytes), read_u32(&bytes[len - 4..]))
    } else if len > 0 {
        let three = (u64::from(bytes[0]) << 16)
            | (u64::from(bytes[len / 2]) << 8)
            | u64::from(bytes[len - 1]);
        (three, 0)
    } else {
        (0, 0)
    };
    fold(fold(a ^ MIX_A, b ^ state) ^ MIX_B, len as u64 ^ MIX_A)
}

/// The folded 128-bit product of two words: both halves mixed into one.
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// The first eight bytes as a little-endian word (zero when shorter).
fn read_u64(bytes: &[u8]) -> u64 {
    bytes
        .first_chunk()
        .map_or(0, |word| u64::from_le_bytes(*word))
}

/// The first four bytes as a little-endian word (zero when shorter).
fn read_u32(bytes: &[u8]) -> u64 {
    bytes
        .first_chunk()
        .map_or(0, |word| u64::from(u32::from_le_bytes(*word)))
}
