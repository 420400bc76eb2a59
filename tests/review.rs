//! Game review: every move of every game judged as an independent minimax judges it.

use std::collections::HashMap;

use serde_json::json;
use ttt_oracle::{
    Board, Cells, Game, MoveVerdict, Player, PlyReview, Review, Value, audit, bots, table,
};

/// What [`minimax`] found, by the board's base-3 code.
type Memo = Vec<Option<(Value, u8)>>;

/// Value and remoteness for the side to move, by plain minimax over the rules: no table, no
/// symmetry, none of the library's solver.
fn minimax(board: Board, memo: &mut Memo) -> (Value, u8) {
    if let Some(known) = memo[board.code()] {
        return known;
    }
    let result = if board.winner().is_some() {
        (Value::Loss, 0)
    } else if board.is_over() {
        (Value::Draw, 0)
    } else {
        board
            .legal_moves()
            .iter()
            .map(|cell| made(board, cell, memo))
            .max_by_key(|&(value, remoteness)| preference(value, remoteness))
            .unwrap()
    };
    memo[board.code()] = Some(result);
    result
}

/// What playing `cell` on `board` is worth to the player making it, and plies from before it
/// to the end.
fn made(board: Board, cell: ttt_oracle::Cell, memo: &mut Memo) -> (Value, u8) {
    let (value, remoteness) = minimax(board.play(cell).unwrap(), memo);
    (-value, remoteness + 1)
}

/// Higher is better for the player moving: the value, then the fastest win, the slowest loss.
fn preference(value: Value, remoteness: u8) -> (i32, i32) {
    let plies = i32::from(remoteness);
    match value {
        Value::Win => (2, -plies),
        Value::Draw => (1, 0),
        Value::Loss => (0, plies),
    }
}

/// The verdict on `cell` as the issue words it: best among the optimal moves; otherwise by how
/// the value fell, or, when it held, a win made slower or a loss made faster.
fn expected(board: Board, cell: ttt_oracle::Cell, memo: &mut Memo) -> (Cells, &'static str) {
    let before = minimax(board, memo);
    let top = preference(before.0, before.1);
    let optimal: Cells = board
        .legal_moves()
        .iter()
        .filter(|&c| {
            let (value, remoteness) = made(board, c, memo);
            preference(value, remoteness) == top
        })
        .collect();
    let (value, _) = made(board, cell, memo);
    let verdict = match (before.0, value) {
        _ if optimal.contains(cell) => "best",
        (Value::Win, Value::Draw) => "win_to_draw",
        (Value::Win, Value::Loss) => "win_to_loss",
        (Value::Draw, Value::Loss) => "draw_to_loss",
        (Value::Win, Value::Win) => "slow_win",
        (Value::Loss, Value::Loss) => "fast_loss",
        other => panic!("{board} {cell}: a move cannot go from {other:?}"),
    };
    (optimal, verdict)
}

/// Walks every game, finished or not (all 549,946 move sequences), reviews each, and checks
/// that it extends the review of the game one move shorter by one ply judged as [`expected`]
/// says. Returns how often each verdict was given, by the side that moved.
fn review_every_game() -> HashMap<(Player, &'static str), u64> {
    let table = table();
    let mut memo: Memo = vec![None; 19_683];
    let mut counts = HashMap::new();
    // What `expected` says of each move on each board, worked out once.
    let mut judged: Vec<Option<(Cells, &str)>> = vec![None; 19_683 * 9];
    // Each game with the board before its last move and the review of the game without it.
    let mut stack: Vec<(Game, Board, Vec<PlyReview>)> =
        vec![(Game::new(), Board::EMPTY, Vec::new())];
    let mut games = 0;
    while let Some((game, before, earlier)) = stack.pop() {
        games += 1;
        let review = Review::new(table, &game);
        let board = game.board();
        assert_eq!(review.moves, game.moves());
        assert_eq!(review.status, board.status());
        assert_eq!(review.plies.len(), game.moves().len());
        assert_eq!(
            review.plies[..earlier.len()],
            earlier[..],
            "{:?}",
            game.moves()
        );
        let mistakes = review
            .plies
            .iter()
            .filter(|p| p.verdict.is_mistake())
            .count();
        assert_eq!(review.mistakes(), mistakes);
        if let Some(last) = review.plies.last() {
            let (value_before, remoteness_before) = minimax(before, &mut memo);
            let (value, remoteness) = made(before, last.cell, &mut memo);
            let (optimal, verdict) = *judged[before.code() * 9 + last.cell.index()]
                .get_or_insert_with(|| expected(before, last.cell, &mut memo));
            // Named in a failure only, formatted only then.
            let moves = game.moves();
            assert_eq!(last.ply, game.moves().len(), "{moves:?}");
            assert_eq!(last.player, before.to_move(), "{moves:?}");
            assert_eq!(last.cell, *game.moves().last().unwrap(), "{moves:?}");
            assert_eq!(
                (last.value_before, last.remoteness_before),
                (value_before, remoteness_before),
                "{moves:?}"
            );
            assert_eq!(
                (last.value, last.remoteness),
                (value, remoteness),
                "{moves:?}"
            );
            assert_eq!(last.best, optimal, "{moves:?}");
            assert_eq!(last.verdict.as_str(), verdict, "{moves:?}");
            assert_eq!(last.verdict.is_mistake(), value < value_before, "{moves:?}");
            *counts.entry((last.player, verdict)).or_insert(0) += 1;
        }
        for cell in board.legal_moves() {
            let mut next = game.clone();
            next.play(cell).unwrap();
            stack.push((next, board, review.plies.clone()));
        }
    }
    assert_eq!(games, 549_946, "game-tree nodes, as ttt stats counts them");
    counts
}

#[test]
fn every_move_of_every_game_is_judged_as_minimax_judges_it() {
    let counts = review_every_game();
    // Every verdict occurs, so none of them is left unchecked.
    for verdict in [
        "best",
        "win_to_draw",
        "win_to_loss",
        "draw_to_loss",
        "slow_win",
        "fast_loss",
    ] {
        let total: u64 = Player::BOTH
            .iter()
            .map(|&side| counts.get(&(side, verdict)).copied().unwrap_or(0))
            .sum();
        assert!(total > 0, "{verdict} never given");
    }
    // The auditor counts the same moves its own way: `random` may make every move in every
    // game, so its blunders and slow wins on a side are that side's verdicts over all games.
    for side in Player::BOTH {
        let mut random = bots::builtin("random").unwrap();
        let report = audit(random.as_mut(), side).unwrap();
        let count = |verdict| counts.get(&(side, verdict)).copied().unwrap_or(0);
        assert_eq!(report.blunders.win_to_draw, count("win_to_draw"), "{side}");
        assert_eq!(report.blunders.win_to_loss, count("win_to_loss"), "{side}");
        assert_eq!(
            report.blunders.draw_to_loss,
            count("draw_to_loss"),
            "{side}"
        );
        assert_eq!(report.slow_wins, count("slow_win"), "{side}");
    }
}

#[test]
fn a_verdict_lowers_the_value_exactly_when_it_is_a_mistake() {
    use MoveVerdict::*;
    for verdict in [Best, WinToDraw, WinToLoss, DrawToLoss, SlowWin, FastLoss] {
        let lowers = matches!(verdict, WinToDraw | WinToLoss | DrawToLoss);
        assert_eq!(verdict.is_mistake(), lowers, "{verdict}");
        assert_eq!(
            serde_json::to_value(verdict).unwrap(),
            json!(verdict.as_str())
        );
        assert_eq!(verdict.to_string(), verdict.as_str().replace('_', " "));
    }
}
