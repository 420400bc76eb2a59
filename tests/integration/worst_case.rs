//! The worst case and the odds against the perfect style, checked against a plain recursion over
//! every history written here from the definitions, for every built-in bot and a few styles.

use crate::common;

use common::audit_3x3 as audit;

use ttt_oracle::bots::{self, Bot, CATALOG, Turn};
use ttt_oracle::{Game, History, Oracle, Outcome, Player, Ratio, Status};

fn specs() -> Vec<&'static str> {
    CATALOG
        .iter()
        .map(|info| info.name)
        .chain(["casual:1/3", "epsilon:0.1"])
        .collect()
}

/// The most an opponent who knows `bot` makes it lose or forfeit from `game`: the opponent
/// takes the reply that leaves the most, the bot's choices are averaged by their probabilities.
fn worst(bot: &mut dyn Bot, game: &mut History, side: Player) -> Ratio {
    let board = game.position();
    if let Status::Finished(outcome) = board.status() {
        return match outcome {
            Outcome::Win(winner) if winner != side => Ratio::ONE,
            _ => Ratio::ZERO,
        };
    }
    if board.to_move() != side {
        let mut most = Ratio::ZERO;
        for cell in board.legal_moves() {
            game.play(cell).unwrap();
            most = most.max(worst(bot, game, side));
            game.undo();
        }
        return most;
    }
    let choices = bot.choose(game).unwrap();
    if choices.is_empty() {
        return Ratio::ONE;
    }
    let mut sum = Ratio::ZERO;
    for choice in choices {
        let value = match choice.turn {
            Turn::Mark(cell) if board.get(cell).is_none() => {
                game.play(cell).unwrap();
                let value = worst(bot, game, side);
                game.undo();
                value
            }
            _ => Ratio::ONE,
        };
        sum += choice.probability * value;
    }
    sum
}

/// The odds (win, draw, loss, forfeit) for `bot` against an opponent choosing uniformly among
/// the table's optimal moves.
fn against_perfect(bot: &mut dyn Bot, game: &mut History, side: Player) -> [Ratio; 4] {
    let board = game.position();
    let end = |at: usize| {
        let mut odds = [Ratio::ZERO; 4];
        odds[at] = Ratio::ONE;
        odds
    };
    if let Status::Finished(outcome) = board.status() {
        return end(match outcome {
            Outcome::Win(winner) if winner == side => 0,
            Outcome::Draw => 1,
            Outcome::Win(_) => 2,
        });
    }
    let mut odds = [Ratio::ZERO; 4];
    let mut add = |weight: Ratio, part: [Ratio; 4]| {
        for (total, p) in odds.iter_mut().zip(part) {
            *total += weight * p;
        }
    };
    if board.to_move() != side {
        let best = Oracle::of(Game::TIC_TAC_TOE).unwrap().best_moves(&board);
        let share = Ratio::new(1, best.len() as u128);
        for cell in best {
            game.play(cell).unwrap();
            add(share, against_perfect(bot, game, side));
            game.undo();
        }
        return odds;
    }
    let choices = bot.choose(game).unwrap();
    if choices.is_empty() {
        return end(3);
    }
    for choice in choices {
        let part = match choice.turn {
            Turn::Mark(cell) if board.get(cell).is_none() => {
                game.play(cell).unwrap();
                let part = against_perfect(bot, game, side);
                game.undo();
                part
            }
            _ => end(3),
        };
        add(choice.probability, part);
    }
    odds
}

/// Whether every answer of `bot` on `side` is a single certain turn.
fn deterministic(bot: &mut dyn Bot, game: &mut History, side: Player) -> bool {
    let board = game.position();
    if board.status() != Status::InProgress {
        return true;
    }
    if board.to_move() != side {
        return board.legal_moves().into_iter().all(|cell| {
            game.play(cell).unwrap();
            let all = deterministic(bot, game, side);
            game.undo();
            all
        });
    }
    let choices = bot.choose(game).unwrap();
    match choices.as_slice() {
        [only] if only.probability == Ratio::ONE => match only.turn {
            Turn::Mark(cell) if board.get(cell).is_none() => {
                game.play(cell).unwrap();
                let all = deterministic(bot, game, side);
                game.undo();
                all
            }
            _ => true,
        },
        _ => false,
    }
}

#[test]
fn the_worst_case_and_the_odds_against_perfect_match_the_definitions() {
    for spec in specs() {
        for side in Player::BOTH {
            let report = audit(bots::from_spec(spec).unwrap().as_mut(), side).unwrap();
            let mut bot = bots::from_spec(spec).unwrap();
            let expected = worst(bot.as_mut(), &mut History::new(), side);
            assert_eq!(report.worst_case.loss, expected, "{spec} as {side}");
            let [win, draw, loss, illegal] =
                against_perfect(bot.as_mut(), &mut History::new(), side);
            let odds = report.vs_perfect;
            assert_eq!(
                [odds.win, odds.draw, odds.loss, odds.illegal],
                [win, draw, loss, illegal],
                "{spec} as {side}"
            );
            assert_eq!(win + draw + loss + illegal, Ratio::ONE, "{spec} as {side}");
        }
    }
}

#[test]
fn a_bot_that_never_loses_has_no_worst_case_and_a_deterministic_loser_loses_for_sure() {
    for spec in specs() {
        for side in Player::BOTH {
            let report = audit(bots::from_spec(spec).unwrap().as_mut(), side).unwrap();
            let worst = &report.worst_case;
            if report.never_loses() {
                assert_eq!(worst.loss, Ratio::ZERO, "{spec} as {side}");
                assert!(worst.line.is_empty(), "{spec} as {side}");
                continue;
            }
            assert!(worst.loss > Ratio::ZERO, "{spec} as {side}");
            let mut bot = bots::from_spec(spec).unwrap();
            if deterministic(bot.as_mut(), &mut History::new(), side) {
                assert_eq!(worst.loss, Ratio::ONE, "{spec} as {side}");
            }
        }
    }
    // The built-in bots that can lose are all randomised: a rule bot that plays the first
    // empty cell is not.
    for side in Player::BOTH {
        let report = audit(&mut FirstEmpty, side).unwrap();
        assert!(!report.never_loses());
        assert!(deterministic(&mut FirstEmpty, &mut History::new(), side));
        assert_eq!(report.worst_case.loss, Ratio::ONE, "as {side}");
        let shortest = report.shortest_loss.unwrap().moves.len();
        assert!(report.worst_case.line.len() >= shortest);
    }
}

/// Plays the first empty cell: deterministic, and easy to beat.
struct FirstEmpty;

impl Bot for FirstEmpty {
    fn name(&self) -> &str {
        "first-empty"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<bots::Choice>, bots::BotError> {
        let cell = game.position().legal_moves().into_iter().next().unwrap();
        Ok(vec![bots::Choice::certain(Turn::Mark(cell))])
    }
}

#[test]
fn the_worst_case_line_is_a_game_the_bot_loses_or_forfeits_next() {
    for spec in specs() {
        for side in Player::BOTH {
            let report = audit(bots::from_spec(spec).unwrap().as_mut(), side).unwrap();
            let line = &report.worst_case.line;
            if line.is_empty() {
                continue;
            }
            let mut game = History::new();
            for &cell in line {
                game.play(cell).expect("a legal game");
            }
            let board = game.position();
            match board.status() {
                Status::Finished(outcome) => {
                    assert_eq!(outcome, Outcome::Win(!side), "{spec} as {side}: {line:?}");
                }
                Status::InProgress => {
                    // Stopped before the bot's turn: one of its choices there forfeits.
                    assert_eq!(board.to_move(), side, "{spec} as {side}: {line:?}");
                    let mut bot = bots::from_spec(spec).unwrap();
                    let choices = bot.choose(&game).unwrap();
                    assert!(
                        choices.is_empty()
                            || choices.iter().any(|c| !matches!(c.turn,
                                Turn::Mark(cell) if board.get(cell).is_none())),
                        "{spec} as {side}: {line:?}"
                    );
                }
            }
        }
    }
}
