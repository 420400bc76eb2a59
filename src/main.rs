//! `ttt`: the command-line face of ttt-oracle. Everything it does is a library call: the command
//! line itself lives in the library's `cli` module, beside the engine it drives.

fn main() -> std::process::ExitCode {
    ttt_oracle::cli::main()
}
