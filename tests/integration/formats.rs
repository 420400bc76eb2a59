//! docs/formats.md is the bincode export's specification: `tests/read_bincode.py`, a reader
//! written from that page alone with Python's standard library, reads the exports `ttt`
//! writes, every record equal to the JSON Lines export of the same game.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{assert_success, root, ttt};

/// Writes `ttt export --game GAME [EXTRA] -o NAME` into `dir`.
fn export(dir: &Path, game: &str, extra: &[&str], name: &str) {
    let out = Command::new(ttt())
        .args(["export", "--game", game])
        .args(extra)
        .arg("-o")
        .arg(dir.join(name))
        .output()
        .unwrap();
    assert_success(&out);
}

/// What the reader says of the bincode file `binary` against the JSON Lines file `lines`.
fn read(dir: &Path, binary: &str, lines: &str) -> Output {
    Command::new("python3")
        .arg(root().join("tests/read_bincode.py"))
        .arg(dir.join(binary))
        .arg(dir.join(lines))
        .output()
        .unwrap()
}

#[test]
fn a_reader_written_from_the_page_reads_every_record_of_each_layout() {
    let dir = tempfile::tempdir().unwrap();
    // Tic-tac-toe's layout, whole and canonical; the streamed one on a square board (cells of
    // eight bytes where 3x3's take one) and on a row (4 symmetries, no `/` in boards).
    let cases = [
        ("3x3", &[][..], "3x3: 5478 records"),
        ("3x3", &["--canonical"][..], "3x3: 765 records"),
        ("3x3k2", &[][..], "3x3k2: 1234 records"),
        ("1x4k3", &[][..], "1x4k3: 35 records"),
    ];
    for (n, (game, extra, said)) in cases.into_iter().enumerate() {
        let (binary, lines) = (format!("{n}.bin"), format!("{n}.jsonl"));
        export(
            dir.path(),
            game,
            &[extra, &["--format", "bincode"]].concat(),
            &binary,
        );
        export(
            dir.path(),
            game,
            &[extra, &["--format", "jsonl"]].concat(),
            &lines,
        );
        let out = read(dir.path(), &binary, &lines);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{game} {extra:?}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), said);
    }
}

#[test]
fn the_reader_refuses_a_file_cut_short_or_changed() {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path(), "1x4k3", &["--format", "bincode"], "whole.bin");
    export(dir.path(), "1x4k3", &["--format", "jsonl"], "whole.jsonl");
    let bytes = std::fs::read(dir.path().join("whole.bin")).unwrap();
    // Without the byte 0 that ends the records; then with the last record's last byte changed
    // (its symmetry's name, a letter, made another).
    std::fs::write(dir.path().join("cut.bin"), &bytes[..bytes.len() - 1]).unwrap();
    let mut changed = bytes.clone();
    let last = changed.len() - 2;
    changed[last] ^= 1;
    std::fs::write(dir.path().join("changed.bin"), &changed).unwrap();
    for (binary, why) in [("cut.bin", "ends at byte"), ("changed.bin", "differs")] {
        let out = read(dir.path(), binary, "whole.jsonl");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{binary} was read: {stderr}");
        assert!(stderr.contains(why), "{binary}: {stderr}");
    }
}
