//! Text for people that the reports of `ttt audit` and `ttt match` share: names cut to fit,
//! padding by display width, percentages, and the line that names what an error left undone.

use ttt_oracle::Ratio;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The first `keep` of `names` and how many more (`random, smartbot and 1 more`), for a list
/// cut to fit its line; `None` when none is kept.
pub fn first_of(names: &[String], keep: usize) -> Option<String> {
    match (keep, names.len() - keep) {
        (0, _) => None,
        (_, 0) => Some(names.join(", ")),
        (_, more) => Some(format!("{} and {more} more", names[..keep].join(", "))),
    }
}

/// `1 ply`, `2 plies`.
pub fn plies(n: usize) -> String {
    ttt_oracle::text::counted(n, "ply", "plies")
}

/// `start`, then as many of `left` as fit within 100 columns and how many more: the line that
/// names what an error left undone (`start` says what and why).
pub fn not_done(start: &str, left: &[String]) -> String {
    let mut shown = 0;
    let mut line = String::new();
    for (i, item) in left.iter().enumerate() {
        let more = left.len() - i - 1;
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let candidate = if line.is_empty() {
            item.clone()
        } else {
            format!("{line}, {item}")
        };
        if shown > 0 && (start.width() + candidate.width() + tail.len() + 1) > 100 {
            break;
        }
        line = candidate;
        shown += 1;
    }
    let more = left.len() - shown;
    if more > 0 {
        format!("{start}{line} and {more} more.")
    } else {
        format!("{start}{line}.")
    }
}

/// `text` cut to `width` columns by taking out its middle, marked `…`: both ends of a name or
/// command tell bots apart (`python3 bots/a.py` and `python3 bots/b.py`). An escape that
/// [`escape`](ttt_oracle::text::escape) wrote (`\u{a0}`, `\xff`, `\\`) is kept whole or left out
/// whole, never cut in half.
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

/// `plain` shown as `painted` (the same text, perhaps coloured), padded to `width` columns.
pub fn pad(plain: &str, painted: &str, width: usize) -> String {
    let fill = width.saturating_sub(plain.width());
    format!("{painted}{}", " ".repeat(fill))
}

/// A probability as a percentage with two places, `84.16%`.
pub fn percent(r: Ratio) -> String {
    format!("{:.2}%", r.to_f64() * 100.0)
}

/// The columns `text` takes on a terminal: its display width, its colours' escape sequences
/// (`ESC [ ... m`, all that `Style` writes) left out.
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
