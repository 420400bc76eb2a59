//! `ttt export`: every format round-trips to the table, in a stable order, written safely;
//! tic-tac-toe's and, with `--game`, the small m,n,k games'. 4x4's is in mnk_exhaustive.rs.

use crate::common;

use assert_cmd::Command;
use common::mnk::check_all_mnk;
use predicates::prelude::*;
use ttt_oracle::export::{self, ExportFormat, Record};
use ttt_oracle::{Cell, Game, Oracle, Position, Value};

fn ttt() -> Command {
    Command::new(crate::common::ttt())
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

/// Where a symmetry sends the cell at (row, column).
type Map = fn(usize, usize) -> (usize, usize);

/// Where each of tic-tac-toe's 8 symmetries, by name, sends the cell at (row, column):
/// worked out here, apart from the library's own tables.
const SYMMETRIES: [(&str, Map); 8] = [
    ("identity", |r, c| (r, c)),
    ("rotate90", |r, c| (c, 2 - r)),
    ("rotate180", |r, c| (2 - r, 2 - c)),
    ("rotate270", |r, c| (2 - c, r)),
    ("flip_horizontal", |r, c| (r, 2 - c)),
    ("flip_vertical", |r, c| (2 - r, c)),
    ("transpose", |r, c| (c, r)),
    ("anti_transpose", |r, c| (2 - c, 2 - r)),
];

/// The board's base-3 code (cell `i` weighs `3^i`; X 1, O 2).
fn code(board: &str) -> u32 {
    board.chars().rev().fold(0, |code, ch| {
        3 * code
            + match ch {
                'X' => 1,
                'O' => 2,
                _ => 0,
            }
    })
}

/// The image of a 9-character board under a symmetry.
fn image(board: &str, map: Map) -> String {
    let cells: Vec<char> = board.chars().collect();
    let mut out = ['.'; 9];
    for (i, &ch) in cells.iter().enumerate() {
        let (r, c) = map(i / 3, i % 3);
        out[r * 3 + c] = ch;
    }
    out.iter().collect()
}

/// Checks one record against the table, field by field, and its canonical form against the
/// images of its board: the first symmetry, in order, to reach the smallest code.
fn check(record: &Record) {
    let oracle = Oracle::of(Game::TIC_TAC_TOE).unwrap();
    let board = record.board;
    let probe = oracle.probe(&board);
    assert_eq!(record.game, Game::TIC_TAC_TOE);
    assert_eq!(record.to_move, board.to_move());
    assert_eq!(usize::from(record.ply), board.ply());
    assert_eq!(record.status, board.status());
    assert_eq!(
        (record.value, record.remoteness),
        (probe.value, probe.remoteness)
    );
    assert_eq!(record.best, oracle.best_moves(&board));
    assert_eq!(record.moves, oracle.moves(&board));
    let text = board.to_string();
    let (name, canonical) = SYMMETRIES
        .iter()
        .map(|&(name, map)| (name, image(&text, map)))
        .fold(
            None,
            |best: Option<(&str, String)>, (name, image)| match best {
                Some((_, ref kept)) if code(kept) <= code(&image) => best,
                _ => Some((name, image)),
            },
        )
        .unwrap();
    assert_eq!(record.canonical.to_string(), canonical, "{text}");
    assert_eq!(record.symmetry.name(), name, "{text}");
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
        let oracle = Oracle::of(Game::TIC_TAC_TOE).unwrap();
        let board = Position::parse(Game::TIC_TAC_TOE, f[col("board")]).unwrap();
        let probe = oracle.probe(&board);
        assert_eq!(f[col("value")], probe.value.name());
        assert_eq!(f[col("remoteness")], probe.remoteness.to_string());
        assert_eq!(f[col("best")], oracle.best_moves(&board).to_string());
        assert_eq!(f[col("to_move")], board.to_move().to_string());
        assert_eq!(f[col("status")], board.status().name());
        let text = board.to_string();
        let images: Vec<(&str, String)> = SYMMETRIES
            .iter()
            .map(|&(name, map)| (name, image(&text, map)))
            .collect();
        let smallest = images.iter().map(|(_, image)| code(image)).min().unwrap();
        let (name, canonical) = images.iter().find(|(_, i)| code(i) == smallest).unwrap();
        assert_eq!(f[col("canonical")], canonical);
        assert_eq!(f[col("symmetry")], *name);
        for cell in (1..=9).filter_map(Cell::from_number) {
            let value = f[col(&format!("value_{cell}"))];
            let remoteness = f[col(&format!("remoteness_{cell}"))];
            match oracle.moves(&board).iter().find(|m| m.cell == cell) {
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
    let bytes = std::fs::read(&path).unwrap();
    let records = read(&bytes).unwrap();
    check_all(&records, false);
    assert!(read(&bytes[..bytes.len() - 1]).is_err());
    assert!(read(b"TTTEXPRT").is_err());
    let mut wrong = bytes.clone();
    wrong[0] = b'X';
    assert_eq!(read(&wrong), Err(export::ReadExportError::Magic));
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
    let game = Game::TIC_TAC_TOE;
    for (file, format) in [
        ("table.csv", ExportFormat::Csv),
        ("table.jsonl", ExportFormat::Jsonl),
    ] {
        let mut fresh = Vec::new();
        let records = export::records(game, false).unwrap();
        export::write(&mut fresh, format, game, records).unwrap();
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
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
    assert_eq!(read(&bytes).unwrap().len(), 5478);
}

#[test]
fn a_closed_pipe_ends_it_quietly() {
    let (_, out) = common::close_after_64_bytes(&["export"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Every record of a bincode export, or the first error.
fn read(bytes: &[u8]) -> Result<Vec<Record>, export::ReadExportError> {
    export::read_bincode(bytes)?.collect()
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

// The m,n,k games: `--game G`.

/// The games checked record by record in a debug build: the smallest with a known count, a
/// rectangle either way round (4 symmetries) and a square other than tic-tac-toe (8). The
/// embedded games are checked in release, in mnk_exhaustive.rs.
const MNK_GAMES: [&str; 4] = ["2x2k2", "2x3", "3x2", "3x3k2"];

fn mnk_export(game: &str, extra: &[&str]) -> Vec<u8> {
    let mut args = vec!["export", "--game", game];
    args.extend(extra);
    stdout(&args)
}

fn mnk_jsonl(game: &str, extra: &[&str]) -> Vec<Record> {
    String::from_utf8(mnk_export(game, extra))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn mnk_exports_hold_every_position_once_in_order_and_agree_with_the_table() {
    for name in MNK_GAMES {
        let game: Game = name.parse().unwrap();
        for canonical in [false, true] {
            let extra: &[&str] = if canonical { &["--canonical"] } else { &[] };
            let records = mnk_jsonl(name, extra);
            check_all_mnk(game, &records, canonical);
            if canonical {
                let all = mnk_jsonl(name, &[]);
                let canonical_ones: Vec<&Record> =
                    all.iter().filter(|r| r.board == r.canonical).collect();
                assert_eq!(canonical_ones, records.iter().collect::<Vec<_>>(), "{game}");
            }
        }
    }
    let known = common::mnk::known();
    let figure = known
        .iter()
        .find(|(game, key, _)| game == "2x2k2" && key == "reachable_positions")
        .map(|(.., figure)| figure.clone());
    assert_eq!(Some(mnk_jsonl("2x2k2", &[]).len().to_string()), figure);
}

#[test]
fn every_mnk_format_holds_the_same_records() {
    for name in ["2x3", "3x3k2"] {
        let game: Game = name.parse().unwrap();
        let records = mnk_jsonl(name, &[]);

        let json: Vec<Record> =
            serde_json::from_slice(&mnk_export(name, &["--format", "json"])).unwrap();
        assert_eq!(json, records, "{game}");

        let bytes = mnk_export(name, &["--format", "bincode"]);
        let reader = export::read_bincode(bytes.as_slice()).unwrap();
        assert_eq!(reader.game(), game);
        let read: Vec<Record> = reader.collect::<Result<_, _>>().unwrap();
        assert_eq!(read, records, "{game}");

        let csv = String::from_utf8(mnk_export(name, &["--format", "csv"])).unwrap();
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!(header.len(), 10 + 2 * game.cells());
        assert_eq!(header[..2], ["game", "board"]);
        let rows: Vec<&str> = lines.collect();
        assert_eq!(rows.len(), records.len());
        for (row, record) in rows.iter().zip(&records) {
            let fields: Vec<&str> = row.split(',').collect();
            assert_eq!(fields.len(), header.len(), "{row}");
            let best: Vec<String> = record.best.iter().map(|cell| cell.to_string()).collect();
            let expected = [
                record.game.to_string(),
                record.board.to_string(),
                record.to_move.to_string(),
                record.ply.to_string(),
                record.status.name().to_string(),
                record.value.name().to_string(),
                record.remoteness.to_string(),
                best.join(" "),
                record.canonical.to_string(),
                record.symmetry.name().to_string(),
            ];
            assert_eq!(fields[..10], expected, "{row}");
            for number in 1..=game.cells() {
                let played = record
                    .moves
                    .iter()
                    .find(|m| usize::from(m.cell.number()) == number);
                let value = played
                    .map(|m| m.value.name().to_string())
                    .unwrap_or_default();
                let remoteness = played.map(|m| m.remoteness.to_string()).unwrap_or_default();
                assert_eq!(fields[9 + number], value, "{row}");
                assert_eq!(fields[9 + game.cells() + number], remoteness, "{row}");
            }
        }
    }
}

#[test]
fn a_damaged_mnk_bincode_export_is_an_error() {
    let bytes = mnk_export("2x2k2", &["--format", "bincode"]);
    assert!(bytes.starts_with(&export::STREAM_MAGIC));
    assert_eq!(read(&bytes).unwrap().len(), 29);
    // Cut short anywhere: an error, never fewer records.
    for end in [0, 8, 12, bytes.len() / 2, bytes.len() - 1] {
        assert!(read(&bytes[..end]).is_err(), "cut at {end}");
    }
    let mut longer = bytes.clone();
    longer.extend_from_slice(b"??");
    assert_eq!(read(&longer), Err(export::ReadExportError::Trailing(2)));
    let mut wrong = bytes.clone();
    wrong[0] = b'X';
    assert_eq!(read(&wrong), Err(export::ReadExportError::Magic));
    // Tic-tac-toe's layout and the streamed one are told apart by their magic.
    let tic_tac_toe = stdout(&["export", "--format", "bincode"]);
    assert!(tic_tac_toe.starts_with(&export::EXPORT_MAGIC));
    let reader = export::read_bincode(tic_tac_toe.as_slice()).unwrap();
    assert_eq!(reader.game(), Game::TIC_TAC_TOE);
    assert_eq!(read(&tic_tac_toe).unwrap().len(), 5478);
}

#[test]
fn mnk_exports_are_byte_identical_from_run_to_run_and_3x3_is_tic_tac_toe() {
    for format in ["jsonl", "json", "csv", "bincode"] {
        let run = || mnk_export("3x3k2", &["--format", format]);
        assert_eq!(run(), run(), "{format}");
        // Naming tic-tac-toe changes nothing.
        assert_eq!(
            mnk_export("3x3", &["--format", format]),
            stdout(&["export", "--format", format]),
            "{format}"
        );
    }
}

#[test]
fn bad_mnk_exports_are_usage_errors_and_leave_nothing_behind() {
    let dir = tempdir();
    let path = dir.path().join("t.jsonl");
    for (game, says) in [
        ("0x3", "a board needs at least one row and one column"),
        ("3x3k9", "k = 9 cannot be played"),
        (
            "12x12",
            "a board of 144 cells is too large: at most 128 cells",
        ),
        (
            "9x9",
            "game 9x9 has 81 cells; tables stop at 25 (past 16, made by `ttt solve`)",
        ),
        ("5x4", "make one with `ttt solve --game 5x4`"),
        ("4x4q", "\"4x4q\" is not a game"),
    ] {
        // A cache folder with nothing in it: 5x4 has no table solved there.
        ttt()
            .args(["export", "--game", game, "-o"])
            .arg(&path)
            .arg("--cache-dir")
            .arg(dir.path().join("no-cache"))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(says));
    }
    ttt()
        .args(["export", "--game", "2x3", "-o"])
        .arg(dir.path().join("missing").join("t.jsonl"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot write"));
    ttt()
        .args(["export", "--game", "2x3", "-o", "/dev/full"])
        .assert()
        .code(5)
        .stderr("error: cannot write \"/dev/full\": No space left on device (os error 28)\n");
    assert_eq!(common::names(dir.path()), Vec::<String>::new());
    // Written whole, or not at all.
    ttt()
        .args(["export", "--game", "2x3", "--format", "csv", "-o"])
        .arg(&path)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        mnk_export("2x3", &["--format", "csv"])
    );
    assert_eq!(common::names(dir.path()), ["t.jsonl"]);
}

#[test]
fn a_closed_pipe_ends_a_4x4_export_at_once_and_quietly() {
    for format in ["jsonl", "csv", "bincode"] {
        let (first, out) =
            common::close_after_64_bytes(&["export", "--game", "4x4", "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{format}: {:?}", out.status);
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{format}");
        assert!(
            first.starts_with(b"{\"game\":\"4x4\"")
                || first.starts_with(b"game,board")
                || first.starts_with(b"TTTMNKEX")
        );
    }
}
