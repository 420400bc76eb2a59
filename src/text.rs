//! Text for people. Counts read as people read them, in every command's text and every error:
//! thousands grouped (`29,429,345,758 games`) and a noun that agrees with its count (`1 history`,
//! `2 histories`); output for programs (JSON, exports, the protocol) writes plain numbers. And
//! text that came from a person or a bot, shown as what was sent, made visible, and cut short.
//!
//! Anything `ttt` prints that it did not write itself (a board or move list in an error, a
//! bot's name, its command, its reply) goes through here, so that an escape sequence cannot
//! drive the terminal, a newline cannot forge a line of output, a character that shows as
//! nothing or as something else (a non-breaking space, a zero-width space, a bidirectional
//! override) cannot hide what was really sent, and a 100 MB argument cannot become a 100 MB
//! message. The escapes:
//!
//! - `\n`, `\r`, `\t` and `\\`; in a quote, `\"` too;
//! - `\u{HEX}` for every other character that is invisible or passes for another: control
//!   characters (NUL is `\u{0}`), every space but the plain one (`\u{a0}` is a non-breaking
//!   space), zero-width characters and joiners, bidirectional controls, the soft hyphen, the
//!   byte order mark, invisible letters and operators, tags, the replacement character `�`,
//!   and a combining mark with nothing before it to combine with;
//! - `\xHH` for a byte that is not part of valid UTF-8 (in what a bot printed).
//!
//! And text fitted to a line: a name cut in its middle ([`fit`]), the columns a coloured text
//! takes ([`shown_width`]), a chance as a percentage ([`percent`]).

use std::fmt::{Display, Write};

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The most columns [`quote`] shows of the original text, escapes counted as printed.
pub const QUOTE_LIMIT: usize = 60;

/// What a text is made of: characters, and for what a bot printed, bytes that are not UTF-8.
#[derive(Clone, Copy)]
enum Unit {
    Char(char),
    Byte(u8),
}

/// Escapes units one after the other, remembering whether the last one shown was a visible
/// character that a combining mark may combine with.
#[derive(Default)]
struct Escaper {
    /// Escape `"` too: inside a quote.
    quoted: bool,
    after_base: bool,
}

impl Escaper {
    /// How `unit` is shown, appended to `out`; the columns it takes, counting a combining
    /// mark as one so that a pile of them cannot make a quote long.
    fn push(&mut self, out: &mut String, unit: Unit) -> usize {
        let start = out.len();
        let ch = match unit {
            Unit::Byte(byte) => {
                let _ = write!(out, "\\x{byte:02x}");
                self.after_base = false;
                return out.len() - start;
            }
            Unit::Char(ch) => ch,
        };
        let width = ch.width().unwrap_or(0);
        let escape = match ch {
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\\' => Some("\\\\"),
            '"' if self.quoted => Some("\\\""),
            _ => None,
        };
        if let Some(escape) = escape {
            out.push_str(escape);
            self.after_base = false;
            return escape.len();
        }
        let lone_mark = width == 0 && !self.after_base;
        if invisible(ch) || lone_mark {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(ch));
            self.after_base = false;
            return out.len() - start;
        }
        out.push(ch);
        if width > 0 {
            self.after_base = ch != ' ';
        }
        width.max(1)
    }
}

/// Whether `ch` shows as nothing, as a plain space, or changes how the text around it shows:
/// what is escaped wherever it is. Combining marks are not here: one that follows a character
/// it can combine with is shown as it is.
fn invisible(ch: char) -> bool {
    ch.is_control()
        || matches!(
            ch,
            // Spaces other than U+0020, and the blank braille pattern.
            '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}'
                | '\u{3000}' | '\u{2800}'
            // Zero-width characters, joiners, direction marks and line separators.
                | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}'
            // Word joiner, invisible operators, bidirectional isolates, deprecated formats.
                | '\u{2060}'..='\u{206f}'
            // Soft hyphen, Arabic letter mark, Mongolian vowel separator, byte order mark.
                | '\u{ad}' | '\u{61c}' | '\u{180e}' | '\u{feff}'
            // Combining grapheme joiner, Hangul fillers, interlinear annotation.
                | '\u{34f}' | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'
                | '\u{fff9}'..='\u{fffb}'
            // The replacement character, which passes for a byte that was not UTF-8.
                | '\u{fffd}'
            // Shorthand format controls, musical formatting, tags.
                | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0000}'..='\u{e007f}'
        )
}

/// `text` with every invisible or ambiguous character escaped (see the [module](self)):
/// printable text, plain spaces and non-ASCII letters are kept as they are.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    let mut escaper = Escaper::default();
    for ch in text.chars() {
        escaper.push(&mut escaped, Unit::Char(ch));
    }
    escaped
}

/// [`escape`] for bytes made of lines, such as what a bot writes to its standard error:
/// newlines and tabs stay as they are (a `\r` before a newline is dropped); every other control
/// character is escaped, so the text cannot move the cursor, clear the screen or forge colour,
/// and a byte that is not part of valid UTF-8 shows as `\xHH`, a character cut off at the end
/// too (the caller keeps one it means to complete with the next bytes).
pub fn escape_lines(bytes: &[u8]) -> String {
    let mut escaped = String::with_capacity(bytes.len());
    let mut escaper = Escaper::default();
    let mut units = units(bytes, false).into_iter().peekable();
    while let Some(unit) = units.next() {
        match unit {
            Unit::Char(ch @ ('\n' | '\t')) => {
                escaped.push(ch);
                escaper.after_base = false;
            }
            Unit::Char('\r') if matches!(units.peek(), Some(Unit::Char('\n'))) => {}
            unit => {
                escaper.push(&mut escaped, unit);
            }
        }
    }
    escaped
}

/// As much of `units` as fits in [`QUOTE_LIMIT`] columns, escaped for a quote, and whether
/// that is all of them.
fn shown_start(units: impl IntoIterator<Item = Unit>) -> (String, bool) {
    let mut shown = String::new();
    let mut columns = 0;
    let mut escaper = Escaper {
        quoted: true,
        after_base: false,
    };
    for unit in units {
        let mut piece = String::new();
        columns += escaper.push(&mut piece, unit);
        if columns > QUOTE_LIMIT {
            return (shown, false);
        }
        shown.push_str(&piece);
    }
    (shown, true)
}

/// `text` in double quotes, escaped as [`escape`] does (and `"` as `\"`, so the quote's end is
/// unambiguous), at most [`QUOTE_LIMIT`] columns of it: a longer text is cut, and the quote
/// ends with `…` and its full length, so a message stays one short line whatever it quotes.
pub fn quote(text: &str) -> String {
    match shown_start(text.chars().map(Unit::Char)) {
        (shown, true) => format!("\"{shown}\""),
        (shown, false) => format!("\"{shown}…\" ({} characters)", text.chars().count()),
    }
}

/// [`quote`] for bytes that may not be UTF-8 (what a bot printed): a byte that is not part of
/// valid UTF-8 shows as `\xHH`, and only the first bytes are looked at, so the cost does not
/// grow with the input. A longer text ends with its length in bytes.
pub fn quote_bytes(bytes: &[u8]) -> String {
    match shown_start(units(head(bytes), false)) {
        (shown, true) => format!("\"{shown}\""),
        (shown, false) => format!("\"{shown}…\" ({} bytes)", bytes.len()),
    }
}

/// The start of a line cut off unread, quoted as [`quote_bytes`] quotes, always with `…`
/// before the closing quote, and `(N bytes)` after it when the whole length is known. A
/// character cut in two at the end of what was read is left out.
pub fn quote_head(bytes: &[u8], length: Option<u64>) -> String {
    let (shown, _) = shown_start(units(head(bytes), true));
    match length {
        Some(length) => format!("\"{shown}…\" ({length} bytes)"),
        None => format!("\"{shown}…\""),
    }
}

/// Enough of `bytes` to fill a quote and see that there is more: every unit takes at most four
/// bytes and at least one column.
fn head(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(4 * (QUOTE_LIMIT + 1))]
}

/// The characters of `bytes`, and the bytes that are not valid UTF-8 one by one; an incomplete
/// character at the very end is left out when `cut` says the bytes were cut there.
fn units(mut bytes: &[u8], cut: bool) -> Vec<Unit> {
    let mut units = Vec::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                units.extend(text.chars().map(Unit::Char));
                return units;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                let valid = std::str::from_utf8(valid).unwrap_or_default();
                units.extend(valid.chars().map(Unit::Char));
                let bad = match error.error_len() {
                    Some(len) => len,
                    None if cut => return units,
                    None => rest.len(),
                };
                units.extend(rest[..bad].iter().map(|&byte| Unit::Byte(byte)));
                bytes = &rest[bad..];
            }
        }
    }
}

/// A whole number with its thousands grouped by commas: `50,000`, `-1,024`.
pub fn grouped(n: impl Display) -> String {
    let digits = n.to_string();
    let (sign, digits) = match digits.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", digits.as_str()),
    };
    let mut out = String::from(sign);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A count and its noun, grouped and agreeing: `1 history`, `4,000,000 histories`.
pub fn counted(n: impl Display + Copy + PartialEq + From<u8>, one: &str, many: &str) -> String {
    let noun = if n == From::from(1u8) { one } else { many };
    format!("{} {noun}", grouped(n))
}

/// `text` cut to `width` columns by taking out its middle, marked `…`: both ends of a name or
/// command tell bots apart (`python3 bots/a.py` and `python3 bots/b.py`). An escape that
/// [`escape`] wrote (`\u{a0}`, `\xff`, `\\`) is kept whole or left out whole, never cut in
/// half.
///
/// # Examples
///
/// ```
/// use ttt_oracle::text::fit;
///
/// assert_eq!(fit("python3 bots/a.py", 11), "pytho…/a.py");
/// assert_eq!(fit("random", 11), "random");
/// ```
pub fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(1);
    let pieces = pieces(text);
    let (head, used) = take(pieces.iter().copied(), room / 2);
    let (mut tail, _) = take(pieces.iter().rev().copied(), room - used);
    tail.reverse();
    let mut fitted = head.concat();
    fitted.push('…');
    fitted.push_str(&tail.concat());
    fitted
}

/// The first of `pieces` that fit in `budget` columns, and the columns they take.
fn take<'a>(pieces: impl Iterator<Item = &'a str>, budget: usize) -> (Vec<&'a str>, usize) {
    let mut taken = Vec::new();
    let mut used = 0;
    for piece in pieces {
        let w = piece.width();
        if used + w > budget {
            break;
        }
        taken.push(piece);
        used += w;
    }
    (taken, used)
}

/// `text` in the pieces `fit` keeps or leaves out whole: a character, or an escape, a
/// backslash and what follows it (`\u{...}` to its brace, `\x` and two digits, else one
/// character).
fn pieces(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(ch) = rest.chars().next() {
        let mut len = ch.len_utf8();
        if ch == '\\' {
            let after = &rest[1..];
            len += match after.chars().next() {
                Some('u') if after[1..].starts_with('{') => {
                    after.find('}').map_or(1, |end| end + 1)
                }
                Some('x') if after.len() >= 3 && after.is_char_boundary(3) => 3,
                Some(next) => next.len_utf8(),
                None => 0,
            };
        }
        pieces.push(&rest[..len]);
        rest = &rest[len..];
    }
    pieces
}

/// A fraction as a percentage with two places.
///
/// # Examples
///
/// ```
/// use ttt_oracle::{Ratio, text::percent};
///
/// assert_eq!(percent(Ratio::new(1, 3).to_f64()), "33.33%");
/// ```
pub fn percent(fraction: f64) -> String {
    format!("{:.2}%", fraction * 100.0)
}

/// The columns `text` takes on a terminal: its display width, its colours' escape sequences
/// (`ESC [ ... m`, all that [`Style`](crate::draw::Style) writes) left out.
///
/// # Examples
///
/// ```
/// use ttt_oracle::text::shown_width;
///
/// assert_eq!(shown_width("\x1b[1mX\x1b[0m wins"), 6);
/// ```
pub fn shown_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // An escape sequence runs to its final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            width += UnicodeWidthChar::width(c).unwrap_or(0);
        }
    }
    width
}
