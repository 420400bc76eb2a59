//! Text for people that the reports of `ttt audit` and `ttt match` share: names cut to fit,
//! padding by display width, percentages, and the line that names what an error left undone.

use crate::Ratio;
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
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
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
/// command tell bots apart (`python3 bots/a.py` and `python3 bots/b.py`).
pub fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(1);
    let take = |chars: &mut dyn Iterator<Item = char>, budget: usize| {
        let mut taken = Vec::new();
        let mut used = 0;
        for ch in chars {
            let w = ch.width().unwrap_or(0);
            if used + w > budget {
                break;
            }
            taken.push(ch);
            used += w;
        }
        (taken, used)
    };
    let (head, used) = take(&mut text.chars(), room / 2);
    let (mut tail, _) = take(&mut text.chars().rev(), room - used);
    tail.reverse();
    head.into_iter()
        .chain(std::iter::once('…'))
        .chain(tail)
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shown_width_leaves_colours_out_and_counts_wide_characters_twice() {
        assert_eq!(shown_width("\u{1b}[1mX\u{1b}[0m | \u{1b}[2m.\u{1b}[0m"), 5);
        assert_eq!(shown_width("字x"), 3);
        assert_eq!(shown_width(""), 0);
    }

    #[test]
    fn one_ply_is_singular() {
        assert_eq!([0, 1, 2].map(plies), ["0 plies", "1 ply", "2 plies"]);
    }

    #[test]
    fn what_an_error_left_fits_one_line() {
        let start = "Not audited, after a protocol error (below): ";
        let left: Vec<String> = (0..20).map(|i| format!("bot-number-{i:02} as X")).collect();
        let line = not_done(start, &left);
        assert!(line.width() <= 100, "{line}");
        assert!(line.ends_with(" more."), "{line}");
        assert_eq!(
            not_done(start, &["half as O".to_string()]),
            "Not audited, after a protocol error (below): half as O."
        );
    }

    #[test]
    fn fit_cuts_the_middle_by_display_width() {
        assert_eq!(fit("minimax.py", 24), "minimax.py");
        assert_eq!(fit("python3 bots/a-long-name.py", 12), "pytho…ame.py");
        assert_eq!(fit("python3 bots/a-long-name.py", 12).width(), 12);
        // Wide characters count two columns, and are never split.
        let cut = fit("井字棋井字棋井字棋井字棋", 9);
        assert_eq!(cut, "井字…字棋");
        assert!(cut.width() <= 9);
    }
}
