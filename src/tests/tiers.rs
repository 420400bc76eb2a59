//! The tiers' layout: their sizes, counted without laying them out, and every index the board
//! found there. (The values of the tiered solve are checked against the children of every
//! position of the embedded games in tests/integration/solver.rs and mnk_exhaustive.rs, and
//! against a plain solver in tests/solve.rs and, for the games solved when first used, in
//! mnk_exhaustive.rs.)

use crate::game::Game;
use crate::tiers::solve::{WinsByBlock, solve_blocks, solve_tier, wins_in_blocks};
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

/// The pieces a pass reports between cover every block of a tier once, in order, each a
/// hundredth of the tier or `PIECE_ENTRIES` at least (the last may be less).
#[test]
fn the_pieces_of_a_tier_cover_it_in_order() {
    let tiers = Tiers::new("3x6k4".parse().unwrap());
    let mut several = 0;
    for t in 0..tiers.sizes().len() {
        let pieces: Vec<_> = tiers.pieces(t).collect();
        let mut next = 0;
        for (i, piece) in pieces.iter().enumerate() {
            assert_eq!(piece.start, next, "tier {t}");
            assert!(piece.end > piece.start, "tier {t}");
            let entries = piece.len() as u64 * tiers.block(t);
            let last = i == pieces.len() - 1;
            assert!(last || entries >= 1 << 20 || piece.len() * 100 >= tiers.blocks(t));
            next = piece.end;
        }
        assert_eq!(next, tiers.blocks(t), "tier {t}");
        assert!(pieces.len() <= 100, "tier {t}");
        several += usize::from(pieces.len() > 1);
    }
    assert!(
        several >= 3,
        "pieces of more than one block: the test proved nothing"
    );
}

/// A tier solved a piece at a time (an O move's piece reading only its own blocks of the next
/// tier) is the tier solved whole, from any next tier, and each piece is reported once.
#[test]
fn a_tier_solved_in_pieces_is_the_tier_solved_whole() {
    let tiers = Tiers::new("3x6k4".parse().unwrap());
    // X moves in tier 10, O in tier 9: both have more than one piece.
    for t in [9, 10] {
        let mut rng = crate::rng::SplitMix64::new(t as u64);
        // Any entry a solve writes (value and remoteness), at random.
        let next: Vec<u8> = (0..tiers.size(t + 1))
            .map(|_| 1 + (rng.next_u64() % 96) as u8)
            .collect();
        let mut whole = vec![0; tiers.size(t) as usize];
        solve_blocks(&tiers, t, 0..tiers.blocks(t), &next, &mut whole, false);
        let mut pieces = vec![0; tiers.size(t) as usize];
        let reported = std::cell::RefCell::new(Vec::new());
        solve_tier(&tiers, t, &next, &mut pieces, &|n| {
            reported.borrow_mut().push(n)
        });
        assert!(whole == pieces, "tier {t}");
        let reported = reported.into_inner();
        assert!(
            reported.len() > 1,
            "tier {t} in one piece: the test proved nothing"
        );
        assert_eq!(reported.iter().sum::<u64>(), tiers.size(t), "tier {t}");
    }
}

/// What the time of a solve is estimated against (`cache::Plan::estimate`) stands in for the
/// next tier where a solve's work depends on it: a board lost at once (its last mover has a
/// line) stops the look at its parent's moves, and nothing else does. The stand-in has those
/// boards, and only those, where the solved tier has them.
#[test]
fn the_estimates_stand_in_wins_at_once_where_the_solved_tier_does() {
    for game in ["3x4", "3x5k3", "4x4k3"] {
        let tiers = Tiers::new(game.parse().unwrap());
        let solved = crate::tiers::solve_in_memory(&tiers);
        let lost = |t: usize| -> Vec<u8> {
            let at_once = |&e: &u8| if e == crate::tiers::LOST { e } else { 0 };
            solved[t].iter().map(at_once).collect()
        };
        for t in 1..=tiers.cells() {
            if t % 2 == 1 {
                // O to move in tier t, X's move into it read as the block's.
                let by_block = WinsByBlock::new(&tiers, t);
                let stand_in: Vec<u8> = (0..tiers.size(t) as usize).map(|i| by_block[i]).collect();
                assert!(stand_in == lost(t), "game {game}, tier {t}");
            } else {
                let every: Vec<usize> = (0..tiers.blocks(t)).collect();
                assert!(
                    wins_in_blocks(&tiers, t, &every) == lost(t),
                    "game {game}, tier {t}"
                );
            }
            assert!(
                lost(t).contains(&crate::tiers::LOST) || t < 5,
                "game {game}, tier {t}"
            );
        }
    }
}
