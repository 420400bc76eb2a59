//! `ttt audit --losing-games FILE` through the real binary: every line and its keys, the
//! counts and shortest games against the audit's own report, the order, standard output, and
//! a FILE that cannot be written or a bot that breaks the protocol.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use assert_cmd::Command;
use common::{close_after_64_bytes, misbehave, names, pidfile, root};
use predicates::prelude::*;
use serde_json::Value;
use ttt_oracle::{Cell, History, Player, Status};

fn ttt() -> Command {
    let mut command = Command::new(crate::common::ttt());
    command.current_dir(root());
    command
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// One line of the file, read and checked: exactly the documented keys, a game that replays
/// and ends as `end` says.
struct Line {
    bot: String,
    side: Player,
    moves: Vec<Cell>,
    forfeit: bool,
}

fn parse(line: &str) -> Line {
    let json: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    let object = json.as_object().unwrap();
    let keys: Vec<&str> = object.keys().map(String::as_str).collect();
    let side = match object["side"].as_str() {
        Some("X") => Player::X,
        Some("O") => Player::O,
        other => panic!("side {other:?}: {line}"),
    };
    let moves: Vec<Cell> = object["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| Cell::from_number(n.as_u64().unwrap() as u32).unwrap())
        .collect();
    let mut game = History::new();
    for &cell in &moves {
        game.play(cell).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    let forfeit = match object["end"].as_str() {
        Some("loss") => {
            assert_eq!(keys, ["bot", "end", "moves", "side"], "{line}");
            assert_eq!(game.position().winner(), Some(!side), "{line}");
            false
        }
        Some("forfeit") => {
            assert_eq!(keys, ["bot", "end", "moves", "side", "turn"], "{line}");
            assert_eq!(game.position().status(), Status::InProgress, "{line}");
            assert_eq!(game.position().to_move(), side, "{line}");
            assert!(!object["turn"].as_str().unwrap().is_empty(), "{line}");
            true
        }
        other => panic!("end {other:?}: {line}"),
    };
    Line {
        bot: object["bot"].as_str().unwrap().to_string(),
        side,
        moves,
        forfeit,
    }
}

/// What the audit's JSON says of one side: lost and forfeited games, one shortest of each.
#[derive(Debug, Default, PartialEq, Eq)]
struct Side {
    losses: u64,
    forfeits: u64,
    shortest_loss: Option<Vec<Cell>>,
    shortest_forfeit: Option<Vec<Cell>>,
}

fn cells(json: &Value) -> Option<Vec<Cell>> {
    json.as_array().map(|moves| {
        moves
            .iter()
            .map(|n| Cell::from_number(n.as_u64().unwrap() as u32).unwrap())
            .collect()
    })
}

/// The audit's figures by bot and side, from its JSON report.
fn from_report(report: &str) -> BTreeMap<(String, String), Side> {
    let json: Value = serde_json::from_str(report).unwrap();
    let mut sides = BTreeMap::new();
    for bot in json["bots"].as_array().unwrap() {
        for side in bot["sides"].as_array().unwrap() {
            let key = (
                bot["bot"].as_str().unwrap().to_string(),
                side["side"].as_str().unwrap().to_string(),
            );
            let figures = Side {
                losses: side["losing_games"].as_u64().unwrap(),
                forfeits: side["illegal_games"].as_u64().unwrap(),
                shortest_loss: cells(&side["shortest_loss"]),
                shortest_forfeit: cells(&side["shortest_illegal"]),
            };
            sides.insert(key, figures);
        }
    }
    sides
}

/// The same figures, counted from the lines (the first of the shortest of each kind).
fn from_lines(lines: &[Line]) -> BTreeMap<(String, String), Side> {
    let mut sides: BTreeMap<(String, String), Side> = BTreeMap::new();
    for line in lines {
        let side = sides
            .entry((line.bot.clone(), line.side.to_string()))
            .or_default();
        let (count, shortest) = if line.forfeit {
            (&mut side.forfeits, &mut side.shortest_forfeit)
        } else {
            (&mut side.losses, &mut side.shortest_loss)
        };
        *count += 1;
        if shortest
            .as_ref()
            .is_none_or(|moves| line.moves.len() < moves.len())
        {
            *shortest = Some(line.moves.clone());
        }
    }
    sides
}

/// Runs `ttt audit ARGS --format json --losing-games FILE`: the exit code, the report's figures
/// and the file's bytes.
fn audit_with_games(args: &[&str]) -> (i32, BTreeMap<(String, String), Side>, String) {
    let dir = tempdir();
    let path = dir.path().join("games.jsonl");
    let out = ttt()
        .arg("audit")
        .args(args)
        .args(["--format", "json", "--losing-games"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    let report = from_report(&String::from_utf8(out.stdout).unwrap());
    let games = fs::read_to_string(&path).unwrap();
    assert_eq!(names(dir.path()), ["games.jsonl"]);
    (out.status.code().unwrap(), report, games)
}

/// Checks that the file holds the games the report counts, side by side, and returns them.
fn assert_games_are_the_audits(args: &[&str], code: i32) -> Vec<Line> {
    let (status, report, games) = audit_with_games(args);
    assert_eq!(status, code, "{args:?}");
    let lines: Vec<Line> = games.lines().map(parse).collect();
    let mut expected = report;
    // A side that loses nothing has no line.
    expected.retain(|_, side| side.losses + side.forfeits > 0);
    assert_eq!(from_lines(&lines), expected, "{args:?}");
    lines
}

#[test]
fn every_game_the_audit_counts_is_a_line_with_the_documented_keys() {
    let bots = ["perfect", "random", "smartbot", "marcelo", "geeks-minimax"];
    let lines = assert_games_are_the_audits(&bots, 1);
    // The bots in the order given, X before O.
    let order: Vec<(String, Player)> = bots
        .iter()
        .flat_map(|bot| Player::BOTH.map(|side| (bot.to_string(), side)))
        .collect();
    let mut at = 0;
    for line in &lines {
        while order[at] != (line.bot.clone(), line.side) {
            at += 1;
            assert!(
                at < order.len(),
                "{} as {} out of order",
                line.bot,
                line.side
            );
        }
    }
    let count = |bot: &str| lines.iter().filter(|line| line.bot == bot).count();
    assert_eq!(count("random"), 77_904 + 131_184);
    assert_eq!(count("smartbot"), 38 + 152);
    assert_eq!(count("marcelo"), 10 + 12 + 45);
    assert!(lines.iter().any(|line| line.forfeit));
}

#[test]
fn a_bot_that_never_loses_leaves_an_empty_file() {
    let (code, report, games) = audit_with_games(&["perfect", "forkbot"]);
    assert_eq!(code, 0);
    assert_eq!(report.len(), 4);
    assert_eq!(games, "");
}

#[test]
fn one_side_only_and_the_same_bytes_every_run() {
    let (_, _, first) = audit_with_games(&["random", "marcelo", "--side", "o"]);
    let (_, _, again) = audit_with_games(&["random", "marcelo", "--side", "o"]);
    assert!(first == again, "two runs differ");
    assert!(first.lines().all(|line| parse(line).side == Player::O));
    assert_eq!(first.lines().count(), 131_184 + 12 + 45);
}

#[test]
fn dash_writes_the_games_alone_to_standard_output() {
    let (_, _, file) = audit_with_games(&["marcelo"]);
    for format in ["text", "json"] {
        ttt()
            .args([
                "audit",
                "marcelo",
                "--losing-games",
                "-",
                "--format",
                format,
            ])
            .assert()
            .code(1)
            .stdout(file.clone())
            .stderr("");
    }
    ttt()
        .args(["audit", "perfect", "--losing-games", "-"])
        .assert()
        .code(0)
        .stdout("")
        .stderr("");
}

#[test]
fn a_reader_that_closes_the_pipe_early_leaves_the_verdict() {
    let (first, out) = close_after_64_bytes(&["audit", "random", "--losing-games", "-"]);
    assert!(first.starts_with(b"{\"bot\":\"random\""));
    assert_eq!(out.status.code(), Some(1), "random can lose");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn a_path_that_cannot_be_written_is_refused_before_the_audit() {
    let dir = tempdir();
    let refused = [
        (".", "Is a directory (os error 21)"),
        (
            "missing/games.jsonl",
            "No such file or directory (os error 2)",
        ),
    ];
    for (path, why) in refused {
        ttt()
            .current_dir(dir.path())
            .args(["audit", "random", "--losing-games", path])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("error: cannot write \"{path}\": {why}\n"));
    }
    assert_eq!(names(dir.path()), Vec::<String>::new());
}

/// A file that holds "precious", mode 0640, in a fresh directory.
fn precious() -> (tempfile::TempDir, std::path::PathBuf, u64) {
    let dir = tempdir();
    let path = dir.path().join("games.jsonl");
    fs::write(&path, "precious").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    let inode = fs::metadata(&path).unwrap().ino();
    (dir, path, inode)
}

fn assert_untouched(dir: &Path, path: &Path, inode: u64) {
    assert_eq!(fs::read_to_string(path).unwrap(), "precious");
    assert_eq!(fs::metadata(path).unwrap().ino(), inode);
    assert_eq!(
        fs::metadata(path).unwrap().permissions().mode() & 0o7777,
        0o640
    );
    assert_eq!(names(dir), ["games.jsonl"]);
}

#[test]
fn a_failed_write_leaves_the_existing_file_as_it_was() {
    let (dir, path, inode) = precious();
    // A file size limit far below random's 14 MB of games: the write fails with EFBIG half
    // way (ttt ignores SIGXFSZ, so the write returns the error instead of killing it).
    Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -f 64 && exec "$0" audit random --losing-games "$1""#)
        .arg(crate::common::ttt())
        .arg(&path)
        .assert()
        .code(5)
        .stdout(predicate::str::ends_with("random can lose\n"))
        .stderr(predicate::str::starts_with("error: cannot write \"").and(
            predicate::str::ends_with("\": File too large (os error 27)\n"),
        ));
    assert_untouched(dir.path(), &path, inode);
}

#[test]
fn a_bot_that_breaks_the_protocol_leaves_the_existing_file_as_it_was() {
    let (dir, path, inode) = precious();
    let garbage = misbehave("garbage-o");
    ttt()
        .args(["audit", "perfect", "--cmd", &garbage, "--losing-games"])
        .arg(&path)
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "Not audited, after a protocol error",
        ))
        .stderr(predicate::str::contains("replied \"banana\""));
    assert_untouched(dir.path(), &path, inode);

    // And to standard output, nothing at all.
    ttt()
        .args(["audit", "perfect", "--cmd", &garbage, "--losing-games", "-"])
        .assert()
        .code(3)
        .stdout("")
        .stderr(predicate::str::contains("replied \"banana\""));
}

#[test]
fn external_bots_write_the_games_their_audit_counts() {
    let minimax = [
        "--cmd",
        "python3 data/bots/minimax.py",
        "--name",
        "minimax.py",
    ];
    let (code, report, games) = audit_with_games(&minimax);
    assert_eq!((code, report.len(), games.as_str()), (0, 2, ""));

    // Both sides at once (each by its own process) or one after the other, and asked by board.
    let perl = ["--cmd", "perl data/bots/centre_win_block.pl"];
    for options in [&["--jobs", "2"][..], &["--jobs", "1"], &["--stateless"]] {
        let args: Vec<&str> = perl.iter().chain(options).copied().collect();
        let lines = assert_games_are_the_audits(&args, 1);
        assert!(!lines.is_empty());
        assert!(
            lines
                .iter()
                .all(|line| line.bot == "perl data/bots/centre_win_block.pl")
        );
    }
}

#[test]
fn an_external_bot_is_not_asked_again_for_its_games() {
    for jobs in ["1", "2"] {
        let pids = pidfile(&format!("losing-games-{jobs}"));
        let command = format!("TTT_TEST_PIDFILE={} {}", pids.display(), misbehave("first"));
        let lines = assert_games_are_the_audits(&["--cmd", &command, "--jobs", jobs], 1);
        assert!(!lines.is_empty());
        let started = fs::read_to_string(&pids).unwrap().lines().count();
        assert_eq!(
            started, 4,
            "--jobs {jobs}: two processes a side, for the audit and its re-ask one request at \
             a time, none for the games"
        );
    }
}
