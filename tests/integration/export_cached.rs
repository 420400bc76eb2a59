//! `ttt export` of a game past 16 cells, from the table `ttt solve` cached: streamed in
//! bounded memory, each record as the table says, in the order of the smaller games' exports;
//! with no table, how to make one; from a damaged table, exit 4 and nothing written.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use ttt_oracle::{Game, Oracle};

fn ttt(dir: &Path, args: &[&str]) -> Output {
    Command::new(crate::common::ttt())
        .args(args)
        .arg("--cache-dir")
        .arg(dir)
        .env_remove("XDG_CACHE_HOME")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = crate::common::scratch("ttt-export-cached", name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first `lines` lines `ttt export ARGS` writes, read as it writes them, and the most
/// memory it had held by then; the export is then stopped.
fn export_head(dir: &Path, args: &[&str], lines: usize) -> (Vec<String>, u64) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(crate::common::ttt())
        .arg("export")
        .args(args)
        .arg("--cache-dir")
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let reader = BufReader::new(child.stdout.take().unwrap());
    let read: Vec<String> = reader.lines().take(lines).map(Result::unwrap).collect();
    let status = fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .map_or(0, |kib| kib.parse().unwrap());
    child.kill().unwrap();
    child.wait().unwrap();
    (read, peak_kib << 10)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves an 18-cell game; .ci/test runs it in release"
)]
fn export_streams_a_cached_table_in_bounded_memory() {
    let dir = scratch("export");
    let none = ttt(&dir, &["export", "--game", "3x6k4"]);
    assert_eq!(none.status.code(), Some(2), "{}", text(&none.stderr));
    assert!(
        text(&none.stderr).contains("ttt solve --game 3x6k4"),
        "{}",
        text(&none.stderr)
    );
    let solved = ttt(&dir, &["solve", "--game", "3x6k4"]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let game: Game = "3x6k4".parse().unwrap();
    ttt_oracle::cache::set_cache_dir(dir.clone());
    let oracle = Oracle::of(game).unwrap();
    // 200,000 canonical positions, past ply 5, while the export goes on: each as the table
    // says, canonical, in the order of the ≤16-cell exports (ply, then base-3 code).
    let (lines, peak) = export_head(&dir, &["--game", "3x6k4", "--canonical"], 200_000);
    assert_eq!(lines.len(), 200_000);
    let mut last = (0u64, 0u64);
    let mut by_ply = [0usize; 19];
    for line in &lines {
        let record: ttt_oracle::export::Record = serde_json::from_str(line).unwrap();
        let probe = oracle.probe(&record.board);
        assert_eq!(
            (record.value, record.remoteness),
            (probe.value, probe.remoteness)
        );
        assert_eq!(record.best, oracle.best_moves(&record.board), "{line}");
        assert_eq!(record.canonical, record.board, "{line}");
        let code = record
            .board
            .to_string()
            .chars()
            .filter(|&c| c != '/')
            .rev()
            .fold(0u64, |code, c| {
                code * 3
                    + match c {
                        'X' => 1,
                        'O' => 2,
                        _ => 0,
                    }
            });
        let key = (u64::from(record.ply), code);
        assert!(key > last || key == (0, 0), "{line} after {last:?}");
        last = key;
        by_ply[usize::from(record.ply)] += 1;
    }
    // The first move up to the board's 4 symmetries: 6 cells; the empty board once.
    assert_eq!(by_ply[..2], [1, 6]);
    assert!(by_ply[5] > 0, "{by_ply:?}");
    // The table is mapped, its pages counted as they are read: well under the 21 MiB file
    // plus what a process holds, whatever the length of the export.
    assert!(peak < 64 << 20, "{peak} bytes at the peak");
    // CSV: the header, then the same first positions, every one of the 18 cells a column.
    let (csv, _) = export_head(&dir, &["--game", "3x6k4", "--format", "csv"], 3);
    assert!(
        csv[0].starts_with("game,board,") && csv[0].ends_with(",remoteness_18"),
        "{}",
        csv[0]
    );
    assert!(
        csv[1].starts_with("3x6k4,....../....../......,X,0,in_progress,draw,18,"),
        "{}",
        csv[1]
    );
    assert!(
        csv[2].starts_with("3x6k4,X...../....../......,O,1,"),
        "{}",
        csv[2]
    );
    // A damaged table: exit 4, nothing written, though the first records were (tier 2 is
    // first read, and checked, by the records of ply 1).
    let table = dir.join("3x6k4.table");
    let mut bytes = fs::read(&table).unwrap();
    bytes[ttt_oracle::cache::HEADER_BYTES + 20] ^= 1;
    fs::write(&table, &bytes).unwrap();
    let out_file = dir.join("out.jsonl");
    let damaged = ttt(
        &dir,
        &[
            "export",
            "--game",
            "3x6k4",
            "-o",
            out_file.to_str().unwrap(),
        ],
    );
    assert_eq!(damaged.status.code(), Some(4), "{}", text(&damaged.stderr));
    assert!(
        text(&damaged.stderr).contains("tier 2's checksum does not match"),
        "{}",
        text(&damaged.stderr)
    );
    assert!(!out_file.exists());
    fs::remove_dir_all(&dir).unwrap();
}
