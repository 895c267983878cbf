//! Text helpers shared by the turn-0 messages, commands and the operator
//! profile (SPEC §6.5, §6.6, §9, §11), one concern per file:
//!
//! - `utf8`: lossy decoding and cutting text on a character boundary;
//! - `canonical`: canonical stored text and the fence JSON encoder;
//! - `shapes`: the memory key grammar and the secret- and
//!   directive-shape detectors;
//! - `timestamp`: RFC 3339 timestamps and `YYYY-MM-DD` dates;
//! - `js`: JavaScript's whitespace, `trim()` and UTF-16 lengths, as Claude
//!   Code applies them;
//! - `position`: a byte offset as a line and column, and SHA-256 digests;
//! - `table`: one-line cells and aligned columns of text tables;
//! - `xml`: XML's special characters escaped.
//!
//! Everything is re-exported here, so callers name `text::canonicalise`
//! whatever file it lives in.

mod canonical;
mod js;
mod position;
mod shapes;
mod table;
mod timestamp;
mod utf8;
mod xml;

pub use canonical::{canonicalise, fence_json_string, is_format_char, is_line_break};
pub use js::{is_js_space, js_replace_all, js_trim, utf16_floor, utf16_len};
pub use position::{line_column, sha256_hex};
pub use shapes::{is_directive_shaped, is_secret_named, is_secret_shaped, valid_memory_key};
pub use table::{aligned_columns, cap_chars, cell, one_line};
pub use timestamp::{Timestamp, parse_date};
pub use utf8::{
    Decoded, INVALID_UTF8_REPLACED, decode_lossy, decode_read, floor_char_boundary, truncate_utf8,
    whole_chars,
};
pub use xml::xml_escape;
