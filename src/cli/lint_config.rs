//! The files of lint's configuration (SPEC §20.5), read and written at the
//! edge: `.mecatl-prompt.toml` through the workspace port, a baseline like
//! any file option (against `-C`, `-` for stdin), and `--write-baseline`,
//! the one place the tool writes a file.
//!
//! Choices the spec leaves open:
//! - A missing `.mecatl-prompt.toml` is no configuration; one that cannot
//!   be read, is larger than [`MAX_LINT_CONFIG_BYTES`], is not UTF-8 or is
//!   not a valid configuration ends the run (exit 2) naming the file, the
//!   line and the column.
//! - `--write-baseline FILE` writes a temporary file beside FILE
//!   (`.NAME.PID.tmp`, created new, never over an existing file) and
//!   renames it onto FILE, so a reader never sees half a baseline and
//!   nothing else is left behind; FILE's directory must exist.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use crate::cli::config::read_option_file;
use crate::cli::context::Context;
use crate::cli::error::CliError;
use crate::diagnostic::Diagnostic;
use crate::limits::{MAX_LINT_BASELINE_BYTES, MAX_LINT_CONFIG_BYTES};
use crate::prompt::lint::policy::{Baseline, CONFIG_FILE, LintPolicy, Parsed};
use crate::prompt::text::line_column;
use crate::workspace::WsError;

/// The workspace's lint configuration and the warnings about it.
pub(super) fn read_config(ctx: &Context) -> Result<(Parsed, Vec<Diagnostic>), CliError> {
    let display = ctx.reader.display(CONFIG_FILE);
    let fail = |what: String| CliError::Message(format!("{display}: {what}"));
    let read = match ctx.reader.read(CONFIG_FILE, MAX_LINT_CONFIG_BYTES) {
        Ok(read) => read,
        Err(WsError::NotFound) => return Ok((Parsed::default(), Vec::new())),
        Err(err) => return Err(fail(err.to_string())),
    };
    if read.is_truncated() {
        return Err(fail(format!("larger than {MAX_LINT_CONFIG_BYTES} bytes")));
    }
    let text = utf8(&read.bytes).map_err(fail)?;
    let parsed = LintPolicy::parse(text).map_err(|err| fail(err.to_string()))?;
    let warnings = parsed
        .warnings
        .iter()
        .map(|warning| Diagnostic::warning(&display, warning.to_string()))
        .collect();
    Ok((parsed, warnings))
}

/// The baseline `--baseline FILE` names, and a warning for each unknown
/// code in it.
pub(super) fn read_baseline(
    ctx: &Context,
    path: &Path,
) -> Result<(Baseline, Vec<Diagnostic>), CliError> {
    let bytes = read_option_file(ctx, "--baseline", path, MAX_LINT_BASELINE_BYTES)?;
    let fail = |what: String| CliError::Message(format!("--baseline {}: {what}", path.display()));
    let text = utf8(&bytes).map_err(fail)?;
    let baseline = Baseline::parse(text).map_err(|err| fail(err.to_string()))?;
    let warnings = baseline
        .unknown_codes()
        .into_iter()
        .map(|reason| Diagnostic::warning(path.display().to_string(), reason))
        .collect();
    Ok((baseline, warnings))
}

/// Writes `baseline` to `path` (resolved against `-C`), atomically.
pub(super) fn write_baseline(
    ctx: &Context,
    path: &Path,
    baseline: &Baseline,
) -> Result<(), CliError> {
    if path == Path::new("-") {
        return Err(CliError::Usage(
            "--write-baseline takes a file name; `-` is not one".to_string(),
        ));
    }
    let fail =
        |what: String| CliError::Message(format!("--write-baseline {}: {what}", path.display()));
    let target = ctx.resolve_path(path);
    let (Some(dir), Some(name)) = (target.parent(), target.file_name()) else {
        return Err(fail("names no file".to_string()));
    };
    let temp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(|err| fail(err.to_string()))?;
    let written = file
        .write_all(baseline.to_json().as_bytes())
        .and_then(|()| file.sync_all());
    // Closed before the rename, which some systems refuse on an open file.
    drop(file);
    written
        .and_then(|()| std::fs::rename(&temp, &target))
        .map_err(|err| {
            // Ours: created above, so removing it removes nothing else.
            let _ = std::fs::remove_file(&temp);
            fail(err.to_string())
        })
}

/// `bytes` as text; where it stops being UTF-8 when it does.
fn utf8(bytes: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(bytes).map_err(|err| {
        let valid = std::str::from_utf8(&bytes[..err.valid_up_to()]).unwrap_or_default();
        let (line, column) = line_column(valid, valid.len());
        format!("line {line}, column {column}: not valid UTF-8")
    })
}
