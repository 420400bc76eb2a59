//! The docs are tests: every `$ ...` example in a ```console block of the README and of
//! `docs/*.md` is run, from the repository's root with the built `ttt` first on the `PATH`,
//! and what it prints (standard output and standard error, as one stream) must be what the
//! page shows. A line `...` on the page stands for any number of lines (the page says where
//! it abridges); trailing spaces are not compared.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One example: where it is, the command, the output the page shows.
struct Example {
    place: String,
    command: String,
    expected: Vec<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The examples of a page: in each ```console block, a line starting `$ ` is a command and the
/// lines after it, up to the next command or the end of the block, its output.
fn examples(page: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(page).unwrap();
    let name = page.strip_prefix(root()).unwrap().display().to_string();
    let mut examples: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    for (number, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        if fence {
            if in_console || in_other {
                in_console = false;
                in_other = false;
            } else if line.trim() == "```console" {
                in_console = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                place: format!("{name}:{}", number + 1),
                command: command.to_string(),
                expected: Vec::new(),
            });
        } else {
            let example = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{name}:{}: output before any `$ ` command", number + 1));
            example.expected.push(line.to_string());
        }
    }
    examples
}

/// Runs `command` with `sh -c` from the repository's root, `ttt` on the path; its output.
fn run(command: &str) -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ttt"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1; {command}"))
        .current_dir(root())
        .env("PATH", path)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("TERM")
        .env("COLUMNS", "100")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut text).unwrap();
        text
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("`{command}` took more than two minutes");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    String::from_utf8_lossy(&reader.join().unwrap()).into_owned()
}

/// Whether `actual` is what `expected` shows, `...` standing for any run of lines.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(line, others)| {
            line.trim_end() == first.trim_end() && matches(rest, others)
        }),
    }
}

#[test]
fn every_example_in_the_docs_prints_what_the_page_shows() {
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages() {
        for example in examples(&page) {
            count += 1;
            let output = run(&example.command);
            let actual: Vec<&str> = output.lines().collect();
            if !matches(&example.expected, &actual) {
                failures.push(format!(
                    "{}: $ {}\n--- the page shows:\n{}\n--- it printed:\n{}",
                    example.place,
                    example.command,
                    example.expected.join("\n"),
                    output.trim_end()
                ));
            }
        }
    }
    assert!(count > 0, "no examples found");
    assert!(
        failures.is_empty(),
        "{} of {count} examples differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_matcher_elides_only_where_the_page_says_so() {
    let page = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&page(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&page(&["a", "...", "d"]), &["a", "d"]));
    assert!(!matches(&page(&["a", "d"]), &["a", "b", "d"]));
    assert!(!matches(&page(&["a", "b"]), &["a", "c"]));
    assert!(matches(&page(&["a  "]), &["a"]));
    assert!(!matches(&page(&["a"]), &["a", "b"]));
}
