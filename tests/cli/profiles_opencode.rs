//! The opencode profile on the binary (SPEC §18.1, §18.2, §18.5): its
//! instructions message in JSON, trust, the switches read from the
//! environment, the FIFO, the link and the globs that are never read, the
//! catalog that says it is not modelled yet, and the default columns of
//! `compare` and `lint`, which gain `opencode` only where its files are.

use crate::hardening::{Outcome, run};
use crate::profile_support::{
    agent_run, assemble_with_var, git_env, joins_the_default_agents_only_where_its_files_are,
    withheld,
};
use crate::support::TestEnv;

/// A git workspace with `AGENTS.md` at the root and in `sub`, a shadowed
/// `CLAUDE.md`, an `opencode.jsonc` naming a doc, and a global file.
fn opencode_env() -> TestEnv {
    let env = git_env();
    env.write("AGENTS.md", "ROOT\n");
    env.write("CLAUDE.md", "CLAUDE\n");
    env.write("sub/AGENTS.md", "SUB\n");
    env.write(
        "opencode.jsonc",
        "{\n  // docs\n  \"instructions\": [\"docs/*.md\", \"https://x.test/a.md\",],\n}\n",
    );
    env.write("docs/style.md", "STYLE\n");
    crate::support::write_file(&env.config.join("opencode/AGENTS.md"), "GLOBAL\n");
    env
}

fn opencode(env: &TestEnv, trust: bool, args: &[&str]) -> Outcome {
    agent_run(env, "opencode", trust, args)
}

fn paths(doc: &serde_json::Value) -> Vec<String> {
    doc["messages"][0]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
#[cfg_attr(
    windows,
    ignore = "expects the global file's absolute path in Unix form ([ROOT]/…)"
)]
fn assemble_sends_one_system_message_in_opencodes_order() {
    let env = opencode_env();
    let doc = opencode(&env, true, &["--at", "sub", "assemble"])
        .assert_code(0)
        .json();
    assert_eq!(doc["agent"], "opencode");
    assert_eq!(doc["at"], "sub");
    let messages = doc["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "system");
    assert_eq!(messages[0]["provenance"], "instructions");
    assert_eq!(
        paths(&doc),
        [
            "[ROOT]/config/opencode/AGENTS.md",
            "sub/AGENTS.md",
            "AGENTS.md",
            "docs/style.md"
        ]
    );
    let text = messages[0]["text"].as_str().unwrap();
    assert!(text.starts_with("Instructions from: "), "{text}");
    assert!(text.ends_with("/docs/style.md\nSTYLE\n"), "{text}");
    let reasons = doc["not_loaded"].to_string();
    assert!(
        reasons.contains("shadowed by AGENTS.md on the walk"),
        "{reasons}"
    );
    assert!(reasons.contains("url, not fetched"), "{reasons}");
}

#[test]
#[cfg_attr(
    windows,
    ignore = "expects the global file's absolute path in Unix form ([ROOT]/…)"
)]
fn untrusted_the_project_is_withheld_and_the_global_file_loads() {
    let env = opencode_env();
    let doc = opencode(&env, false, &["assemble"]).assert_code(0).json();
    assert_eq!(paths(&doc), ["[ROOT]/config/opencode/AGENTS.md"]);
    let withheld = withheld(&doc);
    assert_eq!(withheld, ["opencode.jsonc", "AGENTS.md"]);
    assert!(!doc.to_string().contains("STYLE"));
}

#[test]
#[cfg_attr(
    windows,
    ignore = "expects the global file's absolute path in Unix form ([ROOT]/…)"
)]
fn the_switches_come_from_the_environment() {
    let env = opencode_env();
    std::fs::remove_file(env.ws.join("AGENTS.md")).unwrap();
    std::fs::remove_file(env.ws.join("sub/AGENTS.md")).unwrap();
    env.write("CONTEXT.md", "CONTEXT\n");
    let run_with = |var: &str| {
        paths(
            &assemble_with_var(&env, "opencode", var, "1")
                .assert_code(0)
                .json(),
        )
    };
    let global = "[ROOT]/config/opencode/AGENTS.md";
    assert_eq!(
        run_with("OPENCODE_DISABLE_CLAUDE_CODE"),
        [global, "CONTEXT.md", "docs/style.md"]
    );
    assert_eq!(run_with("OPENCODE_DISABLE_PROJECT_CONFIG"), [global]);
    assert_eq!(
        run_with("UNRELATED"),
        [global, "CLAUDE.md", "docs/style.md"]
    );
}

// Unix only: a FIFO and a symbolic link.
#[cfg(unix)]
#[test]
fn a_fifo_a_link_out_and_a_glob_out_are_never_read() {
    let env = git_env();
    let outside = env.home.join("secret.md");
    crate::support::write_file(&outside, "SECRET\n");
    crate::hardening::symlink(&outside, &env.ws.join("docs/out.md"));
    env.write(
        "opencode.json",
        "{\"instructions\": [\"docs/*.md\", \"../*.md\", \"/etc/*\"]}",
    );
    let made = std::process::Command::new("mkfifo")
        .arg(env.ws.join("AGENTS.md"))
        .status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    let out = opencode(&env, true, &["assemble"]);
    out.assert_code(0);
    assert!(!out.stdout.contains("SECRET"), "{}", out.stdout);
    let doc = out.json();
    let reasons: Vec<String> = doc["not_loaded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| format!("{} {}", n["path"], n["reason"]))
        .collect();
    for expected in [
        "\"AGENTS.md\" \"cannot be used",
        "\"docs/out.md\" \"external",
        "\"../*.md\" \"external",
        "\"/etc/*\" \"external",
    ] {
        assert!(
            reasons.iter().any(|r| r.starts_with(expected)),
            "{expected}: {reasons:?}"
        );
    }
}

#[test]
fn touch_adds_the_files_a_read_adds() {
    let env = opencode_env();
    env.write("sub/deep/CLAUDE.md", "DEEP\n");
    let doc = opencode(
        &env,
        true,
        &["--at", "sub", "assemble", "--touch", "sub/deep/f.rs"],
    )
    .assert_code(0)
    .json();
    assert_eq!(doc["touch"][0]["path"], "sub/deep/f.rs");
    assert_eq!(doc["touch"][0]["parts"][0]["path"], "sub/deep/CLAUDE.md");
}

#[test]
fn commands_list_and_expand_read_opencodes_commands() {
    let env = opencode_env();
    env.write(".opencode/command/deploy.md", "Deploy $1 to $2\n");
    env.write(
        ".opencode/commands/git/commit.md",
        "---\ndescription: c\n---\nCommit\n",
    );
    let listed = opencode(&env, true, &["commands", "list"])
        .assert_code(0)
        .json();
    assert_eq!(listed["commands"][0]["name"], "deploy");
    assert_eq!(listed["commands"][1]["name"], "git/commit");
    assert_eq!(listed["commands"][1]["description"], "c");
    let expanded = opencode(&env, true, &["expand", "/deploy prod eu west"])
        .assert_code(0)
        .json();
    assert_eq!(expanded["output"], "Deploy prod to eu west");
    let nested = opencode(&env, true, &["expand", "/git/commit now"])
        .assert_code(0)
        .json();
    assert_eq!(nested["output"], "Commit\n\nnow");
    let explained = opencode(&env, true, &["explain", "/git/commit"])
        .assert_code(0)
        .json();
    assert!(
        explained
            .to_string()
            .contains(".opencode/commands/git/commit.md")
    );
}

#[test]
fn opencode_joins_the_default_agents_only_where_its_files_are() {
    joins_the_default_agents_only_where_its_files_are(
        "opencode",
        &[("AGENTS.md", "A\n"), ("CLAUDE.md", "C\n")],
        ("sub/.opencode/opencode.json", "{}\n"),
        ("opencode.json", "{}\n"),
    );
}

#[test]
fn lint_reports_opencodes_own_codes() {
    let env = git_env();
    env.write("AGENTS.md", "");
    env.write("sub/CLAUDE.md", "see @docs/x.md\n");
    env.write(".opencode/command/z.md", "zero $0\n");
    env.write(
        ".opencode/skills/a/SKILL.md",
        "---\nname: s\ndescription: d\n---\n",
    );
    env.write(
        ".claude/skills/b/SKILL.md",
        "---\nname: s\ndescription: e\n---\n",
    );
    env.write(".opencode/skills/c/SKILL.md", "---\ndescription: d\n---\n");
    env.write(".claude/commands/x.md", "x\n");
    env.write(
        "opencode.json",
        "{\"instructions\": [\"none/*.md\", \"https://x.test/a.md\"]}\n",
    );
    env.write(".opencode/opencode.jsonc", "{\n  \"instructions\": [\n");
    env.write(
        ".opencode/opencode.json",
        "{\"mcp\": {\"db\": {\"type\": \"local\", \"command\": [\"db-mcp\", \"--ro\"]},\n\
         \"off\": {\"type\": \"remote\", \"url\": \"https://x.test\", \"enabled\": false}}}\n",
    );
    let doc = opencode(&env, true, &["lint", "--agents", "opencode"]).json();
    let codes: Vec<&str> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    for code in [
        "MP040", "MP041", "MP042", "MP043", "MP044", "MP045", "MP046", "MP047", "MP048",
    ] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
    let servers: Vec<&str> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "MP027")
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert_eq!(
        servers,
        [
            "MCP server \"db\": opencode runs `db-mcp --ro` when it starts in this repository \
          (the preview never does)"
        ],
        "the enabled server only"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "the listing shows the skill's absolute Unix path and Linux's directory order"
)]
fn readmes_opencode_and_copilot_examples_are_the_real_output() {
    let env = TestEnv::demo();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let demo = "mecatl-prompt -C examples/demo --trust-project";
    let stats = run(
        &env,
        &[
            "--trust-project",
            "--agent",
            "opencode",
            "--at",
            "web",
            "assemble",
            "--stats",
        ],
    );
    stats.assert_code(0);
    // The skills listing and opencode's `Instructions from:` wrappers hold
    // absolute paths: their sizes depend on where the demo lies, so those
    // rows are compared by their label only.
    let shown = crate::support::readme_block(&format!(
        "{demo} --agent opencode --at web assemble --stats > /dev/null"
    ));
    let placed = |line: &str| {
        ["part 4 ", "turn-0/separators", "turn-0 total"]
            .iter()
            .any(|label| line.starts_with(label))
    };
    assert_eq!(
        shown.lines().count(),
        stats.stderr.lines().count(),
        "{shown}"
    );
    for (want, got) in shown.lines().zip(stats.stderr.lines()) {
        if placed(want) {
            assert_eq!(want.split("  ").next(), got.split("  ").next());
        } else {
            assert_eq!(want, got);
        }
    }
    let listed = run(
        &env,
        &["--trust-project", "--agent", "opencode", "commands", "list"],
    );
    listed.assert_code(0);
    assert_eq!(
        crate::support::readme_block(&format!("{demo} --agent opencode commands list")),
        listed.stdout
    );
    let print = [
        "--agent",
        "copilot",
        "-v",
        "expand",
        "--print",
        "/release-notes",
        "2.0",
    ];
    let printed = run(&env, &[&["--trust-project"][..], &print].concat());
    printed.assert_code(0);
    assert_eq!(
        crate::support::readme_block(&format!("{demo} {}", print.join(" "))),
        format!("{}{}", printed.stderr, printed.stdout)
    );
}
