//! `ttt solve` through the real binary: a game past 16 cells solved into a cache folder, its
//! answers checked against a plain solver written here (sharing no code with the crate), a
//! solve killed with `SIGKILL` and taken up again, a damaged table (exit 4), a folder that
//! cannot hold the table (exit 5), and solves refused up front (exit 2). The export of a cached
//! table is tested in `tests/integration/export_cached.rs`.
//!
//! Solving takes seconds in a release build and minutes in a debug one: `.ci/test` runs this
//! file in release.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use ttt_oracle::text::grouped;
use ttt_oracle::{Cell, Game, Oracle, Position, Value};

mod common;

use common::plain::{Plain, PlainCounts, mask, sample};

fn ttt_path() -> PathBuf {
    common::ttt()
}

fn ttt(dir: &Path, args: &[&str]) -> Output {
    Command::new(ttt_path())
        .args(args)
        .arg("--cache-dir")
        .arg(dir)
        .env_remove("XDG_CACHE_HOME")
        .env("TERM", "xterm")
        .output()
        .unwrap()
}

/// A success with nothing on standard error: a pipe, which no progress line reaches even with
/// `TERM` set (as `ttt` above sets it).
fn quiet_success(out: &Output) {
    let said = text(&out.stderr);
    assert!(out.status.success() && said.is_empty(), "{said}");
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ttt-solve-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The counts `ttt stats --game` gives for a cached table, in the plain counts' shape, and
/// checked for what holds between its own figures.
fn stats_of(dir: &Path, game: &str) -> PlainCounts {
    let out = ttt(dir, &["stats", "--game", game, "--format", "json"]);
    quiet_success(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    let list = |v: &serde_json::Value| v.as_array().unwrap().iter().map(n).collect::<Vec<_>>();
    let outcomes = |v: &serde_json::Value| [n(&v["x_wins"]), n(&v["o_wins"]), n(&v["draw"])];
    let values = &json["values"];
    let reachable = n(&json["reachable_positions"]);
    assert_eq!(
        n(&values["win"]) + n(&values["draw"]) + n(&values["loss"]),
        reachable
    );
    assert_eq!(list(&json["by_remoteness"]).iter().sum::<u64>(), reachable);
    let games = &json["games"];
    assert_eq!(
        n(&games["x_wins"]) + n(&games["o_wins"]) + n(&games["draw"]),
        n(&games["total"])
    );
    assert!(n(&json["game_tree_nodes"]) > n(&games["total"]));
    assert!(n(&json["games_up_to_symmetry"]) < n(&games["total"]));
    PlainCounts {
        reachable,
        canonical: n(&json["canonical_positions"]),
        non_terminal: n(&json["non_terminal_positions"]),
        terminal: outcomes(&json["terminal_positions"]),
        canonical_terminal: outcomes(&json["canonical_terminal_positions"]),
        by_ply: list(&json["by_ply"]),
        canonical_by_ply: list(&json["canonical_by_ply"]),
    }
}

/// Solves `game` into `dir` through the binary, then checks positions sampled at each ply
/// from `plies` on against the plain solver, through the library reading the same folder.
fn solve_and_check(game: &str, dir: &Path, plies: std::ops::Range<usize>, per_ply: usize) {
    let out = ttt(dir, &["solve", "--game", game]);
    quiet_success(&out);
    assert!(
        text(&out.stdout).contains("solved in"),
        "{}",
        text(&out.stdout)
    );
    let game: Game = game.parse().unwrap();
    // The library reads the folder the command line wrote.
    ttt_oracle::cache::set_cache_dir(dir.to_path_buf());
    let oracle = Oracle::of(game).unwrap();
    let mut plain = Plain::new(game.rows(), game.columns(), game.k());
    for plies in plies {
        for position in sample(game, plies, per_ply) {
            let (x, o) = (
                mask(&position, ttt_oracle::Player::X),
                mask(&position, ttt_oracle::Player::O),
            );
            let (mine, theirs) = match position.to_move() {
                ttt_oracle::Player::X => (x, o),
                ttt_oracle::Player::O => (o, x),
            };
            let (value, remoteness) = plain.solve(mine, theirs);
            let value = match value {
                1 => Value::Win,
                0 => Value::Draw,
                _ => Value::Loss,
            };
            let probe = oracle.probe(&position);
            assert_eq!(
                (probe.value, probe.remoteness),
                (value, remoteness),
                "{position}"
            );
        }
    }
    // Its counts, made in one pass over the tiers, against the plain count of every board.
    assert_eq!(
        stats_of(dir, &game.to_string()),
        plain.counts(),
        "game {game}"
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves an 18-cell game; .ci/test runs it in release"
)]
fn an_18_cell_game_solved_through_the_binary_agrees_with_a_plain_solver() {
    let dir = scratch("agree");
    solve_and_check("3x6k4", &dir, 6..19, 40);
    // Asked again: found, checked, kept.
    let again = ttt(&dir, &["solve", "--game", "3x6k4"]);
    assert!(
        text(&again.stdout).contains("solved already"),
        "{}",
        text(&again.stdout)
    );
    // Every --game command that reads a table finds it.
    let best = ttt(&dir, &["best", "--game", "3x6k4", "--moves", "1 2"]);
    assert!(best.status.success(), "{}", text(&best.stderr));
    reviews_and_hints_read_the_cached_table(&dir);
    a_small_memory_limit_leaves_out_only_games_up_to_symmetry(&dir);
    fs::remove_dir_all(&dir).unwrap();
}

/// `ttt stats` of 3x6k4, cached in `dir`, under a memory limit that two tiers of its counts of
/// games up to symmetry (8 bytes a position) would pass: those are left out, saying why, and
/// every other count is the same.
fn a_small_memory_limit_leaves_out_only_games_up_to_symmetry(dir: &Path) {
    let json = |args: &[&str]| {
        let out = ttt(dir, args);
        quiet_success(&out);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let all = json(&["stats", "--game", "3x6k4", "--format", "json"]);
    let limited = ["--max-memory", "40M", "stats", "--game", "3x6k4"];
    let mut within = json(&[&limited[..], &["--format", "json"]].concat());
    assert!(within["games_up_to_symmetry"].is_null(), "{within}");
    within["games_up_to_symmetry"] = all["games_up_to_symmetry"].clone();
    assert_eq!(within, all);
    let text = text(&ttt(dir, &limited).stdout);
    let needs = ttt_oracle::stats::games_up_to_symmetry_bytes("3x6k4".parse().unwrap());
    let says = format!(
        "not counted: it needs {} bytes; raise --max-memory",
        grouped(needs)
    );
    assert!(text.contains(&says), "{text}");
}

/// `ttt review` and `ttt play --hints` on 3x6k4, cached in `dir`: each move judged as the
/// table read through the library says, hints shown.
fn reviews_and_hints_read_the_cached_table(dir: &Path) {
    let game: Game = "3x6k4".parse().unwrap();
    let oracle = Oracle::of(game).unwrap();
    let moves = "8 11 9 10 7 1";
    let out = ttt(
        dir,
        &[
            "review", "--game", "3x6k4", "--moves", moves, "--format", "json",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let plies = json["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 6);
    let mut position = Position::empty(game);
    for (ply, cell) in plies.iter().zip(moves.split(' ')) {
        let probe = oracle.probe(&position);
        let value = format!("{:?}", probe.value).to_lowercase();
        assert_eq!(ply["value_before"], value.as_str(), "{position}");
        assert_eq!(ply["remoteness_before"], probe.remoteness, "{position}");
        let cell: Cell = cell
            .parse::<usize>()
            .map(|c| Cell::new(c - 1).unwrap())
            .unwrap();
        position = position.play(cell).unwrap();
    }
    let text_review = ttt(dir, &["review", "--game", "3x6k4", "--moves", moves]);
    assert!(
        text_review.status.success(),
        "{}",
        text(&text_review.stderr)
    );
    assert!(text(&text_review.stdout).starts_with("Game: 8 11 9 10 7 1"));
    let mut play = Command::new(ttt_path())
        .args([
            "play",
            "--game",
            "3x6k4",
            "--hints",
            "--opponent",
            "random",
            "--cache-dir",
        ])
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    play.stdin.take().unwrap().write_all(b"8\nquit\n").unwrap();
    let played = play.wait_with_output().unwrap();
    assert!(played.status.success(), "{}", text(&played.stderr));
    assert!(
        text(&played.stdout).contains("W win, D draw, L loss for you"),
        "{}",
        text(&played.stdout)
    );
}

#[test]
#[ignore = "a 20-cell solve and a plain solve from 8 marks: minutes; run by hand in release"]
fn a_20_cell_game_agrees_with_a_plain_solver() {
    for game in ["4x5k4", "5x4k4"] {
        let dir = scratch(game);
        let start = Instant::now();
        solve_and_check(game, &dir, 8..21, 30);
        eprintln!(
            "{game}: solved and checked in {:.1} s",
            start.elapsed().as_secs_f64()
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves an 18-cell game; .ci/test runs it in release"
)]
fn a_solve_killed_half_way_goes_on_from_its_last_tier() {
    let whole = scratch("whole");
    let out = ttt(&whole, &["solve", "--game", "3x6k4", "--threads", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = scratch("killed");
    let tiers = dir.join("3x6k4.tiers");
    let mut child = Command::new(ttt_path())
        .args(["solve", "--game", "3x6k4", "--threads", "1", "--cache-dir"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    // Killed once a few tiers are written, before the last.
    while fs::read_dir(&tiers).map_or(0, |d| d.count()) < 6 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no tiers written"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !dir.join("3x6k4.table").exists(),
        "the solve finished before the kill"
    );
    let resumed = ttt(&dir, &["solve", "--game", "3x6k4"]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert!(
        text(&resumed.stdout).contains("going on from tier"),
        "{}",
        text(&resumed.stdout)
    );
    assert_eq!(
        fs::read(dir.join("3x6k4.table")).unwrap(),
        fs::read(whole.join("3x6k4.table")).unwrap()
    );
    assert!(
        !tiers.exists(),
        "the tier files are removed once the table is whole"
    );
    // A damaged table never answers: exit 4 (a byte of tier 1, which the best first move
    // reads; each tier is checked when first read).
    let table = dir.join("3x6k4.table");
    let mut bytes = fs::read(&table).unwrap();
    bytes[ttt_oracle::cache::HEADER_BYTES + 1] ^= 0x40;
    fs::write(&table, &bytes).unwrap();
    let damaged = ttt(&dir, &["best", "--game", "3x6k4"]);
    assert_eq!(damaged.status.code(), Some(4), "{}", text(&damaged.stderr));
    let message = text(&damaged.stderr);
    assert!(
        message.contains("damaged") && message.contains("ttt solve --game 3x6k4"),
        "{message}"
    );
    fs::write(&table, &bytes[..bytes.len() / 2]).unwrap();
    let truncated = ttt(&dir, &["analyze", "--game", "3x6k4"]);
    assert_eq!(
        truncated.status.code(),
        Some(4),
        "{}",
        text(&truncated.stderr)
    );
    // Solving again replaces it.
    let again = ttt(&dir, &["solve", "--game", "3x6k4"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(
        fs::read(&table).unwrap(),
        fs::read(whole.join("3x6k4.table")).unwrap()
    );
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&whole).unwrap();
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves an 18-cell game; .ci/test runs it in release"
)]
fn two_solves_of_one_game_into_one_folder_take_turns() {
    let dir = scratch("locked");
    let solve = || {
        Command::new(ttt_path())
            .args(["solve", "--game", "3x6k4", "--threads", "1", "--cache-dir"])
            .arg(&dir)
            .env_remove("XDG_CACHE_HOME")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = solve();
    // The second starts once the first has made its lock file, seconds before it ends.
    let start = Instant::now();
    while !dir.join("3x6k4.lock").exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "no lock file");
        std::thread::sleep(Duration::from_millis(2));
    }
    let second = solve();
    let (first, second) = (
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    );
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(second.status.success(), "{}", text(&second.stderr));
    // Whichever took the lock first solved; the other waited, said so, and kept its table.
    let (solver, waiter) = if text(&first.stdout).contains("solved in") {
        (first, second)
    } else {
        (second, first)
    };
    assert!(
        text(&solver.stdout).contains("solved in"),
        "{}",
        text(&solver.stdout)
    );
    assert!(
        text(&waiter.stdout).contains("solved already"),
        "{}",
        text(&waiter.stdout)
    );
    assert!(
        text(&waiter.stderr).contains("another ttt solve --game 3x6k4 is writing into")
            && text(&waiter.stderr).contains("waiting for it to end"),
        "{}",
        text(&waiter.stderr)
    );
    // The table is whole: every tier checked and solved again.
    let verify = ttt(&dir, &["verify", "--game", "3x6k4"]);
    assert!(verify.status.success(), "{}", text(&verify.stderr));
    assert!(!dir.join("3x6k4.tiers").exists());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_with_no_table_says_how_to_make_one() {
    let dir = scratch("none");
    // Every command that needs the table says how to make it: exit 2.
    for args in [
        &["stats", "--game", "3x6k4"][..],
        &["best", "--game", "3x6k4"],
        &["review", "--game", "3x6k4", "--moves", "1 2"],
        &["play", "--game", "3x6k4", "--hints", "--opponent", "random"],
    ] {
        let out = ttt(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("no table solved yet")
                && text(&out.stderr).contains("make one with `ttt solve --game 3x6k4`"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // Play needs no table without hints; asked for one at the prompt, it says how to make it.
    let mut play = Command::new(ttt_path())
        .args([
            "play",
            "--game",
            "3x6k4",
            "--opponent",
            "random",
            "--cache-dir",
        ])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    play.stdin
        .take()
        .unwrap()
        .write_all(b"hint\nquit\n")
        .unwrap();
    let played = play.wait_with_output().unwrap();
    assert!(played.status.success(), "{}", text(&played.stderr));
    assert!(
        text(&played.stdout).contains(
            "No hints on 3x6k4: no table solved yet; make one with `ttt solve --game 3x6k4`."
        ),
        "{}",
        text(&played.stdout)
    );
    // Past 25 cells there is no table to make.
    let out = ttt(&dir, &["review", "--game", "6x6k4", "--moves", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("tables stop at 25"),
        "{}",
        text(&out.stderr)
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solves_too_large_for_memory_or_disk_are_refused_before_they_start() {
    let dir = scratch("refused");
    let out = ttt(&dir, &["solve", "--game", "5x5k4", "--max-memory", "1G"]);
    assert_eq!(out.status.code(), Some(2));
    let message = text(&out.stderr);
    assert!(
        message.contains("holds 6.2 GiB") && message.contains("over the 1 GiB allowed"),
        "{message}"
    );
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "nothing written");
    // The disk: /dev/shm, a memory file system, has less room than 5x5k4's 38 GiB on any
    // machine with less than 76 GiB of memory; on a larger one this part is skipped rather
    // than start a solve of hours.
    let shm = Path::new("/dev/shm");
    let free = Command::new("df")
        .args(["-B1", "--output=avail"])
        .arg(shm)
        .output()
        .unwrap();
    let free: u64 = text(&free.stdout)
        .lines()
        .nth(1)
        .map_or(u64::MAX, |l| l.trim().parse().unwrap());
    if free < 30 << 30 {
        let out = ttt(
            &shm.join("ttt-refused"),
            &["solve", "--game", "5x5k4", "--max-memory", "100T"],
        );
        assert_eq!(out.status.code(), Some(2));
        let message = text(&out.stderr);
        assert!(
            message.contains("writes up to") && message.contains("free"),
            "{message}"
        );
        assert!(!shm.join("ttt-refused").exists(), "nothing written");
    }
    let small = ttt(&dir, &["solve", "--game", "4x4"]);
    assert_eq!(small.status.code(), Some(2));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_that_cannot_hold_the_table_is_exit_5() {
    let dir = scratch("full");
    // A file size limit of 64 KiB: the first tier files fit, the larger ones do not.
    let out = Command::new("bash")
        .arg("-c")
        .arg("ulimit -f 64; exec \"$TTT\" solve --game 1x17k5 --cache-dir \"$DIR\"")
        .env("TTT", ttt_path())
        .env("DIR", &dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
    assert!(!dir.join("1x17k5.table").exists());
    // A cache folder where a file is.
    let file = dir.join("file");
    fs::write(&file, "").unwrap();
    let out = ttt(&file, &["solve", "--game", "1x17k5"]);
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
    fs::remove_dir_all(&dir).unwrap();
}

/// Rewrites the table at `path` with `edit` applied to its entries, its checksums made to
/// match: a table that passes every check of its file but not a fresh solve.
fn rewrite_checked(path: &Path, edit: impl Fn(&mut [u8])) {
    use ttt_oracle::cache::{HEADER_BYTES, Header, checksum};
    let mut bytes = fs::read(path).unwrap();
    let mut header = Header::decode(&bytes).expect("a table's header");
    edit(&mut bytes[HEADER_BYTES..]);
    let mut at = HEADER_BYTES;
    for tier in &mut header.tiers {
        let end = at + tier.0 as usize;
        tier.1 = checksum(&bytes[at..end]);
        at = end;
    }
    bytes[..HEADER_BYTES].copy_from_slice(&header.encode());
    fs::write(path, bytes).unwrap();
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves an 18-cell game; .ci/test runs it in release"
)]
fn verify_checks_a_cached_table_against_its_checksums_and_a_fresh_solve() {
    let dir = scratch("verify");
    let solved = ttt(&dir, &["solve", "--game", "3x6k4"]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let out = ttt(&dir, &["verify", "--game", "3x6k4"]);
    quiet_success(&out);
    let said = text(&out.stdout);
    assert!(
        said.contains("compared 22,167,401 positions\nchecksums: table ")
            && said.contains("ok: every tier of the cached table of 3x6k4 matches its checksum"),
        "{said}"
    );
    let json = ttt(&dir, &["verify", "--game", "3x6k4", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["ok"], true);
    assert_eq!(json["table_checksum"], json["fresh_checksum"]);
    // An entry changed, its checksums made to match: only the fresh solve finds it, and
    // names the position, what the table says and what the solve says. Exit 1.
    let table = dir.join("3x6k4.table");
    let whole = fs::read(&table).unwrap();
    // The empty board, tier 0, is the first entry: a draw in 18, said to be a win in 1.
    let empty = ttt_oracle::tiers::unentry(whole[ttt_oracle::cache::HEADER_BYTES]);
    assert_eq!(empty, Some((Value::Draw, 18)));
    rewrite_checked(&table, |entries| entries[0] = 1 + 64 + 1);
    let out = ttt(&dir, &["verify", "--game", "3x6k4"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("mismatch at ....../....../......: table Win in 1, fresh solve Draw in 18"),
        "{said}"
    );
    assert!(
        text(&out.stderr).contains("(1 position differs)"),
        "{}",
        text(&out.stderr)
    );
    // A byte flipped with the checksums left alone: damaged, also exit 1 (other commands
    // stop with 4), nothing solved.
    let mut bytes = whole.clone();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    fs::write(&table, &bytes).unwrap();
    let out = ttt(&dir, &["verify", "--game", "3x6k4"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("damaged"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    // No table: says how to make one.
    fs::remove_file(&table).unwrap();
    let out = ttt(&dir, &["verify", "--game", "3x6k4"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    fs::remove_dir_all(&dir).unwrap();
}
