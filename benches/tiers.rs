//! The tiered solve (src/tiers.rs) of 4x4, value and remoteness of every board, on 1 and on 2
//! threads, against benches/mnk_solver.c with the same 8 symmetries (built with `cc -O2`, run
//! as a process) and the solve of the build (value, remoteness and optimal moves, as `ttt verify
//! --game 4x4` runs it: the embedded table decoded, solved again and compared), all in one
//! run. The 20-cell games, too long for criterion, are timed by `benches/solve.py`.

#[path = "common/c_solver.rs"]
mod c_solver;

use std::hint::black_box;
use std::process::Command;
use std::time::Duration;

use c_solver::c_solver;
use criterion::{Criterion, criterion_group, criterion_main};
use ttt_oracle::tiers::{Tiers, solve_in_memory};
use ttt_oracle::{Game, Oracle};

fn solve(c: &mut Criterion) {
    let game: Game = "4x4".parse().unwrap();
    let mut group = c.benchmark_group("tiers_4x4");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(format!("tiered_{threads}_threads"), |b| {
            b.iter(|| {
                pool.install(|| {
                    let tiers = Tiers::new(black_box(game));
                    let solved = solve_in_memory(&tiers);
                    // The empty board: a draw in 16 plies.
                    assert_eq!(solved[0][0], 1 + 32 + 16);
                })
            })
        });
    }
    group.bench_function("verify", |b| {
        b.iter(|| {
            assert!(
                Oracle::of(black_box(game))
                    .unwrap()
                    .verify()
                    .unwrap()
                    .is_ok()
            )
        })
    });
    if let Some(solver) = c_solver("mnk_solver_tiers") {
        group.bench_function("c_memoised_8_symmetries", |b| {
            b.iter(|| {
                let out = Command::new(&solver)
                    .args(["4", "4", "4", "sym"])
                    .output()
                    .unwrap();
                assert_eq!(out.stdout, b"0 16\n");
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
