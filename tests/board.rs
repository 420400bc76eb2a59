//! The rules and the notation: parsing, legality, move lists.

use proptest::prelude::*;
use ttt_oracle::{
    Board, Cell, Cells, IllegalBoard, MoveError, MoveListError, Outcome, ParseBoardError, Player,
    Status, parse_moves,
};

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

#[test]
fn every_accepted_spelling_of_a_board() {
    let expected = "X.X.O.O.X";
    for text in [
        "X.X.O.O.X",
        "x.x.o.o.x",
        "X2X4O6O8X",
        "X-X_O-O_X",
        "X.X|.O.|O.X",
        "X.X/.O./O.X",
        " X . X \n . O . \n O . X ",
    ] {
        assert_eq!(board(text).to_string(), expected, "{text:?}");
    }
}

#[test]
fn syntax_errors_say_what_and_where() {
    assert_eq!(
        "X.O".parse::<Board>(),
        Err(ParseBoardError::Length { found: 3 })
    );
    assert_eq!(
        "X.O.......".parse::<Board>(),
        Err(ParseBoardError::Length { found: 10 })
    );
    assert_eq!(
        "X.Z......".parse::<Board>(),
        Err(ParseBoardError::InvalidChar {
            position: 3,
            ch: 'Z'
        })
    );
    assert_eq!(board("1234567X9").to_string(), ".......X.");
    assert_eq!(
        "X3.......".parse::<Board>(),
        Err(ParseBoardError::MisplacedDigit {
            position: 2,
            digit: '3',
            cell: 2
        })
    );
    let message = "X.Z......".parse::<Board>().unwrap_err().to_string();
    assert!(
        message.contains("'Z'") && message.contains("position 3"),
        "{message}"
    );
}

#[test]
fn legality_errors_name_the_rule() {
    let illegal = |text: &str| match text.parse::<Board>() {
        Err(ParseBoardError::Illegal(error)) => error,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(illegal("O........"), IllegalBoard::TooManyO { x: 0, o: 1 });
    assert_eq!(illegal("XX......."), IllegalBoard::TooManyX { x: 2, o: 0 });
    assert_eq!(illegal("XXXOOO..."), IllegalBoard::BothWin);
    assert_eq!(illegal("XXXOOOX.."), IllegalBoard::BothWin);
    assert_eq!(
        illegal("XXXOO.O.."),
        IllegalBoard::PlayAfterWin { winner: Player::X }
    );
    assert_eq!(
        illegal("OOOXX.X.X"),
        IllegalBoard::PlayAfterWin { winner: Player::O }
    );
}

#[test]
fn legal_boards_are_exactly_the_reachable_ones() {
    // Walk the game from the empty board and compare with every board the parser accepts.
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Board::EMPTY];
    while let Some(b) = stack.pop() {
        if seen.insert(b) {
            stack.extend(b.legal_moves().iter().map(|c| b.play(c).unwrap()));
        }
    }
    assert_eq!(seen.len(), 5478);
    let all = Board::reachable();
    assert_eq!(all.len(), 5478);
    assert!(all.iter().all(|b| seen.contains(b)));
    // Every one of the 3^9 strings parses to a board exactly when it is reachable.
    let mut accepted = 0;
    for code in 0..19_683usize {
        let mut rest = code;
        let text: String = (0..9)
            .map(|_| {
                let c = ['.', 'X', 'O'][rest % 3];
                rest /= 3;
                c
            })
            .collect();
        if let Ok(b) = text.parse::<Board>() {
            assert!(seen.contains(&b));
            assert_eq!(b.to_string(), text);
            accepted += 1;
        }
    }
    assert_eq!(accepted, 5478);
}

#[test]
fn status_and_moves() {
    assert_eq!(Board::EMPTY.status(), Status::InProgress);
    assert_eq!(
        board("XXXOO....").status(),
        Status::Finished(Outcome::Win(Player::X))
    );
    assert_eq!(board("XOXXOOOXX").status(), Status::Finished(Outcome::Draw));
    assert_eq!(board("XOXXOOOXX").legal_moves(), Cells::EMPTY);
    let b = board("X...O....");
    assert_eq!(b.to_move(), Player::X);
    assert_eq!(b.ply(), 2);
    assert_eq!(b.legal_moves().len(), 7);
    let five = Cell::from_number(5).unwrap();
    assert_eq!(
        b.play(five),
        Err(MoveError::Occupied {
            cell: five,
            owner: Player::O
        })
    );
}

#[test]
fn move_lists() {
    let cells = |s: &str| parse_moves(s).unwrap();
    assert_eq!(
        Board::from_moves(&cells("5 1 9")).unwrap(),
        board("O...X...X")
    );
    assert_eq!(
        Board::from_moves(&cells("5,1,9")).unwrap(),
        board("O...X...X")
    );
    assert_eq!(
        Board::from_moves(&cells(" 5 , 1  9 ")).unwrap(),
        board("O...X...X")
    );
    assert_eq!(Board::from_moves(&cells("")).unwrap(), Board::EMPTY);

    for (text, position, token) in [
        ("5 0", 2, "0"),
        ("10", 1, "10"),
        ("5 a", 2, "a"),
        ("-1", 1, "-1"),
    ] {
        assert_eq!(
            parse_moves(text),
            Err(MoveListError::NotACell {
                position,
                token: token.to_string()
            }),
            "{text}"
        );
    }
    match Board::from_moves(&cells("5 1 5")) {
        Err(MoveListError::Illegal {
            position: 3,
            error: MoveError::Occupied { .. },
        }) => {}
        other => panic!("{other:?}"),
    }
    match Board::from_moves(&cells("1 4 2 5 3 6")) {
        Err(MoveListError::Illegal {
            position: 6,
            error: MoveError::GameOver { .. },
        }) => {}
        other => panic!("{other:?}"),
    }
}

proptest! {
    #[test]
    fn no_string_makes_the_board_parser_panic(text in "\\PC{0,40}") {
        let _ = text.parse::<Board>();
    }

    #[test]
    fn board_like_strings_parse_or_fail_cleanly(text in "[XxOo.\\-_1-9|/ ZQ]{0,14}") {
        if let Ok(b) = text.parse::<Board>() {
            prop_assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
        }
    }

    #[test]
    fn no_string_makes_the_move_parser_panic(text in "[0-9, a-z\\-]{0,30}") {
        if let Ok(moves) = parse_moves(&text) {
            let _ = Board::from_moves(&moves);
        }
    }
}
