//! `ttt export`: every format round-trips to the table, in a stable order, written safely.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use ttt_oracle::export::{self, ExportFormat, Record};
use ttt_oracle::{Board, Cell, Value, canonicalize, table};

fn ttt() -> Command {
    Command::cargo_bin("ttt").unwrap()
}

fn stdout(args: &[&str]) -> Vec<u8> {
    let out = ttt().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Checks one record against the table, field by field.
fn check(record: &Record) {
    let table = table();
    let board = record.board;
    let evaluation = table.evaluate(&board);
    assert_eq!(record.to_move, board.to_move());
    assert_eq!(usize::from(record.ply), board.ply());
    assert_eq!(record.status, board.status());
    assert_eq!(
        (record.value, record.remoteness),
        (evaluation.value, evaluation.remoteness)
    );
    assert_eq!(record.best, evaluation.best);
    assert_eq!(record.moves, table.analyze(&board));
    let (canonical, symmetry) = canonicalize(board);
    assert_eq!(record.canonical, canonical.board());
    assert_eq!(record.symmetry, symmetry);
    assert_eq!(record.symmetry.apply(board), record.canonical);
}

fn check_all(records: &[Record], canonical: bool) {
    assert_eq!(records.len(), if canonical { 765 } else { 5478 });
    let mut order: Vec<(u8, String)> = records
        .iter()
        .map(|r| (r.ply, r.board.to_string()))
        .collect();
    let sorted = {
        let mut s = order.clone();
        s.sort();
        s
    };
    assert_eq!(order, sorted, "by ply, then board");
    order.dedup();
    assert_eq!(order.len(), records.len(), "no position twice");
    records.iter().for_each(check);
}

#[test]
fn jsonl_and_json_round_trip() {
    for canonical in [false, true] {
        let mut args = vec!["export"];
        if canonical {
            args.push("--canonical");
        }
        let lines = String::from_utf8(stdout(&args)).unwrap();
        let records: Vec<Record> = lines
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        check_all(&records, canonical);

        args.extend(["--format", "json"]);
        let records: Vec<Record> = serde_json::from_slice(&stdout(&args)).unwrap();
        check_all(&records, canonical);
    }
}

#[test]
fn csv_round_trips() {
    let text = String::from_utf8(stdout(&["export", "--format", "csv"])).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header.len(), 9 + 18);
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut count = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), header.len(), "{line}");
        let board: Board = f[col("board")].parse().unwrap();
        let evaluation = table().evaluate(&board);
        assert_eq!(f[col("value")], evaluation.value.name());
        assert_eq!(f[col("remoteness")], evaluation.remoteness.to_string());
        assert_eq!(f[col("best")], evaluation.best.to_string());
        assert_eq!(f[col("to_move")], board.to_move().to_string());
        assert_eq!(f[col("status")], board.status().name());
        let (canonical, symmetry) = canonicalize(board);
        assert_eq!(f[col("canonical")], canonical.board().to_string());
        assert_eq!(f[col("symmetry")], symmetry.name());
        for cell in Cell::ALL {
            let value = f[col(&format!("value_{cell}"))];
            let remoteness = f[col(&format!("remoteness_{cell}"))];
            match table().analyze(&board).iter().find(|m| m.cell == cell) {
                Some(m) => {
                    assert_eq!(value, m.value.name());
                    assert_eq!(remoteness, m.remoteness.to_string());
                }
                None => assert_eq!((value, remoteness), ("", "")),
            }
        }
        count += 1;
    }
    assert_eq!(count, 5478);
}

#[test]
fn bincode_round_trips_through_the_file_and_the_reader() {
    let dir = tempdir();
    let path = dir.path().join("table.bin");
    ttt()
        .args(["export", "--format", "bincode", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let records = export::read_bincode(&std::fs::read(&path).unwrap()).unwrap();
    check_all(&records, false);
    let bytes = std::fs::read(&path).unwrap();
    assert!(export::read_bincode(&bytes[..bytes.len() - 1]).is_err());
    assert!(export::read_bincode(b"TTTEXPRT").is_err());
    let mut wrong = bytes.clone();
    wrong[0] = b'X';
    assert_eq!(
        export::read_bincode(&wrong),
        Err(export::ReadExportError::Magic)
    );
    assert!(records.iter().any(|r| r.value == Value::Win));
}

#[test]
fn output_is_byte_identical_from_run_to_run() {
    for format in ["jsonl", "json", "csv"] {
        assert_eq!(
            stdout(&["export", "--format", format]),
            stdout(&["export", "--format", format])
        );
    }
    let dir = tempdir();
    let (a, b) = (dir.path().join("a.bin"), dir.path().join("b.bin"));
    for path in [&a, &b] {
        ttt()
            .args(["export", "--format", "bincode", "-o"])
            .arg(path)
            .assert()
            .success();
    }
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
}

#[test]
fn the_files_in_data_equal_a_fresh_export() {
    let records = export::records(table(), false);
    for (file, format) in [
        ("table.csv", ExportFormat::Csv),
        ("table.jsonl", ExportFormat::Jsonl),
    ] {
        let mut fresh = Vec::new();
        export::write(&mut fresh, format, &records).unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(file);
        let stored = std::fs::read(&path).unwrap();
        assert!(
            stored == fresh,
            "data/{file} differs from a fresh export; regenerate it with `ttt export --format {} -o data/{file}`",
            if format == ExportFormat::Csv {
                "csv"
            } else {
                "jsonl"
            }
        );
    }
}

#[test]
fn failed_writes_leave_nothing_behind() {
    let dir = tempdir();
    // Into a folder that does not exist.
    ttt()
        .args(["export", "-o"])
        .arg(dir.path().join("missing").join("t.jsonl"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot write"));
    // Over a folder: refused before any temporary file is made; the folder is untouched.
    let target = dir.path().join("occupied");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("keep"), "precious").unwrap();
    ttt().args(["export", "-o"]).arg(&target).assert().code(2);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["occupied"], "no temporary file left: {names:?}");
    assert_eq!(
        std::fs::read_to_string(target.join("keep")).unwrap(),
        "precious"
    );
    // An existing file is replaced whole.
    let file = dir.path().join("t.csv");
    std::fs::write(&file, "old").unwrap();
    ttt()
        .args(["export", "--format", "csv", "-o"])
        .arg(&file)
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .starts_with("board,to_move")
    );
}

#[test]
fn bincode_is_not_sent_to_a_terminal_but_is_to_a_pipe() {
    let bytes = stdout(&["export", "--format", "bincode"]);
    assert_eq!(export::read_bincode(&bytes).unwrap().len(), 5478);
}

#[test]
fn a_closed_pipe_ends_quietly_with_success() {
    let (_, out) = common::close_after_64_bytes(&["export"]);
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}
