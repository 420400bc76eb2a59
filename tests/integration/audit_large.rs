//! `ttt audit --game G` and `ttt simulate --game G` on games with no table, through the real
//! binary: marcelo on 5x5, 7x7 and 9x9, random and an external bot on 9x9, an external bot told
//! its game, and the sizes refused.

use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn ttt(args: &[&str]) -> Command {
    let mut cmd = Command::new(crate::common::ttt());
    cmd.args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd.timeout(Duration::from_secs(600));
    cmd
}

/// What `ttt ARGS` prints on standard output, which must end with exit code `code`.
fn stdout(args: &[&str], code: i32) -> Vec<u8> {
    let out = ttt(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn json(args: &[&str], code: i32) -> Value {
    serde_json::from_slice(&stdout(&[args, &["--format", "json"]].concat(), code)).unwrap()
}

/// The report `ttt ARGS` prints, with exit code `code`.
fn text(args: &[&str], code: i32) -> String {
    String::from_utf8(stdout(args, code)).unwrap()
}

fn cells(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect()
}

#[test]
fn marcelo_on_five_by_five_as_x_forfeits_and_can_lose() {
    let report = json(&["audit", "--game", "5x5", "marcelo", "--side", "x"], 1);
    assert_eq!(report["game"], "5x5");
    let side = &report["bots"][0]["sides"][0];
    assert_eq!(side["verdict"], "can_lose_and_breaks_rules");
    // Hand-checked: X 13 (centre), O 1, X 5 (rule 4: row 1's free diagonal cell), O 17, X 9
    // (row 2, by its coin: 7 or 9), O 21 fills the anti-diagonal 5 9 13 17 21; X has no win
    // or block, so rule 5 from 9 (row 2, column 4): i = 3 reaches row 5 down-right, where
    // j = 1 marks 25 and j = 0 marks 24, two marks in one turn.
    assert_eq!(cells(&side["shortest_illegal"]), [13, 1, 5, 17, 9, 21]);
    assert_eq!(cells(&side["shortest_loss"]).len(), 16);
    assert_eq!(side["losing_games"], 10896);
    assert_eq!(side["vs_random"]["exact"]["loss"], "923/1703116800");
    for unavailable in ["blunders", "slow_wins", "worst_case", "vs_perfect"] {
        assert_eq!(side[unavailable], Value::Null, "{unavailable}");
    }
}

#[test]
fn seven_by_seven_within_a_small_budget_says_what_is_not_settled() {
    let text = audit_within_budget("7x7", "x", "20000", "20,000");
    // The search for a forfeit does not get as far as marcelo's shortest (8 plies) within
    // 20,000 states; the search for a loss, leaving lines where no fork can come in time,
    // finds one of 24 plies, the fewest a fork allows.
    assert!(
        text.contains("marcelo as X on 7x7: can lose, forfeits not settled"),
        "{text}"
    );
    assert!(text.contains("shortest loss, 24 plies:"), "{text}");
    assert!(
        text.ends_with("\nmarcelo can lose and is not settled\n"),
        "{text}"
    );
}

/// marcelo's audit of `side` on `game` within `budget` states, which it outgrows: the report,
/// its lines within 100 columns, and exit code 1.
/// `shown` is the budget as the report writes it, its thousands grouped.
fn audit_within_budget(game: &str, side: &str, budget: &str, shown: &str) -> String {
    let out = ttt(&[
        "audit", "--game", game, "marcelo", "--side", side, "--budget", budget,
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("more than the budget of {shown} states")),
        "{text}"
    );
    assert!(
        text.lines().all(|line| line.chars().count() <= 100),
        "{text}"
    );
    text
}

#[test]
fn nine_by_nine_within_a_small_budget_says_what_is_not_settled() {
    // One side: the test binary is a debug build, some ten times slower than a release.
    let text = audit_within_budget("9x9", "o", "10000", "10,000");
    assert!(
        text.starts_with("9x9, 9 in a row, audited without a table"),
        "{text}"
    );
    assert!(
        text.contains("marcelo as O on 9x9: can lose, forfeits not settled"),
        "{text}"
    );
    // A fork of two 9-cell lines takes 15 of X's marks: X's 16th wins, on ply 31.
    assert!(text.contains("shortest loss, 31 plies:"), "{text}");
    // random's shortest loss is found within the budget: O fills column 2 (2 11 20 ... 74)
    // while X takes 1, 3, 4 and onwards, the lowest empty cells first.
    let report = json(
        &[
            "audit", "--game", "9x9", "random", "--side", "x", "--budget", "10000",
        ],
        1,
    );
    let side = &report["bots"][0]["sides"][0];
    assert_eq!(
        cells(&side["shortest_loss"]),
        [
            1, 2, 3, 11, 4, 20, 5, 29, 6, 38, 7, 47, 8, 56, 9, 65, 10, 74
        ]
    );
    // It never forfeits, which needs no search: its verdict is settled.
    assert_eq!(side["shortest_illegal"], Value::Null);
    assert_eq!(side["illegal_searched_plies"], Value::Null);
    assert_eq!(side["verdict"], "can_lose");
}

#[test]
fn a_simulation_on_nine_by_nine_says_the_exact_odds_outgrew_the_budget() {
    let out = ttt(&[
        "simulate", "marcelo", "--game", "9x9", "--games", "2000", "--seed", "1", "--budget",
        "10000", "--as", "x",
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("marcelo as X on 9x9: 2,000 games against a uniformly random opponent"),
        "{text}"
    );
    assert!(
        text.contains("-: no exact odds, as the audit outgrew its budget of states"),
        "{text}"
    );
    let report = json(
        &[
            "simulate", "marcelo", "--game", "9x9", "--games", "500", "--seed", "1", "--budget",
            "10000",
        ],
        0,
    );
    for side in report["sides"].as_array().unwrap() {
        let counts: Vec<u64> = ["win", "draw", "loss", "forfeit"]
            .iter()
            .map(|end| {
                assert_eq!(side[end]["exact"], Value::Null, "{end}");
                side[end]["count"].as_u64().unwrap()
            })
            .collect();
        assert_eq!(counts.iter().sum::<u64>(), 500);
        // Rule 5 puts several marks down here too.
        assert!(counts[3] > 0, "{side}");
    }
}

#[test]
fn an_external_bot_plays_nine_by_nine_cells_one_to_eighty_one() {
    // The last empty cell: its replies run up to 81.
    let bot = r#"python3 -u -c '
import os, sys
assert os.environ["TTT_GAME"] == "9x9" and os.environ["TTT_ROWS"] == "9"
for line in sys.stdin:
    board = line.split()[0]
    assert len(board) == 81
    print(board.rindex(".") + 1)
'"#;
    let report = json(
        &[
            "audit", "--game", "9x9", "--cmd", bot, "--name", "last", "--side", "o", "--budget",
            "2000",
        ],
        1,
    );
    let o = &report["bots"][0]["sides"][0];
    // X takes 1, 2, 3...; O 81, 80, 79...: X makes row 1 first.
    assert_eq!(
        cells(&o["shortest_loss"]),
        [1, 81, 2, 80, 3, 79, 4, 78, 5, 77, 6, 76, 7, 75, 8, 74, 9]
    );
}

#[test]
fn a_simulation_on_five_by_five_lands_within_its_intervals_of_the_exact_odds() {
    let report = json(
        &[
            "simulate", "marcelo", "--game", "5x5", "--as", "x", "--games", "20000", "--seed", "1",
        ],
        0,
    );
    assert_eq!(report["game"], "5x5");
    let side = &report["sides"][0];
    for end in ["win", "draw", "loss", "forfeit"] {
        let end = &side[end];
        let exact = end["exact"].as_f64().unwrap();
        let (low, high) = (end["low"].as_f64().unwrap(), end["high"].as_f64().unwrap());
        assert!(low <= exact && exact <= high, "{end}");
    }
    assert_eq!(side["published"], Value::Null);
}

#[test]
fn an_external_bot_is_told_its_game_and_audited_without_a_table() {
    // The first empty cell, from a bot that refuses any game but the one it expects.
    let bot = r#"python3 -u -c '
import os, sys
assert os.environ["TTT_GAME"] == "2x3" and os.environ["TTT_K"] == "2"
for line in sys.stdin:
    print(line.split()[0].index(".") + 1)
'"#;
    let report = json(
        &["audit", "--game", "2x3k2", "--cmd", bot, "--name", "first"],
        1,
    );
    let x = &report["bots"][0]["sides"][0];
    assert_eq!(x["verdict"], "can_lose");
    let o = &report["bots"][0]["sides"][1];
    assert!(o["games"].as_u64().unwrap() > 0);
}

#[test]
fn sizes_a_bot_does_not_play_are_refused_with_exit_code_2() {
    ttt(&["audit", "--game", "4x4", "marcelo"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not 4x4").and(predicate::str::contains("odd N")));
    ttt(&["audit", "--game", "5x5k4", "marcelo"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not 5x5k4"));
    // The engine holds 128 cells: 11x11 (121) is played, 12x12 (144) is not a game here.
    ttt(&["audit", "--game", "12x12", "marcelo"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a board of 144 cells is too large: at most 128 cells",
        ));
    ttt(&["simulate", "--game", "8x17", "random"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "136 cells is too large: at most 128",
        ));
    // The styles read a table: more than 16 cells has none.
    ttt(&["audit", "--game", "5x5", "perfect"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("5x5"));
    ttt(&["simulate", "--game", "6x6", "marcelo"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not 6x6"));
    ttt(&["audit", "--game", "5x5", "marcelo", "--losing-games", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--losing-games"));
}

#[test]
fn a_program_is_never_asked_the_same_question_twice() {
    // The bot answers every empty cell, and breaks the protocol if asked a request again: the
    // walk outgrows a budget of 100, and both searches come back to the walk's questions,
    // which must be answered from what the bot said then (a bot answering otherwise the second
    // time would change the report).
    let args = [
        "audit",
        "--game",
        "1x17k2",
        "--side",
        "x",
        "--budget",
        "100",
        "--cmd",
        "python3 tests/bots/misbehave.py every-once",
        "--name",
        "once",
    ];
    let stdout = text(&args, 1);
    assert!(stdout.contains("shortest loss, 4 plies"), "{stdout}");
    assert!(
        stdout.contains("more than the budget of 100 states"),
        "{stdout}"
    );
}

#[test]
fn the_last_line_names_what_fits_and_counts_the_rest() {
    // Two programs with 70-character names, beside random and marcelo, within a budget too
    // small to settle them: each list keeps its label and counts the names that do not fit.
    let long = "a".repeat(70);
    let longer = format!("{long}b");
    let first = "python3 tests/bots/misbehave.py first";
    let args = [
        "audit", "--game", "5x5", "--budget", "300", "--side", "o", "--cmd", first, "--name",
        &long, "--cmd", first, "--name", &longer, "random", "marcelo",
    ];
    let stdout = text(&args, 1);
    let last = stdout.lines().last().unwrap();
    assert!(last.chars().count() <= 100, "{last}");
    assert!(
        last.starts_with("4 of 4 bots can lose: random, marcelo and 2 more; "),
        "{last}"
    );
    assert!(last.ends_with(" and 2 more are not settled"), "{last}");
}

#[test]
fn a_protocol_error_as_x_stops_the_audit_of_o_beside_it() {
    // X breaks the protocol at once; O takes 0.3 s a reply, which at a budget of 3,000 would
    // take many minutes. O's report would not be printed: its audit stops too.
    let started = std::time::Instant::now();
    let out = ttt(&[
        "audit",
        "--game",
        "5x5",
        "--budget",
        "3000",
        "--jobs",
        "2",
        "--cmd",
        "python3 tests/bots/misbehave.py garbage-x-slow-o",
        "--name",
        "garbage",
    ])
    .timeout(Duration::from_secs(60))
    .output()
    .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().last(),
        Some("Not audited, after a protocol error (below): garbage as X, garbage as O.")
    );
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

#[test]
fn a_protocol_error_names_the_sides_not_audited_and_claims_no_verdict() {
    // Plays the first empty cell for 30 requests, then dies without a word.
    let bot = r#"python3 -u -c '
import sys
for n, line in enumerate(sys.stdin):
    if n == 30:
        sys.exit(7)
    print(line.split()[0].index(".") + 1)
'"#;
    let out = ttt(&[
        "audit", "--game", "5x5", "--budget", "2000", "random", "--cmd", bot, "--name", "dies",
        "--jobs", "1",
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Its shortest loss is found within the budget, and it never forfeits (its every choice is
    // an empty cell): its verdict is settled, though the walk outgrew the budget.
    assert!(
        stdout.contains("random as X on 5x5: can lose\n"),
        "{stdout}"
    );
    let last = stdout.lines().last().unwrap();
    assert_eq!(
        last,
        "Not audited, after a protocol error (below): dies as X, dies as O."
    );
    assert!(!stdout.contains("never lose"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("exit code 7"), "{stderr}");
}

#[test]
fn every_question_to_a_program_counts_against_the_budget() {
    // Answers every empty cell from its history: each question a state of its own, and its
    // answer kept, so the budget bounds the questions, and with them time and memory.
    let bot = r#"python3 -u -c '
import sys
for line in sys.stdin:
    board = line.split()[0]
    print(" ".join(str(i + 1) for i, c in enumerate(board) if c == "."))
'"#;
    let started = std::time::Instant::now();
    let report = json(
        &[
            "audit", "--game", "5x5", "--budget", "3000", "--cmd", bot, "--name", "all", "--side",
            "x",
        ],
        1,
    );
    let side = &report["bots"][0]["sides"][0];
    assert_eq!(side["verdict"], Value::Null);
    assert_eq!(side["games"], Value::Null);
    assert_eq!(side["states"], 3000);
    // A 10-ply loss is found within the budget; no forfeit exists, which a search cannot tell.
    assert_eq!(cells(&side["shortest_loss"]).len(), 10);
    assert!(side["illegal_searched_plies"].as_u64().is_some());
    assert!(started.elapsed() < Duration::from_secs(60));
}
