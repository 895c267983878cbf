//! Confinement (SPEC §21.2): a tool's `workspace` must lie, once `..` and
//! links are resolved, inside one of the client's roots (from `roots/list`)
//! or, when the client names none, inside the start directory.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cli::output::file_uri_path;

/// Where tools may look: the client's roots once it told them, else the
/// start directory.
#[derive(Debug, Clone)]
pub(super) struct Roots {
    /// The start directory (`-C`, else the current directory).
    start: PathBuf,
    /// The client's roots, in its order, once it answered `roots/list`.
    client: Option<Vec<PathBuf>>,
}

impl Roots {
    /// Confinement to `start` until the client names its roots.
    pub(super) fn new(start: PathBuf) -> Self {
        Self {
            start,
            client: None,
        }
    }

    /// Takes the client's answer to `roots/list`: its `file:` roots replace
    /// the start directory. Returns the URIs that are not `file:` URIs,
    /// which are left out.
    pub(super) fn replace(&mut self, result: &Value) -> Vec<String> {
        let mut paths = Vec::new();
        let mut skipped = Vec::new();
        let listed = result.get("roots").and_then(Value::as_array);
        for root in listed.into_iter().flatten() {
            let uri = root.get("uri").and_then(Value::as_str).unwrap_or_default();
            match file_uri_path(uri) {
                Some(path) => paths.push(path),
                None => skipped.push(uri.to_string()),
            }
        }
        self.client = Some(paths);
        skipped
    }

    /// The directories in force, in order.
    fn current(&self) -> &[PathBuf] {
        match &self.client {
            Some(client) => client,
            None => std::slice::from_ref(&self.start),
        }
    }

    /// The canonical workspace a tool named (`None`: the first root), or
    /// why it is refused.
    pub(super) fn confine(&self, workspace: Option<&str>) -> Result<PathBuf, String> {
        let roots = self.current();
        let named = || {
            let listed: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
            if listed.is_empty() {
                "the client named no roots".to_string()
            } else {
                format!("the roots are {}", listed.join(", "))
            }
        };
        let Some(first) = roots.first() else {
            return Err(format!(
                "workspace {}: refused: {}",
                workspace.unwrap_or("."),
                named()
            ));
        };
        let asked = match workspace {
            None => first.clone(),
            Some(path) => first.join(path),
        };
        let canonical = std::fs::canonicalize(&asked)
            .map_err(|err| format!("workspace {}: {err}", asked.display()))?;
        let inside = roots
            .iter()
            .filter_map(|root| std::fs::canonicalize(root).ok())
            .any(|root| canonical.starts_with(root));
        if inside {
            Ok(plain(canonical))
        } else {
            Err(format!(
                "workspace {} is outside the roots it may read ({}): refused",
                canonical.display(),
                named()
            ))
        }
    }
}

/// `path` without the `\\?\` prefix Windows' canonical paths carry, as the
/// CLI's own paths are written.
fn plain(path: PathBuf) -> PathBuf {
    match path.to_str().and_then(|p| p.strip_prefix(r"\\?\")) {
        Some(rest) if cfg!(windows) => PathBuf::from(rest),
        _ => path,
    }
}

/// Whether `path` is a directory the server can start in.
pub(super) fn start_directory(path: &Path) -> Result<PathBuf, String> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(format!("workspace {}: not a directory", path.display())),
        Err(err) => return Err(format!("workspace {}: {err}", path.display())),
    }
    std::fs::canonicalize(path)
        .map(plain)
        .map_err(|err| format!("workspace {}: {err}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths() {
        if cfg!(windows) {
            return;
        }
        assert_eq!(file_uri_path("file:///a%20b/c"), Some("/a b/c".into()));
        assert_eq!(file_uri_path("file://localhost/x"), Some("/x".into()));
        assert_eq!(file_uri_path("file://host/x"), None);
        assert_eq!(file_uri_path("https://x/y"), None);
        assert_eq!(file_uri_path("file:///bad%2"), None);
    }
}
