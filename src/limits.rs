//! Every numeric limit of SPEC §10, in one place. Modules refer to these
//! constants by name; no other file spells one of these numbers.

/// Longest command description, in Unicode scalar values, including the `…`.
pub const MAX_COMMAND_DESCRIPTION_CHARS: usize = 80;
/// Largest expansion output before it is cut and marked (SPEC §5.6).
pub const MAX_EXPANSION_BYTES: usize = 25_000;
/// Most bytes read from one command file.
pub const MAX_COMMAND_FILE_BYTES: u64 = 1 << 20;
/// Largest rule body, including the final `…` when cut (SPEC §7.3).
pub const MAX_RULE_BYTES: usize = 20_480;
/// Most bytes read from one rule file.
pub const MAX_RULE_FILE_BYTES: u64 = 1 << 20;
/// Largest rules message, header included, before the footer (SPEC §6.3).
pub const MAX_RULES_MESSAGE_BYTES: usize = 40_960;
/// Most rules shown in the rules message (SPEC §6.3).
pub const MAX_RULES_COUNT: usize = 32;
/// Largest soul file accepted, in raw bytes; a larger one is rejected (SPEC §6.4).
pub const MAX_SOUL_BYTES: usize = 20_480;
/// Largest project-instructions content before it is visibly cut (SPEC §6.2).
pub const MAX_INSTRUCTIONS_BYTES: usize = 65_536;
/// Largest `memory.json` read; a larger one yields no entries (SPEC §6.5).
pub const MAX_MEMORY_FILE_BYTES: u64 = 8 << 20;
/// How long the memory reader waits for a shared lock on `memory.lock`.
pub const MEMORY_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
/// Most entries in the memory index message.
pub const MAX_MEMORY_INDEX_ENTRIES: usize = 200;
/// Largest memory index message, header included.
pub const MAX_MEMORY_INDEX_BYTES: usize = 8_192;
/// Longest index description, in characters, before the `…`.
pub const MAX_INDEX_DESCRIPTION_CHARS: usize = 120;
/// Most entries in the user-model message.
pub const MAX_USER_MODEL_ENTRIES: usize = 100;
/// Largest user-model message, header included.
pub const MAX_USER_MODEL_BYTES: usize = 4_096;
/// Most entries in the operator profile block (SPEC §6.6).
pub const MAX_OPERATOR_PROFILE_ENTRIES: usize = 32;
/// Largest operator profile block, in bytes.
pub const MAX_OPERATOR_PROFILE_BYTES: usize = 8_192;
/// Largest operator profile block, in characters.
pub const MAX_OPERATOR_PROFILE_CHARS: usize = 4_096;
/// Longest memory key, in bytes.
pub const MAX_MEMORY_KEY_BYTES: usize = 128;
/// Largest `settings.yaml` read; a larger one is ignored with a warning.
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;
/// Largest `--tools` file.
pub const MAX_TOOLS_FILE_BYTES: u64 = 16 << 20;
/// Time bound on each `git` call (SPEC §4.3).
pub const GIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);
/// Largest git status block, cut at a line boundary.
pub const MAX_GIT_STATUS_BYTES: usize = 8 << 10;
/// Time bound on a `--builder-cmd` program (SPEC §4.4a).
pub const BUILDER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// Most output accepted from a `--builder-cmd` program.
pub const MAX_BUILDER_OUTPUT_BYTES: usize = 16 << 20;
/// Deepest YAML nesting accepted in frontmatter.
pub const YAML_MAX_DEPTH: usize = 16;
/// Most YAML aliases accepted in frontmatter.
pub const YAML_MAX_ALIASES: usize = 64;
/// Most YAML nodes accepted in frontmatter.
pub const YAML_MAX_NODES: usize = 10_000;
/// Most keys of a frontmatter block read without the YAML library (the
/// fast reading of the simplest blocks looks back over the keys for a
/// repeated one); a longer block is left to the library.
pub const YAML_SIMPLE_MAX_KEYS: usize = 64;
/// Largest instructions file read (AGENTS.md/CLAUDE.md): the cap plus room
/// for the leading whitespace a trim removes before the cap applies.
pub const MAX_INSTRUCTIONS_READ_BYTES: u64 = 4 * MAX_INSTRUCTIONS_BYTES as u64;
/// Codex's default budget for the project AGENTS.md chain,
/// `project_doc_max_bytes` (SPEC §14.4, §15.6).
pub const CODEX_PROJECT_DOC_MAX_BYTES: u64 = 32_768;
/// Largest `project_doc_max_bytes` the preview honours; a larger configured
/// value is lowered to this with a warning (ours: it bounds every read of
/// the chain).
pub const MAX_CODEX_DOC_BUDGET_BYTES: u64 = 64 << 20;
/// Largest `$CODEX_HOME/config.toml` read; a larger one is ignored with a
/// warning and the defaults apply (ours).
pub const MAX_CODEX_CONFIG_BYTES: u64 = 1 << 20;
/// Most bytes read from the global `$CODEX_HOME/AGENTS.md`; Codex reads it
/// whole, the preview cuts it here with a warning (ours).
pub const MAX_CODEX_GLOBAL_DOC_BYTES: u64 = 4 << 20;
/// Directory levels Codex searches below a skills root: `d1/…/d6/SKILL.md`
/// is listed, seven levels down is not (observed, SPEC §14.6).
pub const CODEX_SKILL_SCAN_DEPTH: usize = 6;
/// Most directories searched below one skills root (Codex's own cap, read
/// from its source; the preview warns when it is reached).
pub const CODEX_SKILL_SCAN_MAX_DIRS: usize = 2_000;
/// Longest skill name Codex lists, in characters; a longer one drops the
/// skill (observed).
pub const CODEX_SKILL_NAME_MAX_CHARS: usize = 64;
/// Longest skill description in Codex's listing, in characters; a longer
/// one is cut to this length, the closing `...` included (observed).
pub const CODEX_SKILL_DESCRIPTION_MAX_CHARS: usize = 1_024;
/// Most bytes read from one SKILL.md, for its listing entry and its `$NAME`
/// block (ours).
pub const MAX_CODEX_SKILL_FILE_BYTES: u64 = 1 << 20;
/// Most bytes `expand -` reads from stdin.
pub const MAX_EXPAND_STDIN_BYTES: u64 = 16 << 20;
/// Largest `--role-file`, `--tone-file` or `--safety-file`.
pub const MAX_PROMPT_TEXT_FILE_BYTES: u64 = 1 << 20;
/// Largest manifest `check --against` reads.
pub const MAX_SNAPSHOT_FILE_BYTES: u64 = 16 << 20;
/// Deepest directory level read below a rules, commands or skills
/// directory (SPEC §15.6, ours).
pub const MAX_TREE_DEPTH: usize = 32;
/// Most directory entries looked at below one rules, commands or skills
/// directory (SPEC §15.6, ours).
pub const MAX_TREE_ENTRIES: usize = 100_000;
/// How much of each command file a listing reads (and checks for invalid
/// UTF-8). A description comes from the frontmatter or the first non-blank
/// line, which real files have in their first few hundred bytes (in the
/// test corpus the deepest is on line 4, and one file of 80 passes 16 KiB);
/// 16 KiB leaves room for any real frontmatter while a huge file costs a
/// listing no more than a few ordinary ones (SPEC §11: within 5%).
pub const COMMAND_DESCRIPTION_HEAD_BYTES: u64 = 16 * 1024;

// Claude Code's commands and skills (SPEC §14.5, §15.6), as observed from
// Claude Code 2.1.328 (`tests/oracle/cases/claude-commands/`).

/// Longest skills-listing description, `" - "` and `when_to_use` included,
/// in UTF-16 code units (as Claude Code counts); a longer one keeps its
/// first 1,535 units and gets `…`.
pub const CLAUDE_LISTING_DESCRIPTION_UNITS: usize = 1_536;
/// Longest description Claude Code takes from a file's first line when it
/// has no `description:`, in UTF-16 code units; a longer line keeps its
/// first 97 units and gets `...`.
pub const CLAUDE_LINE_DESCRIPTION_UNITS: usize = 100;
/// Percent of the context window, in characters, that the skills listing
/// may fill (with [`CLAUDE_LISTING_CHARS_PER_TOKEN`]: 1% × 4 characters per
/// token), unless `SLASH_COMMAND_TOOL_CHAR_BUDGET` says otherwise.
pub const CLAUDE_LISTING_BUDGET_PERCENT: u64 = 1;
/// Characters per token of context window in the skills-listing budget.
pub const CLAUDE_LISTING_CHARS_PER_TOKEN: u64 = 4;
/// Claude Code's own entries in its skills listing (Claude Code 2.1.328,
/// observed in every recorded case): the preview does not show them, but
/// they count against the budget.
pub const CLAUDE_BUNDLED_LISTING_ENTRIES: usize = 13;
/// The display width of Claude Code's own listing entries with every
/// description (observed: 6,196 columns).
pub const CLAUDE_BUNDLED_LISTING_WIDTH: usize = 6_196;
/// The width Claude Code's own entries lose over budget, when two of them
/// shrink to their names after every custom entry (observed: 6,196 − 6,062).
pub const CLAUDE_BUNDLED_LISTING_SHRINKABLE_WIDTH: usize = 134;
/// Context window assumed for the skills-listing budget when
/// `--context-window` is not given, in tokens (→ an 8,000-character budget).
pub const DEFAULT_CONTEXT_WINDOW_TOKENS: u64 = 200_000;

/// The size of Codex's skills listing (its entries, in bytes) above which
/// the preview warns that Codex may shorten it (ours: Codex was seen
/// cutting every description once its skills block reached about 22,000
/// characters, and its rule is not reproduced, SPEC §14.6).
pub const CODEX_SKILLS_LISTING_WARN_BYTES: usize = 16_384;

/// Most `arguments:` names a command or skill substitutes; later ones stay
/// as written (Claude Code's own bound, read from its source).
pub const CLAUDE_MAX_ARGUMENT_NAMES: usize = 64;
/// Longest `arguments:` name substituted, in UTF-16 code units; a longer one
/// stays as written but keeps its position (Claude Code's own bound, read
/// from its source).
pub const CLAUDE_MAX_ARGUMENT_NAME_UNITS: usize = 64;
/// Deepest `@import` chain Claude Code follows: the imports of a walk file are depth 1,
/// depths 1–4 load, depth 5 and deeper are refused (SPEC §14.3, observed).
pub const MAX_IMPORT_DEPTH: usize = 4;
/// Largest instruction file Claude Code reads (CLAUDE.md, rules, imports): a file of
/// exactly 4 MiB loads, one byte more is skipped (SPEC §15.6, observed).
pub const MAX_CLAUDE_FILE_BYTES: u64 = 4 << 20;
/// Most imports one Claude or Gemini assembly loads (ours: a fan-out guard, SPEC §15.6,
/// §16.3).
pub const MAX_IMPORTS: usize = 1_000;
/// Most imported bytes one Claude or Gemini assembly reads (ours: a fan-out guard, SPEC
/// §15.6, §16.3).
pub const MAX_IMPORTED_BYTES: u64 = 64 << 20;
/// Deepest `@import` chain Gemini CLI inlines: the imports of a context file
/// are depth 1, depths 1–5 inline, a depth-5 file's own imports stay text
/// (SPEC §16.3, observed).
pub const GEMINI_MAX_IMPORT_DEPTH: usize = 5;
/// Largest Gemini context file or import read (ours: Gemini has no limit;
/// a larger file is skipped with a warning, SPEC §16.2).
pub const MAX_GEMINI_FILE_BYTES: u64 = 16 << 20;
/// Largest Gemini `settings.json` read; a larger one is ignored with a
/// warning and the defaults apply (ours).
pub const MAX_GEMINI_SETTINGS_BYTES: u64 = 1 << 20;
/// Most `context.fileName` names and `context.includeDirectories` entries
/// honoured from one settings file (ours: the rest are ignored with a
/// warning, so a hostile settings file cannot multiply the walk).
pub const MAX_GEMINI_SETTING_ENTRIES: usize = 64;
/// Most bytes read from all of Gemini's `.toml` command files of one run
/// (ours: a file past what is left is skipped with a warning, SPEC §16.4).
pub const MAX_GEMINI_COMMAND_BYTES: u64 = 64 << 20;
/// Lines of a file an `@{path}` injects; later ones are left out (Gemini
/// CLI's own bound for reading a text file, read from its source).
pub const GEMINI_INJECT_MAX_LINES: usize = 2_000;
/// Longest injected line, in UTF-16 code units; a longer one is cut and
/// gets `... [truncated]` (Gemini CLI's own bound, read from its source).
pub const GEMINI_INJECT_MAX_LINE_UNITS: usize = 2_000;
/// Most bytes read from one `.env` file for `GEMINI_SYSTEM_MD` (ours).
pub const MAX_GEMINI_ENV_FILE_BYTES: u64 = 1 << 20;
/// Most `SKILL.md` files Gemini's skills listing reads per directory
/// (ours: a guard; the listing is cut with a warning past it).
pub const MAX_GEMINI_SKILLS_PER_DIR: usize = 1_000;
/// Lines of Claude Code's auto-memory `MEMORY.md` sent; the rest is cut (observed).
pub const MAX_CLAUDE_MEMORY_LINES: usize = 200;
/// Length of Claude Code's auto-memory `MEMORY.md` sent, in UTF-16 code units (what
/// JavaScript counts; 13,000 `é` pass whole), cut at the last line break within it
/// (observed).
pub const MAX_CLAUDE_MEMORY_UNITS: usize = 25_000;
/// Largest Claude Code global configuration (`.claude.json`) read for the approval of
/// external imports; a larger one counts as no approval, with a warning (ours: the file
/// also holds per-project history and can grow).
pub const MAX_CLAUDE_JSON_BYTES: u64 = 32 << 20;

/// Claude Code's project settings files and `.mcp.json` (SPEC §19.1): over
/// this, skipped with a warning.
pub const MAX_CLAUDE_SETTINGS_BYTES: u64 = 1 << 20;

/// The compiled size of a hook matcher taken as a regular expression
/// (SPEC §19.5): a pattern compiling to more matches nothing.
pub const MAX_HOOK_MATCHER_REGEX_BYTES: usize = 1 << 20;
/// Largest git worktree pointer read (a `.git` file, a `commondir`) to find the
/// main repository Claude Code files a worktree under (ours: they hold one line).
pub const MAX_GIT_POINTER_BYTES: u64 = 4 << 10;
/// Largest Copilot instruction file or import read (ours: Copilot has no
/// limit and sends 309 KB whole; a larger file is skipped with a warning,
/// SPEC §17.3).
pub const MAX_COPILOT_FILE_BYTES: u64 = 4 << 20;
/// Deepest `@import` chain Copilot CLI inlines: the imports of an
/// instruction file are level 1, levels 1–8 inline, the 9th stays text
/// (SPEC §17.4, observed).
pub const COPILOT_MAX_IMPORT_DEPTH: usize = 8;

/// Longest quotation of a file's text (a shell command, an import path) in
/// a `lint` message or a divergence warning, in characters; a longer one is
/// cut with `…` (ours).
pub const LINT_QUOTE_CHARS: usize = 60;
/// Most `/ns:name` examples a nested-commands divergence warning names; the
/// rest are counted (ours, SPEC §15.2).
pub const DIVERGENCE_EXAMPLES: usize = 3;

/// Longest pre-tokenized piece that exact `o200k_base` counting merges with
/// `tiktoken`'s own quadratic loop (on the stack); a longer piece (a run of
/// one letter, a line of `=`) is merged through a queue of candidate pairs
/// bucketed by rank. Real text has few pieces this long (ours, measured).
pub const O200K_SHORT_PIECE_BYTES: usize = 64;
/// Shortest text whose `o200k_base` count keeps the counts of the pieces it
/// has met, to reuse them on repeats; a shorter text is not worth the
/// cache's allocation (ours, measured).
pub const O200K_PIECE_CACHE_MIN_BYTES: usize = 16 << 10;
/// Most slots of that cache of piece counts, in sets of two: 32,768 slots
/// of 16 bytes (512 KiB) hold the distinct words of a megabyte of text
/// and stay in a core's second-level cache (ours, measured: 16,384 missed
/// 13,000 times on the benchmark's MiB, where 9,900 pieces are distinct,
/// and counted it 10% slower).
pub const O200K_PIECE_CACHE_SLOTS: usize = 32 << 10;
/// Bytes of text per slot of that cache below the most: a shorter text
/// gets fewer slots, so that it does not pay to allocate and touch slots
/// it cannot fill (ours).
pub const O200K_PIECE_CACHE_BYTES_PER_SLOT: usize = 32;

// compare (SPEC §15.1).

/// Most entries `compare` looks at below `--at` for Gemini CLI's context
/// files that load only on a read (SPEC §16.7's `lazy` divergence): a
/// bounded look, never a walk of a whole monorepo; `lint` (MP021) names
/// every one (ours).
pub const COMPARE_LAZY_ENTRIES: usize = 2_000;

/// Most files one divergence sentence names; the rest are counted ("and 4
/// more"), so a line stays a line (ours).
pub const COMPARE_LISTED_FILES: usize = 5;
/// How long `compare --diff` looks for the smallest diff before it settles
/// for a correct, larger one (ours).
pub const COMPARE_DIFF_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

// Reading the workspace (SPEC §3.1).

/// Most directories a confined reader keeps open after listing them, to
/// open their listed files relative to them (one path component for the
/// kernel to walk, not the whole path below the root). 128 holds the
/// command and skill directories of a large project while staying far
/// below the usual limit of 1,024 open descriptors per process; past it a
/// listed directory is closed and its files take the path from the root
/// (ours).
pub const HELD_DIRECTORY_FDS: usize = 128;

// Lint configuration (SPEC §20.5).

/// Largest `.mecatl-prompt.toml` lint reads; a configuration is a few
/// hundred bytes, so a larger file is an error, not a cut (ours).
pub const MAX_LINT_CONFIG_BYTES: u64 = 1 << 20;
/// Largest baseline `lint --baseline` reads: about 150 bytes an entry, so
/// some 100,000 accepted findings (ours).
pub const MAX_LINT_BASELINE_BYTES: u64 = 16 << 20;
/// Largest opencode instruction file read (ours: opencode has no limit; a
/// larger file is skipped with a warning, SPEC §18.5).
pub const MAX_OPENCODE_FILE_BYTES: u64 = 4 << 20;
/// Largest opencode `opencode.json(c)` read; a larger one is ignored with a
/// warning (ours).
pub const MAX_OPENCODE_CONFIG_BYTES: u64 = 1 << 20;
/// Most files one opencode `instructions` entry loads (ours, SPEC §18.5:
/// the rest are left out with a warning, so `**/*` stays bounded).
pub const MAX_OPENCODE_INSTRUCTION_MATCHES: usize = 1_000;
/// Most `instructions` entries honoured from opencode's merged configs
/// (ours: the rest are ignored with a warning, so a hostile config cannot
/// multiply the globbing).
pub const MAX_OPENCODE_INSTRUCTION_ENTRIES: usize = 256;
/// Most `SKILL.md` files read for opencode's skills in all (ours: the rest
/// are not read, with a warning, so 10,000 skill directories stay bounded).
pub const MAX_OPENCODE_SKILLS: usize = 2_000;
/// Most subagent files read for opencode (ours, as for skills).
pub const MAX_OPENCODE_SUBAGENTS: usize = 1_000;

// The MCP server (SPEC §21.2).

/// Longest line the MCP server reads from its client; a longer one is
/// dropped as it streams by and answered with an error, so a client cannot
/// make the server hold an unbounded line. A tool call is a few hundred
/// bytes (ours).
pub const MCP_MAX_LINE_BYTES: usize = 1 << 20;
/// Most tool calls the MCP server holds while it waits for the client's
/// answer to `roots/list`; one more is answered with an error at once
/// (ours).
pub const MCP_MAX_WAITING_CALLS: usize = 64;

// Language server (SPEC §21.1).

/// Largest message body `lsp` reads (ours): a 10 MB document sent whole,
/// JSON-escaped, with room to spare; a larger body is read past and
/// answered with a parse error, so memory stays bounded.
pub const LSP_MAX_BODY_BYTES: usize = 48 << 20;
/// Longest header line `lsp` keeps (ours: `Content-Length: …` and
/// `Content-Type: …` are a few dozen bytes); a longer line is a malformed
/// header.
pub const LSP_MAX_HEADER_LINE: usize = 1 << 10;
/// Most header lines of one message (ours): past it the header is malformed.
pub const LSP_MAX_HEADER_LINES: usize = 32;
/// The wait after a document's last change before it is linted again,
/// unless `initializationOptions.debounceMs` says otherwise (SPEC §21.1).
pub const LSP_DEBOUNCE_MS: u64 = 100;
/// The longest `initializationOptions.debounceMs` taken; larger values are
/// clamped to it (SPEC §21.1).
pub const LSP_DEBOUNCE_MAX_MS: u64 = 2_000;
