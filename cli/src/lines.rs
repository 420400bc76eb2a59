//! Reading lines that people and programs type, bounded: a line of any length is read to its
//! end in bounded memory, and only its start is kept (`ttt play`, batch mode).

use std::io::{self, BufRead};

/// An error reading input, told apart from one writing output (see `Failure`'s `From`).
#[derive(Debug)]
pub struct ReadingInput(pub io::Error);

impl std::fmt::Display for ReadingInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read standard input: {}", self.0)
    }
}

impl std::error::Error for ReadingInput {}

/// One line of input, read with [`read_bounded_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of at most the limit's bytes, without its newline (nor a `\r` ending it);
    /// bytes that are not UTF-8 read as replacement characters, and then fail to parse.
    Text(String),
    /// A longer line, read to its end and dropped.
    TooLong {
        /// Its first bytes, at most the limit plus one.
        head: Vec<u8>,
        /// Its length in bytes, newline not counted.
        length: u64,
    },
}

/// Reads one line of at most `limit` bytes, not counting its newline, keeping at most
/// `limit + 1` bytes of it however long it is: a longer line is consumed to its end, chunk by
/// chunk, and reported as [`Line::TooLong`]. `None` at the end of input.
pub fn read_bounded_line(input: &mut dyn BufRead, limit: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut length: u64 = 0;
    // The line's last byte so far.
    let mut last = None;
    let mut ended_by_newline = false;
    while !ended_by_newline {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(io::Error::other(ReadingInput(error))),
        };
        if available.is_empty() {
            break;
        }
        let (content, used) = match available.iter().position(|&byte| byte == b'\n') {
            Some(newline) => {
                ended_by_newline = true;
                (&available[..newline], newline + 1)
            }
            None => (available, available.len()),
        };
        let room = (limit + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&content[..content.len().min(room)]);
        length += content.len() as u64;
        last = content.last().copied().or(last);
        input.consume(used);
    }
    if length == 0 && !ended_by_newline {
        return Ok(None);
    }
    // A line ended by "\r\n" is the same line without the "\r", and as long.
    if last == Some(b'\r') {
        length -= 1;
        kept.truncate(kept.len().min(length as usize));
    }
    if length > limit as u64 {
        return Ok(Some(Line::TooLong { head: kept, length }));
    }
    Ok(Some(Line::Text(
        String::from_utf8_lossy(&kept).into_owned(),
    )))
}
