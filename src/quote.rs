//! Showing text that came from a person or a bot: control characters escaped, long text cut.
//!
//! Anything `ttt` prints that it did not write itself (a board or move list in an error, a
//! bot's name, its command, its reply) goes through here, so that an escape sequence cannot
//! drive the terminal, a newline cannot forge a line of output, and a 100 MB argument cannot
//! become a 100 MB message.

use std::fmt::Write;

/// The most characters of the original text that [`quote`] shows.
pub const QUOTE_LIMIT: usize = 60;

/// `text` with every control character (and every invisible character that reorders or hides
/// text, such as bidirectional overrides) escaped: `\n`, `\r`, `\t`, `\\`, else `\u{..}`.
/// Printable text, spaces and non-ASCII letters are kept as they are.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for ch in text.chars() {
        push_escaped(&mut escaped, ch);
    }
    escaped
}

/// [`escape`] for text made of lines, such as what a bot writes to its standard error: newlines
/// and tabs stay as they are (a `\r` before a newline is dropped); every other control
/// character is escaped, so the text cannot move the cursor, clear the screen or forge colour.
pub fn escape_lines(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\n' | '\t' => escaped.push(ch),
            '\r' if chars.peek() == Some(&'\n') => {}
            ch => push_escaped(&mut escaped, ch),
        }
    }
    escaped
}

fn push_escaped(out: &mut String, ch: char) {
    match ch {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\\' => out.push_str("\\\\"),
        ch if needs_escape(ch) => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(ch));
        }
        ch => out.push(ch),
    }
}

/// Control characters, and the format characters that change how the text around them shows.
fn needs_escape(ch: char) -> bool {
    ch.is_control()
        || matches!(
            ch,
            '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}'
        )
}

/// `text` in double quotes, escaped as [`escape`] does, with at most [`QUOTE_LIMIT`]
/// characters of it shown: a longer text is cut, and the quote ends with `…` and its full
/// length, so a message stays one short line whatever it quotes. A double quote inside is
/// escaped too, so the quote's end is unambiguous.
pub fn quote(text: &str) -> String {
    let mut quoted = String::from("\"");
    let mut shown = 0;
    let mut chars = text.chars();
    for ch in chars.by_ref() {
        if shown == QUOTE_LIMIT {
            break;
        }
        match ch {
            '"' => quoted.push_str("\\\""),
            ch => push_escaped(&mut quoted, ch),
        }
        shown += 1;
    }
    if shown == QUOTE_LIMIT && text.chars().nth(QUOTE_LIMIT).is_some() {
        let total = shown + 1 + chars.count();
        let _ = write!(quoted, "…\" ({total} characters)");
    } else {
        quoted.push('"');
    }
    quoted
}

/// [`quote`] for bytes that may not be UTF-8 (what a bot printed): invalid sequences show as
/// U+FFFD, and only the first bytes are looked at, so the cost does not grow with the input.
pub fn quote_bytes(bytes: &[u8]) -> String {
    // Four bytes a character at most: enough to show QUOTE_LIMIT characters and see that
    // there are more.
    let head = &bytes[..bytes.len().min(4 * (QUOTE_LIMIT + 1))];
    let text = String::from_utf8_lossy(head);
    if head.len() == bytes.len() {
        return quote(&text);
    }
    let mut quoted = quote(&text.chars().take(QUOTE_LIMIT).collect::<String>());
    quoted.pop();
    let _ = write!(quoted, "…\" ({} bytes)", bytes.len());
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_the_limit_is_not_cut() {
        let text = "a".repeat(QUOTE_LIMIT);
        assert_eq!(quote(&text), format!("\"{text}\""));
        let text = "a".repeat(QUOTE_LIMIT + 1);
        assert_eq!(
            quote(&text),
            format!("\"{}…\" (61 characters)", "a".repeat(60))
        );
    }

    #[test]
    fn long_bytes_name_their_length() {
        let bytes = vec![b'5'; 100_000_000];
        assert_eq!(
            quote_bytes(&bytes),
            format!("\"{}…\" (100000000 bytes)", "5".repeat(60))
        );
    }

    #[test]
    fn bidirectional_overrides_are_escaped() {
        assert_eq!(escape("a\u{202e}b"), "a\\u{202e}b");
    }
}
