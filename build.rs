//! Solves the embedded games once, at build time (tic-tac-toe, 3x4, 4x3, and with the feature
//! `embedded-4x4` 4x4 and 4x4k3), and writes the tables the binary embeds: tic-tac-toe's also
//! expanded as Rust statics, 4x4's with its best moves by raw code.
//!
//! The rules, the symmetries, the solver (the tiered one of every game) and the table format
//! are the library's own files, pulled in with `#[path]` so that they are written once (with
//! `text.rs`, which the rules' error messages use).

use std::path::PathBuf;
use std::{env, fs};

#[allow(dead_code)]
#[path = "src/board.rs"]
mod board;
#[allow(dead_code)]
#[path = "src/cell.rs"]
mod cell;
#[allow(dead_code)]
#[path = "src/cells.rs"]
mod cells;
// The build writes tables but reads none: the reading half and its re-exports go unused.
#[allow(dead_code)]
#[path = "src/table/first_moves.rs"]
mod first_moves;
#[allow(dead_code, unused_imports)]
#[path = "src/format/mod.rs"]
mod format;

#[allow(dead_code)]
#[path = "src/game.rs"]
mod game;
#[allow(dead_code)]
#[path = "src/notation.rs"]
mod notation;
#[allow(dead_code)]
#[path = "src/player.rs"]
mod player;
#[allow(dead_code)]
#[path = "src/position.rs"]
mod position;
#[allow(dead_code)]
#[path = "src/position_error.rs"]
mod position_error;
#[allow(dead_code)]
#[path = "src/solve/mod.rs"]
mod solve;
#[allow(dead_code)]
#[path = "src/symmetry.rs"]
mod symmetry;
#[allow(dead_code)]
#[path = "src/text.rs"]
mod text;
#[allow(dead_code, unused_imports)]
#[path = "src/tiers.rs"]
mod tiers;
#[allow(dead_code)]
#[path = "src/value.rs"]
mod value;

fn main() {
    for shared in [
        "board",
        "cell",
        "cells",
        "format/bits",
        "format/huffman",
        "format/mod",
        "format/read",
        "format/subsets",
        "format/dense",
        "format/write",
        "game",
        "notation",
        "player",
        "position",
        "position_error",
        "text",
        "solve/mod",
        "symmetry",
        "table/first_moves",
        "tiers",
        "tiers/solve",
        "value",
    ] {
        println!("cargo::rerun-if-changed=src/{shared}.rs");
    }
    println!("cargo::rerun-if-changed=build.rs");

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let solving: Vec<_> = [game::Game::TIC_TAC_TOE]
        .into_iter()
        .chain(game::Game::EMBEDDED.iter().copied())
        .map(|game| {
            std::thread::spawn(move || {
                let solution = solve::solve_game(game);
                let stored = format::stored(&solution);
                let bytes = format::encode(&stored);
                let expanded = (game == game::Game::TIC_TAC_TOE)
                    .then(|| expanded_source(&stored, format::checksum_of(&bytes)));
                // 4x4's best moves by raw code, so that a process answers them at once.
                let first_moves = (game.to_string() == "4x4").then(|| {
                    let mut moves = vec![0; first_moves::len(game.cells())];
                    let stored = solution.best_moves().iter().copied();
                    first_moves::write(&solve::Codes::new(game), stored, &mut moves);
                    moves
                });
                (game, bytes, first_moves, expanded)
            })
        })
        .collect();
    for thread in solving {
        let (game, bytes, first_moves, expanded) = thread.join().expect("a solver thread finishes");
        let name = format!("mnk-{game}.bin");
        fs::write(out.join(&name), &bytes).unwrap_or_else(|e| panic!("write OUT_DIR/{name}: {e}"));
        if let Some(source) = expanded {
            fs::write(out.join("expanded.rs"), source).expect("write OUT_DIR/expanded.rs");
        }
        if let Some(moves) = first_moves {
            let name = format!("first-moves-{game}.bin");
            fs::write(out.join(&name), &moves)
                .unwrap_or_else(|e| panic!("write OUT_DIR/{name}: {e}"));
        }
    }
}

/// Tic-tac-toe's table expanded over its symmetries (`format/dense.rs`), as Rust statics, so
/// that a process answers from them without decoding the stored table; a process checks that
/// the two agree through their checksums, and `ttt verify` expands the stored table again.
fn expanded_source(stored: &format::Stored, table_checksum: u64) -> String {
    use format::dense;
    let expanded = dense::expand(stored).expect("the solve covers every position");
    let list = |values: Vec<String>| values.join(",");
    format!(
        "/// The checksum of the stored table these arrays were expanded from.\n\
         pub(super) const TABLE_CHECKSUM: u64 = {table_checksum:#018x};\n\
         /// [`expanded_checksum`](crate::format::dense::expanded_checksum) of the arrays.\n\
         pub(super) const EXPANDED_CHECKSUM: u64 = {expanded:#018x};\n\
         pub(super) static WORDS: [u16; CODES] = [{words}];\n\
         pub(super) static FIRST: [u8; CODES] = [{first}];\n",
        expanded = dense::expanded_checksum(&expanded.words, &expanded.first[..]),
        words = list(expanded.words.iter().map(u16::to_string).collect()),
        first = list(expanded.first.iter().map(u8::to_string).collect()),
    )
}
