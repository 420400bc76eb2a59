//! Reading a table: [`Packed`] checks it and decodes one block at a time, [`decode`] reads it
//! whole.

use super::bits::{BitReader, read_truncated};
use super::huffman::{MAX_CODE, decoding_table};
use super::subsets::{BINOMIAL, subset_unrank};
use super::{
    INDEX_RECORD, MNK_FORMAT_VERSION, MNK_MAGIC, Pair, Stored, StoredPosition, TableFormatError,
    checksum, empty_cells,
};
use crate::game::{Game, MAX_TABLE_CELLS};
use crate::solve::Digits;
use crate::value::{Entry, unentry};

struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], TableFormatError> {
        if self.0.len() < n {
            return Err(TableFormatError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, TableFormatError> {
        Ok(self.bytes(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, TableFormatError> {
        let bytes = self.bytes(2)?;
        Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
    }

    fn u32(&mut self) -> Result<u32, TableFormatError> {
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
    /// [`TableFormatError`] saying what is wrong with the bytes.
    pub fn open(bytes: &'a [u8]) -> Result<Packed<'a>, TableFormatError> {
        if bytes.len() < 8 + 4 {
            return Err(TableFormatError::Truncated);
        }
        if bytes[..8] != MNK_MAGIC {
            return Err(TableFormatError::BadMagic);
        }
        let mut cursor = Cursor(&bytes[8..]);
        let version = cursor.u32()?;
        if version != MNK_FORMAT_VERSION {
            return Err(TableFormatError::Version(version));
        }
        if bytes.len() < 8 + 4 + 8 {
            return Err(TableFormatError::Truncated);
        }
        let (body, stored_sum) = bytes.split_at(bytes.len() - 8);
        let mut sum = [0u8; 8];
        sum.copy_from_slice(stored_sum);
        if checksum(body) != u64::from_le_bytes(sum) {
            return Err(TableFormatError::Checksum);
        }
        let mut cursor = Cursor(&body[12..]);
        let (rows, columns, k) = (cursor.u8()?, cursor.u8()?, cursor.u8()?);
        let game = Game::new(rows.into(), columns.into(), k.into())
            .map_err(|_| TableFormatError::Invalid("not a game"))?;
        if game.cells() > MAX_TABLE_CELLS {
            return Err(TableFormatError::Invalid("a game too large for a table"));
        }
        let count = cursor.u32()? as usize;
        let limit = 3u64.pow(game.cells() as u32);
        if count as u64 > limit {
            return Err(TableFormatError::Invalid("more positions than boards"));
        }
        let block = usize::from(cursor.u16()?);
        if block == 0 {
            return Err(TableFormatError::Invalid("blocks of no positions"));
        }
        let rice = u32::from(cursor.u8()?);
        if rice > 24 {
            return Err(TableFormatError::Invalid("Rice parameter out of range"));
        }
        let (symbols, lengths) = read_symbols(&mut cursor, game.cells())?;
        if count > 0 && symbols.is_empty() {
            return Err(TableFormatError::Invalid(
                "the value code is not a prefix code",
            ));
        }
        let blocks = count.div_ceil(block);
        let index = cursor.bytes(blocks * INDEX_RECORD)?;
        let length = cursor.u32()? as usize;
        let positions = cursor.bytes(length)?;
        if !cursor.0.is_empty() {
            return Err(TableFormatError::Invalid("bytes after the last field"));
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
                return Err(TableFormatError::Invalid("a block index out of order"));
            }
            if bit > 8 * positions.len() {
                return Err(TableFormatError::Invalid(
                    "a block starts past the positions",
                ));
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
    /// [`TableFormatError`] when that block is damaged.
    pub fn find(&self, code: u32) -> Result<Option<StoredPosition>, TableFormatError> {
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
    pub fn positions(&self) -> impl Iterator<Item = Result<StoredPosition, TableFormatError>> + '_ {
        (0..self.blocks()).flat_map(|b| self.block(b))
    }
}

/// The symbols of a table's header: each (entry, number of optimal moves), and its code
/// length. Checks that each is a value of a board in play with at least one and at most `cells`
/// optimal moves, that no pair comes twice and that the lengths make a prefix code.
fn read_symbols(
    cursor: &mut Cursor,
    cells: usize,
) -> Result<(Vec<Pair>, Vec<u32>), TableFormatError> {
    let count = usize::from(cursor.u16()?);
    let (mut symbols, mut lengths) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for _ in 0..count {
        let (entry, optimal, length) = (cursor.u8()?, cursor.u8()?, u32::from(cursor.u8()?));
        if length == 0 || length > MAX_CODE {
            return Err(TableFormatError::Invalid("bad code length"));
        }
        if unentry(entry).is_none_or(|(_, remoteness)| remoteness == 0) {
            return Err(TableFormatError::Invalid(
                "an entry that is no value of a board in play",
            ));
        }
        if optimal == 0 || usize::from(optimal) > cells {
            return Err(TableFormatError::Invalid(
                "a number of optimal moves out of range",
            ));
        }
        if symbols.last().is_some_and(|&last| last >= (entry, optimal)) {
            return Err(TableFormatError::Invalid("symbols out of order"));
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
        return Err(TableFormatError::Invalid(
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
    fn next_coded(&mut self) -> Option<Result<Coded, TableFormatError>> {
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

    fn decode(&mut self) -> Result<Coded, TableFormatError> {
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
            return Err(TableFormatError::Invalid("a board code out of range"));
        }
        let code = code as u32;
        self.last = Some(code);
        let (symbol, length) = packed.decoding[(reader.peek() & ((1 << MAX_CODE) - 1)) as usize];
        if length == 0 {
            return Err(TableFormatError::Invalid("a value with no code"));
        }
        reader.take(u32::from(length));
        let (entry, optimal) = packed.symbols[usize::from(symbol)];
        let empty = empty_cells(&packed.digits, packed.full, code);
        let free = empty.count_ones() as usize;
        if usize::from((entry - 1) % 32) > free {
            return Err(TableFormatError::Invalid(
                "a remoteness longer than the game",
            ));
        }
        let choices = BINOMIAL[free][usize::from(optimal)];
        if choices == 0 {
            return Err(TableFormatError::Invalid(
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
    type Item = Result<StoredPosition, TableFormatError>;

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
/// [`TableFormatError`] saying what is wrong with the bytes.
pub fn decode(bytes: &[u8]) -> Result<Stored, TableFormatError> {
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
            return Err(TableFormatError::Invalid("board codes out of order"));
        }
        stored.codes.push(position.code);
        stored.entries.push(position.entry);
        stored.best.push(position.best);
    }
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::BLOCK;

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
}
