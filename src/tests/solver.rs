//! The solver behind the tables, and tic-tac-toe's dense layout with the symmetries of the 3x3
//! board: every position agrees with its children, and the general table with the dense one.
//! (Moved from the integration tests of the solver and of the m,n,k games when these types left
//! the public API; the same answers through `Oracle` stay there, in tests/integration/.)

use crate::board::{Board, Cell, Cells, Player};
use crate::game::{Game, Mask};
use crate::position::Position;
use crate::solve::{solve_game, unentry};
use crate::symmetry::{Symmetry, canonicalize};
use crate::table::Table;
use crate::table::tic_tac_toe::table;
use crate::value::{Evaluation, Value, move_rank};
use crate::verify::verify_game;

/// The X and O masks of a base-3 code of `cells` cells.
fn marks(code: u64, cells: usize) -> (Mask, Mask) {
    let (mut x, mut o, mut rest): (Mask, Mask, u64) = (0, 0, code);
    for i in 0..cells {
        match rest % 3 {
            1 => x |= 1 << i,
            2 => o |= 1 << i,
            _ => {}
        }
        rest /= 3;
    }
    (x, o)
}

/// What a position is worth from the values of its children: a finished game as it ended, else
/// the best of its moves, with every move that reaches that.
fn from_children(board: Board, child: impl Fn(Board) -> (Value, u8)) -> Evaluation {
    if board.is_over() {
        let value = match board.winner() {
            Some(_) => Value::Loss,
            None => Value::Draw,
        };
        return Evaluation {
            value,
            remoteness: 0,
            best: Cells::EMPTY,
        };
    }
    let moves: Vec<(Cell, Value, u8)> = (board.legal_moves().iter())
        .map(|cell| {
            let (value, remoteness) = child(board.play_unchecked(cell));
            (cell, -value, remoteness + 1)
        })
        .collect();
    let top = moves
        .iter()
        .map(|&(_, v, r)| move_rank(v, r))
        .max()
        .unwrap();
    let (_, value, remoteness) = *moves
        .iter()
        .find(|&&(_, v, r)| move_rank(v, r) == top)
        .unwrap();
    Evaluation {
        value,
        remoteness,
        best: (moves.iter())
            .filter(|&&(_, v, r)| move_rank(v, r) == top)
            .map(|&(cell, ..)| cell)
            .collect(),
    }
}

#[test]
fn every_position_agrees_with_a_one_ply_look_at_its_children() {
    let table = table();
    let boards = Board::reachable();
    assert_eq!(boards.len(), 5478);
    for board in boards {
        let expected = from_children(board, |child| {
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
        assert_eq!(symmetry.apply(board), canonical);
    }
}

#[test]
fn symmetries_form_a_group_of_eight_distinct_permutations() {
    let images: Vec<String> = Symmetry::ALL
        .iter()
        .map(|s| {
            Cell::ALL
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
    let verification = verify_game(Game::TIC_TAC_TOE).unwrap();
    assert!(verification.is_ok(), "{:?}", verification.mismatches);
    // The canonical positions in play: 765 canonical positions less 138 finished.
    assert_eq!(verification.compared, 627);
}

#[test]
fn the_engine_on_3x3_agrees_with_tic_tac_toe_everywhere() {
    let game = Game::TIC_TAC_TOE;
    // A table in the general layout, solved afresh, beside the embedded dense one.
    let mnk = Table::from_solution(&solve_game(game));
    for board in Board::reachable() {
        let x = board.marks(Player::X).bits();
        let o = board.marks(Player::O).bits();
        let ours = Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).unwrap();
        assert_eq!(ours.to_string(), board.to_string());
        assert_eq!(mnk.probe(&ours), table().probe(&board), "{board}");
        assert_eq!(mnk.best_moves(&ours), table().best_moves(&board), "{board}");
        assert_eq!(mnk.analyze(&ours), table().analyze(&board), "{board}");
        assert_eq!(ours.status(), board.status());
        assert_eq!(ours.tic_tac_toe(), board);
        assert_eq!(Position::from_board(board), ours);
        // The 4-byte board plays by the same rules: the same moves, to the same boards, and
        // the same errors for every other cell of the board.
        assert_eq!(ours.legal_moves(), board.legal_moves(), "{board}");
        for cell in Cell::ALL {
            let played = board.play(cell).map(Position::from_board);
            assert_eq!(played, ours.play(cell).ok(), "{board} {cell}");
        }
    }
    // Every legal board, as counted by others (tests/data/known_counts.txt).
    assert_eq!(Board::reachable().len(), 5478);
}

#[test]
fn the_solver_keeps_the_optimal_moves_of_each_position_in_play() {
    for name in ["3x3", "2x4k2", "3x4", "4x3"] {
        let game: Game = name.parse().unwrap();
        let solution = solve_game(game);
        let table = Table::from_solution(&solution);
        let in_play = solution
            .entries()
            .iter()
            .filter(|&&entry| unentry(entry).is_some_and(|(_, remoteness)| remoteness > 0))
            .count();
        assert_eq!(solution.best_moves().len(), in_play, "{game}");
        let mut last = None;
        for &(code, best) in solution.best_moves() {
            assert!(last < Some(code), "{game}: by ascending code");
            last = Some(code);
            let (x, o) = marks(code.into(), game.cells());
            let board =
                Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).unwrap();
            assert_eq!(
                Cells::from_bits(Mask::from(best)),
                table.best_moves(&board),
                "{game} {code}"
            );
        }
    }
}
