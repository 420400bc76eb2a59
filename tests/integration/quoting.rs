//! What `ttt` shows of text it was given, through the binary: every invisible or ambiguous
//! character escaped so that what is shown is what was sent (from arguments, standard input
//! and real bots that print NUL bytes, non-breaking spaces and invalid UTF-8), quotes bounded
//! in printed width, and game sizes with a leading zero refused as cells are.

use assert_cmd::Command;
use unicode_width::UnicodeWidthStr;

fn ttt() -> Command {
    Command::new(crate::common::ttt())
}

/// Standard error of `ttt ARGS`, which must fail with `code`.
fn stderr_of(args: &[&str], code: i32) -> String {
    let out = ttt().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {out:?}");
    String::from_utf8(out.stderr).unwrap()
}

/// Every double-quoted part of `line` (escaped quotes skipped), with what follows it.
fn quotes(line: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let mut end = None;
        let mut escaped = false;
        for (i, ch) in after.char_indices() {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        found.push(&after[..end]);
        rest = &after[end + 1..];
    }
    found
}

/// An external bot, run by the shell, that answers every request with the bytes `printf`
/// makes of `format`.
fn replying(format: &str) -> String {
    format!("while read request; do printf '{format}\\n'; done")
}

fn bot_error(format: &str) -> String {
    stderr_of(&["audit", "--side", "x", "--cmd", &replying(format)], 3)
}

#[test]
fn sixty_nul_bytes_from_a_bot_are_quoted_in_sixty_columns() {
    let nul60 = "\\000".repeat(60);
    let stderr = bot_error(&nul60);
    let twelve = "\\u{0}".repeat(12);
    assert!(
        stderr.contains(&format!("it replied \"{twelve}…\" (60 bytes)")),
        "{stderr}"
    );
    for quoted in quotes(&stderr) {
        assert!(quoted.width() <= 61, "{} columns: {quoted}", quoted.width());
    }
    // The reply is quoted once, so the message stays near one quote's width.
    assert_eq!(stderr.matches("\\u{0}").count(), 12, "{stderr}");
    assert!(stderr.width() < 320, "{stderr}");
}

#[test]
fn a_reply_ending_in_a_non_breaking_space_shows_it() {
    let stderr = bot_error("5\\302\\240");
    assert!(stderr.contains("it replied \"5\\u{a0}\""), "{stderr}");
    assert!(!stderr.contains('\u{a0}'), "{stderr}");
}

#[test]
fn invalid_utf8_from_a_bot_shows_its_bytes() {
    let stderr = bot_error("5\\377");
    assert!(
        stderr.contains("it replied \"5\\xff\", which is not UTF-8 text"),
        "{stderr}"
    );
    assert!(!stderr.contains('\u{fffd}'), "{stderr}");
}

#[test]
fn invisible_characters_in_arguments_are_escaped() {
    for (board, shown) in [
        ("X\u{202e}........", "X\\u{202e}........"),
        ("X\u{200b}........", "X\\u{200b}........"),
        ("\u{feff}X........", "\\u{feff}X........"),
        ("X\u{ad}........", "X\\u{ad}........"),
        ("X\u{2066}........", "X\\u{2066}........"),
        ("\u{301}X........", "\\u{301}X........"),
        ("X\u{3000}Z.......", "X\\u{3000}Z......."),
    ] {
        let stderr = stderr_of(&["best", board], 2);
        assert!(
            stderr.starts_with(&format!("error: bad board \"{shown}\"")),
            "{board:?}: {stderr}"
        );
    }
    // A combining mark on a letter is the letter as written, not an escape.
    let stderr = stderr_of(&["best", "Xe\u{301}......."], 2);
    assert!(stderr.contains("\"Xe\u{301}.......\""), "{stderr}");
}

#[test]
fn wide_characters_count_twice() {
    let board = "漢".repeat(40);
    let stderr = stderr_of(&["best", &board], 2);
    let shown = "漢".repeat(30);
    assert!(
        stderr.starts_with(&format!("error: bad board \"{shown}…\" (40 characters)")),
        "{stderr}"
    );
}

#[test]
fn a_batch_line_of_nul_bytes_is_quoted_within_the_limit() {
    let out = ttt()
        .args(["best", "-"])
        .write_stdin(format!("{}\n", "\0".repeat(60)))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        all.contains(&format!("\"{}…\" (60 characters)", "\\u{0}".repeat(12))),
        "{all}"
    );
    for line in all.lines() {
        for quoted in quotes(line) {
            assert!(quoted.width() <= 61, "{quoted}");
        }
    }
}

#[test]
fn a_game_size_with_a_leading_zero_is_refused() {
    for (game, number, meant) in [
        ("03x3", "03", "3x3"),
        ("3x03", "03", "3x3"),
        ("4x4k03", "03", "4x4k3"),
        ("0004x4", "0004", "4x4"),
    ] {
        for command in [
            &["best", "--game", game, "X"][..],
            &["export", "--game", game][..],
            &["play", "--game", game][..],
        ] {
            let stderr = stderr_of(command, 2);
            assert!(
                stderr.starts_with(&format!(
                    "error: invalid value '{game}' for '--game <GAME>': \"{game}\" is not a \
                     game: \"{number}\" has a leading zero; write each number without one, as \
                     in \"{meant}\"\n"
                )),
                "{command:?}: {stderr}"
            );
        }
    }
    // With no game to suggest once the zero is gone, none is, and nothing breaks on the rest.
    let stderr = stderr_of(&["best", "--game", "03xé", "X"], 2);
    assert!(
        stderr.contains("\"03\" has a leading zero; write each number without one\n"),
        "{stderr}"
    );
    // A zero alone is a number, and a side of no cells.
    let stderr = stderr_of(&["best", "--game", "0x3", "X"], 2);
    assert!(
        stderr.contains("at least one row and one column"),
        "{stderr}"
    );
    // 10 is not a leading zero.
    ttt()
        .args(["best", "--game", "10x1", ".........."])
        .assert()
        .success();
}
