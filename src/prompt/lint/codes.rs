//! The stable code table of `lint` (SPEC §15.3): one code per check, with
//! its title, the agents it concerns, why it matters and how to fix it.
//! README's code list is checked against this table by a test, and the
//! SARIF output has one rule per code, so the three cannot drift.
//!
//! Codes are never renumbered or reused: a retired check keeps its number.

use serde::{Serialize, Serializer};

use crate::prompt::profile::Agent;

/// How serious a finding is (SPEC §15.3; SARIF's `level`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The file does not do what it says for some agent: exit 1.
    Error,
    /// Likely not what the author meant: exit 1 with `--deny warnings`.
    Warning,
    /// Worth knowing; never fails a run.
    Note,
}

impl Level {
    /// The lowercase word used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// One check of `lint`, by its stable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// MP001: frontmatter that is not valid YAML.
    InvalidYaml,
    /// MP002: an unquoted value starting with `*` (a YAML alias, not a glob).
    UnquotedGlob,
    /// MP003: a frontmatter block that does not start the file.
    MisplacedFrontmatter,
    /// MP004: an `@import` of a file that does not exist.
    ImportMissing,
    /// MP005: an `@import` that leads back to a file already on its chain.
    ImportCycle,
    /// MP006: an `@import` deeper than Claude Code follows.
    ImportTooDeep,
    /// MP007: an `@import` of a file outside the workspace.
    ImportExternal,
    /// MP008: Codex's byte budget cuts or drops an AGENTS.md.
    CodexBudget,
    /// MP009: AGENTS.md and CLAUDE.md of one directory say different things.
    InstructionsDiverge,
    /// MP010: `argument-hint` on a template with no placeholder.
    HintWithoutPlaceholder,
    /// MP011: Gemini CLI's `{{args}}` in a Claude command.
    GeminiPlaceholder,
    /// MP012: Cursor or Copilot keys in a Claude rule.
    ForeignRuleKeys,
    /// MP013: a skill whose `name:` differs from its directory.
    SkillNameMismatch,
    /// MP014: a skill without a description.
    SkillWithoutDescription,
    /// MP015: a command shadowed by a skill of the same name.
    ShadowedBySkill,
    /// MP016: `` !`cmd` `` in a command.
    ShellInCommand,
    /// MP017: Claude Code's argument or injection syntax in a Gemini TOML
    /// command.
    ClaudeSyntaxInGeminiCommand,
    /// MP018: a Gemini command file Gemini CLI offers nothing for.
    GeminiCommandInvalid,
    /// MP019: a `context.fileName` of Gemini CLI that names no file.
    GeminiFileNameMissing,
    /// MP020: GEMINI.md and the AGENTS.md or CLAUDE.md beside it differ.
    GeminiInstructionsDiverge,
    /// MP021: a Gemini CLI file that loads only below where it starts.
    GeminiLazyOnly,
    /// MP022: a context file Gemini CLI sends twice.
    GeminiSentTwice,
    /// MP023: a Gemini command renamed on a name clash.
    GeminiCommandRenamed,
    /// MP024: a repository's `.gemini/system.md` replaces Gemini CLI's
    /// system prompt.
    GeminiSystemPromptReplaced,
    /// MP025: a subagent file the agent skips or reads leniently.
    SubagentSkipped,
    /// MP026: an `outputStyle` that names no output style.
    UnknownOutputStyle,
    /// MP027: an MCP server the repository configures.
    ProjectMcpServer,
    /// MP028: a hook that runs at the start of a session or on a prompt.
    TurnZeroHook,
    /// MP030: a file under `.github/instructions/` that is not
    /// `*.instructions.md`.
    CopilotInstructionsName,
    /// MP031: a directory's AGENTS.md, CLAUDE.md and GEMINI.md differ, and
    /// Copilot sends them all.
    CopilotDoubled,
    /// MP032: an import chain deeper than Copilot follows.
    CopilotImportDepth,
    /// MP033: a SKILL.md without frontmatter.
    SkillWithoutFrontmatter,
    /// MP034: `excludeAgent` in a path-specific instructions file.
    ExcludeAgent,
    /// MP035: an `@` import form Claude Code follows and Copilot does not.
    CopilotImportForm,
    /// MP036: a path-specific instruction set Copilot reads from neither
    /// the root nor the start directory.
    PathSetPlacement,
    /// MP040: `@path` in an instruction file opencode loads (sent as text).
    OpencodeAtPath,
    /// MP041: an empty AGENTS.md or CLAUDE.md blocks a later name on
    /// opencode's walk.
    OpencodeEmptyBlocks,
    /// MP042: an opencode `instructions` entry matching no file.
    OpencodeInstructionsUnmatched,
    /// MP043: an opencode `instructions` entry that is a URL or outside
    /// the workspace.
    OpencodeInstructionsExternal,
    /// MP044: `$0` in an opencode command.
    OpencodeDollarZero,
    /// MP045: opencode skills of the same name.
    OpencodeSkillClash,
    /// MP046: an opencode config that does not parse.
    OpencodeConfigInvalid,
    /// MP047: a SKILL.md without `name:` (not a skill to opencode).
    OpencodeSkillWithoutName,
    /// MP048: `.claude/commands`, which opencode does not read.
    OpencodeClaudeCommands,
}

impl Code {
    /// Every code, in number order.
    pub const ALL: [Code; 44] = [
        Code::InvalidYaml,
        Code::UnquotedGlob,
        Code::MisplacedFrontmatter,
        Code::ImportMissing,
        Code::ImportCycle,
        Code::ImportTooDeep,
        Code::ImportExternal,
        Code::CodexBudget,
        Code::InstructionsDiverge,
        Code::HintWithoutPlaceholder,
        Code::GeminiPlaceholder,
        Code::ForeignRuleKeys,
        Code::SkillNameMismatch,
        Code::SkillWithoutDescription,
        Code::ShadowedBySkill,
        Code::ShellInCommand,
        Code::ClaudeSyntaxInGeminiCommand,
        Code::GeminiCommandInvalid,
        Code::GeminiFileNameMissing,
        Code::GeminiInstructionsDiverge,
        Code::GeminiLazyOnly,
        Code::GeminiSentTwice,
        Code::GeminiCommandRenamed,
        Code::GeminiSystemPromptReplaced,
        Code::SubagentSkipped,
        Code::UnknownOutputStyle,
        Code::ProjectMcpServer,
        Code::TurnZeroHook,
        Code::CopilotInstructionsName,
        Code::CopilotDoubled,
        Code::CopilotImportDepth,
        Code::SkillWithoutFrontmatter,
        Code::ExcludeAgent,
        Code::CopilotImportForm,
        Code::PathSetPlacement,
        Code::OpencodeAtPath,
        Code::OpencodeEmptyBlocks,
        Code::OpencodeInstructionsUnmatched,
        Code::OpencodeInstructionsExternal,
        Code::OpencodeDollarZero,
        Code::OpencodeSkillClash,
        Code::OpencodeConfigInvalid,
        Code::OpencodeSkillWithoutName,
        Code::OpencodeClaudeCommands,
    ];

    /// The code as printed: `MP001`…
    pub fn as_str(self) -> &'static str {
        self.entry().id
    }

    /// The code printed as `id` (`MP004`), if there is one.
    pub fn parse(id: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|code| code.as_str() == id)
    }

    /// A short name in words, for SARIF's rule `name` and README.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The check in one line.
    pub fn title(self) -> &'static str {
        self.entry().title
    }

    /// The severity a finding of this code has unless the finding says
    /// otherwise (SARIF's default level).
    pub fn level(self) -> Level {
        self.entry().level
    }

    /// The agents whose loading the check is about.
    pub fn agents(self) -> &'static [Agent] {
        self.entry().agents
    }

    /// Why it matters: what the agents do with such a file.
    pub fn why(self) -> &'static str {
        self.entry().why
    }

    /// How to fix it.
    pub fn fix(self) -> &'static str {
        self.entry().fix
    }

    fn entry(self) -> &'static Entry {
        &TABLE[self as usize]
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
impl schemars::JsonSchema for Code {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Code".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
        schemars::json_schema!({"description": "A lint check's stable code.", "enum": codes})
    }
}

/// One row of the code table.
struct Entry {
    id: &'static str,
    name: &'static str,
    title: &'static str,
    level: Level,
    agents: &'static [Agent],
    why: &'static str,
    fix: &'static str,
}

use Agent::{Claude, Codex, Copilot, Gemini, Mecatl, Opencode};

/// The table, in the order of [`Code`]'s variants.
const TABLE: [Entry; 44] = [
    Entry {
        id: "MP001",
        name: "invalid-yaml",
        title: "Frontmatter is not valid YAML",
        level: Level::Error,
        agents: &[Mecatl, Claude, Codex],
        why: "mecatl drops a rule whose frontmatter does not parse; Claude Code reads such a \
              block a second time with unquoted values quoted and, when that fails too, \
              ignores every key (description, paths, arguments); Codex recovers a skill's keys \
              one by one and drops the skill when it cannot",
        fix: "Quote values that hold YAML punctuation, e.g. `argument-hint: \"[file] [mode]\"`",
    },
    Entry {
        id: "MP002",
        name: "unquoted-glob",
        title: "Unquoted value starting with `*` (a YAML alias, not a glob)",
        level: Level::Error,
        agents: &[Mecatl, Claude, Codex],
        why: "YAML reads an unquoted value starting with `*` as an alias, so the frontmatter \
              does not parse: mecatl drops the rule, Claude Code loses every key (a rule's \
              `paths` with them) when the value is a list item, and Codex drops a skill whose \
              name or description starts so",
        fix: "Quote the glob: `paths: \"**/*.ts\"` or `- \"*.md\"`",
    },
    Entry {
        id: "MP003",
        name: "misplaced-frontmatter",
        title: "Frontmatter does not start the file",
        level: Level::Warning,
        agents: &[Mecatl, Claude, Codex],
        why: "A block after blank lines (or, for mecatl commands and Codex skills, after a byte \
              order mark) is not frontmatter: its keys are not read and the block reaches the \
              model as text",
        fix: "Start the file with the `---` line: remove the blank lines or save without a BOM",
    },
    Entry {
        id: "MP004",
        name: "import-missing",
        title: "`@import` of a file that does not exist",
        level: Level::Warning,
        agents: &[Claude, Gemini],
        why: "Claude Code skips an import of a missing file or a directory without a word, and \
              Gemini CLI writes `Import failed` into the text in its place, so the instructions \
              the author meant to include never load",
        fix: "Fix the path (relative to the importing file) or remove the `@` line",
    },
    Entry {
        id: "MP005",
        name: "import-cycle",
        title: "`@import` leads back to a file on its own chain",
        level: Level::Note,
        agents: &[Claude, Gemini],
        why: "Claude Code loads each file once, so the cycle is cut where it closes, and Gemini \
              CLI writes `File already processed` there; the include order is then not what \
              either file suggests",
        fix: "Import shared text from one place only",
    },
    Entry {
        id: "MP006",
        name: "import-too-deep",
        title: "`@import` deeper than the agents follow",
        level: Level::Warning,
        agents: &[Claude, Gemini],
        why: "Claude Code follows imports four levels deep and Gemini CLI five; a deeper import \
              is not loaded: Claude Code says nothing, Gemini CLI sends the `@path` as text",
        fix: "Import the file from a shallower level, or inline it",
    },
    Entry {
        id: "MP007",
        name: "import-external",
        title: "`@import` of a file outside the workspace",
        level: Level::Warning,
        agents: &[Claude, Gemini],
        why: "Claude Code drops an import from a project file that resolves outside the start \
              directory unless the user approved external includes, and Gemini CLI refuses one \
              that leaves the repository (`Path traversal attempt`) but inlines it when the \
              repository's root lies above the workspace: it loads on one machine and not on \
              another; the preview never reads it",
        fix: "Move the file into the repository, or import it from the user's \
              ~/.claude/CLAUDE.md or ~/.gemini/GEMINI.md",
    },
    Entry {
        id: "MP008",
        name: "codex-budget",
        title: "Codex's byte budget cuts or drops an AGENTS.md",
        level: Level::Warning,
        agents: &[Codex],
        why: "Codex sends at most project_doc_max_bytes (32,768 by default) of the AGENTS.md \
              chain from the project root down; it cuts the file that crosses the budget at the \
              byte and drops the ones after it, without a word",
        fix: "Shorten the files of the chain, move detail into files the agent reads on demand, \
              or raise project_doc_max_bytes in ~/.codex/config.toml",
    },
    Entry {
        id: "MP009",
        name: "instructions-diverge",
        title: "AGENTS.md and CLAUDE.md differ",
        level: Level::Warning,
        agents: &[Mecatl, Claude, Codex],
        why: "Claude Code loads CLAUDE.md and not AGENTS.md; Codex and mecatl load AGENTS.md and \
              not CLAUDE.md: with both present and different, the agents follow different \
              instructions",
        fix: "Keep one file: make CLAUDE.md a symlink to AGENTS.md, or reduce it to `@AGENTS.md`",
    },
    Entry {
        id: "MP010",
        name: "hint-without-placeholder",
        title: "`argument-hint` on a template with no placeholder",
        level: Level::Warning,
        agents: &[Mecatl, Claude],
        why: "The hint invites arguments the template never places: Claude Code appends them \
              after the body as `ARGUMENTS: …`, and mecatl drops them",
        fix: "Put `$ARGUMENTS` (or `$0`, `$1`, …) where the arguments belong, or remove the hint",
    },
    Entry {
        id: "MP011",
        name: "gemini-placeholder",
        title: "Gemini CLI's `{{args}}` in a Claude command",
        level: Level::Warning,
        agents: &[Mecatl, Claude],
        why: "`{{args}}` is Gemini CLI's placeholder; Claude Code and mecatl send it as written \
              and never put the arguments there",
        fix: "Write `$ARGUMENTS` instead of `{{args}}`",
    },
    Entry {
        id: "MP012",
        name: "foreign-rule-keys",
        title: "Cursor or Copilot keys in a Claude rule",
        level: Level::Warning,
        agents: &[Mecatl, Claude],
        why: "`globs`, `alwaysApply` and `applyTo` mean nothing to Claude Code (or mecatl): a \
              rule that scopes itself with them has no `paths`, so it loads at start for every \
              file",
        fix: "Scope the rule with `paths:` (e.g. `paths: \"src/**/*.ts\"`), or drop the keys if \
              it applies everywhere",
    },
    Entry {
        id: "MP013",
        name: "skill-name-mismatch",
        title: "A skill's `name:` differs from its directory",
        level: Level::Warning,
        agents: &[Claude, Codex, Gemini],
        why: "Claude Code names a skill after its directory (the listing shows `DIR (NAME)`); \
              Codex and Gemini CLI name it after `name:`: the same skill answers to different \
              names",
        fix: "Rename the directory or the `name:` value so they agree",
    },
    Entry {
        id: "MP014",
        name: "skill-without-description",
        title: "A skill without a description",
        level: Level::Warning,
        agents: &[Claude, Codex, Gemini],
        why: "The description is how the model decides to use a skill: Codex and Gemini CLI do \
              not list a skill without one, and Claude Code lists its first body line instead",
        fix: "Add `description:` to the skill's frontmatter, saying when to use it",
    },
    Entry {
        id: "MP015",
        name: "shadowed-by-skill",
        title: "A command shadowed by a skill of the same name",
        level: Level::Warning,
        agents: &[Claude],
        why: "When a skill and a command share a name, Claude Code invokes and lists the skill; \
              the command is never used",
        fix: "Rename or remove one of the two",
    },
    Entry {
        id: "MP016",
        name: "shell-in-command",
        title: "`` !`cmd` `` (or Gemini's `!{cmd}`) in a command",
        level: Level::Note,
        agents: &[Mecatl, Claude, Gemini],
        why: "Claude Code runs the command when the template is invoked and sends its output, \
              as Gemini CLI does with `!{cmd}` after asking; mecatl sends the text as written, \
              and the preview shows a placeholder",
        fix: "Nothing, if intended; make sure the command is safe to run in every checkout",
    },
    Entry {
        id: "MP017",
        name: "claude-syntax-in-gemini-command",
        title: "Claude Code syntax in a Gemini TOML command",
        level: Level::Warning,
        agents: &[Gemini],
        why: "Gemini CLI sends `$ARGUMENTS`, `$1`, `` !`cmd` `` and a bare `@path` as written: \
              its arguments go to `{{args}}` (or are appended), its shell commands are \
              `!{cmd}` and its files `@{path}`",
        fix: "Use `{{args}}`, `!{cmd}` and `@{path}` in a `.gemini/commands` prompt",
    },
    Entry {
        id: "MP018",
        name: "gemini-command-invalid",
        title: "A Gemini command file that Gemini CLI offers nothing for",
        level: Level::Error,
        agents: &[Gemini],
        why: "Gemini CLI skips a command file that is not valid TOML, has no string `prompt` \
              (or a `description` that is not a string), and reads only `.toml` files: \
              typing the name sends it as plain text",
        fix: "Fix the TOML at the line and column given; give the file a `prompt = \"…\"` \
              and a `.toml` name",
    },
    Entry {
        id: "MP019",
        name: "gemini-filename-missing",
        title: "A Gemini CLI `context.fileName` that names no file",
        level: Level::Warning,
        agents: &[Gemini],
        why: "Gemini CLI looks for each `context.fileName` in every directory from its start \
              directory up to the root and in ~/.gemini; a name found nowhere loads nothing, and \
              a name with `..` or `/` reaches outside the directory it is joined to (the preview \
              never reads outside the workspace)",
        fix: "Fix the name (it is case-sensitive and joined to each directory as written), or \
              remove it",
    },
    Entry {
        id: "MP020",
        name: "gemini-instructions-diverge",
        title: "GEMINI.md and the AGENTS.md or CLAUDE.md beside it differ",
        level: Level::Warning,
        agents: &[Gemini],
        why: "Gemini CLI loads GEMINI.md (and the names of `context.fileName`) and neither \
              AGENTS.md nor CLAUDE.md: with GEMINI.md different from them, or missing beside them, \
              Gemini follows other instructions than Claude Code, Codex and mecatl",
        fix: "Keep one file: make GEMINI.md a symlink to AGENTS.md, reduce it to `@AGENTS.md`, or \
              add AGENTS.md to `context.fileName` in .gemini/settings.json",
    },
    Entry {
        id: "MP021",
        name: "gemini-lazy-only",
        title: "A Gemini CLI file below the directory Gemini starts in",
        level: Level::Note,
        agents: &[Gemini],
        why: "Gemini CLI reads context files from its start directory up to the root; one below \
              it loads only when a tool reads a file under its directory, and `.gemini/commands` \
              and `.gemini/settings.json` count only in the start directory",
        fix: "Nothing, if intended; move instructions every session needs to the root's GEMINI.md",
    },
    Entry {
        id: "MP022",
        name: "gemini-sent-twice",
        title: "A context file Gemini CLI sends twice",
        level: Level::Warning,
        agents: &[Gemini],
        why: "Gemini CLI inlines an imported file into the importing one and loads every context \
              file of its walk on its own: a context file another one imports is sent twice",
        fix: "Remove the `@` import: Gemini CLI loads the file anyway",
    },
    Entry {
        id: "MP023",
        name: "gemini-command-renamed",
        title: "A Gemini command renamed on a name clash",
        level: Level::Warning,
        agents: &[Gemini],
        why: "A command named like one of Gemini CLI's built-in commands (or like a user \
              command) is renamed `/workspace.NAME`: typing `/NAME` runs the built-in or \
              nothing",
        fix: "Rename the file so its command name is free",
    },
    Entry {
        id: "MP024",
        name: "gemini-system-prompt-replaced",
        title: "The repository replaces Gemini CLI's whole system prompt",
        level: Level::Warning,
        agents: &[Gemini],
        why: "`GEMINI_SYSTEM_MD` set in the repository's `.env` makes Gemini CLI send \
              `.gemini/system.md` instead of its own system prompt: its safety and tool \
              instructions and the skills listing are gone for everyone who opens the \
              repository",
        fix: "Make sure the replacement is meant; keep instructions in GEMINI.md otherwise",
    },
    Entry {
        id: "MP025",
        name: "subagent-skipped",
        title: "A subagent file the agent skips or reads leniently",
        level: Level::Warning,
        agents: &[Claude],
        why: "Claude Code lists a subagent only when its frontmatter gives a `name` and a \
              `description`; it skips other files without a word, and reads a block that is not \
              valid YAML line by line, which may not say what the author meant",
        fix: "Give the file `name:` and `description:` in valid YAML frontmatter (quote values \
              holding `: `)",
    },
    Entry {
        id: "MP026",
        name: "unknown-output-style",
        title: "An `outputStyle` that names no output style",
        level: Level::Warning,
        agents: &[Claude],
        why: "Claude Code adds nothing and says nothing when the settings name an output style \
              it cannot find among its own, `.claude/output-styles` and the user's",
        fix: "Add the style file to `.claude/output-styles/`, or fix the name",
    },
    Entry {
        id: "MP027",
        name: "project-mcp-server",
        title: "A project file configures an MCP server",
        level: Level::Note,
        agents: &[Claude, Codex, Gemini, Opencode],
        why: "`claude -p` starts the servers of `.mcp.json` without asking, Codex those of a \
              trusted project's `.codex/config.toml`, Gemini CLI those of \
              `.gemini/settings.json` and opencode the enabled ones of `opencode.json`: the \
              command runs (or the URL is contacted) on the machine \
              of everyone who opens the repository with that agent",
        fix: "Nothing, if intended; make sure the command is one every contributor should run",
    },
    Entry {
        id: "MP028",
        name: "turn-zero-hook",
        title: "A hook that runs when a session starts or a prompt is sent",
        level: Level::Note,
        agents: &[Claude],
        why: "A `SessionStart` or `UserPromptSubmit` command hook runs on the user's machine \
              before the model answers, and its output joins the model's context; the preview \
              never runs it, so that output is not shown",
        fix: "Nothing, if intended; make sure the command is safe to run in every checkout",
    },
    Entry {
        id: "MP030",
        name: "instructions-name",
        title: "A file under `.github/instructions/` that GitHub Copilot CLI never loads",
        level: Level::Warning,
        agents: &[Copilot],
        why: "Copilot reads only files named `*.instructions.md` below `.github/instructions/`: \
              any other name there is ignored",
        fix: "Rename the file to `NAME.instructions.md`",
    },
    Entry {
        id: "MP031",
        name: "copilot-doubled",
        title: "AGENTS.md, CLAUDE.md and GEMINI.md of one directory differ",
        level: Level::Warning,
        agents: &[Copilot],
        why: "GitHub Copilot CLI sends every instruction file of a directory (identical bytes \
              once): different AGENTS.md, CLAUDE.md and GEMINI.md all reach its model, \
              contradictions included",
        fix: "Keep one file and make the others symlinks to it, or give them the same text",
    },
    Entry {
        id: "MP032",
        name: "copilot-import-depth",
        title: "An `@` import deeper than GitHub Copilot CLI follows",
        level: Level::Warning,
        agents: &[Copilot],
        why: "Copilot inlines imports 8 levels deep; a 9th-level import stays text",
        fix: "Import the file from a shallower level, or inline its text",
    },
    Entry {
        id: "MP033",
        name: "skill-without-frontmatter",
        title: "A SKILL.md without frontmatter",
        level: Level::Warning,
        agents: &[Copilot],
        why: "GitHub Copilot CLI does not load a SKILL.md that has no frontmatter block: the \
              skill is neither listed nor invocable",
        fix: "Start the file with `---`, `name:` and `description:` lines and a closing `---`",
    },
    Entry {
        id: "MP034",
        name: "exclude-agent",
        title: "`excludeAgent` in a path-specific instructions file",
        level: Level::Note,
        agents: &[Copilot],
        why: "`excludeAgent: \"coding-agent\"` keeps the file from GitHub Copilot CLI (and the \
              coding agent); `\"code-review\"` only from code review; any other value excludes \
              nothing",
        fix: "Nothing, if intended; check the value's spelling otherwise",
    },
    Entry {
        id: "MP035",
        name: "copilot-import-form",
        title: "An `@` import Claude Code follows and GitHub Copilot CLI does not",
        level: Level::Note,
        agents: &[Copilot],
        why: "Copilot leaves `@/absolute` and `@~/home` paths as text, and `@../` ones that leave \
              the workspace: Claude Code inlines them, Copilot's model sees the bare path",
        fix: "Import a path relative to the file, inside the repository",
    },
    Entry {
        id: "MP036",
        name: "path-set-placement",
        title: "Path-specific instructions GitHub Copilot CLI reads from neither the root nor \
                the start directory",
        level: Level::Note,
        agents: &[Copilot],
        why: "Copilot reads `.github/instructions` and `.claude/rules` only at the repository \
              root and in the directory it starts in: a set anywhere else loads only when \
              Copilot starts there",
        fix: "Move the files to the root's `.github/instructions` (with `applyTo` globs for the \
              subdirectory), or start Copilot there",
    },
    Entry {
        id: "MP040",
        name: "opencode-at-path",
        title: "`@path` in an instruction file opencode loads",
        level: Level::Warning,
        agents: &[Opencode],
        why: "opencode sends its instruction files as written: `@file` stays text and the file \
              is not loaded, where Claude Code and Gemini CLI would inline it",
        fix: "List the file in `instructions` of opencode.json, or write its content in the \
              instruction file",
    },
    Entry {
        id: "MP041",
        name: "opencode-empty-blocks",
        title: "An empty AGENTS.md or CLAUDE.md blocks a later name on opencode's walk",
        level: Level::Warning,
        agents: &[Opencode],
        why: "opencode picks the first of AGENTS.md, CLAUDE.md, CONTEXT.md that exists anywhere \
              on its walk; an empty file exists, so it wins, sends nothing, and keeps every \
              file of the later names out",
        fix: "Remove the empty file, or give it the instructions",
    },
    Entry {
        id: "MP042",
        name: "opencode-instructions-unmatched",
        title: "An opencode `instructions` entry matching no file",
        level: Level::Warning,
        agents: &[Opencode],
        why: "opencode tries each relative entry as a glob in every directory from its start \
              directory up to the git root; an entry that matches nothing loads nothing",
        fix: "Fix the pattern (`*` does not cross `/`; use `**/`), or remove the entry",
    },
    Entry {
        id: "MP043",
        name: "opencode-instructions-external",
        title: "An opencode `instructions` entry that is a URL or outside the workspace",
        level: Level::Note,
        agents: &[Opencode],
        why: "opencode fetches URLs at every start (5 s timeout) and reads absolute and `~/` \
              entries from the user's machine: what the model gets depends on the network and \
              the machine, not on the repository (the preview reads neither)",
        fix: "Keep the instructions in the repository and list them by a relative path",
    },
    Entry {
        id: "MP044",
        name: "opencode-dollar-zero",
        title: "`$0` in an opencode command",
        level: Level::Warning,
        agents: &[Opencode],
        why: "opencode's placeholders are 1-based: `$0` is sent as the text `undefined` (or, \
              when it is the only placeholder, as the last argument)",
        fix: "Use `$1` for the first argument, or `$ARGUMENTS` for all of them",
    },
    Entry {
        id: "MP045",
        name: "opencode-skill-clash",
        title: "opencode skills of the same name",
        level: Level::Warning,
        agents: &[Opencode],
        why: "opencode reads skill files concurrently and keeps the last one parsed: which file \
              a name gives changes from run to run",
        fix: "Rename one of the skills (its `name:`), or remove the copy",
    },
    Entry {
        id: "MP046",
        name: "opencode-config-invalid",
        title: "An opencode config that does not parse",
        level: Level::Error,
        agents: &[Opencode],
        why: "opencode refuses to start with a config that is not JSON with comments and \
              trailing commas",
        fix: "Fix the file at the line and column given",
    },
    Entry {
        id: "MP047",
        name: "opencode-skill-without-name",
        title: "A SKILL.md without `name:`",
        level: Level::Warning,
        agents: &[Opencode],
        why: "opencode takes a skill's name from the frontmatter's `name:` only; a file without \
              one is no skill to it",
        fix: "Add `name:` (and `description:`, or the skill is not listed) to the frontmatter",
    },
    Entry {
        id: "MP048",
        name: "opencode-claude-commands",
        title: "`.claude/commands`, which opencode does not read",
        level: Level::Note,
        agents: &[Opencode],
        why: "opencode reads commands from `.opencode/command(s)` only: Claude Code's commands \
              are not offered under opencode",
        fix: "Nothing, if intended; copy or link the commands to `.opencode/commands` for \
              opencode",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The code list as README shows it: one Markdown table row per code,
    /// rendered from this table (a test keeps README's copy identical).
    fn markdown_table() -> String {
        let mut table = String::from(
            "| Code | Severity | Agents | What it means | How to fix |\n|---|---|---|---|---|\n",
        );
        for code in Code::ALL {
            let agents: Vec<&str> = code.agents().iter().map(|a| a.as_str()).collect();
            table.push_str(&format!(
                "| {} `{}` | {} | {} | **{}.** {}. | {} |\n",
                code.as_str(),
                code.name(),
                code.level().as_str(),
                agents.join(", "),
                code.title(),
                code.why(),
                code.fix()
            ));
        }
        table
    }

    #[test]
    fn readme_lists_every_code_as_the_table_says() {
        let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"));
        let table = markdown_table();
        assert!(
            readme.contains(&table),
            "README's code list differs from the code table; paste this:\n{table}"
        );
    }

    #[test]
    fn codes_are_numbered_in_order_and_unique() {
        // Numbers only grow; a gap is a number reserved for another
        // agent's checks (SPEC Part III), never reused.
        let mut last = 0;
        for (index, code) in Code::ALL.iter().enumerate() {
            let number: u32 = code.as_str()["MP".len()..].parse().expect("MPnnn");
            assert_eq!(code.as_str(), format!("MP{number:03}"));
            assert!(number > last, "{} after MP{last:03}", code.as_str());
            last = number;
            assert_eq!(Code::parse(code.as_str()), Some(*code));
            assert_eq!(*code as usize, index);
            assert!(!code.agents().is_empty());
            assert!(
                code.name()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-')
            );
        }
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Code::ALL.len());
        assert_eq!(Code::parse("MP000"), None);
        assert_eq!(Code::parse("mp001"), None);
    }
}
