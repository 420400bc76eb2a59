//! The audit without a table against the audit with one, on tic-tac-toe: the same figures for
//! every figure it gives.

use crate::common;

use common::audit_3x3 as audit;

use common::blocks_unsaid::BlocksUnsaid;
use ttt_oracle::audit::{AuditBudget, Shortest, audit_tableless};
use ttt_oracle::bots;
use ttt_oracle::{Game, Player};

#[test]
fn equals_the_table_audit_on_tic_tac_toe() {
    for name in [
        "marcelo",
        "random",
        "smartbot",
        "perfect",
        "forkbot",
        "geeks-minimax",
        "casual:0.25",
    ] {
        for side in [Player::X, Player::O] {
            let mut bot = bots::from_spec(name).unwrap();
            let with = audit(bot.as_mut(), side).unwrap();
            let mut bot = bots::from_spec(name).unwrap();
            let without =
                audit_tableless(bot.as_mut(), Game::TIC_TAC_TOE, side, AuditBudget::DEFAULT)
                    .unwrap();
            let what = format!("{name} as {side:?}");
            assert_eq!(without.verdict(), Some(with.verdict()), "{what}");
            let counts = without.counts.expect("tic-tac-toe fits the budget");
            assert_eq!(counts.decision_points, with.decision_points, "{what}");
            assert_eq!(counts.games, with.games, "{what}");
            assert_eq!(counts.losing_games, with.losing_games, "{what}");
            assert_eq!(counts.illegal_games, with.illegal_games, "{what}");
            assert_eq!(without.vs_random, Some(with.vs_random), "{what}");
            let loss = without.shortest_loss.line().map(|line| &line.moves);
            assert_eq!(
                loss,
                with.shortest_loss.as_ref().map(|l| &l.moves),
                "{what}"
            );
            assert_eq!(
                without.shortest_illegal.line(),
                with.shortest_illegal.as_ref(),
                "{what}"
            );
        }
    }
}

#[test]
fn the_searches_give_the_walks_shortest_lines_on_tic_tac_toe() {
    // A budget far too small for the exhaustive walk: the searches still find the shortest
    // lines the table audit finds, the first in its order among the shortest.
    for name in ["marcelo", "random", "smartbot", "perfect", "forkbot"] {
        for side in [Player::X, Player::O] {
            let mut bot = bots::from_spec(name).unwrap();
            let with = audit(bot.as_mut(), side).unwrap();
            let mut bot = bots::from_spec(name).unwrap();
            let small = AuditBudget {
                states: 1,
                searched: 1_000_000,
            };
            let searched = audit_tableless(bot.as_mut(), Game::TIC_TAC_TOE, side, small).unwrap();
            let what = format!("{name} as {side:?}");
            assert_eq!(searched.counts, None, "{what}");
            assert_eq!(searched.verdict(), Some(with.verdict()), "{what}");
            match &searched.shortest_loss {
                Shortest::Line(line) => assert_eq!(
                    Some(&line.moves),
                    with.shortest_loss.as_ref().map(|l| &l.moves),
                    "{what}"
                ),
                Shortest::Never => assert!(with.shortest_loss.is_none(), "{what}"),
                Shortest::Unsettled { .. } => {}
            }
            match &searched.shortest_illegal {
                Shortest::Line(line) => {
                    assert_eq!(Some(line), with.shortest_illegal.as_ref(), "{what}")
                }
                Shortest::Never => assert!(with.shortest_illegal.is_none(), "{what}"),
                Shortest::Unsettled { .. } => {}
            }
        }
    }
}

/// Seconds in a release build, minutes in a debug one: `.ci/run` runs it in release.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "seconds in release, minutes in debug; .ci/run runs it in release"
)]
fn the_searches_agree_with_the_walk_when_the_budget_is_too_small_for_it() {
    // A budget too small for the exhaustive walk of marcelo's 5x5 games: the searches still
    // find the same shortest lines.
    let five: Game = "5x5".parse().unwrap();
    for side in [Player::X, Player::O] {
        let mut bot = bots::builtin("marcelo").unwrap();
        let full = audit_tableless(bot.as_mut(), five, side, AuditBudget::DEFAULT).unwrap();
        assert!(full.counts.is_some());
        let mut bot = bots::builtin("marcelo").unwrap();
        let small = AuditBudget {
            states: full.states / 2,
            searched: full.states / 2,
        };
        let searched = audit_tableless(bot.as_mut(), five, side, small).unwrap();
        assert_eq!(searched.counts, None);
        assert_eq!(searched.vs_random, None);
        assert_eq!(searched.shortest_illegal, full.shortest_illegal, "{side:?}");
        // The search for a loss knows marcelo blocks lone threats: it settles the loss too,
        // and finds the walk's, though it leaves every line where no fork can come in time.
        assert!(full.shortest_loss.line().is_some(), "{side:?}");
        assert_eq!(searched.shortest_loss, full.shortest_loss, "{side:?}");
        // So does the search that knows only that a line must be filled, given room.
        let mut unsaid = BlocksUnsaid(bots::builtin("marcelo").unwrap());
        let room = AuditBudget {
            states: 1,
            searched: 20_000_000,
        };
        let searched = audit_tableless(&mut unsaid, five, side, room).unwrap();
        assert_eq!(searched.shortest_loss, full.shortest_loss, "{side:?}");
    }
}

/// Seconds in a release build, minutes in a debug one: `.ci/run` runs it in release.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "seconds in release, minutes in debug; .ci/run runs it in release"
)]
fn marcelo_loses_on_seven_by_seven_to_a_fork_as_soon_as_one_can_come() {
    // marcelo blocks every lone threat, so its opponent needs two lines filled but for one
    // cell each, 11 marks, then a 12th: 23 plies as O, 24 as X. The search finds a loss that
    // long on either side (the walk, far too large here, is given no room), and the shortest
    // forfeits the default budget settles, 8 plies as X and 9 as O (docs/performance.md).
    let seven: Game = "7x7".parse().unwrap();
    let budget = AuditBudget {
        states: 1,
        searched: AuditBudget::DEFAULT.searched,
    };
    for (side, plies, forfeit) in [(Player::X, 24, 8), (Player::O, 23, 9)] {
        let mut bot = bots::builtin("marcelo").unwrap();
        let report = audit_tableless(bot.as_mut(), seven, side, budget).unwrap();
        let Shortest::Line(loss) = &report.shortest_loss else {
            panic!("{side:?}: {:?}", report.shortest_loss);
        };
        assert_eq!(loss.moves.len(), plies, "{side:?}");
        // A real game: the bot chose each of its moves, and the opponent's last made a line.
        let mut game = ttt_oracle::History::empty(seven);
        for &cell in &loss.moves {
            if game.position().to_move() == side {
                let choices = bot.choose(&game).unwrap();
                let chosen = choices
                    .iter()
                    .any(|c| c.turn == ttt_oracle::bots::Turn::Mark(cell));
                assert!(
                    chosen,
                    "{side:?}: the bot does not play {cell:?} after {:?}",
                    game.moves()
                );
            }
            game.play(cell).unwrap();
        }
        assert_eq!(game.position().winner(), Some(!side), "{side:?}");
        assert_eq!(
            report.verdict(),
            Some(ttt_oracle::audit::Verdict::CanLoseAndBreaksRules),
            "{side:?}"
        );
        let forfeited = report.shortest_illegal.line().map(|line| line.moves.len());
        assert_eq!(forfeited, Some(forfeit), "{side:?}");
    }
}
