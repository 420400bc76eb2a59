//! The bound on a walk by histories on games other than tic-tac-toe: a real external program
//! that does not say it answers from the board alone, through the real binary, stopped by
//! `--budget` (exit 2) before its memory grows, with no process left behind.

use crate::common;

use std::time::{Duration, Instant};

use assert_cmd::Command;
use common::{assert_none_left, misbehave, pidfile, root};

/// `ttt ARGS` with the bot's process ids written to `pids`: its output and how long it took.
fn run(args: &[&str], pids: &common::PidFile) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let out = Command::new(crate::common::ttt())
        .args(args)
        .env("TTT_TEST_PIDFILE", pids)
        .current_dir(root())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (out, started.elapsed())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The error line, which must say who, where, the limit, why, and what to do.
fn assert_over_budget(stderr: &str, bot: &str, game: &str, limit: u32) {
    let shown = format!("{},{:03}", limit / 1000, limit % 1000);
    let said = format!("would be asked about more than {shown} histories of {game} (the budget)");
    for part in [
        bot,
        said.as_str(),
        "as it does not say it answers from the board alone",
        "--stateless",
        "--budget",
    ] {
        assert!(stderr.contains(part), "{stderr:?} lacks {part:?}");
    }
    assert!(stderr.starts_with("error: "), "{stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "no backtrace: {stderr:?}");
}

#[test]
fn an_audit_of_a_bot_answering_every_cell_stops_at_its_budget() {
    for game in ["4x4", "3x4", "4x4k3"] {
        let pids = pidfile(&format!("budget-audit-{game}"));
        let bot = misbehave("every");
        let (out, took) = run(
            &[
                "audit", "--game", game, "--cmd", &bot, "--name", "every", "--side", "x",
                "--budget", "2000",
            ],
            &pids,
        );
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{game}: {stderr}");
        assert_over_budget(&stderr, "\"every\"", game, 2000);
        assert_eq!(
            stdout,
            "Not audited, over the budget of histories (below): every as X.\n"
        );
        assert!(took < Duration::from_secs(20), "{game} took {took:?}");
        assert_none_left(&pids);
    }
}

#[test]
fn the_sides_audited_before_the_budget_ran_out_stay_printed() {
    // The first empty cell on 3x4: 2,042 questions as X, 9,223 as O.
    let bot = misbehave("first");
    for jobs in ["1", "2"] {
        let pids = pidfile(&format!("budget-sides-{jobs}"));
        let args = [
            "audit", "--game", "3x4", "--cmd", &bot, "--name", "first", "--budget", "5000",
            "--jobs", jobs,
        ];
        let (out, _) = run(&args, &pids);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_over_budget(&stderr, "\"first\"", "3x4", 5000);
        assert!(stdout.contains("first  X "), "{stdout}");
        assert!(stdout.contains("first as X: can lose"), "{stdout}");
        assert!(
            stdout.ends_with("\nNot audited, over the budget of histories (below): first as O.\n"),
            "{stdout}"
        );
        assert_none_left(&pids);

        let pids = pidfile(&format!("budget-json-{jobs}"));
        let (out, _) = run(&[&args[..], &["--format", "json"]].concat(), &pids);
        assert_eq!(out.status.code(), Some(2));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["game"], "3x4");
        let sides = json["bots"][0]["sides"].as_array().unwrap();
        assert_eq!(sides.len(), 1);
        assert_eq!(sides[0]["side"], "X");
        assert_eq!(sides[0]["decision_points"], 2042);
        let error = json["error"].as_str().unwrap();
        assert!(
            text(&out.stderr).contains(error),
            "the JSON's error is the one on standard error: {error}"
        );
        assert!(
            error.contains("more than 5,000 histories of 3x4"),
            "{error}"
        );
        assert_none_left(&pids);
    }
    // Within a budget large enough, the audit is done.
    let pids = pidfile("budget-enough");
    let args = ["audit", "--game", "3x4", "--cmd", &bot, "--budget", "9223"];
    let (out, _) = run(&args, &pids);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_none_left(&pids);
}

#[test]
fn a_side_over_the_budget_stops_the_other_audited_beside_it() {
    // As X every cell, over the budget at once; as O a slow first empty cell, whose audit of
    // 4x4 would take many minutes. O's report would not be printed: its audit stops too.
    let pids = pidfile("budget-beside");
    let bot = misbehave("every-x-slow-o");
    let args = [
        "audit", "--game", "4x4", "--cmd", &bot, "--name", "every", "--budget", "2000", "--jobs",
        "2",
    ];
    let (out, took) = run(&args, &pids);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_over_budget(&stderr, "\"every\"", "4x4", 2000);
    assert_eq!(
        stdout,
        "Not audited, over the budget of histories (below): every as X, every as O.\n"
    );
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert_none_left(&pids);
}

#[test]
fn a_stateless_bot_is_asked_once_a_board_whatever_the_budget() {
    let pids = pidfile("budget-stateless");
    let bot = misbehave("first");
    let args = [
        "audit",
        "--game",
        "3x4",
        "--cmd",
        &bot,
        "--stateless",
        "--budget",
        "1",
    ];
    let (out, _) = run(&args, &pids);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_none_left(&pids);
}

#[test]
fn a_match_against_a_bot_answering_every_cell_stops_at_its_budget() {
    for (game, opponent) in [("4x4", "random"), ("3x4", "perfect")] {
        let pids = pidfile(&format!("budget-match-{game}"));
        let bot = misbehave("every");
        let args = [
            "match", "--game", game, "--cmd", &bot, "--name", "every", opponent, "--budget", "2000",
        ];
        let (out, took) = run(&args, &pids);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{game}: {stderr}");
        assert_over_budget(&stderr, "\"every\"", game, 2000);
        assert_eq!(
            stdout,
            format!(
                "Not played, after an error (below): {opponent} (X) vs every (O), every (X) vs \
                 {opponent} (O).\n"
            )
        );
        assert!(took < Duration::from_secs(20), "{game} took {took:?}");
        assert_none_left(&pids);

        let pids = pidfile(&format!("budget-match-json-{game}"));
        let (out, _) = run(&[&args[..], &["--format", "json"]].concat(), &pids);
        assert_eq!(out.status.code(), Some(2));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["matches"].as_array().unwrap().len(), 0);
        assert!(
            json["error"]
                .as_str()
                .unwrap()
                .contains("more than 2,000 histories")
        );
        assert_none_left(&pids);
    }
}

#[test]
fn tic_tac_toe_ignores_the_budget() {
    let bot = misbehave("every");
    for command in ["audit", "match"] {
        let pids = pidfile(&format!("budget-3x3-{command}"));
        let mut args = vec![command, "--cmd", &bot];
        if command == "match" {
            args.push("random");
        }
        // The same games asked again both times, so that the reports can be compared.
        args.extend(["--recheck-seed", "1"]);
        let (without, _) = run(&args, &pids);
        args.extend(["--budget", "1"]);
        let (within, _) = run(&args, &pids);
        assert_eq!(without.status.code(), within.status.code(), "{command}");
        assert_ne!(without.status.code(), Some(2), "{}", text(&without.stderr));
        assert_eq!(text(&without.stdout), text(&within.stdout), "{command}");
        assert_none_left(&pids);
    }
}
