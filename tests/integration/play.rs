//! Playing styles over every position, and `ttt play` through the real binary with piped input
//! on tic-tac-toe (other boards: tests/integration/play_other_games.rs).

use crate::common;

use std::collections::HashMap;

use assert_cmd::Command;
use predicates::prelude::*;
use ttt_oracle::bots::{self, Bot, Casual, Epsilon, Tricky, Turn, parse_probability};
use ttt_oracle::{Cell, Game, History, Oracle, Position, Ratio};

/// The solved table of tic-tac-toe.
fn oracle() -> Oracle {
    Oracle::of(Game::TIC_TAC_TOE).unwrap()
}

/// Every non-terminal position, each as the first game found that reaches it.
fn positions() -> Vec<History> {
    let mut found: HashMap<Position, History> = HashMap::new();
    let mut stack = vec![History::new()];
    while let Some(game) = stack.pop() {
        let board = game.position();
        if board.is_over() || found.contains_key(&board) {
            continue;
        }
        for cell in board.legal_moves() {
            let mut next = game.clone();
            next.play(cell).unwrap();
            stack.push(next);
        }
        found.insert(board, game);
    }
    found.into_values().collect()
}

fn marks(bot: &mut dyn Bot, game: &History) -> Vec<(Cell, Ratio)> {
    let choices = bot.choose(game).unwrap();
    let total = choices
        .iter()
        .fold(Ratio::ZERO, |sum, c| sum + c.probability);
    assert_eq!(total, Ratio::ONE, "{} on {}", bot.name(), game.position());
    choices
        .into_iter()
        .map(|c| match c.turn {
            Turn::Mark(cell) => (cell, c.probability),
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn perfect_and_tricky_always_pick_an_optimal_move() {
    let games = positions();
    assert!(games.len() > 4000, "{}", games.len());
    let mut perfect = bots::builtin("perfect").unwrap();
    for game in &games {
        let best = oracle().best_moves(&game.position());
        for bot in [perfect.as_mut(), &mut Tricky as &mut dyn Bot] {
            for (cell, _) in marks(bot, game) {
                assert!(best.contains(cell), "{} on {}", bot.name(), game.position());
            }
        }
    }
}

#[test]
fn casual_never_drops_the_value() {
    for p in ["0", "0.3", "1/3", "1"] {
        let mut casual = Casual::new(parse_probability(p).unwrap());
        for game in positions() {
            let board = game.position();
            let value = oracle().probe(&board).value;
            for (cell, _) in marks(&mut casual, &game) {
                let after = -oracle().probe(&board.play(cell).unwrap()).value;
                assert_eq!(after, value, "casual:{p} on {board} plays {cell}");
            }
        }
    }
}

#[test]
fn epsilon_zero_is_perfect_and_epsilon_one_is_random() {
    let mut zero = Epsilon::new(Ratio::ZERO);
    let mut one = Epsilon::new(Ratio::ONE);
    let mut perfect = bots::builtin("perfect").unwrap();
    let mut random = bots::builtin("random").unwrap();
    for game in positions() {
        assert_eq!(marks(&mut zero, &game), marks(perfect.as_mut(), &game));
        assert_eq!(marks(&mut one, &game), marks(random.as_mut(), &game));
    }
}

/// How many replies of the opponent, after `cell` is played on `board`, lower the opponent's
/// own value: what `bots::ways_to_go_wrong` counts, worked out here from the table.
fn replies_that_go_wrong(board: &Position, cell: Cell) -> usize {
    let oracle = oracle();
    let after = board.play(cell).unwrap();
    let value = oracle.probe(&after).value;
    oracle
        .moves(&after)
        .iter()
        .filter(|reply| reply.value < value)
        .count()
}

#[test]
fn tricky_opens_in_a_corner() {
    // `ways_to_go_wrong` and `Tricky::candidates` take the crate-internal 3x3 `Board`, which
    // no public path reaches: the same figures through the table and through Tricky's choices.
    let board = Position::empty(Game::TIC_TAC_TOE);
    let ways = |n| replies_that_go_wrong(&board, Cell::from_number(n).unwrap());
    assert_eq!((ways(1), ways(2), ways(5)), (7, 4, 4));
    let corners: Vec<u8> = marks(&mut Tricky, &History::new())
        .iter()
        .map(|(c, _)| c.number())
        .collect();
    assert_eq!(corners, [1, 3, 7, 9]);
}

#[test]
fn probabilities_parse_exactly_or_not_at_all() {
    assert_eq!(parse_probability("0").unwrap(), Ratio::ZERO);
    assert_eq!(parse_probability("1").unwrap(), Ratio::ONE);
    assert_eq!(parse_probability("1.0").unwrap(), Ratio::ONE);
    assert_eq!(parse_probability(".5").unwrap(), Ratio::new(1, 2));
    assert_eq!(parse_probability("2/3").unwrap(), Ratio::new(2, 3));
    for bad in [
        "",
        ".",
        "-0.1",
        "1.01",
        "abc",
        "1/0",
        "3/2",
        "0.5.5",
        "1e-3",
        "NaN",
        "99999999999999999999999",
    ] {
        assert!(parse_probability(bad).is_err(), "{bad:?}");
    }
}

use common::play::{TIME_LIMIT, play, result_line, ttt};

#[test]
fn the_human_never_beats_perfect_as_x_or_o() {
    // Each script tries cells in some order; taken cells re-prompt, so every game finishes.
    let orders = [
        "1 2 3 4 5 6 7 8 9",
        "5 1 9 3 7 2 8 4 6",
        "9 8 7 6 5 4 3 2 1",
        "2 4 6 8 1 3 7 9 5",
    ];
    for side in ["x", "o"] {
        for (seed, order) in orders.iter().enumerate() {
            let input = order.replace(' ', "\n").repeat(2);
            let out = play(&["--as", side, "--seed", &seed.to_string()], &input);
            let line = result_line(&out);
            let human_won = if side == "x" {
                "result: x_wins"
            } else {
                "result: o_wins"
            };
            assert!(!line.starts_with(human_won), "{line}\n{out}");
            // The moves replay to the same result.
            let moves = line.split(" moves: ").nth(1).unwrap();
            let analysis: serde_json::Value = serde_json::from_slice(
                &ttt()
                    .args(["analyze", "--moves", moves, "--format", "json"])
                    .output()
                    .unwrap()
                    .stdout,
            )
            .unwrap();
            assert_eq!(analysis["status"], line.split_whitespace().nth(1).unwrap());
        }
    }
}

#[test]
fn bad_input_reprompts_and_the_game_still_finishes() {
    let input = "\nfoo\n0\n10\n-3\n5\n5\n\u{fffd}\n1 2\n1\n2\n3\n4\n6\n7\n8\n9\n";
    let out = play(&["--seed", "1"], input);
    assert!(out.contains("\"foo\" is not a move"), "{out}");
    assert!(
        out.contains("\"0\" is not a cell: cells are numbered 1 to 9"),
        "{out}"
    );
    assert!(out.contains("\"10\" is not a cell"), "{out}");
    assert!(out.contains("\"-3\" is not a cell"), "{out}");
    assert!(out.contains("already taken"), "{out}");
    assert!(out.contains("Type a cell 1-9"), "{out}");
    result_line(&out);
}

#[test]
fn non_utf8_input_is_just_another_bad_move() {
    let mut input = vec![0xff, 0xfe, b'\n'];
    input.extend_from_slice(b"quit\n");
    let out = ttt().args(["play"]).write_stdin(input).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("is not a move") && text.contains("You quit"),
        "{text}"
    );
}

#[test]
fn undo_hint_quit_and_end_of_input() {
    let out = play(&["--seed", "7"], "5\nundo\nhint\nquit\n");
    assert!(
        out.contains("Took back your last move and the reply."),
        "{out}"
    );
    assert!(out.contains("D9*"), "hint shows outcomes: {out}");
    assert!(out.contains("You quit before any move."), "{out}");
    assert!(!out.contains("result: "));

    let out = play(&["--as", "o", "--seed", "7"], "undo\n");
    assert!(out.contains("Nothing to undo yet."), "{out}");
    assert!(
        out.contains("Input ended; game abandoned after 1 move: "),
        "{out}"
    );

    let out = play(&[], "");
    assert!(
        out.contains("Input ended; game abandoned before any move."),
        "{out}"
    );
    assert!(!out.contains("Play again"), "piped input plays one game");
}

#[test]
fn hints_flag_shows_outcomes_every_turn() {
    let out = play(&["--hints", "--seed", "2"], "5\nquit\n");
    assert!(out.matches("Right: W win").count() >= 2, "{out}");
}

#[test]
fn a_seed_makes_a_game_reproducible() {
    let input = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    for opponent in [
        "perfect",
        "random",
        "epsilon:0.5",
        "smartbot",
        "tricky",
        "casual:0.5",
    ] {
        let a = play(
            &["--opponent", opponent, "--seed", "42", "--as", "random"],
            input,
        );
        let b = play(
            &["--opponent", opponent, "--seed", "42", "--as", "random"],
            input,
        );
        assert_eq!(a, b, "{opponent}");
        result_line(&a);
    }
}

#[test]
fn a_bot_that_breaks_the_rules_forfeits() {
    // marcelo as O: X 3, O 5 (centre), X 7 fills the diagonal 3-5-7, so rule 4 is skipped and
    // rule 5 marks two cells at once.
    let out = play(&["--opponent", "marcelo"], "3\n7\n");
    assert!(
        out.contains("marked 2 cells in one turn: 1 2, which the rules forbid"),
        "{out}"
    );
    assert_eq!(result_line(&out), "result: x_wins_by_forfeit moves: 3 5 7");
}

#[test]
fn bad_styles_and_probabilities_are_refused_with_the_choices() {
    for (style, message) in [
        ("deep-blue", "unknown bot \"deep-blue\""),
        ("casual:1.5", "not a number from 0 to 1"),
        ("epsilon:-1", "not a number from 0 to 1"),
        ("casual:", "not a number from 0 to 1"),
    ] {
        ttt()
            .args(["play", "--opponent", style])
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    ttt()
        .args(["play", "--opponent", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("casual:P").and(predicate::str::contains("smartbot")));
    ttt().args(["play", "--as", "both"]).assert().code(2);
    ttt().args(["play", "--seed", "-1"]).assert().code(2);
}

#[test]
fn a_cell_is_one_digit_in_play_too() {
    // Neither "05" nor "+5" is the centre: each is refused, and the game goes on with 5.
    let out = play(&["--seed", "3"], "05\n+5\n 5 \nquit\n");
    assert!(
        out.contains("\"05\" is not a cell: cells are numbered 1 to 9, each written as one digit."),
        "{out}"
    );
    assert!(
        out.contains("\"+5\" is not a cell: a cell is one digit from 1 to 9, with no sign."),
        "{out}"
    );
    assert!(out.contains("You quit after 2 moves: 5 "), "{out}");
}

#[test]
fn a_huge_line_is_refused_in_a_few_words_and_the_game_goes_on() {
    let mut input = vec![b'7'; 10 * 1024 * 1024];
    input.extend_from_slice(b"\n5\nquit\n");
    let out = ttt()
        .args(["play", "--seed", "3"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout.len() < 8 * 1024,
        "{} bytes out",
        out.stdout.len()
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("That line is 10485760 bytes; ttt play reads at most 256."),
        "{text}"
    );
    // The echo shows the start of the line and its length, not the line.
    assert!(
        text.contains(&format!("X to move: {}… (10485760 bytes)", "7".repeat(60))),
        "{text}"
    );
    assert!(text.contains("perfect (O) plays"), "{text}");
    assert!(text.contains("You quit after 2 moves: 5 "), "{text}");

    // At the limit a line is still read; one byte more and it is refused.
    let at_limit = format!("{}\nquit\n", " ".repeat(255) + "5");
    assert!(play(&["--seed", "3"], &at_limit).contains("You quit after 2 moves: 5 "));
    let past_limit = format!("{}\nquit\n", " ".repeat(256) + "5");
    let out = play(&["--seed", "3"], &past_limit);
    assert!(out.contains("That line is 257 bytes"), "{out}");
    assert!(out.contains("You quit before any move."), "{out}");
}

#[test]
fn a_line_without_an_end_is_read_to_the_end_of_input() {
    let out = play(&["--seed", "3"], "5");
    assert!(out.contains("perfect (O) plays"), "{out}");
    assert!(
        out.contains("Input ended; game abandoned after 2 moves: 5 "),
        "{out}"
    );
}

#[test]
fn what_is_echoed_cannot_drive_the_terminal() {
    let out = play(&[], "\x1b[2J\x1b]0;owned\x07\nquit\n");
    assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
    assert!(
        out.contains("X to move: \\u{1b}[2J\\u{1b}]0;owned\\u{7}\n"),
        "{out}"
    );
    assert!(
        out.contains("\"\\u{1b}[2J\\u{1b}]0;owned\\u{7}\" is not a move"),
        "{out}"
    );
}

#[test]
fn a_bot_name_is_escaped() {
    // A relative path, so that the name fits whatever the checkout's path: longer names are cut.
    let spec = "cmd:python3 tests/bots/misbehave.py first \x1b[31m";
    let out = ttt()
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(["play", "--opponent", spec, "--as", "o"])
        .write_stdin("quit\n")
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(!out.contains('\x1b'), "{out:?}");
    let name = "python3 tests/bots/misbehave.py first \\u{1b}[31m";
    assert!(out.contains(&format!("against {name}.")), "{out}");
    assert!(out.contains(&format!("{name} (X) plays 1.")), "{out}");
}

/// The columns a line takes as `ttt play` counts them: one for ASCII and `…`, two for any
/// other character (wide ones take two on a terminal, the rest fewer).
fn columns(line: &str) -> usize {
    line.chars()
        .map(|ch| if ch.is_ascii() || ch == '…' { 1 } else { 2 })
        .sum()
}

fn assert_fits(out: &str) {
    for line in out.lines() {
        assert!(
            columns(line) <= 100,
            "{} columns: {line}\n{out}",
            columns(line)
        );
    }
}

#[test]
fn every_line_fits_in_100_columns_whatever_is_typed() {
    // Each at most 256 bytes, so read as a line, and echoed, quoted, or both.
    let typed = [
        "x".repeat(256),
        "\x01".repeat(256),
        "\"".repeat(256),
        "\u{202e}".repeat(85),
        "漢".repeat(85),
        "0".repeat(256),
        format!("+{}", "5".repeat(255)),
        format!("{}\x1b", "7".repeat(300)),
    ];
    let input = typed.join("\n") + "\n5\nquit\n";
    let out = play(&["--hints", "--seed", "1"], &input);
    assert_fits(&out);
    // Only what was typed is cut, never the message about it.
    let move_refused = " is not a move: type a cell 1-9, or hint, undo, help, quit.\n";
    assert_eq!(out.matches(move_refused).count(), 5, "{out}");
    assert!(
        out.contains("…\" is not a cell: cells are numbered 1 to 9"),
        "{out}"
    );
    assert!(
        out.contains("…\" is not a cell: a cell is one digit"),
        "{out}"
    );
    assert!(
        out.contains("… (301 bytes)\nThat line is 301 bytes"),
        "{out}"
    );
    assert!(out.contains("You quit after 2 moves: 5 "), "{out}");
}

#[test]
fn every_line_fits_in_100_columns_whatever_the_bot_is_called() {
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/bots/misbehave.py");
    let long = "a-long-argument-".repeat(8);
    for (mode, told) in [
        ("first", "(X) plays 1."),
        ("taken", "played 1, which is taken: you win by forfeit."),
    ] {
        let spec = format!("cmd:python3 {bot} {mode} {long}");
        let out = play(&["--opponent", &spec, "--as", "o"], "5\n2\nquit\n");
        assert_fits(&out);
        assert!(out.contains(&format!("… {told}\n")), "{out}");
        assert!(out.starts_with("You are O, against python3 "), "{out}");
    }
}

#[test]
fn help_lists_the_commands_in_the_game() {
    let out = play(&["--seed", "3"], "help\nquit\n");
    assert!(out.contains("X to move: help\nCommands:\n  1-9 "), "{out}");
    for command in ["hint", "undo", "help", "quit"] {
        assert!(
            out.contains(&format!("\n  {command}  ")),
            "{command}: {out}"
        );
    }
    assert!(!out.contains("is not a move"), "{out}");
}

#[test]
fn help_for_play_lists_the_commands_and_the_exit_codes() {
    let out = ttt().args(["play", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let commands = help
        .find("In the game, type at the prompt:\n  1-9 ")
        .unwrap_or_else(|| panic!("{help}"));
    for command in ["hint", "undo", "help", "quit"] {
        assert!(
            help.contains(&format!("\n  {command}  ")),
            "{command}: {help}"
        );
    }
    // The exit codes, which main adds under every help, come after the commands, once.
    let exit_codes = help
        .find("Exit codes: ")
        .unwrap_or_else(|| panic!("{help}"));
    assert!(commands < exit_codes, "{help}");
    assert_eq!(help.matches("Exit codes: ").count(), 1, "{help}");

    // The summary keeps only the exit codes.
    let out = ttt().args(["play", "-h"]).output().unwrap();
    let summary = String::from_utf8(out.stdout).unwrap();
    assert_eq!(summary.matches("Exit codes: ").count(), 1, "{summary}");
}

/// Plays on a terminal with `steps` (what to wait for, what to type then); returns what the
/// terminal showed. `ttt` must exit with 0.
fn on_a_terminal(args: &[&str], steps: &[(&str, &str)]) -> String {
    // The driver gives up after 10 seconds; this is in case the driver itself hangs.
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/terminal.py"))
        .arg(crate::common::ttt())
        .arg(serde_json::to_string(args).unwrap())
        .arg(serde_json::to_string(steps).unwrap())
        .env("NO_COLOR", "1")
        .timeout(4 * TIME_LIMIT)
        .output()
        .unwrap();
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}\n{shown}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    shown
}

/// A bot that always takes the first empty cell, so that every game below is known in
/// advance: as X, 5 3 7 wins, 2 4 5 7 9 draws, 9 8 4 loses.
fn first_empty_cell() -> String {
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/bots/misbehave.py");
    format!("cmd:python3 {bot} first")
}

/// The steps of one game as X, typing `moves` one prompt at a time.
fn moves<'a>(moves: &[&'a str]) -> Vec<(&'static str, &'a str)> {
    moves.iter().map(|cell| ("X to move: ", *cell)).collect()
}

#[test]
fn on_a_terminal_the_score_is_kept_across_games() {
    let bot = first_empty_cell();
    let mut steps = moves(&["5\n", "3\n", "7\n"]);
    steps.push(("Play again? [y/N] ", "y\n"));
    steps.extend(moves(&["help\n", "2\n", "4\n", "5\n", "7\n", "9\n"]));
    steps.push(("Play again? [y/N] ", "YES\n"));
    steps.extend(moves(&["9\n", "8\n", "4\n"]));
    steps.push(("Play again? [y/N] ", "n\n"));
    let shown = on_a_terminal(&["play", "--opponent", &bot], &steps);
    let scores: Vec<&str> = shown
        .lines()
        .filter(|line| line.contains("core: "))
        .collect();
    assert_eq!(
        scores,
        [
            "Score: 1 win, 0 draws, 0 losses.",
            "Score: 1 win, 1 draw, 0 losses.",
            "Score: 1 win, 1 draw, 1 loss.",
            "Final score: 1 win, 1 draw, 1 loss.",
        ],
        "{shown}"
    );
    assert!(
        shown.ends_with("Play again? [y/N] n\nFinal score: 1 win, 1 draw, 1 loss.\n"),
        "{shown}"
    );
    // Each game ends with its result line, then the score, then the question.
    assert!(
        shown.contains("result: x_wins moves: 5 1 3 2 7\nScore: 1 win, 0 draws, 0 losses.\n"),
        "{shown}"
    );
    assert!(shown.contains("X to move: help\nCommands:\n"), "{shown}");
    // The terminal echoes what is typed; ttt does not echo it again.
    assert!(!shown.contains("X to move: 5\n5\n"), "{shown}");
    assert_fits(&shown);
}

#[test]
fn on_a_terminal_end_of_input_ends_the_line_and_the_session() {
    let bot = first_empty_cell();
    // Ctrl-D at "Play again?": the prompt's line is ended, and the final score follows.
    let mut steps = moves(&["5\n", "3\n", "7\n"]);
    steps.push(("Play again? [y/N] ", "\x04"));
    let shown = on_a_terminal(&["play", "--opponent", &bot], &steps);
    assert!(
        shown.ends_with(
            "Score: 1 win, 0 draws, 0 losses.\nPlay again? [y/N] \nFinal score: 1 win, 0 draws, 0 losses.\n"
        ),
        "{shown:?}"
    );

    // Ctrl-D in a game, after one finished: the game is abandoned, the score stays.
    let mut steps = moves(&["9\n", "8\n", "4\n"]);
    steps.push(("Play again? [y/N] ", "y\n"));
    steps.extend(moves(&["5\n", "\x04"]));
    let shown = on_a_terminal(&["play", "--opponent", &bot], &steps);
    assert!(
        shown.ends_with(
            "X to move: \nInput ended; game abandoned after 2 moves: 5 1.\nFinal score: 0 wins, 0 draws, 1 loss.\n"
        ),
        "{shown:?}"
    );

    // quit before any game finished: nothing to score.
    let shown = on_a_terminal(&["play", "--opponent", &bot], &moves(&["quit\n"]));
    assert!(
        shown.ends_with("X to move: quit\nYou quit before any move.\n"),
        "{shown:?}"
    );
}
