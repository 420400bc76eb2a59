//! Marcelo's rules one by one, on boards drawn for them (play need not lead there): its own
//! functions, which the public API does not show. Its play through `Bot` is in
//! tests/integration/bot_sources.rs.

use super::*;

/// The marks of X and of O on a board drawn a row a word, `.` for an empty cell.
fn drawn(rows: &str) -> (Square, Mask, Mask) {
    let rows: Vec<&str> = rows.split_whitespace().collect();
    let square = Square::new(rows.len()).unwrap();
    let (mut x, mut o) = (0, 0);
    for (i, ch) in rows.concat().chars().enumerate() {
        match ch {
            'X' => x |= 1 << i,
            'O' => o |= 1 << i,
            _ => assert_eq!(ch, '.'),
        }
    }
    (square, x, o)
}

/// Rules 1 to 4 for O on the board drawn, as cell numbers 1..N*N with probabilities.
fn o_plays(rows: &str) -> Option<Vec<(usize, String)>> {
    let (square, x, o) = drawn(rows);
    square.rules_one_to_four(o, x).map(|pick| {
        pick.choices()
            .map(|(cell, p)| (cell + 1, p.to_string()))
            .collect()
    })
}

fn certain(cell: usize) -> Option<Vec<(usize, String)>> {
    Some(vec![(cell, "1/1".to_string())])
}

#[test]
fn only_odd_sizes_that_fit() {
    assert!(Square::new(3).is_some() && Square::new(9).is_some());
    assert!(Square::new(4).is_none() && Square::new(13).is_none());
}

#[test]
fn rule_one_wins_at_the_first_cell_of_the_scan_before_blocking() {
    // 5x5: O holds four of row 1 (wins at 5) and four of column 3 (wins at 23); X four of
    // row 5 (blocked at 23). The row-major scan wins at 5.
    let board = "OOOO. X.O.. X.O.. X.O.. XX.XX";
    assert_eq!(o_plays(board), certain(5));
    // Without row 1's win, 23 wins (and blocks).
    let board = "OOOX. X.O.. X.O.. ..O.. XX.XX";
    assert_eq!(o_plays(board), certain(23));
    // 7x7: six O on the anti-diagonal, its last cell (row 7, column 1) empty.
    let board = "......O .....O. ....O.. ...O... ..O.... .O..... .XXXXXX";
    assert_eq!(o_plays(board), certain(43));
}

#[test]
fn rule_two_blocks_before_the_centre() {
    // 5x5: X holds four of column 1, with the centre empty.
    assert_eq!(o_plays("X.... X.... ..... X...O X...O"), certain(11));
    // 7x7: X holds six of the main diagonal; the centre is X's.
    let board = "X...... .X..... ..X.... ...X... ....X.. .....X. ......O";
    assert_eq!(
        o_plays(board),
        None,
        "the diagonal's last cell is O's: no block"
    );
    let board = "X...... .X..... ..X.... ...X... ....X.. .....X. O......";
    assert_eq!(o_plays(board), certain(49));
}

#[test]
fn rule_three_takes_the_centre() {
    assert_eq!(o_plays("..... ..... ..... ..... X...."), certain(13));
    assert_eq!(
        o_plays("....... ....... ....... ....... ....... ....... X......"),
        certain(25)
    );
}

#[test]
fn rule_four_tosses_a_coin_a_row_down_the_diagonals() {
    // 5x5, X in the centre: row 1's cells 1 and 5, one each way.
    assert_eq!(
        o_plays("..... ..... ..X.. ..... ....."),
        Some(vec![(1, "1/2".into()), (5, "1/2".into())])
    );
    // Row 1's two taken: the coin of row 2, cells 7 and 9.
    assert_eq!(
        o_plays("X...O ..... ..X.. ..... ....X"),
        Some(vec![(7, "1/2".into()), (9, "1/2".into())])
    );
    // One of row 1's free: whatever the coin says, that one.
    assert_eq!(o_plays("X.... ..... ..X.. ..... ....."), certain(5));
    // 7x7: rows 1 and 2 taken, row 3's cells 17 and 19.
    let board = "X.....O .O...X. ....... ...X... ....... ....... ......X";
    assert_eq!(
        o_plays(board),
        Some(vec![(17, "1/2".into()), (19, "1/2".into())])
    );
}

#[test]
fn rule_four_keeps_off_the_diagonals_once_one_is_full() {
    // 5x5: the main diagonal full, with no line of either side anywhere.
    assert_eq!(o_plays("X.... .O... ..X.. ...O. ....X"), None);
    // 7x7: the anti-diagonal full.
    let board = "......X .....O. ....X.. ...O... ..X.... .O..... X......";
    assert_eq!(o_plays(board), None);
}

#[test]
fn rule_five_marks_once_for_each_column_offset_that_finds_an_empty_cell() {
    // 5x5, last move at row 1, column 1: i = 5 reaches nothing, i = 4 reaches row 5 going
    // down-right, and every j from 4 to 0 marks a cell of it: five marks in one turn.
    let (square, x, o) = drawn("O.... ..... ..X.. ..... .....");
    let empty = ((1 << 25) - 1) & !(x | o);
    assert_eq!(square.far_from(empty, 0).as_slice(), [24, 23, 22, 21, 20]);
    // With row 5 partly taken, the marks skip the taken cells.
    let (_, x, o) = drawn("O.... ..... ..X.. ..... .X.O.");
    let empty = ((1 << 25) - 1) & !(x | o);
    assert_eq!(square.far_from(empty, 0).as_slice(), [24, 22, 20]);
    // 7x7, last move in the centre: i = 3 is the first to reach the board, up-left (sign
    // -1 first), along row 1 from column 1: four marks.
    let square = Square::new(7).unwrap();
    let empty = ((1 << 49) - 1) & !(1 << 24);
    assert_eq!(square.far_from(empty, 24).as_slice(), [0, 1, 2, 3]);
    // Row 1 all taken: each j's down-right cell instead, row 7 from column 7 leftwards.
    let empty = empty & !0b111_1111;
    assert_eq!(square.far_from(empty, 24).as_slice(), [48, 47, 46, 45]);
}

#[test]
fn the_last_move_is_the_last_one_rules_one_to_four_made_and_rule_five_starts_there() {
    let square = Square::new(5).unwrap();
    // Before any move of its own, row 1, column 1.
    assert_eq!(square.last_move(&[]), 0);
    // O, second, took the centre (rule 3).
    assert_eq!(square.last_move(&[0, 12, 24]), 12);
    // A game the bot plays as O: X 1, O 13 (rule 3), X 25, O 5 (rule 4: row 1's other
    // diagonal cell), X 19, O 7 (rule 4, row 2's coin), X 3. The main diagonal is full,
    // so rules 1 to 4 play nothing, and O's last move is still 7.
    let game = [0, 12, 24, 4, 18, 6, 2];
    let (mut x, mut o) = (0, 0);
    for (ply, cell) in game.iter().enumerate() {
        *[&mut x, &mut o][ply % 2] |= 1 << cell;
    }
    assert_eq!(square.rules_one_to_four(o, x), None);
    assert_eq!(square.last_move(&game), 6);
    // Rule 5 from row 2, column 2: i = 3 reaches row 5 down-right; j = 3 finds 25 taken,
    // then j = 2, 1, 0 mark 24, 23 and 22: three marks in one turn.
    let empty = ((1 << 25) - 1) & !(x | o);
    assert_eq!(square.far_from(empty, 6).as_slice(), [23, 22, 21]);
}

/// A 9x9 board drawn a row a word: `.` for each cell but those listed, X's then O's
/// (cells 1..81).
fn nine(x: &[usize], o: &[usize]) -> String {
    let mut cells = vec!['.'; 81];
    for &n in x {
        cells[n - 1] = 'X';
    }
    for &n in o {
        cells[n - 1] = 'O';
    }
    let rows: Vec<String> = cells.chunks(9).map(|row| row.iter().collect()).collect();
    rows.join(" ")
}

#[test]
fn rules_one_to_three_on_nine_by_nine() {
    // Rule 1: O holds eight of row 1 and X eight of row 9; O wins at 9 before blocking 81.
    let board = nine(&[73, 74, 75, 76, 77, 78, 79, 80], &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(o_plays(&board), certain(9));
    // Rule 2: no line of O's to finish, so O blocks X's row 9 at 81, centre or not.
    let board = nine(
        &[73, 74, 75, 76, 77, 78, 79, 80],
        &[1, 3, 5, 7, 9, 19, 23, 27],
    );
    assert_eq!(o_plays(&board), certain(81));
    // And X's eight of column 1 (1 10 19 ... 64), with 73 empty.
    let board = nine(
        &[1, 10, 19, 28, 37, 46, 55, 64],
        &[2, 12, 22, 33, 44, 54, 65, 81],
    );
    assert_eq!(o_plays(&board), certain(73));
    // Rule 3: the centre, row 5 and column 5, is cell 41.
    assert_eq!(o_plays(&nine(&[1], &[])), certain(41));
    assert_eq!(o_plays(&nine(&[81, 9], &[73])), certain(41));
}

#[test]
fn rule_four_walks_down_the_diagonals_on_nine_by_nine() {
    // X in the centre: row 1's cells 1 and 9, a coin.
    assert_eq!(
        o_plays(&nine(&[41], &[])),
        Some(vec![(1, "1/2".into()), (9, "1/2".into())])
    );
    // One of row 1's taken: the other, whatever the coin says.
    assert_eq!(o_plays(&nine(&[41], &[1])), certain(9));
    assert_eq!(o_plays(&nine(&[41, 9], &[5])), certain(1));
    // Rows 1 to 3 taken (1 9, 11 17, 21 25): row 4's coin, cells 31 and 33.
    let board = nine(&[41, 1, 17, 25], &[9, 11, 21]);
    assert_eq!(
        o_plays(&board),
        Some(vec![(31, "1/2".into()), (33, "1/2".into())])
    );
    // Rows 1 to 4 taken and row 5's two cells are the centre, taken: row 6's, 49 and 51.
    let board = nine(&[41, 1, 17, 25, 33], &[9, 11, 21, 31]);
    assert_eq!(
        o_plays(&board),
        Some(vec![(51, "1/2".into()), (49, "1/2".into())])
    );
    // The main diagonal (1 11 21 ... 81) full: nothing from rule 4.
    let board = nine(&[1, 21, 41, 61, 81], &[11, 31, 51, 71]);
    assert_eq!(o_plays(&board), None);
}

#[test]
fn rule_five_puts_several_marks_down_on_nine_by_nine() {
    // Last move in the centre (row 5, column 5): i = 4 is the first to reach the board,
    // up-left (sign -1 first), along row 1 from column 1 for j = 4 down to 0: five marks.
    let square = Square::new(9).unwrap();
    let empty = ((1 << 81) - 1) & !(1 << 40);
    assert_eq!(square.far_from(empty, 40).as_slice(), [0, 1, 2, 3, 4]);
    // Row 1 all taken: each j's down-right cell instead, row 9 from column 9 leftwards.
    let empty = empty & !0b1_1111_1111;
    assert_eq!(square.far_from(empty, 40).as_slice(), [80, 79, 78, 77, 76]);
}

#[test]
fn blocks_every_lone_threat_on_every_board_it_plays() {
    // What `blocks_threats` declares, on random positions of each size: the opponent holds
    // a line but one cell, the rest of both sides' marks fall anywhere; where that cell is
    // the only one completing a line of the opponent's, every choice marks it or completes
    // a line of the bot's.
    let mut rng = crate::rng::SplitMix64::new(15);
    let mut bot = Marcelo::default();
    // Positions checked, for each size.
    let mut checked = [0; 5];
    for trial in 0..4_000 {
        let n = [3, 5, 7, 9, 11][trial % 5];
        let square: Game = format!("{n}x{n}").parse().unwrap();
        let geometry = History::empty(square).position().geometry();
        let lines = geometry.lines();
        let line = lines[rng.below(lines.len() as u64) as usize];
        let cells: Vec<usize> = (0..n * n).filter(|&c| line >> c & 1 == 1).collect();
        let hole = cells[rng.below(n as u64) as usize];
        let mut theirs: Vec<usize> = cells.into_iter().filter(|&c| c != hole).collect();
        let mut free: Vec<usize> = (0..n * n)
            .filter(|&c| line >> c & 1 == 0 || c == hole)
            .collect();
        let mut take = |rng: &mut crate::rng::SplitMix64, hole_too: bool| loop {
            let cell = free.swap_remove(rng.below(free.len() as u64) as usize);
            if cell != hole || hole_too {
                return cell;
            }
            free.push(cell);
        };
        // A few more of the opponent's marks, and as many of the bot's as the turn needs:
        // the bot is X when the counts are equal.
        for _ in 0..rng.below(n as u64) {
            theirs.push(take(&mut rng, false));
        }
        let bot_is_x = rng.below(2) == 0;
        let mine_count = if bot_is_x {
            theirs.len()
        } else {
            theirs.len() - 1
        };
        let mine: Vec<usize> = (0..mine_count).map(|_| take(&mut rng, false)).collect();
        // X's marks and O's alternate, in the order drawn.
        let (xs, os) = if bot_is_x {
            (&mine, &theirs)
        } else {
            (&theirs, &mine)
        };
        let mask = |cells: &[usize]| cells.iter().fold(0 as Mask, |m, &c| m | 1 << c);
        if geometry.has_line(mask(xs)) || geometry.has_line(mask(os)) {
            continue;
        }
        let mut game = History::empty(square);
        for i in 0..xs.len().max(os.len()) {
            for cell in [xs.get(i), os.get(i)].into_iter().flatten() {
                game.play_unchecked(Cell::new(*cell).unwrap());
            }
        }
        let position = game.position();
        let me = position.to_move();
        let empty = position.empty_mask();
        let completes = |marks: Mask, cell: usize| {
            empty >> cell & 1 == 1 && geometry.makes_line(marks | 1 << cell, cell)
        };
        let threats: Vec<usize> = (0..n * n)
            .filter(|&c| completes(position.mask(!me), c))
            .collect();
        if threats != [hole] {
            continue;
        }
        checked[trial % 5] += 1;
        for choice in bot.choose(&game).unwrap() {
            let Turn::Mark(cell) = choice.turn else {
                panic!("{:?}: {:?}", game.moves(), choice.turn);
            };
            let cell = cell.index();
            assert!(
                cell == hole || completes(position.mask(me), cell),
                "{n}x{n} after {:?}: {cell} leaves {hole} open",
                game.moves()
            );
        }
    }
    assert!(
        checked.iter().all(|&n| n > 300),
        "positions with a lone threat on 3x3 to 11x11: {checked:?}"
    );
}
