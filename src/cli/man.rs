//! The hidden `man` subcommand: the man page rendered by clap_mangen from
//! the same clap definitions, so it cannot drift from `--help`.

use clap::CommandFactory;

use crate::cli::{Cli, CliError, Status, output};

/// The man page in roff, covering every subcommand.
pub fn render() -> Result<Vec<u8>, CliError> {
    let command = Cli::command();
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    render_subcommands(&command, "", &mut page)?;
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// One section per visible subcommand (nested ones included), with its
/// synopsis and options, so the single page documents everything.
fn render_subcommands(
    command: &clap::Command,
    prefix: &str,
    page: &mut Vec<u8>,
) -> Result<(), CliError> {
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let path = if prefix.is_empty() {
            sub.get_name().to_string()
        } else {
            format!("{prefix} {}", sub.get_name())
        };
        if sub.get_name() == "help" {
            continue;
        }
        let has_children = sub.get_subcommands().any(|s| s.get_name() != "help");
        if !has_children || sub.get_arguments().any(|a| !a.is_global_set()) {
            page.extend_from_slice(
                format!(".SH \"SUBCOMMAND: {}\"\n", path.to_uppercase()).as_bytes(),
            );
            let about = sub
                .get_long_about()
                .or(sub.get_about())
                .map(|s| s.to_string())
                .unwrap_or_default();
            page.extend_from_slice(roff_escape(&about).as_bytes());
            page.extend_from_slice(b"\n");
            let mut sub_cmd = sub.clone().bin_name(format!("mecatl-prompt {path}"));
            sub_cmd.build();
            let man = clap_mangen::Man::new(sub_cmd);
            man.render_synopsis_section(page)?;
            man.render_options_section(page)?;
        }
        render_subcommands(sub, &path, page)?;
    }
    Ok(())
}

fn roff_escape(text: &str) -> String {
    text.lines()
        .map(|line| {
            let line = line.replace('\\', "\\e");
            if line.starts_with('.') || line.starts_with('\'') {
                format!("\\&{line}")
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Prints the man page.
pub fn run() -> Result<Status, CliError> {
    output::write_stdout(&render()?)?;
    Ok(Status::Success)
}
