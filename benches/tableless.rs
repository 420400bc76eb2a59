//! The audit without a table: marcelo on 5x5, each side, through the one `audit` (boards
//! beyond 16 cells), and on 3x3 (the crate's internal walk, which `audit` keeps for boards
//! without a table) beside the same walk by histories (the bot not declaring what its answers
//! depend on, so that nothing is remembered); the searches alone for 5x5's shortest lines,
//! beside the same searches for a bot that does not say it blocks threats (a loss then needs
//! only a line, not a fork), and on 7x7; all in one run.
//!
//! `cargo bench --bench tableless` (a few minutes: 5x5 as O takes seconds an audit);
//! `python3 benches/report.py tableless` prints the medians.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use ttt_oracle::audit::audit_tableless;
use ttt_oracle::audit::{AuditBudget, TablelessReport, Verdict};
use ttt_oracle::bots::{self, Bot};
use ttt_oracle::{AuditOptions, Game, Player, audit};

#[path = "../tests/common/blocks_unsaid.rs"]
mod blocks_unsaid;
#[path = "../tests/common/by_histories.rs"]
mod by_histories;
use blocks_unsaid::BlocksUnsaid;
use by_histories::ByHistories;

/// The audit without a table of `bot` on `side` of `game`, within `budget`: through `audit`
/// on a board beyond 16 cells, through the crate's internal walk on one with a table.
fn without_table(
    bot: &mut dyn Bot,
    game: Game,
    side: Player,
    budget: AuditBudget,
) -> TablelessReport {
    if game.has_table() {
        return audit_tableless(bot, game, side, budget).expect("a built-in bot always answers");
    }
    let options = AuditOptions {
        budget,
        ..AuditOptions::new(game, side)
    };
    let report = audit(bot, &options).expect("a built-in bot always answers");
    report.searched().expect("a board without a table").clone()
}

/// Both sides of `bot` on `game`: what each loses on the board, and each verdict.
fn audit_sides(bot: &mut dyn Bot, game: Game, sides: &[Player]) -> Vec<(u64, Option<Verdict>)> {
    sides
        .iter()
        .map(|&side| {
            let report = without_table(bot, black_box(game), side, AuditBudget::DEFAULT);
            (
                report.counts.expect("within the budget").losing_games,
                report.verdict(),
            )
        })
        .collect()
}

fn audits(c: &mut Criterion) {
    let both = [Player::X, Player::O];
    let mut group = c.benchmark_group("tableless");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    // marcelo never loses on the board on 3x3 as X, and loses as O; it forfeits on both.
    let three = [
        (0, Some(Verdict::BreaksRules)),
        (12, Some(Verdict::CanLoseAndBreaksRules)),
    ];
    group.bench_function("3x3_marcelo", |b| {
        let mut marcelo = bots::builtin("marcelo").unwrap();
        b.iter(|| {
            assert_eq!(
                audit_sides(marcelo.as_mut(), Game::TIC_TAC_TOE, &both),
                three
            )
        })
    });
    group.bench_function("3x3_marcelo_by_histories", |b| {
        let mut marcelo = ByHistories(bots::builtin("marcelo").unwrap());
        b.iter(|| assert_eq!(audit_sides(&mut marcelo, Game::TIC_TAC_TOE, &both), three))
    });
    let five: Game = "5x5".parse().unwrap();
    let lost = Some(Verdict::CanLoseAndBreaksRules);
    for (name, side, losses) in [
        ("5x5_marcelo_x", Player::X, 10896),
        ("5x5_marcelo_o", Player::O, 27526256),
    ] {
        group.bench_function(name, |b| {
            let mut marcelo = bots::builtin("marcelo").unwrap();
            b.iter(|| {
                assert_eq!(
                    audit_sides(marcelo.as_mut(), five, &[side]),
                    [(losses, lost)]
                )
            })
        });
    }
    // The searches alone (a walk given no room): each side's shortest forfeit and loss.
    let searches = |bot: &mut dyn Bot, game: Game, searched: usize| {
        let budget = AuditBudget {
            states: 1,
            searched,
        };
        both.map(|side| {
            let report = without_table(bot, black_box(game), side, budget);
            let plies = |line: Option<&Vec<_>>| line.map(Vec::len);
            (
                plies(report.shortest_illegal.line().map(|line| &line.moves)),
                plies(report.shortest_loss.line().map(|line| &line.moves)),
            )
        })
    };
    let five_lines = [(Some(6), Some(16)), (Some(5), Some(15))];
    group.bench_function("5x5_marcelo_searches", |b| {
        let mut marcelo = bots::builtin("marcelo").unwrap();
        b.iter(|| assert_eq!(searches(marcelo.as_mut(), five, 20_000_000), five_lines))
    });
    group.bench_function("5x5_marcelo_searches_blocks_unsaid", |b| {
        let mut marcelo = BlocksUnsaid(bots::builtin("marcelo").unwrap());
        b.iter(|| assert_eq!(searches(&mut marcelo, five, 20_000_000), five_lines))
    });
    // 7x7, where the walk cannot finish: the searches settle the verdict and both lines.
    let seven: Game = "7x7".parse().unwrap();
    group.bench_function("7x7_marcelo_searches", |b| {
        let mut marcelo = bots::builtin("marcelo").unwrap();
        b.iter(|| {
            assert_eq!(
                searches(marcelo.as_mut(), seven, AuditBudget::DEFAULT.searched),
                [(Some(8), Some(24)), (Some(9), Some(23))]
            )
        })
    });
    group.finish();
}

criterion_group!(benches, audits);
criterion_main!(benches);
