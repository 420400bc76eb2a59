//! `Destination` and `Output`, the library's way of writing a file whole (what `-o` of every
//! command uses): a file replaced keeps its permissions, a failure leaves the old one, and an
//! error says where it came from. Through the public API; the command line's writes are in
//! output.rs.

use ttt_oracle::output::Destination;

type Checked = Result<(), Box<dyn std::error::Error>>;

#[test]
fn writes_a_file_whole() -> Checked {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("greeting.txt");
    Destination::Path(path.clone())
        .open()?
        .write(|out| out.write_all(b"hello\n"))?;
    assert_eq!(std::fs::read_to_string(&path)?, "hello\n");
    Ok(())
}

#[test]
fn a_dash_is_standard_output() -> Checked {
    use std::path::PathBuf;

    assert_eq!(Destination::from_arg("-"), Destination::Stdout);
    assert_eq!(
        Destination::from_arg("./-"),
        Destination::Path(PathBuf::from("./-"))
    );
    Ok(())
}

#[test]
fn an_opened_file_is_not_a_terminal_and_takes_bytes() -> Checked {
    let dir = tempfile::tempdir()?;
    let output = Destination::Path(dir.path().join("table.bin")).open()?;
    assert!(!output.is_terminal()); // so binary output may go there
    output.write(|out| out.write_all(&[0, 1, 2]))?;
    Ok(())
}

#[test]
fn a_replaced_file_keeps_its_permissions_and_a_failure_leaves_it() -> Checked {
    use std::os::unix::fs::PermissionsExt;

    let dir = tempfile::tempdir()?;
    let path = dir.path().join("table.csv");
    std::fs::write(&path, "old\n")?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;

    Destination::Path(path.clone())
        .open()?
        .write(|out| out.write_all(b"new\n"))?;
    assert_eq!(std::fs::read_to_string(&path)?, "new\n");
    assert_eq!(
        std::fs::metadata(&path)?.permissions().mode() & 0o7777,
        0o600
    );

    // A failure leaves the file as it was, and no temporary file.
    let failed = Destination::Path(path.clone())
        .open()?
        .write(|_| Err(std::io::Error::other("out of ideas")));
    assert!(failed.is_err());
    assert_eq!(std::fs::read_to_string(&path)?, "new\n");
    assert_eq!(std::fs::read_dir(dir.path())?.count(), 1);
    Ok(())
}

#[test]
fn a_file_is_not_a_terminal() -> Checked {
    let dir = tempfile::tempdir()?;
    let output = Destination::Path(dir.path().join("out")).open()?;
    assert!(!output.is_terminal());
    Ok(())
}

#[test]
fn lines_are_written_whole() -> Checked {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("numbers.txt");
    let output = Destination::Path(path.clone()).open()?;
    output.write(|out| {
        for n in 1..=3 {
            writeln!(out, "{n}")?;
        }
        Ok(())
    })?;
    assert_eq!(std::fs::read_to_string(&path)?, "1\n2\n3\n");
    Ok(())
}

#[test]
fn a_missing_folder_is_an_error_and_no_file() -> Checked {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("missing").join("table.jsonl");
    let error = Destination::Path(path.clone())
        .open()
        .and_then(|output| output.write(|out| out.write_all(b"{}\n")))
        .unwrap_err();
    assert_eq!(error.io_error().kind(), std::io::ErrorKind::NotFound);
    assert!(error.to_string().starts_with("cannot write \""));
    assert!(!path.exists());
    Ok(())
}

#[test]
fn a_folder_is_refused_with_its_destination() -> Checked {
    let dir = tempfile::tempdir()?;
    let error = Destination::Path(dir.path().to_owned()).open().unwrap_err();
    assert_eq!(
        error.destination(),
        &Destination::Path(dir.path().to_owned())
    );
    Ok(())
}

#[test]
fn an_error_says_whether_it_came_when_opening() -> Checked {
    let dir = tempfile::tempdir()?;
    let missing = Destination::Path(dir.path().join("no").join("such.jsonl"));
    assert!(
        missing
            .open()
            .and_then(|output| output.write(|out| out.write_all(b"{}\n")))
            .unwrap_err()
            .when_opening()
    );
    let fails = Destination::Path(dir.path().join("t.jsonl"));
    let error = fails
        .open()?
        .write(|_| Err(std::io::Error::other("disk on fire")))
        .unwrap_err();
    assert!(!error.when_opening());
    Ok(())
}

#[test]
fn a_folder_is_an_is_a_directory_error() -> Checked {
    let dir = tempfile::tempdir()?;
    let error = Destination::Path(dir.path().to_owned()).open().unwrap_err();
    assert_eq!(error.io_error().kind(), std::io::ErrorKind::IsADirectory);
    Ok(())
}
