//! The C baselines of the solver benchmarks: benches/mnk_solver.c built with the machine's C
//! compiler.

use std::path::PathBuf;
use std::process::Command;

/// Builds benches/mnk_solver.c with `cc -O2` as `target/NAME`; `None` when there is no C
/// compiler.
pub fn c_solver(name: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = root.join("target").join(name);
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&out)
        .arg(root.join("benches/mnk_solver.c"))
        .status()
        .ok()?;
    built.success().then_some(out)
}
