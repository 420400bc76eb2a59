//! The docs are tests: every example in the README and in `docs/*.md` is run, whatever its
//! block's language, and what it prints (standard output and standard error, as one stream)
//! must be what the page shows.
//!
//! - A line `$ COMMAND` in a fenced block of any language starts an example; the lines after
//!   it, up to the next `$ ` or the end of the block, are its output.
//! - A block with no `$ ` line says how it is checked in an HTML comment on the line before
//!   its fence:
//!   - `<!-- output of: COMMAND -->`: the block is what COMMAND prints;
//!   - `<!-- file: NAME -->`: the block is written to the file NAME, for the examples after it
//!     to run (a client program, say);
//!   - `<!-- not run: REASON -->`: it cannot be run here, and REASON says why;
//!   - `<!-- set-up: exits N -->`: one of the README's two set-up commands, run exactly as
//!     written by `.ci/run` (which reads them from the page), which expects exit code N;
//!   - `<!-- release only: REASON -->`, before a block of `$ ` lines: left out of a debug build
//!     of this test, as it would take minutes there; REASON says why. The test command runs
//!     this test in a release build, with every example;
//!   - Rust blocks run as doctests (`src/lib.rs` includes every page) and need no comment;
//!   - so do Python sessions (`pycon` blocks), run as doctests by the Python package's tests
//!     (`python/tests/test_docs.py`, part of the test command), and JavaScript programs (`js`
//!     blocks), run by the JavaScript package's (`js/test/docs.test.mjs`, part of it too).
//!
//! Commands run with `sh -c` in a scratch folder that holds links to everything at the
//! repository's root, the built `ttt` first on the `PATH`. A line `...` on the page stands for
//! any number of lines (the page says where it abridges); every other line is compared exactly,
//! trailing spaces included.
//!
//! `TTT_BLESS_DOCS=1 cargo test --test integration docs::` writes what each example printed back into its page
//! where the two differ and the page abridges nothing, for a change of output meant to happen;
//! read the diff before committing it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a block with no `$ ` line says it is checked.
#[derive(Debug, PartialEq)]
enum Marker {
    OutputOf(String),
    File(String),
    NotRun(String),
    ReleaseOnly(String),
    SetUp(String),
}

/// A fenced block of a page.
struct Block {
    /// `page:line` of its opening fence.
    place: String,
    language: String,
    marker: Option<Marker>,
    /// Its lines, each with its index in the page (from 0).
    lines: Vec<(usize, String)>,
}

/// One example: where it is, the command, the output the page shows and the lines it holds.
struct Example {
    place: String,
    command: String,
    expected: Vec<String>,
    /// The page's lines the output takes, `first..end`; `first` is the command's line + 1.
    first: usize,
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
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

fn name(page: &Path) -> String {
    page.strip_prefix(root()).unwrap().display().to_string()
}

/// The marker a line holds, if it is one: `<!-- output of: ... -->` and the like.
fn marker(line: &str) -> Option<Marker> {
    let inside = line
        .trim()
        .strip_prefix("<!--")?
        .strip_suffix("-->")?
        .trim();
    let (kind, rest) = inside.split_once(':')?;
    let rest = rest.trim().to_string();
    match kind.trim() {
        "output of" => Some(Marker::OutputOf(rest)),
        "file" => Some(Marker::File(rest)),
        "not run" => Some(Marker::NotRun(rest)),
        "release only" => Some(Marker::ReleaseOnly(rest)),
        "set-up" => Some(Marker::SetUp(rest)),
        _ => None,
    }
}

/// The fenced blocks of a page's text, with the marker on the line before each fence.
fn blocks(name: &str, text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut open: Option<Block> = None;
    let mut previous = "";
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (Some(_), true) => blocks.push(open.take().unwrap()),
            (Some(block), false) => block.lines.push((index, line.to_string())),
            (None, true) => {
                open = Some(Block {
                    place: format!("{name}:{}", index + 1),
                    language: line.trim_start().trim_start_matches('`').trim().to_string(),
                    marker: marker(previous),
                    lines: Vec::new(),
                })
            }
            (None, false) => {}
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    assert!(open.is_none(), "{name}: a fenced block is never closed");
    blocks
}

/// The examples of a block: a `$ ` line is a command, the lines after it its output; a block
/// marked `output of` is one example.
fn examples(block: &Block) -> Vec<Example> {
    if let Some(Marker::OutputOf(command)) = &block.marker {
        let first = block.lines.first().map_or(0, |(i, _)| *i);
        return vec![Example {
            place: block.place.clone(),
            command: command.clone(),
            expected: block.lines.iter().map(|(_, l)| l.clone()).collect(),
            first,
        }];
    }
    let mut examples: Vec<Example> = Vec::new();
    for (index, line) in &block.lines {
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push(Example {
                place: format!("{}:{}", block.place.split(':').next().unwrap(), index + 1),
                command: command.to_string(),
                expected: Vec::new(),
                first: index + 1,
            });
        } else {
            let example = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{}: output before any `$ ` command", block.place));
            example.expected.push(line.clone());
        }
    }
    examples
}

/// Whether a block is a doctest's: Rust, run by `cargo test --doc`, a Python session, run by
/// `python/tests/test_docs.py`, or a JavaScript program, run by `js/test/docs.test.mjs`.
fn is_doctest(block: &Block) -> bool {
    matches!(
        block.language.split(',').next(),
        Some("rust" | "pycon" | "js")
    )
}

fn has_commands(block: &Block) -> bool {
    block.lines.iter().any(|(_, l)| l.starts_with("$ "))
}

/// A fresh scratch folder holding a link to each entry at the repository's root but `target`
/// and `.git`: examples read `tests/bots/...` and `data/...` as from the root, and what they
/// write, and the files of `file:` blocks, stay out of the checkout.
fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-examples");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(root()).unwrap() {
        let entry = entry.unwrap();
        let file_name = entry.file_name();
        if file_name == "target" || file_name == ".git" {
            continue;
        }
        std::os::unix::fs::symlink(entry.path(), dir.join(&file_name)).unwrap();
    }
    dir
}

/// Runs `command` with `sh -c` in `dir`, `ttt` on the path; its output.
fn run(command: &str, dir: &Path) -> String {
    let bin = crate::common::ttt();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1; {command}"))
        .current_dir(dir)
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
    let deadline = Instant::now() + Duration::from_secs(180);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("`{command}` took more than three minutes");
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
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(line, others)| line == first && matches(rest, others)),
    }
}

#[test]
fn every_example_in_the_docs_prints_what_the_page_shows() {
    let bless = std::env::var_os("TTT_BLESS_DOCS").is_some();
    let dir = scratch();
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        // Where blessing replaces a page's lines: (first, end, new lines).
        let mut blessed: Vec<(usize, usize, Vec<String>)> = Vec::new();
        for block in blocks(&name(&page), &text) {
            if let Some(Marker::File(file)) = &block.marker {
                let body: Vec<&str> = block.lines.iter().map(|(_, l)| l.as_str()).collect();
                std::fs::write(dir.join(file), body.join("\n") + "\n").unwrap();
                continue;
            }
            // The release build (the test command's) runs every example; a debug build leaves
            // out those marked for release only.
            let release = !cfg!(debug_assertions);
            let runs = match &block.marker {
                Some(Marker::OutputOf(_)) => true,
                Some(Marker::ReleaseOnly(_)) => release,
                Some(_) => false,
                None => !is_doctest(&block) && has_commands(&block),
            };
            if !runs {
                continue;
            }
            for example in examples(&block) {
                count += 1;
                let output = run(&example.command, &dir);
                let actual: Vec<&str> = output.lines().collect();
                if matches(&example.expected, &actual) {
                    continue;
                }
                let abridged = example.expected.iter().any(|l| l.trim() == "...");
                if bless && !abridged {
                    let new = actual.iter().map(|l| l.to_string()).collect();
                    let end = example.first + example.expected.len();
                    blessed.push((example.first, end, new));
                    continue;
                }
                failures.push(format!(
                    "{}: $ {}\n--- the page shows:\n{}\n--- it printed:\n{}",
                    example.place,
                    example.command,
                    example.expected.join("\n"),
                    output.trim_end()
                ));
            }
        }
        if !blessed.is_empty() {
            let mut lines: Vec<String> = text.lines().map(String::from).collect();
            for (first, end, new) in blessed.into_iter().rev() {
                lines.splice(first..end, new);
            }
            std::fs::write(&page, lines.join("\n") + "\n").unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(count > 0, "no examples found for this build");
    assert!(
        failures.is_empty(),
        "{} of {count} examples differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_block_is_run_or_says_why_not() {
    let mut unsaid = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for block in blocks(&name(&page), &text) {
            let checked = match &block.marker {
                Some(Marker::NotRun(reason)) => !reason.is_empty(),
                Some(Marker::SetUp(exit)) => set_up_exit_code(exit).is_some(),
                Some(Marker::ReleaseOnly(reason)) => !reason.is_empty() && has_commands(&block),
                Some(Marker::OutputOf(command)) => !command.is_empty() && !has_commands(&block),
                Some(Marker::File(file)) => !file.is_empty() && !file.contains('/'),
                None => is_doctest(&block) || has_commands(&block),
            };
            if !checked {
                unsaid.push(format!("  {} (```{})", block.place, block.language));
            }
        }
    }
    assert!(
        unsaid.is_empty(),
        "blocks neither run nor marked with how they are checked or why they cannot be \
         (see the top of tests/integration/docs.rs):\n{}",
        unsaid.join("\n")
    );
}

/// The exit code a set-up block's marker expects: `exits N`.
fn set_up_exit_code(marker: &str) -> Option<u8> {
    marker.strip_prefix("exits ")?.parse().ok()
}

/// `.ci/run` runs the README's set-up commands as the page writes them: there are two, the
/// main job and every test, each one line of shell in its own block.
#[test]
fn the_readme_has_two_set_up_commands_for_ci_to_run() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let set_up: Vec<Block> = blocks("README.md", &text)
        .into_iter()
        .filter(|block| matches!(block.marker, Some(Marker::SetUp(_))))
        .collect();
    assert_eq!(
        set_up.len(),
        2,
        "the README's set-up blocks (<!-- set-up: exits N -->)"
    );
    for block in &set_up {
        assert_eq!(
            block.lines.len(),
            1,
            "{}: one command a set-up block",
            block.place
        );
    }
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.contains("/^<!-- set-up: exits [0-9]+ -->$/"),
        ".ci/run reads the README's set-up blocks"
    );
}

#[test]
fn markers_and_commands_are_read_from_a_page() {
    let page = "text\n<!-- output of: ttt best -->\n\n```text\n5\n```\n<!-- not run: slow -->\n\
                ```sh\ncargo bench\n```\n```text\n$ ttt best\n5\n$ ttt stats\n...\n```\n";
    let blocks = blocks("page.md", page);
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[0].marker, Some(Marker::OutputOf("ttt best".into())));
    assert_eq!(blocks[1].marker, Some(Marker::NotRun("slow".into())));
    assert_eq!(blocks[2].marker, None);
    let examples = examples(&blocks[2]);
    assert_eq!(examples.len(), 2);
    assert_eq!(
        (examples[0].command.as_str(), examples[0].first),
        ("ttt best", 12)
    );
    assert_eq!(examples[0].expected, ["5"]);
    assert_eq!(examples[1].place, "page.md:14");
    assert_eq!(marker("<!-- nothing: here -->"), None);
}

#[test]
fn the_matcher_elides_only_where_the_page_says_so() {
    let page = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&page(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&page(&["a", "...", "d"]), &["a", "d"]));
    assert!(!matches(&page(&["a", "d"]), &["a", "b", "d"]));
    assert!(!matches(&page(&["a", "b"]), &["a", "c"]));
    // Trailing spaces are compared too: a page must not show any the output lacks.
    assert!(!matches(&page(&["a  "]), &["a"]));
    assert!(!matches(&page(&["a"]), &["a", "b"]));
}
