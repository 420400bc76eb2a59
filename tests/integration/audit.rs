//! The auditor: verdicts, the shortest losing game replayed through the bot, exact odds,
//! forfeits, and the command through the real binary.

use crate::common;

use common::audit_3x3 as audit;

use assert_cmd::Command;
use predicates::prelude::*;
use ttt_oracle::audit::Forfeit;
use ttt_oracle::bots::{self, Bot, BotError, CATALOG, Choice, Turn};
use ttt_oracle::{Cell, Game, History, Oracle, Player, Ratio};

/// Tic-tac-toe's table.
fn oracle() -> Oracle {
    Oracle::of(Game::TIC_TAC_TOE).unwrap()
}

/// Plays the first empty cell: a bot anyone would write first, and lose with.
struct FirstEmpty;

impl Bot for FirstEmpty {
    fn name(&self) -> &str {
        "first-empty"
    }
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        let cell = game.position().legal_moves().first().unwrap();
        Ok(vec![Choice::certain(Turn::Mark(cell))])
    }
}

/// Perfect, except that on one position it does something the rules forbid (or panics).
struct Rogue {
    trigger: &'static str,
    turn: Option<Turn>,
}

impl Bot for Rogue {
    fn name(&self) -> &str {
        "rogue"
    }
    fn choose(&mut self, game: &History) -> Result<Vec<Choice>, BotError> {
        if game.position().to_string() == self.trigger {
            match &self.turn {
                Some(turn) => return Ok(vec![Choice::certain(turn.clone())]),
                None => panic!("rogue bot gave up"),
            }
        }
        let cell = oracle().best_move(&game.position()).unwrap();
        Ok(vec![Choice::certain(Turn::Mark(cell))])
    }
}

fn cell(n: u32) -> Cell {
    Cell::from_number(n).unwrap()
}

/// Replays `moves` through the bot: at each of the bot's turns the bot must be able to choose
/// the move played, and the game must end in the opponent's win. Independent of the auditor.
fn replay_loss(bot: &mut dyn Bot, side: Player, moves: &[Cell]) {
    let mut game = History::new();
    for &m in moves {
        if game.position().to_move() == side {
            let choices = bot.choose(&game).unwrap();
            assert!(
                choices.iter().any(|c| c.turn == Turn::Mark(m)),
                "{}: bot would not play {m} after {:?}",
                bot.name(),
                game.moves()
            );
        }
        game.play(m).unwrap();
    }
    assert_eq!(
        game.position().winner(),
        Some(!side),
        "{}: {:?}",
        bot.name(),
        moves
    );
}

#[test]
fn perfect_never_loses_and_random_can() {
    for side in Player::BOTH {
        let mut perfect = bots::builtin("perfect").unwrap();
        let report = audit(perfect.as_mut(), side).unwrap();
        assert!(report.never_loses(), "{side}");
        assert_eq!(report.blunders.total() + report.slow_wins, 0);
        assert_eq!(report.vs_random.loss, Ratio::ZERO);

        let mut random = bots::builtin("random").unwrap();
        let report = audit(random.as_mut(), side).unwrap();
        assert!(!report.never_loses());
        assert_eq!(report.games, 255_168, "random explores every game");
    }
}

#[test]
fn random_vs_random_matches_the_known_odds() {
    // Uniformly random play: X wins 737/1260, O wins 121/420 (= 363/1260), draws 8/63.
    let mut random = bots::builtin("random").unwrap();
    let x = audit(random.as_mut(), Player::X).unwrap();
    assert_eq!(x.vs_random.win, Ratio::new(737, 1260));
    assert_eq!(x.vs_random.loss, Ratio::new(121, 420));
    assert_eq!(x.vs_random.draw, Ratio::new(8, 63));
}

#[test]
fn a_broken_bot_is_caught_with_its_shortest_losing_game() {
    let report = audit(&mut FirstEmpty, Player::O).unwrap();
    assert!(!report.never_loses());
    let line = report.shortest_loss.clone().unwrap();
    // X 1, O 2, X 4, O 3, X 7: X wins down the left column in five plies.
    assert_eq!(line.moves, [1, 2, 4, 3, 7].map(cell));
    assert_eq!(
        line.mistake,
        Some(1),
        "O on a side next to X's corner loses"
    );
    replay_loss(&mut FirstEmpty, Player::O, &line.moves);
}

#[test]
fn every_bots_shortest_loss_replays_and_odds_add_up_to_one() {
    for info in CATALOG {
        for side in Player::BOTH {
            let mut bot = info.make();
            let report = audit(bot.as_mut(), side).unwrap();
            let v = report.vs_random;
            assert_eq!(
                v.win + v.draw + v.loss + v.illegal,
                Ratio::ONE,
                "{} {side}",
                info.name
            );
            assert_eq!(
                report.never_loses(),
                report.losing_games + report.illegal_games == 0
            );
            if let Some(line) = &report.shortest_loss {
                replay_loss(info.make().as_mut(), side, &line.moves);
                assert!(line.mistake.is_some(), "{} {side}", info.name);
            }
            assert_eq!(report.shortest_loss.is_some(), report.losing_games > 0);
            assert_eq!(report.shortest_illegal.is_some(), report.illegal_games > 0);
        }
    }
}

#[test]
fn verdicts_of_the_built_in_bots() {
    let verdict = |name: &str, side| {
        let mut bot = bots::builtin(name).unwrap();
        audit(bot.as_mut(), side).unwrap().never_loses()
    };
    for name in [
        "perfect",
        "geeks-minimax",
        "geeks-minimax-depth",
        "c-minimax",
        "newell-simon",
        "forkbot",
    ] {
        assert!(
            verdict(name, Player::X) && verdict(name, Player::O),
            "{name}"
        );
    }
    assert!(!verdict("smartbot", Player::O));
    assert!(!verdict("marcelo", Player::O));
}

#[test]
fn minimax_without_depth_dawdles_and_with_depth_does_not() {
    let slow = |name: &str| {
        let mut bot = bots::builtin(name).unwrap();
        Player::BOTH.map(|side| audit(bot.as_mut(), side).unwrap().slow_wins)
    };
    assert!(slow("geeks-minimax").iter().sum::<u64>() > 0);
    assert!(slow("c-minimax").iter().sum::<u64>() > 0);
    assert_eq!(slow("geeks-minimax-depth"), [0, 0]);
}

#[test]
fn fine_grained_styles_keep_exact_odds() {
    // The finest probabilities a style takes multiply along five bot moves without overflow.
    for spec in ["epsilon:0.999", "epsilon:1/997", "casual:0.123"] {
        for side in Player::BOTH {
            let mut bot = bots::from_spec(spec).unwrap();
            let v = audit(bot.as_mut(), side).unwrap().vs_random;
            assert_eq!(
                v.win + v.draw + v.loss + v.illegal,
                Ratio::ONE,
                "{spec} {side}"
            );
        }
    }
}

#[test]
fn marcelo_forfeits_by_marking_two_cells() {
    let mut bot = bots::builtin("marcelo").unwrap();
    let report = audit(bot.as_mut(), Player::X).unwrap();
    let line = report.shortest_illegal.unwrap();
    assert!(matches!(line.what, Forfeit::Turn(Turn::Several(ref cells)) if cells.len() >= 2));
}

#[test]
fn forbidden_moves_and_panics_forfeit_the_game_only() {
    // After X 5, O 1, X 9 (board "O...X...X"), O must move.
    let trigger = "O...X...X";
    let cases = [
        Some(Turn::Mark(cell(5))),
        Some(Turn::Nothing),
        Some(Turn::Several(vec![cell(3), cell(7)])),
        None,
    ];
    // The rogue bot's panic prints its message: the hook is the whole process's, shared with
    // every other test of this crate, so it is left alone.
    for turn in cases {
        let mut rogue = Rogue {
            trigger,
            turn: turn.clone(),
        };
        let report = audit(&mut rogue, Player::O).unwrap();
        assert_eq!(report.illegal_games, 1, "{turn:?}");
        assert!(!report.never_loses());
        let line = report.shortest_illegal.unwrap();
        assert_eq!(line.moves, [5, 1, 9].map(cell));
        match (&turn, &line.what) {
            (Some(t), Forfeit::Turn(what)) => assert_eq!(t, what),
            (None, Forfeit::Panic(message)) => {
                assert!(
                    message.contains("rogue bot gave up") && message.contains(trigger),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(report.losing_games, 0);
        assert!(report.games > 1, "the audit goes on after the forfeit");
    }
}

fn ttt() -> Command {
    Command::new(crate::common::ttt())
}

#[test]
fn bots_lists_every_built_in_bot() {
    let mut assert = ttt().arg("bots").assert().success();
    for info in CATALOG {
        assert = assert.stdout(predicate::str::contains(info.name));
    }
}

/// The text report of `ttt audit ARGS`, which must exit with `code` and print nothing on
/// standard error.
fn report(args: &[&str], code: i32) -> String {
    let out = ttt().arg("audit").args(args).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert_eq!(stderr, "", "{args:?}");
    stdout
}

#[test]
fn audit_exit_codes_follow_the_verdict() {
    let text = report(&["perfect", "newell-simon"], 0);
    assert_eq!(text.lines().last(), Some("both bots never lose"));
    let text = report(&["perfect", "smartbot"], 1);
    assert!(text.contains("shortest loss, "), "{text}");
    assert_eq!(
        text.lines().last(),
        Some("1 of 2 bots can lose: smartbot"),
        "the answer is the last line on standard output, not an error"
    );
    ttt()
        .args(["audit", "perfect", "deep-blue"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown bot \"deep-blue\""))
        .stderr(predicate::str::contains("newell-simon"));
    ttt()
        .args(["audit", "perfect", "--side", "z"])
        .assert()
        .code(2);
}

#[test]
fn audit_without_a_bot_says_what_to_give() {
    ttt().arg("audit").assert().code(2).stdout("").stderr(
        "error: name at least one bot to audit: a built-in one (`ttt bots` lists them) \
             or --cmd COMMAND\n",
    );
}

#[test]
fn the_last_line_sums_up_every_bot() {
    let last = |args: &[&str], code| report(args, code).lines().last().unwrap().to_string();
    assert_eq!(last(&["perfect"], 0), "perfect never loses");
    assert_eq!(
        last(&["perfect", "tricky", "forkbot"], 0),
        "all 3 bots never lose"
    );
    assert_eq!(last(&["smartbot", "--side", "o"], 1), "smartbot can lose");
    // A bot named with a side did so on that side only.
    assert_eq!(
        last(&["perfect", "smartbot", "marcelo"], 1),
        "2 of 3 bots can lose: smartbot, marcelo (as O); marcelo breaks the rules"
    );
    assert_eq!(
        last(&["marcelo", "perfect", "--side", "x"], 1),
        "1 of 2 bots breaks the rules: marcelo"
    );
    assert_eq!(
        last(&["marcelo"], 1),
        "marcelo can lose as O and breaks the rules"
    );
}

#[test]
fn a_bot_that_only_breaks_the_rules_is_not_said_to_lose() {
    // marcelo as X never loses on the board, but marks two cells in one turn and forfeits.
    let text = report(&["marcelo", "--side", "x"], 1);
    let row = text
        .lines()
        .find(|l| l.starts_with("marcelo ") && l.contains(" X "))
        .unwrap();
    assert!(row.ends_with("  breaks the rules"), "{row}");
    assert!(text.contains("marcelo as X: breaks the rules\n"), "{text}");
    assert!(!text.contains("can lose"), "{text}");
    assert!(!text.contains("shortest loss"), "{text}");
    assert!(text.contains("shortest forfeit: after 5 2 1 9 the bot marked 2 cells in one turn"));
    assert_eq!(text.lines().last(), Some("marcelo breaks the rules"));
}

const ALL_BUILT_IN: [&str; 10] = [
    "perfect",
    "tricky",
    "random",
    "smartbot",
    "geeks-minimax",
    "geeks-minimax-depth",
    "marcelo",
    "c-minimax",
    "forkbot",
    "newell-simon",
];

/// Every line within 100 columns, and within 80 but for a table row with a long name or one of
/// the longer verdicts.
fn assert_fits(text: &str) {
    for line in text.lines() {
        let width = line.chars().count();
        assert!(width <= 100, "{width} columns: {line:?}");
        if !line.ends_with("can lose, breaks the rules") && !line.ends_with("breaks the rules") {
            assert!(width <= 80, "{width} columns: {line:?}");
        }
        assert_eq!(line.trim_end(), line, "trailing spaces");
    }
}

#[test]
fn the_report_of_every_built_in_bot_fits_the_screen() {
    let text = report(&ALL_BUILT_IN, 1);
    assert_fits(&text);
    // The legend comes before the table it explains, and the table has a row a side.
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("bot ")).unwrap();
    let legend = lines.iter().position(|l| l.starts_with("lost: ")).unwrap();
    assert!(legend < header, "{text}");
    assert!(lines[header].ends_with("verdict"), "{}", lines[header]);
    for (row, name) in lines[header + 1..]
        .chunks(2)
        .take(ALL_BUILT_IN.len())
        .zip(ALL_BUILT_IN)
    {
        assert!(row[0].starts_with(&format!("{name} ")), "{row:?}");
        assert!(row[1].starts_with(&format!("{name} ")), "{row:?}");
    }
    // The published figures sit under the exact ones, column for column.
    let exact = lines
        .iter()
        .position(|l| l.starts_with("marcelo as O: "))
        .unwrap();
    let odds = lines[exact..]
        .iter()
        .find(|l| l.starts_with("  vs random: "))
        .unwrap();
    let published = lines[exact..]
        .iter()
        .find(|l| l.starts_with("  published: "))
        .unwrap();
    for word in ["win", "draw", "loss"] {
        assert_eq!(odds.find(word), published.find(word), "{odds}\n{published}");
    }
}

fn misbehave(mode: &str) -> String {
    let script = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("tests/bots/misbehave.py");
    format!("python3 {} {mode}", script.display())
}

#[test]
fn long_names_and_commands_are_cut_to_fit() {
    let long_name = "a-bot-with-a-name-longer-than-any-screen-".repeat(8);
    let long_command = format!("exec {} {}", misbehave("first"), "--and-more ".repeat(20));
    let text = report(
        &[
            "perfect",
            "--cmd",
            &misbehave("first"),
            "--name",
            &long_name,
            "--cmd",
            long_command.trim_end(),
        ],
        1,
    );
    assert_fits(&text);
    assert!(!text.contains(&long_name));
    // Both ends stay, so two commands that differ only at the end can be told apart.
    assert!(
        text.contains("\na-bot-with-a-…an-any-screen-  X "),
        "{text}"
    );
    assert!(
        text.contains("\nexec python3 …ore --and-more  O "),
        "{text}"
    );
    assert!(
        text.contains("… --and-more --and-more as O: can lose\n"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "\n2 of 3 bots can lose: a-bot-with-…-any-screen-, exec python…e --and-more\n"
        )
    );
}

/// No progress (and nothing else) on standard error when it is not a terminal, for a built-in
/// bot as for an external one.
#[test]
fn progress_is_silent_off_a_terminal() {
    for args in [
        &["random", "--side", "x"][..],
        &["--cmd", &misbehave("first"), "--format", "json"][..],
    ] {
        let out = ttt()
            .arg("audit")
            .args(args)
            .env("TERM", "xterm")
            .env("CLICOLOR_FORCE", "1")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn progress_shows_on_a_terminal_and_is_cleared() {
    let args = ["audit", "random", "--side", "x"];
    let plain = ttt().args(args).output().unwrap();
    let (code, stdout, terminal) = common::on_a_terminal(&args, &[("TERM", "xterm")]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout, plain.stdout,
        "the report is the same, and alone on stdout"
    );
    let terminal = String::from_utf8_lossy(&terminal);
    assert!(terminal.contains("random"), "{terminal:?}");
    assert!(terminal.contains(" as X"), "{terminal:?}");
    assert!(terminal.contains(" positions asked"), "{terminal:?}");
    assert!(terminal.contains("/s"), "{terminal:?}");
    assert!(
        terminal.ends_with("\r\x1b[2K"),
        "cleared at the end: {terminal:?}"
    );
    assert!(
        terminal.contains("\x1b[1m"),
        "the bot's name in bold: {terminal:?}"
    );

    // A quicker audit: the line is drawn as soon as each side starts, one side after the
    // other; or once for both at once, each on its own thread (the default on two cores).
    let args = ["audit", "perfect", "--jobs", "1"];
    let (code, _, terminal) = common::on_a_terminal(&args, &[("TERM", "xterm"), ("NO_COLOR", "1")]);
    assert_eq!(code, 0);
    let terminal = String::from_utf8_lossy(&terminal);
    assert!(terminal.contains("perfect as O"), "{terminal:?}");
    assert!(!terminal.contains("perfect as X and O"), "{terminal:?}");
    assert!(!terminal.contains("\x1b[1m"), "NO_COLOR: {terminal:?}");
    let both = ["audit", "perfect", "--jobs", "2"];
    let (code, _, terminal) = common::on_a_terminal(&both, &[("TERM", "xterm"), ("NO_COLOR", "1")]);
    assert_eq!(code, 0);
    let terminal = String::from_utf8_lossy(&terminal);
    assert!(terminal.contains("perfect as X and O"), "{terminal:?}");
    let (code, _, terminal) = common::on_a_terminal(&args, &[("TERM", "dumb")]);
    assert_eq!(code, 0);
    assert_eq!(terminal, b"", "no progress on a dumb terminal");
}

#[test]
fn audit_json_has_the_documented_shape() {
    let out = ttt()
        .args(["audit", "marcelo", "--side", "o", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bot = &v["bots"][0];
    assert_eq!(bot["bot"], "marcelo");
    let side = &bot["sides"][0];
    assert_eq!(
        common::json_keys(side),
        [
            "blunders",
            "decision_points",
            "games",
            "illegal_games",
            "losing_games",
            "mistakes",
            "never_loses",
            "recheck",
            "shortest_illegal",
            "shortest_loss",
            "side",
            "slow_wins",
            "verdict",
            "vs_perfect",
            "vs_random",
            "worst_case"
        ]
    );
    let worst = &side["worst_case"];
    assert_eq!(worst["loss"], "1/1");
    assert_eq!(worst["decimal"], 1.0);
    assert!(!worst["line"].as_array().unwrap().is_empty());
    let exact = &side["vs_perfect"]["exact"];
    for key in ["win", "draw", "loss", "illegal"] {
        assert!(exact[key].as_str().unwrap().contains('/'), "{key}");
    }
    assert_eq!(side["side"], "O");
    assert_eq!(side["never_loses"], false);
    assert_eq!(side["verdict"], "can_lose_and_breaks_rules");
    assert!(
        side["recheck"].is_null(),
        "a built-in bot is never asked again"
    );
    assert!(
        side["shortest_loss"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| (1..=9).contains(&c.as_u64().unwrap()))
    );
    let exact = &side["vs_random"]["exact"];
    for key in ["win", "draw", "loss", "illegal"] {
        let text = exact[key].as_str().unwrap();
        let (p, q) = text.split_once('/').unwrap();
        let (p, q): (u128, u128) = (p.parse().unwrap(), q.parse().unwrap());
        assert_eq!(Ratio::new(p, q).to_string(), text, "lowest terms");
    }
    let blunders = side["blunders"].as_object().unwrap();
    assert_eq!(blunders.len(), 3);
}

#[test]
fn audit_json_names_each_verdict() {
    let out = ttt()
        .args([
            "audit", "perfect", "smartbot", "marcelo", "--format", "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "the exit code is the answer"
    );
    // Exactly one JSON document on standard output, nothing after it.
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdicts: Vec<(&str, &str, &str)> = v["bots"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|bot| {
            bot["sides"].as_array().unwrap().iter().map(move |side| {
                assert_eq!(
                    side["never_loses"].as_bool().unwrap(),
                    side["verdict"] == "never_loses"
                );
                (
                    bot["bot"].as_str().unwrap(),
                    side["side"].as_str().unwrap(),
                    side["verdict"].as_str().unwrap(),
                )
            })
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("perfect", "X", "never_loses"),
            ("perfect", "O", "never_loses"),
            ("smartbot", "X", "can_lose"),
            ("smartbot", "O", "can_lose"),
            ("marcelo", "X", "breaks_rules"),
            ("marcelo", "O", "can_lose_and_breaks_rules"),
        ]
    );
}

#[test]
fn verdicts_keep_losing_and_breaking_the_rules_apart() {
    use ttt_oracle::audit::Verdict;
    let verdict = |name: &str, side| {
        let mut bot = bots::builtin(name).unwrap();
        audit(bot.as_mut(), side).unwrap().verdict()
    };
    assert_eq!(verdict("perfect", Player::X), Verdict::NeverLoses);
    assert_eq!(verdict("smartbot", Player::O), Verdict::CanLose);
    assert_eq!(verdict("marcelo", Player::X), Verdict::BreaksRules);
    assert_eq!(
        verdict("marcelo", Player::O),
        Verdict::CanLoseAndBreaksRules
    );
    for v in [
        Verdict::NeverLoses,
        Verdict::CanLose,
        Verdict::BreaksRules,
        Verdict::CanLoseAndBreaksRules,
    ] {
        assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
        assert_eq!(v == Verdict::NeverLoses, !v.can_lose() && !v.breaks_rules());
    }
}
