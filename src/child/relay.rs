//! A bot's standard error, passed on to ours: never able to block the bot, never able to pass
//! for `ttt`'s own words.
//!
//! One thread reads the bot's standard error as it comes and hands it, in chunks, to a bounded
//! queue; another writes the queue to our standard error, each line after `[NAME]`, control
//! characters escaped. When our standard error is not being read (a full pipe, a pager left
//! open, Ctrl-S on a terminal), or takes less than a bot floods it with, the writer falls
//! behind, the queue fills, and the reader drops what does not fit, so the bot never waits on
//! us and its time is never ours; where bytes were dropped, a line of its own says how many.
//! When our standard error is closed, the writer stops writing and drains.

use std::io::{self, Read, Write};
use std::process::ChildStderr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TrySendError};
use std::thread;

use crate::text::escape_lines;

/// How many chunks (of up to 8 KiB) may wait to be written: 512 KiB at most.
const QUEUE: usize = 64;

/// Starts passing `stderr` on to ours, each line after `[label]`; the receiver hears when all
/// of it has been passed on (or dropped).
pub(super) fn start(stderr: ChildStderr, label: &str) -> io::Result<Receiver<()>> {
    let (chunks, queue) = mpsc::sync_channel::<Piece>(QUEUE);
    let (done, relayed) = mpsc::channel();
    let dropped = Arc::new(AtomicU64::new(0));
    let dropped_by_reader = Arc::clone(&dropped);
    thread::Builder::new()
        .name("bot-stderr-read".to_string())
        .spawn(move || {
            let mut stderr = stderr;
            let mut chunk = [0u8; 8192];
            // Bytes dropped since the last chunk that got through: said where they were.
            let mut gap = 0u64;
            loop {
                let n = match stderr.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                if gap > 0 {
                    match chunks.try_send(Piece::Gap(gap)) {
                        Ok(()) => gap = 0,
                        Err(TrySendError::Full(_)) => {
                            gap += n as u64;
                            continue;
                        }
                        Err(TrySendError::Disconnected(_)) => break,
                    }
                }
                match chunks.try_send(Piece::Bytes(chunk[..n].to_vec())) {
                    Ok(()) => {}
                    Err(TrySendError::Full(_)) => gap += n as u64,
                    Err(TrySendError::Disconnected(_)) => break,
                }
            }
            // A gap at the very end is counted for the writer's last line.
            dropped_by_reader.store(gap, Ordering::Relaxed);
        })?;
    let prefix = format!("[{label}] ");
    thread::Builder::new()
        .name("bot-stderr-write".to_string())
        .spawn(move || {
            let mut lines = Lines::new(prefix);
            let mut ours_works = true;
            for piece in queue {
                let text = match piece {
                    Piece::Bytes(chunk) => lines.add(&chunk),
                    Piece::Gap(bytes) => lines.gap(bytes),
                };
                if ours_works && !text.is_empty() {
                    ours_works = io::stderr().write_all(text.as_bytes()).is_ok();
                }
            }
            let mut text = lines.end();
            let dropped = dropped.load(Ordering::Relaxed);
            if dropped > 0 {
                text.push_str(&lines.gap(dropped));
            }
            if ours_works && !text.is_empty() {
                let _ = io::stderr().write_all(text.as_bytes());
            }
            let _ = done.send(());
        })?;
    Ok(relayed)
}

/// What the reader hands the writer.
enum Piece {
    /// Bytes, as the bot wrote them.
    Bytes(Vec<u8>),
    /// This many bytes were dropped here.
    Gap(u64),
}

/// Turns chunks of a byte stream into escaped text, each line after a prefix.
struct Lines {
    prefix: String,
    /// The bytes of a character cut in two by a chunk, kept for the next.
    carry: Vec<u8>,
    at_line_start: bool,
}

impl Lines {
    fn new(prefix: String) -> Lines {
        Lines {
            prefix,
            carry: Vec::new(),
            at_line_start: true,
        }
    }

    /// The text for one more chunk.
    fn add(&mut self, chunk: &[u8]) -> String {
        self.carry.extend_from_slice(chunk);
        let whole = match std::str::from_utf8(&self.carry) {
            Err(error) if error.error_len().is_none() => error.valid_up_to(),
            _ => self.carry.len(),
        };
        let decoded: Vec<u8> = self.carry.drain(..whole).collect();
        let mut text = String::new();
        for piece in decoded.split_inclusive(|&byte| byte == b'\n') {
            if self.at_line_start {
                text.push_str(&self.prefix);
            }
            text.push_str(&escape_lines(piece));
            self.at_line_start = piece.ends_with(b"\n");
        }
        text
    }

    /// A line of its own that says `bytes` were dropped here (the line cut short ends first).
    fn gap(&mut self, bytes: u64) -> String {
        let mut text = if self.at_line_start {
            String::new()
        } else {
            "\n".to_string()
        };
        self.carry.clear();
        self.at_line_start = true;
        text.push_str(&format!(
            "{}(… {bytes} bytes dropped here: the bot wrote to its standard error faster than \
             ttt's own took it)\n",
            self.prefix
        ));
        text
    }

    /// The text that ends the stream: what was carried, and a newline if the last line had
    /// none, so that whatever is written next starts a line of its own.
    fn end(&mut self) -> String {
        let rest = std::mem::take(&mut self.carry);
        let mut text = if rest.is_empty() {
            String::new()
        } else {
            let piece = escape_lines(&rest);
            let prefix = if self.at_line_start {
                self.prefix.as_str()
            } else {
                ""
            };
            self.at_line_start = false;
            format!("{prefix}{piece}")
        };
        if !self.at_line_start {
            text.push('\n');
            self.at_line_start = true;
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_get_the_prefix_whatever_the_chunks() {
        let mut lines = Lines::new("[bot] ".to_string());
        let mut text = lines.add(b"thinking");
        text += &lines.add(b" hard\r\nagain\x1b[2J\n\xc3");
        text += &lines.add(b"\xa9t\xc3");
        text += &lines.end();
        assert_eq!(
            text,
            "[bot] thinking hard\n[bot] again\\u{1b}[2J\n[bot] \u{e9}t\\xc3\n"
        );
        assert_eq!(lines.end(), "");
    }

    #[test]
    fn a_gap_is_a_line_of_its_own() {
        let mut lines = Lines::new("[bot] ".to_string());
        let mut text = lines.add(b"line one\nline tw");
        text += &lines.gap(8192);
        text += &lines.add(b"ree\n");
        assert_eq!(
            text,
            "[bot] line one\n[bot] line tw\n[bot] (… 8192 bytes dropped here: the bot wrote to \
             its standard error faster than ttt's own took it)\n[bot] ree\n"
        );
    }
}
