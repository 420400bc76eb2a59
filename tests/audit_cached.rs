//! `ttt audit` and `ttt match` on a game past 16 cells whose table `ttt solve` cached: every
//! move judged by that table, as on the smaller games, through the real binary and the
//! library's `audit`; without the table, the audit without one and how to make it; a damaged
//! table, exit 4.
//!
//! The game is 1x17k2 (17 cells in a row, 2 in a row win): its solve is the cheapest of the
//! games past 16 cells (2 s in release, 11 s in debug, on a loaded 2-core machine), and its
//! games end soon, so that `perfect`'s audit takes under a second. `random` meets every
//! position, 12 s a side in release: that test runs in release (`.ci/test`).

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value as Json;
use ttt_oracle::audit::{Report, Verdict};
use ttt_oracle::{AuditOptions, Cell, Game, Oracle, Player, Position, Value, bots};

const GAME: &str = "1x17k2";

fn ttt(dir: &Path, args: &[&str]) -> Output {
    Command::new(common::ttt())
        .args(args)
        .arg("--cache-dir")
        .arg(dir)
        .env_remove("XDG_CACHE_HOME")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The cache folder with the game solved in it, once for every test of this file (a solve
/// finds a table solved by an earlier run, checks it and keeps it).
fn solved() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let profile = if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        };
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("audit-cached-{profile}"));
        fs::create_dir_all(&dir).unwrap();
        let out = ttt(&dir, &["solve", "--game", GAME]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        dir
    })
}

/// An empty cache folder of its own for `name`.
fn empty(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("audit-cached-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The JSON report of `ttt audit ARGS --game 1x17k2` on the solved table, and its exit code.
fn audit_json(args: &[&str]) -> (Json, i32) {
    let mut args = args.to_vec();
    args.extend(["--game", GAME, "--format", "json", "--jobs", "1"]);
    let out = ttt(solved(), &[&["audit"], &args[..]].concat());
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    (json, out.status.code().unwrap())
}

fn sides(json: &Json) -> &Vec<Json> {
    json["bots"][0]["sides"].as_array().unwrap()
}

fn moves(json: &Json) -> Vec<usize> {
    let list = json
        .as_array()
        .unwrap_or_else(|| panic!("no moves: {json}"));
    list.iter().map(|m| m.as_u64().unwrap() as usize).collect()
}

/// The oracle of the cached table, read by the library as the binary reads it.
fn oracle() -> Oracle {
    ttt_oracle::cache::set_cache_dir(solved().to_path_buf());
    Oracle::of(GAME.parse().unwrap()).unwrap()
}

fn position(moves: &[usize]) -> Position {
    let mut position = Position::empty(GAME.parse().unwrap());
    for &cell in moves {
        position = position
            .play(Cell::from_number(cell as u32).unwrap())
            .unwrap();
    }
    position
}

#[test]
fn perfect_never_gives_value_away_on_a_cached_game() {
    let (json, code) = audit_json(&["perfect"]);
    let [x, o] = &sides(&json)[..] else {
        panic!("{json}")
    };
    // The first player wins 1x17k2 (a mark with two free neighbours cannot be blocked twice):
    // perfect never loses as X, and as O loses only games lost from the start.
    assert_eq!(oracle().probe(&position(&[])).value, Value::Win);
    assert_eq!(x["verdict"], "never_loses", "{x}");
    assert_eq!(x["vs_perfect"]["exact"]["win"], "1/1", "{x}");
    assert_eq!(o["verdict"], "can_lose", "{o}");
    for side in [x, o] {
        assert_eq!(side["mistakes"]["total"], 0, "{side}");
        assert_eq!(side["slow_wins"], 0, "{side}");
    }
    // Judged by the table: the counts of a walk by positions, not the searches without one.
    assert_eq!(x["decision_points"], 241, "{x}");
    assert_eq!(moves(&o["shortest_loss"]).len(), 3, "{o}");
    assert_eq!(code, 1);
}

#[test]
fn the_styles_play_a_cached_game_from_its_table() {
    // A board of more than 16 cells: each style's odds over every cell of it (the styles once
    // kept odds for 16 cells only, and panicked past them).
    for style in ["casual:1/2", "epsilon:1/10", "tricky"] {
        let (json, code) = audit_json(&[style, "--side", "x"]);
        let x = &sides(&json)[0];
        let verdict = x["verdict"].as_str().unwrap_or_else(|| panic!("{json}"));
        assert_eq!(code, i32::from(verdict != "never_loses"), "{style}: {json}");
        // casual and tricky keep the value of every position, a win for X from the start.
        if style != "epsilon:1/10" {
            assert_eq!(verdict, "never_loses", "{style}: {x}");
            assert_eq!(x["vs_perfect"]["exact"]["win"], "1/1", "{style}: {x}");
        }
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "random meets every position of a 17-cell game: 12 s in release, minutes in debug"
)]
fn random_loses_a_shortest_game_the_table_confirms() {
    let (json, code) = audit_json(&["random", "--side", "o"]);
    let o = &sides(&json)[0];
    assert_eq!(o["verdict"], "can_lose", "{o}");
    assert_eq!(code, 1);
    let line = moves(&o["shortest_loss"]);
    let oracle = oracle();
    // The game ends with X's line, and no game is shorter: X's second mark is move 3.
    let end = position(&line);
    assert_eq!(oracle.analyze(&end).value, Value::Loss, "{line:?}");
    assert_eq!(line.len(), 3, "{line:?}");
    // Its one move for O turned a draw into a loss, as the table has it.
    let before = oracle.probe(&position(&line[..1]));
    let after = oracle.probe(&position(&line[..2]));
    assert_eq!((before.value, after.value), (Value::Draw, Value::Win));
    let blunders = &o["blunders"];
    assert!(blunders["draw_to_loss"].as_u64().unwrap() > 0, "{o}");
    // Every mistake listed is one by the table.
    for mistake in o["mistakes"]["first"].as_array().unwrap() {
        let at = position(&moves(&mistake["moves"]));
        let played = Cell::from_number(mistake["played"]["cell"].as_u64().unwrap() as u32);
        assert!(
            !oracle.best_moves(&at).contains(played.unwrap()),
            "{mistake}"
        );
    }
}

#[test]
fn an_external_bot_is_judged_by_the_cached_table() {
    let bot = "python3 tests/bots/first_empty.py";
    let (json, code) = audit_json(&["--cmd", bot, "--name", "first", "--side", "x"]);
    let x = &sides(&json)[0];
    // It marks 1 first, a corner with one neighbour: a win thrown to a draw, never a loss.
    assert_eq!(x["verdict"], "never_loses", "{x}");
    assert_eq!(x["blunders"]["win_to_draw"], 1, "{x}");
    let mistake = &x["mistakes"]["first"][0];
    assert_eq!(mistake["played"]["cell"], 1, "{x}");
    assert_eq!(mistake["played"]["value"], "draw", "{x}");
    // Asked again one request at a time along games of the table's audit: the same answers.
    assert!(x["recheck"]["games"].as_u64().unwrap() > 0, "{x}");
    assert_eq!(x["recheck"]["difference"], Json::Null, "{x}");
    assert_eq!(code, 0);
    // As O it loses, and --losing-games lists every game it loses, each one the table's loss.
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("audit-cached-first-o.jsonl");
    let file_arg = file.to_str().unwrap();
    let args = [
        "--cmd",
        bot,
        "--name",
        "first",
        "--side",
        "o",
        "--losing-games",
        file_arg,
    ];
    let (json, code) = audit_json(&args);
    let o = &sides(&json)[0];
    assert_eq!(code, 1);
    let lines = fs::read_to_string(&file).unwrap();
    assert_eq!(
        lines.lines().count() as u64,
        o["losing_games"].as_u64().unwrap(),
        "{o}"
    );
    let oracle = oracle();
    for line in lines.lines() {
        let game: Json = serde_json::from_str(line).unwrap();
        let end = oracle.analyze(&position(&moves(&game["moves"])));
        assert_eq!((end.to_move, end.value), (Player::O, Value::Loss), "{line}");
    }
    fs::remove_file(&file).unwrap();
}

#[test]
fn the_library_audits_a_cached_game_with_its_table() {
    ttt_oracle::cache::set_cache_dir(solved().to_path_buf());
    let game: Game = GAME.parse().unwrap();
    let mut perfect = bots::from_spec("perfect").unwrap();
    let options = AuditOptions::new(game, Player::X);
    let report = ttt_oracle::audit(perfect.as_mut(), &options).unwrap();
    let Report::Solved(report) = report else {
        panic!("searched without the table: {report:?}")
    };
    assert_eq!(report.verdict(), Verdict::NeverLoses);
}

#[test]
fn a_match_on_a_cached_game_plays_perfect_from_the_table() {
    let out = ttt(
        solved(),
        &[
            "match", "perfect", "random", "--game", GAME, "--format", "json",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: Json = serde_json::from_slice(&out.stdout).unwrap();
    let matches = json["matches"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}"));
    // perfect wins every game as X; as O it cannot hold a lost game against every reply.
    assert_eq!(matches[0]["x"], "perfect", "{json}");
    assert_eq!(matches[0]["exact"]["x_wins"], "1/1", "{json}");
    assert_eq!(matches[1]["o"], "perfect", "{json}");
    // The same games as perfect's audit as O: the odds against random are the same.
    let (audit, _) = audit_json(&["perfect", "--side", "o"]);
    let o = &sides(&audit)[0];
    assert_eq!(matches[1]["games"], o["games"], "{json}");
    assert_eq!(
        matches[1]["exact"]["o_wins"], o["vs_random"]["exact"]["win"],
        "{json}"
    );
}

#[test]
fn without_a_cached_table_the_audit_searches_and_says_how_to_make_one() {
    let dir = empty("none");
    let out = ttt(
        &dir,
        &["audit", "random", "--game", GAME, "--budget", "1000"],
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("audited without a table"), "{stdout}");
    assert!(
        stdout.contains("(`ttt solve --game 1x17k2` makes one, and the audit then judges"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    for args in [
        &["audit", "perfect", "--game", GAME][..],
        &["match", "random", "random", "--game", GAME],
    ] {
        let out = ttt(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("make one with `ttt solve --game 1x17k2`"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_cached_table_stops_audit_and_match_with_exit_4() {
    let dir = empty("damaged");
    let table = dir.join(format!("{GAME}.table"));
    let mut bytes = fs::read(solved().join(format!("{GAME}.table"))).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&table, bytes).unwrap();
    for args in [
        &["audit", "random", "--game", GAME][..],
        &["match", "random", "random", "--game", GAME],
    ] {
        let out = ttt(&dir, args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{args:?}: {stderr}");
        assert!(
            stderr.contains("damaged") && stderr.contains("ttt solve --game 1x17k2"),
            "{stderr}"
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}
