//! The memory store adapter (SPEC §6.5): reads a Mecatl memory store
//! directory (`memory.json`, guarded by `memory.lock`) for the memory index,
//! the user model and the operator profile. Read-only: it never creates,
//! locks exclusively or writes anything.
//!
//! Choices the spec leaves open:
//! - Entries are served sorted by key, as the engine's store lists them, so
//!   a hand-edited `memory.json` gives the same index as the engine's own.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::memory_index::{MemoryEntry, MemoryIndexSource};
use crate::prompt::operator_profile::OperatorProfileSource;
use crate::prompt::turn0::{Delivery, SourceError};
use crate::prompt::user_model::UserModelSource;
use crate::workspace::{EntryKind, LinkPolicy, OsWorkspace, Workspace, WsError};

/// The store's data file, inside the store directory.
pub const MEMORY_FILE: &str = "memory.json";
/// The engine's lock file, inside the store directory.
pub const LOCK_FILE: &str = "memory.lock";
/// How often a held lock is polled while waiting.
const LOCK_POLL: Duration = Duration::from_millis(10);

/// A memory store directory (the project memory or the user model).
#[derive(Debug, Clone)]
pub struct MemoryStore {
    dir: PathBuf,
    lock_wait: Duration,
}

impl MemoryStore {
    /// The store in `dir`, waiting up to [`limits::MEMORY_LOCK_WAIT`] for a
    /// shared lock.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            lock_wait: limits::MEMORY_LOCK_WAIT,
        }
    }

    /// The same store with a different bound on the lock wait.
    pub fn with_lock_wait(mut self, wait: Duration) -> Self {
        self.lock_wait = wait;
        self
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// True when the store directory exists.
    pub fn exists(&self) -> bool {
        self.dir.is_dir()
    }

    /// Reads the store into a delivery of its entries (or the error that
    /// dropped them), passed through `shape`, with the store directory as
    /// the source and every diagnostic met.
    fn deliver_with(
        &self,
        shape: impl FnOnce(Vec<MemoryEntry>) -> Vec<MemoryEntry>,
    ) -> Delivery<Result<Vec<MemoryEntry>, SourceError>> {
        let ws = OsWorkspace::new(&self.dir, LinkPolicy::Follow);
        let mut delivery = Delivery::of(Ok(Vec::new()));
        delivery.source = Some(self.dir.display().to_string());
        let read = match ws.stat(MEMORY_FILE) {
            Err(WsError::NotFound) => Ok(Vec::new()),
            // Nothing inside can be looked at (the directory is not
            // searchable): one warning about the directory, not one per
            // file it hides.
            Err(WsError::Io(err)) => Err(Diagnostic::warning(
                self.dir.display().to_string(),
                format!("memory directory cannot be searched: {err}; no memory entries loaded"),
            )),
            _ => {
                let _lock = self.shared_lock(&ws, &mut delivery.diagnostics);
                read_entries(&ws)
            }
        };
        delivery.product = match read {
            Ok(entries) => Ok(shape(entries)),
            Err(diagnostic) => {
                let message = format!(
                    "{}: {}",
                    diagnostic.path.as_deref().unwrap_or(MEMORY_FILE),
                    diagnostic.reason
                );
                delivery.diagnostics.push(diagnostic);
                Err(SourceError(message))
            }
        };
        delivery
    }

    /// Takes a shared advisory lock on `memory.lock` when it exists, waiting
    /// at most the configured bound; on timeout or failure it notes a
    /// warning and the caller reads without the lock (the engine replaces
    /// `memory.json` by atomic rename, so a reader never sees half a file).
    fn shared_lock(&self, ws: &OsWorkspace, diagnostics: &mut Vec<Diagnostic>) -> Option<File> {
        let display = ws.display(LOCK_FILE);
        let mut without_lock = |reason: String| {
            diagnostics.push(Diagnostic::warning(
                display.clone(),
                format!("{reason}; reading the memory store without a lock"),
            ));
            None
        };
        match ws.stat(LOCK_FILE) {
            Ok(EntryKind::File) => {}
            Err(WsError::NotFound) => return None,
            Ok(EntryKind::Dir) => return without_lock("not a regular file (directory)".into()),
            Ok(EntryKind::Other(name)) => {
                return without_lock(format!("not a regular file ({name})"));
            }
            Ok(EntryKind::Symlink) => return without_lock("unresolved symlink".into()),
            Err(err) => return without_lock(err.to_string()),
        }
        // Read-only and non-blocking: never creates the file, never hangs
        // should it be swapped for a FIFO after the check above.
        let file = match crate::workspace::open_nonblocking(&self.dir.join(LOCK_FILE)) {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
            Err(err) => return without_lock(format!("cannot be opened: {err}")),
        };
        let deadline = Instant::now() + self.lock_wait;
        loop {
            match file.try_lock_shared() {
                Ok(()) => return Some(file),
                Err(TryLockError::WouldBlock) => {
                    let now = Instant::now();
                    if now >= deadline {
                        return without_lock(format!(
                            "still locked by a writer after {} ms",
                            self.lock_wait.as_millis()
                        ));
                    }
                    std::thread::sleep(LOCK_POLL.min(deadline - now));
                }
                Err(TryLockError::Error(err)) => {
                    return without_lock(format!("cannot be locked: {err}"));
                }
            }
        }
    }
}

/// The index entries: key, index description (the trimmed description,
/// else the first non-blank line of the value), `updated_at`, and an empty
/// value. Its diagnostics open with an info naming the store directory.
impl MemoryIndexSource for MemoryStore {
    fn deliver(&self) -> Delivery<Result<Vec<MemoryEntry>, SourceError>> {
        let mut delivery = self.deliver_with(to_index);
        let dir = Diagnostic::info(self.dir.display().to_string(), "memory directory");
        delivery.diagnostics.insert(0, dir);
        delivery
    }
}

/// The index entries, as for the memory index.
impl UserModelSource for MemoryStore {
    fn deliver(&self) -> Delivery<Result<Vec<MemoryEntry>, SourceError>> {
        self.deliver_with(to_index)
    }
}

/// The full entries (values included) whose key starts with `prefix`.
impl OperatorProfileSource for MemoryStore {
    fn deliver(&self, prefix: &str) -> Delivery<Result<Vec<MemoryEntry>, SourceError>> {
        self.deliver_with(|entries| with_prefix(entries, prefix))
    }
}

fn to_index(entries: Vec<MemoryEntry>) -> Vec<MemoryEntry> {
    entries
        .into_iter()
        .map(|entry| MemoryEntry {
            description: entry.index_description().to_string(),
            value: String::new(),
            key: entry.key,
            updated_at: entry.updated_at,
        })
        .collect()
}

fn with_prefix(entries: Vec<MemoryEntry>, prefix: &str) -> Vec<MemoryEntry> {
    entries
        .into_iter()
        .filter(|entry| entry.key.starts_with(prefix))
        .collect()
}

/// Reads and parses `memory.json`, checking its size before reading it.
fn read_entries(ws: &OsWorkspace) -> Result<Vec<MemoryEntry>, Diagnostic> {
    let path = ws.display(MEMORY_FILE);
    let max = limits::MAX_MEMORY_FILE_BYTES;
    let unusable = |reason: String| {
        Diagnostic::warning(path.clone(), format!("{reason}; no memory entries loaded"))
    };
    let too_large = |size: u64| unusable(format!("{size} bytes, over the {max}-byte limit"));
    let read = |bound: u64| {
        ws.read(MEMORY_FILE, bound).map_err(|err| match err {
            WsError::NotFound => unusable("vanished while being read".to_string()),
            WsError::Io(err) => unusable(format!("cannot be read: {err}")),
            other => unusable(other.to_string()),
        })
    };
    let size = read(0)?.size;
    if size > max {
        return Err(too_large(size));
    }
    let bounded = read(max)?;
    if bounded.is_truncated() {
        return Err(too_large(bounded.size));
    }
    parse_memory_json(&bounded.bytes).map_err(|err| unusable(err.to_string()))
}

/// Why `memory.json` could not be parsed; its message never quotes the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryJsonError {
    /// The document is not a JSON object.
    NotAnObject,
    /// The JSON is invalid, truncated, or holds a value of the wrong type.
    Json {
        /// What kind of failure it was.
        category: serde_json::error::Category,
        /// The 1-based line where it was noticed.
        line: usize,
        /// The 1-based column where it was noticed.
        column: usize,
    },
}

impl fmt::Display for MemoryJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use serde_json::error::Category;
        match self {
            MemoryJsonError::NotAnObject => f.write_str("malformed: not a JSON object"),
            MemoryJsonError::Json {
                category,
                line,
                column,
            } => {
                let what = match category {
                    Category::Data => "a value of the wrong type",
                    Category::Eof => "the JSON ends early (truncated)",
                    Category::Syntax | Category::Io => "invalid JSON",
                };
                write!(f, "malformed: {what} at line {line}, column {column}")
            }
        }
    }
}

impl From<serde_json::Error> for MemoryJsonError {
    fn from(err: serde_json::Error) -> Self {
        MemoryJsonError::Json {
            category: err.classify(),
            line: err.line(),
            column: err.column(),
        }
    }
}

/// The shape of `memory.json` this reader needs; other keys are ignored.
#[derive(Deserialize)]
struct StoreFile {
    #[serde(default)]
    entries: Option<BTreeMap<String, StoredEntry>>,
}

/// One stored entry. Absent and `null` fields read as empty (the engine's
/// zero values); any other type makes the file malformed.
#[derive(Deserialize)]
struct StoredEntry {
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    updated_at: Option<String>,
}

/// Parses the bytes of `memory.json` into its entries, sorted by key as the
/// engine's store lists them (a repeated key keeps its last value), with
/// full values. Invalid UTF-8 inside strings becomes U+FFFD, as the engine's
/// JSON decoder does, rather than dropping the whole store.
pub fn parse_memory_json(bytes: &[u8]) -> Result<Vec<MemoryEntry>, MemoryJsonError> {
    // A struct would also accept a JSON array; the store is an object.
    if bytes.trim_ascii_start().first() != Some(&b'{') {
        return Err(MemoryJsonError::NotAnObject);
    }
    let text = String::from_utf8_lossy(bytes);
    let store: StoreFile = serde_json::from_str(&text)?;
    let entries = store.entries.unwrap_or_default();
    Ok(entries
        .into_iter()
        .map(|(key, stored)| MemoryEntry {
            key,
            value: stored.value.unwrap_or_default(),
            description: stored.description.unwrap_or_default(),
            updated_at: stored.updated_at,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::prompt::memory_index::MemoryIndexAssembler;
    use crate::prompt::operator_profile::OperatorProfileConfig;
    use crate::prompt::turn0::InstructionAssembler;

    const STORE: &str = r#"{
        "version": 3,
        "entries": {
            "build": {"value": "Run make\nthen test", "description": "  How to build  ", "updated_at": "2024-05-01T10:00:00Z"},
            "user/name": {"value": "Ada", "updated_at": "2024-05-02T10:00:00+02:00"},
            "deploy": {"value": "\n\n  Push the tag \nwait", "description": null},
            "user/editor": {"value": "helix", "updated_at": "not a date", "extra": [1, {"x": 2}]}
        },
        "history": [{"anything": true}]
    }"#;

    fn store_with(content: impl AsRef<[u8]>) -> (tempfile::TempDir, MemoryStore) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(MEMORY_FILE), content).unwrap();
        let store = MemoryStore::new(dir.path()).with_lock_wait(Duration::from_millis(50));
        (dir, store)
    }

    fn entry(key: &str, value: &str, description: &str, updated_at: Option<&str>) -> MemoryEntry {
        MemoryEntry {
            key: key.into(),
            value: value.into(),
            description: description.into(),
            updated_at: updated_at.map(Into::into),
        }
    }

    /// The index entries and the diagnostics, as the user model sees them.
    fn seen_index(store: &MemoryStore) -> (Vec<MemoryEntry>, Vec<Diagnostic>) {
        let delivery = UserModelSource::deliver(store);
        (delivery.product.unwrap_or_default(), delivery.diagnostics)
    }

    /// The full entries under `prefix` and the diagnostics.
    fn seen_list(store: &MemoryStore, prefix: &str) -> (Vec<MemoryEntry>, Vec<Diagnostic>) {
        let delivery = OperatorProfileSource::deliver(store, prefix);
        (delivery.product.unwrap_or_default(), delivery.diagnostics)
    }

    fn single_warning(diagnostics: &[Diagnostic]) -> &str {
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert_eq!(diagnostics[0].severity, Severity::Warning);
        &diagnostics[0].reason
    }

    #[test]
    fn index_is_sorted_by_key_and_drops_values() {
        let (_dir, store) = store_with(STORE);
        let (entries, diagnostics) = seen_index(&store);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(
            entries,
            vec![
                entry("build", "", "How to build", Some("2024-05-01T10:00:00Z")),
                entry("deploy", "", "Push the tag", None),
                entry("user/editor", "", "helix", Some("not a date")),
                entry("user/name", "", "Ada", Some("2024-05-02T10:00:00+02:00")),
            ]
        );
        assert_eq!(MemoryIndexSource::index(&store).unwrap(), entries);
        assert_eq!(UserModelSource::index(&store).unwrap(), entries);
        let dir = store.dir().display().to_string();
        let memory = MemoryIndexSource::deliver(&store);
        assert_eq!(
            memory.diagnostics,
            [Diagnostic::info(dir.as_str(), "memory directory")]
        );
        assert_eq!(memory.source, Some(dir));
    }

    #[test]
    fn list_returns_full_entries_under_a_prefix() {
        let (_dir, store) = store_with(STORE);
        let (entries, diagnostics) = seen_list(&store, "user/");
        assert!(diagnostics.is_empty());
        assert_eq!(
            entries,
            vec![
                entry("user/editor", "helix", "", Some("not a date")),
                entry("user/name", "Ada", "", Some("2024-05-02T10:00:00+02:00")),
            ]
        );
        let cfg = OperatorProfileConfig::from_source(&store).unwrap();
        assert_eq!(cfg.entries, entries);
    }

    #[test]
    fn a_missing_store_or_file_is_empty_without_diagnostics() {
        let dir = tempfile::tempdir().unwrap();
        let store = MemoryStore::new(dir.path().join("absent"));
        assert!(!store.exists());
        assert_eq!(seen_index(&store), (Vec::new(), Vec::new()));
        let store = MemoryStore::new(dir.path());
        assert!(store.exists());
        assert_eq!(seen_list(&store, ""), (Vec::new(), Vec::new()));
        assert_eq!(MemoryIndexSource::index(&store), Ok(Vec::new()));
    }

    #[test]
    fn absent_or_null_entries_mean_none() {
        for content in [r#"{}"#, r#"{"entries": null}"#, r#"{"entries": {}}"#] {
            let (_dir, store) = store_with(content);
            assert_eq!(seen_index(&store), (Vec::new(), Vec::new()), "{content}");
        }
    }

    #[test]
    fn malformed_files_give_a_warning_and_no_entries() {
        for (content, reason) in [
            (
                "{\"entries\": {",
                "malformed: the JSON ends early (truncated) at line 1, column 13",
            ),
            (
                "{\"entries\": {\"a\": }}",
                "malformed: invalid JSON at line 1, column 19",
            ),
            ("[1, 2]", "malformed: not a JSON object"),
            ("", "malformed: not a JSON object"),
            ("\u{feff}{}", "malformed: not a JSON object"),
            (
                "{\"entries\": []}",
                "malformed: a value of the wrong type at line 1, column 12",
            ),
            (
                "{\"entries\": {\"a\": \"secret-value\"}}",
                "malformed: a value of the wrong type at line 1, column 32",
            ),
            (
                "{\"entries\": {\"a\": {\"value\": 5}}}",
                "malformed: a value of the wrong type at line 1, column 29",
            ),
            (
                "{\"entries\": {\"a\": {\"updated_at\": 1}}}",
                "malformed: a value of the wrong type at line 1, column 34",
            ),
            (
                "{\"entries\": {}} trailing",
                "malformed: invalid JSON at line 1, column 17",
            ),
        ] {
            let (dir, store) = store_with(content);
            let (entries, diagnostics) = seen_index(&store);
            assert!(entries.is_empty(), "{content}");
            assert_eq!(
                single_warning(&diagnostics),
                format!("{reason}; no memory entries loaded"),
                "{content}"
            );
            let path = dir.path().join(MEMORY_FILE).display().to_string();
            assert_eq!(diagnostics[0].path.as_deref(), Some(path.as_str()));
            let err = MemoryIndexSource::index(&store).unwrap_err();
            assert!(err.0.starts_with(&path));
            assert!(!err.0.contains("secret-value"));
            let assembler = MemoryIndexAssembler::new(store);
            assert!(
                assembler
                    .assemble(&OsWorkspace::new(dir.path(), LinkPolicy::Confine))
                    .unwrap()
                    .is_empty()
            );
        }
    }

    #[test]
    fn invalid_utf8_in_strings_is_replaced_and_deep_nesting_never_panics() {
        let (_dir, store) = store_with(b"{\"entries\": {\"k\xfe\": {\"value\": \"a\xffb\"}}}");
        let (entries, diagnostics) = seen_list(&store, "");
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(entries, vec![entry("k\u{fffd}", "a\u{fffd}b", "", None)]);
        let (_dir, store) = store_with(b"{\"entries\": \xff}");
        assert_eq!(
            single_warning(&seen_index(&store).1),
            "malformed: invalid JSON at line 1, column 13; no memory entries loaded"
        );
        // Deep nesting in ignored keys is skipped without recursion.
        let deep = format!(
            "{{\"history\": {}{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let (_dir, store) = store_with(deep);
        assert_eq!(seen_index(&store), (Vec::new(), Vec::new()));
        let deep_value = format!(
            "{{\"entries\": {{\"k\": {{\"value\": {}{}}}}}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let (_dir, store) = store_with(deep_value);
        let (entries, diagnostics) = seen_index(&store);
        assert!(entries.is_empty());
        assert!(single_warning(&diagnostics).starts_with("malformed: a value of the wrong type"));
    }

    #[test]
    fn a_repeated_key_keeps_its_last_value() {
        let (_dir, store) = store_with(
            r#"{"entries": {"b": {"value": "1"}, "a": {"value": "2"}, "b": {"value": "3"}}}"#,
        );
        let (entries, _) = seen_list(&store, "");
        assert_eq!(
            entries,
            vec![entry("a", "2", "", None), entry("b", "3", "", None)]
        );
    }

    #[test]
    fn a_hand_edited_store_is_listed_by_key_whatever_its_order() {
        let (dir, store) =
            store_with(r#"{"entries": {"zeta": {"value": "last"}, "alpha": {"value": "first"}}}"#);
        let keys: Vec<String> = seen_index(&store).0.into_iter().map(|e| e.key).collect();
        assert_eq!(keys, ["alpha", "zeta"]);
        let message = MemoryIndexAssembler::new(store)
            .assemble(&OsWorkspace::new(dir.path(), LinkPolicy::Confine))
            .unwrap();
        let text = &message[0].text;
        assert!(text.find("\"alpha\"").unwrap() < text.find("\"zeta\"").unwrap());
    }

    #[test]
    fn size_cap_is_checked_before_reading() {
        let at_cap = {
            let mut content = b"{\"entries\": {\"k\": {\"value\": \"v\"}}}".to_vec();
            content.resize(limits::MAX_MEMORY_FILE_BYTES as usize, b' ');
            content
        };
        let (_dir, store) = store_with(&at_cap);
        let (entries, diagnostics) = seen_index(&store);
        assert!(diagnostics.is_empty());
        assert_eq!(entries.len(), 1);

        let (dir, store) = store_with(b"{}");
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.path().join(MEMORY_FILE))
            .unwrap();
        file.set_len(limits::MAX_MEMORY_FILE_BYTES + 1).unwrap();
        let (entries, diagnostics) = seen_index(&store);
        assert!(entries.is_empty());
        assert_eq!(
            single_warning(&diagnostics),
            "8388609 bytes, over the 8388608-byte limit; no memory entries loaded"
        );
        file.set_len(2 << 30).unwrap();
        assert_eq!(seen_index(&store).1.len(), 1);
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "needs Unix's ENAMETOOLONG: Windows reports a 4096-byte name as not found"
    )]
    fn a_directory_that_cannot_be_looked_into_gives_one_warning_about_it() {
        // Root may search any directory; a name the system refuses to look
        // up fails the same way an unsearchable directory does.
        let dir = tempfile::tempdir().unwrap();
        let unreachable = dir.path().join("m".repeat(4096));
        let store = MemoryStore::new(&unreachable);
        let delivery = UserModelSource::deliver(&store);
        assert_eq!(delivery.diagnostics.len(), 1, "{:?}", delivery.diagnostics);
        let warning = &delivery.diagnostics[0];
        assert_eq!(warning.severity, Severity::Warning);
        assert_eq!(warning.path.as_deref(), Some(store.dir().to_str().unwrap()));
        assert!(
            warning
                .reason
                .starts_with("memory directory cannot be searched: ")
                && warning.reason.ends_with("; no memory entries loaded"),
            "{}",
            warning.reason
        );
        assert!(delivery.product.is_err());
    }

    #[test]
    #[cfg_attr(windows, ignore = "runs mkfifo")]
    fn a_fifo_named_memory_json_is_skipped_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join(MEMORY_FILE);
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let (entries, diagnostics) = seen_index(&MemoryStore::new(dir.path()));
        assert!(entries.is_empty());
        assert_eq!(
            single_warning(&diagnostics),
            "not a regular file (FIFO); no memory entries loaded"
        );
    }

    #[test]
    fn an_unlocked_lock_file_is_locked_shared_and_never_created() {
        let (dir, store) = store_with(STORE);
        assert_eq!(seen_index(&store).1, Vec::new());
        assert!(!dir.path().join(LOCK_FILE).exists());

        std::fs::write(dir.path().join(LOCK_FILE), "").unwrap();
        let other_reader = File::open(dir.path().join(LOCK_FILE)).unwrap();
        other_reader.lock_shared().unwrap();
        let (entries, diagnostics) = seen_index(&store);
        assert_eq!(entries.len(), 4);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }

    #[test]
    fn an_exclusive_lock_is_waited_for_then_read_anyway_with_a_warning() {
        let (dir, store) = store_with(STORE);
        let lock_path = dir.path().join(LOCK_FILE);
        std::fs::write(&lock_path, "").unwrap();
        let writer = File::open(&lock_path).unwrap();
        writer.lock().unwrap();

        let started = Instant::now();
        let (entries, diagnostics) = seen_index(&store);
        let waited = started.elapsed();
        assert_eq!(entries.len(), 4);
        assert_eq!(
            single_warning(&diagnostics),
            "still locked by a writer after 50 ms; reading the memory store without a lock"
        );
        assert_eq!(
            diagnostics[0].path.as_deref(),
            Some(lock_path.display().to_string().as_str())
        );
        assert!(waited >= Duration::from_millis(50));
        assert!(MemoryIndexSource::index(&store).is_ok());

        // The writer lets go by closing its handle, as a writer that exits
        // does. (An explicit `unlock` fails under Wine with a lock violation
        // even with no other handle open: Wine's, not the store's.)
        drop(writer);
        assert!(seen_index(&store).1.is_empty());
    }

    #[test]
    #[cfg_attr(windows, ignore = "runs mkfifo")]
    fn a_lock_file_that_is_not_a_regular_file_is_not_opened() {
        let (dir, store) = store_with(STORE);
        let status = std::process::Command::new("mkfifo")
            .arg(dir.path().join(LOCK_FILE))
            .status()
            .unwrap();
        assert!(status.success());
        let (entries, diagnostics) = seen_index(&store);
        assert_eq!(entries.len(), 4);
        assert!(single_warning(&diagnostics).starts_with("not a regular file"));
    }
}
