//! Asking an external bot again one request at a time after its audit, through the real binary
//! and a real bot (`tests/bots/audit_aware.py`) that plays perfectly only when it sees its
//! requests queued, as they are in an audit: it is caught, in text and JSON, however the audit
//! asked; an honest bot passes; `--recheck 0` is the audit as it was; a bot that breaks the
//! protocol when asked again is a protocol error, a signal then stops it, and no process is
//! left behind.

use std::os::unix::process::ExitStatusExt;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common;
use common::{assert_none_left, audit_command, pidfile, root, wait_for_pids};

fn aware(mode: &str) -> String {
    format!(
        "python3 {} {mode}",
        root().join("tests/bots/audit_aware.py").display()
    )
}

/// `ttt audit --cmd BOT --name aware ARGS`: exit code, standard output, standard error; every
/// process of the bot gone.
fn audit(bot: &str, args: &[&str], name: &str) -> (i32, String, String) {
    let pids = pidfile(name);
    let mut all = vec!["--cmd", bot, "--name", "aware"];
    all.extend(args);
    let out = audit_command(&all, &pids).output().unwrap();
    assert_none_left(&pids);
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The cells of a JSON array, as numbers.
fn cells(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect()
}

#[test]
fn a_bot_that_plays_well_only_when_it_sees_requests_queued_is_caught() {
    for (name, args) in [
        ("default", &[][..]),
        ("jobs-1", &["--jobs", "1"]),
        ("stateless", &["--stateless"]),
        ("in-flight-2", &["--in-flight", "2"]),
    ] {
        let (code, text, stderr) = audit(&aware("queue"), args, name);
        assert_eq!(code, 1, "{name}: {stderr}");
        let last = text.lines().last().unwrap();
        assert_eq!(
            last, "aware answers differently when asked one at a time",
            "{name}"
        );
        for side in ["X", "O"] {
            assert!(
                text.contains(&format!("aware as {side}: answers differently")),
                "{name}: {text}"
            );
        }
        // The position drawn, both answers, and how to replay it.
        assert!(text.contains("it answered differently"), "{name}: {text}");
        assert!(text.contains("---+---+---"), "{name}");
        let recorded = text.lines().find(|l| l.contains("in the audit:")).unwrap();
        let alone = text.lines().find(|l| l.contains("one at a time:")).unwrap();
        let cell = |line: &str| line.split_whitespace().last().unwrap().to_string();
        assert_ne!(cell(recorded), cell(alone), "{name}");
        assert!(text.contains("replay: ttt analyze --moves"), "{name}");
        assert!(
            text.lines()
                .all(|l| l.chars().count() <= 100 && l.trim_end() == l),
            "{name}"
        );

        let mut json_args = args.to_vec();
        json_args.extend(["--format", "json"]);
        let (code, json, _) = audit(&aware("queue"), &json_args, &format!("{name}-json"));
        assert_eq!(code, 1, "{name}");
        let v: Value = serde_json::from_str(&json).unwrap();
        for side in v["bots"][0]["sides"].as_array().unwrap() {
            assert_eq!(side["verdict"], "answers_differently", "{name}");
            assert_eq!(side["never_loses"], false, "{name}");
            let recheck = &side["recheck"];
            assert!(recheck["games"].as_u64().unwrap() >= 1, "{name}");
            assert!(recheck["requests"].as_u64().unwrap() >= 1, "{name}");
            let difference = &recheck["difference"];
            assert_ne!(cells(&difference["recorded"]), cells(&difference["alone"]));
            // Where it differed: the bot's turn, after legal moves.
            let moves = cells(&difference["moves"]);
            let to_move = if moves.len() % 2 == 0 { "X" } else { "O" };
            assert_eq!(side["side"], to_move, "{name}");
            assert!(moves.iter().all(|&c| (1..=9).contains(&c)));
        }
    }
}

#[test]
fn recheck_0_gives_the_audit_as_it_was() {
    let (code, text, _) = audit(&aware("queue"), &["--recheck", "0"], "off");
    assert_eq!(code, 0, "{text}");
    assert_eq!(text.lines().last(), Some("aware never loses"));
    assert!(!text.contains("asked again"));
    let (code, json, _) = audit(
        &aware("queue"),
        &["--recheck", "0", "--format", "json"],
        "off-json",
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).unwrap();
    for side in v["bots"][0]["sides"].as_array().unwrap() {
        assert_eq!(side["verdict"], "never_loses");
        assert!(side["recheck"].is_null());
    }
}

#[test]
fn an_honest_bot_answers_the_same_and_passes() {
    // Each noting its process id, as the shell it starts in becomes it.
    let minimax = "echo $$ >> \"$TTT_TEST_PIDFILE\"; exec python3 data/bots/minimax.py";
    let (code, text, stderr) = audit(minimax, &[], "honest");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(text.lines().last(), Some("aware never loses"));
    assert_eq!(
        text.matches("asked again one at a time (").count(),
        2,
        "{text}"
    );
    assert!(text.contains("the same answers"));
    let (code, json, _) = audit(
        minimax,
        &["--format", "json", "--recheck", "3"],
        "honest-json",
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).unwrap();
    for side in v["bots"][0]["sides"].as_array().unwrap() {
        assert_eq!(side["verdict"], "never_loses");
        // No loss, no forfeit: the 3 games drawn alone.
        assert_eq!(side["recheck"]["games"], 3);
        assert!(side["recheck"]["difference"].is_null());
    }

    // A bot that can lose is asked along its shortest loss first, and answers the same.
    let perl = "echo $$ >> \"$TTT_TEST_PIDFILE\"; exec perl data/bots/centre_win_block.pl";
    let (code, json, _) = audit(perl, &["--format", "json", "--recheck", "1"], "loses");
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&json).unwrap();
    for side in v["bots"][0]["sides"].as_array().unwrap() {
        assert_eq!(side["verdict"], "can_lose");
        assert_eq!(side["recheck"]["games"], 2);
        assert!(side["recheck"]["difference"].is_null());
    }
}

#[test]
fn a_stateless_bot_whose_answer_depends_on_the_moves_is_caught() {
    // Honest about its answers, which are all optimal: audited by histories, it never loses.
    let slow = ["--timeout-ms", "20000", "--startup-ms", "20000"];
    let (code, _, stderr) = audit(&aware("history"), &slow, "history");
    assert_eq!(code, 0, "{stderr}");
    // Declared stateless, it is asked each board once in the audit; asked again along whole
    // games, it answers another way after another history.
    // A seed given, so that the games drawn are ones that show it; time to spare for a Python
    // minimax on a loaded machine.
    let (code, text, stderr) = audit(
        &aware("history"),
        &[
            "--stateless",
            "--recheck-seed",
            "1",
            "--timeout-ms",
            "20000",
            "--startup-ms",
            "20000",
        ],
        "history-stateless",
    );
    assert_eq!(code, 1, "{text}{stderr}");
    assert!(text.contains("answers differently"), "{text}");
}

#[test]
fn the_games_drawn_are_fresh_each_audit_unless_a_seed_is_given() {
    // A bot that learned one audit's sample must not meet it again: the seed is drawn afresh,
    // and given back, so that the same games can be asked again on purpose.
    let perl = "echo $$ >> \"$TTT_TEST_PIDFILE\"; exec perl data/bots/centre_win_block.pl";
    let recheck = |args: &[&str]| {
        let mut all = vec!["--format", "json", "--side", "o"];
        all.extend_from_slice(args);
        let (_, json, _) = audit(perl, &all, "seeded");
        let json: Value = serde_json::from_str(&json).unwrap();
        json["bots"][0]["sides"][0]["recheck"].clone()
    };
    let (first, second) = (recheck(&[]), recheck(&[]));
    assert_ne!(first["seed"], second["seed"], "{first} {second}");
    let seed = first["seed"].as_u64().unwrap().to_string();
    let again = recheck(&["--recheck-seed", &seed]);
    assert_eq!(again, first);
}

#[test]
fn other_games_are_asked_again_too() {
    let (code, text, _) = audit(&aware("queue"), &["--game", "3x4", "--side", "x"], "3x4");
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("aware as X: answers differently"), "{text}");
    assert!(
        text.contains("replay: ttt analyze --game 3x4 --moves"),
        "{text}"
    );
}

#[test]
fn a_bot_that_breaks_the_protocol_when_asked_again_is_a_protocol_error() {
    let (code, text, stderr) = audit(&aware("crash"), &[], "crash");
    assert_eq!(code, 3, "{text}");
    assert!(
        stderr.contains("when asked again one request at a time")
            && stderr.contains("it exited (exit code 5)"),
        "{stderr}"
    );
    let started = Instant::now();
    let (code, _, stderr) = audit(&aware("hang"), &["--timeout-ms", "300"], "hang");
    assert_eq!(code, 3);
    assert!(
        stderr.contains("when asked again one request at a time")
            && stderr.contains("no reply within 300 ms (--timeout-ms 300)"),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn among_other_bots_the_last_line_names_it_before_the_rest() {
    let (code, text, _) = audit(&aware("queue"), &["smartbot", "perfect"], "among");
    assert_eq!(code, 1);
    assert_eq!(
        text.lines().last(),
        Some("aware answers differently when asked one at a time; 1 of 3 bots can lose: smartbot")
    );
}

#[test]
fn a_signal_while_the_bot_is_asked_again_stops_it() {
    let pids = pidfile("signal");
    let bot = aware("hang");
    let mut child = std::process::Command::new(crate::common::ttt())
        .args([
            "audit",
            "--side",
            "x",
            "--timeout-ms",
            "20000",
            "--cmd",
            &bot,
        ])
        .env("TTT_TEST_PIDFILE", &pids)
        .current_dir(root())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The audit's process, then the one asked again, which hangs at its second request.
    wait_for_pids(&pids, 2, Duration::from_secs(20), "the re-ask");
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill(2) on the pid of a child this test started and has not reaped.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
    assert_none_left(&pids);
}

#[test]
fn recheck_with_nothing_to_re_ask_is_refused_not_ignored() {
    let pids = pidfile("refused");
    for (args, message) in [
        (
            &["random", "--recheck", "3"][..],
            "--recheck is for re-asking external bots (--cmd)",
        ),
        (
            &["perfect", "--recheck-seed", "7"],
            "--recheck-seed is for re-asking external bots (--cmd)",
        ),
        (
            &["--cmd", "cat", "--game", "5x5", "--recheck", "3"],
            "5x5 has no table solved yet: make one with `ttt solve --game 5x5`",
        ),
        (
            &["--cmd", "cat", "--game", "6x6", "--recheck", "3"],
            "6x6 has 36 cells: tables stop at 16, or 25 solved by `ttt solve`",
        ),
    ] {
        let out = audit_command(args, &pids).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // 0 asks nothing again: said to a built-in bot, it is not an error.
    let out = audit_command(&["perfect", "--recheck", "0"], &pids)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}
