//! External bots over the line protocol, through the real binary, with real scripts.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn misbehave(mode: &str) -> String {
    format!(
        "python3 {} {mode}",
        root().join("tests/bots/misbehave.py").display()
    )
}

/// A fresh file for the bot to write its process ids into.
fn pidfile(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("ttt-pids-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// Whether `pid` is a process still running (a zombie waiting to be reaped is not).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .chars()
                .next();
            !matches!(state, Some('Z') | Some('X'))
        }
        Err(_) => false,
    }
}

fn assert_none_left(pids: &Path) {
    let text = std::fs::read_to_string(pids).expect("the bot wrote its pid");
    let pids: Vec<u32> = text.lines().map(|l| l.parse().unwrap()).collect();
    assert!(!pids.is_empty());
    // The auditor has exited; give the kernel a moment to tear the processes down.
    let deadline = Instant::now() + Duration::from_secs(2);
    while pids.iter().any(|&p| running(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in pids {
        assert!(!running(pid), "bot process {pid} is still running");
    }
}

fn audit(args: &[&str], pids: &Path) -> Command {
    let mut cmd = Command::cargo_bin("ttt").unwrap();
    cmd.arg("audit")
        .args(args)
        .env("TTT_TEST_PIDFILE", pids)
        .current_dir(root());
    cmd.timeout(Duration::from_secs(60));
    cmd
}

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

/// Each way of breaking the protocol: exit code 3, the request, the reply, what was expected.
#[test]
fn protocol_breaches_stop_the_audit_with_exit_code_3() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        (
            "garbage",
            &[],
            &[
                "request \"......... X\"",
                "replied \"banana\"",
                "expected one or more cells 1..9",
            ],
        ),
        ("zero", &[], &["replied \"0\"", "\"0\" is not a cell"]),
        ("ten", &[], &["replied \"10\"", "\"10\" is not a cell"]),
        ("empty", &[], &["replied \"\"", "an empty line"]),
        (
            "sleep",
            &["--timeout-ms", "300"],
            &["no reply within 300 ms"],
        ),
        (
            "noflush",
            &["--timeout-ms", "300"],
            &["no reply within 300 ms", "flush"],
        ),
        ("exit", &[], &["it exited (exit code 4)"]),
    ];
    for (mode, extra, messages) in cases {
        let pids = pidfile(mode);
        let started = Instant::now();
        let mut args = vec!["--cmd".to_string(), misbehave(mode)];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut assert = audit(&args, &pids).assert().code(3);
        for message in *messages {
            assert = assert.stderr(predicate::str::contains(*message));
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{mode} took {:?}",
            started.elapsed()
        );
        assert_none_left(&pids);
    }
}

#[test]
fn a_bot_that_cannot_be_started() {
    let pids = pidfile("missing");
    audit(&["--cmd", "./no-such-bot --really"], &pids)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("the command was not found"))
        .stderr(predicate::str::contains("request \"......... X\""));
}

#[test]
fn a_bot_flooding_stderr_cannot_hang_the_audit() {
    let pids = pidfile("stderr");
    let out = audit(&["--cmd", &misbehave("stderr")], &pids)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "the first-empty bot loses, but the audit completes"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.len() > 1_000_000,
        "the bot's stderr reaches the user"
    );
    assert!(stderr.contains("thinking about request"));
    assert_none_left(&pids);
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
    let out = Command::cargo_bin("ttt")
        .unwrap()
        .args(["play", "--opponent", &minimax, "--seed", "1"])
        .write_stdin("1\n2\n3\n4\n5\n6\n7\n8\n9\n")
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let result = text.lines().find(|l| l.starts_with("result: ")).unwrap();
    assert!(!result.starts_with("result: x_wins"), "{text}");
}
