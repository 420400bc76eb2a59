//! The built-in rule bots on the positions their sources describe: each bot's every choice, with
//! its probability, after a move list of tic-tac-toe.

use ttt_oracle::bots::{
    Bot, CMinimax, Forkbot, GeeksMinimax, NewellSimon, Smartbot, Turn, from_spec,
};
use ttt_oracle::{Game, History};

/// What `bot` may do after `moves` (cells separated by spaces), each turn with its
/// probability as `p/q`: the sources' positions are stated this way.
fn answers(bot: &mut dyn Bot, moves: &str) -> Vec<(Turn, String)> {
    let game = History::parse(Game::TIC_TAC_TOE, moves).unwrap();
    bot.choose(&game)
        .unwrap()
        .into_iter()
        .map(|c| (c.turn, c.probability.to_string()))
        .collect()
}

/// The one cell `bot` plays for certain after `moves`.
fn decide_after(bot: &mut dyn Bot, moves: &str) -> u8 {
    match answers(bot, moves).as_slice() {
        [(Turn::Mark(cell), p)] if p == "1/1" => cell.number(),
        other => panic!("{other:?}"),
    }
}

fn smartbot(moves: &str) -> Vec<(u8, String)> {
    answers(&mut Smartbot, moves)
        .into_iter()
        .map(|(turn, p)| match turn {
            Turn::Mark(cell) => (cell.number(), p),
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn smartbot_opens_in_the_centre_or_the_top_left_corner() {
    assert_eq!(smartbot(""), [(5, "1/2".into()), (1, "1/2".into())]);
}

#[test]
fn smartbot_as_o_answers_the_centre_with_the_top_left_and_the_opposite_corner_with_the_top_right() {
    assert_eq!(smartbot("5"), [(1, "1/1".into())]);
    assert_eq!(smartbot("5 1 9"), [(3, "1/1".into())]);
}

#[test]
fn smartbot_as_o_answers_a_corner_with_the_centre_and_the_opposite_corner_with_the_top_side() {
    assert_eq!(smartbot("3"), [(5, "1/1".into())]);
    assert_eq!(smartbot("3 5 7"), [(2, "1/1".into())]);
}

#[test]
fn smartbot_the_reports_sample_game_from_the_centre() {
    // The report's sample: X centre, O bottom side, X corner, O blocks 9, X forks on 7, X wins.
    // The sample answers side 8 with corner 1; the rule as written gives corner 7.
    assert_eq!(smartbot("5 8"), [(7, "1/1".into())]);
    assert_eq!(
        smartbot("5 8 1 9"),
        [(7, "1/1".into())],
        "block 7 that also forks"
    );
}

#[test]
fn smartbot_from_the_corner_takes_the_far_adjacent_corner_then_the_opposite_one() {
    // The report's figure: X 1, O 4, X 3, O 2 (block), X 9.
    assert_eq!(smartbot("1 4"), [(3, "1/1".into())]);
    assert_eq!(smartbot("1 4 3 2"), [(9, "1/1".into())]);
    assert_eq!(smartbot("1 5"), [(9, "1/1".into())]);
}

#[test]
fn smartbot_wins_before_it_blocks() {
    // X 1 2 against O 4 5: X to move completes 1-2-3 rather than blocking 6.
    assert_eq!(smartbot("1 4 2 5"), [(3, "1/1".into())]);
}

#[test]
fn forkbot_takes_the_centre_before_anything() {
    assert_eq!(decide_after(&mut Forkbot, "1"), 5);
}

#[test]
fn forkbot_the_posts_game_1_trap() {
    // History 1 of the post: X 1, O 5, X 9. No win, block or fork for O; the forcing move
    // on 2 makes X answer 8, which gives X no fork, so O plays 2 and escapes the trap.
    assert_eq!(decide_after(&mut Forkbot, "1 5 9"), 2);
}

#[test]
fn forkbot_the_posts_game_2_forcing_move() {
    // History 2: X 5, O 1, X 9. O plays 2 (forcing X to 3, a fork for X) or 3 (forcing X to
    // 2, no fork). The post says 3 is the safe move; the listing's first candidate is 2,
    // whose forced answer 3 has two open X lines, so it is skipped, and 3 is played.
    assert_eq!(decide_after(&mut Forkbot, "5 1 9"), 3);
}

#[test]
fn forkbot_wins_then_blocks() {
    // X 1 2 9, O 5 4: the bot (O) completes 4-5-6 rather than block 3.
    assert_eq!(decide_after(&mut Forkbot, "1 5 2 4 9"), 6);
    // X 1 2, O 5: nothing to win, so block 3.
    assert_eq!(decide_after(&mut Forkbot, "1 5 2"), 3);
}

#[test]
fn newell_simon_answers_the_corner_trap_with_a_side() {
    // X 1, O 5, X 9: X threatens forks on 3 and 7; O must force with a side.
    assert_eq!(decide_after(&mut NewellSimon, "1 5 9"), 2);
}

#[test]
fn newell_simon_takes_the_centre_then_the_opposite_corner() {
    assert_eq!(decide_after(&mut NewellSimon, ""), 5);
    assert_eq!(decide_after(&mut NewellSimon, "5"), 1);
    assert_eq!(decide_after(&mut NewellSimon, "5 1 9"), 3);
}
#[test]
fn c_minimax_takes_the_first_cell_of_the_best_value_not_the_fastest_win() {
    // X: 1 2, O: 4 5; X to move. Cell 3 wins at once, and so (later) may others; the
    // listing keeps the first cell whose score is +1.
    assert_eq!(decide_after(&mut CMinimax::default(), "1 4 2 5"), 3);
    // Empty board: every cell draws, so the first cell.
    assert_eq!(decide_after(&mut CMinimax::default(), ""), 1);
}

#[test]
fn geeks_minimax_on_the_listings_driver_board() {
    // x o x / o o x / _ _ _ with x to move: the listing prints ROW 2 COL 2, cell 9.
    for mut bot in [GeeksMinimax::plain(), GeeksMinimax::with_depth()] {
        assert_eq!(decide_after(&mut bot, "1 2 3 4 6 5"), 9);
    }
}

#[test]
fn only_close_names_are_suggested() {
    let cases = [
        ("smartbott", Some("smartbot")),
        ("SmartBot", Some("smartbot")),
        ("marcello", Some("marcelo")),
        ("newell_simon", Some("newell-simon")),
        ("perfekt", Some("perfect")),
        ("casul:0.3", Some("casual:0.3")),
        ("epsilom:1/3", Some("epsilon:1/3")),
        ("casuall", Some("casual:P")),
        ("deep-blue", None),
        ("x", None),
        ("", None),
        ("zzz:0.3", None),
    ];
    for (typed, expected) in cases {
        let message = from_spec(typed).err().expect(typed).to_string();
        let hint = message
            .split_once(" (did you mean ")
            .map(|(_, rest)| rest.split_once("?)").unwrap().0);
        assert_eq!(hint, expected, "{typed}: {message}");
    }
}
