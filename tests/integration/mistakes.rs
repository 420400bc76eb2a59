//! An audit's mistakes, one by one: through the binary (the text, the JSON and `--mistakes
//! FILE`, each line's keys and figures against the report's own counts, the replay command
//! run, a FILE that cannot be written, a bot that breaks the protocol, an external bot,
//! another game) and through the library (both walks list the same mistakes).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::fs::MetadataExt;

use assert_cmd::Command;
use common::by_histories::ByHistories;
use common::{misbehave, names, root};
use predicates::prelude::*;
use serde_json::Value;
use ttt_oracle::audit::{MistakeKind, Report};
use ttt_oracle::{AuditOptions, Cell, Game, History, Oracle, Player, audit, bots};

fn ttt() -> Command {
    let mut command = Command::new(crate::common::ttt());
    command.current_dir(root()).env("NO_COLOR", "1");
    command
}

fn stdout(args: &[&str]) -> (i32, String) {
    let out = ttt().args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// The report's counts of one side: blunders by kind and slow wins, then the mistakes' total.
fn counts(side: &Value) -> (BTreeMap<String, u64>, u64) {
    let mut by_kind: BTreeMap<String, u64> = side["blunders"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect();
    by_kind.insert("slow_win".into(), side["slow_wins"].as_u64().unwrap());
    (by_kind, side["mistakes"]["total"].as_u64().unwrap())
}

/// Checks one mistake as JSON against the table: exactly the documented keys, the board its
/// moves reach, the move played worth what it says and less than the best, which are every
/// optimal move.
fn check_mistake(game: Game, mistake: &Value) {
    let keys: BTreeSet<&str> = mistake
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    let expected = [
        "board",
        "moves",
        "played",
        "best",
        "kind",
        "histories",
        "games",
    ];
    assert!(expected.iter().all(|k| keys.contains(k)), "{mistake}");
    let moves: Vec<Cell> = mistake["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Cell::from_number(c.as_u64().unwrap() as u32).unwrap())
        .collect();
    let mut history = History::empty(game);
    for &cell in &moves {
        history.play(cell).unwrap();
    }
    assert_eq!(
        mistake["board"],
        history.position().to_string(),
        "{mistake}"
    );
    let oracle = Oracle::of(game).unwrap();
    let all = oracle.moves(&history.position());
    let json = |m: &ttt_oracle::MoveValue| {
        let (cell, value) = (m.cell.number(), m.value.name());
        serde_json::json!({"cell": cell, "value": value, "remoteness": m.remoteness})
    };
    let best = oracle.best_moves(&history.position());
    let best: Vec<Value> = all
        .iter()
        .filter(|m| best.contains(m.cell))
        .map(json)
        .collect();
    assert_eq!(mistake["best"], Value::Array(best), "{mistake}");
    let played = all
        .iter()
        .find(|m| m.cell.number() as u64 == mistake["played"]["cell"].as_u64().unwrap())
        .unwrap();
    assert_eq!(mistake["played"], json(played), "{mistake}");
    assert!(mistake["histories"].as_u64().unwrap() >= 1);
    assert!(mistake["games"].as_u64().unwrap() >= mistake["histories"].as_u64().unwrap());
}

/// `ttt audit ARGS --mistakes FILE --format json`: the exit code, the report, and the file's
/// lines, each checked; the lines of each side add up to the report's counts.
fn audit_with_mistakes(args: &[&str], game: Game) -> (i32, Value, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mistakes.jsonl");
    let out = ttt()
        .args(["audit", "--format", "json", "--mistakes"])
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = fs::read_to_string(&path).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for bot in report["bots"].as_array().unwrap() {
        for side in bot["sides"].as_array().unwrap() {
            let of_side: Vec<&Value> = lines
                .iter()
                .filter(|l| l["bot"] == bot["bot"] && l["side"] == side["side"])
                .collect();
            let (by_kind, total) = counts(side);
            assert_eq!(of_side.len() as u64, total, "{}", bot["bot"]);
            let mut summed: BTreeMap<String, u64> =
                by_kind.keys().map(|k| (k.clone(), 0)).collect();
            let mut distinct = BTreeSet::new();
            for line in &of_side {
                check_mistake(game, line);
                *summed.get_mut(line["kind"].as_str().unwrap()).unwrap() +=
                    line["histories"].as_u64().unwrap();
                assert!(distinct.insert((
                    line["board"].to_string(),
                    line["played"]["cell"].to_string()
                )));
            }
            assert_eq!(summed, by_kind, "{} as {}", bot["bot"], side["side"]);
            // The report's JSON lists the first of them, in the same order.
            let first = side["mistakes"]["first"].as_array().unwrap();
            assert_eq!(first.len() as u64, total.min(100));
            for (listed, line) in first.iter().zip(&of_side) {
                let mut line = (*line).clone();
                let line = line.as_object_mut().unwrap();
                for key in ["bot", "side", "game"] {
                    line.remove(key);
                }
                assert_eq!(listed, &Value::Object(line.clone()));
            }
        }
    }
    assert_eq!(names(dir.path()), ["mistakes.jsonl"]);
    (out.status.code().unwrap(), report, lines)
}

#[test]
fn marcelo_shows_where_it_lets_a_win_go() {
    let (code, text) = stdout(&["audit", "marcelo", "--side", "x"]);
    assert_eq!(code, 1);
    let expected = [
        "  mistakes: 1 (by position and move):",
        "    1. win>draw after 5 6 3 7",
        "        1 | 2 | X     X played 9: draw in 5 plies",
        "       ---+---+---    best 1 2: win in 3 plies",
        "        4 | X | O     met in 2 histories, 10 games after the move",
        "       replay: ttt review --moves \"5 6 3 7 9\"",
    ];
    for line in expected {
        assert!(text.lines().any(|l| l == line), "{line:?} in\n{text}");
    }
    // The replay command, pasted, steps through the game to the mistake, the last move, judged
    // as the audit judged it.
    let (code, review) = stdout(&["review", "--moves", "5 6 3 7 9"]);
    assert_eq!(code, 0);
    assert!(
        review.contains("Ply 5: X played 9, win to draw (D5). Best: 1 2 (W3)."),
        "{review}"
    );
}

#[test]
fn the_text_draws_the_first_three_and_fits_100_columns() {
    let (_, text) = stdout(&["audit", "smartbot", "random", "marcelo"]);
    assert!(text.lines().all(|l| l.chars().count() <= 100));
    // Six sides, each with mistakes, at most three drawn each.
    assert_eq!(text.matches("  mistakes: ").count(), 6);
    let drawn = |n: usize| {
        let kinds = ["win>", "draw>", "slow win"].map(|k| format!("    {n}. {k}"));
        text.lines()
            .filter(|l| kinds.iter().any(|k| l.starts_with(k.as_str())))
            .count()
    };
    // marcelo as X made one mistake; every other side three or more.
    assert_eq!((drawn(1), drawn(3), drawn(4)), (6, 5, 0), "{text}");
    assert!(
        text.contains("mistakes: 125 by position and move; the first 3 (--mistakes FILE: all):")
    );
    // On a larger board too.
    let (_, text) = stdout(&["audit", "random", "--game", "3x4", "--side", "o"]);
    assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
    assert!(text.contains("replay: ttt review --game 3x4 --moves \""));
}

#[test]
fn every_mistake_of_built_in_bots_is_a_line_that_adds_up_to_the_report() {
    let (code, report, lines) = audit_with_mistakes(
        &["smartbot", "marcelo", "geeks-minimax", "perfect"],
        Game::TIC_TAC_TOE,
    );
    assert_eq!(code, 1);
    assert_eq!(report["bots"].as_array().unwrap().len(), 4);
    // smartbot's 125 and 52, marcelo's 1 and 6, geeks-minimax's slow wins, perfect none.
    let kinds: BTreeSet<&str> = lines.iter().map(|l| l["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        BTreeSet::from(["draw_to_loss", "slow_win", "win_to_draw", "win_to_loss"])
    );
    assert!(lines.iter().all(|l| l["bot"] != "perfect"));
    // The same bytes on every run.
    let (_, _, again) = audit_with_mistakes(
        &["smartbot", "marcelo", "geeks-minimax", "perfect"],
        Game::TIC_TAC_TOE,
    );
    assert_eq!(lines, again);
}

#[test]
fn another_game_and_an_external_bot() {
    let (code, _, lines) = audit_with_mistakes(
        &["casual:0.5", "--game", "3x4", "--side", "x"],
        "3x4".parse().unwrap(),
    );
    assert_eq!(code, 0);
    assert!(lines.len() > 1000);
    assert!(
        lines
            .iter()
            .all(|l| l["game"] == "3x4" && l["kind"] == "slow_win")
    );
    let perl = [
        "--cmd",
        "perl data/bots/centre_win_block.pl",
        "--name",
        "cwb",
    ];
    let (code, _, lines) = audit_with_mistakes(&perl, Game::TIC_TAC_TOE);
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 9);
    assert!(
        lines
            .iter()
            .all(|l| l["bot"] == "cwb" && l.get("game").is_none())
    );
}

#[test]
fn a_path_that_cannot_be_written_or_a_game_without_a_table_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (path, why) in [
        (".", "Is a directory (os error 21)"),
        ("missing/m.jsonl", "No such file or directory (os error 2)"),
    ] {
        ttt()
            .current_dir(dir.path())
            .args(["audit", "smartbot", "--mistakes", path])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("error: cannot write \"{path}\": {why}\n"));
    }
    ttt()
        .current_dir(dir.path())
        .args(["audit", "random", "--game", "5x5", "--mistakes", "m.jsonl"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--mistakes needs a table"));
    ttt()
        .args([
            "audit",
            "smartbot",
            "--mistakes",
            "-",
            "--losing-games",
            "-",
        ])
        .assert()
        .code(2)
        .stdout("");
    // One file under two spellings, or through a link: one would replace the other.
    std::fs::write(dir.path().join("kept"), "as it was\n").unwrap();
    std::os::unix::fs::symlink("kept", dir.path().join("link")).unwrap();
    for (games, mistakes) in [("new.jsonl", "./new.jsonl"), ("kept", "link")] {
        ttt()
            .current_dir(dir.path())
            .args(["audit", "smartbot", "--mistakes", mistakes])
            .args(["--losing-games", games])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("one would replace the other"));
    }
    let kept = std::fs::read_to_string(dir.path().join("kept")).unwrap();
    assert_eq!(kept, "as it was\n");
    assert_eq!(names(dir.path()), ["kept", "link"]);
}

#[test]
fn a_bot_that_breaks_the_protocol_leaves_the_file_as_it_was_and_dash_holds_the_lines_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.jsonl");
    fs::write(&path, "precious").unwrap();
    let inode = fs::metadata(&path).unwrap().ino();
    ttt()
        .args([
            "audit",
            "smartbot",
            "--cmd",
            &misbehave("garbage-o"),
            "--mistakes",
        ])
        .arg(&path)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("replied \"banana\""));
    assert_eq!(fs::read_to_string(&path).unwrap(), "precious");
    assert_eq!(fs::metadata(&path).unwrap().ino(), inode);
    assert_eq!(names(dir.path()), ["m.jsonl"]);
    let (code, text) = stdout(&["audit", "marcelo", "--mistakes", "-"]);
    assert_eq!(code, 1);
    assert_eq!(text.lines().count(), 7);
    assert!(text.lines().all(|l| l.starts_with("{\"bot\":\"marcelo\",")));
}

#[test]
fn both_walks_list_the_same_mistakes_and_their_histories_add_up_to_the_counts() {
    for spec in ["smartbot", "random", "epsilon:1/3", "geeks-minimax"] {
        for side in Player::BOTH {
            for game in [Game::TIC_TAC_TOE, "2x3k2".parse().unwrap()] {
                let mut bot = bots::from_spec(spec).unwrap();
                if bot.plays(game).is_err() {
                    continue;
                }
                let options = AuditOptions {
                    mistakes: usize::MAX,
                    ..AuditOptions::new(game, side)
                };
                let solved = |report: Report| report.solved().unwrap().clone();
                let fast = solved(audit(bot.as_mut(), &options).unwrap());
                let mut slow_bot = ByHistories(bots::from_spec(spec).unwrap());
                let slow = solved(audit(&mut slow_bot, &options).unwrap());
                assert_eq!(fast.mistakes, slow.mistakes, "{spec} as {side} on {game}");
                let list = &fast.mistakes.list;
                assert_eq!(list.len() as u64, fast.mistakes.total);
                let sum = |kind: MistakeKind| -> u64 {
                    list.iter()
                        .filter(|m| m.kind == kind)
                        .map(|m| m.histories)
                        .sum()
                };
                let b = &fast.blunders;
                assert_eq!(sum(MistakeKind::WinToDraw), b.win_to_draw);
                assert_eq!(sum(MistakeKind::WinToLoss), b.win_to_loss);
                assert_eq!(sum(MistakeKind::DrawToLoss), b.draw_to_loss);
                assert_eq!(sum(MistakeKind::SlowWin), fast.slow_wins);
                // A shorter list is the start of the whole one.
                let options = AuditOptions {
                    mistakes: 3,
                    ..options
                };
                let short = solved(audit(bot.as_mut(), &options).unwrap()).mistakes;
                assert_eq!(short.total, fast.mistakes.total);
                assert_eq!(short.list[..], list[..list.len().min(3)]);
            }
        }
    }
}
