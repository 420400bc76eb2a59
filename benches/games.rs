//! The m,n,k games, through the public API: queries on 4x4 beside the same queries on 3x3, and
//! the solve of every embedded game as `ttt verify` runs it (decoded, solved again, compared)
//! beside a plain memoised C solver of 4x4's values alone (benches/mnk_solver.c, built with the
//! machine's C compiler), all in one run.
//!
//! `cargo bench --bench games`; `python3 benches/report.py games` prints the medians.

#[path = "common/c_solver.rs"]
mod c_solver;

use std::hint::black_box;
use std::process::Command;
use std::time::Duration;

use c_solver::c_solver;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ttt_oracle::{Cell, Game, Oracle, Player, Position, SplitMix64};

/// 4,520 legal 4x4 positions still in play, most not canonical: random games from a fixed
/// seed, cut at a random ply.
fn four_by_four() -> Vec<Position> {
    let game: Game = "4x4".parse().unwrap();
    let mut rng = SplitMix64::new(2026);
    let mut boards = Vec::new();
    while boards.len() < 4520 {
        let mut board = Position::empty(game);
        let stop = rng.next_u64() % 16;
        for _ in 0..stop {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pick = rng.next_u64() % moves.len() as u64;
            let cell = moves.iter().nth(pick as usize).unwrap();
            board = board.play(cell).unwrap();
        }
        if !board.is_over() {
            boards.push(board);
        }
    }
    boards
}

/// One number to assert per pass: a sum, one addition a query, so that the chain of
/// additions does not hide the cost of the queries (a multiply a query took about 1 ns).
fn digest(values: impl Iterator<Item = u64>) -> u64 {
    values.fold(0, u64::wrapping_add)
}

/// `boards` as the `ai-tictactoe` crate holds them, each reached by its marks in turn (a board
/// in play has no line, so no earlier one does either).
fn peer_positions(boards: &[Position]) -> Vec<ai_tictactoe::Position> {
    boards
        .iter()
        .map(|board| {
            let cells = |player| board.marks(player).iter().map(|cell: Cell| cell.index());
            let (xs, mut os) = (cells(Player::X), cells(Player::O));
            let mut moves = Vec::new();
            for x in xs {
                moves.push(x);
                moves.extend(os.next());
            }
            let moves: Vec<_> = moves
                .into_iter()
                .map(|i| ai_tictactoe::Move::new(ai_tictactoe::Square::new(i as u8)))
                .collect();
            ai_tictactoe::Position::from_moves(&moves).unwrap()
        })
        .collect()
}

/// What a move costs a position (it keeps its base-3 code, one addition a move), alone and with
/// the best move of the board it makes, as a program playing a game asks it: each of the 4,520
/// tic-tac-toe positions in play takes its lowest empty cell.
fn play(c: &mut Criterion, three: &[Position], oracle3: &Oracle) {
    let after = |b: &Position| b.play(b.legal_moves().iter().next().unwrap()).unwrap();
    let ply = |b: &Position| after(b).ply() as u64;
    let reply = |b: &Position| {
        let best = oracle3.best_move(&after(b));
        best.map_or(0, |cell| u64::from(cell.number()))
    };
    let (plies, replies) = (
        digest(three.iter().map(ply)),
        digest(three.iter().map(reply)),
    );
    let mut group = c.benchmark_group("games_play");
    group.throughput(Throughput::Elements(three.len() as u64));
    group.bench_function("3x3_play", |b| {
        b.iter(|| assert_eq!(digest(black_box(three).iter().map(ply)), plies))
    });
    group.bench_function("3x3_play_and_best_move", |b| {
        b.iter(|| assert_eq!(digest(black_box(three).iter().map(reply)), replies))
    });
    group.finish();
}

/// Tic-tac-toe's best move from our table, beside the `ai-tictactoe` crate's tablebase and the
/// floor: the same code worked out from the marks and one byte read from a 19.7 KB array.
fn peers(c: &mut Criterion, three: &[Position], oracle3: &Oracle) {
    let peer = ai_tictactoe::Tablebase::build();
    let theirs = peer_positions(three);
    let answers: Vec<usize> = theirs
        .iter()
        .map(|p| peer.best_move(*p).unwrap().square().index())
        .collect();
    // Their move is one of ours: both tables play perfectly.
    for (board, &answer) in three.iter().zip(&answers) {
        let ours = oracle3.best_moves(board);
        assert!(ours.iter().any(|cell| cell.index() == answer), "{board}");
    }
    let expected_theirs = digest(answers.iter().map(|&i| i as u64 + 1));
    let expected_ours = digest(
        three
            .iter()
            .map(|b| u64::from(oracle3.best_move(b).unwrap().number())),
    );
    let ternary: Vec<usize> = (0..512usize)
        .map(|mask| {
            (0..9)
                .filter(|i| mask >> i & 1 != 0)
                .map(|i| 3usize.pow(i))
                .sum()
        })
        .collect();
    let code = |b: &Position| {
        let bits = |player| b.marks(player).bits() as usize & 0x1ff;
        ternary[bits(Player::X)] + 2 * ternary[bits(Player::O)]
    };
    let mut floor = vec![0u8; 19_683];
    for board in three {
        floor[code(board)] = oracle3.best_move(board).unwrap().number();
    }
    let mut group = c.benchmark_group("peers_3x3_best_move");
    group.throughput(Throughput::Elements(three.len() as u64));
    group.bench_function("ttt_oracle", |b| {
        b.iter(|| {
            let d = digest(
                black_box(three)
                    .iter()
                    .map(|b| u64::from(oracle3.best_move(b).unwrap().number())),
            );
            assert_eq!(d, expected_ours);
        })
    });
    group.bench_function("ai_tictactoe", |b| {
        b.iter(|| {
            let d = digest(
                black_box(&theirs)
                    .iter()
                    .map(|p| peer.best_move(*p).unwrap().square().index() as u64 + 1),
            );
            assert_eq!(d, expected_theirs);
        })
    });
    group.bench_function("floor_one_byte", |b| {
        b.iter(|| {
            let d = digest(black_box(three).iter().map(|b| u64::from(floor[code(b)])));
            assert_eq!(d, expected_ours);
        })
    });
    group.finish();
}

fn queries(c: &mut Criterion) {
    let three: Vec<Position> = Position::reachable(Game::TIC_TAC_TOE)
        .filter(|b| !b.is_over())
        .collect();
    let oracle3 = Oracle::of(Game::TIC_TAC_TOE).unwrap();
    let four = four_by_four();
    // The front door on 4x4, as a user asks it: unpacked after its first lookups.
    let oracle4 = Oracle::of("4x4".parse().unwrap()).unwrap();
    for board in &four {
        oracle4.probe(board);
    }
    let expected3 = digest(
        three
            .iter()
            .map(|b| u64::from(oracle3.best_move(b).unwrap().number())),
    );
    let best4 = |boards: &[Position]| {
        digest(
            boards
                .iter()
                .map(|b| u64::from(oracle4.best_move(b).unwrap().number())),
        )
    };
    let expected4 = best4(&four);
    let probes4 = digest(four.iter().map(|b| u64::from(oracle4.probe(b).remoteness)));
    let mut group = c.benchmark_group("games_query");
    group.throughput(Throughput::Elements(4520));
    group.bench_function("3x3_best_move", |b| {
        b.iter(|| {
            let d = digest(
                black_box(&three)
                    .iter()
                    .map(|b| u64::from(oracle3.best_move(b).unwrap().number())),
            );
            assert_eq!(d, expected3);
        })
    });
    group.bench_function("4x4_best_move_oracle", |b| {
        b.iter(|| assert_eq!(best4(black_box(&four)), expected4))
    });
    group.bench_function("4x4_value_remoteness", |b| {
        b.iter(|| {
            let d = digest(
                black_box(&four)
                    .iter()
                    .map(|b| u64::from(oracle4.probe(b).remoteness)),
            );
            assert_eq!(d, probes4);
        })
    });
    group.finish();
    play(c, &three, &oracle3);
    peers(c, &three, &oracle3);
}

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("games_solve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("verify_every_embedded_game", |b| {
        b.iter(|| {
            for &game in Game::EMBEDDED {
                let verification = Oracle::of(black_box(game)).unwrap().verify().unwrap();
                assert!(verification.is_ok(), "{game}");
            }
        })
    });
    if let Some(solver) = c_solver("mnk_solver") {
        group.bench_function("c_memoised_4x4_values", |b| {
            b.iter(|| {
                let out = Command::new(&solver).output().unwrap();
                assert_eq!(out.stdout, b"0\n");
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = queries, solve
}
criterion_main!(benches);
