//! The slash-command grammar and substitution (SPEC §5.1–§5.4): the input is
//! an invocation line, a NUL, then a command template. Never a panic; the
//! parsed name is valid and arguments are whitespace-free; no in-range `$N`
//! survives substitution unless an argument brought it; descriptions are
//! one capped line; rendering is bounded.
//!
//! Without a NUL the whole input is the invocation and the template uses
//! `$ARGUMENTS`, `$1` and `$2`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use mecatl_prompt::limits;
use mecatl_prompt::prompt::command::{
    description, parse_invocation, render, strip_frontmatter, substitute, valid_command_name,
};

/// True when `text` holds `$` then digits naming an argument in 1..=count.
fn has_in_range_positional(text: &str, count: usize) -> bool {
    text.split('$').skip(1).any(|after| {
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        let index = digits.trim_start_matches('0');
        !digits.is_empty()
            && index.len() < 20
            && index.parse::<usize>().is_ok_and(|n| n >= 1 && n <= count)
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (line, raw) = text.split_once('\0').unwrap_or((&text, "$ARGUMENTS $1 $2"));

    let args = match parse_invocation(line) {
        Some(invocation) => {
            assert!(valid_command_name(&invocation.name));
            for arg in &invocation.args {
                assert!(!arg.is_empty() && !arg.contains(char::is_whitespace));
            }
            invocation.args
        }
        None => line.split_whitespace().map(str::to_string).collect(),
    };

    let body = strip_frontmatter(raw);
    assert!(raw.ends_with(body));
    let out = substitute(body, &args);
    // An argument can bring a `$N` of its own, or complete one after a
    // literal `$` (`$$1` with a first argument `2` gives `$2`).
    let brought = args
        .iter()
        .any(|a| a.contains('$') || a.starts_with(|c: char| c.is_ascii_digit()));
    if !brought && !args.is_empty() {
        assert!(
            !has_in_range_positional(&out, args.len()),
            "unsubstituted positional in {out:?}"
        );
    }

    let described = description(raw);
    assert!(described.chars().count() <= limits::MAX_COMMAND_DESCRIPTION_CHARS);
    assert!(!described.contains(char::is_control));

    let post = (raw.len() % 3 == 0).then_some("post text ");
    let rendered = render(raw, &args, post);
    if let Some(limit) = rendered.truncated_at {
        let marker = format!("\n...[expansion truncated at {limit} bytes]");
        assert!(rendered.text.ends_with(&marker));
        assert!(rendered.text.len() - marker.len() <= limit);
    } else if post.is_none() {
        assert_eq!(rendered.text, out);
    }
});
