//! Every position of every embedded game (3x3, 3x4, 4x3, 4x4, 4x4k3), checked through the
//! public `Oracle::of`: the count of 4x4's reachable positions by an independent walk, every
//! position against its children, its symmetries and its perfect line, each embedded table
//! against a fresh solve, and the exports of the embedded games through the real binary (4x4's
//! streamed: 9,722,011 lines); and the games solved when first used against a plain solver.
//! Too slow for a debug build: `.ci/test` runs this file in release (`cargo test --release
//! --test integration mnk_exhaustive::`). A table read in place against the same table
//! unpacked is a unit test of the layout: `src/tests/table.rs`.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::mnk::{Mask, check_all_mnk, check_position, code, known, reachable};
use rayon::prelude::*;
use ttt_oracle::export::Record;
use ttt_oracle::{Cells, Game, Oracle, Position};

/// Every game with a table embedded in the binary: tic-tac-toe and the four others.
fn embedded() -> Vec<Game> {
    std::iter::once(Game::TIC_TAC_TOE)
        .chain(Game::EMBEDDED.iter().copied())
        .collect()
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; .ci/run runs it in release"
)]
fn four_by_four_counts_and_values_match_ground_truth() {
    let mut checked = 0;
    for (game, key, figure) in known() {
        let game: Game = game.parse().unwrap();
        if game.cells() != 16 {
            continue;
        }
        match key.as_str() {
            "reachable_positions" => {
                let walked = reachable(game.rows(), game.columns(), game.k());
                assert_eq!(walked.len().to_string(), figure, "{game}: independent walk");
                let stats = Oracle::of(game).unwrap().stats().unwrap();
                assert_eq!(stats.reachable_positions.to_string(), figure);
                // And the rules accept each of them.
                for (x, o) in walked {
                    Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).unwrap();
                }
            }
            "value" => {
                let probe = Oracle::of(game).unwrap().probe(&Position::empty(game));
                assert_eq!(probe.value.name(), figure, "{game}");
            }
            other => panic!("unknown key {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; .ci/run runs it in release"
)]
fn every_embedded_position_agrees_with_its_children_and_symmetries() {
    let games = embedded();
    assert_eq!(games.len(), 5);
    assert!(
        games
            .iter()
            .all(|game| game.is_embedded() || game.is_tic_tac_toe())
    );
    for game in games {
        let oracle = Oracle::of(game).unwrap();
        assert_eq!(oracle.game(), game);
        // On every core: 4x4's millions of positions are the longest test of the crate.
        let boards = reachable(game.rows(), game.columns(), game.k());
        boards.par_iter().for_each(|&(x, o)| {
            check_position(
                &oracle,
                &Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).unwrap(),
            );
        });
        let positions = boards.len();
        assert_eq!(
            positions as u64,
            oracle.stats().unwrap().reachable_positions,
            "{game}"
        );
        let figure = known()
            .into_iter()
            .find(|(name, key, _)| *name == game.to_string() && key == "reachable_positions");
        if let Some((.., figure)) = figure {
            assert_eq!(positions.to_string(), figure, "{game}");
        }
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; .ci/run runs it in release"
)]
fn every_embedded_table_equals_a_fresh_solve() {
    for game in embedded() {
        let verification = Oracle::of(game).unwrap().verify().unwrap();
        assert_eq!(verification.game, game);
        assert!(
            verification.is_ok(),
            "{game}: {:?}",
            verification.mismatches.first()
        );
        assert!(verification.compared > 0);
    }
}

/// `ttt export` with `args`, its standard output read a line at a time as it comes: the 4x4
/// export is gigabytes, never held whole. Returns the number of lines, after `each` has seen
/// every one (without its line end), and the export's peak memory in kilobytes as the
/// kernel's high-water mark had it at the last of its lines read every million.
fn export_lines(args: &[&str], mut each: impl FnMut(&[u8])) -> (usize, u64) {
    let mut child = Command::new(crate::common::ttt())
        .arg("export")
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Not getrusage's figure for children: Linux counts in it the memory of this process,
    // which started the child.
    let status = format!("/proc/{}/status", child.id());
    let high_water = || {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let line = text.lines().find(|line| line.starts_with("VmHWM:"));
        line.and_then(|line| line.split_whitespace().nth(1)?.parse().ok())
    };
    let mut out = BufReader::with_capacity(1 << 20, child.stdout.take().unwrap());
    let (mut lines, mut line, mut peak_kb) = (0, Vec::new(), 0);
    while out.read_until(b'\n', &mut line).unwrap() > 0 {
        assert_eq!(line.pop(), Some(b'\n'));
        each(&line);
        line.clear();
        lines += 1;
        if lines % 1_000_000 == 0 {
            peak_kb = peak_kb.max(high_water().unwrap_or(0));
        }
    }
    assert!(child.wait().unwrap().success(), "ttt export {args:?}");
    (lines, peak_kb)
}

/// The marks of a board's text (`.`, `X`, `O`, rows separated by `/`), read here rather than
/// by the library, which would check the rules again at every one of 9.7 million lines.
fn marks(text: &[u8]) -> (Mask, Mask) {
    let cells = text.iter().filter(|&&c| c != b'/');
    cells.enumerate().fold((0, 0), |(x, o), (i, c)| match c {
        b'X' => (x | 1 << i, o),
        b'O' => (x, o | 1 << i),
        _ => (x, o),
    })
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "exhaustive over 4x4; .ci/run runs it in release"
)]
fn the_4x4_export_streams_every_position_in_order_in_bounded_memory() {
    // Each line is checked lightly: the records of the smaller games are checked in full.
    let game: Game = "4x4".parse().unwrap();
    let oracle = Oracle::of(game).unwrap();
    let figure = known()
        .into_iter()
        .find(|(name, key, _)| name == "4x4" && key == "reachable_positions")
        .map(|(.., figure)| figure)
        .unwrap();
    let (mut last, mut canonical) = (None, 0);
    let (lines, peak_kb) = export_lines(&["--game", "4x4", "--format", "csv"], |line| {
        if line.starts_with(b"game,") {
            return;
        }
        let text = String::from_utf8_lossy(line);
        let mut fields = line.split(|&c| c == b',');
        let mut field = || fields.next().unwrap();
        let (_game, board, _to_move, _ply, _status) = (field(), field(), field(), field(), field());
        let (value, remoteness, _best, canonical_board) = (field(), field(), field(), field());
        let (x, o) = marks(board);
        let board = Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).unwrap();
        let key = (board.ply(), code(&board));
        assert!(last < Some(key), "{text}: by ply, then code, each once");
        last = Some(key);
        let probe = oracle.probe(&board);
        assert_eq!(value, probe.value.name().as_bytes(), "{text}");
        assert_eq!(
            remoteness,
            probe.remoteness.to_string().as_bytes(),
            "{text}"
        );
        canonical += usize::from(marks(canonical_board) == (x, o));
    });
    assert_eq!((lines - 1).to_string(), figure, "one line a position");
    // The table (15 MB unpacked) and little else: the export is never in memory.
    assert!(
        (10_000..64 * 1024).contains(&peak_kb),
        "peak memory {peak_kb} kB"
    );
    let (lines, _) = export_lines(&["--game", "4x4", "--canonical"], |_| {});
    assert_eq!(lines, canonical, "the canonical ones, and only those");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "every record of the embedded rectangles; .ci/run runs it in release"
)]
fn the_exports_of_3x4_and_4x3_agree_with_their_tables_record_by_record() {
    for name in ["3x4", "4x3"] {
        let game: Game = name.parse().unwrap();
        for canonical in [false, true] {
            let mut args = vec!["--game", name];
            if canonical {
                args.push("--canonical");
            }
            let mut records: Vec<Record> = Vec::new();
            export_lines(&args, |line| {
                records.push(serde_json::from_slice(line).unwrap())
            });
            check_all_mnk(game, &records, canonical);
        }
    }
}

/// A game of at most 16 cells that is not embedded is solved when first used: every position
/// of the small ones, and positions of a 15-cell one at every ply, against the plain solver of
/// tests/common/plain.rs, which shares no code with the crate: value, remoteness and optimal
/// moves (the best value, then the fastest win or the slowest loss).
#[test]
#[cfg_attr(debug_assertions, ignore = "exhaustive; .ci/run runs it in release")]
fn games_solved_when_used_agree_with_a_plain_solver() {
    use common::plain::{Plain, mask, sample};
    use ttt_oracle::{Player, Value};
    // What the side to move gets: the plain solver's value and remoteness.
    let solve = |plain: &mut Plain, position: &Position| {
        let (x, o) = (mask(position, Player::X), mask(position, Player::O));
        match position.to_move() {
            Player::X => plain.solve(x, o),
            Player::O => plain.solve(o, x),
        }
    };
    for (name, every) in [
        ("3x3k2", true),
        ("1x9k3", true),
        ("2x5k2", true),
        ("2x6k3", true),
        ("3x5k3", false),
    ] {
        let game: Game = name.parse().unwrap();
        let oracle = Oracle::of(game).unwrap();
        let mut plain = Plain::new(game.rows(), game.columns(), game.k());
        let positions: Vec<Position> = match every {
            true => Position::reachable(game).collect(),
            false => (0..game.cells())
                .flat_map(|plies| sample(game, plies, 30))
                .collect(),
        };
        for position in positions {
            let (value, remoteness) = solve(&mut plain, &position);
            let value = [Value::Loss, Value::Draw, Value::Win][(value + 1) as usize];
            let probe = oracle.probe(&position);
            assert_eq!(
                (probe.value, probe.remoteness),
                (value, remoteness),
                "{game} {position}"
            );
            // Each move ranked as the mover sees it; the optimal ones rank highest.
            let ranked: Vec<_> = (position.legal_moves().iter())
                .map(|cell| {
                    let (value, remoteness) = solve(&mut plain, &position.play(cell).unwrap());
                    // A win the sooner the better, a loss the later; a draw is a draw.
                    let speed = i32::from(value) * (i32::from(remoteness) + 1);
                    (cell, (-value, speed))
                })
                .collect();
            let top = ranked.iter().map(|&(_, rank)| rank).max();
            let best: Cells = (ranked.iter())
                .filter(|&&(_, rank)| Some(rank) == top)
                .map(|&(cell, _)| cell)
                .collect();
            assert_eq!(oracle.best_moves(&position), best, "{game} {position}");
        }
    }
}
