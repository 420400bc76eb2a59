//! Exact matches between bots, through the library: against games played out, against the
//! audit's odds, and against a walk of every history written here.

use ttt_oracle::bots::{self, Bot, BotError, CATALOG, Choice, Turn};
use ttt_oracle::{Game, MatchReport, Outcome, Player, Ratio, Status, audit, matchup};

/// Every built-in bot, and styles with coarse and fine probabilities.
fn specs() -> Vec<&'static str> {
    CATALOG
        .iter()
        .map(|info| info.name)
        .chain(["casual:0.25", "casual:1/3", "epsilon:0.1", "epsilon:1/997"])
        .collect()
}

fn make(spec: &str) -> Box<dyn Bot + Send> {
    bots::from_spec(spec).unwrap()
}

fn play(x: &str, o: &str) -> MatchReport {
    matchup(make(x).as_mut(), make(o).as_mut()).unwrap()
}

/// The five chances, X wins first.
fn chances(r: &MatchReport) -> [Ratio; 5] {
    [r.x_wins, r.draws, r.o_wins, r.x_forfeits, r.o_forfeits]
}

/// How a game ended, as an index into [`chances`].
fn end(outcome: Outcome) -> usize {
    match outcome {
        Outcome::Win(Player::X) => 0,
        Outcome::Draw => 1,
        Outcome::Win(Player::O) => 2,
    }
}

fn forfeit(side: Player) -> usize {
    match side {
        Player::X => 3,
        Player::O => 4,
    }
}

/// The one game `x` and `o` play when neither has a choice to make in it: how it ends, or
/// `None` when a bot offers more than one move somewhere along it.
fn the_one_game(x: &mut dyn Bot, o: &mut dyn Bot) -> Option<usize> {
    let mut game = Game::new();
    loop {
        let board = game.board();
        if let Status::Finished(outcome) = board.status() {
            return Some(end(outcome));
        }
        let side = board.to_move();
        let choices = match side {
            Player::X => x.choose(&game),
            Player::O => o.choose(&game),
        }
        .unwrap();
        match choices.as_slice() {
            [] => return Some(forfeit(side)),
            [only] => match only.turn {
                Turn::Mark(cell) if board.get(cell).is_none() => game.play(cell).unwrap(),
                _ => return Some(forfeit(side)),
            },
            _ => return None,
        }
    }
}

#[test]
fn a_deterministic_pair_plays_its_one_game_with_certainty() {
    let mut pairs = Vec::new();
    for x in specs() {
        for o in specs() {
            let Some(end) = the_one_game(make(x).as_mut(), make(o).as_mut()) else {
                continue;
            };
            let report = play(x, o);
            assert_eq!(report.games, 1, "{x} against {o}");
            let mut expected = [Ratio::ZERO; 5];
            expected[end] = Ratio::ONE;
            assert_eq!(chances(&report), expected, "{x} against {o}");
            pairs.push((x, o));
        }
    }
    // Every pair of the bots that never choose at random is among them.
    let deterministic = [
        "geeks-minimax",
        "geeks-minimax-depth",
        "c-minimax",
        "forkbot",
        "newell-simon",
    ];
    for x in deterministic {
        for o in deterministic {
            assert!(pairs.contains(&(x, o)), "{x} against {o}");
        }
    }
}

#[test]
fn against_random_each_bot_has_the_odds_its_audit_gives() {
    for spec in specs() {
        let x = audit(make(spec).as_mut(), Player::X).unwrap();
        let as_x = play(spec, "random");
        let v = x.vs_random;
        assert_eq!(
            chances(&as_x),
            [v.win, v.draw, v.loss, v.illegal, Ratio::ZERO],
            "{spec} as X"
        );
        assert_eq!(as_x.games, x.games, "{spec} as X");
        let o = audit(make(spec).as_mut(), Player::O).unwrap();
        let as_o = play("random", spec);
        let v = o.vs_random;
        assert_eq!(
            chances(&as_o),
            [v.loss, v.draw, v.win, Ratio::ZERO, v.illegal],
            "{spec} as O"
        );
        assert_eq!(as_o.games, o.games, "{spec} as O");
    }
}

/// Every history of the match, depth first, each chance a fraction reduced as it goes: the
/// games and the chance of each way a game ends, computed without the library's walk.
fn every_history(x: &mut dyn Bot, o: &mut dyn Bot) -> (u64, [Ratio; 5]) {
    fn visit(
        bots: &mut [&mut dyn Bot; 2],
        game: &mut Game,
        chance: Ratio,
        tally: &mut (u64, [Ratio; 5]),
    ) {
        let board = game.board();
        if let Status::Finished(outcome) = board.status() {
            tally.0 += 1;
            tally.1[end(outcome)] += chance;
            return;
        }
        let side = board.to_move();
        let choices = bots[usize::from(side == Player::O)].choose(game).unwrap();
        if choices.is_empty() {
            tally.0 += 1;
            tally.1[forfeit(side)] += chance;
        }
        for Choice { turn, probability } in choices {
            let chance = chance * probability;
            match turn {
                Turn::Mark(cell) if board.get(cell).is_none() => {
                    game.play(cell).unwrap();
                    visit(bots, game, chance, tally);
                    game.undo();
                }
                _ => {
                    tally.0 += 1;
                    tally.1[forfeit(side)] += chance;
                }
            }
        }
    }
    let mut tally = (0, [Ratio::ZERO; 5]);
    visit(&mut [x, o], &mut Game::new(), Ratio::ONE, &mut tally);
    tally
}

/// A bot that does not say it is memoryless, so that a match with it walks every history.
struct ByHistories(Box<dyn Bot + Send>);

impl Bot for ByHistories {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn choose(&mut self, game: &Game) -> Result<Vec<Choice>, BotError> {
        self.0.choose(game)
    }
}

#[test]
fn every_match_agrees_with_a_walk_of_every_history_and_adds_up_to_one() {
    let mut by_positions = 0;
    for x in specs() {
        for o in specs() {
            let report = play(x, o);
            let expected = every_history(make(x).as_mut(), make(o).as_mut());
            assert_eq!(
                (report.games, chances(&report)),
                expected,
                "{x} against {o}"
            );
            let total = chances(&report).into_iter().fold(Ratio::ZERO, |a, b| a + b);
            assert_eq!(total, Ratio::ONE, "{x} against {o}");
            // The walk by positions, for two memoryless bots, and by histories agree.
            if make(x).memoryless() && make(o).memoryless() {
                by_positions += 1;
                let histories =
                    matchup(&mut ByHistories(make(x)), &mut ByHistories(make(o))).unwrap();
                assert_eq!(histories, report, "{x} against {o}");
            }
        }
    }
    assert_eq!(by_positions, 12 * 12);
}
