//! Exact `o200k_base` counts (SPEC §15.4) against the reference encoder,
//! the `bpe-openai` crate, on real text: every Markdown, Rust and TOML file
//! of this repository one by one, and all of them as one text (so the
//! counts of long texts, which reuse the counts of repeated pieces, are
//! checked too). Set `MECATL_O200K_TEXT_DIR` to check another tree as well.

use std::path::{Path, PathBuf};

use mecatl_prompt::prompt::tokens::Tokenizer;

/// The text files under `dir`, sorted, skipping build output and Git.
fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if name != "target" && name != ".git" {
                text_files(&path, out);
            }
        } else if [".md", ".rs", ".toml"]
            .iter()
            .any(|ext| name.ends_with(ext))
        {
            out.push(path);
        }
    }
}

fn check_tree(dir: &Path) {
    let reference = bpe_openai::o200k_base();
    let mut files = Vec::new();
    text_files(dir, &mut files);
    assert!(!files.is_empty(), "no text under {}", dir.display());
    let mut all = String::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        assert_eq!(
            Tokenizer::O200kBase.count(&text),
            reference.count(&text),
            "{}",
            path.display()
        );
        all.push_str(&text);
    }
    assert_eq!(Tokenizer::O200kBase.count(&all), reference.count(&all));
}

#[test]
fn counts_of_this_repository_match_the_reference() {
    check_tree(Path::new(env!("CARGO_MANIFEST_DIR")));
    if let Some(dir) = std::env::var_os("MECATL_O200K_TEXT_DIR") {
        check_tree(Path::new(&dir));
    }
}
