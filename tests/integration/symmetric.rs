//! Symmetric bots: each bot that says its choices turn with the board is asked at every image
//! of every position of small games, and the audit's walk over one board of each set of
//! images is checked against its walk over every board, figure for figure.

use std::collections::HashSet;

use ttt_oracle::audit::{Report, SideReport};
use ttt_oracle::bots::{self, Bot, BotError, CATALOG, Choice, Turn};
use ttt_oracle::{AuditOptions, Cell, Game, History, Player, Ratio, Status};

/// Every built-in bot and a few parameterised styles.
const SPECS: [&str; 3] = ["casual:0.25", "epsilon:1/7", "casual:1/3"];

fn every_spec() -> impl Iterator<Item = &'static str> {
    CATALOG.iter().map(|info| info.name).chain(SPECS)
}

/// Where a symmetry sends (row, column), given the last row and the last column.
type Map = fn(usize, usize, usize, usize) -> (usize, usize);

/// Where each of the board's symmetries sends each cell (by index), worked out here from rows
/// and columns: the 8 turns and mirrors of a square, the 4 of another rectangle.
fn symmetries(game: Game) -> Vec<Vec<usize>> {
    let (rows, columns) = (game.rows(), game.columns());
    let (last_row, last_column) = (rows - 1, columns - 1);
    let maps: [Map; 8] = [
        |r, c, _, _| (r, c),
        |r, c, lr, lc| (lr - r, lc - c),
        |r, c, _, lc| (r, lc - c),
        |r, c, lr, _| (lr - r, c),
        |r, c, _, _| (c, r),
        |r, c, lr, _| (c, lr - r),
        |r, c, _, lc| (lc - c, r),
        |r, c, lr, lc| (lc - c, lr - r),
    ];
    let kept = if rows == columns { 8 } else { 4 };
    maps[..kept]
        .iter()
        .map(|map| {
            (0..rows * columns)
                .map(|i| {
                    let (r, c) = map(i / columns, i % columns, last_row, last_column);
                    r * columns + c
                })
                .collect()
        })
        .collect()
}

/// A bot's answer as a set: each cell with its probability, sorted by cell; `None` for an
/// answer that is not marks of single cells.
fn marks(choices: &[Choice], turn: &[usize]) -> Option<Vec<(usize, Ratio)>> {
    let mut marks: Vec<(usize, Ratio)> = choices
        .iter()
        .map(|choice| match choice.turn {
            Turn::Mark(cell) => Some((turn[cell.index()], choice.probability)),
            _ => None,
        })
        .collect::<Option<_>>()?;
    marks.sort_by_key(|&(cell, _)| cell);
    Some(marks)
}

/// The first board of `game` in progress where `bot` does not answer at an image what its
/// answer at the board turns to, with the symmetry; `None` when it always does.
fn answers_turn(bot: &mut dyn Bot, game: Game) -> Option<(Vec<Cell>, usize)> {
    let turns = symmetries(game);
    let mut seen = HashSet::new();
    let mut stack = vec![History::empty(game)];
    while let Some(history) = stack.pop() {
        let board = history.position();
        if board.status() != Status::InProgress || !seen.insert(board.to_string()) {
            continue;
        }
        let choices = bot.choose(&history).unwrap();
        for (t, turn) in turns.iter().enumerate() {
            let mut image = History::empty(game);
            for cell in history.moves() {
                image.play(Cell::new(turn[cell.index()]).unwrap()).unwrap();
            }
            let identity: Vec<usize> = (0..game.cells()).collect();
            let answer = marks(&bot.choose(&image).unwrap(), &identity);
            if answer.is_none() || answer != marks(&choices, turn) {
                return Some((history.moves().to_vec(), t));
            }
        }
        for cell in history.legal_moves() {
            let mut next = history.clone();
            next.play(cell).unwrap();
            stack.push(next);
        }
    }
    None
}

#[test]
fn a_bot_that_says_it_is_symmetric_answers_every_image_alike() {
    let mut claimed = Vec::new();
    for spec in every_spec() {
        let mut bot = bots::from_spec(spec).unwrap();
        if !bot.symmetric() {
            continue;
        }
        claimed.push(spec);
        for game in ["3x3", "2x4k3", "3x3k2"] {
            let game: Game = game.parse().unwrap();
            if bot.plays(game).is_err() {
                continue;
            }
            assert_eq!(answers_turn(bot.as_mut(), game), None, "{spec} on {game}");
        }
    }
    assert_eq!(
        claimed,
        [
            "perfect",
            "tricky",
            "random",
            "casual:0.25",
            "epsilon:1/7",
            "casual:1/3"
        ]
    );
}

/// The check above finds a bot that prefers a cell by its place.
#[test]
fn a_bot_that_prefers_a_place_does_not_answer_its_images_alike() {
    let mut forkbot = bots::from_spec("forkbot").unwrap();
    assert!(!forkbot.symmetric());
    let game = Game::TIC_TAC_TOE;
    assert!(answers_turn(forkbot.as_mut(), game).is_some());
}

/// A bot, as it is but for symmetry (the default, `false`), counting how often it is asked.
struct EveryBoard<'a> {
    bot: &'a mut dyn Bot,
    symmetric: bool,
    asked: u64,
}

impl Bot for EveryBoard<'_> {
    fn name(&self) -> &str {
        self.bot.name()
    }
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        self.asked += 1;
        self.bot.choose(game)
    }
    fn choose_into(&mut self, game: &History, choices: &mut Vec<Choice>) -> Result<(), BotError> {
        self.asked += 1;
        self.bot.choose_into(game, choices)
    }
    fn plays(&self, game: Game) -> Result<(), BotError> {
        self.bot.plays(game)
    }
    fn memoryless(&self) -> bool {
        self.bot.memoryless()
    }
    fn symmetric(&self) -> bool {
        self.symmetric && self.bot.symmetric()
    }
    fn never_forfeits(&self) -> bool {
        self.bot.never_forfeits()
    }
}

/// `spec`'s audit as `side` of `game`, every mistake listed, walked over one board of each set
/// of images when `symmetric`; and how often the bot was asked.
fn audit(spec: &str, game: Game, side: Player, symmetric: bool) -> (SideReport, u64) {
    let mut bot = bots::from_spec(spec).unwrap();
    let mut counted = EveryBoard {
        bot: bot.as_mut(),
        symmetric,
        asked: 0,
    };
    let options = AuditOptions {
        mistakes: usize::MAX,
        ..AuditOptions::new(game, side)
    };
    match ttt_oracle::audit(&mut counted, &options).unwrap() {
        Report::Solved(report) => (report, counted.asked),
        Report::Searched(report) => panic!("{game} has a table: {report:?}"),
    }
}

/// Squares (8 symmetries) and other rectangles (4), drawn and won, where the bots never lose,
/// lose or err: a report by images stands only where the bot never errs, loses or forfeits,
/// and is then the walk's over every board; elsewhere the audit walks every board.
#[test]
fn symmetric_bots_get_the_report_of_every_board() {
    let mut by_images = 0;
    for game in ["3x4", "4x3", "2x4k3", "3x3k2", "2x4k2", "2x5k3", "1x4k2"] {
        let game: Game = game.parse().unwrap();
        for spec in ["perfect", "tricky", "random", "casual:0.25", "epsilon:1/7"] {
            for side in Player::BOTH {
                let (turned, asked) = audit(spec, game, side, true);
                let (every, asked_every) = audit(spec, game, side, false);
                assert_eq!(turned, every, "{spec} as {side} on {game}");
                let errs = every.mistakes.total > 0;
                let stands = every.never_loses() && !errs;
                if stands && every.decision_points > 1 {
                    // One board of each set of images: fewer questions.
                    assert!(asked < asked_every, "{spec} as {side} on {game}");
                    by_images += 1;
                }
            }
        }
    }
    assert!(by_images >= 10, "{by_images} audits by images");
}

/// A square deeper in play: 4x4k3 as X, won in up to 9 plies, turned and mirrored at every
/// one (its O side meets a million positions, too many for a debug build).
#[test]
fn a_deeper_square_gets_the_report_of_every_board() {
    let game: Game = "4x4k3".parse().unwrap();
    for spec in ["perfect", "tricky"] {
        let (turned, asked) = audit(spec, game, Player::X, true);
        let (every, asked_every) = audit(spec, game, Player::X, false);
        assert_eq!(turned, every, "{spec}");
        assert!(every.never_loses() && every.mistakes.total == 0, "{spec}");
        assert!(asked < asked_every, "{spec}: {asked} of {asked_every}");
    }
}
