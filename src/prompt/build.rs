//! The layered system prompt (SPEC §4): a stable prefix that depends only on
//! role, tone, safety and the tool catalog, so a provider can cache it, and
//! a volatile suffix that carries the per-turn environment.
//!
//! Both halves are lists of named [`Section`]s joined by one blank line;
//! [`build`] is defined as that join, so per-section accounting can never
//! disagree with the prompt itself.

use crate::prompt::defaults::{default_role, default_safety, default_tone, plan_mode_note};
use crate::prompt::env::{Env, render_env_block};
use crate::prompt::operator_profile::{OperatorProfileConfig, render_operator_profile};
use crate::prompt::tools::{ToolSpec, render_hints, render_inventory};

/// Everything a build needs. Role, tone, safety and tools shape the stable
/// prefix; env and operator profile shape only the volatile suffix.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    /// The role line; blank means [`default_role`].
    pub role: String,
    /// The tone block; blank means [`default_tone`].
    pub tone: String,
    /// The safety rules; blank means [`default_safety`].
    pub safety: String,
    /// The tool catalog, in the order the inventory lists it.
    pub tools: Vec<ToolSpec>,
    /// The per-turn environment.
    pub env: Env,
    /// Durable operator facts for this turn.
    pub operator_profile: OperatorProfileConfig,
}

/// The two-layer system prompt.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layered {
    /// The cache-stable part: identical for every Env and operator profile.
    pub stable_prefix: String,
    /// The per-turn part placed after the cache boundary.
    pub volatile_suffix: String,
}

impl Layered {
    /// The whole prompt: prefix, a blank line, suffix; or whichever side is
    /// non-empty alone.
    pub fn render(&self) -> String {
        match (
            self.stable_prefix.is_empty(),
            self.volatile_suffix.is_empty(),
        ) {
            (_, true) => self.stable_prefix.clone(),
            (true, false) => self.volatile_suffix.clone(),
            (false, false) => format!("{}\n\n{}", self.stable_prefix, self.volatile_suffix),
        }
    }
}

/// Anything that turns a [`Config`] into a [`Layered`] prompt. Every
/// `Fn(&Config) -> Layered` is one; [`build`] is the default.
pub trait Builder {
    /// Builds the prompt for `cfg`.
    fn build(&self, cfg: &Config) -> Layered;
}

impl<F> Builder for F
where
    F: Fn(&Config) -> Layered,
{
    fn build(&self, cfg: &Config) -> Layered {
        self(cfg)
    }
}

/// One named part of the prompt, for accounting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Which part this is: one of the `Section::*` names.
    pub name: &'static str,
    /// The part's exact text, as it appears in the prompt.
    pub text: String,
}

impl Section {
    /// The safety rules (prefix).
    pub const SAFETY: &'static str = "safety";
    /// The role line (prefix).
    pub const ROLE: &'static str = "role";
    /// The tone block (prefix).
    pub const TONE: &'static str = "tone";
    /// The tool-discipline hints (prefix).
    pub const HINTS: &'static str = "hints";
    /// The tool inventory (prefix).
    pub const TOOLS: &'static str = "tools";
    /// The env block (suffix).
    pub const ENV: &'static str = "env";
    /// The operator profile block (suffix).
    pub const OPERATOR_PROFILE: &'static str = "operator_profile";
    /// The plan-mode note (suffix).
    pub const PLAN_NOTE: &'static str = "plan_note";

    fn new(name: &'static str, text: impl Into<String>) -> Self {
        Self {
            name,
            text: text.into(),
        }
    }
}

/// The sections of the stable prefix, in order: safety, role, tone, hints,
/// tools. Only role, tone, safety and the tool catalog are read.
///
/// Caller-supplied role, tone and safety are trimmed, so the parts stay
/// separated by exactly one blank line; a blank one is replaced by its
/// built-in default.
pub fn prefix_sections(cfg: &Config) -> Vec<Section> {
    vec![
        Section::new(Section::SAFETY, or_default(&cfg.safety, default_safety())),
        Section::new(Section::ROLE, or_default(&cfg.role, default_role())),
        Section::new(Section::TONE, or_default(&cfg.tone, default_tone())),
        Section::new(Section::HINTS, render_hints(&cfg.tools)),
        Section::new(Section::TOOLS, render_inventory(&cfg.tools)),
    ]
}

/// The non-empty sections of the volatile suffix, in order: env, operator
/// profile, and the plan note when the mode is exactly `plan`.
pub fn suffix_sections(cfg: &Config) -> Vec<Section> {
    let tool_names: Vec<&str> = cfg.tools.iter().map(|tool| tool.name.as_str()).collect();
    let mut sections = vec![Section::new(Section::ENV, render_env_block(&cfg.env))];
    let profile = render_operator_profile(&cfg.operator_profile, &tool_names);
    if !profile.is_empty() {
        sections.push(Section::new(Section::OPERATOR_PROFILE, profile));
    }
    if cfg.env.mode == "plan" {
        sections.push(Section::new(Section::PLAN_NOTE, plan_mode_note()));
    }
    sections
}

/// The default [`Builder`]: the prefix and suffix sections, each side
/// joined by one blank line.
pub fn build(cfg: &Config) -> Layered {
    Layered {
        stable_prefix: join_sections(&prefix_sections(cfg)),
        volatile_suffix: join_sections(&suffix_sections(cfg)),
    }
}

fn or_default<'a>(given: &'a str, default: &'a str) -> &'a str {
    match given.trim() {
        "" => default,
        trimmed => trimmed,
    }
}

fn join_sections(sections: &[Section]) -> String {
    sections
        .iter()
        .map(|section| section.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::memory_index::MemoryEntry;
    use proptest::prelude::*;

    fn names(sections: &[Section]) -> Vec<&'static str> {
        sections.iter().map(|section| section.name).collect()
    }

    #[test]
    fn default_prefix_is_the_five_parts_in_order() {
        let cfg = Config::default();
        let layered = build(&cfg);
        assert_eq!(
            layered.stable_prefix,
            format!(
                "{}\n\n{}\n\n{}\n\n{}\n\nAvailable tools:\n(none)",
                default_safety(),
                default_role(),
                default_tone(),
                render_hints(&[]),
            )
        );
        assert_eq!(
            names(&prefix_sections(&cfg)),
            ["safety", "role", "tone", "hints", "tools"]
        );
    }

    #[test]
    fn given_texts_replace_defaults_trimmed() {
        let cfg = Config {
            role: "\n  You are a reviewer.\n".into(),
            tone: "Be terse.".into(),
            safety: "Rule one.\n".into(),
            tools: vec![ToolSpec::new("Read", "Read a file.")],
            ..Config::default()
        };
        assert_eq!(
            build(&cfg).stable_prefix,
            format!(
                "Rule one.\n\nYou are a reviewer.\n\nBe terse.\n\n{}\n\nAvailable tools:\n- Read: Read a file.",
                render_hints(&cfg.tools)
            )
        );
    }

    #[test]
    fn blank_texts_mean_the_defaults() {
        let cfg = Config {
            role: " \n\t".into(),
            tone: "\n".into(),
            safety: String::new(),
            ..Config::default()
        };
        assert_eq!(build(&cfg), build(&Config::default()));
    }

    #[test]
    fn suffix_is_env_block_alone_by_default() {
        let cfg = Config {
            env: Env {
                cwd: "/w".into(),
                mode: "default".into(),
                ..Env::default()
            },
            ..Config::default()
        };
        assert_eq!(build(&cfg).volatile_suffix, render_env_block(&cfg.env));
        assert_eq!(names(&suffix_sections(&cfg)), ["env"]);
    }

    #[test]
    fn plan_note_only_when_mode_is_exactly_plan() {
        let with_mode = |mode: &str| Config {
            env: Env {
                mode: mode.into(),
                ..Env::default()
            },
            ..Config::default()
        };
        let plan = with_mode("plan");
        assert_eq!(
            build(&plan).volatile_suffix,
            format!("{}\n\n{}", render_env_block(&plan.env), plan_mode_note())
        );
        assert_eq!(names(&suffix_sections(&plan)), ["env", "plan_note"]);
        for mode in ["Plan", " plan", "plan ", "planning", "", "default"] {
            let layered = build(&with_mode(mode));
            assert!(
                !layered.volatile_suffix.contains(plan_mode_note()),
                "{mode:?}"
            );
        }
    }

    #[test]
    fn build_is_the_join_of_its_sections() {
        let cfg = Config {
            tools: vec![ToolSpec::new("Bash", "Run.")],
            env: Env {
                mode: "plan".into(),
                git_status: "branch: main".into(),
                ..Env::default()
            },
            ..Config::default()
        };
        let layered = build(&cfg);
        let prefix: Vec<String> = prefix_sections(&cfg).into_iter().map(|s| s.text).collect();
        let suffix: Vec<String> = suffix_sections(&cfg).into_iter().map(|s| s.text).collect();
        assert_eq!(layered.stable_prefix, prefix.join("\n\n"));
        assert_eq!(layered.volatile_suffix, suffix.join("\n\n"));
    }

    #[test]
    fn render_joins_non_empty_sides() {
        let layered = |prefix: &str, suffix: &str| Layered {
            stable_prefix: prefix.into(),
            volatile_suffix: suffix.into(),
        };
        assert_eq!(layered("P", "S").render(), "P\n\nS");
        assert_eq!(layered("P", "").render(), "P");
        assert_eq!(layered("", "S").render(), "S");
        assert_eq!(layered("", "").render(), "");
    }

    #[test]
    fn closures_and_build_are_builders() {
        fn run(builder: &dyn Builder, cfg: &Config) -> Layered {
            builder.build(cfg)
        }
        let cfg = Config::default();
        assert_eq!(run(&build, &cfg), build(&cfg));
        let fixed = |_: &Config| Layered {
            stable_prefix: "mine".into(),
            volatile_suffix: String::new(),
        };
        assert_eq!(run(&fixed, &cfg).render(), "mine");
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            Just("plan".to_string()),
            Just("tools".to_string()),
            Just("Available".to_string()),
            Just("/home/ada/project".to_string()),
            "[a-z/ .-]{0,16}",
            any::<String>(),
        ]
    }

    fn env() -> impl Strategy<Value = Env> {
        (text(), text(), text(), text(), text(), text(), text()).prop_map(
            |(cwd, os, model, date, mode, shell, git_status)| Env {
                cwd,
                os,
                model,
                date,
                mode,
                shell,
                git_status,
            },
        )
    }

    fn profile() -> impl Strategy<Value = OperatorProfileConfig> {
        prop::collection::vec(
            (
                "user/[a-z][a-z0-9_-]{0,12}",
                text(),
                text(),
                prop::option::of(text()),
            ),
            0..4,
        )
        .prop_map(|entries| OperatorProfileConfig {
            entries: entries
                .into_iter()
                .map(|(key, value, description, updated_at)| MemoryEntry {
                    key,
                    value,
                    description,
                    updated_at,
                })
                .collect(),
            ..OperatorProfileConfig::default()
        })
    }

    fn stable_inputs() -> impl Strategy<Value = Config> {
        let tool = (
            prop_oneof![
                Just("Read".to_string()),
                Just("Bash".to_string()),
                Just("Subagent".to_string()),
                Just("Recall".to_string()),
                "[A-Za-z]{1,10}",
            ],
            text(),
        )
            .prop_map(|(name, description)| ToolSpec { name, description });
        (text(), text(), text(), prop::collection::vec(tool, 0..5)).prop_map(
            |(role, tone, safety, tools)| Config {
                role,
                tone,
                safety,
                tools,
                ..Config::default()
            },
        )
    }

    fn volatile_values(env: &Env, profile: &OperatorProfileConfig) -> Vec<String> {
        let mut values = vec![
            env.cwd.clone(),
            env.os.clone(),
            env.model.clone(),
            env.date.clone(),
            env.mode.clone(),
            env.shell.clone(),
            env.git_status.clone(),
        ];
        for entry in &profile.entries {
            values.extend([
                entry.key.clone(),
                entry.value.clone(),
                entry.description.clone(),
            ]);
            values.extend(entry.updated_at.clone());
        }
        values
    }

    proptest! {
        #[test]
        fn prefix_ignores_env_and_operator_profile(
            base in stable_inputs(),
            (env_a, env_b) in (env(), env()),
            (profile_a, profile_b) in (profile(), profile()),
        ) {
            let a = Config { env: env_a.clone(), operator_profile: profile_a.clone(), ..base.clone() };
            let b = Config { env: env_b.clone(), operator_profile: profile_b.clone(), ..base.clone() };
            let prefix_a = build(&a).stable_prefix;
            prop_assert_eq!(&prefix_a, &build(&b).stable_prefix);
            prop_assert_eq!(&prefix_a, &build(&a).stable_prefix);

            let empty_env_prefix = build(&base).stable_prefix;
            let values = volatile_values(&env_a, &profile_a)
                .into_iter()
                .chain(volatile_values(&env_b, &profile_b));
            for value in values.filter(|value| value.chars().count() > 3) {
                prop_assert!(
                    !prefix_a.contains(&value) || empty_env_prefix.contains(&value),
                    "{:?} leaked into the prefix", value
                );
            }
        }
    }
}
