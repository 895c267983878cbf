//! Bad memory stores (SPEC §6.5): malformed, truncated, wrongly typed and
//! huge `memory.json`, and a `memory.lock` held by a writer. Each gives a
//! warning and no memory message; the rest of the turn-0 messages stay.

use std::fs::File;

use super::{sparse, trusted_json};
use crate::support::TestEnv;

fn assemble(env: &TestEnv) -> super::Outcome {
    trusted_json(env, &["assemble", "--memory-dir", "mem", "--no-user-model"])
}

/// Each bad `memory.json` and the reason its warning gives.
const BAD: [(&str, &str); 9] = [
    (
        "{\"entries\": {\"a\": {\"value\": \"x\"",
        "malformed: the JSON ends early (truncated) at line 1, column 31",
    ),
    (
        "{\"entries\": {",
        "malformed: the JSON ends early (truncated) at line 1, column 13",
    ),
    (
        "{\"entries\": {\"a\": {\"value\": 5}}}",
        "malformed: a value of the wrong type at line 1, column 29",
    ),
    (
        "{\"entries\": []}",
        "malformed: a value of the wrong type at line 1, column 12",
    ),
    (
        "{\"entries\": {\"a\": {\"updated_at\": 7}}}",
        "malformed: a value of the wrong type at line 1, column 34",
    ),
    (
        "{\"entries\": {\"a\": \"x\"}}",
        "malformed: a value of the wrong type at line 1, column 21",
    ),
    ("[1, 2]", "malformed: not a JSON object"),
    ("not json", "malformed: not a JSON object"),
    (
        "{\"entries\": {}} trailing",
        "malformed: invalid JSON at line 1, column 17",
    ),
];

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn malformed_truncated_and_wrongly_typed_stores_give_a_warning() {
    let env = TestEnv::new();
    env.write("AGENTS.md", "Still here.");
    for (content, reason) in BAD {
        env.write("mem/memory.json", content);
        let out = assemble(&env);
        out.assert_code(0);
        assert_eq!(out.messages().len(), 1, "{content}: only AGENTS.md");
        assert_eq!(
            out.problems(),
            [format!(
                "warning [ROOT]/ws/mem/memory.json: {reason}; no memory entries loaded"
            )],
            "{content}"
        );
    }
    // Absent, null and extra fields are fine.
    env.write(
        "mem/memory.json",
        "{\"version\": 3, \"entries\": {\"a\": {\"value\": null, \"description\": \"d\", \"x\": [1]}}, \"history\": {}}",
    );
    let out = assemble(&env);
    assert_eq!(out.problems(), Vec::<String>::new());
    assert!(
        out.message("memory")
            .contains("\n{\"key\":\"a\",\"description\":\"d\"}\n")
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_100_mib_store_is_refused_without_being_read() {
    let env = TestEnv::new();
    sparse(
        &env.ws.join("mem/memory.json"),
        b"{\"entries\": {}}",
        100 << 20,
    );
    let out = assemble(&env);
    out.assert_code(0);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/ws/mem/memory.json: 104857600 bytes, over the 8388608-byte limit; no memory entries loaded"
        ]
    );
}

#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_store_just_over_8_mib_is_refused_and_one_at_the_limit_is_read() {
    let env = TestEnv::new();
    let store = |len: usize| {
        let mut json = b"{\"entries\": {\"k\": {\"value\": \"v\"}}, \"pad\": \"".to_vec();
        json.resize(len - 2, b'x');
        json.extend_from_slice(b"\"}");
        env.write("mem/memory.json", json);
    };
    store(8 << 20);
    let out = assemble(&env);
    assert_eq!(out.problems(), Vec::<String>::new());
    assert!(
        out.message("memory")
            .contains("{\"key\":\"k\",\"description\":\"v\"}")
    );
    store((8 << 20) + 1);
    let out = assemble(&env);
    assert_eq!(out.messages(), []);
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/ws/mem/memory.json: 8388609 bytes, over the 8388608-byte limit; no memory entries loaded"
        ]
    );
}

/// This test waits out the 5 s lock bound once.
#[test]
#[cfg_attr(windows, ignore = "golden has Unix paths ([ROOT]/…)")]
fn a_lock_held_by_a_writer_is_waited_for_then_the_store_is_read() {
    let env = TestEnv::new();
    env.write(
        "mem/memory.json",
        "{\"entries\": {\"k\": {\"value\": \"v\", \"description\": \"d\"}}}",
    );
    // An exclusive flock(2) from this process: the binary's shared lock on
    // its own open file description conflicts with it until we drop it.
    let holder = File::create(env.ws.join("mem/memory.lock")).unwrap();
    holder.lock().unwrap();
    let out = assemble(&env);
    drop(holder);
    out.assert_code(0);
    assert!(
        out.message("memory")
            .contains("{\"key\":\"k\",\"description\":\"d\"}")
    );
    assert_eq!(
        out.problems(),
        [
            "warning [ROOT]/ws/mem/memory.lock: still locked by a writer after 5000 ms; reading the memory store without a lock"
        ]
    );
    // Unlocked, it is read without a word and the lock file is left alone.
    let out = assemble(&env);
    assert_eq!(out.problems(), Vec::<String>::new());
    assert_eq!(std::fs::read(env.ws.join("mem/memory.lock")).unwrap(), b"");
}
