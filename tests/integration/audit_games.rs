//! The auditor and the exact match on m,n,k games other than tic-tac-toe: the library against an
//! independent walk of every history, and `ttt audit --game` / `ttt match --game` through the
//! real binary.

use crate::common;

use assert_cmd::Command;
use common::by_histories::ByHistories;
use predicates::prelude::*;
use ttt_oracle::audit::{AuditBudget, LostGame, Report, SideReport, losing_games};
use ttt_oracle::bots::{self, Bot, BotError, Choice, Turn};
use ttt_oracle::{
    AuditError, AuditOptions, Cell, Game, History, Oracle, Outcome, Player, Ratio, Status, matchup,
    matchup::{MatchOptions, MatchReport},
};

/// The audit of `bot` playing `side` of `game`, a game with a table, judged by that table.
fn audit_game(bot: &mut dyn Bot, game: Game, side: Player) -> Result<SideReport, AuditError> {
    let options = AuditOptions {
        game,
        side,
        ..AuditOptions::default()
    };
    match ttt_oracle::audit(bot, &options)? {
        Report::Solved(report) => Ok(report),
        Report::Searched(report) => panic!("{game} was searched without a table: {report:?}"),
    }
}

/// The exact match of `x` against `o` on `game`.
fn matchup_game(x: &mut dyn Bot, o: &mut dyn Bot, game: Game) -> Result<MatchReport, AuditError> {
    let options = MatchOptions {
        game,
        ..MatchOptions::default()
    };
    matchup(x, o, &options)
}

fn ttt() -> Command {
    Command::new(crate::common::ttt())
}

fn game(name: &str) -> Game {
    name.parse().unwrap()
}

/// Plays the first empty cell, on any board: a bot anyone would write first, and lose with.
struct FirstEmpty;

impl Bot for FirstEmpty {
    fn name(&self) -> &str {
        "first-empty"
    }
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        let cell = game.legal_moves().first().unwrap();
        Ok(vec![Choice::certain(Turn::Mark(cell))])
    }
    fn plays(&self, _: Game) -> Result<(), BotError> {
        Ok(())
    }
}

/// What a walk of every history, written here apart from the auditor, finds for a bot that
/// keeps to the rules: games, losses, the length of the shortest loss and the odds against a
/// uniformly random opponent.
#[derive(Debug, PartialEq)]
struct Walked {
    decision_points: u64,
    games: u64,
    losing_games: u64,
    shortest_loss: Option<usize>,
    win: Ratio,
    draw: Ratio,
    loss: Ratio,
}

impl Walked {
    const NOTHING: Walked = Walked {
        decision_points: 0,
        games: 0,
        losing_games: 0,
        shortest_loss: None,
        win: Ratio::ZERO,
        draw: Ratio::ZERO,
        loss: Ratio::ZERO,
    };
}

fn walk(bot: &mut dyn Bot, side: Player, game: &mut History, chance: Ratio, found: &mut Walked) {
    match game.position().status() {
        Status::Finished(outcome) => {
            found.games += 1;
            match outcome {
                Outcome::Draw => found.draw += chance,
                Outcome::Win(winner) if winner == side => found.win += chance,
                Outcome::Win(_) => {
                    found.loss += chance;
                    found.losing_games += 1;
                    let plies = game.moves().len();
                    found.shortest_loss = Some(found.shortest_loss.map_or(plies, |s| s.min(plies)));
                }
            }
        }
        Status::InProgress if game.position().to_move() == side => {
            found.decision_points += 1;
            for choice in bot.choose(game).unwrap() {
                let Turn::Mark(cell) = choice.turn else {
                    panic!("the bot broke the rules");
                };
                game.play(cell).unwrap();
                walk(bot, side, game, chance * choice.probability, found);
                game.undo();
            }
        }
        Status::InProgress => {
            let replies = game.legal_moves();
            let each = chance * Ratio::new(1, replies.len() as u128);
            for cell in replies {
                game.play(cell).unwrap();
                walk(bot, side, game, each, found);
                game.undo();
            }
        }
    }
}

/// The odds of `bot` playing `side` against the perfect style (each optimal move of the
/// game's table equally likely), by a walk of every history: win, draw, loss.
fn against_perfect(
    bot: &mut dyn Bot,
    side: Player,
    game: &mut History,
    chance: Ratio,
) -> [Ratio; 3] {
    let position = game.position();
    match position.status() {
        Status::Finished(Outcome::Draw) => [Ratio::ZERO, chance, Ratio::ZERO],
        Status::Finished(Outcome::Win(winner)) if winner == side => {
            [chance, Ratio::ZERO, Ratio::ZERO]
        }
        Status::Finished(_) => [Ratio::ZERO, Ratio::ZERO, chance],
        Status::InProgress => {
            let turns: Vec<(Cell, Ratio)> = if position.to_move() == side {
                let choices = bot.choose(game).unwrap();
                choices
                    .into_iter()
                    .map(|choice| match choice.turn {
                        Turn::Mark(cell) => (cell, choice.probability),
                        _ => panic!("the bot broke the rules"),
                    })
                    .collect()
            } else {
                let best = Oracle::of(game.game()).unwrap().best_moves(&position);
                let each = Ratio::new(1, best.len() as u128);
                best.iter().map(|cell| (cell, each)).collect()
            };
            let mut odds = [Ratio::ZERO; 3];
            for (cell, p) in turns {
                game.play(cell).unwrap();
                let after = against_perfect(bot, side, game, chance * p);
                game.undo();
                for (total, part) in odds.iter_mut().zip(after) {
                    *total += part;
                }
            }
            odds
        }
    }
}

#[test]
fn odds_against_perfect_count_the_wins_of_a_side_that_wins_the_game() {
    // 3x3k2, 2x4k3 and 3x4 are first-player wins: a bot that plays X perfectly wins them all
    // against the perfect style, and the auditor must say so (tic-tac-toe, a draw, never
    // showed it). Both walks, by positions and by histories, against a walk written here.
    for name in ["3x3k2", "2x4k3", "2x3k2"] {
        let game = game(name);
        for bot in ["perfect", "random", "epsilon:0.2"] {
            for side in Player::BOTH {
                let mut b = bots::from_spec(bot).unwrap();
                let report = audit_game(b.as_mut(), game, side).unwrap();
                let [win, draw, loss] =
                    against_perfect(b.as_mut(), side, &mut History::empty(game), Ratio::ONE);
                let odds = &report.vs_perfect;
                assert_eq!(
                    [odds.win, odds.draw, odds.loss],
                    [win, draw, loss],
                    "{bot} as {side} on {game}"
                );
                let mut by_histories = ByHistories(bots::from_spec(bot).unwrap());
                let walked = audit_game(&mut by_histories, game, side).unwrap();
                assert_eq!(
                    walked.vs_perfect, report.vs_perfect,
                    "{bot} as {side} on {game}"
                );
            }
        }
    }
    let mut perfect = bots::builtin("perfect").unwrap();
    let x = audit_game(perfect.as_mut(), game("3x4"), Player::X).unwrap();
    assert_eq!(x.vs_perfect.win, Ratio::ONE);
}

#[test]
fn audits_of_small_games_agree_with_a_walk_of_every_history() {
    for name in ["2x2k2", "2x3k2", "3x3k2", "2x4k3", "3x3k3", "1x5k3"] {
        let game = game(name);
        for bot in ["perfect", "random", "tricky", "casual:0.3", "epsilon:0.2"] {
            for side in Player::BOTH {
                let mut b = bots::from_spec(bot).unwrap();
                let report = audit_game(b.as_mut(), game, side).unwrap();
                let mut found = Walked::NOTHING;
                walk(
                    b.as_mut(),
                    side,
                    &mut History::empty(game),
                    Ratio::ONE,
                    &mut found,
                );
                let audited = Walked {
                    decision_points: report.decision_points,
                    games: report.games,
                    losing_games: report.losing_games,
                    shortest_loss: report.shortest_loss.as_ref().map(|l| l.moves.len()),
                    win: report.vs_random.win,
                    draw: report.vs_random.draw,
                    loss: report.vs_random.loss,
                };
                assert_eq!(audited, found, "{bot} as {side} on {game}");
                assert_eq!(report.game, game);
                // The walk by histories gives the report of the walk by positions.
                let mut by_histories = ByHistories(bots::from_spec(bot).unwrap());
                let walked = audit_game(&mut by_histories, game, side).unwrap();
                assert_eq!(walked, report, "{bot} as {side} on {game}, by histories");
            }
        }
    }
}

#[test]
fn perfect_never_loses_a_game_it_can_hold_and_random_loses_fast() {
    for name in ["3x4", "4x3", "4x4k3"] {
        let game = game(name);
        let mut perfect = bots::builtin("perfect").unwrap();
        // Both are first-player wins: X never loses, and O loses only games it cannot hold.
        let x = audit_game(perfect.as_mut(), game, Player::X).unwrap();
        assert!(x.never_loses(), "{game}");
        let o = audit_game(perfect.as_mut(), game, Player::O).unwrap();
        assert_eq!(o.blunders.total(), 0, "{game}");
        assert_eq!(o.shortest_loss.unwrap().mistake, None, "{game}");
    }
    let mut random = bots::builtin("random").unwrap();
    let report = audit_game(random.as_mut(), game("3x4"), Player::X).unwrap();
    assert!(!report.never_loses());
    // O needs three marks: the shortest loss is O's third move, the sixth of the game.
    assert_eq!(report.shortest_loss.unwrap().moves.len(), 6);
}

#[test]
fn the_library_refuses_rule_bots_and_games_without_a_table() {
    let mut smartbot = bots::builtin("smartbot").unwrap();
    let refused = audit_game(smartbot.as_mut(), game("3x4"), Player::X).unwrap_err();
    assert!(matches!(refused, AuditError::Refused(_)));
    assert!(refused.to_string().contains("smartbot"), "{refused}");
    assert!(refused.to_string().contains("3x4"), "{refused}");
    let mut random = bots::builtin("random").unwrap();
    // The walk of every lost game needs a table: none is made for 5x5.
    let options = AuditOptions {
        game: game("5x5"),
        ..AuditOptions::default()
    };
    let too_large = losing_games(random.as_mut(), &options, |_: LostGame| {
        Ok::<(), AuditError>(())
    })
    .unwrap_err();
    assert!(matches!(too_large, AuditError::NoTable(_)), "{too_large}");
    // The audit itself no longer refuses it: beyond 16 cells it searches without a table (see
    // tests/integration/tableless.rs), here within a budget that settles nothing.
    let options = AuditOptions {
        budget: AuditBudget::of(1),
        ..options
    };
    let searched = ttt_oracle::audit(random.as_mut(), &options).unwrap();
    assert!(searched.solved().is_none(), "{searched:?}");
    assert_eq!(searched.searched().unwrap().game, game("5x5"));
    let mut other = bots::builtin("random").unwrap();
    let error = matchup_game(random.as_mut(), other.as_mut(), game("5x5")).unwrap_err();
    assert_eq!(error, AuditError::TooLarge(game("5x5")));
}

#[test]
fn an_exact_match_on_another_game_counts_every_game() {
    // Two random players on 2x2 (k = 2): X wins on its second move whatever happens, so
    // every game has three moves, 4 * 3 * 2 of them.
    let (mut x, mut o) = (
        bots::builtin("random").unwrap(),
        bots::builtin("random").unwrap(),
    );
    let report = matchup_game(x.as_mut(), o.as_mut(), game("2x2")).unwrap();
    assert_eq!((report.games, report.x_wins), (24, Ratio::ONE));
    // The walk that merges positions and the one that keeps every history agree.
    let mut x = ByHistories(bots::builtin("random").unwrap());
    let mut o = ByHistories(bots::from_spec("epsilon:0.5").unwrap());
    let by_histories = matchup_game(&mut x, &mut o, game("2x4k3")).unwrap();
    let mut x = bots::builtin("random").unwrap();
    let mut o = bots::from_spec("epsilon:0.5").unwrap();
    let merged = matchup_game(x.as_mut(), o.as_mut(), game("2x4k3")).unwrap();
    assert_eq!(by_histories, merged);
    let total = merged.x_wins + merged.draws + merged.o_wins;
    assert_eq!(total, Ratio::ONE);
}

#[test]
fn the_command_audits_another_game() {
    let out = ttt()
        .args(["audit", "perfect", "--game", "4x4k3", "--side", "x"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.ends_with("perfect never loses\n"), "{text}");
    assert!(text.lines().all(|line| line.chars().count() <= 100));
    // random loses: its shortest loss drawn on 3x4 boards, each line within 100 columns, and
    // a replay command that names the game.
    let out = ttt()
        .args(["audit", "random", "--game", "3x4", "--side", "x"])
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("shortest loss, 6 plies"), "{text}");
    assert!(text.contains(" . | . | . | . "), "{text}");
    // The replay, run, steps through that lost game: six plies, X lost.
    let replay = text
        .lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("replay: ttt review --game 3x4 --moves ")
        })
        .unwrap_or_else(|| panic!("no replay in {text}"));
    let review = ttt()
        .args([
            "review",
            "--game",
            "3x4",
            "--moves",
            replay.trim_matches('"'),
        ])
        .assert()
        .success();
    let review = String::from_utf8(review.get_output().stdout.clone()).unwrap();
    assert!(review.contains(", O won."), "{review}");
    assert!(review.contains("\n  6  O  "), "{review}");
    assert!(
        text.lines().all(|line| line.chars().count() <= 100),
        "{text}"
    );
    // The JSON says the game; tic-tac-toe's does not, as before other games.
    ttt()
        .args([
            "audit", "perfect", "--game", "3x4", "--side", "x", "--format", "json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            r#"{"game":"3x4","bots":[{"bot":"perfect""#,
        ));
    ttt()
        .args(["audit", "perfect", "--side", "x", "--format", "json"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(r#"{"bots":[{"bot":"perfect""#));
}

#[test]
fn the_command_refuses_rule_bots_and_games_it_cannot_audit() {
    for command in ["audit", "match"] {
        ttt()
            .args([command, "perfect", "smartbot", "--game", "3x4"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                "error: smartbot plays tic-tac-toe (3x3) only, not 3x4: its rules were \
                 written for that board\n",
            );
        // Beyond 16 cells the audit goes on without a table (see tests/integration/audit_large.rs), but
        // a bot that plays from a table cannot, and a match needs one.
        let bots: &[&str] = if command == "match" {
            &["perfect", "perfect"]
        } else {
            &["perfect"]
        };
        ttt()
            .args([command])
            .args(bots)
            .args(["--game", "5x5"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(
                "make one with `ttt solve --game 5x5`",
            ));
        if command == "match" {
            ttt()
                .args([command, "random", "random", "--game", "5x5"])
                .assert()
                .code(2)
                .stdout("")
                .stderr(predicate::str::contains(
                    "5x5 has 25 cells and no table solved yet",
                ));
        }
        for bad in ["4", "3x3k4", "0x3", "9x9x9"] {
            ttt()
                .args([command, "random", "random", "--game", bad])
                .assert()
                .code(2)
                .stdout("")
                .stderr(predicate::str::contains("--game"));
        }
    }
}

#[test]
fn the_command_matches_bots_on_another_game() {
    ttt()
        .args(["match", "perfect", "random", "--game", "3x4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("perfect (X) vs random (O): "))
        .stdout(predicate::str::contains(" games of 3x4\n"));
    ttt()
        .args([
            "match", "random", "random", "--game", "2x2", "--format", "json",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            r#"{"matches":[{"game":"2x2","x":"random","o":"random","games":24,"x_wins":1.0,"#,
        ));
}

/// A bot in Python that plays the first empty cell of the board it is sent, whatever its size.
const FIRST_EMPTY_PY: &str = "python3 -c \"import sys
for line in sys.stdin:
    print(line.split()[0].replace('/', '').index('.') + 1, flush=True)\"";

#[test]
fn an_external_bot_is_audited_on_another_game_as_the_same_bot_in_rust() {
    let game = game("3x4");
    let mut rust = FirstEmpty;
    for side in Player::BOTH {
        let report = audit_game(&mut rust, game, side).unwrap();
        let out = ttt()
            .args(["audit", "--game", "3x4", "--format", "json", "--jobs", "1"])
            .args([
                "--side",
                &side.to_string().to_lowercase(),
                "--cmd",
                FIRST_EMPTY_PY,
            ])
            .assert()
            .code(1);
        let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        let side_json = &json["bots"][0]["sides"][0];
        assert_eq!(json["game"], "3x4");
        assert_eq!(side_json["games"], report.games, "{side}");
        assert_eq!(side_json["losing_games"], report.losing_games, "{side}");
        let shortest: Vec<u64> = report
            .shortest_loss
            .unwrap()
            .moves
            .iter()
            .map(|cell| u64::from(cell.number()))
            .collect();
        assert_eq!(
            side_json["shortest_loss"],
            serde_json::json!(shortest),
            "{side}"
        );
        assert_eq!(
            side_json["vs_random"]["exact"]["loss"],
            report.vs_random.loss.to_string()
        );
    }
}
