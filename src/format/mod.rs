//! The serialized table of an m,n,k game: what `build.rs` writes for each embedded game, and
//! what `ttt` reads back, whole or a block at a time. Shared with `build.rs` (through
//! `#[path]`).
//!
//! Only the canonical positions still in play are stored: a finished board needs no table,
//! and the other images of a position are found by symmetry. Each position carries its entry
//! (value and remoteness) and its optimal moves, so that a best move is one position's
//! record, not one per legal move. Positions go by ascending base-3 code in blocks of
//! `block`; an index gives each block's first code and the bit where the block starts, so
//! that one position is found by decoding one block. Layout (integers little-endian):
//!
//! | field | size | meaning |
//! | --- | --- | --- |
//! | magic | 8 | `TTTMNKTB` |
//! | version | 4 | [`MNK_FORMAT_VERSION`] |
//! | rows, columns, k | 1 each | the game |
//! | count | 4 | canonical positions in play stored |
//! | block | 2 | positions a block |
//! | rice | 1 | the Rice parameter of the gaps |
//! | symbols | 2 + 3 each | how many pairs, then each pair's entry, move count and code length |
//! | index | 8 a block | the block's first code, and the bit where the block starts |
//! | positions | 4 + bytes | a bit stream, a record per position |
//! | checksum | 8 | [`checksum`] of everything before it |
//!
//! A pair is an entry and a number of optimal moves, as one Huffman symbol. A position's record
//! is: but for a block's first, its code less the one before, less one, Rice-coded; the Huffman
//! code of its pair (entry, n); and which of the C(e, n) sets of n of its e empty cells are its
//! optimal moves, as their colex rank in truncated binary. Bit streams are read from the low
//! bit of each byte up.

pub mod tic_tac_toe;

use std::fmt;

use crate::game::{Game, MAX_TABLE_CELLS};
use crate::solve::{Digits, Entry, MnkSolution, unentry};

/// The first eight bytes of an m,n,k table.
pub const MNK_MAGIC: [u8; 8] = *b"TTTMNKTB";

/// The version of this layout; a reader refuses any other.
pub const MNK_FORMAT_VERSION: u32 = 2;

/// Positions a block: one query decodes up to this many (a few microseconds), and the index
/// costs 8 bytes a block.
pub const BLOCK: usize = 256;

/// The longest Huffman code; a decoder looks codes up in a table of `2^MAX_CODE` entries.
const MAX_CODE: u32 = 12;

/// What a position's Huffman code stands for: its entry, and how many optimal moves it has.
type Pair = (Entry, u8);

/// Bytes of a block's index record: its first code, and the bit where it starts.
const INDEX_RECORD: usize = 8;

/// Why bytes are not an m,n,k table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MnkFormatError {
    /// The bytes end before the table does.
    Truncated,
    /// Not a table of this kind.
    BadMagic,
    /// Written by another version of the layout.
    Version(u32),
    /// The stored checksum does not match the bytes.
    Checksum,
    /// The bytes hold a table, but something in it is impossible: what.
    Invalid(&'static str),
}

impl fmt::Display for MnkFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MnkFormatError::Truncated => f.write_str("the table ends too early"),
            MnkFormatError::BadMagic => f.write_str("not an m,n,k table (wrong magic)"),
            MnkFormatError::Version(version) => write!(
                f,
                "table format version {version}, this build reads version {MNK_FORMAT_VERSION}"
            ),
            MnkFormatError::Checksum => f.write_str("the checksum does not match: damaged table"),
            MnkFormatError::Invalid(what) => write!(f, "damaged table: {what}"),
        }
    }
}

impl std::error::Error for MnkFormatError {}

/// The positions of a decoded table: base-3 codes of canonical boards in play, ascending, and
/// the entry and optimal moves of each.
pub struct Stored {
    /// The game.
    pub game: Game,
    /// Codes, ascending.
    pub codes: Vec<u32>,
    /// The entry of each code.
    pub entries: Vec<Entry>,
    /// The optimal moves of each code, as a mask (bit `i` is cell `i + 1`).
    pub best: Vec<u16>,
}

/// One stored position: its code, entry and optimal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredPosition {
    /// The base-3 code of the canonical board.
    pub code: u32,
    /// Its value and remoteness.
    pub entry: Entry,
    /// Its optimal moves, as a mask (bit `i` is cell `i + 1`).
    pub best: u16,
}

/// Collects the positions a table stores from a solution: the canonical boards in play.
pub fn stored(solution: &MnkSolution) -> Stored {
    let game = solution.game();
    let (mut codes, mut entries, mut best) = (Vec::new(), Vec::new(), Vec::new());
    let mut moves = solution.best_moves().iter();
    for (code, &entry) in solution.entries().iter().enumerate() {
        // A remoteness of 0 is a finished board.
        if matches!(unentry(entry), Some((_, remoteness)) if remoteness > 0) {
            let &(visited, mask) = moves.next().expect("every board in play was visited");
            assert_eq!(visited, code as u32, "the solver visits the boards in play");
            codes.push(visited);
            entries.push(entry);
            best.push(mask);
        }
    }
    Stored {
        game,
        codes,
        entries,
        best,
    }
}

/// The checksum of a table: FNV-1a's step (xor, then multiply by its prime) on 64-bit words in
/// four interleaved lanes, then the lanes and the length folded by the same step. Each step is
/// one-to-one in its lane, so a damaged word changes its lane for good; four lanes keep four
/// multiplications in flight, so the 1.4 MB of 4x4's table take about 0.1 ms, where FNV-1a a
/// byte at a time takes 1.6 ms, more than a whole `ttt best` on tic-tac-toe.
pub fn checksum(bytes: &[u8]) -> u64 {
    const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;
    let step = |hash: u64, word: u64| (hash ^ word).wrapping_mul(PRIME);
    let word = |chunk: &[u8]| {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        u64::from_le_bytes(bytes)
    };
    let mut lanes = [BASIS, BASIS ^ 1, BASIS ^ 2, BASIS ^ 3];
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        for (lane, bytes) in lanes.iter_mut().zip(chunk.chunks_exact(8)) {
            *lane = step(*lane, word(bytes));
        }
    }
    for (lane, bytes) in lanes.iter_mut().zip(chunks.remainder().chunks(8)) {
        *lane = step(*lane, word(bytes));
    }
    lanes
        .into_iter()
        .chain([bytes.len() as u64])
        .fold(BASIS, step)
}

struct BitWriter {
    bytes: Vec<u8>,
    buffer: u64,
    filled: u32,
}

impl BitWriter {
    fn new() -> BitWriter {
        BitWriter {
            bytes: Vec::new(),
            buffer: 0,
            filled: 0,
        }
    }

    /// Writes the low `count` (at most 32) bits of `bits`.
    fn write(&mut self, bits: u64, count: u32) {
        self.buffer |= (bits & ((1 << count) - 1)) << self.filled;
        self.filled += count;
        while self.filled >= 8 {
            self.bytes.push(self.buffer as u8);
            self.buffer >>= 8;
            self.filled -= 8;
        }
    }

    /// How many bits have been written.
    fn bits(&self) -> u64 {
        8 * self.bytes.len() as u64 + u64::from(self.filled)
    }

    fn finish(mut self) -> Vec<u8> {
        if self.filled > 0 {
            self.bytes.push(self.buffer as u8);
        }
        self.bytes
    }
}

struct BitReader<'a> {
    bytes: &'a [u8],
    /// The next byte to load.
    next: usize,
    buffer: u64,
    filled: u32,
}

impl<'a> BitReader<'a> {
    /// A reader from bit `bit` of `bytes`, which is at most their length in bits.
    fn at(bytes: &'a [u8], bit: usize) -> BitReader<'a> {
        let mut reader = BitReader {
            bytes,
            next: bit / 8,
            buffer: 0,
            filled: 0,
        };
        reader.refill();
        reader.buffer >>= bit % 8;
        reader.filled -= (bit % 8) as u32;
        reader
    }

    fn refill(&mut self) {
        // Whole bytes up to 56 bits: eight read at once where eight remain.
        let room = (63 - self.filled) / 8;
        let mut word = [0u8; 8];
        if let Some(bytes) = self.bytes.get(self.next..self.next + 8) {
            word.copy_from_slice(bytes);
        } else if let Some(bytes) = self.bytes.get(self.next..) {
            word[..bytes.len()].copy_from_slice(bytes);
        }
        let fresh = u64::from_le_bytes(word) & ((1u64 << (8 * room)) - 1);
        self.buffer |= fresh << self.filled;
        self.next += room as usize;
        self.filled += 8 * room;
    }

    /// The next 32 bits without taking them (zeros past the end).
    fn peek(&mut self) -> u64 {
        if self.filled < 32 {
            self.refill();
        }
        self.buffer & 0xffff_ffff
    }

    /// Takes `count` bits (at most 32), zeros past the end of the stream: a reader checks
    /// [`past_end`](BitReader::past_end) once it has read a whole record.
    fn take(&mut self, count: u32) -> u64 {
        let bits = self.peek() & ((1u64 << count) - 1);
        self.buffer >>= count;
        self.filled -= count;
        bits
    }

    /// An error if more bits were taken than the stream holds.
    fn past_end(&self) -> Result<(), MnkFormatError> {
        if 8 * self.next - self.filled as usize > 8 * self.bytes.len() {
            return Err(MnkFormatError::Truncated);
        }
        Ok(())
    }
}

/// Code lengths of a Huffman code for `counts` (zero counts get none), at most [`MAX_CODE`].
fn code_lengths(counts: &[u64]) -> Vec<u32> {
    let mut counts = counts.to_vec();
    loop {
        // Nodes: (weight, symbols below). Merging the two lightest adds one to each depth.
        let mut lengths = vec![0u32; counts.len()];
        let mut nodes: Vec<(u64, Vec<usize>)> = counts
            .iter()
            .enumerate()
            .filter(|(_, count)| **count > 0)
            .map(|(symbol, &count)| (count, vec![symbol]))
            .collect();
        if nodes.len() == 1 {
            lengths[nodes[0].1[0]] = 1;
            return lengths;
        }
        while nodes.len() > 1 {
            nodes.sort_by_key(|node| std::cmp::Reverse(node.0));
            let (a, b) = (
                nodes.pop().expect("two nodes"),
                nodes.pop().expect("two nodes"),
            );
            for &symbol in a.1.iter().chain(&b.1) {
                lengths[symbol] += 1;
            }
            nodes.push((a.0 + b.0, [a.1, b.1].concat()));
        }
        if lengths.iter().all(|&length| length <= MAX_CODE) {
            return lengths;
        }
        // Too deep: flatten the counts and try again.
        for count in &mut counts {
            if *count > 0 {
                *count = (*count).div_ceil(2);
            }
        }
    }
}

/// Canonical Huffman codes from lengths, bit-reversed so that the first bit written is the
/// code's first bit.
fn canonical_codes(lengths: &[u32]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..lengths.len()).filter(|&s| lengths[s] > 0).collect();
    order.sort_by_key(|&s| (lengths[s], s));
    let mut codes = vec![0u32; lengths.len()];
    let (mut code, mut length) = (0u32, 0u32);
    for (i, &symbol) in order.iter().enumerate() {
        if i > 0 {
            code += 1;
        }
        code <<= lengths[symbol] - length;
        length = lengths[symbol];
        codes[symbol] = code.reverse_bits() >> (32 - length);
    }
    codes
}

/// `C(n, k)` for `n` up to 16, the most empty cells a table's board has.
const BINOMIAL: [[u32; MAX_TABLE_CELLS + 1]; MAX_TABLE_CELLS + 1] = {
    let mut table = [[0u32; MAX_TABLE_CELLS + 1]; MAX_TABLE_CELLS + 1];
    let mut n = 0;
    while n <= MAX_TABLE_CELLS {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// The rank of the set `chosen` among the sets of as many of the cells of `cells`, in colex
/// order: the sum, over the chosen cells, of C(p, j) for the p-th cell of `cells` that is the
/// j-th chosen (both counted from 0, j from 1).
fn subset_rank(cells: u64, chosen: u64) -> u32 {
    let (mut rank, mut p, mut j) = (0, 0, 0);
    let mut rest = cells;
    while rest != 0 {
        let cell = rest.trailing_zeros();
        rest &= rest - 1;
        if chosen >> cell & 1 == 1 {
            j += 1;
            rank += BINOMIAL[p][j];
        }
        p += 1;
    }
    rank
}

/// The set of `n` of the cells of `cells` whose rank is `rank` ([`subset_rank`] undone):
/// from the highest cell down, a cell is chosen when C(p, j) fits in what is left of the rank.
/// Without branches, since which cells are chosen cannot be predicted.
fn subset_unrank(cells: u64, n: usize, rank: u32) -> u64 {
    if n == 1 {
        // Half of 4x4's positions: the rank-th cell.
        let mut rest = cells;
        for _ in 0..rank {
            rest &= rest - 1;
        }
        return rest & rest.wrapping_neg();
    }
    let (mut chosen, mut rank, mut j) = (0u64, rank, n);
    let mut rest = cells;
    for p in (0..cells.count_ones() as usize).rev() {
        let cell = 63 - rest.leading_zeros();
        rest ^= 1 << cell;
        // C(p, 0) is 1 and the rank is 0 once all are chosen, so nothing more is.
        let take = BINOMIAL[p][j] <= rank;
        rank -= BINOMIAL[p][j] * u32::from(take);
        chosen |= u64::from(take) << cell;
        j -= usize::from(take);
    }
    chosen
}

/// Writes `value`, below `choices`, in truncated binary: `b = floor(log2 choices)` bits for the
/// first `2^(b+1) - choices` values, one more bit for the others.
fn write_truncated(writer: &mut BitWriter, value: u32, choices: u32) {
    let bits = 31 - choices.leading_zeros();
    let short = (2u32 << bits) - choices;
    if value < short {
        writer.write(value.into(), bits);
    } else {
        let long = value - short;
        writer.write((short + long / 2).into(), bits);
        writer.write((long % 2).into(), 1);
    }
}

/// Reads what [`write_truncated`] wrote.
fn read_truncated(reader: &mut BitReader, choices: u32) -> u32 {
    let bits = 31 - choices.leading_zeros();
    let short = (2u32 << bits) - choices;
    let head = reader.take(bits) as u32;
    if head < short {
        return head;
    }
    let last = reader.take(1) as u32;
    short + 2 * (head - short) + last
}

/// The empty cells of the board with base-3 code `code`, on a board whose cells are `full`.
fn empty_cells(digits: &Digits, full: u64, code: u32) -> u64 {
    let (x, o) = digits.marks(code);
    !(x | o) & full
}

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

struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], MnkFormatError> {
        if self.0.len() < n {
            return Err(MnkFormatError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, MnkFormatError> {
        Ok(self.bytes(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, MnkFormatError> {
        let bytes = self.bytes(2)?;
        Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
    }

    fn u32(&mut self) -> Result<u32, MnkFormatError> {
        let bytes = self.bytes(4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }
}

/// A table read in place: its checksum, header and block index checked when opened, its
/// positions decoded a block at a time.
pub struct Packed<'a> {
    game: Game,
    count: usize,
    block: usize,
    rice: u32,
    /// What each symbol stands for.
    symbols: Vec<Pair>,
    /// For each `MAX_CODE`-bit window, the symbol whose code starts it and that code's length
    /// (length 0 where no code does).
    decoding: Vec<(u16, u8)>,
    index: &'a [u8],
    positions: &'a [u8],
    digits: Digits,
    /// The mask of every cell.
    full: u64,
    /// The number of boards, `3^cells`: every code is below it.
    limit: u64,
}

impl<'a> Packed<'a> {
    /// Checks magic, version, checksum and header, and that the index is in order and inside
    /// the streams. The positions themselves are checked as they are decoded.
    ///
    /// # Errors
    ///
    /// [`MnkFormatError`] saying what is wrong with the bytes.
    pub fn open(bytes: &'a [u8]) -> Result<Packed<'a>, MnkFormatError> {
        if bytes.len() < 8 + 4 {
            return Err(MnkFormatError::Truncated);
        }
        if bytes[..8] != MNK_MAGIC {
            return Err(MnkFormatError::BadMagic);
        }
        let mut cursor = Cursor(&bytes[8..]);
        let version = cursor.u32()?;
        if version != MNK_FORMAT_VERSION {
            return Err(MnkFormatError::Version(version));
        }
        if bytes.len() < 8 + 4 + 8 {
            return Err(MnkFormatError::Truncated);
        }
        let (body, stored_sum) = bytes.split_at(bytes.len() - 8);
        let mut sum = [0u8; 8];
        sum.copy_from_slice(stored_sum);
        if checksum(body) != u64::from_le_bytes(sum) {
            return Err(MnkFormatError::Checksum);
        }
        let mut cursor = Cursor(&body[12..]);
        let (rows, columns, k) = (cursor.u8()?, cursor.u8()?, cursor.u8()?);
        let game = Game::new(rows.into(), columns.into(), k.into())
            .map_err(|_| MnkFormatError::Invalid("not a game"))?;
        if game.cells() > MAX_TABLE_CELLS {
            return Err(MnkFormatError::Invalid("a game too large for a table"));
        }
        let count = cursor.u32()? as usize;
        let limit = 3u64.pow(game.cells() as u32);
        if count as u64 > limit {
            return Err(MnkFormatError::Invalid("more positions than boards"));
        }
        let block = usize::from(cursor.u16()?);
        if block == 0 {
            return Err(MnkFormatError::Invalid("blocks of no positions"));
        }
        let rice = u32::from(cursor.u8()?);
        if rice > 24 {
            return Err(MnkFormatError::Invalid("Rice parameter out of range"));
        }
        let (symbols, lengths) = read_symbols(&mut cursor, game.cells())?;
        if count > 0 && symbols.is_empty() {
            return Err(MnkFormatError::Invalid(
                "the value code is not a prefix code",
            ));
        }
        let blocks = count.div_ceil(block);
        let index = cursor.bytes(blocks * INDEX_RECORD)?;
        let length = cursor.u32()? as usize;
        let positions = cursor.bytes(length)?;
        if !cursor.0.is_empty() {
            return Err(MnkFormatError::Invalid("bytes after the last field"));
        }
        let packed = Packed {
            game,
            count,
            block,
            rice,
            symbols,
            decoding: decoding_table(&lengths),
            index,
            positions,
            digits: Digits::new(),
            full: game.geometry().full() as u64,
            limit,
        };
        let mut last = None;
        for b in 0..blocks {
            let (first, bit) = packed.record(b);
            if u64::from(first) >= limit || last.is_some_and(|last| first <= last) {
                return Err(MnkFormatError::Invalid("a block index out of order"));
            }
            if bit > 8 * positions.len() {
                return Err(MnkFormatError::Invalid("a block starts past the positions"));
            }
            last = Some(first);
        }
        Ok(packed)
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.game
    }

    /// How many positions the table stores.
    pub fn count(&self) -> usize {
        self.count
    }

    /// How many blocks the positions fill.
    pub fn blocks(&self) -> usize {
        self.count.div_ceil(self.block)
    }

    /// The index record of block `b`: its first code and the bit where it starts.
    fn record(&self, b: usize) -> (u32, usize) {
        let record = &self.index[b * INDEX_RECORD..(b + 1) * INDEX_RECORD];
        let word =
            |i: usize| u32::from_le_bytes([record[i], record[i + 1], record[i + 2], record[i + 3]]);
        (word(0), word(4) as usize)
    }

    /// The positions of block `b`, in order.
    pub fn block(&self, b: usize) -> Block<'_, 'a> {
        let (first, bit) = self.record(b);
        Block {
            packed: self,
            left: self.block.min(self.count - b * self.block),
            last: None,
            first,
            reader: BitReader::at(self.positions, bit),
        }
    }

    /// The position with code `code`, if stored: one block decoded.
    ///
    /// # Errors
    ///
    /// [`MnkFormatError`] when that block is damaged.
    pub fn find(&self, code: u32) -> Result<Option<StoredPosition>, MnkFormatError> {
        // The last block whose first code is at most `code`.
        let (mut low, mut high) = (0, self.blocks());
        while low < high {
            let middle = (low + high) / 2;
            if self.record(middle).0 <= code {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        let Some(b) = low.checked_sub(1) else {
            return Ok(None);
        };
        let mut block = self.block(b);
        while let Some(coded) = block.next_coded() {
            let coded = coded?;
            if coded.code >= code {
                return Ok((coded.code == code).then(|| coded.position()));
            }
        }
        Ok(None)
    }

    /// Every position, in order.
    pub fn positions(&self) -> impl Iterator<Item = Result<StoredPosition, MnkFormatError>> + '_ {
        (0..self.blocks()).flat_map(|b| self.block(b))
    }
}

/// The symbols of a table's header: each (entry, number of optimal moves), and its code
/// length. Checks that each is a value of a board in play with at least one and at most `cells`
/// optimal moves, that no pair comes twice and that the lengths make a prefix code.
fn read_symbols(
    cursor: &mut Cursor,
    cells: usize,
) -> Result<(Vec<Pair>, Vec<u32>), MnkFormatError> {
    let count = usize::from(cursor.u16()?);
    let (mut symbols, mut lengths) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for _ in 0..count {
        let (entry, optimal, length) = (cursor.u8()?, cursor.u8()?, u32::from(cursor.u8()?));
        if length == 0 || length > MAX_CODE {
            return Err(MnkFormatError::Invalid("bad code length"));
        }
        if unentry(entry).is_none_or(|(_, remoteness)| remoteness == 0) {
            return Err(MnkFormatError::Invalid(
                "an entry that is no value of a board in play",
            ));
        }
        if optimal == 0 || usize::from(optimal) > cells {
            return Err(MnkFormatError::Invalid(
                "a number of optimal moves out of range",
            ));
        }
        if symbols.last().is_some_and(|&last| last >= (entry, optimal)) {
            return Err(MnkFormatError::Invalid("symbols out of order"));
        }
        symbols.push((entry, optimal));
        lengths.push(length);
    }
    // Kraft's inequality: the lengths must make a prefix code.
    let kraft: u64 = lengths
        .iter()
        .map(|&length| 1u64 << (MAX_CODE - length))
        .sum();
    if kraft > 1 << MAX_CODE {
        return Err(MnkFormatError::Invalid(
            "the value code is not a prefix code",
        ));
    }
    Ok((symbols, lengths))
}

/// The positions of one block, decoded in order.
pub struct Block<'p, 'a> {
    packed: &'p Packed<'a>,
    /// Positions not yet decoded.
    left: usize,
    /// The code of the position before, `None` at the block's start.
    last: Option<u32>,
    /// The code of the block's first position.
    first: u32,
    reader: BitReader<'a>,
}

/// A position as the stream holds it: its optimal moves still a rank among the sets of as many
/// of its empty cells, which only the position looked for needs unranked.
struct Coded {
    code: u32,
    entry: Entry,
    optimal: u8,
    rank: u32,
    empty: u64,
}

impl Coded {
    fn position(&self) -> StoredPosition {
        StoredPosition {
            code: self.code,
            entry: self.entry,
            best: subset_unrank(self.empty, self.optimal.into(), self.rank) as u16,
        }
    }
}

impl Block<'_, '_> {
    /// The next position, if the block has one left; nothing after a damaged one.
    fn next_coded(&mut self) -> Option<Result<Coded, MnkFormatError>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let coded = self.decode();
        if coded.is_err() {
            self.left = 0;
        }
        Some(coded)
    }

    fn decode(&mut self) -> Result<Coded, MnkFormatError> {
        let packed = self.packed;
        let reader = &mut self.reader;
        let code = match self.last {
            None => u64::from(self.first),
            Some(last) => {
                let mut quotient = 0u64;
                loop {
                    let peek = reader.peek();
                    if peek == 0 {
                        reader.take(32);
                        reader.past_end()?;
                        quotient += 32;
                        continue;
                    }
                    let zeros = peek.trailing_zeros();
                    reader.take(zeros + 1);
                    quotient += u64::from(zeros);
                    break;
                }
                let gap = quotient << packed.rice | reader.take(packed.rice);
                u64::from(last) + 1 + gap
            }
        };
        if code >= packed.limit {
            return Err(MnkFormatError::Invalid("a board code out of range"));
        }
        let code = code as u32;
        self.last = Some(code);
        let (symbol, length) = packed.decoding[(reader.peek() & ((1 << MAX_CODE) - 1)) as usize];
        if length == 0 {
            return Err(MnkFormatError::Invalid("a value with no code"));
        }
        reader.take(u32::from(length));
        let (entry, optimal) = packed.symbols[usize::from(symbol)];
        let empty = empty_cells(&packed.digits, packed.full, code);
        let free = empty.count_ones() as usize;
        if usize::from((entry - 1) % 32) > free {
            return Err(MnkFormatError::Invalid("a remoteness longer than the game"));
        }
        let choices = BINOMIAL[free][usize::from(optimal)];
        if choices == 0 {
            return Err(MnkFormatError::Invalid(
                "more optimal moves than empty cells",
            ));
        }
        let rank = read_truncated(reader, choices);
        reader.past_end()?;
        Ok(Coded {
            code,
            entry,
            optimal,
            rank,
            empty,
        })
    }
}

impl Iterator for Block<'_, '_> {
    type Item = Result<StoredPosition, MnkFormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_coded()
            .map(|coded| coded.map(|coded| coded.position()))
    }
}

/// Reads a whole table, checking magic, version, checksum, the game and that every code is in
/// range and ascending, every entry a value with a remoteness the board allows and every
/// optimal move on an empty cell.
///
/// # Errors
///
/// [`MnkFormatError`] saying what is wrong with the bytes.
pub fn decode(bytes: &[u8]) -> Result<Stored, MnkFormatError> {
    let packed = Packed::open(bytes)?;
    let mut stored = Stored {
        game: packed.game(),
        codes: Vec::with_capacity(packed.count()),
        entries: Vec::with_capacity(packed.count()),
        best: Vec::with_capacity(packed.count()),
    };
    for position in packed.positions() {
        let position = position?;
        if stored
            .codes
            .last()
            .is_some_and(|&last| position.code <= last)
        {
            return Err(MnkFormatError::Invalid("board codes out of order"));
        }
        stored.codes.push(position.code);
        stored.entries.push(position.entry);
        stored.best.push(position.best);
    }
    Ok(stored)
}

/// For each `MAX_CODE`-bit window, the symbol whose code starts it and that code's length
/// (length 0 where no code does).
fn decoding_table(lengths: &[u32]) -> Vec<(u16, u8)> {
    let codes = canonical_codes(lengths);
    let mut table = vec![(0u16, 0u8); 1 << MAX_CODE];
    for (symbol, &length) in lengths.iter().enumerate() {
        let step = 1usize << length;
        let mut window = codes[symbol] as usize;
        while window < table.len() {
            table[window] = (symbol as u16, length as u8);
            window += step;
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_of_empty_cells_has_its_own_rank() {
        for cells in [0xffffu64, 0b1010_0110_0001_1101, 0b1, 0] {
            let free = cells.count_ones() as usize;
            let mut seen = vec![vec![false; 1 << free]; free + 1];
            // Every subset of `cells`, as the bits of a counter spread over them.
            for pattern in 0u64..1 << free {
                let (mut chosen, mut rest) = (0u64, cells);
                for bit in 0..free {
                    let cell = rest & rest.wrapping_neg();
                    rest ^= cell;
                    if pattern >> bit & 1 == 1 {
                        chosen |= cell;
                    }
                }
                let n = chosen.count_ones() as usize;
                let rank = subset_rank(cells, chosen);
                assert!(rank < BINOMIAL[free][n], "{cells:b} {chosen:b}");
                assert!(
                    !seen[n][rank as usize],
                    "{cells:b} {chosen:b}: rank {rank} twice"
                );
                seen[n][rank as usize] = true;
                assert_eq!(
                    subset_unrank(cells, n, rank),
                    chosen,
                    "{cells:b} {chosen:b}"
                );
            }
        }
    }

    #[test]
    fn truncated_binary_reads_back_what_it_wrote() {
        for choices in (1..=40).chain([255, 256, 257, 12_870]) {
            let mut writer = BitWriter::new();
            for value in 0..choices {
                write_truncated(&mut writer, value, choices);
                writer.write(0b101, 3);
            }
            let bits = writer.bits();
            let bytes = writer.finish();
            let mut reader = BitReader::at(&bytes, 0);
            for value in 0..choices {
                assert_eq!(read_truncated(&mut reader, choices), value, "of {choices}");
                assert_eq!(reader.take(3), 0b101);
            }
            reader.past_end().unwrap();
            // At most one bit more than the fewest a fixed width could spend.
            let width = u64::from(32 - (choices - 1).leading_zeros());
            assert!(bits <= u64::from(choices) * (width + 3), "of {choices}");
        }
    }

    #[test]
    fn find_reads_each_stored_position_and_nothing_else() {
        let game: Game = "4x3".parse().unwrap();
        let bytes = crate::table::embedded_bytes(game).unwrap();
        let packed = Packed::open(bytes).unwrap();
        let all: Vec<StoredPosition> = packed.positions().map(Result::unwrap).collect();
        assert_eq!(all.len(), packed.count());
        // Every position of the first, a middle and the last block, and the codes between.
        for b in [0, packed.blocks() / 2, packed.blocks() - 1] {
            let block = &all[b * BLOCK..all.len().min((b + 1) * BLOCK)];
            for (i, position) in block.iter().enumerate() {
                assert_eq!(packed.find(position.code), Ok(Some(*position)));
                let next = all.get(b * BLOCK + i + 1).map_or(u32::MAX, |p| p.code);
                for code in position.code + 1..next.min(position.code + 4) {
                    assert_eq!(packed.find(code), Ok(None), "{code}");
                }
            }
        }
        // The empty board is code 0; the last boards are full ones, and past them no code.
        assert_eq!(all[0].code, 0);
        for code in [3u32.pow(12) - 1, 3u32.pow(12), u32::MAX] {
            assert_eq!(packed.find(code), Ok(None), "{code}");
        }
    }

    #[test]
    fn the_checksum_sees_any_one_bit_changed() {
        let bytes: Vec<u8> = (0..100u32).map(|i| (i * 37 % 251) as u8).collect();
        let sum = checksum(&bytes);
        for length in [0, 7, 8, 31, 32, 33, 100] {
            assert_ne!(
                checksum(&bytes[..length]),
                checksum(&[&bytes[..length], &[0][..]].concat())
            );
        }
        for bit in 0..8 * bytes.len() {
            let mut damaged = bytes.clone();
            damaged[bit / 8] ^= 1 << (bit % 8);
            assert_ne!(checksum(&damaged), sum, "bit {bit}");
        }
    }
}
