//! A damaged table through the real binary: `ttt verify` and every command that needs the
//! table say so, with a reason and never with a panic. Every way the embedded bytes can be
//! broken is refused with a reason by the decoder itself: the unit tests of the dense table's
//! layout, src/tests/dense_table.rs.

// The binary is patched and run as Linux lays it out and runs it. A crate of its own: a patched
// copy is written, then run, and a process that forks meanwhile (as the other tests' do) could
// hold it open for writing ("text file busy").
#![cfg(target_os = "linux")]

mod common;

/// Where tic-tac-toe's stored table begins (see the layout in `src/format/mod.rs`): the magic,
/// format version 2 and the game 3x3 (rows, columns, k), then the count of canonical positions
/// in play. Found by its layout, since the library does not show its bytes; the other embedded
/// games' tables share the magic but not the game.
fn tables_in(bytes: &[u8]) -> Vec<usize> {
    const HEADER: [u8; 19] = *b"TTTMNKTB\x02\0\0\0\x03\x03\x03\x73\x02\0\0";
    (0..bytes.len().saturating_sub(HEADER.len()))
        .filter(|&start| bytes[start..start + HEADER.len()] == HEADER)
        .collect()
}

/// Held by each test while it writes a binary and runs it: no child of another test, forked
/// while the new file is open for writing, can then hold it open when it is run (which would
/// fail with "text file busy").
fn alone() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `ttt` copied, with tic-tac-toe's embedded table damaged in place: one byte in the middle of
/// its positions flipped, as a disk or a careless patch would.
fn damaged_binary() -> std::path::PathBuf {
    let original = std::fs::read(common::ttt()).unwrap();
    let tables = tables_in(&original);
    assert!(!tables.is_empty(), "the table is not in the binary");
    let mut patched = original;
    for start in tables {
        patched[start + 500] ^= 0x04;
    }
    let path = std::env::temp_dir().join(format!("ttt-damaged-{}", std::process::id()));
    std::fs::write(&path, patched).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_damaged_binary_says_so_instead_of_panicking() {
    use assert_cmd::Command;
    use predicates::prelude::*;

    let _alone = alone();
    let path = damaged_binary();
    let ttt = || {
        let mut cmd = Command::new(&path);
        cmd.timeout(std::time::Duration::from_secs(10));
        cmd
    };
    // What docs/commands.md shows of `ttt verify` on a damaged binary, its one example not run
    // by the docs' test: the output is checked here instead.
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/commands.md"))
        .unwrap();
    let shown = page
        .split("<!-- not run: a damaged binary; tests/table.rs makes one -->")
        .nth(1)
        .and_then(|block| block.split("$ ttt verify\n").nth(1))
        .and_then(|output| output.split("```").next())
        .expect("docs/commands.md shows `ttt verify` on a damaged binary");
    ttt()
        .arg("verify")
        .assert()
        .code(1)
        .stdout("")
        .stderr(shown.to_string());
    // Every other command that needs the table stops at once with one line, exit code 4.
    let commands: &[&[&str]] = &[
        &["play"],
        &["analyze", "X........"],
        &["best", "--moves", "5"],
        // Without a flag, `best` is parsed apart from the other commands.
        &["best", "X........"],
        &["stats"],
        &["audit", "perfect"],
        &["export", "--format", "csv"],
    ];
    for args in commands {
        ttt()
            .args(*args)
            .write_stdin("5\n")
            .assert()
            .code(4)
            .stdout("")
            .stderr(predicate::str::starts_with(
                "error: the embedded table is damaged: the checksum does not match",
            ))
            .stderr(predicate::str::ends_with("; rebuild ttt\n"))
            .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    }
    ttt().arg("bots").assert().code(0);
    // The version says so too, though it no longer decodes the table to show its checksum.
    ttt()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with(
            "(the embedded table is damaged)\n",
        ));
    std::fs::remove_file(&path).unwrap();
}

/// The half bytes of 4x4's lowest optimal moves for the 256 boards from base-3 code `start`
/// on, as the library's general path (the canonical record) answers them: 0 for a board
/// that is illegal or over.
fn first_moves_from(start: u32) -> (Vec<u8>, Vec<Option<ttt_oracle::Position>>) {
    use ttt_oracle::{Cells, Game, Oracle, Position};
    let game: Game = "4x4".parse().unwrap();
    let oracle = Oracle::of(game).unwrap();
    let boards: Vec<Option<Position>> = (start..start + 256)
        .map(|code| {
            let (mut x, mut o, mut rest) = (0, 0, code);
            for cell in 0..16 {
                match rest % 3 {
                    1 => x |= 1 << cell,
                    2 => o |= 1 << cell,
                    _ => {}
                }
                rest /= 3;
            }
            let board = Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o));
            board.ok().filter(|board| !board.is_over())
        })
        .collect();
    let nibble = |board: &Option<Position>| {
        board.map_or(0, |board| {
            oracle.best_moves(&board).first().unwrap().index() as u8
        })
    };
    let bytes = boards
        .chunks(2)
        .map(|pair| nibble(&pair[0]) | nibble(&pair[1]) << 4)
        .collect();
    (bytes, boards)
}

#[test]
fn damaged_best_moves_of_4x4_are_found_by_verify() {
    use assert_cmd::Command;
    use predicates::prelude::*;

    let _alone = alone();
    // Boards with 5 X and 4 or 5 O, among the first codes of that many marks: most in play.
    let start = 20_000_000;
    let (window, boards) = first_moves_from(start);
    let original = std::fs::read(common::ttt()).unwrap();
    let found: Vec<usize> = original
        .windows(window.len())
        .enumerate()
        .filter(|(_, bytes)| *bytes == &window[..])
        .map(|(at, _)| at)
        .collect();
    assert_eq!(found.len(), 1, "4x4's best moves are in the binary once");
    // The first board in play of the window, told another of its empty cells.
    let (index, board) = boards
        .iter()
        .enumerate()
        .find_map(|(index, board)| board.map(|board| (index, board)))
        .expect("a board in play");
    let right = window[index / 2] >> (4 * (index % 2)) & 0xf;
    let wrong = board
        .empty_cells()
        .iter()
        .map(|cell| cell.index() as u8)
        .find(|&cell| cell != right)
        .expect("two empty cells");
    let mut patched = original;
    let at = found[0] + index / 2;
    patched[at] = patched[at] & !(0xf << (4 * (index % 2))) | wrong << (4 * (index % 2));
    let path = std::env::temp_dir().join(format!("ttt-damaged-moves-{}", std::process::id()));
    std::fs::write(&path, patched).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ttt = || {
        let mut cmd = Command::new(&path);
        cmd.timeout(std::time::Duration::from_secs(120));
        cmd
    };
    // A query reads the half byte as it is: only `ttt verify` compares them with a solve.
    ttt()
        .args(["best", "--game", "4x4", &board.to_string()])
        .assert()
        .code(0)
        .stdout(format!("{}\n", wrong + 1));
    ttt()
        .args(["verify", "--game", "4x4"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(board.to_string()))
        .stdout(predicate::str::contains("ok:").not());
    std::fs::remove_file(&path).unwrap();
}
