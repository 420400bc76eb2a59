//! What `ttt serve` answers, without the HTTP: a request (method, target, body) in, a response
//! (status, type, body) out. The page and its assets are embedded in the binary; every action
//! of the page goes through the JSON API of `web/api.rs`, whose keys are those of `--format json`.
//! The server (`src/cli/serve.rs`) only carries bytes, within the limits set here.
//!
//! Nothing here starts a process or opens a file: assets are matched by exact name against
//! the embedded list, and opponents are the built-in bots and styles only.

mod api;
pub mod map;
mod params;
mod tables;

pub use tables::{DEFAULT_CACHE, MAX_APART, reckoned, set_cache};

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::board::Player;

/// The longest request target (path and query) answered, in bytes: a game's moves take a few
/// dozen. A longer one gets 414.
pub const MAX_TARGET: usize = 2048;

/// The largest request body read, in bytes: a pasted transcript of `ttt play` takes a few
/// kilobytes. A larger one gets 413, and is not read to its end.
pub const MAX_BODY: usize = 16 * 1024;

/// An answer: its HTTP status, its media type and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The HTTP status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Cow<'static, [u8]>,
}

const JSON: &str = "application/json";

/// A failed request: its status and what to say.
type Refusal = (u16, String);

impl Response {
    fn asset(content_type: &'static str, body: &'static [u8]) -> Response {
        Response {
            status: 200,
            content_type,
            body: Cow::Borrowed(body),
        }
    }

    /// A JSON answer.
    fn json(status: u16, body: Vec<u8>) -> Response {
        Response {
            status,
            content_type: JSON,
            body: Cow::Owned(body),
        }
    }

    /// An error for programs and people at once: `{"error": MESSAGE}`.
    pub fn error(status: u16, message: &str) -> Response {
        let body = serde_json::to_vec(&serde_json::json!({ "error": message }))
            .expect("a string serializes");
        Response::json(status, body)
    }
}

/// The page's files, by the exact path that serves them. (`page/worker.js` is the static copy's
/// alone: it runs this module as WebAssembly in the browser.)
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_bytes!("page/index.html"),
    ),
    (
        "/engine.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/engine.js"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("page/app.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_bytes!("page/style.css"),
    ),
];

/// The answer to `method` on `target` (path and query, as the request line has it) with
/// `body`, which the server has already bounded to [`MAX_BODY`].
///
/// # Examples
///
/// ```
/// use ttt_oracle::web::respond;
///
/// let answer = respond("GET", "/api/analyze?moves=5+1+9", b"");
/// assert_eq!(answer.status, 200);
/// assert!(answer.body.starts_with(br#"{"board":"O...X...X","to_move":"O","#));
/// assert_eq!(respond("GET", "/../Cargo.toml", b"").status, 404);
/// ```
pub fn respond(method: &str, target: &str, body: &[u8]) -> Response {
    if target.len() > MAX_TARGET {
        let message = format!("the request target is longer than {MAX_TARGET} bytes");
        return Response::error(414, &message);
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if let Some(name) = path.strip_prefix("/api/") {
        return api::answer(method, name, query, body);
    }
    if !matches!(method, "GET" | "HEAD") {
        return Response::error(405, &format!("{method} is not allowed on {path}: use GET"));
    }
    if path == "/map.svg" {
        return map(query);
    }
    match ASSETS.iter().find(|(name, ..)| *name == path) {
        Some(&(_, content_type, bytes)) => Response::asset(content_type, bytes),
        None => Response::error(404, "no such page: the page is at /, the API under /api/"),
    }
}

/// `/map.svg?as=x` or `?as=o`: the map of perfect play, drawn once for each side.
fn map(query: &str) -> Response {
    static MAPS: [OnceLock<Result<String, String>>; 2] = [OnceLock::new(), OnceLock::new()];
    let player = match params::Params::from_query(query).and_then(|p| p.only(&["as"])) {
        Err(message) => return Response::error(400, &message),
        Ok(params) => match params.get("as").map(str::to_ascii_lowercase).as_deref() {
            None | Some("x") => Player::X,
            Some("o") => Player::O,
            Some(other) => {
                let message = format!("as={other}: the map is drawn for x or o");
                return Response::error(400, &message);
            }
        },
    };
    let drawn = MAPS[usize::from(player == Player::O)]
        .get_or_init(|| map::svg(player).map_err(|error| error.to_string()));
    match drawn {
        Ok(svg) => Response {
            status: 200,
            content_type: "image/svg+xml",
            body: Cow::Borrowed(svg.as_bytes()),
        },
        Err(message) => Response::error(500, message),
    }
}
