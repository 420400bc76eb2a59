//! Matches against bots that break the rules, answer with probabilities too fine to count, or
//! fail: each ends as the rules say, never in a panic.

use ttt_oracle::AuditError;
use ttt_oracle::bots::{self, Bot, BotError, Choice, Turn};
use ttt_oracle::matchup::{MatchOptions, MatchReport};
use ttt_oracle::{Cell, History, Ratio, matchup};

/// What a rogue bot does instead of playing the first empty cell, where it does.
type Quirk = fn(&History) -> Option<Vec<Choice>>;

/// A bot that plays the first empty cell, except where `rogue` says otherwise.
struct Rogue {
    rogue: Quirk,
    memoryless: bool,
}

impl Bot for Rogue {
    fn name(&self) -> &str {
        "rogue"
    }

    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        Ok((self.rogue)(game)
            .unwrap_or_else(|| Choice::only(game.position().empty_cells().first())))
    }

    fn memoryless(&self) -> bool {
        self.memoryless
    }
}

fn play(x: &mut dyn Bot, o: &mut dyn Bot) -> MatchReport {
    matchup(x, o, &MatchOptions::default()).unwrap()
}

#[test]
fn each_way_of_breaking_the_rules_forfeits_for_the_side_that_broke_them() {
    let rogues: [Quirk; 4] = [
        // A taken cell on its second turn.
        |game| (game.moves().len() == 2).then(|| Choice::only(game.moves().first().copied())),
        |game| (game.moves().len() == 2).then(Vec::new),
        |game| {
            (game.moves().len() == 2).then(|| {
                vec![Choice::certain(Turn::Several(vec![
                    Cell::from_number(8).unwrap(),
                    Cell::from_number(9).unwrap(),
                ]))]
            })
        },
        |game| (game.moves().len() == 2).then(|| panic!("a bot that gives up")),
    ];
    let prior_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for (i, rogue) in rogues.into_iter().enumerate() {
        for memoryless in [false, true] {
            let mut x = Rogue { rogue, memoryless };
            let mut o = bots::builtin("newell-simon").unwrap();
            let report = play(&mut x, o.as_mut());
            assert_eq!(report.x_forfeits, Ratio::ONE, "rogue {i}");
            assert_eq!(report.games, 1, "rogue {i}");
        }
    }
    std::panic::set_hook(prior_hook);
    // Half the time a taken cell: half the games are forfeited, by O.
    let mut x = bots::builtin("newell-simon").unwrap();
    let mut o = Rogue {
        rogue: |game| {
            let taken = game.moves().first().copied();
            let free = game.position().empty_cells().first();
            Some(vec![
                Choice {
                    turn: Turn::Mark(taken.unwrap_or(Cell::from_number(1).unwrap())),
                    probability: Ratio::new(1, 2),
                },
                Choice {
                    turn: Turn::Mark(free.unwrap_or(Cell::from_number(1).unwrap())),
                    probability: Ratio::new(1, 2),
                },
            ])
        },
        memoryless: false,
    };
    let report = play(x.as_mut(), &mut o);
    // Against the first empty cell newell-simon wins in 7 plies (5 1 9 2 3 4 7), where O
    // moves three times: O keeps to the rules all three times with chance 1/8.
    assert_eq!(report.o_forfeits.to_string(), "7/8");
    assert_eq!(report.x_wins.to_string(), "1/8");
    assert_eq!(report.x_forfeits, Ratio::ZERO);
    assert_eq!(report.games, 4);
}

#[test]
fn probabilities_too_fine_for_128_bits_are_an_error_not_a_panic() {
    // The first empty cell with a chance of one in about 2^40, else the last: nine such
    // plies need a denominator of about 360 bits.
    let rogue = |game: &History| {
        let empty = game.position().empty_cells();
        let rare = Ratio::new(1, 1_099_511_627_791);
        let (first, last) = (empty.first()?, empty.iter().last()?);
        Some(vec![
            Choice {
                turn: Turn::Mark(first),
                probability: rare,
            },
            Choice {
                turn: Turn::Mark(last),
                probability: rare.complement(),
            },
        ])
    };
    for memoryless in [false, true] {
        let mut x = Rogue { rogue, memoryless };
        let mut o = Rogue { rogue, memoryless };
        assert_eq!(
            matchup(&mut x, &mut o, &MatchOptions::default()),
            Err(AuditError::Overflow)
        );
    }
}

#[test]
fn a_protocol_error_stops_the_match_and_names_the_bot() {
    struct Broken;
    impl Bot for Broken {
        fn name(&self) -> &str {
            "broken"
        }
        fn choose(&mut self, _: &History) -> Result<Vec<Choice>, BotError> {
            Err(BotError {
                message: "broken bot".to_string(),
            })
        }
    }
    let mut perfect = bots::builtin("perfect").unwrap();
    let error = matchup(perfect.as_mut(), &mut Broken, &MatchOptions::default()).unwrap_err();
    assert_eq!(error.to_string(), "broken bot");
    assert!(matches!(error, AuditError::Bot(_)));
}
