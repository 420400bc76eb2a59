//! `ttt play` on boards other than tic-tac-toe, through the real binary with piped input:
//! their cell numbers, the bots that play them or refuse to, boards drawn within 100 columns,
//! and hints only where a table gives them.

use crate::common;

use predicates::prelude::*;

use common::play::{play, result_line, ttt};

/// The columns a line takes as `ttt play` counts them: one for ASCII and `…`, two for any
/// other character (wide ones take two on a terminal, the rest fewer).
fn columns(line: &str) -> usize {
    line.chars()
        .map(|ch| if ch.is_ascii() || ch == '…' { 1 } else { 2 })
        .sum()
}

fn assert_fits(out: &str) {
    for line in out.lines() {
        assert!(
            columns(line) <= 100,
            "{} columns: {line}\n{out}",
            columns(line)
        );
    }
}

/// A bot that always takes the first empty cell, so that every game below is known in
/// advance.
fn first_empty_cell() -> String {
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/bots/misbehave.py");
    format!("cmd:python3 {bot} first")
}

/// The status and moves of a result line, as `ttt analyze --game G --moves` sees its moves.
fn replayed_status(game: &str, line: &str) -> String {
    let moves = line.split(" moves: ").nth(1).unwrap();
    let analysis: serde_json::Value = serde_json::from_slice(
        &ttt()
            .args([
                "analyze", "--game", game, "--moves", moves, "--format", "json",
            ])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    analysis["status"].as_str().unwrap().to_string()
}

/// Every cell of a game of `cells` cells, one a line, in order: taken cells re-prompt, so a
/// game fed this twice always finishes.
fn every_cell(cells: usize) -> String {
    (1..=cells)
        .map(|cell| format!("{cell}\n"))
        .collect::<String>()
        .repeat(2)
}

#[test]
fn a_whole_game_on_4x4_and_3x4() {
    for (game, cells) in [("4x4", 16), ("3x4", 12), ("4x4k3", 16)] {
        for opponent in ["random", "perfect", "tricky"] {
            let out = play(
                &["--game", game, "--opponent", opponent, "--seed", "5"],
                &every_cell(cells),
            );
            assert!(
                out.starts_with(&format!("You are X, against {opponent}, on {game}: ")),
                "{out}"
            );
            assert!(
                out.contains(&format!("Type a cell 1-{cells} (numbered row by row)")),
                "{out}"
            );
            let line = result_line(&out);
            assert_eq!(
                replayed_status(game, line),
                line.split_whitespace().nth(1).unwrap(),
                "{out}"
            );
            assert_fits(&out);
        }
    }
    // 3x4 is a win for X: perfect as X beats anyone, in at most 7 plies.
    let out = play(
        &["--game", "3x4", "--as", "o", "--seed", "1"],
        &every_cell(12),
    );
    let line = result_line(&out);
    assert!(line.starts_with("result: x_wins moves: "), "{out}");
    assert!(out.contains("You lose: X made three in a row."), "{out}");
    // The board numbers its cells up to 16, each column as wide as its widest number.
    let out = play(&["--game", "4x4"], "quit\n");
    assert!(out.contains("\n   13 | 14 | 15 | 16\n"), "{out}");
    assert!(out.contains("\n   1  | 2  | 3  | 4\n"), "{out}");
}

#[test]
fn cells_of_other_games_are_numbers_up_to_their_count() {
    let out = play(
        &["--game", "4x4", "--seed", "1"],
        "17\n0\n05\n+3\nfoo\n\n16\nquit\n",
    );
    let not_a_cell = "is not a cell: cells are numbered 1 to 16, in decimal with no sign or \
                      leading zero.";
    for typed in ["17", "0", "05", "+3"] {
        assert!(out.contains(&format!("\"{typed}\" {not_a_cell}")), "{out}");
    }
    assert!(
        out.contains("\"foo\" is not a move: type a cell 1-16, or hint, undo, help, quit."),
        "{out}"
    );
    assert!(
        out.contains("Type a cell 1-16, or hint, undo, help, quit."),
        "{out}"
    );
    assert!(out.contains("You quit after 2 moves: 16 "), "{out}");
    // A taken cell, and help with the game's numbers.
    let out = play(&["--game", "3x4", "--seed", "1"], "12\n12\nhelp\nquit\n");
    assert!(
        out.contains("cell 12 is already taken by X; pick an empty cell."),
        "{out}"
    );
    assert!(
        out.contains("\n  1-12  mark that cell, numbered row by row as the board shows\n"),
        "{out}"
    );
}

#[test]
fn a_bot_that_plays_only_tic_tac_toe_is_refused_on_other_games() {
    for bot in ["smartbot", "forkbot", "newell-simon"] {
        ttt()
            .args(["play", "--game", "4x4", "--opponent", bot])
            .write_stdin("1\n")
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "error: --opponent: {bot} plays tic-tac-toe (3x3) only, not 4x4: its rules were \
                 written for that board\n"
            ));
    }
    // marcelo plays its listing's odd N x N boards, and says so.
    ttt()
        .args(["play", "--game", "4x4", "--opponent", "marcelo"])
        .write_stdin("1\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "marcelo plays N x N boards with N in a row for an odd N (3x3, 5x5, 7x7, 9x9, \
             11x11), not 4x4",
        ));
    ttt()
        .args(["play", "--game", "5x5", "--opponent", "perfect"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "perfect plays from a solved table, and 5x5 has none solved yet",
        ));
    ttt()
        .args(["play", "--game", "12x12", "--opponent", "random"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a board of 144 cells is too large: at most 128 cells",
        ));
}

#[test]
fn marcelo_plays_nine_by_nine_with_cells_typed_one_to_eighty_one() {
    let out = play(
        &["--game", "9x9", "--opponent", "marcelo", "--seed", "3"],
        &every_cell(81),
    );
    assert!(
        out.contains("on 9x9: 9 rows of 9, 9 in a row wins.\nType a cell 1-81"),
        "{out}"
    );
    // Rule 3: the centre, then rule 4 down the diagonals.
    assert!(
        out.contains("X to move: 1\nmarcelo (O) plays 41.\n"),
        "{out}"
    );
    assert!(
        out.contains("X to move: 2\nmarcelo (O) plays 9.\n"),
        "{out}"
    );
    assert!(
        out.contains("\n   73 | 74 | 75 | 76 | 77 | 78 | 79 | 80 | 81\n"),
        "{out}"
    );
    // O completes the anti-diagonal (9 17 25 33 41 49 57 65 73).
    let line = result_line(&out);
    assert_eq!(
        line,
        "result: o_wins moves: 1 41 2 9 3 17 4 11 5 21 6 25 7 31 8 33 10 51 12 49 13 57 14 61 \
         15 71 16 65 18 73"
    );
    // Every line fits in 100 columns but the result line, which lists every move for
    // `ttt review` to read back, on one line.
    let drawn: String = out
        .lines()
        .filter(|l| !l.starts_with("result: "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_fits(&drawn);
}

#[test]
fn marcelo_plays_eleven_by_eleven_cells_typed_up_to_121() {
    let out = play(
        &["--game", "11x11", "--opponent", "marcelo"],
        "121\n122\nquit\n",
    );
    assert!(out.contains("Type a cell 1-121"), "{out}");
    // Rule 3: the centre, row 6 and column 6.
    assert!(
        out.contains("X to move: 121\nmarcelo (O) plays 61.\n"),
        "{out}"
    );
    assert!(
        out.contains("\"122\" is not a cell: cells are numbered 1 to 121"),
        "{out}"
    );
    assert_fits(&out);
}

#[test]
fn random_and_an_external_bot_play_nine_by_nine() {
    let out = play(
        &["--game", "9x9", "--opponent", "random", "--seed", "4"],
        &every_cell(81),
    );
    assert!(result_line(&out).starts_with("result: "), "{out}");
    let out = play(
        &["--game", "9x9", "--opponent", &first_empty_cell()],
        "81\n80\n79\n78\n77\n76\n75\n74\n73\n",
    );
    // The bot, O, takes the first empty cells, 1 to 8, one short of row 1 when X, a move
    // ahead, fills row 9 from the right.
    assert_eq!(
        result_line(&out),
        "result: x_wins moves: 81 1 80 2 79 3 78 4 77 5 76 6 75 7 74 8 73"
    );
}

#[test]
fn larger_boards_play_against_random_without_hints() {
    let out = play(
        &["--game", "5x5", "--opponent", "random", "--seed", "9"],
        &format!("hint\n{}", every_cell(25)),
    );
    assert!(
        out.contains("No hints on 5x5: no table solved yet; make one with `ttt solve --game 5x5`."),
        "{out}"
    );
    assert!(out.contains("\n   21 | 22 | 23 | 24 | 25\n"), "{out}");
    let line = result_line(&out);
    assert!(line.starts_with("result: "), "{out}");
    assert_fits(&out);
    ttt()
        .args(["play", "--game", "6x6", "--opponent", "random", "--hints"])
        .assert()
        .code(2)
        .stderr(
            "error: --hints: no hints on 6x6: hints come from a solved table, and 6x6 has 36 \
             cells; tables stop at 25; play without --hints\n",
        );
    // A row too long for 100 columns is drawn in bands, the later ones under the first.
    let out = play(
        &["--game", "1x64k5", "--opponent", "random", "--seed", "1"],
        &every_cell(64),
    );
    assert!(
        out.contains("\n   58 | 59 | 60 | 61 | 62 | 63 | 64\n"),
        "{out}"
    );
    result_line(&out);
    assert_fits(&out);
}

#[test]
fn hints_that_do_not_fit_beside_the_board_go_under_it() {
    let out = play(&["--game", "4x4k3", "--hints"], "quit\n");
    assert!(out.contains("  Right: W win, D draw, L loss"), "{out}");
    let out = play(&["--game", "1x12k3", "--hints"], "quit\n");
    assert!(out.contains("  Below: W win, D draw, L loss"), "{out}");
    assert_fits(&out);
}

#[test]
fn an_external_bot_plays_other_games_too() {
    // The bot takes the first empty cell: X 5 6 7 makes three in a row on the middle row.
    let out = play(
        &["--game", "3x4", "--opponent", &first_empty_cell()],
        "5\n6\n7\n",
    );
    assert!(out.contains("(O) plays 2."), "{out}");
    assert_eq!(result_line(&out), "result: x_wins moves: 5 1 6 2 7");
}
