//! The serialized table of an m,n,k game: what `build.rs` writes for each embedded game, and
//! what `ttt` reads back. Shared with `build.rs` (through `#[path]`).
//!
//! Only the canonical positions still in play are stored: a finished board needs no table,
//! and the other images of a position are found by symmetry when the table is loaded. Layout
//! (integers little-endian):
//!
//! | field | size | meaning |
//! | --- | --- | --- |
//! | magic | 8 | `TTTMNKTB` |
//! | version | 4 | [`MNK_FORMAT_VERSION`] |
//! | rows, columns, k | 1 each | the game |
//! | count | 4 | canonical positions in play stored |
//! | rice | 1 | the Rice parameter of the gaps |
//! | symbols | 1 | how many distinct entries, then per entry its byte and code length |
//! | gaps | 4 + bytes | successive differences of the positions' base-3 codes, Rice-coded |
//! | values | 4 + bytes | each position's entry (value and remoteness), Huffman-coded |
//! | checksum | 8 | FNV-1a 64 of everything before it |
//!
//! Bit streams are read from the low bit of each byte up.

use std::fmt;

use crate::format::fnv1a64;
use crate::mnk::game::{MAX_TABLE_CELLS, Mnk};
use crate::mnk::solve::{Entry, MnkSolution, unentry};

/// The first eight bytes of an m,n,k table.
pub const MNK_MAGIC: [u8; 8] = *b"TTTMNKTB";

/// The version of this layout; a reader refuses any other.
pub const MNK_FORMAT_VERSION: u32 = 1;

/// The longest Huffman code; a decoder looks codes up in a table of `2^MAX_CODE` entries.
const MAX_CODE: u32 = 16;

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
/// the entry of each.
pub struct Stored {
    /// The game.
    pub game: Mnk,
    /// Codes, ascending.
    pub codes: Vec<u32>,
    /// The entry of each code.
    pub entries: Vec<Entry>,
}

/// Collects the positions a table stores from a solution: the canonical boards in play.
pub fn stored(solution: &MnkSolution) -> Stored {
    let game = solution.game();
    let (mut codes, mut entries) = (Vec::new(), Vec::new());
    for (code, &entry) in solution.entries().iter().enumerate() {
        // A remoteness of 0 is a finished board.
        if matches!(unentry(entry), Some((_, remoteness)) if remoteness > 0) {
            codes.push(code as u32);
            entries.push(entry);
        }
    }
    Stored {
        game,
        codes,
        entries,
    }
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
    fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader {
            bytes,
            next: 0,
            buffer: 0,
            filled: 0,
        }
    }

    fn refill(&mut self) {
        while self.filled <= 56 {
            let byte = self.bytes.get(self.next).copied().unwrap_or(0);
            self.buffer |= u64::from(byte) << self.filled;
            self.next += 1;
            self.filled += 8;
        }
    }

    /// The next 32 bits without taking them (zeros past the end).
    fn peek(&mut self) -> u64 {
        if self.filled < 32 {
            self.refill();
        }
        self.buffer & 0xffff_ffff
    }

    /// Takes `count` bits (at most 32); an error past the end of the stream.
    fn take(&mut self, count: u32) -> Result<u64, MnkFormatError> {
        let bits = self.peek() & ((1u64 << count) - 1);
        self.buffer >>= count;
        self.filled -= count;
        if self.consumed_bits() > 8 * self.bytes.len() {
            return Err(MnkFormatError::Truncated);
        }
        Ok(bits)
    }

    fn consumed_bits(&self) -> usize {
        8 * self.next - self.filled as usize
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

/// Serializes stored positions.
pub fn encode(stored: &Stored) -> Vec<u8> {
    let game = stored.game;
    let mut out = Vec::new();
    out.extend_from_slice(&MNK_MAGIC);
    out.extend_from_slice(&MNK_FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&[game.rows() as u8, game.columns() as u8, game.k() as u8]);
    out.extend_from_slice(&(stored.codes.len() as u32).to_le_bytes());

    // Gaps: the first code, then differences, each at least 1 after the first.
    let gaps: Vec<u64> = stored
        .codes
        .iter()
        .scan(None, |last: &mut Option<u32>, &code| {
            let gap = u64::from(code - last.map_or(0, |last| last + 1));
            *last = Some(code);
            Some(gap)
        })
        .collect();
    let mean = gaps.iter().sum::<u64>() / gaps.len().max(1) as u64;
    let rice = (64 - mean.max(1).leading_zeros()).saturating_sub(1).min(24);
    out.push(rice as u8);

    let mut counts = vec![0u64; 256];
    for &entry in &stored.entries {
        counts[usize::from(entry)] += 1;
    }
    let lengths = code_lengths(&counts);
    let codes = canonical_codes(&lengths);
    let symbols: Vec<usize> = (0..256).filter(|&s| lengths[s] > 0).collect();
    out.push(symbols.len() as u8);
    for &symbol in &symbols {
        out.extend_from_slice(&[symbol as u8, lengths[symbol] as u8]);
    }

    let mut writer = BitWriter::new();
    for &gap in &gaps {
        let quotient = gap >> rice;
        for _ in 0..quotient / 32 {
            writer.write(0, 32);
        }
        writer.write(1 << (quotient % 32), quotient as u32 % 32 + 1);
        writer.write(gap, rice);
    }
    let gap_bytes = writer.finish();
    out.extend_from_slice(&(gap_bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&gap_bytes);

    let mut writer = BitWriter::new();
    for &entry in &stored.entries {
        let symbol = usize::from(entry);
        writer.write(u64::from(codes[symbol]), lengths[symbol]);
    }
    let value_bytes = writer.finish();
    out.extend_from_slice(&(value_bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&value_bytes);

    let checksum = fnv1a64(out.iter().copied());
    out.extend_from_slice(&checksum.to_le_bytes());
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

    fn u32(&mut self) -> Result<u32, MnkFormatError> {
        let bytes = self.bytes(4)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }
}

/// Reads a table, checking magic, version, checksum, the game and that every code is in range
/// and ascending and every entry a value with a remoteness the board allows.
///
/// # Errors
///
/// [`MnkFormatError`] saying what is wrong with the bytes.
pub fn decode(bytes: &[u8]) -> Result<Stored, MnkFormatError> {
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
    if bytes.len() < 8 + 8 {
        return Err(MnkFormatError::Truncated);
    }
    let (body, stored_sum) = bytes.split_at(bytes.len() - 8);
    let mut sum = [0u8; 8];
    sum.copy_from_slice(stored_sum);
    if fnv1a64(body.iter().copied()) != u64::from_le_bytes(sum) {
        return Err(MnkFormatError::Checksum);
    }
    let mut cursor = Cursor(&body[12..]);
    let (rows, columns, k) = (cursor.u8()?, cursor.u8()?, cursor.u8()?);
    let game = Mnk::new(rows.into(), columns.into(), k.into())
        .map_err(|_| MnkFormatError::Invalid("not a game"))?;
    if game.cells() > MAX_TABLE_CELLS {
        return Err(MnkFormatError::Invalid("a game too large for a table"));
    }
    let count = cursor.u32()? as usize;
    let limit = 3u64.pow(game.cells() as u32);
    if count as u64 > limit {
        return Err(MnkFormatError::Invalid("more positions than boards"));
    }
    let rice = u32::from(cursor.u8()?);
    if rice > 24 {
        return Err(MnkFormatError::Invalid("Rice parameter out of range"));
    }
    let symbols = usize::from(cursor.u8()?);
    let mut lengths = vec![0u32; 256];
    for _ in 0..symbols {
        let (symbol, length) = (cursor.u8()?, u32::from(cursor.u8()?));
        if length == 0 || length > MAX_CODE || lengths[usize::from(symbol)] != 0 {
            return Err(MnkFormatError::Invalid("bad code length"));
        }
        if unentry(symbol).is_none_or(|(_, remoteness)| remoteness == 0) {
            return Err(MnkFormatError::Invalid(
                "an entry that is no value of a board in play",
            ));
        }
        lengths[usize::from(symbol)] = length;
    }
    // Kraft's inequality: the lengths must make a prefix code.
    let kraft: u64 = lengths
        .iter()
        .filter(|&&length| length > 0)
        .map(|&length| 1u64 << (MAX_CODE - length))
        .sum();
    if kraft > 1 << MAX_CODE || (count > 0 && symbols == 0) {
        return Err(MnkFormatError::Invalid(
            "the value code is not a prefix code",
        ));
    }
    let gap_len = cursor.u32()? as usize;
    let gap_bytes = cursor.bytes(gap_len)?;
    let value_len = cursor.u32()? as usize;
    let value_bytes = cursor.bytes(value_len)?;
    if !cursor.0.is_empty() {
        return Err(MnkFormatError::Invalid("bytes after the last field"));
    }

    let mut codes = Vec::with_capacity(count);
    let mut reader = BitReader::new(gap_bytes);
    let mut next = 0u64;
    for _ in 0..count {
        let mut quotient = 0u64;
        loop {
            let peek = reader.peek();
            if peek == 0 {
                reader.take(32)?;
                quotient += 32;
                continue;
            }
            let zeros = peek.trailing_zeros();
            reader.take(zeros + 1)?;
            quotient += u64::from(zeros);
            break;
        }
        let gap = quotient << rice | reader.take(rice)?;
        let code = next + gap;
        if code >= limit {
            return Err(MnkFormatError::Invalid("a board code out of range"));
        }
        codes.push(code as u32);
        next = code + 1;
    }

    let table = decoding_table(&lengths);
    let mut entries = Vec::with_capacity(count);
    let mut reader = BitReader::new(value_bytes);
    for _ in 0..count {
        let (symbol, length) = table[(reader.peek() & ((1 << MAX_CODE) - 1)) as usize];
        if length == 0 {
            return Err(MnkFormatError::Invalid("a value with no code"));
        }
        reader.take(u32::from(length))?;
        entries.push(symbol);
    }
    Ok(Stored {
        game,
        codes,
        entries,
    })
}

/// For each `MAX_CODE`-bit window, the symbol whose code starts it and that code's length
/// (length 0 where no code does).
fn decoding_table(lengths: &[u32]) -> Vec<(u8, u8)> {
    let codes = canonical_codes(lengths);
    let mut table = vec![(0u8, 0u8); 1 << MAX_CODE];
    for symbol in 0..lengths.len() {
        let length = lengths[symbol];
        if length == 0 {
            continue;
        }
        let step = 1usize << length;
        let mut window = codes[symbol] as usize;
        while window < table.len() {
            table[window] = (symbol as u8, length as u8);
            window += step;
        }
    }
    table
}
