//! Tic-tac-toe's 4-byte board and dense table against the general position and table, on every
//! legal board; the optimal moves the solve keeps. (Every position against its children, its
//! images and a fresh solve, through `Oracle`, which answers 3x3 from the dense table: in
//! tests/integration/solver.rs.)

use crate::board::{Board, Cell, Cells, Player};
use crate::game::{Game, Mask};
use crate::position::Position;
use crate::solve::solve_game;
use crate::table::Table;
use crate::table::tic_tac_toe::table;
use crate::value::unentry;

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

#[test]
fn a_solve_reports_its_progress_while_asked_and_only_then() {
    use std::sync::{Arc, Mutex};
    let game = "3x4".parse().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let told = Arc::clone(&seen);
    crate::with_solve_progress(
        move |solved, share| told.lock().unwrap().push((solved, share)),
        || Table::solve(game).unwrap(),
    );
    let seen = seen.lock().unwrap().clone();
    // A report after each of the 13 tiers, one once the positions play reaches are read, one
    // once the table is made.
    assert_eq!(seen.len(), 15, "{seen:?}");
    assert!(seen.iter().all(|&(solved, _)| solved == game));
    assert!(
        seen.windows(2).all(|pair| pair[0].1 < pair[1].1),
        "{seen:?}"
    );
    assert_eq!(seen.last().unwrap().1, 1.0);
    // No report outside: the hook is gone once the work returns.
    let after = Arc::new(Mutex::new(0));
    let count = Arc::clone(&after);
    crate::with_solve_progress(move |_, _| *count.lock().unwrap() += 1, || ());
    solve_game(game);
    assert_eq!(*after.lock().unwrap(), 0);
}
