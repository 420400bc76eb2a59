//! `ttt simulate`, through the real binary: sampled games against a random opponent, their
//! rates beside the exact odds of the audit, and the misbehaving bots and bad input it meets.

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use crate::common;
use common::{assert_none_left, misbehave, pidfile, root};

fn ttt(args: &[&str]) -> Command {
    let mut cmd = Command::new(crate::common::ttt());
    cmd.arg("simulate").args(args).current_dir(root());
    cmd.timeout(Duration::from_secs(60));
    cmd
}

fn json(args: &[&str]) -> Value {
    json_noting_pids(args, None)
}

/// The JSON report, the external bots writing their process ids into `pids`, if given.
fn json_noting_pids(args: &[&str], pids: Option<&Path>) -> Value {
    let mut cmd = ttt(&[args, &["--format", "json"]].concat());
    if let Some(pids) = pids {
        cmd.env("TTT_TEST_PIDFILE", pids);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const ENDS: [&str; 4] = ["win", "draw", "loss", "forfeit"];

#[test]
fn sampled_rates_agree_with_the_exact_odds() {
    // Fixed seeds, so the test is the same on every run; the bound is wide enough (3.5
    // standard errors: one chance in 2,000 a rate, for a correct simulation) that no seed was
    // picked for it.
    for (bot, seed) in [
        ("marcelo", "1"),
        ("smartbot", "2"),
        ("random", "3"),
        ("epsilon:0.3", "4"),
    ] {
        let v = json(&[bot, "--games", "20000", "--seed", seed]);
        assert_eq!(v["bot"], bot);
        assert_eq!(v["opponent"], "random");
        let sides = v["sides"].as_array().unwrap();
        assert_eq!(sides.len(), 2);
        for side in sides {
            assert_eq!(side["games"], 20000);
            let counts: u64 = ENDS
                .iter()
                .map(|e| side[e]["count"].as_u64().unwrap())
                .sum();
            assert_eq!(counts, 20000, "{bot}: every game ends one way");
            let exact: f64 = ENDS
                .iter()
                .map(|e| side[e]["exact"].as_f64().unwrap())
                .sum();
            assert!(
                (exact - 1.0).abs() < 1e-9,
                "{bot}: the exact odds add up to 1"
            );
            for end in ENDS {
                let e = &side[end];
                let z = e["standard_errors"].as_f64();
                assert!(
                    z.is_some_and(|z| z.abs() < 3.5),
                    "{bot} as {}: {end} rate {} against exact {}",
                    side["side"],
                    e["rate"],
                    e["exact"]
                );
                let (low, high) = (e["low"].as_f64().unwrap(), e["high"].as_f64().unwrap());
                let rate = e["rate"].as_f64().unwrap();
                assert!(
                    low <= rate && rate <= high,
                    "{bot}: the rate lies in its interval"
                );
            }
        }
    }
}

#[test]
fn a_bot_that_never_loses_loses_no_sampled_game() {
    let v = json(&["perfect", "--games", "5000", "--seed", "9"]);
    for side in v["sides"].as_array().unwrap() {
        assert_eq!(side["loss"]["count"], 0);
        assert_eq!(side["forfeit"]["count"], 0);
        assert_eq!(side["loss"]["exact_fraction"], "0/1");
        assert_eq!(side["loss"]["standard_errors"], 0.0);
    }
}

#[test]
fn a_seed_replays_the_same_games_and_another_seed_other_ones() {
    let run = |seed: &str| {
        let out = ttt(&["random", "--games", "3000", "--seed", seed])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run("42");
    assert_eq!(first, run("42"));
    assert_ne!(first, run("43"));
    assert!(
        first.contains("seed 42: --seed 42 plays the same games"),
        "{first}"
    );
}

#[test]
fn without_a_seed_the_report_names_the_one_it_used() {
    let out = ttt(&["perfect", "--games", "100", "--as", "x"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let seed = text
        .split("seed ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .expect(&text);
    let again = ttt(&["perfect", "--games", "100", "--as", "x", "--seed", seed])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

#[test]
fn one_side_only_playing_the_games_it_plays_beside_the_other() {
    let both = json(&["smartbot", "--games", "500", "--seed", "1"]);
    let o = json(&["smartbot", "--as", "o", "--games", "500", "--seed", "1"]);
    let sides = o["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 1);
    assert_eq!(sides[0]["side"], "O");
    assert_eq!(
        sides[0], both["sides"][1],
        "each side has a stream of its own"
    );
    // `--side`, as `ttt audit` names it, is the same option.
    assert_eq!(
        json(&["smartbot", "--side", "o", "--games", "500", "--seed", "1"]),
        o
    );
}

#[test]
fn the_authors_published_figures_are_set_beside_the_exact_odds() {
    ttt(&["marcelo", "--games", "1000", "--seed", "1", "--as", "o"])
        .assert()
        .success()
        .stdout(predicate::str::contains("apart  author's     apart"))
        .stdout(predicate::str::contains("85.97%"))
        .stdout(predicate::str::contains(
            "author's: the rates the bot's author published from 50,000 games (no forfeits: -)",
        ));
    let v = json(&["marcelo", "--games", "1000", "--seed", "1", "--as", "x"]);
    assert_eq!(v["sides"][0]["published"]["wins"], 48306);
    let v = json(&["perfect", "--games", "10", "--seed", "1", "--as", "x"]);
    assert_eq!(v["sides"][0]["published"], Value::Null);
}

#[test]
fn an_external_bot_is_simulated_and_stopped() {
    let pids = pidfile("simulate-first");
    let v = json_noting_pids(
        &[
            "--cmd",
            &misbehave("first"),
            "--name",
            "first-empty",
            "--games",
            "300",
            "--seed",
            "5",
        ],
        Some(&pids),
    );
    assert_eq!(v["bot"], "first-empty");
    // First empty cell as O loses often to a random X; as X it wins most games.
    assert!(v["sides"][1]["loss"]["count"].as_u64().unwrap() > 0);
    assert_none_left(&pids);
}

#[test]
fn a_bot_that_plays_a_taken_cell_forfeits_every_such_game() {
    let pids = pidfile("simulate-taken");
    let v = json_noting_pids(
        &[
            "--cmd",
            &misbehave("taken"),
            "--games",
            "200",
            "--seed",
            "5",
        ],
        Some(&pids),
    );
    for side in v["sides"].as_array().unwrap() {
        let forfeits = side["forfeit"]["count"].as_u64().unwrap();
        let exact = side["forfeit"]["exact"].as_f64().unwrap();
        assert!(forfeits > 0 && exact > 0.0, "{side}");
    }
    assert_none_left(&pids);
}

#[test]
fn a_bot_that_breaks_the_protocol_stops_the_simulation_with_exit_code_3() {
    let pids = pidfile("simulate-garbage");
    ttt(&[
        "--cmd",
        &misbehave("garbage"),
        "--games",
        "10",
        "--seed",
        "1",
    ])
    .env("TTT_TEST_PIDFILE", &*pids)
    .assert()
    .code(3)
    .stdout("")
    .stderr(predicate::str::contains("error:"))
    .stderr(predicate::str::contains("(during its audit)"));
    assert_none_left(&pids);
}

#[test]
fn a_bot_that_hangs_times_out() {
    let pids = pidfile("simulate-sleep");
    ttt(&[
        "--cmd",
        &misbehave("sleep"),
        "--timeout-ms",
        "200",
        "--games",
        "10",
    ])
    .env("TTT_TEST_PIDFILE", &*pids)
    .assert()
    .code(3)
    .stderr(predicate::str::contains("error:"));
    assert_none_left(&pids);
}

#[test]
fn bad_input_is_refused_with_a_clear_error() {
    for (args, says) in [
        (&[][..], "name the bot to simulate"),
        (
            &["perfect", "--cmd", "python3 x.py"][..],
            "one bot at a time",
        ),
        (&["nobot"][..], "nobot"),
        (&["perfect", "--games", "0"][..], "--games"),
        (&["perfect", "--games", "-5"][..], "-5"),
        (&["perfect", "--seed", "x"][..], "--seed"),
        (&["perfect", "--as", "z"][..], "--as"),
        (&["casual:2"][..], "probability \"2\""),
    ] {
        ttt(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(says));
    }
}

/// A rate's 95% interval and its distance from the exact odds, as the library works them out.
mod rate {
    use ttt_oracle::simulate::Rate;

    #[test]
    fn intervals_are_newcombes() {
        let near = |(low, high): (f64, f64), (a, b): (f64, f64)| {
            (low - a).abs() < 5e-5 && (high - b).abs() < 5e-5
        };
        assert!(near(
            Rate {
                count: 81,
                games: 263
            }
            .interval(),
            (0.2553, 0.3662)
        ));
        assert!(near(
            Rate {
                count: 1,
                games: 10
            }
            .interval(),
            (0.0179, 0.4042)
        ));
        assert!(near(
            Rate {
                count: 0,
                games: 10
            }
            .interval(),
            (0.0, 0.2775)
        ));
        assert_eq!(
            Rate {
                count: 0,
                games: 50_000
            }
            .interval()
            .0,
            0.0
        );
        assert_eq!(Rate { count: 7, games: 7 }.interval().1, 1.0);
    }

    #[test]
    fn standard_errors_measure_the_distance_from_exact() {
        let rate = Rate {
            count: 5_100,
            games: 10_000,
        };
        assert!((rate.standard_errors(0.5).unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(
            Rate {
                count: 0,
                games: 10
            }
            .standard_errors(0.0),
            Some(0.0)
        );
        assert_eq!(
            Rate {
                count: 1,
                games: 10
            }
            .standard_errors(0.0),
            None
        );
    }
}
