//! The rules and the notation of tic-tac-toe through the public API: parsing, legality, move
//! lists, on `Position` of `Game::TIC_TAC_TOE`. The 3x3 board's own 4-byte layout is checked
//! against `Position` on every legal board by the unit tests in src/tests/solver.rs.

use proptest::prelude::*;
use ttt_oracle::{Cell, Cells, Game, History, Outcome, Player, Position, PositionError, Status};

const GAME: Game = Game::TIC_TAC_TOE;

fn board(text: &str) -> Position {
    Position::parse(GAME, text).unwrap()
}

fn parse(text: &str) -> Result<Position, PositionError> {
    Position::parse(GAME, text)
}

/// The moves of a move list, and the board they reach from the empty one.
fn moves(text: &str) -> Result<(Position, Vec<Cell>), PositionError> {
    Position::from_move_list(GAME, text)
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
        assert_eq!(board(text).game(), GAME);
    }
}

#[test]
fn syntax_errors_say_what_and_where() {
    assert_eq!(
        parse("X.O"),
        Err(PositionError::Length {
            game: GAME,
            found: 3
        })
    );
    assert_eq!(
        parse("X.O......."),
        Err(PositionError::Length {
            game: GAME,
            found: 10
        })
    );
    assert_eq!(
        parse("X.Z......"),
        Err(PositionError::InvalidChar { at: 3, ch: 'Z' })
    );
    assert_eq!(board("1234567X9").to_string(), ".......X.");
    assert_eq!(
        parse("X3......."),
        Err(PositionError::MisplacedDigit {
            at: 2,
            digit: '3',
            cell: 2
        })
    );
    let message = parse("X.Z......").unwrap_err().to_string();
    assert!(
        message.contains("\"Z\"") && message.contains("position 3"),
        "{message}"
    );
    // A character that would drive the terminal is shown escaped.
    let message = parse("X.\x1b[2J......").unwrap_err().to_string();
    assert!(
        message.contains("\"\\u{1b}\" at position 3") && !message.contains('\x1b'),
        "{message}"
    );
    // The count is told with how a board is written (on other games, with their shape).
    assert_eq!(
        parse("X.O").unwrap_err().to_string(),
        "a board has 9 cells, this has 3 (write 9 of X, O and . row-major, e.g. X...O....)"
    );
    assert_eq!(
        Position::parse("3x4".parse().unwrap(), "X.O")
            .unwrap_err()
            .to_string(),
        "a board of game 3x4 has 12 cells (3 rows of 4), this has 3"
    );
}

#[test]
fn legality_errors_name_the_rule() {
    let illegal = |text: &str| match parse(text) {
        Err(PositionError::Unreachable(error)) => *error,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(illegal("O........"), PositionError::TooManyO { x: 0, o: 1 });
    assert_eq!(illegal("XX......."), PositionError::TooManyX { x: 2, o: 0 });
    assert_eq!(illegal("XXXOOO..."), PositionError::BothWin);
    assert_eq!(illegal("XXXOOOX.."), PositionError::BothWin);
    assert_eq!(
        illegal("XXXOO.O.."),
        PositionError::PlayAfterWin { winner: Player::X }
    );
    assert_eq!(
        illegal("OOOXX.X.X"),
        PositionError::PlayAfterWin { winner: Player::O }
    );
    // The same rules for marks given as sets of cells.
    assert_eq!(
        Position::from_marks(GAME, Cells::from_bits(0b11), Cells::from_bits(0)),
        Err(PositionError::TooManyX { x: 2, o: 0 })
    );
    assert_eq!(
        Position::from_marks(GAME, Cells::from_bits(0b1), Cells::from_bits(0b1)),
        Err(PositionError::Overlap)
    );
    assert_eq!(
        Position::from_marks(GAME, Cells::from_bits(1 << 9), Cells::from_bits(0)),
        Err(PositionError::OffBoard { cells: 9 })
    );
}

#[test]
fn legal_boards_are_exactly_the_reachable_ones() {
    // Walk the game from the empty board and compare with every board the parser accepts.
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![Position::empty(GAME)];
    while let Some(b) = stack.pop() {
        if seen.insert(b) {
            stack.extend(b.legal_moves().iter().map(|c| b.play(c).unwrap()));
        }
    }
    assert_eq!(seen.len(), 5478);
    let all: Vec<Position> = Position::reachable(GAME).collect();
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
        if let Ok(b) = parse(&text) {
            assert!(seen.contains(&b));
            assert_eq!(b.to_string(), text);
            accepted += 1;
        }
    }
    assert_eq!(accepted, 5478);
}

#[test]
fn status_and_moves() {
    assert_eq!(Position::empty(GAME).status(), Status::InProgress);
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
        Err(PositionError::Occupied {
            cell: five,
            owner: Player::O
        })
    );
    assert_eq!(b.get(five), Some(Player::O));
    // A cell off the 3x3 board is no move, on a position or in a game's history (whose 3x3
    // layout once took cell 10 to 16 without a word, and panicked at the next move).
    for number in [10, 16, 17, 128] {
        let off = Cell::from_number(number).unwrap();
        let refused = Err(PositionError::NoSuchCell {
            cell: off,
            cells: 9,
        });
        assert_eq!(b.play(off), refused);
        let mut game = History::new();
        assert_eq!(game.play(off), refused.map(|_| ()));
        assert!(game.moves().is_empty());
        assert_eq!(game.position(), Position::empty(GAME));
    }
}

#[test]
fn a_cell_is_exactly_one_digit_from_1_to_9() {
    // Every character alone: only the nine ASCII digits 1 to 9 are cells.
    let mut cells = Vec::new();
    for ch in (0..=0x10_ffff).filter_map(char::from_u32) {
        if let Ok(cell) = ch.to_string().parse::<Cell>() {
            cells.push((ch, cell.number()));
        }
    }
    let expected: Vec<(char, u8)> = ('1'..='9').zip(1..=9).collect();
    assert_eq!(cells, expected);
    // Every pair of ASCII characters: none is a cell.
    for a in 0..128u8 {
        for b in 0..128u8 {
            let text = String::from_utf8(vec![a, b]).unwrap();
            assert!(text.parse::<Cell>().is_err(), "{text:?}");
        }
    }
    // What is wrong is told apart.
    for (text, error) in [
        ("", PositionError::CellEmpty),
        ("0", PositionError::CellOutOfRange),
        ("05", PositionError::CellOutOfRange),
        ("10", PositionError::CellOutOfRange),
        ("99999999999999999999999", PositionError::CellOutOfRange),
        ("+5", PositionError::CellSigned),
        ("-1", PositionError::CellSigned),
        ("+", PositionError::CellNotANumber),
        ("+-5", PositionError::CellNotANumber),
        (" 5", PositionError::CellNotANumber),
        ("5\n", PositionError::CellNotANumber),
        ("5a", PositionError::CellNotANumber),
        ("\u{665}", PositionError::CellNotANumber), // ARABIC-INDIC DIGIT FIVE
        ("\u{ff15}", PositionError::CellNotANumber), // FULLWIDTH DIGIT FIVE
    ] {
        assert_eq!(text.parse::<Cell>(), Err(error), "{text:?}");
    }
}

/// What the move-list readers say of a comma with no cell before it.
fn empty_move(position: usize, comma: usize) -> String {
    format!(
        "move {position} is empty: nothing before the comma at character {comma} \
         (separate cells with one comma or with spaces, e.g. \"5,1,9\" or \"5 1 9\")"
    )
}

/// What the move-list readers say of a comma that ends the list.
fn trailing_comma(position: usize, comma: usize) -> String {
    format!(
        "move {position} is empty: nothing after the comma at character {comma}, which ends \
         the list (separate cells with one comma or with spaces, e.g. \"5,1,9\" or \"5 1 9\")"
    )
}

#[test]
fn move_lists() {
    let numbers = |cells: &[Cell]| cells.iter().map(|c| c.number()).collect::<Vec<_>>();
    for text in [
        "5 1 9",
        "5,1,9",
        " 5 , 1  9 ",
        "5\t1\n9",
        "5 ,1, 9",
        "5\u{a0},\u{3000}1 9",
    ] {
        let (reached, cells) = moves(text).unwrap();
        assert_eq!(reached, board("O...X...X"), "{text:?}");
        assert_eq!(numbers(&cells), [5, 1, 9], "{text:?}");
        let history = History::parse(GAME, text).unwrap();
        assert_eq!(history.position(), board("O...X...X"), "{text:?}");
        assert_eq!(history.moves(), cells, "{text:?}");
    }
    for blank in ["", " ", "\t\n  "] {
        assert_eq!(moves(blank).unwrap(), (Position::empty(GAME), vec![]));
    }

    for (text, position, token) in [
        ("5 0", 2, "0"),
        ("10", 1, "10"),
        ("05", 1, "05"),
        ("1 5 09", 3, "09"),
        ("+5", 1, "+5"),
        ("-1", 1, "-1"),
        ("5 a", 2, "a"),
        ("5;1", 1, "5;1"),
        // The first bad item is reported, wherever the list goes wrong after it.
        ("1 x,,", 2, "x"),
    ] {
        let expected = PositionError::NotACell {
            number: position,
            token: token.to_string(),
            cells: 9,
        };
        assert_eq!(moves(text), Err(expected.clone()), "{text}");
        assert_eq!(History::parse(GAME, text), Err(expected), "{text}");
    }

    // Commas are counted in characters, not bytes: the no-break space is two bytes.
    for (text, message) in [
        (",,,", empty_move(1, 1)),
        (",1", empty_move(1, 1)),
        ("  ,1", empty_move(1, 3)),
        ("\u{a0},1", empty_move(1, 2)),
        ("1,,2", empty_move(2, 3)),
        ("1 , , 2", empty_move(2, 5)),
        ("1,2,,", empty_move(3, 5)),
        ("1,", trailing_comma(2, 2)),
        ("1 2 , ", trailing_comma(3, 5)),
    ] {
        let error = moves(text).unwrap_err();
        assert!(
            matches!(
                error,
                PositionError::EmptyMove { .. } | PositionError::TrailingComma { .. }
            ),
            "{text:?}: {error:?}"
        );
        assert_eq!(error.to_string(), message, "{text:?}");
    }

    match moves("5 1 5") {
        Err(PositionError::IllegalMove { number: 3, error })
            if matches!(*error, PositionError::Occupied { .. }) => {}
        other => panic!("{other:?}"),
    }
    match moves("1 4 2 5 3 6") {
        Err(PositionError::IllegalMove { number: 6, error })
            if matches!(*error, PositionError::GameOver { .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn move_list_errors_say_what_where_and_what_would_be_right() {
    let message = |text: &str| moves(text).unwrap_err().to_string();
    // Tic-tac-toe's cells are single digits: the message says which rule an item breaks,
    // as `ttt analyze --moves` and `ttt review` print it.
    assert_eq!(
        message("5 05"),
        "move 2 is \"05\", not a cell: cells are numbered 1 to 9, each written as one digit"
    );
    assert_eq!(
        message("+5"),
        "move 1 is \"+5\", not a cell: a cell is one digit from 1 to 9, with no sign"
    );
    assert_eq!(
        Position::from_move_list("4x4".parse().unwrap(), "+5")
            .unwrap_err()
            .to_string(),
        "move 1 is \"+5\", not a cell: cells are numbered 1 to 16, in decimal with no sign or \
         leading zero"
    );
    assert_eq!(message("1,,2"), empty_move(2, 3));
    assert_eq!(message("1,"), trailing_comma(2, 2));
    assert_eq!(message("5 5"), "move 2: cell 5 is already taken by X");
    // The first thing wrong, in the order of the list: an illegal move before an item that
    // is no cell at all.
    assert_eq!(message("5 5 x"), "move 2: cell 5 is already taken by X");
    assert_eq!(
        message("5 x 5"),
        "move 2 is \"x\", not a cell: a cell is one digit from 1 to 9"
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
        let _ = Position::parse(GAME, &text);
    }

    #[test]
    fn board_like_strings_parse_or_fail_cleanly(text in "[XxOo.\\-_1-9|/ ZQ]{0,14}") {
        if let Ok(b) = Position::parse(GAME, &text) {
            prop_assert_eq!(Position::parse(GAME, &b.to_string()).unwrap(), b);
        }
    }

    #[test]
    fn no_string_makes_the_move_parser_panic(text in "[0-9, a-z\\-+]{0,30}|\\PC{0,30}") {
        if let Ok((reached, cells)) = Position::from_move_list(GAME, &text) {
            prop_assert_eq!(reached.ply(), cells.len());
        }
        let _ = History::parse(GAME, &text);
    }

    /// Any separators between cells read back: on a board of 128 cells with 8 in a row to
    /// win, where any 11 distinct cells are a game in progress.
    #[test]
    fn cells_with_any_separators_read_back(
        numbers in prop::sample::subsequence((1..=128u32).collect::<Vec<_>>(), 1..12)
            .prop_shuffle(),
        separators in prop::collection::vec("[ \t\n]+|[ \t]*,[ \t]*", 11),
        lead in "[ \t]*",
        trail in "[ \t\n]*",
    ) {
        let game: Game = "8x16".parse().unwrap();
        let mut text = lead;
        for (i, number) in numbers.iter().enumerate() {
            if i > 0 {
                text.push_str(&separators[i - 1]);
            }
            text.push_str(&number.to_string());
        }
        text.push_str(&trail);
        let (_, cells) = Position::from_move_list(game, &text).unwrap();
        let read: Vec<u32> = cells.iter().map(|cell| u32::from(cell.number())).collect();
        prop_assert_eq!(read, numbers);
    }
}
