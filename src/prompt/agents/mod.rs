//! The one table of agent profiles (SPEC §14.1): [`PROFILES`] lists every
//! profile once, and the agent key ([`Agent`]) finds its data here. A
//! profile forgotten here, or a list elsewhere that forgets one, fails the
//! registry test below instead of misbehaving.
//!
//! Choices the spec leaves open:
//! - The table's order is the order `compare` shows the agents in and the
//!   order [`Agent::ALL`] keeps.
//! - An unknown name is refused with every known name, read from the table.

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod files;
pub mod gemini;
pub mod mecatl;
pub mod opencode;
#[cfg(test)]
mod test_fixture;

use std::fmt;

use crate::prompt::profile::Agent;
use crate::prompt::profile::seam::{Profile, ProfileSpec};
use crate::prompt::tokens::Tokenizer;

/// Every profile, in the order `compare` shows them.
pub static PROFILES: [&dyn Profile; 6] = [
    &mecatl::Mecatl,
    &claude::Claude,
    &codex::Codex,
    &gemini::Gemini,
    &opencode::Opencode,
    &copilot::Copilot,
];

impl Agent {
    /// The agent's profile, from [`PROFILES`].
    pub fn profile(self) -> &'static dyn Profile {
        let found = PROFILES.iter().find(|profile| profile.spec().agent == self);
        // Every agent has its entry: the registry test checks it.
        *found.expect("every agent is registered in PROFILES")
    }

    /// The agent's data.
    pub fn spec(self) -> &'static ProfileSpec {
        self.profile().spec()
    }

    /// The name used on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        self.spec().name
    }

    /// The agent's own name, for sentences.
    pub fn title(self) -> &'static str {
        self.spec().title
    }

    /// Whether the agent has rules at all (SPEC §14.2: Codex has none).
    pub fn has_rules(self) -> bool {
        self.spec().has_rules
    }

    /// How the agent's tokens are counted (SPEC §15.4).
    pub fn tokenizer(self) -> Tokenizer {
        self.spec().tokenizer
    }
}

/// The default agents of `compare` and `lint` over `project` started at
/// `at`, in table order (see [`ProfileSpec::default_when`]).
pub fn default_agents(project: &dyn crate::workspace::Workspace, at: &str) -> Vec<Agent> {
    PROFILES
        .iter()
        .map(|profile| profile.spec())
        .filter(|spec| spec.is_default(project, at))
        .map(|spec| spec.agent)
        .collect()
}

/// Every profile's name, in table order.
pub fn names() -> impl Iterator<Item = &'static str> {
    PROFILES.iter().map(|profile| profile.spec().name)
}

/// Every profile said in a sentence: `a, b or c`, each as `say` words it.
pub fn spoken(say: impl Fn(&ProfileSpec) -> String) -> String {
    let said: Vec<String> = PROFILES.iter().map(|profile| say(profile.spec())).collect();
    match said.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The agents in the order their profiles should read a shared memo: the
/// largest reader first (see [`ProfileSpec::read_cap`]).
pub fn read_order() -> Vec<Agent> {
    let mut agents: Vec<&ProfileSpec> = PROFILES.iter().map(|profile| profile.spec()).collect();
    agents.sort_by_key(|spec| std::cmp::Reverse(spec.read_cap));
    agents.into_iter().map(|spec| spec.agent).collect()
}

/// Every agent's configuration directories inside a project.
pub fn config_dirs() -> impl Iterator<Item = &'static str> {
    PROFILES
        .iter()
        .flat_map(|profile| profile.spec().config_dirs.iter().copied())
}

/// Every variable a profile reads (those that move its home directories,
/// then its other ones), each once.
pub fn vars() -> impl Iterator<Item = &'static str> {
    let mut vars: Vec<&'static str> = Vec::new();
    for spec in PROFILES.iter().map(|profile| profile.spec()) {
        let homes = spec.homes.iter().filter_map(|home| home.var);
        for var in homes.chain(spec.vars.iter().copied()) {
            if !vars.contains(&var) {
                vars.push(var);
            }
        }
    }
    vars.into_iter()
}

/// A name that is not an agent's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAgent(pub String);

impl fmt::Display for UnknownAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = names().collect();
        write!(
            f,
            "unknown agent {:?}; known agents: {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownAgent {}

impl std::str::FromStr for Agent {
    type Err = UnknownAgent;

    fn from_str(name: &str) -> Result<Self, UnknownAgent> {
        PROFILES
            .iter()
            .map(|profile| profile.spec())
            .find(|spec| spec.name == name)
            .map(|spec| spec.agent)
            .ok_or_else(|| UnknownAgent(name.to_string()))
    }
}

#[cfg(test)]
mod tests;

/// What the profiles add to `expand`'s JSON document, each under its own
/// keys: the schema of the map a profile's catalog flattens into it.
#[cfg(test)]
#[derive(schemars::JsonSchema)]
#[expect(dead_code, reason = "only its schema is used")]
pub(crate) struct ExpandExtras {
    #[serde(flatten)]
    claude: Option<claude::catalog::ExpandFields<'static>>,
    #[serde(flatten)]
    codex: Option<codex::catalog::ExpandFields<'static>>,
    #[serde(flatten)]
    gemini: Option<gemini::catalog::ExpandFields<'static>>,
    #[serde(flatten)]
    opencode: Option<opencode::catalog::ExpandFields<'static>>,
}
