//! Exact `o200k_base` token counts (SPEC §15.4) from static tables: the
//! text is cut into pieces by the encoding's pre-tokenizer ([`split`]),
//! and each piece is encoded by byte-pair merging with the ranks of the
//! vocabulary ([`vocab`]), as OpenAI's `tiktoken` does:
//!
//! - a piece that is one token (most are) costs one table lookup, a
//!   two-byte string one read of a table of all of them, a single byte
//!   nothing (every byte is a token); most strings that are no token are
//!   turned away by a filter in front of the table (see [`layout`]);
//! - a short piece is merged as `tiktoken` merges it: repeatedly join the
//!   adjacent pair whose joined bytes have the lowest rank, the leftmost
//!   on a tie, until no joined pair is a token; quadratic in the piece,
//!   which is at most [`limits::O200K_SHORT_PIECE_BYTES`] long;
//! - a longer piece (a run of one letter, a line of `=`, a megabyte of
//!   spaces) gets the same merges from a queue of candidate pairs bucketed
//!   by rank ([`Queue`]) over a bitmap of part boundaries, `O(n log n)` in
//!   the piece at worst and mostly sequential reads;
//! - in a text of [`limits::O200K_PIECE_CACHE_MIN_BYTES`] or more, the
//!   count of each piece of three bytes or more is kept in a two-way cache
//!   ([`PieceCache`]) and reused when the same bytes come again, since
//!   text repeats its words; the first eight bytes of a piece are kept in
//!   the cache itself, so a short piece is recognised without a read of
//!   the text.
//!
//! Only the count is kept, never the tokens. Every step is checked against
//! the `bpe-openai` crate in the tests: splits character by character over
//! all of Unicode, counts on arbitrary and real text.

mod layout;
mod split;
mod vocab;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use crate::limits;

/// The number of `o200k_base` tokens of `text`.
pub(super) fn count(text: &str) -> usize {
    if text.len() < limits::O200K_PIECE_CACHE_MIN_BYTES {
        return split::pieces(text)
            .map(|piece| count_piece(piece.as_bytes(), layout::hash))
            .sum();
    }
    let mut cache = PieceCache::new(text.as_bytes());
    let mut at = 0;
    split::pieces(text)
        .map(|piece| {
            let count = cache.count(at, piece.len());
            at += piece.len();
            count
        })
        .sum()
}

/// The counts of pieces met earlier in the same text: text repeats its
/// words, so most pieces of a long text are counted once and then found
/// here, at the cost of one hash and a comparison of one or two words.
/// Two-way set-associative: a piece may be in either slot of the set its
/// hash names, the one met last first; a new piece takes the first slot
/// and moves the other out.
struct PieceCache<'t> {
    /// The text whose pieces are counted.
    text: &'t [u8],
    /// The sets of two slots; their number is a power of two.
    sets: Vec<[CachedPiece; 2]>,
}

/// A slot of [`PieceCache`].
#[derive(Clone, Copy, Default)]
struct CachedPiece {
    /// The piece's first eight bytes, zero-padded: the whole of the short
    /// pieces most text is cut into, so those are compared without a read
    /// of the text.
    head: u64,
    /// Where the piece starts in the text (the high bits), its length and
    /// its count (a byte each); 0 is an empty slot (no piece is empty).
    meta: u64,
}

impl<'t> PieceCache<'t> {
    /// An empty cache for the pieces of `text`: a slot per
    /// [`limits::O200K_PIECE_CACHE_BYTES_PER_SLOT`] bytes of it, up to
    /// [`limits::O200K_PIECE_CACHE_SLOTS`].
    fn new(text: &'t [u8]) -> Self {
        let slots = (text.len() / limits::O200K_PIECE_CACHE_BYTES_PER_SLOT)
            .min(limits::O200K_PIECE_CACHE_SLOTS);
        let sets = (slots / 2).next_power_of_two();
        Self {
            text,
            sets: vec![[CachedPiece::default(); 2]; sets],
        }
    }

    /// The count of the piece of `len` bytes (at least one) at byte `at`
    /// of the text, from the cache or counted. Pieces of more than 255
    /// bytes, or of more than 255 tokens, are always counted.
    fn count(&mut self, at: usize, len: usize) -> usize {
        let text = self.text;
        let piece = text.get(at..at + len).unwrap_or_default();
        if len <= 2 || len > 0xff {
            // A byte or two is counted with no hash (see `count_piece`),
            // faster than the cache would answer.
            return count_piece(piece, layout::hash);
        }
        let hash = layout::hash(piece);
        let head = head_word(text, at, len);
        let mask = self.sets.len() - 1;
        let Some(set) = self.sets.get_mut(hash as usize & mask) else {
            return count_piece(piece, |_| hash);
        };
        let is_piece = |slot: &CachedPiece| {
            let cached_at = (slot.meta >> 16) as usize;
            slot.head == head
                && (slot.meta >> 8) & 0xff == len as u64
                && (len <= 8
                    || text
                        .get(cached_at + 8..cached_at + len)
                        .zip(piece.get(8..))
                        .is_some_and(|(cached, tail)| vocab::same_bytes(cached, tail)))
        };
        if is_piece(&set[0]) {
            return (set[0].meta & 0xff) as usize;
        }
        if is_piece(&set[1]) {
            set.swap(0, 1);
            return (set[0].meta & 0xff) as usize;
        }
        let count = count_piece(piece, |_| hash);
        if count <= 0xff {
            set[1] = set[0];
            set[0] = CachedPiece {
                head,
                meta: (at as u64) << 16 | (len as u64) << 8 | count as u64,
            };
        }
        count
    }
}

/// The first (up to) eight bytes of the `len` bytes at `at` in `text`, as
/// a little-endian word padded with zeros.
fn head_word(text: &[u8], at: usize, len: usize) -> u64 {
    let take = len.min(8);
    let mask = u64::MAX >> (64 - 8 * take.max(1));
    match text.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        Some(word) => u64::from_le_bytes(*word) & mask,
        None => {
            let mut word = [0; 8];
            if let (Some(to), Some(from)) = (word.get_mut(..take), text.get(at..at + take)) {
                to.copy_from_slice(from);
            }
            u64::from_le_bytes(word)
        }
    }
}

/// The number of tokens of one pre-tokenized piece; `hash` gives its
/// [`layout::hash`] when the lookup needs it. A single byte is always one
/// token (the encoding is byte-level: every byte is a token).
fn count_piece(piece: &[u8], hash: impl FnOnce(&[u8]) -> u64) -> usize {
    if piece.len() == 1 || vocab::lookup(piece, hash).is_some() {
        1
    } else if piece.len() <= limits::O200K_SHORT_PIECE_BYTES {
        merge_short(piece)
    } else {
        merge_long(piece)
    }
}

/// The rank of the join of two adjacent parts, or `u32::MAX` when it is no
/// token (so that it never wins a comparison).
fn pair_rank(piece: &[u8], start: usize, end: usize) -> u32 {
    piece
        .get(start..end)
        .and_then(vocab::rank)
        .unwrap_or(u32::MAX)
}

/// `tiktoken`'s merge loop on a piece of at most
/// [`limits::O200K_SHORT_PIECE_BYTES`] bytes, on the stack: `starts` holds
/// where each part starts (and the end), `ranks[i]` the rank of joining
/// part `i` with part `i + 1`.
fn merge_short(piece: &[u8]) -> usize {
    const MAX: usize = limits::O200K_SHORT_PIECE_BYTES;
    let len = piece.len().min(MAX);
    let mut starts = [0usize; MAX + 1];
    let mut ranks = [u32::MAX; MAX];
    for (i, start) in starts.iter_mut().enumerate().take(len + 1) {
        *start = i;
    }
    for (i, rank) in ranks.iter_mut().enumerate().take(len.saturating_sub(1)) {
        *rank = pair_rank(piece, i, i + 2);
    }
    let mut parts = len;
    loop {
        let Some((at, _)) = ranks[..parts.saturating_sub(1)]
            .iter()
            .enumerate()
            .filter(|(_, rank)| **rank != u32::MAX)
            .min_by_key(|(i, rank)| (**rank, *i))
        else {
            return parts;
        };
        // Join parts `at` and `at + 1`: the boundary between them goes.
        starts.copy_within(at + 2..=parts, at + 1);
        ranks.copy_within(at + 1..parts.saturating_sub(1), at);
        parts -= 1;
        if at + 1 < parts {
            ranks[at] = pair_rank(piece, starts[at], starts[at + 2]);
        } else {
            ranks[at] = u32::MAX;
        }
        if at > 0 {
            ranks[at - 1] = pair_rank(piece, starts[at - 1], starts[at + 1]);
        }
    }
}

/// The same merges on a piece of any length: candidate pairs wait in a
/// [`Queue`] ordered by (rank, start), which is `tiktoken`'s choice (the
/// lowest rank, the leftmost on a tie); part boundaries are bits, and a
/// queued pair still stands when its start is a boundary and its two
/// parts together are exactly as long as its token.
fn merge_long(piece: &[u8]) -> usize {
    let len = piece.len();
    let mut bounds = Bounds::new(len);
    let mut queue = Queue::default();
    for (start, pair) in piece.windows(2).enumerate() {
        if let Some(rank) = vocab::pair_rank(pair[0], pair[1]) {
            queue.push(rank, start);
        }
    }
    let mut parts = len;
    while let Some((rank, start)) = queue.pop() {
        if !bounds.is_set(start) {
            continue;
        }
        let mid = bounds.next(start + 1);
        if mid >= len {
            continue;
        }
        let end = bounds.next(mid + 1);
        if end - start != vocab::token_len(rank) {
            continue;
        }
        bounds.clear(mid);
        parts -= 1;
        if end < len {
            let after = bounds.next(end + 1);
            if let Some(rank) = piece.get(start..after).and_then(vocab::rank) {
                queue.push(rank, start);
            }
        }
        if start > 0 {
            let before = bounds.previous(start - 1);
            if let Some(rank) = piece.get(before..end).and_then(vocab::rank) {
                queue.push(rank, before);
            }
        }
    }
    parts
}

/// The candidate pairs of [`merge_long`], popped lowest (rank, start)
/// first. Merging mostly makes tokens of higher rank than the one just
/// merged, so pairs wait in one bucket per rank, and a bucket is sorted by
/// start once, when its rank comes up, then read in order: a megabyte of
/// one letter is a few long sorted runs, not a million heap operations.
/// The few pairs found of a rank not above the one being read (a token
/// whose own merges ran in another order) go through a small heap.
#[derive(Default)]
struct Queue {
    /// The starts of the pairs of each rank above `current`, unsorted.
    buckets: HashMap<u32, Vec<usize>, BuildHasherDefault<RankHasher>>,
    /// The ranks that have a bucket, lowest first.
    ranks: BinaryHeap<Reverse<u32>>,
    /// The rank being read.
    current: u32,
    /// Its bucket, sorted, read from `next` on.
    starts: Vec<usize>,
    /// The next start of `starts` to pop.
    next: usize,
    /// The pairs of rank at most `current` found while reading it.
    early: BinaryHeap<Reverse<(u32, usize)>>,
}

impl Queue {
    /// Queues the pair of rank `rank` starting at `start`.
    fn push(&mut self, rank: u32, start: usize) {
        if rank <= self.current {
            self.early.push(Reverse((rank, start)));
        } else {
            self.buckets
                .entry(rank)
                .or_insert_with(|| {
                    self.ranks.push(Reverse(rank));
                    Vec::new()
                })
                .push(start);
        }
    }

    /// The lowest queued (rank, start), removed. Every rank in `early` is
    /// at most `current`, and every bucket's above it.
    fn pop(&mut self) -> Option<(u32, usize)> {
        loop {
            if let Some(&start) = self.starts.get(self.next) {
                let read = (self.current, start);
                if let Some(&Reverse(early)) = self.early.peek()
                    && early < read
                {
                    self.early.pop();
                    return Some(early);
                }
                self.next += 1;
                return Some(read);
            }
            if let Some(Reverse(early)) = self.early.pop() {
                return Some(early);
            }
            let Reverse(rank) = self.ranks.pop()?;
            self.starts = self.buckets.remove(&rank).unwrap_or_default();
            self.starts.sort_unstable();
            self.current = rank;
            self.next = 0;
        }
    }
}

/// A hasher for ranks, which are small distinct integers: one
/// multiplication, against the standard library's keyed hash.
#[derive(Default)]
struct RankHasher(u64);

impl Hasher for RankHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u32(u32::from(byte));
        }
    }

    fn write_u32(&mut self, rank: u32) {
        let product = (self.0 ^ u64::from(rank)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = product ^ (product >> 29);
    }
}

/// The boundaries between the parts of a piece of `len` bytes: bit `i` is
/// set when a part starts at byte `i`; bit `len` is always set.
struct Bounds {
    words: Vec<u64>,
}

impl Bounds {
    /// Every byte its own part.
    fn new(len: usize) -> Self {
        let mut words = vec![u64::MAX; len / 64 + 1];
        if let Some(last) = words.last_mut() {
            // Keep bits 0..=len % 64 of the last word.
            *last = u64::MAX >> (63 - len % 64);
        }
        Self { words }
    }

    /// Whether a part starts at `i`.
    fn is_set(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|word| word >> (i % 64) & 1 == 1)
    }

    /// Removes the boundary at `i`.
    fn clear(&mut self, i: usize) {
        if let Some(word) = self.words.get_mut(i / 64) {
            *word &= !(1 << (i % 64));
        }
    }

    /// The first boundary at or after `i` (the end when there is none).
    fn next(&self, i: usize) -> usize {
        let mut at = i / 64;
        let mut word = self
            .words
            .get(at)
            .map_or(0, |word| word & (u64::MAX << (i % 64)));
        while word == 0 {
            at += 1;
            match self.words.get(at) {
                Some(next) => word = *next,
                None => return self.words.len() * 64,
            }
        }
        at * 64 + word.trailing_zeros() as usize
    }

    /// The last boundary at or before `i` (0 is always one while it is
    /// not cleared, and it never is).
    fn previous(&self, i: usize) -> usize {
        let mut at = i / 64;
        let mut word = self
            .words
            .get(at)
            .map_or(0, |word| word & (u64::MAX >> (63 - i % 64)));
        while word == 0 {
            if at == 0 {
                return 0;
            }
            at -= 1;
            word = self.words.get(at).copied().unwrap_or(0);
        }
        at * 64 + 63 - word.leading_zeros() as usize
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The reference count: the `bpe-openai` crate, itself checked against
    /// OpenAI's `tiktoken` by its authors and by README's measurement.
    fn reference(text: &str) -> usize {
        bpe_openai::o200k_base().count(text)
    }

    #[test]
    fn counts_match_the_reference_on_known_text() {
        for text in [
            "",
            "hello world",
            "fn main() {\n    println!(\"hi\");\n}\n",
            "日本語のテキスト",
            "<|endoftext|>",
            "kalomire tanser voquidra, pelux zenorbli!",
            "   \t\n\n  x",
        ] {
            assert_eq!(count(text), reference(text), "{text:?}");
        }
    }

    /// Runs that make one long piece, merged by the queue rather than the
    /// loop, and runs just around the cut-over length.
    #[test]
    fn long_runs_count_as_the_reference_counts_them() {
        let limit = limits::O200K_SHORT_PIECE_BYTES;
        for unit in [
            "a", " ", "=", "ab", "日", "\n", "0", "é", "\u{301}", "a\u{301}",
        ] {
            for n in [limit - 1, limit, limit + 1, 2 * limit + 3, 1_000, 10_000] {
                let text = unit.repeat(n.div_ceil(unit.len()));
                assert_eq!(count(&text), reference(&text), "{unit:?} × {n}");
            }
        }
    }

    /// Both merges give the same count on pieces the loop can take, so the
    /// queue is checked on the many short pieces too.
    #[test]
    fn the_queue_merges_as_the_loop_does() {
        let text = "Thequickbrownfoxjumpsoverthelazydog0123456789 !!!??///===\u{3000}";
        for start in 0..text.len() {
            for end in start + 2..=text.len().min(start + limits::O200K_SHORT_PIECE_BYTES) {
                let Some(piece) = text.get(start..end) else {
                    continue;
                };
                let piece = piece.as_bytes();
                assert_eq!(merge_short(piece), merge_long(piece), "{piece:?}");
            }
        }
    }

    #[test]
    fn every_byte_is_a_token() {
        for byte in 0..=u8::MAX {
            assert!(vocab::rank(&[byte]).is_some(), "{byte:#x}");
            assert_eq!(count_piece(&[byte], layout::hash), 1);
        }
    }

    /// The head of a piece is its first eight bytes padded with zeros,
    /// also where fewer than eight bytes of text are left.
    #[test]
    fn a_piece_s_head_is_its_first_eight_bytes() {
        let text = b"abcdefghijkl\x00\xffz";
        for at in 0..text.len() {
            for len in 1..=text.len() - at {
                let mut word = [0; 8];
                let take = len.min(8);
                word[..take].copy_from_slice(&text[at..at + take]);
                assert_eq!(
                    head_word(text, at, len),
                    u64::from_le_bytes(word),
                    "{at} {len}"
                );
            }
        }
    }

    /// More distinct pieces than the cache has slots, many of them longer
    /// than the head it keeps and alike in their first eight bytes, each
    /// met several times: evicted, moved and compared pieces all count as
    /// the reference counts them.
    #[test]
    fn a_full_cache_counts_exactly() {
        // More words than the most slots a cache has (it has fewer for a
        // shorter text).
        let words = limits::O200K_PIECE_CACHE_SLOTS as u32 * 5 / 4;
        let mut text = String::new();
        for round in 0..2 {
            for i in 0..words {
                // `i` in base 26, so every word is another.
                let word: String = (0..4)
                    .map(|k| char::from(b'a' + (i / 26u32.pow(k) % 26) as u8))
                    .collect();
                let prefix = if i % 2 == 0 { "interchangeab" } else { "" };
                text.push_str(&format!(" {prefix}{word}{}", round + i % 7));
            }
        }
        assert_eq!(count(&text), reference(&text));
    }

    #[test]
    fn bounds_find_their_neighbours_across_words() {
        let mut bounds = Bounds::new(130);
        assert_eq!(bounds.next(0), 0);
        for i in 1..130 {
            bounds.clear(i);
        }
        assert_eq!(bounds.next(1), 130);
        assert_eq!(bounds.previous(129), 0);
        assert!(bounds.is_set(130) && !bounds.is_set(64));
        assert!(!bounds.is_set(131));
    }

    /// Arbitrary text, runs of one character or of a short unit, and the
    /// classes the pre-tokenizer treats differently, mixed.
    fn awkward_text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            any::<String>(),
            "[ \t\r\n]{0,40}",
            "[a'sA0-9 ]{0,40}",
            "[a-z]{1,12}( [a-z]{1,12}){0,6}",
            (any::<char>(), 0..400usize).prop_map(|(c, n)| c.to_string().repeat(n)),
            ("[a-z=. ]{1,3}", 0..200usize).prop_map(|(unit, n)| unit.repeat(n)),
        ];
        prop::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn counts_match_the_reference_on_arbitrary_text(text in awkward_text()) {
            prop_assert_eq!(count(&text), reference(&text));
        }

        /// Text long enough to be counted through the cache of piece
        /// counts, every piece of it met again and again.
        #[test]
        fn long_texts_reuse_piece_counts_exactly(text in awkward_text()) {
            let times = limits::O200K_PIECE_CACHE_MIN_BYTES / text.len().max(1) + 1;
            let long = text.repeat(times);
            prop_assert_eq!(count(&long), reference(&long));
        }

        #[test]
        fn counts_match_the_reference_on_arbitrary_bytes_made_text(
            bytes in prop::collection::vec(any::<u8>(), 0..300)
        ) {
            let text = String::from_utf8_lossy(&bytes);
            prop_assert_eq!(count(&text), reference(&text));
        }
    }
}
