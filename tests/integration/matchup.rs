//! Exact matches between bots, through the library and the real binary: against games played
//! out, against the audit's odds, and against a walk of every history written here.

use crate::common;

use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value as Json;
use ttt_oracle::audit::{Report, SideReport};
use ttt_oracle::bots::{self, Bot, CATALOG, Choice, Turn};
use ttt_oracle::{
    AuditOptions, History, Outcome, Player, Ratio, Status, audit, matchup,
    matchup::{MatchOptions, MatchReport},
};

use common::by_histories::ByHistories;
use common::{assert_none_left, misbehave, pidfile, root};

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
    matchup(make(x).as_mut(), make(o).as_mut(), &MatchOptions::default()).unwrap()
}

/// The audit of `spec` playing `side` of tic-tac-toe.
fn audit_side(spec: &str, side: Player) -> SideReport {
    let options = AuditOptions {
        side,
        ..AuditOptions::default()
    };
    match audit(make(spec).as_mut(), &options).unwrap() {
        Report::Solved(report) => report,
        Report::Searched(_) => panic!("tic-tac-toe has a table"),
    }
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
    let mut game = History::new();
    loop {
        let board = game.position();
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
        let x = audit_side(spec, Player::X);
        let as_x = play(spec, "random");
        let v = x.vs_random;
        assert_eq!(
            chances(&as_x),
            [v.win, v.draw, v.loss, v.illegal, Ratio::ZERO],
            "{spec} as X"
        );
        assert_eq!(as_x.games, x.games, "{spec} as X");
        let o = audit_side(spec, Player::O);
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
        game: &mut History,
        chance: Ratio,
        tally: &mut (u64, [Ratio; 5]),
    ) {
        let board = game.position();
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
    visit(&mut [x, o], &mut History::new(), Ratio::ONE, &mut tally);
    tally
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
                let histories = matchup(
                    &mut ByHistories(make(x)),
                    &mut ByHistories(make(o)),
                    &MatchOptions::default(),
                )
                .unwrap();
                assert_eq!(histories, report, "{x} against {o}");
            }
        }
    }
    assert_eq!(by_positions, 12 * 12);
}

fn ttt() -> Command {
    let mut cmd = Command::new(crate::common::ttt());
    for name in ["NO_COLOR", "CLICOLOR_FORCE", "TERM"] {
        cmd.env_remove(name);
    }
    cmd.current_dir(root()).timeout(Duration::from_secs(60));
    cmd
}

fn json(args: &[&str], code: i32) -> Json {
    let out = ttt().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

const ENDS: [&str; 5] = ["x_wins", "draws", "o_wins", "x_forfeits", "o_forfeits"];

#[test]
fn match_perfect_random_is_the_audits_vs_random_on_both_sides() {
    let matches = json(&["match", "perfect", "random", "--format", "json"], 0);
    let audit = json(&["audit", "perfect", "--format", "json"], 0);
    let sides = &audit["bots"][0]["sides"];
    let (as_x, as_o) = (&matches["matches"][0], &matches["matches"][1]);
    assert_eq!(
        (as_x["x"].as_str(), as_x["o"].as_str()),
        (Some("perfect"), Some("random"))
    );
    assert_eq!(
        (as_o["x"].as_str(), as_o["o"].as_str()),
        (Some("random"), Some("perfect"))
    );
    let x = &sides[0]["vs_random"]["exact"];
    let o = &sides[1]["vs_random"]["exact"];
    let exact = |m: &Json| ENDS.map(|key| m["exact"][key].as_str().unwrap().to_string());
    let keys = |v: &Json, keys: [&str; 5]| {
        keys.map(|key| {
            v.get(key)
                .and_then(Json::as_str)
                .unwrap_or("0/1")
                .to_string()
        })
    };
    assert_eq!(
        exact(as_x),
        keys(x, ["win", "draw", "loss", "illegal", "-"])
    );
    assert_eq!(
        exact(as_o),
        keys(o, ["loss", "draw", "win", "-", "illegal"])
    );
    assert_eq!(as_x["games"], sides[0]["games"]);
    assert_eq!(as_o["games"], sides[1]["games"]);
}

#[test]
fn the_json_has_the_documented_keys_and_exact_fractions_adding_up_to_one() {
    let v = json(&["match", "smartbot", "epsilon:0.1", "--format", "json"], 0);
    let mut top: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    top.sort_unstable();
    assert_eq!(top, ["error", "matches"]);
    assert!(v["error"].is_null());
    for m in v["matches"].as_array().unwrap() {
        let mut keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        let mut expected = vec!["exact", "games", "o", "o_recheck", "x", "x_recheck"];
        expected.extend(ENDS);
        expected.sort_unstable();
        assert_eq!(keys, expected);
        let mut total = Ratio::ZERO;
        for key in ENDS {
            let text = m["exact"][key].as_str().unwrap();
            let (p, q) = text.split_once('/').unwrap();
            let chance = Ratio::new(p.parse().unwrap(), q.parse().unwrap());
            assert_eq!(chance.to_string(), text, "in lowest terms");
            // Within the rounding of serde_json's reading of floats.
            assert!((m[key].as_f64().unwrap() - chance.to_f64()).abs() < 1e-15);
            total += chance;
        }
        assert_eq!(total, Ratio::ONE);
        assert!(m["games"].as_u64().unwrap() > 1);
    }
}

#[test]
fn all_plays_every_ordered_pair_and_shows_a_cross_table_within_100_columns() {
    let names: Vec<&str> = CATALOG.iter().map(|info| info.name).collect();
    let mut args = vec!["match", "--all"];
    args.extend(&names);
    let out = ttt().args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "{line:?}");
    }
    let n = names.len();
    // A row a match, and a row a bot in the cross table, numbered.
    assert_eq!(
        text.lines().filter(|l| l.starts_with("perfect ")).count(),
        n
    );
    assert!(text.contains(" 1  perfect "), "{text}");
    assert!(text.contains(&format!("{n}  newell-simon ")), "{text}");
    assert!(!text.contains('\x1b'));
    args.extend(["--format", "json"]);
    let v = json(&args, 0);
    let matches = v["matches"].as_array().unwrap();
    assert_eq!(matches.len(), n * n);
    for (k, m) in matches.iter().enumerate() {
        assert_eq!(m["x"], names[k / n]);
        assert_eq!(m["o"], names[k % n]);
    }
    // Colour on request, never by default.
    let out = ttt()
        .args(["--color", "always", "match", "--all", "perfect", "random"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("\x1b[32m"));
}

#[test]
fn a_bot_against_itself_plays_as_two_in_one_match() {
    let v = json(&["match", "random", "random", "--format", "json"], 0);
    let matches = v["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 1, "both orders are the same match: {v}");
    assert_eq!(matches[0]["games"], 255_168);
    assert_eq!(matches[0]["exact"]["x_wins"], "737/1260");
    let out = ttt()
        .args(["match", "perfect", "perfect"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches("perfect (X) vs perfect (O): 3,584 games")
            .count(),
        1,
        "{text}"
    );
    assert!(!text.contains("Mean score"), "{text}");
    assert!(
        text.ends_with("0/1\n"),
        "no blank line at the end: {text:?}"
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    for (args, message) in [
        (&["match"][..], "name two bots to match"),
        (&["match", "perfect"], "name a second one"),
        (&["match", "perfect", "random", "smartbot"], "add --all"),
        (&["match", "--all", "perfect"], "two bots or more"),
        (
            &["match", "perfect", "deep-blue"],
            "unknown bot \"deep-blue\"",
        ),
        (&["match", "perfect", "casual:2"], "probability \"2\""),
        (&["match", "perfect", "--cmd", " "], "--cmd needs a command"),
        (
            &["match", "perfect", "random", "--name", "x"],
            "1 --name for 0 --cmd",
        ),
        (&["match", "perfect", "random", "--format", "yaml"], "yaml"),
    ] {
        ttt()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    }
}

/// `ttt match` with a misbehaving external bot, its process ids written to a fresh file.
fn hostile(mode: &str, args: &[&str]) -> (std::process::Output, common::PidFile) {
    let pids = pidfile(&format!("match-{mode}"));
    let out = ttt()
        .arg("match")
        .args(["--cmd", &misbehave(mode)])
        .args(args)
        .env("TTT_TEST_PIDFILE", &pids)
        .output()
        .unwrap();
    (out, pids)
}

#[test]
fn an_external_bot_against_a_built_in_one() {
    let minimax = format!("python3 {}", root().join("data/bots/minimax.py").display());
    for extra in [&[][..], &["--stateless"]] {
        let mut args = vec![
            "match",
            "perfect",
            "--cmd",
            &minimax,
            "--name",
            "minimax.py",
        ];
        args.extend(extra);
        args.extend(["--format", "json"]);
        let v = json(&args, 0);
        for (m, (x, o)) in v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .zip([("perfect", "minimax.py"), ("minimax.py", "perfect")])
        {
            assert_eq!((m["x"].as_str(), m["o"].as_str()), (Some(x), Some(o)));
            // It answers every optimal cell, as perfect chooses among them.
            assert_eq!(m["exact"]["draws"], "1/1");
            assert_eq!(m["games"], 3584);
        }
    }
    // A bot that plays the first empty cell, against itself as two processes.
    let (out, pids) = hostile("first", &["--name", "first", "--all", "perfect"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\nfirst    first  "), "{text}");
    assert!(text.contains("\n2  first "), "{text}");
    assert_none_left(&pids);
}

#[test]
fn a_forfeit_counts_against_the_side_that_broke_the_rules() {
    // It plays a taken cell whenever there is one: at its first turn as O, its second as X.
    let (out, pids) = hostile("taken", &["newell-simon", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["matches"][0]["x"], "newell-simon");
    assert_eq!(v["matches"][0]["exact"]["o_forfeits"], "1/1");
    assert_eq!(v["matches"][1]["exact"]["x_forfeits"], "1/1");
    assert_none_left(&pids);
}

#[test]
fn a_protocol_error_stops_the_matches_with_exit_code_3_and_no_process_left() {
    for (mode, args, message) in [
        (
            "garbage-o",
            &["perfect"][..],
            "it replied \"banana\", which is not a cell",
        ),
        ("twice", &["perfect"], "(one line a request"),
        ("late", &["perfect"], "\"bye\" when no request was waiting"),
        ("exit", &["--all", "random"], "it exited (exit code 4)"),
        (
            "sleep",
            &["perfect", "--timeout-ms", "300", "--startup-ms", "1000"],
            "no reply within 1300 ms of starting",
        ),
    ] {
        let (out, pids) = hostile(mode, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{mode}: {stderr}");
        assert!(stderr.contains("broke the protocol"), "{mode}: {stderr}");
        assert!(stderr.contains(message), "{mode}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{mode}: {stderr}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("Not played, after an error (below): "),
            "{mode}: {stdout}"
        );
        assert_none_left(&pids);
    }
    // What was played before the error is kept, and JSON says what stopped it.
    let (out, pids) = hostile("garbage-o", &["perfect", "--all", "--format", "json"]);
    assert_eq!(out.status.code(), Some(3));
    let v: Json = serde_json::from_slice(&out.stdout).unwrap();
    let played = v["matches"].as_array().unwrap();
    // perfect against itself, then garbage-o breaks the rules at its first turn as O.
    assert_eq!(played.len(), 1);
    assert_eq!(played[0]["x"], "perfect");
    assert_eq!(played[0]["o"], "perfect");
    assert!(v["error"].as_str().unwrap().contains("banana"));
    assert_none_left(&pids);
}
