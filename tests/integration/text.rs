//! Text from people and programs quoted, escaped and bounded in display width; counts grouped.

use ttt_oracle::text::*;
use unicode_width::UnicodeWidthStr;

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

#[test]
fn escapes_count_in_the_width() {
    let quoted = quote(&"\0".repeat(60));
    assert_eq!(
        quoted,
        format!("\"{}…\" (60 characters)", "\\u{0}".repeat(12))
    );
    assert!(quoted.width() <= QUOTE_LIMIT + 20, "{quoted}");
    // Wide characters take two columns each.
    assert_eq!(
        quote(&"漢".repeat(31)),
        format!("\"{}…\" (31 characters)", "漢".repeat(30))
    );
}

#[test]
fn what_passes_for_something_else_is_escaped() {
    for (text, shown) in [
        ("5\u{a0}", "5\\u{a0}"),
        ("a\u{200b}b", "a\\u{200b}b"),
        ("\u{feff}5", "\\u{feff}5"),
        ("co\u{ad}op", "co\\u{ad}op"),
        ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"),
        ("a\u{3000}b", "a\\u{3000}b"),
        ("\u{e0041}", "\\u{e0041}"),
    ] {
        assert_eq!(escape(text), shown, "{text:?}");
    }
}

#[test]
fn a_combining_mark_is_kept_on_a_letter_and_escaped_alone() {
    assert_eq!(escape("e\u{301}"), "e\u{301}");
    assert_eq!(escape("\u{301}"), "\\u{301}");
    assert_eq!(escape(" \u{301}"), " \\u{301}");
    assert_eq!(escape("\\\u{301}"), "\\\\\\u{301}");
    assert_eq!(quote("\u{301}a"), "\"\\u{301}a\"");
}

#[test]
fn invalid_utf8_shows_its_bytes() {
    assert_eq!(quote_bytes(b"5\xff"), "\"5\\xff\"");
    assert_eq!(quote_bytes(b"\xe2\x82"), "\"\\xe2\\x82\"");
    // Cut in the middle of a character: the half is left out.
    assert_eq!(quote_head("a€".as_bytes()[..3].as_ref(), None), "\"a…\"");
    assert_eq!(quote_head(b"ab", Some(9)), "\"ab…\" (9 bytes)");
}

#[test]
fn a_pile_of_combining_marks_is_cut_like_anything_else() {
    let text = format!("a{}", "\u{301}".repeat(1000));
    let quoted = quote(&text);
    let suffix = "…\" (1001 characters)";
    assert!(quoted.ends_with(suffix), "{quoted}");
    // The opening quote and 60 characters: the letter and 59 of its marks.
    assert_eq!(
        quoted.chars().count(),
        1 + QUOTE_LIMIT + suffix.chars().count()
    );
}

#[test]
fn thousands_are_grouped_from_the_right() {
    let cases: [(i128, &str); 8] = [
        (0, "0"),
        (7, "7"),
        (999, "999"),
        (1000, "1,000"),
        (50000, "50,000"),
        (-1024, "-1,024"),
        (29429345758, "29,429,345,758"),
        (15038733958272, "15,038,733,958,272"),
    ];
    for (n, text) in cases {
        assert_eq!(grouped(n), text);
    }
    assert_eq!(
        grouped(u128::MAX),
        "340,282,366,920,938,463,463,374,607,431,768,211,455"
    );
}

#[test]
fn the_noun_agrees_with_its_count() {
    assert_eq!(counted(1u64, "history", "histories"), "1 history");
    assert_eq!(counted(0u64, "history", "histories"), "0 histories");
    assert_eq!(
        counted(4000000u64, "history", "histories"),
        "4,000,000 histories"
    );
}
