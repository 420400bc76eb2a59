//! The audit without a table against the audit with one, on tic-tac-toe: the same figures for
//! every figure it gives.

use ttt_oracle::{AuditBudget, Mnk, Player, Shortest, audit, audit_tableless, bots};

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
                audit_tableless(bot.as_mut(), Mnk::TIC_TAC_TOE, side, AuditBudget::DEFAULT)
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
            let searched = audit_tableless(bot.as_mut(), Mnk::TIC_TAC_TOE, side, small).unwrap();
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

/// Seconds in a release build, minutes in a debug one: run by `cargo test --release`.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a release build takes seconds, a debug one minutes"
)]
fn the_searches_agree_with_the_walk_when_the_budget_is_too_small_for_it() {
    // A budget too small for the exhaustive walk of marcelo's 5x5 games: the searches still
    // find the same shortest lines.
    let five: Mnk = "5x5".parse().unwrap();
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
        match (&searched.shortest_loss, &full.shortest_loss) {
            (Shortest::Unsettled { .. }, _) => {}
            (searched, full) => assert_eq!(searched, full, "{side:?}"),
        }
    }
}
