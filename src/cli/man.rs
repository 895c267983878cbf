//! The hidden `man` subcommand: one man page rendered by clap_mangen from
//! the same clap definitions as `--help`, so options cannot drift from it.
//! Every visible subcommand, nested ones included, gets a subsection with
//! its synopsis and options; hand-written sections cover what clap does not
//! know (exit status, environment, files, examples).

use clap::CommandFactory;

use crate::cli::error::{CliError, Status};
use crate::cli::{Cli, output};
use crate::prompt::agents;

/// The man page in roff, covering every subcommand.
pub fn render() -> Result<Vec<u8>, CliError> {
    // Walked unbuilt, so a subcommand's options are its own (building
    // copies the global options into every subcommand).
    let command = Cli::command();
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    page.extend_from_slice(SUBCOMMANDS_INTRO.as_bytes());
    render_subcommands(&command, "", &mut page)?;
    // clap adds `help` when it builds the command.
    let mut built = command.clone();
    built.build();
    if let Some(help) = built.find_subcommand("help") {
        render_subcommand(help, "help", &mut page)?;
    }
    let agents = agents::spoken(|spec| format!("\\fB{}\\fR", spec.name));
    page.extend_from_slice(PROSE_SECTIONS.replace(AGENTS, &agents).as_bytes());
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// One `.SS` subsection per visible subcommand that can be run. A group
/// such as `commands` is documented through its children (`commands list`).
fn render_subcommands(
    command: &clap::Command,
    prefix: &str,
    page: &mut Vec<u8>,
) -> Result<(), CliError> {
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let path = format!("{prefix}{}", sub.get_name());
        if sub.has_subcommands() {
            render_subcommands(sub, &format!("{path} "), page)?;
        } else {
            render_subcommand(sub, &path, page)?;
        }
    }
    Ok(())
}

/// The subsection of one subcommand: its about text, synopsis, options and
/// any text shown after its `--help`, kept as laid out.
fn render_subcommand(sub: &clap::Command, path: &str, page: &mut Vec<u8>) -> Result<(), CliError> {
    page.extend_from_slice(format!(".SS \"mecatl\\-prompt {path}\"\n").as_bytes());
    let about = sub
        .get_long_about()
        .or(sub.get_about())
        .map(|s| s.to_string())
        .unwrap_or_default();
    page.extend_from_slice(roff_text(&about).as_bytes());
    page.extend_from_slice(b"\n.PP\n");
    let mut sub_cmd = sub.clone().bin_name(format!("mecatl-prompt {path}"));
    sub_cmd.build();
    let man = clap_mangen::Man::new(sub_cmd);
    let mut section = Vec::new();
    man.render_synopsis_section(&mut section)?;
    man.render_options_section(&mut section)?;
    page.extend_from_slice(&without_section_headers(&section));
    if let Some(after) = sub.get_after_long_help().or(sub.get_after_help()) {
        page.extend_from_slice(b".PP\n.nf\n");
        page.extend_from_slice(roff_text(&after.to_string()).as_bytes());
        page.extend_from_slice(b"\n.fi\n");
    }
    Ok(())
}

/// Drops clap_mangen's `.SH` lines so a subcommand's synopsis and options
/// stay inside its subsection instead of opening new top-level sections.
fn without_section_headers(roff: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(roff.len());
    for line in roff.split_inclusive(|&b| b == b'\n') {
        if !line.starts_with(b".SH ") {
            out.extend_from_slice(line);
        }
    }
    out
}

/// Plain text as roff body text: backslashes escaped, hyphens as `\-`, and
/// a line that would start with a control character protected.
fn roff_text(text: &str) -> String {
    text.lines()
        .map(|line| {
            let line = line.replace('\\', "\\e").replace('-', "\\-");
            if line.starts_with('.') || line.starts_with('\'') {
                format!("\\&{line}")
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Opens the subcommand part of the page.
const SUBCOMMANDS_INTRO: &str = ".SH SUBCOMMANDS
The global options above are accepted before the subcommand and after it (for \\fBexpand\\fR, up to the first INPUT word).
";

/// Where [`PROSE_SECTIONS`] names every profile of the table.
const AGENTS: &str = "{agents}";

/// The sections clap cannot derive, in roff; [`AGENTS`] stands for the
/// profiles' names.
const PROSE_SECTIONS: &str = r#".nh
.SH "EXIT STATUS"
.TP
0
Success.
.TP
1
A check failed: for example \fB\-\-check\-stable\fR found a difference, \fBrules list \-\-check\fR found a fatal problem in a project rule, or \fBexpand \-\-require\fR did not expand.
.TP
2
A usage or runtime error, reported on one line of standard error.
.PP
When several apply, 2 beats 1 and 1 beats 0. Results go to standard output, diagnostics to standard error.
.SH ENVIRONMENT
.TP
\fBMECATL_TRUST_PROJECT\fR
\fB1\fR trusts the workspace, \fB0\fR does not; \fB\-\-trust\-project\fR and \fB\-\-no\-trust\-project\fR win over it.
.TP
\fBMECATL_PROMPT_AGENT\fR
The agent profile ({agents}) when \fB\-\-agent\fR is not given.
.TP
\fBCODEX_HOME\fR
Codex's home under \fB\-\-agent codex\fR (an absolute path), else \fI~/.codex\fR.
.TP
\fBCLAUDE_CONFIG_DIR\fR
Claude Code's configuration directory under \fB\-\-agent claude\fR (an absolute path), else \fI~/.claude\fR.
.TP
\fBOPENCODE_CONFIG_DIR\fR
opencode's configuration directory under \fB\-\-agent opencode\fR (an absolute path), else \fI<config home>/opencode\fR.
.TP
\fBOPENCODE_DISABLE_CLAUDE_CODE\fR, \fBOPENCODE_DISABLE_CLAUDE_CODE_PROMPT\fR, \fBOPENCODE_DISABLE_PROJECT_CONFIG\fR
Under \fB\-\-agent opencode\fR, \fB1\fR or \fBtrue\fR leaves out \fICLAUDE.md\fR files, or the project's instruction files and configs, as opencode does.
.TP
\fBMECATL_MODEL\fR
The Env model when \fB\-\-model\fR is not given.
.TP
\fBMECATL_MEMORY_DIR\fR
The memory store when \fB\-\-memory\-dir\fR is not given.
.TP
\fBSHELL\fR
The Env shell when \fB\-\-shell\fR is not given.
.TP
\fBHOME\fR, \fBXDG_CONFIG_HOME\fR, \fBXDG_DATA_HOME\fR
Where the user files below live.
.TP
\fBNO_COLOR\fR, \fBCLICOLOR\fR, \fBCLICOLOR_FORCE\fR
Color under \fB\-\-color auto\fR.
.TP
\fBCOMPLETE\fR
Set by the completion scripts: the program then prints completions for the words after \fB\-\-\fR instead of running.
.SH FILES
Project files, read from the workspace; commands, rules and the soul are used only when the workspace is trusted:
.TP
\fI.mecatl/commands/*.md\fR, \fI.claude/commands/*.md\fR
Slash commands.
.TP
\fI.mecatl/rules/*.md\fR, \fI.claude/rules/*.md\fR
Rules.
.TP
\fIAGENTS.md\fR, else \fICLAUDE.md\fR
Project instructions.
.TP
\fI.mecatl/soul.md\fR
The project soul, used only when there is no user soul.
.PP
User files; the config home is \fB$XDG_CONFIG_HOME\fR, else \fI~/.config\fR:
.TP
\fI<config home>/mecatl/settings.yaml\fR
Settings: \fBtrustedWorkspaces:\fR lists the workspaces trusted without a flag; \fBagent:\fR names the agent profile when neither \fB\-\-agent\fR nor \fBMECATL_PROMPT_AGENT\fR does.
.TP
\fI<config home>/mecatl/rules/*.md\fR, \fI~/.claude/rules/*.md\fR
User rules.
.TP
\fI<config home>/mecatl/soul.md\fR
The user soul.
.TP
\fI<config home>/mecatl/usermodel\fR
The user\-model store, source of the operator profile.
.TP
\fI<data home>/mecatui/memory/<slug>\fR
The default memory store; the data home is \fB$XDG_DATA_HOME\fR, else \fI~/.local/share\fR.
.PP
Under \fB\-\-agent codex\fR, the files Codex reads:
.TP
\fIAGENTS.override.md\fR, else \fIAGENTS.md\fR, else a configured fallback
One per directory from the project root (the nearest directory holding \fI.git\fR) down to \fB\-\-at\fR, joined under a 32 KiB budget.
.TP
\fI$CODEX_HOME/AGENTS.override.md\fR, else \fI$CODEX_HOME/AGENTS.md\fR
The global instructions, sent first.
.TP
\fI$CODEX_HOME/config.toml\fR
Only \fBproject_doc_max_bytes\fR, \fBproject_doc_fallback_filenames\fR and \fBproject_root_markers\fR.
.PP
Under \fB\-\-agent opencode\fR, the files opencode reads:
.TP
\fIAGENTS.md\fR, else \fICLAUDE.md\fR, else \fICONTEXT.md\fR
The first name found anywhere from \fB\-\-at\fR up to the nearest directory holding \fI.git\fR (else \fI/\fR); every copy of it, nearest first.
.TP
\fI$OPENCODE_CONFIG_DIR/AGENTS.md\fR, else \fI~/.claude/CLAUDE.md\fR
The global instructions, sent first.
.TP
\fIopencode.json\fR, \fIopencode.jsonc\fR, \fI.opencode/opencode.json(c)\fR
Only \fBinstructions\fR: globs matched in every directory of the walk inside the workspace; URLs are never fetched.
.SH EXAMPLES
.TP
\fBmecatl\-prompt \-C ~/src/app \-\-trust\-project build \-\-part prefix\fR
Print the cacheable prefix of another workspace.
.TP
\fBmecatl\-prompt \-\-trust\-project expand /review src/lib.rs\fR
Show what a slash command expands to.
.TP
\fBmecatl\-prompt \-\-trust\-project \-\-agent codex \-\-at web assemble \-\-stats\fR
Show the AGENTS.md files Codex loads when started in \fIweb/\fR, with their sizes and any budget cut.
.TP
\fBmecatl\-prompt \-\-agent codex explain web/AGENTS.md\fR
Say why Codex loads an instruction file, or why not.
.TP
\fBmecatl\-prompt \-\-trust\-project rules list \-\-for src/api/users.ts\fR
List the rules a path\-triggered loader would activate for a file.
.TP
\fB(mecatl\-prompt build \-\-format anthropic; mecatl\-prompt assemble \-\-format anthropic) | jq \-s add\fR
Merge the system blocks and the turn\-0 messages into one request body.
.TP
\fBsource <(mecatl\-prompt completions bash)\fR
Enable completion in bash, command names included.
"#;

/// Prints the man page.
pub fn run() -> Result<Status, CliError> {
    output::write_stdout(&render()?)?;
    Ok(Status::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_headers_are_dropped_and_nothing_else() {
        let roff = b".ie x\n.SH SYNOPSIS\nbody\n.SH OPTIONS\n.TP\nitem";
        assert_eq!(without_section_headers(roff), b".ie x\nbody\n.TP\nitem");
    }

    #[test]
    fn text_is_escaped_for_roff() {
        assert_eq!(roff_text(".a-b\\c\nok"), "\\&.a\\-b\\ec\nok");
    }
}
