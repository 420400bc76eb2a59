//! The tiered solve against the memoised one: every position of every embedded game, and of
//! other small games, has the same value and remoteness in both.

use crate::board::code_marks;
use crate::game::Game;
use crate::solve::{Codes, solve_game};
use crate::tiers::{Tiers, solve_in_memory, tier_sizes};

/// Every board with as many X as O, or one X more, of `game` (at most 16 cells): where the
/// memoised solve reached it (through its canonical form), the tiered solve agrees.
fn agrees(game: Game) {
    let solution = solve_game(game);
    let codes = Codes::new(game);
    let tiers = Tiers::new(game);
    let solved = solve_in_memory(&tiers);
    let mut compared = 0u64;
    for code in 0..3u32.pow(game.cells() as u32) {
        let (x, o) = code_marks(code as usize, game.cells());
        let (xs, os) = (x.count_ones(), o.count_ones());
        if xs != os && xs != os + 1 {
            continue;
        }
        let (canonical, _) = codes.canonical(x, o);
        let expected = solution.entries()[canonical as usize];
        if expected == 0 {
            continue;
        }
        let (tier, index) = tiers.locate(x as u32, o as u32);
        let got = solved[tier][index as usize];
        assert_eq!(got, expected, "game {game}, board code {code}");
        compared += 1;
    }
    assert!(compared > 0);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "exhaustive; .ci/test runs it in release")]
fn every_embedded_game_agrees_with_the_memoised_solve() {
    agrees(Game::TIC_TAC_TOE);
    for game in Game::EMBEDDED {
        agrees(game);
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "exhaustive; .ci/test runs it in release")]
fn other_shapes_agree_with_the_memoised_solve() {
    for game in ["2x5k2", "3x5k3", "1x9k3", "2x7k3"] {
        agrees(game.parse().unwrap());
    }
}

#[test]
fn tier_sizes_counted_by_burnside_match_the_layout() {
    for game in ["3x3", "4x4", "3x5k3", "4x5k4", "2x7k3"] {
        let game: Game = game.parse().unwrap();
        let tiers = Tiers::new(game);
        let counted: Vec<u64> = tier_sizes(game).iter().map(|&n| n as u64).collect();
        assert_eq!(counted, tiers.sizes(), "game {game}");
    }
}

#[test]
fn every_index_of_every_tier_is_the_board_found_there() {
    for game in ["3x3", "2x5k2", "1x9k3"] {
        let tiers = Tiers::new(game.parse().unwrap());
        for t in 0..tiers.sizes().len() {
            for index in 0..tiers.size(t) {
                let (x, o) = tiers.board(t, index);
                assert_eq!(x & o, 0, "game {game}, tier {t}, index {index}");
                assert_eq!(tiers.locate(x, o), (t, index), "game {game}");
            }
        }
    }
}
