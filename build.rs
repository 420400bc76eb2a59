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
#[path = "src/format.rs"]
mod format;
#[allow(dead_code)]
#[path = "src/quote.rs"]
mod quote;
#[allow(dead_code)]
#[path = "src/solve.rs"]
mod solve;
#[allow(dead_code)]
#[path = "src/symmetry.rs"]
mod symmetry;

fn main() {
    for shared in ["board", "format", "quote", "solve", "symmetry"] {
        println!("cargo::rerun-if-changed=src/{shared}.rs");
    }
    println!("cargo::rerun-if-changed=build.rs");

    let solution = solve::solve();
    let bytes = format::encode(&solution);
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("table.bin"), &bytes).expect("write OUT_DIR/table.bin");
}
