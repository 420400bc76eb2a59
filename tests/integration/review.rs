//! History review: every move of every game judged as an independent minimax judges it, and
//! `ttt review` through the real binary, from a move list and from what `ttt play` prints.

use crate::common;

use std::collections::HashMap;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{Value as Json, json};
use ttt_oracle::{
    AuditOptions, Cells, Game, History, Player, Position, Review, Value, audit, bots,
    review::{MoveVerdict, PlyReview},
};

/// Each run that feeds odd or endless input is bounded in time, so that a regression that
/// hangs fails instead of stalling the suite.
const TIME_LIMIT: Duration = Duration::from_secs(5);

fn ttt() -> Command {
    let mut cmd = Command::new(crate::common::ttt());
    for name in ["NO_COLOR", "CLICOLOR_FORCE", "TERM"] {
        cmd.env_remove(name);
    }
    cmd
}

/// What [`minimax`] found, by the board's base-3 code.
type Memo = Vec<Option<(Value, u8)>>;

/// The base-3 code of a tic-tac-toe position (cell `i` weighs `3^i`; empty 0, X 1, O 2),
/// worked out here from its marks: an index into a [`Memo`].
fn code(board: Position) -> usize {
    let mut code = 0;
    for cell in (0..9).rev() {
        let cell = ttt_oracle::Cell::new(cell).unwrap();
        code = code * 3
            + match board.get(cell) {
                None => 0,
                Some(Player::X) => 1,
                Some(Player::O) => 2,
            };
    }
    code
}

/// Value and remoteness for the side to move, by plain minimax over the rules: no table, no
/// symmetry, none of the library's solver.
fn minimax(board: Position, memo: &mut Memo) -> (Value, u8) {
    if let Some(known) = memo[code(board)] {
        return known;
    }
    let result = if board.winner().is_some() {
        (Value::Loss, 0)
    } else if board.is_over() {
        (Value::Draw, 0)
    } else {
        board
            .legal_moves()
            .iter()
            .map(|cell| made(board, cell, memo))
            .max_by_key(|&(value, remoteness)| preference(value, remoteness))
            .unwrap()
    };
    memo[code(board)] = Some(result);
    result
}

/// What playing `cell` on `board` is worth to the player making it, and plies from before it
/// to the end.
fn made(board: Position, cell: ttt_oracle::Cell, memo: &mut Memo) -> (Value, u8) {
    let (value, remoteness) = minimax(board.play(cell).unwrap(), memo);
    (-value, remoteness + 1)
}

/// Higher is better for the player moving: the value, then the fastest win, the slowest loss.
fn preference(value: Value, remoteness: u8) -> (i32, i32) {
    let plies = i32::from(remoteness);
    match value {
        Value::Win => (2, -plies),
        Value::Draw => (1, 0),
        Value::Loss => (0, plies),
    }
}

/// The verdict on `cell` as the issue words it: best among the optimal moves; otherwise by how
/// the value fell, or, when it held, a win made slower or a loss made faster.
fn expected(board: Position, cell: ttt_oracle::Cell, memo: &mut Memo) -> (Cells, &'static str) {
    let before = minimax(board, memo);
    let top = preference(before.0, before.1);
    let optimal: Cells = board
        .legal_moves()
        .iter()
        .filter(|&c| {
            let (value, remoteness) = made(board, c, memo);
            preference(value, remoteness) == top
        })
        .collect();
    let (value, _) = made(board, cell, memo);
    let verdict = match (before.0, value) {
        _ if optimal.contains(cell) => "best",
        (Value::Win, Value::Draw) => "win_to_draw",
        (Value::Win, Value::Loss) => "win_to_loss",
        (Value::Draw, Value::Loss) => "draw_to_loss",
        (Value::Win, Value::Win) => "slow_win",
        (Value::Loss, Value::Loss) => "fast_loss",
        other => panic!("{board} {cell}: a move cannot go from {other:?}"),
    };
    (optimal, verdict)
}

/// Walks every game, finished or not (all 549,946 move sequences), reviews each, and checks
/// that it extends the review of the game one move shorter by one ply judged as [`expected`]
/// says. Returns how often each verdict was given, by the side that moved.
fn review_every_game() -> HashMap<(Player, &'static str), u64> {
    let mut memo: Memo = vec![None; 19_683];
    let mut counts = HashMap::new();
    // What `expected` says of each move on each board, worked out once.
    let mut judged: Vec<Option<(Cells, &str)>> = vec![None; 19_683 * 9];
    // Each game with the board before its last move and the review of the game without it.
    let mut stack: Vec<(History, Position, Vec<PlyReview>)> = vec![(
        History::new(),
        Position::empty(Game::TIC_TAC_TOE),
        Vec::new(),
    )];
    let mut games = 0;
    while let Some((game, before, earlier)) = stack.pop() {
        games += 1;
        let review = Review::new(&game).unwrap();
        let board = game.position();
        assert_eq!(review.moves, game.moves());
        assert_eq!(review.status, board.status());
        assert_eq!(review.plies.len(), game.moves().len());
        assert_eq!(
            review.plies[..earlier.len()],
            earlier[..],
            "{:?}",
            game.moves()
        );
        let mistakes = review
            .plies
            .iter()
            .filter(|p| p.verdict.is_mistake())
            .count();
        assert_eq!(review.mistakes(), mistakes);
        if let Some(last) = review.plies.last() {
            let (value_before, remoteness_before) = minimax(before, &mut memo);
            let (value, remoteness) = made(before, last.cell, &mut memo);
            let (optimal, verdict) = *judged[code(before) * 9 + last.cell.index()]
                .get_or_insert_with(|| expected(before, last.cell, &mut memo));
            // Named in a failure only, formatted only then.
            let moves = game.moves();
            assert_eq!(last.ply, game.moves().len(), "{moves:?}");
            assert_eq!(last.player, before.to_move(), "{moves:?}");
            assert_eq!(last.cell, *game.moves().last().unwrap(), "{moves:?}");
            assert_eq!(
                (last.value_before, last.remoteness_before),
                (value_before, remoteness_before),
                "{moves:?}"
            );
            assert_eq!(
                (last.value, last.remoteness),
                (value, remoteness),
                "{moves:?}"
            );
            assert_eq!(last.best, optimal, "{moves:?}");
            assert_eq!(last.verdict.as_str(), verdict, "{moves:?}");
            assert_eq!(last.verdict.is_mistake(), value < value_before, "{moves:?}");
            *counts.entry((last.player, verdict)).or_insert(0) += 1;
        }
        for cell in board.legal_moves() {
            let mut next = game.clone();
            next.play(cell).unwrap();
            stack.push((next, board, review.plies.clone()));
        }
    }
    assert_eq!(games, 549_946, "game-tree nodes, as ttt stats counts them");
    counts
}

#[test]
fn every_move_of_every_game_is_judged_as_minimax_judges_it() {
    let counts = review_every_game();
    // Every verdict occurs, so none of them is left unchecked.
    for verdict in [
        "best",
        "win_to_draw",
        "win_to_loss",
        "draw_to_loss",
        "slow_win",
        "fast_loss",
    ] {
        let total: u64 = Player::BOTH
            .iter()
            .map(|&side| counts.get(&(side, verdict)).copied().unwrap_or(0))
            .sum();
        assert!(total > 0, "{verdict} never given");
    }
    // The auditor counts the same moves its own way: `random` may make every move in every
    // game, so its blunders and slow wins on a side are that side's verdicts over all games.
    for side in Player::BOTH {
        let mut random = bots::builtin("random").unwrap();
        let options = AuditOptions {
            side,
            ..AuditOptions::default()
        };
        let report = audit(random.as_mut(), &options).unwrap();
        let report = report.solved().expect("tic-tac-toe has a table");
        let count = |verdict| counts.get(&(side, verdict)).copied().unwrap_or(0);
        assert_eq!(report.blunders.win_to_draw, count("win_to_draw"), "{side}");
        assert_eq!(report.blunders.win_to_loss, count("win_to_loss"), "{side}");
        assert_eq!(
            report.blunders.draw_to_loss,
            count("draw_to_loss"),
            "{side}"
        );
        assert_eq!(report.slow_wins, count("slow_win"), "{side}");
    }
}

#[test]
fn a_verdict_lowers_the_value_exactly_when_it_is_a_mistake() {
    use MoveVerdict::*;
    for verdict in [Best, WinToDraw, WinToLoss, DrawToLoss, SlowWin, FastLoss] {
        let lowers = matches!(verdict, WinToDraw | WinToLoss | DrawToLoss);
        assert_eq!(verdict.is_mistake(), lowers, "{verdict}");
        assert_eq!(
            serde_json::to_value(verdict).unwrap(),
            json!(verdict.as_str())
        );
        assert_eq!(verdict.to_string(), verdict.as_str().replace('_', " "));
    }
}

fn run(args: &[&str], stdin: &str) -> std::process::Output {
    ttt()
        .arg("review")
        .args(args)
        .write_stdin(stdin)
        .timeout(TIME_LIMIT)
        .output()
        .unwrap()
}

fn review_json(args: &[&str], stdin: &str) -> Json {
    let out = run(&[args, &["--format", "json"]].concat(), stdin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one compact document: {text}");
    serde_json::from_str(&text).unwrap()
}

fn keys(json: &Json) -> Vec<&str> {
    common::json_keys(json)
}

#[test]
fn review_json_has_exactly_the_documented_keys() {
    let v = review_json(&["--moves", "5 3 9 1 4 2"], "");
    assert_eq!(
        keys(&v),
        ["forfeit", "mistakes", "moves", "plies", "status"]
    );
    assert_eq!(v["moves"], json!([5, 3, 9, 1, 4, 2]));
    assert_eq!(v["status"], "o_wins");
    assert_eq!(v["mistakes"], 1);
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 6);
    for ply in plies {
        assert_eq!(
            keys(ply),
            [
                "best",
                "cell",
                "player",
                "ply",
                "remoteness",
                "remoteness_before",
                "value",
                "value_before",
                "verdict"
            ]
        );
    }
    assert_eq!(
        plies[4],
        json!({"ply": 5, "player": "X", "cell": 4, "value_before": "draw",
               "remoteness_before": 5, "value": "loss", "remoteness": 2, "best": [2],
               "verdict": "draw_to_loss"})
    );
    // No moves: nothing judged, and still a review.
    let empty = review_json(&["--moves", ""], "");
    assert_eq!(
        empty,
        json!({"moves": [], "status": "in_progress", "plies": [], "mistakes": 0, "forfeit": null})
    );
}

#[test]
fn review_text_shows_a_row_a_ply_and_draws_each_mistake() {
    let out = run(&["--moves", "5 3 9 1 4 2"], "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "mistakes are the answer, not a failure"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "Game: 5 3 9 1 4 2, O won.",
        "ply  player  cell  before  after  verdict       best",
        "  1  X       5     D9      D9     best          1 2 3 4 5 6 7 8 9",
        "  5  X       4     D5      L2     draw to loss  2",
        "1 mistake, a move that lowered the value: ply 5.",
        "Ply 5: X played 4, draw to loss (L2). Best: 2 (D5).",
        " O | 2 | O       O   | D5* | O",
    ] {
        assert!(
            text.lines().any(|line| line == expected),
            "{expected:?} in\n{text}"
        );
    }
    assert!(!text.contains('\x1b'), "no colour through a pipe");
    // The widest rows too: nine plies, every best list long, and a mistake drawn.
    let widest = run(&["--moves", "2 1 3 5 4 6 8 7 9"], "");
    for line in text
        .lines()
        .chain(String::from_utf8_lossy(&widest.stdout).lines())
    {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let coloured = ttt()
        .args(["--color=always", "review", "--moves", "5 3 9 1 4 2"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&coloured.stdout).contains("\x1b[31mdraw to loss"));
    let clean = run(&["--moves", "5 1 9 3"], "");
    assert!(
        String::from_utf8_lossy(&clean.stdout).contains("No mistakes: no move lowered the value.")
    );
}

#[test]
fn review_reads_back_the_game_ttt_play_printed() {
    let play = ttt()
        .args(["play", "--seed", "7"])
        .write_stdin("5\n9\n3\n4\n")
        .timeout(TIME_LIMIT)
        .output()
        .unwrap();
    assert!(play.status.success());
    let transcript = String::from_utf8(play.stdout).unwrap();
    assert!(
        transcript.ends_with("result: o_wins moves: 5 3 9 1 4 2\n"),
        "{transcript}"
    );
    // The whole transcript, or its last line alone.
    let whole = review_json(&[], &transcript);
    let last = review_json(&[], "result: o_wins moves: 5 3 9 1 4 2\n");
    let given = review_json(&["--moves", "5 3 9 1 4 2"], "");
    assert_eq!(whole, given);
    assert_eq!(last, given);
    // A forfeit stops the moves where the bot broke the rules: the game is unfinished.
    let forfeit = review_json(&[], "result: o_wins_by_forfeit moves: 5 1 9 3\n");
    assert_eq!(forfeit["status"], "in_progress");
    assert_eq!(forfeit["forfeit"], "X", "the side that broke the rules");
    assert_eq!(whole["forfeit"], Json::Null);
    assert_eq!(given["forfeit"], Json::Null);
    let text = run(&[], "result: o_wins_by_forfeit moves: 5 1 9 3\n");
    assert!(
        String::from_utf8_lossy(&text.stdout)
            .starts_with("Game: 5 1 9 3, then X forfeited: O won by forfeit.\n")
    );
}

#[test]
fn other_games_are_reviewed_against_their_tables() {
    // On 3x4, X wins in 7 from the empty board: 1 wins slower, O's 5 then loses faster.
    let v = review_json(&["--game", "3x4", "--moves", "1 5 2"], "");
    assert_eq!(
        keys(&v),
        ["forfeit", "game", "mistakes", "moves", "plies", "status"]
    );
    assert_eq!(v["game"], "3x4");
    assert_eq!(v["moves"], json!([1, 5, 2]));
    assert_eq!(
        v["plies"][0],
        json!({"ply": 1, "player": "X", "cell": 1, "value_before": "win",
               "remoteness_before": 7, "value": "win", "remoteness": 9,
               "best": [2, 3, 6, 7, 10, 11], "verdict": "slow_win"})
    );
    assert_eq!(v["plies"][1]["verdict"], "fast_loss");
    // Each ply agrees with what analyze says of the position before it.
    let moves = [1, 16, 2, 15, 3, 12, 4];
    let v = review_json(&["--game", "4x4", "--moves", "1 16 2 15 3 12 4"], "");
    assert_eq!(v["status"], "x_wins");
    for (index, ply) in v["plies"].as_array().unwrap().iter().enumerate() {
        let before: Vec<String> = moves[..index].iter().map(|m| m.to_string()).collect();
        let analysis: Json = serde_json::from_slice(
            &ttt()
                .args(["analyze", "--game", "4x4", "--format", "json", "--moves"])
                .arg(before.join(" "))
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap();
        assert_eq!(ply["best"], analysis["best"], "ply {}", index + 1);
        assert_eq!(ply["value_before"], analysis["value"], "ply {}", index + 1);
        assert_eq!(
            ply["remoteness_before"],
            analysis["remoteness"],
            "ply {}",
            index + 1
        );
    }
    // Tic-tac-toe's JSON has no game key, with --game 3x3 or without.
    assert_eq!(
        review_json(&["--game", "3x3", "--moves", "5 1"], ""),
        review_json(&["--moves", "5 1"], "")
    );
}

#[test]
fn another_games_text_draws_its_mistakes_on_its_board() {
    let out = run(&["--game", "4x4", "--moves", "1 16 2 15 3 12 4"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "Game: 1 16 2 15 3 12 4, X won.",
        "  6  O       12    D11     L2     draw to loss  4",
        "Ply 6: O played 12, draw to loss (L2). Best: 4 (D11).",
        " X  | X  | X  | 4        X    | X    | X    | D11*",
        " 13 | 14 | O  | O        L2   | L2   | O    | O",
    ] {
        assert!(
            text.lines().any(|line| line == expected),
            "{expected:?} in\n{text}"
        );
    }
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "{line:?}");
    }
}

#[test]
fn review_reads_back_a_game_of_another_board() {
    let play = ttt()
        .args([
            "play",
            "--game",
            "4x4k3",
            "--opponent",
            "random",
            "--seed",
            "3",
        ])
        .write_stdin("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n".repeat(2))
        .timeout(TIME_LIMIT)
        .output()
        .unwrap();
    assert!(play.status.success());
    let transcript = String::from_utf8(play.stdout).unwrap();
    let line = transcript
        .lines()
        .find(|line| line.starts_with("result: "))
        .unwrap();
    let moves = line.split(" moves: ").nth(1).unwrap();
    let read = review_json(&["--game", "4x4k3"], &transcript);
    assert_eq!(
        read,
        review_json(&["--game", "4x4k3", "--moves", moves], "")
    );
    assert_eq!(read["status"], line.split_whitespace().nth(1).unwrap());
}

#[test]
fn a_game_without_a_table_cannot_be_reviewed() {
    let out = run(&["--game", "6x6", "--moves", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: ttt review judges moves against the game's solved table, and 6x6 has 36 \
         cells; tables stop at 25 (past 16, made by `ttt solve`)\n"
    );
    let out = run(&["--game", "4x4", "--moves", "1 17"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: bad move list \"1 17\": move 2 is \"17\", not a cell: cells are numbered 1 \
         to 16, in decimal with no sign or leading zero\n"
    );
}

#[test]
fn a_bad_move_list_gets_the_error_analyze_gives() {
    for list in ["5 5", "05", "1,,2", "1 4 2 5 3 6", "5 10", "-1", "x"] {
        let analyze = ttt().args(["analyze", "--moves", list]).output().unwrap();
        let review = run(&["--moves", list], "");
        assert_eq!(analyze.status.code(), Some(2), "{list}");
        assert_eq!(review.status.code(), Some(2), "{list}");
        assert_eq!(
            String::from_utf8_lossy(&review.stderr),
            String::from_utf8_lossy(&analyze.stderr),
            "{list}"
        );
        assert!(review.stdout.is_empty(), "{list}");
        // The same list in a result line: the same error, after the line's number.
        let from_stdin = run(&[], &format!("You lose.\nresult: o_wins moves: {list}\n"));
        assert_eq!(from_stdin.status.code(), Some(2), "{list}");
        let message =
            String::from_utf8_lossy(&analyze.stderr).replace("error: ", "error: line 2: ");
        assert_eq!(
            String::from_utf8_lossy(&from_stdin.stderr),
            message,
            "{list}"
        );
    }
}

#[test]
fn standard_input_without_one_good_result_line_is_refused_with_what_was_expected() {
    for (input, message) in [
        (
            "",
            "error: no result line on standard input: expected \"result: STATUS moves: LIST\", the last line of a game of ttt play (or give the moves with --moves)\n",
        ),
        (
            "5 3 9 1 4 2\n",
            "error: no result line on standard input: expected \"result: STATUS moves: LIST\", the last line of a game of ttt play (or give the moves with --moves)\n",
        ),
        (
            "result: o_won moves: 5 3\n",
            "error: line 1: bad result line \"result: o_won moves: 5 3\": \"o_won\" is not a result (one of x_wins, o_wins, draw, x_wins_by_forfeit, o_wins_by_forfeit, then moves: LIST)\n",
        ),
        (
            "result: o_wins 5 3 9 1 4 2\n",
            "error: line 1: bad result line \"result: o_wins 5 3 9 1 4 2\": no \"moves:\" after the result (expected \"result: STATUS moves: LIST\")\n",
        ),
        (
            "result: draw moves: 5 3 9 1 4 2\n",
            "error: line 1: bad result line \"result: draw moves: 5 3 9 1 4 2\": it says draw, but after the moves 5 3 9 1 4 2 the game is over (o_wins)\n",
        ),
        (
            "result: draw moves: none\nresult: draw moves: none\n",
            "error: more than one result line on standard input (lines 1 and 2): give one game, or its moves with --moves\n",
        ),
    ] {
        let out = run(&[], input);
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), message, "{input:?}");
        assert!(out.stdout.is_empty(), "{input:?}");
    }
}

#[test]
fn standard_input_is_read_in_bounded_lines_and_bounded_in_all() {
    for (input, error) in [
        // A result line of 200 kB: refused by its length, not kept.
        (
            format!("result: draw moves: {}\n", "5 ".repeat(100_000)),
            "error: line 1: a result line of 200020 bytes; one is at most 4096",
        ),
        // Past 1 MiB, the input is too long, wherever its lines end.
        (
            format!("result: draw moves: {}\n", "5 ".repeat(5_000_000)),
            "error: standard input is longer than 1048576 bytes",
        ),
    ] {
        let out = run(&[], &input);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with(error), "{stderr}");
    }
    // Endless input with no newline ends with an error, at once.
    let mut child = Process::new(crate::common::ttt())
        .arg("review")
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + TIME_LIMIT;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("ttt review < /dev/zero did not end");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: standard input is longer than 1048576 bytes"),
        "{stderr}"
    );
    // A line that stops short of the limit is read whole.
    let mut padded = "x".repeat(1_000_000);
    padded.push_str("\nresult: draw moves: 5 1 9 3 2 8 4 6 7\n");
    assert_eq!(review_json(&[], &padded)["status"], "draw");
}

#[test]
fn a_closed_pipe_ends_it_quietly() {
    let out = Process::new(crate::common::ttt())
        .args(["review", "--moves", "2 1 3 5 4 6 8 7 9"])
        .stdout(crate::common::no_reader())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn on_a_terminal_review_says_what_it_waits_for() {
    // Standard input on a pseudo-terminal: the line typed (or pasted), then Ctrl-D.
    const RUN: &str = r#"
import os, pty, subprocess, sys
master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stdin=slave, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
os.close(slave)
os.write(master, b"result: draw moves: 5 1 9 3 2 8 4 6 7\n\x04")
out, err = child.communicate(timeout=5)
sys.stdout.buffer.write(b"%d\n" % child.returncode + err + b"--\n" + out)
"#;
    let out = Process::new("python3")
        .arg("-c")
        .arg(RUN)
        .arg(crate::common::ttt())
        .args(["review", "--format", "json"])
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("TERM")
        .output()
        .unwrap();
    common::assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let (code, rest) = text.split_once('\n').unwrap();
    let (stderr, stdout) = rest.split_once("--\n").unwrap();
    assert_eq!(code, "0", "{text}");
    assert_eq!(
        stderr,
        "Paste the last line of a game of ttt play (\"result: STATUS moves: LIST\"),\n\
         then press Ctrl-D; or give the moves with ttt review --moves LIST.\n"
    );
    let review: Json = serde_json::from_str(stdout).unwrap();
    assert_eq!(review["status"], "draw");
    assert_eq!(review["mistakes"], 0);
}
