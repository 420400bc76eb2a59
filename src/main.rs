//! `ttt`: the command-line face of ttt-oracle. Everything it does is a library call; see `cli`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
