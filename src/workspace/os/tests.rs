//! Tests of the workspace port over a directory on disk.

use super::*;

#[test]
fn display_owned_is_display() {
    let dir = tempfile::tempdir().unwrap();
    for policy in [LinkPolicy::Confine, LinkPolicy::Follow] {
        let ws = OsWorkspace::new(dir.path(), policy);
        for rel in [
            "",
            ".",
            "./a.md",
            "././a.md",
            ".claude/rules/x.md",
            "a/./b.md",
        ] {
            assert_eq!(ws.display_owned(rel.to_string()), ws.display(rel), "{rel}");
            let through_ref = <&OsWorkspace as Workspace>::display_owned(&&ws, rel.into());
            assert_eq!(through_ref, ws.display(rel));
        }
    }
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
#[test]
fn os_workspace_confines_links_and_skips_fifos() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("AGENTS.md"), "hi").unwrap();
    std::os::unix::fs::symlink("AGENTS.md", root.join("CLAUDE.md")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret"), root.join("leak.md")).unwrap();
    std::os::unix::fs::symlink("nowhere", root.join("dangling.md")).unwrap();
    std::os::unix::fs::symlink("loop.md", root.join("loop.md")).unwrap();
    std::fs::create_dir(root.join("x.md")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(root.join("fifo.md"))
        .status()
        .unwrap();
    assert!(status.success());

    let ws = OsWorkspace::new(root, LinkPolicy::Confine);
    assert_eq!(ws.read("CLAUDE.md", 100).unwrap().bytes, b"hi");
    assert!(matches!(ws.read("leak.md", 100), Err(WsError::Refused(_))));
    assert!(matches!(
        ws.read("dangling.md", 100),
        Err(WsError::Unresolvable(_))
    ));
    assert!(matches!(
        ws.read("loop.md", 100),
        Err(WsError::Unresolvable(_))
    ));
    assert!(matches!(
        ws.read("fifo.md", 100),
        Err(WsError::NotRegular("FIFO"))
    ));
    assert!(matches!(
        ws.read("x.md", 100),
        Err(WsError::NotRegular("directory"))
    ));
    assert!(matches!(ws.read("missing.md", 100), Err(WsError::NotFound)));
    assert_eq!(ws.display("a/b.md"), "a/b.md");

    let user = OsWorkspace::new(root, LinkPolicy::Follow);
    assert_eq!(user.read("leak.md", 100).unwrap().bytes, b"s3cret");
    assert_eq!(
        user.display("a.md"),
        root.join("a.md").display().to_string()
    );
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
#[test]
fn real_paths_resolve_links_and_confinement_refuses_the_outside() {
    let outside = tempfile::tempdir().unwrap();
    let outside_root = outside.path().canonicalize().unwrap();
    std::fs::write(outside_root.join("secret"), "s").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::write(root.join("a.md"), "a").unwrap();
    symlink("../a.md", root.join("sub/link.md"));
    symlink(outside_root.join("secret"), root.join("leak.md"));
    let ws = OsWorkspace::new(&root, LinkPolicy::Confine);
    assert_eq!(ws.real_path("sub/link.md").unwrap(), root.join("a.md"));
    assert_eq!(ws.real_path("").unwrap(), root);
    assert!(matches!(ws.real_path("leak.md"), Err(WsError::Refused(_))));
    assert!(matches!(ws.real_path("none.md"), Err(WsError::NotFound)));
    let user = OsWorkspace::new(&root, LinkPolicy::Follow);
    assert_eq!(
        user.real_path("leak.md").unwrap(),
        outside_root.join("secret")
    );
}

// Unix only: std::os::unix's symbolic links.
#[cfg(unix)]
#[test]
fn real_paths_without_links_are_the_canonical_ones_and_missing_dirs_are_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("a/b/c")).unwrap();
    std::fs::write(root.join("a/b/c/x.md"), "x").unwrap();
    std::fs::write(root.join("a/y.md"), "y").unwrap();
    symlink("a/b", root.join("l"));
    symlink("../y.md", root.join("a/b/y.md"));
    // Reached through a link in the root's own path, as `-C` may be.
    let via = tempfile::tempdir().unwrap();
    symlink(&root, via.path().join("ws"));
    let ws = OsWorkspace::new(via.path().join("ws"), LinkPolicy::Confine);
    for _ in 0..2 {
        for rel in ["a", "a/b/c", "a/b/c/x.md", "l/c/x.md", "a/b/y.md", "l/y.md"] {
            let want = root.join(rel).canonicalize().unwrap();
            assert_eq!(ws.real_path(rel).unwrap(), want, "{rel}");
        }
        // Listed first: the quick route then looks below a held
        // directory.
        assert_eq!(ws.list("a/b/c").unwrap().len(), 1);
        for rel in ["a/b/c/none.md", "none/x.md", "a/y.md/x"] {
            assert!(matches!(ws.real_path(rel), Err(WsError::NotFound)), "{rel}");
        }
        for rel in ["none", "a/none", "a/none/deeper", ".claude/rules"] {
            assert!(matches!(ws.list(rel), Err(WsError::NotFound)), "{rel}");
            assert!(matches!(ws.stat(rel), Err(WsError::NotFound)), "{rel}");
        }
        assert!(matches!(ws.list("a/y.md"), Err(WsError::NotADirectory)));
    }
}

// Unix only: std::os::unix's symbolic links.
#[cfg(unix)]
/// Makes `link` a symbolic link to `target` (for the tests of the
/// submodules too).
pub(super) fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

// Unix only: mkfifo.
#[cfg(unix)]
/// Makes a FIFO at `path`.
pub(super) fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
#[test]
fn os_workspace_confines_links_in_directories_too() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("x.md"), "outside").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("shared/rules")).unwrap();
    std::fs::write(root.join("shared/rules/x.md"), "inside").unwrap();
    std::fs::create_dir(root.join(".claude")).unwrap();
    symlink("../shared/rules", root.join(".claude/rules"));
    symlink(outside.path(), root.join(".claude/out"));
    symlink("loop", root.join(".claude/loop"));
    symlink("nowhere", root.join(".claude/gone"));

    let ws = OsWorkspace::new(root, LinkPolicy::Confine);
    // Twice: the second time answers from the directory cache.
    for _ in 0..2 {
        // A linked directory inside the root is followed.
        assert_eq!(ws.read(".claude/rules/x.md", 100).unwrap().bytes, b"inside");
        assert_eq!(
            ws.read_listed(".claude/rules/x.md", EntryKind::File, 100)
                .unwrap()
                .bytes,
            b"inside"
        );
        assert_eq!(ws.stat(".claude/rules/x.md").unwrap(), EntryKind::File);
        assert_eq!(ws.list(".claude/rules").unwrap().len(), 1);
        // One leading outside is refused, whether the file exists or not
        // (a missing file is simply not found, as before).
        assert!(matches!(
            ws.read(".claude/out/x.md", 100),
            Err(WsError::Refused(_))
        ));
        assert!(matches!(
            ws.read_listed(".claude/out/x.md", EntryKind::File, 100),
            Err(WsError::Refused(_))
        ));
        assert!(matches!(
            ws.stat(".claude/out/x.md"),
            Err(WsError::Refused(_))
        ));
        assert!(matches!(ws.list(".claude/out"), Err(WsError::Refused(_))));
        assert!(matches!(
            ws.read(".claude/out/no.md", 100),
            Err(WsError::NotFound)
        ));
        // Loops and dangling directory links.
        assert!(matches!(
            ws.read(".claude/loop/x.md", 100),
            Err(WsError::Unresolvable(_))
        ));
        assert!(matches!(
            ws.list(".claude/loop"),
            Err(WsError::Unresolvable(_))
        ));
        assert!(matches!(
            ws.read(".claude/gone/x.md", 100),
            Err(WsError::NotFound)
        ));
        assert!(matches!(
            ws.list(".claude/gone"),
            Err(WsError::Unresolvable(_))
        ));
        // A file where a directory is expected.
        assert!(matches!(
            ws.read("shared/rules/x.md/y", 100),
            Err(WsError::NotFound)
        ));
        assert!(matches!(
            ws.list("shared/rules/x.md"),
            Err(WsError::NotADirectory)
        ));
        assert!(matches!(ws.stat("shared/nope"), Err(WsError::NotFound)));
        assert_eq!(ws.stat("shared").unwrap(), EntryKind::Dir);
        assert!(matches!(
            ws.read("shared", 100),
            Err(WsError::NotRegular("directory"))
        ));
    }
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
#[test]
fn a_listed_file_swapped_afterwards_is_checked_again() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret"), "s3cret").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for name in ["leak.md", "inner.md", "fifo.md", "gone.md", "AGENTS.md"] {
        std::fs::write(root.join(name), "x").unwrap();
    }
    let ws = OsWorkspace::new(root, LinkPolicy::Confine);
    let listed = ws.list("").unwrap();
    assert!(listed.iter().all(|e| e.kind == EntryKind::File));
    // Between the listing and the read, files turn into links and a FIFO.
    for name in ["leak.md", "inner.md", "fifo.md", "gone.md"] {
        std::fs::remove_file(root.join(name)).unwrap();
    }
    symlink(outside.path().join("secret"), root.join("leak.md"));
    symlink("AGENTS.md", root.join("inner.md"));
    mkfifo(&root.join("fifo.md"));
    let read = |name: &str| ws.read_listed(name, EntryKind::File, 100);
    assert!(matches!(read("leak.md"), Err(WsError::Refused(_))));
    assert_eq!(read("inner.md").unwrap().bytes, b"x");
    assert!(matches!(read("fifo.md"), Err(WsError::NotRegular("FIFO"))));
    assert!(matches!(read("gone.md"), Err(WsError::NotFound)));
    // Kinds that are not regular files are never opened.
    assert!(matches!(
        ws.read_listed("fifo.md", EntryKind::Other("FIFO"), 100),
        Err(WsError::NotRegular("FIFO"))
    ));
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
/// A directory outside any workspace (holding `x.md` and `sub/`) and a
/// workspace with directories `d`, `e` and `shared`, each holding an
/// `x.md` that names it.
fn three_dirs_and_an_outside() -> (tempfile::TempDir, tempfile::TempDir) {
    let (outside, dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::create_dir(outside.path().join("sub")).unwrap();
    std::fs::write(outside.path().join("x.md"), "outside").unwrap();
    for sub in ["d", "e", "shared"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::write(dir.path().join(sub).join("x.md"), sub).unwrap();
    }
    (outside, dir)
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
/// Turns `d` into a link leading out of the workspace and `e` into one
/// to `shared`, inside it.
fn swap_for_links(root: &Path, outside: &Path) {
    std::fs::remove_dir_all(root.join("d")).unwrap();
    std::fs::remove_dir_all(root.join("e")).unwrap();
    symlink(outside, root.join("d"));
    symlink("shared", root.join("e"));
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
#[test]
fn a_listed_directory_swapped_for_a_link_is_not_looked_through() {
    let (outside, dir) = three_dirs_and_an_outside();
    let root = dir.path();
    let ws = OsWorkspace::new(root, LinkPolicy::Confine);
    for sub in ["d", "e"] {
        assert_eq!(ws.list(sub).unwrap()[0].kind, EntryKind::File);
        assert_eq!(ws.stat(&format!("{sub}/x.md")).unwrap(), EntryKind::File);
    }
    // Between the listing and the look, the directories become links.
    swap_for_links(root, outside.path());
    // What lies outside is neither found nor told apart by its kind.
    assert!(matches!(ws.stat("d/x.md"), Err(WsError::Refused(_))));
    assert!(matches!(ws.stat("d/sub"), Err(WsError::Refused(_))));
    assert!(matches!(ws.stat("d/none.md"), Err(WsError::NotFound)));
    assert_eq!(ws.stat("e/x.md").unwrap(), EntryKind::File);
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
#[test]
fn a_listed_directory_swapped_for_a_link_is_not_read_through() {
    let (outside, dir) = three_dirs_and_an_outside();
    let root = dir.path();
    let ws = OsWorkspace::new(root, LinkPolicy::Confine);
    assert_eq!(ws.list("d").unwrap()[0].kind, EntryKind::File);
    assert_eq!(ws.list("e").unwrap()[0].kind, EntryKind::File);
    assert_eq!(
        ws.read_listed("d/x.md", EntryKind::File, 100)
            .unwrap()
            .bytes,
        b"d"
    );
    // Between the listing and the read, the directories become links.
    swap_for_links(root, outside.path());
    let read = |rel: &str| ws.read_listed(rel, EntryKind::File, 100);
    assert!(matches!(read("d/x.md"), Err(WsError::Refused(_))));
    assert_eq!(read("e/x.md").unwrap().bytes, b"shared");
    // A directory where the listing saw a file is not read either.
    std::fs::remove_file(root.join("shared/x.md")).unwrap();
    std::fs::create_dir(root.join("shared/x.md")).unwrap();
    assert!(matches!(
        read("shared/x.md"),
        Err(WsError::NotRegular("directory"))
    ));
    // So are paths that are not plain components, however they are read.
    assert!(matches!(read("./d/x.md"), Err(WsError::Refused(_))));
    assert!(matches!(ws.read("./d/x.md", 100), Err(WsError::Refused(_))));
    assert!(matches!(ws.read("d/x.md", 100), Err(WsError::Refused(_))));
    assert!(matches!(read("../x.md"), Err(WsError::Refused(_))));
}

#[test]
fn reads_are_whole_or_cut_at_the_bound_around_the_first_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let sizes = [
        0,
        1,
        FIRST_READ_BYTES - 1,
        FIRST_READ_BYTES,
        FIRST_READ_BYTES + 1,
        3 * FIRST_READ_BYTES + 7,
    ];
    for size in sizes {
        let text: Vec<u8> = (0..size).map(|i| b'a' + (i % 26) as u8).collect();
        std::fs::write(root.join(format!("f{size}.md")), &text).unwrap();
    }
    let ws = OsWorkspace::new(root, LinkPolicy::Confine);
    let user = OsWorkspace::new(root, LinkPolicy::Follow);
    for size in sizes {
        let rel = format!("f{size}.md");
        let text = std::fs::read(root.join(&rel)).unwrap();
        for bound in [0, 10, FIRST_READ_BYTES, FIRST_READ_BYTES + 5, 1 << 20] {
            let want = &text[..size.min(bound)];
            for read in [
                ws.read_listed(&rel, EntryKind::File, bound as u64),
                ws.read(&rel, bound as u64),
                user.read_listed(&rel, EntryKind::File, bound as u64),
            ] {
                let read = read.unwrap();
                assert_eq!(read.bytes, want, "{size} bytes read to {bound}");
                assert_eq!(read.is_truncated(), size > bound, "{size} to {bound}");
                if size > bound {
                    assert_eq!(read.size, size as u64);
                }
            }
        }
    }
}

// Unix only: symbolic links and FIFOs made with std::os::unix and mkfifo.
#[cfg(unix)]
#[test]
fn user_tier_reads_listed_files_through_links() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("rule.md"), "mine").unwrap();
    let dir = tempfile::tempdir().unwrap();
    symlink(outside.path(), dir.path().join("rules"));
    let user = OsWorkspace::new(dir.path(), LinkPolicy::Follow);
    let listed = user.list("rules").unwrap();
    assert_eq!(listed[0].kind, EntryKind::File);
    assert_eq!(
        user.read_listed("rules/rule.md", EntryKind::File, 100)
            .unwrap()
            .bytes,
        b"mine"
    );
    mkfifo(&dir.path().join("fifo"));
    assert!(matches!(
        user.read_listed("fifo", EntryKind::File, 100),
        Err(WsError::NotRegular("FIFO"))
    ));
}
