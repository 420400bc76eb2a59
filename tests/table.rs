//! A damaged table through the real binary: `ttt verify` and every command that needs the
//! table say so, with a reason and never with a panic. Every way the embedded bytes can be
//! broken is refused with a reason by the decoder itself: the unit tests of the dense table's
//! layout, src/tests/dense_table.rs.

// The binary is patched and run as Linux lays it out and runs it.
#![cfg(target_os = "linux")]

/// Where the fields of tic-tac-toe's serialized table start (see the layout in
/// `src/format/tic_tac_toe.rs`): the magic, the format version, the checksum of the entries,
/// the number of entries, then 4 bytes an entry, one per canonical position.
const MAGIC: &[u8; 8] = b"TTTORACL";
const VERSION: usize = 8;
const CHECKSUM: usize = 12;
const COUNT: usize = 20;
const ENTRIES: usize = 28;
const CANONICAL_POSITIONS: usize = 765;

/// FNV-1a 64, as the format computes it over the entries.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Where `bytes` holds the embedded table: a header of version 1 with 765 entries, whose
/// entries match its checksum. Found by its layout, since the library no longer shows its
/// bytes.
fn tables_in(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let length = ENTRIES + 4 * CANONICAL_POSITIONS;
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    (0..bytes.len().saturating_sub(length))
        .filter(|&start| &bytes[start..start + 8] == MAGIC)
        .filter(|&start| u32_at(start + VERSION) == 1)
        .filter(|&start| u64_at(start + COUNT) == CANONICAL_POSITIONS as u64)
        .filter(|&start| {
            u64_at(start + CHECKSUM) == fnv1a64(&bytes[start + ENTRIES..start + length])
        })
        .map(|start| start..start + length)
        .collect()
}

/// `ttt` copied, with its embedded table damaged in place: one byte in the middle of the
/// entries flipped, as a disk or a careless patch would.
fn damaged_binary() -> std::path::PathBuf {
    let original = std::fs::read(env!("CARGO_BIN_EXE_ttt")).unwrap();
    let tables = tables_in(&original);
    assert!(!tables.is_empty(), "the table is not in the binary");
    let mut patched = original;
    for table in tables {
        patched[table.start + 1000] ^= 0x04;
    }
    let path = std::env::temp_dir().join(format!("ttt-damaged-{}", std::process::id()));
    std::fs::write(&path, patched).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_damaged_binary_says_so_instead_of_panicking() {
    use assert_cmd::Command;
    use predicates::prelude::*;

    // No other test in this file starts a process, so no child can hold the new file open
    // for writing when it is run (which would fail with "text file busy").
    let path = damaged_binary();
    let ttt = || {
        let mut cmd = Command::new(&path);
        cmd.timeout(std::time::Duration::from_secs(10));
        cmd
    };
    ttt()
        .arg("verify")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "error: the embedded table is damaged: checksum mismatch",
        ))
        .stderr(predicate::str::contains("panicked").not())
        .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    // Every other command that needs the table stops at once with one line, exit code 4.
    let commands: &[&[&str]] = &[
        &["play"],
        &["analyze", "X........"],
        &["best", "--moves", "5"],
        // Without a flag, `best` is parsed apart from the other commands.
        &["best", "X........"],
        &["stats"],
        &["audit", "perfect"],
        &["export", "--format", "csv"],
    ];
    for args in commands {
        ttt()
            .args(*args)
            .write_stdin("5\n")
            .assert()
            .code(4)
            .stdout("")
            .stderr(predicate::str::starts_with(
                "error: the embedded table is damaged: checksum mismatch",
            ))
            .stderr(predicate::str::ends_with("; rebuild ttt\n"))
            .stderr(predicate::function(|s: &str| s.lines().count() == 1));
    }
    ttt().arg("bots").assert().code(0);
    // The version says so too, though it no longer decodes the table to show its checksum.
    ttt()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with(
            "(the embedded table is damaged)\n",
        ));
    std::fs::remove_file(&path).unwrap();
}
