//! SPEC §20.2–§20.3: what points at the release archives. The archives
//! themselves need a release build, which `.ci/run` makes
//! (`scripts/release.sh`, then `scripts/action-test.sh` and
//! `scripts/npm-test.sh` on them); here `scripts/release-index.sh` runs over
//! stand-in archives of every target, and `[package.metadata.binstall]` is
//! expanded for each tier-1 target.

use sha2::{Digest, Sha256};

use crate::support::repo_file;

const VERSION: &str = "0.1.0";
const BASE: &str = "https://releases.invalid/mecatl-prompt";

fn archive_name(target: &str) -> String {
    let ext = if target.contains("windows") {
        "zip"
    } else {
        "tar.gz"
    };
    format!("mecatl-prompt-{VERSION}-{target}.{ext}")
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes a stand-in archive per target (distinct bytes each), runs the
/// index script over them and returns (SHA256SUMS, formula).
fn index(targets: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().expect("out dir");
    for target in targets {
        std::fs::write(
            dir.path().join(archive_name(target)),
            format!("archive of {target}"),
        )
        .expect("write an archive");
    }
    let output = std::process::Command::new("bash")
        .arg(repo_file("scripts/release-index.sh"))
        .args([VERSION, &dir.path().display().to_string()])
        .env("MECATL_PROMPT_RELEASE_BASE", BASE)
        .output()
        .expect("run bash");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect(name);
    (read("SHA256SUMS"), read("mecatl-prompt.rb"))
}

/// The formula's archives: (`on_<os>`, `on_<cpu>`, url, sha256), in order.
fn formula_archives(formula: &str) -> Vec<(String, String, String, String)> {
    let quoted = |line: &str| line.split('"').nth(1).expect("a quoted value").to_owned();
    let (mut os, mut cpu, mut url) = (String::new(), String::new(), String::new());
    let mut found = Vec::new();
    for line in formula.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [block, "do"] if line.starts_with("  on_") => os = (*block).to_owned(),
            [block, "do"] if line.starts_with("    on_") => cpu = (*block).to_owned(),
            ["url", _] => url = quoted(line),
            ["sha256", _] => found.push((os.clone(), cpu.clone(), url.clone(), quoted(line))),
            _ => {}
        }
    }
    found
}

#[test]
#[cfg_attr(windows, ignore = "needs bash")]
fn the_release_index_sums_every_archive_and_the_formula_names_each_platform() {
    let targets = [
        "x86_64-unknown-linux-gnu",
        "x86_64-unknown-linux-musl",
        "x86_64-pc-windows-gnu",
        "aarch64-unknown-linux-gnu",
        "aarch64-apple-darwin",
        "x86_64-apple-darwin",
    ];
    let (sums, formula) = index(&targets);
    let mut names: Vec<String> = targets.iter().map(|t| archive_name(t)).collect();
    names.sort();
    let expected: String = names
        .iter()
        .map(|name| {
            let target = name
                .trim_start_matches(&format!("mecatl-prompt-{VERSION}-"))
                .trim_end_matches(".tar.gz")
                .trim_end_matches(".zip");
            let bytes = format!("archive of {target}");
            format!("{}  {name}\n", sha256_hex(bytes.as_bytes()))
        })
        .collect();
    assert_eq!(sums, expected);

    // One archive per OS and CPU; on x86_64 Linux the static musl build.
    let entry = |os: &str, cpu: &str, target: &str| {
        let name = archive_name(target);
        let sum = sha256_hex(format!("archive of {target}").as_bytes());
        (
            format!("on_{os}"),
            format!("on_{cpu}"),
            format!("{BASE}/v{VERSION}/{name}"),
            sum,
        )
    };
    assert_eq!(
        formula_archives(&formula),
        [
            entry("macos", "arm", "aarch64-apple-darwin"),
            entry("macos", "intel", "x86_64-apple-darwin"),
            entry("linux", "arm", "aarch64-unknown-linux-gnu"),
            entry("linux", "intel", "x86_64-unknown-linux-musl"),
        ]
    );
    assert!(formula.contains(&format!("  version \"{VERSION}\"\n")));
    assert!(!formula.contains('@'), "a placeholder is left:\n{formula}");

    // Without the musl build, the glibc one; without macOS, no on_macos.
    let (_, formula) = index(&["x86_64-unknown-linux-gnu", "x86_64-pc-windows-gnu"]);
    assert_eq!(
        formula_archives(&formula),
        [entry("linux", "intel", "x86_64-unknown-linux-gnu")]
    );
    assert!(!formula.contains("on_macos"));
}

#[test]
fn cargo_binstall_finds_the_archives_release_writes() {
    let manifest: toml::Table = std::fs::read_to_string(repo_file("Cargo.toml"))
        .expect("Cargo.toml")
        .parse()
        .expect("TOML");
    let package = &manifest["package"];
    let repo = package["repository"].as_str().expect("repository");
    let binstall = &package["metadata"]["binstall"];
    for target in [
        "x86_64-unknown-linux-gnu",
        "x86_64-unknown-linux-musl",
        "x86_64-pc-windows-gnu",
    ] {
        let over = binstall.get("overrides").and_then(|o| o.get(target));
        let key = |name: &str| {
            over.and_then(|o| o.get(name))
                .unwrap_or(&binstall[name])
                .as_str()
                .expect(name)
        };
        let exe = if target.contains("windows") {
            ".exe"
        } else {
            ""
        };
        let expand = |template: &str| {
            template
                .replace("{ repo }", repo)
                .replace("{ name }", "mecatl-prompt")
                .replace("{ version }", VERSION)
                .replace("{ target }", target)
                .replace("{ bin }", "mecatl-prompt")
                .replace("{ binary-ext }", exe)
        };
        let name = archive_name(target);
        assert_eq!(
            expand(key("pkg-url")),
            format!("{repo}/releases/download/v{VERSION}/{name}")
        );
        assert_eq!(
            key("pkg-fmt"),
            if exe.is_empty() { "tgz" } else { "zip" },
            "{target}"
        );
        assert_eq!(
            expand(key("bin-dir")),
            format!("mecatl-prompt-{VERSION}-{target}/mecatl-prompt{exe}")
        );
    }
}
