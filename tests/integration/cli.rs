//! `ttt analyze`, `best`, `stats` and `verify` through the real binary, one position at a time:
//! the answers, their JSON, and every bad input. Batch mode (`-`, one position a line of
//! standard input) is in `cli_batch.rs`.

use crate::common;

use predicates::prelude::*;

use common::cli::{TIME_LIMIT, json, ttt};

#[test]
fn analyze_json_has_exactly_the_documented_keys() {
    let v = json(&["analyze", "--moves", "5 1 9", "--format", "json"]);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "best",
            "board",
            "line",
            "moves",
            "remoteness",
            "status",
            "to_move",
            "value"
        ]
    );
    assert_eq!(v["board"], "O...X...X");
    assert_eq!(v["to_move"], "O");
    assert_eq!(v["status"], "in_progress");
    assert_eq!(v["value"], "draw");
    assert_eq!(v["remoteness"], 6);
    assert_eq!(v["best"], serde_json::json!([3, 7]));
    assert_eq!(v["line"], serde_json::json!([3, 2, 8, 4, 6, 7]));
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert_eq!(
        moves[0],
        serde_json::json!({"cell": 2, "value": "loss", "remoteness": 4})
    );
    let cells: Vec<u64> = moves.iter().map(|m| m["cell"].as_u64().unwrap()).collect();
    assert_eq!(cells, [2, 3, 4, 6, 7, 8]);
}

#[test]
fn analyze_board_and_moves_agree() {
    assert_eq!(
        json(&["analyze", "O...X...X", "--format", "json"]),
        json(&["analyze", "--moves", "5,1,9", "--format", "json"])
    );
    assert_eq!(
        json(&["analyze", "X2X4O6O8X", "--format", "json"])["board"],
        "X.X.O.O.X"
    );
}

#[test]
fn finished_games_have_no_moves() {
    let won = json(&["analyze", "XXXOO....", "--format", "json"]);
    assert_eq!(won["status"], "x_wins");
    assert_eq!(won["to_move"], "O");
    assert_eq!(won["value"], "loss");
    assert_eq!(won["remoteness"], 0);
    assert_eq!(won["best"], serde_json::json!([]));
    assert_eq!(won["moves"], serde_json::json!([]));
    assert_eq!(won["line"], serde_json::json!([]));
    let drawn = json(&["analyze", "XOXXOOOXX", "--format", "json"]);
    assert_eq!(drawn["status"], "draw");
    assert_eq!(drawn["value"], "draw");
    let o_won = json(&["analyze", "--moves", "1 5 2 3 9 7", "--format", "json"]);
    assert_eq!(o_won["status"], "o_wins");
}

#[test]
fn analyze_text_is_plain_when_piped() {
    ttt()
        .args(["analyze", "XO..X...."])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "O to move loses in 4 plies. Best: 9.",
        ))
        .stdout(predicate::str::contains(
            "O to move loses in 4 plies. Best: 9.\nPerfect play: 9 4 3 6\n",
        ))
        .stdout(predicate::str::contains("L4*"))
        .stdout(predicate::str::contains("\x1b[").not());
    ttt()
        .args(["analyze", "XXXOO...."])
        .assert()
        .success()
        .stdout(predicate::str::contains("Game over: X won."))
        .stdout(predicate::str::contains("Perfect play").not());
}

#[test]
fn best_prints_the_cell_alone() {
    ttt()
        .args(["best", "XX.OO...."])
        .assert()
        .success()
        .stdout("3\n");
    ttt()
        .args(["best", "--moves", "1 5 9"])
        .assert()
        .success()
        .stdout("2\n");
    ttt()
        .args(["best", "........."])
        .assert()
        .success()
        .stdout("1\n");
    ttt()
        .args(["best", "XXXOO...."])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is over"));
}

#[test]
fn every_bad_input_exits_2_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["analyze", "X.O"], "has 3"),
        (&["analyze", "X.O.X.O.X."], "has 10"),
        (&["analyze", "X.Z......"], "\"Z\" at position 3"),
        (&["analyze", "O........"], "O can never be ahead"),
        (&["analyze", "XX......."], "at most one mark ahead"),
        (&["analyze", "XXXOOOX.."], "both X and O hold a line"),
        (&["analyze", "XXXOO.O.."], "X already made a line"),
        (&["analyze", "--moves", "5 10"], "move 2 is \"10\""),
        (&["analyze", "--moves", "0"], "move 1 is \"0\""),
        (&["analyze", "--moves", "5 x"], "not a cell"),
        (
            &["analyze", "--moves", "5 1 5"],
            "move 3: cell 5 is already taken by X",
        ),
        (
            &["analyze", "--moves", "1 4 2 5 3 6"],
            "move 6: cell 6 is played after the game ended: X had won",
        ),
        (&["best", "--moves", "1 1"], "already taken"),
        (
            &["analyze", "X........", "--format", "yaml"],
            "invalid value 'yaml'",
        ),
        // No board is the empty board (tests/integration/newcomer.rs); an empty one is an error.
        (&["analyze", ""], "for the empty board give no board"),
        (
            &["analyze", "X........", "--moves", "1"],
            "cannot be used with",
        ),
        (&["frobnicate"], "unrecognized subcommand"),
        // A negative number is a bad value to explain, not an unknown flag.
        (
            &["audit", "random", "--recheck", "-1"],
            "invalid value '-1' for '--recheck <N>'",
        ),
        (
            &["--max-memory", "-5", "best"],
            "invalid value '-5' for '--max-memory <SIZE>'",
        ),
        (
            &["best", "--max-memory", "-5"],
            "invalid value '-5' for '--max-memory <SIZE>'",
        ),
        (
            &["simulate", "random", "--games", "-1"],
            "invalid value '-1' for '--games <N>'",
        ),
    ];
    for (args, message) in cases {
        ttt()
            .args(*args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*message));
    }
}

#[test]
fn a_move_list_is_cells_and_separators_and_nothing_else() {
    for (list, message) in [
        (
            "+5",
            "move 1 is \"+5\", not a cell: a cell is one digit from 1 to 9, with no sign",
        ),
        (
            "05",
            "move 1 is \"05\", not a cell: cells are numbered 1 to 9",
        ),
        (
            ",,,",
            "move 1 is empty: nothing before the comma at character 1",
        ),
        (
            ",1",
            "move 1 is empty: nothing before the comma at character 1",
        ),
        (
            "1,,2",
            "move 2 is empty: nothing before the comma at character 3",
        ),
        (
            "1,",
            "move 2 is empty: nothing after the comma at character 2",
        ),
    ] {
        ttt()
            .args(["best", "--moves", list])
            .timeout(TIME_LIMIT)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    }
    for (list, best) in [
        ("", "1\n"),
        ("  ", "1\n"),
        ("1, 5 9", "2\n"),
        ("5 ,1", "2\n"),
    ] {
        ttt()
            .args(["best", "--moves", list])
            .timeout(TIME_LIMIT)
            .assert()
            .success()
            .stdout(best);
    }
}

#[test]
fn huge_input_gives_a_short_error() {
    // 131,000 characters: just under what Linux lets one argument be (128 KiB).
    let long_board = "X".repeat(131_000);
    let long_cell = "5".repeat(131_000);
    let long_list = "5 ".repeat(65_500);
    let cases: [(&[&str], &str); 3] = [
        (&["analyze", &long_board], "this has 131000"),
        (&["best", "--moves", &long_cell], "move 1 is \"555"),
        (
            &["best", "--moves", &long_list],
            "move 2: cell 5 is already taken",
        ),
    ];
    for (args, message) in cases {
        let out = ttt().args(args).timeout(TIME_LIMIT).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            out.stderr.len() < 300,
            "{} bytes: {stderr}",
            out.stderr.len()
        );
        assert!(stderr.contains(message), "{stderr}");
        assert!(
            stderr.contains(" characters)"),
            "the length is named: {stderr}"
        );
    }
}

#[test]
fn control_characters_in_a_board_are_escaped_in_the_error() {
    ttt()
        .args(["analyze", "X.\x1b[2J......"])
        .timeout(TIME_LIMIT)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad board \"X.\\u{1b}[2J......\""))
        .stderr(predicate::str::contains("\x1b").not());
}

#[test]
fn stats_json_reports_the_table_size() {
    let v = json(&["stats", "--format", "json"]);
    assert_eq!(v["reachable_positions"], 5478);
    let bytes = v["table_bytes"].as_u64().unwrap();
    assert!(bytes > 0 && bytes <= 4096, "{bytes}");
    ttt()
        .arg("stats")
        .assert()
        .success()
        .stdout(predicate::str::contains("255,168"))
        .stdout(predicate::str::contains(match bytes {
            1000.. => format!("{},{:03} bytes", bytes / 1000, bytes % 1000),
            _ => format!("{bytes} bytes"),
        }));
}

#[test]
fn verify_passes_and_prints_a_digest() {
    ttt()
        .arg("verify")
        .assert()
        .success()
        .stdout(
            predicate::str::is_match("checksums: table [0-9a-f]{16}, fresh solve [0-9a-f]{16}")
                .unwrap(),
        )
        .stdout(predicate::str::contains("ok:"));
}

#[test]
fn a_move_list_given_as_a_board_suggests_moves() {
    for (args, hint) in [
        (
            &["analyze", "5 1 9"][..],
            "(did you mean --moves \"5 1 9\"?)",
        ),
        (&["best", "5,1,9"], "(did you mean --moves \"5,1,9\"?)"),
        (&["best", "5"], "(did you mean --moves \"5\"?)"),
        (&["best", "1 1"], "(did you mean --moves \"1 1\"?)"),
        // Cells run together, each once: their digits apart.
        (&["best", "51"], "(did you mean --moves \"5 1\"?)"),
        (&["best", "519"], "(did you mean --moves \"5 1 9\"?)"),
    ] {
        ttt()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(format!(
                "error: bad board \"{}\": ",
                args[1]
            )))
            .stderr(predicate::str::ends_with(format!("{hint}\n")));
    }
    for board in [
        "X.Z", "5 10", "XO", " ", "5 1 9 x", "515", "5\t1", "1,", ",5", "5,,1", "05", "50",
    ] {
        ttt()
            .args(["best", board])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("did you mean").not());
    }
    ttt()
        .args(["best", "-"])
        .write_stdin("5 1 9\n")
        .assert()
        .code(2)
        .stdout(predicate::str::ends_with(
            "(a move list? read them with --moves -)\n",
        ));
}

#[test]
fn best_takes_one_position() {
    // The quick reading of `ttt best BOARD` gives what the whole command line gives.
    for (board, best) in [("X........", "5"), ("XO.......", "4"), ("X2X4O6O8X", "2")] {
        ttt()
            .args(["best", board])
            .assert()
            .success()
            .stdout(format!("{best}\n"));
    }
    ttt().arg("best").assert().success().stdout("1\n");
    ttt()
        .args(["best", "X........", "O........"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("unexpected argument 'O........'"));
}

#[test]
fn best_json_for_one_position() {
    assert_eq!(
        json(&["best", "--moves", "5 1 9", "--format", "JSON"]),
        serde_json::json!({"board": "O...X...X", "to_move": "O", "best": 3, "value": "draw", "remoteness": 6})
    );
    ttt()
        .args(["best", "XXXOO....", "--format", "json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("is over"));
}
