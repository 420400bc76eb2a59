//! Ground truth for the m,n,k games, read from tests/data/mnk_known.txt; a plain rules check
//! and the board's symmetries, written here from scratch, independent of the library's; the
//! check of one position against its children and its symmetries through the public
//! [`Oracle`]; and of an export's records.
//!
//! (The check of a table read in place against the same table unpacked is a unit test of the
//! table's layout now: `src/tests/table.rs`.)

use ttt_oracle::export::Record;
use ttt_oracle::{Cells, Game, Oracle, Player, Position, Value};

/// A set of cells as a mask: bit `i` is cell `i + 1`.
pub type Mask = u128;

/// The figures of tests/data/mnk_known.txt: (game, key, figure).
pub fn known() -> Vec<(String, String, String)> {
    include_str!("../data/mnk_known.txt")
        .lines()
        .map(|line| line.split('#').next().unwrap().trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(parts.len(), 3, "game, key and figure: {line}");
            (parts[0].into(), parts[1].into(), parts[2].into())
        })
        .collect()
}

/// Whether the cells of `marks` (bit `row * columns + column`) hold k in a row on a board of
/// `rows` x `columns`: every cell tried as the start of a run in each of four directions.
pub fn has_run(marks: Mask, rows: usize, columns: usize, k: usize) -> bool {
    let at = |row: isize, column: isize| {
        row >= 0
            && column >= 0
            && (row as usize) < rows
            && (column as usize) < columns
            && marks >> (row as usize * columns + column as usize) & 1 == 1
    };
    for row in 0..rows as isize {
        for column in 0..columns as isize {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                if (0..k as isize).all(|i| at(row + dr * i, column + dc * i)) {
                    return true;
                }
            }
        }
    }
    false
}

/// Every position reachable by play from the empty board, as (x, o) masks, found by a
/// depth-first walk over move sequences that marks each board once in a bit set by base-3 code.
pub fn reachable(rows: usize, columns: usize, k: usize) -> Vec<(Mask, Mask)> {
    let cells = rows * columns;
    let mut seen = vec![0u64; 3usize.pow(cells as u32).div_ceil(64)];
    let mut found = Vec::new();
    let mut stack: Vec<(Mask, Mask)> = vec![(0, 0)];
    let powers: Vec<usize> = (0..cells).map(|i| 3usize.pow(i as u32)).collect();
    let code = |x: Mask, o: Mask| {
        (0..cells)
            .map(|i| powers[i] * ((x >> i & 1) as usize + 2 * (o >> i & 1) as usize))
            .sum::<usize>()
    };
    seen[0] |= 1;
    while let Some((x, o)) = stack.pop() {
        found.push((x, o));
        let x_moves = x.count_ones() == o.count_ones();
        let last = if x_moves { o } else { x };
        if has_run(last, rows, columns, k) || (x | o).count_ones() as usize == cells {
            continue;
        }
        for cell in 0..cells {
            if (x | o) >> cell & 1 == 1 {
                continue;
            }
            let child = if x_moves {
                (x | 1 << cell, o)
            } else {
                (x, o | 1 << cell)
            };
            let c = code(child.0, child.1);
            if seen[c / 64] >> (c % 64) & 1 == 0 {
                seen[c / 64] |= 1 << (c % 64);
                stack.push(child);
            }
        }
    }
    found
}

/// The X and O masks of a base-3 code of `cells` cells.
pub fn marks(code: u64, cells: usize) -> (Mask, Mask) {
    let (mut x, mut o, mut rest): (Mask, Mask, u64) = (0, 0, code);
    for i in 0..cells {
        match rest % 3 {
            1 => x |= 1 << i,
            2 => o |= 1 << i,
            _ => {}
        }
        rest /= 3;
    }
    (x, o)
}

/// The base-3 code of a board: cell `i` weighs `3^i`; empty 0, X 1, O 2.
pub fn code(board: &Position) -> u64 {
    let (x, o) = (board.marks(Player::X).bits(), board.marks(Player::O).bits());
    (0..board.game().cells()).rev().fold(0, |code, i| {
        code * 3 + (x >> i & 1) as u64 + 2 * (o >> i & 1) as u64
    })
}

/// The names of the eight symmetries of a square board, in the library's order (identity
/// first, as `ttt export` names them).
pub const SYMMETRIES: [&str; 8] = [
    "identity",
    "rotate90",
    "rotate180",
    "rotate270",
    "flip_horizontal",
    "flip_vertical",
    "transpose",
    "anti_transpose",
];

/// The symmetries of `game`'s board, as indices into [`SYMMETRIES`]: all eight on a square,
/// else the four that keep the rectangle's shape (identity, the half turn and both mirrors).
pub fn symmetries(game: Game) -> Vec<usize> {
    let square = game.rows() == game.columns();
    (0..8)
        .filter(|&s| square || matches!(s, 0 | 2 | 4 | 5))
        .collect()
}

/// Where symmetry `s` (an index into [`SYMMETRIES`]) sends the cell with index `cell` of
/// `game`'s board. A quarter turn is clockwise: the top row becomes the right column.
pub fn turn_cell(game: Game, s: usize, cell: usize) -> usize {
    let (rows, columns) = (game.rows(), game.columns());
    let (row, column) = (cell / columns, cell % columns);
    let (last_row, last_column) = (rows - 1, columns - 1);
    let (r, c) = match s {
        0 => (row, column),
        1 => (column, last_row - row),
        2 => (last_row - row, last_column - column),
        3 => (last_column - column, row),
        4 => (row, last_column - column),
        5 => (last_row - row, column),
        6 => (column, row),
        7 => (last_column - column, last_row - row),
        _ => unreachable!("eight symmetries"),
    };
    r * columns + c
}

/// The image of `cells` under symmetry `s`.
pub fn turn_cells(game: Game, s: usize, cells: Cells) -> Cells {
    let mut bits = cells.bits();
    let mut image: Mask = 0;
    while bits != 0 {
        let cell = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        image |= 1 << turn_cell(game, s, cell);
    }
    Cells::from_bits(image)
}

/// `board` turned by symmetry `s`; the rules must accept the image.
pub fn turned(board: &Position, s: usize) -> Position {
    let game = board.game();
    let mask = |player| turn_cells(game, s, board.marks(player)).bits();
    Position::from_marks(
        game,
        Cells::from_bits(mask(Player::X)),
        Cells::from_bits(mask(Player::O)),
    )
    .unwrap_or_else(|error| panic!("{board:?} turned by {}: {error}", SYMMETRIES[s]))
}

/// `board`'s answers from `oracle` agree with each of its images' (value, remoteness, and the
/// optimal moves turned with the board) and with a one-ply look at its children (minimax
/// written out here: the best value, then the fastest win or the slowest loss); its optimal
/// moves are exactly the moves that reach it, `moves` values every legal move, and `line` is
/// `best_move` played to the end, as long as the remoteness and ending as the value says.
pub fn check_position(oracle: &Oracle, board: &Position) {
    let game = board.game();
    let probe = oracle.probe(board);
    let best = oracle.best_moves(board);
    for s in symmetries(game).into_iter().skip(1) {
        let image = turned(board, s);
        let name = SYMMETRIES[s];
        assert_eq!(oracle.probe(&image), probe, "{board:?} turned {name}");
        let moved = turn_cells(game, s, best);
        assert_eq!(oracle.best_moves(&image), moved, "{board:?} turned {name}");
    }
    let line = oracle.line(board);
    assert_eq!(
        line.len(),
        usize::from(probe.remoteness),
        "{board:?}: the line"
    );
    if board.is_over() {
        let value = if board.winner().is_some() {
            Value::Loss
        } else {
            Value::Draw
        };
        assert_eq!((probe.value, probe.remoteness), (value, 0), "{board:?}");
        assert_eq!(best, Cells::EMPTY, "{board:?}");
        assert_eq!(oracle.best_move(board), None, "{board:?}");
        assert!(oracle.moves(board).is_empty(), "{board:?}");
        return;
    }
    let moves = oracle.moves(board);
    let cells: Cells = moves.iter().map(|m| m.cell).collect();
    assert_eq!(cells, board.legal_moves(), "{board:?}: every legal move");
    assert!(moves.windows(2).all(|w| w[0].cell < w[1].cell), "{board:?}");
    for m in &moves {
        let child = oracle.probe(&board.play(m.cell).unwrap());
        assert_eq!(
            (m.value, m.remoteness),
            (-child.value, child.remoteness + 1),
            "{board:?}"
        );
    }
    let value = moves.iter().map(|m| m.value).max().unwrap();
    let same = moves
        .iter()
        .filter(|m| m.value == value)
        .map(|m| m.remoteness);
    let remoteness = match value {
        Value::Win => same.min(),
        _ => same.max(),
    }
    .unwrap();
    assert_eq!(
        (probe.value, probe.remoteness),
        (value, remoteness),
        "{board:?}"
    );
    for m in &moves {
        let optimal = m.value == value && (value == Value::Draw || m.remoteness == remoteness);
        assert_eq!(best.contains(m.cell), optimal, "{board:?} cell {}", m.cell);
    }
    assert_eq!(oracle.best_move(board), best.first(), "{board:?}");
    // The line: the deterministic best move at every step, to a finish worth the value.
    let mover = board.to_move();
    let mut here = *board;
    for &cell in &line {
        assert_eq!(oracle.best_move(&here), Some(cell), "{board:?}: at {here}");
        here = here.play(cell).unwrap_or_else(|e| panic!("{board:?}: {e}"));
    }
    assert!(here.is_over(), "{board:?}: the line stops at {here}");
    let ended = match here.winner() {
        Some(winner) if winner == mover => Value::Win,
        Some(_) => Value::Loss,
        None => Value::Draw,
    };
    assert_eq!(ended, probe.value, "{board:?}: the line ends on {here}");
}

/// Checks one record against the oracle of its game, field by field; the canonical form and
/// the symmetry are worked out here from the board's images.
pub fn check_mnk(oracle: &Oracle, record: &Record) {
    let board = record.board;
    assert_eq!(record.game, oracle.game());
    assert_eq!(record.game, board.game());
    assert_eq!(record.to_move, board.to_move());
    assert_eq!(usize::from(record.ply), board.ply());
    assert_eq!(record.status, board.status());
    let probe = oracle.probe(&board);
    assert_eq!(
        (record.value, record.remoteness),
        (probe.value, probe.remoteness)
    );
    assert_eq!(record.best, oracle.best_moves(&board), "{board:?}");
    assert_eq!(record.moves, oracle.moves(&board), "{board:?}");
    let images: Vec<(usize, Position)> = symmetries(board.game())
        .into_iter()
        .map(|s| (s, turned(&board, s)))
        .collect();
    let smallest = images.iter().map(|(_, image)| code(image)).min();
    let (first, canonical) = images
        .iter()
        .find(|(_, image)| Some(code(image)) == smallest)
        .unwrap();
    assert_eq!(record.canonical, *canonical, "{board:?}");
    assert_eq!(record.symmetry.name(), SYMMETRIES[*first], "{board:?}");
}

/// Every record of `game` (only the canonical ones with `canonical`): each position the game
/// can reach once, found by an independent walk, in order of ply then base-3 code (then text,
/// `.` < `O` < `X`, on tic-tac-toe), each agreeing with the oracle.
pub fn check_all_mnk(game: Game, records: &[Record], canonical: bool) {
    let oracle = Oracle::of(game).unwrap();
    let stats = oracle.stats().unwrap();
    let expected = if canonical {
        stats.canonical_positions
    } else {
        stats.reachable_positions
    };
    assert_eq!(records.len() as u64, expected, "{game}");
    if game.is_tic_tac_toe() {
        let keys: Vec<(u8, String)> = records
            .iter()
            .map(|r| (r.ply, r.board.to_string()))
            .collect();
        assert!(keys.is_sorted(), "{game}: by ply, then text");
    } else {
        let keys: Vec<(u8, u64)> = records.iter().map(|r| (r.ply, code(&r.board))).collect();
        assert!(keys.is_sorted(), "{game}: by ply, then code");
    }
    let mut walked: Vec<(Mask, Mask)> = reachable(game.rows(), game.columns(), game.k())
        .into_iter()
        .filter(|&(x, o)| {
            let board =
                Position::from_marks(game, Cells::from_bits(x), Cells::from_bits(o)).unwrap();
            !canonical
                || symmetries(game)
                    .into_iter()
                    .all(|s| code(&turned(&board, s)) >= code(&board))
        })
        .collect();
    walked.sort();
    let mut exported: Vec<(Mask, Mask)> = records
        .iter()
        .map(|r| {
            let board = r.board;
            (board.marks(Player::X).bits(), board.marks(Player::O).bits())
        })
        .collect();
    exported.sort();
    assert_eq!(exported, walked, "{game}: each position once");
    for record in records {
        check_mnk(&oracle, record);
    }
}
