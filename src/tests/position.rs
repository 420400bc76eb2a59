//! The base-3 code a position keeps from move to move, against one worked out from its marks.

use crate::game::Game;
use crate::player::Player;
use crate::position::{CODED_CELLS, Position};
use crate::rng::SplitMix64;

/// The code of `position`'s first 20 cells, digit by digit: 1 for X, 2 for O.
fn code_by_digits(position: &Position) -> u64 {
    let cells = position.game().cells().min(CODED_CELLS);
    (0..cells)
        .map(|cell| {
            let digit = match position.at(cell) {
                Some(Player::X) => 1,
                Some(Player::O) => 2,
                None => 0,
            };
            digit * 3u64.pow(cell as u32)
        })
        .sum()
}

/// Checks the kept code of `position`, its images and what its marks rebuild, then of every
/// position play reaches from it, taking each move back after.
fn walk(position: &Position, seen: &mut usize) {
    *seen += 1;
    let expected = code_by_digits(position);
    assert_eq!(position.code() as u64, expected, "{position}");
    for t in 0..position.geometry().turns().len() {
        let turned = position.turned(t);
        assert_eq!(
            turned.code() as u64,
            code_by_digits(&turned),
            "{position} turned {t}"
        );
    }
    let rebuilt = Position::from_marks(
        position.game(),
        position.marks(Player::X),
        position.marks(Player::O),
    )
    .unwrap();
    assert_eq!(rebuilt.code(), position.code(), "{position}");
    if position.is_over() {
        return;
    }
    for cell in position.legal_moves().iter() {
        let next = position.play(cell).unwrap();
        walk(&next, seen);
        let back = next.unplay_unchecked(cell.index());
        assert_eq!(
            back.code(),
            position.code(),
            "{next} without {}",
            cell.number()
        );
    }
}

#[test]
fn every_position_of_small_games_keeps_its_code() {
    // Every order of the moves: the nodes of tic-tac-toe's game tree, the empty board among
    // them, as the known counts give them.
    let known = include_str!("../../tests/data/known_counts.txt");
    let nodes: usize = known
        .lines()
        .find_map(|line| line.strip_prefix("game_tree_nodes"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|figure| figure.parse().ok())
        .expect("game_tree_nodes in the known counts");
    let mut seen = 0;
    walk(&Position::empty(Game::TIC_TAC_TOE), &mut seen);
    assert_eq!(seen, nodes);
    for game in ["2x4k3", "3x3k2", "1x4k2"] {
        let mut seen = 0;
        walk(&Position::empty(game.parse().unwrap()), &mut seen);
        assert!(seen > 1, "{game}");
    }
}

#[test]
fn random_games_on_larger_boards_keep_the_code_of_their_first_twenty_cells() {
    let mut rng = SplitMix64::new(29);
    for game in ["4x5k4", "5x5k4", "7x7k5", "11x11k5"] {
        let game: Game = game.parse().unwrap();
        for _ in 0..50 {
            let mut position = Position::empty(game);
            while !position.is_over() {
                let moves: Vec<_> = position.legal_moves().iter().collect();
                let cell = moves[rng.below(moves.len() as u64) as usize];
                let next = position.play(cell).unwrap();
                assert_eq!(next.code() as u64, code_by_digits(&next), "{next}");
                assert_eq!(next.unplay_unchecked(cell.index()).code(), position.code());
                position = next;
            }
            let rebuilt = Position::parse(game, &position.to_string()).unwrap();
            assert_eq!(rebuilt.code(), position.code(), "{position}");
        }
    }
}

#[test]
fn threats_and_forks_are_the_rule_bots_own_on_every_tic_tac_toe_board() {
    use crate::bots::tactics::{fork_cells, winning_cells};
    let mut boards = 0;
    for position in Position::reachable(Game::TIC_TAC_TOE) {
        boards += 1;
        let board = position.tic_tac_toe();
        for player in [Player::X, Player::O] {
            assert_eq!(position.winning_cells(player), winning_cells(board, player));
            assert_eq!(position.fork_cells(player), fork_cells(board, player));
        }
    }
    assert_eq!(boards, 5_478);
}

#[test]
fn a_threat_on_a_larger_board_is_one_mark_short_of_k() {
    // 4x4k3: X's 1 2 threatens 3; O's 6 7 threaten 5 and 8. O at 3 would threaten 11 (3-7-11)
    // and 9 (3-6-9) at once, at 10 14 (6-10-14) and 13 (7-10-13), at 11 15 (7-11-15) and 16
    // (6-11-16).
    let game: Game = "4x4k3".parse().unwrap();
    let position = Position::parse(game, "XX../.OO./..../....").unwrap();
    assert_eq!(position.winning_cells(Player::X).to_string(), "3");
    assert_eq!(position.winning_cells(Player::O).to_string(), "5 8");
    assert_eq!(position.fork_cells(Player::O).to_string(), "3 10 11");
}
