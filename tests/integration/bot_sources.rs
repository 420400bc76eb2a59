//! The built-in rule bots on the positions their sources describe: each bot's every choice, with
//! its probability, after a move list of tic-tac-toe (and, for marcelo, of its larger squares).
//! Marcelo's rules on boards play cannot lead to are unit tests in src/bots/marcelo/tests.rs.

use ttt_oracle::bots::{
    Bot, CMinimax, DependsOn, Forkbot, GeeksMinimax, Marcelo, NewellSimon, Smartbot, Turn,
    from_spec,
};
use ttt_oracle::{Cell, Game, History};

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

fn marcelo(moves: &str) -> Vec<(Turn, String)> {
    let game = History::parse(Game::TIC_TAC_TOE, moves).unwrap();
    Marcelo::default()
        .choose(&game)
        .unwrap()
        .into_iter()
        .map(|c| (c.turn, c.probability.to_string()))
        .collect()
}

fn mark(n: u32) -> Turn {
    Turn::Mark(Cell::from_number(n).unwrap())
}

#[test]
fn marcelo_takes_the_centre_first() {
    assert_eq!(marcelo(""), [(mark(5), "1/1".into())]);
    assert_eq!(marcelo("1"), [(mark(5), "1/1".into())]);
}

#[test]
fn marcelo_picks_a_top_diagonal_corner_at_random_when_the_centre_is_gone() {
    assert_eq!(
        marcelo("5"),
        [(mark(1), "1/2".into()), (mark(3), "1/2".into())]
    );
}

#[test]
fn marcelo_wins_before_blocking_and_blocks_before_the_centre() {
    // O (bot) holds 1 and 2 with X on 4 and 7: win on 3 beats blocking 1-4-7... 1 is O's.
    assert_eq!(marcelo("4 1 8 2 6"), [(mark(3), "1/1".into())]);
    // X threatens 1-2-3 on 3; the bot blocks rather than take the centre.
    assert_eq!(marcelo("1 9 2"), [(mark(3), "1/1".into())]);
}

/// What the bot does after `moves` (cells 1..N*N) on `game`, as cell numbers with
/// probabilities.
fn on(game: &str, moves: &[usize]) -> Vec<(Turn, String)> {
    let mut played = History::empty(game.parse().unwrap());
    for &number in moves {
        played.play(Cell::new(number - 1).unwrap()).unwrap();
    }
    Marcelo::default()
        .choose(&played)
        .unwrap()
        .into_iter()
        .map(|c| (c.turn, c.probability.to_string()))
        .collect()
}

fn at(number: usize) -> Cell {
    Cell::new(number - 1).unwrap()
}

#[test]
fn marcelo_plays_odd_squares_with_n_in_a_row_and_says_what_else_it_does_not() {
    let bot = Marcelo::default();
    for game in ["3x3", "5x5", "7x7", "9x9", "11x11"] {
        assert!(bot.plays(game.parse().unwrap()).is_ok(), "{game}");
    }
    for game in ["4x4", "6x6", "5x5k4", "3x5", "8x8"] {
        let message = bot.plays(game.parse().unwrap()).unwrap_err().message;
        assert!(
            message.contains(game) && message.contains("odd"),
            "{message}"
        );
    }
}

#[test]
fn marcelo_plays_the_rules_on_five_by_five_and_seven_by_seven_through_the_game() {
    // Rule 3 as X, then rule 4's coin of row 1 once O took a cell off the diagonals.
    assert_eq!(on("5x5", &[]), [(Turn::Mark(at(13)), "1/1".into())]);
    assert_eq!(
        on("5x5", &[13, 2]),
        [
            (Turn::Mark(at(1)), "1/2".into()),
            (Turn::Mark(at(5)), "1/2".into())
        ]
    );
    // Rule 2 as O on 7x7: X holds six of row 7, the last one empty.
    assert_eq!(
        on("7x7", &[43, 25, 44, 1, 45, 7, 46, 9, 47, 13, 48]),
        [(Turn::Mark(at(49)), "1/1".into())]
    );
    // Rule 5 through the game on 5x5: X 13 (rule 3), O 1, X 5 (rule 4, row 1), O 21,
    // X 7 (rule 4, row 2: 7 or 9, here 7), O 19, X 9 (row 2's other), O 25 fills the main
    // diagonal (1 7 13 19 25). X's last move is 9 (row 2, column 4): i = 5 and 4 reach
    // nothing; i = 3 reaches row 5 going down-right for j = 1 and 0 only: 25 is taken,
    // 24 is marked. One mark, a legal move.
    assert_eq!(
        on("5x5", &[13, 1, 5, 21, 7, 19, 9, 25]),
        [(Turn::Mark(at(24)), "1/1".into())]
    );
    // Several marks in one turn: X 13, O 1, X 5 (row 1's free diagonal cell), O 17, X 9
    // (row 2's coin), O 21 fills the anti-diagonal (5 9 13 17 21). Rule 5 from 9 (row 2,
    // column 4): i = 3 reaches row 5 going down-right, where j = 1 marks 25 and j = 0
    // marks 24.
    assert_eq!(
        on("5x5", &[13, 1, 5, 17, 9, 21]),
        [(Turn::Several(vec![at(25), at(24)]), "1/1".into())]
    );
}

#[test]
fn marcelo_plays_the_rules_on_nine_by_nine_through_the_game() {
    assert_eq!(on("9x9", &[]), [(Turn::Mark(at(41)), "1/1".into())]);
    assert_eq!(
        on("9x9", &[41, 2]),
        [
            (Turn::Mark(at(1)), "1/2".into()),
            (Turn::Mark(at(9)), "1/2".into())
        ]
    );
    // X 41 (rule 3); then each time O takes a row's anti-diagonal cell, X takes its main
    // diagonal cell by rule 4: 1, 11, 21, 31, 51, 61 and 71 (row 7's coin, the other cell
    // 65 being O's). O 81 blocks the main diagonal and fills it: rules 1 to 4 play
    // nothing, and rule 5 starts from X's last move, 71 (row 8, column 8). i = 7 reaches
    // row 1 going up-left; j = 7 finds cell 1 taken, and j = 6 down to 0 mark 2 to 8:
    // seven marks in one turn.
    let game = [41, 9, 1, 17, 11, 25, 21, 33, 31, 49, 51, 57, 61, 65, 71, 81];
    assert_eq!(
        on("9x9", &game),
        [(Turn::Several((2..=8).map(at).collect()), "1/1".into())]
    );
}

#[test]
fn marcelo_depends_on_its_last_move_from_rules_one_to_four() {
    let mut game = History::empty("5x5".parse().unwrap());
    let bot = Marcelo::default();
    // Rule 3 plays the centre: what came before decides nothing more.
    assert_eq!(bot.depends_on(&game), DependsOn::Board);
    for number in [1, 13, 7, 5, 19, 9, 25] {
        game.play(at(number)).unwrap();
    }
    // X filled the first diagonal: no rule before 5 plays for O, which plays far from 9
    // (index 8), its last move by rule 4.
    assert_eq!(bot.depends_on(&game), DependsOn::BoardAnd(8));
}

#[test]
fn marcelo_skips_the_diagonals_when_one_is_full_and_plays_far_from_its_last_move() {
    // X 5, O (bot) 1 by rule 4, X 9: diagonal 1-5-9 full, so rule 5 from cell 1
    // (row 0, col 0): i = 2, j = 2 gives cell 9 (taken); j = 1 gives cell 8; j = 0 gives
    // cell 7: two marks in one turn.
    let turns = marcelo("5 1 9");
    assert_eq!(turns.len(), 1);
    assert_eq!(
        turns[0].0,
        Turn::Several(vec![
            Cell::from_number(8).unwrap(),
            Cell::from_number(7).unwrap()
        ])
    );
}
