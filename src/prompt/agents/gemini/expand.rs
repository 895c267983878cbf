//! Expanding a typed `/name arguments` line as Gemini CLI 0.61.0 does with
//! a custom command (SPEC §16.4; observed: recorded cases under
//! `tests/oracle/cases/gemini-commands/`): the invocation read as Gemini
//! reads it, then its three steps over the `prompt` — `@{path}` files
//! injected, then `{{args}}` and `!{cmd}`, then the typed line appended
//! when the prompt has no `{{args}}`.
//!
//! - The line must start with `/`; the name is the first word after it
//!   (words split on JavaScript whitespace), the arguments the other words
//!   joined by one space, and what is appended is the whole line trimmed.
//! - `@{path}` (balanced braces, trimmed) is resolved against the start
//!   directory and must stay inside it; a file's text is a part of its
//!   own (line breaks made `\n`, its first 2,000 lines, each cut at 2,000
//!   UTF-16 code units with `... [truncated]`, as Gemini reads it).
//! - `{{args}}` is replaced in every part, injected files' too; each
//!   `!{cmd}` is **never run**: the preview shows
//!   [`placeholder`] where Gemini would put its output, lists it (`shell`)
//!   and warns.
//!
//! Choices the spec leaves open:
//! - A placeholder names the command as written (`{{args}}` inside it not
//!   replaced: Gemini would put the shell-quoted arguments there); an
//!   empty `!{}` is dropped, as Gemini drops it.
//! - A missing file, one outside the start directory, one of an untrusted
//!   workspace or one the preview will not read keeps its `@{…}` text and
//!   gets a warning (Gemini keeps the text too, with an error); a
//!   directory becomes `[mecatl-prompt did not list: D]` with a warning
//!   (Gemini injects every file below it). Ignore files are not consulted
//!   (Gemini leaves out a git-ignored file), nor are binary files told
//!   apart.
//! - Unbalanced braces after `@{` or `!{`: Gemini refuses the command;
//!   the preview expands nothing and says so.

use std::path::Path;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::limits;
use crate::prompt::agents::gemini::commands::GeminiCommand;
use crate::prompt::command::claude_catalog::{Placeholder, placeholder};
use crate::prompt::imports::normalise;
use crate::prompt::text::{is_js_space, js_trim, one_line, utf16_floor, utf16_len};
use crate::workspace::{EntryKind, Workspace, WsError};

/// What injects a file.
const AT_FILE: &str = "@{";
/// What runs a shell command.
const SHELL: &str = "!{";
/// What the arguments replace.
pub const ARGS: &str = "{{args}}";

/// A typed line read as Gemini reads a slash command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation<'a> {
    /// The command's name.
    pub name: &'a str,
    /// Every argument word, in order.
    pub words: Vec<&'a str>,
    /// The line trimmed (what Gemini appends).
    pub raw: &'a str,
}

impl Invocation<'_> {
    /// The arguments as Gemini passes them: the words joined by one space.
    pub fn args(&self) -> String {
        self.words.join(" ")
    }
}

/// Reads `input` as a slash command: `None` when it does not start with
/// `/` or names nothing.
pub fn parse_invocation(input: &str) -> Option<Invocation<'_>> {
    let raw = js_trim(input);
    let rest = input.strip_prefix('/')?;
    let mut words = rest.split(is_js_space).filter(|w| !w.is_empty());
    let name = words.next()?;
    Some(Invocation {
        name,
        words: words.collect(),
        raw,
    })
}

/// What became of one `@{path}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum FileStatus {
    /// A file of the start directory: its text is a part.
    Injected,
    /// A directory: Gemini injects every file below it; the preview does
    /// not list them.
    Directory,
    /// Nothing there: the `@{…}` text stays.
    NotFound,
    /// Outside the start directory: Gemini refuses it; the text stays.
    Outside,
    /// A file of an untrusted workspace: not read; the text stays.
    Withheld,
    /// A link out of the workspace, a FIFO, a read fault, a file past
    /// the read limit: not read; the text stays.
    Unread,
}

/// One `@{path}` of an expansion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct InjectedFile {
    /// The path as written (trimmed).
    pub path: String,
    /// The injected text's size in bytes, for an injected file.
    pub bytes: Option<usize>,
    /// What became of it.
    pub status: FileStatus,
}

/// One command expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expanded {
    /// The parts Gemini sends, in order.
    pub parts: Vec<String>,
    /// The shell commands, each where its placeholder starts in the
    /// parts joined.
    pub shell: Vec<Placeholder>,
    /// The files the `@{…}`s name.
    pub files: Vec<InjectedFile>,
    /// What was said.
    pub diagnostics: Vec<Diagnostic>,
}

impl Expanded {
    /// The parts joined: what `expand` prints.
    pub fn text(&self) -> String {
        self.parts.concat()
    }
}

/// Where `@{path}` files are looked for: the workspace, the start
/// directory, and whether its files may be read.
pub struct FileScope<'a> {
    /// The workspace reader (confined).
    pub project: &'a dyn Workspace,
    /// The start directory, workspace-relative.
    pub at: &'a str,
    /// False in an untrusted workspace.
    pub trusted: bool,
}

/// Why a command could not be expanded (Gemini refuses it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclosed {
    /// `@{` or `!{`.
    pub trigger: &'static str,
}

/// One `!{…}` or `@{…}` found in a text.
struct Injection {
    start: usize,
    end: usize,
    content: String,
}

/// Every `trigger…}` of `text` with balanced braces (Gemini's
/// `extractInjections`); `Err` on one left open.
fn injections(text: &str, trigger: &'static str) -> Result<Vec<Injection>, Unclosed> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(trigger) {
        let start = from + at;
        let mut depth = 1;
        let mut end = None;
        for (i, c) in text[start + trigger.len()..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(start + trigger.len() + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = end else {
            return Err(Unclosed { trigger });
        };
        found.push(Injection {
            start,
            end: close + 1,
            content: js_trim(&text[start + trigger.len()..close]).to_string(),
        });
        from = close + 1;
    }
    Ok(found)
}

/// The `!{cmd}` commands of `prompt` as Gemini finds them, each with its
/// offset, the empty ones left out (Gemini drops them); none when a brace
/// is left open (Gemini refuses the whole command).
pub(super) fn shell_commands(prompt: &str) -> Vec<(usize, String)> {
    injections(prompt, SHELL)
        .unwrap_or_default()
        .into_iter()
        .filter(|found| !found.content.is_empty())
        .map(|found| (found.start, found.content))
        .collect()
}

/// Expands `command` for `invocation` (SPEC §16.4's three steps).
pub fn expand(
    command: &GeminiCommand,
    invocation: &Invocation<'_>,
    files: &FileScope<'_>,
) -> Result<Expanded, Unclosed> {
    let prompt = &command.command.prompt;
    let args = invocation.args();
    let mut out = Expanded {
        parts: vec![prompt.clone()],
        shell: Vec::new(),
        files: Vec::new(),
        diagnostics: Vec::new(),
    };
    if prompt.contains(AT_FILE) {
        let mut parts = Vec::new();
        for text in std::mem::take(&mut out.parts) {
            inject_files(&text, files, &command.source, &mut parts, &mut out)?;
        }
        out.parts = parts;
    }
    // Each part's placeholders, by offset inside the part.
    let mut placed: Vec<Vec<Placeholder>> = vec![Vec::new(); out.parts.len()];
    if prompt.contains(SHELL) || prompt.contains(ARGS) {
        for (part, commands) in out.parts.iter_mut().zip(&mut placed) {
            *part = substitute(part, &args, commands)?;
        }
    }
    if !prompt.contains(ARGS)
        && !args.is_empty()
        && let Some(last) = out.parts.last_mut()
    {
        last.push_str("\n\n");
        last.push_str(invocation.raw);
    }
    let mut base = 0;
    for (part, commands) in out.parts.iter().zip(placed) {
        out.shell.extend(commands.into_iter().map(|p| Placeholder {
            offset: base + p.offset,
            command: p.command,
        }));
        base += part.len();
    }
    if let Some(warning) = shell_warning(&command.source, &out.shell) {
        out.diagnostics.push(warning);
    }
    Ok(out)
}

/// `{{args}}` replaced by `args` in `text`, and each `!{cmd}` by its
/// placeholder (recorded in `commands`, offsets within the result).
fn substitute(text: &str, args: &str, commands: &mut Vec<Placeholder>) -> Result<String, Unclosed> {
    if !text.contains(SHELL) {
        return Ok(text.replace(ARGS, args));
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for shell in injections(text, SHELL)? {
        out.push_str(&text[copied..shell.start].replace(ARGS, args));
        if !shell.content.is_empty() {
            commands.push(Placeholder {
                offset: out.len(),
                command: shell.content.clone(),
            });
            out.push_str(&placeholder(&shell.content));
        }
        copied = shell.end;
    }
    out.push_str(&text[copied..].replace(ARGS, args));
    Ok(out)
}

/// The parts `text` becomes once its `@{path}`s are injected.
fn inject_files(
    text: &str,
    scope: &FileScope<'_>,
    source: &str,
    parts: &mut Vec<String>,
    out: &mut Expanded,
) -> Result<(), Unclosed> {
    let found = injections(text, AT_FILE)?;
    if found.is_empty() {
        parts.push(text.to_string());
        return Ok(());
    }
    let mut copied = 0;
    for at in found {
        if at.start > copied {
            parts.push(text[copied..at.start].to_string());
        }
        let literal = &text[at.start..at.end];
        let (status, part) = inject(scope, &at.content);
        let bytes = (status == FileStatus::Injected).then(|| part.as_ref().map_or(0, String::len));
        match (status, part) {
            (FileStatus::Injected, Some(part)) => parts.push(part),
            (FileStatus::Directory, _) => {
                out.diagnostics.push(Diagnostic::warning(
                    source,
                    format!(
                        "@{{{}}} is a directory: Gemini CLI injects every file below it; the \
                         preview does not list them",
                        one_line(&at.content)
                    ),
                ));
                parts.push(format!("[mecatl-prompt did not list: {}]", at.content));
            }
            (status, _) => {
                out.diagnostics.push(Diagnostic::warning(
                    source,
                    format!(
                        "@{{{}}} {}: its text stays as written",
                        one_line(&at.content),
                        match status {
                            FileStatus::NotFound =>
                                "names nothing in the start directory (Gemini CLI reports an \
                                 error)",
                            FileStatus::Outside =>
                                "leaves the start directory (Gemini CLI refuses it); the preview \
                                 never reads it",
                            FileStatus::Withheld => "is a file of an untrusted workspace, not read",
                            _ => "could not be read by the preview",
                        }
                    ),
                ));
                parts.push(literal.to_string());
            }
        }
        out.files.push(InjectedFile {
            path: at.content,
            bytes,
            status,
        });
        copied = at.end;
    }
    if copied < text.len() {
        parts.push(text[copied..].to_string());
    }
    Ok(())
}

/// What `@{path}` gives: its status and, for a file, its text as Gemini
/// injects it.
fn inject(scope: &FileScope<'_>, path: &str) -> (FileStatus, Option<String>) {
    let root = scope.project.root();
    let start = normalise(&root.join(scope.at));
    let target = if Path::new(path).is_absolute() {
        normalise(Path::new(path))
    } else {
        normalise(&start.join(path))
    };
    let Some(rel) = target
        .strip_prefix(&start)
        .ok()
        .and_then(|_| target.strip_prefix(root).ok())
        .and_then(Path::to_str)
    else {
        return (FileStatus::Outside, None);
    };
    match scope.project.stat(rel) {
        Ok(EntryKind::Dir) => return (FileStatus::Directory, None),
        Ok(EntryKind::File) => {}
        Err(WsError::NotFound) => return (FileStatus::NotFound, None),
        Ok(_) | Err(_) => return (FileStatus::Unread, None),
    }
    if !scope.trusted {
        return (FileStatus::Withheld, None);
    }
    match scope.project.read(rel, limits::MAX_GEMINI_FILE_BYTES) {
        Ok(read) if !read.is_truncated() => (
            FileStatus::Injected,
            Some(as_read(&String::from_utf8_lossy(&read.bytes))),
        ),
        _ => (FileStatus::Unread, None),
    }
}

/// A text file as Gemini's read gives it: lines split on `\r?\n` and
/// joined by `\n`, the first [`limits::GEMINI_INJECT_MAX_LINES`], each cut
/// past [`limits::GEMINI_INJECT_MAX_LINE_UNITS`].
pub fn as_read(text: &str) -> String {
    let lines = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .take(limits::GEMINI_INJECT_MAX_LINES)
        .map(|line| {
            if utf16_len(line) > limits::GEMINI_INJECT_MAX_LINE_UNITS {
                let keep = utf16_floor(line, limits::GEMINI_INJECT_MAX_LINE_UNITS);
                format!("{}... [truncated]", &line[..keep])
            } else {
                line.to_string()
            }
        });
    lines.collect::<Vec<_>>().join("\n")
}

/// One warning for the shell commands of an expansion.
fn shell_warning(source: &str, commands: &[Placeholder]) -> Option<Diagnostic> {
    let first = commands.first()?;
    let more = match commands.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    Some(Diagnostic::warning(
        source,
        format!(
            "Gemini CLI runs {} shell command(s) of this command (`{}`{more}) and sends their \
             output (asking first; `gemini -p` refuses the command and sends nothing); the \
             preview never runs them and shows a placeholder instead",
            commands.len(),
            one_line(&first.command)
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_invocation_is_read_as_gemini_reads_it() {
        let got = parse_invocation("/git:commit a  b\t").unwrap();
        assert_eq!(got.name, "git:commit");
        assert_eq!(got.words, ["a", "b"]);
        assert_eq!(got.raw, "/git:commit a  b");
        assert_eq!(parse_invocation("/ plain x").unwrap().name, "plain");
        assert_eq!(parse_invocation("  /plain"), None);
        assert_eq!(parse_invocation("/"), None);
        assert_eq!(parse_invocation("plain"), None);
    }

    #[test]
    fn injections_need_balanced_braces() {
        let found = injections("a !{ echo {x} } b !{}", SHELL).unwrap();
        let contents: Vec<&str> = found.iter().map(|i| i.content.as_str()).collect();
        assert_eq!(contents, ["echo {x}", ""]);
        assert!(injections("!{ open", SHELL).is_err());
    }

    #[test]
    fn args_and_shell_commands_are_substituted_once() {
        let mut commands = Vec::new();
        let out = substitute("x {{args}} !{rm {{args}}} y {{args}}", "a b", &mut commands).unwrap();
        assert_eq!(out, "x a b [mecatl-prompt did not run: rm {{args}}] y a b");
        assert_eq!(commands[0].offset, 6);
    }

    #[test]
    fn an_injected_file_is_read_as_gemini_reads_text() {
        assert_eq!(as_read("a\r\nb\n"), "a\nb\n");
        let long = "x".repeat(2_001);
        assert_eq!(
            as_read(&long),
            format!("{}... [truncated]", "x".repeat(2_000))
        );
        let many = "l\n".repeat(2_500);
        assert_eq!(as_read(&many).lines().count(), 2_000);
    }
}
