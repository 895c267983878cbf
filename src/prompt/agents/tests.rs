//! The registry test: every list that must name every agent reads the
//! table, so a profile forgotten anywhere fails here.

use std::collections::HashSet;
use std::ffi::OsString;

use clap::CommandFactory;

use super::*;
use crate::cli::Cli;
use crate::cli::man;
use crate::prompt::lint;
use crate::prompt::tiers::Layout;
use crate::workspace::{MemNode, MemWorkspace};

#[test]
fn every_agent_has_exactly_one_entry_in_table_order() {
    assert_eq!(PROFILES.len(), Agent::ALL.len());
    for (profile, agent) in PROFILES.iter().zip(Agent::ALL) {
        assert_eq!(profile.spec().agent, agent);
        let entries = PROFILES.iter().filter(|p| p.spec().agent == agent);
        assert_eq!(entries.count(), 1, "{agent:?}");
        assert_eq!(agent.profile().spec().name, agent.as_str());
    }
}

#[test]
fn names_are_unique_and_parse_back() {
    let names: Vec<&str> = names().collect();
    assert_eq!(names.iter().collect::<HashSet<_>>().len(), names.len());
    for agent in Agent::ALL {
        assert_eq!(agent.as_str().parse::<Agent>(), Ok(agent));
    }
    let unknown = "nobody".parse::<Agent>().unwrap_err().to_string();
    assert_eq!(
        unknown,
        format!(
            "unknown agent \"nobody\"; known agents: {}",
            names.join(", ")
        )
    );
}

#[test]
fn the_agent_option_its_help_and_compare_list_every_name() {
    let command = Cli::command();
    let agent = command
        .get_arguments()
        .find(|arg| arg.get_id() == "agent")
        .unwrap();
    let values: Vec<String> = agent
        .get_possible_values()
        .iter()
        .map(|value| value.get_name().to_string())
        .collect();
    assert_eq!(values, names().collect::<Vec<_>>());
    let help = agent.get_help().unwrap().to_string();
    let compare = command.find_subcommand("compare").unwrap();
    let agents = compare
        .get_arguments()
        .find(|arg| arg.get_id() == "agents")
        .unwrap();
    let default = agents.get_help().unwrap().to_string();
    for spec in PROFILES.iter().map(|profile| profile.spec()) {
        assert!(help.contains(&format!("{} ({})", spec.name, spec.summary)));
        assert!(default.contains(spec.name), "{default}");
    }
}

#[test]
fn the_man_page_names_every_agent() {
    let page = String::from_utf8(man::render().unwrap()).unwrap();
    let line = page
        .lines()
        .find(|line| line.starts_with("The agent profile ("))
        .unwrap();
    for name in names() {
        assert!(line.contains(&format!("\\fB{name}\\fR")), "{line}");
    }
}

#[test]
fn completion_offers_every_name() {
    let args: Vec<OsString> = ["mecatl-prompt", "--agent", ""]
        .into_iter()
        .map(OsString::from)
        .collect();
    let offered = clap_complete::engine::complete(&mut Cli::command(), args, 2, None).unwrap();
    let offered: Vec<String> = offered
        .iter()
        .map(|candidate| candidate.get_value().to_string_lossy().into_owned())
        .collect();
    assert_eq!(offered, names().collect::<Vec<_>>());
}

#[test]
fn compare_reads_every_profile_the_largest_reader_first() {
    let order = read_order();
    assert_eq!(order.len(), Agent::ALL.len());
    assert!(Agent::ALL.iter().all(|agent| order.contains(agent)));
    let caps: Vec<u64> = order.iter().map(|agent| agent.spec().read_cap).collect();
    assert!(caps.windows(2).all(|pair| pair[0] >= pair[1]), "{caps:?}");
    // The order compare's module doc states for the first three.
    let first: Vec<Agent> = order
        .into_iter()
        .filter(|agent| [Agent::Claude, Agent::Mecatl, Agent::Codex].contains(agent))
        .collect();
    assert_eq!(first, [Agent::Claude, Agent::Mecatl, Agent::Codex]);
}

#[test]
fn every_configuration_directory_is_one_agents_and_every_variable_read_once() {
    let dirs: Vec<&str> = config_dirs().collect();
    assert_eq!(dirs.iter().collect::<HashSet<_>>().len(), dirs.len());
    assert!(PROFILES.iter().all(|p| !p.spec().config_dirs.is_empty()));
    let vars: Vec<&str> = vars().collect();
    assert_eq!(vars.iter().collect::<HashSet<_>>().len(), vars.len());
    assert!(vars.contains(&"CLAUDE_CONFIG_DIR") && vars.contains(&"CODEX_HOME"));
    assert!(vars.contains(&"SLASH_COMMAND_TOOL_CHAR_BUDGET"));
}

#[test]
fn only_codex_counts_exactly_and_has_no_rules() {
    assert!(Agent::Codex.tokenizer().is_exact());
    assert!(!Agent::Claude.tokenizer().is_exact() && !Agent::Mecatl.tokenizer().is_exact());
    assert!(!Agent::Codex.has_rules());
    assert!(Agent::Claude.has_rules() && Agent::Mecatl.has_rules());
}

#[test]
fn spoken_lists_join_the_last_with_or() {
    let said = spoken(|spec| spec.name.to_string());
    let names: Vec<&str> = names().collect();
    assert!(said.starts_with("mecatl, claude"), "{said}");
    assert!(
        said.ends_with(&format!(" or {}", names[names.len() - 1])),
        "{said}"
    );
    assert_eq!(said.matches(" or ").count(), 1);
    assert_eq!(said.matches(", ").count(), names.len() - 2);
}

#[test]
fn lint_looks_into_every_configuration_directory_through_links() {
    for dir in config_dirs() {
        let ws = MemWorkspace::new().file("shared/target/x.md", "x").node(
            &format!("app/{dir}"),
            MemNode::Symlink("../shared/target".into()),
        );
        let found = lint::survey_workspace(&ws);
        assert!(found.has_file(&format!("app/{dir}/x.md")), "{dir}");
    }
}

#[test]
fn lint_reads_every_source_of_every_profile_with_hooks() {
    let hooked = PROFILES
        .iter()
        .filter_map(|p| Some((p.spec().agent, p.lint()?)));
    for (agent, hooks) in hooked {
        for source in hooks.sources() {
            let rel = match source.layout {
                Layout::SkillDirs => format!("{}/s/SKILL.md", source.dir),
                Layout::Flat | Layout::Nested => format!("{}/a.md", source.dir),
            };
            // A block after a blank line is lost to every agent that reads
            // the file (MP003), so the finding names who read it.
            let ws = MemWorkspace::new().file(&rel, "\n---\ndescription: d\n---\nBody.\n");
            let report = lint::lint(&ws, &lint::LintOptions::default());
            let read = report.findings.iter().any(|finding| {
                finding.code == lint::Code::MisplacedFrontmatter
                    && finding.path == rel
                    && finding.agents.contains(&agent)
            });
            assert!(read, "{agent:?} {rel}: {:?}", report.findings);
        }
    }
}

#[test]
fn every_profile_names_its_instruction_files_each_once() {
    for spec in PROFILES.iter().map(|profile| profile.spec()) {
        let names = spec.instruction_names;
        assert!(!names.is_empty(), "{}", spec.name);
        let unique: HashSet<&&str> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "{}", spec.name);
    }
}

#[test]
fn agents_parse_by_name_and_refuse_others() {
    for agent in Agent::ALL {
        assert_eq!(agent.as_str().parse::<Agent>(), Ok(agent));
    }
    let err = "zed".parse::<Agent>().unwrap_err();
    let known: Vec<&str> = names().collect();
    assert_eq!(
        err.to_string(),
        format!("unknown agent \"zed\"; known agents: {}", known.join(", "))
    );
    assert!(known.starts_with(&["mecatl", "claude", "codex"]));
}
