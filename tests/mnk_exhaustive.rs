//! Every position of the embedded 4x4 games, checked: the count of 4x4's reachable positions
//! by an independent walk, every entry against its children and its symmetries, each
//! embedded table against a fresh solve, and read in place against the same table unpacked. Too slow for a debug build: `.ci/run` runs this file
//! in release (`cargo test --release --test mnk_exhaustive`).

mod common;

use common::mnk::{check_compressed, check_position, known, reachable};
use ttt_oracle::{Mnk, MnkBoard, mnk_stats, mnk_table, verify_game};

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; .ci/run runs it in release"
)]
fn four_by_four_counts_and_values_match_ground_truth() {
    let mut checked = 0;
    for (game, key, figure) in known() {
        let game: Mnk = game.parse().unwrap();
        if game.cells() != 16 {
            continue;
        }
        match key.as_str() {
            "reachable_positions" => {
                let walked = reachable(game.rows(), game.columns(), game.k());
                assert_eq!(walked.len().to_string(), figure, "{game}: independent walk");
                assert_eq!(mnk_stats(game).reachable_positions.to_string(), figure);
                // And the rules accept each of them.
                for (x, o) in walked {
                    MnkBoard::from_marks(game, x, o).unwrap();
                }
            }
            "value" => {
                let probe = mnk_table(game).unwrap().probe(&MnkBoard::empty(game));
                assert_eq!(probe.value.name(), figure, "{game}");
            }
            other => panic!("unknown key {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; .ci/run runs it in release"
)]
fn every_embedded_position_agrees_with_its_children_and_symmetries() {
    for game in Mnk::EMBEDDED {
        let table = mnk_table(game).unwrap();
        let mut positions = 0;
        for (x, o) in reachable(game.rows(), game.columns(), game.k()) {
            check_position(table, &MnkBoard::from_marks(game, x, o).unwrap());
            positions += 1;
        }
        assert_eq!(
            positions as u64,
            mnk_stats(game).reachable_positions,
            "{game}"
        );
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; .ci/run runs it in release"
)]
fn every_embedded_table_equals_a_fresh_solve() {
    for game in Mnk::EMBEDDED {
        let verification = verify_game(game).unwrap();
        assert!(
            verification.ok(),
            "{game}: {:?}",
            verification.mismatches.first()
        );
        assert!(verification.compared > 0);
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; .ci/run runs it in release"
)]
fn every_position_of_the_4x4_games_is_read_in_place_as_unpacked() {
    for game in ["4x4", "4x4k3"] {
        check_compressed(game.parse().unwrap());
    }
}
