//! `ttt serve`: the web page and its JSON API (`ttt_oracle::web`), over HTTP/1 with hyper on one
//! thread of tokio, within limits that keep a hostile or broken client from holding the
//! server: at most [`MAX_CONNECTIONS`] at once (more wait in the kernel's queue), headers
//! within [`HEADER_TIMEOUT`], a body within [`MAX_BODY`] bytes and
//! [`BODY_TIMEOUT`], and every connection closed after [`CONNECTION_LIFETIME`] (a request
//! under way then answered first, within [`ANSWER_LIFETIME`]), so that a client that never
//! reads its answer holds nothing for long. Answers for the games with a table built in are
//! computed on a few blocking threads of their own, and those for other games (solved on
//! request, `--cache`) on as many more as `ttt_oracle::web` answers at once. Ctrl-C ends it at once, through the signal handling of every command
//! (`ttt_oracle::shutdown`).

use std::convert::Infallible;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use ttt_oracle::memory::Size;
use ttt_oracle::web::{self, DEFAULT_CACHE, MAX_APART, MAX_BODY};

use super::Failure;

/// Arguments of `ttt serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on; 0 takes any free one (the address is printed either way).
    #[arg(short = 'p', long, default_value_t = 8032)]
    port: u16,
    /// The address to listen on: 127.0.0.1, this machine only, unless you choose otherwise.
    #[arg(long, value_name = "ADDRESS", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Open the page in the default browser (xdg-open, or open on macOS) once listening.
    #[arg(long)]
    open: bool,
    /// The memory the tables of games with none built in may hold once solved on request:
    /// bytes, or a number with K, M, G or T (e.g. 64M). By default 256M, or a quarter of the
    /// memory limit (--max-memory) when that is less; at most half of it.
    #[arg(long, value_name = "SIZE", value_parser = super::size::parse_size)]
    cache: Option<u64>,
}

/// The most connections served at once; the next ones wait in the kernel's queue.
const MAX_CONNECTIONS: usize = 512;

/// How long a client may take to send a request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a client may take to send a request's body.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a connection takes new requests: a browser opens another.
const CONNECTION_LIFETIME: Duration = Duration::from_secs(30);

/// How long a request under way when the connection's lifetime ends may take to be answered
/// and sent: the longest wait for solves (eight of 16 cells, one after another, take some
/// 30 s on a loaded machine of two cores), and more.
const ANSWER_LIFETIME: Duration = Duration::from_secs(120);

/// The threads that answer the games with a table built in, beside the [`MAX_APART`] that
/// requests for other games may hold: those never take these.
const WORKERS: usize = 4;

/// Serves the page until a signal ends the program.
pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    let limit = ttt_oracle::memory::limit();
    web::set_cache(match (args.cache, limit) {
        (Some(cache), Some(limit)) if cache > limit / 2 => {
            return Err(Failure::usage(format!(
                "--cache {} is more than half the memory limit, {}: solves need the rest; \
                 give less, or raise --max-memory",
                Size(cache),
                Size(limit)
            )));
        }
        (Some(cache), _) => cache,
        (None, limit) => limit.map_or(DEFAULT_CACHE, |limit| DEFAULT_CACHE.min(limit / 4)),
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(WORKERS + MAX_APART)
        .build()?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let address = SocketAddr::new(args.bind, args.port);
    let listener = TcpListener::bind(address).await.map_err(|error| {
        Failure::usage(format!(
            "cannot listen on {address}: {error} (choose another --port, or 0 for any free one)"
        ))
    })?;
    let url = format!("http://{}/", listener.local_addr()?);
    let mut out = super::stdout();
    writeln!(out, "Serving ttt on {url} (Ctrl-C stops it)")?;
    out.flush()?;
    if args.open {
        open(&url);
    }
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .max_buf_size(16 * 1024)
        .keep_alive(true)
        // A client may shut its side down once the request is sent (`curl`, `nc -N`): it still
        // gets its answer.
        .half_close(true);
    loop {
        let slot = Arc::clone(&slots)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was taken: the others
            // go on; a moment's pause keeps a persistent error from spinning.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let connection = builder.serve_connection(TokioIo::new(stream), service_fn(answer));
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            if tokio::time::timeout(CONNECTION_LIFETIME, connection.as_mut())
                .await
                .is_err()
            {
                // A request being answered (one waiting for solves, say) still gets its
                // answer, then the connection closes; a client that does not read it is let
                // go after ANSWER_LIFETIME more.
                connection.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(ANSWER_LIFETIME, connection).await;
            }
            drop(slot);
        });
    }
}

/// Opens `url` in the default browser, or says why not; the server runs on either way.
fn open(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let started = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(error) = started {
        eprintln!("ttt serve: cannot open a browser with {opener}: {error}; open {url}");
    }
}

/// One request: its body read within the limits, then its answer computed off the event loop.
async fn answer(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = request.method().as_str().to_string();
    let target = request.uri().path_and_query().map_or_else(
        || request.uri().path().to_string(),
        |pq| pq.as_str().to_string(),
    );
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|length| length.to_str().ok()?.parse::<u64>().ok());
    let too_large = || web::Response::error(413, &format!("a body is at most {MAX_BODY} bytes"));
    if declared.is_some_and(|length| length > MAX_BODY as u64) {
        return Ok(reply(too_large(), false));
    }
    let body = Limited::new(request.into_body(), MAX_BODY).collect();
    let body = match tokio::time::timeout(BODY_TIMEOUT, body).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => {
            return Ok(reply(too_large(), false));
        }
        Ok(Err(_)) => {
            let message = "the request's body could not be read";
            return Ok(reply(web::Response::error(400, message), false));
        }
        Err(_) => {
            let message = format!("the body took more than {}s", BODY_TIMEOUT.as_secs());
            return Ok(reply(web::Response::error(408, &message), false));
        }
    };
    let computed = tokio::task::spawn_blocking(move || web::respond(&method, &target, &body)).await;
    let response = computed
        .unwrap_or_else(|_| web::Response::error(500, "the answer failed: see the server's log"));
    Ok(reply(response, true))
}

/// The HTTP form of `response`; `keep` false closes the connection after it (its request's
/// body was not read to its end).
fn reply(response: web::Response, keep: bool) -> Response<Full<Bytes>> {
    let status = StatusCode::from_u16(response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = match response.body {
        std::borrow::Cow::Borrowed(bytes) => Bytes::from_static(bytes),
        std::borrow::Cow::Owned(bytes) => Bytes::from(bytes),
    };
    let mut http = Response::new(Full::new(body));
    *http.status_mut() = status;
    let headers = http.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(response.content_type),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Nothing from elsewhere: no CDN, no frame, no script but the page's own.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'"),
    );
    if !keep {
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    http
}
