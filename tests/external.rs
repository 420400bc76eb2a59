//! External bots over the line protocol, through the real binary, with real scripts.

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;

mod common;
use common::{assert_none_left, misbehave, pidfile, root};

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
            &["--timeout-ms", "300", "--startup-ms", "700"],
            &["no reply within 1000 ms"],
        ),
        (
            "noflush",
            &["--timeout-ms", "300", "--startup-ms", "700"],
            &["no reply within 1000 ms", "flush"],
        ),
        ("exit", &[], &["it exited (exit code 4) without replying"]),
        ("plus", &[], &["replied \"+1\"", "\"+1\" is not a cell"]),
    ];
    for (mode, extra, messages) in cases {
        hostile(mode, extra, 3, messages, Duration::from_secs(10));
    }
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
    let out = Command::cargo_bin("ttt")
        .unwrap()
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
        "no reply within 500 ms: it has not read the request",
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
        "(500 ms for start-up plus 300 ms for the reply)",
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
    // Its standard error is ttt's, relayed: a reader that goes away (`2>&1 | head -1`) must
    // not kill the bot through a broken pipe and turn "never loses" into a protocol error.
    let pids = pidfile("chatty");
    let script = format!(
        "\"$TTT\" audit --cmd '{}' 2>&1 | head -1 >/dev/null; exit ${{PIPESTATUS[0]}}",
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
            "no reply within 2300 ms of starting (2000 ms for start-up plus 300 ms for the reply): \
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
            "it did not read its first request within 1100 ms of starting (800 ms for start-up plus 300 ms for the reply)",
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
        .env("TTT", assert_cmd::cargo::cargo_bin("ttt"))
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

/// Starts `ttt audit` on `bots`, waits until the bot processes wrote `count` pids, and
/// returns the running child.
fn start_audit(bots: &[&str], pids: &Path, count: usize) -> std::process::Child {
    let mut args = vec!["audit".to_string()];
    for bot in bots {
        args.push("--cmd".to_string());
        args.push(misbehave(bot));
    }
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ttt"))
        .args(&args)
        .env("TTT_TEST_PIDFILE", pids)
        .current_dir(root())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::fs::read_to_string(pids).map_or(0, |t| t.lines().count()) < count {
        assert!(Instant::now() < deadline, "the bots did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

/// Starts `ttt` with `args` and the pid file, standard output and error piped.
fn spawn_ttt(args: &[&str], pids: &Path) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("ttt"))
        .args(args)
        .env("TTT_TEST_PIDFILE", pids)
        .current_dir(root())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits up to `within` for `child` to end.
fn ended(child: &mut std::process::Child, within: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "ttt is still running");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn signals_to_ttt_stop_every_bot_and_what_it_started() {
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
        let pids = pidfile(&format!("signal-{signal}"));
        // "setsid" leaves a process in a session of its own; "slow" keeps the audit busy.
        let mut child = start_audit(&["setsid", "slow"], &pids, 2);
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
        unsafe {
            libc::kill(child.id() as libc::pid_t, signal);
        }
        let status = ended(&mut child, Duration::from_secs(3));
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_none_left(&pids);
    }
}

#[test]
fn signals_during_play_stop_the_bot() {
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let pids = pidfile(&format!("play-{signal}"));
        // The bot moves first, then ttt waits for the human, whose input stays open.
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ttt"))
            .args(["play", "--as", "o", "--opponent"])
            .arg(format!("cmd:{}", misbehave("setsid")))
            .env("TTT_TEST_PIDFILE", &pids)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::fs::read_to_string(&pids).map_or(0, |t| t.lines().count()) < 2 {
            assert!(Instant::now() < deadline, "the bot did not start");
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(200));
        // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
        unsafe {
            libc::kill(child.id() as libc::pid_t, signal);
        }
        let status = ended(&mut child, Duration::from_secs(3));
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_none_left(&pids);
    }
}

#[test]
fn ttt_under_timeout_leaves_nothing_behind() {
    let pids = pidfile("timeout");
    let out = Command::new("timeout")
        .arg("1")
        .arg(assert_cmd::cargo::cargo_bin("ttt"))
        .args(["audit", "--cmd", &misbehave("slow")])
        .env("TTT_TEST_PIDFILE", &pids)
        .timeout(Duration::from_secs(10))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(124));
    assert_none_left(&pids);
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

/// A reader that goes away must not change the exit code, which is the answer.
#[test]
fn a_closed_standard_output_keeps_the_exit_code() {
    for bots in [
        &["random"][..],
        &["smartbot", "random", "forkbot", "marcelo"][..],
    ] {
        for _ in 0..3 {
            let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ttt"))
                .arg("audit")
                .args(bots)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let mut stdout = child.stdout.take().unwrap();
            if bots.len() > 1 {
                // Like `| head -1`: read a little, then go away.
                let mut first = [0u8; 64];
                let _ = std::io::Read::read(&mut stdout, &mut first);
            }
            drop(stdout);
            let status = ended(&mut child, Duration::from_secs(30));
            assert_eq!(status.code(), Some(1), "{bots:?}");
        }
    }
}

#[test]
fn a_standard_error_nobody_reads_cannot_stall_the_bot() {
    // ttt's standard error is a pipe nobody reads until the end: the bot writes far more than
    // a pipe holds to its own, and must neither wait nor be judged for it.
    let pids = pidfile("chatty-unread");
    let mut child = spawn_ttt(
        &[
            "audit",
            "--timeout-ms",
            "1000",
            "--cmd",
            &misbehave("chatty"),
        ],
        &pids,
    );
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    let status = ended(&mut child, Duration::from_secs(30));
    assert_eq!(status.code(), Some(0), "{stdout}");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(
        stderr.starts_with("[python3 "),
        "{}",
        &stderr[..200.min(stderr.len())]
    );
    assert_none_left(&pids);
}

#[test]
fn time_ttt_spends_stopped_is_not_the_bots() {
    // Ctrl-Z and fg: ttt is stopped longer than the timeout, then continued.
    let pids = pidfile("stopped");
    let mut child = spawn_ttt(
        &[
            "audit",
            "--timeout-ms",
            "1000",
            "--cmd",
            &misbehave("trailing"),
        ],
        &pids,
    );
    std::thread::sleep(Duration::from_millis(400));
    for _ in 0..2 {
        // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGSTOP);
        }
        std::thread::sleep(Duration::from_millis(1500));
        // SAFETY: as above.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGCONT);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = ended(&mut child, Duration::from_secs(30));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_none_left(&pids);
}

#[test]
fn a_signal_between_two_sides_ends_ttt_by_that_signal() {
    use std::os::unix::process::ExitStatusExt;
    for _ in 0..3 {
        let pids = pidfile("killparent");
        let mut child = spawn_ttt(&["audit", "--cmd", &misbehave("killparent")], &pids);
        let status = ended(&mut child, Duration::from_secs(20));
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?} {stderr}");
        assert!(!stderr.contains("protocol"), "{stderr}");
        assert_none_left(&pids);
    }
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
fn a_protocol_error_is_told_even_when_the_report_cannot_be_written() {
    let pids = pidfile("full");
    let script = format!(
        "exec \"$TTT\" audit --cmd '{}' > /dev/full",
        misbehave("garbage-o")
    );
    let out = shell("sh", &script, Some(&pids), "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(stderr.contains("replied \"banana\""), "{stderr}");
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
