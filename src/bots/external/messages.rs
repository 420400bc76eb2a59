//! How a bot that broke the protocol is described: the line it printed unasked, the start of a
//! line cut off at the limit, and how it exited.

use crate::Game;
use crate::board::Cell;
use crate::bots::protocol::{MAX_REPLY, parse_reply_in};
use crate::text::quote_bytes;

/// The first line of `bytes`, without its newline.
pub(super) fn first_line(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len());
    &bytes[..end]
}

/// The start of a line that was cut off unread: its first characters and an ellipsis, with no
/// length (only its start was read).
pub(super) fn quote_head(bytes: &[u8]) -> String {
    crate::text::quote_head(bytes, None)
}

pub(super) fn stray(after_last: &str, bytes: &[u8]) -> String {
    let line = first_line(bytes);
    // A line cut off at the limit was not read to its end: its length is unknown.
    let shown = if line.len() <= MAX_REPLY {
        quote_bytes(line)
    } else {
        quote_head(line)
    };
    format!("{after_last} it printed {shown} when no request was waiting (one line a request)")
}

pub(super) fn describe(status: std::process::ExitStatus) -> String {
    match status.code() {
        Some(127) => "exit code 127: the command was not found".to_string(),
        Some(126) => "exit code 126: the command could not be run".to_string(),
        Some(code) => format!("exit code {code}"),
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                if let Some(signal) = status.signal() {
                    return format!("killed by signal {signal}");
                }
            }
            "no exit code".to_string()
        }
    }
}

/// The cells of a reply line, or what was wrong with it, quoting the line once: `it replied
/// "banana", which is not a cell; ...`, naming the token only when the line holds more than one.
pub(super) fn read_reply(game: Game, reply: &[u8]) -> Result<Vec<Cell>, String> {
    let said = quote_bytes(reply);
    let expected = format!("one or more cells 1..{} separated by spaces", game.cells());
    let Ok(text) = std::str::from_utf8(reply) else {
        return Err(format!(
            "it replied {said}, which is not UTF-8 text; expected {expected}"
        ));
    };
    parse_reply_in(game, text).map_err(|why| {
        let tokens: Vec<&str> = text.split(' ').filter(|t| !t.is_empty()).collect();
        match tokens[..] {
            [] if text.is_empty() => {
                format!("it replied {said}, an empty line; expected {expected}")
            }
            [] => format!("it replied {said}, which names no cell; expected {expected}"),
            [only] if only == text => {
                format!("it replied {said}, which is not a cell; expected {expected}")
            }
            _ => format!("it replied {said}: {}", why.message),
        }
    })
}
