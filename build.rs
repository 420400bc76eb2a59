//! Solves the embedded games once, at build time (tic-tac-toe, 3x4, 4x3, 4x4 and 4x4k3), and
//! writes the tables the binary embeds: tic-tac-toe's also expanded as Rust statics, 4x4's with
//! its best moves by raw code.
//!
//! The rules, the symmetries, the solver and the table format are the library's own files,
//! pulled in with `#[path]` so that they are written once (with `text.rs`, which the rules'
//! error messages use).

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
#[path = "src/moves.rs"]
mod moves;
#[allow(dead_code)]
#[path = "src/player.rs"]
mod player;
#[allow(dead_code)]
#[path = "src/position.rs"]
mod position;
#[allow(dead_code)]
#[path = "src/solve/mod.rs"]
mod solve;
#[allow(dead_code)]
#[path = "src/symmetry.rs"]
mod symmetry;
#[allow(dead_code)]
#[path = "src/text.rs"]
mod text;
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
        "format/tic_tac_toe",
        "format/write",
        "game",
        "moves",
        "player",
        "position",
        "text",
        "solve/mod",
        "solve/tic_tac_toe",
        "symmetry",
        "table/first_moves",
        "value",
    ] {
        println!("cargo::rerun-if-changed=src/{shared}.rs");
    }
    println!("cargo::rerun-if-changed=build.rs");

    let solution = solve::tic_tac_toe::solve();
    let bytes = format::tic_tac_toe::encode(&solution);
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("table.bin"), &bytes).expect("write OUT_DIR/table.bin");
    fs::write(out.join("expanded.rs"), expanded_source(&solution))
        .expect("write OUT_DIR/expanded.rs");

    // The larger games, each on its own thread: 4x4 takes most of the time, and build
    // machines have more than one core.
    let solving: Vec<_> = game::Game::EMBEDDED
        .into_iter()
        .map(|game| {
            std::thread::spawn(move || {
                let solution = solve::solve_game(game);
                let bytes = format::encode(&format::stored(&solution));
                // 4x4's best moves by raw code, so that a process answers them at once.
                let first_moves = (game.to_string() == "4x4").then(|| {
                    let mut moves = vec![0; first_moves::len(game.cells())];
                    let stored = solution.best_moves().iter().copied();
                    first_moves::write(&solve::Codes::new(game), stored, &mut moves);
                    moves
                });
                (game, bytes, first_moves)
            })
        })
        .collect();
    for thread in solving {
        let (game, bytes, first_moves) = thread.join().expect("a solver thread finishes");
        let name = format!("mnk-{game}.bin");
        fs::write(out.join(&name), &bytes).unwrap_or_else(|e| panic!("write OUT_DIR/{name}: {e}"));
        if let Some(moves) = first_moves {
            let name = format!("first-moves-{game}.bin");
            fs::write(out.join(&name), &moves)
                .unwrap_or_else(|e| panic!("write OUT_DIR/{name}: {e}"));
        }
    }
}

/// Tic-tac-toe's table expanded over its symmetries, as Rust statics, so that a process answers
/// from them without decoding the serialized table (about a million instructions at every
/// start); the serialized table stays what is exported and verified, and a process checks that
/// the two agree through their checksums.
fn expanded_source(solution: &solve::tic_tac_toe::Solution) -> String {
    use format::tic_tac_toe as ttt;
    let expanded = ttt::expand(solution).expect("the solve covers every position");
    let list = |values: Vec<String>| values.join(",");
    format!(
        "/// The checksum of the serialized table these arrays were expanded from.\n\
         pub(super) const TABLE_CHECKSUM: u64 = {table:#018x};\n\
         /// [`expanded_checksum`](crate::format::tic_tac_toe::expanded_checksum) of the arrays.\n\
         pub(super) const EXPANDED_CHECKSUM: u64 = {expanded:#018x};\n\
         /// The words, by base-3 code.\n\
         pub(super) static WORDS: [u16; CODES] = [{words}];\n\
         /// The lowest optimal moves, by base-3 code.\n\
         pub(super) static FIRST: [u8; CODES] = [{first}];\n",
        table = ttt::solution_checksum(solution),
        expanded = ttt::expanded_checksum(&expanded.words, &expanded.first[..]),
        words = list(expanded.words.iter().map(u16::to_string).collect()),
        first = list(expanded.first.iter().map(u8::to_string).collect()),
    )
}
