//! Solves tic-tac-toe once, at build time, and writes the table the binary embeds.
//!
//! The rules, the symmetries, the solver and the table format are the library's own files,
//! pulled in with `#[path]` so that they are written once (with `quote.rs`, which the rules'
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
#[path = "src/quote.rs"]
mod quote;
#[allow(dead_code)]
#[path = "src/solve/mod.rs"]
mod solve;
#[allow(dead_code)]
#[path = "src/symmetry.rs"]
mod symmetry;
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
        "quote",
        "solve/mod",
        "solve/tic_tac_toe",
        "symmetry",
        "value",
    ] {
        println!("cargo::rerun-if-changed=src/{shared}.rs");
    }
    println!("cargo::rerun-if-changed=build.rs");

    let solution = solve::tic_tac_toe::solve();
    let bytes = format::tic_tac_toe::encode(&solution);
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("table.bin"), &bytes).expect("write OUT_DIR/table.bin");

    // The larger games, each on its own thread: 4x4 takes most of the time, and build
    // machines have more than one core.
    let solving: Vec<_> = game::Game::EMBEDDED
        .into_iter()
        .map(|game| {
            std::thread::spawn(move || {
                let bytes = format::encode(&format::stored(&solve::solve_game(game)));
                (game, bytes)
            })
        })
        .collect();
    for thread in solving {
        let (game, bytes) = thread.join().expect("a solver thread finishes");
        let name = format!("mnk-{game}.bin");
        fs::write(out.join(&name), &bytes).unwrap_or_else(|e| panic!("write OUT_DIR/{name}: {e}"));
    }
}
