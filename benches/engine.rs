//! Micro-benchmarks of the engine's pure hot paths (`cargo bench`). The
//! whole-process targets of SPEC §11 are measured by `scripts/bench.sh`;
//! these time the domain code alone, on inputs of the sizes those
//! scenarios use.

use divan::{Bencher, black_box};
use mecatl_prompt::limits;
use mecatl_prompt::prompt::build::{Config, build};
use mecatl_prompt::prompt::command::render;
use mecatl_prompt::prompt::env::Env;
use mecatl_prompt::prompt::memory_index::{MemoryEntry, render_memory_index};
use mecatl_prompt::prompt::rules::frontmatter::{parse_paths, split};
use mecatl_prompt::prompt::rules::{Rule, RuleOrigin, RulesMessageBuilder};
use mecatl_prompt::prompt::tokens::Tokenizer;
use mecatl_prompt::prompt::tools::ToolSpec;

fn main() {
    divan::main();
}

/// A paragraph of plain prose, about 100 bytes.
const SENTENCE: &str = "Keep functions short, name them after what they return, and handle \
                        every error where it can be answered.\n";

/// A rule file of about 1 KiB with a two-glob `paths` list.
fn rule_file() -> Vec<u8> {
    format!(
        "---\ndescription: Go style\npaths:\n  - \"**/*.go\"\n  - \"**/*.{{ts,tsx}}\"\n---\n{}",
        SENTENCE.repeat(9)
    )
    .into_bytes()
}

#[divan::bench]
fn frontmatter_split_and_paths(bencher: Bencher) {
    let file = rule_file();
    bencher.bench(|| {
        let parts = split(black_box(&file));
        parse_paths(parts.front.as_deref().unwrap_or_default())
    });
}

#[divan::bench]
fn command_expansion(bencher: Bencher) {
    let raw = format!(
        "---\ndescription: Fix an issue\n---\nFix issue $1 in $2.\n{}Context: $ARGUMENTS\n",
        SENTENCE.repeat(8)
    );
    let args: Vec<String> = ["412", "src/lib.rs", "--fast", "please"]
        .map(String::from)
        .to_vec();
    bencher.bench(|| render(black_box(&raw), black_box(&args), None));
}

/// More rules than the rules message takes: 1.5 KiB bodies reach the byte
/// cap before the count cap.
#[divan::bench]
fn rules_rendering_at_the_caps(bencher: Bencher) {
    let rules: Vec<Rule> = (0..64)
        .map(|i| Rule {
            name: format!("rule-{i:02}"),
            body: SENTENCE.repeat(15),
            paths: if i % 2 == 0 {
                Vec::new()
            } else {
                vec![format!("src/mod{i}/**/*.rs")]
            },
            origin: RuleOrigin::Project,
        })
        .collect();
    bencher.bench(|| {
        let mut builder = RulesMessageBuilder::new(0, 0);
        for rule in black_box(&rules) {
            if !builder.try_push(rule) {
                break;
            }
        }
        builder.finish(rules.len())
    });
}

#[divan::bench]
fn memory_index_at_200_entries(bencher: Bencher) {
    let entries: Vec<MemoryEntry> = (0..limits::MAX_MEMORY_INDEX_ENTRIES)
        .map(|i| MemoryEntry {
            key: format!("project/fact-{i:03}"),
            value: String::new(),
            description: format!("Health check port of service {i}"),
            updated_at: Some(format!("2026-01-{:02}T10:{:02}:00Z", i % 28 + 1, i % 60)),
        })
        .collect();
    bencher
        .with_inputs(|| entries.clone())
        .bench_values(|entries| render_memory_index(entries, 0, 0));
}

#[divan::bench]
fn build_with_50_tools(bencher: Bencher) {
    let mut tools: Vec<ToolSpec> = ["Read", "Edit", "Write", "Glob", "Grep", "Bash", "Recall"]
        .iter()
        .map(|name| ToolSpec::new(*name, format!("The {name} tool.\nMore detail.")))
        .collect();
    tools.extend((tools.len()..50).map(|i| {
        ToolSpec::new(
            format!("mcp__server__tool_{i}"),
            format!("Tool number {i}: does one thing well.\nArguments follow."),
        )
    }));
    let config = Config {
        tools,
        env: Env {
            cwd: "/home/dev/project".into(),
            date: "2026-01-15".into(),
            model: "model-x".into(),
            os: "linux".into(),
            mode: "default".into(),
            shell: "/bin/bash".into(),
            git_status: "branch: main\nstatus:\n(clean)".into(),
        },
        ..Config::default()
    };
    bencher.bench(|| build(black_box(&config)));
}

/// One MiB.
const MIB: usize = 1 << 20;

/// About `len` bytes of prose and code, the same on every run: sentences of
/// made-up words (so most words are not single tokens, as in real
/// identifiers), a few accented and CJK words, and Rust-like lines with
/// numbers and indentation.
fn mixed_text(len: usize) -> String {
    const SYLLABLES: [&str; 16] = [
        "ka", "lo", "mi", "re", "tan", "ser", "vo", "qui", "dra", "pel", "ux", "zen", "or", "bli",
        "gro", "sti",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let word = |r: u64| -> String {
        (0..1 + r % 3)
            .map(|k| SYLLABLES[(r >> (8 + 4 * k)) as usize % SYLLABLES.len()])
            .collect()
    };
    let mut out = String::with_capacity(len + 128);
    while out.len() < len {
        let r = next();
        match r % 6 {
            0 => out.push_str(&format!(
                "    let {}_{} = {};\n",
                word(next()),
                word(next()),
                next() % 100_000
            )),
            1 => out.push_str(&format!(
                "fn {}(&self, {}: &str) -> Option<usize> {{\n",
                word(next()),
                word(next())
            )),
            2 => out.push_str("}\n"),
            _ => {
                let words: Vec<String> = (0..6 + next() % 12).map(|_| word(next())).collect();
                let accent = if r % 5 == 0 { "é 日本語" } else { "" };
                out.push_str(&format!("{}{accent}, {}.\n", words.join(" "), word(r)));
            }
        }
    }
    let mut cut = len;
    while !out.is_char_boundary(cut) {
        cut -= 1;
    }
    out.truncate(cut);
    out
}

/// Exact counting of 1 MiB of prose and code (target ≤ 10 ms; README's
/// Dependencies section has the measurements).
#[divan::bench]
fn o200k_base_count_1_mib(bencher: Bencher) {
    let text = mixed_text(MIB);
    bencher.bench(|| Tokenizer::O200kBase.count(black_box(&text)));
}

/// The input that makes quadratic byte-pair encoders crawl: one MiB of one
/// letter, a single pre-token.
#[divan::bench]
fn o200k_base_count_1_mib_of_one_letter(bencher: Bencher) {
    let text = "a".repeat(MIB);
    bencher.bench(|| Tokenizer::O200kBase.count(black_box(&text)));
}

/// The input that overflowed a regex stack in one candidate crate: one MiB
/// of spaces, a single whitespace run.
#[divan::bench]
fn o200k_base_count_1_mib_of_spaces(bencher: Bencher) {
    let text = " ".repeat(MIB);
    bencher.bench(|| Tokenizer::O200kBase.count(black_box(&text)));
}

/// One MiB of random ASCII letters with no space: a single piece whose
/// pairs span thousands of ranks.
#[divan::bench]
fn o200k_base_count_1_mib_of_random_letters(bencher: Bencher) {
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut state: u64 = 0x1234_5678_9ABC_DEF1;
    let text: String = (0..MIB)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(LETTERS[(state % LETTERS.len() as u64) as usize])
        })
        .collect();
    bencher.bench(|| Tokenizer::O200kBase.count(black_box(&text)));
}

/// One MiB of Japanese with no space or punctuation: a single piece of
/// three-byte characters.
#[divan::bench]
fn o200k_base_count_1_mib_of_japanese(bencher: Bencher) {
    let text = "日本語のテキストを数える".repeat(MIB / 36);
    bencher.bench(|| Tokenizer::O200kBase.count(black_box(&text)));
}
