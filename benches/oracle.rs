//! How fast the table answers, against searching the game tree from scratch in the same run.
//!
//! Every benchmark asserts the result it computes, so a fast wrong answer cannot look good.
//! Audits and matches are measured as `audit` and `matchup` run them and, where they walk
//! positions (memoryless bots), again by histories (the baseline).
//!
//! Run with `cargo bench --bench oracle`; `benches/report.py` turns criterion's estimates into
//! the table in docs/performance.md (medians per query, and ratios to the baselines).

#[path = "../tests/common/by_histories.rs"]
mod by_histories;

use std::hint::black_box;
use std::time::Duration;

use by_histories::ByHistories;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ttt_oracle::audit::Report;
use ttt_oracle::bots::{self, Bot};
use ttt_oracle::{
    AuditOptions, Cell, Game, Oracle, Player, Position, audit, matchup,
    matchup::{MatchOptions, MatchReport},
};

/// The 4,520 positions where the game goes on, most of them not canonical.
fn positions() -> Vec<Position> {
    Position::reachable(Game::TIC_TAC_TOE)
        .filter(|b| !b.is_over())
        .collect()
}

/// Negamax score of `board` for its side to move, measured from the empty board: a win at
/// ply `p` scores `100 - p`, a loss `-(100 - p)`, a draw 0. Faster wins and slower losses score
/// higher, exactly the table's order.
fn terminal_score(board: Position) -> Option<i32> {
    if board.winner().is_some() {
        Some(-(100 - board.ply() as i32))
    } else if board.ply() == 9 {
        Some(0)
    } else {
        None
    }
}

/// Plain minimax over the whole subtree, as the seed bots do on every move.
fn minimax(board: Position) -> i32 {
    if let Some(score) = terminal_score(board) {
        return score;
    }
    board
        .legal_moves()
        .iter()
        .map(|cell| -minimax(board.play(cell).unwrap()))
        .max()
        .unwrap()
}

/// Minimax with alpha-beta pruning, the usual improvement.
fn alphabeta(board: Position, mut alpha: i32, beta: i32) -> i32 {
    if let Some(score) = terminal_score(board) {
        return score;
    }
    let mut best = i32::MIN + 1;
    for cell in board.legal_moves() {
        let score = -alphabeta(board.play(cell).unwrap(), -beta, -alpha);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The first cell of the best score, like the table's `best_move`.
fn search_best(board: Position, score: impl Fn(Position, i32) -> i32) -> Cell {
    let mut best: Option<(i32, Cell)> = None;
    for cell in board.legal_moves() {
        let floor = best.map_or(i32::MIN + 1, |(s, _)| s);
        let s = -score(board.play(cell).unwrap(), floor);
        if best.is_none_or(|(top, _)| s > top) {
            best = Some((s, cell));
        }
    }
    best.unwrap().1
}

/// Sum of cell numbers of the chosen moves: one number to assert per pass.
fn digest(cells: impl Iterator<Item = Cell>) -> u64 {
    cells.map(|c| u64::from(c.number())).sum()
}

/// The table's best move against minimax and alpha-beta from scratch, on the same `boards`.
fn compare(c: &mut Criterion, name: &str, boards: &[Position], minimax_time: Duration) {
    let table = Oracle::of(Game::TIC_TAC_TOE).unwrap();
    let expected = digest(boards.iter().map(|b| table.best_move(b).unwrap()));
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("table", |b| {
        b.iter(|| {
            let sum = digest(
                boards
                    .iter()
                    .map(|board| table.best_move(black_box(board)).unwrap()),
            );
            assert_eq!(black_box(sum), expected);
        })
    });
    group.bench_function("alphabeta", |b| {
        b.iter(|| {
            let sum = digest(boards.iter().map(|&board| {
                search_best(black_box(board), |child, floor| {
                    alphabeta(child, -1000, -floor)
                })
            }));
            assert_eq!(black_box(sum), expected);
        })
    });
    group.sample_size(10).measurement_time(minimax_time);
    group.bench_function("minimax", |b| {
        b.iter(|| {
            let sum = digest(
                boards
                    .iter()
                    .map(|&board| search_best(black_box(board), |child, _| minimax(child))),
            );
            assert_eq!(black_box(sum), expected);
        })
    });
    group.finish();
}

fn queries(c: &mut Criterion) {
    let boards = positions();
    assert_eq!(boards.len(), 4520);
    let table = Oracle::of(Game::TIC_TAC_TOE).unwrap();
    let moves_expected: usize = boards.iter().map(|b| b.legal_moves().len()).sum();

    compare(c, "best_move", &boards, Duration::from_secs(20));
    // The positions where a search is most expensive: the empty board and the nine after
    // the first move, where the seed bots search the whole tree.
    let openings: Vec<Position> = boards.iter().copied().filter(|b| b.ply() <= 1).collect();
    assert_eq!(openings.len(), 10);
    compare(c, "best_move_opening", &openings, Duration::from_secs(10));

    let mut group = c.benchmark_group("analyze");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("table", |b| {
        b.iter(|| {
            let n: usize = boards
                .iter()
                .map(|board| table.moves(black_box(board)).len())
                .sum();
            assert_eq!(black_box(n), moves_expected);
        })
    });
    group.finish();
}

/// The solve of tic-tac-toe as `ttt verify` runs it: the embedded table decoded, solved again
/// and compared.
fn solve(c: &mut Criterion) {
    let oracle = Oracle::of(Game::TIC_TAC_TOE).unwrap();
    c.bench_function("solve", |b| {
        b.iter(|| assert!(black_box(&oracle).verify().unwrap().is_ok()))
    });
}

/// Both sides of `bot`'s audit.
fn both_sides(bot: &mut dyn Bot) -> [Report; 2] {
    Player::BOTH.map(|side| audit(bot, &AuditOptions::new(Game::TIC_TAC_TOE, side)).unwrap())
}

/// Every built-in bot and two styles, both sides, as `audit` runs them (by positions for a
/// memoryless bot), and each memoryless one again by histories in `audit_by_histories`. Both
/// must give the report the history walk gives, every figure of it.
fn audits(c: &mut Criterion) {
    let specs: Vec<&str> = bots::CATALOG
        .iter()
        .map(|info| info.name)
        .chain(["casual:0.25", "epsilon:0.1"])
        .collect();
    let make = |spec| bots::from_spec(spec).unwrap();
    let expected: Vec<[Report; 2]> = specs
        .iter()
        .map(|spec| both_sides(&mut ByHistories(make(spec))))
        .collect();
    let mut group = c.benchmark_group("audit");
    for (spec, expected) in specs.iter().zip(&expected) {
        group.bench_function(*spec, |b| {
            b.iter(|| {
                let mut bot = make(spec);
                assert_eq!(&black_box(both_sides(bot.as_mut())), expected);
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("audit_by_histories");
    for (spec, expected) in specs.iter().zip(&expected) {
        if !make(spec).memoryless() {
            // Walked by histories in `audit` already.
            continue;
        }
        // random and epsilon explore all 510,336 games, 80 ms or more.
        let slow = *spec == "random" || spec.starts_with("epsilon");
        group.sample_size(if slow { 10 } else { 100 });
        group.bench_function(*spec, |b| {
            b.iter(|| {
                let mut bot = ByHistories(make(spec));
                assert_eq!(&black_box(both_sides(&mut bot)), expected);
            })
        });
    }
    group.finish();
}

/// Every match of `pairs` (indices into `names`), each bot made once by `make` for all its
/// matches and once more to play itself, as `ttt match` plays them.
fn play_matches(
    names: &[&str],
    pairs: &[(usize, usize)],
    make: &dyn Fn(&str) -> Box<dyn Bot + Send>,
) -> Vec<MatchReport> {
    let mut players: Vec<_> = names.iter().map(|name| make(name)).collect();
    let mut twins: Vec<_> = names.iter().map(|name| make(name)).collect();
    pairs
        .iter()
        .map(|&(i, j)| {
            let (x, o) = if i == j {
                (&mut players[i], &mut twins[i])
            } else {
                let (x, rest) = players.split_at_mut(i.max(j));
                let (low, high) = (&mut x[i.min(j)], &mut rest[0]);
                if i < j { (low, high) } else { (high, low) }
            };
            matchup(x.as_mut(), o.as_mut(), &MatchOptions::default()).unwrap()
        })
        .collect()
}

/// `perfect` against `random` in both orders (`ttt match perfect random`), and every ordered
/// pair of the built-in bots (`ttt match --all`), as `matchup` plays them (by positions when
/// both bots are memoryless), and again by histories in `match_by_histories`, the baseline,
/// whose reports they must equal.
fn matches(c: &mut Criterion) {
    let make = |spec: &str| bots::from_spec(spec).unwrap();
    let by_histories = |spec: &str| -> Box<dyn Bot + Send> { Box::new(ByHistories(make(spec))) };
    let built_in: Vec<&str> = bots::CATALOG.iter().map(|info| info.name).collect();
    let n = built_in.len();
    let every_pair: Vec<(usize, usize)> =
        (0..n).flat_map(|i| (0..n).map(move |j| (i, j))).collect();
    let cases = [
        (
            "perfect-random",
            vec!["perfect", "random"],
            vec![(0, 1), (1, 0)],
        ),
        ("all-built-in", built_in, every_pair),
    ];
    let expected: Vec<Vec<MatchReport>> = cases
        .iter()
        .map(|(_, names, pairs)| play_matches(names, pairs, &by_histories))
        .collect();
    // perfect as X meets random in the games of its audit.
    assert_eq!(expected[0][0].games, 10_640);
    assert_eq!(expected[1].len(), 100);
    let mut group = c.benchmark_group("match");
    for ((name, names, pairs), reports) in cases.iter().zip(&expected) {
        group.bench_function(*name, |b| {
            b.iter(|| assert_eq!(&black_box(play_matches(names, pairs, &make)), reports));
        });
    }
    group.finish();
    let mut group = c.benchmark_group("match_by_histories");
    // random against itself is all 549,946 positions of the game tree, one at a time.
    group.sample_size(10);
    for ((name, names, pairs), reports) in cases.iter().zip(&expected) {
        group.bench_function(*name, |b| {
            b.iter(|| {
                assert_eq!(
                    &black_box(play_matches(names, pairs, &by_histories)),
                    reports
                )
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = queries, solve, audits, matches
}
criterion_main!(benches);
