//! The tiers' layout: their sizes, counted without laying them out, and every index the board
//! found there. (The values of the tiered solve are checked against the children of every
//! position of the embedded games in tests/integration/solver.rs and mnk_exhaustive.rs, and
//! against a plain solver in tests/solve.rs and, for the games solved when first used, in
//! mnk_exhaustive.rs.)

use crate::game::Game;
use crate::tiers::{Tiers, tier_sizes};

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
