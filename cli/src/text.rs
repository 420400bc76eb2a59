//! Text for people that the reports of `ttt audit` and `ttt match` share: a list cut to fit,
//! padding by display width, and the line that names what an error left undone.

use unicode_width::UnicodeWidthStr;

/// The first `keep` of `names` and how many more (`random, smartbot and 1 more`), for a list
/// cut to fit its line; `None` when none is kept.
pub fn first_of(names: &[String], keep: usize) -> Option<String> {
    match (keep, names.len() - keep) {
        (0, _) => None,
        (_, 0) => Some(names.join(", ")),
        (_, more) => Some(format!("{} and {more} more", names[..keep].join(", "))),
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

/// `plain` shown as `painted` (the same text, perhaps coloured), padded to `width` columns.
pub fn pad(plain: &str, painted: &str, width: usize) -> String {
    let fill = width.saturating_sub(plain.width());
    format!("{painted}{}", " ".repeat(fill))
}
