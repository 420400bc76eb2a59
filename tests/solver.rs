//! The solved table against ground truth from outside, and exhaustively against itself.

use std::collections::HashMap;

use ttt_oracle::{
    Board, Cells, Evaluation, FormatError, Symmetry, Table, Value, canonicalize, solve, stats,
    table, verify,
};

/// The figures in tests/data/known_counts.txt, by key.
fn known() -> HashMap<String, String> {
    include_str!("data/known_counts.txt")
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
    let json = serde_json::to_value(stats(table())).unwrap();
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
    let probe = table().probe(&Board::EMPTY);
    assert_eq!(probe.value.name(), known["empty_board.value"]);
    assert_eq!(
        probe.remoteness.to_string(),
        known["empty_board.remoteness"]
    );
}

#[test]
fn every_position_agrees_with_a_one_ply_look_at_its_children() {
    let table = table();
    let boards = Board::reachable();
    assert_eq!(boards.len(), 5478);
    for board in boards {
        let expected = Evaluation::from_children(board, |child| {
            let probe = table.probe(&child);
            (probe.value, probe.remoteness)
        });
        assert_eq!(table.evaluate(&board), expected, "{board}");
        if board.is_over() {
            let value = if board.winner().is_some() {
                Value::Loss
            } else {
                Value::Draw
            };
            assert_eq!((expected.value, expected.remoteness), (value, 0), "{board}");
        } else {
            assert!(!expected.best.is_empty(), "{board}");
            if expected.value == Value::Draw {
                // Every drawing move is optimal.
                let drawing: Cells = table
                    .analyze(&board)
                    .iter()
                    .filter(|m| m.value == Value::Draw)
                    .map(|m| m.cell)
                    .collect();
                assert_eq!(expected.best, drawing, "{board}");
            }
        }
    }
}

#[test]
fn all_eight_images_agree() {
    let table = table();
    for board in Board::reachable() {
        let here = table.evaluate(&board);
        for symmetry in Symmetry::ALL {
            let image = symmetry.apply(board);
            let there = table.evaluate(&image);
            assert_eq!(
                (here.value, here.remoteness),
                (there.value, there.remoteness)
            );
            assert_eq!(
                symmetry.apply_cells(here.best),
                there.best,
                "{board} {symmetry}"
            );
            assert_eq!(symmetry.inverse().apply(image), board);
        }
        let (canonical, symmetry) = canonicalize(board);
        assert_eq!(symmetry.apply(board), canonical.board());
    }
}

#[test]
fn symmetries_form_a_group_of_eight_distinct_permutations() {
    let images: Vec<String> = Symmetry::ALL
        .iter()
        .map(|s| {
            ttt_oracle::Cell::ALL
                .iter()
                .map(|&c| s.apply_cell(c).to_string())
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
    let verification = verify(table());
    assert!(verification.ok(), "{:?}", verification.mismatches);
    assert_eq!(verification.compared, 765);
    assert_eq!(table().solution(), &solve());
}

#[test]
fn embedded_table_fits_in_four_kib() {
    assert!(Table::embedded_bytes().len() <= 4096);
    assert_eq!(table().size_bytes(), Table::embedded_bytes().len());
}

#[test]
fn damaged_tables_are_refused_with_the_reason() {
    let good = Table::embedded_bytes().to_vec();

    let mut bad_magic = good.clone();
    bad_magic[0] = b'Z';
    assert!(matches!(
        Table::from_bytes(&bad_magic),
        Err(FormatError::Magic { .. })
    ));

    let mut bad_version = good.clone();
    bad_version[8] = 99;
    assert!(matches!(
        Table::from_bytes(&bad_version),
        Err(FormatError::Version { found: 99 })
    ));

    let mut bad_entry = good.clone();
    let last = bad_entry.len() - 1;
    bad_entry[last] ^= 0x01;
    assert!(matches!(
        Table::from_bytes(&bad_entry),
        Err(FormatError::Checksum { .. })
    ));

    assert!(matches!(
        Table::from_bytes(&good[..good.len() - 3]),
        Err(FormatError::Truncated { .. })
    ));

    let mut trailing = good.clone();
    trailing.push(0);
    assert!(matches!(
        Table::from_bytes(&trailing),
        Err(FormatError::Trailing { bytes: 1 })
    ));

    assert!(Table::from_bytes(&[]).is_err());
    assert!(Table::from_bytes(&[0xff; 64]).is_err());
}

#[test]
fn every_perfect_line_is_legal_as_long_as_the_remoteness_and_follows_best() {
    let table = table();
    let mut in_progress = 0;
    for board in Board::reachable() {
        let line = table.line(&board);
        let start = table.probe(&board);
        assert_eq!(line.len(), usize::from(start.remoteness), "{board}");
        if board.is_over() {
            continue;
        }
        in_progress += 1;
        let mover = board.to_move();
        let mut here = board;
        for &cell in &line {
            assert_eq!(table.best_move(&here), Some(cell), "{board}: at {here}");
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
    let table = table();
    for board in Board::reachable() {
        let best = table.best_moves(&board);
        assert_eq!(table.best_move(&board), best.first(), "{board}");
    }
    // The fastest win is preferred: X wins at once on 3 rather than later.
    let board: Board = "XX.OO....".parse().unwrap();
    assert_eq!(table.best_move(&board).unwrap().number(), 3);
}
