//! The architecture the docs describe (`docs/internals.md`), checked rather than asserted:
//! source files stay short, no two files of `src/` import each other (directly or around a longer
//! loop), the layers (the rules with symmetry, the solver, the table, then everything else) only
//! ever import downwards, and the crate root exports a short list of names. Every check reads the
//! tree as text with `std` alone, and fails with the whole list of what to fix.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The layers of `src/`, lowest first: a file may import files of its own layer or of an earlier
/// one. An entry covers a module and its submodules: `src/board.rs` and `src/board` both mean
/// `src/board.rs` plus everything under `src/board/`. The longest matching entry wins; files no
/// entry matches belong to the last layer. Entries that name no file are ignored.
#[rustfmt::skip]
const LAYERS: &[(&str, &[&str])] = &[
    // Symmetry is one with the rules: a game's geometry lists the symmetries of its board.
    ("rules", &[
        "src/player.rs", "src/cell.rs", "src/cells.rs", "src/board.rs", "src/symmetry.rs",
        "src/position", "src/notation.rs", "src/game.rs", "src/geometry.rs", "src/position_error.rs",
        "src/value.rs",
        "src/history.rs", "src/text.rs", "src/rng.rs", "src/ratio.rs", "src/reachable.rs",
        "src/memory.rs",
    ]),
    ("solver", &["src/solve", "src/tiers"]),
    ("table", &[
        "src/table", "src/format", "src/oracle.rs", "src/batch.rs", "src/analysis.rs", "src/stats.rs",
        "src/verify.rs", "src/json.rs",
    ]),
    ("plays", &[
        "src/bots", "src/child", "src/shutdown.rs", "src/audit", "src/matchup.rs",
        "src/review.rs", "src/simulate.rs", "src/export", "src/output", "src/cache.rs",
        "src/web", "src/draw.rs",
    ]),
    // Everything else: the crate root (src/lib.rs) and the unit tests under src/tests. The
    // command line (cli/) is a package of its own: the compiler keeps it to the public API.
    ("higher", &[]),
];

const MAX_LINES: usize = 700;
const MAX_ROOT_NAMES: usize = 45;
const FORBIDDEN_ROOT_PREFIXES: &[&str] = &["Mnk"];
const FORBIDDEN_ROOT_SUFFIXES: &[&str] = &["_game", "_within"];

#[test]
fn no_source_file_is_over_700_lines() {
    let mut files: Vec<String> = ["src", "cli", "tests", "benches", "mpi"]
        .iter()
        .flat_map(|dir| rs_files(dir))
        .collect();
    files.push("build.rs".to_string());
    let mut long: Vec<(usize, String)> = files
        .into_iter()
        .filter_map(|file| Some((read(&file)?.lines().count(), file)))
        .filter(|(lines, _)| *lines > MAX_LINES)
        .collect();
    long.sort_by(|a, b| b.cmp(a));
    let list: Vec<String> = long.iter().map(|(n, f)| format!("  {f}: {n}")).collect();
    assert!(
        long.is_empty(),
        "{} file(s) over {MAX_LINES} lines:\n{}",
        long.len(),
        list.join("\n")
    );
}

#[test]
fn no_two_source_files_import_each_other() {
    let krate = Crate::load();
    let edges = krate.dependencies();
    let cycles = cycles(&edges);
    let mut report = Vec::new();
    for files in &cycles {
        report.push(format!("{} files: {}", files.len(), files.join(", ")));
        for ((from, to), lines) in &edges {
            if files.contains(from) && files.contains(to) {
                report.push(format!("  {from} -> {to}: {}", krate.example(from, lines)));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "{} import loop(s) among the files of src/:\n{}",
        cycles.len(),
        report.join("\n")
    );
}

#[test]
fn lower_layers_never_import_higher_ones() {
    let krate = Crate::load();
    let mut report = Vec::new();
    for ((from, to), lines) in &krate.dependencies() {
        let (low, high) = (layer(from), layer(to));
        if high > low {
            let (low, high) = (LAYERS[low].0, LAYERS[high].0);
            let example = krate.example(from, lines);
            report.push(format!("  {from} ({low}) -> {to} ({high}): {example}"));
        }
    }
    assert!(
        report.is_empty(),
        "{} import(s) from a lower layer into a higher one:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn the_crate_root_exports_at_most_45_names() {
    let lib = Module::parse("src/lib.rs").expect("src/lib.rs exists");
    let (mut names, mut globs) = (Vec::new(), Vec::new());
    for r in lib
        .refs
        .iter()
        .filter(|r| r.is_use && r.top && r.vis == Vis::Pub)
    {
        match &r.name {
            Some(name) => names.push(name.as_str()),
            None => globs.push(lib.line(r.line)),
        }
    }
    names.retain(|&name| name != "_");
    names.extend(
        lib.mods
            .iter()
            .filter(|m| m.1 == Vis::Pub)
            .map(|m| m.0.as_str()),
    );
    let forbidden: Vec<&str> = names.iter().copied().filter(|n| is_forbidden(n)).collect();
    assert!(
        names.len() <= MAX_ROOT_NAMES && forbidden.is_empty() && globs.is_empty(),
        "src/lib.rs exports {} names (at most {MAX_ROOT_NAMES}): {}\n\
         names starting with {FORBIDDEN_ROOT_PREFIXES:?} or ending with \
         {FORBIDDEN_ROOT_SUFFIXES:?}: {forbidden:?}\n\
         glob re-exports, which hide how many names they export: {globs:?}",
        names.len(),
        names.join(", ")
    );
}

fn is_forbidden(name: &str) -> bool {
    FORBIDDEN_ROOT_PREFIXES.iter().any(|p| name.starts_with(p))
        || FORBIDDEN_ROOT_SUFFIXES.iter().any(|s| name.ends_with(s))
}

// ---- The tree ----

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Every `.rs` file under `dir`, relative to the root with `/` separators, sorted.
fn rs_files(dir: &str) -> Vec<String> {
    let mut files = Vec::new();
    let mut dirs = vec![root().join(dir)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|entry| entry.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(relative(&path));
            }
        }
    }
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    let path = path.strip_prefix(root()).unwrap_or(path);
    path.to_string_lossy().replace('\\', "/")
}

/// The text of a file, or `None` if it has gone (the tree may be changing under the test).
fn read(file: &str) -> Option<String> {
    match fs::read_to_string(root().join(file)) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => panic!("cannot read {file}: {e}"),
    }
}

/// The module path of a file of the library: `src/lib.rs` is `[]`, `src/a/mod.rs` is `[a]` and
/// `src/a/b.rs` is `[a, b]`.
fn module_path(file: &str) -> Vec<String> {
    let stem = file.trim_start_matches("src/").trim_end_matches(".rs");
    if stem == "lib" {
        return Vec::new();
    }
    let mut path: Vec<String> = stem.split('/').map(String::from).collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    path
}

/// The index in [`LAYERS`] of the layer of `file`.
fn layer(file: &str) -> usize {
    let covers = |entry: &str| {
        let stem = entry.trim_end_matches(".rs");
        file == format!("{stem}.rs") || file.starts_with(&format!("{stem}/"))
    };
    let matches = LAYERS.iter().enumerate().flat_map(|(index, (_, entries))| {
        entries
            .iter()
            .filter(|e| covers(e))
            .map(move |e| (e.len(), index))
    });
    matches.max().map_or(LAYERS.len() - 1, |(_, index)| index)
}

// ---- Reading Rust ----

/// `source` with comments, strings and character literals blanked out (newlines kept, so lines
/// keep their numbers).
fn blank(source: &str) -> String {
    let c: Vec<char> = source.chars().collect();
    let at = |j: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, ch)| c.get(j + k) == Some(&ch))
    };
    let find = |from: usize, s: &str| (from..c.len()).find(|&j| at(j, s));
    let (mut out, mut i) = (String::with_capacity(source.len()), 0);
    while i < c.len() {
        let end = if at(i, "//") {
            find(i, "\n").unwrap_or(c.len())
        } else if at(i, "/*") {
            let (mut depth, mut j) = (0, i);
            while j < c.len() && (j == i || depth > 0) {
                let step = [("/*", 1), ("*/", -1)].into_iter().find(|(s, _)| at(j, s));
                depth += step.map_or(0, |(_, d)| d);
                j += if step.is_some() { 2 } else { 1 };
            }
            j
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            j + 1
        } else if at(i, "'\\") {
            find(i + 3, "'").map_or(c.len(), |j| j + 1)
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i + 3
        } else if is_ident(c[i]) {
            let run = i + c[i..].iter().take_while(|&&ch| is_ident(ch)).count();
            let hashes = c[run..].iter().take_while(|&&ch| ch == '#').count();
            let prefix: String = c[i..run].iter().collect();
            if !matches!(prefix.as_str(), "r" | "br" | "cr") || c.get(run + hashes) != Some(&'"') {
                out.push_str(&prefix);
                i = run;
                continue;
            }
            let closing = format!("\"{}", "#".repeat(hashes));
            find(run + hashes + 1, &closing).map_or(c.len(), |j| j + closing.len())
        } else {
            out.push(c[i]);
            i += 1;
            continue;
        };
        let end = end.min(c.len());
        out.extend(
            c[i..end]
                .iter()
                .map(|&ch| if ch == '\n' { '\n' } else { ' ' }),
        );
        i = end;
    }
    out
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

fn is_name(word: &str) -> bool {
    word.starts_with(|ch: char| ch.is_alphabetic() || ch == '_') && word.chars().all(is_ident)
}

/// `code` with the item under each `#[cfg(test)]` at column 0 (a unit-test module, inline or in
/// its own file) blanked out, up to its `;` or its closing brace: unit tests do not count.
fn without_unit_tests(code: &str) -> String {
    let (mut out, mut skipping, mut depth, mut ended) = (String::new(), false, 0, false);
    for line in code.lines() {
        if line.trim_end() == "#[cfg(test)]" {
            (skipping, depth, ended) = (true, 0, false);
        } else if skipping {
            for ch in line.chars() {
                match ch {
                    '{' => (depth, ended) = (depth + 1, true),
                    '}' => depth -= 1,
                    ';' if depth == 0 => ended = true,
                    _ => {}
                }
            }
            skipping = !ended || depth > 0;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

struct Tok {
    text: String,
    line: usize,
}

/// Identifiers, numbers, `::` and single punctuation characters, with their line numbers.
fn tokenize(code: &str) -> Vec<Tok> {
    let c: Vec<char> = code.chars().collect();
    let (mut i, mut line, mut toks) = (0, 1, Vec::new());
    while i < c.len() {
        let start = i;
        if c[i].is_whitespace() {
            line += usize::from(c[i] == '\n');
            i += 1;
            continue;
        } else if is_ident(c[i]) {
            i += c[i..].iter().take_while(|&&ch| is_ident(ch)).count();
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            i += 2;
        } else {
            i += 1;
        }
        let text = c[start..i].iter().collect();
        toks.push(Tok { text, line });
    }
    toks
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Vis {
    Private,
    Pub,
    Restricted,
}

/// A mention of a path in a file: a leaf of a `use` declaration, or a path inline in the code.
struct Ref {
    /// The absolute module path (`crate` gone, `self` and `super` resolved); `None` outside the
    /// crate.
    path: Option<Vec<String>>,
    /// Written from a child module's name (`use style::Style`) rather than from `crate`, `self`
    /// or `super`: it serves to follow re-exports, but is not a dependency.
    bare: bool,
    /// The name a `use` leaf binds (after `as`); `None` for a glob or an inline path.
    name: Option<String>,
    line: usize,
    vis: Vis,
    /// At the top level of the file, not inside a block or an inline module.
    top: bool,
    is_use: bool,
}

struct Module {
    lines: Vec<String>,
    refs: Vec<Ref>,
    /// The `mod` declarations at the top level, with their visibility.
    mods: Vec<(String, Vis)>,
}

impl Module {
    fn parse(file: &str) -> Option<Module> {
        let source = read(file)?;
        let toks = tokenize(&without_unit_tests(&blank(&source)));
        let text = |j: usize| toks.get(j).map_or("", |t| t.text.as_str());
        let children: BTreeSet<&str> = (0..toks.len())
            .filter(|&j| text(j) == "mod" && text(j + 2) == ";")
            .map(|j| text(j + 1))
            .collect();
        // Before `use` or `mod`, a `)` closes `pub(crate)`, `pub(super)` or `pub(in path)`.
        let vis = |i: usize| match i.checked_sub(1).map(text) {
            Some("pub") => Vis::Pub,
            Some(")") => Vis::Restricted,
            _ => Vis::Private,
        };
        let (mut refs, mut mods) = (Vec::new(), Vec::new());
        let mut inline: Vec<(String, usize)> = Vec::new(); // inline modules, with their depth
        let (mut depth, mut pending, mut i) = (0, None, 0);
        while i < toks.len() {
            let mut here = module_path(file);
            here.extend(inline.iter().map(|(name, _)| name.clone()));
            let kids = inline.is_empty().then_some(&children);
            let top = depth == 0;
            let mut mention = |segs: Vec<String>, name: Option<String>, line, vis, is_use| {
                let first = segs.first().map(String::as_str);
                let bare = !matches!(first, Some("crate" | "self" | "super"));
                let path = absolute(&segs, &here, kids);
                refs.push(Ref {
                    path,
                    bare,
                    name,
                    line,
                    vis,
                    top,
                    is_use,
                });
            };
            let word = text(i);
            match word {
                "{" => {
                    depth += 1;
                    if let Some(name) = pending.take() {
                        inline.push((name, depth));
                    }
                }
                "}" => {
                    if inline.last().is_some_and(|(_, d)| *d == depth) {
                        inline.pop();
                    }
                    depth = depth.saturating_sub(1);
                }
                "mod" if is_name(text(i + 1)) && matches!(text(i + 2), "{" | ";") => {
                    if top {
                        mods.push((text(i + 1).to_string(), vis(i)));
                    }
                    if text(i + 2) == "{" {
                        pending = Some(text(i + 1).to_string());
                    }
                }
                "use" => {
                    let mut leaves = Vec::new();
                    let end = use_tree(&toks, i + 1, Vec::new(), &mut leaves);
                    for (segs, name, line) in leaves {
                        mention(segs, name, line, vis(i), true);
                    }
                    i = end.max(i + 1);
                    continue;
                }
                "crate" | "self" | "super"
                    if !matches!(i.checked_sub(1).map(text), Some("::" | "." | "in"))
                        && text(i + 1) == "::"
                        && is_name(text(i + 2)) =>
                {
                    let (mut segs, line) = (vec![word.to_string()], toks[i].line);
                    while text(i + 1) == "::" && is_name(text(i + 2)) {
                        segs.push(text(i + 2).to_string());
                        i += 2;
                    }
                    mention(segs, None, line, Vis::Private, false);
                }
                _ => {}
            }
            i += 1;
        }
        let lines = source.lines().map(String::from).collect();
        Some(Module { lines, refs, mods })
    }

    fn line(&self, number: usize) -> &str {
        self.lines.get(number - 1).map_or("", |line| line.trim())
    }
}

type Leaf = (Vec<String>, Option<String>, usize);

/// Reads the `use` tree starting at token `i` under `prefix`, pushing (path, bound name or `None`
/// for a glob, line) for each leaf, and returns the index of the token after the tree.
fn use_tree(toks: &[Tok], mut i: usize, mut prefix: Vec<String>, leaves: &mut Vec<Leaf>) -> usize {
    let text = |j: usize| toks.get(j).map_or("", |t| t.text.as_str());
    loop {
        match text(i) {
            "::" => i += 1,
            "*" => {
                leaves.push((prefix, None, toks[i].line));
                return i + 1;
            }
            "{" => {
                i += 1;
                while !matches!(text(i), "}" | "" | ";") {
                    let end = use_tree(toks, i, prefix.clone(), leaves);
                    i = end.max(i + 1);
                    if text(i) == "," {
                        i += 1;
                    }
                }
                return i + 1;
            }
            word if is_name(word) => {
                prefix.push(word.to_string());
                i += 1;
                if text(i) == "::" {
                    continue;
                }
                let line = toks[i - 1].line;
                if prefix.last().is_some_and(|last| last == "self") {
                    prefix.pop();
                }
                let mut name = prefix.last().cloned();
                if text(i) == "as" {
                    name = Some(text(i + 1).to_string());
                    i += 2;
                }
                leaves.push((prefix, name, line));
                return i;
            }
            _ => return i,
        }
    }
}

/// The absolute module path of `segs` seen from module `here`, whose child modules (for bare
/// paths such as `style::Style`) are `children`; `None` if it leads outside the crate.
fn absolute(
    segs: &[String],
    here: &[String],
    children: Option<&BTreeSet<&str>>,
) -> Option<Vec<String>> {
    let first = segs.first()?.as_str();
    let (mut path, mut rest) = match first {
        "crate" => (Vec::new(), &segs[1..]),
        "self" => (here.to_vec(), &segs[1..]),
        "super" => (here.to_vec(), segs),
        _ if children.is_some_and(|c| c.contains(first)) => (here.to_vec(), segs),
        _ => return None,
    };
    while rest.first().is_some_and(|s| s == "super") {
        path.pop()?;
        rest = &rest[1..];
    }
    path.extend(rest.iter().cloned());
    Some(path)
}

// ---- The graph ----

/// (importing file, imported file) -> the lines of the importing file that do it.
type Edges = BTreeMap<(String, String), Vec<usize>>;

#[derive(Default)]
struct Crate {
    /// The library's files (`src/main.rs` is the binary's crate), by name.
    modules: BTreeMap<String, Module>,
    /// The file of each module path.
    files: BTreeMap<Vec<String>, String>,
    /// The names each file binds with `use` at its top level, and where they lead.
    bindings: HashMap<String, HashMap<String, Option<Vec<String>>>>,
}

impl Crate {
    fn load() -> Crate {
        let mut krate = Crate::default();
        let parsed: BTreeMap<String, Module> = rs_files("src")
            .into_iter()
            .filter(|file| file != "src/main.rs")
            .filter_map(|file| Some((file.clone(), Module::parse(&file)?)))
            .collect();
        // A file is compiled when every module on its path is declared (not under `#[cfg(test)]`).
        let declared: BTreeSet<Vec<String>> = parsed
            .iter()
            .flat_map(|(file, m)| {
                m.mods
                    .iter()
                    .map(|(name, _)| [module_path(file), vec![name.clone()]].concat())
            })
            .collect();
        for (file, module) in parsed {
            let path = module_path(&file);
            if !(1..=path.len()).all(|k| declared.contains(&path[..k])) {
                continue;
            }
            let top_uses = module.refs.iter().filter(|r| r.is_use && r.top);
            let bound = top_uses.filter_map(|r| Some((r.name.clone()?, r.path.clone())));
            krate.bindings.insert(file.clone(), bound.collect());
            krate.files.insert(module_path(&file), file.clone());
            krate.modules.insert(file, module);
        }
        krate
    }

    /// The file of the longest prefix of `path` that is a module, and that prefix's length: the
    /// rest names an item in that file.
    fn lexical(&self, path: &[String]) -> Option<(usize, &String)> {
        (0..=path.len())
            .rev()
            .find_map(|k| self.files.get(&path[..k]).map(|f| (k, f)))
    }

    /// The file `path` leads to, as rustc resolves it: the module's file, and for an item that
    /// file brought in with `use` (an import or a re-export, as `crate::Game`), the file it
    /// came from. `None` when it leads outside the crate.
    fn resolve(&self, path: &[String], hops: usize) -> Option<&String> {
        let (k, file) = self.lexical(path)?;
        let bound = path
            .get(k)
            .filter(|_| hops < 16)
            .and_then(|item| self.bindings[file].get(item));
        match bound {
            None => Some(file),
            Some(None) => None,
            Some(Some(target)) => {
                let next: Vec<String> = target.iter().chain(&path[k + 1..]).cloned().collect();
                self.resolve(&next, hops + 1)
            }
        }
    }

    /// Which file of the library depends on which: every `use` leaf and inline path written from
    /// `crate`, `self` or `super` that leads to another file, except a `pub use` of the file's own
    /// submodules (a parent re-exporting its children, as `src/lib.rs` does). A path written from
    /// a child's bare name (`style::Style` in `src/cli/mod.rs`) is not counted.
    fn dependencies(&self) -> Edges {
        let mut edges = Edges::new();
        for (file, module) in &self.modules {
            let own = module_path(file);
            for r in &module.refs {
                let Some(path) = r.path.as_ref().filter(|_| !r.bare) else {
                    continue;
                };
                if r.is_use && r.vis != Vis::Private {
                    let under = self.lexical(path).map(|(_, f)| module_path(f));
                    if under.is_some_and(|m| m.len() > own.len() && m.starts_with(&own)) {
                        continue;
                    }
                }
                match self.resolve(path, 0) {
                    Some(target) if target != file => {
                        edges
                            .entry((file.clone(), target.clone()))
                            .or_default()
                            .push(r.line);
                    }
                    _ => {}
                }
            }
        }
        edges
    }

    /// `file:line: text` for the first of `lines`, and how many more there are.
    fn example(&self, file: &str, lines: &[usize]) -> String {
        let text = self.modules[file].line(lines[0]);
        match lines.len() {
            1 => format!("{file}:{}: {text}", lines[0]),
            n => format!("{file}:{}: {text}  (and {} more)", lines[0], n - 1),
        }
    }
}

/// The strongly connected components of more than one file, each sorted.
fn cycles(edges: &Edges) -> BTreeSet<Vec<String>> {
    let mut graph: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        graph.entry(from).or_default().push(to);
        graph.entry(to).or_default();
    }
    let reach: BTreeMap<&str, BTreeSet<&str>> = graph
        .keys()
        .map(|&start| {
            let (mut seen, mut todo) = (BTreeSet::new(), vec![start]);
            while let Some(node) = todo.pop() {
                todo.extend(graph[node].iter().filter(|&&next| seen.insert(next)));
            }
            (start, seen)
        })
        .collect();
    let mut found = BTreeSet::new();
    for (&node, reached) in &reach {
        let scc: BTreeSet<&str> = reached
            .iter()
            .copied()
            .filter(|&o| reach[o].contains(node))
            .collect();
        if scc.len() > 1 {
            found.insert(scc.into_iter().map(String::from).collect());
        }
    }
    found
}
