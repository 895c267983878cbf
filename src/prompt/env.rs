//! The per-turn environment (SPEC §4.3) and its `<env>` block in the
//! volatile suffix. Every value is handed in by the caller; nothing here
//! reads the clock, the process environment or the disk.

use serde::Serialize;

/// The per-turn facts rendered into the volatile suffix, never into the
/// stable prefix.
///
/// Serialises with the field names of the builder-command JSON (SPEC §4.4a):
/// `cwd`, `os`, `model`, `date`, `mode`, `shell`, `git_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Env {
    /// The session working directory.
    pub cwd: String,
    /// The platform name the engine reports (`linux`, `darwin`, `windows`).
    pub os: String,
    /// The model identifier, possibly empty.
    pub model: String,
    /// Today's date, already formatted by the caller (`YYYY-MM-DD`).
    pub date: String,
    /// The permission mode (`default`, `plan`, `acceptEdits`, …).
    pub mode: String,
    /// The shell the agent's shell tool runs.
    pub shell: String,
    /// A start-of-session git snapshot, possibly multi-line; blank means none.
    pub git_status: String,
}

/// Renders the `<env>` block: the six `key: value` lines in their fixed
/// order (an empty value leaves `key: `), then the trimmed git status in a
/// `<git-status>` sub-block when it is not blank.
///
/// Values are written as given: the caller owns them, and the block is
/// per-turn data, so nothing is escaped.
pub fn render_env_block(env: &Env) -> String {
    let fields = [
        ("cwd", &env.cwd),
        ("date", &env.date),
        ("model", &env.model),
        ("os", &env.os),
        ("permission-mode", &env.mode),
        ("shell", &env.shell),
    ];
    let mut block = String::from("<env>\n");
    for (key, value) in fields {
        block.push_str(key);
        block.push_str(": ");
        block.push_str(value);
        block.push('\n');
    }
    let git_status = env.git_status.trim();
    if !git_status.is_empty() {
        block.push_str("<git-status>\n");
        block.push_str(git_status);
        block.push_str("\n</git-status>\n");
    }
    block.push_str("</env>");
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_env() -> Env {
        Env {
            cwd: "/home/ada/project".into(),
            os: "linux".into(),
            model: "some-model-1".into(),
            date: "2026-05-29".into(),
            mode: "default".into(),
            shell: "/bin/bash".into(),
            git_status: String::new(),
        }
    }

    #[test]
    fn renders_six_lines_in_fixed_order() {
        assert_eq!(
            render_env_block(&full_env()),
            "<env>\ncwd: /home/ada/project\ndate: 2026-05-29\nmodel: some-model-1\nos: linux\n\
             permission-mode: default\nshell: /bin/bash\n</env>"
        );
    }

    #[test]
    fn empty_values_keep_their_key_lines() {
        assert_eq!(
            render_env_block(&Env::default()),
            "<env>\ncwd: \ndate: \nmodel: \nos: \npermission-mode: \nshell: \n</env>"
        );
    }

    #[test]
    fn multi_line_git_status_is_trimmed_into_a_sub_block() {
        let env = Env {
            git_status: "\n  branch: main\nstatus:\n M src/lib.rs\ncommits:\nabc1234 first\n\n"
                .into(),
            ..Env::default()
        };
        assert_eq!(
            render_env_block(&env),
            "<env>\ncwd: \ndate: \nmodel: \nos: \npermission-mode: \nshell: \n<git-status>\n\
             branch: main\nstatus:\n M src/lib.rs\ncommits:\nabc1234 first\n</git-status>\n</env>"
        );
    }

    #[test]
    fn blank_git_status_emits_no_sub_block() {
        let env = Env {
            git_status: " \n\t\r\n".into(),
            ..full_env()
        };
        assert_eq!(render_env_block(&env), render_env_block(&full_env()));
    }

    #[test]
    fn serialises_with_the_builder_field_names_in_order() {
        let json = serde_json::to_string(&full_env()).unwrap();
        assert_eq!(
            json,
            r#"{"cwd":"/home/ada/project","os":"linux","model":"some-model-1","date":"2026-05-29","mode":"default","shell":"/bin/bash","git_status":""}"#
        );
    }
}
