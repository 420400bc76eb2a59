//! Memoryless bots: each bot that says its answer depends on the board alone is asked at every
//! history of every position, and the auditor's walk by positions is checked against its walk
//! by histories, figure for figure.

use crate::common;

use common::audit_3x3 as audit;

use ttt_oracle::audit::Report;
use ttt_oracle::audit::{Forfeit, SideReport};
use ttt_oracle::bots::{self, Bot, BotError, CATALOG, Choice, Turn};
use ttt_oracle::{AuditOptions, Cell, Game, History, Player, Position, Ratio, Status};

/// The nine cells of tic-tac-toe, 1 to 9.
fn cells() -> impl DoubleEndedIterator<Item = Cell> {
    (1..=9).map(|n| Cell::from_number(n).unwrap())
}

/// The base-3 code of a tic-tac-toe position: the sum over cells `i` (0-based) of `3^i` times
/// 0 (empty), 1 (X) or 2 (O). Every position has its own code below `3^9`.
fn code(position: &Position) -> usize {
    cells().rev().fold(0, |code, cell| {
        let digit = match position.get(cell) {
            None => 0,
            Some(Player::X) => 1,
            Some(Player::O) => 2,
        };
        code * 3 + digit
    })
}

/// Every bot to check: the built-in ones and a few parameterised styles.
fn every_bot() -> Vec<Box<dyn Bot + Send>> {
    let mut all: Vec<Box<dyn Bot + Send>> = CATALOG.iter().map(|info| info.make()).collect();
    for spec in ["casual:1/3", "epsilon:1/997"] {
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
        game: &mut History,
        seen: &mut [Option<(Vec<Cell>, Vec<Choice>)>],
    ) -> Option<(Vec<Cell>, Vec<Cell>)> {
        let board = game.position();
        if board.status() != Status::InProgress {
            return None;
        }
        let choices = bot.choose(game).unwrap();
        match &seen[code(&board)] {
            Some((history, first)) if *first != choices => {
                return Some((history.clone(), game.moves().to_vec()));
            }
            Some(_) => {}
            None => {
                seen[code(&board)] = Some((game.moves().to_vec(), choices));
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
    let found = visit(bot, &mut History::new(), &mut seen);
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
            "casual:1/3",
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
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        let cells = game.position().legal_moves();
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

/// `bot` asked the same questions, counted, and memoryless only if `memoryless` says so; the
/// auditor walks the histories of a bot that is not.
struct Asked<'a> {
    bot: &'a mut dyn Bot,
    memoryless: bool,
    times: u64,
}

impl Bot for Asked<'_> {
    fn name(&self) -> &str {
        self.bot.name()
    }
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        self.times += 1;
        self.bot.choose(game)
    }
    fn memoryless(&self) -> bool {
        self.memoryless
    }
    fn plays(&self, game: Game) -> Result<(), BotError> {
        self.bot.plays(game)
    }
}

/// The audit of `bot` on `side` by positions and by histories, each with how many times the
/// bot was asked.
fn both_walks(
    make: impl Fn() -> Box<dyn Bot>,
    side: Player,
) -> ((SideReport, u64), (SideReport, u64)) {
    let walk = |memoryless| {
        let mut bot = make();
        let mut asked = Asked {
            bot: bot.as_mut(),
            memoryless,
            times: 0,
        };
        let report = audit(&mut asked, side).unwrap();
        (report, asked.times)
    };
    (walk(true), walk(false))
}

#[test]
fn every_memoryless_bot_gets_the_same_report_by_positions_as_by_histories() {
    let specs = CATALOG.iter().map(|info| info.name).chain([
        "casual:0.25",
        "casual:0.123",
        "epsilon:1/997",
    ]);
    for spec in specs {
        if !bots::from_spec(spec).unwrap().memoryless() {
            continue;
        }
        for side in Player::BOTH {
            let ((fast, asked), (slow, asked_per_history)) =
                both_walks(|| bots::from_spec(spec).unwrap(), side);
            assert_eq!(fast, slow, "{spec} as {side}");
            assert_eq!(asked_per_history, slow.decision_points, "{spec} as {side}");
            assert!(
                asked <= 4520 && asked < asked_per_history,
                "{spec} as {side}: {asked}"
            );
        }
    }
}

/// Boards other than tic-tac-toe's, small enough for every history, walked by their own rules:
/// the walk by positions there keeps where the perfect style gets and the evaluations it has
/// looked up, to spare lookups, which the history walk does not.
#[test]
fn other_games_get_the_same_report_by_positions_as_by_histories() {
    for game in ["2x4k3", "3x3k2", "2x4k2"] {
        let game: Game = game.parse().unwrap();
        for spec in ["random", "perfect", "tricky", "casual:0.25", "epsilon:1/7"] {
            for side in Player::BOTH {
                let walk = |memoryless| {
                    let mut bot = bots::from_spec(spec).unwrap();
                    let mut asked = Asked {
                        bot: bot.as_mut(),
                        memoryless,
                        times: 0,
                    };
                    let options = AuditOptions {
                        mistakes: usize::MAX,
                        ..AuditOptions::new(game, side)
                    };
                    match ttt_oracle::audit(&mut asked, &options).unwrap() {
                        Report::Solved(report) => (report, asked.times),
                        Report::Searched(report) => panic!("{game} has a table: {report:?}"),
                    }
                };
                let ((fast, asked), (slow, per_history)) = (walk(true), walk(false));
                assert_eq!(fast, slow, "{spec} as {side} on {game}");
                assert_eq!(
                    per_history, slow.decision_points,
                    "{spec} as {side} on {game}"
                );
                assert!(asked <= per_history, "{spec} as {side} on {game}");
            }
        }
    }
}

/// A memoryless bot with every quirk the auditor must count, chosen by the board: its choices
/// out of cell order, a cell offered twice, a taken cell, several marks, no move, a panic,
/// probabilities of several sizes.
struct Quirky;

impl Bot for Quirky {
    fn name(&self) -> &str {
        "quirky"
    }
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        let board = game.position();
        let legal: Vec<Cell> = board.legal_moves().iter().collect();
        let taken = cells().find(|&c| board.get(c).is_some());
        let n = legal.len() as u128;
        let each = |p: Ratio| Ratio::new(p.numer(), p.denom() * n);
        let mark = |cell, probability| Choice {
            turn: Turn::Mark(cell),
            probability,
        };
        // Backwards, so that the order of the choices is not the order of the cells.
        let backwards = |p: Ratio| legal.iter().rev().map(move |&c| mark(c, each(p)));
        let choices = match ((code(&board) + 5) % 13, taken) {
            (0, _) => Vec::new(),
            (1, _) if code(&board) % 3 == 0 => panic!("quirky gave up"),
            (2 | 3, Some(taken)) => std::iter::once(mark(taken, Ratio::new(1, 4)))
                .chain(backwards(Ratio::new(3, 4)))
                .collect(),
            (4, _) if n >= 2 => std::iter::once(Choice {
                turn: Turn::Several(vec![legal[1], legal[0]]),
                probability: Ratio::new(1, 3),
            })
            .chain(backwards(Ratio::new(2, 3)))
            .collect(),
            (5 | 6, _) => vec![
                mark(legal[0], Ratio::new(1, 2)),
                mark(legal[0], Ratio::new(1, 2)),
            ],
            (7, _) => vec![mark(legal[n as usize - 1], Ratio::ONE)],
            _ => backwards(Ratio::ONE).collect(),
        };
        Ok(choices)
    }
    fn memoryless(&self) -> bool {
        true
    }
}

#[test]
fn forfeits_panics_and_odd_choices_are_counted_alike_by_both_walks() {
    for side in Player::BOTH {
        let ((fast, asked), (slow, _)) = both_walks(|| Box::new(Quirky), side);
        assert_eq!(fast, slow, "{side}");
        assert!(asked < 4520, "{side}: {asked}");
        // Every kind of forfeit happened, and several games share the shortest length.
        assert!(
            fast.illegal_games > 100 && fast.losing_games > 100,
            "{fast:?}"
        );
        let line = fast.shortest_illegal.unwrap();
        if let Forfeit::Panic(message) = &line.what {
            let moves: Vec<Cell> = line.moves.clone();
            assert!(message.contains(&format!("{moves:?}")), "{message}");
        }
    }
}

/// Memoryless and random, but on its second move, once cell 9 is taken, it picks its first
/// cell with a chance finer than 64 bits can hold: too fine for one denominator a ply (met
/// partway through a ply), not for the histories' fractions.
struct FineLater;

/// 3^42, just over 2^64.
const FINE: u128 = 109_418_989_131_512_359_209;

impl Bot for FineLater {
    fn name(&self) -> &str {
        "fine-later"
    }
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        let board = game.position();
        let legal = board.legal_moves();
        let nine = Cell::from_number(9).unwrap();
        if !matches!(board.ply(), 2 | 3) || board.get(nine).is_none() {
            return Ok(Choice::uniform(legal));
        }
        let mark = |cell, probability| Choice {
            turn: Turn::Mark(cell),
            probability,
        };
        Ok(vec![
            mark(legal.first().unwrap(), Ratio::new(1, FINE)),
            mark(legal.iter().last().unwrap(), Ratio::new(FINE - 1, FINE)),
        ])
    }
    fn memoryless(&self) -> bool {
        true
    }
}

#[test]
fn probabilities_too_fine_for_positions_are_audited_by_histories() {
    assert!(FINE > u128::from(u64::MAX));
    for side in Player::BOTH {
        let ((fast, asked), (slow, asked_per_history)) = both_walks(|| Box::new(FineLater), side);
        assert_eq!(fast, slow, "{side}");
        let v = fast.vs_random;
        assert_eq!(v.win + v.draw + v.loss + v.illegal, Ratio::ONE);
        // The walk by positions gave up partway, and the histories were walked after it.
        assert!(
            asked > asked_per_history,
            "{side}: {asked} {asked_per_history}"
        );
        // What it left behind on this thread does not change the next audit by positions.
        let ((after, _), (expected, _)) = both_walks(|| bots::from_spec("random").unwrap(), side);
        assert_eq!(after, expected, "{side}");
    }
}
