//! The Gemini CLI profile on the binary (SPEC §16.1, §16.6, §16.7): its
//! two messages in JSON, trust, the FIFO and the link that are never read,
//! and the default columns of `compare` and `lint`, which gain `gemini`
//! only where its files are.

use crate::hardening::{Outcome, run};
use crate::profile_support::{
    agent_run, assemble_with_var, git_env, joins_the_default_agents_only_where_its_files_are,
    withheld,
};
use crate::support::TestEnv;

/// A git workspace with context files at the root and in `sub`, and a
/// user context file.
fn gemini_env() -> TestEnv {
    let env = git_env();
    env.write("GEMINI.md", "ROOT @./imp.md\n");
    env.write("imp.md", "IMPORTED\n");
    env.write("sub/GEMINI.md", "SUB\n");
    crate::support::write_file(&env.home.join(".gemini/GEMINI.md"), "USER\n\n\n\nEND\n");
    env
}

fn gemini(env: &TestEnv, trust: bool, args: &[&str]) -> Outcome {
    agent_run(env, "gemini", trust, args)
}

#[test]
fn assemble_sends_the_user_context_as_system_then_the_walk_in_gemini_order() {
    let env = gemini_env();
    let doc = gemini(&env, true, &["--at", "sub", "assemble"])
        .assert_code(0)
        .json();
    assert_eq!(doc["agent"], "gemini");
    assert_eq!(doc["at"], "sub");
    let messages = doc["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    assert_eq!(messages[0]["provenance"], "user_instructions");
    assert_eq!(messages[0]["parts"][0]["scope"], "user");
    assert_eq!(messages[0]["parts"][0]["content"], "USER\n\nEND");
    assert_eq!(messages[1]["role"], "user");
    assert_eq!(messages[1]["provenance"], "instructions");
    let paths: Vec<&str> = messages[1]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["GEMINI.md", "sub/GEMINI.md"]);
    let root = messages[1]["parts"][0]["content"].as_str().unwrap();
    assert_eq!(
        root,
        "ROOT <!-- Imported from: ./imp.md -->\nIMPORTED\n\n<!-- End of import from: ./imp.md -->"
    );
    let text = messages[1]["text"].as_str().unwrap();
    assert!(text.starts_with("<loaded_context>\n<project_context>\n--- Context from: "));
    // Gemini names a file by its absolute path, in the platform's form.
    let sep = std::path::MAIN_SEPARATOR;
    assert!(text.ends_with(&format!(
        "{sep}sub{sep}GEMINI.md ---\n</project_context>\n</loaded_context>"
    )));
}

#[test]
fn untrusted_the_walk_is_withheld_and_the_users_file_loads() {
    let env = gemini_env();
    let doc = gemini(&env, false, &["assemble"]).assert_code(0).json();
    let messages = doc["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["provenance"], "user_instructions");
    let withheld = withheld(&doc);
    assert_eq!(withheld, ["GEMINI.md"]);
    assert!(!doc.to_string().contains("IMPORTED"));
}

// Unix only: a FIFO and a symbolic link.
#[cfg(unix)]
#[test]
fn a_fifo_and_a_link_out_are_never_read() {
    let env = git_env();
    let outside = env.home.join("secret.md");
    crate::support::write_file(&outside, "SECRET\n");
    crate::hardening::symlink(&outside, &env.ws.join("GEMINI.md"));
    let fifo = env.ws.join("sub/GEMINI.md");
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|status| status.success()), "mkfifo");
    let out = gemini(&env, true, &["--at", "sub", "assemble"]);
    out.assert_code(0);
    assert!(!out.stdout.contains("SECRET"), "{}", out.stdout);
    let doc = out.json();
    let reasons: Vec<String> = doc["not_loaded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| format!("{} {}", n["path"], n["reason"]))
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("\"GEMINI.md\" \"external")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("\"sub/GEMINI.md\" \"cannot be used")),
        "{reasons:?}"
    );
}

#[test]
fn gemini_joins_the_default_agents_only_where_its_files_are() {
    let env = joins_the_default_agents_only_where_its_files_are(
        "gemini",
        &[("AGENTS.md", "A\n")],
        ("sub/.gemini/settings.json", "{}\n"),
        ("GEMINI.md", "G\n"),
    );
    let chosen = run(
        &env,
        &["--format", "json", "compare", "--agents", "gemini,codex"],
    );
    assert_eq!(
        chosen.assert_code(0).json()["agents"],
        serde_json::json!(["gemini", "codex"])
    );
}

#[test]
fn gemini_cli_home_moves_the_users_context_files() {
    let env = gemini_env();
    let moved = env.home.join("elsewhere");
    crate::support::write_file(&moved.join(".gemini/GEMINI.md"), "MOVED\n");
    let out = assemble_with_var(&env, "gemini", "GEMINI_CLI_HOME", &moved);
    let doc = out.assert_code(0).json();
    let user = &doc["messages"][0]["parts"][0];
    assert_eq!(user["content"], "MOVED");
    // An absolute path keeps the platform's form (on Windows the JSON
    // escapes its backslashes, so the root is not replaced there).
    let root = crate::hardening::root(&env).display().to_string();
    let shown = user["path"].as_str().unwrap().replace("[ROOT]", &root);
    assert_eq!(
        std::path::Path::new(&shown),
        moved.join(".gemini").join("GEMINI.md")
    );
}

#[test]
fn a_ten_wide_fan_out_five_deep_stops_at_the_import_guard() {
    let env = git_env();
    let fan = |next: &str| format!("@{next} ").repeat(10);
    env.write("GEMINI.md", fan("l1.md"));
    for level in 1..5 {
        env.write(&format!("l{level}.md"), fan(&format!("l{}.md", level + 1)));
    }
    env.write("l5.md", "LEAF\n");
    let out = gemini(&env, true, &["assemble"]);
    out.assert_code(0);
    let doc = out.json();
    let text = doc["messages"][0]["text"].as_str().unwrap();
    assert_eq!(text.matches("<!-- Imported from: ").count(), 1_000);
    assert!(text.contains("(past the import guard)]"));
    assert!(doc["diagnostics"].to_string().contains("fan-out guard"));
}

#[test]
fn compare_says_which_context_files_load_only_on_a_read() {
    let env = gemini_env();
    env.write("AGENTS.md", "A\n");
    env.write("a/b/GEMINI.md", "B\n");
    let args = ["--trust-project", "--format", "json", "compare"];
    let doc = run(&env, &args).assert_code(0).json();
    let lazy: Vec<&str> = doc["divergences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["kind"] == "lazy")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        lazy,
        [
            "a/b/GEMINI.md loads for Gemini CLI only on a read under a/b/",
            "sub/GEMINI.md loads for Gemini CLI only on a read under sub/"
        ]
    );
    // A file a read adds is named by the touch line instead; started in
    // sub, its own file loads at start.
    let touched = run(
        &env,
        &[&args[..], &["--touch", "sub/x.rs", "--at", "."]].concat(),
    );
    assert!(!touched.stdout.contains("sub/GEMINI.md loads for"));
    let at_sub = run(&env, &[&args[..3], &["--at", "sub", "compare"]].concat());
    assert!(!at_sub.stdout.contains("\"lazy\""), "{}", at_sub.stdout);
    // --fail-on-divergence counts Gemini's instruction content.
    let failed = run(&env, &[&args[..], &["--fail-on-divergence"]].concat());
    failed.assert_code(1);
}

#[test]
fn the_readme_shows_the_demo_under_gemini_as_it_is() {
    let env = TestEnv::demo();
    std::fs::create_dir_all(env.ws.join(".git")).unwrap();
    let out = run(
        &env,
        &[
            "--trust-project",
            "--agent",
            "gemini",
            "--at",
            "web",
            "assemble",
        ],
    );
    out.assert_code(0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let end = lines
        .iter()
        .position(|line| *line == "<!-- End of import from: AGENTS.md -->")
        .expect("the root's import closes");
    // README cuts the root's AGENTS.md short after its title.
    let shown = format!(
        "$ mecatl-prompt -C examples/demo --trust-project --agent gemini --at web assemble\n{}\n…\n{}\n```",
        lines[..3].join("\n"),
        lines[end..].join("\n")
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&shown),
        "README's Gemini example is not the real output:\n{shown}"
    );
}

#[test]
fn the_readme_shows_the_demos_toml_command_expanded_with_nothing_run() {
    let env = TestEnv::demo();
    let args = [
        "--trust-project",
        "--agent",
        "gemini",
        "--quiet",
        "expand",
        "/migration",
        "add_fx_rates",
    ];
    let out = run(&env, &args);
    out.assert_code(0);
    assert!(
        out.stdout
            .contains("[mecatl-prompt did not run: ls migrations]"),
        "{}",
        out.stdout
    );
    let shown = format!(
        "$ mecatl-prompt -C examples/demo {}\n{}```",
        args.join(" "),
        out.stdout
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&shown),
        "README's Gemini command example is not the real output:\n{shown}"
    );
}
