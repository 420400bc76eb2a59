//! The games a bot loses or forfeits, handed on one by one: the same games the audit counts,
//! with a bot that panics or fails on one board.

use ttt_oracle::audit::{LostGame, Report, SideReport, losing_games};
use ttt_oracle::bots::{Bot, BotError, CATALOG, Choice, from_spec};
use ttt_oracle::{AuditError, AuditOptions, Cell, History, Player, audit};

/// A memoryless bot that plays the first empty cell, except on `trigger`: there it panics,
/// or fails to answer at all. It counts the questions on the trigger and the calls to
/// `finish`.
struct Rogue {
    trigger: &'static str,
    panics: bool,
    asked: usize,
    finished: usize,
}

impl Rogue {
    fn new(trigger: &'static str, panics: bool) -> Rogue {
        Rogue {
            trigger,
            panics,
            asked: 0,
            finished: 0,
        }
    }
}

impl Bot for Rogue {
    fn name(&self) -> &str {
        "rogue"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        if game.position().to_string() == self.trigger {
            self.asked += 1;
            if self.panics {
                panic!("a deliberate panic");
            }
            return Err(BotError {
                message: "no answer".to_string(),
            });
        }
        Ok(Choice::only(game.position().legal_moves().first()))
    }

    fn memoryless(&self) -> bool {
        true
    }

    fn finish(&mut self) -> Result<(), BotError> {
        self.finished += 1;
        Ok(())
    }
}

fn opts(side: Player) -> AuditOptions {
    AuditOptions {
        side,
        ..AuditOptions::default()
    }
}

fn numbers(moves: &[Cell]) -> Vec<u8> {
    moves.iter().map(|cell| cell.number()).collect()
}

/// Every game of `bot` as `side`, and the audit's report.
fn games_and_report(spec: &str, side: Player) -> (Vec<LostGame>, SideReport) {
    let mut bot = from_spec(spec).unwrap();
    let mut games = Vec::new();
    losing_games(bot.as_mut(), &opts(side), |game| {
        games.push(game);
        Ok::<(), AuditError>(())
    })
    .unwrap();
    match audit(bot.as_mut(), &opts(side)).unwrap() {
        Report::Solved(report) => (games, report),
        other => panic!("{other:?}"),
    }
}

/// The first of the shortest games that `pick` takes.
fn first_shortest<T: Clone>(
    games: &[LostGame],
    pick: impl Fn(&LostGame) -> Option<&T>,
) -> Option<T> {
    let mut shortest: Option<(usize, &T)> = None;
    for game in games {
        if let Some(line) = pick(game) {
            if shortest.is_none_or(|(len, _)| game.moves().len() < len) {
                shortest = Some((game.moves().len(), line));
            }
        }
    }
    shortest.map(|(_, line)| line.clone())
}

#[test]
fn every_built_in_bots_games_are_the_audits() {
    let specs = CATALOG
        .iter()
        .map(|info| info.name)
        .chain(["casual:0.25", "epsilon:0.1"]);
    for spec in specs {
        for side in Player::BOTH {
            let (games, report) = games_and_report(spec, side);
            let (losses, forfeits): (Vec<&LostGame>, Vec<&LostGame>) =
                games.iter().partition(|g| matches!(g, LostGame::Loss(_)));
            assert_eq!(losses.len() as u64, report.losing_games, "{spec} as {side}");
            assert_eq!(
                forfeits.len() as u64,
                report.illegal_games,
                "{spec} as {side}"
            );
            let loss = first_shortest(&games, |g| match g {
                LostGame::Loss(line) => Some(line),
                LostGame::Forfeit(_) => None,
            });
            assert_eq!(loss, report.shortest_loss, "{spec} as {side}");
            let forfeit = first_shortest(&games, |g| match g {
                LostGame::Forfeit(line) => Some(line),
                LostGame::Loss(_) => None,
            });
            assert_eq!(forfeit, report.shortest_illegal, "{spec} as {side}");
        }
    }
}

#[test]
fn a_memoryless_bot_is_asked_again_where_it_panicked() {
    // O answers X 3 and X 9 alike, with 1: two histories reach X 3, O 1, X 9.
    let mut rogue = Rogue::new("O.X.....X", true);
    let prior_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut forfeits = Vec::new();
    let mut losses = 0;
    losing_games(&mut rogue, &opts(Player::O), |game| {
        match game {
            LostGame::Forfeit(line) => forfeits.push(line),
            LostGame::Loss(_) => losses += 1,
        }
        Ok::<(), AuditError>(())
    })
    .unwrap();
    std::panic::set_hook(prior_hook);
    assert_eq!(rogue.asked, 2);
    assert!(losses > 0);
    let lines: Vec<(Vec<u8>, String)> = forfeits
        .iter()
        .map(|line| (numbers(&line.moves), line.what.to_string()))
        .collect();
    let message =
        |moves: &str| format!("panicked: a deliberate panic (on board O.X.....X, moves [{moves}])");
    assert_eq!(
        lines,
        [
            (vec![3, 1, 9], message("Cell(3), Cell(1), Cell(9)")),
            (vec![9, 1, 3], message("Cell(9), Cell(1), Cell(3)")),
        ]
    );
    assert_eq!(rogue.finished, 1);
}

#[test]
fn a_bot_error_stops_the_walk() {
    let mut rogue = Rogue::new("O.X.....X", false);
    let error = losing_games(&mut rogue, &opts(Player::O), |_| Ok::<(), AuditError>(()));
    let Err(AuditError::Bot(error)) = error else {
        panic!("{error:?}")
    };
    assert_eq!(error.message, "no answer");
    assert_eq!(rogue.asked, 1, "asked once, then stopped");
    assert_eq!(
        rogue.finished, 0,
        "not finished, as audit does not after an error"
    );
}

#[test]
fn a_sink_error_stops_the_walk_and_finishes_the_bot() {
    let mut rogue = Rogue::new("never", false);
    let mut seen = 0;
    let stopped = losing_games(&mut rogue, &opts(Player::X), |_| {
        seen += 1;
        match seen {
            3 => Err(AuditError::Bot(BotError {
                message: "enough".to_string(),
            })),
            _ => Ok(()),
        }
    });
    assert_eq!(stopped.unwrap_err().to_string(), "enough");
    assert_eq!((seen, rogue.finished), (3, 1));
}
