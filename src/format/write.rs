//! Writing a table: the header, the Huffman code of the symbols, the block index and the
//! positions' bit stream, then the checksum.

use super::bits::{BitWriter, write_truncated};
use super::huffman::{canonical_codes, code_lengths};
use super::subsets::{BINOMIAL, subset_rank};
use super::{BLOCK, MNK_FORMAT_VERSION, MNK_MAGIC, Pair, Stored, checksum, empty_cells};
use crate::solve::Digits;

/// Serializes stored positions.
///
/// # Panics
///
/// If a position has no optimal move, or one on a taken cell.
pub fn encode(stored: &Stored) -> Vec<u8> {
    let game = stored.game;
    let digits = Digits::new();
    let mut out = Vec::new();
    out.extend_from_slice(&MNK_MAGIC);
    out.extend_from_slice(&MNK_FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&[game.rows() as u8, game.columns() as u8, game.k() as u8]);
    out.extend_from_slice(&(stored.codes.len() as u32).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u16).to_le_bytes());

    // Gaps: within a block, each code after the first less the one before, less one.
    let gaps: Vec<u64> = stored
        .codes
        .iter()
        .enumerate()
        .filter(|(i, _)| i % BLOCK != 0)
        .map(|(i, &code)| u64::from(code - stored.codes[i - 1] - 1))
        .collect();
    let mean = gaps.iter().sum::<u64>() / gaps.len().max(1) as u64;
    let rice = (64 - mean.max(1).leading_zeros()).saturating_sub(1).min(24);
    out.push(rice as u8);

    // Symbols: the distinct (entry, number of optimal moves) pairs, in that order.
    let pairs: Vec<Pair> = stored
        .entries
        .iter()
        .zip(&stored.best)
        .map(|(&entry, &best)| (entry, best.count_ones() as u8))
        .collect();
    let mut symbols = pairs.clone();
    symbols.sort_unstable();
    symbols.dedup();
    let symbol_of = |pair: &Pair| symbols.binary_search(pair).expect("a pair seen");
    let mut counts = vec![0u64; symbols.len()];
    for pair in &pairs {
        counts[symbol_of(pair)] += 1;
    }
    let lengths = code_lengths(&counts);
    let codes = canonical_codes(&lengths);
    out.extend_from_slice(&(symbols.len() as u16).to_le_bytes());
    for (&(entry, optimal), &length) in symbols.iter().zip(&lengths) {
        out.extend_from_slice(&[entry, optimal, length as u8]);
    }

    let mut writer = BitWriter::new();
    let mut index = Vec::new();
    // A game with a table has at most 16 cells: its masks fit a `u64`.
    let full = game.geometry().full() as u64;
    for (i, (&code, pair)) in stored.codes.iter().zip(&pairs).enumerate() {
        if i % BLOCK == 0 {
            index.extend_from_slice(&code.to_le_bytes());
            index.extend_from_slice(&(writer.bits() as u32).to_le_bytes());
        } else {
            let gap = u64::from(code - stored.codes[i - 1] - 1);
            let quotient = gap >> rice;
            for _ in 0..quotient / 32 {
                writer.write(0, 32);
            }
            writer.write(1 << (quotient % 32), quotient as u32 % 32 + 1);
            writer.write(gap, rice);
        }
        let symbol = symbol_of(pair);
        writer.write(u64::from(codes[symbol]), lengths[symbol]);
        let empty = empty_cells(&digits, full, code);
        let best = u64::from(stored.best[i]);
        assert!(
            best != 0 && best & !empty == 0,
            "optimal moves are empty cells"
        );
        let choices = BINOMIAL[empty.count_ones() as usize][usize::from(pair.1)];
        write_truncated(&mut writer, subset_rank(empty, best), choices);
    }
    out.extend_from_slice(&index);
    let positions = writer.finish();
    out.extend_from_slice(&(positions.len() as u32).to_le_bytes());
    out.extend_from_slice(&positions);
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}
