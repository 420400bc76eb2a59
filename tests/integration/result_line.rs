//! The line that ends a game of `ttt play`, as the library writes and reads it back.

use ttt_oracle::review::result_line::{GameResult, ResultLine, is_result_line, parse};
use ttt_oracle::{Game, History, Outcome, Player};

fn game(moves: &str) -> History {
    History::parse(Game::TIC_TAC_TOE, moves).unwrap()
}

#[test]
fn every_line_play_writes_reads_back() {
    for (result, moves, line) in [
        (
            GameResult::Board(Outcome::Win(Player::O)),
            "5 3 9 1 4 2",
            "result: o_wins moves: 5 3 9 1 4 2",
        ),
        (
            GameResult::Board(Outcome::Draw),
            "5 1 9 3 2 8 4 6 7",
            "result: draw moves: 5 1 9 3 2 8 4 6 7",
        ),
        (
            GameResult::Forfeit(Player::O),
            "",
            "result: o_wins_by_forfeit moves: none",
        ),
        (
            GameResult::Forfeit(Player::X),
            "5",
            "result: x_wins_by_forfeit moves: 5",
        ),
    ] {
        let game = game(moves);
        let written = ResultLine {
            result,
            moves: game.moves(),
        }
        .to_string();
        assert_eq!(written, line);
        assert!(is_result_line(&written));
        assert_eq!(parse(&written, Game::TIC_TAC_TOE), Ok((result, game)));
    }
}

#[test]
fn a_garbled_line_says_what_was_expected() {
    for (line, message) in [
        (
            "result: o_won moves: 1",
            "bad result line \"result: o_won moves: 1\": \"o_won\" is not a result (one of x_wins, o_wins, draw, x_wins_by_forfeit, o_wins_by_forfeit, then moves: LIST)",
        ),
        (
            "result: draw",
            "bad result line \"result: draw\": no \"moves:\" after the result (expected \"result: STATUS moves: LIST\")",
        ),
        (
            "result: draw moves: 5 5",
            "bad move list \"5 5\": move 2: cell 5 is already taken by X",
        ),
        (
            "result: x_wins moves: 5 1 9",
            "bad result line \"result: x_wins moves: 5 1 9\": it says x_wins, but after the moves 5 1 9 the game is unfinished",
        ),
        (
            "result: draw moves: 1 4 2 5 3",
            "bad result line \"result: draw moves: 1 4 2 5 3\": it says draw, but after the moves 1 4 2 5 3 the game is over (x_wins)",
        ),
        (
            "result: x_wins_by_forfeit moves: 5 1",
            "bad result line \"result: x_wins_by_forfeit moves: 5 1\": it says x_wins_by_forfeit, but O can forfeit only on its turn, and after the moves 5 1 it is X's turn",
        ),
        (
            "result: o_wins_by_forfeit moves: 1 4 2 5 3",
            "bad result line \"result: o_wins_by_forfeit moves: 1 4 2 5 3\": it says o_wins_by_forfeit, but after the moves 1 4 2 5 3 the game is over (x_wins)",
        ),
    ] {
        assert_eq!(
            parse(line, Game::TIC_TAC_TOE).unwrap_err().to_string(),
            message,
            "{line}"
        );
    }
    assert!(!is_result_line("X to move: result: draw moves: none"));
    assert!(is_result_line("  result: draw"));
}
