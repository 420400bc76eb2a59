//! Ground truth for the m,n,k games, read from tests/data/mnk_known.txt; a plain rules check
//! written here from scratch, independent of the library's; the check of one table entry
//! against its children and its symmetries; of a table read in place against the same table
//! unpacked; and of an export's records.

use ttt_oracle::export::MnkRecord;
use ttt_oracle::{
    Game, Mask, MnkTable, Player, Position, Value, mnk_stats, mnk_table, mnk_table_bytes,
    solve_game,
};

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

/// `board`'s entry in `table` equals each of its images' and a one-ply look at its children
/// (minimax written out here: the best value, then the fastest win or the slowest loss), and
/// its optimal moves are exactly the moves that reach it.
pub fn check_position(table: &MnkTable, board: &Position) {
    let probe = table.probe(board);
    for t in 1..board.geometry().turns().len() {
        assert_eq!(table.probe(&board.turned(t)), probe, "{board:?} turned {t}");
    }
    if board.is_over() {
        assert_eq!(probe.remoteness, 0, "{board:?}");
        assert_eq!(table.best_moves(board), 0, "{board:?}");
        return;
    }
    let moves = table.analyze(board);
    for m in &moves {
        let child = table.probe(&board.play(m.number).unwrap());
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
    let best = table.best_moves(board);
    for m in &moves {
        let optimal = m.value == value && (value == Value::Draw || m.remoteness == remoteness);
        assert_eq!(
            best >> (m.number - 1) & 1 == 1,
            optimal,
            "{board:?} cell {}",
            m.number
        );
    }
}

/// Checks one record against the table of its game, field by field; the canonical form and
/// the symmetry are worked out here from the board's images.
pub fn check_mnk(table: &MnkTable, record: &MnkRecord) {
    let board = record.board;
    assert_eq!(record.game, table.game());
    assert_eq!(record.to_move, board.to_move());
    assert_eq!(usize::from(record.ply), board.ply());
    assert_eq!(record.status, board.status());
    let probe = table.probe(&board);
    assert_eq!(
        (record.value, record.remoteness),
        (probe.value, probe.remoteness)
    );
    let best = table.best_moves(&board);
    let numbers: Vec<usize> = (1..=64).filter(|n| best >> (n - 1) & 1 == 1).collect();
    assert_eq!(record.best, numbers, "{board:?}");
    assert_eq!(record.moves, table.analyze(&board));
    let turns = board.geometry().turns();
    let images: Vec<Position> = (0..turns.len()).map(|t| board.turned(t)).collect();
    let smallest = images.iter().map(|image| image.code().unwrap()).min();
    let first = images
        .iter()
        .position(|image| image.code() == smallest)
        .unwrap();
    assert_eq!(record.canonical, images[first], "{board:?}");
    assert_eq!(record.symmetry, turns[first], "{board:?}");
}

/// Every record of `game` (only the canonical ones with `canonical`): each position the game
/// can reach once, found by an independent walk, in order of ply then base-3 code, each
/// agreeing with the table.
pub fn check_all_mnk(game: Game, records: &[MnkRecord], canonical: bool) {
    let table = mnk_table(game).unwrap();
    let stats = mnk_stats(game);
    let expected = if canonical {
        stats.canonical_positions
    } else {
        stats.reachable_positions
    };
    assert_eq!(records.len() as u64, expected, "{game}");
    let keys: Vec<(u8, u64)> = records
        .iter()
        .map(|r| (r.ply, r.board.code().unwrap()))
        .collect();
    assert!(keys.is_sorted(), "{game}: by ply, then code");
    let mut walked: Vec<(Mask, Mask)> = reachable(game.rows(), game.columns(), game.k())
        .into_iter()
        .filter(|&(x, o)| {
            let board = Position::from_marks(game, x, o).unwrap();
            !canonical
                || (0..board.geometry().turns().len())
                    .all(|t| board.turned(t).code() >= board.code())
        })
        .collect();
    walked.sort();
    let mut exported: Vec<(Mask, Mask)> = records
        .iter()
        .map(|r| (r.board.marks(Player::X), r.board.marks(Player::O)))
        .collect();
    exported.sort();
    assert_eq!(exported, walked, "{game}: each position once");
    for record in records {
        check_mnk(table, record);
    }
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

/// The embedded table of `game`, read in place and never unpacked, gives every canonical
/// position in play the value and remoteness of the same table unpacked, and an image of each
/// the same optimal moves, those the solver found turned with it.
pub fn check_compressed(game: Game) {
    let bytes = mnk_table_bytes(game).unwrap();
    let compressed = MnkTable::compressed(bytes, usize::MAX).unwrap();
    let unpacked = MnkTable::from_bytes(bytes).unwrap();
    let solution = solve_game(game);
    assert_eq!(
        compressed.stored_positions(),
        solution.best_moves().len(),
        "{game}"
    );
    let turns = game.geometry().turns().len();
    for &(code, best) in solution.best_moves() {
        let (x, o) = marks(code.into(), game.cells());
        let canonical = Position::from_marks(game, x, o).unwrap();
        assert_eq!(
            compressed.probe(&canonical),
            unpacked.probe(&canonical),
            "{canonical:?}"
        );
        // One lookup each, since a lookup in place decodes part of a block: an image, so that
        // the moves are turned back.
        let turn = code as usize % turns;
        let turned = canonical.turned(turn);
        let moves = compressed.best_moves(&turned);
        assert_eq!(moves, unpacked.best_moves(&turned), "{turned:?}");
        let back = (0..game.cells())
            .filter(|&cell| moves >> game.geometry().turn_cell(turn, cell) & 1 == 1)
            .fold(0, |mask, cell| mask | 1 << cell);
        assert_eq!(back, Mask::from(best), "{canonical:?} turned {turn}");
    }
    assert!(!compressed.is_unpacked());
}
