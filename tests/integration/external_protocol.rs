//! External bots that break the line protocol, through the real binary: each way of breaking
//! it (a bad reply, none in time, one too many, one too long, a flood), the exit code and the
//! message that says so, the timeouts for start-up and replies, and what the bot writes to its
//! standard error.

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;

use crate::common;
use common::{assert_none_left, audit_command as audit, misbehave, pidfile, root};

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
        ("zero", &[], &["replied \"0\", which is not a cell"]),
        ("ten", &[], &["replied \"10\", which is not a cell"]),
        ("empty", &[], &["replied \"\", an empty line"]),
        (
            "sleep",
            &["--timeout-ms", "300", "--startup-ms", "700"],
            &["no reply within 1000 ms of starting (--startup-ms 700 plus --timeout-ms 300)"],
        ),
        (
            "noflush",
            &["--timeout-ms", "300", "--startup-ms", "700"],
            &["no reply within 1000 ms", "flush"],
        ),
        ("exit", &[], &["it exited (exit code 4) without replying"]),
        ("plus", &[], &["replied \"+1\", which is not a cell"]),
    ];
    for (mode, extra, messages) in cases {
        hostile(mode, extra, 3, messages, Duration::from_secs(10));
    }
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

/// Runs `ttt audit` on one misbehaving bot; checks the exit code, that stderr says each of
/// `messages` in a short message (the last line of standard output says it when the audit
/// completes), the time taken, and that no bot process is left.
fn hostile(mode: &str, extra: &[&str], code: i32, messages: &[&str], within: Duration) -> String {
    let pids = pidfile(mode);
    let started = Instant::now();
    let mut args = vec!["--cmd".to_string(), misbehave(mode)];
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = audit(&args, &pids).output().unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{mode}: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let answer = match code {
        3 => stderr.as_str(),
        _ => stdout.lines().last().unwrap_or(""),
    };
    for message in messages {
        assert!(
            answer.contains(message),
            "{mode}: {answer:?} lacks {message:?}"
        );
    }
    assert!(
        stderr.len() < 1000,
        "{mode}: {} bytes of stderr",
        stderr.len()
    );
    assert!(elapsed < within, "{mode} took {elapsed:?}");
    assert_none_left(&pids);
    stderr
}

#[test]
fn a_bot_that_prints_each_reply_twice_breaks_the_protocol_and_is_not_judged() {
    // It never loses; its second lines must not be taken for answers to later requests.
    hostile(
        "twice",
        &[],
        3,
        &["(one line a request"],
        Duration::from_secs(10),
    );
}

#[test]
fn lines_nobody_asked_for_are_never_taken_as_answers() {
    // A debug line after each reply, a banner at start-up, a move announced before the
    // request is read: none of them answers a request, whatever the timing.
    for (mode, message) in [
        ("debug", "debug: chose"),
        ("banner", "Tic-tac-toe bot v1, ready"),
        ("early", "it printed \"5\" before reading the request"),
    ] {
        hostile(
            mode,
            &["--side", "x"],
            3,
            &[message],
            Duration::from_secs(10),
        );
    }
}

#[test]
fn a_bot_that_closes_its_input_is_reported_at_once() {
    let pids = pidfile("closein");
    let started = Instant::now();
    audit(
        &["--cmd", "exec 0<&-; exec sleep 30", "--timeout-ms", "20000"],
        &pids,
    )
    .assert()
    .code(3)
    .stderr(predicate::str::contains("it closed its standard input"))
    .stderr(predicate::str::contains("but is still running"));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let started = Instant::now();
    audit(
        &[
            "--cmd",
            "read x; echo 1; exec sleep 30",
            "--timeout-ms",
            "500",
        ],
        &pids,
    )
    .assert()
    .code(3)
    .stderr(predicate::str::contains(
        "no reply within 500 ms (--timeout-ms 500): it has not read the request",
    ));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn cmd_bots_among_the_names_take_the_timeouts_too() {
    let pids = pidfile("named");
    let started = Instant::now();
    let spec = format!("cmd:{}", misbehave("sleep"));
    audit(
        &[&spec, "--timeout-ms", "300", "--startup-ms", "500"],
        &pids,
    )
    .assert()
    .code(3)
    .stderr(predicate::str::contains(
        "(--startup-ms 500 plus --timeout-ms 300)",
    ));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_none_left(&pids);
}

#[test]
fn the_longest_reply_may_end_in_crlf() {
    let pids = pidfile("crlf");
    audit(&["--cmd", &misbehave("crlf")], &pids)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("never loses"));
    assert_none_left(&pids);
}

#[test]
fn a_bots_standard_error_is_relayed_escaped_and_cannot_change_the_verdict() {
    // Its standard error is ttt's, relayed: a reader that goes away (`2>&1 >/dev/null | head
    // -1`, standard error alone in the pipe, so the report is written whole) must not kill
    // the bot through a broken pipe and turn "never loses" into a protocol error.
    let pids = pidfile("chatty");
    let script = format!(
        // Time to spare for a Python bot on a loaded machine: the test is of the pipe.
        "\"$TTT\" audit --timeout-ms 20000 --startup-ms 20000 --cmd '{}' 2>&1 >/dev/null \
         | head -1 >/dev/null; exit ${{PIPESTATUS[0]}}",
        misbehave("chatty")
    );
    for _ in 0..3 {
        let out = shell("bash", &script, Some(&pids), "");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_none_left(&pids);
    let out = audit(
        &[
            "--cmd",
            "printf 'a\\033[2Jb\\n' >&2; exec sleep 5",
            "--timeout-ms",
            "200",
        ],
        &pids,
    )
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("a\\u{1b}[2Jb\n"), "{stderr:?}");
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
}

#[test]
fn trailing_spaces_within_the_limit_are_fine() {
    let pids = pidfile("trailing");
    audit(&["--cmd", &misbehave("trailing")], &pids)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("never loses"));
    assert_none_left(&pids);
}

#[test]
fn a_reply_past_the_length_limit_breaks_the_protocol() {
    for mode in ["long", "unended"] {
        hostile(
            mode,
            &[],
            3,
            &["longer than the limit of 4096 bytes"],
            Duration::from_secs(10),
        );
    }
}

#[test]
fn a_bot_that_stops_reading_is_caught_by_the_timeout() {
    hostile(
        "noread",
        &["--timeout-ms", "300", "--side", "x"],
        3,
        &["before reading the request", "(one line a request"],
        Duration::from_secs(10),
    );
}

#[test]
fn a_bot_that_reads_one_line_then_sleeps() {
    hostile(
        "readone",
        &["--timeout-ms", "300", "--startup-ms", "2000"],
        3,
        &[
            "no reply within 2300 ms of starting (--startup-ms 2000 plus --timeout-ms 300): \
             it read the request but printed nothing",
        ],
        Duration::from_secs(5),
    );
}

#[test]
fn a_bot_that_closes_its_output_is_reported_at_once() {
    hostile(
        "closeout",
        &["--timeout-ms", "30000"],
        3,
        &["it closed its standard output without replying, but is still running"],
        Duration::from_secs(5),
    );
}

#[test]
fn a_line_after_the_last_reply_breaks_the_protocol() {
    hostile(
        "late",
        &["--side", "x"],
        3,
        &[
            "it printed \"bye\" when no request was waiting",
            "after its reply to request",
        ],
        Duration::from_secs(10),
    );
}

#[test]
fn start_up_has_an_allowance_of_its_own() {
    // It takes 1.5 s to start, then plays the first empty cell (and can lose).
    hostile(
        "slowstart",
        &["--timeout-ms", "300", "--side", "x"],
        1,
        &["can lose"],
        Duration::from_secs(10),
    );
    hostile(
        "slowstart",
        &["--timeout-ms", "300", "--startup-ms", "800", "--side", "x"],
        3,
        &[
            "it did not read its first request within 1100 ms of starting (--startup-ms 800 plus --timeout-ms 300)",
        ],
        Duration::from_secs(10),
    );
}

/// Runs `ttt` under `sh` with its address space limited, so that unbounded growth would fail.
fn bounded(args: &str, stdin: &str) -> std::process::Output {
    let started = Instant::now();
    let out = shell(
        "sh",
        &format!("ulimit -v 400000; exec \"$TTT\" {args}"),
        None,
        stdin,
    );
    assert!(started.elapsed() < Duration::from_secs(10), "{args}");
    out
}

/// Runs `script` with `shell -c` from the repository's root, `$TTT` naming the built `ttt`
/// and the bots writing their pids to `pids`, if given; at most 30 seconds.
fn shell(shell: &str, script: &str, pids: Option<&Path>, stdin: &str) -> std::process::Output {
    let mut command = Command::new(shell);
    command
        .args(["-c", script])
        .env("TTT", crate::common::ttt())
        .current_dir(root())
        .write_stdin(stdin)
        .timeout(Duration::from_secs(30));
    if let Some(pids) = pids {
        command.env("TTT_TEST_PIDFILE", pids);
    }
    command.output().unwrap()
}

#[test]
fn a_flood_of_output_stays_bounded_and_is_refused() {
    let out = bounded("audit --cmd 'yes \"1 2 3 4 5 6 7 8 9\"' --side x", "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("(one line a request"), "{stderr}");
    let out = bounded("play --as o --opponent 'cmd:yes 5'", "5\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("(one line a request"), "{stderr}");
}

#[test]
fn descendants_that_leave_the_group_are_stopped() {
    // Both leave something holding ttt's standard error: `output()` waits for every holder
    // of the pipe to let go, so it would hang for a minute if one survived.
    for mode in ["setsid", "daemon"] {
        let stderr = hostile(
            mode,
            &["--side", "x"],
            1,
            &["can lose"],
            Duration::from_secs(10),
        );
        assert!(!stderr.contains("protocol"), "{stderr}");
    }
}

#[test]
fn a_protocol_error_is_told_even_when_the_report_cannot_be_written() {
    let pids = pidfile("full");
    let script = format!(
        "exec \"$TTT\" audit --cmd '{}' > /dev/full",
        misbehave("garbage-o")
    );
    let out = shell("sh", &script, Some(&pids), "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert_eq!(
        stderr.matches("No space left on device").count(),
        1,
        "said once: {stderr}"
    );
    assert!(stderr.contains("replied \"banana\""), "{stderr}");
    assert_none_left(&pids);
}
