//! The m,n,k games: ground truth on the small ones, every position of each small game checked
//! against its children and its symmetries, the engine against tic-tac-toe's own, bad input,
//! and `--game` through the real binary. The exhaustive 4x4 checks are in mnk_exhaustive.rs.

mod common;

use assert_cmd::Command;
use common::mnk::{check_compressed, check_position, has_run, known, marks, reachable};
use proptest::prelude::*;
use ttt_oracle::{
    Board, Game, IllegalBoard, Mask, MnkFormatError, MnkTable, ParseMnkBoardError, Player,
    Position, Status, mnk_stats, mnk_table, solve_game, stats, table, unentry,
};

fn ttt() -> Command {
    Command::cargo_bin("ttt").unwrap()
}

fn board(game: Game, x: Mask, o: Mask) -> Position {
    Position::from_marks(game, x, o).unwrap()
}

/// Every position of `game` agrees with a one-ply look at its children, and with each of its
/// images under the board's symmetries.
fn check_every_position(game: Game, table: &MnkTable) -> usize {
    let positions = reachable(game.rows(), game.columns(), game.k());
    for &(x, o) in &positions {
        check_position(table, &board(game, x, o));
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
        match key.as_str() {
            "reachable_positions" => {
                assert_eq!(mnk_stats(game).reachable_positions.to_string(), figure);
                let independent = reachable(game.rows(), game.columns(), game.k()).len();
                assert_eq!(independent.to_string(), figure, "{game}");
            }
            "value" => {
                let probe = mnk_table(game).unwrap().probe(&Position::empty(game));
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
        let found = check_every_position(game, mnk_table(game).unwrap());
        if positions > 0 {
            assert_eq!(found, positions, "{game}");
        }
    }
}

#[test]
fn the_engine_on_3x3_agrees_with_tic_tac_toe_everywhere() {
    let game = Game::TIC_TAC_TOE;
    // A table solved by the m,n,k engine, not the embedded 3x3 one.
    let mnk = MnkTable::from_solution(&solve_game(game));
    for board in Board::reachable() {
        let x = board.marks(Player::X).bits();
        let o = board.marks(Player::O).bits();
        let ours = ttt_oracle::Position::from_marks(game, x, o).unwrap();
        assert_eq!(ours.to_string(), board.to_string());
        assert_eq!(mnk.probe(&ours), table().probe(&board), "{board}");
        assert_eq!(
            mnk.best_moves(&ours),
            table().best_moves(&board).bits(),
            "{board}"
        );
        assert_eq!(ours.status(), board.status());
    }
    let mut ours = mnk_stats(game);
    let theirs = stats(table());
    ours.table_bytes = theirs.table_bytes;
    assert_eq!(ours, theirs);
}

#[test]
fn the_solver_keeps_the_optimal_moves_of_each_position_in_play() {
    for name in ["3x3", "2x4k2", "3x4", "4x3"] {
        let game: Game = name.parse().unwrap();
        let solution = solve_game(game);
        let table = MnkTable::from_solution(&solution);
        let in_play = solution
            .entries()
            .iter()
            .filter(|&&entry| unentry(entry).is_some_and(|(_, remoteness)| remoteness > 0))
            .count();
        assert_eq!(solution.best_moves().len(), in_play, "{game}");
        let mut last = None;
        for &(code, best) in solution.best_moves() {
            assert!(last < Some(code), "{game}: by ascending code");
            last = Some(code);
            let (x, o) = marks(code.into(), game.cells());
            assert_eq!(
                Mask::from(best),
                table.best_moves(&board(game, x, o)),
                "{game} {code}"
            );
        }
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
            if Position::from_marks(game, x, o).is_ok() {
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
        let keys: Vec<(usize, u64)> = boards
            .iter()
            .map(|b| (b.ply(), b.code().unwrap()))
            .collect();
        assert!(
            keys.windows(2).all(|w| w[0] < w[1]),
            "{game}: in order, each once"
        );
        let mut ours: Vec<(Mask, Mask)> = boards
            .iter()
            .map(|b| (b.marks(Player::X), b.marks(Player::O)))
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
            assert_eq!(*board, Position::empty(game).play(cell + 1).unwrap());
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
    assert_eq!(error, ParseMnkBoardError::Length { game, found: 9 });
    assert_eq!(
        error.to_string(),
        "a board of game 4x4 has 16 cells (4 rows of 4), this has 9"
    );
    // Digits stand for their own cell only up to 9.
    assert!(Position::parse(game, "123456789.......").is_ok());
    assert!(matches!(
        Position::parse(game, "X23456789.1....."),
        Err(ParseMnkBoardError::Text(
            ttt_oracle::ParseBoardError::MisplacedDigit { cell: 11, .. }
        ))
    ));
    // Rows may be separated by '/', or not.
    assert_eq!(
        Position::parse(game, "X.../.O../..../....").unwrap(),
        Position::parse(game, "X....O..........").unwrap()
    );
    assert_eq!(
        Position::parse(game, "XXXX/OOOO/XXXX/OOO.").unwrap_err(),
        ParseMnkBoardError::Illegal(IllegalBoard::BothWin)
    );
    // Two separate lines of X: no single move made both.
    let k3: Game = "4x4k3".parse().unwrap();
    assert_eq!(
        Position::parse(k3, "XXX./OO.O/XXX./OO..").unwrap_err(),
        ParseMnkBoardError::Illegal(IllegalBoard::SeparateLines { winner: Player::X })
    );
    // Two lines through one cell are a legal finish.
    let crossed = Position::parse(k3, "XXX./X.OO/XO../...O").unwrap();
    assert_eq!(
        crossed.status(),
        Status::Finished(ttt_oracle::Outcome::Win(Player::X))
    );
}

#[test]
fn a_damaged_table_is_an_error_never_a_panic() {
    let bytes = ttt_oracle::mnk_table_bytes("3x4".parse().unwrap()).unwrap();
    assert!(MnkTable::from_bytes(bytes).is_ok());
    // Both ways in: decoded and unpacked at once, and read in place.
    let refused = |damaged: Vec<u8>, what: String| {
        assert!(MnkTable::from_bytes(&damaged).is_err(), "{what}");
        let leaked: &'static [u8] = Vec::leak(damaged);
        assert!(MnkTable::compressed(leaked, usize::MAX).is_err(), "{what}");
    };
    for cut in [0, 1, 8, 12, 20, bytes.len() / 2, bytes.len() - 1] {
        refused(bytes[..cut].to_vec(), format!("cut at {cut}"));
    }
    for position in (0..bytes.len()).step_by(97) {
        let mut damaged = bytes.to_vec();
        damaged[position] ^= 0x24;
        refused(damaged, format!("byte {position}"));
    }
}

#[test]
fn a_table_read_in_place_answers_as_unpacked_everywhere_on_the_small_games() {
    // 4x4 and 4x4k3 in mnk_exhaustive.rs, in release.
    for game in ["3x4", "4x3"] {
        check_compressed(game.parse().unwrap());
    }
}

#[test]
fn a_table_read_in_place_unpacks_itself_after_so_many_lookups() {
    let game: Game = "4x3".parse().unwrap();
    let table = MnkTable::compressed(ttt_oracle::mnk_table_bytes(game).unwrap(), 3).unwrap();
    let (board, _) = Position::from_move_list(game, "2 1 6").unwrap();
    let answers = |table: &MnkTable| (table.probe(&board), table.best_moves(&board));
    let first = answers(&table);
    assert!(!table.is_unpacked(), "two lookups");
    answers(&table);
    assert!(table.is_unpacked(), "the fourth lookup unpacks");
    assert_eq!(answers(&table), first);
    // The tables of the library are read in place at first.
    assert!(!mnk_table("4x4k3".parse().unwrap()).unwrap().is_unpacked());
}

#[test]
fn a_table_of_another_format_version_is_refused_by_its_version() {
    let mut bytes = ttt_oracle::mnk_table_bytes("3x4".parse().unwrap())
        .unwrap()
        .to_vec();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    let error = MnkTable::from_bytes(&bytes).unwrap_err();
    assert_eq!(error, MnkFormatError::Version(1));
    assert_eq!(
        error.to_string(),
        "table format version 1, this build reads version 2"
    );
}

/// The checksum of an m,n,k table as its format defines it (`src/mnk/format.rs`): FNV-1a's
/// step on the 64-bit words, taken in turn by four lanes, then the lanes and the length. Written
/// here so that a test can damage a table and mend the checksum, as a careful forger would.
fn reseal(bytes: &mut [u8]) {
    const PRIME: u64 = 0x0100_0000_01b3;
    const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    let body = bytes.len() - 8;
    let mut lanes = [BASIS, BASIS ^ 1, BASIS ^ 2, BASIS ^ 3];
    for (i, chunk) in bytes[..body].chunks(8).enumerate() {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        lanes[i % 4] = (lanes[i % 4] ^ u64::from_le_bytes(word)).wrapping_mul(PRIME);
    }
    let sum = lanes
        .into_iter()
        .chain([body as u64])
        .fold(BASIS, |hash, word| (hash ^ word).wrapping_mul(PRIME));
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Damage behind a mended checksum is refused with a reason or decodes to some table,
    /// never a panic.
    #[test]
    fn damage_behind_a_mended_checksum_never_makes_the_decoder_panic(
        damage in prop::collection::vec((0..28_000usize, any::<u8>()), 1..6),
    ) {
        let mut bytes = ttt_oracle::mnk_table_bytes("3x4".parse().unwrap())
            .unwrap()
            .to_vec();
        for (index, value) in damage {
            bytes[index] = value;
        }
        reseal(&mut bytes);
        let _ = MnkTable::from_bytes(&bytes);
    }
}

#[test]
fn the_checksum_written_here_is_the_formats() {
    let bytes = ttt_oracle::mnk_table_bytes("3x4".parse().unwrap()).unwrap();
    let mut resealed = bytes.to_vec();
    reseal(&mut resealed);
    assert_eq!(resealed, bytes);
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
            "game 5x5 has 25 cells; tables exist for games of at most 16 cells",
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
            vec!["stats", "--game", "5x4"],
            "game 5x4 has 20 cells; counts are made for games of at most 16 cells",
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
