//! `--builder-cmd` (SPEC §4.4a): an external program acting as the
//! [`Builder`](crate::prompt::build::Builder). It gets the configuration as
//! JSON on stdin and prints the two halves of the prompt as JSON on stdout,
//! within a time and size bound (the runner lives in
//! [`crate::adapters::process`]).

use std::io;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::adapters::command_line::{self, SplitError};
use crate::adapters::process::{Bounds, Finished, run_bounded};
use crate::limits;
use crate::prompt::build::{Config, Layered};
use crate::prompt::env::Env;
use crate::prompt::tools::ToolSpec;

impl Bounds {
    /// The bounds of SPEC §10 for a builder command: 10 s and 16 MiB.
    pub const BUILDER: Bounds = Bounds {
        timeout: limits::BUILDER_TIMEOUT,
        max_output: limits::MAX_BUILDER_OUTPUT_BYTES,
    };
}

/// Why a builder command produced no prompt. Each message is one line.
#[derive(Debug, thiserror::Error)]
pub enum BuilderError {
    /// The command line holds no words.
    #[error("the builder command is empty")]
    Empty,
    /// The command line does not split into words (an unclosed quote).
    #[error("cannot split the builder command: {0}")]
    Split(#[from] SplitError),
    /// The program does not exist.
    #[error("builder program {} not found", shown(program))]
    NotFound {
        /// The program as given.
        program: String,
    },
    /// The program exists but could not be started or talked to.
    #[error("cannot run builder program {}: {source}", shown(program))]
    Io {
        /// The program as given.
        program: String,
        /// The operating-system error.
        #[source]
        source: io::Error,
    },
    /// The program exited unsuccessfully.
    #[error("builder program {} failed ({status})", shown(program))]
    Failed {
        /// The program as given.
        program: String,
        /// How it exited.
        status: ExitStatus,
    },
    /// The program did not exit in time and was killed.
    #[error(
        "builder program {} did not finish within {timeout:?} and was stopped",
        shown(program)
    )]
    TimedOut {
        /// The program as given.
        program: String,
        /// The bound it exceeded.
        timeout: Duration,
    },
    /// The program printed more than allowed and was killed.
    #[error(
        "builder program {} printed more than {limit} bytes and was stopped",
        shown(program)
    )]
    Oversize {
        /// The program as given.
        program: String,
        /// The bound it exceeded, in bytes.
        limit: usize,
    },
    /// The output is not one JSON object with string `stable_prefix` and
    /// `volatile_suffix`.
    #[error(
        "builder program {} printed malformed output: {reason}",
        shown(program)
    )]
    Malformed {
        /// The program as given.
        program: String,
        /// What is wrong with the output.
        reason: String,
    },
}

/// `program` in double quotes for an error line: control characters and
/// quotes escaped, backslashes kept (a Windows path reads as typed).
fn shown(program: &str) -> String {
    let mut out = String::with_capacity(program.len() + 2);
    out.push('"');
    for c in program.chars() {
        match c {
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Runs the builder command `cmd_line` in `cwd` with the bounds of SPEC §10.
///
/// The line is split into words by the platform's rules
/// ([`command_line::split`]) and run directly, with no shell. The program receives [`config_json`] on stdin, which is then
/// closed; its stderr passes through to ours.
pub fn run_builder(cmd_line: &str, cfg: &Config, cwd: &Path) -> Result<Layered, BuilderError> {
    run_builder_bounded(cmd_line, cfg, cwd, Bounds::BUILDER)
}

/// [`run_builder`] with explicit bounds.
///
/// Only the direct child is killed on timeout or oversize; a program that
/// leaves background processes holding its stdout is stopped at the
/// timeout all the same.
pub fn run_builder_bounded(
    cmd_line: &str,
    cfg: &Config,
    cwd: &Path,
    bounds: Bounds,
) -> Result<Layered, BuilderError> {
    let words = command_line::split(cmd_line)?;
    let Some((program, args)) = words.split_first() else {
        return Err(BuilderError::Empty);
    };
    let mut command = Command::new(program);
    command.args(args).current_dir(cwd).stderr(Stdio::inherit());
    let program = program.clone();
    let finished = run_bounded(command, Some(config_json(cfg)), bounds).map_err(|source| {
        if source.kind() == io::ErrorKind::NotFound {
            BuilderError::NotFound {
                program: program.clone(),
            }
        } else {
            BuilderError::Io {
                program: program.clone(),
                source,
            }
        }
    })?;
    match finished {
        Finished::Exited { status, stdout } if status.success() => {
            parse_output(&stdout).map_err(|reason| BuilderError::Malformed { program, reason })
        }
        Finished::Exited { status, .. } => Err(BuilderError::Failed { program, status }),
        Finished::TimedOut => Err(BuilderError::TimedOut {
            program,
            timeout: bounds.timeout,
        }),
        Finished::Oversize { .. } => Err(BuilderError::Oversize {
            program,
            limit: bounds.max_output,
        }),
    }
}

/// The configuration as the builder program receives it (SPEC §4.4a):
/// `{"role", "tone", "safety", "tools": [{"name", "description"}], "env":
/// {…}, "operator_profile": {"entries": [{"key", "value", "description",
/// "updated_at"}]}}`, with role, tone and safety as given (empty when the
/// caller left them to the default) and `updated_at` null when unknown.
pub fn config_json(cfg: &Config) -> Vec<u8> {
    #[derive(Serialize)]
    struct Wire<'a> {
        role: &'a str,
        tone: &'a str,
        safety: &'a str,
        tools: &'a [ToolSpec],
        env: &'a Env,
        operator_profile: WireProfile<'a>,
    }
    #[derive(Serialize)]
    struct WireProfile<'a> {
        entries: Vec<WireEntry<'a>>,
    }
    #[derive(Serialize)]
    struct WireEntry<'a> {
        key: &'a str,
        value: &'a str,
        description: &'a str,
        updated_at: Option<&'a str>,
    }
    let wire = Wire {
        role: &cfg.role,
        tone: &cfg.tone,
        safety: &cfg.safety,
        tools: &cfg.tools,
        env: &cfg.env,
        operator_profile: WireProfile {
            entries: cfg
                .operator_profile
                .entries
                .iter()
                .map(|entry| WireEntry {
                    key: &entry.key,
                    value: &entry.value,
                    description: &entry.description,
                    updated_at: entry.updated_at.as_deref(),
                })
                .collect(),
        },
    };
    // Serialising structs of strings into memory cannot fail: there are no
    // maps with non-string keys and no fallible Serialize impls.
    serde_json::to_vec(&wire).expect("serialising the builder config cannot fail")
}

/// Reads the builder's output: exactly one JSON object with string
/// `stable_prefix` and `volatile_suffix`; other keys are ignored.
fn parse_output(stdout: &[u8]) -> Result<Layered, String> {
    let value: Value =
        serde_json::from_slice(stdout).map_err(|err| format!("not one JSON value ({err})"))?;
    let Value::Object(object) = value else {
        return Err("not a JSON object".to_string());
    };
    let field = |name: &str| match object.get(name) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(_) => Err(format!("`{name}` is not a string")),
        None => Err(format!("`{name}` is missing")),
    };
    Ok(Layered {
        stable_prefix: field("stable_prefix")?,
        volatile_suffix: field("volatile_suffix")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::memory_index::MemoryEntry;
    use crate::prompt::operator_profile::OperatorProfileConfig;
    use std::fs;
    use std::time::Instant;

    const OUTPUT: &str = r#"{"stable_prefix":"P","volatile_suffix":"S","extra":[1]}"#;

    fn bounds(timeout_ms: u64, max_output: usize) -> Bounds {
        Bounds {
            timeout: Duration::from_millis(timeout_ms),
            max_output,
        }
    }

    /// Runs `cmd_line` in `dir` with a 5 s bound, generous for a loaded machine.
    fn run_in(dir: &Path, cmd_line: &str) -> Result<Layered, BuilderError> {
        run_builder_bounded(cmd_line, &Config::default(), dir, bounds(5_000, 1 << 20))
    }

    fn run(cmd_line: &str) -> Result<Layered, BuilderError> {
        run_in(&std::env::temp_dir(), cmd_line)
    }

    fn sample_config() -> Config {
        Config {
            role: "r".into(),
            tone: String::new(),
            safety: "s\n".into(),
            tools: vec![ToolSpec::new("Read", "Read a file.")],
            env: Env {
                cwd: "/w".into(),
                os: "linux".into(),
                model: "m".into(),
                date: "2026-05-29".into(),
                mode: "plan".into(),
                shell: "/bin/sh".into(),
                git_status: "branch: main".into(),
            },
            operator_profile: OperatorProfileConfig {
                entries: vec![
                    MemoryEntry {
                        key: "user/name".into(),
                        value: "Ada".into(),
                        description: "name".into(),
                        updated_at: Some("2026-01-01T00:00:00Z".into()),
                    },
                    MemoryEntry {
                        key: "user/editor".into(),
                        value: "vi".into(),
                        description: String::new(),
                        updated_at: None,
                    },
                ],
                max_entries: 5,
                ..OperatorProfileConfig::default()
            },
        }
    }

    #[test]
    fn config_json_has_the_documented_shape() {
        assert_eq!(
            String::from_utf8(config_json(&sample_config())).unwrap(),
            concat!(
                r#"{"role":"r","tone":"","safety":"s\n","#,
                r#""tools":[{"name":"Read","description":"Read a file."}],"#,
                r#""env":{"cwd":"/w","os":"linux","model":"m","date":"2026-05-29","#,
                r#""mode":"plan","shell":"/bin/sh","git_status":"branch: main"},"#,
                r#""operator_profile":{"entries":["#,
                r#"{"key":"user/name","value":"Ada","description":"name","updated_at":"2026-01-01T00:00:00Z"},"#,
                r#"{"key":"user/editor","value":"vi","description":"","updated_at":null}]}}"#
            )
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs sh on PATH")]
    fn the_program_gets_the_config_and_its_output_is_the_prompt() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("builder.sh"),
            format!("cat > received.json\npwd > cwd.txt\nprintf '%s' '{OUTPUT}'\n"),
        )
        .unwrap();
        let cfg = sample_config();
        let layered =
            run_builder_bounded("sh 'builder.sh'", &cfg, dir.path(), bounds(5_000, 1 << 20))
                .unwrap();
        assert_eq!(
            layered,
            Layered {
                stable_prefix: "P".into(),
                volatile_suffix: "S".into()
            }
        );
        assert_eq!(
            fs::read(dir.path().join("received.json")).unwrap(),
            config_json(&cfg)
        );
        let cwd = fs::read_to_string(dir.path().join("cwd.txt")).unwrap();
        assert_eq!(
            Path::new(cwd.trim_end()).canonicalize().unwrap(),
            dir.path().canonicalize().unwrap()
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs printf on PATH")]
    fn a_program_that_ignores_a_large_stdin_still_succeeds() {
        let cfg = Config {
            role: "x".repeat(4 << 20),
            ..Config::default()
        };
        let layered = run_builder_bounded(
            &format!("printf %s '{OUTPUT}'"),
            &cfg,
            &std::env::temp_dir(),
            bounds(5_000, 1 << 20),
        )
        .unwrap();
        assert_eq!(layered.stable_prefix, "P");
    }

    #[test]
    fn an_empty_command_is_rejected() {
        for line in ["", "   ", "\t\n"] {
            let err = run(line).unwrap_err();
            assert!(matches!(err, BuilderError::Empty), "{line:?}: {err:?}");
            assert_eq!(err.to_string(), "the builder command is empty");
        }
    }

    #[test]
    fn an_unclosed_quote_is_rejected() {
        // A double quote: unclosed, it is an error by both platforms' rules.
        let err = run("sh -c \"exit 0").unwrap_err();
        assert!(matches!(err, BuilderError::Split(_)), "{err:?}");
        assert_eq!(
            err.to_string(),
            "cannot split the builder command: missing closing quote"
        );
    }

    #[test]
    fn a_missing_program_is_named() {
        let err = run("mecatl-no-such-builder --flag").unwrap_err();
        assert!(matches!(err, BuilderError::NotFound { .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            "builder program \"mecatl-no-such-builder\" not found"
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs sh on PATH")]
    fn a_non_zero_exit_is_a_failure() {
        let err = run(&format!("sh -c 'printf %s \"$0\"; exit 3' '{OUTPUT}'")).unwrap_err();
        match &err {
            BuilderError::Failed { status, .. } => assert_eq!(status.code(), Some(3)),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            err.to_string(),
            "builder program \"sh\" failed (exit status: 3)"
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs sh on PATH")]
    fn a_slow_program_is_stopped_at_the_timeout() {
        let started = Instant::now();
        let err = run_builder_bounded(
            "sh -c 'exec sleep 5'",
            &Config::default(),
            &std::env::temp_dir(),
            bounds(200, 1024),
        )
        .unwrap_err();
        assert!(matches!(err, BuilderError::TimedOut { .. }), "{err:?}");
        assert!(started.elapsed() < Duration::from_secs(3));
        assert_eq!(
            err.to_string(),
            "builder program \"sh\" did not finish within 200ms and was stopped"
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs sh on PATH")]
    fn a_program_that_closes_stdout_but_keeps_running_is_stopped() {
        let started = Instant::now();
        let err = run_builder_bounded(
            &format!("sh -c 'printf %s \"$0\"; exec >&-; exec sleep 5' '{OUTPUT}'"),
            &Config::default(),
            &std::env::temp_dir(),
            bounds(200, 1024),
        )
        .unwrap_err();
        assert!(matches!(err, BuilderError::TimedOut { .. }), "{err:?}");
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs printf on PATH")]
    fn output_is_capped_at_exactly_the_limit() {
        let cmd_line = format!("printf %s '{OUTPUT}'");
        let cfg = Config::default();
        let dir = std::env::temp_dir();
        let at = run_builder_bounded(&cmd_line, &cfg, &dir, bounds(5_000, OUTPUT.len()));
        assert_eq!(at.unwrap().volatile_suffix, "S");
        let under = run_builder_bounded(&cmd_line, &cfg, &dir, bounds(5_000, OUTPUT.len() - 1));
        let err = under.unwrap_err();
        assert!(matches!(err, BuilderError::Oversize { limit, .. } if limit == OUTPUT.len() - 1));
        assert_eq!(
            err.to_string(),
            format!(
                "builder program \"printf\" printed more than {} bytes and was stopped",
                OUTPUT.len() - 1
            )
        );
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs sh on PATH")]
    fn an_endless_writer_is_stopped_at_the_cap() {
        let err = run_builder_bounded(
            "sh -c 'exec yes'",
            &Config::default(),
            &std::env::temp_dir(),
            bounds(5_000, 4096),
        )
        .unwrap_err();
        assert!(matches!(err, BuilderError::Oversize { .. }), "{err:?}");
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs printf on PATH")]
    fn malformed_output_is_described() {
        let cases = [
            (
                "not json",
                "not one JSON value (expected ident at line 1 column 2)",
            ),
            (
                "",
                "not one JSON value (EOF while parsing a value at line 1 column 0)",
            ),
            ("[]", "not a JSON object"),
            (r#"["P", "S"]"#, "not a JSON object"),
            (r#"{"volatile_suffix": ""}"#, "`stable_prefix` is missing"),
            (
                r#"{"stable_prefix": 1, "volatile_suffix": ""}"#,
                "`stable_prefix` is not a string",
            ),
            (
                r#"{"stable_prefix": "", "volatile_suffix": null}"#,
                "`volatile_suffix` is not a string",
            ),
            (
                r#"{"stable_prefix": "", "volatile_suffix": ""} {}"#,
                "not one JSON value (trailing characters at line 1 column 46)",
            ),
        ];
        for (output, reason) in cases {
            let err = run(&format!("printf %s '{output}'")).unwrap_err();
            match &err {
                BuilderError::Malformed { reason: found, .. } => {
                    assert_eq!(found, reason, "{output}")
                }
                other => panic!("{output}: {other:?}"),
            }
            assert!(!err.to_string().contains('\n'));
        }
    }

    #[test]
    #[cfg_attr(windows, ignore = "needs printf on PATH")]
    fn surrounding_whitespace_in_the_output_is_accepted() {
        let layered =
            run("printf '\\n  {\"stable_prefix\": \"a\", \"volatile_suffix\": \"\"}\\n'").unwrap();
        assert_eq!(layered.render(), "a");
    }
}
