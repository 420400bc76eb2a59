//! Asking an external bot again one request at a time after `ttt match` and after the audit
//! that gives `ttt simulate` its exact odds, through the real binary and a real bot
//! (`tests/bots/audit_aware.py`) that plays perfectly only when it sees its requests queued:
//! the odds it earned that way are reported as not those of its games (exit 1), in text and
//! JSON; an honest bot passes; `--recheck 0` is the match as it was; no process is left behind.

use serde_json::Value;

use crate::common;
use common::{assert_none_left, pidfile, root, ttt};

/// The audit-aware bot, noting its process id.
fn aware() -> String {
    format!(
        "python3 {} queue",
        root().join("tests/bots/audit_aware.py").display()
    )
}

/// `ttt COMMAND ARGS` from the repository's root: exit code, standard output, standard error;
/// every process of the bots gone.
fn run(args: &[&str], name: &str) -> (i32, String, String) {
    let pids = pidfile(name);
    let mut cmd = assert_cmd::Command::new(ttt());
    cmd.args(args)
        .env("TTT_TEST_PIDFILE", &*pids)
        .current_dir(root())
        .timeout(std::time::Duration::from_secs(120));
    let out = cmd.output().unwrap();
    assert_none_left(&pids);
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_match_won_by_seeing_requests_queued_is_reported_and_fails() {
    let bot = aware();
    let (code, text, stderr) = run(&["match", "random", "--cmd", &bot], "match-text");
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr, "");
    for side in ["X", "O"] {
        let line = format!(
            "  {side} answers differently in a game: the chances above are not those of its games"
        );
        assert!(text.contains(&line), "{text}");
    }
    assert!(text.contains("    in the match:   plays "), "{text}");
    assert!(text.contains("    one at a time:  plays "), "{text}");
    assert!(
        text.lines().all(|line| line.chars().count() <= 100),
        "{text}"
    );

    let args = ["match", "random", "--cmd", &bot, "--format", "json"];
    let (code, json, _) = run(
        &[&args[..], &["--recheck-seed", "7"]].concat(),
        "match-json",
    );
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&json).unwrap();
    let [there, back] = v["matches"].as_array().unwrap().as_slice() else {
        panic!("two matches: {json}");
    };
    // Its first move, asked alone, is the first empty cell it plays in every game.
    assert!(there["x_recheck"].is_null());
    assert_eq!(there["o_recheck"]["seed"], 7);
    assert!(there["o_recheck"]["difference"]["alone"].is_array());
    assert!(back["x_recheck"]["difference"]["recorded"].is_array());
    assert!(back["o_recheck"].is_null());

    // Asked nothing again, the match is as it was: the bot's odds, unquestioned.
    let (code, json, _) = run(&[&args[..], &["--recheck", "0"]].concat(), "match-0");
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["matches"][0]["exact"]["o_wins"], "254/315");
    assert!(v["matches"][0]["o_recheck"].is_null());

    // Among several matches, the table names each one, and the match fails.
    let (code, text, _) = run(&["match", "--all", "random", "--cmd", &bot], "match-all");
    assert_eq!(code, 1);
    let line = " queue as O vs random: answers differently in a game\n";
    assert!(text.contains(line), "{text}");
    assert!(
        text.ends_with("their games, and their scores are ?, left out of the means)\n"),
        "{text}"
    );
    // Its scores are not shown: they rest on answers it would not give one at a time.
    let row = text.lines().find(|line| line.starts_with("2  ")).unwrap();
    assert!(row.ends_with("?     ?     ?"), "{row}");
}

#[test]
fn an_honest_bot_answers_the_same_and_its_match_stands() {
    let minimax = "echo $$ >> \"$TTT_TEST_PIDFILE\"; exec python3 data/bots/minimax.py";
    let (code, text, stderr) = run(&["match", "--cmd", minimax, "random"], "match-honest");
    assert_eq!(code, 0, "{stderr}");
    assert!(text.contains("  X asked again one at a time ("), "{text}");
    assert!(text.contains("  O asked again one at a time ("), "{text}");
    assert_eq!(text.matches("): the same answers").count(), 2, "{text}");
    assert!(!text.contains("answers differently"), "{text}");
}

#[test]
fn simulate_gives_no_exact_odds_for_answers_a_game_does_not_get() {
    let bot = aware();
    let args = ["simulate", "--cmd", &bot, "--games", "300", "--seed", "1"];
    let (code, text, stderr) = run(&args, "simulate-text");
    assert_eq!(code, 1, "{stderr}");
    for side in ["X", "O"] {
        let note = format!(
            "-: as {side}, no exact odds: asked one request at a time, the bot answers otherwise"
        );
        assert!(text.contains(&note), "{text}");
    }
    assert!(text.contains("\n   after "), "{text}");
    assert!(
        text.lines().all(|line| line.chars().count() <= 100),
        "{text}"
    );

    let (code, json, _) = run(
        &[&args[..], &["--format", "json"]].concat(),
        "simulate-json",
    );
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&json).unwrap();
    for side in v["sides"].as_array().unwrap() {
        assert!(side["win"]["exact"].is_null(), "{side}");
        assert!(side["recheck"]["difference"]["moves"].is_array(), "{side}");
        // The games themselves are played one request at a time: they stand.
        assert_eq!(side["games"], 300);
    }

    // An honest bot keeps its exact odds, and says it was asked again.
    let minimax = "echo $$ >> \"$TTT_TEST_PIDFILE\"; exec python3 data/bots/minimax.py";
    let args = [
        "simulate", "--cmd", minimax, "--games", "100", "--format", "json",
    ];
    let (code, json, stderr) = run(&args, "simulate-honest");
    assert_eq!(code, 0, "{stderr}");
    let v: Value = serde_json::from_str(&json).unwrap();
    for side in v["sides"].as_array().unwrap() {
        assert_eq!(side["loss"]["exact_fraction"], "0/1");
        assert!(side["recheck"]["difference"].is_null(), "{side}");
    }
}

#[test]
fn a_recheck_with_no_external_bot_in_the_match_is_refused_not_ignored() {
    for (option, value) in [("--recheck", "3"), ("--recheck-seed", "7")] {
        let out = assert_cmd::Command::new(ttt())
            .args(["match", "perfect", "random", option, value])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "error: {option} is for re-asking external bots (--cmd) one request at a time, \
                 and none plays here: a built-in bot's answers come from this program\n"
            )
        );
        assert!(out.stdout.is_empty());
    }
}
