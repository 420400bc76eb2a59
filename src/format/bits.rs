//! The bit streams of a table, read and written from the low bit of each byte up, and the
//! truncated binary of a number below a bound.

use super::TableFormatError;

pub(super) struct BitWriter {
    bytes: Vec<u8>,
    buffer: u64,
    filled: u32,
}

impl BitWriter {
    pub(super) fn new() -> BitWriter {
        BitWriter {
            bytes: Vec::new(),
            buffer: 0,
            filled: 0,
        }
    }

    /// Writes the low `count` (at most 32) bits of `bits`.
    pub(super) fn write(&mut self, bits: u64, count: u32) {
        self.buffer |= (bits & ((1 << count) - 1)) << self.filled;
        self.filled += count;
        while self.filled >= 8 {
            self.bytes.push(self.buffer as u8);
            self.buffer >>= 8;
            self.filled -= 8;
        }
    }

    /// How many bits have been written.
    pub(super) fn bits(&self) -> u64 {
        8 * self.bytes.len() as u64 + u64::from(self.filled)
    }

    pub(super) fn finish(mut self) -> Vec<u8> {
        if self.filled > 0 {
            self.bytes.push(self.buffer as u8);
        }
        self.bytes
    }
}

pub(super) struct BitReader<'a> {
    bytes: &'a [u8],
    /// The next byte to load.
    next: usize,
    buffer: u64,
    filled: u32,
}

impl<'a> BitReader<'a> {
    /// A reader from bit `bit` of `bytes`, which is at most their length in bits.
    pub(super) fn at(bytes: &'a [u8], bit: usize) -> BitReader<'a> {
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
    pub(super) fn peek(&mut self) -> u64 {
        if self.filled < 32 {
            self.refill();
        }
        self.buffer & 0xffff_ffff
    }

    /// Takes `count` bits (at most 32), zeros past the end of the stream: a reader checks
    /// [`past_end`](BitReader::past_end) once it has read a whole record.
    pub(super) fn take(&mut self, count: u32) -> u64 {
        let bits = self.peek() & ((1u64 << count) - 1);
        self.buffer >>= count;
        self.filled -= count;
        bits
    }

    /// An error if more bits were taken than the stream holds.
    pub(super) fn past_end(&self) -> Result<(), TableFormatError> {
        if 8 * self.next - self.filled as usize > 8 * self.bytes.len() {
            return Err(TableFormatError::Truncated);
        }
        Ok(())
    }
}

/// Writes `value`, below `choices`, in truncated binary: `b = floor(log2 choices)` bits for the
/// first `2^(b+1) - choices` values, one more bit for the others.
pub(super) fn write_truncated(writer: &mut BitWriter, value: u32, choices: u32) {
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
pub(super) fn read_truncated(reader: &mut BitReader, choices: u32) -> u32 {
    let bits = 31 - choices.leading_zeros();
    let short = (2u32 << bits) - choices;
    let head = reader.take(bits) as u32;
    if head < short {
        return head;
    }
    let last = reader.take(1) as u32;
    short + 2 * (head - short) + last
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
