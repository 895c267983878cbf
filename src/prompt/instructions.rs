//! Project instructions (SPEC §6.2): `AGENTS.md`, else `CLAUDE.md`, at the
//! workspace root, and the turn-0 assembler over them ([`RootAssembler`]).

use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::files::CLAUDE_MD;
use crate::prompt::text::{INVALID_UTF8_REPLACED, decode_read, truncate_utf8};
use crate::prompt::turn0::{
    AssembledMessage, InstructionAssembler, InstructionManifest, LeftOut, LeftOutReason, Message,
    Provenance, ReadFault, Rejection, Turn0Report,
};
use crate::workspace::{Bounded, Workspace, WsError};

/// How every project-instructions message begins (SPEC §6.7); the file name
/// and `):` follow.
pub const PROJECT_INSTRUCTIONS_PREFIX: &str = "Project instructions (";

/// The engine's first instruction file at the workspace root.
pub use crate::prompt::agents::files::AGENTS_MD as AGENTS_FILE;

/// The instruction files at the workspace root, in precedence order.
pub const INSTRUCTION_FILES: [&str; 2] = [AGENTS_FILE, CLAUDE_MD];

/// Whether the project-instructions message read from `source` (as the
/// workspace displays it) was read from `name`, one of
/// [`INSTRUCTION_FILES`].
pub fn sent_from(source: &str, name: &str) -> bool {
    std::path::Path::new(source)
        .file_name()
        .is_some_and(|file| file == name)
}

/// The outcome of looking for project instructions (SPEC §6.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instructions {
    /// The message, when a non-blank instructions file was found.
    pub message: Option<Message>,
    /// The file the message was read from, as the workspace displays it.
    pub source: Option<String>,
    /// The span of the message's text that is the file's own content: the
    /// header line and the cut marker left out (empty without a message).
    pub content: Range<usize>,
    /// Bytes of the file left out when the content was cut at the cap.
    pub omitted: Option<u64>,
    /// The instruction files passed over before the one used (or all of
    /// them, when none is used), and why: blank, or present but unusable.
    pub left_out: Vec<LeftOut>,
    /// What happened to the files looked at: skipped links and special
    /// files, blank files, truncation.
    pub diagnostics: Vec<Diagnostic>,
}

/// Finds the project instructions at the workspace root (SPEC §6.2, §3.1):
/// `AGENTS.md`, else `CLAUDE.md` when `AGENTS.md` is missing or blank.
///
/// A refused or unresolvable link and a non-regular file count as not found,
/// with a warning. Only an operating-system read error is a [`ReadFault`],
/// and then `CLAUDE.md` is not consulted.
///
/// The content is trimmed; content longer than
/// [`limits::MAX_INSTRUCTIONS_BYTES`] once the leading whitespace is gone is
/// cut on a character boundary (trailing whitespace of the kept part
/// dropped) and followed by `\n\n[truncated: N bytes omitted]`, N being the
/// file size minus the bytes kept. Trailing whitespace of a file that was
/// read whole never causes a cut: a file of exactly the cap plus a final
/// newline is shown whole. At most [`limits::MAX_INSTRUCTIONS_READ_BYTES`]
/// are read. Invalid UTF-8 is decoded lossily, with a warning (SPEC §9); N
/// is then counted in decoded bytes and never below zero.
pub fn load_instructions(ws: &dyn Workspace) -> Result<Instructions, ReadFault> {
    let mut diagnostics = Vec::new();
    let mut left_out = Vec::new();
    let passed_over = |name: &str, path: &str, reason| LeftOut {
        provenance: Provenance::Project,
        name: Some(name.to_string()),
        source: Some(path.to_string()),
        reason,
    };
    for name in INSTRUCTION_FILES {
        let path = ws.display(name);
        let bounded = match read_instructions(ws, name) {
            Ok(bounded) => bounded,
            Err(WsError::NotFound) => continue,
            Err(WsError::Io(source)) => return Err(ReadFault { path, source }),
            Err(err) => {
                let cause = err.to_string();
                left_out.push(passed_over(
                    name,
                    &path,
                    LeftOutReason::Unreadable { cause },
                ));
                diagnostics.push(Diagnostic::warning(path, absent_reason(&err)));
                continue;
            }
        };
        let (size, read) = (bounded.size, bounded.bytes.len());
        let cut_read = bounded.is_truncated();
        let Some(rendered) = render_instructions(name, bounded) else {
            let blank = LeftOutReason::rejected(Rejection::Blank);
            left_out.push(passed_over(name, &path, blank));
            diagnostics.push(if cut_read {
                Diagnostic::warning(
                    path,
                    format!("the first {read} bytes are all whitespace; treated as blank"),
                )
            } else {
                Diagnostic::info(path, "blank; ignored")
            });
            continue;
        };
        if let Some(omitted) = rendered.omitted {
            diagnostics.push(Diagnostic::warning(
                path.clone(),
                format!(
                    "{size} bytes; cut at {} bytes, {omitted} bytes omitted (the model is told)",
                    limits::MAX_INSTRUCTIONS_BYTES
                ),
            ));
        }
        if rendered.lossy {
            diagnostics.push(Diagnostic::warning(path.clone(), INVALID_UTF8_REPLACED));
        }
        return Ok(Instructions {
            message: Some(Message::user(rendered.text)),
            source: Some(path),
            content: rendered.content,
            omitted: rendered.omitted,
            left_out,
            diagnostics,
        });
    }
    Ok(Instructions {
        message: None,
        source: None,
        content: 0..0,
        omitted: None,
        left_out,
        diagnostics,
    })
}

/// How much of an instructions file is read first: the cap and room for
/// some leading whitespace, so a huge file costs this much, not the whole
/// read bound (SPEC §11).
const INSTRUCTIONS_HEAD_BYTES: u64 = limits::MAX_INSTRUCTIONS_BYTES as u64 + 4096;

/// Reads an instructions file: its head, and up to the full read bound only
/// when the head's leading whitespace leaves less than the cap's worth of
/// content in it. Past that, more bytes cannot change the message: the
/// kept part is the first cap's worth of content, and N counts from the
/// file size.
fn read_instructions(ws: &dyn Workspace, name: &str) -> Result<Bounded, WsError> {
    let head = ws.read(name, INSTRUCTIONS_HEAD_BYTES)?;
    if !head.is_truncated() || holds_the_cap(&head.bytes) {
        return Ok(head);
    }
    ws.read(name, limits::MAX_INSTRUCTIONS_READ_BYTES)
}

/// True when `head` holds at least the cap's worth of content once its
/// leading whitespace is gone, counted as the message counts it. Leading
/// ASCII whitespace is skipped byte by byte: decoding never shortens what
/// follows, and at most 3 bytes of a cut-off character are dropped. Other
/// leading bytes take the decoding route.
fn holds_the_cap(head: &[u8]) -> bool {
    let cap = limits::MAX_INSTRUCTIONS_BYTES;
    let ascii_space = |b: &u8| matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ');
    match head.iter().position(|b| !ascii_space(b)) {
        Some(at) if head[at].is_ascii() => head.len() - at >= cap + 3,
        Some(_) => decode_read(head, true).text.trim_start().len() >= cap,
        None => false,
    }
}

/// The warning for an instructions file that counts as not found.
fn absent_reason(err: &WsError) -> String {
    match err {
        WsError::Refused(_) => format!(
            "{err}; treated as not found (if the file belongs to the repository, \
             run with -C at the repository root)"
        ),
        _ => format!("{err}; treated as not found"),
    }
}

/// A rendered instructions message, where the file's content lies in it,
/// the bytes omitted when it was cut, and whether invalid UTF-8 was
/// replaced with U+FFFD.
struct RenderedInstructions {
    text: String,
    content: Range<usize>,
    omitted: Option<u64>,
    lossy: bool,
}

/// Renders the message for file `name`, or `None` when it is blank. The
/// message is built in the buffer the file was read into: instructions can
/// take 64 KiB, and a copy would cost as much again.
fn render_instructions(name: &str, bounded: Bounded) -> Option<RenderedInstructions> {
    let read_whole = !bounded.is_truncated();
    let size = bounded.size;
    let decoded = decode_read(bounded.bytes, !read_whole);
    let lossy = decoded.lossy;
    let mut text = decoded.text.into_owned();
    // The content is text[start..end]: trimmed, or only trim_start when the
    // file was not read whole.
    let start = text.len() - text.trim_start().len();
    let end = if read_whole {
        text.trim_end().len()
    } else {
        text.len()
    };
    if start >= end {
        return None;
    }
    let (kept_end, omitted) = if read_whole && end - start <= limits::MAX_INSTRUCTIONS_BYTES {
        (end, None)
    } else {
        let kept = truncate_utf8(&text[start..end], limits::MAX_INSTRUCTIONS_BYTES)
            .trim_end()
            .len();
        (start + kept, Some(size.saturating_sub(kept as u64)))
    };
    text.truncate(kept_end);
    let header = format!("{PROJECT_INSTRUCTIONS_PREFIX}{name}):\n\n");
    let content = header.len()..header.len() + kept_end - start;
    text.replace_range(..start, &header);
    if let Some(omitted) = omitted {
        text.push_str(&format!("\n\n[truncated: {omitted} bytes omitted]"));
    }
    Some(RenderedInstructions {
        text,
        content,
        omitted,
        lossy,
    })
}

/// The default project-instructions assembler: `AGENTS.md` or `CLAUDE.md`
/// at the workspace root (SPEC §6.2), read through the assembly's
/// workspace. Its report names the file read and whether it was cut.
#[derive(Debug, Clone, Copy, Default)]
pub struct RootAssembler;

impl InstructionAssembler for RootAssembler {
    fn collect(&self, ws: &dyn Workspace, report: &mut Turn0Report) -> Result<(), ReadFault> {
        let mut instructions = load_instructions(ws)?;
        report.left_out.append(&mut instructions.left_out);
        report.diagnostics.append(&mut instructions.diagnostics);
        if let Some(source) = &instructions.source {
            report.diagnostics.push(Diagnostic::read(
                source.as_str(),
                Provenance::Project.as_str(),
            ));
        }
        if let Some(message) = instructions.message {
            let mut assembled =
                AssembledMessage::new(Provenance::Project, message, instructions.source);
            assembled.content = Some(instructions.content);
            assembled.omitted = instructions.omitted;
            report.messages.push(assembled);
        }
        Ok(())
    }

    fn manifest(&self) -> InstructionManifest {
        Provenance::Project.into()
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Mutex;

    use super::*;

    #[test]
    fn the_sent_file_is_told_by_the_messages_source() {
        let ws = MemWorkspace::new().file("CLAUDE.md", "Project instructions (AGENTS.md):\n");
        let found = load_instructions(&ws).unwrap();
        let source = found.source.unwrap();
        assert!(sent_from(&source, "CLAUDE.md"));
        assert!(!sent_from(&source, AGENTS_FILE), "the text does not count");
        assert!(sent_from("sub/AGENTS.md", AGENTS_FILE));
        assert!(!sent_from("NOT-AGENTS.md", AGENTS_FILE));
    }
    use crate::diagnostic::Severity;
    use crate::workspace::{DirEntry, EntryKind, LinkPolicy, MemNode, MemWorkspace, OsWorkspace};

    const CAP: usize = limits::MAX_INSTRUCTIONS_BYTES;

    /// A workspace that records which paths were read.
    struct Recording {
        inner: MemWorkspace,
        reads: Mutex<Vec<String>>,
    }

    impl Workspace for Recording {
        fn root(&self) -> &Path {
            self.inner.root()
        }
        fn display(&self, rel: &str) -> String {
            self.inner.display(rel)
        }
        fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
            self.inner.stat(rel)
        }
        fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
            self.reads.lock().unwrap().push(rel.to_string());
            self.inner.read(rel, max_bytes)
        }
        fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
            self.inner.list(rel)
        }
    }

    fn text_of(ws: &dyn Workspace) -> Option<String> {
        load_instructions(ws).unwrap().message.map(|m| m.text)
    }

    #[test]
    fn agents_md_wins_over_claude_md() {
        let ws = MemWorkspace::new()
            .file("AGENTS.md", "\n  Use tabs.\n\n")
            .file("CLAUDE.md", "Use spaces.");
        let got = load_instructions(&ws).unwrap();
        assert_eq!(
            got.message,
            Some(Message::user(
                "Project instructions (AGENTS.md):\n\nUse tabs."
            ))
        );
        assert_eq!(got.source.as_deref(), Some("AGENTS.md"));
        assert_eq!(got.omitted, None);
        assert!(got.diagnostics.is_empty());
    }

    #[test]
    fn claude_md_is_used_when_agents_md_is_missing_or_blank() {
        let missing = MemWorkspace::new().file("CLAUDE.md", "Use spaces.\n");
        assert_eq!(
            text_of(&missing).as_deref(),
            Some("Project instructions (CLAUDE.md):\n\nUse spaces.")
        );
        let blank = missing.clone().file("AGENTS.md", " \n\t\r\n");
        let got = load_instructions(&blank).unwrap();
        assert_eq!(got.source.as_deref(), Some("CLAUDE.md"));
        let text = got.message.as_ref().unwrap().text.as_str();
        assert_eq!(&text[got.content.clone()], "Use spaces.");
        assert_eq!(
            got.left_out,
            [LeftOut {
                provenance: Provenance::Project,
                name: Some("AGENTS.md".into()),
                source: Some("AGENTS.md".into()),
                reason: LeftOutReason::rejected(Rejection::Blank),
            }],
            "the blank file passed over is a typed fact"
        );
        assert_eq!(
            got.diagnostics,
            vec![Diagnostic::info("AGENTS.md", "blank; ignored")]
        );
    }

    #[test]
    fn no_message_when_both_are_missing_or_blank() {
        let none = load_instructions(&MemWorkspace::new()).unwrap();
        assert_eq!(none.message, None);
        assert_eq!(none.source, None);
        assert!(none.diagnostics.is_empty());
        let blank = MemWorkspace::new()
            .file("AGENTS.md", "")
            .file("CLAUDE.md", "\n");
        let got = load_instructions(&blank).unwrap();
        assert_eq!(got.message, None);
        assert_eq!(got.diagnostics.len(), 2);
    }

    #[test]
    fn content_up_to_the_cap_is_kept_whole() {
        for len in [CAP - 1, CAP] {
            let ws = MemWorkspace::new().file("AGENTS.md", "a".repeat(len));
            let got = load_instructions(&ws).unwrap();
            assert_eq!(got.omitted, None);
            assert_eq!(
                got.message.unwrap().text,
                format!("Project instructions (AGENTS.md):\n\n{}", "a".repeat(len))
            );
        }
        // Leading and trailing whitespace do not count toward the cap.
        let padded = format!("  \n{}\n", "a".repeat(CAP));
        let ws = MemWorkspace::new().file("AGENTS.md", padded);
        assert_eq!(load_instructions(&ws).unwrap().omitted, None);
    }

    #[test]
    fn content_over_the_cap_is_cut_visibly_with_the_omitted_count() {
        let ws = MemWorkspace::new().file("AGENTS.md", "a".repeat(CAP + 1));
        let got = load_instructions(&ws).unwrap();
        assert_eq!(got.omitted, Some(1));
        let header = "Project instructions (AGENTS.md):\n\n".len();
        assert_eq!(
            got.content,
            header..header + CAP,
            "the marker is not content"
        );
        assert_eq!(
            got.message.unwrap().text,
            format!(
                "Project instructions (AGENTS.md):\n\n{}\n\n[truncated: 1 bytes omitted]",
                "a".repeat(CAP)
            )
        );
        assert_eq!(got.diagnostics.len(), 1);
        assert_eq!(got.diagnostics[0].severity, Severity::Warning);

        // Leading whitespace is trimmed first but is part of the file size.
        let ws = MemWorkspace::new().file("AGENTS.md", format!("  {}", "a".repeat(CAP + 1)));
        let text = text_of(&ws).unwrap();
        assert!(text.ends_with(&format!(
            "{}\n\n[truncated: 3 bytes omitted]",
            "a".repeat(CAP)
        )));
    }

    #[test]
    fn the_cut_lands_on_a_character_boundary() {
        let content = format!("{}é", "a".repeat(CAP - 1));
        let ws = MemWorkspace::new().file("AGENTS.md", content);
        let text = text_of(&ws).unwrap();
        assert_eq!(
            text,
            format!(
                "Project instructions (AGENTS.md):\n\n{}\n\n[truncated: 2 bytes omitted]",
                "a".repeat(CAP - 1)
            )
        );
    }

    #[test]
    fn a_huge_file_is_read_bounded_and_counted_from_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let file = std::fs::File::create(dir.path().join("AGENTS.md")).unwrap();
        let size: u64 = 2 << 30;
        file.set_len(size).unwrap();
        let ws = OsWorkspace::new(dir.path(), LinkPolicy::Confine);
        let got = load_instructions(&ws).unwrap();
        assert!(got.omitted.is_some());
        let text = got.message.unwrap().text;
        assert!(text.ends_with(&format!(
            "\n\n[truncated: {} bytes omitted]",
            size - CAP as u64
        )));
    }

    #[test]
    fn whitespace_beyond_the_read_bound_is_blank_with_a_warning() {
        let ws = MemWorkspace::new()
            .file(
                "AGENTS.md",
                format!(
                    "{}text",
                    " ".repeat(limits::MAX_INSTRUCTIONS_READ_BYTES as usize)
                ),
            )
            .file("CLAUDE.md", "fallback");
        let got = load_instructions(&ws).unwrap();
        assert_eq!(got.source.as_deref(), Some("CLAUDE.md"));
        assert_eq!(got.diagnostics[0].severity, Severity::Warning);
    }

    #[test]
    fn leading_whitespace_that_fills_most_of_the_read_still_reports_truncation() {
        let pad = limits::MAX_INSTRUCTIONS_READ_BYTES as usize - 10;
        let ws = MemWorkspace::new().file(
            "AGENTS.md",
            format!("{}é{}", " ".repeat(pad), "b".repeat(20)),
        );
        let got = load_instructions(&ws).unwrap();
        assert!(got.omitted.is_some());
        // 10 bytes were read after the padding: "é" and 8 "b"s.
        let total = pad + 2 + 20;
        assert_eq!(
            got.message.unwrap().text,
            format!(
                "Project instructions (AGENTS.md):\n\né{}\n\n[truncated: {} bytes omitted]",
                "b".repeat(8),
                total - 10
            )
        );
    }

    #[test]
    fn the_head_read_gives_what_the_whole_bound_gives() {
        let bound = limits::MAX_INSTRUCTIONS_READ_BYTES;
        let spaces = [0, 1, 4093, 4095, 4096, 4097, 9000].map(|n| " ".repeat(n));
        // Whitespace that is not a plain space: vertical tab and U+3000.
        let others = ["\u{b}".repeat(5000), "\u{3000}".repeat(1700)];
        for pad in spaces.iter().chain(&others) {
            for fill in ["a", "é", "€ ", "\u{b}a", "\u{3000}a"] {
                let content = format!("{pad}{}", fill.repeat(CAP));
                let ws = MemWorkspace::new().file("AGENTS.md", &content);
                let whole = render_instructions("AGENTS.md", ws.read("AGENTS.md", bound).unwrap());
                assert_eq!(
                    text_of(&ws),
                    whole.map(|r| r.text),
                    "pad {:?}, fill {fill:?}",
                    pad.len()
                );
            }
        }
    }

    #[test]
    fn a_huge_file_is_read_only_as_far_as_its_head() {
        struct Bounds(MemWorkspace, Mutex<Vec<u64>>);
        impl Workspace for Bounds {
            fn root(&self) -> &Path {
                self.0.root()
            }
            fn display(&self, rel: &str) -> String {
                self.0.display(rel)
            }
            fn stat(&self, rel: &str) -> Result<EntryKind, WsError> {
                self.0.stat(rel)
            }
            fn read(&self, rel: &str, max_bytes: u64) -> Result<Bounded, WsError> {
                self.1.lock().unwrap().push(max_bytes);
                self.0.read(rel, max_bytes)
            }
            fn list(&self, rel: &str) -> Result<Vec<DirEntry>, WsError> {
                self.0.list(rel)
            }
        }
        let huge = MemWorkspace::new().file("AGENTS.md", "x".repeat(4 * CAP));
        let ws = Bounds(huge, Mutex::new(Vec::new()));
        assert!(load_instructions(&ws).unwrap().omitted.is_some());
        assert_eq!(*ws.1.lock().unwrap(), [INSTRUCTIONS_HEAD_BYTES]);
        let padded = format!("{}{}", " ".repeat(8192), "x".repeat(4 * CAP));
        let ws = Bounds(
            MemWorkspace::new().file("AGENTS.md", padded),
            Mutex::new(Vec::new()),
        );
        assert!(load_instructions(&ws).unwrap().omitted.is_some());
        assert_eq!(
            *ws.1.lock().unwrap(),
            [INSTRUCTIONS_HEAD_BYTES, limits::MAX_INSTRUCTIONS_READ_BYTES]
        );
    }

    #[test]
    fn refused_symlink_falls_back_to_claude_md_with_a_hint() {
        let ws = MemWorkspace::new()
            .node("AGENTS.md", MemNode::Symlink("../secrets".into()))
            .file("CLAUDE.md", "Claude.");
        let got = load_instructions(&ws).unwrap();
        assert_eq!(
            got.message.unwrap().text,
            "Project instructions (CLAUDE.md):\n\nClaude."
        );
        assert_eq!(got.diagnostics.len(), 1);
        let warning = &got.diagnostics[0];
        assert_eq!(warning.severity, Severity::Warning);
        assert_eq!(warning.path.as_deref(), Some("AGENTS.md"));
        assert!(warning.reason.contains("treated as not found"));
        assert!(warning.reason.contains("-C at the repository root"));
        assert!(matches!(
            &got.left_out[..],
            [LeftOut { name: Some(name), reason: LeftOutReason::Unreadable { .. }, .. }]
                if name == "AGENTS.md"
        ));
    }

    #[test]
    fn unresolvable_links_and_special_files_fall_back_with_a_warning() {
        for node in [
            MemNode::Symlink("nowhere.md".into()),
            MemNode::Symlink("AGENTS.md".into()),
            MemNode::Special("FIFO"),
            MemNode::Dir,
        ] {
            let ws = MemWorkspace::new()
                .node("AGENTS.md", node.clone())
                .file("CLAUDE.md", "Claude.");
            let got = load_instructions(&ws).unwrap();
            assert_eq!(got.source.as_deref(), Some("CLAUDE.md"), "{node:?}");
            assert_eq!(got.diagnostics.len(), 1, "{node:?}");
            assert!(
                got.diagnostics[0]
                    .reason
                    .ends_with("; treated as not found")
            );
            assert!(!got.diagnostics[0].reason.contains("-C"));
        }
    }

    #[test]
    fn inner_symlink_is_followed() {
        let ws = MemWorkspace::new()
            .file("docs/AGENTS.md", "Linked.")
            .node("AGENTS.md", MemNode::Symlink("docs/AGENTS.md".into()));
        assert_eq!(
            text_of(&ws).as_deref(),
            Some("Project instructions (AGENTS.md):\n\nLinked.")
        );
    }

    #[test]
    fn read_fault_is_an_error_and_claude_md_is_not_consulted() {
        let ws = Recording {
            inner: MemWorkspace::new()
                .node("AGENTS.md", MemNode::Unreadable)
                .file("CLAUDE.md", "Claude."),
            reads: Mutex::new(Vec::new()),
        };
        let err = load_instructions(&ws).unwrap_err();
        assert_eq!(err.path, "AGENTS.md");
        assert_eq!(err.source.kind(), std::io::ErrorKind::PermissionDenied);
        assert!(err.to_string().starts_with("reading AGENTS.md: "));
        assert_eq!(*ws.reads.lock().unwrap(), vec!["AGENTS.md".to_string()]);
        assert!(RootAssembler.assemble(&ws).is_err());
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily_with_one_warning_naming_the_file() {
        for name in INSTRUCTION_FILES {
            let ws = MemWorkspace::new().file(name, b"ok \xff end \xfe");
            let got = load_instructions(&ws).unwrap();
            assert_eq!(
                got.message.unwrap().text,
                format!("Project instructions ({name}):\n\nok \u{fffd} end \u{fffd}")
            );
            assert_eq!(
                got.diagnostics,
                [Diagnostic::warning(name, INVALID_UTF8_REPLACED)]
            );
        }
        // Cut at the cap, the warning follows the truncation one; a
        // character the read bound cut in two is not invalid.
        let mut cut = b"\xff".to_vec();
        cut.extend(
            "é".repeat(limits::MAX_INSTRUCTIONS_READ_BYTES as usize)
                .as_bytes(),
        );
        let ws = MemWorkspace::new().file("AGENTS.md", cut);
        let reasons: Vec<String> = (load_instructions(&ws).unwrap().diagnostics)
            .into_iter()
            .map(|d| d.reason)
            .collect();
        assert_eq!(reasons.len(), 2, "{reasons:?}");
        assert_eq!(reasons[1], INVALID_UTF8_REPLACED);
        let valid = "é".repeat(limits::MAX_INSTRUCTIONS_READ_BYTES as usize);
        let ws = MemWorkspace::new().file("AGENTS.md", format!("x{valid}"));
        let got = load_instructions(&ws).unwrap();
        assert!(got.omitted.is_some());
        assert_eq!(got.diagnostics.len(), 1, "{:?}", got.diagnostics);
    }

    #[test]
    fn root_assembler_reports_project_provenance() {
        let ws = MemWorkspace::new().file("AGENTS.md", "x");
        assert_eq!(
            RootAssembler.assemble_with_manifest(&ws).unwrap(),
            vec![(
                Message::user("Project instructions (AGENTS.md):\n\nx"),
                Provenance::Project.into()
            )]
        );
        let cut = MemWorkspace::new()
            .file("AGENTS.md", "   ")
            .file("CLAUDE.md", "a".repeat(CAP + 1));
        let report = RootAssembler.report(&cut).unwrap();
        let message = &report.messages[0];
        assert_eq!(
            (message.source.as_deref(), message.omitted),
            (Some("CLAUDE.md"), Some(1))
        );
        assert!(message.truncated());
        let content = message.content.clone().unwrap();
        assert_eq!(message.message.text[content].len(), CAP);
        let left_out: Vec<_> = report.left_out.iter().map(|f| &f.reason).collect();
        assert_eq!(left_out, [&LeftOutReason::rejected(Rejection::Blank)]);
        let reasons: Vec<&str> = report
            .diagnostics
            .iter()
            .map(|d| d.reason.as_str())
            .collect();
        assert_eq!(reasons[0], "blank; ignored");
        assert_eq!(reasons[2], "read (project)");
        assert!(
            RootAssembler
                .assemble(&MemWorkspace::new())
                .unwrap()
                .is_empty()
        );
    }
}
