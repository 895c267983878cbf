//! The state of one Claude assembly: the files loaded so far (each once),
//! the import fan-out guard, the approval of external imports, and the
//! facts of everything left out. Every file of the profile — walk file,
//! rule, import, lazily added file — goes through [`Assembly::load_text`]
//! and [`Assembly::expand`], so one rule decides what a file contributes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Severity};
use crate::limits;
use crate::prompt::agents::claude::key::project_key;
use crate::prompt::agents::claude::paths::RulePaths;
use crate::prompt::agents::claude::read::{Read, Source, shown};
use crate::prompt::agents::claude::{ClaudeInstructions, LoadSetup, names};
use crate::prompt::command::claude_dialect::split_frontmatter;
use crate::prompt::imports::{self, Bounds, Origin};
use crate::prompt::markdown::claude_content;
use crate::prompt::profile::{
    NotLoaded, NotLoadedReason, Part, PartKind, ProfileRule, Scope, Touched,
};
use crate::prompt::text::INVALID_UTF8_REPLACED;
use crate::prompt::walk::WalkDir;
use crate::workspace::{Workspace, WsError};

/// The file whose imports are being followed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Importer<'x> {
    /// Its absolute (lexical) path: relative imports resolve against its
    /// directory.
    pub(crate) abs: &'x Path,
    /// Its scope, which its imports take.
    pub(crate) scope: Scope,
    /// Which external rule its imports follow.
    pub(crate) origin: Origin,
    /// How it is named in output.
    pub(crate) shown: &'x str,
}

/// A conditional rule read at start (or when its directory was read
/// lazily), kept for the paths that will be touched.
pub(crate) struct Conditional<'a> {
    pub(crate) source: Source<'a>,
    /// How it is named in output.
    pub(crate) path: String,
    /// Its whole text.
    pub(crate) text: String,
    pub(crate) paths: RulePaths,
    /// The directory its patterns are relative to.
    pub(crate) base: PathBuf,
    /// Set once a touched path loaded it.
    pub(crate) active: bool,
}

/// One assembly in progress.
pub(crate) struct Assembly<'s, 'a> {
    setup: &'s LoadSetup<'a>,
    workspace: PathBuf,
    cwd: PathBuf,
    real_cwd: Option<PathBuf>,
    real_workspace: Option<PathBuf>,
    bounds: Bounds,
    key: PathBuf,
    approval: Option<bool>,
    loaded: imports::Loaded,
    capped: bool,
    /// A managed file with content was loaded (it switches the fallback
    /// off like project files).
    managed_content: bool,
    pub(crate) conditional: Vec<Conditional<'a>>,
    /// Directories below the cwd read because a file below them was read.
    lazy_dirs: HashSet<String>,
    /// Imports that were tried and gave nothing (missing, unreadable,
    /// blank): listed once, not again as "already loaded".
    unreadable: HashSet<PathBuf>,
    not_loaded: Vec<NotLoaded>,
    rules: Vec<ProfileRule>,
    diagnostics: Vec<Diagnostic>,
}

impl<'s, 'a> Assembly<'s, 'a> {
    /// A fresh assembly for `setup` over the walk `dirs` (top first).
    pub(crate) fn new(setup: &'s LoadSetup<'a>, dirs: &[WalkDir<'a>]) -> Self {
        let project = setup.readers.project;
        let workspace = project.root().to_path_buf();
        let cwd = dirs
            .last()
            .map_or_else(|| workspace.clone(), |dir| dir.absolute(""));
        let at = cwd
            .strip_prefix(&workspace)
            .map(crate::workspace::slashed)
            .unwrap_or_default();
        let key = project_key(dirs, setup.readers.root, |dir| {
            dir.scope.is_gated() && !setup.trusted
        })
        .unwrap_or_else(|| cwd.clone());
        Self {
            setup,
            real_cwd: project.real_path(&at).ok(),
            real_workspace: project.real_path("").ok(),
            bounds: Bounds {
                home: setup.home.to_path_buf(),
                cwd: cwd.clone(),
                workspace: workspace.clone(),
                external_approved: false,
            },
            workspace,
            cwd,
            key,
            approval: None,
            loaded: imports::Loaded::default(),
            capped: false,
            managed_content: false,
            conditional: Vec::new(),
            lazy_dirs: HashSet::new(),
            unreadable: HashSet::new(),
            not_loaded: Vec::new(),
            rules: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The agent's start directory, absolute.
    pub(crate) fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The workspace root, absolute.
    pub(crate) fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// The project key: the git root of the walk, else the cwd.
    pub(crate) fn key(&self) -> &Path {
        &self.key
    }

    /// How `abs` is named for a file of `scope`.
    pub(crate) fn shown(&self, scope: Scope, abs: &Path) -> String {
        shown(scope, abs, &self.workspace)
    }

    /// What makes two files the same file: the real path, links resolved,
    /// when the reader can tell it (Claude Code loads a file once however
    /// it is reached: `CLAUDE.md -> AGENTS.md` and `sub/CLAUDE.md ->
    /// ../AGENTS.md` are one file, observed: `walk-symlink-once`), else the
    /// lexical path.
    pub(crate) fn identity(&self, reader: &dyn Workspace, rel: &str, abs: &Path) -> PathBuf {
        reader.real_path(rel).unwrap_or_else(|_| abs.to_path_buf())
    }

    /// A real path as the profile names it: below the workspace's real
    /// root, the same place below its lexical root (so parts stay
    /// workspace-relative however `-C` was reached); anything else as it
    /// is.
    pub(crate) fn named(&self, real: &Path) -> PathBuf {
        match self
            .real_workspace
            .as_ref()
            .and_then(|root| real.strip_prefix(root).ok())
        {
            Some(inside) => self.workspace.join(inside),
            None => real.to_path_buf(),
        }
    }

    /// The result, with the parts at start and per touched path.
    pub(crate) fn finish(self, parts: Vec<Part>, touch: Vec<Touched>) -> ClaudeInstructions {
        ClaudeInstructions {
            parts,
            touch,
            not_loaded: self.not_loaded,
            rules: self.rules,
            diagnostics: self.diagnostics,
        }
    }

    /// Records a rule file found.
    pub(crate) fn note_rule(&mut self, rule: ProfileRule) {
        self.rules.push(rule);
    }

    /// Adds a diagnostic.
    pub(crate) fn diagnose(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Lists a file as not loaded, with a diagnostic whose severity says
    /// whether the user would expect it to load (SPEC §14.7): a warning
    /// for an external import, a file too large, one that cannot be used
    /// and the fan-out guard; info for the rest.
    pub(crate) fn skip(&mut self, scope: Scope, path: String, reason: NotLoadedReason, why: &str) {
        let severity = match reason {
            NotLoadedReason::External
            | NotLoadedReason::TooLarge { .. }
            | NotLoadedReason::Unusable(_) => Severity::Warning,
            _ => Severity::Info,
        };
        let phrase = reason.phrase();
        let text = if why.is_empty() {
            format!("not loaded ({phrase})")
        } else {
            format!("not loaded ({phrase}): {why}")
        };
        self.diagnostics
            .push(Diagnostic::new(severity, Some(path.clone()), text));
        self.not_loaded.push(NotLoaded {
            path,
            scope,
            reason,
        });
    }

    /// The user's answer on external imports for this project, asked once.
    fn approved(&mut self) -> bool {
        if let Some(approved) = self.approval {
            return approved;
        }
        let approved = match self.setup.approval.approved(&self.key) {
            Ok(approved) => approved,
            Err(why) => {
                self.diagnostics.push(Diagnostic::warning(
                    self.key.display().to_string(),
                    format!("the approval of external imports cannot be read: {why}"),
                ));
                false
            }
        };
        self.approval = Some(approved);
        approved
    }

    /// Loads `CLAUDE.md` of a top-level reader (managed or user).
    pub(crate) fn load_top_file(
        &mut self,
        reader: &'a dyn Workspace,
        scope: Scope,
        out: &mut Vec<Part>,
    ) {
        let source = Source {
            reader,
            rel: names::CLAUDE_MD.to_string(),
            abs: super::absolute(reader, names::CLAUDE_MD),
            scope,
            depth: 0,
        };
        let read = Read::of(reader, &source.rel);
        let loaded = self.load_read(&source, read, PartKind::Instructions, out);
        if scope == Scope::Managed && loaded {
            self.managed_content = true;
        }
    }

    /// Whether a managed file with content was loaded (it switches the
    /// fallback off like project files).
    pub(crate) fn managed_content(&self) -> bool {
        self.managed_content
    }

    /// Whether the file known as `same` was loaded.
    pub(crate) fn was_loaded(&self, same: &Path) -> bool {
        self.loaded.contains(same)
    }

    /// True the first time a directory below the cwd is read lazily.
    pub(crate) fn first_visit(&mut self, dir: &WalkDir<'a>) -> bool {
        self.lazy_dirs.insert(dir.dir.clone())
    }

    /// True when files of `scope` are withheld in this run.
    pub(crate) fn gated(&self, scope: Scope) -> bool {
        scope.is_gated() && !self.setup.trusted
    }

    /// Loads a file of the walk (not an import) from what reading it gave;
    /// true when it became a part.
    pub(crate) fn load_read(
        &mut self,
        source: &Source<'a>,
        read: Read,
        kind: PartKind,
        out: &mut Vec<Part>,
    ) -> bool {
        let path = self.shown(source.scope, &source.abs);
        match self.text_of(source, &path, read, None) {
            Some(text) => self
                .load_text(source, &path, &text, kind, None, out)
                .is_ok(),
            None => false,
        }
    }

    /// The text of a file read, or `None` after listing why there is none.
    /// A missing walk file is not news; a missing import is, and `import`
    /// then says where it was imported (`imported by X (line N)`).
    pub(crate) fn text_of(
        &mut self,
        source: &Source<'a>,
        path: &str,
        read: Read,
        import: Option<&str>,
    ) -> Option<String> {
        let (reason, why) = match read {
            Read::Text { text, lossy } => {
                if lossy {
                    self.diagnostics
                        .push(Diagnostic::warning(path, INVALID_UTF8_REPLACED));
                }
                return Some(text);
            }
            Read::Missing if import.is_none() => return None,
            Read::TooLarge(bytes) => (
                NotLoadedReason::TooLarge { bytes },
                format!(
                    "larger than {} bytes; Claude Code skips it too",
                    limits::MAX_CLAUDE_FILE_BYTES
                ),
            ),
            Read::NotAFile(what) => (
                NotLoadedReason::Missing,
                format!("a {what}, not a regular file"),
            ),
            other => match other.reason() {
                Some(reason) => (reason, String::new()),
                None => return None,
            },
        };
        let why = match (import, why.is_empty()) {
            (Some(at), true) => at.to_string(),
            (Some(at), false) => format!("{at}; {why}"),
            (None, _) => why,
        };
        self.skip(source.scope, path.to_string(), reason, &why);
        None
    }

    /// Makes a part of `text` (the file's whole decoded text) unless the
    /// file was loaded already or nothing is left of it (then it is listed
    /// and the reason returned), then follows its imports.
    pub(crate) fn load_text(
        &mut self,
        source: &Source<'a>,
        path: &str,
        text: &str,
        kind: PartKind,
        imported_by: Option<&str>,
        out: &mut Vec<Part>,
    ) -> Result<(), NotLoadedReason> {
        if kind != PartKind::Import
            && !self
                .loaded
                .claim(&self.identity(source.reader, &source.rel, &source.abs))
        {
            let reason = NotLoadedReason::Duplicate;
            self.skip(source.scope, path.to_string(), reason.clone(), "");
            return Err(reason);
        }
        let Some(content) = claude_content(text) else {
            let reason = NotLoadedReason::Blank;
            self.skip(
                source.scope,
                path.to_string(),
                reason.clone(),
                "nothing is left once frontmatter, comments and whitespace are removed",
            );
            return Err(reason);
        };
        out.push(Part {
            path: path.to_string(),
            scope: source.scope,
            kind,
            imported_by: imported_by.map(str::to_string),
            content: content.into_owned(),
            cut: None,
        });
        let importer = Importer {
            abs: &source.abs,
            scope: source.scope,
            origin: origin_of(source.scope),
            shown: path,
        };
        let depth = if kind == PartKind::Import {
            source.depth
        } else {
            0
        };
        self.expand(importer, text, depth, out);
        Ok(())
    }

    /// Follows the imports of `text`, the text of `importer` at `depth` (0
    /// for a walk file), depth-first.
    pub(crate) fn expand(
        &mut self,
        importer: Importer<'_>,
        text: &str,
        depth: usize,
        out: &mut Vec<Part>,
    ) {
        let found = imports::scan(split_frontmatter(text).1);
        if found.is_empty() {
            return;
        }
        let candidates =
            imports::candidates(found, importer.abs, depth, importer.origin, &self.bounds);
        for candidate in candidates {
            let path = self.shown(importer.scope, &candidate.target);
            let at = format!(
                "imported by {} (line {})",
                importer.shown, candidate.import.line
            );
            let refused = match candidate.refused {
                Some(imports::Refusal::External) if self.approved() => None,
                other => other,
            };
            if let Some(refused) = refused {
                let (reason, why) = refused_import(refused);
                self.skip(importer.scope, path, reason, &format!("{at}; {why}"));
                continue;
            }
            let source = match self.locate(importer, &candidate.target, candidate.depth) {
                Ok(source) => source,
                Err((reason, why)) => {
                    self.skip(importer.scope, path, reason, &format!("{at}; {why}"));
                    continue;
                }
            };
            let same = self.identity(source.reader, &source.rel, &source.abs);
            match self.loaded.admit(&same) {
                Ok(()) => {}
                Err(imports::Refusal::OverCap) => {
                    self.capped(importer.scope, path);
                    continue;
                }
                // A file that gave nothing was listed the first time.
                Err(_) if self.unreadable.contains(&same) => continue,
                Err(_) => {
                    self.skip(importer.scope, path, NotLoadedReason::Duplicate, &at);
                    continue;
                }
            }
            let read = Read::of(source.reader, &source.rel);
            let Some(text) = self.text_of(&source, &path, read, Some(&at)) else {
                self.unreadable.insert(same);
                continue;
            };
            self.loaded.add_bytes(text.len() as u64);
            let loaded = self.load_text(
                &source,
                &path,
                &text,
                PartKind::Import,
                Some(importer.shown),
                out,
            );
            if loaded.is_err() {
                self.unreadable.insert(same);
            }
        }
    }

    /// Lists an import the fan-out guard stopped; the first one warns.
    fn capped(&mut self, scope: Scope, path: String) {
        if !self.capped {
            self.capped = true;
            self.diagnostics.push(Diagnostic::warning(
                path.clone(),
                format!(
                    "import guard reached ({} imports or {} bytes imported in one assembly); \
                     this and later imports are not read",
                    limits::MAX_IMPORTS,
                    limits::MAX_IMPORTED_BYTES
                ),
            ));
        }
        self.not_loaded.push(NotLoaded {
            path,
            scope,
            reason: NotLoadedReason::Capped,
        });
    }

    /// Where an import that passed the lexical judgement is read from, or
    /// why it is not: inside the workspace through the confined project
    /// reader (withheld when untrusted; a link is judged where it leads),
    /// outside it only for user and managed files, through the first
    /// link-following reader whose root holds it.
    fn locate(
        &mut self,
        importer: Importer<'_>,
        target: &Path,
        depth: usize,
    ) -> Result<Source<'a>, (NotLoadedReason, &'static str)> {
        let scope = importer.scope;
        let readers = self.setup.readers;
        if let Ok(inside) = target.strip_prefix(&self.workspace) {
            if !self.setup.trusted {
                return Err((NotLoadedReason::Withheld, "inside the untrusted workspace"));
            }
            let rel = rel_string(inside)?;
            match readers.project.real_path(&rel) {
                Err(WsError::Refused(_)) => {
                    return Err((
                        NotLoadedReason::External,
                        "a link that leads outside the workspace; the preview never follows it",
                    ));
                }
                Ok(real)
                    if importer.origin == Origin::Project
                        && !self
                            .real_cwd
                            .as_ref()
                            .is_none_or(|cwd| real.starts_with(cwd))
                        && !self.approved() =>
                {
                    return Err((
                        NotLoadedReason::External,
                        "a link that leads outside the cwd; external imports are not approved",
                    ));
                }
                _ => {}
            }
            return Ok(Source {
                reader: readers.project,
                rel,
                abs: target.to_path_buf(),
                scope,
                depth,
            });
        }
        if importer.origin == Origin::Project {
            return Err((NotLoadedReason::External, "outside the workspace"));
        }
        let Some((reader, rel)) = [readers.user, readers.managed, readers.root]
            .into_iter()
            .flatten()
            .find_map(|reader| {
                let inside = target.strip_prefix(reader.root()).ok()?;
                Some((reader, rel_string(inside).ok()?))
            })
        else {
            return Err((NotLoadedReason::Missing, "no reader reaches it"));
        };
        let into_workspace = reader.real_path(&rel).is_ok_and(|real| {
            self.real_workspace
                .as_ref()
                .is_some_and(|ws| real.starts_with(ws))
        });
        if into_workspace && !self.setup.trusted {
            return Err((
                NotLoadedReason::Withheld,
                "a link into the untrusted workspace",
            ));
        }
        Ok(Source {
            reader,
            rel,
            abs: target.to_path_buf(),
            scope,
            depth,
        })
    }
}

/// Which external rule the imports of a file of `scope` follow.
pub(crate) fn origin_of(scope: Scope) -> Origin {
    match scope {
        Scope::Managed => Origin::Managed,
        Scope::User => Origin::User,
        Scope::Parent | Scope::Project | Scope::Local => Origin::Project,
    }
}

/// True when something is at `rel` (even a link the reader refuses).
pub(crate) fn exists(reader: &dyn Workspace, rel: &str) -> bool {
    !matches!(
        reader.stat(rel),
        Err(WsError::NotFound | WsError::NotADirectory)
    )
}

/// A relative path as the port takes it, `/`-separated.
fn rel_string(path: &Path) -> Result<String, (NotLoadedReason, &'static str)> {
    let parts: Option<Vec<&str>> = path.components().map(|c| c.as_os_str().to_str()).collect();
    parts.map(|parts| parts.join("/")).ok_or((
        NotLoadedReason::Unusable("the path is not valid UTF-8".to_string()),
        "",
    ))
}

/// The listed reason and explanation of an import refused before reading.
fn refused_import(refused: imports::Refusal) -> (NotLoadedReason, String) {
    use imports::Refusal as Why;
    match refused {
        Why::TooDeep => (
            NotLoadedReason::TooDeep,
            format!(
                "Claude Code follows imports {} deep",
                limits::MAX_IMPORT_DEPTH
            ),
        ),
        Why::Binary => (
            NotLoadedReason::NotText,
            "its extension is not one Claude Code reads as text".to_string(),
        ),
        Why::External => (
            NotLoadedReason::External,
            "outside the cwd, and external imports are not approved for this project \
             (Claude Code drops it too)"
                .to_string(),
        ),
        Why::OutsideWorkspace => (
            NotLoadedReason::External,
            "outside the workspace; the preview never reads it (Claude Code reads it only \
             when external imports are approved)"
                .to_string(),
        ),
        // `candidates` refuses only for depth, extension and place; the
        // other reasons are the reader's and the walk's.
        other => (NotLoadedReason::Unusable(other.to_string()), String::new()),
    }
}
