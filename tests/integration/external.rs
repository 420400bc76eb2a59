//! External bots over the line protocol, through the real binary, with real scripts: what the
//! audit finds and reports of them, their names and commands, and playing one. Each way of
//! breaking the protocol is in `external_protocol.rs`; signals, pipes and stray processes in
//! `external_processes.rs`.

use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;

use crate::common;
use common::{assert_none_left, audit_command as audit, misbehave, pidfile, root};

#[test]
fn a_bot_that_never_loses() {
    let pids = pidfile("never");
    let minimax = format!("python3 {}", root().join("data/bots/minimax.py").display());
    audit(&["--cmd", &minimax, "--name", "minimax-py"], &pids)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("minimax-py"))
        .stdout(predicate::str::contains("never loses"));
}

#[test]
fn a_bot_that_can_lose_with_its_shortest_losing_game() {
    let pids = pidfile("first");
    let out = audit(
        &[
            "--cmd",
            &misbehave("first"),
            "--name",
            "first-empty",
            "--format",
            "json",
        ],
        &pids,
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bot = &v["bots"][0];
    assert_eq!(bot["bot"], "first-empty");
    let o = &bot["sides"][1];
    assert_eq!(o["never_loses"], false);
    assert_eq!(o["shortest_loss"], serde_json::json!([1, 2, 4, 3, 7]));
    assert_none_left(&pids);
}

#[test]
fn external_and_built_in_bots_share_one_table() {
    let pids = pidfile("table");
    audit(
        &["perfect", "--cmd", &misbehave("first"), "--side", "x"],
        &pids,
    )
    .assert()
    .code(1)
    .stdout(predicate::str::contains("perfect"))
    .stdout(predicate::str::contains("misbehave.py first"));
    assert_none_left(&pids);
}

#[test]
fn a_bot_that_answers_several_cells_is_explored_on_each() {
    let pids = pidfile("several");
    let out = audit(
        &[
            "--cmd",
            &misbehave("several"),
            "--side",
            "x",
            "--format",
            "json",
        ],
        &pids,
    )
    .output()
    .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let x = &v["bots"][0]["sides"][0];
    // The first request is answered "1 3 7 9": four equally likely openings.
    assert!(x["decision_points"].as_u64().unwrap() > 4 * 8);
    assert!(
        x["vs_random"]["exact"]["win"]
            .as_str()
            .unwrap()
            .contains('/')
    );
    assert_none_left(&pids);
}

#[test]
fn a_reply_naming_a_taken_cell_forfeits_that_game_only() {
    let pids = pidfile("taken");
    audit(&["--cmd", &misbehave("taken"), "--side", "o"], &pids)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "shortest forfeit: after 1 the bot played 1, which is taken",
        ));
    assert_none_left(&pids);
}

#[test]
fn a_bot_that_cannot_be_started() {
    let pids = pidfile("missing");
    audit(&["--cmd", "./no-such-bot --really"], &pids)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "it exited (exit code 127: the command was not found)",
        ));
}

#[test]
fn bad_external_arguments_are_usage_errors() {
    let pids = pidfile("usage");
    audit(&["--cmd", ""], &pids)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--cmd needs a command"));
    audit(&["--cmd", "true", "--name", "a", "--name", "b"], &pids)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("one name per external bot"));
    audit(&["--cmd", "true", "--name", " "], &pids)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--name needs a name"));
    audit(&["--cmd", "true", "--timeout-ms", "0"], &pids)
        .assert()
        .code(2);
    audit(&["--cmd", "true", "--timeout-ms", "soon"], &pids)
        .assert()
        .code(2);
}

#[test]
fn play_against_an_external_bot() {
    let minimax = format!(
        "cmd:python3 {}",
        root().join("data/bots/minimax.py").display()
    );
    let out = Command::new(crate::common::ttt())
        .args(["play", "--opponent", &minimax, "--seed", "1"])
        .write_stdin("1\n2\n3\n4\n5\n6\n7\n8\n9\n")
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    common::assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let result = text.lines().find(|l| l.starts_with("result: ")).unwrap();
    assert!(!result.starts_with("result: x_wins"), "{text}");
}

#[test]
fn a_protocol_error_keeps_what_was_proven() {
    let pids = pidfile("garbage-o");
    let out = audit(
        &[
            "perfect",
            "--cmd",
            &misbehave("garbage-o"),
            "--name",
            "half",
            "--cmd",
            &misbehave("first"),
            "--name",
            "next",
        ],
        &pids,
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() > 2
                && ["perfect", "half"].contains(&words[0])
                && ["X", "O"].contains(&words[1])
        })
        .collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(
        stdout.contains(
            "Not audited, after a protocol error (below): half as O, next as X, next as O."
        ),
        "{stdout}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("replied \"banana\""), "{stderr}");

    let out = audit(
        &[
            "perfect",
            "--cmd",
            &misbehave("garbage-o"),
            "--name",
            "half",
            "--format",
            "json",
        ],
        &pids,
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bots"].as_array().unwrap().len(), 2);
    assert_eq!(v["bots"][1]["sides"].as_array().unwrap().len(), 1);
    assert!(v["error"].as_str().unwrap().contains("banana"));
    assert_none_left(&pids);
}

#[test]
fn names_and_commands_cannot_drive_the_terminal() {
    let pids = pidfile("evil");
    let out = audit(
        &[
            "--cmd",
            &misbehave("first"),
            "--name",
            "evil\x1b[31mRED\nfake",
            "--side",
            "x",
        ],
        &pids,
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stdout.contains('\x1b'), "{stdout:?}");
    assert!(!stdout.contains("\nfake"), "{stdout:?}");
    assert!(stdout.contains("evil\\u{1b}[31mRED\\nfake"), "{stdout:?}");
    assert_eq!(
        stdout.lines().last(),
        Some("evil\\u{1b}[31mRED\\nfake can lose"),
        "the answer is on standard output, escaped"
    );
    assert_eq!(stderr, "");
    let out = audit(&["--cmd", "printf 'x\\n\\033[2J'; exit 5"], &pids)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    // A newline in the command cannot split the one-line error.
    let out = audit(&["--cmd", "exit 3\nfake line"], &pids)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(
        stderr.contains("external bot \"exit 3\\nfake line\""),
        "{stderr:?}"
    );
}

#[test]
fn a_panicking_caller_stops_its_bot() {
    use ttt_oracle::bots::{Bot, External};
    let pids = pidfile("panic");
    // The library does not take charge of orphans: the bot is the shell's direct child.
    let command = format!("TTT_TEST_PIDFILE={} {}", pids.display(), misbehave("first"));
    let caught = std::panic::catch_unwind(|| {
        let mut bot = External::new("first", command, Duration::from_secs(5));
        bot.choose(&ttt_oracle::History::new()).unwrap();
        panic!("the caller fails while the bot runs");
    });
    assert!(caught.is_err());
    assert_none_left(&pids);
}

#[test]
fn start_up_counts_from_the_start_whoever_reads_first() {
    // `cat` reads the request at once; the bot behind it starts a second later.
    let pids = pidfile("cat-front");
    let command = format!("cat | {{ sleep 1; exec {}; }}", misbehave("first"));
    audit(
        &[
            "--cmd",
            &command,
            "--timeout-ms",
            "300",
            "--startup-ms",
            "3000",
            "--side",
            "x",
        ],
        &pids,
    )
    .assert()
    .code(1)
    .stdout(predicate::str::contains("can lose"));
    assert_none_left(&pids);
}

#[test]
fn a_bots_unfinished_line_cannot_swallow_ttts_error() {
    let pids = pidfile("glued");
    let out = audit(
        &[
            "--cmd",
            "printf 'loading...' >&2; read x; echo banana",
            "--name",
            "glue",
            "--side",
            "x",
        ],
        &pids,
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.lines().any(|l| l == "[glue] loading..."), "{stderr}");
    assert!(
        stderr.lines().any(|l| l.starts_with("error: external bot")),
        "{stderr}"
    );
}
