//! `ttt analyze`, `best`, `stats` and `verify` through the real binary.

mod common;

use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value as Json;

/// Each run below that feeds odd or huge input is bounded in time, so that a regression that
/// hangs fails instead of stalling the suite.
const TIME_LIMIT: Duration = Duration::from_secs(5);

fn ttt() -> Command {
    let mut cmd = Command::cargo_bin("ttt").unwrap();
    cmd.env_remove("NO_COLOR");
    cmd
}

fn json(args: &[&str]) -> Json {
    let out = ttt().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

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
        (&["analyze"], "required"),
        (
            &["analyze", "X........", "--moves", "1"],
            "cannot be used with",
        ),
        (&["frobnicate"], "unrecognized subcommand"),
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
        .stdout(predicate::str::contains("255168"))
        .stdout(predicate::str::contains(format!("{bytes} bytes")));
}

#[test]
fn verify_passes_and_prints_a_digest() {
    ttt()
        .arg("verify")
        .assert()
        .success()
        .stdout(
            predicate::str::is_match("checksum [0-9a-f]{16}, fresh solve [0-9a-f]{16}").unwrap(),
        )
        .stdout(predicate::str::contains("ok:"));
}

/// `ttt` run with `stdin` as its standard input, within the time limit.
fn batch(args: &[&str], stdin: impl Into<Vec<u8>>) -> std::process::Output {
    ttt()
        .args(args)
        .write_stdin(stdin)
        .timeout(TIME_LIMIT)
        .output()
        .unwrap()
}

fn stdout_lines(out: &std::process::Output) -> Vec<&str> {
    std::str::from_utf8(&out.stdout).unwrap().lines().collect()
}

#[test]
fn batch_best_answers_each_line_and_a_bad_line_in_its_place() {
    let input = "X...O....\nXX.OO....\nX.Z\nXXXOO....\n.........\n";
    let out = batch(&["best", "-"], input);
    assert_eq!(
        stdout_lines(&out),
        [
            "2",
            "3",
            "error: line 3: bad board \"X.Z\": unknown character \"Z\" at position 3 (cells are X, O, or . - _ or the cell's own digit for empty; | / and spaces are ignored)",
            "error: line 4: the game on XXXOO.... is over (x_wins): there is no move to make",
            "1",
        ]
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: 2 of 5 lines got an error instead of an answer, the first at line 3\n"
    );
    // Without a bad line: exit 0 and nothing on standard error.
    ttt()
        .args(["best", "-"])
        .write_stdin("X...O....\r\nXX.OO....")
        .timeout(TIME_LIMIT)
        .assert()
        .success()
        .stdout("2\n3\n")
        .stderr("");
}

#[test]
fn batch_json_is_one_document_a_line_with_errors_numbered() {
    let input = "X...O....\nXX.OO....\nX.Z\n\nXXXOO....\n.........\n";
    let out = batch(&["best", "-", "--format", "json"], input);
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 6, "one line per line of input: {lines:?}");
    let docs: Vec<Json> = lines
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(
        docs[0],
        serde_json::json!({"board": "X...O....", "to_move": "X", "best": 2, "value": "draw", "remoteness": 7})
    );
    assert_eq!(
        docs[1],
        serde_json::json!({"board": "XX.OO....", "to_move": "X", "best": 3, "value": "win", "remoteness": 1})
    );
    for (doc, line, message) in [
        (&docs[2], 3, "unknown character \"Z\" at position 3"),
        (&docs[3], 4, "a board has 9 cells, this has 0"),
        (&docs[4], 5, "the game on XXXOO.... is over"),
    ] {
        assert_eq!(common::json_keys(doc), ["error", "line"], "{doc}");
        assert_eq!(doc["line"], line, "{doc}");
        assert!(doc["error"].as_str().unwrap().contains(message), "{doc}");
    }
    assert_eq!(docs[5]["best"], 1);
}

#[test]
fn batch_answers_equal_the_single_commands_for_every_position() {
    // Every position the game can reach, through one `ttt analyze -` and one `ttt best -`.
    let export = ttt().arg("export").output().unwrap();
    let records: Vec<Json> = stdout_lines(&export)
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), 5478);
    let boards: String = records
        .iter()
        .map(|r| format!("{}\n", r["board"].as_str().unwrap()))
        .collect();
    let analyze = batch(&["analyze", "-", "--format", "json"], boards.clone());
    assert!(analyze.status.success());
    let analyses = stdout_lines(&analyze);
    assert_eq!(analyses.len(), records.len());
    for (line, record) in analyses.iter().zip(&records) {
        let analysis: Json = serde_json::from_str(line).unwrap();
        for key in [
            "board",
            "to_move",
            "status",
            "value",
            "remoteness",
            "best",
            "moves",
        ] {
            assert_eq!(analysis[key], record[key], "{key} of {}", record["board"]);
        }
        // The perfect line starts with the move `best` picks and lasts the remoteness.
        let line = analysis["line"].as_array().unwrap();
        assert_eq!(Some(line.len() as u64), record["remoteness"].as_u64());
        assert_eq!(line.first(), record["best"].as_array().unwrap().first());
    }
    // `best` has no move on a finished board: an error in its place, and exit code 2.
    let best = batch(&["best", "-"], boards);
    assert_eq!(best.status.code(), Some(2));
    let answers = stdout_lines(&best);
    assert_eq!(answers.len(), records.len());
    for (answer, record) in answers.iter().zip(&records) {
        match record["best"].as_array().unwrap().first() {
            Some(cell) => assert_eq!(answer, &cell.to_string(), "{}", record["board"]),
            None => assert!(answer.contains("is over"), "{answer}"),
        }
    }
}

#[test]
fn batch_move_lists_read_a_blank_line_as_the_empty_board() {
    ttt()
        .args(["best", "--moves", "-"])
        .write_stdin("5 1 9\n\n1,5,9\n1 1\n5")
        .timeout(TIME_LIMIT)
        .assert()
        .code(2)
        .stdout("3\n1\n2\nerror: line 4: bad move list \"1 1\": move 2: cell 1 is already taken by X\n1\n");
    let out = batch(&["analyze", "--moves", "-", "--format", "json"], "5 1 9\n");
    assert!(out.status.success());
    assert_eq!(
        serde_json::from_slice::<Json>(&out.stdout).unwrap(),
        json(&["analyze", "--moves", "5 1 9", "--format", "json"])
    );
}

#[test]
fn batch_analyze_text_ends_each_answer_with_a_blank_line() {
    let out = batch(&["analyze", "-"], "XO..X....\nnonsense\nXXXOO....\n");
    assert_eq!(out.status.code(), Some(2));
    let one = ttt().args(["analyze", "XO..X...."]).output().unwrap();
    let over = ttt().args(["analyze", "XXXOO...."]).output().unwrap();
    let expected = format!(
        "{}\nerror: line 2: bad board \"nonsense\": unknown character \"n\" at position 1 (cells are X, O, or . - _ or the cell's own digit for empty; | / and spaces are ignored)\n\n{}\n",
        String::from_utf8_lossy(&one.stdout),
        String::from_utf8_lossy(&over.stdout)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

#[test]
fn batch_skips_an_overlong_line_with_a_short_error() {
    // 10 MB on one line, between two good ones: the line is an error of one short line, the
    // others are answered.
    let mut input = b"X...O....\n".to_vec();
    input.extend(std::iter::repeat_n(b'X', 10_000_000));
    input.extend_from_slice(b"\nXX.OO....\n");
    let out = batch(&["best", "-", "--format", "json"], input);
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[1].len() < 200, "{} bytes", lines[1].len());
    let error: Json = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(error["line"], 2);
    assert_eq!(
        error["error"],
        format!(
            "bad board \"{}…\" (10000000 bytes): a line has at most 4096 bytes",
            "X".repeat(60)
        )
    );
    assert_eq!(serde_json::from_str::<Json>(lines[2]).unwrap()["best"], 3);
    // 4,096 bytes is still a line: a board padded with spaces.
    let padded = format!("X...O....{}\n", " ".repeat(4096 - 9));
    ttt()
        .args(["best", "-"])
        .write_stdin(padded)
        .timeout(TIME_LIMIT)
        .assert()
        .success()
        .stdout("2\n");
}

/// A running `ttt` in batch mode, fed one line at a time. Each answer is awaited for at most
/// [`TIME_LIMIT`], so an answer that `ttt` keeps in a buffer fails the test instead of hanging
/// it; the process is killed when the client is dropped.
struct Client {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    answers: std::sync::mpsc::Receiver<String>,
}

impl Client {
    fn start(args: &[&str]) -> Client {
        use std::io::BufRead;
        use std::process::Stdio;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ttt"))
            .args(args)
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let (send, answers) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if send.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            answers,
        }
    }

    /// Writes one line and waits for its answer before anything else is written.
    fn ask(&mut self, line: &str) -> String {
        use std::io::Write;
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        self.answers
            .recv_timeout(TIME_LIMIT)
            .unwrap_or_else(|error| panic!("no answer to {line:?} (is it flushed?): {error}"))
    }

    /// Ends the input and waits for `ttt` to end: its exit code and standard error.
    fn finish(mut self) -> (Option<i32>, String) {
        use std::io::Read;
        drop(self.stdin.take());
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                start.elapsed() < TIME_LIMIT,
                "ttt did not end with its input"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut stderr = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        (status.code(), stderr)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn batch_answers_each_line_before_the_next_is_written() {
    let mut client = Client::start(&["best", "-", "--format", "json"]);
    let mut board = String::from(".........");
    // Both sides through one process, each move asked for once the last one is known.
    for mark in ["X", "O", "X", "O", "X", "O", "X", "O", "X"] {
        let answer: Json = serde_json::from_str(&client.ask(&board)).unwrap();
        assert_eq!(answer["board"], board.as_str());
        let cell = answer["best"].as_u64().unwrap() as usize;
        board.replace_range(cell - 1..cell, mark);
    }
    assert_eq!(board, "XXOOOXXOX");
    let answer: Json = serde_json::from_str(&client.ask(&board)).unwrap();
    assert_eq!(answer["line"], 10);
    let (code, stderr) = client.finish();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("1 of 10 lines"), "{stderr}");

    let mut client = Client::start(&["analyze", "--moves", "-", "--format", "json"]);
    let answer: Json = serde_json::from_str(&client.ask("5 1 9")).unwrap();
    assert_eq!(answer["best"], serde_json::json!([3, 7]));
    let answer: Json = serde_json::from_str(&client.ask("5 x")).unwrap();
    assert_eq!(answer["line"], 2);
    let mut client = Client::start(&["best", "-"]);
    assert_eq!(client.ask("XX.OO...."), "3");
    assert_eq!(
        client.ask(&"X".repeat(5000)),
        format!(
            "error: line 2: bad board \"{}…\" (5000 bytes): a line has at most 4096 bytes",
            "X".repeat(60)
        )
    );
    assert_eq!(client.ask("X........"), "5");
    let (code, stderr) = client.finish();
    assert_eq!(code, Some(2), "{stderr}");
}

#[test]
fn batch_ends_quietly_when_its_reader_goes_away() {
    use std::io::Write;
    let mut client = Client::start(&["best", "-"]);
    assert_eq!(client.ask("X...O...."), "2");
    // Nobody reads the answers any more: the reading thread ends at the next answer, and
    // with it the pipe.
    drop(std::mem::replace(
        &mut client.answers,
        std::sync::mpsc::channel().1,
    ));
    let mut stdin = client.stdin.take().unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        // Writing fails once ttt has ended; until then, each line makes it write.
        let _ = writeln!(stdin, "XX.OO....").and_then(|()| stdin.flush());
        if let Some(status) = client.child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < TIME_LIMIT, "ttt went on without a reader");
        std::thread::sleep(Duration::from_millis(1));
    };
    assert_eq!(status.code(), Some(0));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut client.child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(stderr, "", "quietly");
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
    for board in ["X.Z", "5 10", "XO"] {
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
fn the_documented_python_client_plays_through_the_built_ttt() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands.md")).unwrap();
    let section = &page[page.find("## Batch mode").expect("the batch mode section")..];
    let code = section
        .split_once("```python\n")
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .expect("a Python block")
        .0;
    let expected = section
        .split_once("```text\n$ python3 client.py\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("its output")
        .0;
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_ttt"))
        .parent()
        .unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    Command::new("python3")
        .args(["-c", code])
        .env("PATH", path)
        .timeout(TIME_LIMIT)
        .assert()
        .success()
        .stdout(expected.to_string());
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
