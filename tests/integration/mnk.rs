//! The m,n,k games through the public API: ground truth on the small ones, every position of
//! each small game checked against its children and its symmetries through `Oracle::of`, the
//! rules against an independent walk, bad input, and `--game` through the real binary. The
//! exhaustive 4x4 checks are in mnk_exhaustive.rs; the general solver and the table's layout
//! (read in place, damage, format version) are unit tests in src/tests/.

use crate::common;

use assert_cmd::Command;
use common::mnk::{Mask, check_position, code, has_run, known, marks, reachable};
use rayon::prelude::*;
use ttt_oracle::{Cell, Cells, Game, Oracle, Outcome, Player, Position, PositionError, Status};

fn ttt() -> Command {
    Command::new(crate::common::ttt())
}

fn board(game: Game, x: Mask, o: Mask) -> Position {
    Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).unwrap()
}

/// Every position of `game` agrees with a one-ply look at its children, and with each of its
/// images under the board's symmetries.
fn check_every_position(game: Game, oracle: &Oracle) -> usize {
    let positions = reachable(game.rows(), game.columns(), game.k());
    for &(x, o) in &positions {
        check_position(oracle, &board(game, x, o));
    }
    positions.len()
}

#[test]
fn small_games_match_ground_truth() {
    let mut checked = 0;
    for (game, key, figure) in known() {
        let game: Game = game.parse().unwrap();
        if game.cells() > 12 {
            continue; // 4x4: mnk_exhaustive.rs, in release
        }
        let oracle = Oracle::of(game).unwrap();
        match key.as_str() {
            "reachable_positions" => {
                assert_eq!(
                    oracle.stats().unwrap().reachable_positions.to_string(),
                    figure
                );
                let independent = reachable(game.rows(), game.columns(), game.k()).len();
                assert_eq!(independent.to_string(), figure, "{game}");
            }
            "value" => {
                let probe = oracle.probe(&Position::empty(game));
                assert_eq!(probe.value.name(), figure, "{game}");
            }
            other => panic!("unknown key {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 5);
}

#[test]
fn every_position_of_the_small_games_agrees_with_its_children_and_symmetries() {
    for (name, positions) in [
        ("2x2k2", 29),
        ("3x3", 5478),
        ("2x4k2", 0),
        ("3x2", 0),
        ("1x4k2", 0),
        ("3x4", 111_973),
        ("4x3", 111_973),
    ] {
        let game: Game = name.parse().unwrap();
        let oracle = Oracle::of(game).unwrap();
        assert_eq!(oracle.game(), game);
        let found = check_every_position(game, &oracle);
        if positions > 0 {
            assert_eq!(found, positions, "{game}");
        }
        assert_eq!(
            found as u64,
            oracle.stats().unwrap().reachable_positions,
            "{game}"
        );
    }
}

#[test]
fn the_rules_accept_exactly_the_reachable_boards() {
    for name in ["2x2k2", "3x3", "3x4k2", "2x5k2", "3x4"] {
        let game: Game = name.parse().unwrap();
        let cells = game.cells();
        let reachable = reachable(game.rows(), game.columns(), game.k());
        let mut accepted = 0;
        for code in 0..3u64.pow(cells as u32) {
            let (x, o) = marks(code, cells);
            if Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).is_ok() {
                accepted += 1;
            }
        }
        assert_eq!(accepted, reachable.len(), "{game}");
        for (x, o) in reachable {
            let b = board(game, x, o);
            let won = has_run(x, game.rows(), game.columns(), game.k())
                || has_run(o, game.rows(), game.columns(), game.k());
            assert_eq!(b.winner().is_some(), won);
        }
    }
}

#[test]
fn reachable_yields_every_position_once_by_ply_then_code() {
    for name in ["2x2k2", "3x3", "3x4k2", "2x5k2"] {
        let game: Game = name.parse().unwrap();
        let boards: Vec<Position> = Position::reachable(game).collect();
        let keys: Vec<(usize, u64)> = boards.iter().map(|b| (b.ply(), code(b))).collect();
        assert!(
            keys.windows(2).all(|w| w[0] < w[1]),
            "{game}: in order, each once"
        );
        let mut ours: Vec<(Mask, Mask)> = boards
            .iter()
            .map(|b| (b.marks(Player::X).bits(), b.marks(Player::O).bits()))
            .collect();
        ours.sort();
        let mut walked = reachable(game.rows(), game.columns(), game.k());
        walked.sort();
        assert_eq!(ours, walked, "{game}");
    }
    // Boards too large for a table, up to the largest (128 cells, every bit of a mask), start
    // as any other.
    for (name, cells) in [("8x8", 64), ("9x9", 81), ("8x16", 128)] {
        let game: Game = name.parse().unwrap();
        let first: Vec<Position> = Position::reachable(game).take(cells + 2).collect();
        assert_eq!(first[0], Position::empty(game));
        for (cell, board) in first[1..=cells].iter().enumerate() {
            let played = Position::empty(game).play(Cell::new(cell).unwrap());
            assert_eq!(*board, played.unwrap());
        }
        assert_eq!(first[cells + 1].ply(), 2, "{game}");
    }
}

#[test]
fn games_are_read_and_bad_ones_refused() {
    let game: Game = "4X4K3".parse().unwrap();
    assert_eq!(game.to_string(), "4x4k3");
    assert_eq!("3x5".parse::<Game>().unwrap().k(), 3);
    assert_eq!("3x5k5".parse::<Game>().unwrap().to_string(), "3x5k5");
    assert_eq!("8x8".parse::<Game>().unwrap().cells(), 64);
    assert_eq!("11x11".parse::<Game>().unwrap().cells(), 121);
    assert_eq!("1x128k5".parse::<Game>().unwrap().cells(), 128);
    for (bad, says) in [
        ("", "is not a game"),
        ("3", "is not a game"),
        ("3x", "is not a game"),
        ("x3", "is not a game"),
        ("3x3k", "is not a game"),
        ("+3x3", "is not a game"),
        ("3x3k3k3", "is not a game"),
        ("99999999999999999999x3", "is not a game"),
        ("0x3", "at least one row"),
        ("12x11", "132 cells is too large: at most 128"),
        ("1x129k5", "129 cells is too large: at most 128"),
        ("3x3k4", "k = 4 cannot be played: a line must be 1 to 3"),
        ("3x3k0", "k = 0"),
    ] {
        let error = bad.parse::<Game>().unwrap_err().to_string();
        assert!(error.contains(says), "{bad}: {error}");
    }
}

#[test]
fn boards_name_the_game_and_the_count_when_wrong() {
    let game: Game = "4x4".parse().unwrap();
    let error = Position::parse(game, "X........").unwrap_err();
    assert_eq!(error, PositionError::Length { game, found: 9 });
    assert_eq!(
        error.to_string(),
        "a board of game 4x4 has 16 cells (4 rows of 4), this has 9"
    );
    // Digits stand for their own cell only up to 9.
    assert!(Position::parse(game, "123456789.......").is_ok());
    assert!(matches!(
        Position::parse(game, "X23456789.1....."),
        Err(PositionError::MisplacedDigit { cell: 11, .. })
    ));
    // Rows may be separated by '/', or not.
    assert_eq!(
        Position::parse(game, "X.../.O../..../....").unwrap(),
        Position::parse(game, "X....O..........").unwrap()
    );
    assert_eq!(
        Position::parse(game, "XXXX/OOOO/XXXX/OOO.").unwrap_err(),
        PositionError::Unreachable(Box::new(PositionError::BothWin))
    );
    // Two separate lines of X: no single move made both.
    let k3: Game = "4x4k3".parse().unwrap();
    assert_eq!(
        Position::parse(k3, "XXX./OO.O/XXX./OO..").unwrap_err(),
        PositionError::Unreachable(Box::new(PositionError::SeparateLines { winner: Player::X }))
    );
    // Two lines through one cell are a legal finish.
    let crossed = Position::parse(k3, "XXX./X.OO/XO../...O").unwrap();
    assert_eq!(crossed.status(), Status::Finished(Outcome::Win(Player::X)));
}

#[test]
fn best_and_analyze_take_a_game() {
    ttt()
        .args(["best", "--game", "4x4k3", "XX../OO../..../...."])
        .assert()
        .success()
        .stdout("3\n");
    ttt()
        .args([
            "best", "--game", "3x4", "--moves", "2 1", "--format", "json",
        ])
        .assert()
        .success()
        .stdout(
            "{\"game\":\"3x4\",\"board\":\"OX../..../....\",\"to_move\":\"X\",\"best\":3,\
             \"value\":\"win\",\"remoteness\":5}\n",
        );
    let out = ttt()
        .args([
            "analyze", "--game", "4x4", "--moves", "1 6 16", "--format", "json",
        ])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["game"], "4x4");
    assert_eq!(json["board"], "X.../.O../..../...X");
    assert_eq!(json["moves"].as_array().unwrap().len(), 13);
    // Batch mode: one answer a line, errors in their place.
    ttt()
        .args(["best", "--game", "2x2k2", "-"])
        .write_stdin("X.O.\nXX..\nX...\n")
        .assert()
        .code(2)
        .stdout("2\nerror: line 2: bad board \"XX..\": not a reachable position: impossible counts: 2 X against 0 O; X can be at most one mark ahead\n2\n");
}

#[test]
fn bad_games_and_boards_are_usage_errors() {
    for (args, says) in [
        (
            vec!["best", "--game", "5x5", "X"],
            "game 5x5 has 25 cells and no table solved yet",
        ),
        (
            vec!["best", "--game", "4x4q", "X"],
            "\"4x4q\" is not a game",
        ),
        (
            vec!["best", "--game", "4x4", "X........"],
            "a board of game 4x4 has 16 cells (4 rows of 4), this has 9",
        ),
        (
            vec!["best", "--game", "4x4", "--moves", "17"],
            "move 1 is \"17\", not a cell: cells are numbered 1 to 16",
        ),
        (
            vec!["best", "--game", "3x4", "--moves", "1 1"],
            "move 2: cell 1 is already taken by X",
        ),
        (
            vec![
                "stats",
                "--game",
                "5x4",
                "--cache-dir",
                "/nonexistent/ttt-cache",
            ],
            "game 5x4 has 20 cells and no table solved yet (none at \
             /nonexistent/ttt-cache/5x4.table); make one with `ttt solve --game 5x4`",
        ),
        (
            vec!["stats", "--game", "6x6"],
            "game 6x6 has 36 cells; counts are made for games of at most 25 cells",
        ),
        (
            vec!["verify", "--game", "2x2k2"],
            "ttt embeds no table for game 2x2",
        ),
    ] {
        ttt()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
    }
}

#[test]
fn stats_and_verify_take_a_game() {
    let out = ttt()
        .args(["stats", "--game", "2x2k2", "--format", "json"])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["reachable_positions"], 29);
    assert_eq!(json["games"]["total"], 24);
    ttt()
        .args(["verify", "--game", "4x3"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "ok: the embedded table of 4x3 equals a fresh solve",
        ));
}

/// A position given to another game's oracle is the caller's bug: a panic naming both games,
/// before any table is read by the position's code (which would answer for another board).
#[test]
#[should_panic(expected = "a position of 4x4 asked of the table of 3x3")]
fn tic_tac_toes_best_move_refuses_a_position_of_4x4() {
    let four = Position::parse("4x4".parse().unwrap(), "X.../..../..../....").unwrap();
    Oracle::of(Game::TIC_TAC_TOE).unwrap().best_move(&four);
}

#[test]
#[should_panic(expected = "a position of 3x3 asked of the table of 4x4")]
fn four_by_fours_best_move_refuses_a_position_of_tic_tac_toe() {
    let three = Position::parse(Game::TIC_TAC_TOE, "X........").unwrap();
    Oracle::of("4x4".parse().unwrap())
        .unwrap()
        .best_move(&three);
}

/// Every count of `ttt stats`, worked out here from an independent walk of the positions (by
/// ply, so that every parent comes before its children), this file's symmetries and the
/// oracle's values: positions, their values and endings, with and without symmetry, and the
/// games, as move sequences and through canonical positions.
fn counted_here(game: Game) -> ttt_oracle::stats::Stats {
    use std::collections::{BTreeSet, HashMap};
    use ttt_oracle::Value;
    use ttt_oracle::stats::{ByOutcome, ByValue, Stats};

    let oracle = Oracle::of(game).unwrap();
    let cells = game.cells();
    let mut boards: Vec<Position> = reachable(game.rows(), game.columns(), game.k())
        .into_iter()
        .map(|(x, o)| board(game, x, o))
        .collect();
    boards.sort_by_key(|b| (b.ply(), code(b)));
    let at: HashMap<u64, usize> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| (code(b), i))
        .collect();
    let canonical = |b: &Position| {
        let least = common::mnk::symmetries(game)
            .into_iter()
            .map(|s| code(&common::mnk::turned(b, s)))
            .min();
        at[&least.unwrap()]
    };
    let outcome = |b: &Position| match b.status() {
        Status::Finished(outcome) => Some(outcome),
        Status::InProgress => None,
    };
    fn add<N: std::ops::AddAssign + Copy>(by: &mut ByOutcome<N>, outcome: Outcome, n: N) {
        by.total += n;
        match outcome {
            Outcome::Win(Player::X) => by.x_wins += n,
            Outcome::Win(Player::O) => by.o_wins += n,
            Outcome::Draw => by.draw += n,
        }
    }
    let add_value = |by: &mut ByValue, value: Value| match value {
        Value::Win => by.win += 1,
        Value::Draw => by.draw += 1,
        Value::Loss => by.loss += 1,
    };
    let mut stats = Stats {
        reachable_positions: boards.len() as u64,
        canonical_positions: 0,
        non_terminal_positions: 0,
        terminal_positions: ByOutcome::default(),
        canonical_terminal_positions: ByOutcome::default(),
        values: ByValue::default(),
        canonical_values: ByValue::default(),
        by_remoteness: vec![0; cells + 1],
        by_ply: vec![0; cells + 1],
        canonical_by_ply: vec![0; cells + 1],
        games: ByOutcome::default(),
        games_up_to_symmetry: None,
        game_tree_nodes: 0,
        table_bytes: 0,
    };
    let mut paths = vec![0u128; boards.len()];
    paths[0] = 1;
    for (i, b) in boards.iter().enumerate() {
        let probe = oracle.probe(b);
        let is_canonical = canonical(b) == i;
        stats.by_ply[b.ply()] += 1;
        stats.by_remoteness[usize::from(probe.remoteness)] += 1;
        add_value(&mut stats.values, probe.value);
        stats.game_tree_nodes += paths[i];
        if is_canonical {
            stats.canonical_positions += 1;
            stats.canonical_by_ply[b.ply()] += 1;
            add_value(&mut stats.canonical_values, probe.value);
        }
        match outcome(b) {
            Some(ending) => {
                add(&mut stats.terminal_positions, ending, 1u64);
                add(&mut stats.games, ending, paths[i]);
                if is_canonical {
                    add(&mut stats.canonical_terminal_positions, ending, 1u64);
                }
            }
            None => {
                stats.non_terminal_positions += 1;
                for cell in b.legal_moves() {
                    paths[at[&code(&b.play(cell).unwrap())]] += paths[i];
                }
            }
        }
    }
    // Games through canonical positions: from each, one game for every distinct canonical
    // position a move leads to; from the last ply back.
    let mut games = vec![0u128; boards.len()];
    for (i, b) in boards.iter().enumerate().rev() {
        games[i] = match outcome(b) {
            Some(_) => 1,
            None => {
                let children: BTreeSet<usize> = b
                    .legal_moves()
                    .iter()
                    .map(|cell| canonical(&b.play(cell).unwrap()))
                    .collect();
                children.iter().map(|&child| games[child]).sum()
            }
        };
    }
    stats.games_up_to_symmetry = Some(games[0]);
    stats
}

#[test]
fn stats_count_what_an_independent_walk_counts() {
    // Square and not, a k below the side, a board whose turns fix many sets of cells.
    let games = ["3x3", "2x2k2", "3x4", "2x5k2", "1x9k3", "4x3k3"];
    games.par_iter().for_each(|name| {
        let game: Game = name.parse().unwrap();
        let mut stats = Oracle::of(game).unwrap().stats().unwrap();
        stats.table_bytes = 0;
        assert_eq!(stats, counted_here(game), "{game}");
    });
}
