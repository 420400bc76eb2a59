//! The general table of the m,n,k games and its byte format: a table read in place answers as
//! the same table unpacked, unpacks itself after so many lookups, and damaged bytes are refused,
//! never met with a panic. (Moved from the integration tests of the m,n,k games when the table,
//! its bytes and its format error left the public API.)

use proptest::prelude::*;

use crate::cells::Cells;
use crate::format::TableFormatError;
use crate::game::{Game, Mask};
use crate::position::Position;
use crate::solve::solve_game;
use crate::table::{Table, embedded_bytes, of};

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

/// The embedded table of `game`, read in place and never unpacked, gives every canonical
/// position in play the value and remoteness of the same table unpacked, and an image of each
/// the same optimal moves, those the solver found turned with it.
fn check_compressed(game: Game) {
    let bytes = embedded_bytes(game).unwrap();
    let compressed = Table::compressed(bytes, usize::MAX).unwrap();
    let unpacked = Table::from_bytes(bytes).unwrap();
    let solution = solve_game(game);
    assert_eq!(
        compressed.stored_positions(),
        solution.best_moves().len(),
        "{game}"
    );
    let turns = game.geometry().turns().len();
    for &(code, best) in solution.best_moves() {
        let (x, o) = marks(code.into(), game.cells());
        let canonical =
            Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).unwrap();
        assert_eq!(
            compressed.probe(&canonical),
            unpacked.probe(&canonical),
            "{canonical:?}"
        );
        // One lookup each, since a lookup in place decodes part of a block: an image, so that
        // the moves are turned back.
        let turn = code as usize % turns;
        let turned = canonical.turned(turn);
        let moves = compressed.best_moves(&turned).bits();
        assert_eq!(moves, unpacked.best_moves(&turned).bits(), "{turned:?}");
        let back = (0..game.cells())
            .filter(|&cell| moves >> game.geometry().turn_cell(turn, cell) & 1 == 1)
            .fold(0, |mask, cell| mask | 1 << cell);
        assert_eq!(back, Mask::from(best), "{canonical:?} turned {turn}");
    }
    assert!(!compressed.is_unpacked());
}

#[test]
fn a_damaged_table_is_an_error_never_a_panic() {
    let bytes = embedded_bytes("3x4".parse().unwrap()).unwrap();
    assert!(Table::from_bytes(bytes).is_ok());
    // Both ways in: decoded and unpacked at once, and read in place.
    let refused = |damaged: Vec<u8>, what: String| {
        assert!(Table::from_bytes(&damaged).is_err(), "{what}");
        let leaked: &'static [u8] = Vec::leak(damaged);
        assert!(Table::compressed(leaked, usize::MAX).is_err(), "{what}");
    };
    for cut in [0, 1, 8, 12, 20, bytes.len() / 2, bytes.len() - 1] {
        refused(bytes[..cut].to_vec(), format!("cut at {cut}"));
    }
    for position in (0..bytes.len()).step_by(97) {
        let mut damaged = bytes.to_vec();
        damaged[position] ^= 0x24;
        refused(damaged, format!("byte {position}"));
    }
}

#[test]
fn a_table_read_in_place_answers_as_unpacked_everywhere_on_the_small_games() {
    // 4x4 and 4x4k3 below, in release.
    for game in ["3x4", "4x3"] {
        check_compressed(game.parse().unwrap());
    }
}

#[test]
fn a_table_read_in_place_unpacks_itself_after_so_many_lookups() {
    let game: Game = "4x3".parse().unwrap();
    let table = Table::compressed(embedded_bytes(game).unwrap(), 3).unwrap();
    let (board, _) = Position::from_move_list(game, "2 1 6").unwrap();
    let answers = |table: &Table| (table.probe(&board), table.best_moves(&board));
    let first = answers(&table);
    assert!(!table.is_unpacked(), "two lookups");
    answers(&table);
    assert!(table.is_unpacked(), "the fourth lookup unpacks");
    assert_eq!(answers(&table), first);
    // The tables of the library are read in place at first.
    assert!(!of("4x4k3".parse().unwrap()).unwrap().is_unpacked());
}

#[test]
fn a_table_of_another_format_version_is_refused_by_its_version() {
    let mut bytes = embedded_bytes("3x4".parse().unwrap()).unwrap().to_vec();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    let error = Table::from_bytes(&bytes).unwrap_err();
    assert_eq!(error, TableFormatError::Version(1));
    assert_eq!(
        error.to_string(),
        "table format version 1, this build reads version 2"
    );
}

/// The checksum of an m,n,k table as its format defines it (`src/format/mod.rs`): FNV-1a's
/// step on the 64-bit words, taken in turn by four lanes, then the lanes and the length. Written
/// here so that a test can damage a table and mend the checksum, as a careful forger would.
fn reseal(bytes: &mut [u8]) {
    const PRIME: u64 = 0x0100_0000_01b3;
    const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    let body = bytes.len() - 8;
    let mut lanes = [BASIS, BASIS ^ 1, BASIS ^ 2, BASIS ^ 3];
    for (i, chunk) in bytes[..body].chunks(8).enumerate() {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        lanes[i % 4] = (lanes[i % 4] ^ u64::from_le_bytes(word)).wrapping_mul(PRIME);
    }
    let sum = lanes
        .into_iter()
        .chain([body as u64])
        .fold(BASIS, |hash, word| (hash ^ word).wrapping_mul(PRIME));
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Damage behind a mended checksum is refused with a reason or decodes to some table,
    /// never a panic.
    #[test]
    fn damage_behind_a_mended_checksum_never_makes_the_decoder_panic(
        damage in prop::collection::vec((0..28_000usize, any::<u8>()), 1..6),
    ) {
        let mut bytes = embedded_bytes("3x4".parse().unwrap())
            .unwrap()
            .to_vec();
        for (index, value) in damage {
            bytes[index] = value;
        }
        reseal(&mut bytes);
        let _ = Table::from_bytes(&bytes);
    }
}

#[test]
fn the_checksum_written_here_is_the_formats() {
    let bytes = embedded_bytes("3x4".parse().unwrap()).unwrap();
    let mut resealed = bytes.to_vec();
    reseal(&mut resealed);
    assert_eq!(resealed, bytes);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; run in release: cargo test --release --lib tests::table"
)]
fn every_position_of_the_4x4_games_is_read_in_place_as_unpacked() {
    for game in ["4x4", "4x4k3"] {
        check_compressed(game.parse().unwrap());
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; run in release: cargo test --release --lib tests::table"
)]
fn every_board_of_4x4_has_the_embedded_best_move_of_its_record() {
    let game: Game = "4x4".parse().unwrap();
    let embedded = of(game).unwrap();
    assert!(!embedded.is_unpacked() && embedded.answers_at_once());
    // The same table's half bytes made in the process from its records.
    let made = Table::from_bytes(embedded_bytes(game).unwrap()).unwrap();
    let mut in_play = 0;
    for code in 0..3u64.pow(16) {
        let (x, o) = marks(code, 16);
        let Ok(board) = Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)) else {
            continue;
        };
        let lowest = made.best_moves(&board).first();
        assert_eq!(embedded.best_move(&board), lowest, "{board:?}");
        assert_eq!(made.best_move(&board), lowest, "{board:?}");
        in_play += usize::from(lowest.is_some());
    }
    // Every board in play, as `ttt stats` counts them by walking the game.
    let stats = crate::Oracle::of(game).unwrap().stats().unwrap();
    assert_eq!(in_play as u64, stats.non_terminal_positions);
    assert!(!embedded.is_unpacked(), "best moves alone never unpack it");
}
