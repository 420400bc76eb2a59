//! `ttt serve` through real sockets: the documented exchanges of docs/web.md, then hostile and
//! broken clients (oversized bodies and targets, malformed JSON, unknown games and bots,
//! commands as opponents, path traversal, hundreds of connections, a client that never reads,
//! a client that never finishes its headers), each answered with a 4xx while everyone else is
//! still served, in bounded memory; and Ctrl-C (a real SIGINT) ending it at once.

use crate::common;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::default_signals;

/// A running `ttt serve --port 0`, killed when dropped.
struct Server {
    child: Child,
    address: SocketAddr,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// `ttt serve --port 0` with `options` after it.
    fn start_with(options: &[&str]) -> Server {
        let mut child = default_signals(&mut Command::new(crate::common::ttt()))
            .args(["serve", "--port", "0"])
            .args(options)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("ttt serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let address = url["http://".len()..]
            .trim_end_matches('/')
            .parse()
            .unwrap();
        assert!(
            line.starts_with("Serving ttt on http://127.0.0.1:"),
            "{line}"
        );
        Server { child, address }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        stream
    }

    /// Sends `raw` on a new connection and reads the answer to its end: (status, body).
    fn exchange(&self, raw: &[u8]) -> (u16, String) {
        let mut stream = self.connect();
        let _ = stream.write_all(raw);
        read_response(&mut stream)
    }

    fn get(&self, target: &str) -> (u16, String) {
        self.exchange(
            format!("GET {target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").as_bytes(),
        )
    }

    fn post(&self, target: &str, body: &str) -> (u16, String) {
        let request = format!(
            "POST {target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        self.exchange(request.as_bytes())
    }

    /// The server's resident memory, in KiB.
    fn memory_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    fn still_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The status and body of one HTTP/1.1 answer with a Content-Length, read from `stream`.
fn read_response(stream: &mut TcpStream) -> (u16, String) {
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).unwrap();
    let status = status_line
        .split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("no status line: {status_line:?}"))
        .parse()
        .unwrap();
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        if header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap();
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    (status, String::from_utf8(body).unwrap())
}

fn error_of(body: &str) -> String {
    let json: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("{body}"));
    json["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{body}"))
        .to_string()
}

/// Every exchange of docs/web.md: a ```http block holding a request (`METHOD TARGET`, then
/// for a POST its JSON body), a blank line, and the answer (`STATUS`, then its JSON).
#[test]
fn every_exchange_in_the_docs_is_what_the_server_answers() {
    let page = std::fs::read_to_string(crate::common::root().join("docs/web.md")).unwrap();
    let server = Server::start();
    let mut checked = 0;
    let mut rest = page.as_str();
    while let Some(start) = rest.find("```http\n") {
        let block = &rest[start + 8..];
        let end = block.find("\n```").unwrap();
        let (request, answer) = block[..end]
            .split_once("\n\n")
            .expect("request, then answer");
        rest = &block[end..];
        let (line, body) = request.split_once('\n').unwrap_or((request, ""));
        let (method, target) = line.split_once(' ').unwrap();
        let (status, got) = match method {
            "GET" => server.get(target),
            "POST" => server.post(target, body),
            other => panic!("docs/web.md: a {other} request"),
        };
        let (want_status, want) = answer.split_once('\n').unwrap_or((answer, ""));
        assert_eq!(status.to_string(), want_status, "{line}: {got}");
        let got: serde_json::Value = serde_json::from_str(&got).unwrap();
        let want: serde_json::Value =
            serde_json::from_str(want).unwrap_or_else(|e| panic!("{line}: the page's JSON: {e}"));
        assert_eq!(got, want, "{line}");
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} exchanges in docs/web.md");
}

#[test]
fn the_page_and_its_assets_are_served_and_nothing_else() {
    let server = Server::start();
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"app.js\""));
    assert!(
        !page.contains("https://"),
        "the page fetches nothing from elsewhere"
    );
    assert_eq!(server.get("/app.js").0, 200);
    assert_eq!(server.get("/engine.js").0, 200);
    let (status, bots) = server.get("/api/bots");
    assert_eq!(status, 200);
    assert!(
        bots.contains("\"perfect\"") && !bots.contains("cmd:"),
        "{bots}"
    );
    assert_eq!(server.get("/style.css").0, 200);
    let (status, svg) = server.get("/map.svg?as=o");
    assert_eq!(status, 200);
    assert_eq!(
        svg.into_bytes(),
        ttt_oracle::web::map::svg(ttt_oracle::Player::O)
            .unwrap()
            .into_bytes()
    );
    for target in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/%2e%2e%2fCargo.toml",
        "/..%2f..%2fetc%2fpasswd",
        "//etc/passwd",
        "/src/web/page/app.js",
        "/app.js/../../Cargo.toml",
        "/api/../Cargo.toml",
        "/index.html%00",
    ] {
        let (status, body) = server.get(target);
        assert!((400..500).contains(&status), "{target}: {status}");
        assert!(
            !body.contains("[package]") && !body.contains("root:"),
            "{target}: {body}"
        );
    }
    assert_eq!(
        server
            .exchange(b"DELETE / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            .0,
        405
    );
}

#[test]
fn bad_requests_get_a_4xx_that_says_what_is_wrong() {
    let server = Server::start();
    for (target, status, says) in [
        ("/api/analyze?game=9x9", 400, "at most 16"),
        ("/api/analyze?game=banana", 400, "game \"banana\""),
        ("/api/analyze?moves=5+5", 400, "already taken"),
        ("/api/analyze?moves=5&board=X........", 400, "not both"),
        (
            "/api/analyze?colour=red",
            400,
            "unknown parameter \"colour\"",
        ),
        ("/api/analyze?moves=%zz", 400, "bad escape"),
        (
            "/api/analyze?moves=5&moves=1",
            400,
            "\"moves\" is given twice",
        ),
        ("/api/move?opponent=deep-blue", 400, "deep-blue"),
        ("/api/move?opponent=cmd:true", 403, "never a program"),
        ("/api/move?opponent=+CMD:true", 403, "never a program"),
        ("/api/move?moves=1+4+2+5+3", 400, "over"),
        ("/api/move?game=4x4&opponent=smartbot", 400, "smartbot"),
        (
            "/api/review?text=result:+x_wins+moves:+5",
            400,
            "unfinished",
        ),
        ("/api/review?text=hello", 400, "no result line"),
        ("/api/nothing", 404, "no endpoint"),
    ] {
        let (got, body) = server.get(target);
        assert_eq!(got, status, "{target}: {body}");
        assert!(error_of(&body).contains(says), "{target}: {body}");
    }
    for (body, says) in [
        ("{\"moves\": ", "not a JSON object"),
        ("[5, 1]", "not a JSON object"),
        ("{\"moves\": [5, 1]}", "string or a number"),
        ("\u{0}\u{1}", "not a JSON object"),
        // As in a query string (`?moves=5&moves=1`), a name given twice is refused.
        (
            "{\"moves\":\"5\",\"moves\":\"1\"}",
            "\"moves\" is given twice",
        ),
    ] {
        let (got, answer) = server.post("/api/analyze", body);
        assert_eq!(got, 400, "{body}: {answer}");
        assert!(error_of(&answer).contains(says), "{body}: {answer}");
    }
}

#[test]
fn a_client_that_half_closes_after_its_request_gets_its_answer() {
    let server = Server::start();
    for _ in 0..20 {
        let mut stream = server.connect();
        stream
            .write_all(b"GET /api/analyze?moves=5+1 HTTP/1.1\r\nHost: t\r\n\r\n")
            .unwrap();
        stream.shutdown(std::net::Shutdown::Write).unwrap();
        let (status, body) = read_response(&mut stream);
        assert_eq!(status, 200, "{body}");
        assert!(body.contains("\"board\":\"O...X....\""), "{body}");
    }
}

#[test]
fn no_request_starts_a_process() {
    let dir = tempfile::tempdir().unwrap();
    let flag = dir.path().join("started");
    let server = Server::start();
    let command = format!("cmd:touch {}", flag.display());
    for body in [
        serde_json::json!({ "opponent": command }),
        serde_json::json!({ "opponent": format!(" {command}") }),
        serde_json::json!({ "opponent": format!("casual:0.5 {command}") }),
    ] {
        let (status, answer) = server.post("/api/move", &body.to_string());
        assert!((400..500).contains(&status), "{body}: {answer}");
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(!flag.exists(), "a request started a program");
}

#[test]
fn oversized_bodies_and_targets_are_refused_without_being_read() {
    let mut server = Server::start();
    // A declared length past the limit: refused before a byte of the body is read.
    let mut stream = server.connect();
    let head = "POST /api/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000000\r\n\r\n";
    stream.write_all(head.as_bytes()).unwrap();
    let (status, body) = read_response(&mut stream);
    assert_eq!(status, 413, "{body}");
    // A chunked body that never ends: cut off at the limit.
    let mut stream = server.connect();
    let head = "POST /api/analyze HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
    stream.write_all(head.as_bytes()).unwrap();
    let chunk = format!("4000\r\n{}\r\n", " ".repeat(0x4000));
    for _ in 0..4 {
        if stream.write_all(chunk.as_bytes()).is_err() {
            break;
        }
    }
    let (status, _) = read_response(&mut stream);
    assert_eq!(status, 413);
    // A target past the limit, and a header block past the buffer.
    let long = format!("/api/analyze?moves={}", "5+".repeat(5000));
    let (status, body) = server.get(&long);
    assert!((400..500).contains(&status), "{status}: {body}");
    let huge = format!("/api/analyze?moves={}", "1".repeat(100_000));
    let raw = format!("GET {huge} HTTP/1.1\r\nHost: t\r\n\r\n");
    let mut stream = server.connect();
    let _ = stream.write_all(raw.as_bytes());
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 4"),
        "{answer}"
    );
    assert!(server.still_running());
    assert_eq!(server.get("/api/games").0, 200);
}

#[test]
fn hundreds_of_connections_are_all_answered() {
    let server = Server::start();
    let before = server.memory_kib();
    let mut streams: Vec<TcpStream> = (0..300).map(|_| server.connect()).collect();
    for (i, stream) in streams.iter_mut().enumerate() {
        let target = format!("/api/analyze?moves={}", i % 9 + 1);
        let request = format!("GET {target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).unwrap();
    }
    for stream in &mut streams {
        let (status, body) = read_response(stream);
        assert_eq!(status, 200, "{body}");
    }
    // 300 idle connections held open: still someone else is answered.
    let idle: Vec<TcpStream> = (0..300).map(|_| server.connect()).collect();
    let started = Instant::now();
    assert_eq!(server.get("/api/analyze?moves=5").0, 200);
    assert!(started.elapsed() < Duration::from_secs(5));
    let growth = server.memory_kib().saturating_sub(before);
    assert!(growth < 64 * 1024, "memory grew by {growth} KiB");
    drop(idle);
}

#[test]
fn a_client_that_never_reads_holds_nothing_up() {
    let server = Server::start();
    let before = server.memory_kib();
    // Each asks for the 1 MB map again and again and reads none of it.
    let mut stalled = Vec::new();
    for _ in 0..20 {
        let mut stream = server.connect();
        let request = "GET /map.svg?as=o HTTP/1.1\r\nHost: t\r\n\r\n".repeat(8);
        stream
            .set_write_timeout(Some(Duration::from_secs(2)))
            .unwrap();
        let _ = stream.write_all(request.as_bytes());
        stalled.push(stream);
    }
    let started = Instant::now();
    for _ in 0..20 {
        assert_eq!(server.get("/api/analyze?moves=1+5").0, 200);
    }
    assert!(started.elapsed() < Duration::from_secs(10));
    let growth = server.memory_kib().saturating_sub(before);
    assert!(growth < 64 * 1024, "memory grew by {growth} KiB");
    drop(stalled);
}

#[test]
fn a_client_that_never_finishes_its_headers_is_cut_off() {
    let server = Server::start();
    let mut slow = server.connect();
    slow.write_all(b"GET /api/games HTTP/1.1\r\nHost: t\r\n")
        .unwrap();
    let started = Instant::now();
    // Others are answered meanwhile.
    assert_eq!(server.get("/api/games").0, 200);
    // One header line every second: the server closes the connection after its header
    // timeout (10 s), whatever the client sends.
    let mut closed = false;
    while started.elapsed() < Duration::from_secs(25) {
        std::thread::sleep(Duration::from_secs(1));
        if slow.write_all(b"X-Slow: 1\r\n").is_err() {
            closed = true;
            break;
        }
        slow.set_read_timeout(Some(Duration::from_millis(10)))
            .unwrap();
        let mut buffer = [0; 256];
        match slow.read(&mut buffer) {
            Ok(_) => {
                closed = true;
                break;
            }
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => {
                closed = true;
                break;
            }
        }
    }
    assert!(closed, "the slow client was still connected after 25 s");
    assert!(started.elapsed() >= Duration::from_secs(9));
}

#[test]
fn ctrl_c_stops_the_server_at_once() {
    let mut server = Server::start();
    // A connection in the middle of a request, and one idle.
    let mut busy = server.connect();
    busy.write_all(b"POST /api/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n{")
        .unwrap();
    let _idle = server.connect();
    let pid = i32::try_from(server.child.id()).unwrap();
    // SAFETY: kill(2) with a pid of our own child.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "still running after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    assert!(
        TcpStream::connect(server.address).is_err(),
        "still listening"
    );
}

/// The time an embedded game's analysis took, checked under the bound: under two seconds
/// even on a loaded machine, where it takes a millisecond.
fn quick(server: &Server, target: &str) -> Duration {
    let started = Instant::now();
    let (status, body) = server.get(target);
    let took = started.elapsed();
    assert_eq!(status, 200, "{target}: {body}");
    assert!(
        took < Duration::from_secs(2),
        "{target} took {took:?} during solves"
    );
    took
}

/// The analysis of the first move of `game`, asked on a thread of its own: (status, body).
fn analyze_apart(server: &Server, game: &str) -> std::thread::JoinHandle<(u16, String)> {
    let address = server.address;
    let request = format!(
        "GET /api/analyze?game={game}&moves=1 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
    );
    std::thread::spawn(move || {
        let mut stream = TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        read_response(&mut stream)
    })
}

#[test]
fn embedded_games_are_answered_at_once_while_other_games_are_solved() {
    let server = Server::start();
    // Four games of 16 cells with no table built in, asked at once: solved one at a time,
    // a second or more each.
    let solves: Vec<_> = ["2x8k3", "8x2k5", "1x16k4", "16x1k6"]
        .map(|game| analyze_apart(&server, game))
        .into();
    std::thread::sleep(Duration::from_millis(200));
    let mut asked = 0;
    let mut slowest = Duration::ZERO;
    while solves.iter().any(|solve| !solve.is_finished()) {
        slowest = slowest
            .max(quick(&server, "/api/analyze?moves=5+1+9"))
            .max(quick(&server, "/api/analyze?game=4x4&moves=1"))
            .max(quick(&server, "/api/move?game=4x4k3&moves=1"));
        asked += 1;
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        asked >= 3,
        "the solves ended before the embedded games were asked"
    );
    for solve in solves {
        let (status, body) = solve.join().unwrap();
        assert_eq!(status, 200, "{body}");
        assert!(body.contains(r#""value":"#), "{body}");
    }
    eprintln!("{asked} rounds of embedded games during the solves, the slowest {slowest:?}");
}

#[test]
fn more_games_than_the_cache_holds_are_answered_in_bounded_memory() {
    // 48 MiB holds one table of 16 cells (reckoned 43 MB).
    let server = Server::start_with(&["--cache", "48M"]);
    let first = server.get("/api/analyze?game=2x8k3&moves=1+2");
    assert_eq!(first.0, 200, "{}", first.1);
    let mut peak = 0;
    for game in [
        "2x8k4", "1x16k4", "3x5", "5x3k2", "2x7k3", "8x2k3", "1x16k5", "2x8k3",
    ] {
        let (status, body) = server.get(&format!("/api/analyze?game={game}&moves=1+2"));
        assert_eq!(status, 200, "{game}: {body}");
        assert!(
            body.starts_with(&format!(r#"{{"game":"{game}","#)),
            "{body}"
        );
        peak = peak.max(server.memory_kib());
    }
    // 2x8k3 was dropped and solved again: the same answer.
    assert_eq!(server.get("/api/analyze?game=2x8k3&moves=1+2"), first);
    // What the cache holds, the least of the tables, and 64 MiB of the rest (6 MiB at the
    // start); the server held each table it solved, 180 MiB of them, before.
    assert!(
        peak < (48 + 64) * 1024,
        "resident memory reached {peak} KiB"
    );
    // Play answers from the same cache, in the same bounds: a game dropped and solved again
    // plays the same move, a best one by the analysis. Play kept every table before, and was
    // refused past half the cache.
    let opening = server.get("/api/move?game=2x8k4&moves=1&seed=7");
    assert_eq!(opening.0, 200, "{}", opening.1);
    for game in ["1x16k3", "2x8k3", "8x2k4", "1x16k4", "2x7k3"] {
        let (status, body) = server.get(&format!("/api/move?game={game}&moves=1"));
        assert_eq!(status, 200, "{game}: {body}");
        peak = peak.max(server.memory_kib());
    }
    assert_eq!(server.get("/api/move?game=2x8k4&moves=1&seed=7"), opening);
    let cell = serde_json::from_str::<serde_json::Value>(&opening.1).unwrap()["cell"].clone();
    let analysis = server.get("/api/analyze?game=2x8k4&moves=1").1;
    let best = serde_json::from_str::<serde_json::Value>(&analysis).unwrap()["best"].clone();
    assert!(
        best.as_array().unwrap().contains(&cell),
        "{cell} not in {best}"
    );
    assert!(
        peak < (48 + 64) * 1024,
        "resident memory reached {peak} KiB with play"
    );
    assert_eq!(server.get("/api/analyze?moves=5").0, 200);
    let (status, body) = server.get("/api/review?game=1x16k3&moves=1+2");
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_solve_past_the_memory_limit_drops_the_cache_to_make_room() {
    // Two tables of 15 and 16 cells fill a 60 MiB cache; a solve of 16 cells beside them
    // would pass the 120 MiB limit, so they are dropped for it (503 for good, before).
    let server = Server::start_with(&["--max-memory", "120M", "--cache", "60M"]);
    for game in ["1x16k3", "1x15k3"] {
        let (status, body) = server.get(&format!("/api/analyze?game={game}&moves=1"));
        assert_eq!(status, 200, "{game}: {body}");
    }
    for game in ["2x8k3", "2x8k4", "1x16k3"] {
        let (status, body) = server.get(&format!("/api/move?game={game}&moves=1"));
        assert_eq!(status, 200, "{game}: {body}");
    }
}

#[test]
fn requests_waiting_for_one_solve_share_it_when_the_cache_cannot_keep_it() {
    // A cache of 1 MiB keeps no table of 16 cells: requests that came during its solve answer
    // from it, rather than each solving it again after the other (4 solves' time, before).
    let server = Server::start_with(&["--cache", "1M"]);
    let asked = |games: &[&'static str]| {
        let started = Instant::now();
        let answers: Vec<_> = games
            .iter()
            .map(|game| analyze_apart(&server, game))
            .collect();
        for answer in answers {
            let (status, body) = answer.join().unwrap();
            assert_eq!(status, 200, "{body}");
        }
        started.elapsed()
    };
    let one = asked(&["1x16k3"]);
    let four = asked(&["1x16k3"; 4]);
    eprintln!("one request {one:?}, four at once {four:?}");
    assert!(
        four < one * 5 / 2,
        "one solve took {one:?}, four requests {four:?}"
    );
}

#[test]
fn a_table_held_for_waiting_requests_is_let_go() {
    // No table of 16 cells fits a 40 MiB cache: one solved while others wait for it is held
    // for them alone, then let go, and a solve that needs the room takes it (the server once
    // kept it until its game was asked again, refusing every other 16-cell game meanwhile).
    let server = Server::start_with(&["--cache", "40M", "--max-memory", "100M"]);
    let first = [
        analyze_apart(&server, "2x8k3"),
        analyze_apart(&server, "2x8k3"),
    ];
    std::thread::sleep(Duration::from_millis(50));
    let other = analyze_apart(&server, "2x8k4");
    for answer in first.into_iter().chain([other]) {
        let (status, body) = answer.join().unwrap();
        assert_eq!(status, 200, "{body}");
    }
    for game in ["1x16k3", "8x2k4"] {
        let (status, body) = server.get(&format!("/api/analyze?game={game}&moves=1"));
        assert_eq!(status, 200, "{game}: {body}");
    }
}

#[test]
fn a_request_under_way_when_its_connection_ends_is_answered() {
    // A connection takes requests for 30 s; one sent just before, for a game whose solve
    // takes a second or more, still gets its answer (it got none, before).
    let server = Server::start();
    let mut stream = server.connect();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let started = Instant::now();
    let ask = |stream: &mut TcpStream, target: &str, last: bool| {
        let close = if last { "Connection: close\r\n" } else { "" };
        let request = format!("GET {target} HTTP/1.1\r\nHost: t\r\n{close}\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        read_response(stream)
    };
    // Kept busy: an idle connection is closed after 10 s.
    while started.elapsed() < Duration::from_millis(29_500) {
        assert_eq!(ask(&mut stream, "/api/analyze?moves=5", false).0, 200);
        std::thread::sleep(
            Duration::from_secs(4)
                .min(Duration::from_millis(29_500).saturating_sub(started.elapsed())),
        );
    }
    let (status, body) = ask(&mut stream, "/api/analyze?game=1x16k5&moves=1", true);
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_cache_past_half_the_memory_limit_is_refused() {
    let output = Command::new(crate::common::ttt())
        .args([
            "serve",
            "--port",
            "0",
            "--cache",
            "1G",
            "--max-memory",
            "1G",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("--cache 1 GiB is more than half the memory limit"),
        "{stderr}"
    );
}
