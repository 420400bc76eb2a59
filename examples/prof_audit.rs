//! Audits one bot on tic-tac-toe, both sides, many times in one process: a steady load for a
//! profiler or a timer, with no process start in it.
//!
//!   cargo build --release --example prof_audit
//!   /usr/bin/time target/release/examples/prof_audit random 3000
//!   valgrind --tool=callgrind target/release/examples/prof_audit smartbot 20
//!
//! The first argument is a bot as `ttt audit` takes it (`random`, `casual:0.25`...), the second
//! how many audits of both sides to run.

use std::process::ExitCode;

use ttt_oracle::{AuditOptions, Game, Player, audit, bots};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (spec, runs) = match args.as_slice() {
        [spec, runs] => (spec, runs),
        _ => {
            eprintln!("usage: prof_audit BOT RUNS");
            return ExitCode::from(2);
        }
    };
    let runs: usize = match runs.parse() {
        Ok(runs) => runs,
        Err(error) => {
            eprintln!("prof_audit: RUNS {runs:?}: {error}");
            return ExitCode::from(2);
        }
    };
    let mut bot = match bots::from_spec(spec) {
        Ok(bot) => bot,
        Err(error) => {
            eprintln!("prof_audit: {error}");
            return ExitCode::from(2);
        }
    };
    for _ in 0..runs {
        for side in Player::BOTH {
            let options = AuditOptions::new(Game::TIC_TAC_TOE, side);
            if let Err(error) = audit(bot.as_mut(), &options) {
                eprintln!("prof_audit: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
