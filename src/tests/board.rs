//! Tic-tac-toe's own 4-byte board and its readers: `Board` parsing, legality and play, and
//! `parse_moves`, the move-list reader of the 3x3 game, which checks syntax only and tells what
//! is wrong with a cell. (Moved from tests/integration/board.rs when `Board` and `parse_moves` left the
//! public API; the same rules through `Position` stay there.)

use proptest::prelude::*;

use crate::board::{
    Board, Cell, Cells, IllegalPosition, MoveError, MovesError, Outcome, Player, Status,
};
use crate::cell::ParseCellError;
use crate::game::Game;
use crate::moves::parse_moves;
use crate::notation::ParsePositionError;

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
        Err(ParsePositionError::Length {
            game: Game::TIC_TAC_TOE,
            found: 3
        })
    );
    assert_eq!(
        "X.O.......".parse::<Board>(),
        Err(ParsePositionError::Length {
            game: Game::TIC_TAC_TOE,
            found: 10
        })
    );
    assert_eq!(
        "X.Z......".parse::<Board>(),
        Err(ParsePositionError::InvalidChar {
            position: 3,
            ch: 'Z'
        })
    );
    assert_eq!(board("1234567X9").to_string(), ".......X.");
    assert_eq!(
        "X3.......".parse::<Board>(),
        Err(ParsePositionError::MisplacedDigit {
            position: 2,
            digit: '3',
            cell: 2
        })
    );
    let message = "X.Z......".parse::<Board>().unwrap_err().to_string();
    assert!(
        message.contains("\"Z\"") && message.contains("position 3"),
        "{message}"
    );
    // A character that would drive the terminal is shown escaped.
    let message = "X.\x1b[2J......".parse::<Board>().unwrap_err().to_string();
    assert!(
        message.contains("\"\\u{1b}\" at position 3") && !message.contains('\x1b'),
        "{message}"
    );
}

#[test]
fn legality_errors_name_the_rule() {
    let illegal = |text: &str| match text.parse::<Board>() {
        Err(ParsePositionError::Illegal(error)) => error,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(
        illegal("O........"),
        IllegalPosition::TooManyO { x: 0, o: 1 }
    );
    assert_eq!(
        illegal("XX......."),
        IllegalPosition::TooManyX { x: 2, o: 0 }
    );
    assert_eq!(illegal("XXXOOO..."), IllegalPosition::BothWin);
    assert_eq!(illegal("XXXOOOX.."), IllegalPosition::BothWin);
    assert_eq!(
        illegal("XXXOO.O.."),
        IllegalPosition::PlayAfterWin { winner: Player::X }
    );
    assert_eq!(
        illegal("OOOXX.X.X"),
        IllegalPosition::PlayAfterWin { winner: Player::O }
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
    for text in [
        "5 1 9",
        "5,1,9",
        " 5 , 1  9 ",
        "5\t1\n9",
        "5 ,1, 9",
        "5\u{a0},\u{3000}1 9",
    ] {
        assert_eq!(
            Board::from_moves(&cells(text)).unwrap(),
            board("O...X...X"),
            "{text:?}"
        );
    }
    for blank in ["", " ", "\t\n  "] {
        assert_eq!(cells(blank), [], "{blank:?}");
    }

    for (text, position, token, error) in [
        ("5 0", 2, "0", ParseCellError::OutOfRange),
        ("10", 1, "10", ParseCellError::OutOfRange),
        ("05", 1, "05", ParseCellError::OutOfRange),
        ("1 5 09", 3, "09", ParseCellError::OutOfRange),
        ("+5", 1, "+5", ParseCellError::Signed),
        ("-1", 1, "-1", ParseCellError::Signed),
        ("5 a", 2, "a", ParseCellError::NotANumber),
        ("5;1", 1, "5;1", ParseCellError::NotANumber),
        // The first bad item is reported, wherever the list goes wrong after it.
        ("1 x,,", 2, "x", ParseCellError::NotANumber),
    ] {
        assert_eq!(
            parse_moves(text),
            Err(MovesError::NotACell {
                position,
                token: token.to_string(),
                error,
            }),
            "{text}"
        );
    }

    // Commas are counted in characters, not bytes: the no-break space is two bytes.
    for (text, error) in [
        (
            ",,,",
            MovesError::EmptyMove {
                position: 1,
                comma: 1,
            },
        ),
        (
            ",1",
            MovesError::EmptyMove {
                position: 1,
                comma: 1,
            },
        ),
        (
            "  ,1",
            MovesError::EmptyMove {
                position: 1,
                comma: 3,
            },
        ),
        (
            "\u{a0},1",
            MovesError::EmptyMove {
                position: 1,
                comma: 2,
            },
        ),
        (
            "1,,2",
            MovesError::EmptyMove {
                position: 2,
                comma: 3,
            },
        ),
        (
            "1 , , 2",
            MovesError::EmptyMove {
                position: 2,
                comma: 5,
            },
        ),
        (
            "1,2,,",
            MovesError::EmptyMove {
                position: 3,
                comma: 5,
            },
        ),
        (
            "1,",
            MovesError::TrailingComma {
                position: 2,
                comma: 2,
            },
        ),
        (
            "1 2 , ",
            MovesError::TrailingComma {
                position: 3,
                comma: 5,
            },
        ),
    ] {
        assert_eq!(parse_moves(text), Err(error), "{text:?}");
    }

    match Board::from_moves(&cells("5 1 5")) {
        Err(MovesError::Illegal {
            position: 3,
            error: MoveError::Occupied { .. },
        }) => {}
        other => panic!("{other:?}"),
    }
    match Board::from_moves(&cells("1 4 2 5 3 6")) {
        Err(MovesError::Illegal {
            position: 6,
            error: MoveError::GameOver { .. },
        }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn move_list_errors_say_what_where_and_what_would_be_right() {
    let message = |text: &str| parse_moves(text).unwrap_err().to_string();
    assert_eq!(
        message("5 05"),
        "move 2 is \"05\", not a cell: cells are numbered 1 to 9, each written as one digit"
    );
    assert_eq!(
        message("+5"),
        "move 1 is \"+5\", not a cell: a cell is one digit from 1 to 9, with no sign"
    );
    assert_eq!(
        message("1,,2"),
        "move 2 is empty: nothing before the comma at character 3 \
         (separate cells with one comma or with spaces, e.g. \"5,1,9\" or \"5 1 9\")"
    );
    assert_eq!(
        message("1,"),
        "move 2 is empty: nothing after the comma at character 2, which ends the list \
         (separate cells with one comma or with spaces, e.g. \"5,1,9\" or \"5 1 9\")"
    );
    // A huge item is quoted by its start, and control characters are escaped.
    let long = format!("5 {}", "7".repeat(131_000));
    assert!(message(&long).len() < 200, "{}", message(&long));
    assert!(message(&long).contains("(131000 characters)"));
    assert!(message("5 \x1b[2J").contains("\"\\u{1b}[2J\""));
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
    fn no_string_makes_the_move_parser_panic(text in "[0-9, a-z\\-+]{0,30}|\\PC{0,30}") {
        if let Ok(moves) = parse_moves(&text) {
            let _ = Board::from_moves(&moves);
        }
    }

    #[test]
    fn cells_with_any_separators_read_back(
        numbers in prop::collection::vec(1..=9u32, 1..12),
        separators in prop::collection::vec("[ \t\n]+|[ \t]*,[ \t]*", 11),
        lead in "[ \t]*",
        trail in "[ \t\n]*",
    ) {
        let mut text = lead;
        for (i, number) in numbers.iter().enumerate() {
            if i > 0 {
                text.push_str(&separators[i - 1]);
            }
            text.push_str(&number.to_string());
        }
        text.push_str(&trail);
        let read: Vec<u32> = parse_moves(&text)
            .unwrap()
            .iter()
            .map(|cell| u32::from(cell.number()))
            .collect();
        prop_assert_eq!(read, numbers);
    }
}
