//! The bots on games other than tic-tac-toe: which play them, what they choose there, and what
//! an external program is told.

use std::time::Duration;

use ttt_oracle::bots::{self, Bot, External, Turn};
use ttt_oracle::{Cell, Cells, Game, History, Oracle, Player, Position, Ratio, Value};

fn game(name: &str) -> Game {
    name.parse().unwrap()
}

/// Every position of `game` in play, each as a game reaching it.
fn positions(game: Game) -> Vec<History> {
    Position::reachable(game)
        .filter(|board| !board.is_over())
        .map(|board| {
            // A history for the board: X's marks and O's, alternately, in cell order.
            let (mut xs, mut os) = (board.marks(Player::X).bits(), board.marks(Player::O).bits());
            let mut played = History::empty(game);
            while xs | os != 0 {
                let mine = if played.moves().len() % 2 == 0 {
                    &mut xs
                } else {
                    &mut os
                };
                let cell = mine.trailing_zeros() as usize;
                *mine &= *mine - 1;
                played.play(Cell::new(cell).unwrap()).unwrap();
            }
            assert_eq!(played.position(), board);
            played
        })
        .collect()
}

fn cells(bot: &mut dyn Bot, game: &History) -> Vec<(usize, Ratio)> {
    let choices = bot.choose(game).unwrap();
    let total = choices
        .iter()
        .fold(Ratio::ZERO, |sum, c| sum + c.probability);
    assert_eq!(total, Ratio::ONE, "{} on {}", bot.name(), game.position());
    choices
        .iter()
        .map(|choice| match choice.turn {
            Turn::Mark(cell) => {
                assert!(
                    game.legal_moves().contains(cell),
                    "{} on {}",
                    bot.name(),
                    game.position()
                );
                (cell.index(), choice.probability)
            }
            ref other => panic!("{} on {}: {other}", bot.name(), game.position()),
        })
        .collect()
}

#[test]
fn table_backed_bots_play_every_position_of_a_small_game_by_its_table() {
    for name in ["2x3", "3x3k2", "3x4"] {
        let game = game(name);
        let oracle = Oracle::of(game).unwrap();
        let mut perfect = bots::builtin("perfect").unwrap();
        let mut tricky = bots::builtin("tricky").unwrap();
        let mut casual = bots::from_spec("casual:0.5").unwrap();
        let mut epsilon = bots::from_spec("epsilon:1/4").unwrap();
        for played in positions(game) {
            let board = played.position();
            let best = oracle.best_moves(&board);
            let chosen: Cells = cells(perfect.as_mut(), &played)
                .iter()
                .map(|&(c, _)| Cell::new(c).unwrap())
                .collect();
            assert_eq!(chosen, best, "perfect on {board}");
            for &(cell, _) in &cells(tricky.as_mut(), &played) {
                assert!(
                    best.contains(Cell::new(cell).unwrap()),
                    "tricky on {board} plays {}",
                    cell + 1
                );
            }
            let value = oracle.probe(&board).value;
            let worth: Vec<(usize, Value)> = oracle
                .moves(&board)
                .iter()
                .map(|m| (m.cell.index(), m.value))
                .collect();
            for &(cell, _) in &cells(casual.as_mut(), &played) {
                let kept = worth.iter().any(|&(c, v)| c == cell && v == value);
                assert!(
                    kept,
                    "casual on {board} gives the result away at {}",
                    cell + 1
                );
            }
            let legal = board.legal_moves().len();
            assert_eq!(
                cells(epsilon.as_mut(), &played).len(),
                legal,
                "epsilon on {board}"
            );
        }
    }
}

#[test]
fn bots_that_play_any_board_say_so_and_rule_bots_refuse_with_the_game_named() {
    let four = game("4x4");
    let five = game("5x5");
    for name in ["perfect", "tricky", "random"] {
        assert!(bots::builtin(name).unwrap().plays(four).is_ok(), "{name}");
    }
    assert!(bots::from_spec("casual:0.1").unwrap().plays(four).is_ok());
    assert!(bots::builtin("random").unwrap().plays(five).is_ok());
    let refusal = bots::builtin("perfect").unwrap().plays(five).unwrap_err();
    assert!(
        refusal.message.contains("ttt solve --game 5x5"),
        "{refusal}"
    );
    let refusal = bots::builtin("perfect")
        .unwrap()
        .plays(game("6x6"))
        .unwrap_err();
    assert!(refusal.message.contains("6x6 has 36 cells"), "{refusal}");
    for name in [
        "smartbot",
        "geeks-minimax",
        "c-minimax",
        "forkbot",
        "newell-simon",
    ] {
        let bot = bots::builtin(name).unwrap();
        assert!(bot.plays(Game::TIC_TAC_TOE).is_ok());
        let refusal = bot.plays(four).unwrap_err();
        assert!(
            refusal.message.contains(name) && refusal.message.contains("4x4"),
            "{refusal}"
        );
    }
}

#[test]
fn random_plays_a_board_too_large_for_a_table() {
    let mut played = History::empty(game("7x7"));
    let mut random = bots::builtin("random").unwrap();
    let choices = cells(random.as_mut(), &played);
    assert_eq!(choices.len(), 49);
    played.play(Cell::new(24).unwrap()).unwrap();
    assert_eq!(cells(random.as_mut(), &played).len(), 48);
}

#[test]
fn a_game_refuses_cells_off_its_board() {
    let mut played = History::empty(game("2x2k2"));
    let error = played.play(Cell::new(4).unwrap()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "there is no cell 5: cells are numbered 1 to 4"
    );
    assert!(played.moves().is_empty());
}

/// A real program that checks what the protocol told it: the game in its environment and a
/// board of rows * columns characters. It answers the last empty cell.
const LAST_EMPTY: &str = r#"python3 -c '
import os, sys
rows, columns = int(os.environ["TTT_ROWS"]), int(os.environ["TTT_COLUMNS"])
for line in sys.stdin:
    board, mark = line.split()[:2]
    if len(board) != rows * columns or os.environ["TTT_GAME"] != sys.argv[1]:
        print("wrong board", board, os.environ["TTT_GAME"], flush=True)
        continue
    print(board.rindex(".") + 1, flush=True)
' "#;

#[test]
fn an_external_bot_is_told_the_game_and_answers_in_its_cells() {
    for (name, expected) in [("4x4", 16), ("3x4", 12), ("3x3", 9), ("2x8k2", 16)] {
        let command = format!("{LAST_EMPTY}{}", game(name));
        let mut bot = External::new("last-empty", command, Duration::from_secs(10));
        let mut played = History::empty(game(name));
        assert!(bot.plays(played.game()).is_ok());
        assert_eq!(
            cells(&mut bot, &played),
            [(expected - 1, Ratio::ONE)],
            "{name}"
        );
        played.play(Cell::new(expected - 1).unwrap()).unwrap();
        assert_eq!(
            cells(&mut bot, &played),
            [(expected - 2, Ratio::ONE)],
            "{name}"
        );
        bot.finish().unwrap();
    }
}

#[test]
fn an_external_bot_answering_off_the_board_breaks_the_protocol() {
    let command = "while read line; do echo 17; done";
    let mut bot = External::new("seventeen", command, Duration::from_secs(10));
    let error = bot.choose(&History::empty(game("4x4"))).unwrap_err();
    assert!(
        error
            .message
            .contains("\"17\", which is not a cell; expected one or more cells 1..16"),
        "{error}"
    );
}

#[test]
fn an_external_bot_asked_about_a_new_game_is_started_afresh() {
    let mut bot = External::new(
        "last-empty",
        format!("{LAST_EMPTY}4x4"),
        Duration::from_secs(10),
    );
    assert_eq!(
        cells(&mut bot, &History::empty(game("4x4"))),
        [(15, Ratio::ONE)]
    );
    // Told 3x3 now, it complains through its reply that it expected 4x4: a fresh process
    // with the new environment.
    let error = bot.choose(&History::new()).unwrap_err();
    assert!(error.message.contains("wrong board"), "{error}");
}
