//! `ttt`: the command-line face of ttt-oracle. Everything it does is a library call: the command
//! line itself lives in the library's `cli` module, beside the engine it drives.

/// Every allocation counted, so that commands keep to their memory limit (`--max-memory`).
#[global_allocator]
static ALLOCATOR: ttt_oracle::memory::Counting = ttt_oracle::memory::Counting;

fn main() -> std::process::ExitCode {
    ttt_oracle::cli::main()
}
