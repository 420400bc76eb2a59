//! `ttt analyze -` and `ttt best -` through the real binary: batch mode, one answer a line of
//! standard input, a bad line answered by an error in its place, each answer written before the
//! next line is read, and the Python client the docs show.

use crate::common;

use std::time::Duration;

use serde_json::Value as Json;
use ttt_oracle::{Game, Position};

use common::cli::{TIME_LIMIT, json, ttt};

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

/// Lines `ttt best -` reads on a board that the fast path of its answers leaves to the
/// general one.
const ODD_LINES: &str = "x........\n\nX........\r\nXX.......\nXO\nXXXOO....\n\u{e9}........\n";

/// `ttt best -` answers every line of `input` on `game` as `ttt analyze -` (which always takes
/// the general path) says it should, in text and JSON: the first best move with its value, the
/// error `analyze` gives, or that the game is over; the JSON's keys in their documented order.
fn best_agrees_with_analyze(game: &str, input: &str) {
    let analyses = batch(&["analyze", "--game", game, "-", "--format", "json"], input);
    let analyses: Vec<Json> = stdout_lines(&analyses)
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(analyses.len(), input.split_inclusive('\n').count());
    for format in ["text", "json"] {
        let best = batch(&["best", "--game", game, "-", "--format", format], input);
        let answers = stdout_lines(&best);
        assert_eq!(answers.len(), analyses.len(), "{format}");
        for (i, (answer, analysis)) in answers.iter().zip(&analyses).enumerate() {
            let error = match (&analysis["error"], &analysis["status"]) {
                (Json::String(error), _) => Some(error.clone()),
                (_, status) if status != "in_progress" => Some(format!(
                    "the game on {} is over ({}): there is no move to make",
                    analysis["board"].as_str().unwrap(),
                    status.as_str().unwrap()
                )),
                _ => None,
            };
            let line = i + 1;
            let expected = match (error, format) {
                (Some(error), "text") => format!("error: line {line}: {error}"),
                (Some(error), _) => serde_json::json!({"error": error, "line": line}).to_string(),
                (None, "text") => analysis["best"][0].to_string(),
                (None, _) => {
                    let mut best = serde_json::json!({
                        "board": analysis["board"], "to_move": analysis["to_move"],
                        "best": analysis["best"][0], "value": analysis["value"],
                        "remoteness": analysis["remoteness"],
                    });
                    let lead = if game == "3x3" {
                        "{\"board\":"
                    } else {
                        best["game"] = game.into();
                        "{\"game\":"
                    };
                    assert!(answer.starts_with(lead), "{answer}");
                    assert_eq!(serde_json::from_str::<Json>(answer).unwrap(), best);
                    continue;
                }
            };
            assert_eq!(answer, &expected);
        }
    }
}

#[test]
fn the_fast_answers_of_best_are_those_of_analyze() {
    // Every board of tic-tac-toe, the odd lines, every board again and a last line without its
    // newline: more than the 64 KiB `ttt` reads at once.
    let mut input: String = Position::reachable(Game::TIC_TAC_TOE)
        .map(|position| format!("{position}\n"))
        .collect();
    input.push_str(ODD_LINES);
    input.push_str(&input.clone());
    input.push_str("X...O....");
    best_agrees_with_analyze("3x3", &input);
    // 4x4: every position of random games, finished ones included; boards of too many O, of
    // two lines, with a misplaced slash; the odd lines.
    let game: Game = "4x4".parse().unwrap();
    let mut rng = ttt_oracle::SplitMix64::new(29);
    let mut input = String::new();
    for _ in 0..400 {
        let mut position = Position::empty(game);
        loop {
            input.push_str(&format!("{position}\n"));
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pick = rng.next_u64() % moves.len() as u64;
            let cell = moves.iter().nth(pick as usize).unwrap();
            position = position.play(cell).unwrap();
        }
    }
    input.push_str("OO../..../..../....\nXXXX/OOOO/..../....\nXX.../..../..../...\n");
    input.push_str(ODD_LINES);
    best_agrees_with_analyze("4x4", &input);
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
        let mut child = std::process::Command::new(crate::common::ttt())
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
    // The reader chose to stop: ttt ends at once, quietly.
    assert_eq!(status.code(), Some(0));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut client.child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(stderr, "");
}
