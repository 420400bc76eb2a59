//! Tic-tac-toe's dense table and its byte format: every way the embedded bytes can be broken is
//! refused with a reason, never with a panic. (Moved from the integration tests of the table and
//! of the solver when `Table`, `FormatError` and the embedded bytes left the public API; a
//! damaged binary is still run through in tests/table.rs.)

use proptest::prelude::*;

use crate::board::Board;
use crate::format::tic_tac_toe::FormatError;
use crate::table::tic_tac_toe::{Dense, table, try_table};
use crate::verify::verify_bytes;

/// Where the fields of a serialized table start (see the layout in
/// `src/format/tic_tac_toe.rs`).
const CHECKSUM: usize = 12;
const ENTRIES: usize = 28;

fn embedded() -> Vec<u8> {
    Dense::embedded_bytes().to_vec()
}

/// FNV-1a 64, as the format computes it over the entries, so a test can damage the entries and
/// still present a checksum that matches.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Rewrites the stored checksum to match the entries, as a careful forger would.
fn reseal(bytes: &mut [u8]) {
    let checksum = fnv1a64(&bytes[ENTRIES..]);
    bytes[CHECKSUM..CHECKSUM + 8].copy_from_slice(&checksum.to_le_bytes());
}

/// Both ways in refuse `bytes` with the same reason, which is returned.
fn refused(bytes: &[u8]) -> FormatError {
    let error = match Dense::from_bytes(bytes) {
        Ok(_) => panic!("damaged bytes decoded"),
        Err(error) => error,
    };
    assert_eq!(verify_bytes(bytes), Err(error.clone()));
    error
}

#[test]
fn try_table_and_table_are_the_same_table() {
    let table_ref: &Dense = table();
    assert!(std::ptr::eq(try_table().unwrap(), table_ref));
    assert_eq!(table_ref.size_bytes(), Dense::embedded_bytes().len());
    // The front door opens this table for tic-tac-toe.
    let oracle = crate::Oracle::of(crate::Game::TIC_TAC_TOE).unwrap();
    assert_eq!(oracle.size_bytes(), Dense::embedded_bytes().len());
}

#[test]
fn a_single_bit_flip_anywhere_is_refused() {
    // Every byte is flipped, but not every bit of every byte: each decode of damaged bytes
    // costs about 0.3 ms in a debug build, so all 24,704 flips, each decoded by `from_bytes`
    // and by `verify_bytes`, take 15 s. Every bit of the 28 header bytes is flipped, since each
    // field reacts differently; past the header the bit turns with the byte (byte i, bit i % 8),
    // which flips each bit position of the entries nearly 400 times. The bit matters little
    // there: FNV-1a's step `(hash ^ byte) * odd prime` maps different bytes to different
    // states, and different states to different results, so any change within one byte of the
    // entries changes the checksum. About 2 s in a debug build.
    let good = embedded();
    assert_eq!(good.len(), ENTRIES + 765 * 4);
    let mut bytes = good.clone();
    let mut flips = 0;
    for index in 0..bytes.len() {
        let bits = if index < ENTRIES {
            0..8
        } else {
            index % 8..index % 8 + 1
        };
        for bit in bits {
            bytes[index] ^= 1 << bit;
            let error = refused(&bytes);
            // Where the flip lands decides which check sees it first.
            let expected = match index {
                0..8 => matches!(error, FormatError::Magic { .. }),
                8..12 => matches!(error, FormatError::Version { .. }),
                12..20 => matches!(error, FormatError::Checksum { .. }),
                // The entry count: too many runs out of bytes, too few leaves bytes over.
                20..28 => matches!(
                    error,
                    FormatError::Truncated { .. } | FormatError::Trailing { .. }
                ),
                _ => matches!(error, FormatError::Checksum { .. }),
            };
            assert!(expected, "bit {bit} of byte {index}: {error}");
            bytes[index] ^= 1 << bit;
            flips += 1;
        }
    }
    assert_eq!(bytes, good);
    assert_eq!(flips, 28 * 8 + 765 * 4);
}

#[test]
fn every_truncation_is_refused() {
    let good = embedded();
    for length in 0..good.len() {
        assert_eq!(refused(&good[..length]), FormatError::Truncated { length });
    }
}

#[test]
fn stray_bytes_after_the_table_are_refused() {
    let mut bytes = embedded();
    bytes.extend_from_slice(b"junk");
    assert_eq!(refused(&bytes), FormatError::Trailing { bytes: 4 });
}

#[test]
fn entries_that_cannot_be_right_are_refused_even_with_a_matching_checksum() {
    let good = embedded();
    let entry = |index: usize| ENTRIES + 4 * index;
    let word = |bytes: &[u8], at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    // Entry 0 is the empty board (code 0): a draw in 9, every move optimal.
    assert_eq!(word(&good, entry(0)), 0);
    // What to write, where: the board code of entry 0 or 1, or the packed word of entry 0 (the
    // empty board) or 1 (X on 1, O to move).
    let (board_0, board_1, word_0, word_1) = (entry(0), entry(1), entry(0) + 2, entry(1) + 2);
    assert_eq!(word(&good, board_1), 1);
    let cases: [(&str, usize, u16, &str); 8] = [
        ("a code past 3^9", board_0, 19_683, "not a legal board"),
        (
            "O on 1 and 2, X nowhere",
            board_0,
            2 + 2 * 3,
            "not a legal board",
        ),
        ("the empty board twice", board_1, 0, "out of order"),
        ("value 3", word_0, 3 << 13 | 5 << 9 | 1, "invalid value"),
        (
            "remoteness 12",
            word_0,
            1 << 13 | 12 << 9 | 1,
            "invalid value or remoteness",
        ),
        (
            "no optimal move",
            word_0,
            1 << 13 | 9 << 9,
            "no optimal move",
        ),
        ("remoteness 0", word_0, 1 << 13 | 0x1ff, "remoteness 0"),
        (
            "a draw in 9 after a move",
            word_1,
            1 << 13 | 9 << 9 | 0x1fe,
            "longer than the moves left",
        ),
    ];
    for (what, at, value, reason) in cases {
        let mut bytes = good.clone();
        bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
        reseal(&mut bytes);
        let error = refused(&bytes);
        assert!(
            error.to_string().contains(reason),
            "{what}: {error}, not {reason:?}"
        );
    }
}

#[test]
fn a_wrong_value_with_a_matching_checksum_is_a_mismatch_for_verify() {
    // The empty board (entry 0) valued a win in 9 for X: decodes, but a fresh solve disagrees.
    let mut bytes = embedded();
    let win_in_nine: u16 = 2 << 13 | 9 << 9 | 0x1ff;
    bytes[ENTRIES + 2..ENTRIES + 4].copy_from_slice(&win_in_nine.to_le_bytes());
    reseal(&mut bytes);
    let verification = verify_bytes(&bytes).expect("structurally sound");
    assert!(!verification.is_ok());
    assert_eq!(verification.mismatches.len(), 1);
    assert_eq!(verification.mismatches[0].position.to_string(), ".........");
    assert_ne!(verification.table_checksum, verification.fresh_checksum);
}

#[test]
fn finished_games_must_be_valued_as_they_ended() {
    // The first finished position among the entries, valued a draw in 1 instead.
    let good = embedded();
    let table = Dense::from_bytes(&good).unwrap();
    let index = table
        .solution()
        .entries()
        .iter()
        .position(|(canonical, _)| canonical.board().is_over())
        .unwrap();
    let mut bytes = good.clone();
    let at = ENTRIES + 4 * index + 2;
    bytes[at..at + 2].copy_from_slice(&(1u16 << 13 | 1 << 9).to_le_bytes());
    reseal(&mut bytes);
    assert_eq!(
        refused(&bytes),
        FormatError::Entry {
            index,
            reason: "a finished game valued other than as it ended"
        }
    );
}

#[test]
fn embedded_table_fits_in_four_kib() {
    assert!(Dense::embedded_bytes().len() <= 4096);
    assert_eq!(table().size_bytes(), Dense::embedded_bytes().len());
}

#[test]
fn damaged_tables_are_refused_with_the_reason() {
    let good = Dense::embedded_bytes().to_vec();

    let mut bad_magic = good.clone();
    bad_magic[0] = b'Z';
    assert!(matches!(
        Dense::from_bytes(&bad_magic),
        Err(FormatError::Magic { .. })
    ));

    let mut bad_version = good.clone();
    bad_version[8] = 99;
    assert!(matches!(
        Dense::from_bytes(&bad_version),
        Err(FormatError::Version { found: 99 })
    ));

    let mut bad_entry = good.clone();
    let last = bad_entry.len() - 1;
    bad_entry[last] ^= 0x01;
    assert!(matches!(
        Dense::from_bytes(&bad_entry),
        Err(FormatError::Checksum { .. })
    ));

    assert!(matches!(
        Dense::from_bytes(&good[..good.len() - 3]),
        Err(FormatError::Truncated { .. })
    ));

    let mut trailing = good.clone();
    trailing.push(0);
    assert!(matches!(
        Dense::from_bytes(&trailing),
        Err(FormatError::Trailing { bytes: 1 })
    ));

    assert!(Dense::from_bytes(&[]).is_err());
    assert!(Dense::from_bytes(&[0xff; 64]).is_err());
}

proptest! {
    #[test]
    fn no_bytes_make_the_decoder_panic(bytes in prop::collection::vec(any::<u8>(), 0..4000)) {
        prop_assert!(Dense::from_bytes(&bytes).is_err());
    }

    #[test]
    fn no_damage_to_the_embedded_bytes_makes_the_decoder_panic(
        damage in prop::collection::vec((0..3088usize, any::<u8>()), 1..8),
        reseal_checksum in any::<bool>(),
    ) {
        let mut bytes = embedded();
        for (index, value) in damage {
            bytes[index] = value;
        }
        if reseal_checksum {
            reseal(&mut bytes);
        }
        if let Ok(table) = Dense::from_bytes(&bytes) {
            // Whatever got through answers every legal position, with legal moves.
            for board in Board::reachable() {
                let moves = table.best_moves(&board);
                prop_assert_eq!(moves.intersection(board.legal_moves()), moves);
                prop_assert_eq!(moves.is_empty(), board.is_over());
            }
        }
    }

    #[test]
    fn arbitrary_entries_behind_a_valid_header_decode_or_fail_cleanly(
        entries in prop::collection::vec((0..20_000u16, any::<u16>()), 0..800),
    ) {
        let mut bytes = embedded()[..ENTRIES].to_vec();
        bytes[ENTRIES - 8..].copy_from_slice(&(entries.len() as u64).to_le_bytes());
        for (board, packed) in entries {
            bytes.extend_from_slice(&board.to_le_bytes());
            bytes.extend_from_slice(&packed.to_le_bytes());
        }
        reseal(&mut bytes);
        let _ = Dense::from_bytes(&bytes);
    }
}

/// The embedded table as a process opens it: from the arrays `build.rs` expanded, checked
/// against their checksum and against the serialized bytes, which are not decoded.
mod expanded {
    use super::*;
    use crate::board::CODES;
    use crate::format::tic_tac_toe::{expand, expanded_checksum};

    fn arrays() -> (Box<[u16; CODES]>, Box<[u8; CODES]>, u64, u64) {
        let decoded = Dense::from_bytes(Dense::embedded_bytes()).unwrap();
        let expanded = expand(decoded.solution()).unwrap();
        let words: Box<[u16; CODES]> = expanded.words.try_into().unwrap();
        let sum = expanded_checksum(&words[..], &expanded.first[..]);
        (words, expanded.first, decoded.checksum(), sum)
    }

    fn opened(
        bytes: &[u8],
        words: &[u16; CODES],
        first: &[u8; CODES],
    ) -> Result<Dense, FormatError> {
        let (_, _, table_sum, sum) = arrays();
        Dense::from_expanded(bytes, words, first, table_sum, sum)
    }

    #[test]
    fn the_embedded_arrays_answer_as_the_decoded_table() {
        let decoded = Dense::from_bytes(Dense::embedded_bytes()).unwrap();
        assert!(table().same_answers(&decoded));
        assert_eq!(table().checksum(), decoded.checksum());
        // Gathered from the words, the canonical entries are the decoded ones.
        assert_eq!(table().solution(), decoded.solution());
        let (words, first, _, _) = arrays();
        assert!(opened(Dense::embedded_bytes(), &words, &first).is_ok());
    }

    #[test]
    fn a_changed_word_or_move_is_refused() {
        let (mut words, first, _, _) = arrays();
        words[4321] ^= 0x0004;
        let error = opened(Dense::embedded_bytes(), &words, &first)
            .err()
            .unwrap();
        assert!(matches!(error, FormatError::Expanded { .. }), "{error}");
        assert!(
            error
                .to_string()
                .starts_with("the expanded table does not match its checksum")
        );
        let (words, mut first, _, _) = arrays();
        first[19_682] ^= 0x01;
        assert!(matches!(
            opened(Dense::embedded_bytes(), &words, &first),
            Err(FormatError::Expanded { .. })
        ));
    }

    #[test]
    fn damaged_bytes_are_refused_though_the_arrays_are_whole() {
        let (words, first, _, _) = arrays();
        let mut bytes = embedded();
        bytes[1000] ^= 0x04;
        assert!(matches!(
            opened(&bytes, &words, &first),
            Err(FormatError::Checksum { .. })
        ));
        // Mended, the checksum is no longer the one the arrays were expanded from.
        reseal(&mut bytes);
        let error = opened(&bytes, &words, &first).err().unwrap();
        assert!(
            error
                .to_string()
                .contains("was expanded from the table of checksum"),
            "{error}"
        );
        bytes.push(0);
        assert!(matches!(
            opened(&bytes, &words, &first),
            Err(FormatError::Trailing { bytes: 1 })
        ));
        assert!(matches!(
            opened(&bytes[..20], &words, &first),
            Err(FormatError::Truncated { length: 20 })
        ));
    }
}
