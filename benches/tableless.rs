//! The audit without a table: marcelo on 5x5, each side, and on 3x3 beside the same walk by
//! histories (the bot not declaring what its answers depend on, so that nothing is
//! remembered), all in one run.
//!
//! `cargo bench --bench tableless` (a few minutes: 5x5 as O takes seconds an audit);
//! `python3 benches/report.py tableless` prints the medians.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use ttt_oracle::bots::{self, Bot};
use ttt_oracle::{AuditBudget, Mnk, Player, Verdict, audit_tableless};

#[path = "../tests/common/by_histories.rs"]
mod by_histories;
use by_histories::ByHistories;

/// Both sides of `bot` on `game`: what each loses on the board, and each verdict.
fn audit_sides(bot: &mut dyn Bot, game: Mnk, sides: &[Player]) -> Vec<(u64, Option<Verdict>)> {
    sides
        .iter()
        .map(|&side| {
            let report = audit_tableless(bot, black_box(game), side, AuditBudget::DEFAULT)
                .expect("a built-in bot always answers");
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
                audit_sides(marcelo.as_mut(), Mnk::TIC_TAC_TOE, &both),
                three
            )
        })
    });
    group.bench_function("3x3_marcelo_by_histories", |b| {
        let mut marcelo = ByHistories(bots::builtin("marcelo").unwrap());
        b.iter(|| assert_eq!(audit_sides(&mut marcelo, Mnk::TIC_TAC_TOE, &both), three))
    });
    let five: Mnk = "5x5".parse().unwrap();
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
    group.finish();
}

criterion_group!(benches, audits);
criterion_main!(benches);
