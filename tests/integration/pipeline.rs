//! Asking external bots fast: requests written ahead of the replies, a stateless bot asked once
//! a board, both sides audited at once. None of it may change what is asked, in what order, or
//! the report; and a hostile bot is caught as before.

use crate::common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use common::{assert_none_left, misbehave, pidfile, root};

/// A prefix for the request logs of one run's bot processes (one file each), removed after.
struct Logs(PathBuf);

impl Logs {
    fn new(name: &str) -> Logs {
        let logs = Logs(crate::common::scratch("ttt-log", name));
        logs.clear();
        logs
    }

    /// The files written, each process's requests as lines.
    fn read(&self) -> Vec<Vec<String>> {
        let mut logs: Vec<Vec<String>> = self
            .files()
            .iter()
            .map(|file| {
                let text = std::fs::read_to_string(file).unwrap();
                text.lines().map(str::to_string).collect()
            })
            .collect();
        // X's process first: its first request is the empty board.
        logs.sort_by_key(|log| !log[0].starts_with("......... X"));
        logs
    }

    fn files(&self) -> Vec<PathBuf> {
        let dir = self.0.parent().unwrap();
        let prefix = format!("{}.", self.0.file_name().unwrap().to_string_lossy());
        std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| {
                path.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(&prefix)
            })
            .collect()
    }

    fn clear(&self) {
        for file in self.files() {
            let _ = std::fs::remove_file(file);
        }
    }
}

impl Drop for Logs {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The JSON report of auditing the logging bot with `extra` options, and the requests each of
/// its processes was sent, X's first: the audit's alone, without the re-ask one request at a
/// time (`--recheck 0`), which `tests/integration/recheck.rs` follows.
fn logged(name: &str, extra: &[&str]) -> (String, Vec<Vec<String>>) {
    let logs = Logs::new(name);
    let pids = pidfile(name);
    let out = Command::new(crate::common::ttt())
        .args(["audit", "--format", "json", "--cmd", &misbehave("log")])
        .args(["--recheck", "0"])
        .args(extra)
        .env("TTT_TEST_LOG", &logs.0)
        .env("TTT_TEST_PIDFILE", &pids)
        .current_dir(root())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_none_left(&pids);
    (String::from_utf8(out.stdout).unwrap(), logs.read())
}

#[test]
fn writing_ahead_changes_neither_the_requests_nor_their_order_nor_the_report() {
    let (report, requests) = logged("one", &["--in-flight", "1", "--jobs", "1"]);
    assert_eq!(requests.len(), 2, "one process a side");
    // Every optimal cell explored: far more than one request a position.
    assert!(requests[0].len() + requests[1].len() > 10_000);
    for (name, extra) in [
        ("three", &["--in-flight", "3", "--jobs", "1"][..]),
        ("default", &["--jobs", "1"][..]),
        ("both-at-once", &["--jobs", "2"][..]),
    ] {
        let (other_report, other_requests) = logged(name, extra);
        assert_eq!(other_report, report, "{name}");
        assert!(other_requests == requests, "{name}: other requests");
    }
}

#[test]
fn a_stateless_bot_is_asked_each_board_once_for_the_same_report() {
    let (report, requests) = logged("histories", &[]);
    let (stateless_report, stateless_requests) = logged("stateless", &["--stateless"]);
    assert_eq!(stateless_report, report);
    for (side, (all, once)) in requests.iter().zip(&stateless_requests).enumerate() {
        let board = |request: &String| request[..9].to_string();
        let boards: std::collections::BTreeSet<String> = all.iter().map(board).collect();
        let asked: Vec<String> = once.iter().map(board).collect();
        let distinct: std::collections::BTreeSet<String> = asked.iter().cloned().collect();
        assert_eq!(
            distinct.len(),
            asked.len(),
            "side {side}: a board asked twice"
        );
        assert_eq!(distinct, boards, "side {side}: the same boards");
        // Each with the moves of a game that reaches it.
        for request in once {
            assert!(all.contains(request), "{request}");
        }
        assert!(
            asked.len() * 3 < all.len(),
            "side {side}: {} of {}",
            asked.len(),
            all.len()
        );
    }
}

/// Audits the misbehaving bot `mode` with `extra` options: its exit code and standard error,
/// after checking it took less than `within` and left no process behind.
fn hostile(mode: &str, extra: &[&str], within: Duration) -> (Option<i32>, String) {
    let pids = pidfile(mode);
    let started = Instant::now();
    let out = Command::new(crate::common::ttt())
        .args(["audit", "--cmd", &misbehave(mode)])
        .args(extra)
        .env("TTT_TEST_PIDFILE", &pids)
        .current_dir(root())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    assert!(elapsed < within, "{mode} took {elapsed:?}");
    assert_none_left(&pids);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn second_lines_are_never_taken_for_answers_to_requests_written_ahead() {
    // As O the first ply asks nine boards at once: the bot reads them all before it answers.
    let (code, stderr) = hostile("twice", &["--side", "o"], Duration::from_secs(10));
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("broke the protocol"), "{stderr}");
    assert!(stderr.contains("one line a request"), "{stderr}");
}

#[test]
fn a_bot_that_answers_only_once_the_next_request_comes_is_caught() {
    // Its replies arrive in order, but the last of each batch never does.
    for side in ["x", "o"] {
        let (code, stderr) = hostile(
            "behind",
            &[
                "--side",
                side,
                "--timeout-ms",
                "300",
                "--startup-ms",
                "1500",
            ],
            Duration::from_secs(10),
        );
        assert_eq!(code, Some(3), "{side}: {stderr}");
        assert!(stderr.contains("no reply within"), "{side}: {stderr}");
        assert!(stderr.contains("it read the request"), "{side}: {stderr}");
        // As O the first batch holds nine requests: the reply missing may be any of theirs.
        let hint = "--in-flight 1 names it exactly";
        assert_eq!(stderr.contains(hint), side == "o", "{side}: {stderr}");
    }
}

#[test]
fn when_x_breaks_the_protocol_the_o_side_beside_it_stops_at_once() {
    // O takes 0.3 s a request: its whole audit would take minutes.
    let (code, stderr) = hostile("garbage-x-slow-o", &["--jobs", "2"], Duration::from_secs(5));
    assert_eq!(code, Some(3), "{stderr}");
    assert!(stderr.contains("\"banana\""), "{stderr}");
    assert!(!stderr.contains("cancelled"), "{stderr}");
}

#[test]
fn stateless_without_an_external_bot_is_a_usage_error() {
    for command in ["audit", "match"] {
        let out = Command::new(crate::common::ttt())
            .args([command, "perfect", "random", "--stateless"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--stateless is said of external bots"),
            "{stderr}"
        );
    }
}
