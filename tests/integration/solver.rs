//! Tic-tac-toe's solved table, through the public `Oracle`, against ground truth from outside
//! and exhaustively against itself (its children, its images, a fresh solve), through the
//! dense layout that answers 3x3. That layout against the general one, and its bytes, are
//! checked by the unit tests in src/tests/solver.rs and src/tests/dense_table.rs.

use crate::common;

use std::collections::HashMap;

use common::mnk::{SYMMETRIES, symmetries, turn_cell, turn_cells, turned};
use ttt_oracle::{Cell, Cells, Game, Oracle, Position, Value};

const GAME: Game = Game::TIC_TAC_TOE;

fn oracle() -> Oracle {
    Oracle::of(GAME).unwrap()
}

/// The figures in tests/data/known_counts.txt, by key.
fn known() -> HashMap<String, String> {
    include_str!("../data/known_counts.txt")
        .lines()
        .map(|line| line.split('#').next().unwrap().trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let mut parts = line.split_whitespace();
            let key = parts.next().unwrap().to_string();
            let value = parts.next().expect("a figure after the key").to_string();
            (key, value)
        })
        .collect()
}

#[test]
fn stats_reproduce_every_known_count() {
    let known = known();
    let json = serde_json::to_value(oracle().stats().unwrap()).unwrap();
    let mut checked = 0;
    for (key, expected) in &known {
        if key.starts_with("empty_board.") {
            continue;
        }
        let mut node = &json;
        for part in key.split('.') {
            node = node
                .get(part)
                .unwrap_or_else(|| panic!("stats have no {key}"));
        }
        let found = match node {
            serde_json::Value::Array(items) => items
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(","),
            other => other.to_string(),
        };
        assert_eq!(&found, expected, "{key}");
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} figures checked");
}

#[test]
fn empty_board_is_a_draw_in_nine() {
    let known = known();
    let probe = oracle().probe(&Position::empty(GAME));
    assert_eq!(probe.value.name(), known["empty_board.value"]);
    assert_eq!(
        probe.remoteness.to_string(),
        known["empty_board.remoteness"]
    );
}

#[test]
fn every_position_agrees_with_a_one_ply_look_at_its_children() {
    let oracle = oracle();
    let boards: Vec<Position> = Position::reachable(GAME).collect();
    assert_eq!(boards.len(), 5478);
    for board in boards {
        let probe = oracle.probe(&board);
        let best = oracle.best_moves(&board);
        if board.is_over() {
            let value = if board.winner().is_some() {
                Value::Loss
            } else {
                Value::Draw
            };
            assert_eq!((probe.value, probe.remoteness), (value, 0), "{board}");
            assert_eq!(best, Cells::EMPTY, "{board}");
            continue;
        }
        // One ply of minimax, written out: the best value, then the fastest win or the
        // slowest loss; every move that reaches it is optimal.
        let mut expected: Option<(Value, u8)> = None;
        let mut expected_best = Cells::EMPTY;
        let rank = |(value, remoteness): (Value, u8)| match value {
            Value::Win => 100 - i32::from(remoteness),
            Value::Draw => 0,
            Value::Loss => -100 + i32::from(remoteness),
        };
        for cell in board.legal_moves() {
            let child = oracle.probe(&board.play(cell).unwrap());
            let here = (-child.value, child.remoteness + 1);
            match expected {
                Some(top) if rank(here) < rank(top) => {}
                Some(top) if rank(here) == rank(top) => expected_best = expected_best.with(cell),
                _ => {
                    expected = Some(here);
                    expected_best = Cells::EMPTY.with(cell);
                }
            }
        }
        let expected = expected.expect("a game in progress has a legal move");
        assert_eq!((probe.value, probe.remoteness), expected, "{board}");
        assert_eq!(best, expected_best, "{board}");
        assert!(!best.is_empty(), "{board}");
        if probe.value == Value::Draw {
            // Every drawing move is optimal.
            let drawing: Cells = oracle
                .moves(&board)
                .iter()
                .filter(|m| m.value == Value::Draw)
                .map(|m| m.cell)
                .collect();
            assert_eq!(best, drawing, "{board}");
        }
    }
}

#[test]
fn all_eight_images_agree() {
    let oracle = oracle();
    assert_eq!(symmetries(GAME).len(), 8);
    for board in Position::reachable(GAME) {
        let here = (oracle.probe(&board), oracle.best_moves(&board));
        for s in symmetries(GAME) {
            let image = turned(&board, s);
            let there = (oracle.probe(&image), oracle.best_moves(&image));
            assert_eq!(here.0, there.0, "{board} {}", SYMMETRIES[s]);
            assert_eq!(
                turn_cells(GAME, s, here.1),
                there.1,
                "{board} {}",
                SYMMETRIES[s]
            );
        }
    }
}

#[test]
fn the_symmetries_written_here_are_eight_distinct_permutations() {
    // The images of cells 1..9 under each symmetry, as the tests' own turns make them.
    let images: Vec<String> = symmetries(GAME)
        .into_iter()
        .map(|s| {
            (0..9)
                .map(|cell| (turn_cell(GAME, s, cell) + 1).to_string())
                .collect()
        })
        .collect();
    let mut distinct = images.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 8);
    assert_eq!(
        images[1], "369258147",
        "rotate90 is a quarter turn clockwise"
    );
}

#[test]
fn embedded_table_equals_a_fresh_solve() {
    let verification = oracle().verify().unwrap();
    assert!(verification.is_ok(), "{:?}", verification.mismatches);
    assert_eq!(verification.game, GAME);
    // The canonical positions in play: 765 canonical positions less 138 finished.
    assert_eq!(verification.compared, 627);
    assert_eq!(verification.table_checksum, verification.fresh_checksum);
}

#[test]
fn embedded_table_fits_in_four_kib() {
    let oracle = oracle();
    assert!(oracle.size_bytes() <= 4096);
    assert_eq!(
        oracle.stats().unwrap().table_bytes,
        oracle.size_bytes() as u64
    );
}

#[test]
fn every_perfect_line_is_legal_as_long_as_the_remoteness_and_follows_best() {
    let oracle = oracle();
    let mut in_progress = 0;
    for board in Position::reachable(GAME) {
        let line = oracle.line(&board);
        let start = oracle.probe(&board);
        assert_eq!(line.len(), usize::from(start.remoteness), "{board}");
        if board.is_over() {
            continue;
        }
        in_progress += 1;
        let mover = board.to_move();
        let mut here = board;
        for &cell in &line {
            assert_eq!(oracle.best_move(&here), Some(cell), "{board}: at {here}");
            here = here.play(cell).unwrap_or_else(|e| panic!("{board}: {e}"));
        }
        assert!(here.is_over(), "{board}: the line stops at {here}");
        let ended = match here.winner() {
            Some(winner) if winner == mover => Value::Win,
            Some(_) => Value::Loss,
            None => Value::Draw,
        };
        assert_eq!(ended, start.value, "{board}: the line ends on {here}");
    }
    assert_eq!(in_progress, 4520);
}

#[test]
fn best_move_is_deterministic_and_optimal() {
    let oracle = oracle();
    for board in Position::reachable(GAME) {
        let best = oracle.best_moves(&board);
        assert_eq!(oracle.best_move(&board), best.first(), "{board}");
    }
    // The fastest win is preferred: X wins at once on 3 rather than later.
    let board = Position::parse(GAME, "XX.OO....").unwrap();
    assert_eq!(oracle.best_move(&board), Cell::from_number(3));
}
