//! Tic-tac-toe's dense layout: the arrays `build.rs` expands from the stored table answer as
//! that table does, and a process refuses arrays or bytes that do not belong together. (The
//! stored format itself, every game's, is attacked in `format`'s tests; a damaged binary is
//! run through in tests/table.rs.)

use crate::board::CODES;
use crate::format::dense::{expand, expanded_checksum};
use crate::format::{self, checksum_of};
use crate::game::Game;
use crate::solve::solve_game;
use crate::table::embedded_bytes;
use crate::table::tic_tac_toe::{Dense, table, try_table};
use crate::verify::Mismatch;

fn stored_bytes() -> &'static [u8] {
    embedded_bytes(Game::TIC_TAC_TOE).unwrap()
}

/// The arrays as `build.rs` expands them from the stored table, and their checksum.
fn arrays() -> (Box<[u16; CODES]>, Box<[u8; CODES]>, u64) {
    let expanded = expand(&format::decode(stored_bytes()).unwrap()).unwrap();
    let words: Box<[u16; CODES]> = expanded.words.try_into().unwrap();
    let sum = expanded_checksum(&words[..], &expanded.first[..]);
    (words, expanded.first, sum)
}

/// The table from `bytes` and the arrays, as a process opens the embedded one.
fn opened(bytes: &[u8], words: &[u16; CODES], first: &[u8; CODES]) -> Result<Dense, String> {
    let (_, _, sum) = arrays();
    Dense::from_expanded(bytes, words, first, checksum_of(stored_bytes()), sum)
}

#[test]
fn try_table_and_table_are_the_same_table() {
    let table_ref: &Dense = table();
    assert!(std::ptr::eq(try_table().unwrap(), table_ref));
    assert_eq!(table_ref.size_bytes(), stored_bytes().len());
    assert_eq!(table_ref.checksum(), checksum_of(stored_bytes()));
    // The front door opens this table for tic-tac-toe.
    let oracle = crate::Oracle::of(Game::TIC_TAC_TOE).unwrap();
    assert_eq!(oracle.size_bytes(), stored_bytes().len());
}

#[test]
fn the_stored_table_is_small() {
    // 1,071 bytes for the 627 canonical positions in play when written: the format of every
    // game (TTTORACL, tic-tac-toe's own, took 3,088 for the 765 canonical positions).
    assert!(stored_bytes().len() <= 1536, "{}", stored_bytes().len());
}

#[test]
fn the_embedded_arrays_answer_as_the_stored_table() {
    let expanded = expand(&format::decode(stored_bytes()).unwrap()).unwrap();
    assert_eq!(table().codes_differing(&expanded).count(), 0);
    let (words, first, _) = arrays();
    assert!(opened(stored_bytes(), &words, &first).is_ok());
}

#[test]
fn a_changed_word_or_move_is_refused() {
    let (mut words, first, _) = arrays();
    words[4321] ^= 0x0004;
    let error = opened(stored_bytes(), &words, &first).err().unwrap();
    assert!(
        error.starts_with("the expanded table does not match its checksum"),
        "{error}"
    );
    let (words, mut first, _) = arrays();
    first[19_682] ^= 0x01;
    let error = opened(stored_bytes(), &words, &first).err().unwrap();
    assert!(
        error.starts_with("the expanded table does not match"),
        "{error}"
    );
}

#[test]
fn damaged_bytes_are_refused_though_the_arrays_are_whole() {
    let (words, first, _) = arrays();
    let mut bytes = stored_bytes().to_vec();
    // A byte of the positions' bit stream, which opening the table does not decode.
    let at = bytes.len() - 12;
    bytes[at] ^= 0x04;
    let error = opened(&bytes, &words, &first).err().unwrap();
    assert!(error.contains("checksum does not match"), "{error}");
    // Resealed, the checksum is no longer the one the arrays were expanded from.
    let body = bytes.len() - 8;
    let sum = format::checksum(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    let error = opened(&bytes, &words, &first).err().unwrap();
    assert!(
        error.contains("was expanded from the table of checksum"),
        "{error}"
    );
    let error = opened(&bytes[..10], &words, &first).err().unwrap();
    assert!(error.contains("ends too early"), "{error}");
}

#[test]
fn a_position_missing_from_the_stored_table_cannot_be_expanded() {
    let mut stored = format::stored(&solve_game(Game::TIC_TAC_TOE));
    stored.codes.remove(100);
    assert_eq!(expand(&stored).err(), Some("a position in play is missing"));
}

#[test]
fn arrays_that_differ_from_a_fresh_solve_are_mismatches_for_verify() {
    // The empty board valued a win in 9 for X: the arrays then differ at that one code.
    let mut stored = format::stored(&solve_game(Game::TIC_TAC_TOE));
    assert_eq!(stored.codes[0], 0, "the empty board comes first");
    stored.entries[0] = crate::value::entry(crate::Value::Win, 9);
    let mut mismatches: Vec<Mismatch> = Vec::new();
    crate::verify::dense_differing(table(), &stored, &mut mismatches);
    assert_eq!(mismatches.len(), 1);
    assert_eq!(mismatches[0].position.to_string(), ".........");
    assert_eq!(
        mismatches[0].fresh.map(|(v, r, _)| (v, r)),
        Some((crate::Value::Win, 9))
    );
    assert_eq!(
        mismatches[0].table.map(|(v, r, _)| (v, r)),
        Some((crate::Value::Draw, 9))
    );
}
