//! Memoryless bots: each bot that says its answer depends on the board alone is asked at every
//! history of every position.

use ttt_oracle::bots::{self, Bot, BotError, CATALOG, Choice};
use ttt_oracle::{Cell, Game, Status};

/// Every bot to check: the built-in ones and a few parameterised styles.
fn every_bot() -> Vec<Box<dyn Bot + Send>> {
    let mut all: Vec<Box<dyn Bot + Send>> = CATALOG.iter().map(|info| info.make()).collect();
    for spec in ["casual:0.25", "casual:1/3", "epsilon:0.1", "epsilon:1/997"] {
        all.push(bots::from_spec(spec).unwrap());
    }
    all
}

/// Two histories of one board where `bot` answers differently, the first such pair in the
/// order of the game tree; `None` when every history of every board in progress gets the same
/// answer (every choice, in the same order, with the same probability).
fn answers_differ(bot: &mut dyn Bot) -> Option<(Vec<Cell>, Vec<Cell>)> {
    fn visit(
        bot: &mut dyn Bot,
        game: &mut Game,
        seen: &mut [Option<(Vec<Cell>, Vec<Choice>)>],
    ) -> Option<(Vec<Cell>, Vec<Cell>)> {
        let board = game.board();
        if board.status() != Status::InProgress {
            return None;
        }
        let choices = bot.choose(game).unwrap();
        match &seen[board.code()] {
            Some((history, first)) if *first != choices => {
                return Some((history.clone(), game.moves().to_vec()));
            }
            Some(_) => {}
            None => {
                seen[board.code()] = Some((game.moves().to_vec(), choices));
            }
        }
        for cell in board.legal_moves() {
            game.play(cell).unwrap();
            let found = visit(bot, game, seen);
            game.undo();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    // Every board has its own base-3 code below 3^9.
    let mut seen = vec![None; 19_683];
    let found = visit(bot, &mut Game::new(), &mut seen);
    let asked = seen.iter().flatten().count();
    assert!(
        found.is_some() || asked == 4520,
        "every position in progress"
    );
    found
}

#[test]
fn a_bot_that_says_it_is_memoryless_answers_every_history_alike() {
    let mut declared = Vec::new();
    for mut bot in every_bot() {
        if bot.memoryless() {
            let differ = answers_differ(bot.as_mut());
            assert_eq!(differ, None, "{} answers by history", bot.name());
            declared.push(bot.name().to_string());
        }
    }
    assert_eq!(
        declared,
        [
            "perfect",
            "tricky",
            "random",
            "geeks-minimax",
            "geeks-minimax-depth",
            "c-minimax",
            "forkbot",
            "newell-simon",
            "casual:0.25",
            "casual:1/3",
            "epsilon:0.1",
            "epsilon:1/997",
        ]
    );
}

#[test]
fn the_bots_that_keep_the_default_do_answer_by_history() {
    for name in ["smartbot", "marcelo"] {
        let mut bot = bots::builtin(name).unwrap();
        assert!(!bot.memoryless(), "{name}");
        assert!(answers_differ(bot.as_mut()).is_some(), "{name}");
    }
}

/// A bot that answers by history (by its first move); it says nothing of memory, so it keeps
/// the default.
struct CountsItsTurns;

impl Bot for CountsItsTurns {
    fn name(&self) -> &str {
        "counts-its-turns"
    }
    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        let cells = game.board().legal_moves();
        let opened_in_the_corner = game.moves().first() == Cell::from_number(1).as_ref();
        if opened_in_the_corner {
            Ok(Choice::only(cells.iter().last()))
        } else {
            Ok(Choice::only(cells.first()))
        }
    }
}

#[test]
fn a_bot_keeps_the_default_unless_it_says_otherwise() {
    let mut bot = CountsItsTurns;
    assert!(!bot.memoryless());
    assert!(answers_differ(&mut bot).is_some());
}
